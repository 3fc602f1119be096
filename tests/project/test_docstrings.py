"""Every public function, class and method of simkit states its contract in a docstring
(issue 50.6), and no docstring reports a timing instead of a reason.

"Public": a module-level function or class whose name has no leading underscore, and such a
method (properties included) of a public class, in any module of the package.  ``@overload``
stubs are not counted: the implementation beneath them carries the docstring.  The walk reads
the source (no import), so it sees a name whether or not it is exported.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

import simkit

PACKAGE = Path(simkit.__file__).parent

# Public names allowed to go without a docstring, each with the reason (none today).
# test_exemptions_are_still_needed fails for an entry that no longer names an undocumented
# public name.
EXEMPT: set[tuple[str, str]] = set()

# Timings in a docstring: "1.2× faster", "0.57× the speed", "3.5 µs", "hands/s", "per second",
# "CPU-minutes".  A docstring gives the reason in words; the figures live in results/bench/
# and docs/benchmarks.md.  ("CPU seconds" as what a function returns is a contract, not a
# timing: only a count of CPU time units is matched.)
TIMING = re.compile(
    r"\d(?:\.\d+)?(?:[-–]\d(?:\.\d+)?)?\s?×\s?(?:faster|slower|the speed|as fast)"
    r"|\bx faster\b|\b\d[\d,.]*\s?(?:µs|ms|ns)\b|hands/s\b|\bper second\b"
    r"|\bCPU-(?:minutes|hours)\b"
)

# Docstrings allowed to carry a timing, each with the reason (none today).
TIMING_EXEMPT: set[tuple[str, str]] = set()

DEFS = (ast.FunctionDef, ast.AsyncFunctionDef)


def _is_overload(node: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    return any(
        (isinstance(d, ast.Name) and d.id == "overload")
        or (isinstance(d, ast.Attribute) and d.attr == "overload")
        for d in node.decorator_list
    )


def undocumented(source: str) -> list[str]:
    """The public names of one module's ``source`` without a docstring, in source order:
    ``name`` for a function or class (at module level, inside ``if``/``try``/``with`` blocks
    too), ``Class.name`` for a method or nested class of a public class."""
    found: list[str] = []

    def visit(node: ast.AST, prefix: str) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.If, ast.Try, ast.With)):
                visit(child, prefix)
            elif isinstance(child, (*DEFS, ast.ClassDef)) and not child.name.startswith("_"):
                if isinstance(child, DEFS) and _is_overload(child):
                    continue
                if ast.get_docstring(child) is None:
                    found.append(prefix + child.name)
                if isinstance(child, ast.ClassDef):
                    visit(child, f"{prefix}{child.name}.")

    visit(ast.parse(source), "")
    return found


def timings(source: str) -> list[tuple[str, str]]:
    """``(name, match)`` for each docstring of ``source`` (the module's as ``<module>``, any
    function's or class's at any depth) that reports a timing (:data:`TIMING`)."""
    tree = ast.parse(source)
    nodes: list[ast.AST] = [tree]
    nodes += [n for n in ast.walk(tree) if isinstance(n, (*DEFS, ast.ClassDef))]
    out = []
    for node in nodes:
        doc = ast.get_docstring(node)
        hit = TIMING.search(doc or "")
        if hit:
            out.append((getattr(node, "name", "<module>"), hit.group(0)))
    return out


def _modules() -> dict[str, str]:
    """Every module of the package by dotted name, with its source."""
    out = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        out[name] = path.read_text(encoding="utf-8")
    return out


def test_every_public_name_has_a_docstring():
    missing = [
        f"{module}.{name}"
        for module, source in _modules().items()
        for name in undocumented(source)
        if (module, name) not in EXEMPT
    ]
    assert missing == [], "public names without a docstring (state the contract):\n" + "\n".join(
        missing
    )


def test_exemptions_are_still_needed():
    """An exempt name that is gone or documented is removed from :data:`EXEMPT`."""
    modules = _modules()
    stale = sorted(
        (module, name)
        for module, name in EXEMPT
        if module not in modules or name not in undocumented(modules[module])
    )
    assert stale == [], f"remove from EXEMPT (documented or gone): {stale}"


def test_no_docstring_reports_a_timing():
    found = [
        f"{module}.{name}: {hit!r}"
        for module, source in _modules().items()
        for name, hit in timings(source)
        if (module, name) not in TIMING_EXEMPT
    ]
    assert found == [], "docstrings reporting timings (keep the reason, drop the figure):\n" + (
        "\n".join(found)
    )


def test_timing_exemptions_are_still_needed():
    modules = _modules()
    stale = sorted(
        (module, name)
        for module, name in TIMING_EXEMPT
        if module not in modules or name not in {n for n, _ in timings(modules[module])}
    )
    assert stale == [], f"remove from TIMING_EXEMPT (no timing left or gone): {stale}"


SCRATCH = '''
"""A module."""
from typing import overload

def documented():
    """Does a thing."""

def bare():
    return 1

async def bare_async():
    pass

def _private():
    pass

@overload
def stub(x: int) -> int: ...
def stub(x):
    """The implementation."""

class Public:
    """A class."""

    def method(self):
        pass

    @property
    def prop(self):
        return 1

    def _helper(self):
        pass

    def __init__(self):
        pass

    def told(self):
        """Told."""

class Bare:
    pass

if True:
    def in_block():
        pass

    class Outer:
        """Outer."""

        class Inner:
            pass

class _Hidden:
    def method(self):
        pass

def outer():
    """Outer."""
    def inner():
        pass
'''


def test_the_walk_finds_names_without_a_docstring():
    """Negative control: the walk names exactly the undocumented public functions, classes
    and methods of a scratch module (private names and their members, dunders, overload stubs
    and functions nested in functions are not counted)."""
    assert undocumented(SCRATCH) == [
        "bare",
        "bare_async",
        "Public.method",
        "Public.prop",
        "Bare",
        "in_block",
        "Outer.Inner",
    ]
    assert undocumented('def f():\n    """Contract."""\n') == []


@pytest.mark.parametrize(
    ("text", "hit"),
    [
        ("the loops ran at 0.57× the speed", True),
        ("float32 halves them: 1.2-1.5× faster", True),
        ("3.5 µs a hand", True),
        ("about 40,000 hands/s on one core", True),
        ("one variant takes one to two CPU-minutes", True),
        ("volatility index (SD × 1.645)", False),
        ("returns (compiles, CPU seconds) per kernel", False),
        ("a signed index slows the loops (results/bench/walk.md)", False),
    ],
)
def test_the_timing_pattern(text, hit):
    """Negative control of :data:`TIMING`: it flags timings, not products or contracts."""
    source = f'def f():\n    """{text}"""\n'
    assert bool(timings(source)) is hit
