"""The sections quoting what a rule is worth with the play re-derived
(``experiments/pipelines/rule_worth.py``) and skill against luck
(``experiments/pipelines/skill.py``).

Each reads its file from the page's study folder (``rules/worth.json``, ``skill.json``), shows
the rows of the variants the run holds and says plainly what is missing or unreadable.
"""

from __future__ import annotations

import json
import math
from typing import Any

from simkit.report.format import figure, markdown_table, names
from simkit.report.page import Page
from simkit.report.studies import read_rows

WORTH_NAME = "rules/worth.json"
WORTH_COMMAND = "python -m experiments.pipelines.rule_worth --games 1000 --seed 0"
SKILL_NAME = "skill.json"
SKILL_COMMAND = "python -m experiments.pipelines.skill --games 2000 --deals 100 --seed 0"


def _ci(r: dict[str, Any], key: str, digits: int = 3) -> str:
    """``+x.xxx (+a to +b)``: a row's estimate ``key`` with its 95% CI."""
    return (
        f"{r[key]:+.{digits}f} ({r[key + '_ci_low']:+.{digits}f} to "
        f"{r[key + '_ci_high']:+.{digits}f})"
    )


def rule_worth_section(page: Page) -> list[str]:
    """Each rule switched off with the strategy re-derived: the change of each role's edge, SD
    and skill edge beside the fixed-play change and the component's variance share."""
    heading = "## What each rule is worth with the play re-derived\n"
    read = read_rows(page.studies / WORTH_NAME)
    if read == "absent":
        return [
            heading,
            "What each rule is worth once the strategy is re-derived for the rules left is not "
            f"shown: no `{WORTH_NAME}` in the study folder.  Measure it in the repository with "
            f"`{WORTH_COMMAND}`.\n",
        ]
    if isinstance(read, str):
        return [heading, read + ".\n"]
    meta, rows = read
    shown = [r for name in page.names for r in rows if r["variant"] == name]
    if not shown:
        return [
            heading,
            f"What each rule is worth with the play re-derived was not measured for "
            f"{names(page.names)} (none of this page's variants); measure one with "
            f"`python -m experiments.pipelines.rule_worth --variants {page.names[0]}`.\n",
        ]
    # a rule whose off and on games are identical (a special that came up neither in these
    # deals nor in the tables' training) compares a game with itself: counted, not shown
    same = [r for r in shown if all(_nil(r, k) for k in CHANGES)]
    shown = [r for r in shown if r not in same]
    table = [
        [
            r["variant"],
            f"`{r['rule']}`" + (" †" if r.get("declared") == 0 else ""),
            "" if r["role"] == "any" else r["role"],
            "–" if r["role"] == "any" else _ci(r, "edge_change"),
            "–"
            if r["role"] == "any" or _nil(r, "fixed_edge_change")
            else _ci(r, "fixed_edge_change"),
            _ci(r, "sd_change", 2),
            _ci(r, "skill_change"),
            f"{r['component_var_share']:.1%} ({r['component']})",
        ]
        for r in shown
    ]
    return [
        heading,
        f"Each rule switched off in turn, the default `{meta['default']}` re-derived for the "
        "rules left (win tables found or built by the rules' key), the same "
        f"{meta['games']:,} deals of {meta['players']} players played again"
        + (
            ", the variant itself on tables built for its rules by the same procedure, so that "
            "a row measures the rule alone.  "
            if meta.get("baseline") == "built"
            else ".  "
        )
        + "Each cell is "
        "off minus on per game, paired, with its 95% CI: the role's **edge**, the edge with "
        "today's settings kept and re-scored (**fixed play**), the **SD** of a seat's score, "
        f"and the **skill** edge (the default's gain over `{meta['weaker']}` in one seat).  "
        "**share**: the rule's component's share of the variance with the rule on, as in "
        "the components section.  All-pairs rows (no role) show no edge: a seat's is 0 by "
        "symmetry.\n",
        markdown_table(
            ["variant", "rule off", "role", "edge", "fixed play", "SD", "skill", "share"], table
        )
        + "\n",
        "Where the edge and the fixed-play edge differ, the play adapts to the rule: the "
        "fixed-play figure is what a re-scoring of today's games says.  "
        + (
            "Rows marked † switch off a special no hand of these deals declared: they change "
            "nothing in the game and measure only how the tables built for the two rule sets "
            "differ, the noise every row carries.  "
            if any(r.get("declared") == 0 for r in shown)
            else ""
        )
        + (
            f"{len({(r['variant'], r['rule']) for r in same})} rules whose games came out "
            "identical with and without them (specials that came up neither here nor in the "
            "tables' training) are left out.  "
            if same
            else ""
        )
        + "Every row: "
        "`results/rules/worth.md` in the repository; reproduce with "
        + "; ".join(f"`python {c}`" for c in meta.get("commands", [meta["command"]]))
        + ".\n",
    ]


#: The changes a rule-worth row measures, each with its CI.
CHANGES = ("edge_change", "fixed_edge_change", "sd_change", "skill_change")


def _nil(row: dict[str, Any], key: str) -> bool:
    """Whether ``row``'s ``key`` is exactly 0 with an interval of no width (the same games)."""
    return row[key] == 0 and row[f"{key}_ci_low"] == 0 and row[f"{key}_ci_high"] == 0


def _n(x: float | None) -> str:
    return "∞" if x is None or not math.isfinite(x) else f"{x:,.0f}"


def skill_read(
    page: Page,
) -> tuple[dict[str, Any], list[dict[str, Any]], list[dict[str, Any]]] | str:
    """``(meta, duels, bounds)`` of the study folder's :data:`SKILL_NAME` for the page's
    variants, or why there are none."""
    read = read_rows(page.studies / SKILL_NAME)
    if read == "absent":
        return f"no `{SKILL_NAME}` in the study folder"
    if isinstance(read, str):
        return read
    meta, rows = read
    try:
        bounds = list(json.loads((page.studies / SKILL_NAME).read_text("utf-8"))["bounds"])
    except (OSError, ValueError, KeyError, TypeError) as exc:
        return f"`{SKILL_NAME}` could not be read ({exc})"
    duels = [r for name in page.names for r in rows if r["variant"] == name]
    bounds = [r for name in page.names for r in bounds if r["variant"] == name]
    if not duels and not bounds:
        return f"skill against luck was not measured for {names(page.names)}"
    return meta, duels, bounds


def skill_section(page: Page) -> list[str]:
    """The games until the better strategy is ahead, and the perfect-information bound."""
    heading = "## Skill against luck\n"
    read = skill_read(page)
    if isinstance(read, str):
        return [
            heading,
            f"How many games it takes for the better strategy to be ahead is not shown: {read}.  "
            f"Measure it in the repository with `{SKILL_COMMAND}`.\n",
        ]
    meta, duels, bounds = read
    default = meta["default"]
    duel_rows = [
        [
            r["variant"],
            f"`{r['a']}` vs `{r['b']}`",
            "same settings" if r["edge"] == 0 and r["edge_se"] == 0 else _ci(r, "edge"),
            f"{r['sd']:.2f}",
            f"{_n(r['n_lead'])} ({_n(r['n_lead_ci_low'])} to {_n(r['n_lead_ci_high'])})",
        ]
        for r in duels
        if default in (r["a"], r["b"])
    ]
    bound_rows = [
        [
            r["variant"],
            "" if r["seat"] == "any" else r["seat"],
            f"{r['bound']:.3f} ({r['bound_ci_low']:.3f} to {r['bound_ci_high']:.3f})",
            f"{r['share_better']:.0%}",
        ]
        for r in bounds
    ]
    return [
        heading,
        "How long luck hides skill.  Two strategies at one table (players 1 and 2 under a "
        "banker, else seats 0 and 1; the others the default), every deal played twice with "
        f"the two swapping seats, on {meta['games']:,} deals of {meta['players']} players.  "
        "**edge**: the first one's score minus the second's per game (paired, 95% CI); "
        "**SD**: of one game's difference; **games to lead**: N = (1.645 SD / edge)², the "
        "games until the better one is ahead with 95% probability (CI from the edge's and "
        f"the SD's).  The default `{default}` against each other strategy; every pair in "
        "`results/strategy/skill.md`.\n",
        markdown_table(["variant", "duel", "edge", "SD", "games to lead"], duel_rows) + "\n",
        "What play can gain at most: on the first "
        f"{meta['deals']:,} deals one seat sees the other seats' set hands and takes its best "
        "legal setting against them (every legal split and its best special's declaration, "
        "scored exhaustively).  The bound is that best minus the default's own score in the "
        "seat, per game (95% CI): no play that sees only its own cards gains more over the "
        "default; `best differs`: the share of deals where some setting scores more.\n",
        markdown_table(["variant", "seat", "bound (points per game)", "best differs"], bound_rows)
        + "\n",
        figure("skill", "Skill against luck: games to lead and the perfect-information bound")
        + "\n",
        f"Reproduce with `python {_for_page(meta['command'], duels, bounds)}` (each variant's rows "
        "are the same whichever others the command measures: the deals and the streams depend "
        "on the seed and the number of games only).\n",
    ]


def _for_page(command: str, duels: list[dict[str, Any]], bounds: list[dict[str, Any]]) -> str:
    """``command`` with its ``--variants`` list cut to the variants shown."""
    shown = list(dict.fromkeys(r["variant"] for r in [*duels, *bounds]))
    head, sep, tail = command.partition(" --variants ")
    if not sep:
        return f"{command} --variants {' '.join(shown)}"
    rest = tail.split(" --", 1)
    return f"{head} --variants {' '.join(shown)}" + (f" --{rest[1]}" if len(rest) > 1 else "")
