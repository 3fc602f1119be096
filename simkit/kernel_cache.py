"""Compiling the numba kernels once, in the parent, and telling the user while it happens.

Kernels are compiled with ``cache=True`` into numba's on-disk cache (the ``__pycache__`` folders
beside the sources, ``$NUMBA_CACHE_DIR`` where that is set) and loaded from there by every later
run and by every worker.  A cold cache (a fresh install, a changed kernel) costs minutes of
compiling.  This module looks at the cache index of a few kernels that every run uses (a file
read, no compiling); when they are cold, :func:`compile_stage` runs the caller's warm-up steps
(a tiny game per variant) in this process before any worker starts, with a line per step, so
that the workers load the kernels instead of each compiling them.  Nothing here is imported by
``import simkit``.

``python -m simkit.kernel_cache --jobs N`` (:func:`warm_up`; ``make warm``, run before the test
suite) compiles the kernels ahead of any run: tiny games of every shipped variant and deck
option, in families that compile different kernels, side by side in ``N`` processes.
"""

from __future__ import annotations

import importlib
import os
import sys
import time
from collections.abc import Callable, Iterable, Sequence
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


# --------------------------------------------------------------------------- the warm-up

#: What :func:`warm_up` runs, by family, the heaviest first: ``arrange`` plays max-ev (the
#: search kernels on float64 win tables), ``default`` the default strategy (the same kernels on
#: float32 fine tables, a signature of their own, and the re-ranking walk), ``score`` greedy,
#: the special hands and the scorer.  The families compile different kernels, or different
#: signatures of one, so that families run side by side in separate processes compile each
#: once (two processes compiling the same kernel at once both pay for it).
FAMILIES = ("arrange", "default", "score")

#: Hands a warm-up step deals (enough for every kernel to run, few enough to take no time).
WARM_UP_GAMES = 8


def _warm_up_steps(family: str) -> list[tuple[str, Callable[[], object]]]:
    """The steps of ``family`` (:data:`FAMILIES`): a label and a call each, one per shipped
    variant and deck option (:func:`~simkit.variants.deck_option_names`: their decks call
    kernels of their own) at each of 4 and 6 players it serves (one deck, two decks).  Raises
    ValueError for an unknown family."""
    from simkit.arrange import DEFAULT_STRATEGY, arrange
    from simkit.deal import deal
    from simkit.score import score
    from simkit.variants import deck_option_names, load_variant, variant_names

    def table_sizes(variant: Any) -> list[int]:
        sizes = []
        for n_players in (4, 6):
            try:
                variant.deck_for(n_players)
            except Exception:
                continue
            sizes.append(n_players)
        return sizes

    def play(name: str, n_players: int, strategy: str, scored: bool) -> Callable[[], object]:
        def step() -> object:
            variant = load_variant(name)
            hands = deal(WARM_UP_GAMES, n_players, rng=0, deck=variant.deck_for(n_players))
            arranged, declared = arrange(hands, variant, strategy, n_players=n_players)
            return score(arranged, variant, declared=declared) if scored else arranged

        return step

    strategy, scored = {
        "score": ("greedy", True),
        "arrange": ("max-ev", False),
        "default": (DEFAULT_STRATEGY, False),
    }.get(family, (None, False))
    if strategy is None:
        raise ValueError(f"unknown warm-up family {family!r}; choose from {', '.join(FAMILIES)}")
    steps = []
    for name in [*variant_names(), *deck_option_names()]:
        for n_players in table_sizes(load_variant(name)):
            label = f"{family}: {name}, {n_players} players"
            steps.append((label, play(name, n_players, strategy, scored)))
    return steps


def compile_times(call: Callable[[], object]) -> dict[str, tuple[int, float]]:
    """Run ``call`` and return what numba compiled meanwhile in this process: by kernel
    (``module.qualname``), ``(compiles, CPU seconds)``, the seconds exclusive of the kernels it
    compiled inside (a kernel calling another compiles it first).  Loads from the cache are
    not compiles."""
    from numba.core import event

    times: dict[str, tuple[int, float]] = {}
    started: list[list[float]] = []

    class Recorder(event.Listener):
        def on_start(self, ev: Any) -> None:
            started.append([time.process_time(), 0.0])

        def on_end(self, ev: Any) -> None:
            began, inner = started.pop()
            spent = time.process_time() - began
            if started:
                started[-1][1] += spent
            func = ev.data["dispatcher"].py_func
            name = f"{func.__module__}.{func.__qualname__}"
            n, cpu = times.get(name, (0, 0.0))
            times[name] = (n + 1, cpu + spent - inner)

    recorder = Recorder()
    event.register("numba:compile", recorder)
    try:
        call()
    finally:
        event.unregister("numba:compile", recorder)
    return times


def _run_family(family: str) -> tuple[str, float, float, dict[str, tuple[int, float]]]:
    """Run ``family``'s steps in this process; ``(family, seconds, CPU seconds, what it
    compiled)`` (:func:`compile_times`)."""
    start, cpu = time.monotonic(), time.process_time()

    def run() -> None:
        for _, step in _warm_up_steps(family):
            step()

    compiled = compile_times(run)
    return family, time.monotonic() - start, time.process_time() - cpu, compiled


def warm_up(jobs: int = 1, stream: TextIO | None = None, top: int = 0) -> float:
    """Compile the kernels that a simulation and the test suite call, each once, in ``jobs``
    processes side by side (each running whole :data:`FAMILIES`), so that the processes that
    start next (pytest's workers, a run's workers) load them from numba's cache.

    Where the cache is warm, this only loads the kernels (seconds).  Writes a line per family on
    ``stream`` (stderr by default), with its ``top`` costliest compiled kernels (CPU seconds,
    :func:`compile_times`), and returns the seconds the whole warm-up took.  Raises
    ValueError when ``jobs`` < 1.
    """
    if isinstance(jobs, bool) or not isinstance(jobs, int) or jobs < 1:
        raise ValueError(f"jobs must be a whole number >= 1, got {jobs!r}")
    os.environ.setdefault("SIMKIT_TABLES", "fallback")  # never build win tables here
    out = stream or sys.stderr
    start = time.monotonic()
    done: Iterable[tuple[str, float, float, dict[str, tuple[int, float]]]]
    if jobs == 1:
        done = map(_run_family, FAMILIES)
    else:
        import multiprocessing
        from concurrent.futures import ProcessPoolExecutor

        with ProcessPoolExecutor(
            max_workers=min(jobs, len(FAMILIES)), mp_context=multiprocessing.get_context("spawn")
        ) as pool:
            done = list(pool.map(_run_family, FAMILIES))
    for family, seconds, cpu, compiled in done:
        print(
            f"warm-up: {family} kernels ready in {seconds:.0f} s ({cpu:.0f} CPU-s, "
            f"{sum(n for n, _ in compiled.values())} compiles)",
            file=out,
            flush=True,
        )
        costliest = sorted(compiled.items(), key=lambda kv: -kv[1][1])[:top]
        for name, (n, kernel_cpu) in costliest:
            print(f"warm-up:   {kernel_cpu:7.1f} CPU-s  {n} x {name}", file=out, flush=True)
    total = time.monotonic() - start
    print(f"warm-up: done in {total:.0f} s", file=out, flush=True)
    return total


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m simkit.kernel_cache [--jobs N] [--top N]``: :func:`warm_up`."""
    import argparse

    parser = argparse.ArgumentParser(
        prog="python -m simkit.kernel_cache", description="Compile simkit's kernels once."
    )
    parser.add_argument("--jobs", type=int, default=1, help="processes side by side (1)")
    parser.add_argument(
        "--top", type=int, default=0, help="list each family's N costliest compiles (0)"
    )
    args = parser.parse_args(argv)
    if args.jobs < 1:
        parser.error(f"--jobs must be >= 1, got {args.jobs}")
    if args.top < 0:
        parser.error(f"--top must be >= 0, got {args.top}")
    warm_up(args.jobs, top=args.top)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
