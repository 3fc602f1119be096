"""Timing helper shared by the benchmark scripts."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import numpy as np


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


def best_in_turns(runs: dict[str, Callable[[], Any]], repeats: int) -> dict[str, float]:
    """The shortest CPU time (``time.process_time``) of each of ``runs`` over ``repeats``
    rounds, each round calling every run once in turn, so that a busy spell of a shared
    machine falls on all of them alike: seconds by name."""
    best = dict.fromkeys(runs, np.inf)
    for _ in range(repeats):
        for name, run in runs.items():
            best[name] = min(best[name], cpu_time(run))
    return best
