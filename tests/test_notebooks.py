"""The notebooks run headless at a small size (jupytext → nbclient)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

jupytext = pytest.importorskip("jupytext")
nbclient = pytest.importorskip("nbclient")

NOTEBOOKS = sorted((Path(__file__).parent.parent / "notebooks").glob("*.py"))


def test_the_three_notebooks_are_there() -> None:
    assert {p.stem for p in NOTEBOOKS} == {
        "published_probabilities",
        "regional_payouts",
        "strategy_effect",
    }


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.stem for p in NOTEBOOKS])
def test_notebook_runs_headless(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    notebook = jupytext.read(path)
    assert notebook.metadata["jupytext"]["text_representation"]["format_name"] == "percent"
    # The kernel inherits this process's environment: a small size, no progress bars.
    monkeypatch.setenv("SIMKIT_NOTEBOOK_GAMES", "300")
    monkeypatch.setenv("CI", "true")
    monkeypatch.setenv("MPLBACKEND", "Agg")
    client = nbclient.NotebookClient(
        notebook,
        timeout=300,
        kernel_name="python3",
        resources={"metadata": {"path": str(path.parent)}},
    )
    client.execute()
    errors = [
        out
        for cell in notebook.cells
        if cell.cell_type == "code"
        for out in cell.get("outputs", [])
        if out.get("output_type") == "error"
    ]
    assert not errors
    assert os.environ["SIMKIT_NOTEBOOK_GAMES"] == "300"
