"""A Griffe extension for the API reference: docstring examples (``>>>`` lines and their
output) become fenced ``pycon`` blocks, so that Markdown does not read their brackets as links.

simkit's docstrings are plain text with doctests, not Google or NumPy sections; mkdocstrings
renders them as Markdown (``docstring_style: null`` in mkdocs.yml).
"""

from __future__ import annotations

from typing import Any

import griffe


def fence_doctests(text: str) -> str:
    """``text`` with each run of doctest lines (from a ``>>>`` line to the next blank line)
    inside a fenced code block."""
    out: list[str] = []
    inside = False
    for line in text.split("\n"):
        if not inside and line.lstrip().startswith(">>>"):
            out.append("```pycon")
            inside = True
        elif inside and not line.strip():
            out.append("```")
            inside = False
        out.append(line)
    if inside:
        out.append("```")
    return "\n".join(out)


class FenceDoctests(griffe.Extension):
    """Fences the doctests of every docstring as it is loaded."""

    def on_instance(self, *, obj: griffe.Object, **kwargs: Any) -> None:
        if obj.docstring is not None:
            obj.docstring.value = fence_doctests(obj.docstring.value)
