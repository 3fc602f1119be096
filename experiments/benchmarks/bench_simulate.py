"""Benchmark the whole simulation with the default strategy and the phases, beside a previous
revision in the same process.

For this tree's ``simkit`` and the revision ``--before`` (:func:`experiments.support.simkit_at`,
main when the work began), alternating the two so that a shared machine's busy spells fall on
both alike:

- every shipped variant alone and all of them together (one run on common deals), each with
  ``n_jobs=1`` and ``n_jobs=2`` (the scaling), default chunking, the default strategy and each
  variant's phases; the tables of 1 and 2 jobs and of the two revisions are compared (equal
  summaries, bit for bit, where the revision plays alike);
- the stages of one block of ``BLOCK_GAMES`` deals under all variants in one process: deal, the
  phases before setting (the pass, 换牌), the arrangement, the score, the phases after setting
  (抢庄, 谈判, 抛牌) and the summaries, played as ``play_block`` plays them and checked against it.

Times are wall seconds, the best of ``--repeats``; the load average is recorded beside them
(on a shared machine the ratios between revisions are the reading, not the absolute times).
Seconds per 1,000,000 games are extrapolated from the runs (start-up included, so an upper
bound).

    python -m experiments.benchmarks.bench_simulate [--games 8192] [--all-games 8192]
        [--before f09ea0c] [--repeats 1] [--variants guangxi,qiantang]

Writes ``results/bench/simulate.json`` and ``results/bench/simulate.md``.
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
from dataclasses import replace
from pathlib import Path
from types import ModuleType
from typing import Any

os.environ.setdefault("OMP_NUM_THREADS", "1")

import numpy as np

import simkit
from experiments.support import simkit_at
from simkit.simulate import BLOCK_GAMES
from simkit.variants import variant_names

OUT = Path(__file__).resolve().parents[2] / "results" / "bench"
#: main when issue 54's speed work began (the revision the figures are read against).
BEFORE = "f09ea0c"
MILLION = 1_000_000
#: The targets of issue 54 (seconds, 2 jobs, default strategy, four players).
TARGET_NO_PHASES_S = 45.0
TARGET_PHASES_S = 60.0
TARGET_SCALING = 1.8
REPORT_DEALS = 200_000
BLOCK_STAGE = "play_block (everything)"
TARGET_REPORT_S = 240.0


#: This tree's ``simkit`` with the runner's scheduling before issue 54 (``n_jobs`` workers,
#: this process waiting): the scheduling's share of the change, measured beside the rest.
WORKERS_ONLY = ModuleType("workers-only")


def _module(sk: ModuleType, name: str) -> Any:
    return importlib.import_module(f"{sk.__name__}.{name}")


def timed(fn: Callable[[], Any]) -> tuple[float, Any]:
    t0 = time.perf_counter()
    value = fn()
    return time.perf_counter() - t0, value


def _cpu_by_process() -> dict[int, float]:
    """CPU seconds (user + system) of this process and each of its children, by pid."""
    import psutil

    out = {}
    for proc in [psutil.Process(), *psutil.Process().children(recursive=True)]:
        try:
            t = proc.cpu_times()
        except psutil.Error:
            continue
        out[proc.pid] = t.user + t.system
    return out


def cpu_timed(fn: Callable[[], Any]) -> tuple[float, float, Any]:
    """Wall seconds, CPU seconds of this process and its workers (the workers alive at the
    end, counted from the start or from their own start), and ``fn()``'s value.  The CPU
    seconds do not depend on how busy the machine is: the work the run cost every core."""
    before = _cpu_by_process()
    dt, value = timed(fn)
    after = _cpu_by_process()
    return dt, sum(t - before.get(pid, 0.0) for pid, t in after.items()), value


def stage_times(sk: ModuleType, names: list[str], games: int = BLOCK_GAMES) -> dict[str, float]:
    """CPU seconds of each stage of one block of ``games`` deals under the variants ``names``, in
    this process, as ``play_block`` plays it (blocks of ``games``: the second block, after a
    first that builds the strategies' state); raises ``AssertionError`` when the stages do
    not give ``play_block``'s summary."""
    sim = _module(sk, "simulate")
    phases = _module(sk, "phases")
    config = replace(sim.make_config(names, 2 * games, seed=7), block_games=games)
    block = 1
    sim.play_block(config, 0)  # warm: solvers and tables of every variant built
    p = config.n_players
    seq = np.random.SeedSequence(config.seed, spawn_key=(block,))
    deal_seq, play_seq, phase_seq = seq.spawn(3)
    clock = time.process_time  # CPU seconds: a shared machine's load does not move them
    t0 = clock()
    dealt = _module(sk, "deal").deal(
        config.block_size(block), p, rng=np.random.default_rng(deal_seq),
        deck=config.variants[0].deck_for(p),
    )  # fmt: skip
    t1 = clock()
    before = [phases.before_setting(dealt, v, None, phase_seq) for v in config.variants]
    t2 = clock()
    plays = _module(sk, "arrange").arrangements(
        [hands for hands, _ in before], config.variants, config.strategy, n_players=p,
        tables=[None] * len(config.variants), rng=play_seq,
    )  # fmt: skip
    t3 = clock()
    score = _module(sk, "score").score
    scored = [
        score(pl.cards, v, declared=pl.declared, ranks=pl.ranks,
              special_masks=pl.special_masks, breakdown=True)
        for pl, v in zip(plays, config.variants, strict=True)
    ]  # fmt: skip
    t4 = clock()
    settle = _module(sk, "phases.settle").settle_payments
    scored = [
        phases.add_payments(s, paid) if paid else s
        for s, (_, paid) in zip(scored, before, strict=True)
    ]
    scored = [
        phases.add_payments(s, settle(pl, v, p, config.strategy))
        for pl, v, s in zip(plays, config.variants, scored, strict=True)
    ]
    t5 = clock()
    counts, sums = _module(sk, "statistics").record_block(config.variants, plays, scored)
    t6 = clock()
    t6b = clock()
    counts2, sums2 = sim.play_block(config, block)
    t_block = clock() - t6b
    for mine, theirs in ((counts, counts2), (sums, sums2)):
        assert mine.keys() == theirs.keys(), "the stages do not give play_block's summary"
        assert all(np.array_equal(mine[k], theirs[k]) for k in mine), "the stages differ"
    return {
        "deal": t1 - t0,
        "phases before setting (pass, 换牌)": t2 - t1,
        "arrange (default strategy)": t3 - t2,
        "score": t4 - t3,
        "phases after setting (抢庄, 谈判, 抛牌)": t5 - t4,
        "summaries": t6 - t5,
        BLOCK_STAGE: t_block,
    }


def run_once(sk: ModuleType, names: list[str], games: int, jobs: int) -> tuple[float, float, Any]:
    """Wall and CPU seconds (:func:`cpu_timed`) of ``simulate`` (default strategy, phases as
    each variant plays them) and its result; ``sk`` is a ``simkit`` package, or
    :data:`WORKERS_ONLY` (this tree's, with ``n_jobs`` workers and this process waiting on
    them, as the runner did before)."""
    if sk is WORKERS_ONLY:
        runner = importlib.import_module("simkit.simulate.runner")
        runner.PARENT_PLAYS = False
        try:
            return run_once(simkit, names, games, jobs)
        finally:
            runner.PARENT_PLAYS = True
    return cpu_timed(lambda: sk.simulate(names, games, seed=11, n_jobs=jobs, progress=False))


def _equal(a: Any, b: Any) -> bool:
    return bool(a.summary is not None and b.summary is not None and a.summary.equals(b.summary))


def measure(
    revs: dict[str, ModuleType], rows: dict[str, list[str]], games: dict[str, int], repeats: int
) -> dict[str, Any]:
    """Per row (a variant alone, or all together) and revision: the best seconds with 1 and 2
    jobs, whether 1 and 2 jobs gave the same tables, and whether the revisions did."""
    out: dict[str, Any] = {}
    for row, names in rows.items():
        best: dict[str, dict[int, float]] = {r: {1: np.inf, 2: np.inf} for r in revs}
        cpu: dict[str, dict[int, float]] = {r: {1: np.inf, 2: np.inf} for r in revs}
        results: dict[str, dict[int, Any]] = {r: {} for r in revs}
        for _ in range(repeats):
            for jobs in (1, 2):
                for rev, sk in revs.items():  # alternated: busy spells fall on both
                    dt, used, results[rev][jobs] = run_once(sk, names, games[row], jobs)
                    best[rev][jobs] = min(best[rev][jobs], dt)
                    cpu[rev][jobs] = min(cpu[rev][jobs], used)
        first = next(iter(revs))
        out[row] = {
            "games": games[row],
            "revisions": {
                rev: {
                    "seconds_1_job": best[rev][1],
                    "seconds_2_jobs": best[rev][2],
                    "scaling_1_to_2": best[rev][1] / best[rev][2],
                    "cpu_seconds_1_job": cpu[rev][1],
                    "cpu_seconds_2_jobs": cpu[rev][2],
                    "s_per_1M_2_jobs": MILLION * best[rev][2] / games[row],
                    "identical_1_vs_2_jobs": _equal(results[rev][1], results[rev][2]),
                }
                for rev in revs
            },
            "identical_to_this_tree": {
                rev: _equal(results[rev][2], results[first][2]) for rev in revs
            },
        }
        print(row, json.dumps(out[row]["revisions"]), flush=True)
    return out


def _plays_phases(name: str) -> bool:
    from simkit.variants import load_variant

    v = load_variant(name)
    return bool(v.deal.changes_hands or v.phases.any_enabled)


def markdown(record: dict[str, Any]) -> list[str]:
    """The benchmark as ``results/bench/simulate.md``'s lines."""
    revs = record["revision_names"]
    this, *others = revs
    staged = list(record["stages"])
    lines = [
        "# Simulation benchmark: the default strategy with the phases",
        "",
        f"`{record['command']}`, {record['players']} players, the default strategy "
        f"(`{record['strategy']}`) and each variant's phases; wall seconds, best of "
        f"{record['repeats']}; {record['machine']['cpus']} CPUs, load average "
        f"{record['load_before']} before and {record['load_after']} after (a shared machine: "
        "read the ratios between revisions, run side by side in one process). "
        f"Revisions: {', '.join(f'`{r}`' for r in revs)} (workers only: this tree with "
        "`n_jobs` workers and the parent waiting on them, the runner's scheduling before; "
        "the other rows play chunks in the parent beside `n_jobs - 1` workers).",
        "",
        "| run | games | revision | 1 job s | 2 jobs s | 1 → 2 jobs | s per 1M games (2 jobs) "
        "| CPU s, 1 job | CPU s, 2 jobs | same tables (1 vs 2 jobs; as this tree) |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for row, r in record["runs"].items():
        for rev in revs:
            x = r["revisions"][rev]
            lines.append(
                f"| {row} | {r['games']:,} | {rev} | {x['seconds_1_job']:.1f} | "
                f"{x['seconds_2_jobs']:.1f} | ×{x['scaling_1_to_2']:.2f} | "
                f"{x['s_per_1M_2_jobs']:,.0f} | {x['cpu_seconds_1_job']:.1f} | "
                f"{x['cpu_seconds_2_jobs']:.1f} | {x['identical_1_vs_2_jobs']}; "
                f"{r['identical_to_this_tree'][rev]} |"
            )
    for other in others:
        lines += [
            "",
            f"This tree against {other} (ratio of seconds, < 1 is faster):",
            "",
            f"| run | this tree / {other}, 2 jobs | 1 job |",
            "|---|---|---|",
        ]
        for row, r in record["runs"].items():
            x, y = r["revisions"][this], r["revisions"][other]
            lines.append(
                f"| {row} | {x['seconds_2_jobs'] / y['seconds_2_jobs']:.2f} | "
                f"{x['seconds_1_job'] / y['seconds_1_job']:.2f} |"
            )
    lines += [
        "",
        "Targets of issue 54, this tree on two idle cores, estimated from the runs' CPU seconds "
        "(`two_core_estimate` in the script: the work of a game times the games, plus what 2 "
        "jobs cost "
        "beyond 1, shared by the two cores; process start-up left out). The wall seconds above "
        "were taken on a machine far busier than two cores and say little:",
        "",
    ]
    lines += [f"- {t}" for t in record["targets"]]
    lines += [
        "",
        f"Stages of one block of {record['stage_games']:,} deals under "
        f"{', '.join(record['stage_variants'])}, one process (CPU seconds):",
        "",
        "| stage | " + " | ".join(staged) + " |",
        "|---|" + "---|" * len(staged),
    ]
    stages = record["stages"]
    for name in stages[this]:
        cells = " | ".join(
            f"{stages[rev][name]:.3f} ({stages[rev][name] / stages[rev][BLOCK_STAGE]:.0%})"
            for rev in staged
        )
        lines.append(f"| {name} | {cells} |")
    return lines


def two_core_estimate(x: dict[str, Any], games: int, target_games: int) -> tuple[float, float]:
    """``(seconds with 2 jobs, 1 → 2 jobs)`` for ``target_games`` games on two idle cores, from
    a run's CPU seconds: the work of a game (1 job's CPU over its games) times
    ``target_games``, plus what 2 jobs cost beyond 1 job (the worker's start and setup),
    shared by the two cores; 1 job takes the work alone.  The processes' start (imports) is
    left out of both."""
    work = x["cpu_seconds_1_job"] * target_games / games
    two = (work + max(0.0, x["cpu_seconds_2_jobs"] - x["cpu_seconds_1_job"])) / 2
    return two, work / two


def targets(record: dict[str, Any], this: str) -> list[str]:
    """The issue's targets read on this tree's runs: met or not, with the figure."""
    out = []
    for row, r in record["runs"].items():
        x = r["revisions"][this]
        s_1m, _ = two_core_estimate(x, r["games"], MILLION)
        if row == "all variants":
            per_variant = s_1m / len(variant_names())
            report, _ = two_core_estimate(x, r["games"], REPORT_DEALS)
            out.append(
                f"all variants together: about {per_variant:.0f} s per 1M games a variant "
                f"(target {TARGET_PHASES_S:.0f}: "
                f"{'met' if per_variant <= TARGET_PHASES_S else 'not met'})"
            )
            out.append(
                f"the report's default run ({REPORT_DEALS:,} deals under every variant): about "
                f"{report:.0f} s (target {TARGET_REPORT_S:.0f}: "
                f"{'met' if report <= TARGET_REPORT_S else 'not met'})"
            )
            continue
        limit = TARGET_PHASES_S if _plays_phases(row) else TARGET_NO_PHASES_S
        _, scale_1m = two_core_estimate(x, r["games"], MILLION)
        _, scale_100k = two_core_estimate(x, r["games"], 100_000)
        out.append(
            f"{row}: about {s_1m:.0f} s per 1M games with 2 jobs (target {limit:.0f}: "
            f"{'met' if s_1m <= limit else 'not met'}); 1 → 2 jobs ×{scale_1m:.2f} at 1M games, "
            f"×{scale_100k:.2f} at 100,000 (target ×{TARGET_SCALING}: "
            f"{'met' if scale_1m >= TARGET_SCALING else 'not met'} at 1M)"
        )
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=4 * BLOCK_GAMES, help="games a variant alone")
    parser.add_argument("--all-games", type=int, default=4 * BLOCK_GAMES,
                        help="deals of the run of all variants together (0: skip it)")  # fmt: skip
    parser.add_argument("--variants", default="", help="the variants alone (default: all)")
    parser.add_argument("--before", default=BEFORE,
                        help="the previous revision beside this tree ('': none)")  # fmt: skip
    parser.add_argument("--repeats", type=int, default=1, help="best of this many runs")
    parser.add_argument("--stage-games", type=int, default=BLOCK_GAMES,
                        help="deals of the block whose stages are timed")  # fmt: skip
    parser.add_argument("--out", type=Path, default=OUT, help="results folder (results/bench)")
    args = parser.parse_args()
    names = [n for n in args.variants.split(",") if n] or list(variant_names())
    unknown = sorted(set(names) - set(variant_names()))
    if unknown or min(args.games, args.repeats, args.stage_games) < 1 or args.all_games < 0:
        parser.error(f"bad arguments (unknown variants: {unknown})" if unknown else "bad sizes")
    revs: dict[str, ModuleType] = {"this tree": simkit, "this tree, workers only": WORKERS_ONLY}
    if args.before:
        revs[f"{args.before} (before)"] = simkit_at(args.before)
    rows = {n: [n] for n in names}
    games = dict.fromkeys(names, args.games)
    if args.all_games:
        rows["all variants"] = list(variant_names())  # every shipped variant, on common deals
        games["all variants"] = args.all_games
    load_before = [round(x, 1) for x in os.getloadavg()]
    modules = {rev: sk for rev, sk in revs.items() if sk is not WORKERS_ONLY}
    for sk in modules.values():  # compile or load the kernels
        sk.simulate(names, 64, seed=0, n_jobs=1, progress=False)
    stages = {rev: stage_times(sk, names, args.stage_games) for rev, sk in modules.items()}
    runs = measure(revs, rows, games, args.repeats)
    record: dict[str, Any] = {
        "command": " ".join(["python -m experiments.benchmarks.bench_simulate", *sys.argv[1:]]),
        "benchmark": "simulate end to end, default strategy and phases",
        "strategy": _module(simkit, "simulate").DEFAULT_STRATEGY,
        "players": 4,
        "block_games": BLOCK_GAMES,
        "repeats": args.repeats,
        "variants": names,
        "revision_names": list(revs),
        "runs": runs,
        "stage_variants": names,
        "stage_games": args.stage_games,
        "stages": stages,
        "load_before": load_before,
        "load_after": [round(x, 1) for x in os.getloadavg()],
        "simkit_version": simkit.__version__,
        "machine": {
            "cpus": os.cpu_count(),
            "python": platform.python_version(),
            "platform": platform.platform(),
        },
    }
    record["targets"] = targets(record, "this tree")
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "simulate.json").write_text(json.dumps(record, indent=2, ensure_ascii=False) + "\n")
    lines = markdown(record)
    (args.out / "simulate.md").write_text("\n".join(lines) + "\n")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
