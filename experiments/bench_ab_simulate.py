"""End-to-end A/B: simulation throughput of this tree against an earlier commit, alternating.

A change to the runner, the arrangement or the scorer is judged by the whole simulation.  The
earlier commit is checked out into a temporary git worktree; each round times one simulation
of the same deals under every shipped variant in each tree, in a fresh interpreter (numba
caches warmed beforehand), alternating which goes first, so that a noisy, shared machine
slows both alike.  The ratio reported is the median over rounds of baseline time / this
tree's time (above 1: this tree is faster), with its interquartile range.

    .venv/bin/python experiments/bench_ab_simulate.py [--baseline 474c9f5] [--games 4096]
        [--rounds 7]

Writes results/bench/simulate_ab.md and .json.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]

# One timed simulation, run in a fresh interpreter inside the tree under test.
PROBE = """
import sys, time
from simkit.simulate import simulate
n = int(sys.argv[1])
simulate("all", 2048, seed=3, n_jobs=1, progress=False)  # compile / load the kernels
start = time.perf_counter()
simulate("all", n, seed=5, n_jobs=1, progress=False)
print(time.perf_counter() - start)
"""


def timed(tree: Path, games: int) -> float:
    env = {**os.environ, "PYTHONPATH": str(tree)}
    out = subprocess.run(
        [sys.executable, "-c", PROBE, str(games)],
        cwd=tree,
        env=env,
        check=True,
        capture_output=True,
        text=True,
    )
    return float(out.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--baseline", default="474c9f5", help="earlier commit (default 474c9f5)")
    parser.add_argument("--games", type=int, default=4096, help="deals per timed run")
    parser.add_argument("--rounds", type=int, default=7, help="alternating rounds")
    parser.add_argument("--out", type=Path, default=ROOT / "results" / "bench")
    args = parser.parse_args()
    rev = subprocess.run(
        ["git", "rev-parse", "--short", args.baseline],
        cwd=ROOT,
        check=True,
        capture_output=True,
        text=True,
    ).stdout.strip()
    head = subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"],
        cwd=ROOT,
        check=True,
        capture_output=True,
        text=True,
    ).stdout.strip()
    with tempfile.TemporaryDirectory(prefix="simkit-ab-") as tmp:
        base = Path(tmp) / "baseline"
        subprocess.run(
            ["git", "worktree", "add", "--detach", "-q", str(base), rev], cwd=ROOT, check=True
        )
        try:
            rows = []
            for r in range(args.rounds):
                order = [("new", ROOT), ("old", base)]
                if r % 2:
                    order.reverse()
                t = {name: timed(tree, args.games) for name, tree in order}
                rows.append(t)
                print(f"round {r + 1}: old {t['old']:.2f} s, new {t['new']:.2f} s", flush=True)
        finally:
            subprocess.run(
                ["git", "worktree", "remove", "--force", str(base)], cwd=ROOT, check=False
            )
    ratio = np.array([t["old"] / t["new"] for t in rows])
    q1, med, q3 = np.percentile(ratio, [25, 50, 75])
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    result = {
        "baseline": rev,
        "head": head,
        "games": args.games,
        "rounds": rows,
        "ratio_median": med,
        "ratio_iqr": [q1, q3],
        "load_1min": load,
        "machine": platform.platform(),
    }
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "simulate_ab.json").write_text(json.dumps(result, indent=2) + "\n")
    per_million = {
        k: np.median([t[k] for t in rows]) / args.games * 1e6 / 9 for k in ("old", "new")
    }
    md = [
        "# Simulation A/B: this tree against an earlier commit",
        "",
        f"Baseline `{rev}`, this tree `{head}`; {args.games:,} deals under all 9 variants, one "
        f"process (`n_jobs=1`), {args.rounds} alternating rounds, warm numba caches; load "
        f"average {load:.1f} when it ended (a shared machine).",
        "",
        "| | median s per run | s per 1M games of one variant |",
        "|---|---|---|",
        f"| baseline `{rev}` | {np.median([t['old'] for t in rows]):.2f} | "
        f"{per_million['old']:.1f} |",
        f"| this tree `{head}` | {np.median([t['new'] for t in rows]):.2f} | "
        f"{per_million['new']:.1f} |",
        "",
        f"Speed ratio (baseline time / this tree's time): median **{med:.3f}**, interquartile "
        f"range {q1:.3f}–{q3:.3f}.",
        "",
        f"Reproduce: `.venv/bin/python experiments/bench_ab_simulate.py --baseline {rev} "
        f"--games {args.games} --rounds {args.rounds}`",
    ]
    (args.out / "simulate_ab.md").write_text("\n".join(md) + "\n")
    print("\n".join(md))


if __name__ == "__main__":
    main()
