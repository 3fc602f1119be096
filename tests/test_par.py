"""Par sheets (issue 51.4): N0 and the ruin table checked exactly on a synthetic score
distribution, and the sheet of a small banker run."""

import numpy as np
import polars as pl
import pytest

from simkit.par import par_row, par_sheet, ruin_paths, ruin_rows, session_rows, write_par
from simkit.simulate import load_result, simulate


def _exact_ruin(p_win: float, bankroll: int, games: int) -> float:
    """P(a ±1 walk with P(+1) = p_win reaches -bankroll within ``games`` steps), by dynamic
    programming over the running total."""
    width = bankroll + games + 1
    prob = np.zeros(2 * width + 1)
    prob[width] = 1.0  # total 0
    ruined = 0.0
    for _ in range(games):
        step = np.zeros_like(prob)
        step[1:] += prob[:-1] * p_win
        step[:-1] += prob[1:] * (1 - p_win)
        ruined += step[width - bankroll]
        step[width - bankroll] = 0.0
        prob = step
    return ruined


def test_n0_is_variance_over_edge_squared():
    rng = np.random.default_rng(1)
    scores = np.where(rng.random((200_000, 1)) < 0.45, 1.0, -1.0)
    row = par_row(scores)
    var = scores.var(ddof=1)
    assert row["n0"] == pytest.approx(var / scores.mean() ** 2, rel=1e-12)
    # an edge of zero (a symmetric distribution) leaves n0 empty
    assert par_row(np.array([[1.0], [-1.0]] * 1000))["n0"] is None
    assert row["volatility_index"] == pytest.approx(1.645 * np.sqrt(var))
    assert row["p_win"] + row["p_tie"] + row["p_loss"] == pytest.approx(1.0)


@pytest.mark.parametrize(("bankroll", "games"), [(5, 10), (10, 100), (20, 1000)])
def test_ruin_matches_the_exact_walk_within_4_se(bankroll, games):
    p_win = 0.45
    # the empirical distribution is the synthetic one exactly: 45 wins and 55 losses
    scores = np.array([1.0] * 45 + [-1.0] * 55)[:, None]
    low, _ = ruin_paths(scores, np.random.default_rng(2), 1000, n_paths=10_000)
    (row,) = [r for r in ruin_rows(low, [bankroll], [games])]
    exact = _exact_ruin(p_win, bankroll, games)
    assert abs(row["p_ruin"] - exact) <= 4 * max(row["se"], 1e-4)


def test_sessions_match_the_sum_of_independent_games():
    scores = np.array([1.0] * 45 + [-1.0] * 55)[:, None]
    rows = session_rows(scores, np.random.default_rng(3), lengths=[100], n_sessions=10_000)
    (row,) = rows
    mean, sd = 100 * -0.1, np.sqrt(100 * (1 - 0.01))
    assert abs(row["mean"] - mean) <= 4 * sd / np.sqrt(10_000)
    assert row["sd"] == pytest.approx(sd, rel=0.05)


@pytest.fixture(scope="module")
def banker_run(tmp_path_factory):
    out = tmp_path_factory.mktemp("par")
    result = simulate(
        "taiwan", 4096, 4, "greedy", seed=5, n_jobs=1, progress=False, keep_games=out / "kept"
    )
    result.save(out)
    return out


def test_par_sheet_of_a_banker_run(banker_run, tmp_path):
    sheet = par_sheet(banker_run, seed=1)
    par = sheet.tables["par"]
    assert par["role"].to_list() == ["banker", "player"]
    assert set(par.columns) >= {"edge", "edge_se", "sd", "volatility_index", "n0", "p_win"}
    # zero-sum: the banker's edge is minus three players' edges
    banker, player = par["edge"].to_list()
    assert banker == pytest.approx(-3 * player, abs=1e-9)
    # the kept games' scores are the run's: the banker's edge and SD are its seat 0's
    seat0 = load_result(banker_run)["scores"].filter(pl.col("seat") == "0")
    assert banker == pytest.approx(seat0["mean"][0], abs=1e-9)
    assert par["sd"][0] == pytest.approx(seat0["sd"][0], rel=1e-9)
    assert par["edge_se"][0] == pytest.approx(seat0["se"][0], rel=1e-9)
    returns = sheet.tables["returns"]
    shares = returns.group_by("role").agg(pl.col("variance_share").sum())
    assert np.allclose(shares["variance_share"].to_numpy(), 1.0)
    written = {p.name for p in write_par(sheet, tmp_path)}
    assert {
        "par.parquet",
        "returns.parquet",
        "sessions.parquet",
        "ruin.parquet",
        "par.md",
    } <= written
    assert "par_sessions.png" in written and "par_ruin.png" in written


def test_cli_par_of_a_variant_and_of_a_run(banker_run, tmp_path, capsys):
    from simkit.cli import main

    out = tmp_path / "sheet"
    argv = ["par", "--variant", "guangxi", "--games", "2048", "--strategy", "greedy", "--jobs", "1"]
    assert main([*argv, "--out", str(out)]) == 0
    text = capsys.readouterr().out
    assert "seat" in text and "par sheet written" in text
    assert pl.read_parquet(out / "par.parquet")["role"].to_list() == ["seat"]
    assert main(["par", str(banker_run)]) == 0
    assert "banker" in capsys.readouterr().out
