"""Invariants of the scorer for every shipped variant, driven by the registry.

Scores sum to zero in every game; relabelling players relabels scores (at banker tables the
banker keeps its seat); the breakdown adds up to the total; a hand is fouled exactly when the
variant's dun order is broken, and only fouled hands pay foul penalties.
"""

from __future__ import annotations

import numpy as np
import pytest
from conftest import N_VARIANTS
from hypothesis import given
from hypothesis import strategies as st

from simkit.deal import deal
from simkit.evaluate import rank3, rank5
from simkit.score import COMPONENTS, fouled, pair_points, score
from simkit.variants import load_variant, variant_names

NAMES = variant_names()


def test_every_variant_is_exercised() -> None:
    assert len(NAMES) == N_VARIANTS


def games(seed: int, n_players: int, style: str, n_games: int = 40) -> np.ndarray:
    """Random arranged games: 'shuffled' (each hand's cards in random order: many fouls),
    'sorted' (cards sorted by rank, the lowest three in front, the middle and back swapped when
    the middle is bigger: fewer fouls, more bonuses and scoops), or 'blocked' (hands dealt from a
    deck ordered by rank blocks: quads and full houses abound)."""
    rng = np.random.default_rng(seed)
    if style == "blocked" and n_players <= 4:
        order = np.argsort(rng.random((n_games, 13)), axis=1)
        suits = np.argsort(rng.random((n_games, 13, 4)), axis=2)
        deck = (4 * order[:, :, None] + suits).reshape(n_games, 52)[:, : 13 * n_players]
        hands = deck.reshape(n_games, n_players, 13).astype(np.int8)
    else:
        hands = deal(n_games, n_players, rng=rng)
    if style == "sorted":
        keys = (hands >> 2).astype(np.int64) * 4 + (hands & 3)
        hands = np.take_along_axis(hands, np.argsort(keys, axis=2), axis=2)
    else:
        hands = np.take_along_axis(hands, np.argsort(rng.random(hands.shape), axis=2), axis=2)
    middle_bigger = rank5(hands[..., 3:8]) > rank5(hands[..., 8:])
    swapped = hands.copy()
    swapped[..., 3:8], swapped[..., 8:] = hands[..., 8:], hands[..., 3:8]
    if style != "shuffled":
        hands = np.where(middle_bigger[..., None], swapped, hands)
    return hands


def declarations(seed: int, shape: tuple[int, int], n_specials: int, rate: float) -> np.ndarray:
    rng = np.random.default_rng(seed + 1)
    declared = np.full(shape, -1, dtype=np.int8)
    if n_specials:
        on = rng.random(shape) < rate
        declared[on] = rng.integers(0, n_specials, size=int(on.sum()))
    return declared


table_strategy = st.tuples(
    st.sampled_from(NAMES),
    st.integers(0, 2**32 - 1),
    st.sampled_from([2, 3, 4, 4, 4, 5, 6, 8]),
    st.sampled_from(["shuffled", "sorted", "blocked"]),
    st.sampled_from([0.0, 0.0, 0.1, 0.5]),
)


def setup(case):
    name, seed, n_players, style, rate = case
    variant = load_variant(name)
    hands = games(seed, n_players, style)
    declared = declarations(seed, hands.shape[:2], len(variant.specials.rules), rate)
    banker = seed % n_players
    return variant, hands, declared, banker


@given(table_strategy)
def test_scores_sum_to_zero_and_breakdown_adds_up(case) -> None:
    variant, hands, declared, banker = setup(case)
    total, parts = score(hands, variant, declared=declared, banker=banker, breakdown=True)
    assert total.dtype == np.float64
    assert total.shape == hands.shape[:2]
    np.testing.assert_allclose(total.sum(axis=1), 0.0, atol=1e-9)
    assert set(parts) == set(COMPONENTS)
    np.testing.assert_allclose(sum(parts.values()), total, atol=1e-9)
    for name, part in parts.items():
        np.testing.assert_allclose(part.sum(axis=1), 0.0, atol=1e-9, err_msg=name)
    np.testing.assert_array_equal(score(hands, variant, declared=declared, banker=banker), total)


@given(table_strategy, st.randoms(use_true_random=False))
def test_relabelling_players_relabels_scores(case, random) -> None:
    variant, hands, declared, banker = setup(case)
    n_players = hands.shape[1]
    seats = list(range(n_players))
    if variant.scoring.topology == "banker":
        others = [s for s in seats if s != banker]
        random.shuffle(others)
        perm = [*others[:banker], banker, *others[banker:]]
    else:
        random.shuffle(seats)
        perm = seats
    perm = np.array(perm)
    total = score(hands, variant, declared=declared, banker=banker)
    relabelled = score(hands[:, perm], variant, declared=declared[:, perm], banker=banker)
    np.testing.assert_allclose(relabelled, total[:, perm], atol=1e-9)


@given(table_strategy)
def test_foul_detected_exactly_when_the_order_is_broken(case) -> None:
    variant, hands, _declared, banker = setup(case)
    front = rank3(hands[..., :3], variant)
    middle = rank5(hands[..., 3:8], variant)
    back = rank5(hands[..., 8:], variant)
    order = variant.scoring.foul
    broken = ~(
        (front < middle if order.front_middle == "<" else front <= middle)
        & (middle < back if order.middle_back == "<" else middle <= back)
    )
    np.testing.assert_array_equal(fouled(hands, variant), broken)
    _total, parts = score(hands, variant, banker=banker, breakdown=True)
    penalty = parts["fouls"]
    n_players = hands.shape[1]
    for g in range(hands.shape[0]):
        for i in range(n_players):
            if variant.scoring.topology == "banker":
                partners = [banker] if i != banker else [j for j in range(n_players) if j != i]
            else:
                partners = [j for j in range(n_players) if j != i]
            meets_clean_hand = any(not broken[g, j] for j in partners)
            if broken[g, i] and meets_clean_hand:
                assert penalty[g, i] < 0
            elif not broken[g, i]:
                assert penalty[g, i] >= 0
            else:
                assert penalty[g, i] == 0


@pytest.mark.parametrize("name", NAMES)
def test_scores_are_whole_waters(name) -> None:
    """Every score is a whole number of waters (payouts, bonuses and factors are integers in
    every shipped file, the even split of 玩法3 aside), so results can be stored as integers."""
    variant = load_variant(name)
    hands = games(5, 4, "blocked", n_games=200)
    total = score(hands, variant)
    if variant.scoring.home_run.split == "even" and variant.scoring.home_run.factor != "p-minus-1":
        return
    np.testing.assert_array_equal(total, np.round(total))


def test_002_four_player_home_run_totals_are_multiples_of_3() -> None:
    """002 "四人全垒打一般水数都是3的倍数" on random rank-blocked games: whenever a home run is
    paid at a 4-player guangxi table, the runner's total is a multiple of 3."""
    for name in ("guangxi", "guangxi-regional"):
        hands = games(9, 4, "blocked", n_games=3000)
        total, parts = score(hands, name, breakdown=True)
        runners = parts["home_run"] > 0
        assert runners.any()
        np.testing.assert_array_equal(total[runners] % 3, 0)


def test_empty_input_gives_empty_scores() -> None:
    out = score(np.zeros((0, 4, 13), dtype=np.int8), "guangxi")
    assert out.shape == (0, 4)


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("n_players", [2, 3, 4])
def test_pair_points_is_the_pairwise_part_of_score(name: str, n_players: int) -> None:
    """In games without fouls or specials, the duns, bonuses, majority and scoop components of
    :func:`score` are the sums of :func:`pair_points` over the pairs that compare (where the
    t-formula, which replaces them, does not apply)."""
    variant = load_variant(name)
    if variant.scoring.t_formula.enabled and n_players >= variant.scoring.t_formula.min_players:
        pytest.skip("the t-formula replaces the pairwise dun points at this table size")
    hands = games(3, n_players, "blocked", n_games=400)
    hands = hands[~fouled(hands, variant).any(axis=1)]
    assert len(hands) > 20
    banker = 1 % n_players
    _total, parts = score(hands, variant, banker=banker, breakdown=True)
    pairwise = parts["duns"] + parts["bonuses"] + parts["majority"] + parts["scoops"]
    ranks = np.stack(
        [
            rank3(hands[..., :3], variant),
            rank5(hands[..., 3:8], variant),
            rank5(hands[..., 8:], variant),
        ],
        axis=-1,
    )
    expected = np.zeros(pairwise.shape)
    for i in range(n_players):
        for j in range(n_players):
            if i == j or (variant.scoring.topology == "banker" and banker not in (i, j)):
                continue
            expected[:, i] += pair_points(ranks[:, i], ranks[:, j], variant, n_players)
    np.testing.assert_allclose(pairwise, expected, atol=1e-9)
    np.testing.assert_allclose(
        pair_points(ranks[:, 0], ranks[:, 1], variant, n_players),
        -pair_points(ranks[:, 1], ranks[:, 0], variant, n_players),
    )
