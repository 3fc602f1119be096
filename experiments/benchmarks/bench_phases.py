"""Benchmark the decision phases before setting against the setting of the hands they change.

For philippines (the banker's pass, 4 players) and qiantang (换牌 at 4 players, the 3-player
swap), the same deals go through :func:`simkit.phases.before_setting` (the phases) and then
:func:`simkit.arrange.arrangements` (the default strategy sets the hands), under this working
tree's ``simkit`` and a previous revision's (:func:`experiments.support.simkit_at`), in one
process, interleaved, best of ``--repeats``: a shared machine's busy spells fall on both.

    python -m experiments.benchmarks.bench_phases [--games 1024] [--repeats 2] [--rev f09ea0c]

Writes ``results/bench/phases.json`` and ``results/bench/phases.md``: games a second of the
phases and of the setting, the phases' cost over the setting's (issue 54.2 asks for at most
1), and the speed-up of the phases over the previous revision.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shlex
import sys
import time
from pathlib import Path
from types import ModuleType

os.environ.setdefault("OMP_NUM_THREADS", "1")

import numpy as np

import simkit
from experiments.support import simkit_at
from simkit.deal import deal

OUT = Path(__file__).resolve().parents[2] / "results" / "bench"
CASES = (("philippines", 4), ("qiantang", 4), ("qiantang", 3))


def stages(pkg: ModuleType, name: str, players: int, dealt: np.ndarray) -> tuple[float, float]:
    """Seconds of the phases and of the setting of their hands, one core."""
    phases = importlib_of(pkg, "phases")
    arrange = importlib_of(pkg, "arrange")
    variants = importlib_of(pkg, "variants")
    v = variants.load_variant(name)
    seq = np.random.SeedSequence(54, spawn_key=(0, 2))
    t0 = time.perf_counter()
    hands, _ = phases.before_setting(dealt, v, None, seq)
    t1 = time.perf_counter()
    arrange.arrangements([hands], [v], arrange.DEFAULT_STRATEGY, n_players=players)
    t2 = time.perf_counter()
    return t1 - t0, t2 - t1


def importlib_of(pkg: ModuleType, sub: str) -> ModuleType:
    import importlib

    return importlib.import_module(f"{pkg.__name__}.{sub}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1024)
    parser.add_argument("--repeats", type=int, default=2)
    parser.add_argument(
        "--rev", default="f09ea0c", help="the revision timed beside this one ('none': none)"
    )
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args()
    cmd = ("python -m experiments.benchmarks.bench_phases " + shlex.join(sys.argv[1:])).strip()
    revisions = {} if args.rev in ("", "none") else {"previous": simkit_at(args.rev)}
    revisions["now"] = simkit
    rows = []
    for name, players in CASES:
        dealt = deal(args.games, players, rng=np.random.default_rng(54))
        for pkg in revisions.values():  # warm: kernels, tables, solvers
            stages(pkg, name, players, dealt[:32])
        best: dict[str, list[float]] = {k: [np.inf, np.inf] for k in revisions}
        for _ in range(args.repeats):
            for key, pkg in revisions.items():
                t_phase, t_set = stages(pkg, name, players, dealt)
                best[key] = [min(best[key][0], t_phase), min(best[key][1], t_set)]
        for key in revisions:
            t_phase, t_set = best[key]
            rows.append(
                {
                    "variant": name,
                    "players": players,
                    "revision": args.rev if key == "previous" else "now",
                    "games": args.games,
                    "phases_s": t_phase,
                    "setting_s": t_set,
                    "phases_games_per_s": args.games / t_phase,
                    "setting_games_per_s": args.games / t_set,
                    "phases_over_setting": t_phase / t_set,
                }
            )
        if len(revisions) == 1:
            print(f"{name} {players}p: phases/setting {rows[-1]['phases_over_setting']:.1f}")
            continue
        prev, now = rows[-2], rows[-1]
        now["phases_speedup"] = prev["phases_s"] / now["phases_s"]
        print(
            f"{name} {players}p: phases {prev['phases_games_per_s']:.0f} → "
            f"{now['phases_games_per_s']:.0f} games/s ({now['phases_speedup']:.2f}×), "
            f"phases/setting {prev['phases_over_setting']:.1f} → {now['phases_over_setting']:.1f}",
            flush=True,
        )
    meta = {
        "command": cmd,
        "machine": f"{platform.machine()}, {os.cpu_count()} cores, load {os.getloadavg()[0]:.1f}",
        "previous": args.rev,
        "repeats": args.repeats,
    }
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "phases.json").write_text(
        json.dumps({"meta": meta, "rows": rows}, indent=2) + "\n", encoding="utf-8"
    )
    lines = [
        "# The decision phases before setting: cost against setting the hands",
        "",
        f"`{cmd}` — {args.games:,} deals a case, best of {args.repeats}, one process, one "
        f"core, the previous revision ({args.rev}) interleaved with this one; "
        f"{meta['machine']} (a shared machine: read the ratios, not the seconds).",
        "",
        "`phases`: `simkit.phases.before_setting` (the banker's pass; 换牌; the 3-player swap) "
        "with the default strategy; `setting`: the default strategy setting the hands after "
        "them.  `phases/setting` is what issue 54.2 asks to bring to at most 1.",
        "",
        "| variant | players | revision | phases games/s | setting games/s | phases/setting "
        "| phases speed-up |",
        "|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        speed = f"{r['phases_speedup']:.2f}×" if "phases_speedup" in r else "—"
        lines.append(
            f"| {r['variant']} | {r['players']} | {r['revision']} | "
            f"{r['phases_games_per_s']:,.0f} | {r['setting_games_per_s']:,.0f} | "
            f"{r['phases_over_setting']:.1f} | {speed} |"
        )
    (args.out / "phases.md").write_text("\n".join(lines) + "\n", encoding="utf-8")
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
