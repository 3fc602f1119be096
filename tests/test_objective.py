"""Expected-score's fitted objective weights (:mod:`simkit.objective`): the kernel weighs exactly
the scoop and home-run terms, its search stays exact under any weights, the fit recovers known
weights, and the shipped weights are the ones played."""

from __future__ import annotations

import numpy as np
import pytest

from simkit.arrange import (
    ExpectedScore,
    WinTables,
    arrange,
    exhaustive_ids,
    horse_copies,
    make_solver,
    max_ev_ids,
    objective_weights,
    shipped_table_path,
    split_values,
)
from simkit.arrange.wintables import WEIGHTS_KEY, default_fine_tables
from simkit.deal import deal
from simkit.errors import SimkitError
from simkit.evaluate import dun_ranks
from simkit.objective import (
    B,
    H,
    S,
    Sample,
    WeightFit,
    components,
    fit_weights,
    picked_points,
    weights_of,
    within_hand_fit,
    worth_shipping,
)
from simkit.regret import front_candidates
from simkit.variants import load_variant

# an added scoop and the t-formula's home run; a doubling scoop with the 马牌; a doubling
# scoop and a base-only home run at a banker table; a doubling home run (wiki-points)
FAMILIES = [("guangxi", 4), ("qiantang", 4), ("taiwan", 4), ("wiki-points", 3)]


def _splits(variant: str, players: int, n_hands: int = 6) -> np.ndarray:
    hands = deal(n_hands, players, rng=7)[:, 0]
    v = load_variant(variant)
    return np.concatenate([front_candidates(h, v) for h in hands])


@pytest.mark.parametrize(("variant", "players"), FAMILIES)
def test_the_value_is_linear_in_the_two_weights(variant, players):
    """value(w_S, w_H) = B + w_S·S + w_H·H for every split, and the unit weights give the
    unweighted model's value to the last bit."""
    cand = _splits(variant, players)
    solver = ExpectedScore(weights=(1.0, 1.0)).solver(variant, players)
    f = components(cand, solver)
    assert np.abs(f[:, S]).max() > 0 and np.abs(f[:, H]).max() > 0  # both terms are in play
    ranks = dun_ranks(cand, solver.variant)
    horse = horse_copies(cand, solver.horse_card) if solver.horse_card >= 0 else None
    plain = split_values(ranks, solver, horse)
    np.testing.assert_allclose(f[:, B] + f[:, S] + f[:, H], plain, rtol=0, atol=1e-9)
    for w in [(0.4, 0.3), (0.0, 2.5), (1.7, 0.0)]:
        weighted = ExpectedScore(weights=w).solver(variant, players)
        got = split_values(ranks, weighted, horse)
        np.testing.assert_allclose(got, f[:, B] + w[0] * f[:, S] + w[1] * f[:, H], atol=1e-9)
    # the weights left at 1: the params that the unweighted model always had
    default = make_solver(variant, players, solver.tables, horse=True, front_first=True)
    assert default.model.params["w_scoop"] == default.model.params["w_home"] == 1.0


@pytest.mark.parametrize("weights", [(0.43, 0.32), (0.0, 0.0), (2.0, 3.0)])
def test_the_weighted_search_equals_the_exhaustive_scan(weights):
    """Nonnegative weights keep the value monotone in every win chance and payout, so the
    pruned search's bounds hold: same splits and values as scoring all 72,072 splits."""
    for variant, players in [("guangxi", 4), ("taiwan", 4)]:
        solver = ExpectedScore(weights=weights).solver(variant, players)
        hands = deal(150, players, rng=11).reshape(-1, 13)[:500]
        ids, values, _ = max_ev_ids(hands, solver)
        want_ids, want_values = exhaustive_ids(hands, solver)
        assert (values == want_values).all()
        assert (ids == want_ids).all()


@pytest.mark.parametrize("weights", [(-0.1, 1.0), (1.0, float("nan")), (float("inf"), 0.0)])
def test_weights_that_would_break_the_bounds_are_refused(weights):
    with pytest.raises(ValueError, match="objective weights"):
        ExpectedScore(weights=weights).solver("guangxi", 4)


def test_the_within_hand_fit_recovers_known_weights():
    """Synthetic hands: rollout means = hand effect + B + 0.5·S + 0.25·H + noise; the fit
    recovers (0.5, 0.25) whatever each hand's own level, which it must ignore."""
    gen = np.random.default_rng(3)
    samples = []
    for _ in range(400):
        f = np.zeros((8, 3))
        f[:, B] = gen.normal(0, 2, 8)
        f[:, S] = gen.normal(0, 1, 8)
        f[:, H] = gen.normal(0, 3, 8)
        level = gen.normal(0, 50)
        mean = level + 1.2 * (f[:, B] + 0.5 * f[:, S] + 0.25 * f[:, H])
        samples.append(Sample(f, mean[:, None] + gen.normal(0, 0.1, (8, 30))))
    w_scoop, w_home = weights_of(within_hand_fit(samples))
    assert w_scoop == pytest.approx(0.5, abs=0.02)
    assert w_home == pytest.approx(0.25, abs=0.01)
    # the pick: the candidate that the weighting ranks first, valued on its own rollouts
    got = picked_points(samples[:1], (0.5, 0.25))[0]
    f = samples[0].features
    assert got == samples[0].means[int(np.argmax(f[:, B] + 0.5 * f[:, S] + 0.25 * f[:, H]))]


def test_a_fit_is_reproducible_and_its_bad_inputs_are_refused():
    a = fit_weights("guangxi", 4, hands=24, rollouts=10, top=4, seed=5)
    b = fit_weights("guangxi", 4, hands=24, rollouts=10, top=4, seed=5)
    assert a == b
    assert not a.trivial and a.held_out_hands > 0
    assert a.as_meta()["command"].startswith(
        "python -m experiments.pipelines.fit_objective --rows guangxi:4 "
    )
    for bad in [{"hands": 1}, {"rollouts": 0}, {"top": 1}, {"seat": "dealer"}]:
        with pytest.raises(SimkitError):
            fit_weights("guangxi", 4, **bad)
    with pytest.raises(SimkitError, match="one deck"):
        fit_weights("guangxi", 5)
    # a variant without a scoop or home run has nothing to weigh
    assert fit_weights("hongkong", 4, hands=8, rollouts=4, top=3).trivial


def test_a_fit_plays_the_tables_it_is_given():
    """The fit of tables being built plays those tables: given the variant's own tables it
    equals the fit that finds them; given other tables (fujian's, whose classes guangxi shares)
    it plays otherwise."""
    args = dict(hands=16, rollouts=6, top=4, seed=5)
    own = fit_weights("guangxi", 4, **args)
    assert (
        fit_weights("guangxi", 4, tables=default_fine_tables(load_variant("guangxi"), 4), **args)
        == own
    )
    other = fit_weights("guangxi", 4, tables=default_fine_tables(load_variant("fujian"), 4), **args)
    assert other.coefficients != own.coefficients


def test_weights_ship_only_where_the_held_out_gain_is_beyond_its_ci():
    base = dict(
        variant="guangxi", n_players=4, seat="table", hands=10, rollouts=10, top=3, seed=0,
        coefficients=(1.0, 0.5, 0.3), weights=(0.5, 0.3), weights_ci=((0, 1), (0, 1)),
        held_out_hands=5, picks_differ=0.1,
    )  # fmt: skip
    assert worth_shipping(WeightFit(**base, held_out_gain=0.04, held_out_ci=(0.01, 0.07)))
    assert not worth_shipping(WeightFit(**base, held_out_gain=0.01, held_out_ci=(-0.01, 0.03)))


def test_the_shipped_weights_are_the_ones_played():
    """Every shipped fine file that carries weights: expected-score's default plays them, and
    they change some of its choices; a file without carries the unweighted model."""
    seen = 0
    for variant in ("guangxi", "guangxi-regional", "fujian", "taiwan", "wiki-points"):
        for players in (2, 3, 4):
            tables = WinTables.load(shipped_table_path(variant, players, fine=True))
            weights = objective_weights(tables)
            solver = ExpectedScore().solver(variant, players)
            params = solver.model.params
            assert (params["w_scoop"], params["w_home"]) == weights
            if WEIGHTS_KEY not in tables.meta:
                assert weights == (1.0, 1.0)
                continue
            seen += 1
            entry = tables.meta[WEIGHTS_KEY]
            assert entry["held_out_ci95"][0] > 0  # shipped only where it measurably gains
            assert default_fine_tables(load_variant(variant), players).meta[WEIGHTS_KEY] == entry
            hands = deal(400, players, rng=1)[:, 0]
            v = load_variant(variant)
            mine, _ = arrange(hands, v, ExpectedScore(), n_players=players, rng=0)
            plain, _ = arrange(hands, v, ExpectedScore(weights=(1.0, 1.0)), n_players=players)
            assert (mine != plain).any()
    assert (
        seen >= 1
    )  # guangxi at 4 players measurably gains (results/strategy/objective-weights.md)
