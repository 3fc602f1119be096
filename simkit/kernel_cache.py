"""Telling a user that the numba kernels are being compiled (the first run only).

Kernels are compiled with ``cache=True`` into numba's default cache, the ``__pycache__``
folders beside the sources (or ``$NUMBA_CACHE_DIR`` where that is set), and loaded from there
by every later run.  A cold cache costs about 30 s of compiling before a run starts; this
module looks at the cache index of a few kernels that every run uses (a file read, no
compiling) and prints one line when they are missing or stale.  Nothing here is imported by
``import simkit``.
"""

from __future__ import annotations

import importlib
import sys
from typing import Any, TextIO

#: Kernels every simulation compiles: (module, dispatcher name); a test checks they exist.
PROBES = (
    ("simkit.deal", "_deal_one_deck"),
    ("simkit.score", "_kernel"),
    ("simkit.arrange.search", "_max_ev_kernel"),
)
NOTICE = "compiling kernels, first run only (about 30 s)…"

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
