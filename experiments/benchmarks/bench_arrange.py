"""Benchmark: the default, expected-score and max-ev arrangement against the exhaustive scan.

Each search and its exhaustive scan share one objective (the shipped win tables) over the same
hands in one process;
the exhaustive search scores every split, the pruned one skips whole backs by upper bounds.
Rates are hands per second of CPU time on one core (numba compiled before timing; the best of
repeated runs, 5 for max-ev, since the machine may be shared).  Also reports greedy and
random-legal rates, per hand the split counts: legal ordered splits (of 72,072), legal
distinct splits (of 36,036) and the Pareto front (Hankin 2015), and the one-pass search of
several variants that rank duns alike against one search per variant, and expected-score with
card-removal shifts against the same search on the pooled tables.

The default strategy (``simkit.arrange.DEFAULT_STRATEGY``, expected-score-rerank) plays
expected-score's search where no card-removal model fits and re-ranks that search's best
splits where one does (guangxi and guangxi-regional at 4 players): its rate is timed as a
run plays it (``choose_splits``), and its answers are checked against
``simkit.arrange.rerank.reference_rerank`` (the scan of every split) there, against
expected-score's search elsewhere.

    python -m experiments.benchmarks.bench_arrange [--hands 20000] [--exhaustive-hands 1000]

Writes results/bench/arrange.json and results/bench/arrange.md.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import time
from pathlib import Path

import numba as nb
import numpy as np

import simkit
from experiments.support import best_of
from simkit.arrange import (
    DEFAULT_STRATEGY,
    ExpectedScore,
    arrange,
    as_strategy,
    exhaustive_ids,
    legal_splits,
    make_solver,
    max_ev_ids,
    max_ev_ids_many,
    pareto_front,
    removal_buckets,
)
from simkit.deal import deal
from simkit.variants import resolve_variant

CONFIGS = (("western-2-4", 2), ("guangxi", 4), ("guangxi-regional", 4), ("taiwan", 4))
#: Hands a row whose default re-ranks are checked against the scan of every split (a scan in
#: numpy, some 5 ms a hand).
DEFAULT_SCAN_HANDS = 300
# the shipped four-player variants that rank duns alike (A-2-3-4-5 lowest) and play the deal
# as dealt: a simulation searches them in one pass over each hand
SHARED = ("hongkong", "taiwan", "wiki-points", "fujian", "qiantang", "western-2-4")
SEED = 2026


def cpu_rate(fn, n: int, repeats: int = 3) -> float:
    """Hands per CPU second, best of ``repeats`` (other processes share the machine)."""
    return n / best_of(fn, repeats, clock=time.process_time)


def bench(variant: str, players: int, n_hands: int, n_exhaustive: int, n_counts: int) -> dict:
    solver = make_solver(variant, players)
    expected = ExpectedScore().solver(variant, players)
    hands = deal(n_hands // players + 1, players, rng=SEED).reshape(-1, 13)[:n_hands]
    small = hands[:n_exhaustive]
    max_ev_ids(hands[:4], solver)  # compile
    max_ev_ids(hands[:4], expected)
    exhaustive_ids(hands[:1], expected)
    exhaustive_ids(hands[:1], solver)
    arrange(hands[:4], variant, "greedy", n_players=players)
    arrange(hands[:4], variant, "random-legal", n_players=players, rng=0)
    ids, values, n_scored = max_ev_ids(hands, solver)
    ids_all, values_all = exhaustive_ids(small, solver)
    same_value = bool((values[:n_exhaustive] == values_all).all())
    same_split = bool((ids[:n_exhaustive] == ids_all).all())
    es_ids, es_values, _ = max_ev_ids(hands, expected)
    es_ids_all, es_values_all = exhaustive_ids(small, expected)
    es_same = bool(
        (es_values[:n_exhaustive] == es_values_all).all()
        and (es_ids[:n_exhaustive] == es_ids_all).all()
    )
    default, v = as_strategy(DEFAULT_STRATEGY), resolve_variant(variant)
    assert isinstance(default, ExpectedScore) and default.search == "rerank", (
        "this benchmark checks a re-ranking default"
    )
    reranks = default.removal_model(v, players) is not None
    default_ids, default_values = default.choose_splits(hands, v, n_players=players)
    if reranks:
        n_scan = min(DEFAULT_SCAN_HANDS, n_exhaustive)
        want_ids, want_values = default.reference_splits(hands[:n_scan], v, players)
        default_same = bool(
            (default_ids[:n_scan] == want_ids).all()
            and (default_values[:n_scan] == want_values).all()
        )
    else:  # expected-score's search, itself checked against the exhaustive scan above
        n_scan = n_exhaustive
        default_same = bool((default_ids == es_ids).all() and (default_values == es_values).all())
    rate_max_ev = cpu_rate(lambda: max_ev_ids(hands, solver), n_hands, repeats=5)
    rate_expected = cpu_rate(lambda: max_ev_ids(hands, expected), n_hands, repeats=5)
    rate_default = cpu_rate(
        lambda: default.choose_splits(hands, v, n_players=players), n_hands, repeats=5
    )
    rate_exhaustive = cpu_rate(lambda: exhaustive_ids(small, solver), n_exhaustive, repeats=1)
    rate_greedy = cpu_rate(lambda: arrange(hands, variant, "greedy", n_players=players), n_hands)
    rate_random = cpu_rate(
        lambda: arrange(hands, variant, "random-legal", n_players=players, rng=1), n_hands
    )
    legal_distinct, legal_ordered, front = [], [], []
    for hand in hands[:n_counts]:
        split_ids, ranks = legal_splits(hand, variant)
        legal_distinct.append(len(split_ids))
        # a distinct split is legal in one order, or in both when its 5-card duns are equal
        legal_ordered.append(len(split_ids) + int((ranks[:, 1] == ranks[:, 2]).sum()))
        front.append(int(pareto_front(ranks).sum()))

    def summary(x: list[int] | np.ndarray) -> dict:
        a = np.asarray(x, dtype=np.float64)
        return {
            "mean": round(float(a.mean()), 1),
            "median": float(np.median(a)),
            "p99": float(np.percentile(a, 99)),
            "max": float(a.max()),
        }

    return {
        "variant": variant,
        "players": players,
        "hands": n_hands,
        "exhaustive_hands": n_exhaustive,
        "max_ev_hands_per_s": round(rate_max_ev),
        "expected_score_hands_per_s": round(rate_expected),
        "expected_score_same_as_exhaustive": es_same,
        "default": DEFAULT_STRATEGY,
        "default_reranks": reranks,
        "default_hands_per_s": round(rate_default),
        "default_over_expected_score": round(rate_default / rate_expected, 3),
        "default_same_as_scan": default_same,
        "default_scan_hands": n_scan,
        "exhaustive_hands_per_s": round(rate_exhaustive, 1),
        "speedup": round(rate_max_ev / rate_exhaustive, 1),
        "greedy_hands_per_s": round(rate_greedy),
        "random_legal_hands_per_s": round(rate_random),
        "same_values": same_value,
        "same_splits": same_split,
        "splits_scored_per_hand": summary(n_scored),
        "legal_ordered_splits": summary(legal_ordered),
        "legal_distinct_splits": summary(legal_distinct),
        "pareto_front_splits": summary(front),
        "split_count_hands": n_counts,
    }


#: The rows whose shipped fine tables carry fitted objective weights (results/strategy/
#: objective-weights.md): expected-score with them against the unweighted model, same hands.
WEIGHTED = (("guangxi", 4), ("guangxi-regional", 4), ("wiki-points", 4))


def bench_weights(n_hands: int) -> list[dict]:
    """Expected-score with its shipped weights against ``weights=(1, 1)``, in one process."""
    out = []
    for variant, players in WEIGHTED:
        hands = deal(n_hands // players + 1, players, rng=SEED + 2).reshape(-1, 13)[:n_hands]
        plain = ExpectedScore(weights=(1.0, 1.0)).solver(variant, players)
        fitted = ExpectedScore().solver(variant, players)
        max_ev_ids(hands[:4], plain)  # compile
        rate_plain = cpu_rate(lambda s=plain, h=hands: max_ev_ids(h, s), n_hands)
        rate_fitted = cpu_rate(lambda s=fitted, h=hands: max_ev_ids(h, s), n_hands)
        out.append({
            "variant": variant, "players": players, "hands": n_hands,
            "weights": [float(fitted.model.params[f]) for f in ("w_scoop", "w_home")],
            "unweighted_hands_per_s": round(rate_plain),
            "weighted_hands_per_s": round(rate_fitted),
            "ratio": round(rate_fitted / rate_plain, 2),
            "unweighted_scored": float(max_ev_ids(hands, plain)[2].mean()),
            "weighted_scored": float(max_ev_ids(hands, fitted)[2].mean()),
        })  # fmt: skip
    return out


#: Rows of expected-score with the copula of the opponents' duns against the products.
JOINT = (("western-2-4", 2), ("western-2-4", 4), ("guangxi", 4), ("taiwan", 4), ("fujian", 4))


def bench_joint(n_hands: int) -> list[dict]:
    """Expected-score pricing the joint chances by the copula (the default) against pricing
    them as products of the duns' chances (``joint=False``), the same hands in one process."""
    out = []
    for variant, players in JOINT:
        hands = deal(n_hands // players + 1, players, rng=SEED + 3).reshape(-1, 13)[:n_hands]
        products = ExpectedScore(joint=False).solver(variant, players)
        copula = ExpectedScore().solver(variant, players)
        max_ev_ids(hands[:4], products)  # compile
        max_ev_ids(hands[:4], copula)
        rate_products = cpu_rate(lambda s=products, h=hands: max_ev_ids(h, s), n_hands)
        rate_copula = cpu_rate(lambda s=copula, h=hands: max_ev_ids(h, s), n_hands)
        out.append({
            "variant": variant, "players": players, "hands": n_hands,
            "products_hands_per_s": round(rate_products),
            "copula_hands_per_s": round(rate_copula),
            "ratio": round(rate_copula / rate_products, 2),
            "products_scored": float(max_ev_ids(hands, products)[2].mean()),
            "copula_scored": float(max_ev_ids(hands, copula)[2].mean()),
        })  # fmt: skip
    return out


#: Rows whose shipped fine tables carry removal shifts (simkit.arrange.removal).
REMOVAL = (("fujian", 4), ("wiki-points", 4), ("qiantang", 4))


def bench_removal(n_hands: int, n_exhaustive: int) -> list[dict]:
    """The shipped default (one search per removal bucket, the hand's bucket picking it)
    against the same search on the pooled tables (``ExpectedScore(removal=False)``), the
    same hands in one process; the bucketed answers against the exhaustive scan under each
    hand's bucket's objective; the one-off cost of building the 80 bucket solvers."""
    out = []
    for variant, players in REMOVAL:
        hands = deal(n_hands // players + 1, players, rng=SEED + 4).reshape(-1, 13)[:n_hands]
        pooled, shipped = ExpectedScore(removal=False), ExpectedScore()
        started = time.process_time()
        group = shipped.solvers(variant, players)
        build = time.process_time() - started
        if len(group) == 1:
            continue  # this file carries no shifts
        v = group[0].variant
        pooled.choose_splits(hands[:4], v, n_players=players)  # compile
        shipped.choose_splits(hands[:4], v, n_players=players)

        def run(strategy: ExpectedScore, h=hands, v=v, n=players) -> object:
            return strategy.choose_splits(h, v, n_players=n)

        rate_pooled = cpu_rate(lambda s=pooled: run(s), n_hands)
        rate_shipped = cpu_rate(lambda s=shipped: run(s), n_hands)
        small = hands[:n_exhaustive]
        ids, values = shipped.choose_splits(small, v, n_players=players)
        buckets = removal_buckets(small)
        same = True
        for b in np.unique(buckets):
            mine = np.flatnonzero(buckets == b)
            want_ids, want_values = exhaustive_ids(np.ascontiguousarray(small[mine]), group[b])
            same &= bool((ids[mine] == want_ids).all() and (values[mine] == want_values).all())
        differs = (
            pooled.choose_splits(hands, v, n_players=players)[0]
            != shipped.choose_splits(hands, v, n_players=players)[0]
        ).any(axis=1)
        out.append({
            "variant": variant, "players": players, "hands": n_hands,
            "pooled_hands_per_s": round(rate_pooled),
            "removal_hands_per_s": round(rate_shipped),
            "ratio": round(rate_shipped / rate_pooled, 2),
            "build_seconds": round(build, 2),
            "exhaustive_hands": n_exhaustive,
            "same_as_exhaustive": same,
            "share_set_otherwise": round(float(differs.mean()), 4),
        })  # fmt: skip
    return out


def bench_shared(n_hands: int) -> dict:
    """One pass over the hands for all of SHARED against one search per variant."""
    solvers = [make_solver(v, 4) for v in SHARED]
    hands = deal(n_hands // 4 + 1, 4, rng=SEED + 1).reshape(-1, 13)[:n_hands]
    max_ev_ids_many(hands[:4], solvers)  # compile
    max_ev_ids(hands[:4], solvers[0])
    together = max_ev_ids_many(hands, solvers)
    same = all(
        (a[0] == b[0]).all() and (a[1] == b[1]).all()
        for a, b in zip(together, (max_ev_ids(hands, s) for s in solvers), strict=True)
    )
    work = n_hands * len(solvers)
    rate_each = cpu_rate(lambda: [max_ev_ids(hands, s) for s in solvers], work)
    rate_together = cpu_rate(lambda: max_ev_ids_many(hands, solvers), work)
    return {
        "variants": list(SHARED),
        "players": 4,
        "hands": n_hands,
        "one_search_per_variant_variant_hands_per_s": round(rate_each),
        "one_pass_variant_hands_per_s": round(rate_together),
        "speedup": round(rate_together / rate_each, 2),
        "same_answers": same,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=20_000)
    parser.add_argument("--exhaustive-hands", type=int, default=1_000)
    parser.add_argument("--count-hands", type=int, default=300)
    parser.add_argument("--out", type=Path, default=Path("results/bench"))
    args = parser.parse_args()
    started = time.time()
    rows = [bench(v, p, args.hands, args.exhaustive_hands, args.count_hands) for v, p in CONFIGS]
    shared = bench_shared(args.hands // 2)
    weighted = bench_weights(args.hands // 2)
    joint = bench_joint(args.hands // 2)
    removal = bench_removal(args.hands // 2, args.exhaustive_hands // 2)
    meta = {
        "command": "python -m experiments.benchmarks.bench_arrange "
        f"--hands {args.hands} --exhaustive-hands {args.exhaustive_hands} "
        f"--count-hands {args.count_hands}",
        "seed": SEED,
        "simkit": simkit.__version__,
        "numba": nb.__version__,
        "numpy": np.__version__,
        "python": platform.python_version(),
        "cpu": platform.processor() or platform.machine(),
        "load_average": os.getloadavg(),
        "threads": 1,
        "wall_seconds": round(time.time() - started, 1),
        "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
    }
    load = tuple(round(x, 1) for x in meta["load_average"])
    args.out.mkdir(parents=True, exist_ok=True)
    record = {
        "meta": meta, "rows": rows, "shared": shared, "weighted": weighted, "joint": joint,
        "removal": removal,
    }  # fmt: skip
    (args.out / "arrange.json").write_text(json.dumps(record, indent=2))
    lines = [
        "# Arrangement benchmark: the default, expected-score and max-ev vs the exhaustive "
        "72,072-split search",
        "",
        f"`{meta['command']}` — seed {SEED}, one core, CPU time, numba {meta['numba']}, "
        f"{meta['date']}, load average at the end {load}"
        " (the machine is shared, so rates are lower bounds).",
        "",
        f"**default**: `{DEFAULT_STRATEGY}`, timed as a run plays it; where a card-removal model "
        "fits (guangxi's two variants at 4 players) it re-ranks expected-score's best splits by "
        "the hand's own tables and the places, and its answers are checked against the scan of "
        "every split under that objective (`reference_rerank`); elsewhere it is "
        "expected-score's search, the same answers.",
        "",
        "| variant | players | default hands/s | default / expected-score | default same as "
        "the scan | expected-score hands/s | max-ev hands/s | exhaustive hands/s | "
        "speed-up | same answers | greedy hands/s | random-legal hands/s |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        same = r["same_values"] and r["same_splits"] and r["expected_score_same_as_exhaustive"]
        default_kind = "re-ranks" if r["default_reranks"] else "expected-score"
        lines.append(
            f"| {r['variant']} | {r['players']} | {r['default_hands_per_s']:,} "
            f"({default_kind}) | {r['default_over_expected_score']:.2f}× | "
            f"{'yes' if r['default_same_as_scan'] else 'NO'} ({r['default_scan_hands']} hands) | "
            f"{r['expected_score_hands_per_s']:,} | {r['max_ev_hands_per_s']:,} | "
            f"{r['exhaustive_hands_per_s']:,} | {r['speedup']}× | "
            f"{'yes' if same else 'NO'} "
            f"({r['exhaustive_hands']} hands, both strategies) | {r['greedy_hands_per_s']:,} | "
            f"{r['random_legal_hands_per_s']:,} |"
        )
    lines += [
        "",
        "Split counts per hand (mean / median / 99th percentile / max):",
        "",
        "| variant | players | legal ordered (of 72,072) | legal distinct (of 36,036) | "
        "Pareto front | scored by max-ev |",
        "|---|---|---|---|---|---|",
    ]

    def fmt(s: dict) -> str:
        return f"{s['mean']:,} / {s['median']:,.0f} / {s['p99']:,.0f} / {s['max']:,.0f}"

    for r in rows:
        lines.append(
            f"| {r['variant']} | {r['players']} | {fmt(r['legal_ordered_splits'])} | "
            f"{fmt(r['legal_distinct_splits'])} | {fmt(r['pareto_front_splits'])} | "
            f"{fmt(r['splits_scored_per_hand'])} |"
        )
    lines += [
        "",
        f"One pass for several variants ({shared['hands']:,} four-player hands, each set "
        f"under {len(SHARED)} variants that rank duns alike: {', '.join(SHARED)}; what "
        "depends only on the cards is done once per hand):",
        "",
        "| search | variant-hands/s | same answers |",
        "|---|---|---|",
        f"| one search per variant | {shared['one_search_per_variant_variant_hands_per_s']:,} | |",
        f"| one pass for all ({shared['speedup']}×) | {shared['one_pass_variant_hands_per_s']:,} "
        f"| {'yes' if shared['same_answers'] else 'NO'} |",
        "",
        "expected-score with its fitted scoop and home-run weights (the shipped files'; "
        "`results/strategy/objective-weights.md`) against the unweighted model, the same "
        f"{weighted[0]['hands']:,} hands in one process (splits scored: the search's work):",
        "",
        "| variant | players | weights | unweighted hands/s | weighted hands/s | ratio "
        "| splits scored, unweighted → weighted |",
        "|---|---|---|---|---|---|---|",
    ]
    for w in weighted:
        lines.append(
            f"| {w['variant']} | {w['players']} | {w['weights'][0]:.3f}, {w['weights'][1]:.3f} "
            f"| {w['unweighted_hands_per_s']:,} | {w['weighted_hands_per_s']:,} | {w['ratio']}× "
            f"| {w['unweighted_scored']:.1f} → {w['weighted_scored']:.1f} |"
        )
    lines += [
        "",
        "expected-score pricing scoops and majorities by the copula of the opponents' duns "
        "(its default; `simkit.arrange.joint`) against pricing them as products of the duns' "
        f"chances (`ExpectedScore(joint=False)`), the same {joint[0]['hands']:,} hands in one "
        "process:",
        "",
        "| variant | players | products hands/s | copula hands/s | ratio "
        "| splits scored, products → copula |",
        "|---|---|---|---|---|---|",
    ]
    for j in joint:
        lines.append(
            f"| {j['variant']} | {j['players']} | {j['products_hands_per_s']:,} | "
            f"{j['copula_hands_per_s']:,} | {j['ratio']}× "
            f"| {j['products_scored']:.1f} → {j['copula_scored']:.1f} |"
        )
    lines += [
        "",
        "expected-score where its tables carry card-removal shifts (one search per "
        "removal bucket of the hand, `simkit.arrange.removal`) against the same search on the "
        "pooled tables (`ExpectedScore(removal=False)`), the same "
        f"{removal[0]['hands'] if removal else 0:,} hands in one process; the 80 bucket "
        "solvers are built once a process:",
        "",
        "| variant | players | pooled hands/s | with removal hands/s | ratio | build, s "
        "| same as exhaustive | hands set otherwise |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for r in removal:
        lines.append(
            f"| {r['variant']} | {r['players']} | {r['pooled_hands_per_s']:,} | "
            f"{r['removal_hands_per_s']:,} | {r['ratio']}× | {r['build_seconds']} | "
            f"{'yes' if r['same_as_exhaustive'] else 'NO'} ({r['exhaustive_hands']} hands) | "
            f"{r['share_set_otherwise']:.1%} |"
        )
    (args.out / "arrange.md").write_text("\n".join(lines) + "\n")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
