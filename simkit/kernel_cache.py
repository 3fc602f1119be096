"""Compiling the numba kernels once, in the parent, and telling the user while it happens.

Kernels are compiled with ``cache=True`` into numba's on-disk cache (the ``__pycache__``
folders beside the sources, ``$NUMBA_CACHE_DIR`` where that is set) and loaded from there by
every later run and by every worker.  A cold cache (a fresh install, a changed kernel) costs
minutes of compiling: one variant's kernels take one to two CPU-minutes, more on a loaded
machine.  This module looks at the cache index of a few kernels that every run uses (a file
read, no compiling); when they are cold, :func:`compile_stage` runs the caller's warm-up steps
(a tiny game per variant) in this process before any worker starts, with a line per step, so
that the workers load the kernels instead of each compiling them.  Nothing here is imported
by ``import simkit``.
"""

from __future__ import annotations

import importlib
import sys
import time
from collections.abc import Callable, Sequence
from typing import Any, TextIO

#: Kernels every simulation compiles: (module, dispatcher name); a test checks they exist.
PROBES = (
    ("simkit.deal", "_deal_one_deck"),
    ("simkit.score", "_kernel"),
    ("simkit.arrange.search", "max_ev_kernel"),
)
NOTICE = (
    "compiling kernels (numba; once after an install or a change of the kernels, then "
    "cached on disk): a few minutes…"
)

_noticed = False


def is_cold(dispatcher: Any) -> bool:
    """Whether numba's cache holds no compiled version of ``dispatcher`` for its source.

    Reads the cache index the way numba does (an index saved for another version of the
    source counts as empty).  Anything unexpected (no cache, another numba) reads as warm.
    """
    try:
        cache = dispatcher._cache
        return not cache._cache_file._load_index()
    except Exception:
        return False


def cold_kernels() -> list[str]:
    """The probe kernels that would be compiled now (``module.name``)."""
    cold = []
    for module_name, name in PROBES:
        dispatcher = getattr(importlib.import_module(module_name), name, None)
        if dispatcher is not None and is_cold(dispatcher):
            cold.append(f"{module_name}.{name}")
    return cold


def notice_if_cold(stream: TextIO | None = None) -> bool:
    """Print :data:`NOTICE` on stderr (once per process) if the kernels will be compiled."""
    global _noticed
    if _noticed or not cold_kernels():
        return False
    _noticed = True
    print(NOTICE, file=stream or sys.stderr, flush=True)
    return True


def compile_stage(
    steps: Sequence[tuple[str, Callable[[], object]]], stream: TextIO | None = None
) -> float | None:
    """Run ``steps`` (a label and a warm-up call each) when the kernels are cold, telling it.

    Prints :data:`NOTICE`, then ``compiling kernels: <label> (i of n)…`` before and the
    seconds it took after each step, on ``stream`` (stderr by default).  Returns the seconds
    the whole stage took, or None (nothing run, nothing printed) when the kernels are warm.
    """
    global _noticed
    if not cold_kernels():
        return None
    out = stream or sys.stderr
    _noticed = True
    print(NOTICE, file=out, flush=True)
    start = time.monotonic()
    for i, (label, warm_up) in enumerate(steps, 1):
        began = time.monotonic()
        print(f"compiling kernels: {label} ({i} of {len(steps)})…", file=out, flush=True)
        warm_up()
        print(
            f"compiling kernels: {label} done in {time.monotonic() - began:.0f} s",
            file=out,
            flush=True,
        )
    total = time.monotonic() - start
    print(f"compiling kernels: done in {total:.0f} s (cached for later runs)", file=out, flush=True)
    return total
