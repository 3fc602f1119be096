"""Figures from result tables (matplotlib, Agg backend; PNG and SVG).

Every function takes the tables of :mod:`simkit.tables` (as a run returns them or as
:func:`simkit.simulate.load_result` reads them back) and returns a ``Figure``; none simulates.
:func:`save_figure` writes one figure as ``<name>.png`` and ``<name>.svg``; :func:`all_figures`
draws the standard set of a report.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt
import numpy as np
import polars as pl
from matplotlib.figure import Figure

from simkit.files import atomic_write
from simkit.summary import Z95

FORMATS = ("png", "svg")
plt.rcParams["axes.unicode_minus"] = False
plt.rcParams["svg.hashsalt"] = "simkit"  # reproducible SVG ids


def _variants(table: pl.DataFrame) -> list[str]:
    return list(dict.fromkeys(table["variant"].to_list()))


def _markers() -> list[str]:
    return ["o", "s", "^", "D", "v", "P", "X", "<", ">", "h", "*", "p"]


def _color(i: int) -> tuple[float, ...]:
    """A distinct colour for the i-th variant (20 before repeating)."""
    return tuple(plt.get_cmap("tab20")(i % 20))


def plot_scores(scores: pl.DataFrame) -> Figure:
    """Expected score of seat 0 (the banker in banker variants) and the standard deviation of a
    player's score, per variant, with 95% intervals."""
    variants = _variants(scores)
    seat0 = scores.filter(pl.col("seat") == "0")
    pooled = scores.filter(pl.col("seat") == "all")
    fig, (ax_mean, ax_sd) = plt.subplots(1, 2, figsize=(11, 0.45 * len(variants) + 2))
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


def plot_components(components: pl.DataFrame) -> Figure:
    """Stacked bars per variant: waters changing hands by rule component (mean |transfer| per
    player and game), and each component's share of the score's variance."""
    variants = _variants(components)
    names = [
        c
        for c in dict.fromkeys(components["component"].to_list())
        if components.filter(pl.col("component") == c)["mean_abs"].max() > 0  # type: ignore[operator]
    ]
    fig, (ax_abs, ax_var) = plt.subplots(1, 2, figsize=(12, 0.45 * len(variants) + 2.5))
    y = np.arange(len(variants))
    cmap = plt.get_cmap("tab10")

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
    ax_abs.set_xlabel("mean |points| moved per player and game, by component")
    ax_var.set_xlabel("share of the variance of a player's score, Cov(component, total)/Var")
    ax_var.axvline(0, color="black", lw=0.8)
    ax_var.axvline(1, color="black", lw=0.8, ls=":")
    ax_abs.legend(fontsize="small", loc="lower right")
    fig.tight_layout()
    return fig


def plot_score_distribution(distribution: pl.DataFrame, bin_width: int = 5) -> Figure:
    """A player's score per game (all seats): its distribution in bins of ``bin_width`` waters,
    and its tail, P(|score| ≥ x), on a log scale."""
    pooled = distribution.filter(pl.col("seat") == "all")
    fig, (ax_hist, ax_tail) = plt.subplots(1, 2, figsize=(13, 5))
    for i, v in enumerate(_variants(pooled)):
        rows = pooled.filter(pl.col("variant") == v)
        score = rows["score"].to_numpy()
        freq = rows["freq"].to_numpy()
        bins = np.floor(score / bin_width + 0.5).astype(int)
        centres, index = np.unique(bins, return_inverse=True)
        ax_hist.step(
            centres * bin_width,
            np.bincount(index, weights=freq),
            where="mid",
            color=_color(i),
            lw=1.2,
            label=v,
        )
        magnitude = np.abs(score)
        order = np.argsort(magnitude)[::-1]
        tail = np.cumsum(freq[order])[::-1]
        ax_tail.plot(magnitude[order][::-1], tail, color=_color(i), lw=1.2, label=v)
    ax_hist.set_xlabel(f"score of one player in one game (waters, bins of {bin_width})")
    ax_hist.set_ylabel("frequency")
    ax_hist.set_xlim(-60, 60)
    ax_tail.set_yscale("log")
    ax_tail.set_xlabel("x (waters)")
    ax_tail.set_ylabel("P(|score| ≥ x)")
    for ax in (ax_hist, ax_tail):
        ax.grid(alpha=0.3)
    ax_tail.legend(fontsize="small", loc="center left", bbox_to_anchor=(1.02, 0.5))
    fig.tight_layout()
    return fig


def plot_payouts(payouts: pl.DataFrame) -> Figure:
    """Special payouts against 1/probability on log axes, one marker per variant, with the
    fitted payout curve (log payout linear in log rarity)."""
    fig, ax = plt.subplots(figsize=(9, 6))
    rows = payouts.filter(
        (pl.col("payout") > 0) & pl.col("one_in").is_not_null() & pl.col("one_in").is_finite()
    )
    for i, v in enumerate(_variants(rows)):
        sub = rows.filter(pl.col("variant") == v)
        ax.scatter(
            sub["one_in"],
            sub["payout"],
            marker=_markers()[i % 12],
            color=_color(i),
            label=v,
            alpha=0.8,
        )
    fit = rows.filter(pl.col("rarity_payout").is_not_null()).sort("one_in")
    if fit.height:
        ax.plot(fit["one_in"], fit["rarity_payout"], color="black", lw=1, label="fitted curve")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("1 / probability of being a hand's best special (one hand in ...)")
    ax.set_ylabel("payout per opponent (waters)")
    ax.grid(alpha=0.3, which="both")
    ax.legend(fontsize="small")
    fig.tight_layout()
    return fig


def plot_convergence(convergence: pl.DataFrame) -> Figure:
    """Key estimates against the number of games played, with 95% bands."""
    stats = list(dict.fromkeys(convergence["statistic"].to_list()))
    fig, axes = plt.subplots(1, max(len(stats), 1), figsize=(6 * max(len(stats), 1), 4.5))
    axes = np.atleast_1d(axes)
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
    """Write ``fig`` as ``<name>.png`` and ``<name>.svg`` in ``out_dir`` (atomic renames)."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    paths = []
    for fmt in FORMATS:

        def draw(tmp: Path, fmt: str = fmt) -> None:
            metadata = {"Date": None} if fmt == "svg" else None  # reproducible SVG bytes
            fig.savefig(tmp, format=fmt, dpi=120, metadata=metadata)

        paths.append(atomic_write(out / f"{name}.{fmt}", draw))
    plt.close(fig)
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
