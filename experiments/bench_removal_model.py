"""Benchmark: expected-score-hand reading its card-removal model, against the same strategy
counting each hand's shift over its pool and against expected-score, the same hands in turns
in one process, and the model's answers against the exhaustive scan.

Rates are hands per second of CPU time on one core (numba compiled, the pool built and the
model read before timing; the best of ``--repeats`` rounds, each round timing the three in
turn, since the machine may be shared).  The exhaustive check scores all 72,072 splits of each
of ``--exhaustive-hands`` hands under that hand's tables as the model shifts them
(:meth:`~simkit.arrange.ExpectedScoreHand.hand_solver`) and compares split and value.

    .venv/bin/python experiments/bench_removal_model.py [--hands 8000] [--exhaustive-hands 300]

Writes results/bench/removal-model.json and results/bench/removal-model.md.
"""

from __future__ import annotations

import json
import time
from pathlib import Path

import numpy as np
from _timing import (  # experiments/ is on sys.path as a script
    best_in_turns,
    check_hands_args,
    hands_parser,
    run_meta,
)
from bench_conditioned import same_as_exhaustive  # experiments/ is on sys.path as a script

from simkit.arrange import ExpectedScore, ExpectedScoreHand, max_ev_ids
from simkit.arrange.conditioned import conditioned_ids, model_ids
from simkit.deal import deal
from simkit.variants import resolve_variant

ROOT = Path(__file__).resolve().parents[1]
ROWS = (("guangxi", 4), ("guangxi-regional", 4))
SEED = 2026


def bench(variant: str, players: int, n_hands: int, n_exhaustive: int, repeats: int) -> dict:
    v = resolve_variant(variant)
    strategy = ExpectedScoreHand(conditioning="model")
    model = strategy.removal_model(v, players)
    assert model is not None
    start = time.perf_counter()
    pool = ExpectedScoreHand(conditioning="pool").pool(v, players)
    pool_seconds = time.perf_counter() - start
    assert pool is not None
    default = ExpectedScore().solver(v, players)
    base = strategy.solver(v, players)  # what the hands' tables shift (the places on)
    hands = np.sort(deal(n_hands // players + 1, players, rng=SEED).reshape(-1, 13), axis=1)
    hands = np.ascontiguousarray(hands[:n_hands])
    runs = {
        "default": lambda: max_ev_ids(hands, default),
        "model": lambda: model_ids(hands, base, model),
        "pool": lambda: conditioned_ids(hands, base, pool),
    }
    for run in runs.values():  # compile
        run()
    best = best_in_turns(runs, repeats)
    ids, values, n_scored = model_ids(hands, base, model)
    pool_ids = conditioned_ids(hands, base, pool)[0]
    plain_ids = max_ev_ids(hands, default)[0]
    same = same_as_exhaustive(hands[:n_exhaustive], ids, values, strategy, v, players)
    return {
        "variant": variant,
        "players": players,
        "hands": n_hands,
        "expected_score_hands_per_s": round(n_hands / best["default"]),
        "model_hands_per_s": round(n_hands / best["model"]),
        "pool_hands_per_s": round(n_hands / best["pool"]),
        "model_over_default": round(best["default"] / best["model"], 3),
        "model_over_pool": round(best["pool"] / best["model"], 3),
        "pool_build_seconds": round(pool_seconds, 1),
        "splits_scored_per_hand": round(float(n_scored.mean()), 1),
        "same_splits_as_pool": round(float((ids == pool_ids).all(axis=1).mean()), 4),
        "differs_from_expected_score": round(float((ids != plain_ids).any(axis=1).mean()), 4),
        "exhaustive_hands": n_exhaustive,
        "same_as_exhaustive": same,
    }


def main() -> None:
    ap = hands_parser(__doc__.split("\n")[0], 8000, 300, 5, ROOT / "results" / "bench")
    a = ap.parse_args()
    check_hands_args(a)
    rows = [bench(v, p, a.hands, a.exhaustive_hands, a.repeats) for v, p in ROWS]
    command = (
        f"python experiments/bench_removal_model.py --hands {a.hands} "
        f"--exhaustive-hands {a.exhaustive_hands} --repeats {a.repeats}"
    )
    meta = run_meta(command, SEED)
    (a.out / "removal-model.json").write_text(
        json.dumps({"meta": meta, "rows": rows}, indent=2) + "\n", encoding="utf-8"
    )
    lines = [
        "# expected-score-hand: its card-removal model against its pool and expected-score",
        "",
        f"`{command}` — seed {SEED}, one core, CPU time (best of {a.repeats} rounds, the three "
        f"timed in turn each round), numba {meta['numba']}, {meta['when']}, load average at the "
        f"end {tuple(meta['load_average'])} (the machine is shared, so rates are lower bounds).  "
        "`model`: each hand's shift read from the shipped card-removal model (the default of "
        "expected-score-hand where one ships); `pool`: counted over the 131,072-hand pool "
        "(`conditioning=pool`, built before timing: its one-off cost is its own column); both "
        "with the t-formula's places.",
        "",
        "| variant | players | expected-score hands/s | model hands/s | pool hands/s | "
        "model / default | model / pool | pool build s | splits scored | "
        "same splits as the pool | choices that differ from expected-score | "
        "same as the exhaustive scan |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        lines.append(
            f"| {r['variant']} | {r['players']} | {r['expected_score_hands_per_s']:,} | "
            f"{r['model_hands_per_s']:,} | {r['pool_hands_per_s']:,} | "
            f"{r['model_over_default']:.2f}× | {r['model_over_pool']:.2f}× | "
            f"{r['pool_build_seconds']} | {r['splits_scored_per_hand']} | "
            f"{r['same_splits_as_pool']:.1%} | {r['differs_from_expected_score']:.1%} | "
            f"{r['same_as_exhaustive']} of {r['exhaustive_hands']} |"
        )
    (a.out / "removal-model.md").write_text("\n".join(lines) + "\n", encoding="utf-8")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
