"""The notebooks run headless at a small size (jupytext → nbclient), their figures inline."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

jupytext = pytest.importorskip("jupytext")
nbclient = pytest.importorskip("nbclient")

NOTEBOOKS = sorted((Path(__file__).resolve().parents[2] / "notebooks").glob("*.py"))


def test_the_four_notebooks_are_there() -> None:
    assert {p.stem for p in NOTEBOOKS} == {
        "design_payouts",
        "published_probabilities",
        "regional_payouts",
        "strategy_effect",
    }


@pytest.mark.slow
@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.stem for p in NOTEBOOKS])
def test_notebook_runs_headless(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    notebook = jupytext.read(path)
    assert notebook.metadata["jupytext"]["text_representation"]["format_name"] == "percent"
    # The kernel inherits this process's environment: a small size, no progress bars, and the
    # kernel's own matplotlib backend (Jupyter's inline one), as a user's notebook has it.
    monkeypatch.setenv("SIMKIT_NOTEBOOK_GAMES", "300")
    monkeypatch.setenv("CI", "true")
    monkeypatch.delenv("MPLBACKEND", raising=False)
    # ... and the simkit under test, whichever checkout is installed.
    root = str(Path(__file__).resolve().parents[2])
    monkeypatch.setenv(
        "PYTHONPATH", os.pathsep.join(filter(None, [root, os.environ.get("PYTHONPATH")]))
    )
    client = nbclient.NotebookClient(
        notebook,
        timeout=300,
        kernel_name="python3",
        resources={"metadata": {"path": str(path.parent)}},
    )
    client.execute()
    code = [cell for cell in notebook.cells if cell.cell_type == "code"]
    errors = [
        out for cell in code for out in cell.get("outputs", []) if out.get("output_type") == "error"
    ]
    assert not errors
    assert os.environ["SIMKIT_NOTEBOOK_GAMES"] == "300"
    # Every cell that draws shows its figure as an image, not "<Figure size ...>".
    for cell in code:
        if "plot_" in cell.source and "import" not in cell.source:
            data = [out.get("data", {}) for out in cell.get("outputs", [])]
            assert any("image/png" in d for d in data), cell.source
    # Tables in full: polars marks rows, columns or strings it leaves out with "…".
    for cell in code:
        for out in cell.get("outputs", []):
            text = out.get("data", {}).get("text/plain", "")
            assert "…" not in text, (cell.source, text)
