"""A/B benchmark: the max-ev search kernel against its baseline, alternating in one process.

Run: ``.venv/bin/python experiments/bench_search_ab.py [--hands 8000] [--pairs 9]``.
Writes ``results/bench/search_ab.md`` and ``results/bench/search_ab.json``.

``experiments/_search_before.py`` holds the search kernel of commit 079c806 verbatim, before
a back's bound was first checked against its class's rest (its separable part at its caps plus
the group bound's rest: no joint chances) and before the 马牌's counts were marked by lookup
(one copy: the 495 + 66 subsets that hold it; before, a power per subset), and the value it
scored splits with at that commit, before the majority's three pairs and triple were read from
one lookup of their cells (:func:`simkit.arrange.joint.cdf3_and_pairs`), before those pairs
were read on the grid's faces (no corner weighted by an exact 0), and before a back's 马牌 bound
knew whether the back holds the card (:func:`simkit.arrange.value._horse_bound_back`), and
before the walk stepped over the groups a hand does not hold by their bits, and before a
split's value was memoized by its class triple.  Both
search the same hands (4 players; 2 for western-2-4) under expected-score's solver of each shipped
variant on its pooled tables (the default's removal buckets pick one such solver per hand and
search it the same way), and must return the same split and value for every hand.  Each pair
times the baseline and the new kernel once, in alternating order (AB, BA, ...), so that a
change in machine load between pairs falls on both alike: the ratio is ``baseline time / new
time`` (above 1: the new kernel is faster), median and interquartile range over pairs.  Rates
are hands per CPU second (``time.process_time``), the best of the pairs.  The last column
times the default as a simulation calls it (``ExpectedScore().choose_splits``: removal buckets
and the declare check included) on the same hands, best of 5, for every shipped variant.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import time
from pathlib import Path

import _search_before as before  # experiments/ is on sys.path when run as a script
import numpy as np
from _timing import best_of, cpu_time

from simkit.arrange import ExpectedScore
from simkit.arrange.classes import coarse_of_fine
from simkit.arrange.search import (
    BACK_FRONT,
    BACK_MIDDLE,
    FIVE_SUBSETS,
    THREE_SUBSETS,
    _max_ev_kernel,
    _stacked,
)
from simkit.deal import deal
from simkit.variants import resolve_variant, variant_names

OUT_DIR = Path(__file__).resolve().parents[1] / "results" / "bench"
SEED = 2026
#: The speed the issue asks of the default, hands per second on one core.
TARGET_RATE = 40_000


def search(kernel, rows, solver):  # type: ignore[no-untyped-def]
    """``kernel`` (the new one or the baseline) over ``rows`` under one solver."""
    n = rows.shape[0]
    q, fav, sep, params, cops, stricts, horses, ties = _stacked((solver,))
    ids = np.empty((1, n, 3), dtype=np.int64)
    values = np.empty((1, n), dtype=np.float64)
    n_scored = np.empty((1, n), dtype=np.int64)
    kernel(
        rows, solver.rank_tables, BACK_MIDDLE, BACK_FRONT, q, fav, sep, params, cops, stricts,
        horses, ties, np.zeros((1, n), dtype=np.int64), FIVE_SUBSETS, THREE_SUBSETS,
        coarse_of_fine(), ids, values, n_scored,
    )  # fmt: skip
    return ids[0], values[0], n_scored[0]


def bench(variant: str, players: int, n_hands: int, pairs: int) -> dict:
    v = resolve_variant(variant)
    strategy = ExpectedScore()
    solver = ExpectedScore(removal=False).solver(v, players)
    rows = np.ascontiguousarray(
        deal(n_hands // players + 1, players, rng=SEED).reshape(-1, 13)[:n_hands]
    )
    old = search(before._max_ev_kernel, rows, solver)  # compiles too
    new = search(_max_ev_kernel, rows, solver)
    same = bool((old[0] == new[0]).all() and (old[1] == new[1]).all())
    times_old, times_new = [], []
    for k in range(pairs):
        run_old = lambda: search(before._max_ev_kernel, rows, solver)  # noqa: E731
        run_new = lambda: search(_max_ev_kernel, rows, solver)  # noqa: E731
        if k % 2 == 0:
            times_old.append(cpu_time(run_old))
            times_new.append(cpu_time(run_new))
        else:
            times_new.append(cpu_time(run_new))
            times_old.append(cpu_time(run_old))
    ratio = np.array(times_old) / np.array(times_new)
    strategy.choose_splits(rows[:8], v, n_players=players)  # compile, build the bucket solvers
    t_default = best_of(
        lambda: strategy.choose_splits(rows, v, n_players=players), 5, clock=time.process_time
    )
    return {
        "variant": variant,
        "players": players,
        "hands": n_hands,
        "same_answers": same,
        "baseline_hands_per_s": round(n_hands / min(times_old)),
        "new_hands_per_s": round(n_hands / min(times_new)),
        "ratio_median": round(float(np.median(ratio)), 3),
        "ratio_q1": round(float(np.percentile(ratio, 25)), 3),
        "ratio_q3": round(float(np.percentile(ratio, 75)), 3),
        "splits_scored_baseline": round(float(old[2].mean()), 1),
        "splits_scored_new": round(float(new[2].mean()), 1),
        "default_hands_per_s": round(n_hands / t_default),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=8000)
    parser.add_argument("--pairs", type=int, default=9)
    parser.add_argument("--out", type=Path, default=OUT_DIR)
    args = parser.parse_args(argv)
    if args.hands < 8 or args.pairs < 1:
        parser.error("--hands must be at least 8 and --pairs at least 1")
    configs = [(name, 2 if name == "western-2-4" else 4) for name in variant_names()]
    rows = []
    for variant, players in configs:
        row = bench(variant, players, args.hands, args.pairs)
        rows.append(row)
        print(
            f"{variant:18s} {row['baseline_hands_per_s']:>7,} -> {row['new_hands_per_s']:>7,} "
            f"hands/s  x{row['ratio_median']:.3f}  scored {row['splits_scored_baseline']} -> "
            f"{row['splits_scored_new']}  same {row['same_answers']}  default "
            f"{row['default_hands_per_s']:,}",
            flush=True,
        )
    meta = {
        "command": "python experiments/bench_search_ab.py "
        + " ".join(sys.argv[1:] if argv is None else argv),
        "seed": SEED,
        "pairs": args.pairs,
        "date_utc": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
        "machine": platform.machine(),
        "cpu_count": os.cpu_count(),
        "load_average": [round(x, 2) for x in os.getloadavg()],
        "python": platform.python_version(),
        "numpy": np.__version__,
        "target_rate": TARGET_RATE,
    }
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "search_ab.json").write_text(
        json.dumps({"meta": meta, "results": rows}, indent=2) + "\n", encoding="utf-8"
    )
    below = [r["variant"] for r in rows if r["default_hands_per_s"] < TARGET_RATE]
    lines = [
        "# Search A/B: the max-ev search and its value against their baseline (commit 079c806)",
        "",
        f"`{meta['command'].strip()}` — seed {SEED}, {args.hands:,} hands a row, "
        f"{args.pairs} alternating pairs, one core, CPU time; {meta['date_utc']}, "
        f"{meta['machine']}, {meta['cpu_count']} CPUs, load average {meta['load_average']} at "
        "the end (the machine is shared: single rates are lower bounds, the ratios of "
        "alternating pairs are what to read).",
        "",
        "Both kernels search expected-score's solver of each variant on its pooled tables over "
        "the same hands; *same answers*: every hand's split and value equal.  Ratio = baseline "
        "time / new time, median (interquartile range).  *Default*: "
        "`ExpectedScore().choose_splits` (removal buckets where the tables carry them) on the "
        f"same hands, best of 5; target {TARGET_RATE:,} hands/s"
        + (f"; below it: {', '.join(below)}." if below else "; every row meets it."),
        "",
        "| variant | players | baseline hands/s | new hands/s | ratio | splits scored, "
        "baseline → new | same answers | default hands/s |",
        "|---|---|---:|---:|---|---|---|---:|",
    ]
    for r in rows:
        lines.append(
            f"| {r['variant']} | {r['players']} | {r['baseline_hands_per_s']:,} | "
            f"{r['new_hands_per_s']:,} | {r['ratio_median']:.3f} ({r['ratio_q1']:.3f}–"
            f"{r['ratio_q3']:.3f}) | {r['splits_scored_baseline']} → {r['splits_scored_new']} | "
            f"{'yes' if r['same_answers'] else 'NO'} | {r['default_hands_per_s']:,} |"
        )
    (args.out / "search_ab.md").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return 0 if all(r["same_answers"] for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
