"""The report reads no file outside the package: the study results it quotes ship as package
data (``simkit/data/studies``), each named with the command that regenerates it."""

from __future__ import annotations

import builtins
import io
import json
from pathlib import Path

import polars as pl
import pytest

import simkit
from simkit.report import STUDIES_DIR, Page
from simkit.simulate import SimulationResult

PACKAGE = Path(simkit.__file__).resolve().parent


def _page_result() -> SimulationResult:
    """A result with no table: enough for the study sections."""
    names = ["guangxi", "hongkong", "qiantang"]
    provenance = {
        "strategy": "expected-score-rerank",
        "n_players": 4,
        "variants": [{"name": n} for n in names],
    }
    return SimulationResult(provenance=provenance, tables={})


def test_every_study_file_is_listed_with_its_command() -> None:
    readme = (STUDIES_DIR / "README.md").read_text(encoding="utf-8")
    files = sorted(str(p.relative_to(STUDIES_DIR)) for p in STUDIES_DIR.rglob("*") if p.is_file())
    assert STUDIES_DIR.is_relative_to(PACKAGE)
    for name in files:
        if name != "README.md":
            assert f"`{name}`" in readme, name
    for line in readme.splitlines():
        if line.startswith("| `"):
            assert "`results/" in line and "experiments." in line, line  # source and command
    for path in STUDIES_DIR.rglob("*.json"):
        data = json.loads(path.read_text(encoding="utf-8"))
        rows = data["rows"] if isinstance(data, dict) else data
        assert rows, path


def test_the_study_sections_read_only_files_inside_the_package(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    read: list[Path] = []
    real_open, real_csv = builtins.open, pl.read_csv

    def recording_open(file, *args, **kwargs):  # type: ignore[no-untyped-def]
        if isinstance(file, str | Path):
            read.append(Path(file).resolve())
        return real_open(file, *args, **kwargs)

    def recording_csv(source, *args, **kwargs):  # type: ignore[no-untyped-def]
        read.append(Path(source).resolve())
        return real_csv(source, *args, **kwargs)

    monkeypatch.setattr(builtins, "open", recording_open)
    monkeypatch.setattr(io, "open", recording_open)
    monkeypatch.setattr(pl, "read_csv", recording_csv)
    monkeypatch.chdir(tmp_path)  # no results/ folder where the process runs
    page = Page(_page_result())
    from simkit.report.decks import decks_section
    from simkit.report.phases import phases_section
    from simkit.report.studies import regret_section, strategy_matters_section

    text = "\n".join(
        block
        for section in (regret_section, strategy_matters_section, phases_section, decks_section)
        for block in section(page)
    )
    assert "could not be read" not in text and "not shown" not in text
    assert read and all(p.is_relative_to(PACKAGE) for p in read), read
    assert {p.name for p in read} >= {"regret.json", "matters.json", "settle.json", "exact-1d.csv"}


def test_another_study_folder_is_an_input(tmp_path: Path) -> None:
    """``studies=`` reads the same layout elsewhere; a folder without the files says so."""
    page = Page(_page_result(), tmp_path)
    from simkit.report.studies import regret_section

    assert "no `regret.json` in the study folder" in "\n".join(regret_section(page))
