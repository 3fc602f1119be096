"""The report's deck section reads the study folder's ``decks/`` (exact tables, volatility) or
says how to make what is missing; a page without the default variant has none."""

from __future__ import annotations

import json
from pathlib import Path

from simkit.report import (
    DECKS_EXACT_COMMAND,
    DECKS_VOLATILITY_COMMAND,
    NEVER,
    SECTIONS,
    Page,
    decks_section,
    phases_section,
)
from simkit.simulate import SimulationResult

CSV_HEADER = "table,entry,count,best_count,probability,best_probability\n"
ONE_DECK = CSV_HEADER + (
    "specials,six-pairs,10,9,0.004,0.0039\n"
    "five_card,STRAIGHT_FLUSH,40,,0.0000154,\n"
    "five_card,QUADS,624,,0.00024,\n"
    "three_card,TRIPS,52,,0.00235,\n"
    "three_card,HIGH_CARD,18304,,0.828,\n"
)
TWO_DECKS = CSV_HEADER + (
    "specials,six-pairs,20,19,0.008,0.0071\n"
    "five_card,FIVE_OF_A_KIND,9,,0.0000079,\n"
    "five_card,STRAIGHT_FLUSH,70,,0.0000139,\n"
    "five_card,QUADS,900,,0.00095,\n"
    "three_card,TRIPS,60,,0.004,\n"
    "three_card,HIGH_CARD,19000,,0.804,\n"
)


def _row(variant: str, players: int, sd: float, fallback: bool) -> dict[str, object]:
    return {
        "variant": variant,
        "players": players,
        "deck": "1 deck (52 cards)",
        "games": 40960,
        "batches": 20,
        "sd": sd,
        "sd_se": 0.08,
        "sd_se_delta": 0.09,
        "sd_ci_low": sd - 0.16,
        "sd_ci_high": sd + 0.16,
        "mean_abs": 7.5,
        "mean_abs_se": 0.05,
        "tail": 0,
        "declared": {"count": 10, "n": 1000, "rate": 0.01, "se": 0.001},
        "specials": [],
        "dun_categories": [],
        "win_tables": "fallback" if fallback else "own",
        "win_tables_warning": "no trained win tables" if fallback else "",
    }


VOLATILITY = {
    "meta": {
        "batches": 20,
        "batch_games": 2048,
        "games": 40960,
        "seed": 0,
        "strategy": "max-ev",
        "paired": False,
        "command": "experiments/deck_volatility.py --batches 20 --batch-games 2048 --seed 0",
        "seconds": 60.0,
    },
    "rows": [_row("guangxi", 4, 12.26, False), _row("guangxi-two-decks", 4, 15.53, True)],
}


def _page(names: tuple[str, ...] = ("guangxi",), strategy: str = "max-ev") -> Page:
    provenance = {"variants": [{"name": n} for n in names], "strategy": strategy}
    return Page(SimulationResult(provenance=provenance, tables={}))


def _text(folder: Path) -> str:
    return "\n".join(decks_section(_page(), folder))


def test_decks_section_shows_each_deck_side_by_side(tmp_path: Path) -> None:
    (tmp_path / "exact-1d.csv").write_text(ONE_DECK, encoding="utf-8")
    (tmp_path / "exact-2d.csv").write_text(TWO_DECKS, encoding="utf-8")
    (tmp_path / "volatility.json").write_text(json.dumps(VOLATILITY), encoding="utf-8")
    text = _text(tmp_path)
    assert "## Decks: what two decks, a fifth suit and jokers change" in text
    assert "| special | one deck (`1d`) | two decks (`2d`) |" in text
    assert "| `six-pairs` | 0.0039 | 0.0071 |" in text  # P(best), not P(qualifies)
    # 五同 exists with two decks only: its row goes first (it precedes the straight flush),
    # with a dash for one deck
    assert f"| FIVE_OF_A_KIND | {NEVER} | 7.9e-06 |" in text
    assert text.index("FIVE_OF_A_KIND") < text.index("| STRAIGHT_FLUSH |")
    assert "| TRIPS | 0.00235 | 0.004 |" in text
    assert f"`{DECKS_EXACT_COMMAND} --decks 1d 2d`" in text
    # the decks not counted here are named, with the command that makes them
    assert f"`{DECKS_EXACT_COMMAND} --decks 1d-5s 1d-1j 1d-2j`" in text
    assert "| guangxi | 4 | 1 deck (52 cards) | 40,960 | 12.260 ± 0.080 | 12.10 to 12.42 |" in text
    assert "guangxi's (fallback)" in text and "its own" in text
    assert "not paired" in text
    assert f"`python {VOLATILITY['meta']['command']}`" in text  # type: ignore[index]


def test_decks_section_shows_the_compared_packs_only(tmp_path: Path) -> None:
    (tmp_path / "exact-1d.csv").write_text(ONE_DECK, encoding="utf-8")
    (tmp_path / "exact-2d-2j.csv").write_text(TWO_DECKS, encoding="utf-8")
    text = _text(tmp_path)
    assert "| special | one deck (`1d`) |" in text  # the compared packs only
    assert "(`2d-2j`)" not in text
    assert "`results/decks/exact-<deck>.md` in the repository" in text


def test_decks_section_names_the_strategy_that_played_it_not_a_default(tmp_path: Path) -> None:
    """The volatility runs are named by their own strategy, set beside the page's; the section
    never calls a strategy "the default"."""
    (tmp_path / "volatility.json").write_text(json.dumps(VOLATILITY), encoding="utf-8")
    text = "\n".join(decks_section(_page(strategy="expected-score-rerank"), tmp_path))
    assert "Each deck played by `max-ev` (this page's hands: `expected-score-rerank`)" in text
    assert "default strategy" not in text and "(the default)" not in text
    same = "\n".join(decks_section(_page(strategy="max-ev"), tmp_path))
    assert "Each deck played by `max-ev`, 20 independent runs" in same
    shipped = "\n".join(decks_section(_page(strategy="expected-score-rerank")))
    assert "default strategy" not in shipped


def test_a_page_without_the_default_variant_has_no_decks_section(tmp_path: Path) -> None:
    assert decks_section(_page(("western-2-4",)), tmp_path) == []


def test_decks_section_says_how_to_make_missing_files(tmp_path: Path) -> None:
    text = _text(tmp_path / "nowhere")
    assert f"`{DECKS_EXACT_COMMAND} --decks 1d 2d 1d-5s 1d-1j 1d-2j`" in text
    assert f"`{DECKS_VOLATILITY_COMMAND}`" in text
    assert "| one deck" not in text  # no table without a file


def test_decks_section_names_a_file_it_cannot_read(tmp_path: Path) -> None:
    (tmp_path / "exact-1d.csv").write_text("table,entry\nspecials,x\n", encoding="utf-8")
    (tmp_path / "volatility.json").write_text("{not json", encoding="utf-8")
    text = _text(tmp_path)
    assert "`exact-1d.csv` could not be read (no column probability)" in text
    assert "`volatility.json` could not be read" in text


def test_decks_section_follows_the_phases_section() -> None:
    assert SECTIONS.index(decks_section) == SECTIONS.index(phases_section) + 1


def test_decks_section_reads_the_shipped_study_files() -> None:
    # the package's study files (exact tables for every compared deck, the volatility runs)
    text = "\n".join(decks_section(_page()))
    assert "one deck + 2 jokers (`1d-2j`)" in text
    assert "could not be read" not in text
