"""The variants of a report and the command line that reproduces a report's run."""

from __future__ import annotations

import shlex
from typing import Any

from simkit.report.page import Page
from simkit.simulate import DEFAULT_STRATEGY
from simkit.variants import Variant, has_banker, resolve_variants, variant_names, with_compare

TOP_CARD = "top-card"
#: The players of a table unless a command says otherwise.
DEFAULT_PLAYERS = 4


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


def _sources(variants: list[dict[str, Any]]) -> tuple[list[dict[str, Any]], bool]:
    """The variants a command line names (every one but the 食夹棍 twins), and whether the run
    holds exactly what ``simkit report`` plays for them (each banker variant, then its twin)."""
    sources: list[dict[str, Any]] = []
    actual: list[str] = []
    for v in variants:
        twin = any(v["name"] in (f"{s['name']}+{TOP_CARD}", f"{s['name']}+full") for s in sources)
        if not twin:
            sources.append(v)
        actual.append("twin" if twin else v["name"])
    expected: list[str] = []
    for s in sources:
        expected += [s["name"], "twin"] if s["banker"] else [s["name"]]
    return sources, expected == actual


def reproduce_command(provenance: dict[str, Any], out: str = "results/report") -> list[str]:
    """The shell lines that play the run of ``provenance`` again and write its report into
    ``out``: ``simkit report`` where the run is what it plays, else ``simkit simulate`` of
    the same variants then ``simkit report --from``."""
    sources, is_report = _sources(list(provenance["variants"]))
    shipped = set(variant_names())
    given = [s["name"] if s["name"] in shipped else s.get("path", s["name"]) for s in sources]
    options = [f"--games {provenance['n_games']}", f"--seed {provenance['seed']}"]
    if provenance["n_players"] != DEFAULT_PLAYERS:
        options.append(f"--players {provenance['n_players']}")
    if provenance["strategy"] != DEFAULT_STRATEGY:
        options.append(f"--strategy {shlex.quote(provenance['strategy'])}")
    variant = f"--variant {shlex.quote(','.join(given))}"
    if is_report:
        every = given == list(variant_names())
        return [
            " ".join(["simkit report", *([] if every else [variant]), *options, f"--out {out}"])
        ]
    tables = f"{out}-tables"
    return [
        " ".join(["simkit simulate", variant, *options, f"--out {tables}"]),
        f"simkit report --from {tables} --out {out}",
    ]


def reproduce_section(page: Page) -> list[str]:
    """The commands that reproduce the page's run (:func:`reproduce_command` of its
    provenance) as a Markdown section, with the note that ``--jobs`` changes no number."""
    lines = reproduce_command(page.provenance)
    return [
        "## Reproduce\n",
        "```\n" + "\n".join(lines) + "\n```\n\n"
        "The same seed gives the same tables for any `--jobs`; `--games` scales the run.\n",
    ]
