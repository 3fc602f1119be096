"""The report from a run: simulate, save the tables, draw the figures, write ``README.md``."""

from __future__ import annotations

import re
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

from simkit.files import atomic_write, check_output_dir
from simkit.par import par_tables
from simkit.plots import all_figures, plot_skill, plot_strategy_costs, save_figure
from simkit.report.command import report_variants, reproduce_section
from simkit.report.decks import decks_section
from simkit.report.findings import findings_section, strategy_costs
from simkit.report.page import STUDIES_DIR, Page
from simkit.report.par_sheets import par_figures, par_section
from simkit.report.phases import phases_section
from simkit.report.sections import (
    banker_section,
    components_section,
    convergence_section,
    declare_section,
    distribution_section,
    dun_categories_section,
    events_section,
    header_section,
    paired_section,
    payouts_section,
    scores_section,
    specials_section,
    t_formula_section,
    variants_section,
)
from simkit.report.skill import rule_worth_section, skill_read, skill_section
from simkit.report.studies import regret_section, strategy_matters_section
from simkit.simulate import DEFAULT_STRATEGY, SimulationResult, load_result, simulate
from simkit.variants import variant_names

#: Deals of ``simkit report`` by default (each played under every variant): a few minutes on
#: 2 cores, numba compilation included.
DEFAULT_GAMES = 200_000
DEFAULT_SEED = 20_260_101

#: The report page, section by section: each returns its Markdown blocks (none where the run
#: holds nothing for it).  The findings come first, then the detail.
SECTIONS: list[Callable[[Page], list[str]]] = [
    header_section,
    findings_section,
    variants_section,
    scores_section,
    paired_section,
    components_section,
    events_section,
    t_formula_section,
    specials_section,
    declare_section,
    banker_section,
    par_section,
    phases_section,
    decks_section,
    rule_worth_section,
    payouts_section,
    distribution_section,
    dun_categories_section,
    regret_section,
    strategy_matters_section,
    skill_section,
    convergence_section,
    reproduce_section,
]
#: Where :func:`build_report` keeps the run's games for the par sheets (removed afterwards).
KEPT_DIR = ".kept"
#: Headings left unnumbered: the first screen, the list of variants and the command.
UNNUMBERED = ("## Findings", "## The variants", "## Reproduce")


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
    studies: str | Path | None = None,
) -> Path:
    """Simulate, then write ``out/tables/*.parquet``, ``out/figures/*`` and ``out/README.md``;
    returns the README's path.  The run keeps its games in ``out/.kept`` while the shipped
    variants' par sheets are computed from them (:func:`simkit.par.par_tables`, saved as tables
    with the run's), then removes them.  ``studies``: the folder of study files the page quotes
    (default :data:`~simkit.report.page.STUDIES_DIR`).  Raises what :func:`simulate` raises,
    and ``FileExistsError`` for an ``out`` that is a file, before any work."""
    out = Path(out)
    check_output_dir(out)
    chosen, tables = report_variants(variants)
    kept = out / KEPT_DIR
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
        keep_games=kept,
    )
    shipped = [name for name in result.variant_names if name in variant_names()]
    result.tables.update(par_tables(kept, shipped, seed=seed))
    shutil.rmtree(kept)
    result.save(out / "tables")
    return write_report(result, out, studies=studies)


#: The tables the report reads; every run writes all of them (:func:`simkit.tables.build_tables`).
REPORT_TABLES = (
    "scores",
    "paired",
    "components",
    "dun_categories",
    "specials",
    "events",
    "t_distribution",
    "declare_value",
    "score_distribution",
    "convergence",
    "banker_edge",
    "payouts",
)


def write_report(
    result: SimulationResult | str | Path, out: str | Path, *, studies: str | Path | None = None
) -> Path:
    """Draw the figures and write ``README.md`` into ``out`` from a result (or a folder of saved
    tables) and the study files of ``studies`` (default
    :data:`~simkit.report.page.STUDIES_DIR`); returns the README's path."""
    if not isinstance(result, SimulationResult):
        result = load_result(result)
    for name in REPORT_TABLES:  # a saved run missing one raises MissingTableError naming it
        result.tables[name]
    out = Path(out)
    check_output_dir(out)
    page = Page(result, STUDIES_DIR if studies is None else Path(studies))
    all_figures(result.tables, out / "figures")
    par_figures(result.tables, out / "figures")
    costs = strategy_costs(page)
    if costs is not None:
        save_figure(plot_strategy_costs(costs[1], costs[0]), out / "figures", "strategy")
    skill = skill_read(page)
    if not isinstance(skill, str):
        meta, duels, bounds = skill
        save_figure(plot_skill(duels, bounds, meta["default"]), out / "figures", "skill")
    text = page_markdown(page)
    return atomic_write(out / "README.md", lambda tmp: tmp.write_text(text, encoding="utf-8"))


def page_markdown(page: Page) -> str:
    """The report page (:data:`SECTIONS`), its detail headings numbered in order."""
    blocks = [block for section in SECTIONS for block in section(page)]
    number = 0
    for i, block in enumerate(blocks):
        if block.startswith("## ") and not block.startswith(UNNUMBERED):
            number += 1
            blocks[i] = re.sub(r"^## ", f"## {number}. ", block)
    return "\n".join(blocks)


def render_markdown(result: SimulationResult, studies: str | Path | None = None) -> str:
    """The report page of ``result`` quoting the study files of ``studies``."""
    return page_markdown(Page(result, STUDIES_DIR if studies is None else Path(studies)))
