"""The copula of the opponents' duns (simkit.arrange.joint) and the value that reads it."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from simkit.arrange import ExpectedScore, WinTables, exhaustive_ids, make_solver, max_ev_ids
from simkit.arrange.joint import (
    JOINT_CELLS,
    cdf2,
    cdf3,
    cdf3_and_pairs,
    dun_percentiles,
    joint_cdfs,
    joint_counts,
    joint_of_population,
)
from simkit.arrange.value import (
    _independent_chances,
    joint_chances,
    payout_model,
    split_ev,
)
from simkit.arrange.wintables import default_fine_tables
from simkit.deal import deal
from simkit.train import train
from simkit.variants import load_variant

UNIFORM = joint_cdfs(np.ones((JOINT_CELLS,) * 3))
unit = st.floats(0.0, 1.0, allow_nan=False)


@given(unit, unit, unit)
def test_a_uniform_grid_is_the_independent_copula(x, y, z):
    """Trilinear reading of the uniform grid is the product (independent duns) anywhere."""
    for side in (0, 1):
        h = UNIFORM[side]
        assert cdf3(h, x, y, z) == pytest.approx(x * y * z, abs=1e-12)
        assert cdf2(h, 2, x, y) == pytest.approx(x * y, abs=1e-12)
        assert cdf2(h, 1, x, z) == pytest.approx(x * z, abs=1e-12)
        assert cdf2(h, 0, y, z) == pytest.approx(y * z, abs=1e-12)


def _chances(w, l_, p, cop):
    return joint_chances(*w, *l_, p, cop, False)


@pytest.mark.parametrize("name", ["guangxi", "western-2-4", "qiantang", "fujian", "taiwan"])
def test_the_independent_copula_prices_as_independent_duns(name):
    """Each scoring family (scoop with ties, majority of more wins than losses, majority of
    two wins, an added scoop, a doubling one): the copula path on the uniform grid gives the
    independent model's scoop, scooped and majority chances."""
    p = payout_model(load_variant(name), 4).params[()]
    scoops = p["scoop_double"] != 0 or p["scoop_add"] != 0 or p["home"] > 0
    majority = p["majority"] != 0
    assert scoops or majority
    rng = np.random.default_rng(1)
    for _ in range(300):
        w = rng.random(3)
        l_ = rng.random(3) * (1.0 - w)
        got = _chances(w, l_, p, UNIFORM)
        want = _independent_chances(*w, *l_, p)
        read = [scoops] * 2 + [majority] * 2  # the chances the variant's rules pay
        for g, e, paid in zip(got, want, read, strict=True):
            if paid:
                assert g == pytest.approx(e, abs=1e-12)


def test_percentiles_separate_wins_losses_and_ties_exactly():
    """A population dun's percentile is below my dun's win chance exactly when it loses to
    my dun, above 1 - my lose chance exactly when it beats it (ties between): the scoop of a
    rank counted against the population is the copula's chance at that rank's chances."""
    rng = np.random.default_rng(3)
    pop = rng.integers(0, 40, size=(5000, 3))  # coarse ranks: many ties
    pop[:, 1] = np.minimum(pop[:, 0] + rng.integers(0, 5, 5000), 39)  # dependent duns
    u = dun_percentiles(pop, np.random.default_rng(4))
    assert ((u >= 0) & (u < 1)).all()
    for mine in rng.integers(0, 40, size=(50, 3)):
        w = (pop < mine).mean(axis=0)
        l_ = (pop > mine).mean(axis=0)
        assert ((u < w) == (pop < mine)).all()
        assert ((u > 1.0 - l_) == (pop > mine)).all()
        assert (u < w).all(axis=1).mean() == (pop < mine).all(axis=1).mean()


def test_the_grid_is_the_empirical_copula_at_its_points():
    """At grid points the cumulative grids are the counted shares, of U and of 1 - U."""
    rng = np.random.default_rng(5)
    z = rng.standard_normal((20000, 1))
    ranks = np.rint(10 * (z + 0.7 * rng.standard_normal((20000, 3)))).astype(np.int64)
    u = dun_percentiles(ranks, rng)
    cop = joint_cdfs(joint_counts(u))
    g = JOINT_CELLS
    for i, j, k in [(4, 8, 12), (16, 3, 16), (10, 10, 10), (1, 15, 7)]:
        x = np.array([i, j, k]) / g
        assert cdf3(cop[0], *x) == pytest.approx((u < x).all(axis=1).mean(), abs=1e-12)
        assert cdf3(cop[1], *x) == pytest.approx((u > 1.0 - x).all(axis=1).mean(), abs=1e-12)
        assert cdf2(cop[0], 2, x[0], x[1]) == pytest.approx((u[:, :2] < x[:2]).all(1).mean())
    # and the duns of these hands are dependent: the scoop chance at the medians is not 1/8
    assert cdf3(cop[0], 0.5, 0.5, 0.5) > 0.2


def test_grids_are_validated():
    with pytest.raises(ValueError, match="cube"):
        joint_cdfs(np.ones((4, 4, 5)))
    with pytest.raises(ValueError, match="cube"):
        joint_cdfs(-np.ones((4, 4, 4)))
    with pytest.raises(ValueError, match="shape"):
        dun_percentiles(np.zeros((5, 2)), np.random.default_rng(0))


def _dependent(tables: WinTables, seed: int = 0) -> WinTables:
    """The tables with a strongly dependent copula (one factor shared by the three duns)."""
    rng = np.random.default_rng(seed)
    z = rng.standard_normal((50000, 1))
    ranks = np.rint(50 * (z + 0.5 * rng.standard_normal((50000, 3)))).astype(np.int64)
    return replace(tables, copula=joint_of_population(ranks, rng))


@pytest.mark.parametrize(
    ("name", "players"), [("guangxi", 4), ("western-2-4", 2), ("qiantang", 4), ("fujian", 4)]
)
def test_search_equals_the_exhaustive_scan_with_a_dependent_copula(name, players):
    """With a copula far from independence (its bounds' tie terms and monotonicity at work),
    the pruned search still returns the split and value of scoring all 72,072 splits."""
    v = load_variant(name)
    tables = _dependent(default_fine_tables(v, players))
    solver = ExpectedScore(tables).solver(v, players)
    assert solver.model.params["joint"] == 1.0
    hands = deal(100, 2, rng=11).reshape(-1, 13)
    ids, values, _ = max_ev_ids(hands, solver)
    want_ids, want_values = exhaustive_ids(hands, solver)
    assert (values == want_values).all()
    assert (ids == want_ids).all()
    # the copula changes the values (and some splits) of the independent model
    plain = ExpectedScore(tables, joint=False).solver(v, players)
    assert plain.model.params["joint"] == 0.0
    _, plain_values, _ = max_ev_ids(hands, plain)
    assert np.abs(values - plain_values).max() > 1e-3


@pytest.mark.parametrize("name", ["guangxi", "western-2-4", "qiantang"])
def test_the_bound_holds_over_every_weaker_split(name):
    """The favourable quantities' bound at classes (cf, cm, cb) is at least the value of any
    split with classes at or below them, under a dependent copula."""
    v = load_variant(name)
    solver = ExpectedScore(_dependent(default_fine_tables(v, 4), 1)).solver(v, 4)
    q, fav = solver.q, solver.fav
    p, cop = solver.model.params[()], solver.joint
    rng = np.random.default_rng(2)
    n = q.shape[1]
    for _ in range(3000):
        top = rng.integers(0, n, 3)
        low = (rng.random(3) * (top + 1)).astype(np.int64)
        assert split_ev(q, p, cop, *low) <= split_ev(fav, p, cop, *top, True) + 1e-12


def test_training_stores_the_copula_of_the_play():
    """The fine tables carry the copula of the duns their training played; it survives a
    save and load; a solver asked for it without one prices independent duns."""
    tables = train("western-2-4", 2, seed=1, n_games=600, iterations=2, strategy="expected-score")
    assert tables.copula is not None and tables.copula.shape == (JOINT_CELLS,) * 3
    share = tables.copula / tables.copula.sum()
    for axes in ((1, 2), (0, 2), (0, 1)):  # percentiles: each dun's marginal is uniform
        np.testing.assert_allclose(share.sum(axis=axes), 1.0 / JOINT_CELLS, atol=0.03)
    cop = joint_cdfs(tables.copula)
    assert cdf3(cop[0], 1.0, 1.0, 1.0) == pytest.approx(1.0)
    coarse = train("western-2-4", 2, seed=1, n_games=300, iterations=1, strategy="max-ev")
    assert coarse.copula is None
    solver = make_solver("western-2-4", 2, coarse, joint=True)
    assert solver.model.params["joint"] == 0.0


def test_tables_keep_their_copula_on_disk(tmp_path):
    tables = _dependent(default_fine_tables(load_variant("fujian"), 4))
    tables.save(tmp_path / "t.npz")
    back = WinTables.load(tmp_path / "t.npz")
    assert back.copula is not None and np.array_equal(back.copula, tables.copula)


def test_the_triple_and_its_pairs_read_at_once_equal_cdf3_and_cdf2_to_the_last_bit():
    """The majority's chances read the triple and the three pairs from one lookup of the cells
    (cdf3_and_pairs): the same floats as cdf3 and the sum of cdf2's, grid points, edges and
    values outside [0, 1] included, on a copula that is not the independent one."""
    rng = np.random.default_rng(7)
    cop = joint_cdfs(rng.random((JOINT_CELLS,) * 3) ** 3)
    points = np.concatenate(
        [rng.random((300, 3)), rng.integers(0, JOINT_CELLS + 1, (50, 3)) / JOINT_CELLS,
         rng.choice([-0.1, 0.0, 1.0, 1.2], (50, 3))]
    )  # fmt: skip
    for h in cop:
        for x, y, z in points:
            triple, pairs = cdf3_and_pairs(h, x, y, z)
            assert triple == cdf3(h, x, y, z)
            assert pairs == cdf2(h, 2, x, y) + cdf2(h, 1, x, z) + cdf2(h, 0, y, z)
