"""Figures: drawn from result tables only (never simulating), saved as PNG and SVG."""

from __future__ import annotations

import importlib
from pathlib import Path

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
    plots.plt.close(fig)


def test_scores_plot_has_one_row_per_variant(loaded: SimulationResult) -> None:
    fig = plots.plot_scores(loaded["scores"])
    labels = [t.get_text() for t in fig.get_axes()[0].get_yticklabels()]
    assert labels == ["guangxi", "hongkong"]
    plots.plt.close(fig)


def test_payout_plot_is_log_log(loaded: SimulationResult) -> None:
    fig = plots.plot_payouts(loaded["payouts"])
    ax = fig.get_axes()[0]
    assert ax.get_xscale() == "log" and ax.get_yscale() == "log"
    legend = [t.get_text() for t in ax.get_legend().get_texts()]
    assert {"guangxi", "hongkong"} <= set(legend)
    plots.plt.close(fig)


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
    legend = {t.get_text() for t in fig.get_axes()[0].get_legend().get_texts()}
    unused = set(
        comps.group_by("component")
        .agg(pl.col("mean_abs").max())
        .filter(pl.col("mean_abs") == 0)["component"]
    )
    assert legend and not legend & unused
    plots.plt.close(fig)
