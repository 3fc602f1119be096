"""The rule-balance report: one simulation of every variant → tables, figures and a README.

:func:`build_report` runs :func:`simkit.simulate.simulate` on every shipped variant (plus, for
each banker variant, the same rules with the other 食夹棍 setting, so the banker's edge can be
read with and without it), saves the tables as parquet under ``tables/``, draws the figures
under ``figures/`` and writes ``README.md``, the page a reader opens first: its findings, then
the detail.  :func:`write_report` does the last two steps from saved tables (no simulation).

The page quotes studies made apart from the run (regret, how much strategy matters, the
phases, the decks) from package data, ``simkit/data/studies`` (their provenance in its
``README.md``), or from the folder given as ``studies``; it reads no other file.

Modules, one job each: :mod:`~simkit.report.format` (cells and tables),
:mod:`~simkit.report.page` (what a section reads), :mod:`~simkit.report.sections` (the run's
tables), :mod:`~simkit.report.studies`, :mod:`~simkit.report.phases`,
:mod:`~simkit.report.decks` and :mod:`~simkit.report.skill` (the studies),
:mod:`~simkit.report.findings` (the first screen),
:mod:`~simkit.report.command` (the variants and the command that reproduces a run) and
:mod:`~simkit.report.writer` (the page and the files).
"""

from simkit.report.command import report_variants, reproduce_command
from simkit.report.decks import DECKS_EXACT_COMMAND, DECKS_VOLATILITY_COMMAND, decks_section
from simkit.report.format import NEVER, est, grid, markdown_table, num
from simkit.report.page import STUDIES_DIR, Page
from simkit.report.phases import phases_lines, phases_section
from simkit.report.skill import rule_worth_section, skill_section
from simkit.report.studies import REGRET_PRECISE_NAME, regret_section, strategy_matters_section
from simkit.report.writer import (
    DEFAULT_GAMES,
    DEFAULT_SEED,
    SECTIONS,
    build_report,
    render_markdown,
    write_report,
)
from simkit.variants import with_compare

__all__ = [
    "DECKS_EXACT_COMMAND",
    "DECKS_VOLATILITY_COMMAND",
    "DEFAULT_GAMES",
    "DEFAULT_SEED",
    "NEVER",
    "REGRET_PRECISE_NAME",
    "SECTIONS",
    "STUDIES_DIR",
    "Page",
    "build_report",
    "decks_section",
    "est",
    "grid",
    "markdown_table",
    "num",
    "phases_lines",
    "phases_section",
    "regret_section",
    "render_markdown",
    "report_variants",
    "reproduce_command",
    "rule_worth_section",
    "skill_section",
    "strategy_matters_section",
    "with_compare",
    "write_report",
]
