"""Benchmark the whole simulation: deal, max-ev arrangement, scoring and aggregation.

Plays the same deals under every shipped variant with ``n_jobs=1`` and ``n_jobs=2`` (the
scaling), checks that both give identical tables, runs each variant alone with ``n_jobs=2``,
times one full-size run (1M games of the default variant alone), and times the stages of one
block side by side (deal, arrange, score, and the summaries simkit adds on top), so the cost
of aggregation is read against the pipeline it wraps.

    python -m experiments.benchmarks.bench_simulate [--games 8192] [--alone-games 32768]
        [--full-variant guangxi] [--full-games 1000000] [--strategy max-ev]

Writes ``results/bench/simulate.json`` and ``results/bench/simulate.md``.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import time
from pathlib import Path

os.environ.setdefault("OMP_NUM_THREADS", "1")

import importlib

import numpy as np

import simkit
from experiments.support import best_of
from simkit.arrange import arrangements
from simkit.deal import deal
from simkit.phases import before_setting
from simkit.score import score
from simkit.simulate import BLOCK_GAMES, make_config, play_block, simulate

# The module, not the function: ``simkit.simulate`` is re-exported as the function.
sim = importlib.import_module("simkit.simulate")

OUT = Path(__file__).resolve().parents[2] / "results" / "bench"
TARGET_GAMES = 1_000_000
TARGET_SECONDS = 60.0


def timed(fn):  # type: ignore[no-untyped-def]
    t0 = time.perf_counter()
    value = fn()
    return time.perf_counter() - t0, value


def stage_times(strategy: str) -> dict[str, float]:
    """Seconds per block of BLOCK_GAMES deals, all variants, for each stage (one core)."""
    config = make_config("all", 2 * BLOCK_GAMES, strategy=strategy, seed=7)
    play_block(config, 0)  # warm: solvers and tables of every variant loaded
    # The very deals and random stream of block 1, so the stages add up to play_block.
    deal_seq, play_seq, phase_seq = np.random.SeedSequence(7, spawn_key=(1,)).spawn(3)
    t_deal, dealt = timed(lambda: deal(BLOCK_GAMES, 4, rng=np.random.default_rng(deal_seq)))
    hands_of = [before_setting(dealt, v, None, phase_seq)[0] for v in config.variants]
    # as play_block does it: one search per group of variants that share cards and ranking
    t_arrange, plays = timed(
        lambda: arrangements(hands_of, config.variants, strategy, n_players=4, rng=play_seq)
    )
    t_score = 0.0
    for variant, play in zip(config.variants, plays, strict=True):
        dt, _ = timed(lambda v=variant, p=play: score(p.cards, v, declared=p.declared))
        t_score += dt
    t_block, _ = timed(lambda: play_block(config, 1))
    # The same block with the arrangements served from the run above: what simkit adds around
    # the arrangement (scoring, the declare-or-play rescoring, special detection, summaries).
    real = sim.arrangements
    sim.arrangements = lambda *a, **k: plays  # type: ignore[assignment]
    try:
        play_block(config, 1)
        t_rest, _ = timed(lambda: play_block(config, 1))
    finally:
        sim.arrangements = real  # type: ignore[assignment]
    return {
        "deal": t_deal,
        f"arrange ({strategy})": t_arrange,
        "score": t_score,
        "play_block without arranging (score, rescoring, summaries)": t_rest,
        "play_block (everything)": t_block,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=4 * BLOCK_GAMES)
    parser.add_argument("--strategy", default="max-ev")
    parser.add_argument("--repeats", type=int, default=3, help="best of this many runs")
    parser.add_argument(
        "--full-variant",
        default="guangxi",
        help="variant of the one full-size run (--full-games games alone, n_jobs=2)",
    )
    parser.add_argument(
        "--full-games",
        type=int,
        default=TARGET_GAMES,
        help="games of the full-size run, timed once, not extrapolated (0: skip it)",
    )
    parser.add_argument(
        "--alone-games",
        type=int,
        default=16 * BLOCK_GAMES,
        help="games of each variant run alone (enough blocks that start-up is a small share)",
    )
    parser.add_argument("--out", type=Path, default=OUT, help="results folder (results/bench)")
    args = parser.parse_args()
    variants = make_config("all", 1, seed=0).variants
    n_var = len(variants)

    # Compile (or load from the numba cache) before timing, in this process and in workers.
    simulate("all", 64, strategy=args.strategy, seed=0, n_jobs=1, progress=False)
    simulate(
        "all",
        2 * BLOCK_GAMES,
        strategy=args.strategy,
        seed=0,
        n_jobs=2,
        chunk_size=BLOCK_GAMES,
        progress=False,
    )

    trials = [stage_times(args.strategy) for _ in range(args.repeats)]
    stages = {k: min(t[k] for t in trials) for k in trials[0]}
    runs = {}
    results = {}
    best: dict[int, float] = {1: float("inf"), 2: float("inf")}
    # Alternate 1 and 2 jobs and keep the best of each: the machine may be shared.
    for _ in range(args.repeats):
        for jobs in (1, 2):
            dt, results[jobs] = timed(
                lambda j=jobs: simulate(
                    "all",
                    args.games,
                    strategy=args.strategy,
                    seed=11,
                    n_jobs=j,
                    chunk_size=BLOCK_GAMES,
                    progress=False,
                )
            )
            best[jobs] = min(best[jobs], dt)
    for jobs, dt in best.items():
        runs[jobs] = {
            "seconds": dt,
            "deals_per_s": args.games / dt,
            "variant_games_per_s": args.games * n_var / dt,
            "seconds_for_1M_games_per_variant": TARGET_GAMES * dt / args.games,
            # The target read per variant: 1M games of one variant, the run's time shared
            # evenly among the variants it plays on the same deals.
            "seconds_for_1M_games_of_one_variant": TARGET_GAMES * dt / (args.games * n_var),
        }
    # Each variant alone (no deals shared with other variants), two jobs: the per-variant
    # reading of the target without the saving of playing one deal under several variants.
    alone = {
        variant.name: best_of(
            lambda v=variant: simulate(
                v.name,
                args.alone_games,
                strategy=args.strategy,
                seed=11,
                n_jobs=2,
                chunk_size=BLOCK_GAMES,
                progress=False,
            ),
            args.repeats,
        )
        for variant in variants
    }
    alone_1m = {name: TARGET_GAMES * dt / args.alone_games for name, dt in alone.items()}
    # The target measured, not extrapolated: one run of the full size, the default variant.
    full_seconds = None
    if args.full_games > 0:
        full_seconds, _ = timed(
            lambda: simulate(
                args.full_variant,
                args.full_games,
                strategy=args.strategy,
                seed=13,
                n_jobs=2,
                progress=False,
            )
        )
    identical = results[1].summary.equals(results[2].summary)  # type: ignore[union-attr]
    scaling = runs[1]["seconds"] / runs[2]["seconds"]
    record = {
        "command": " ".join(["python -m experiments.benchmarks.bench_simulate", *sys.argv[1:]]),
        "benchmark": "simulate end to end (deal, arrange, score, aggregate), all variants",
        "strategy": args.strategy,
        "games": args.games,
        "repeats_best_kept": args.repeats,
        "variants": [v.name for v in variants],
        "players": 4,
        "block_games": BLOCK_GAMES,
        "runs": {f"n_jobs={j}": r for j, r in runs.items()},
        "scaling_1_to_2_jobs": scaling,
        "identical_tables_1_vs_2_jobs": identical,
        "stage_seconds_per_block_all_variants": stages,
        "target": f"{TARGET_GAMES:,} four-player games per variant in {TARGET_SECONDS:.0f} s "
        "with n_jobs=2",
        "target_reading": "time for 1M games of one variant (the all-variant run's time / "
        "number of variants)",
        "target_met": runs[2]["seconds_for_1M_games_of_one_variant"] <= TARGET_SECONDS,
        "alone_games": args.alone_games,
        "each_variant_alone_n_jobs_2": {
            name: {"seconds": alone[name], "seconds_for_1M_games": alone_1m[name]} for name in alone
        },
        "each_variant_alone_target_met": max(alone_1m.values()) <= TARGET_SECONDS,
        "full_run": None
        if full_seconds is None
        else {
            "variant": args.full_variant,
            "games": args.full_games,
            "n_jobs": 2,
            "seconds": full_seconds,
        },
        "simkit_version": simkit.__version__,
        "machine": {
            "cpus": os.cpu_count(),
            "python": platform.python_version(),
            "platform": platform.platform(),
        },
    }
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "simulate.json").write_text(json.dumps(record, indent=2) + "\n")
    lines = [
        "# Simulation benchmark",
        "",
        f"`python -m experiments.benchmarks.bench_simulate --games {args.games} "
        f"--alone-games {args.alone_games} --full-games {args.full_games}` "
        f"(best of {args.repeats}): "
        f"{args.games:,} four-player deals, each played under all {n_var} shipped variants "
        f"(`{args.strategy}` arrangement, scoring, every summary of the result tables).",
        "",
        "| n_jobs | seconds | deals/s | variant-games/s | s for 1M deals under all variants "
        "| s for 1M games of one variant |",
        "|---|---|---|---|---|---|",
    ]
    for j, r in runs.items():
        lines.append(
            f"| {j} | {r['seconds']:.1f} | {r['deals_per_s']:,.0f} | "
            f"{r['variant_games_per_s']:,.0f} | {r['seconds_for_1M_games_per_variant']:,.0f} | "
            f"{r['seconds_for_1M_games_of_one_variant']:,.0f} |"
        )
    lines += [
        "",
        f"Scaling from 1 to 2 jobs: ×{scaling:.2f}. Identical tables with 1 and 2 jobs: "
        f"{identical}. Target ({record['target']}, read as {record['target_reading']}): "
        f"{'met' if record['target_met'] else 'not met'}.",
        "",
        f"Each variant alone ({args.alone_games:,} games, `n_jobs=2`, best of {args.repeats}; "
        "no deal shared with another variant):",
        "",
        "| variant | seconds | s for 1M games |",
        "|---|---|---|",
        *(
            f"| {name} | {alone[name]:.2f} | {alone_1m[name]:.0f} |"
            for name in sorted(alone, key=alone_1m.__getitem__)
        ),
        "",
        f"Every variant alone under {TARGET_SECONDS:.0f} s for 1M games: "
        f"{'yes' if record['each_variant_alone_target_met'] else 'no'} (slowest: "
        f"{max(alone_1m.values()):.0f} s).",
        "",
        *(
            []
            if full_seconds is None
            else [
                f"One full-size run, timed once: {args.full_games:,} four-player games of "
                f"{args.full_variant} alone, `n_jobs=2`, default chunking: "
                f"**{full_seconds:.1f} s** (target {TARGET_SECONDS:.0f} s: "
                f"{'met' if full_seconds <= TARGET_SECONDS else 'not met'}).",
                "",
            ]
        ),
        f"Stages, seconds per block of {BLOCK_GAMES} deals under all variants (one core):",
        "",
        "| stage | seconds | share |",
        "|---|---|---|",
    ]
    total = stages["play_block (everything)"]
    for name, sec in stages.items():
        lines.append(f"| {name} | {sec:.3f} | {sec / total:.0%} of play_block |")
    (args.out / "simulate.md").write_text("\n".join(lines) + "\n")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
