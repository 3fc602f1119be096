"""The rule-balance report: one simulation of every variant → tables, figures and a README.

:func:`build_report` runs :func:`simkit.simulate.simulate` on every shipped variant (plus, for
each banker variant, the same rules with the other 食夹棍 setting, so the banker's edge can be
read with and without it), saves the tables as parquet under ``tables/``, draws the figures
under ``figures/`` and writes ``README.md``, the page a reader opens first.
:func:`write_report` does the last two steps from saved tables (no simulation).
"""

from __future__ import annotations

import functools
import json
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import polars as pl

from simkit.files import atomic_write, check_output_dir
from simkit.plots import all_figures
from simkit.simulate import DEFAULT_STRATEGY, SimulationResult, load_result, simulate
from simkit.statistics import POSITIONS
from simkit.variants import DEFAULT_VARIANT, Variant, has_banker, resolve_variants, with_compare

#: Deals of ``simkit report`` by default (each played under every variant): a few minutes on
#: 2 cores, numba compilation included.
DEFAULT_GAMES = 200_000
DEFAULT_SEED = 20_260_101
#: The cell of a rule a variant does not have, or of something never seen in the run.
NEVER = "–"
TOP_CARD = "top-card"
#: The measured regret of the strategy (``experiments/pipelines/regret.py``), read where the
#: package sits in its repository; an installed package has none, and its report says how to
#: make it.
REGRET_JSON = Path(__file__).resolve().parent.parent / "results" / "strategy" / "regret.json"
REGRET_COMMAND = (
    "python -m experiments.pipelines.regret --strategy expected-score-rerank --hands 200 "
    "--rollouts 300 300 --seed 0"
)
#: Rows measured on more hands and rollouts beside :data:`REGRET_JSON` (the 4-player rows on
#: issue 11's protocol, ``experiments/pipelines/regret_targets.py``): where a row of the same
#: variant, players and seat is in both, the report shows this one.
REGRET_PRECISE_NAME = "regret-4p-2000-default.json"

#: What the decision phases are worth (``experiments/phase_value_*.py``): every ``*.json`` here.
PHASES_DIR = Path(__file__).resolve().parent.parent / "results" / "phases"
#: The keys of a row of ``results/phases/*.json``; a row may carry more (shown as notes).
PHASE_ROW_KEYS = (
    "phase", "variant", "players", "seat", "games", "with", "without", "diff", "se",
    "ci_low", "ci_high", "seed", "command",
)  # fmt: skip


def report_variants(
    variants: Any = None, *, banker_toggle: bool = True
) -> tuple[list[Variant], dict[str, str]]:
    """The variants of a report and the win tables of the derived ones.

    Every banker variant is followed by its twin with the other 食夹棍 setting
    (``compare = "top-card"`` ↔ ``"full"``), played with the original's win tables.
    """
    out: list[Variant] = []
    tables: dict[str, str] = {}
    for variant in resolve_variants(variants):
        out.append(variant)
        if banker_toggle and has_banker(variant):
            other = "full" if variant.scoring.compare == TOP_CARD else TOP_CARD
            twin = with_compare(variant, other)
            out.append(twin)
            tables[twin.name] = variant.name
    return out, tables


def build_report(
    out: str | Path,
    *,
    n_games: int = DEFAULT_GAMES,
    seed: int = DEFAULT_SEED,
    variants: Any = None,
    n_players: int = 4,
    strategy: str = DEFAULT_STRATEGY,
    n_jobs: int = -1,
    chunk_size: int | None = None,
    backend: str | None = None,
    scheduler: str | None = None,
    checkpoint: str | Path | None = None,
    progress: bool | None = None,
) -> Path:
    """Simulate, then write ``out/tables/*.parquet``, ``out/figures/*`` and ``out/README.md``."""
    out = Path(out)
    check_output_dir(out)
    chosen, tables = report_variants(variants)
    result = simulate(
        chosen,
        n_games,
        n_players,
        strategy,
        seed=seed,
        n_jobs=n_jobs,
        chunk_size=chunk_size,
        backend=backend,
        scheduler=scheduler,
        checkpoint=checkpoint,
        progress=progress,
        win_tables=tables,
    )
    result.save(out / "tables")
    return write_report(result, out)


def write_report(result: SimulationResult | str | Path, out: str | Path) -> Path:
    """Draw the figures and write ``README.md`` from a result (or a folder of saved tables)."""
    if not isinstance(result, SimulationResult):
        result = load_result(result)
    out = Path(out)
    check_output_dir(out)
    all_figures(result.tables, out / "figures")
    text = render_markdown(result)
    return atomic_write(out / "README.md", lambda tmp: tmp.write_text(text, encoding="utf-8"))


# --------------------------------------------------------------------------- markdown


def _digits(se: float) -> int:
    """Decimals that show two significant digits of a standard error."""
    if not se or not math.isfinite(se) or se <= 0:
        return 3
    return max(0, min(8, 1 - math.floor(math.log10(se))))


def est(mean: float | None, se: float | None) -> str:
    """``mean ± se`` with the se rounded to two significant digits."""
    if mean is None or (isinstance(mean, float) and math.isnan(mean)):
        return "–"
    if se is None or not math.isfinite(se):
        return f"{mean:.3g}"
    d = _digits(se)
    return f"{mean:.{d}f} ± {se:.{d}f}"


def num(x: Any, fmt: str = ".4g") -> str:
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return "–"
    if isinstance(x, float):
        return format(x, fmt)
    return str(x)


def markdown_table(header: Sequence[str], rows: Sequence[Sequence[Any]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(str(c) for c in row) + " |" for row in rows]
    return "\n".join(lines)


def _grid(
    table: pl.DataFrame,
    row_key: str,
    row_values: Sequence[Any],
    col_key: str,
    col_values: Sequence[str],
    cell: Callable[[dict[str, Any]], str],
    missing: str = "",
) -> list[list[Any]]:
    """Rows of a Markdown table from a long table, pivoted wide: ``cell(row)`` for each (row
    value, column value) pair, ``missing`` where the long table has no such row."""
    cells = table.select(
        pl.col(row_key),
        pl.col(col_key).cast(pl.Utf8),
        pl.Series("cell", [cell(r) for r in table.iter_rows(named=True)], dtype=pl.Utf8),
    )
    wide = cells.pivot(on=col_key, index=row_key, values="cell")
    order = pl.DataFrame({row_key: list(row_values)}, schema={row_key: table.schema[row_key]})
    wide = order.join(wide, on=row_key, how="left", maintain_order="left")
    columns = [
        pl.col(c).fill_null(missing) if c in wide.columns else pl.lit(missing).alias(c)
        for c in col_values
    ]
    return [list(r) for r in wide.select(row_key, *columns).iter_rows()]


def _est_of(mean: str, se: str, seen: str | None = None) -> Callable[[dict[str, Any]], str]:
    """The ``est(mean, se)`` cell of a long table's row; :data:`NEVER` where the row's ``seen``
    column is 0 (an event that never happened has no estimate worth a ``0.000 ± 0.000``)."""
    return lambda r: NEVER if seen is not None and not r[seen] else est(r[mean], r[se])


def _names(names: Sequence[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def _figure(name: str, caption: str) -> str:
    return f"![{caption}](figures/{name}.png)\n\n*{caption}* ([SVG](figures/{name}.svg))"


@dataclass(frozen=True)
class Page:
    """What every section of the report page reads: the result and the variant compared with."""

    result: SimulationResult

    @property
    def tables(self) -> dict[str, pl.DataFrame]:
        return self.result.tables

    @property
    def provenance(self) -> dict[str, Any]:
        return self.result.provenance

    @property
    def names(self) -> list[str]:
        return self.result.variant_names

    @property
    def base(self) -> str:
        """The variant the paired differences and the per-special tables are shown for."""
        return DEFAULT_VARIANT if DEFAULT_VARIANT in self.names else self.names[0]


def header_section(page: Page) -> list[str]:
    prov = page.provenance
    return [
        "# 十三水 rule balance: what the regional rules do to the game\n",
        f"{prov['n_games']:,} deals of {prov['n_players']} players, each played under every "
        f"variant below (the *same* deals for all: differences between variants are paired). "
        f"Hands are set by the `{prov['strategy']}` strategy. Seed {prov['seed']}, simkit "
        f"{prov['simkit_version']}, commit `{prov.get('git_commit') or 'unknown'}`. "
        "Every `a ± b` is an estimate and its standard error; intervals are 95%. "
        "Standard errors treat the deal as the independent unit. Seat 0 is the banker in "
        "banker variants. Tables in full: `tables/*.parquet` (with `provenance.json`).\n",
        markdown_table(
            ["variant", "title", "banker", "key"],
            [
                [v["name"], v["title"], "yes" if v["banker"] else "", f"`{v['key']}`"]
                for v in prov["variants"]
            ],
        )
        + "\n",
    ]


def _regret_rows() -> tuple[dict[str, Any], list[dict[str, Any]]] | str:
    """The meta and rows of :data:`REGRET_JSON`, or why there are none."""
    try:
        data = json.loads(REGRET_JSON.read_text(encoding="utf-8"))
        meta, rows = dict(data["meta"]), list(data["rows"])
    except FileNotFoundError:
        return "no regret measurement sits beside this copy of simkit"
    except (OSError, ValueError, KeyError, TypeError) as exc:
        return f"`{REGRET_JSON.name}` could not be read ({exc})"
    precise = REGRET_JSON.with_name(REGRET_PRECISE_NAME)
    try:
        better = {
            _regret_key(r): r
            for r in json.loads(precise.read_text("utf-8"))["rows"]
            if r.get("strategy", meta["strategy"]) == meta["strategy"]  # one strategy's rows
        }
    except FileNotFoundError:
        return meta, rows
    except (OSError, ValueError, KeyError, TypeError) as exc:
        return f"`{precise.name}` could not be read ({exc})"
    return meta, [better.pop(_regret_key(r), r) for r in rows] + list(better.values())


def _regret_key(row: dict[str, Any]) -> tuple[str, int, str]:
    return str(row["variant"]), int(row["players"]), str(row["seat"])


def _regret_protocol(row: dict[str, Any], meta: dict[str, Any]) -> str:
    """``"2,000 (1000 + 1000)"``: a row's hands and rollouts (its run's where it has none)."""
    hands = row.get("hands", meta["hands"])
    sel = row.get("selection_rollouts", meta["rollouts"][0])
    ev = row.get("evaluation_rollouts", meta["rollouts"][1])
    return f"{hands:,} ({sel} + {ev})"


def _edge_against_regret(page: Page, by_variant: dict[str, list[dict[str, Any]]]) -> str:
    """Each banker's edge on this page beside what the strategy gives away as the banker."""
    edges = page.tables["banker_edge"]
    said = []
    for r in edges.iter_rows(named=True):
        banker = [row for row in by_variant.get(r["variant"], []) if row["seat"] == "banker"]
        if banker and banker[0]["regret"] > 0:
            said.append(
                f"{r['variant']} {est(r['mean'], r['se'])} against {banker[0]['regret']:.3f}"
            )
    if not said:
        return ""
    return "  The banker's edge (§8) beside the banker's regret: " + "; ".join(said) + "."


def regret_section(page: Page) -> list[str]:
    """What the strategy that set the hands gives away per hand, and what that means here."""
    heading = "### How much the strategy gives away\n"
    strategy = page.provenance["strategy"]
    read = _regret_rows()
    if isinstance(read, str):
        return [
            heading,
            f"Every figure below is a property of the game as `{strategy}` plays it; its regret "
            f"(the points per hand it gives away against the best setting of the same cards, "
            f"by rollouts under each variant's full rules) is not shown: {read}.  Make "
            f"`results/strategy/regret.json` in the repository with `{REGRET_COMMAND}` "
            "(about 15 minutes on 2 cores), or measure one variant with "
            "`simkit regret --variant NAME --players 4 --seat banker|player`.\n",
        ]
    meta, rows = read
    measured = {str(r["players"]) for r in rows}
    players = page.provenance["n_players"]
    players = players if str(players) in measured else 4
    by_variant: dict[str, list[dict[str, Any]]] = {}
    for r in rows:
        if r["players"] == players:
            by_variant.setdefault(r["variant"], []).append(r)
    table = [
        [
            name + (" †" if "measured_as" in r else ""),
            "" if r["seat"] == "any" else r["seat"],
            f"{r['regret']:.3f}",
            f"{r['ci_low']:.3f} to {r['ci_high']:.3f}",
            f"{r['share_differs']:.0%}",
            _regret_protocol(r, meta),
        ]
        for name in page.names
        for r in sorted(by_variant.get(name, []), key=lambda r: r["seat"])
    ]
    unmeasured = [name for name in page.names if name not in by_variant]
    sel, ev = meta["rollouts"]
    lines = [
        heading,
        f"Every figure below is a property of the game as `{meta['strategy']}` plays it, and "
        f"`{meta['strategy']}` gives points away: for one seat's hand, every setting on its "
        "Pareto front (and declaring, where the hand qualifies) is scored on the same random "
        "deals of the other cards to opponents who play it, under the variant's full rules; "
        "the best is picked on one set of deals and valued against the strategy's own on an "
        "independent set (hands per row and the rollouts of each set in the last column; an "
        "estimate that errs low, the less the more rollouts select).  Regret in points "
        f"per hand at {players} players, 95% CI; `seat` in banker variants:\n",
        markdown_table(
            ["variant", "seat", "regret", "95% CI", "best setting differs", "hands (rollouts)"],
            table,
        )
        + "\n",
    ]
    relabelled = sorted({str(r["measured_as"]) for r in rows if "measured_as" in r})
    if relabelled:
        lines.append(
            f"† measured as `{'`, `'.join(relabelled)}`, whose settings `{meta['strategy']}` "
            "plays in that row to the last bit "
            "(`python -m experiments.pipelines.regret_targets --relabel`).\n"
        )
    if meta["strategy"] != strategy:
        lines.append(
            f"This page's hands are set by `{strategy}`; the regret measured is that of "
            f"`{meta['strategy']}`.\n"
        )
    lines.append(
        "So an expected score, a banker's edge or a rule's worth on this page is that of the "
        "game as played by a strategy that gives away that much per hand: a figure of the "
        "same size as the regret (a banker's edge, a paired difference) could move under "
        "better play."
        + _edge_against_regret(page, by_variant)
        + (
            f"  Not measured: {_names(unmeasured)} (only the shipped variants are)."
            if unmeasured
            else ""
        )
        + (
            f"  This page plays {page.provenance['n_players']} players, a count the regret "
            f"was not measured at; the rows are those of {players}."
            if players != page.provenance["n_players"]
            else ""
        )
        + f"  All rows: `results/strategy/regret.md`; reproduce with `{REGRET_COMMAND}`"
        + (
            f" (rows on {sel} + {ev} rollouts); the others: "
            f"`results/strategy/{REGRET_PRECISE_NAME.replace('.json', '.md')}`.\n"
            if any(_regret_protocol(r, meta) != _regret_protocol({}, meta) for r in rows)
            else ".\n"
        )
    )
    return lines


def _phase_rows(folder: Path) -> tuple[list[dict[str, Any]], list[str]]:
    """The rows of every ``folder/*.json`` (a list of rows, or ``{"rows": [...]}``) and what
    could not be read."""
    rows: list[dict[str, Any]] = []
    problems: list[str] = []
    for path in sorted(folder.glob("*.json")):
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            found = data["rows"] if isinstance(data, dict) else data
            if not isinstance(found, list):
                raise TypeError("no list of rows")
            for r in found:
                missing = [k for k in PHASE_ROW_KEYS if k not in r]
                if missing:
                    raise ValueError(f"a row has no {', '.join(missing)}")
                rows.append({**r, "file": path.name})
        except (OSError, ValueError, KeyError, TypeError) as exc:
            problems.append(f"`{path.name}` could not be read ({exc})")
    return rows, problems


def _phase_notes(row: dict[str, Any]) -> str:
    """A row's keys beyond the schema (a settlement rate, a fair bid), as ``key value``."""
    said = []
    for key, value in row.items():
        if key in PHASE_ROW_KEYS or key == "file" or value is None:
            continue
        if key.endswith("rate") and isinstance(value, float):
            said.append(f"{key} {value:.1%}")
        elif isinstance(value, float):
            said.append(f"{key} {value:.3g}")
        else:
            said.append(f"{key} {value}")
    return ", ".join(said)


PHASE_HEADER = (
    "phase", "variant", "players", "seat", "games", "with", "without", "diff", "95% CI",
    "notes", "command",
)  # fmt: skip


def phases_lines(folder: Path) -> list[str]:
    """The section "What the phases are worth", from the measurements in ``folder``."""
    heading = "### What the phases are worth\n"
    rows, problems = _phase_rows(folder) if folder.is_dir() else ([], [])
    if not rows:
        why = "; ".join(problems) or f"no measurement sits in `{folder.name}/` beside this copy"
        return [
            heading,
            "The decision phases of the variant files (passing and 换牌 before the hands are "
            "set; 抢庄, 谈判 and 抛牌 around the comparison) are priced by the scripts "
            f"`experiments/pipelines/phase_value_*.py` into `results/phases/*.json`: {why}.\n",
        ]
    table = [
        [
            r["phase"],
            r["variant"],
            r["players"],
            r["seat"],
            f"{r['games']:,}",
            f"{r['with']:.3f}",
            f"{r['without']:.3f}",
            est(r["diff"], r["se"]),
            f"{r['ci_low']:+.3f} to {r['ci_high']:+.3f}",
            _phase_notes(r),
            f"`{r['command']}`",
        ]
        for r in rows
    ]
    lines = [
        heading,
        "Each phase measured on the same deals with and without it (paired; the others as "
        "the row says), in points per game: `with` and `without` the seat's mean score, "
        "`diff` their difference ± its standard error, with its 95% CI; `player` is the mean "
        "of the seats other than the banker (seat 0).  Rows from "
        + _names(sorted({f"`results/phases/{r['file']}`" for r in rows}))
        + ", each with the command that reproduces it.\n",
        markdown_table(PHASE_HEADER, table) + "\n",
    ]
    if problems:
        lines.append("Not shown: " + "; ".join(problems) + ".\n")
    return lines


def phases_section(page: Page) -> list[str]:
    """What the decision phases are worth to each seat (:data:`PHASES_DIR`)."""
    return phases_lines(PHASES_DIR)


#: The exact tables per deck and the volatility runs of the deck options (``results/decks``).
DECKS_DIR = Path(__file__).resolve().parent.parent / "results" / "decks"
#: The decks ``experiments/pipelines/exact_decks.py`` counts, in the order shown, and what each is.
DECK_LABELS = {
    "1d": "one deck",
    "2d": "two decks",
    "1d-5s": "one deck + 5th suit",
    "1d-1j": "one deck + 1 joker",
    "1d-2j": "one deck + 2 jokers",
}
DECKS_EXACT_COMMAND = "python -m experiments.pipelines.exact_decks --variant guangxi"
DECKS_VOLATILITY_COMMAND = "python -m experiments.pipelines.deck_volatility --batches 20 --seed 0"


def _deck_exact(folder: Path) -> tuple[dict[str, pl.DataFrame], list[str], list[str]]:
    """``exact-<deck>.csv`` of ``folder`` for the decks the report compares
    (:data:`DECK_LABELS`), what failed, and the other decks that have a table there."""
    found: dict[str, pl.DataFrame] = {}
    problems: list[str] = []
    paths = {p.stem.removeprefix("exact-"): p for p in folder.glob("exact-*.csv")}
    others = sorted(set(paths) - set(DECK_LABELS))
    for deck in [d for d in DECK_LABELS if d in paths]:
        try:
            frame = pl.read_csv(paths[deck])
            missing = {"table", "entry", "probability"} - set(frame.columns)
            if missing:
                raise ValueError(f"no column {', '.join(sorted(missing))}")
            found[deck] = frame
        except (OSError, ValueError, pl.exceptions.PolarsError) as exc:
            problems.append(f"`{paths[deck].name}` could not be read ({exc})")
    return found, problems, others


def _merged_entries(frames: Sequence[pl.DataFrame], table: str) -> list[str]:
    """The entries of ``table`` over every deck, each deck's order kept (a category only one
    deck has, 五同 or 五彩同花顺, goes after the entry it follows there)."""
    order: list[str] = []
    for frame in frames:
        previous = None
        for entry in frame.filter(pl.col("table") == table)["entry"].to_list():
            if entry not in order:
                order.insert(order.index(previous) + 1 if previous else 0, entry)
            previous = entry
    return order


def _deck_probability_rows(
    exact: dict[str, pl.DataFrame], table: str, column: str
) -> list[list[str]]:
    rows = []
    for entry in _merged_entries(list(exact.values()), table):
        cells = [f"`{entry}`" if table == "specials" else entry]
        for frame in exact.values():
            hit = frame.filter((pl.col("table") == table) & (pl.col("entry") == entry))
            value = hit[column][0] if hit.height and column in hit.columns else None
            cells.append(NEVER if value is None else ("0" if value == 0 else f"{value:.3g}"))
        rows.append(cells)
    return rows


def decks_section(page: Page, folder: Path | None = None) -> list[str]:
    """What two decks, a fifth suit and jokers change in the default variant: exact special and
    category probabilities per deck (``results/decks/exact-*.csv``) and the score's SD per deck
    (``results/decks/volatility.json``); ``folder`` defaults to :data:`DECKS_DIR`."""
    folder = DECKS_DIR if folder is None else folder
    lines = ["### Decks: what two decks, a fifth suit and jokers change\n"]
    exact, problems, others = _deck_exact(folder) if folder.is_dir() else ({}, [], [])
    absent = [d for d in DECK_LABELS if d not in exact]
    if exact:
        decks = [f"{DECK_LABELS.get(d, d)} (`{d}`)" for d in exact]
        lines += [
            f"The default variant ({DEFAULT_VARIANT}) with each deck, exactly: every "
            "probability below is a count over all sets of physical cards of the deck, by "
            "combinatorics (`simkit.exact.exact_tables`), never sampled.  Two decks serve 5 "
            "to 8 players (and any table with `guangxi-two-decks`), the fifth suit (加一色) "
            "up to 5, jokers (wild) up to 4.  "
            f"{NEVER}: the deck has no such category or the table is not counted for it.\n",
            "**Specials**: the probability that a 13-card hand has each special as its best "
            "(what it would declare).\n",
            markdown_table(
                ["special", *decks], _deck_probability_rows(exact, "specials", "best_probability")
            )
            + "\n",
            "**5-card duns** (any 5 cards of the deck): the probability of each category.\n",
            markdown_table(
                ["category", *decks], _deck_probability_rows(exact, "five_card", "probability")
            )
            + "\n",
            "**3-card fronts** (any 3 cards): the probability of each category.\n",
            markdown_table(
                ["category", *decks], _deck_probability_rows(exact, "three_card", "probability")
            )
            + "\n",
            "Each deck's counts in full (exact integers, P(qualifies) beside P(best), and the "
            "13-card contains table): `results/decks/exact-<deck>.md`; reproduce with "
            f"`{DECKS_EXACT_COMMAND} --decks {' '.join(exact)}`.\n",
        ]
    if others:
        lines.append(
            "The other packs `[deck]` accepts are counted the same way, each in "
            f"`results/decks/exact-<deck>.md`: {_names([f'`{d}`' for d in others])} "
            "(`2d`: two decks, `5s`: the fifth suit, `1j`/`2j`: jokers).\n"
        )
    if absent or problems:
        why = "; ".join(problems)
        lines.append(
            (f"Not shown: {why}.  " if why else "")
            + (
                f"No exact table of {_names([f'`{d}`' for d in absent])} sits in "
                f"`results/decks/` beside this copy of simkit: make "
                f"{'it' if len(absent) == 1 else 'them'} in the repository with "
                f"`{DECKS_EXACT_COMMAND} --decks {' '.join(absent)}` (combinatorics: seconds "
                "a deck, minutes with jokers).\n"
                if absent
                else "\n"
            )
        )
    lines += _deck_volatility_lines(folder / "volatility.json")
    return lines


def _deck_volatility_lines(path: Path) -> list[str]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        meta, rows = dict(data["meta"]), list(data["rows"])
        table = [
            [
                r["variant"],
                r["players"],
                r["deck"],
                f"{r['games']:,}",
                est(r["sd"], r["sd_se"]),
                f"{r['sd_ci_low']:.2f} to {r['sd_ci_high']:.2f}",
                est(r["mean_abs"], r["mean_abs_se"]),
                f"{r['declared']['rate']:.2%} ± {r['declared']['se']:.2%}",
                "guangxi's (fallback)" if r["win_tables"] == "fallback" else "its own",
            ]
            for r in rows
        ]
    except FileNotFoundError:
        return [
            "How volatile the game is with each deck (the SD of a player's score per game) is "
            f"not shown: no `results/decks/{path.name}` sits beside this copy of simkit.  Make "
            f"it in the repository with `{DECKS_VOLATILITY_COMMAND}` (a few minutes on one "
            "core).\n"
        ]
    except (OSError, ValueError, KeyError, TypeError) as exc:
        return [f"`{path.name}` could not be read ({exc}).\n"]
    header = [
        "variant", "players", "deck", "games", "score SD", "SD 95% CI", "mean abs score",
        "declares a special", "win tables",
    ]  # fmt: skip
    return [
        "**Volatility.**  Each deck played by the default strategy "
        f"(`{meta['strategy']}`), {meta['batches']} independent runs of "
        f"{meta['batch_games']:,} deals a row.  Every deck is dealt its own deals, so the rows "
        "are independent samples, **not paired**: a difference between two rows has the SE "
        "√(SE₁² + SE₂²).  `score SD`: the SD of a player's score per game (every seat pooled) "
        "± its SE by batch means, with its 95% CI; `mean abs score` the mean |score| ± SE; "
        "`declares a special`: the share of hands declared as a special; `win tables`: whose "
        "tables set the hands (`own`: trained on that deck's own pack, "
        "`experiments/pipelines/train_tables.py`; the deck options' are `max-ev`'s, which "
        "`expected-score` reads through its fine classes).  guangxi at 5 deals its usual two "
        "decks, and `guangxi-two-decks` at 6 is the deck guangxi plays at 6.\n",
        markdown_table(header, table) + "\n",
        "Specials declared one by one and the category shares of the back, middle and front: "
        f"`results/decks/{path.with_suffix('.md').name}`; reproduce with "
        f"`python {meta['command']}`.\n",
    ]


def strategy_matters_section(page: Page, path: Path | None = None) -> list[str]:
    """What setting the hands well is worth: the default strategy against weaker ones on the
    same deals (``experiments/pipelines/strategy_matters.py``; ``path`` defaults to
    ``results/strategy/matters.json`` beside :data:`REGRET_JSON`)."""
    heading = "### How much strategy matters\n"
    path = REGRET_JSON.with_name("matters.json") if path is None else path
    command = "python -m experiments.pipelines.strategy_matters --games 20000 --seed 0"
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        meta, rows = dict(data["meta"]), list(data["rows"])
    except FileNotFoundError:
        return [
            heading,
            "How much the strategy that sets the hands matters (the default against `greedy` "
            "and `random-legal`, paired on the same deals) is not shown: no measurement sits "
            f"beside this copy of simkit.  Make `results/strategy/{path.name}` in the "
            f"repository with `{command}` (a few minutes on 2 cores).\n",
        ]
    except (OSError, ValueError, KeyError, TypeError) as exc:
        return [heading, f"`{path.name}` could not be read ({exc}).\n"]
    default = meta["default"]
    table = [
        [
            r["variant"],
            "" if r["seat"] == "any" else r["seat"],
            f"`{r['strategy']}`",
            f"{r['mean']:+.3f}",
            "0 (the reference)"
            if r["strategy"] == default
            else f"{r['diff']:+.3f} ({r['diff_ci_low']:+.3f} to {r['diff_ci_high']:+.3f})",
            f"{r['sd']:.2f} ± {r['sd_se']:.2f}",
            f"{r['table_sd']:.2f} ± {r['table_sd_se']:.2f}",
        ]
        for name in page.names
        for r in rows
        if r["variant"] == name
    ]
    unmeasured = [name for name in page.names if not any(r["variant"] == name for r in rows)]
    header = ["variant", "seat", "strategy", "score", "vs default (95% CI)", "seat SD", "table SD"]
    return [
        heading,
        f"What setting the hands well is worth.  On {meta['games']:,} deals of "
        f"{meta['players']} players per variant, every strategy sets the *same* hands.  One "
        f"seat plays the strategy named, the other three `{default}` (the default): `score` is "
        f"that seat's expected score per game, `vs default` the paired difference from "
        f"`{default}` in the same seat on the same deals, `seat SD` the SD of its score per "
        "game.  In all-pairs variants every seat takes the strategy in turn (averaged per "
        "deal); in banker variants the banker (seat 0) and a player are separate rows.  "
        "`table SD`: the same seat's score SD when every seat plays the strategy (the game's "
        "volatility as that strategy plays it).  95% CIs and ± SE, the deal as the unit.\n",
        markdown_table(header, table) + "\n",
        (
            f"This page's hands are set by `{page.provenance['strategy']}`. "
            if page.provenance["strategy"] != default
            else ""
        )
        + (
            f"This page plays {page.provenance['n_players']} players; the measurement is at "
            f"{meta['players']}.  "
            if page.provenance["n_players"] != meta["players"]
            else ""
        )
        + (f"Not measured: {_names(unmeasured)}.  " if unmeasured else "")
        + f"All rows: `results/strategy/{path.with_suffix('.md').name}`; reproduce with "
        f"`python {meta['command']}`.\n",
    ]


def scores_section(page: Page) -> list[str]:
    scores = page.tables["scores"]
    rows: list[list[Any]] = []
    for name in page.names:
        of = scores.filter(pl.col("variant") == name)
        s0 = of.filter(pl.col("seat") == "0").row(0, named=True)
        al = of.filter(pl.col("seat") == "all").row(0, named=True)
        rows.append(
            [
                name,
                est(s0["mean"], s0["se"]),
                est(s0["sd"], s0["sd_se"]),
                est(al["sd"], al["sd_se"]),
                "yes" if s0["banker"] else "",
            ]
        )
    header = ["variant", "seat 0 mean", "seat 0 sd", "player sd (all seats)", "seat 0 banker"]
    return [
        "## 1. Expected score and volatility\n",
        markdown_table(header, rows) + "\n",
        _figure("scores", "Expected score of seat 0 and the volatility of a player's score") + "\n",
    ]


def paired_section(page: Page) -> list[str]:
    base = page.base
    paired = page.tables["paired"].filter(
        ((pl.col("variant_a") == base) | (pl.col("variant_b") == base)) & (pl.col("seat") == "all")
    )
    rows = []
    for r in paired.iter_rows(named=True):
        sign = 1 if r["variant_a"] == base else -1
        other = r["variant_b"] if sign == 1 else r["variant_a"]
        rows.append([other, est(-sign * r["diff"], r["se"]), r["n"]])
    return [
        f"## 2. Paired differences against {base} (same deals)\n",
        "Mean square score of a player (its variance, since scores average 0), "
        f"variant minus {base}; the paired standard error is far below that of two "
        "independent runs.\n",
        markdown_table(["variant", f"mean square score − {base}", "n"], rows) + "\n",
    ]


def components_section(page: Page) -> list[str]:
    comps = page.tables["components"].filter(pl.col("mean_abs") > 0)
    comp_names = list(dict.fromkeys(comps["component"].to_list()))
    share = _est_of("var_share", "var_share_se")
    moved = _est_of("mean_abs", "mean_abs_se")
    grid = functools.partial(_grid, comps, "variant", page.names, "component", comp_names)
    return [
        "## 3. Where the score comes from: rule components\n",
        "Share of the variance of a player's score, Cov(component, total) / Var(total) "
        "(shares add up to 1; se by batch means over blocks of deals):\n",
        markdown_table(["variant", *comp_names], grid(share, NEVER)) + "\n",
        "Mean |points| moved per player and game by each component:\n",
        markdown_table(["variant", *comp_names], grid(moved, NEVER)) + "\n",
        f"`{NEVER}`: the component moved no point in these games: the variant has no such "
        "rule (a component that moves no point in any variant is left out)."
        + _t_formula_note(page)
        + "\n",
        _figure("components", "Score and variance by rule component") + "\n",
    ]


def _t_formula_note(page: Page) -> str:
    """Why ``duns`` is near 0 where the t-formula plays: it replaces the dun points."""
    comps = page.tables["components"]
    t_rows = comps.filter((pl.col("component") == "t_formula") & (pl.col("mean_abs") > 0))
    variants = [v for v in page.names if v in set(t_rows["variant"])]
    if not variants:
        return ""
    tdist = page.tables["t_distribution"]
    applies = [
        f"{float(tdist.filter(pl.col('variant') == v)['freq'].sum()):.2%} of {v}'s deals"
        for v in variants
    ]
    return (
        f"  In {_names(variants)} the t-formula replaces the dun points (bonuses included) of "
        "the hands compared normally by place payments (§5): `t_formula` carries what `duns` "
        "carries elsewhere, and `duns` and `bonuses` are near 0, paid only in the deals the "
        "formula skips because too few hands are compared normally, the others declaring "
        f"specials (the formula applies in {_names(applies)})."
    )


def events_section(page: Page) -> list[str]:
    events = page.tables["events"]
    event_names = list(dict.fromkeys(events["event"].to_list()))
    rate = _est_of("rate", "se", seen="count")
    rows = _grid(events, "variant", page.names, "event", event_names, rate, NEVER)
    return [
        "## 4. Scoops, home runs, fouls and declared specials\n",
        "Per player and game: `scoop` = the player's scoop (打枪) points are positive (net), "
        "`scooped` negative; `home_run` = the player's 全垒打 points are positive; `foul` = "
        "the player paid a foul penalty; `declared` = the player declared a special.  Every "
        "strategy simkit plays searches legal settings only, so nobody fouls here; the foul "
        "rules still score hands set by other means (`simkit.score`).\n",
        markdown_table(["variant", *event_names], rows) + "\n",
        _never_note(events, page.names) + "\n",
    ]


def _never_note(events: pl.DataFrame, names: Sequence[str]) -> str:
    """Which cells of the events table are :data:`NEVER`, and why."""
    never: dict[tuple[str, ...], list[str]] = {}
    for event in dict.fromkeys(events["event"].to_list()):
        if event == "foul":
            continue
        rows = events.filter((pl.col("event") == event) & (pl.col("count") == 0))
        variants = tuple(v for v in names if v in set(rows["variant"]))
        if variants:
            never.setdefault(variants, []).append(f"`{event}`")
    which = "; ".join(f"{', '.join(e)} in {_names(list(v))}" for v, e in never.items())
    return (
        f"`{NEVER}`: not once in these games.  `foul`: the strategy never fouls (above)"
        + (f"; {which}: the variant has no such rule" if which else "")
        + " (or, in a short run, the event is too rare to come up)."
    )


def t_formula_section(page: Page) -> list[str]:
    tdist = page.tables["t_distribution"]
    if not tdist.height:
        return []
    rows = [
        [r["variant"], r["t"], r["count"], est(r["freq"], r["se"])]
        for r in tdist.iter_rows(named=True)
    ]
    return [
        "## 5. The t of the t-formula\n",
        "t is the worth of the biggest dun among the hands compared normally (000/002 §1); "
        "frequency per deal where the formula applies.\n",
        markdown_table(["variant", "t", "deals", "frequency"], rows) + "\n",
    ]


def specials_section(page: Page) -> list[str]:
    specials = page.tables["specials"]
    rows: list[list[Any]] = []
    for name in page.names:
        sub = specials.filter(pl.col("variant") == name)
        z = sub["best_z"].drop_nulls()
        z = z.filter(z.is_finite())
        rows.append(
            [
                name,
                sub.height,
                num(float(z.abs().max()) if z.len() else None, ".2f"),  # type: ignore[arg-type]
                int(sub["best_count"].sum()),
            ]
        )
    sub = specials.filter(pl.col("variant") == page.base)
    base_rows = [
        [
            r["special"],
            r["name"],
            num(r["payout"], "g"),
            _est_of("best_freq", "best_se", seen="best_count")(r),
            num(r["best_exact"], ".4g"),
            num(r["best_z"], ".2f"),
            _declared(r),
        ]
        for r in sub.iter_rows(named=True)
    ]
    hands = int(sub["n"].max()) if sub.height else 0  # type: ignore[arg-type]
    return [
        "## 6. Special hands: simulated against exact\n",
        "How often a hand's best special is each one, against the exact one-deck probability "
        "(`simkit exact`): the largest |z| per variant (|z| < 3 expected for ~13 specials; "
        "no exact value after a card pass):\n",
        markdown_table(["variant", "specials", "max |z|", "special hands seen"], rows) + "\n",
        f"{page.base}:\n",
        markdown_table(
            ["special", "name", "payout", "best special, per hand", "exact", "z", "declared"],
            base_rows,
        )
        + "\n",
        f"`{NEVER}`: not dealt once in these {hands:,} hands; `z` says whether that is "
        "surprising for a hand this rare.  `0 of k`: none of its k holders declared it, the "
        "strategy finding the cards worth more played normally (§7).\n",
    ]


def _declared(r: dict[str, Any]) -> str:
    """How often a special was declared: :data:`NEVER` if never dealt, ``0 of k`` if dealt k
    times and never declared."""
    if not r["best_count"]:
        return NEVER
    if not r["declared_count"]:
        return f"0 of {r['best_count']}"
    return est(r["declared_freq"], r["declared_se"])


def declare_section(page: Page) -> list[str]:
    dv = page.tables["declare_value"].filter(pl.col("n") > 0)
    rows = [
        [
            r["variant"],
            r["special"],
            r["name"],
            num(r["payout"], "g"),
            r["n"],
            est(r["declared_mean"], r["declared_se"]),
            est(r["played_mean"], r["played_se"]),
            est(r["gain_mean"], r["gain_se"]),
        ]
        for r in dv.iter_rows(named=True)
    ]
    return [
        "## 7. Declaring a special against playing it\n",
        "For hands whose best special is the one shown: the holder's score declaring it, "
        "playing the same cards as a normal hand, and the gain from declaring (same deal, the "
        "other special holders declaring).  A declared score `± 0.000` is the same for every "
        "holder: the payout, collected from each opponent.\n",
        markdown_table(
            ["variant", "special", "name", "payout", "holders", "declared", "played", "gain"],
            rows,
        )
        + "\n",
    ]


def banker_section(page: Page) -> list[str]:
    be = page.tables["banker_edge"]
    if not be.height:
        return ["## 8. The banker's edge\n", "No banker variant in this run.\n"]
    rows = [
        [
            r["variant"],
            r["compare"],
            r["n"],
            est(r["mean"], r["se"]),
            f"[{r['ci_low']:.3f}, {r['ci_high']:.3f}]",
        ]
        for r in be.iter_rows(named=True)
    ]
    return [
        "## 8. The banker's edge\n",
        "Expected score per game of the banker (seat 0) in banker variants; `top-card` is "
        "食夹棍 (only the top card of each dun counts, the banker winning ties).\n",
        markdown_table(["variant", "compare", "deals", "banker mean", "95% CI"], rows) + "\n",
    ]


def payouts_section(page: Page) -> list[str]:
    pay = page.tables["payouts"].filter(pl.col("variant") == page.base)
    rows = [
        [
            r["special"],
            r["name"],
            num(r["payout"], "g"),
            num(r["one_in"], ".4g"),
            num(r["rarity_payout"], ".3g"),
            est(r["normal_play_value"], r["normal_play_value_se"]) if r["holders"] else "–",
            num(r["justified_payout"], ".3g"),
        ]
        for r in pay.iter_rows(named=True)
    ]
    header = [
        "special",
        "name",
        "payout",
        "one in (as best)",
        "rarity payout",
        "normal-play value",
        "justified",
    ]
    return [
        "## 9. Payouts against rarity and normal-play value\n",
        "`one in (as best)` N: one hand of 13 cards in N has this special as its best one "
        "(1/p, p the exact one-deck probability of §6, else the observed frequency); "
        "`simkit exact` prints the same N as `best_one_in`, and as `one_in` the odds of "
        "holding the special at all, a better one included.  `rarity payout`: what the payout "
        "curve of all variants (log payout linear in log 1/p, fitted over every special of "
        "every variant) gives a hand this rare; `normal-play value`: what the hand wins per "
        "opponent when played as a normal hand.\n",
        "`justified`: the payout the hand can claim on both counts, the larger of the two: as "
        "much as the curve pays hands this rare, and no less than the cards win played "
        "normally (below that, declaring costs the holder points).  A payout far above "
        "`justified` pays the hand more than its rarity and its cards are worth.\n",
        f"{page.base}:\n",
        markdown_table(header, rows) + "\n",
        _figure(
            "payouts",
            "Special payouts against 1/probability, one marker per variant, each special "
            "named beside its highest payout; the line is the fitted curve",
        )
        + "\n",
    ]


def distribution_section(page: Page) -> list[str]:
    return [
        "## 10. Score distributions\n",
        "One panel per variant, on shared axes; the frequency scale is logarithmic, so the "
        "rare large scores (special payouts, home runs) read beside the centre.  The sd in "
        "each title is the player sd of §1.\n",
        _figure("score_distribution", "Distribution of a player's score per game") + "\n",
    ]


def dun_categories_section(page: Page) -> list[str]:
    dun = page.tables["dun_categories"].filter(pl.col("variant") == page.base)
    cats = list(dict.fromkeys(dun["category"].to_list()))
    freq = _est_of("freq", "se", seen="count")
    rows = _grid(dun, "category", cats, "position", POSITIONS, freq, NEVER)
    return [
        f"## 11. Dun categories ({page.base}, hands played normally)\n",
        markdown_table(["category", *POSITIONS], rows) + "\n",
        f"`{NEVER}`: not once in these hands: a front of three cards holds no five-card "
        "category, five of a kind needs more than one deck, and some settings the strategy "
        "never chooses.\n",
    ]


def convergence_section(page: Page) -> list[str]:
    return [
        "## 12. Convergence\n",
        _figure("convergence", "Key estimates against the number of games") + "\n",
    ]


def reproduce_section(page: Page) -> list[str]:
    prov = page.provenance
    return [
        "## Reproduce\n",
        "```\n"
        f"simkit report --out results/report --games {prov['n_games']} --seed {prov['seed']}\n"
        "```\n\n"
        "The same seed gives the same tables for any `--jobs`; `--games` scales the run. "
        "Each figure and table can be regenerated alone by the scripts in `experiments/`.\n",
    ]


#: The report page, section by section: each returns its Markdown blocks.
SECTIONS: list[Callable[[Page], list[str]]] = [
    header_section,
    regret_section,
    strategy_matters_section,
    scores_section,
    paired_section,
    components_section,
    events_section,
    t_formula_section,
    specials_section,
    declare_section,
    banker_section,
    phases_section,
    decks_section,
    payouts_section,
    distribution_section,
    dun_categories_section,
    convergence_section,
    reproduce_section,
]


def render_markdown(result: SimulationResult) -> str:
    """The report page: every table with its uncertainty, and the figures (:data:`SECTIONS`)."""
    page = Page(result)
    return "\n".join(block for section in SECTIONS for block in section(page))
