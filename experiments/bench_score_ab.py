"""A/B benchmark: the scorer against its baseline kernel, alternating in one process.

Run: ``.venv/bin/python experiments/bench_score_ab.py [--games 100000] [--pairs 25]``.
Writes ``results/bench/score_ab.md`` and ``results/bench/score_ab.json``.

``experiments/_score_before.py`` is a verbatim copy of ``simkit/score.py`` (commit 474c9f5)
before its rules were compiled into :class:`simkit.variants.compiled.CompiledRules` and its
kernel split into helpers.  Both score the same arrangements (those of ``bench_score.py``, 4
players) of every shipped variant.  Each pair times the baseline and the new scorer once, in
alternating order (AB, BA, ...), so a change in machine load between pairs falls on both
alike.  The ratio is ``baseline time / new time`` (above 1: the new scorer is faster);
reported are the median and interquartile range over pairs.  A third column times the new
scorer given the dun ranks (``score(..., ranks=...)``), as the simulation runner calls it.
Times are CPU seconds of this process (``time.process_time``).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
from functools import partial
from pathlib import Path

import _score_before as before  # experiments/ is on sys.path when run as a script
import numpy as np
from _timing import cpu_time
from bench_score import arrangements

from simkit.evaluate import dun_ranks
from simkit.score import score
from simkit.variants import load_variant, variant_names

OUT_DIR = Path(__file__).resolve().parents[1] / "results" / "bench"
TARGET_RATIO = 0.95


def ratios(old, new, pairs: int) -> np.ndarray:  # type: ignore[no-untyped-def]
    """``pairs`` ratios old time / new time, the order alternating from pair to pair."""
    old()
    new()  # compile / warm caches
    out = []
    for k in range(pairs):
        if k % 2 == 0:
            t_old, t_new = cpu_time(old), cpu_time(new)
        else:
            t_new, t_old = cpu_time(new), cpu_time(old)
        out.append(t_old / t_new)
    return np.array(out)


def summary(r: np.ndarray) -> dict[str, float]:
    q1, med, q3 = np.percentile(r, [25, 50, 75])
    return {"median": round(float(med), 3), "q1": round(float(q1), 3), "q3": round(float(q3), 3)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--pairs", type=int, default=25)
    parser.add_argument("--seed", type=int, default=20261130)
    parser.add_argument("--out", type=Path, default=OUT_DIR)
    args = parser.parse_args(argv)

    hands = arrangements(args.games, args.seed)
    rows = []
    for name in variant_names():
        v = load_variant(name)
        ranks = dun_ranks(hands, v)
        row: dict[str, object] = {"variant": name}
        for breakdown in (False, True):
            label = "breakdown" if breakdown else "total"
            old = partial(before.score, hands, v, breakdown=breakdown)
            new = partial(score, hands, v, breakdown=breakdown)
            row[label] = summary(ratios(old, new, args.pairs))
        given = partial(score, hands, v, ranks=ranks)
        row["total_ranks_given"] = summary(
            ratios(partial(before.score, hands, v), given, args.pairs)
        )
        rows.append(row)
        print(name, row, flush=True)
    medians = [r[k]["median"] for r in rows for k in ("total", "breakdown")]  # type: ignore[index]
    meta = {
        "command": "python experiments/bench_score_ab.py " + " ".join(argv or sys.argv[1:]),
        "games": args.games,
        "players": 4,
        "pairs": args.pairs,
        "seed": args.seed,
        "timer": "time.process_time (CPU seconds of this process)",
        "machine": platform.platform(),
        "cpu_count": os.cpu_count(),
        "load_average": list(os.getloadavg()) if hasattr(os, "getloadavg") else None,
        "python": platform.python_version(),
        "numpy": np.__version__,
        "target_ratio": TARGET_RATIO,
        "worst_median": min(medians),
    }
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "score_ab.json").write_text(
        json.dumps({"meta": meta, "results": rows}, indent=2) + "\n", encoding="utf-8"
    )

    def cell(s: dict[str, float]) -> str:
        return f"{s['median']:.3f} ({s['q1']:.3f}–{s['q3']:.3f})"

    lines = [
        "# Scorer A/B: compiled rules and split kernel against the baseline kernel",
        "",
        f"`{meta['command'].strip()}` — {args.games:,} games, 4 players, {args.pairs} "
        f"alternating pairs per cell, CPU time; {meta['machine']}, {meta['cpu_count']} CPUs, "
        f"load average {meta['load_average']}.  The machine was shared with other jobs while "
        "this ran, so single times are noisy; the ratios of alternating pairs are what to read.",
        "",
        "Ratio = baseline time / new time (above 1: the new scorer is faster); median "
        f"(interquartile range).  Target: median ≥ {TARGET_RATIO}.  Worst median of the first "
        f"two columns: {meta['worst_median']:.3f}.  The last column times ``score(..., "
        "ranks=...)`` without the ranking its caller already did.",
        "",
        "| variant | total | with breakdown | total, dun ranks given |",
        "|---|---:|---:|---:|",
    ]
    for r in rows:
        lines.append(
            f"| {r['variant']} | {cell(r['total'])} | {cell(r['breakdown'])} | "  # type: ignore[arg-type]
            f"{cell(r['total_ranks_given'])} |"  # type: ignore[arg-type]
        )
    (args.out / "score_ab.md").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
