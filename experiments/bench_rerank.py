"""Benchmark: expected-score-rerank (expected-score's best few splits re-ranked by the hand's own
card removal and the places) against expected-score and against the full search of the same
objective (expected-score-hand reading the card-removal model), the same hands in turns in one
process, and its answers against the scan of every split.

Rates are hands per second of CPU time on one core (numba compiled and the model read before
timing; the best of ``--repeats`` rounds, each round timing every search in turn, since the
machine may be shared).  The check (:func:`simkit.arrange.rerank.reference_rerank`) scans all
72,072 splits of each of ``--exhaustive-hands`` hands: expected-score's best ``top`` class
triples in its tie-break's order within the window, each valued under the hand's own tables,
the places and the home rate.

    .venv/bin/python experiments/bench_rerank.py [--hands 8000] [--exhaustive-hands 300]

Writes results/bench/rerank.json and results/bench/rerank.md.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from functools import partial
from pathlib import Path

import numpy as np
from _timing import (  # experiments/ is on sys.path as a script
    best_in_turns,
    check_hands_args,
    hands_parser,
    run_meta,
)

from simkit.arrange import ExpectedScoreRerank, max_ev_ids
from simkit.arrange.conditioned import model_ids
from simkit.arrange.rerank import rerank_ids
from simkit.arrange.strategies import (
    RERANK_CAP,
    RERANK_HOME_RATE,
    RERANK_TOP,
    RERANK_WIDE_TOP,
    RERANK_WIDE_WINDOW,
    RERANK_WINDOW,
)
from simkit.deal import deal
from simkit.variants import resolve_variant

ROOT = Path(__file__).resolve().parents[1]
ROWS = (("guangxi", 4), ("guangxi-regional", 4))
TOPS = (4, RERANK_TOP, 8)
#: the strategy's list (its top, window and wide top), by its name in the table
SHIPPED = f"rerank top={RERANK_TOP}"
NO_WINDOW = f"rerank top={RERANK_TOP}, no window"
NARROW = f"rerank top={RERANK_TOP}, no wide list"
#: the wide list kept whatever its values (the strategy's list before its wide window)
WIDE_ANY = f"rerank top={RERANK_TOP}, wide list whatever its values"
#: the default's split alone, valued under the re-ranking's objective: the search at the
#: default's bar plus the re-ranking stage of one split (the list's fixed cost)
ONE = "rerank top=1"
SEED = 2026


def bench(variant: str, players: int, n_hands: int, n_exhaustive: int, repeats: int) -> dict:
    v = resolve_variant(variant)
    strategy = ExpectedScoreRerank()
    model = strategy.removal_model(v, players)
    assert model is not None
    first = strategy.first().solver(v, players)  # expected-score's own search
    own = strategy.solver(v, players)  # the payout of the re-ranking (the places)
    hands = np.sort(deal(n_hands // players + 1, players, rng=SEED).reshape(-1, 13), axis=1)
    hands = np.ascontiguousarray(hands[:n_hands])
    # each run's list (top, window, cap, wide top, wide window, wide pairs), the strategy's
    # own with one option changed: the benchmark times what it plays
    shipped = strategy.rerank_list()
    top, window, cap, wide_top, _, wide_pairs = shipped
    lists = {f"rerank top={k}": (k, *shipped[1:3], max(k, wide_top), *shipped[4:]) for k in TOPS}
    lists[NARROW] = (top, window, cap, top, window, wide_pairs)
    lists[NO_WINDOW] = (top, np.inf, np.inf, wide_top, np.inf, wide_pairs)
    lists[WIDE_ANY] = (top, window, cap, wide_top, np.inf, wide_pairs)
    lists[ONE] = (1, 0.0, np.inf, 1, 0.0, wide_pairs)
    assert lists[SHIPPED] == shipped
    runs: dict[str, Callable[[], object]] = {"expected-score": partial(max_ev_ids, hands, first)}
    for name, args in lists.items():
        runs[name] = partial(rerank_ids, hands, first, own, model, *args)
    runs["full search"] = partial(model_ids, hands, own, model)
    for run in runs.values():  # compile
        run()
    best = best_in_turns(runs, repeats)
    ids, values, n_scored, n_kept = rerank_ids(hands, first, own, model, *shipped)
    played, _ = strategy.choose_splits(hands, v, n_players=players)
    assert (played == ids).all(), "expected-score-rerank plays another list than the benchmark's"
    wide_ids, _, wide_scored, _ = rerank_ids(hands, first, own, model, *lists[NO_WINDOW])
    narrow_ids, _, narrow_scored, _ = rerank_ids(hands, first, own, model, *lists[NARROW])
    any_ids, _, any_scored, _ = rerank_ids(hands, first, own, model, *lists[WIDE_ANY])
    full_ids, full_values, full_scored = model_ids(hands, own, model)
    plain_ids, _, plain_scored = max_ev_ids(hands, first)
    want_ids, want_values = strategy.reference_splits(hands[:n_exhaustive], v, players)
    same = int(
        (
            (ids[:n_exhaustive] == want_ids).all(axis=1) & (values[:n_exhaustive] == want_values)
        ).sum()
    )
    rate = {name: round(n_hands / t) for name, t in best.items()}
    return {
        "variant": variant,
        "players": players,
        "hands": n_hands,
        "hands_per_s": rate,
        "rerank_over_default": round(best["expected-score"] / best[SHIPPED], 3),
        "one_split_over_default": round(best["expected-score"] / best[ONE], 3),
        "rerank_over_full": round(best["full search"] / best[SHIPPED], 3),
        "rerank_over_no_window": round(best[NO_WINDOW] / best[SHIPPED], 3),
        "rerank_over_no_wide_list": round(best[NARROW] / best[SHIPPED], 3),
        "rerank_over_wide_any": round(best[WIDE_ANY] / best[SHIPPED], 3),
        "same_splits_as_wide_any": round(float((ids == any_ids).all(axis=1).mean()), 4),
        "same_splits_as_no_window": round(float((ids == wide_ids).all(axis=1).mean()), 4),
        "same_splits_as_no_wide_list": round(float((ids == narrow_ids).all(axis=1).mean()), 4),
        "splits_scored_per_hand": {
            "expected-score": round(float(plain_scored.mean()), 1),
            "rerank": round(float(n_scored.mean()), 1),
            "no window": round(float(wide_scored.mean()), 1),
            "no wide list": round(float(narrow_scored.mean()), 1),
            "wide list whatever its values": round(float(any_scored.mean()), 1),
            "full search": round(float(full_scored.mean()), 1),
        },
        "kept_per_hand": round(float(n_kept.mean()), 2),
        "same_splits_as_full_search": round(float((ids == full_ids).all(axis=1).mean()), 4),
        "value_given_up_to_full_search": round(float((full_values - values).mean()), 5),
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
        f"python experiments/bench_rerank.py --hands {a.hands} "
        f"--exhaustive-hands {a.exhaustive_hands} --repeats {a.repeats}"
    )
    meta = run_meta(command, SEED)
    (a.out / "rerank.json").write_text(
        json.dumps({"meta": meta, "rows": rows}, indent=2) + "\n", encoding="utf-8"
    )
    names = list(rows[0]["hands_per_s"])
    wide_window = (
        "whatever their values"
        if RERANK_WIDE_WINDOW == np.inf
        else f"within {RERANK_WIDE_WINDOW:g} points of the best"
    )
    lines = [
        "# expected-score-rerank against expected-score and the full search of its objective",
        "",
        f"`{command}` — seed {SEED}, one core, CPU time (best of {a.repeats} rounds, every "
        f"search timed in turn each round), numba {meta['numba']}, {meta['when']}, load average "
        f"at the end {tuple(meta['load_average'])} (the machine is shared, so rates are lower "
        "bounds).  `rerank top=k`: expected-score's best k splits of distinct class triples "
        f"within its window ({RERANK_WINDOW} points under the best's value, that value capped "
        f"at {RERANK_CAP:g}; for a hand holding two trips or more, or trips and three pairs, "
        f"the best {RERANK_WIDE_TOP}, or k where more, {wide_window}, as the strategy keeps "
        "them), re-ranked under the hand's own tables (the "
        "card-removal model), the t-formula's places and the home rate "
        f"({RERANK_HOME_RATE}; expected-score-rerank keeps {RERANK_TOP}); `no window`: "
        f"the best {RERANK_TOP} ({RERANK_WIDE_TOP}) whatever their values; `no wide list`: "
        f"the best {RERANK_TOP} within the window for every hand; `wide list whatever its "
        f"values`: the best {RERANK_WIDE_TOP} whatever their values for a hand keeping the wide "
        f"list, as the strategy kept them before its wide window; `{ONE}`: the default's split "
        "alone, valued under that objective (the search at the default's bar and the "
        "re-ranking of one split: the list's fixed cost); `full search`: the exact "
        "search of that objective over every split (expected-score-hand with "
        f"`conditioning=model` and the home rate {RERANK_HOME_RATE}).  "
        f"The ratios and the columns after them are of top={RERANK_TOP} with the window and the "
        "wide list.",
        "",
        "| variant | players | " + " | ".join(f"{n} hands/s" for n in names) + " | "
        f"rerank / expected-score | {ONE} / expected-score | rerank / full search | "
        "rerank / no window | rerank / no wide list | rerank / wide list whatever its values | "
        "splits scored (expected-score, rerank, no window, no wide list, wide list whatever "
        "its values, full) | same splits as without the window | same splits as without the "
        "wide list | same splits as the wide list whatever its values | same "
        "splits as the full search | value given up to it | choices that differ from "
        "expected-score | same as the scan of every split |",
        "|---|---|" + "---|" * (len(names) + 14),
    ]
    for r in rows:
        scored = r["splits_scored_per_hand"]
        lines.append(
            f"| {r['variant']} | {r['players']} | "
            + " | ".join(f"{r['hands_per_s'][n]:,}" for n in names)
            + f" | {r['rerank_over_default']:.2f}× | {r['one_split_over_default']:.2f}× | "
            f"{r['rerank_over_full']:.2f}× | "
            f"{r['rerank_over_no_window']:.2f}× | {r['rerank_over_no_wide_list']:.2f}× | "
            f"{r['rerank_over_wide_any']:.2f}× | "
            f"{scored['expected-score']}, {scored['rerank']}, {scored['no window']}, "
            f"{scored['no wide list']}, {scored['wide list whatever its values']}, "
            f"{scored['full search']} | "
            f"{r['same_splits_as_no_window']:.1%} | {r['same_splits_as_no_wide_list']:.1%} | "
            f"{r['same_splits_as_wide_any']:.1%} | "
            f"{r['same_splits_as_full_search']:.1%} | {r['value_given_up_to_full_search']} | "
            f"{r['differs_from_expected_score']:.1%} | "
            f"{r['same_as_exhaustive']} of {r['exhaustive_hands']} |"
        )
    (a.out / "rerank.md").write_text("\n".join(lines) + "\n", encoding="utf-8")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
