"""The sections that quote studies made apart from the run: the strategy's regret, how much
strategy matters, what the decision phases are worth, what the deck options change.

Each reads its files from the page's study folder (:data:`simkit.report.page.STUDIES_DIR`,
shipped with the package, or the folder given to :func:`simkit.report.write_report`), shows the
rows of the variants the run holds and says plainly what is missing or unreadable.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from simkit.report.format import est, markdown_table, names
from simkit.report.page import Page

REGRET_NAME = "regret.json"
REGRET_COMMAND = (
    "python -m experiments.pipelines.regret --strategy expected-score-rerank --hands 200 "
    "--rollouts 300 300 --seed 0"
)
#: Rows measured on more hands and rollouts beside :data:`REGRET_NAME` (the 4-player rows on
#: issue 11's protocol, ``experiments/pipelines/regret_targets.py``): where a row of the same
#: variant, players and seat is in both, the report shows this one.
REGRET_PRECISE_NAME = "regret-4p-2000-default.json"
MATTERS_NAME = "matters.json"
MATTERS_COMMAND = "python -m experiments.pipelines.strategy_matters --games 20000 --seed 0"


def read_rows(path: Path) -> tuple[dict[str, Any], list[dict[str, Any]]] | str:
    """``(meta, rows)`` of a study's JSON file (``{"meta": {...}, "rows": [...]}``), or why there
    are none: ``"absent"`` for a missing file, else the error."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        return dict(data["meta"]), list(data["rows"])
    except FileNotFoundError:
        return "absent"
    except (OSError, ValueError, KeyError, TypeError) as exc:
        return f"`{path.name}` could not be read ({exc})"


def regret_rows(folder: Path) -> tuple[dict[str, Any], list[dict[str, Any]]] | str:
    """The meta and rows of ``folder/regret.json``, each replaced by its more precise row of
    :data:`REGRET_PRECISE_NAME` where there is one (the same strategy's), or why there are
    none."""
    read = read_rows(folder / REGRET_NAME)
    if read == "absent":
        return f"no `{REGRET_NAME}` in the study folder"
    if isinstance(read, str):
        return read
    meta, rows = read
    precise = folder / REGRET_PRECISE_NAME
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


def regret_by_variant(page: Page) -> tuple[int, dict[str, list[dict[str, Any]]]] | str:
    """The regret rows of the page's variants at the page's player count (4 where the count
    was not measured), by variant; or why there are none."""
    read = regret_rows(page.studies)
    if isinstance(read, str):
        return read
    _, rows = read
    measured = {str(r["players"]) for r in rows}
    players = page.provenance["n_players"]
    players = players if str(players) in measured else 4
    by_variant: dict[str, list[dict[str, Any]]] = {}
    for r in rows:
        if r["players"] == players and r["variant"] in page.names:
            by_variant.setdefault(r["variant"], []).append(r)
    return players, by_variant


def _edge_against_regret(page: Page, by_variant: dict[str, list[dict[str, Any]]]) -> str:
    """Each banker's edge on this page beside what the strategy gives away as the banker."""
    edges = page.table("banker_edge")
    said = []
    for r in edges.iter_rows(named=True):
        banker = [row for row in by_variant.get(r["variant"], []) if row["seat"] == "banker"]
        if banker and banker[0]["regret"] > 0:
            said.append(
                f"{r['variant']} {est(r['mean'], r['se'])} against {banker[0]['regret']:.3f}"
            )
    if not said:
        return ""
    return "  The banker's edge beside the banker's regret: " + "; ".join(said) + "."


def regret_section(page: Page) -> list[str]:
    """What the strategy that set the hands gives away per hand, and what that means here."""
    heading = "## How much the strategy gives away\n"
    strategy = page.provenance["strategy"]
    read = regret_rows(page.studies)
    if isinstance(read, str):
        return [
            heading,
            f"Every figure below is a property of the game as `{strategy}` plays it; its regret "
            f"(the points per hand it gives away against the best setting of the same cards, "
            f"by rollouts under each variant's full rules) is not shown: {read}.  Measure it "
            f"in the repository with `{REGRET_COMMAND}` (about 15 minutes on 2 cores), or one "
            "variant with `simkit regret --variant NAME --players 4 --seat banker|player`.\n",
        ]
    meta, rows = read
    by = regret_by_variant(page)
    assert not isinstance(by, str)
    players, by_variant = by
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
    if not table:
        return [
            heading,
            f"The regret of `{meta['strategy']}` (the points per hand it gives away against the "
            f"best setting of the same cards) was not measured for {names(page.names)}; "
            f"measure it with `simkit regret --variant {page.names[0]} --players "
            f"{page.provenance['n_players']}`.\n",
        ]
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
    if relabelled and any("measured_as" in r for rs in by_variant.values() for r in rs):
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
    sel, ev = meta["rollouts"]
    lines.append(
        "So an expected score, an edge or a rule's worth on this page is that of the "
        "game as played by a strategy that gives away that much per hand: a figure of the "
        "same size as the regret (a seat's edge, a paired difference) could move under "
        "better play."
        + _edge_against_regret(page, by_variant)
        + (f"  Not measured: {names(unmeasured)}." if unmeasured else "")
        + (
            f"  This page plays {page.provenance['n_players']} players, a count the regret "
            f"was not measured at; the rows are those of {players}."
            if players != page.provenance["n_players"]
            else ""
        )
        + f"  Reproduce with `{REGRET_COMMAND}`"
        + (
            f" (rows on {sel} + {ev} rollouts); the others: "
            f"`results/strategy/{REGRET_PRECISE_NAME.replace('.json', '.md')}`.\n"
            if any(_regret_protocol(r, meta) != _regret_protocol({}, meta) for r in rows)
            else ".\n"
        )
    )
    return lines


def _versus(r: dict[str, Any]) -> str:
    """A strategy's paired difference from the default with its 95% CI, or ``same splits``
    where it set every hand as the default did (a difference of exactly 0)."""
    if r["diff"] == 0 and r["diff_se"] == 0:
        return "same splits"
    return f"{r['diff']:+.3f} ({r['diff_ci_low']:+.3f} to {r['diff_ci_high']:+.3f})"


def strategy_matters_section(page: Page, path: Path | None = None) -> list[str]:
    """What setting the hands well is worth: the default strategy against weaker ones on the
    same deals (``experiments/pipelines/strategy_matters.py``; ``path`` defaults to the study
    folder's :data:`MATTERS_NAME`).  One row per variant and seat, one column per strategy: no row
    compares the default with itself."""
    heading = "## How much strategy matters\n"
    path = page.studies / MATTERS_NAME if path is None else path
    read = read_rows(path)
    if read == "absent":
        return [
            heading,
            "How much the strategy that sets the hands matters (the default against `greedy` "
            f"and `random-legal`, paired on the same deals) is not shown: no `{path.name}` in "
            f"the study folder.  Measure it in the repository with `{MATTERS_COMMAND}` (a few "
            "minutes on 2 cores).\n",
        ]
    if isinstance(read, str):
        return [heading, read + ".\n"]
    meta, rows = read
    default = meta["default"]
    shown = [r for r in rows if r["variant"] in page.names]
    others = list(dict.fromkeys(r["strategy"] for r in shown if r["strategy"] != default))
    seats = list(
        dict.fromkeys(
            (r["variant"], r["seat"]) for name in page.names for r in shown if r["variant"] == name
        )
    )
    cell = {(r["variant"], r["seat"], r["strategy"]): r for r in shown}
    unmeasured = [name for name in page.names if not any(r["variant"] == name for r in rows)]
    if not seats:
        return [
            heading,
            f"How much strategy matters was not measured for {names(page.names)} "
            f"(`{MATTERS_COMMAND}` measures the shipped variants).\n",
        ]

    def line(key: tuple[str, str], value: Any, strategies: list[str]) -> list[str]:
        variant, seat = key
        return [variant, "" if seat == "any" else seat] + [
            value(cell[(variant, seat, s)]) if (variant, seat, s) in cell else "–"
            for s in strategies
        ]

    versus = [line(k, _versus, others) for k in seats]
    spread = [line(k, _sd, [default, *others]) for k in seats]
    strategies = [f"`{s}`" for s in others]
    return [
        heading,
        f"What setting the hands well is worth.  On {meta['games']:,} deals of "
        f"{meta['players']} players per variant, every strategy sets the *same* hands.  One "
        f"seat plays the strategy named, the others `{default}` (the default); each cell is "
        "that seat's expected score per game minus the default's in the same seat on the same "
        "deals (paired), with its 95% CI; `same splits`: the strategy set every hand as the "
        "default did.  In all-pairs variants every seat takes the strategy in turn (averaged "
        "per deal); in banker variants the banker (seat 0) and a player are separate rows.\n",
        markdown_table(["variant", "seat", *strategies], versus) + "\n",
        "The game's volatility as each strategy plays it: the SD of a seat's score per game "
        "when every seat plays the strategy, ± its SE (the deal as the unit).\n",
        markdown_table(["variant", "seat", f"`{default}`", *strategies], spread) + "\n",
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
        + (f"Not measured: {names(unmeasured)}.  " if unmeasured else "")
        + "Each row's seat SD with the others at the default, and every row: "
        f"`results/strategy/{path.with_suffix('.md').name}` in the repository; reproduce with "
        f"`python {meta['command']}`.\n",
    ]


def _sd(r: dict[str, Any]) -> str:
    return f"{r['table_sd']:.2f} ± {r['table_sd_se']:.2f}"
