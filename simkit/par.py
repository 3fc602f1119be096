"""Par sheets (issue 51.4): per seat role, the edge, the spread, sessions and the risk of ruin.

A par sheet is computed from a run's kept games (:mod:`simkit.kept`), scored again under the
run's own variant (:func:`simkit.rescore.scored_batches`, which reproduces the run's scores), so
every figure rests on per-game scores.  Roles: ``"seat"`` in all-pairs variants (every seat
pooled), ``"banker"`` (seat 0) and ``"player"`` (the other seats pooled) in banker variants.

Tables (:func:`par_sheet`):

- ``par``: per role, ``games``, ``edge`` (mean score a game), ``edge_se`` (the game is the
  independent unit: the SE of the per-game mean over the role's seats), ``sd`` (a seat's score a
  game), ``volatility_index`` (SD × 1.645), ``p_win`` / ``p_tie`` / ``p_loss`` (a seat's game
  total above, at, below zero) and ``n0`` (Var/edge², null where ``|edge| <= 1.96 edge_se``).
- ``returns``: per role and scoring component (the scorer's breakdown and each phase's
  payments, as in the ``components`` table of ``simulate``): ``frequency`` (share of a role's
  seat-games where it pays anything), ``mean`` (points a game), ``edge_share`` (mean / edge,
  null where the edge is not different from zero), ``variance_share`` (Cov(component,
  total) / Var(total); the shares add up to 1).
- ``sessions``: per role and N in :data:`SESSION_GAMES`: the session total's mean, SD, 5/50/95%
  quantiles and P(ahead) (total > 0), over :data:`N_SESSIONS` sessions drawn by resampling.
- ``ruin``: per role, bankroll B (a grid in multiples of the role's SD) and N: P(the running
  total reaches -B or below within N games), with its binomial SE, over the same number of
  resampled paths.

Sessions and paths are drawn by the bootstrap: each game of a session is a seat-game of the
role drawn uniformly with replacement from the kept games (independent deals, the seat within
the role drawn too), from a generator seeded by the sheet's ``seed``.  The kept games are the
empirical distribution, so a rare hand that never came up in them never comes up in a session.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
import polars as pl

from simkit.kept import open_kept
from simkit.rescore import run_variant, scored_batches
from simkit.variants import Variant, has_banker

if TYPE_CHECKING:
    from matplotlib.figure import Figure

#: Session lengths of the ``sessions`` table (games).
SESSION_GAMES = (10, 100, 1000)
#: Sessions (and ruin paths) drawn per role.
N_SESSIONS = 10_000
#: Bankrolls of the ``ruin`` table, in multiples of the role's SD a game.
BANKROLL_SDS = (1.0, 2.0, 5.0, 10.0, 20.0, 50.0)
#: Game counts of the ``ruin`` table.
RUIN_GAMES = (10, 100, 1000)
Z95 = 1.959963984540054
VOLATILITY_Z = 1.645


def role_seats(variant: Variant, n_players: int) -> dict[str, list[int]]:
    """The seats of each role: ``{"seat": all}`` or ``{"banker": [0], "player": [1..p-1]}``."""
    if has_banker(variant):
        return {"banker": [0], "player": list(range(1, n_players))}
    return {"seat": list(range(n_players))}


def par_row(scores: np.ndarray) -> dict[str, float | int | None]:
    """The ``par`` columns of one role from its scores ``float (n_games, k_seats)``."""
    n = scores.shape[0]
    flat = scores.ravel()
    edge = float(flat.mean())
    per_game = scores.mean(axis=1)
    edge_se = float(per_game.std(ddof=1) / np.sqrt(n)) if n > 1 else float("nan")
    var = float(flat.var(ddof=1))
    shows = abs(edge) > Z95 * edge_se
    return {
        "games": n,
        "edge": edge,
        "edge_se": edge_se,
        "sd": float(np.sqrt(var)),
        "volatility_index": float(np.sqrt(var)) * VOLATILITY_Z,
        "p_win": float((flat > 0).mean()),
        "p_tie": float((flat == 0).mean()),
        "p_loss": float((flat < 0).mean()),
        "n0": var / edge**2 if shows else None,
    }


def _draws(scores: np.ndarray, rng: np.random.Generator, shape: tuple[int, ...]) -> np.ndarray:
    """Seat-games of a role drawn uniformly with replacement, ``float64 shape``."""
    flat = scores.ravel()
    return flat[rng.integers(0, flat.size, size=shape)]


def session_rows(
    scores: np.ndarray,
    rng: np.random.Generator,
    lengths: Sequence[int] = SESSION_GAMES,
    n_sessions: int = N_SESSIONS,
) -> list[dict[str, float | int]]:
    """The ``sessions`` columns of one role: per session length, the total's spread."""
    rows = []
    for n in lengths:
        totals = np.zeros(n_sessions)
        for start in range(0, n, 100):  # draws in slabs: memory stays n_sessions × 100
            totals += _draws(scores, rng, (n_sessions, min(100, n - start))).sum(axis=1)
        q05, q50, q95 = np.quantile(totals, [0.05, 0.5, 0.95])
        rows.append(
            {
                "games": n,
                "sessions": n_sessions,
                "mean": float(totals.mean()),
                "sd": float(totals.std(ddof=1)),
                "q05": float(q05),
                "q50": float(q50),
                "q95": float(q95),
                "p_ahead": float((totals > 0).mean()),
            }
        )
    return rows


def ruin_paths(
    scores: np.ndarray, rng: np.random.Generator, n_games: int, n_paths: int = N_SESSIONS
) -> tuple[np.ndarray, np.ndarray]:
    """``(low, fan)``: per path the lowest running total after each game, ``float64 (n_paths,
    n_games)`` (its running minimum), and the 5/25/50/75/95% quantiles of the running total
    after each game, ``float64 (5, n_games)``."""
    low = np.empty((n_paths, n_games))
    total = np.empty((n_paths, n_games))
    for start in range(0, n_paths, 1000):
        stop = min(n_paths, start + 1000)
        running = np.cumsum(_draws(scores, rng, (stop - start, n_games)), axis=1)
        total[start:stop] = running
        low[start:stop] = np.minimum.accumulate(running, axis=1)
    fan = np.quantile(total, [0.05, 0.25, 0.5, 0.75, 0.95], axis=0)
    return low, fan


def ruin_rows(
    low: np.ndarray, bankrolls: Sequence[float], lengths: Sequence[int] = RUIN_GAMES
) -> list[dict[str, float | int]]:
    """P(running total ≤ -B within N games) per bankroll B and length N, from the running
    minima of :func:`ruin_paths`, with the binomial SE."""
    rows = []
    m = low.shape[0]
    for b in bankrolls:
        for n in lengths:
            p = float((low[:, n - 1] <= -b).mean())
            rows.append(
                {"bankroll": float(b), "games": n, "p_ruin": p, "se": np.sqrt(p * (1 - p) / m)}
            )
    return rows


@dataclass
class ParSheet:
    """A par sheet's tables (the module docstring says what each holds) and the fan chart's
    data: per role, the running total's quantiles after each game, ``float64 (5, N)``."""

    variant: str
    n_players: int
    tables: dict[str, pl.DataFrame]
    fans: dict[str, np.ndarray]


def par_sheet(run: str | Path, *, source: str | None = None, seed: int = 0) -> ParSheet:
    """The par sheet of run folder ``run``'s kept games (``source``: which variant's, when the run
    kept several).  Raises :class:`~simkit.errors.SimkitError` when ``run`` kept no games."""
    kept = open_kept(run)
    index, variant = run_variant(kept, source)
    p = kept.n_players
    roles = role_seats(variant, p)
    totals = []
    comp_sum: dict[str, dict[str, float]] = {r: {} for r in roles}
    comp_nonzero: dict[str, dict[str, int]] = {r: {} for r in roles}
    comp_cross: dict[str, dict[str, float]] = {r: {} for r in roles}
    strategy = kept.provenance["strategy"]
    for _, (total, components), _ in scored_batches(kept, index, variant, variant, strategy):
        total = np.asarray(total, dtype=np.float64)
        totals.append(total)
        for role, seats in roles.items():
            for name, part in components.items():
                part = np.asarray(part, dtype=np.float64)[:, seats]
                comp_sum[role][name] = comp_sum[role].get(name, 0.0) + float(part.sum())
                comp_nonzero[role][name] = comp_nonzero[role].get(name, 0) + int((part != 0).sum())
                comp_cross[role][name] = comp_cross[role].get(name, 0.0) + float(
                    (part * total[:, seats]).sum()
                )
    scores = np.concatenate(totals)
    rng = np.random.default_rng(seed)
    par, returns, sessions, ruin = [], [], [], []
    fans = {}
    head = {"variant": variant.name, "players": p}
    for role, seats in roles.items():
        role_scores = scores[:, seats]
        row = par_row(role_scores)
        par.append(head | {"role": role} | row)
        k = role_scores.size
        mean_total = role_scores.mean()
        var_total = role_scores.var()
        edge = float(row["edge"] or 0.0)
        for name in sorted(comp_sum[role]):
            mean_c = comp_sum[role][name] / k
            cov = comp_cross[role][name] / k - mean_c * mean_total
            returns.append(
                head
                | {
                    "role": role,
                    "component": name,
                    "frequency": comp_nonzero[role][name] / k,
                    "mean": mean_c,
                    "edge_share": mean_c / edge if row["n0"] is not None else None,
                    "variance_share": cov / var_total if var_total > 0 else None,
                }
            )
        sessions += [head | {"role": role} | r for r in session_rows(role_scores, rng)]
        low, fans[role] = ruin_paths(role_scores, rng, max(RUIN_GAMES))
        bankrolls = [max(1.0, round(float(row["sd"] or 0.0) * m)) for m in BANKROLL_SDS]
        ruin += [head | {"role": role} | r for r in ruin_rows(low, bankrolls)]
    tables = {
        "par": pl.DataFrame(par, schema_overrides={"n0": pl.Float64}),
        "returns": pl.DataFrame(returns, schema_overrides={"edge_share": pl.Float64}),
        "sessions": pl.DataFrame(sessions),
        "ruin": pl.DataFrame(ruin),
    }
    return ParSheet(variant=variant.name, n_players=p, tables=tables, fans=fans)


def write_par(sheet: ParSheet, out: str | Path) -> list[Path]:
    """Write the tables as ``<name>.parquet``, the figures ``par_sessions`` and ``par_ruin``
    (PNG and SVG), and ``par.md`` into ``out``; returns the paths written."""
    from simkit.plots import save_figure

    folder = Path(out)
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for name, table in sheet.tables.items():
        table.write_parquet(folder / f"{name}.parquet")
        paths.append(folder / f"{name}.parquet")
    paths += save_figure(plot_session_fan(sheet), folder, "par_sessions")
    paths += save_figure(plot_ruin(sheet), folder, "par_ruin")
    (folder / "par.md").write_text(par_markdown(sheet), encoding="utf-8")
    paths.append(folder / "par.md")
    return paths


def _md_table(table: pl.DataFrame) -> str:
    def cell(x: object) -> str:
        if x is None:
            return ""
        if isinstance(x, float):
            return f"{x:.4g}"
        return str(x)

    lines = ["| " + " | ".join(table.columns) + " |", "|" + "---|" * len(table.columns)]
    lines += ["| " + " | ".join(cell(x) for x in row) + " |" for row in table.iter_rows()]
    return "\n".join(lines)


def par_markdown(sheet: ParSheet) -> str:
    """``par.md``: the four tables and the two figures."""
    t = sheet.tables
    return (
        "\n\n".join(
            [
                f"# Par sheet: {sheet.variant}, {sheet.n_players} players",
                "Per seat role. The edge is the mean score a game with its standard error; "
                "N0 = Var/edge² is left empty where the edge is not different from zero at 95%. "
                "Sessions and ruin paths resample the kept games (independent deals, with "
                "replacement).",
                "## Per role",
                _md_table(t["par"].drop("variant", "players")),
                "## Returns by scoring component",
                _md_table(t["returns"].drop("variant", "players")),
                "## Sessions",
                _md_table(t["sessions"].drop("variant", "players")),
                "![session fan chart](par_sessions.png)",
                "## Risk of ruin",
                _md_table(t["ruin"].drop("variant", "players")),
                "![risk of ruin](par_ruin.png)",
            ]
        )
        + "\n"
    )


_ROLE_LINES = {"seat": "-", "banker": "-", "player": "--"}


def plot_session_fan(sheet: ParSheet) -> Figure:
    """The running total's 5-95% and 25-75% bands and median against games, per role."""
    from simkit.plots import ResultFigure, styled, variant_style

    @styled
    def draw() -> Figure:
        color = variant_style(sheet.variant).color
        fig = ResultFigure(figsize=(8, 4.5), layout="constrained")
        ax = fig.subplots()
        for role, fan in sheet.fans.items():
            games = np.arange(1, fan.shape[1] + 1)
            alpha = 0.15 if role != "player" else 0.08
            ax.fill_between(games, fan[0], fan[4], color=color, alpha=alpha, linewidth=0)
            ax.fill_between(games, fan[1], fan[3], color=color, alpha=2 * alpha, linewidth=0)
            ax.plot(games, fan[2], color=color, linestyle=_ROLE_LINES[role], label=f"{role} median")
            ax.plot(games, fan[0], color=color, linestyle=":", linewidth=0.8)
            ax.plot(games, fan[4], color=color, linestyle=":", linewidth=0.8)
        ax.axhline(0, color="grey", linewidth=0.8)
        ax.set_xlabel("games played")
        ax.set_ylabel("running total (points)")
        ax.set_title(f"{sheet.variant}: session spread (bands 5-95% and 25-75%)")
        ax.legend()
        return fig

    return draw()


def plot_ruin(sheet: ParSheet) -> Figure:
    """P(ruin) against the bankroll, a line per role and session length."""
    from simkit.plots import ResultFigure, styled, variant_style

    @styled
    def draw() -> Figure:
        color = variant_style(sheet.variant).color
        ruin = sheet.tables["ruin"]
        fig = ResultFigure(figsize=(8, 4.5), layout="constrained")
        ax = fig.subplots()
        widths = {n: w for n, w in zip(RUIN_GAMES, (0.8, 1.4, 2.2), strict=True)}
        for role in sheet.fans:
            for n in RUIN_GAMES:
                rows = ruin.filter((pl.col("role") == role) & (pl.col("games") == n))
                ax.plot(
                    rows["bankroll"],
                    rows["p_ruin"],
                    color=color,
                    linestyle=_ROLE_LINES[role],
                    linewidth=widths[n],
                    marker="o",
                    markersize=3,
                    label=f"{role}, {n} games",
                )
        ax.set_xscale("log")
        ax.set_xlabel("bankroll B (points)")
        ax.set_ylabel("P(bankroll lost within N games)")
        ax.set_title(f"{sheet.variant}: risk of ruin")
        ax.legend(loc="best", fontsize="small")
        return fig

    return draw()


# --------------------------------------------------------------------------- as report tables

#: The report's table of each par-sheet table (``par_tables``), and ``par_fan`` for the fans.
REPORT_TABLES = {
    "par": "par",
    "returns": "par_returns",
    "sessions": "par_sessions",
    "ruin": "par_ruin",
}
FAN_TABLE = "par_fan"
FAN_COLUMNS = ("q05", "q25", "q50", "q75", "q95")


def fan_table(sheet: ParSheet) -> pl.DataFrame:
    """The fans of ``sheet`` as a table: per role and game, the running total's quantiles."""
    parts = [
        pl.DataFrame(
            {
                "variant": sheet.variant,
                "players": sheet.n_players,
                "role": role,
                "game": np.arange(1, fan.shape[1] + 1),
            }
            | {name: fan[i] for i, name in enumerate(FAN_COLUMNS)}
        )
        for role, fan in sheet.fans.items()
    ]
    return pl.concat(parts)


def par_tables(
    run: str | Path, variants: Sequence[str] | None = None, *, seed: int = 0
) -> dict[str, pl.DataFrame]:
    """The par sheets of the kept games of run folder ``run``, one per variant of ``variants``
    (None: every variant the run kept), stacked as tables :data:`REPORT_TABLES` and
    :data:`FAN_TABLE` (each row names its variant): what ``simkit report`` saves beside the
    run's tables.  Each sheet is :func:`par_sheet` with ``seed``."""
    names = open_kept(run).variant_names if variants is None else list(variants)
    sheets = [par_sheet(run, source=name, seed=seed) for name in names]
    out = {
        REPORT_TABLES[key]: pl.concat([s.tables[key] for s in sheets], how="diagonal_relaxed")
        for key in REPORT_TABLES
    }
    out[FAN_TABLE] = pl.concat([fan_table(s) for s in sheets])
    return out


def sheet_from_tables(tables: dict[str, pl.DataFrame], variant: str) -> ParSheet:
    """The :class:`ParSheet` of ``variant`` read back from :func:`par_tables`' tables (for its
    figures).  Raises ``KeyError`` where the tables hold no sheet of ``variant``."""
    of = {
        key: tables[name].filter(pl.col("variant") == variant)
        for key, name in REPORT_TABLES.items()
    }
    if of["par"].is_empty():
        raise KeyError(f"no par sheet of {variant!r} in the tables")
    fan = tables[FAN_TABLE].filter(pl.col("variant") == variant)
    fans = {
        role: fan.filter(pl.col("role") == role).sort("game").select(FAN_COLUMNS).to_numpy().T
        for role in of["par"]["role"].to_list()
    }
    return ParSheet(variant=variant, n_players=int(of["par"]["players"][0]), tables=of, fans=fans)
