"""Figures: drawn from result tables only (never simulating), saved as PNG and SVG."""

from __future__ import annotations

import importlib
import subprocess
import sys
from pathlib import Path

import matplotlib
import polars as pl
import pytest
from matplotlib.figure import Figure

from simkit import plots
from simkit.simulate import SimulationResult, load_result, simulate

# The module, not the function: ``simkit.simulate`` is re-exported as the function.
sim = importlib.import_module("simkit.simulate")


@pytest.fixture(scope="module")
def saved(tmp_path_factory: pytest.TempPathFactory) -> Path:
    result = simulate(["guangxi", "hongkong"], 600, seed=5, n_jobs=1)
    return result.save(tmp_path_factory.mktemp("run"))


@pytest.fixture
def loaded(saved: Path, monkeypatch: pytest.MonkeyPatch) -> SimulationResult:
    def refuse(*args, **kwargs):  # type: ignore[no-untyped-def]
        raise AssertionError("a plot tried to simulate")

    monkeypatch.setattr(sim, "simulate", refuse)
    monkeypatch.setattr(sim, "play_chunk", refuse)
    return load_result(saved)


@pytest.mark.parametrize("name", sorted(plots.FIGURES))
def test_each_figure_draws_from_saved_tables(loaded: SimulationResult, name: str) -> None:
    table, draw = plots.FIGURES[name]
    fig = draw(loaded[table])
    assert isinstance(fig, Figure)
    axes = fig.get_axes()
    assert axes and all(ax.get_xlabel() or ax.get_title() for ax in axes)
    # Something was drawn on every axis.
    assert all(ax.lines or ax.collections or ax.patches for ax in axes)


def test_scores_plot_has_one_row_per_variant(loaded: SimulationResult) -> None:
    fig = plots.plot_scores(loaded["scores"])
    labels = [t.get_text() for t in fig.get_axes()[0].get_yticklabels()]
    assert labels == ["guangxi", "hongkong (banker)"]  # seat 0 is the banker in hongkong


def test_payout_plot_is_log_log(loaded: SimulationResult) -> None:
    fig = plots.plot_payouts(loaded["payouts"])
    ax = fig.get_axes()[0]
    assert ax.get_xscale() == "log" and ax.get_yscale() == "log"
    legend = [t.get_text() for t in ax.get_legend().get_texts()]
    assert {"guangxi", "hongkong"} <= set(legend)


def test_all_figures_writes_png_and_svg(loaded: SimulationResult, tmp_path: Path) -> None:
    written = plots.all_figures(loaded.tables, tmp_path / "fig")
    assert set(written) == set(plots.FIGURES)
    for paths in written.values():
        png, svg = paths
        assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
        assert svg.read_text().lstrip().startswith("<?xml")
    assert not [p for p in (tmp_path / "fig").iterdir() if p.name.startswith(".")]


def test_components_plot_skips_rules_a_variant_never_uses(loaded: SimulationResult) -> None:
    comps = loaded["components"]
    fig = plots.plot_components(comps)
    (figure_legend,) = fig.legends  # one legend for both panels
    legend = {t.get_text() for t in figure_legend.get_texts()}
    unused = set(
        comps.group_by("component")
        .agg(pl.col("mean_abs").max())
        .filter(pl.col("mean_abs") == 0)["component"]
    )
    assert legend and not legend & unused


def test_importing_plots_leaves_the_backend_and_rcparams_alone() -> None:
    """A fresh interpreter: importing simkit (and its plots) selects no backend and changes no
    global rcParams, so a notebook keeps its inline backend."""
    code = (
        "import matplotlib\n"
        "matplotlib.use('svg')\n"
        "before = dict(matplotlib.rcParams)\n"
        "import simkit, simkit.plots, simkit.report\n"
        "assert matplotlib.get_backend() == 'svg', matplotlib.get_backend()\n"
        "changed = {k for k, v in dict(matplotlib.rcParams).items() if before[k] != v}\n"
        "assert not changed, changed\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True, cwd=Path(__file__).parent.parent)


def test_drawing_and_saving_leave_rcparams_alone(loaded: SimulationResult, tmp_path: Path) -> None:
    before = dict(matplotlib.rcParams)
    plots.all_figures(loaded.tables, tmp_path)
    assert dict(matplotlib.rcParams) == before


def test_the_same_figure_saves_to_the_same_bytes(loaded: SimulationResult, tmp_path: Path) -> None:
    first = plots.save_figure(plots.plot_payouts(loaded["payouts"]), tmp_path / "a", "payouts")
    second = plots.save_figure(plots.plot_payouts(loaded["payouts"]), tmp_path / "b", "payouts")
    assert [p.read_bytes() for p in first] == [p.read_bytes() for p in second]


def test_a_figure_shows_itself_in_jupyter_as_png(loaded: SimulationResult) -> None:
    fig = plots.plot_scores(loaded["scores"])
    assert fig._repr_png_()[:8] == b"\x89PNG\r\n\x1a\n"  # type: ignore[attr-defined]


def test_payout_points_are_named_without_overlapping_labels(loaded: SimulationResult) -> None:
    fig = plots.plot_payouts(loaded["payouts"])
    ax = fig.get_axes()[0]
    named = {t.get_text() for t in ax.texts}
    shown = loaded["payouts"].filter(pl.col("payout") > 0, pl.col("one_in").is_finite())
    assert named == set(shown["special"])
    boxes = [plots._text_box(t) for t in ax.texts]
    frame = ax.get_window_extent()
    for i, box in enumerate(boxes):
        assert frame.contains(box.x0, box.y0) and frame.contains(box.x1, box.y1), ax.texts[i]
        assert not any(box.overlaps(other) for other in boxes[i + 1 :]), ax.texts[i]


def test_score_distribution_has_one_panel_per_variant(loaded: SimulationResult) -> None:
    fig = plots.plot_score_distribution(loaded["score_distribution"])
    titles = [ax.get_title().split()[0] for ax in fig.get_axes()]
    assert titles == ["guangxi", "hongkong"]
    assert all(ax.get_yscale() == "log" for ax in fig.get_axes())
