"""Figures from result tables (PNG and SVG), drawn without pyplot.

Every function takes the tables of :mod:`simkit.tables` (as a run returns them or as
:func:`simkit.simulate.load_result` reads them back) and returns a
:class:`matplotlib.figure.Figure`; none simulates.  :func:`save_figure` writes one figure as
``<name>.png`` and ``<name>.svg``; :func:`all_figures` draws the standard set of a report.

Figures are built as ``Figure`` objects directly, the way matplotlib's guide for embedding
does: importing this module selects no backend and changes no global ``rcParams``, so a
notebook or an application keeps its own.  The house style (:data:`STYLE`) is applied to each
figure with ``rc_context``, while it is built and again while it is saved (some settings, the
SVG hash salt among them, are read only when a file is written).  In Jupyter a figure shows
itself inline as PNG, whatever the backend.
"""

from __future__ import annotations

import functools
import io
import math
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, ParamSpec, TypeVar

import matplotlib
import numpy as np
import polars as pl
from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.layout_engine import ConstrainedLayoutEngine
from matplotlib.text import Text
from matplotlib.transforms import Bbox

from simkit.files import atomic_write
from simkit.summary import Z95

if TYPE_CHECKING:
    from matplotlib.typing import RcKeyType

FORMATS = ("png", "svg")
DPI = 120

#: rcParams applied to each figure while it is drawn and saved (never globally).
STYLE: dict[RcKeyType, Any] = {
    "axes.unicode_minus": False,  # ASCII minus signs in tick labels
    "svg.hashsalt": "simkit",  # reproducible SVG ids
}

_P = ParamSpec("_P")
_R = TypeVar("_R")


def styled(draw: Callable[_P, _R]) -> Callable[_P, _R]:
    """Run ``draw`` inside ``rc_context(STYLE)``: the style reaches its figure, not the user."""

    @functools.wraps(draw)
    def wrapper(*args: _P.args, **kwargs: _P.kwargs) -> _R:
        with matplotlib.rc_context(STYLE):
            return draw(*args, **kwargs)

    return wrapper


class ResultFigure(Figure):
    """A figure that Jupyter shows inline as PNG without pyplot (``_repr_png_``)."""

    def _repr_png_(self) -> bytes:
        buffer = io.BytesIO()
        with matplotlib.rc_context(STYLE):
            self.savefig(buffer, format="png", dpi=DPI, bbox_inches="tight")
        return buffer.getvalue()


def _variants(table: pl.DataFrame) -> list[str]:
    return list(dict.fromkeys(table["variant"].to_list()))


def _markers() -> list[str]:
    return ["o", "s", "^", "D", "v", "P", "X", "<", ">", "h", "*", "p"]


def _color(i: int) -> tuple[float, float, float, float]:
    """A distinct colour for the i-th variant (20 before repeating)."""
    r, g, b, a = matplotlib.colormaps["tab20"](i % 20)
    return (r, g, b, a)


@styled
def plot_scores(scores: pl.DataFrame) -> Figure:
    """Expected score of seat 0 (the banker in banker variants) and the standard deviation of a
    player's score, per variant, with 95% intervals."""
    variants = _variants(scores)
    seat0 = scores.filter(pl.col("seat") == "0")
    pooled = scores.filter(pl.col("seat") == "all")
    fig = ResultFigure(figsize=(11, 0.45 * len(variants) + 2))
    ax_mean, ax_sd = fig.subplots(1, 2)
    y = np.arange(len(variants))
    mean = [seat0.filter(pl.col("variant") == v)["mean"][0] for v in variants]
    se = [seat0.filter(pl.col("variant") == v)["se"][0] for v in variants]
    banker = [bool(seat0.filter(pl.col("variant") == v)["banker"][0]) for v in variants]
    colors = ["tab:red" if b else "tab:blue" for b in banker]
    ax_mean.errorbar(mean, y, xerr=Z95 * np.array(se), fmt="none", ecolor="gray", capsize=3)
    ax_mean.scatter(mean, y, c=colors, zorder=3)
    ax_mean.axvline(0, color="black", lw=0.8)
    ax_mean.set_yticks(y, variants)
    ax_mean.invert_yaxis()
    ax_mean.set_xlabel("expected score of seat 0 per game (waters), 95% CI")
    ax_mean.set_title("Seat 0 (red: the banker)")
    sd = [pooled.filter(pl.col("variant") == v)["sd"][0] for v in variants]
    sd_se = [pooled.filter(pl.col("variant") == v)["sd_se"][0] for v in variants]
    ax_sd.barh(y, sd, xerr=Z95 * np.nan_to_num(np.array(sd_se)), color="tab:blue", capsize=3)
    ax_sd.set_yticks(y, variants)
    ax_sd.invert_yaxis()
    ax_sd.set_xlabel("standard deviation of a player's score per game, 95% CI")
    ax_sd.set_title("Volatility")
    fig.tight_layout()
    return fig


@styled
def plot_components(components: pl.DataFrame) -> Figure:
    """Stacked bars per variant: waters changing hands by rule component (mean |transfer| per
    player and game), and each component's share of the score's variance."""
    variants = _variants(components)
    names = [
        c
        for c in dict.fromkeys(components["component"].to_list())
        if components.filter(pl.col("component") == c)["mean_abs"].max() > 0  # type: ignore[operator]
    ]
    height = 0.45 * len(variants) + 3
    # One legend for both panels (same colours), in a strip kept free below them, where it
    # hides no bar; left out of the layout, which would otherwise shrink the first panel to
    # make room for it.
    strip = 0.45 / height
    fig = ResultFigure(
        figsize=(12, height), layout=ConstrainedLayoutEngine(rect=(0, strip, 1, 1 - strip))
    )
    ax_abs, ax_var = fig.subplots(1, 2)
    y = np.arange(len(variants))
    cmap = matplotlib.colormaps["tab10"]

    def value(v: str, c: str, col: str) -> float:
        row = components.filter((pl.col("variant") == v) & (pl.col("component") == c))
        return float(row[col][0]) if row.height else 0.0

    left = np.zeros(len(variants))
    pos = np.zeros(len(variants))
    neg = np.zeros(len(variants))
    for i, c in enumerate(names):
        widths = np.array([value(v, c, "mean_abs") for v in variants])
        ax_abs.barh(y, widths, left=left, color=cmap(i % 10), label=c)
        left += widths
        share = np.array([value(v, c, "var_share") for v in variants])
        start = np.where(share >= 0, pos, neg)
        ax_var.barh(y, share, left=start, color=cmap(i % 10), label=c)
        pos += np.where(share >= 0, share, 0)
        neg += np.where(share < 0, share, 0)
    for ax in (ax_abs, ax_var):
        ax.set_yticks(y, variants)
        ax.invert_yaxis()
    ax_abs.set_xlabel("mean |points| moved per player and game,\nby rule component (waters)")
    ax_var.set_xlabel(
        "share of the variance of a player's score,\nCov(component, total) / Var(total)"
    )
    ax_var.axvline(0, color="black", lw=0.8)
    ax_var.axvline(1, color="black", lw=0.8, ls=":")
    legend = ax_abs.legend(
        loc="lower center",
        bbox_to_anchor=(0.5, 0.0),
        bbox_transform=fig.transFigure,
        ncols=min(len(names), 8),
        fontsize="small",
        frameon=False,
    )
    legend.set_in_layout(False)
    return fig


def _binned(score: np.ndarray, freq: np.ndarray, width: int) -> tuple[np.ndarray, np.ndarray]:
    """Frequencies summed into bins of ``width`` waters centred on multiples of ``width``."""
    bins = np.floor(score / width + 0.5).astype(int)
    centres, index = np.unique(bins, return_inverse=True)
    return centres * width, np.bincount(index, weights=freq)


@styled
def plot_score_distribution(distribution: pl.DataFrame, bin_width: int = 5) -> Figure:
    """A player's score per game (all seats), one small panel per variant on shared axes: the
    frequency in bins of ``bin_width`` waters on a log scale, so that the centre and the rare
    large scores (special payouts, home runs) both read."""
    pooled = distribution.filter(pl.col("seat") == "all")
    variants = _variants(pooled)
    n_cols = min(4, max(len(variants), 1))
    n_rows = max(math.ceil(len(variants) / n_cols), 1)
    fig = ResultFigure(figsize=(3.2 * n_cols + 0.6, 2.3 * n_rows + 0.8), layout="constrained")
    axes = fig.subplots(n_rows, n_cols, sharex=True, sharey=True, squeeze=False).ravel()
    for ax in axes[len(variants) :]:
        fig.delaxes(ax)
    for i, (ax, v) in enumerate(zip(axes, variants, strict=False)):
        rows = pooled.filter(pl.col("variant") == v)
        score = rows["score"].to_numpy()
        freq = rows["freq"].to_numpy()
        centres, binned = _binned(score, freq, bin_width)
        ax.bar(centres, binned, width=bin_width, color=_color(i), edgecolor="none")
        sd = math.sqrt(float(np.sum(freq * score**2)))
        ax.set_title(f"{v}  (sd {sd:.1f})", fontsize="medium")
        ax.set_yscale("log")
        ax.axvline(0, color="black", lw=0.6)
        ax.grid(alpha=0.3)
    fig.supxlabel(f"score of one player in one game (waters, bins of {bin_width})")
    fig.supylabel("frequency per game (log scale)")
    return fig


def _overlaps(box: Bbox, others: list[Bbox]) -> float:
    """Area of ``box`` covered by ``others`` (display units)."""
    total = 0.0
    for other in others:
        w = min(box.x1, other.x1) - max(box.x0, other.x0)
        h = min(box.y1, other.y1) - max(box.y0, other.y0)
        if w > 0 and h > 0:
            total += w * h
    return total


#: Where a label may go around its point, in points: (dx, dy, ha, va), nearest first.
_LABEL_SPOTS = [
    (0, 6, "center", "bottom"),
    (0, -7, "center", "top"),
    (8, 0, "left", "center"),
    (-8, 0, "right", "center"),
    (8, 8, "left", "bottom"),
    (-8, 8, "right", "bottom"),
    (8, -8, "left", "top"),
    (-8, -8, "right", "top"),
    (0, 18, "center", "bottom"),
    (0, -19, "center", "top"),
    (20, 14, "left", "bottom"),
    (-20, 14, "right", "bottom"),
    (20, -14, "left", "top"),
    (-20, -14, "right", "top"),
    (0, 32, "center", "bottom"),
    (0, -33, "center", "top"),
]


def label_points(
    ax: Axes, labels: list[tuple[str, float, float]], avoid: np.ndarray, marker_px: float = 6
) -> list[Any]:
    """Write each ``(text, x, y)`` label beside its point where it covers no other label and no
    point of ``avoid`` (an ``(n, 2)`` array in data coordinates), stays inside the axes and sits
    nearer its own point than any other label's.

    Greedy: labels are placed in order, each at the first free spot of :data:`_LABEL_SPOTS`
    (or the least bad one), with a thin leader line when it sits away from its point.  The
    figure's layout must be final (it fixes where everything lands on the page).
    """
    frame = ax.get_window_extent()
    centres = ax.transData.transform(avoid) if len(avoid) else np.empty((0, 2))
    anchors = ax.transData.transform(np.array([(x, y) for _, x, y in labels]).reshape(-1, 2))
    r = marker_px
    taken = [Bbox([[cx - r, cy - r], [cx + r, cy + r]]) for cx, cy in centres]
    placed = []
    for k, (text, x, y) in enumerate(labels):
        best: tuple[float, Any] | None = None
        for dx, dy, ha, va in _LABEL_SPOTS:
            far = abs(dx) > 10 or abs(dy) > 10
            ann = ax.annotate(
                text,
                (x, y),
                xytext=(dx, dy),
                textcoords="offset points",
                ha=ha,
                va=va,
                fontsize="small",
                arrowprops={"arrowstyle": "-", "color": "gray", "lw": 0.6} if far else None,
            )
            box = _text_box(ann)  # the text alone: its leader line may cross points
            cost = _overlaps(box, taken)
            if box.x0 < frame.x0 or box.x1 > frame.x1 or box.y0 < frame.y0 or box.y1 > frame.y1:
                cost += 1e9
            # From the text's box to each labelled point (0 inside): a label nearer another
            # point than its own would seem to name that one.
            gap_x = np.maximum(np.maximum(box.x0 - anchors[:, 0], anchors[:, 0] - box.x1), 0)
            gap_y = np.maximum(np.maximum(box.y0 - anchors[:, 1], anchors[:, 1] - box.y1), 0)
            distance = np.hypot(gap_x, gap_y)
            if distance.min() < distance[k]:
                cost += 1e6
            if best is None or cost < best[0]:
                if best is not None:
                    best[1].remove()
                best = (cost, ann)
            else:
                ann.remove()
            if cost == 0:
                break
        assert best is not None
        taken.append(_text_box(best[1]))
        placed.append(best[1])
    return placed


def _text_box(ann: Any) -> Bbox:
    """The box of an annotation's text, without its leader line (display units)."""
    ann.get_window_extent()  # places the text (and its leader line)
    return Text.get_window_extent(ann).frozen()


def _special_labels(rows: pl.DataFrame, apart: float = 1.5) -> list[tuple[str, float, float]]:
    """One label per special and place: a special's points in every variant sit at nearly one
    rarity, or at a few (a variant that defines it otherwise); each group of points within a
    factor ``apart`` of each other in rarity is named once, at its highest payout."""
    labels = []
    for (special,), sub in rows.sort("one_in").group_by("special", maintain_order=True):
        x = sub["one_in"].to_numpy()
        y = sub["payout"].to_numpy()
        starts = np.flatnonzero(np.r_[True, x[1:] / x[:-1] > apart])
        for group in np.split(np.arange(len(x)), starts[1:]):
            top = group[y[group] == y[group].max()]
            k = top[len(top) // 2]
            labels.append((str(special), float(x[k]), float(y[k])))
    return sorted(labels, key=lambda label: label[1])


@styled
def plot_payouts(payouts: pl.DataFrame) -> Figure:
    """Special payouts against 1/probability on log axes, one hollow marker per variant, each
    special named once beside its points, with the fitted payout curve (log payout linear in
    log rarity)."""
    fig = ResultFigure(figsize=(11, 7))
    ax = fig.subplots()
    rows = payouts.filter(
        (pl.col("payout") > 0) & pl.col("one_in").is_not_null() & pl.col("one_in").is_finite()
    )
    for i, v in enumerate(_variants(rows)):
        sub = rows.filter(pl.col("variant") == v)
        ax.scatter(
            sub["one_in"],
            sub["payout"],
            marker=_markers()[i % 12],
            facecolors="none",
            edgecolors=[_color(i)],
            linewidths=1.3,
            label=v,
        )
    fit = rows.filter(pl.col("rarity_payout").is_not_null()).sort("one_in")
    if fit.height:
        ax.plot(fit["one_in"], fit["rarity_payout"], color="black", lw=1, label="fitted curve")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("1 / probability of being a hand's best special (one hand in ...)")
    ax.set_ylabel("payout per opponent (waters)")
    ax.grid(alpha=0.3, which="both")
    if ax.get_legend_handles_labels()[0]:  # a run with no special dealt draws no point
        ax.legend(fontsize="small", loc="center left", bbox_to_anchor=(1.02, 0.5))
    if rows.height:
        # Room for the labels at the edges, then the layout is fixed before they are placed.
        ax.margins(x=0.08, y=0.12)
        fig.tight_layout()
        label_points(ax, _special_labels(rows), rows.select("one_in", "payout").to_numpy())
    else:
        fig.tight_layout()
    return fig


@styled
def plot_convergence(convergence: pl.DataFrame) -> Figure:
    """Key estimates against the number of games played, with 95% bands."""
    stats = list(dict.fromkeys(convergence["statistic"].to_list()))
    fig = ResultFigure(figsize=(6 * max(len(stats), 1), 4.5))
    axes = np.atleast_1d(fig.subplots(1, max(len(stats), 1)))
    for ax, stat in zip(axes, stats, strict=False):
        sub = convergence.filter(pl.col("statistic") == stat)
        for i, v in enumerate(_variants(sub)):
            rows = sub.filter(pl.col("variant") == v).sort("games")
            line = ax.plot(
                rows["games"],
                rows["estimate"],
                marker=_markers()[i % 12],
                ms=3,
                label=v,
                color=_color(i),
            )[0]
            ax.fill_between(
                rows["games"].to_numpy(),
                rows["ci_low"].fill_nan(None).to_numpy(),
                rows["ci_high"].fill_nan(None).to_numpy(),
                color=line.get_color(),
                alpha=0.15,
            )
        ax.set_xscale("log")
        ax.set_xlabel("games")
        ax.set_title(stat)
        ax.grid(alpha=0.3)
    axes[-1].legend(fontsize="small", loc="center left", bbox_to_anchor=(1.02, 0.5))
    fig.tight_layout()
    return fig


def save_figure(fig: Figure, out_dir: str | Path, name: str) -> list[Path]:
    """Write ``fig`` as ``<name>.png`` and ``<name>.svg`` in ``out_dir`` (atomic renames; the
    same figure gives the same bytes)."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    paths = []
    for fmt in FORMATS:

        def draw(tmp: Path, fmt: str = fmt) -> None:
            metadata = {"Date": None} if fmt == "svg" else None  # reproducible SVG bytes
            with matplotlib.rc_context(STYLE):
                fig.savefig(tmp, format=fmt, dpi=DPI, metadata=metadata)

        paths.append(atomic_write(out / f"{name}.{fmt}", draw))
    return paths


#: The standard figures: name → (table it reads, drawing function).
FIGURES = {
    "scores": ("scores", plot_scores),
    "components": ("components", plot_components),
    "score_distribution": ("score_distribution", plot_score_distribution),
    "payouts": ("payouts", plot_payouts),
    "convergence": ("convergence", plot_convergence),
}


def all_figures(tables: Mapping[str, pl.DataFrame], out_dir: str | Path) -> dict[str, list[Path]]:
    """Draw and save every standard figure from ``tables``; returns name → written paths."""
    written = {}
    for name, (table, draw) in FIGURES.items():
        written[name] = save_figure(draw(tables[table]), out_dir, name)
    return written
