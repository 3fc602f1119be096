"""The first screen of the report: what the run found, each finding with its figure.

Four findings, each drawn from a table of the run or a study of the page, and each left out
where the page holds nothing for it: which variant is most volatile, the banker's edges, what
each rule and phase is worth, how much the skill of the play matters.
"""

from __future__ import annotations

from typing import Any

import polars as pl

from simkit.plots import drawable
from simkit.report.format import est, figure
from simkit.report.page import Page
from simkit.report.phases import phase_rows
from simkit.report.studies import MATTERS_NAME, read_rows, regret_by_variant


def volatility_finding(page: Page) -> list[str]:
    """The most and the least volatile variant (a player's SD per game)."""
    pooled = page.table("scores").filter(pl.col("seat") == "all").sort("sd", descending=True)
    top = pooled.row(0, named=True)
    if page.compares:
        low = pooled.row(-1, named=True)
        said = (
            f"**{top['variant']} is the most volatile variant**: a player's score per game has "
            f"an SD of {top['sd']:.2f} ± {top['sd_se']:.2f} points, "
            f"{top['sd'] / low['sd']:.1f}× that of {low['variant']} ({low['sd']:.2f} ± "
            f"{low['sd_se']:.2f}), the calmest (the SD ratios to {page.base} with their CIs "
            "in the detail)."
        )
    else:
        said = (
            f"**How volatile {top['variant']} is**: a player's score per game has an SD of "
            f"{est(top['sd'], top['sd_se'])} points."
        )
    return [f"- {said}\n", figure("score_distribution", "A player's score per game") + "\n"]


def banker_finding(page: Page) -> list[str]:
    """Each banker variant's edge, with and without 食夹棍."""
    edges = page.table("banker_edge")
    if not edges.height:
        return []
    said = [
        f"{r['variant']} {r['mean']:+.3f} ({r['ci_low']:+.3f} to {r['ci_high']:+.3f})"
        for r in edges.iter_rows(named=True)
    ]
    return [
        "- **The banker's edge** per game (seat 0, 95% CI; `+top-card`: with 食夹棍, the "
        f"banker winning ties on the top card): {'; '.join(said)}.\n",
        figure("scores", "Expected score of seat 0 (the banker where there is one)") + "\n",
    ]


def _top_components(page: Page) -> list[str]:
    """Per rule component other than the duns, its largest share of a player's variance and
    the variant it has it in."""
    comps = page.table("components").filter(
        (pl.col("mean_abs") > 0) & (pl.col("component") != "duns")
    )
    said = []
    for (component,), sub in comps.group_by("component", maintain_order=True):
        r = sub.sort(pl.col("var_share").abs(), descending=True).row(0, named=True)
        where = f" ({r['variant']})" if page.compares else ""
        said.append(f"`{component}` {r['var_share']:.0%}{where}")
    return said


def _phase_worth(page: Page) -> list[str]:
    """Per phase measured in the page's variants, its largest worth to a seat."""
    rows, _ = phase_rows(page.studies / "phases")
    best: dict[str, dict[str, Any]] = {}
    for r in rows:
        if r["variant"] in page.names and (r["diff"] or r["se"]):
            if r["phase"] not in best or abs(r["diff"]) > abs(best[r["phase"]]["diff"]):
                best[r["phase"]] = r
    largest = sorted(best.items(), key=lambda item: -abs(item[1]["diff"]))[:3]
    return [
        f"{phase} {r['diff']:+.2f} ({r['ci_low']:+.2f} to {r['ci_high']:+.2f}) to the "
        f"{r['seat']} in {r['variant']} at {r['players']} players"
        for phase, r in largest
    ]


def rules_finding(page: Page) -> list[str]:
    """What the rules carry of a player's variance, and what the decision phases are worth."""
    if "components" not in drawable(page.tables):
        return []
    shares = _top_components(page)
    phases = _phase_worth(page)
    lines = [
        "- **What each rule is worth**: the largest share of a player's variance that each "
        "rule beside the dun comparisons carries"
        + (" (and in which variant)" if page.compares else "")
        + ", a negative share damping the swings: "
        + ("; ".join(shares) if shares else "none")
        + "."
        + (
            "  The decision phases worth most to a seat, paired on the same deals (points per "
            "game, 95% CI): " + "; ".join(phases) + "."
            if phases
            else ""
        )
        + "\n",
        figure("components", "Score and variance by rule component") + "\n",
    ]
    return lines


def strategy_costs(page: Page) -> tuple[str, pl.DataFrame] | None:
    """The default strategy of the study folder's ``matters.json`` and its rows of the page's
    variants for the other strategies (``variant, seat, strategy, diff, diff_ci_low,
    diff_ci_high``), or ``None`` where there are none."""
    read = read_rows(page.studies / MATTERS_NAME)
    if isinstance(read, str):
        return None
    meta, rows = read
    keys = ("variant", "seat", "strategy", "diff", "diff_ci_low", "diff_ci_high")
    shown = [
        {k: r[k] for k in keys}
        for r in rows
        if r["variant"] in page.names
        and r["strategy"] != meta["default"]
        and (r["diff"] or r["diff_se"])  # not a strategy that set every hand as the default
    ]
    return (str(meta["default"]), pl.DataFrame(shown)) if shown else None


def _points(x: float) -> str:
    """Points to two decimals, a loss too small to show read as 0.00 (never -0.00)."""
    return f"{x:.2f}" if round(x, 2) != 0 else "0.00"


def skill_finding(page: Page) -> list[str]:
    """What a weaker strategy costs a seat, and what the default gives away."""
    costs = strategy_costs(page)
    said = []
    if costs is not None:
        default, frame = costs
        by: dict[str, list[float]] = {}
        for r in frame.iter_rows(named=True):
            by.setdefault(r["strategy"], []).append(-r["diff"])
        said = [
            f"`{s}` {_points(min(v))} to {_points(max(v))}"
            if len(v) > 1
            else f"`{s}` {_points(v[0])}"
            for s, v in by.items()
        ]
    regret = regret_by_variant(page)
    given = (
        [r["regret"] for rs in regret[1].values() for r in rs]
        if not isinstance(regret, str)
        else []
    )
    if not said and not given:
        return []
    text = "- **How much skill matters**: "
    if said:
        text += (
            f"a seat that plays another strategy than the default `{default}` loses, "
            "per game, "
            + "; ".join(said)
            + " points (paired"
            + (", the range over the variants and seats)." if page.compares else ").")
        )
    if given:
        spread = f"{min(given):.3f}" + (
            f" to {max(given):.3f}" if f"{min(given):.3f}" != f"{max(given):.3f}" else ""
        )
        text += (
            f"  The hands here are set by a strategy that gives away {spread} points a hand "
            "against the best setting of the same cards (regret)."
        )
    return [text + "\n"] + (
        [figure("strategy", "What a weaker strategy costs a seat") + "\n"] if said else []
    )


def findings_section(page: Page) -> list[str]:
    """The first screen: the findings, each with its figure, before the detail."""
    blocks = [
        *volatility_finding(page),
        *banker_finding(page),
        *rules_finding(page),
        *skill_finding(page),
    ]
    return ["## Findings\n", *blocks, "The detail, table by table, follows.\n"]
