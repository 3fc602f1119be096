"""The home rate of expected-score's value (``home_rate``) and its fit
(:func:`simkit.objective.fit_home_rate`): the home run against enters the value linearly in the
rate, the strategy plays the rate and weights its tables carry (and expected-score's where they
carry none), its search stays exact, and the fit chooses its rate on the fitting hands only."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from simkit.arrange import (
    ExpectedScore,
    WinTables,
    exhaustive_ids,
    home_rate_entry,
    horse_copies,
    make_solver,
    max_ev_ids,
    shipped_table_path,
    split_values,
)
from simkit.arrange.wintables import HOME_RATE_KEY, default_fine_tables
from simkit.deal import deal
from simkit.errors import SimkitError
from simkit.evaluate import dun_ranks
from simkit.objective import (
    H_AGAINST,
    H_FOR,
    H_SCOOP_RATE,
    HB,
    HS,
    HomeRateFit,
    fit_home_rate,
    home_components,
    home_value,
)
from simkit.regret import front_candidates
from simkit.variants import load_variant

# an added scoop, the t-formula and an even home run (guangxi); a doubling home run of the
# pairs (fujian); a doubling scoop and the 马牌 (qiantang)
FAMILIES = [("guangxi", 4), ("fujian", 4), ("qiantang", 4)]


def _splits(variant: str, players: int, n_hands: int = 6) -> np.ndarray:
    hands = deal(n_hands, players, rng=7)[:, 0]
    v = load_variant(variant)
    return np.concatenate([front_candidates(h, v) for h in hands])


def _with_rate(variant: str, players: int, rate: float, weights: tuple[float, float]) -> WinTables:
    """The shipped fine tables of a row with a home-rate entry of our own."""
    tables = default_fine_tables(load_variant(variant), players)
    entry = {"rate": rate, "scoop": weights[0], "home_run": weights[1]}
    return replace(tables, meta={**tables.meta, HOME_RATE_KEY: entry})


@pytest.mark.parametrize(("variant", "players"), FAMILIES)
def test_the_home_run_against_is_linear_in_the_rate(variant, players):
    """value(w_S, w_H, r) = B + w_S·S + w_H·(H_FOR - r·H_AGAINST) for every split; at the
    table's scoop rate (r = 0, expected-score's pricing) the ``H_SCOOP_RATE`` column; and the
    home run against costs (``H_AGAINST`` >= 0, > 0 somewhere)."""
    cand = _splits(variant, players)
    solver = ExpectedScore(weights=(1.0, 1.0)).solver(variant, players)
    f = home_components(cand, solver)
    assert (f[:, H_AGAINST] >= -1e-9).all() and f[:, H_AGAINST].max() > 0
    ranks = dun_ranks(cand, solver.variant)
    horse = horse_copies(cand, solver.horse_card) if solver.horse_card >= 0 else None
    for w, rate in [((0.3, 0.4), 0.25), ((1.0, 1.0), 0.7), ((0.0, 2.0), 0.1), ((0.5, 0.5), None)]:
        priced = make_solver(
            variant, players, solver.tables, horse=True, front_first=True, dtype=np.float32,
            weights=w, joint=True, home_rate=0.0 if rate is None else rate,
        )  # fmt: skip
        got = split_values(ranks, priced, horse)
        np.testing.assert_allclose(got, home_value(f, w, rate), rtol=0, atol=1e-8)
    # the columns B and S are components()'s, and H at the scoop rate its H
    np.testing.assert_allclose(
        f[:, HB] + f[:, HS] + f[:, H_SCOOP_RATE], split_values(ranks, solver, horse), atol=1e-9
    )
    assert not np.allclose(f[:, H_FOR], f[:, H_SCOOP_RATE])


def test_the_home_rate_option_is_the_rate_the_value_plays():
    """``home_rate`` is written where the value reads it; a rate fitted into the tables'
    meta is not read by any strategy (expected-score-home, which played it, is retired)."""
    tables = _with_rate("guangxi", 4, 0.35, (0.06, 0.4))
    assert home_rate_entry(tables) == (0.35, 0.06, 0.4)
    params = ExpectedScore(tables, weights=(0.06, 0.4), home_rate=0.35).solver("guangxi", 4)
    p = params.model.params
    assert (p["home_rate"], p["w_scoop"], p["w_home"]) == (0.35, 0.06, 0.4)
    assert ExpectedScore(tables).solver("guangxi", 4).model.params["home_rate"] == 0.0
    with pytest.raises(ValueError, match="home_rate"):
        ExpectedScore(home_rate=-0.1)


def test_its_search_equals_the_exhaustive_scan():
    """A large rate makes the home run against dominate the value: the search's bounds still
    hold (the value falls with the chance of being scooped), so its splits and values are the
    scan's of all 72,072 splits."""
    for rate, weights in [(0.35, (0.06, 0.4)), (1.0, (0.0, 1.0))]:
        tables = _with_rate("guangxi", 4, rate, weights)
        solver = ExpectedScore(tables, weights, home_rate=rate).solver("guangxi", 4)
        assert solver.model.params["home_rate"] == rate
        hands = deal(200, 4, rng=12).reshape(-1, 13)[:600]
        ids, values, _ = max_ev_ids(hands, solver)
        want_ids, want_values = exhaustive_ids(hands, solver)
        assert (values == want_values).all()
        assert (ids == want_ids).all()


def test_the_shipped_rates_are_beyond_their_ci():
    """Every shipped fine file of the guangxi rows that carries a fitted rate shipped it only
    where its held-out gain is beyond its CI."""
    for variant in ("guangxi", "guangxi-regional"):
        for players in (2, 3, 4):
            tables = WinTables.load(shipped_table_path(variant, players, fine=True))
            if home_rate_entry(tables) is not None:
                assert tables.meta[HOME_RATE_KEY]["held_out_ci95"][0] > 0


def test_a_fit_chooses_its_rate_on_the_fitting_hands_and_refuses_bad_inputs():
    rates = (0.1, 0.3, 0.6)
    a = fit_home_rate("guangxi", 4, hands=24, rollouts=8, top=3, seed=5, rates=rates)
    assert a == fit_home_rate("guangxi", 4, hands=24, rollouts=8, top=3, seed=5, rates=rates)
    assert [r["rate"] for r in a.per_rate] == list(rates)
    gains = [r["fit_gain"] for r in a.per_rate]
    assert a.rate == rates[gains.index(max(gains))]  # the first of the best on a tie
    assert list(a.weights) == a.per_rate[gains.index(max(gains))]["weights"]
    assert a.held_out_hands > 0
    meta = a.as_meta()
    assert meta["rate"] == a.rate and meta["command"].startswith(
        "python -m experiments.pipelines.fit_home_rate --rows guangxi:4 "
    )
    for bad in [{"hands": 1}, {"rollouts": 0}, {"top": 1}, {"rates": ()}, {"rates": (0.0,)},
                {"rates": (1.5,)}]:  # fmt: skip
        with pytest.raises(SimkitError):
            fit_home_rate("guangxi", 4, **bad)
    with pytest.raises(SimkitError, match="banker"):
        fit_home_rate("taiwan", 4)
    with pytest.raises(SimkitError, match="no home run"):
        fit_home_rate("western-2-4", 4)
    with pytest.raises(SimkitError, match="one deck"):
        fit_home_rate("guangxi", 5)


def test_a_rate_ships_only_where_the_held_out_gain_is_beyond_its_ci():
    base = dict(
        variant="guangxi", n_players=4, hands=10, rollouts=10, top=3, seed=0,
        shipped_weights=(0.5, 0.3), per_rate=[], rate=0.3, weights=(0.2, 0.4),
        held_out_hands=10, picks_differ=0.1,
    )  # fmt: skip
    assert HomeRateFit(**base, held_out_gain=0.01, held_out_ci=(0.002, 0.02)).worth_shipping
    assert not HomeRateFit(**base, held_out_gain=0.01, held_out_ci=(-0.001, 0.02)).worth_shipping
