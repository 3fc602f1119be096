"""The par sheet of every shipped variant (issue 51.4): a section and its figure.

:func:`simkit.report.writer.build_report` keeps the run's games (in a folder of its own,
removed afterwards) and computes each shipped variant's par sheet from them
(:func:`simkit.par.par_tables`: the report's own deals re-scored, no second simulation); the
tables ``par``, ``par_returns``, ``par_sessions``, ``par_ruin`` and ``par_fan`` are saved with
the run's.  A run saved without them (an older one, or one of ``simkit simulate``) has no par
section.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import polars as pl

from simkit.par import FAN_TABLE, SESSION_GAMES
from simkit.report.format import est, figure, markdown_table, num
from simkit.report.page import Page

if TYPE_CHECKING:
    from matplotlib.figure import Figure

#: The figure of the section (``figures/<name>.png``).
FIGURE = "par_sessions"


def has_par(tables: dict[str, pl.DataFrame]) -> bool:
    """Whether ``tables`` hold par sheets (``par`` and ``par_fan`` with rows)."""
    return all(name in tables and not tables[name].is_empty() for name in ("par", FAN_TABLE))


def par_section(page: Page) -> list[str]:
    """Per variant and seat role: the edge, the spread, the chances of a game, N0, the chance
    of being ahead after 100 games and the bankroll of 10 SD's ruin within 1,000 games."""
    if not has_par(page.tables):
        return []
    par = page.table("par")
    sessions = page.table("par_sessions")
    ruin = page.table("par_ruin")
    rows: list[list[Any]] = []
    for row in par.iter_rows(named=True):
        key = (pl.col("variant") == row["variant"]) & (pl.col("role") == row["role"])
        ahead = sessions.filter(key & (pl.col("games") == 100))
        lost = ruin.filter(key & (pl.col("games") == max(ruin["games"])))
        bank = lost.filter(pl.col("bankroll") >= 10 * row["sd"]).sort("bankroll").head(1)
        rows.append(
            [
                row["variant"],
                row["role"],
                _edge(row["edge"], row["edge_se"]),
                num(row["sd"], ".3g"),
                num(row["volatility_index"], ".3g"),
                f"{row['p_win']:.3f} / {row['p_tie']:.3f} / {row['p_loss']:.3f}",
                "—" if row["n0"] is None else f"{row['n0']:,.0f}",
                num(ahead["p_ahead"][0], ".3f") if not ahead.is_empty() else "—",
                (
                    f"{bank['p_ruin'][0]:.3f} (B = {bank['bankroll'][0]:.0f})"
                    if not bank.is_empty()
                    else "—"
                ),
            ]
        )
    n_sessions = int(sessions["sessions"][0]) if not sessions.is_empty() else 0
    return [
        "## Par sheets\n",
        "What a seat can expect, per variant and seat role (the banker, or a player, in banker "
        "variants; any seat in all-pairs ones), from this run's own deals, each game's scores "
        "as the report's tables count them (`tables/par*.parquet`; `simkit par` writes the same "
        "for any run kept with `--keep-games`).  The edge is the mean score a game ± its SE; "
        "the volatility index is 1.645 SD; a game is won, tied or lost by its total; N0 = "
        "Var/edge² is the games it takes for the edge to show through the luck (— where the "
        "edge is not different from zero at 95%).  Sessions resample the run's games "
        f"({n_sessions:,} sessions of {', '.join(str(n) for n in SESSION_GAMES)} games); "
        "the ruin column is the chance of losing a bankroll B of about 10 SD within 1,000 "
        "games.\n",
        markdown_table(
            [
                "variant",
                "role",
                "edge",
                "SD",
                "volatility index",
                "P(win / tie / loss)",
                "N0 (games)",
                "P(ahead after 100)",
                "P(ruin in 1,000)",
            ],
            rows,
        )
        + "\n",
        figure(FIGURE, "The running total over 1,000 games: median and 5–95% band per role") + "\n",
    ]


def _edge(edge: float, se: float) -> str:
    """The edge ± its SE; an all-pairs seat's edge is zero in every game (the game is
    zero-sum and every seat is a seat of the role): said so, not shown as 0 ± 0."""
    return "0 (zero-sum)" if abs(se) < 1e-12 and abs(edge) < 1e-12 else est(edge, se)


def par_figures(tables: dict[str, pl.DataFrame], out_dir: str | Path) -> list[Path]:
    """Draw :data:`FIGURE` into ``out_dir`` where ``tables`` hold par sheets; the paths."""
    from simkit.plots import save_figure

    if not has_par(tables):
        return []
    return save_figure(plot_session_fans(tables[FAN_TABLE]), out_dir, FIGURE)


def plot_session_fans(fan: pl.DataFrame) -> Figure:
    """A panel per variant: each role's running-total median and 5–95% band against games."""
    from simkit.plots import ResultFigure, styled, variant_style

    @styled
    def draw() -> Figure:
        names = list(dict.fromkeys(fan["variant"].to_list()))
        cols = min(4, len(names))
        nrows = math.ceil(len(names) / cols)
        fig = ResultFigure(figsize=(3.2 * cols, 2.6 * nrows), layout="constrained")
        axes = np.atleast_1d(fig.subplots(nrows, cols, sharex=True, squeeze=False)).ravel()
        for ax, name in zip(axes, names, strict=False):
            color = variant_style(name).color
            of = fan.filter(pl.col("variant") == name)
            for role in dict.fromkeys(of["role"].to_list()):
                r = of.filter(pl.col("role") == role).sort("game")
                dash = "--" if role == "player" else "-"
                ax.fill_between(r["game"], r["q05"], r["q95"], color=color, alpha=0.12, lw=0)
                ax.plot(r["game"], r["q50"], color=color, linestyle=dash, label=role)
                ax.plot(r["game"], r["q05"], color=color, linestyle=":", linewidth=0.7)
                ax.plot(r["game"], r["q95"], color=color, linestyle=":", linewidth=0.7)
            ax.axhline(0, color="grey", linewidth=0.6)
            ax.set_title(name, fontsize="small")
            ax.legend(fontsize="x-small", loc="upper left")
        for ax in axes[len(names) :]:
            ax.set_visible(False)
        fig.supxlabel("games played")
        fig.supylabel("running total (points)")
        return fig

    return draw()
