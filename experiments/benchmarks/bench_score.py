"""Benchmark: games scored per second per core, every shipped variant, 4 players.

Run: ``python -m experiments.benchmarks.bench_score [--games 400000] [--repeats 5]``.
Writes ``results/bench/score.json`` and ``results/bench/score.md``.

Each variant is timed with the breakdown off and on, beside a peer in the same run: ranking the
12 duns of each game alone (:func:`simkit.evaluate.rank3` / :func:`~simkit.evaluate.rank5`),
the floor any scorer that ranks its duns pays.  Times are CPU seconds of this process
(``time.process_time``), best of ``--repeats``, so other processes on a shared machine inflate
them less; the scorer is single-threaded, so games/s is per core.  Arrangements: dealt hands
split in card order with middle and back swapped when the middle is bigger (fouls, bonuses and
scoops all occur).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import time
from pathlib import Path

import numpy as np

from experiments.support import best_of
from simkit.deal import deal
from simkit.evaluate import rank3, rank5
from simkit.score import score
from simkit.variants import load_variant, variant_names

TARGET_ALL_PAIRS = 2_000_000
OUT_DIR = Path(__file__).resolve().parents[2] / "results" / "bench"


def arrangements(n_games: int, seed: int) -> np.ndarray:
    hands = deal(n_games, 4, rng=seed)
    middle_bigger = rank5(hands[..., 3:8]) > rank5(hands[..., 8:])
    swapped = hands.copy()
    swapped[..., 3:8], swapped[..., 8:] = hands[..., 8:], hands[..., 3:8]
    return np.where(middle_bigger[..., None], swapped, hands)


def best_rate(fn, n_games: int, repeats: int) -> float:
    fn()  # compile / warm caches
    return n_games / best_of(fn, repeats, clock=time.process_time)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=400_000)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--seed", type=int, default=20261130)
    parser.add_argument("--out", type=Path, default=OUT_DIR)
    args = parser.parse_args(argv)

    hands = arrangements(args.games, args.seed)
    rows = []
    for name in variant_names():
        variant = load_variant(name)
        rank_rate = best_rate(
            lambda v=variant: (
                rank3(hands[..., :3], v),
                rank5(hands[..., 3:8], v),
                rank5(hands[..., 8:], v),
            ),
            args.games,
            args.repeats,
        )
        plain = best_rate(lambda v=variant: score(hands, v), args.games, args.repeats)
        detail = best_rate(
            lambda v=variant: score(hands, v, breakdown=True), args.games, args.repeats
        )
        topology = variant.scoring.topology
        rows.append(
            {
                "variant": name,
                "key": variant.key,
                "topology": topology,
                "games_per_s": round(plain),
                "games_per_s_breakdown": round(detail),
                "peer_rank_only_games_per_s": round(rank_rate),
                "meets_target": bool(plain >= TARGET_ALL_PAIRS)
                if topology == "all-pairs"
                else None,
            }
        )
        print(
            f"{name:<17} {topology:<9} {plain / 1e6:6.2f} M/s  breakdown {detail / 1e6:6.2f} "
            f"M/s  (ranking alone {rank_rate / 1e6:6.2f} M/s)",
            flush=True,
        )
    meta = {
        "command": "python -m experiments.benchmarks.bench_score " + " ".join(argv or sys.argv[1:]),
        "games": args.games,
        "players": 4,
        "repeats": args.repeats,
        "seed": args.seed,
        "timer": "time.process_time (CPU seconds of this process), best of repeats",
        "machine": platform.platform(),
        "processor": platform.processor() or platform.machine(),
        "cpu_count": os.cpu_count(),
        "load_average": list(os.getloadavg()) if hasattr(os, "getloadavg") else None,
        "python": platform.python_version(),
        "numpy": np.__version__,
        "target_all_pairs_games_per_s": TARGET_ALL_PAIRS,
    }
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "score.json").write_text(
        json.dumps({"meta": meta, "results": rows}, indent=2) + "\n", encoding="utf-8"
    )
    lines = [
        "# Scoring throughput (games per second, one core, 4 players)",
        "",
        f"`{meta['command'].strip()}` — {args.games:,} games, best of {args.repeats}, "
        f"CPU time; {meta['machine']}, {meta['cpu_count']} CPUs, load average "
        f"{meta['load_average']}.  Peer: ranking the 12 duns alone.  Target: "
        f"{TARGET_ALL_PAIRS:,} games/s for all-pairs variants.",
        "",
        "| variant | topology | games/s | with breakdown | ranking alone (peer) | target |",
        "|---|---|---:|---:|---:|---|",
    ]
    for r in rows:
        target = {True: "met", False: "missed", None: "n/a (banker)"}[r["meets_target"]]
        lines.append(
            f"| {r['variant']} | {r['topology']} | {r['games_per_s']:,} | "
            f"{r['games_per_s_breakdown']:,} | {r['peer_rank_only_games_per_s']:,} | {target} |"
        )
    (args.out / "score.md").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
