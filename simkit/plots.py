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
import zlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, ParamSpec, TypeVar

import matplotlib
import numpy as np
import polars as pl
from matplotlib import ticker
from matplotlib.axes import Axes
from matplotlib.figure import Figure
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


#: The colour and marker of each shipped variant, the one place they are defined: every figure
#: of :mod:`simkit.plots`, the report and the notebooks draw a variant in these.  Colours are
#: the tab10 cycle, then Dark2 for the deck variants; a 食夹棍 twin (``<name>+top-card`` or
#: ``<name>+full``) takes its variant's colour and marker, hollow, on a dashed line.
VARIANT_STYLES: dict[str, tuple[str, str]] = {
    "fujian": ("#1f77b4", "o"),
    "guangxi": ("#ff7f0e", "s"),
    "guangxi-regional": ("#2ca02c", "^"),
    "hongkong": ("#d62728", "D"),
    "philippines": ("#9467bd", "v"),
    "qiantang": ("#8c564b", "P"),
    "taiwan": ("#e377c2", "X"),
    "western-2-4": ("#7f7f7f", "h"),
    "wiki-points": ("#bcbd22", "*"),
    "guangxi-two-decks": ("#17becf", "<"),
    "guangxi-jokers": ("#1b9e77", ">"),
    "guangxi-five-suits": ("#d95f02", "p"),
    "qiantang-five-suits": ("#7570b3", "d"),
}
#: Colours and markers of variants not shipped (a user's file), picked by a hash of the name.
_OTHER_COLORS = ("#66a61e", "#e7298a", "#a6761d", "#e6ab02", "#666666", "#393b79", "#637939")
_OTHER_MARKERS = ("o", "s", "^", "D", "v", "P", "X")
_TWIN_SUFFIXES = ("+top-card", "+full")


@dataclass(frozen=True)
class VariantStyle:
    """How one variant is drawn: ``color`` (hex), ``marker``, whether its markers are
    ``filled`` and its line ``linestyle`` (hollow and dashed for a 食夹棍 twin)."""

    color: str
    marker: str
    filled: bool = True
    linestyle: str = "-"

    @property
    def facecolor(self) -> str:
        """The markers' face colour: :attr:`color`, or ``"none"`` (hollow) where not
        ``filled``."""
        return self.color if self.filled else "none"


def variant_style(name: str) -> VariantStyle:
    """The style of variant ``name`` (:data:`VARIANT_STYLES`; a stable pick for any other
    name)."""
    for suffix in _TWIN_SUFFIXES:
        if name.endswith(suffix):
            base = variant_style(name.removesuffix(suffix))
            return VariantStyle(base.color, base.marker, filled=False, linestyle="--")
    if name in VARIANT_STYLES:
        return VariantStyle(*VARIANT_STYLES[name])
    k = zlib.crc32(name.encode("utf-8"))
    return VariantStyle(_OTHER_COLORS[k % len(_OTHER_COLORS)], _OTHER_MARKERS[k % 7])


def _role_label(variant: str, banker: bool) -> str:
    return f"{variant} (banker)" if banker else variant


@styled
def plot_scores(scores: pl.DataFrame) -> Figure:
    """Expected score of seat 0 and the standard deviation of a player's score, per variant,
    with 95% intervals: one row per variant, aligned across the two panels, each variant in
    its :func:`variant_style`; a row reads ``(banker)`` only where seat 0 is the banker (the
    table's ``banker`` column)."""
    variants = _variants(scores)
    seat0 = scores.filter(pl.col("seat") == "0")
    pooled = scores.filter(pl.col("seat") == "all")
    fig = ResultFigure(figsize=(11, 0.45 * len(variants) + 2), layout="constrained")
    ax_mean, ax_sd = fig.subplots(1, 2, sharey=True)
    y = np.arange(len(variants))
    for k, v in enumerate(variants):
        style = variant_style(v)
        row = seat0.filter(pl.col("variant") == v).row(0, named=True)
        ax_mean.errorbar(row["mean"], k, xerr=Z95 * row["se"], fmt="none", ecolor="gray", capsize=3)
        ax_mean.scatter(
            [row["mean"]],
            [k],
            marker=style.marker,
            s=49,
            facecolors=style.facecolor,
            edgecolors=style.color,
            linewidths=1.3,
            zorder=3,
        )
        all_seats = pooled.filter(pl.col("variant") == v).row(0, named=True)
        ax_sd.barh(
            k,
            all_seats["sd"],
            xerr=Z95 * np.nan_to_num(all_seats["sd_se"]),
            capsize=3,
            color=style.facecolor if style.filled else "white",
            edgecolor=style.color,
            hatch=None if style.filled else "//",
            linewidth=1.3,
        )
    labels = [
        _role_label(v, bool(seat0.filter(pl.col("variant") == v)["banker"][0])) for v in variants
    ]
    ax_mean.set_yticks(y, labels)
    ax_mean.set_ylim(len(variants) - 0.5, -0.5)  # first variant on top, both panels
    ax_mean.axvline(0, color="black", lw=0.8)
    ax_mean.set_xlabel("expected score of seat 0 per game (points), 95% CI")
    ax_mean.set_ylabel("variant (seat 0's role)")
    ax_mean.set_title("Seat 0 (the banker where marked)")
    ax_sd.set_xlabel("SD of a player's score per game (points), 95% CI")
    ax_sd.set_title("Volatility")
    for ax in (ax_mean, ax_sd):
        ax.grid(axis="x", alpha=0.3)
    return fig


@styled
def plot_components(components: pl.DataFrame) -> Figure:
    """Stacked bars per variant: points changing hands by rule component (mean |transfer| per
    player and game), and each component's share of the score's variance; one legend for
    both panels below them, inside the figure."""
    variants = _variants(components)
    names = [
        c
        for c in dict.fromkeys(components["component"].to_list())
        if components.filter(pl.col("component") == c)["mean_abs"].max() > 0  # type: ignore[operator]
    ]
    fig = ResultFigure(figsize=(12, 0.45 * len(variants) + 3), layout="constrained")
    ax_abs, ax_var = fig.subplots(1, 2, sharey=True)
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
        ax_var.barh(y, share, left=start, color=cmap(i % 10))
        pos += np.where(share >= 0, share, 0)
        neg += np.where(share < 0, share, 0)
    # Every bar inside the frame: the limits from the stacks' ends, not the autoscaler's.
    ax_abs.set_xlim(0, max(float(left.max(initial=0)), 1e-9) * 1.04)
    low, high = min(float(neg.min(initial=0)), 0.0), max(float(pos.max(initial=0)), 1.0)
    pad = 0.03 * (high - low)
    ax_var.set_xlim(low - pad, high + pad)
    ax_abs.set_yticks(y, variants)
    ax_abs.set_ylim(len(variants) - 0.5, -0.5)
    ax_abs.set_ylabel("variant")
    ax_abs.set_xlabel("mean |points| moved per player and game,\nby rule component")
    ax_var.set_xlabel(
        "share of the variance of a player's score,\nCov(component, total) / Var(total)"
    )
    ax_var.axvline(0, color="black", lw=0.8)
    ax_var.axvline(1, color="black", lw=0.8, ls=":")
    if names:
        fig.legend(
            loc="outside lower center", ncols=min(len(names), 6), fontsize="small", frameon=False
        )
    return fig


def _binned(score: np.ndarray, freq: np.ndarray, width: int) -> tuple[np.ndarray, np.ndarray]:
    """Frequencies summed into bins of ``width`` waters centred on multiples of ``width``."""
    bins = np.floor(score / width + 0.5).astype(int)
    centres, index = np.unique(bins, return_inverse=True)
    return centres * width, np.bincount(index, weights=freq)


def _quantile_limits(
    score: np.ndarray, freq: np.ndarray, tail: float, pad: float
) -> tuple[float, float]:
    """The scores between which all but ``tail`` of the frequency lies (each side), widened
    by ``pad`` and always holding 0."""
    order = np.argsort(score)
    score, cdf = score[order], np.cumsum(freq[order]) / max(float(freq.sum()), 1e-300)
    last = len(score) - 1
    low = score[min(int(np.searchsorted(cdf, tail)), last)]
    high = score[min(int(np.searchsorted(cdf, 1 - tail)), last)]
    return min(float(low), 0.0) - pad, max(float(high), 0.0) + pad


@styled
def plot_score_distribution(
    distribution: pl.DataFrame, bin_width: int = 5, tail: float = 1e-4
) -> Figure:
    """A player's score per game (all seats), one panel per variant, each on its own score
    axis (from the variant's ``tail`` and ``1 - tail`` quantiles, so a narrow game is not
    squeezed into a few bars by a wide one), the frequency in bins of ``bin_width`` points on
    a log scale shared by all panels."""
    pooled = distribution.filter(pl.col("seat") == "all")
    variants = _variants(pooled)
    n_cols = min(4, max(len(variants), 1))
    n_rows = max(math.ceil(len(variants) / n_cols), 1)
    fig = ResultFigure(figsize=(3.2 * n_cols + 0.8, 2.4 * n_rows + 0.9), layout="constrained")
    axes = fig.subplots(n_rows, n_cols, sharey=True, squeeze=False).ravel()
    for ax in axes[len(variants) :]:
        fig.delaxes(ax)
    for ax, v in zip(axes, variants, strict=False):
        rows = pooled.filter(pl.col("variant") == v)
        score = rows["score"].to_numpy()
        freq = rows["freq"].to_numpy()
        centres, binned = _binned(score, freq, bin_width)
        style = variant_style(v)
        ax.bar(
            centres,
            binned,
            width=bin_width,
            color=style.facecolor if style.filled else "white",
            edgecolor=style.color if not style.filled else "none",
            hatch=None if style.filled else "////",
        )
        sd = math.sqrt(float(np.sum(freq * score**2)))
        ax.set_title(f"{v}  (sd {sd:.1f})", fontsize="medium")
        ax.set_yscale("log")
        ax.set_xlim(*_quantile_limits(score, freq, tail, bin_width))
        ax.axvline(0, color="black", lw=0.6)
        ax.grid(alpha=0.3)
        ax.set_xlabel("points", fontsize="small")
    fig.supxlabel(
        f"score of one player in one game (points, bins of {bin_width}; each panel from its "
        f"{tail:.2%} to {1 - tail:.2%} quantile)"
    )
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


def _special_labels(rows: pl.DataFrame) -> list[tuple[str, float, float]]:
    """One label per special, at its highest payout (the median rarity among its points of
    that payout): a special defined otherwise in one variant sits at another rarity, unnamed
    rather than named twice."""
    labels = []
    for (special,), sub in rows.sort("one_in").group_by("special", maintain_order=True):
        x = sub["one_in"].to_numpy()
        y = sub["payout"].to_numpy()
        top = np.flatnonzero(y == y.max())
        k = top[len(top) // 2]
        labels.append((str(special), float(x[k]), float(y[k])))
    return sorted(labels, key=lambda label: label[1])


def _is_twin(name: str) -> bool:
    return name.endswith(_TWIN_SUFFIXES)


def _plain_log_axis(axis: Any, subs: tuple[float, ...]) -> None:
    """Log ticks at ``subs`` × each power of ten, labelled as plain numbers (2, 5, 10, 20)."""
    axis.set_major_locator(ticker.LogLocator(base=10, subs=subs))
    axis.set_major_formatter(ticker.FuncFormatter(lambda v, _: f"{v:,.0f}" if v >= 1 else f"{v:g}"))
    axis.set_minor_formatter(ticker.NullFormatter())


@styled
def plot_payouts(payouts: pl.DataFrame) -> Figure:
    """Special payouts against 1/probability on log axes, one hollow marker per variant (its
    :func:`variant_style`; a 食夹棍 twin, whose payouts and rarities are its variant's, is
    left out), each special named once, with the fitted payout curve (log payout linear in
    log rarity)."""
    fig = ResultFigure(figsize=(11, 7))
    ax = fig.subplots()
    rows = payouts.filter(
        (pl.col("payout") > 0) & pl.col("one_in").is_not_null() & pl.col("one_in").is_finite()
    )
    rows = rows.filter(~pl.col("variant").map_elements(_is_twin, return_dtype=pl.Boolean))
    for v in _variants(rows):
        sub = rows.filter(pl.col("variant") == v)
        style = variant_style(v)
        ax.scatter(
            sub["one_in"],
            sub["payout"],
            marker=style.marker,
            facecolors="none",
            edgecolors=[style.color],
            linewidths=1.3,
            label=v,
        )
    fit = rows.filter(pl.col("rarity_payout").is_not_null()).sort("one_in")
    if fit.height:
        ax.plot(fit["one_in"], fit["rarity_payout"], color="black", lw=1, label="fitted curve")
    ax.set_xscale("log")
    ax.set_yscale("log")
    _plain_log_axis(ax.yaxis, (1.0, 2.0, 5.0))
    ax.set_xlabel("1 / probability of being a hand's best special (one hand in ...)")
    ax.set_ylabel("payout per opponent (points, log scale)")
    ax.grid(alpha=0.3, which="both")
    if ax.get_legend_handles_labels()[0]:  # a run with no special dealt draws no point
        ax.legend(fontsize="small", loc="center left", bbox_to_anchor=(1.02, 0.5))
    if rows.height:
        # Room for the labels at the edges, then the layout is fixed before they are placed.
        ax.margins(x=0.08, y=0.12)
    fig.tight_layout()
    if rows.height:
        label_points(ax, _special_labels(rows), rows.select("one_in", "payout").to_numpy())
    return fig


@styled
def plot_convergence(convergence: pl.DataFrame) -> Figure:
    """Key estimates against the number of games played, with 95% bands: one line per variant
    in its :func:`variant_style` (marker at every point, twins dashed), one panel per
    statistic, each with its own y-axis label."""
    stats = list(dict.fromkeys(convergence["statistic"].to_list()))
    fig = ResultFigure(figsize=(6 * max(len(stats), 1) + 2, 4.8), layout="constrained")
    axes = np.atleast_1d(fig.subplots(1, max(len(stats), 1)))
    for ax, stat in zip(axes, stats, strict=False):
        sub = convergence.filter(pl.col("statistic") == stat)
        for v in _variants(sub):
            rows = sub.filter(pl.col("variant") == v).sort("games")
            style = variant_style(v)
            ax.plot(
                rows["games"],
                rows["estimate"],
                marker=style.marker,
                ms=5,
                markerfacecolor=style.facecolor,
                color=style.color,
                ls=style.linestyle,
                lw=1.2,
                label=v,
            )
            ax.fill_between(
                rows["games"].to_numpy(),
                rows["ci_low"].fill_nan(None).to_numpy(),
                rows["ci_high"].fill_nan(None).to_numpy(),
                color=style.color,
                alpha=0.08,
            )
        ax.set_xscale("log")
        ax.set_xlabel("games played (log scale)")
        ax.set_ylabel("estimate (points), 95% band")
        ax.set_title(stat)
        ax.grid(alpha=0.3)
    if len(stats):
        fig.legend(
            *axes[0].get_legend_handles_labels(), loc="outside right center", fontsize="small"
        )
    return fig


@styled
def plot_strategy_costs(costs: pl.DataFrame, default: str) -> Figure:
    """What playing another strategy than ``default`` costs a seat, per variant and seat: the
    paired difference of its expected score per game (``diff`` with ``diff_ci_low`` and
    ``diff_ci_high``, one row per ``variant``, ``seat`` and ``strategy``), on a symmetric log
    axis (a loss of 0.01 and of 10 both read)."""
    costs = costs.filter((pl.col("diff") != 0) | (pl.col("diff_ci_low") != pl.col("diff_ci_high")))
    keys = list(dict.fromkeys(zip(costs["variant"], costs["seat"], strict=True)))
    strategies = list(dict.fromkeys(costs["strategy"].to_list()))
    fig = ResultFigure(figsize=(9, 0.38 * len(keys) + 2.2), layout="constrained")
    ax = fig.subplots()
    cmap = matplotlib.colormaps["tab10"]
    markers = ("o", "s", "^", "D", "v", "P")
    offsets = np.linspace(-0.25, 0.25, len(strategies)) if len(strategies) > 1 else [0.0]
    for j, strategy in enumerate(strategies):
        sub = costs.filter(pl.col("strategy") == strategy)
        index = {k: i for i, k in enumerate(keys)}
        y = np.array([index[(v, s)] for v, s in zip(sub["variant"], sub["seat"], strict=True)])
        diff = sub["diff"].to_numpy()
        err = np.abs(
            np.vstack([diff - sub["diff_ci_low"].to_numpy(), sub["diff_ci_high"].to_numpy() - diff])
        )
        ax.errorbar(
            diff,
            y + offsets[j],
            xerr=err,
            fmt=markers[j % 6],
            color=cmap(j % 10),
            ms=5,
            capsize=2,
            lw=1,
            label=strategy,
        )
    ax.set_xscale("symlog", linthresh=0.01)
    ax.axvline(0, color="black", lw=0.8)
    ax.set_yticks(range(len(keys)), [v if s == "any" else f"{v} ({s})" for v, s in keys])
    ax.set_ylim(len(keys) - 0.5, -0.5)
    ax.set_xlabel("expected score per game minus the default's (points, symlog scale), 95% CI")
    ax.set_title(f"One seat plays the strategy named, the others `{default}` (same deals)")
    ax.set_ylabel("variant (seat)")
    ax.grid(axis="x", alpha=0.3)
    fig.legend(loc="outside lower center", ncols=len(strategies), fontsize="small")
    return fig


@styled
def plot_skill(duels: list[dict[str, Any]], bounds: list[dict[str, Any]], default: str) -> Figure:
    """Skill against luck (``experiments/pipelines/skill.py``), per variant in its colour
    (:func:`variant_style`).  Left: the games until ``default`` is ahead of each other strategy
    with 95% probability (``n_lead`` with ``n_lead_ci_low`` / ``n_lead_ci_high``, log axis; a
    duel row per ``variant``, ``a``, ``b``; rows without ``default`` and rows whose ``n_lead``
    is None, no edge, are left out), one marker per opponent.  Right: the perfect-information
    bound per variant and seat (``bound``, ``bound_ci_low``, ``bound_ci_high``, points per
    game).  Raises ``ValueError`` where no row is drawable."""
    shown = [r for r in duels if default in (r["a"], r["b"]) and r["n_lead"] is not None]
    if not shown and not bounds:
        raise ValueError("plot_skill: no duel of the default with a finite edge and no bound")
    variants = list(dict.fromkeys([r["variant"] for r in shown] + [r["variant"] for r in bounds]))
    opponents = list(dict.fromkeys(r["b"] if r["a"] == default else r["a"] for r in shown))
    fig = ResultFigure(figsize=(11, 0.36 * len(variants) + 2.4), layout="constrained")
    left, right = fig.subplots(1, 2, sharey=True)
    markers = ("o", "s", "^", "D", "v", "P")
    offsets = np.linspace(-0.25, 0.25, len(opponents)) if len(opponents) > 1 else [0.0]
    index = {v: i for i, v in enumerate(variants)}
    for j, other in enumerate(opponents):
        for r in shown:
            if other not in (r["a"], r["b"]):
                continue
            style = variant_style(r["variant"])
            n = r["n_lead"]
            high = r["n_lead_ci_high"] if r["n_lead_ci_high"] is not None else n * 10
            left.errorbar(
                [n],
                [index[r["variant"]] + offsets[j]],
                xerr=[[n - (r["n_lead_ci_low"] or n)], [high - n]],
                fmt=markers[j % 6],
                color=style.color,
                mfc=style.facecolor,
                ms=5,
                capsize=2,
                lw=1,
            )
        left.plot([], [], markers[j % 6], color="black", mfc="none", label=f"vs {other}")
    left.set_xscale("log")
    left.set_xlabel(f"games until {default} is ahead with 95% probability (95% CI)")
    left.set_yticks(range(len(variants)), variants)
    left.set_ylim(len(variants) - 0.5, -0.5)
    left.grid(axis="x", alpha=0.3)
    if opponents:
        left.legend(fontsize="small", loc="lower right")
    seat_offset = {"any": 0.0, "banker": -0.15, "player": 0.15}
    for r in bounds:
        style = variant_style(r["variant"])
        b = r["bound"]
        right.errorbar(
            [b],
            [index[r["variant"]] + seat_offset.get(r["seat"], 0.0)],
            xerr=[[b - r["bound_ci_low"]], [r["bound_ci_high"] - b]],
            fmt="o" if r["seat"] != "banker" else "s",
            color=style.color,
            mfc=style.facecolor if r["seat"] != "player" else "none",
            ms=5,
            capsize=2,
            lw=1,
        )
    right.set_xlim(left=0)
    right.set_xlabel("perfect-information bound: points per game over the default (95% CI)")
    right.set_title("square: banker, hollow: player", fontsize="small")
    right.grid(axis="x", alpha=0.3)
    fig.suptitle("Skill against luck: games for the default's edge to show, and what play can gain")
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


def drawable(tables: Mapping[str, pl.DataFrame]) -> list[str]:
    """The standard figures (:data:`FIGURES`) that ``tables`` hold something to draw: a run
    with no special dealt has no payout figure, one that moved no point by a rule component no
    component figure."""

    def has(name: str) -> bool:
        table = tables.get(FIGURES[name][0])
        if table is None or not table.height:
            return False
        if name == "payouts":
            rows = table.filter(
                (pl.col("payout") > 0)
                & pl.col("one_in").is_not_null()
                & pl.col("one_in").is_finite()
            )
            return rows.height > 0
        if name == "components":
            return bool(table.filter(pl.col("mean_abs") > 0).height)
        return True

    return [name for name in FIGURES if has(name)]


#: The standard figures: name → (table it reads, drawing function).
FIGURES: dict[str, tuple[str, Callable[[pl.DataFrame], Figure]]] = {
    "scores": ("scores", plot_scores),
    "components": ("components", plot_components),
    "score_distribution": ("score_distribution", plot_score_distribution),
    "payouts": ("payouts", plot_payouts),
    "convergence": ("convergence", plot_convergence),
}


def all_figures(tables: Mapping[str, pl.DataFrame], out_dir: str | Path) -> dict[str, list[Path]]:
    """Draw and save every standard figure that ``tables`` hold something for
    (:func:`drawable`); returns name → written paths."""
    written = {}
    for name in drawable(tables):
        table, draw = FIGURES[name]
        written[name] = save_figure(draw(tables[table]), out_dir, name)
    return written
