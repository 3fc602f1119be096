"""The section "What the phases are worth": the decision phases priced on paired deals.

Rows come from the study folder's ``phases/*.json``
(``experiments/pipelines/phase_value_*.py``), one per phase, variant, player count and seat;
the section shows one line per phase, variant and player count with a column per seat, and
leaves out (naming them) the phases that changed nothing in any seat: a row that compares the
game with itself.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from simkit.report.format import markdown_table, names
from simkit.report.page import Page

#: The keys of a row of ``phases/*.json``; a row may carry more (shown as details).
PHASE_ROW_KEYS = (
    "phase",
    "variant",
    "players",
    "seat",
    "games",
    "with",
    "without",
    "diff",
    "se",
    "ci_low",
    "ci_high",
    "seed",
    "command",
)
#: Extra keys shown in their own columns or left out: the SDs, how often the phase is used,
#: and the cost and timing its phase name already says.
_OWN_COLUMNS = {"sd_with", "sd_without", "rate", "cost", "when"}
#: How a detail key reads in the table.
_DETAIL_WORDS = {
    "bid": "fair bid",
    "fair_bid": "fair bid",
    "mean_amount": "mean amount settled",
    "best_threshold": "best threshold",
    "gain_at_best": "gain at the best threshold",
    "gain_at_rule": "gain at the rule's threshold",
}
SEAT_ORDER = ("banker", "player", "all")


def phase_rows(folder: Path) -> tuple[list[dict[str, Any]], list[str]]:
    """The rows of every ``folder/*.json`` (a list of rows, or ``{"rows": [...]}``) and what
    could not be read; each row gains ``file`` (the file's name)."""
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


def _details(rows: list[dict[str, Any]]) -> str:
    """The keys of a group's rows beyond the schema and :data:`_OWN_COLUMNS`, in words (the
    same value in every seat said once)."""
    said: dict[str, str] = {}
    for row in rows:
        for key, value in row.items():
            if key in PHASE_ROW_KEYS or key in _OWN_COLUMNS or key == "file" or value is None:
                continue
            text = f"{value:.3g}" if isinstance(value, float) else str(value)
            said.setdefault(f"{_DETAIL_WORDS.get(key, key.replace('_', ' '))} {text}", "")
    return "; ".join(said)


def _worth(row: dict[str, Any] | None) -> str:
    if row is None:
        return "–"
    return f"{row['diff']:+.3f} ({row['ci_low']:+.3f} to {row['ci_high']:+.3f})"


def _sd(row: dict[str, Any] | None) -> str:
    if row is None or "sd_with" not in row or "sd_without" not in row:
        return ""
    return f"{row['sd_without']:.3g} → {row['sd_with']:.3g}"


def phases_lines(folder: Path, variants: list[str] | None = None) -> list[str]:
    """The section "What the phases are worth" from the measurements in ``folder``, the rows
    of ``variants`` only (every row for ``None``)."""
    heading = "## What the phases are worth\n"
    rows, problems = phase_rows(folder) if folder.is_dir() else ([], [])
    if variants is not None:
        rows = [r for r in rows if r["variant"] in variants]
    if not rows:
        if variants is not None and not problems:
            return []  # no phase of this page's variants was measured
        why = "; ".join(problems) or f"no measurement in `{folder.name}/`"
        return [
            heading,
            "The decision phases of the variant files (passing and 换牌 before the hands are "
            "set; 抢庄, 谈判 and 抛牌 around the comparison) are priced by the scripts "
            f"`experiments/pipelines/phase_value_*.py` into `results/phases/*.json`: {why}.\n",
        ]
    groups: dict[tuple[Any, ...], list[dict[str, Any]]] = {}
    for r in rows:
        groups.setdefault((r["phase"], r["variant"], r["players"]), []).append(r)
    seats = [s for s in SEAT_ORDER if any(r["seat"] == s for r in rows)]
    seats += sorted({r["seat"] for r in rows} - set(seats))
    table, idle = [], []
    for (phase, variant, players), group in groups.items():
        by_seat = {r["seat"]: r for r in group}
        if all(r["diff"] == 0 and r["se"] == 0 for r in group):
            idle.append(f"{phase} ({variant}, {players} players)")
            continue
        rates = {f"{r['rate']:.1%}" for r in group if isinstance(r.get("rate"), float)}
        table.append(
            [phase, variant, players, f"{max(r['games'] for r in group):,}"]
            + [_worth(by_seat.get(s)) for s in seats]
            + [", ".join(sorted(rates)), _sd(by_seat.get(seats[0])), _details(group)]
        )
    header = ["phase", "variant", "players", "games"]
    header += [f"{s}: worth (95% CI)" for s in seats]
    header += ["how often used", f"{seats[0]} SD without → with", "details"]
    commands = sorted({f"`{r['command']}` (`{r['file']}`)" for r in rows})
    lines = [
        heading,
        "Each phase measured on the same deals with and without it (paired; the other phases "
        "as the row says): its worth to a seat is the seat's mean score per game with the "
        "phase minus without it, in points, with its 95% CI; `player` is the mean of the "
        "seats other than the banker (seat 0).  `how often used`: the share of deals in which "
        "the phase changed hands or settled the game; the SD column is that of the seat's "
        "score per game.\n",
        markdown_table(header, table) + "\n",
        "Rows from " + names(commands) + " in `results/phases/` of the repository.\n",
    ]
    if idle:
        lines.append(
            "Left out, as they changed no score in any seat (never used, or a fair bid equal "
            f"to the rule's): {names(idle)}.\n"
        )
    if problems:
        lines.append("Not shown: " + "; ".join(problems) + ".\n")
    return lines


def phases_section(page: Page) -> list[str]:
    """What the decision phases of the page's variants are worth to each seat (the study
    folder's ``phases/``); nothing where none of its variants was measured."""
    return phases_lines(page.studies / "phases", page.names)
