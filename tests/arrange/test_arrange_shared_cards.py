"""``simkit.arrange`` refuses a table whose hands share a card more often than its pack holds
it: hands of shape ``(..., seats, 13)`` are tables dealt from one pack."""

from __future__ import annotations

import numpy as np
import pytest

import simkit
from simkit.cards import parse_cards
from simkit.deal import deal
from simkit.errors import SimkitError


def test_a_card_in_two_seats_hands_is_refused_naming_card_and_seats():
    hands = deal(3, 4, rng=1)
    hands[2, 3, 0] = hands[2, 1, 5]  # seat 3 of table 2 is given a card seat 1 holds
    card = simkit.format_cards([hands[2, 1, 5]])
    with pytest.raises(SimkitError, match=rf"table \(2,\) deals {card} 2 times, to seats 1, 3"):
        simkit.arrange(hands, "guangxi", "greedy")


def test_two_decks_hold_two_copies_of_a_card_but_not_three():
    two = parse_cards("As Ad Kh Kc 9s 9h 7d 6d 5d 4c 3s 2h 2d", decks=2)
    other = two.copy()  # the same 13 cards again: every card twice at the table
    table = np.stack([two, other])[None]  # (1 table, 2 seats, 13)
    simkit.arrange(table, "guangxi-two-decks", "greedy", n_players=2)  # two decks: fine
    third = deal(1, 3, rng=2, deck=simkit.load_variant("guangxi-two-decks").deck_for(3))
    third[0, 0], third[0, 1], third[0, 2] = two, two, two  # each card three times
    with pytest.raises(SimkitError, match=r"deals 2♦ 3 times, to seats 0, 1, 2.*2 decks hold 2"):
        simkit.arrange(third, "guangxi-two-decks", "greedy", n_players=3)


def test_a_dealt_table_and_loose_hands_are_accepted():
    hands = deal(5, 4, rng=3)
    simkit.arrange(hands, "guangxi", "greedy")  # (5 tables, 4 seats, 13): one pack each
    # (n, 13): hands of separate tables, which may share cards
    loose = np.stack([hands[0, 0], hands[0, 0]])
    simkit.arrange(loose, "guangxi", "greedy")
