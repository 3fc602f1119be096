"""Every figure fits its canvas: legends, tick labels, axis labels, titles and annotations lie
inside the figure, and every axis is labelled; a variant is drawn in one style everywhere.

The figures are drawn from a tiny simulation of three variants, and again with its tables
copied under twelve long variant names (a report's width), as matplotlib lays them out when it
saves them (the Agg renderer, at the saving resolution)."""

from __future__ import annotations

import io

import matplotlib
import polars as pl
import pytest
from matplotlib.axes import Axes
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.transforms import Bbox

from simkit import plots
from simkit.simulate import SimulationResult, load_result, simulate

WIDE_NAMES = [
    "fujian", "guangxi", "guangxi-regional", "hongkong", "hongkong+top-card", "philippines",
    "philippines+top-card", "qiantang", "taiwan", "taiwan+top-card", "western-2-4",
    "wiki-points",
]  # fmt: skip


@pytest.fixture(scope="module")
def small(tmp_path_factory: pytest.TempPathFactory) -> SimulationResult:
    run = simulate(["guangxi", "hongkong", "qiantang"], 400, seed=11, n_jobs=1, progress=False)
    return load_result(run.save(tmp_path_factory.mktemp("run")))


def _widened(tables: dict[str, pl.DataFrame]) -> dict[str, pl.DataFrame]:
    """Each table with a ``variant`` column, its three variants' rows copied under the twelve
    names of :data:`WIDE_NAMES` (in turn)."""
    out = {}
    for name, table in tables.items():
        if "variant" not in table.columns:
            out[name] = table
            continue
        sources = list(dict.fromkeys(table["variant"].to_list()))
        out[name] = pl.concat(
            [
                table.filter(pl.col("variant") == sources[i % len(sources)]).with_columns(
                    variant=pl.lit(wide)
                )
                for i, wide in enumerate(WIDE_NAMES)
            ]
        )
    return out


def _costs() -> pl.DataFrame:
    rows = []
    for i, (variant, seat) in enumerate([("guangxi", "any"), ("hongkong", "banker"),
                                         ("hongkong", "player")]):  # fmt: skip
        for j, strategy in enumerate(["max-ev", "greedy", "random-legal"]):
            diff = -(0.05 + i) * 10**j
            rows.append({"variant": variant, "seat": seat, "strategy": strategy, "diff": diff,
                         "diff_ci_low": diff * 1.1, "diff_ci_high": diff * 0.9})  # fmt: skip
    return pl.DataFrame(rows)


def _figures(tables: dict[str, pl.DataFrame]) -> dict[str, Figure]:
    figures = {name: draw(tables[table]) for name, (table, draw) in plots.FIGURES.items()}
    figures["strategy"] = plots.plot_strategy_costs(_costs(), "expected-score-rerank")
    return figures


def _drawn(fig: Figure) -> Bbox:
    """Lay the figure out and draw it as saving it does; returns the canvas's box."""
    FigureCanvasAgg(fig)
    fig.set_dpi(plots.DPI)
    with matplotlib.rc_context(plots.STYLE):
        fig.savefig(io.BytesIO(), format="png", dpi=plots.DPI)
        fig.canvas.draw()
    return fig.bbox


def _outside(fig: Figure) -> list[str]:
    """The texts and legends of ``fig`` whose box leaves the canvas (1 pixel of slack), as the
    figure is saved, or the area a notebook shows (``bbox_inches="tight"``, what
    :meth:`~simkit.plots.ResultFigure._repr_png_` and Jupyter's inline backend crop to)."""
    full = _drawn(fig)
    renderer = fig.canvas.get_renderer()  # type: ignore[attr-defined]
    items: list[tuple[str, object]] = [("legend", legend) for legend in fig.legends]
    for label in (fig._supxlabel, fig._supylabel, fig._suptitle):  # type: ignore[attr-defined]
        if label is not None and label.get_text():
            items.append((f"figure label {label.get_text()!r}", label))
    for ax in fig.axes:
        if ax.get_legend() is not None:
            items.append(("legend", ax.get_legend()))
        for text in [ax.xaxis.label, ax.yaxis.label, ax.title, *ax.texts]:
            if text.get_text() and text.get_visible():
                items.append((repr(text.get_text()), text))
        for axis in (ax.xaxis, ax.yaxis):
            low, high = sorted(axis.get_view_interval())
            for tick in axis.get_major_ticks():  # those in view: the others are not drawn
                label = tick.label1
                if label.get_text() and label.get_visible() and low <= tick.get_loc() <= high:
                    items.append((f"tick {label.get_text()!r}", label))
    boxes = [
        (what, plots._text_box(a) if hasattr(a, "xyann") else a.get_window_extent(renderer))
        for what, a in items
    ]  # as drawn: measuring the tight box below moves some labels
    tight = fig.get_tightbbox(renderer).transformed(fig.dpi_scale_trans)
    canvas = Bbox.intersection(full, tight) or full
    out = []
    for what, box in boxes:
        if (box.x0 < canvas.x0 - 1 or box.y0 < canvas.y0 - 1 or box.x1 > canvas.x1 + 1
                or box.y1 > canvas.y1 + 1):  # fmt: skip
            out.append(f"{what} at {box.bounds} outside {canvas.bounds}")
    return out


def _unlabelled(fig: Figure) -> list[str]:
    """Axes with no label on an axis: its own, the figure's (``supxlabel``), or that of an
    axes sharing it whose tick labels it hides."""
    fig_x = fig._supxlabel is not None  # type: ignore[attr-defined]
    fig_y = fig._supylabel is not None  # type: ignore[attr-defined]

    def labelled(ax: Axes, which: str) -> bool:
        if (ax.get_xlabel() if which == "x" else ax.get_ylabel()) or (
            fig_x if which == "x" else fig_y
        ):
            return True
        shared = ax.get_shared_x_axes() if which == "x" else ax.get_shared_y_axes()
        return any(
            (other.get_xlabel() if which == "x" else other.get_ylabel())
            for other in shared.get_siblings(ax)
        )

    return [
        f"{ax.get_title() or 'axes'}: no {which} label"
        for ax in fig.axes
        for which in "xy"
        if not labelled(ax, which)
    ]


@pytest.mark.parametrize("width", ["small", "wide"])
def test_every_figure_fits_its_canvas_and_labels_every_axis(
    small: SimulationResult, width: str
) -> None:
    tables = small.tables if width == "small" else _widened(small.tables)
    for name, fig in _figures(tables).items():
        assert not _outside(fig), (name, _outside(fig))
        assert not _unlabelled(fig), (name, _unlabelled(fig))


def test_the_check_sees_a_legend_and_a_label_off_the_canvas() -> None:
    """The negative control: a legend placed right of the figure and an unlabelled axis."""
    fig = Figure(figsize=(4, 3))
    ax = fig.subplots()
    ax.plot([0, 1], [0, 1], label="a line with a long name")
    ax.legend(loc="center left", bbox_to_anchor=(1.2, 0.5))
    ax.set_xlabel("x")
    assert any(problem.startswith("legend") for problem in _outside(fig))
    assert _unlabelled(fig) == ["axes: no y label"]


def test_a_variant_has_one_style_in_every_figure(small: SimulationResult) -> None:
    figures = _figures(small.tables)
    guangxi = plots.variant_style("guangxi")
    colours = matplotlib.colors.to_rgba
    lines = [line for line in figures["convergence"].axes[0].lines if line.get_label() == "guangxi"]
    assert lines and colours(lines[0].get_color()) == colours(guangxi.color)
    assert lines[0].get_marker() == guangxi.marker
    payouts = figures["payouts"].axes[0]
    points = [c for c in payouts.collections if c.get_label() == "guangxi"]
    assert points and tuple(points[0].get_edgecolor()[0]) == colours(guangxi.color)
    twin = plots.variant_style("hongkong+top-card")
    assert twin.color == plots.variant_style("hongkong").color and not twin.filled
    assert plots.variant_style("my-house-rules") == plots.variant_style("my-house-rules")


def test_the_banker_colour_marks_only_a_banker(small: SimulationResult) -> None:
    """qiantang's seat 0 (its 换牌 edge) is not a banker; hongkong's is."""
    fig = plots.plot_scores(small["scores"])
    labels = [t.get_text() for t in fig.axes[0].get_yticklabels()]
    assert labels == ["guangxi", "hongkong (banker)", "qiantang"]
    # both panels show the rows at the same heights
    assert fig.axes[0].get_ylim() == fig.axes[1].get_ylim()


def test_each_distribution_panel_has_its_own_score_range(small: SimulationResult) -> None:
    fig = plots.plot_score_distribution(small["score_distribution"])
    ranges = {ax.get_title().split()[0]: ax.get_xlim() for ax in fig.axes}
    assert ranges["hongkong"] != ranges["guangxi"]
    assert (
        ranges["hongkong"][1] - ranges["hongkong"][0] < ranges["guangxi"][1] - ranges["guangxi"][0]
    )


def test_components_bars_lie_inside_their_frame(small: SimulationResult) -> None:
    fig = plots.plot_components(small["components"])
    for ax in fig.axes:
        low, high = ax.get_xlim()
        for bar in ax.patches:
            x0, x1 = sorted((bar.get_x(), bar.get_x() + bar.get_width()))
            assert low <= x0 and x1 <= high, (ax.get_xlabel(), x0, x1, low, high)


def test_payouts_name_each_special_once_and_label_the_log_axis(small: SimulationResult) -> None:
    fig = plots.plot_payouts(small["payouts"])
    ax = fig.axes[0]
    names = [t.get_text() for t in ax.texts]
    assert len(names) == len(set(names))
    _drawn(fig)
    shown = [t.get_text() for t in ax.get_yticklabels() if t.get_text()]
    assert len(shown) >= 3, shown  # not only 10 and 100


def test_drawable_leaves_out_a_figure_with_nothing_to_draw(small: SimulationResult) -> None:
    tables = dict(small.tables)
    tables["payouts"] = tables["payouts"].filter(pl.col("variant") == "none")
    assert "payouts" not in plots.drawable(tables)
    assert plots.drawable(small.tables) == list(plots.FIGURES)
