"""Benchmark: ``expected-score-home`` against the default's search, the same hands, one process.

``expected-score-home`` is expected-score with the home run against priced by a fitted rate
(the fine table file's ``meta["home_rate"]``) and the weights fitted with it: the same kernel
and bounds, other parameters.  Both searches run on the same hands in turns in one process;
rates are hands per CPU second on one core (numba compiled before timing, the best of
``--repeats`` rounds), with the splits each scores a hand, how often their choices differ, and
expected-score-home's answers against the scan of all 72,072 splits under its own objective.

    .venv/bin/python experiments/bench_home_rate.py [--hands 8000] [--exhaustive-hands 300]

Writes results/bench/home-rate.json and results/bench/home-rate.md.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from _timing import (  # experiments/ is on sys.path as a script
    best_in_turns,
    check_hands_args,
    hands_parser,
    run_meta,
)

from simkit.arrange import ExpectedScore, ExpectedScoreHome, exhaustive_ids, max_ev_ids
from simkit.arrange.value import P_HOME_RATE
from simkit.deal import deal

ROOT = Path(__file__).resolve().parents[1]
ROWS = (("guangxi", 4), ("guangxi-regional", 4))
SEED = 2026


def bench(variant: str, players: int, n_hands: int, n_exhaustive: int, repeats: int) -> dict:
    hands = deal(n_hands // players + 1, players, rng=SEED).reshape(-1, 13)[:n_hands]
    solvers = {
        "expected-score": ExpectedScore().solver(variant, players),
        "expected-score-home": ExpectedScoreHome().solver(variant, players),
    }
    home = solvers["expected-score-home"]
    if home.model.params[P_HOME_RATE] <= 0.0:
        raise SystemExit(f"{variant} {players}p carries no home rate: nothing to compare")
    for s in solvers.values():
        max_ev_ids(hands[:10], s)  # compile
    best = best_in_turns(
        {name: lambda s=s: max_ev_ids(hands, s) for name, s in solvers.items()}, repeats
    )
    answers = {name: max_ev_ids(hands, s) for name, s in solvers.items()}
    ids, values, _ = max_ev_ids(hands[:n_exhaustive], home)
    want_ids, want_values = exhaustive_ids(hands[:n_exhaustive], home)
    same = int(((ids == want_ids).all(axis=1) & (values == want_values)).sum())
    rates = {name: round(n_hands / seconds) for name, seconds in best.items()}
    p = home.model.params
    return {
        "variant": variant, "players": players, "hands": n_hands,
        "home_rate": float(p[P_HOME_RATE]), "hands_per_s": rates,
        "ratio": round(rates["expected-score-home"] / rates["expected-score"], 3),
        "scored_per_hand": {k: round(float(a[2].mean()), 1) for k, a in answers.items()},
        "choices_differ": round(float(
            (answers["expected-score"][0] != answers["expected-score-home"][0]).any(axis=1).mean()
        ), 4),
        "exhaustive_hands": n_exhaustive, "same_as_exhaustive": same,
    }  # fmt: skip


def render(rows: list[dict], meta: dict) -> str:
    lines = [
        "# expected-score-home against the default's search",
        "",
        f"`{meta['command']}` — seed {meta['seed']}, one core, CPU time (the best of each "
        f"search's rounds, the two in turns on the same hands in one process), numba "
        f"{meta['numba']}, {meta['when']}, load average at the end {meta['load_average']} "
        "(the machine is shared, so rates are lower bounds; compare the ratio).",
        "",
        "| variant | players | home rate | expected-score hands/s | expected-score-home hands/s "
        "| ratio | splits scored a hand (default, home) | choices that differ | "
        "same as the scan of every split |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        rate, sc = r["hands_per_s"], r["scored_per_hand"]
        lines.append(
            f"| {r['variant']} | {r['players']} | {r['home_rate']} "
            f"| {rate['expected-score']:,} | {rate['expected-score-home']:,} | {r['ratio']:.2f}× "
            f"| {sc['expected-score']}, {sc['expected-score-home']} | {r['choices_differ']:.1%} "
            f"| {r['same_as_exhaustive']} of {r['exhaustive_hands']} |"
        )
    return "\n".join(lines) + "\n"


def main() -> None:
    ap = hands_parser(__doc__.split("\n")[0], 8000, 300, 9, ROOT / "results" / "bench")
    args = ap.parse_args()
    check_hands_args(args)
    command = (
        f"python experiments/bench_home_rate.py --hands {args.hands} "
        f"--exhaustive-hands {args.exhaustive_hands} --repeats {args.repeats}"
    )
    rows = [bench(v, p, args.hands, args.exhaustive_hands, args.repeats) for v, p in ROWS]
    meta = run_meta(command, SEED)
    (args.out / "home-rate.json").write_text(
        json.dumps({"meta": meta, "rows": rows}, indent=1) + "\n"
    )
    (args.out / "home-rate.md").write_text(render(rows, meta))
    print(render(rows, meta))
    if any(r["same_as_exhaustive"] != r["exhaustive_hands"] for r in rows):
        sys.exit("expected-score-home's search differs from the scan")


if __name__ == "__main__":
    main()
