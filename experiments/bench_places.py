"""Benchmark: ``expected-score-places`` against the default's search, the same hands, one process.

Under guangxi's t-formula ``expected-score-places`` prices a split's dun points by the place
model (:class:`simkit.arrange.PlaceModel`); its value saturates for strong hands, so the
search's bounds prune less.  Both searches run on the same hands, alternately, in one process;
rates are hands per CPU second on one core (numba compiled before timing, the best of
``--repeats`` runs of each, since the machine may be shared), with the splits each scores per
hand, and the places search's answers against the exhaustive 72,072-split scan under its own
objective.

    .venv/bin/python experiments/bench_places.py [--hands 20000] [--exhaustive-hands 1000]

Writes results/bench/places.json and results/bench/places.md.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import time
from pathlib import Path

from _timing import best_in_turns  # experiments/ is on sys.path when run as a script

import simkit
from simkit.arrange import ExpectedScore, ExpectedScorePlaces, exhaustive_ids, max_ev_ids
from simkit.deal import deal

ROWS = (("guangxi", 4),)
SEED = 2026


def bench(variant: str, players: int, n_hands: int, n_exhaustive: int, repeats: int) -> dict:
    hands = deal(n_hands // players + 1, players, rng=SEED).reshape(-1, 13)[:n_hands]
    solvers = {
        "expected-score": ExpectedScore().solver(variant, players),
        "expected-score-places": ExpectedScorePlaces().solver(variant, players),
    }
    for s in solvers.values():
        max_ev_ids(hands[:10], s)  # compile
    best = best_in_turns(
        {name: lambda s=s: max_ev_ids(hands, s) for name, s in solvers.items()}, repeats
    )
    scored = {}
    for name, s in solvers.items():
        scored[name] = float(max_ev_ids(hands, s)[2].mean())
    places = solvers["expected-score-places"]
    ids, values, _ = max_ev_ids(hands[:n_exhaustive], places)
    want_ids, want_values = exhaustive_ids(hands[:n_exhaustive], places)
    plain_ids = max_ev_ids(hands, solvers["expected-score"])[0]
    place_ids = max_ev_ids(hands, places)[0]
    rates = {name: n_hands / seconds for name, seconds in best.items()}
    return {
        "variant": variant, "players": players, "hands": n_hands, "repeats": repeats,
        "rates": rates, "ratio": rates["expected-score-places"] / rates["expected-score"],
        "scored_per_hand": scored,
        "splits_differ": float((plain_ids != place_ids).any(axis=1).mean()),
        "exhaustive_hands": n_exhaustive,
        "same_as_exhaustive": bool((ids == want_ids).all() and (values == want_values).all()),
    }  # fmt: skip


def render(rows: list[dict], meta: dict) -> str:
    lines = [
        "# expected-score-places against the default's search",
        "",
        f"{meta['when']} on {meta['machine']}, simkit {meta['version']}; load average at the "
        f"end {meta['load']}.  Hands per CPU second on one core, the best of each search's "
        "runs, alternated on the same hands in one process.",
        "",
        "    .venv/bin/python experiments/bench_places.py",
        "",
        "| variant | players | hands | expected-score | expected-score-places | ratio "
        "| splits scored a hand | settings differ | same as the exhaustive scan |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        rate, sc = r["rates"], r["scored_per_hand"]
        lines.append(
            f"| {r['variant']} | {r['players']} | {r['hands']:,} "
            f"| {rate['expected-score'] / 1000:.1f}k/s "
            f"| {rate['expected-score-places'] / 1000:.1f}k/s | {r['ratio']:.2f}× "
            f"| {sc['expected-score']:.1f} and {sc['expected-score-places']:.1f} "
            f"| {r['splits_differ']:.1%} "
            f"| {'yes' if r['same_as_exhaustive'] else 'NO'} ({r['exhaustive_hands']:,} hands) |"
        )
    return "\n".join(lines) + "\n"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--hands", type=int, default=20_000)
    ap.add_argument("--exhaustive-hands", type=int, default=1000)
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--out", type=Path, default=Path(__file__).resolve().parents[1] / "results")
    args = ap.parse_args()
    if args.hands < 10 or args.exhaustive_hands < 1 or args.repeats < 1:
        raise SystemExit("--hands must be ≥ 10, --exhaustive-hands and --repeats ≥ 1")
    rows = [bench(v, p, args.hands, args.exhaustive_hands, args.repeats) for v, p in ROWS]
    meta = {
        "when": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
        "machine": f"{platform.machine()}, {os.cpu_count()} CPUs",
        "version": simkit.__version__,
        "load": ", ".join(f"{x:.1f}" for x in os.getloadavg()),
    }
    out = args.out / "bench"
    out.mkdir(parents=True, exist_ok=True)
    (out / "places.json").write_text(json.dumps({"meta": meta, "rows": rows}, indent=1) + "\n")
    (out / "places.md").write_text(render(rows, meta))
    print(render(rows, meta))


if __name__ == "__main__":
    main()
