"""Dealing: shapes, reproducibility, partitions of the deck, uniformity, and bad input."""

import numpy as np
import pytest
from scipy import stats

from simkit.deal import deal, decks_needed, pass_cards


def test_shape_dtype_and_sorted_hands():
    hands = deal(100, 4, rng=0)
    assert hands.shape == (100, 4, 13) and hands.dtype == np.int8
    assert (np.diff(hands.astype(int), axis=-1) > 0).all()


def test_same_seed_same_deal_different_seed_different_deal():
    assert (deal(500, 4, rng=7) == deal(500, 4, rng=7)).all()
    assert not (deal(500, 4, rng=7) == deal(500, 4, rng=8)).all()
    gen = np.random.default_rng(7)
    assert (deal(500, 4, rng=gen) == deal(500, 4, rng=7)).all()


def test_deal_does_not_depend_on_internal_blocking():
    """Dealing 10,000 games at once equals dealing them as 3,000 + 7,000 from one generator."""
    gen = np.random.default_rng(3)
    parts = np.concatenate([deal(3000, 3, rng=gen), deal(7000, 3, rng=gen)])
    assert (parts == deal(10000, 3, rng=3)).all()


@pytest.mark.parametrize("n_players", [2, 3, 4])
def test_one_deck_hands_are_disjoint(n_players):
    hands = deal(2000, n_players, rng=1).reshape(2000, -1).astype(int)
    assert all(len(set(g)) == 13 * n_players for g in hands.tolist())


@pytest.mark.parametrize("n_players", [5, 6, 7, 8])
def test_two_decks_serve_five_to_eight_players(n_players):
    hands = deal(2000, n_players, rng=2).reshape(2000, -1)
    counts = np.stack([np.bincount(g, minlength=52) for g in hands])
    assert counts.max() <= 2 and counts.sum(axis=1).tolist() == [13 * n_players] * 2000
    assert decks_needed(n_players) == 2
    if n_players == 8:
        assert (counts == 2).all()


def _position_chi2_pvalue(hands: np.ndarray) -> float:
    """Chi-square p-value of 'each card is equally likely in every seat'."""
    n_games, n_players, _ = hands.shape
    table = np.zeros((n_players, 52))
    for p in range(n_players):
        table[p] = np.bincount(hands[:, p].ravel(), minlength=52)
    expected = n_games * 13 / 52
    return float(stats.chisquare(table.ravel(), np.full(table.size, expected)).pvalue)


def test_every_card_equally_likely_in_every_seat():
    """Each card lands in each of 4 seats with probability 1/4 (chi-square, 200 cells)."""
    assert _position_chi2_pvalue(deal(40_000, 4, rng=11)) > 1e-4


def test_uniformity_check_rejects_a_biased_deal():
    """Negative control: a deal that favours low cards in seat 0 must fail the same check."""
    hands = deal(40_000, 4, rng=11)
    biased = hands.copy()
    # Swap seat 0's hand with the seat holding 2♣ in 5% of games: 2♣ now sits in seat 0 too often.
    holder = (hands == 0).any(axis=2).argmax(axis=1)
    pick = np.random.default_rng(0).random(40_000) < 0.05
    g = np.flatnonzero(pick)
    biased[g, 0], biased[g, holder[g]] = hands[g, holder[g]], hands[g, 0]
    assert _position_chi2_pvalue(biased) < 1e-6


def test_pairs_of_cards_are_independent_of_seat_order():
    """The chance two given cards share a hand is 12/51 (exact), within 4 standard errors."""
    hands = deal(50_000, 4, rng=5)
    has_a = (hands == 51).any(axis=2)
    has_b = (hands == 0).any(axis=2)
    together = (has_a & has_b).any(axis=1).mean()
    p = 12 / 51
    se = np.sqrt(p * (1 - p) / 50_000)
    assert abs(together - p) < 4 * se


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"n_games": 1, "n_players": 1}, "2 to 8 players"),
        ({"n_games": 1, "n_players": 9}, "2 to 8 players"),
        ({"n_games": 1, "n_players": 5, "decks": 1}, "serve at most 4 players"),
        ({"n_games": 1, "n_players": 4, "decks": 2}, "two decks are for 5 to 8"),
        ({"n_games": 1, "n_players": 4, "decks": 3}, "decks must be 1 or 2"),
        ({"n_games": -1}, "n_games must be"),
        ({"n_games": 2.5}, "n_games must be"),
    ],
)
def test_impossible_deals_are_errors(kwargs, message):
    with pytest.raises(ValueError, match=message):
        deal(**kwargs)


def test_bad_rng_is_a_type_error():
    with pytest.raises(TypeError, match="rng must be"):
        deal(1, 4, rng="seed")


def test_zero_games():
    assert deal(0, 4, rng=1).shape == (0, 4, 13)


def test_pass_cards_moves_the_three_lowest_cards_clockwise() -> None:
    hands = deal(200, 4, rng=5)
    passed = pass_cards(hands, 1, "clockwise")
    # Every card is still dealt once, and each hand is sorted.
    np.testing.assert_array_equal(np.sort(passed.reshape(200, -1)), np.sort(hands.reshape(200, -1)))
    assert (np.diff(passed, axis=2) > 0).all()
    for seat in range(4):
        kept = set(hands[0, seat, 3:].tolist())
        received = set(hands[0, (seat - 1) % 4, :3].tolist())
        assert set(passed[0, seat].tolist()) == kept | received
    across = pass_cards(hands, 2, "across")
    np.testing.assert_array_equal(np.sort(across.reshape(200, -1)), np.sort(hands.reshape(200, -1)))
