"""Benchmark: games scored per second per core, every shipped variant, 4 players.

Run: ``python -m experiments.benchmarks.bench_score [--games 400000] [--repeats 5]``.
Writes ``results/bench/score.json`` and ``results/bench/score.md``.

With ``--before REV`` it is an A/B benchmark instead: the scorer of git revision ``REV``
(imported beside this one by :func:`experiments.support.simkit_at`) and this working tree's,
timed in turns on the same games in one process (each round calling both, CPU time, best of
``--repeats``), with and without the breakdown; both must return the same points to the last
bit.  Writes ``score_ab.json`` and ``score_ab.md`` under ``--out``.

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
import importlib
import json
import os
import platform
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from experiments.support import best_in_turns, best_of, simkit_at
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
    parser.add_argument("--before", default=None, help="A/B against this git revision")
    args = parser.parse_args(argv)
    if args.games < 1 or args.repeats < 1:
        raise SystemExit("--games and --repeats must be at least 1")

    hands = arrangements(args.games, args.seed)
    if args.before is not None:
        return main_ab(hands, args, argv)
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


def ab_rows(
    old_score: Callable[..., Any],
    old_load: Callable[[str], Any],
    hands: np.ndarray,
    repeats: int,
) -> list[dict]:
    """Each shipped variant's games/s under the earlier revision's ``score`` (its variants
    loaded by ``old_load``) and this one's, with and without the breakdown, timed in turns;
    raises ``AssertionError`` if their points differ."""
    rows = []
    n = hands.shape[0]
    for name in variant_names():
        v_new, v_old = load_variant(name), old_load(name)
        for breakdown in (False, True):
            new_out = score(hands, v_new, breakdown=breakdown)
            old_out = old_score(hands, v_old, breakdown=breakdown)
            new_total = new_out[0] if breakdown else new_out
            old_total = old_out[0] if breakdown else old_out
            assert np.array_equal(new_total, old_total), f"{name}: the scores differ"
            best = best_in_turns(
                {
                    "before": lambda v=v_old, b=breakdown: old_score(hands, v, breakdown=b),
                    "after": lambda v=v_new, b=breakdown: score(hands, v, breakdown=b),
                },
                repeats,
            )
            row = {
                "variant": name,
                "breakdown": breakdown,
                "before_games_per_s": round(n / best["before"]),
                "after_games_per_s": round(n / best["after"]),
                "ratio": round(best["before"] / best["after"], 3),
            }
            rows.append(row)
            print(
                f"{name:<17} breakdown={breakdown!s:<5} before {n / best['before'] / 1e6:6.2f} "
                f"M/s  after {n / best['after'] / 1e6:6.2f} M/s  ratio {row['ratio']:.3f}",
                flush=True,
            )
    return rows


def main_ab(hands: np.ndarray, args: argparse.Namespace, argv: list[str] | None) -> int:
    """``--before``: the A/B run; writes ``score_ab.json`` and ``score_ab.md``."""
    name = simkit_at(args.before).__name__
    old_score = importlib.import_module(f"{name}.score").score
    old_load = importlib.import_module(f"{name}.variants").load_variant
    rows = ab_rows(old_score, old_load, hands, args.repeats)
    ratios = [r["ratio"] for r in rows]
    meta = {
        "command": "python -m experiments.benchmarks.bench_score " + " ".join(argv or sys.argv[1:]),
        "before": args.before,
        "games": args.games,
        "players": 4,
        "repeats": args.repeats,
        "seed": args.seed,
        "timer": "time.process_time, best of repeats, the two packages in turns each round",
        "machine": platform.platform(),
        "cpu_count": os.cpu_count(),
        "load_average": list(os.getloadavg()) if hasattr(os, "getloadavg") else None,
        "geometric_mean_ratio": round(float(np.exp(np.mean(np.log(ratios)))), 3),
        "min_ratio": min(ratios),
    }
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "score_ab.json").write_text(
        json.dumps({"meta": meta, "results": rows}, indent=2) + "\n", encoding="utf-8"
    )
    lines = [
        f"# Scoring throughput, this tree against {args.before} (games/s, one core, 4 players)",
        "",
        f"`{meta['command'].strip()}` — {args.games:,} games, best of {args.repeats} in turns, "
        f"CPU time; {meta['machine']}, {meta['cpu_count']} CPUs, load average "
        f"{meta['load_average']}.  Ratio = after / before speed (above 1: faster); geometric "
        f"mean {meta['geometric_mean_ratio']}, least {meta['min_ratio']}.",
        "",
        "| variant | breakdown | before | after | ratio |",
        "|---|---|---:|---:|---:|",
    ]
    lines += [
        f"| {r['variant']} | {r['breakdown']} | {r['before_games_per_s']:,} | "
        f"{r['after_games_per_s']:,} | {r['ratio']:.3f} |"
        for r in rows
    ]
    (args.out / "score_ab.md").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
