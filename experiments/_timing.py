"""Timing helper shared by the benchmark scripts."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any


def best_of(
    fn: Callable[[], Any], repeats: int = 3, clock: Callable[[], float] = time.perf_counter
) -> float:
    """The shortest time of ``repeats`` calls of ``fn``, in seconds (the least disturbed run on
    a shared machine).  ``clock``: wall time by default; ``time.process_time`` counts only this
    process's CPU time."""
    times = []
    for _ in range(repeats):
        t0 = clock()
        fn()
        times.append(clock() - t0)
    return min(times)


def cpu_time(fn: Callable[[], Any]) -> float:
    """This process's CPU seconds for one call of ``fn`` (one side of an A/B pair)."""
    t0 = time.process_time()
    fn()
    return time.process_time() - t0
