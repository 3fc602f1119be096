"""How much strategy matters: the experiment's paired estimates and the report section that
shows them (read from a tiny fake results file)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from simkit.report import SECTIONS, Page, regret_section, strategy_matters_section
from simkit.simulate import SimulationResult


def _page(strategy: str = "max-ev", players: int = 4) -> Page:
    names = ["guangxi", "hongkong", "hongkong+top-card"]
    provenance = {
        "strategy": strategy,
        "n_players": players,
        "variants": [{"name": n} for n in names],
    }
    return Page(SimulationResult(provenance=provenance, tables={}))


def _row(variant: str, seat: str, strategy: str, diff: float) -> dict:
    return {
        "variant": variant, "seat": seat, "strategy": strategy, "n_games": 100,
        "mean": diff + 0.25, "se": 0.01, "ci_low": diff + 0.23, "ci_high": diff + 0.27,
        "diff": diff, "diff_se": 0.01, "diff_ci_low": diff - 0.02, "diff_ci_high": diff + 0.02,
        "sd": 9.5, "sd_se": 0.1, "table_sd": 12.25, "table_sd_se": 0.2,
    }  # fmt: skip


@pytest.fixture
def measured(tmp_path: Path) -> Path:
    meta = {
        "default": "max-ev",
        "games": 100,
        "players": 4,
        "seed": 0,
        "command": "experiments/strategy_matters.py --games 100 --seed 0",
    }
    rows = [
        _row("guangxi", "any", "max-ev", 0.0),
        _row("guangxi", "any", "greedy", -4.125),
        _row("hongkong", "banker", "random-legal", -16.5),
        _row("taiwan", "player", "greedy", -1.0),  # a variant this page does not show
    ]
    path = tmp_path / "matters.json"
    path.write_text(json.dumps({"meta": meta, "rows": rows}), encoding="utf-8")
    return path


def test_section_shows_the_measured_rows_of_the_page_variants(measured: Path) -> None:
    text = "\n".join(strategy_matters_section(_page(), measured))
    assert text.startswith("## How much strategy matters")
    # one row per variant and seat, one column per strategy; the default is no column of
    # differences (it would compare it with itself)
    assert "| variant | seat | `greedy` | `random-legal` |" in text
    assert "| guangxi |  | -4.125 (-4.145 to -4.105) | – |" in text
    assert "| hongkong | banker | – | -16.500 (-16.520 to -16.480) |" in text
    assert "(the reference)" not in text and "+0.000 (+0.000 to +0.000)" not in text
    # the volatility of each strategy's game, the default's included
    assert "| variant | seat | `max-ev` | `greedy` | `random-legal` |" in text
    assert "| guangxi |  | 12.25 ± 0.20 | 12.25 ± 0.20 | – |" in text
    assert "taiwan" not in text  # not on this page
    assert "Not measured: hongkong+top-card." in text
    assert "python experiments/strategy_matters.py --games 100 --seed 0" in text
    assert "This page's hands" not in text
    assert "the measurement is at" not in text
    other = "\n".join(strategy_matters_section(_page("greedy", players=6), measured))
    assert "This page's hands are set by `greedy`." in other
    assert "This page plays 6 players; the measurement is at 4." in other


def test_a_strategy_that_sets_every_hand_as_the_default_reads_same_splits(
    tmp_path: Path,
) -> None:
    meta = {"default": "max-ev", "games": 100, "players": 4, "seed": 0, "command": "x"}
    same = {**_row("guangxi", "any", "expected-score", 0.0), "diff_se": 0.0}
    path = tmp_path / "matters.json"
    path.write_text(json.dumps({"meta": meta, "rows": [same]}), encoding="utf-8")
    text = "\n".join(strategy_matters_section(_page(), path))
    assert "| guangxi |  | same splits |" in text


def test_section_says_how_to_make_a_missing_or_broken_measurement(tmp_path: Path) -> None:
    text = "\n".join(strategy_matters_section(_page(), tmp_path / "matters.json"))
    assert "no `matters.json` in the study folder" in text
    assert "python -m experiments.pipelines.strategy_matters --games 20000" in text
    broken = tmp_path / "broken.json"
    broken.write_text("{", encoding="utf-8")
    assert "could not be read" in "\n".join(strategy_matters_section(_page(), broken))


def test_section_follows_the_regret_section_and_reads_the_repository_file() -> None:
    assert SECTIONS[SECTIONS.index(regret_section) + 1] is strategy_matters_section
    text = "\n".join(strategy_matters_section(_page()))  # the package's matters.json
    assert "## How much strategy matters" in text
