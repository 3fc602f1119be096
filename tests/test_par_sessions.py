"""The par sheet's sessions, ruin table and N0 (issue 51.4) against sessions simulated directly
on independent deals, within 4 standard errors; and a negative control that must fail.

The par sheet of run A (kept games) resamples A's games; the direct sessions are consecutive
runs of ``N`` games of run B, simulated from another seed (every game an independent deal), one
seat followed through each session.  taiwan with the greedy strategy: the banker's edge
(about +0.55 a game, SD 11) shows at 95% in A, so N0 is defined.

The SE of a difference adds the direct sessions' binomial variance ``p(1-p)/M``, the par
sheet's resampling variance ``p(1-p)/N_SESSIONS`` and the error of A's empirical distribution
itself, taken as ``p(1-p)·N/K`` for sessions of ``N`` games resampled from ``K`` games (a
session total is as uncertain as ``K/N`` independent sessions would make it): a bound of the
right size, not an exact variance.
"""

from __future__ import annotations

import math

import numpy as np
import polars as pl
import pytest

from simkit.par import N_SESSIONS, par_sheet
from simkit.rescore import game_scores
from simkit.simulate import simulate

pytestmark = pytest.mark.slow

VARIANT, PLAYERS, STRATEGY = "taiwan", 4, "greedy"
KEPT_GAMES = 20_000
N = 10  # games a direct session
M = 2_000  # direct sessions (M·N games of run B)
SEATS = {"banker": 0, "player": 1}  # the seat a direct session follows, per role


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    out = tmp_path_factory.mktemp("par_sessions")
    for name, seed, games in (("a", 101, KEPT_GAMES), ("b", 202, M * N)):
        result = simulate(
            VARIANT, games, PLAYERS, STRATEGY, seed=seed, n_jobs=1, progress=False,
            keep_games=out / name / "kept",
        )  # fmt: skip
        result.save(out / name)
    sheet = par_sheet(out / "a", seed=0)
    _, direct = game_scores(out / "b")
    return sheet, direct


def _sessions(direct: np.ndarray, role: str) -> np.ndarray:
    """``(M, N)``: each direct session's games, one seat of ``role`` followed through it."""
    return direct[: M * N, SEATS[role]].reshape(M, N)


def _se(p: float) -> float:
    """SE of (par sheet's P − direct sessions' fraction) for an event of probability ``p``."""
    p = min(max(p, 1.0 / M), 1.0 - 1.0 / M)
    return math.sqrt(p * (1 - p) * (1.0 / M + 1.0 / N_SESSIONS + N / KEPT_GAMES))


def _z(par_p: float, direct_p: float) -> float:
    return abs(par_p - direct_p) / _se(0.5 * (par_p + direct_p))


def _row(sheet, name: str, role: str, **where) -> dict:
    table = sheet.tables[name].filter(pl.col("role") == role)
    for col, value in where.items():
        table = table.filter(pl.col(col) == value)
    return table.row(0, named=True)


@pytest.mark.parametrize("role", ["banker", "player"])
def test_chance_of_being_ahead_matches_direct_sessions(runs, role):
    sheet, direct = runs
    totals = _sessions(direct, role).sum(axis=1)
    par = _row(sheet, "sessions", role, games=N)
    assert _z(par["p_ahead"], float((totals > 0).mean())) < 4


@pytest.mark.parametrize("role", ["banker", "player"])
@pytest.mark.parametrize("column, level", [("q05", 0.05), ("q50", 0.5), ("q95", 0.95)])
def test_session_quantiles_match_direct_sessions(runs, role, column, level):
    """The direct sessions below the par sheet's quantile bracket its level (totals are whole
    points, so a quantile is an atom: the fraction below it and at or below it bracket)."""
    sheet, direct = runs
    totals = _sessions(direct, role).sum(axis=1)
    q = _row(sheet, "sessions", role, games=N)[column]
    below, at_or_below = float((totals < q).mean()), float((totals <= q).mean())
    gap = max(below - level, level - at_or_below, 0.0)
    assert gap / _se(level) < 4, (q, below, at_or_below)


@pytest.mark.parametrize("role", ["banker", "player"])
def test_ruin_table_matches_direct_sessions(runs, role):
    sheet, direct = runs
    low = np.minimum.accumulate(np.cumsum(_sessions(direct, role), axis=1), axis=1)[:, -1]
    ruin = sheet.tables["ruin"].filter((pl.col("role") == role) & (pl.col("games") == N))
    checked = 0
    for row in ruin.iter_rows(named=True):
        direct_p = float((low <= -row["bankroll"]).mean())
        if max(row["p_ruin"], direct_p) < 0.01:
            continue  # both next to zero: nothing to compare at this size
        assert _z(row["p_ruin"], direct_p) < 4, row
        checked += 1
    assert checked >= 2


def test_n0_matches_direct_games(runs):
    """N0 = Var/edge² of the banker, against the same from run B's games (delta method)."""
    sheet, direct = runs
    par = _row(sheet, "par", "banker")
    assert par["n0"] is not None  # the edge shows in A
    b = direct[:, 0]
    edge, var = float(b.mean()), float(b.var(ddof=1))
    n0 = var / edge**2

    def se_n0(n0_value: float, edge_value: float, edge_se: float) -> float:
        # relative SE of Var/edge²: 2·SE(edge)/|edge| (the variance's own error is smaller)
        return n0_value * 2 * edge_se / abs(edge_value)

    se = math.hypot(
        se_n0(par["n0"], par["edge"], par["edge_se"]), se_n0(n0, edge, math.sqrt(var / len(b)))
    )
    assert abs(par["n0"] - n0) < 4 * se
    assert par["sd"] == pytest.approx(math.sqrt(var), rel=0.05)


def test_negative_control_the_other_roles_sessions_are_told_apart(runs):
    """The comparison has power: the banker's ruin chances against the players' direct
    sessions (another role, another spread) fail it."""
    sheet, direct = runs
    low = np.minimum.accumulate(np.cumsum(_sessions(direct, "player"), axis=1), axis=1)[:, -1]
    banker = sheet.tables["ruin"].filter((pl.col("role") == "banker") & (pl.col("games") == N))
    worst = max(
        _z(row["p_ruin"], float((low <= -row["bankroll"]).mean()))
        for row in banker.iter_rows(named=True)
    )
    assert worst > 4
