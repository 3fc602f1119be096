"""A/B in one process: ranking the duns of dealt hands, and arranging hands, with jokers (and a
fifth suit) against the plain one deck, on one core.

Deals ``--games`` 4-player games from each pack (one plain deck; one deck and two jokers; one
deck and a fifth suit), cuts every hand into its three duns as dealt (front 3, middle 5, back 5)
and ranks them with :func:`simkit.evaluate.dun_ranks`.  Plain hands take the one-deck kernel;
a hand array holding a joker or a fifth-suit card takes the any-deck kernel.  The arms run
interleaved, ``--repeats`` times each, and the best CPU time of each is kept.  Then
``--arrange-hands`` hands of each pack are set by the max-ev search (the deck options have no
trained tables of their own and play guangxi's, so the search does the same work per split).

    python -m experiments.benchmarks.bench_rank_decks [--games 500000] [--repeats 5]
        [--arrange-hands 4000]

Writes ``results/bench/rank_decks.json`` and ``results/bench/rank_decks.md``.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import time
from pathlib import Path

os.environ.setdefault("NUMBA_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")

import numpy as np

from simkit.deal import deal
from simkit.evaluate import (
    _rank3_any_rows,
    _rank3_rows,
    _rank5_any_rows,
    _rank5_rows,
    any_deck_flat,
    dun_ranks,
    ranking_tables,
)
from simkit.variants import Deck, load_variant

OUT = Path(__file__).resolve().parents[2] / "results" / "bench"
SEED = 2026


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=500_000)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--arrange-hands", type=int, default=4000)
    parser.add_argument("--out", type=Path, default=OUT, help="results folder (results/bench)")
    args = parser.parse_args()

    variants = {
        "one deck (52)": (load_variant("guangxi"), Deck()),
        "two jokers (54)": (load_variant("guangxi-jokers"), Deck(jokers=2)),
        "fifth suit (65)": (
            load_variant("guangxi-five-suits"),
            Deck(extra_suit=True, players=(4,)),
        ),
    }
    hands = {
        name: deal(args.games, 4, rng=SEED, deck=deck).reshape(-1, 13)
        for name, (_, deck) in variants.items()
    }
    gx = variants["one deck (52)"][0]
    table5, flush_table, table3 = ranking_tables(gx.ranking)
    flat5, flat3 = any_deck_flat(gx.ranking)

    def duns(h: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        return np.ascontiguousarray(np.concatenate([h[:, 3:8], h[:, 8:]])), np.ascontiguousarray(
            h[:, :3]
        )

    plain5, plain3 = duns(hands["one deck (52)"])
    joker5, joker3 = duns(hands["two jokers (54)"])
    out5 = np.empty(plain5.shape[0], np.int32)
    out3 = np.empty(plain3.shape[0], np.int32)

    def kernel_one_deck() -> None:
        _rank5_rows(plain5, table5, flush_table, out5)
        _rank3_rows(plain3, table3, out3)

    def kernel_any(c5: np.ndarray, c3: np.ndarray) -> None:
        _rank5_any_rows(c5, flat5, out5)
        _rank3_any_rows(c3, flat3, out3)

    # dun_ranks: the public call (input checks, slicing, kernel choice); kernels: the loops only.
    arms = {f"dun_ranks, {n}": (lambda h=hands[n], v=variants[n][0]: dun_ranks(h, v))
            for n in variants}  # fmt: skip
    arms["kernel only: one-deck kernel, one deck"] = kernel_one_deck
    arms["kernel only: any-deck kernel, one deck"] = lambda: kernel_any(plain5, plain3)
    arms["kernel only: any-deck kernel, two jokers"] = lambda: kernel_any(joker5, joker3)
    for fn in arms.values():
        fn()  # compile / load the cached kernels and build the tables
    times: dict[str, list[float]] = {name: [] for name in arms}
    for _ in range(args.repeats):
        for name, fn in arms.items():
            t0 = time.process_time()
            fn()
            times[name].append(time.process_time() - t0)
    best = {name: min(ts) for name, ts in times.items()}

    from simkit.arrange import arrange
    from simkit.arrange.wintables import default_tables

    tables = default_tables(gx, 4)
    n_arr = args.arrange_hands
    arrange_arms = {
        f"arrange (max-ev), {n}": (
            lambda h=hands[n][:n_arr], v=variants[n][0]: arrange(h, v, tables=tables)
        )
        for n in variants
    }
    for fn in arrange_arms.values():
        fn()
    arrange_times: dict[str, list[float]] = {name: [] for name in arrange_arms}
    for _ in range(max(1, args.repeats // 2)):
        for name, fn in arrange_arms.items():
            t0 = time.process_time()
            fn()
            arrange_times[name].append(time.process_time() - t0)
    arrange_best = {name: min(ts) for name, ts in arrange_times.items()}
    arrange_base = arrange_best["arrange (max-ev), one deck (52)"]
    base_of = {
        name: best["dun_ranks, one deck (52)" if name.startswith("dun_ranks") else
                   "kernel only: one-deck kernel, one deck"]
        for name in best
    }  # fmt: skip
    jokers_share = float((hands["two jokers (54)"] >= 65).any(axis=1).mean())
    n_hands = hands["one deck (52)"].shape[0]
    result = {
        "machine": f"{platform.processor() or platform.machine()}, {os.cpu_count()} cores",
        "python": platform.python_version(),
        "games": args.games,
        "hands": n_hands,
        "repeats": args.repeats,
        "seconds_best": best,
        "hands_per_s": {name: n_hands / t for name, t in best.items()},
        "slowdown_vs_one_deck": {name: t / base_of[name] for name, t in best.items()},
        "share_of_hands_with_a_joker": jokers_share,
        "arrange_hands": n_arr,
        "arrange_seconds_best": arrange_best,
        "arrange_slowdown_vs_one_deck": {n: t / arrange_base for n, t in arrange_best.items()},
        "command": "python -m experiments.benchmarks.bench_rank_decks "
        f"--games {args.games} --repeats {args.repeats} --arrange-hands {n_arr}",
    }
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "rank_decks.json").write_text(json.dumps(result, indent=2) + "\n")
    md = [
        "# Ranking and arranging dealt hands: jokers and a fifth suit against one deck",
        "",
        f"`{result['command']}` (one core, CPU time, best of {args.repeats}, interleaved)",
        "",
        "| what is timed, pack | 13-card hands | hands/s | time vs one deck |",
        "|---|---:|---:|---:|",
    ]
    for name, t in best.items():
        md.append(f"| {name} | {n_hands:,} | {n_hands / t:,.0f} | {t / base_of[name]:.2f}x |")
    for name, t in arrange_best.items():
        md.append(f"| {name} | {n_arr:,} | {n_arr / t:,.0f} | {t / arrange_base:.2f}x |")
    md += [
        "",
        f"{jokers_share:.1%} of the 54-card hands hold a joker.  Target: jokers at most 2x the "
        "one-deck time.",
        f"Machine: {result['machine']}, Python {result['python']}.",
        "",
    ]
    (args.out / "rank_decks.md").write_text("\n".join(md))
    print("\n".join(md))


if __name__ == "__main__":
    main()
