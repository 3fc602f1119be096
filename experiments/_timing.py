"""Timing helpers shared by the benchmark scripts, and the command line and run record of
those that time strategies on dealt hands and check them against a scan of every split."""

from __future__ import annotations

import argparse
import os
import platform
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numba as nb
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


def rotated_turns(
    runs: dict[str, Callable[[], Any]], rounds: int, repeats: int
) -> list[dict[str, float]]:
    """``rounds`` timings of :func:`best_in_turns` (each the best of ``repeats`` calls in
    turn), round ``k`` starting its turns at the ``k``-th run: on a shared machine a call's
    place in the turn can move its time.  Seconds by name, one dict a round."""
    named = list(runs.items())
    return [
        best_in_turns(dict(named[k % len(named) :] + named[: k % len(named)]), repeats)
        for k in range(rounds)
    ]


def hands_parser(
    description: str, hands: int, exhaustive_hands: int | None, repeats: int, out: Path
) -> argparse.ArgumentParser:
    """The options of a benchmark over dealt hands (``--hands``, ``--exhaustive-hands``,
    ``--repeats``, ``--out``) with these defaults (``exhaustive_hands`` None: a benchmark
    that scans no split, without that option); a script adds its own."""
    ap = argparse.ArgumentParser(description=description)
    ap.add_argument("--hands", type=int, default=hands)
    if exhaustive_hands is not None:
        ap.add_argument("--exhaustive-hands", type=int, default=exhaustive_hands)
    ap.add_argument("--repeats", type=int, default=repeats)
    ap.add_argument("--out", type=Path, default=out)
    return ap


def check_hands_args(a: argparse.Namespace) -> None:
    """Refuse what :func:`hands_parser`'s options cannot run, before any work; make ``--out``."""
    exhaustive = getattr(a, "exhaustive_hands", 0)
    if a.hands < 4 or not 0 <= exhaustive <= a.hands or a.repeats < 1:
        raise SystemExit("--hands ≥ 4, 0 ≤ --exhaustive-hands ≤ --hands, --repeats ≥ 1")
    a.out.mkdir(parents=True, exist_ok=True)


def run_meta(command: str, seed: int) -> dict[str, Any]:
    """What a benchmark's results record of its run: the command, seed, versions, time and
    the machine's load at the end (the machine is shared)."""
    return {
        "command": command,
        "seed": seed,
        "numba": nb.__version__,
        "python": platform.python_version(),
        "when": datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "load_average": [round(x, 2) for x in os.getloadavg()],
    }
