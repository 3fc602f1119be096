"""Benchmark: expected-score-hand (each hand's tables conditioned on its own cards) against
expected-score, the same hands in one process, and its answers against the exhaustive scan.

Rates are hands per second of CPU time on one core (numba compiled and the pool built before
timing; the best of ``--repeats`` runs, since the machine may be shared).  The exhaustive
check scores all 72,072 splits of each of ``--exhaustive-hands`` hands under that hand's own
conditioned tables (:meth:`~simkit.arrange.ExpectedScoreHand.hand_solver`) and compares split
and value with the strategy's.  Also: the one-off cost of building the pool.  ``--places``
times ``expected-score-hand:places=true`` (the t-formula's place model in the value where the
tables carry one, :class:`~simkit.arrange.ExpectedScorePlaces`) beside the same default.
Beside them, in turns, the conditioned kernel of commit 8669b9d
(``experiments/_conditioned_before.py``): the speed-up over it and how many of its splits are
kept.

    .venv/bin/python experiments/bench_conditioned.py [--hands 4000] [--exhaustive-hands 200]
        [--pool-hands 131072 262144] [--places]

Writes results/bench/conditioned.json and results/bench/conditioned.md
(``conditioned-places.*`` with ``--places``).
"""

from __future__ import annotations

import json
import time
from pathlib import Path

import _conditioned_before as before  # experiments/ is on sys.path when run as a script
import numpy as np
from _timing import (  # experiments/ is on sys.path when run as a script
    best_in_turns,
    best_of,
    check_hands_args,
    hands_parser,
    run_meta,
)

from simkit.arrange import ExpectedScore, ExpectedScoreHand, exhaustive_ids, max_ev_ids
from simkit.arrange.conditioned import POOL_HANDS, conditioned_ids
from simkit.deal import deal
from simkit.variants import Variant, resolve_variant

ROOT = Path(__file__).resolve().parents[1]
ROWS = (("guangxi", 4), ("guangxi-regional", 4), ("fujian", 4))
SEED = 2026


def same_as_exhaustive(
    hands: np.ndarray,
    ids: np.ndarray,
    values: np.ndarray,
    strategy: ExpectedScoreHand,
    v: Variant,
    players: int,
) -> int:
    """How many of ``hands`` have the split ``ids`` and value ``values`` of scoring all
    72,072 splits under the hand's own tables (``strategy.hand_solver``)."""
    same = 0
    for h in range(hands.shape[0]):
        want_ids, want_values = exhaustive_ids(
            hands[h : h + 1], strategy.hand_solver(hands[h], v, players)
        )
        same += int(values[h] == want_values[0] and (ids[h] == want_ids[0]).all())
    return same


def bench(
    variant: str,
    players: int,
    pool_hands: int,
    n_hands: int,
    n_exhaustive: int,
    repeats: int,
    places: bool = False,
) -> dict:
    v = resolve_variant(variant)
    hand_strategy = ExpectedScoreHand(pool_hands=pool_hands, places=places, conditioning="pool")
    start = time.perf_counter()
    pool = hand_strategy.pool(v, players)
    pool_seconds = time.perf_counter() - start
    assert pool is not None
    solver = ExpectedScore().solver(v, players)  # the default, timed beside it
    base = ExpectedScore(places=places).solver(v, players)  # what the hands' tables shift
    hands = np.sort(deal(n_hands // players + 1, players, rng=SEED).reshape(-1, 13), axis=1)
    hands = np.ascontiguousarray(hands[:n_hands])
    old_pool = before.before_pool(pool)
    max_ev_ids(hands[:4], solver)  # compile
    conditioned_ids(hands[:4], base, pool)
    before.conditioned_ids(hands[:4], base, old_pool)
    plain_s = best_of(lambda: max_ev_ids(hands, solver), repeats, clock=time.process_time)
    # the kernel and its baseline in turns, so that a busy spell hits both
    turns = best_in_turns(
        {
            "hand": lambda: conditioned_ids(hands, base, pool),
            "before": lambda: before.conditioned_ids(hands, base, old_pool),
        },
        repeats,
    )
    hand_s, old_s = turns["hand"], turns["before"]
    ids, values, n_scored, compatible = conditioned_ids(hands, base, pool)
    old_ids, old_values, _, _ = before.conditioned_ids(hands, base, old_pool)
    plain_ids = max_ev_ids(hands, solver)[0]
    same = same_as_exhaustive(hands[:n_exhaustive], ids, values, hand_strategy, v, players)
    return {
        "variant": variant,
        "players": players,
        "places": places,
        "hands": n_hands,
        "expected_score_hands_per_s": round(n_hands / plain_s),
        "expected_score_hand_hands_per_s": round(n_hands / hand_s),
        "ratio": round(plain_s / hand_s, 3),
        "before_hands_per_s": round(n_hands / old_s),
        "speedup_over_before": round(old_s / hand_s, 3),
        "same_splits_as_before": int((ids == old_ids).all(axis=1).sum()),
        "largest_value_change": float(np.abs(values - old_values).max()),
        "pool_hands": int(pool.masks.shape[0]),
        "pool_seconds": round(pool_seconds, 1),
        "compatible_per_hand": round(float(compatible.mean()), 1),
        "splits_scored_per_hand": round(float(n_scored.mean()), 1),
        "differs_from_expected_score": round(float((ids != plain_ids).any(axis=1).mean()), 4),
        "exhaustive_hands": n_exhaustive,
        "same_as_exhaustive": same,
    }


def main() -> None:
    ap = hands_parser(__doc__.split("\n")[0], 4000, 200, 3, ROOT / "results" / "bench")
    ap.add_argument(
        "--pool-hands",
        type=int,
        nargs="+",
        default=[POOL_HANDS],
        help=f"pool sizes to time, each beside the default (default {POOL_HANDS})",
    )
    ap.add_argument(
        "--places",
        action="store_true",
        help="time expected-score-hand:places=true (writes conditioned-places.*)",
    )
    a = ap.parse_args()
    if min(a.pool_hands) < 64:
        raise SystemExit("--pool-hands: each at least 64")
    check_hands_args(a)
    rows = [
        bench(v, p, size, a.hands, a.exhaustive_hands, a.repeats, a.places)
        for v, p in ROWS
        for size in a.pool_hands
    ]
    command = (
        f"python experiments/bench_conditioned.py --hands {a.hands} "
        f"--exhaustive-hands {a.exhaustive_hands} --repeats {a.repeats}"
    )
    if a.pool_hands != [POOL_HANDS]:
        command += " --pool-hands " + " ".join(map(str, a.pool_hands))
    if a.places:
        command += " --places"
    name = "conditioned-places" if a.places else "conditioned"
    strategy = "expected-score-hand:places=true" if a.places else "expected-score-hand"
    meta = run_meta(command, SEED)
    (a.out / f"{name}.json").write_text(
        json.dumps({"meta": meta, "rows": rows}, indent=2) + "\n", encoding="utf-8"
    )
    lines = [
        f"# {strategy} against expected-score: speed and exactness",
        "",
        f"`{command}` — seed {SEED}, one core, CPU time (best of {a.repeats}), numba "
        f"{meta['numba']}, {meta['when']}, load average at the end {tuple(meta['load_average'])} "
        "(the machine is shared, so rates are lower bounds).  Both strategies set the same hands "
        "in one process; the pool is built before timing (its one-off cost is its own column).  "
        "Beside them, in turns, the conditioned kernel as it was at 8669b9d "
        "(`experiments/_conditioned_before.py`), before the hand's quantities were built only "
        "at the classes its search reads and the compatible hands counted by bits in each "
        "dun's class order: its speed, and how many of its splits and how far its values the "
        "kernel now keeps (the mid-CDF is now exact counts over one division, not a running "
        "sum of shares, so a value may move in its last bits).",
        "",
        f"| variant | players | expected-score hands/s | {strategy} hands/s | ratio | "
        "pool hands | pool build s | compatible pool hands per hand | splits scored | "
        "choices that differ | same as the exhaustive scan | 8669b9d's kernel hands/s | "
        "speed-up | same splits as 8669b9d's | largest value change |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        lines.append(
            f"| {r['variant']} | {r['players']} | {r['expected_score_hands_per_s']:,} | "
            f"{r['expected_score_hand_hands_per_s']:,} | {r['ratio']:.2f}× | {r['pool_hands']:,} | "
            f"{r['pool_seconds']} | {r['compatible_per_hand']:,} | {r['splits_scored_per_hand']} | "
            f"{r['differs_from_expected_score']:.1%} | {r['same_as_exhaustive']} of "
            f"{r['exhaustive_hands']} | {r['before_hands_per_s']:,} | "
            f"{r['speedup_over_before']:.2f}× | {r['same_splits_as_before']:,} of {r['hands']:,} | "
            f"{r['largest_value_change']:.1e} |"
        )
    (a.out / f"{name}.md").write_text("\n".join(lines) + "\n", encoding="utf-8")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
