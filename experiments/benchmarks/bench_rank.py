"""Benchmark the core kernels on one core: 5-card and 3-card ranking, and dealing.

Ranks >= 10M random five-card hands with ``simkit.rank5`` and, in the same run, a sample with
phevaluator's Python API (the peer), checking that both order the sample the same way.

    python -m experiments.benchmarks.bench_rank [--hands 10000000] [--peer-hands 200000]

Writes ``results/bench/core.json`` and ``results/bench/core.md``.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import time
from pathlib import Path

# One core: numba kernels here are single-threaded; keep BLAS and friends single-threaded too.
os.environ.setdefault("NUMBA_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")

import numpy as np

from experiments.support import best_of
from simkit.deal import deal
from simkit.evaluate import rank3, rank5

OUT = Path(__file__).resolve().parents[2] / "results" / "bench"


def random_hands(n: int, k: int, seed: int) -> np.ndarray:
    """``n`` uniformly random k-card hands of distinct cards (rejection of rows with repeats)."""
    gen = np.random.default_rng(seed)
    hands = gen.integers(0, 52, size=(n, k), dtype=np.int8)
    while True:
        s = np.sort(hands, axis=1)
        bad = np.flatnonzero((np.diff(s, axis=1) == 0).any(axis=1))
        if bad.size == 0:
            return hands
        hands[bad] = gen.integers(0, 52, size=(bad.size, k), dtype=np.int8)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=10_000_000)
    parser.add_argument("--peer-hands", type=int, default=200_000)
    parser.add_argument("--deal-games", type=int, default=1_000_000)
    parser.add_argument("--out", type=Path, default=OUT, help="results folder (results/bench)")
    args = parser.parse_args()

    hands5 = random_hands(args.hands, 5, seed=1)
    hands3 = random_hands(args.hands, 3, seed=2)
    rank5(hands5[:10])  # compile / load the cached kernels and build tables
    rank3(hands3[:10])
    deal(10, 4, rng=0)

    t_rank5 = best_of(lambda: rank5(hands5))
    t_rank3 = best_of(lambda: rank3(hands3))
    t_deal = best_of(lambda: deal(args.deal_games, 4, rng=0))

    from phevaluator import evaluate_cards  # the peer: same card integers (4*rank + suit)

    sample = hands5[: args.peer_hands]
    rows = [tuple(int(c) for c in row) for row in sample.tolist()]
    t0 = time.perf_counter()
    peer = np.array([evaluate_cards(*row) for row in rows])
    t_peer = time.perf_counter() - t0
    # Same order: phevaluator ranks 1 (best) .. 7462 (worst); simkit higher is better.  The
    # wheel is the lowest straight in both (the 'lowest' reading).
    ours = rank5(sample, "qiantang")
    _, ours_dense = np.unique(ours, return_inverse=True)
    _, peer_dense = np.unique(-peer, return_inverse=True)
    same_order = bool((ours_dense == peer_dense).all())

    result = {
        "command": " ".join(["python -m experiments.benchmarks.bench_rank", *sys.argv[1:]]),
        "machine": f"{platform.processor() or platform.machine()}, {os.cpu_count()} cores",
        "python": platform.python_version(),
        "rank5": {"hands": args.hands, "seconds": t_rank5, "hands_per_s": args.hands / t_rank5},
        "rank3": {"hands": args.hands, "seconds": t_rank3, "hands_per_s": args.hands / t_rank3},
        "phevaluator_python": {
            "hands": args.peer_hands,
            "seconds": t_peer,
            "hands_per_s": args.peer_hands / t_peer,
            "same_order_as_simkit": same_order,
        },
        "speedup_vs_phevaluator": (args.hands / t_rank5) / (args.peer_hands / t_peer),
        "deal": {
            "games": args.deal_games,
            "players": 4,
            "seconds": t_deal,
            "hands_per_s": 4 * args.deal_games / t_deal,
        },
    }
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "core.json").write_text(json.dumps(result, indent=2) + "\n")
    md = [
        "# Core kernels, one core",
        "",
        "`python -m experiments.benchmarks.bench_rank`",
        "",
        "| kernel | hands | hands/s |",
        "|---|---:|---:|",
        f"| simkit `rank5` | {args.hands:,} | {result['rank5']['hands_per_s']:,.0f} |",
        f"| phevaluator `evaluate_cards` (Python API) | {args.peer_hands:,} "
        f"| {result['phevaluator_python']['hands_per_s']:,.0f} |",
        f"| simkit `rank3` | {args.hands:,} | {result['rank3']['hands_per_s']:,.0f} |",
        f"| simkit `deal` (13-card hands, 4 players) | {4 * args.deal_games:,} "
        f"| {result['deal']['hands_per_s']:,.0f} |",
        "",
        f"`rank5` is {result['speedup_vs_phevaluator']:,.0f}x phevaluator's Python API; both order "
        f"the {args.peer_hands:,}-hand sample identically: {same_order}.",
        f"Machine: {result['machine']}, Python {result['python']}.",
        "",
    ]
    (args.out / "core.md").write_text("\n".join(md))
    print("\n".join(md))


if __name__ == "__main__":
    main()
