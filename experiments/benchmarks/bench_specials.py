"""Benchmark special-hand detection on one core, beside the slow reference detector.

Detects the specials of >= 1M dealt hands with ``simkit.specials.detect_specials`` for every
shipped variant (the default and the slowest are reported side by side), and, in the same run,
a small sample with the plain-Python reference detector of ``tests/test_specials.py`` (the
peer), checking that both give the same masks; the reference's rate is per hand, so it scales.

    python -m experiments.benchmarks.bench_specials [--games 250000] [--peer-hands 300]

Writes ``results/bench/specials.json`` and ``results/bench/specials.md``.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import time
from pathlib import Path

# One core: the numba kernels are single-threaded; keep everything else single-threaded too.
os.environ.setdefault("NUMBA_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")


from experiments.support import best_of
from simkit.deal import deal
from simkit.specials import detect_specials
from simkit.variants import DEFAULT_VARIANT, load_variant, variant_names

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "results" / "bench"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=250_000, help="4-player games dealt")
    parser.add_argument("--peer-hands", type=int, default=300)
    parser.add_argument("--out", type=Path, default=OUT, help="results folder (results/bench)")
    args = parser.parse_args()

    hands = deal(args.games, 4, rng=2026).reshape(-1, 13)
    n = len(hands)
    rates = {}
    for name in variant_names():
        detect_specials(hands[:10], name)  # load the cached kernel, build the tables
        seconds = best_of(lambda name=name: detect_specials(hands, name), repeats=5)
        rates[name] = {
            "specials": len(load_variant(name).specials),
            "seconds": seconds,
            "hands_per_s": n / seconds,
        }
    played = {k: v for k, v in rates.items() if v["specials"]}
    slowest = min(played, key=lambda k: played[k]["hands_per_s"])

    sys.path.insert(0, str(ROOT / "tests"))
    from test_specials import _split_fronts, reference_masks  # the peer: plain Python

    sample = hands[: args.peer_hands]
    peer = {}
    for name in dict.fromkeys([DEFAULT_VARIANT, slowest]):
        specials = load_variant(name).specials
        _split_fronts.cache_clear()  # each variant's reference run starts from nothing
        t0 = time.perf_counter()
        want = reference_masks(sample, specials)
        seconds = time.perf_counter() - t0
        peer[name] = {
            "hands": len(sample),
            "seconds": seconds,
            "hands_per_s": len(sample) / seconds,
            "same_masks_as_simkit": bool((detect_specials(sample, name) == want).all()),
        }

    result = {
        "command": " ".join(["python -m experiments.benchmarks.bench_specials", *sys.argv[1:]]),
        "machine": f"{platform.processor() or platform.machine()}, {os.cpu_count()} cores",
        "python": platform.python_version(),
        "load_average_1min": os.getloadavg()[0],
        "hands": n,
        "default_variant": DEFAULT_VARIANT,
        "slowest_variant": slowest,
        "detect_specials": rates,
        "reference_python": peer,
        "speedup_vs_reference": {
            name: rates[name]["hands_per_s"] / peer[name]["hands_per_s"] for name in peer
        },
    }
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "specials.json").write_text(json.dumps(result, indent=2) + "\n")
    md = [
        "# Special-hand detection, one core",
        "",
        "`python -m experiments.benchmarks.bench_specials`",
        "",
        f"{n:,} dealt 13-card hands (seed 2026); best of 5 runs.",
        "",
        "| variant | specials | simkit `detect_specials` hands/s | reference (Python) hands/s "
        "| speedup | same masks |",
        "|---|---:|---:|---:|---:|---|",
    ]
    for name in peer:
        md.append(
            f"| {name} | {rates[name]['specials']} | {rates[name]['hands_per_s']:,.0f} "
            f"| {peer[name]['hands_per_s']:,.0f} ({peer[name]['hands']} hands) "
            f"| {result['speedup_vs_reference'][name]:,.0f}x "
            f"| {peer[name]['same_masks_as_simkit']} |"
        )
    md += ["", "All variants:", "", "| variant | specials | hands/s |", "|---|---:|---:|"]
    for name, r in rates.items():
        md.append(f"| {name} | {r['specials']} | {r['hands_per_s']:,.0f} |")
    md += [
        "",
        f"Default variant: {DEFAULT_VARIANT}; slowest variant: {slowest}.",
        f"Machine: {result['machine']}, Python {result['python']}; 1-minute load average "
        f"{result['load_average_1min']:.1f} at the end of the run (a shared machine: rates vary).",
        "",
    ]
    (args.out / "specials.md").write_text("\n".join(md))
    print("\n".join(md))


if __name__ == "__main__":
    main()
