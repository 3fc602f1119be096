"""The report's par sheets (issue 51.4): one per shipped variant of the run, from the report's
own deals (kept while the report runs, then removed), saved as tables, drawn, and redrawn from
the saved tables."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import polars as pl
import pytest

from simkit.report import build_report, render_markdown, write_report
from simkit.report.page import Page
from simkit.report.par_sheets import FIGURE, par_section
from simkit.simulate import load_result, simulate

GAMES = 600


@pytest.fixture(scope="module")
def report_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("report_par")
    build_report(out, n_games=GAMES, variants=["guangxi", "hongkong"], n_jobs=1, progress=False)
    return out


def _section(readme: str) -> str:
    start = readme.index("Par sheets")
    end = readme.find("\n## ", start)
    return readme[start : end if end > 0 else None]


def test_the_report_has_a_par_sheet_per_shipped_variant_and_role(report_dir: Path) -> None:
    readme = (report_dir / "README.md").read_text(encoding="utf-8")
    section = _section(readme)
    rows = [line for line in section.splitlines() if line.startswith("| ") and "---" not in line]
    cells = [[c.strip() for c in line.strip("|").split("|")] for line in rows[1:]]
    assert [(c[0], c[1]) for c in cells] == [
        ("guangxi", "seat"),
        ("hongkong", "banker"),
        ("hongkong", "player"),
    ]  # the top-card twin is no shipped variant: no sheet
    assert cells[0][2] == "0 (zero-sum)"  # every seat of an all-pairs game: zero exactly
    assert all(" ± " in c[2] for c in cells[1:])
    assert "0.000 ± 0.000" not in readme
    assert f"(figures/{FIGURE}.png)" in section
    assert (report_dir / "figures" / f"{FIGURE}.png").is_file()
    assert not (report_dir / ".kept").exists()  # the kept games are removed


def test_par_tables_are_saved_and_read_the_runs_own_deals(report_dir: Path) -> None:
    result = load_result(report_dir / "tables")
    for name in ("par", "par_returns", "par_sessions", "par_ruin", "par_fan"):
        assert not result[name].is_empty(), name
    par = result["par"]
    assert set(par["games"].to_list()) == {GAMES}
    # the banker's edge and SD are those of seat 0 in the run's own scores table
    banker = par.filter((pl.col("variant") == "hongkong") & (pl.col("role") == "banker")).row(
        0, named=True
    )
    seat0 = (
        result["scores"]
        .filter((pl.col("variant") == "hongkong") & (pl.col("seat") == "0"))
        .row(0, named=True)
    )
    assert banker["edge"] == pytest.approx(seat0["mean"], abs=1e-9)
    assert banker["sd"] == pytest.approx(seat0["sd"], rel=1e-9)
    assert banker["edge_se"] == pytest.approx(seat0["se"], rel=1e-9)
    # an all-pairs game is zero-sum: the seat's edge is zero and N0 is left empty
    seat = par.filter(pl.col("variant") == "guangxi").row(0, named=True)
    assert seat["edge"] == pytest.approx(0.0, abs=1e-12) and seat["n0"] is None
    fan = result["par_fan"].filter(pl.col("variant") == "hongkong")
    assert (
        fan.height == 2 * 1000 and (np.diff(fan.select("q05", "q50", "q95").to_numpy()) >= 0).all()
    )


def test_write_report_redraws_the_par_section_from_saved_tables(
    report_dir: Path, tmp_path: Path
) -> None:
    readme = write_report(load_result(report_dir / "tables"), tmp_path / "again")
    again = _section(readme.read_text(encoding="utf-8"))
    assert again == _section((report_dir / "README.md").read_text(encoding="utf-8"))
    assert (tmp_path / "again" / "figures" / f"{FIGURE}.png").is_file()


def test_a_run_without_par_tables_has_no_par_section() -> None:
    result = simulate("western-2-4", 64, 2, "greedy", seed=1, n_jobs=1, progress=False)
    assert par_section(Page(result)) == []
    assert "Par sheets" not in render_markdown(result)


def test_the_report_command_writes_par_sheets_and_removes_the_kept_games(tmp_path: Path) -> None:
    """``simkit report`` (the command ``make report`` runs) keeps the games while the par sheets
    are computed, saves the sheets with the tables, and leaves no kept games behind."""
    from simkit.cli import main

    out = tmp_path / "report"
    argv = ["report", "--games", "600", "--variant", "taiwan", "--out", str(out), "--jobs", "1"]
    assert main([*argv, "--seed", "3"]) == 0
    assert (out / "tables" / "par.parquet").is_file()
    assert not (out / ".kept").exists()
    par = pl.read_parquet(out / "tables" / "par.parquet")
    assert set(par["role"]) == {"banker", "player"}
    assert "Par sheets" in (out / "README.md").read_text(encoding="utf-8")
