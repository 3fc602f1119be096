"""The oracles of ``experiments/removal_oracle.py``: they pay chances as the model's kernel does,
and fed chances counted on deals they are exactly the scorer's mean over those deals where the
formula has no other approximation (no home run, no dun bonuses)."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import experiment

from simkit.arrange import ExpectedScore, arrange, fine_classes
from simkit.arrange.search import INDEPENDENT_JOINT
from simkit.arrange.value import (
    P_MAJORITY_TWO,
    P_N_OPP,
    P_SCOOP_TIES,
    Q_LE,
    Q_VW,
    expected_points,
    points_of_chances,
)
from simkit.evaluate import dun_ranks
from simkit.regret import front_candidates, rollout_hands
from simkit.score import score
from simkit.variants import resolve_variant


def _script():
    return experiment("removal_oracle")


@pytest.mark.parametrize(
    ("variant", "players"),
    [("guangxi", 4), ("taiwan", 4), ("wiki-points", 3), ("western-2-4", 4), ("fujian", 4)],
)
def test_the_oracles_pay_chances_as_the_kernel_does(variant: str, players: int) -> None:
    """Fed the chances of independent duns, the payout the oracles call
    (:func:`points_of_chances`, with their arguments) is the model's value."""
    p = ExpectedScore().solver(variant, players).model.params
    rng = np.random.default_rng(5)
    for _ in range(200):
        w = rng.uniform(0, 1, 3)
        l_ = rng.uniform(0, 1, 3) * (1 - w)
        v, e = rng.uniform(1, 6, 3), rng.uniform(1, 6, 3)
        t = 1 - w - l_
        if p[P_SCOOP_TIES] > 0:
            s_for, s_against = np.prod(1 - l_) - np.prod(t), np.prod(1 - w) - np.prod(t)
        else:
            s_for, s_against = np.prod(w), np.prod(l_)
        # the majority match of independent duns, by enumerating the 27 outcomes
        outcomes = np.stack(np.meshgrid(*[range(3)] * 3, indexing="ij"), -1).reshape(-1, 3)
        chance = np.prod(np.stack([w, t, l_], 1)[np.arange(3), outcomes], axis=1)
        n_won, n_lost = (outcomes == 0).sum(1), (outcomes == 2).sum(1)
        if p[P_MAJORITY_TWO] > 0:
            maj = chance[n_won >= 2].sum(), chance[n_lost >= 2].sum()
        else:
            maj = chance[n_won > n_lost].sum(), chance[n_lost > n_won].sum()
        base = float(np.dot(w, v) - np.dot(l_, e))
        paid = points_of_chances(
            base, v.sum(), e.sum(), s_for, s_against, *maj, s_for ** p[P_N_OPP], p
        )
        assert paid == pytest.approx(
            expected_points(*w, *l_, *v, *e, p, INDEPENDENT_JOINT), rel=1e-9, abs=1e-9
        )


@pytest.mark.parametrize(("variant", "players"), [("western-2-4", 4), ("fujian", 2)])
def test_the_pair_oracle_is_the_scorers_mean_on_its_deals(variant: str, players: int) -> None:
    """western-2-4 (duns and a majority point) and fujian heads-up (duns and a scoop, no home
    run below 3 players), neither with dun bonuses: every term of the pair is counted, so the
    oracle's value of a split is the mean score of that split on the deals it counted."""
    oracle = _script()
    v = resolve_variant(variant)
    strat = ExpectedScore()
    solver = strat.solver(v, players)
    hand = np.sort(np.random.default_rng(3).permutation(52)[:13]).astype(np.int8)
    deals = rollout_hands(hand, players, 60, np.random.default_rng(4))
    opp, _ = arrange(deals.reshape(-1, 13), v, strat, n_players=players, rng=0)
    opp = opp.reshape(60, players - 1, 13)
    nobody = np.full((60, players - 1), -1)
    cand = front_candidates(hand, v)[:12]
    opp_ranks = dun_ranks(opp, v)
    values = oracle.oracle_values(cand, opp_ranks, nobody, solver, opp_ranks.reshape(-1, 3))
    games = np.empty((len(cand), 60, players, 13), dtype=np.int8)
    games[:, :, 0] = cand[:, None]
    games[:, :, 1:] = opp[None]
    points = score(
        games.reshape(-1, players, 13), v, declared=np.full((len(cand) * 60, players), -1)
    )[:, 0].reshape(len(cand), 60)
    np.testing.assert_allclose(values["pair"], points.mean(axis=1), atol=1e-9)
    # counted against the same opponents as a population, the resolution oracle is removal's
    # and the resolution-pair oracle (joint chances against the population) the pair's
    np.testing.assert_allclose(values["resolution"], values["removal"], atol=1e-12)
    np.testing.assert_allclose(values["resolution-pair"], points.mean(axis=1), atol=1e-9)
    # the copula oracle fed the population's own chances of each split's ranks is the same
    pop = opp_ranks.reshape(-1, 3)
    below = np.stack([(pop[:, d][None] < pop[:, d][:, None]).mean(1) for d in range(3)], 1)
    above = np.stack([(pop[:, d][None] > pop[:, d][:, None]).mean(1) for d in range(3)], 1)
    mine = dun_ranks(cand, v)
    q = solver.q.astype(np.float64)
    cls = fine_classes(mine).astype(np.int64)
    for i in range(len(cand)):
        w, l_ = (mine[i] > pop).mean(0), (mine[i] < pop).mean(0)
        v_, e_ = q[np.arange(3), cls[i], Q_VW], q[np.arange(3), cls[i], Q_LE]
        got = oracle.copula_value(w, l_, below, above, v_, e_, solver.model.params)
        assert got == pytest.approx(points[i].mean(), abs=1e-9)
    # fed the tables' chances it is not: the check can fail
    assert not np.allclose(values["copula"], points.mean(axis=1), atol=1e-3)
    # the removal oracle (independent duns) is not the mean: the check can fail
    assert not np.allclose(values["removal"], points.mean(axis=1), atol=1e-3)


@pytest.mark.parametrize(
    ("variant", "players"), [("taiwan", 4), ("wiki-points", 3), ("western-2-4", 4)]
)
def test_the_factor_oracles_chances_are_the_kernels_at_zero_loading(variant, players) -> None:
    """The factor oracle's numpy copy of the independent duns' chances, paid by the kernel,
    gives the model's value; with zero loadings the factor model is those chances (its
    Gauss-Hermite average of one node's value), and with nonzero loadings it is not."""
    script = _script()
    p = ExpectedScore().solver(variant, players).model.params
    rng = np.random.default_rng(8)
    w = rng.uniform(0.05, 0.9, (50, 3))
    l_ = rng.uniform(0, 1, (50, 3)) * (1 - w)
    v, e = rng.uniform(1, 6, 3), rng.uniform(1, 6, 3)
    plain = script.independent_chances(w, l_, p)
    flat = script.factor_chances(w, l_, np.zeros(3), p)
    skewed = script.factor_chances(w, l_, np.array([-0.3, 0.3, 0.8]), p)
    for a, b in zip(plain, flat, strict=True):
        np.testing.assert_allclose(a, b, rtol=1e-6, atol=1e-9)
    assert np.abs(plain[0] - skewed[0]).max() > 1e-3
    for i in range(len(w)):
        base = float(np.dot(w[i], v) - np.dot(l_[i], e))
        s_for, s_against, mw, ml = (float(c[i]) for c in plain)
        paid = points_of_chances(
            base, v.sum(), e.sum(), s_for, s_against, mw, ml, s_for ** p[P_N_OPP], p
        )
        assert paid == pytest.approx(
            expected_points(*w[i], *l_[i], *v, *e, p, INDEPENDENT_JOINT), rel=1e-9
        )
