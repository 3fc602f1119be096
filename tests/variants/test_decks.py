"""Decks: the ``[deck]`` section, the cards beyond the 52, and exactly uniform dealing of any
pack."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import stats

from simkit.cards import (
    DECK_SIZE,
    JOKER_CARDS,
    N_CARD_INTS,
    format_cards,
    make_card,
    pack_cards,
    parse_cards,
    rank_of,
    suit_of,
)
from simkit.deal import deal
from simkit.errors import SimkitError
from simkit.variants import (
    STANDARD_TWO_DECKS,
    Deck,
    VariantError,
    deck_option_names,
    load_variant,
    variant_names,
)

# ---------------------------------------------------------------------------------------------
# The [deck] section.


def test_deck_sizes():
    assert Deck().n_cards == 52 and Deck().n_suits == 4
    assert Deck(decks=2, players=(5,)).n_cards == 104
    assert Deck(extra_suit=True, players=(5,)).n_cards == 65
    assert Deck(jokers=2).n_cards == 54
    assert Deck(decks=2, extra_suit=True, jokers=2, players=(8,)).n_cards == 132


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"decks": 3}, "decks must be 1 or 2"),
        ({"jokers": 3}, "jokers must be 0, 1 or 2"),
        ({"players": (5,)}, "5 players need 65 cards but this deck .* holds 52"),
        ({"players": (2, 9)}, "2 to 8 players"),
        ({"players": (3, 2)}, "increasing"),
        ({"players": ()}, "at least one"),
        ({"extra_suit": True, "players": (6,)}, "6 players need 78 cards .* at most 5 players"),
    ],
)
def test_bad_decks_are_named(kwargs, message):
    with pytest.raises(SimkitError, match=message):
        Deck(**kwargs)


def _write(tmp_path, text):
    path = tmp_path / "mine.toml"
    path.write_text('[variant]\nname = "mine"\nextends = "guangxi"\n' + text, encoding="utf-8")
    return path


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("[deck]\ndecks = 2\nplayers = [5, 9]\n", r"mine.toml: \[deck\]: players: .*2 to 8"),
        ("[deck]\nplayers = [4, 5]\n", r"\[deck\]: players: 5 players need 65 cards"),
        ("[deck]\njokers = true\n", r"\[deck\].jokers: expected an integer"),
        (
            "[deck]\nsuits = 5\n",
            r"\[deck\]: unknown key 'suits'; valid keys are: decks, extra_suit",
        ),
        (
            '[ranking]\nfive_suit_straight = "below-straight-flush"\n',
            r"five_suit_straight .* needs five suits: set \[deck\].extra_suit = true",
        ),
        ('[ranking]\nfive_suit_straight = "top"\n', r"five_suit_straight: 'top' is not valid"),
    ],
)
def test_bad_deck_sections_name_file_and_key(tmp_path, text, message):
    with pytest.raises(VariantError, match=message):
        load_variant(_write(tmp_path, text))


def test_every_shipped_variant_states_its_deck_and_cites_it():
    """Each file's [deck] is the usual one deck for 2-4 players (5-8: two decks, as before)."""
    for name in variant_names():
        variant = load_variant(name)
        assert variant.deck.is_one_deck and variant.deck.players == (2, 3, 4), name
        assert variant.deck.source, f"{name}: [deck] cites no source"
        assert variant.deck_for(4) is variant.deck
        assert variant.deck_for(6) == STANDARD_TWO_DECKS


def test_deck_options_load_by_name():
    names = deck_option_names()
    assert {"guangxi-jokers", "guangxi-five-suits", "guangxi-two-decks"} <= set(names)
    assert not set(names) & set(variant_names())
    for name in names:
        variant = load_variant(name)
        assert not variant.deck.is_one_deck and variant.deck.source
        assert variant.key != load_variant("guangxi").key
    jokers = load_variant("guangxi-jokers")
    with pytest.raises(SimkitError, match="serves 2, 3, 4 players, not 6"):
        jokers.deck_for(6)


def test_the_deck_is_part_of_the_key():
    gx = load_variant("guangxi")
    assert load_variant("guangxi-jokers").specials == gx.specials
    assert load_variant("guangxi-jokers").key.split("@")[1] != gx.key.split("@")[1]


# ---------------------------------------------------------------------------------------------
# Cards beyond the 52.


def test_one_deck_integers_are_unchanged():
    assert make_card(12, 3) == 51 and make_card(0, 0) == 0
    assert parse_cards("As 2c").tolist() == [51, 0]


def test_fifth_suit_and_jokers_parse_and_format_both_ways():
    cards = parse_cards("A* ★K 2☆ JK 🃏")
    assert cards.tolist() == [64, 63, 52, 65, 66]
    assert format_cards(cards) == "A★ K★ 2★ 🃏 🃏"
    assert format_cards(cards, ascii=True) == "A* K* 2* JK JK"
    assert (parse_cards(format_cards(cards, ascii=True)) == cards).all()
    every = np.arange(N_CARD_INTS)
    assert (parse_cards(format_cards(every)) == every).all()
    assert rank_of(cards).tolist() == [12, 11, 0, -1, -1]
    assert suit_of(cards).tolist() == [4, 4, 4, -1, -1]
    assert make_card(5, 4) == 57
    with pytest.raises(SimkitError, match="at most 2"):
        parse_cards("JK JK JK")


def test_pack_cards():
    assert pack_cards().tolist() == list(range(DECK_SIZE))
    assert np.bincount(pack_cards(2, True, 2)).tolist() == [2] * 65 + [1, 1]
    assert pack_cards(1, False, 1).tolist()[-1] == JOKER_CARDS[0]


# ---------------------------------------------------------------------------------------------
# Dealing any pack: seeded, sorted, each physical card once, exactly uniform.

PACKS = [
    Deck(jokers=2),
    Deck(jokers=1, players=(3,)),
    Deck(extra_suit=True, players=(4, 5)),
    Deck(decks=2, extra_suit=True, jokers=2, players=(8,)),
]


@pytest.mark.parametrize("deck", PACKS, ids=lambda d: d.describe())
def test_deal_any_pack_is_seeded_and_deals_physical_cards(deck):
    p = deck.players[-1]
    hands = deal(2000, p, rng=7, deck=deck)
    assert hands.shape == (2000, p, 13)
    assert (hands == deal(2000, p, rng=7, deck=deck)).all()
    assert not (hands == deal(2000, p, rng=8, deck=deck)).all()
    assert (np.diff(hands.astype(int), axis=2) >= 0).all()
    pack_counts = np.bincount(pack_cards(deck.decks, deck.extra_suit, deck.jokers), minlength=67)
    for game in hands[:200]:
        counts = np.bincount(game.ravel(), minlength=67)
        assert (counts <= pack_counts).all()
        if p * 13 == deck.n_cards:
            assert (counts == pack_counts).all()


def test_plain_decks_deal_the_same_games_as_before():
    assert (deal(300, 4, rng=5, deck=Deck()) == deal(300, 4, rng=5)).all()
    assert (deal(300, 6, rng=5, deck=STANDARD_TWO_DECKS) == deal(300, 6, rng=5, decks=2)).all()
    two_at_four = deal(300, 4, rng=5, deck=Deck(decks=2, players=(4,)))
    assert np.bincount(two_at_four[0].ravel()).max() <= 2


def test_deal_rejects_a_deck_that_does_not_serve_the_table():
    with pytest.raises(SimkitError, match="serves 2, 3, 4 players, not 5"):
        deal(1, 5, deck=Deck(jokers=2))
    with pytest.raises(SimkitError, match="not both"):
        deal(1, 4, decks=1, deck=Deck())


@pytest.mark.parametrize("deck", PACKS[:3], ids=lambda d: d.describe())
def test_deal_is_uniform_over_cards_and_seats(deck):
    """Every physical card lands in every seat (and in the undealt rest) equally often: a
    chi-square test per pack at the 1e-4 level, with a negative control that must fail."""
    p = deck.players[0]
    n = 20000
    hands = deal(n, p, rng=2026, deck=deck)
    pack = pack_cards(deck.decks, deck.extra_suit, deck.jokers)
    copies = np.bincount(pack, minlength=67)
    seat_counts = np.stack(
        [np.bincount(hands[:, s].ravel(), minlength=67) for s in range(p)], axis=1
    )  # (67 cards, p seats)
    dealt_frac = 13 / deck.n_cards
    cards = np.flatnonzero(copies)
    observed = seat_counts[cards]
    expected = n * copies[cards, None] * dealt_frac * np.ones(p)
    chi2 = ((observed - expected) ** 2 / expected).sum()
    dof = observed.size - 1
    assert stats.chi2.sf(chi2, dof) > 1e-4
    # negative control: a biased deal (seat 0 never gets the top card) must be rejected
    biased = observed.copy()
    biased[-1, 0] = 0
    chi2_b = ((biased - expected) ** 2 / expected).sum()
    assert stats.chi2.sf(chi2_b, dof) < 1e-4


def test_a_run_deals_its_variants_deck_and_rejects_variants_of_different_decks():
    from simkit.simulate import make_config, play_block

    with pytest.raises(SimkitError, match="decks at 4 players differ"):
        make_config(["guangxi", "guangxi-jokers"], 10, 4, seed=1)
    config = make_config(["guangxi", "guangxi-regional"], 10, 6, seed=1)  # both: two decks
    assert config.n_players == 6
    jokers = make_config(["guangxi-jokers"], 64, 4, seed=3)
    counts, _ = play_block(jokers, 0)
    assert counts  # played: joker hands arranged, ranked and scored
