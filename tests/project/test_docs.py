"""The documentation: the tutorials' code runs, and the README keeps its shape.

Each tutorial's ```python blocks run in order in one namespace, from the repository root, as a
reader runs them; a failing block names its page and its line.  The site itself is built by
`make docs` (`mkdocs build --strict`), which CI runs.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
TUTORIALS = sorted((ROOT / "docs" / "tutorials").glob("*.md"))
README = ROOT / "README.md"
BLOCK = re.compile(r"^```python\n(.*?)^```", re.M | re.S)


def python_blocks(path: Path) -> list[tuple[int, str]]:
    """The ```python blocks of a Markdown file: (first line number, code)."""
    text = path.read_text(encoding="utf-8")
    return [(text.count("\n", 0, m.start()) + 2, m.group(1)) for m in BLOCK.finditer(text)]


def test_the_six_tutorials_are_there() -> None:
    assert {p.stem for p in TUTORIALS} == {
        "design-payouts",
        "published-probabilities",
        "compare-payouts",
        "rule-values",
        "banker-edge",
        "own-variant",
    }
    for path in TUTORIALS:
        assert python_blocks(path), f"{path.name} has no ```python block"


@pytest.mark.slow
@pytest.mark.parametrize("path", TUTORIALS, ids=[p.stem for p in TUTORIALS])
def test_tutorial_runs(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    monkeypatch.setenv("CI", "true")  # no progress bars
    namespace: dict[str, object] = {"__name__": f"tutorial_{path.stem.replace('-', '_')}"}
    for line, code in python_blocks(path):
        compiled = compile(code, f"{path.relative_to(ROOT)}:{line}", "exec")
        exec(compiled, namespace)


def test_readme_shape() -> None:
    """At most 150 lines; the two commands literally; no commit hashes or times of day."""
    text = README.read_text(encoding="utf-8")
    assert len(text.splitlines()) <= 150
    assert "make report" in text and "make test" in text
    hashes = re.findall(r"\b(?=[0-9a-f]*[a-f])(?=[0-9a-f]*[0-9])[0-9a-f]{7,40}\b", text)
    assert not hashes, f"commit hashes in the README: {hashes}"
    assert not re.search(r"\b\d{1,2}:\d{2}\b", text), "a time of day in the README"
    assert "left out" not in text


def test_readme_links_reach_committed_files() -> None:
    """Every relative link and image of the README names a file of the repository."""
    text = README.read_text(encoding="utf-8")
    targets = re.findall(r"\]\(([^)#\s]+)", text)
    assert targets
    missing = [t for t in targets if "://" not in t and not (ROOT / t).exists()]
    assert not missing, missing


def test_cli_reference_has_every_command() -> None:
    """docs/hooks.py writes `simkit COMMAND --help` for every command the CLI discovers."""
    import importlib.util

    from simkit.cli import command_modules

    spec = importlib.util.spec_from_file_location("docs_hooks", ROOT / "docs" / "hooks.py")
    assert spec is not None and spec.loader is not None
    hooks = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(hooks)
    text = hooks.cli_reference()
    for name in command_modules():
        assert f"\n## simkit {name}\n" in text
        assert f"usage: simkit {name}" in text
