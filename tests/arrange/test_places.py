"""Expected-score's place model of the t-formula (:class:`simkit.arrange.PlaceModel`): the
kernel prices exactly ``τ(m)·h(B)`` plus the terms it priced before, its bounds hold, its search
equals the exhaustive scan, the fit reads what the scorer pays, and the shipped model is the
one played."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from simkit.arrange import (
    ExpectedScore,
    PlaceModel,
    default_fine_tables,
    exhaustive_ids,
    make_solver,
    max_ev_ids,
    new_params,
    objective_weights,
    placed_points,
    plays_t_formula,
    split_values,
    strategy_from_name,
    t_expected,
)
from simkit.arrange.value import placed_skip_below
from simkit.arrange.wintables import PLACE_KEY
from simkit.deal import deal
from simkit.errors import SimkitError
from simkit.evaluate import dun_ranks
from simkit.objective import biggest_worths, dun_points, fit_place_model
from simkit.regret import front_candidates
from simkit.variants import load_variant

RESULTS = Path(__file__).resolve().parents[2] / "results" / "strategy"
MODEL = PlaceModel(2.86, -0.43, 4.53, (1.0, 3.0, 4.0, 5.0, 8.0), (0.81, 0.05, 0.09, 0.045, 0.005))


def _params(model: PlaceModel = MODEL) -> np.void:
    p = new_params()
    p["n_opp"] = 3.0
    model.write(p)
    return p[()]


def _solver(variant: str = "guangxi", model: PlaceModel | None = MODEL):
    v = load_variant(variant)
    tables = default_fine_tables(v, 4)
    return make_solver(
        v, 4, tables, horse=True, front_first=True, dtype=np.float32,
        weights=objective_weights(tables), joint=True, place=model,
    )  # fmt: skip


def test_t_expected_is_the_mean_of_the_larger_worth():
    """τ(m) = E[max(m, T)] over T's levels and chances."""
    p = _params()
    levels, chances = np.array(MODEL.levels), np.array(MODEL.chances)
    for m in (0.0, 1.0, 3.0, 4.5, 8.0, 20.0):
        assert t_expected(m, p) == pytest.approx(float((np.maximum(m, levels) * chances).sum()))


def test_without_a_model_the_duns_points_are_priced_as_paid():
    p = new_params()[()]
    for b in (-7.25, 0.0, 3.5):
        assert placed_points(b, 3.0, p) == b
        assert placed_points(b, 3.0, p, True) == b


@settings(max_examples=300, deadline=None)
@given(
    b=st.floats(-30, 30),
    b_cap_up=st.floats(0, 10),
    m=st.sampled_from([1.0, 3.0, 4.0, 5.0, 8.0, 10.0]),
    m_cap_up=st.sampled_from([0.0, 2.0, 5.0]),
)
def test_the_bound_bounds_every_split_at_most_the_caps(b, b_cap_up, m, m_cap_up):
    """placed(b, m) ≤ placed(b_cap, m_cap, bound) for b ≤ b_cap and m ≤ m_cap: the search's
    bounds stay valid although a bigger worth lowers the value of a hand placed to lose."""
    p = _params()
    assert placed_points(b, m, p) <= placed_points(b + b_cap_up, m + m_cap_up, p, True) + 1e-12


@settings(max_examples=300, deadline=None)
@given(
    y=st.floats(-40, 40),
    b=st.floats(-30, 30),
    m=st.sampled_from([1.0, 3.0, 4.0, 8.0]),
    bound=st.booleans(),
)
def test_a_split_below_the_skip_point_cannot_reach_the_value(y, b, m, bound):
    """The search drops a split whose points are below :func:`placed_skip_below` without its
    tanh: every such split's placed points are below ``y``; just above it they reach it."""
    p = _params()
    skip = placed_skip_below(y, m, p, bound)
    if b < skip:
        assert placed_points(b, m, p, bound) < y
    if np.isfinite(skip) and b > skip + 1e-4:
        assert placed_points(b, m, p, bound) >= y - 1e-9


def test_the_value_is_tau_times_h_plus_the_terms_priced_before():
    """A slow reference: value with the model = value without it − B + τ(m)·h(B), B and m
    read from the quantities of each split's own classes."""
    v = load_variant("guangxi")
    hands = deal(5, 4, rng=7)[:, 0]
    cand = np.concatenate([front_candidates(h, v) for h in hands])
    with_places, without = _solver(model=MODEL), _solver(model=None)
    ranks = dun_ranks(cand, v)
    got = split_values(ranks, with_places)
    plain = split_values(ranks, without)
    b = dun_points(cand, without)
    m = biggest_worths(cand, v, 4)
    levels, chances = np.array(MODEL.levels), np.array(MODEL.chances)
    tau = (np.maximum(m[:, None], levels[None]) * chances).sum(axis=1)
    h = MODEL.amplitude * np.tanh((b - MODEL.centre) / MODEL.scale)
    np.testing.assert_allclose(got, plain - b + tau * h, rtol=0, atol=1e-9)


def test_the_search_equals_the_exhaustive_scan_under_a_place_model():
    """Pruned search and the scan of all 72,072 splits agree, split and value, under a place
    model given here (the shipped one: the next test)."""
    solver = _solver()
    hands = deal(100, 4, rng=2027).reshape(-1, 13)[:400]
    ids, values, _ = max_ev_ids(hands, solver)
    want_ids, want_values = exhaustive_ids(hands, solver)
    assert (values == want_values).all()
    assert (ids == want_ids).all()


@pytest.mark.slow
def test_expected_score_with_the_places_equals_the_exhaustive_scan_on_10000_hands():
    """The shipped guangxi place model and its weights: the same answers as the scan."""
    solver = ExpectedScore(places=True).solver("guangxi", 4)
    assert solver.model.params["place"] > 0
    hands = deal(2501, 4, rng=2026).reshape(-1, 13)[:10_000]
    ids, values, _ = max_ev_ids(hands, solver)
    want_ids, want_values = exhaustive_ids(hands, solver)
    assert (values == want_values).all()
    assert (ids == want_ids).all()


def test_a_model_is_refused_where_the_t_formula_is_not_played():
    assert plays_t_formula(load_variant("guangxi"), 4)
    assert not plays_t_formula(load_variant("guangxi"), 2)  # 002: 3 players and more
    assert not plays_t_formula(load_variant("western-2-4"), 4)
    with pytest.raises(ValueError, match="does not play"):
        _solver("western-2-4")
    with pytest.raises(SimkitError, match="does not play the t-formula"):
        fit_place_model("fujian", 4, games=200)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ((0.0, 0.0, 4.0, (1.0,), (1.0,)), "amplitude and scale"),
        ((2.0, 0.0, -1.0, (1.0,), (1.0,)), "amplitude and scale"),
        ((2.0, 0.0, 4.0, (1.0, 3.0), (1.0,)), "levels"),
        ((2.0, 0.0, 4.0, tuple(range(9)), (1 / 9,) * 9), "levels"),
        ((2.0, 0.0, 4.0, (1.0, 3.0), (0.7, 0.2)), "sum to 1"),
        ((2.0, float("nan"), 4.0, (1.0,), (1.0,)), "finite"),
    ],
)
def test_a_bad_model_is_refused(args, message):
    with pytest.raises(ValueError, match=message):
        PlaceModel(*args)


def test_the_fit_reads_the_place_payments_the_scorer_pays():
    """On 2,000 tables: T's chances sum to 1 over worths the variant pays, the place payment
    rises with B, and the fitted curve is within a tenth of a point of every bin's mean."""
    fit = fit_place_model("guangxi", 4, games=2000, seed=5)
    assert sum(fit.model.chances) == pytest.approx(1.0)
    assert fit.model.levels[0] == 1.0 and set(fit.model.levels) <= {1, 3, 4, 5, 8, 10, 20}
    mean_b, mean_place, se, curve = fit.bins.T
    assert (np.diff(mean_b) > 0).all()
    assert mean_place[-1] - mean_place[0] > 4.0  # from last place towards first
    assert np.abs(mean_place - curve).max() < 0.1 + 3 * se.max()
    assert 0 < fit.model.amplitude <= 3.0  # at most the first place's ±3 at 4 players


def test_the_shipped_model_is_the_one_the_places_option_plays():
    """guangxi's fine tables carry a place model and weights fitted over it, which
    ``expected-score:places=true`` plays; expected-score's preset plays the tables without it
    and with its own weights; where no model ships the two are the same search."""
    v = load_variant("guangxi")
    tables = default_fine_tables(v, 4)
    entry = tables.meta[PLACE_KEY]
    placed = strategy_from_name("expected-score:places=true")
    assert isinstance(placed, ExpectedScore) and placed.places
    solver = placed.solver(v, 4)
    want = new_params()
    PlaceModel.from_meta(entry).write(want)
    p = solver.model.params
    for field in ("place", "place_centre", "place_scale", "t_level", "t_chance", "home_rate"):
        assert (p[field] == want[field]).all()
    assert p["place"] > 0
    assert (p["w_scoop"], p["w_home"]) == (entry["weights"]["scoop"], entry["weights"]["home_run"])
    plain = ExpectedScore().solver(v, 4).model.params
    assert plain["place"] == 0.0
    assert (plain["w_scoop"], plain["w_home"]) == objective_weights(tables)
    hands = deal(300, 3, rng=9).reshape(-1, 13)
    # guangxi plays the t-formula at 3 players too, but no place model is fitted there
    assert PLACE_KEY not in default_fine_tables(v, 3).meta
    a = max_ev_ids(hands, ExpectedScore().solver(v, 3))
    b = max_ev_ids(hands, placed.solver(v, 3))
    assert (a[0] == b[0]).all() and (a[1] == b[1]).all()


def test_the_shipped_table_matches_the_file():
    """results/strategy/places.json is what the fine table file holds: the model, its
    weights and whether it shipped."""
    rows = json.loads((RESULTS / "places.json").read_text())
    for r in rows:
        meta = default_fine_tables(load_variant(r["variant"]), r["players"]).meta
        assert (PLACE_KEY in meta) == r["shipped"]
        if r["shipped"]:
            entry = meta[PLACE_KEY]
            assert PlaceModel.from_meta(entry) == PlaceModel.from_meta(r["model"])
            assert [entry["weights"]["scoop"], entry["weights"]["home_run"]] == r["weights"]
            # kept on the places-alone check, or by ``--always`` (recorded in its command)
            assert r["gain"] - r["gain_ci95"] > 0 or "--always" in entry["command"]
            assert entry["command"] == r.get("command", entry["command"])
