"""Benchmark: re-scoring kept games (``simkit rescore``) and the par sheet (``simkit par``).

A kept run of ``--games`` guangxi games (4 players, ``--strategy``; made once with
``simulate(..., keep_games=...)`` into ``<runs>/kept-guangxi-<games>-<strategy>-<seed>``,
``--runs`` by default ``.bench-revisions``, and reused) is re-scored under its own variant
with 1 and 2 local jobs, and its par sheet computed; the same calls of an earlier revision
(``--before``, imported beside this tree by :func:`experiments.support.simkit_at`) are timed
in the same process, in turns, and both revisions' tables are checked equal (exactly).  The
strategy only decides how the kept hands were set; re-scoring reads the hands, so its speed
does not depend on it.

    python -m experiments.benchmarks.bench_rescore [--games 1000000] [--repeats 2]
        [--before main] [--before-repeats 1] [--out results/bench] [--runs DIR]

Writes ``rescore.json`` and ``rescore.md`` into ``--out``.  Times are wall seconds (the
2-job figure spans two processes), best of ``--repeats``; the 1-job figures also give this
process's CPU seconds.  ``--before none`` skips the earlier revision.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import time
from pathlib import Path
from typing import Any

os.environ.setdefault("OMP_NUM_THREADS", "1")

from polars.testing import assert_frame_equal

from experiments.support import ROOT, run_meta, simkit_at
from simkit.errors import SimkitError
from simkit.kept import open_kept
from simkit.par import par_sheet
from simkit.rescore import rescore
from simkit.simulate import simulate

OUT = ROOT / "results" / "bench"
#: Where the kept run is made by default (ignored by git, kept between runs).
RUNS = ROOT / ".bench-revisions"
TARGET_GAMES_PER_S = 1_000_000


def kept_run(games: int, strategy: str, seed: int, runs: Path) -> Path:
    """The kept run of ``games`` guangxi games in folder ``runs``, made once and reused."""
    folder = runs / f"kept-guangxi-{games}-{strategy}-{seed}"
    try:
        if open_kept(folder).n_games == games:
            return folder
    except SimkitError:  # absent or partial: made again below
        pass
    print(f"making the kept run ({games:,} games, {strategy}) in {folder} …", flush=True)
    result = simulate(
        "guangxi", games, 4, strategy, seed=seed, progress=False, keep_games=folder / "kept"
    )
    result.save(folder)
    return folder


def timed(fn: Any) -> tuple[float, float, Any]:
    """``(wall seconds, CPU seconds of this process, value)`` of one call."""
    wall, cpu = time.perf_counter(), time.process_time()
    value = fn()
    return time.perf_counter() - wall, time.process_time() - cpu, value


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=1_000_000)
    ap.add_argument("--strategy", default="greedy")
    ap.add_argument("--seed", type=int, default=51)
    ap.add_argument("--repeats", type=int, default=2)
    ap.add_argument("--before", default="main", help="earlier revision to time beside ('none')")
    ap.add_argument("--before-repeats", type=int, default=1)
    ap.add_argument("--out", type=Path, default=OUT)
    ap.add_argument("--runs", type=Path, default=RUNS, help="where the kept run is made")
    args = ap.parse_args(argv)
    if args.games < 1 or args.repeats < 1 or args.before_repeats < 1:
        raise SystemExit("--games, --repeats and --before-repeats must be at least 1")
    run = kept_run(args.games, args.strategy, args.seed, args.runs)
    sides: dict[str, Any] = {"this": (rescore, par_sheet)}
    if args.before != "none":
        old = simkit_at(args.before)
        import importlib

        sides[args.before] = (
            importlib.import_module(f"{old.__name__}.rescore").rescore,
            importlib.import_module(f"{old.__name__}.par").par_sheet,
        )
    # warm: kernels compiled or loaded, worker pools started
    tables = {name: fns[0](run, "guangxi") for name, fns in sides.items()}
    rescore(run, "guangxi", n_jobs=2)
    for table in tables.values():
        for t in table.tables:
            assert_frame_equal(table[t], tables["this"][t], check_exact=True)
    rows: list[dict[str, Any]] = []
    best: dict[tuple[str, str, int], tuple[float, float]] = {}
    for round_ in range(max(args.repeats, args.before_repeats)):
        for name, (rescore_fn, par_fn) in sides.items():
            if name != "this" and round_ >= args.before_repeats:
                continue
            if name == "this" and round_ >= args.repeats:
                continue
            for what, jobs, fn in (
                ("rescore", 1, lambda f=rescore_fn: f(run, "guangxi", n_jobs=1)),
                ("rescore", 2, lambda f=rescore_fn: f(run, "guangxi", n_jobs=2)),
                ("par sheet", 1, lambda f=par_fn: f(run)),
            ):
                wall, cpu, _ = timed(fn)
                key = (name, what, jobs)
                old_wall, old_cpu = best.get(key, (float("inf"), float("inf")))
                best[key] = (min(old_wall, wall), min(old_cpu, cpu))
                print(f"{name:>6} {what:<9} jobs={jobs} {wall:7.2f} s wall", flush=True)
    for (name, what, jobs), (wall, cpu) in best.items():
        rows.append(
            {
                "revision": name,
                "what": what,
                "jobs": jobs,
                "games": args.games,
                "wall_s": round(wall, 3),
                "cpu_s": round(cpu, 3) if jobs == 1 else None,
                "games_per_s": round(args.games / wall),
            }
        )
    meta = run_meta(
        "python -m experiments.benchmarks.bench_rescore " + " ".join(argv or sys.argv[1:]),
        args.seed,
    ) | {
        "games": args.games,
        "strategy": args.strategy,
        "repeats": args.repeats,
        "before": args.before,
        "before_repeats": args.before_repeats,
        "machine": platform.platform(),
        "cpu_count": os.cpu_count(),
        "target_games_per_s": TARGET_GAMES_PER_S,
        "tables_equal": True,
    }
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "rescore.json").write_text(
        json.dumps({"meta": meta, "results": rows}, indent=2) + "\n", encoding="utf-8"
    )
    (args.out / "rescore.md").write_text(_markdown(meta, rows), encoding="utf-8")
    return 0


def _rate(row: dict[str, Any]) -> str:
    """Games a second of wall time, and of this process's CPU time where it was measured."""
    wall = f"{row['games_per_s']:,}"
    if row.get("cpu_s"):
        return f"{wall} ({row['games'] / row['cpu_s']:,.0f} per CPU s)"
    return wall


def _markdown(meta: dict[str, Any], rows: list[dict[str, Any]]) -> str:
    this = {(r["what"], r["jobs"]): r for r in rows if r["revision"] == "this"}
    before = {(r["what"], r["jobs"]): r for r in rows if r["revision"] != "this"}
    lines = [
        "# Re-scoring kept games and the par sheet",
        "",
        f"`{meta['command'].strip()}` — {meta['games']:,} kept guangxi games (4 players, set by "
        f"{meta['strategy']}), wall time, best of {meta['repeats']}"
        + (
            f" (the earlier revision `{meta['before']}`: best of {meta['before_repeats']}), in "
            "one process, in turns"
            if before
            else ""
        )
        + f"; {meta['machine']}, {meta['cpu_count']} CPUs, load average "
        f"{meta['load_average']} at the end (the machine is shared).  "
        + ("Both revisions' tables are equal, exactly.  " if before else "")
        + f"Target: {TARGET_GAMES_PER_S:,} games/s re-scored on 2 cores.  With one job the work "
        "runs in this process, so its CPU seconds are measured too: games per CPU second is "
        "the rate of one free core.",
        "",
        "| what | jobs | this revision | games/s | "
        + (f"`{meta['before']}` | games/s | speed-up (wall) |" if before else ""),
        "|---|---:|---:|---:|" + ("---:|---:|---:|" if before else ""),
    ]
    for key, row in this.items():
        line = f"| {row['what']} | {row['jobs']} | {row['wall_s']:.2f} s | {_rate(row)} |"
        if key in before:
            old = before[key]
            line += (
                f" {old['wall_s']:.2f} s | {_rate(old)} | {old['wall_s'] / row['wall_s']:.1f}× |"
            )
        lines.append(line)
    two = this.get(("rescore", 2), {}).get("games_per_s", 0)
    lines += [
        "",
        f"Target {'met' if two >= TARGET_GAMES_PER_S else 'missed'} in wall time on this "
        f"machine at this load ({two:,} games/s with 2 jobs).",
        "",
    ]
    return "\n".join(lines)


if __name__ == "__main__":
    raise SystemExit(main())
