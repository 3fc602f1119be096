"""MkDocs hooks: the pages that the build generates from the code and the committed results.

- ``variants.md``: rewritten from the shipped variant files (``simkit variants docs``) before
  the build, so the committed page is always the current one.
- ``cli.md``: ``simkit --help`` and ``simkit COMMAND --help`` for every command.
- ``report/``: the committed report (``results/report/README.md`` and its figures), copied in.
- ``results/**.md``: every other committed results file, as a page outside the nav.
- ``notebooks/*.md``: each jupytext notebook in ``notebooks/``, from an executed copy.  The copy
  is ``notebooks/<name>.ipynb`` when it is newer than its source (``jupytext --to ipynb
  --execute``); otherwise the hook executes the notebook at ``SIMKIT_NOTEBOOK_GAMES`` deals
  (300 unless set: seconds, not minutes) into a cache folder keyed by the source's hash.
"""

from __future__ import annotations

import base64
import contextlib
import hashlib
import io
import os
import re
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "results"
REPORT = RESULTS / "report"
NOTEBOOKS = ROOT / "notebooks"
CACHE = ROOT / ".cache" / "docs-notebooks"
NOTEBOOK_GAMES = "300"

if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))


def on_pre_build(config: Any) -> None:
    from simkit.variants.docs import render_variants_doc

    path = Path(config["docs_dir"]) / "variants.md"
    text = render_variants_doc()
    if not path.exists() or path.read_text(encoding="utf-8") != text:
        path.write_text(text, encoding="utf-8")


def on_files(files: Any, config: Any) -> Any:
    from mkdocs.structure.files import File

    files.append(File.generated(config, "cli.md", content=cli_reference()))
    for path in sorted(REPORT.rglob("*")):
        if path.is_file() and path.suffix in {".md", ".png", ".svg"}:
            uri = "report/" + path.relative_to(REPORT).as_posix()
            if uri == "report/README.md":
                uri = "report/index.md"
            files.append(File.generated(config, uri, abs_src_path=str(path)))
    # Every other results file as a page of its own (outside the nav), so that the docs link the
    # file a figure comes from; the figures beside them too, for the pages that show them.
    for path in sorted(RESULTS.rglob("*")):
        if path.suffix in {".md", ".png", ".svg"} and REPORT not in path.parents:
            uri = path.relative_to(ROOT).as_posix()
            files.append(File.generated(config, uri, abs_src_path=str(path)))
    for path in sorted(NOTEBOOKS.glob("*.py")):
        page, images = render_notebook(path)
        files.append(File.generated(config, f"notebooks/{path.stem}.md", content=page))
        for name, data in images.items():
            files.append(File.generated(config, f"notebooks/{name}", content=data))
    return files


def cli_reference() -> str:
    """``simkit --help`` and every command's ``--help``, each in a fenced block."""
    from simkit.cli import build_parser

    os.environ["COLUMNS"] = "100"  # argparse wraps help text to the terminal's width
    parser = build_parser()
    out = [
        "# Command-line reference",
        "",
        "Generated at build time from the parser itself (`simkit COMMAND --help`).",
        "Every option's help ends with its default.",
        "",
        "## simkit",
        "",
        "```text",
        parser.format_help().rstrip(),
        "```",
    ]
    commands = next(a for a in parser._actions if a.__class__.__name__ == "_SubParsersAction")
    for name, sub in commands.choices.items():
        out += ["", f"## simkit {name}", "", "```text", sub.format_help().rstrip(), "```"]
        nested = [a for a in sub._actions if a.__class__.__name__ == "_SubParsersAction"]
        for action in nested:
            for sub_name, sub_sub in action.choices.items():
                out += [
                    "",
                    f"### simkit {name} {sub_name}",
                    "",
                    "```text",
                    sub_sub.format_help().rstrip(),
                    "```",
                ]
    return "\n".join(out) + "\n"


def executed_notebook(path: Path) -> Any:
    """The notebook at ``path`` with its outputs: the committed-beside executed copy when it is
    current, else a cached execution at a small size."""
    import jupytext
    import nbformat

    beside = path.with_suffix(".ipynb")
    if beside.exists() and beside.stat().st_mtime >= path.stat().st_mtime:
        return nbformat.read(beside, as_version=4)
    games = os.environ.get("SIMKIT_NOTEBOOK_GAMES", NOTEBOOK_GAMES)
    key = hashlib.sha256(path.read_bytes() + games.encode()).hexdigest()[:16]
    cached = CACHE / f"{path.stem}-{key}.ipynb"
    if cached.exists():
        return nbformat.read(cached, as_version=4)
    import nbclient

    notebook = jupytext.read(path)
    env = {"SIMKIT_NOTEBOOK_GAMES": games, "CI": "true"}
    saved = {k: os.environ.get(k) for k in [*env, "PYTHONPATH", "MPLBACKEND"]}
    os.environ.update(env)
    os.environ.pop("MPLBACKEND", None)
    os.environ["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), saved["PYTHONPATH"]]))
    try:
        client = nbclient.NotebookClient(
            notebook,
            timeout=600,
            kernel_name="python3",
            resources={"metadata": {"path": str(path.parent)}},
        )
        client.execute()
    finally:
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value
    CACHE.mkdir(parents=True, exist_ok=True)
    nbformat.write(notebook, cached)
    return notebook


def render_notebook(path: Path) -> tuple[str, dict[str, bytes]]:
    """A Markdown page of an executed notebook and its PNG figures by file name."""
    notebook = executed_notebook(path)
    lines: list[str] = [
        f"<!-- generated from notebooks/{path.name}; edit the notebook, not this page -->",
        "",
    ]
    images: dict[str, bytes] = {}
    for index, cell in enumerate(notebook.cells):
        if cell.cell_type == "markdown":
            lines += [cell.source, ""]
            continue
        if cell.cell_type != "code" or not cell.source.strip():
            continue
        lines += ["```python", cell.source, "```", ""]
        for number, out in enumerate(cell.get("outputs", [])):
            data = out.get("data", {})
            if "image/png" in data:
                name = f"{path.stem}-{index}-{number}.png"
                images[name] = base64.b64decode(data["image/png"])
                lines += [f"![figure of cell {index}]({name})", ""]
            elif "text/html" in data:  # a polars table: Material styles it as a table
                lines += [
                    '<div class="notebook-output" markdown="0">',
                    _plain(data["text/html"]),
                    "</div>",
                    "",
                ]
            elif "text/plain" in data:
                lines += ["```text", _plain(data["text/plain"]), "```", ""]
            elif out.get("output_type") == "stream":
                lines += ["```text", _plain(out.get("text", "")), "```", ""]
    if not lines[2].startswith("# "):
        lines.insert(2, f"# {path.stem.replace('_', ' ').capitalize()}\n")
    return "\n".join(lines), images


def _plain(text: str | list[str]) -> str:
    text = "".join(text) if isinstance(text, list) else text
    return re.sub(r"\x1b\[[0-9;]*m", "", text).rstrip()


def main() -> None:
    """Print the CLI reference (``python docs/hooks.py``): a check without MkDocs."""
    with contextlib.redirect_stdout(io.StringIO()):
        text = cli_reference()
    print(text)


if __name__ == "__main__":
    main()
