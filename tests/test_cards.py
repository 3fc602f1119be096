"""Cards: parsing every common notation, formatting back, and clear errors."""

import numpy as np
import pytest

from simkit.cards import (
    DECK_SIZE,
    format_cards,
    full_deck,
    make_card,
    parse_cards,
    rank_of,
    suit_of,
)


def test_card_integer_is_four_rank_plus_suit():
    """2♣ is 0, A♠ is 51: card = 4 * rank + suit, rank 0..12 = 2..A, suit 0..3 = ♣ ♦ ♥ ♠."""
    assert parse_cards("2c").tolist() == [0]
    assert parse_cards("As").tolist() == [51]
    assert parse_cards("3d").tolist() == [make_card(1, 1)] == [5]
    assert rank_of(51) == 12 and suit_of(51) == 3


@pytest.mark.parametrize(
    "text",
    [
        "As Kd 10h 9c ♠Q 7♦",
        "as kd th 9c qs 7d",
        "AS,KD,TH,9C,QS,7D",
        "sA dK h10 c9 sQ d7",
        "♠A ♦K ♥10 ♣9 ♠Q ♦7",
        "A♠ K♦ T♥ 9♣ Q♠ 7♦",
        "♤A ♢K ♡T ♧9 ♤Q ♢7",
    ],
)
def test_common_notations_parse_alike(text):
    assert parse_cards(text).tolist() == [51, 45, 34, 28, 43, 21]


def test_parse_accepts_a_list_of_tokens_and_returns_int8():
    cards = parse_cards(["As", "2c"])
    assert cards.dtype == np.int8 and cards.tolist() == [51, 0]


def test_format_is_the_inverse_of_parse_for_every_card():
    deck = full_deck()
    assert parse_cards(format_cards(deck)).tolist() == deck.tolist()
    assert parse_cards(format_cards(deck, ascii=True)).tolist() == deck.tolist()
    assert format_cards(parse_cards("10h")) == "T♥"


@pytest.mark.parametrize(
    ("text", "token", "position"),
    [("As Kd 1h", "1h", 2), ("Zs", "Zs", 0), ("As Kd Qx", "Qx", 2), ("As 11h", "11h", 1)],
)
def test_malformed_token_names_token_and_position(text, token, position):
    with pytest.raises(ValueError, match=rf"malformed card '{token}' at position {position}"):
        parse_cards(text)


def test_duplicate_card_is_an_error_with_one_deck():
    with pytest.raises(ValueError, match=r"duplicate card A♠ at positions \[0, 2\]"):
        parse_cards("As Kd as")


def test_duplicates_allowed_up_to_the_number_of_decks():
    assert parse_cards("As As", decks=2).tolist() == [51, 51]
    with pytest.raises(ValueError, match="duplicate card A♠"):
        parse_cards("As As As", decks=2)


def test_bad_decks_and_bad_card_integers():
    with pytest.raises(ValueError, match="decks"):
        parse_cards("As", decks=0)
    with pytest.raises(ValueError, match="not a card integer: 67"):
        format_cards([67])  # 52..66: the fifth suit and the jokers
    with pytest.raises(ValueError, match="rank must be"):
        make_card(13, 0)


def test_full_deck():
    assert full_deck().shape == (DECK_SIZE,)
    assert np.bincount(full_deck(2)).tolist() == [2] * DECK_SIZE
