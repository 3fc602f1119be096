"""The window of expected-score-rerank's wide list: how far under expected-score's best its
pick lies, and what a window of the wide list changes.

A hand that keeps the wide list (two trips or more, or trips and three pairs:
:func:`~simkit.arrange.rerank.keeps_wide`) re-ranks expected-score's best ten splits of
distinct class triples.  Kept whatever their values, the ten reach far under the best on
many hands, and the search must score every split down to the tenth.  Here, on dealt hands
of each guangxi row (4 players, the rows with a card-removal model): the pick of the list
kept whatever its values (``wide_window=inf``), its expected-score value under the bar's
reference (expected-score's best, capped at the strategy's cap, as
:func:`~simkit.arrange.rerank.window_bar` reads it) for the hands keeping the wide list and
the others; then for each wide window, the picks that differ from that list's, on those
hands and on the regret protocol's hands (seeds 3 and 4, dealt as ``simkit.regret`` deals
them), the splits the search scores, and its speed over the list without a window (hands
per CPU second on one core on the first ``--timed-hands`` hands, numba compiled before): in
each of ``--rounds`` independent timings, the best of ``--repeats`` calls of every window in
turn (each timing's turn starting at another window), and the ratio's median and range over
the timings (the machine is shared, and a single timing moves by a few percent either way).

    PYTHONPATH=. python experiments/rerank_wide_window.py [--hands 40000] [--seed 11] \\
        [--timed-hands 8000] [--rounds 7] [--repeats 3]

Writes results/strategy/rerank-wide-window.md and .json.
"""

from __future__ import annotations

import json
import time
from functools import partial
from pathlib import Path

import numpy as np
from _timing import (  # experiments/ is on sys.path as a script
    check_hands_args,
    hands_parser,
    rotated_turns,
    run_meta,
)

from simkit.arrange import max_ev_ids, split_values
from simkit.arrange.api import _ids_to_cards
from simkit.arrange.rerank import keeps_wide, rerank_ids
from simkit.arrange.strategies import RERANK_CAP, RERANK_WIDE_WINDOW, ExpectedScoreRerank
from simkit.deal import as_generator, deal
from simkit.evaluate import dun_ranks
from simkit.variants import resolve_variant

ROOT = Path(__file__).resolve().parents[1]
VARIANTS = ("guangxi", "guangxi-regional")
PLAYERS = 4
#: the wide windows compared with none (inf: the ten whatever their values)
WINDOWS = (3.0, 2.0, 1.5, 1.0, 0.75, 0.5)
#: the regret protocol's seeds whose hands are checked (``results/strategy/regret-hand-*``)
PROTOCOL_SEEDS = (3, 4)
PROTOCOL_HANDS = 2000
#: distances of interest, points under the bar's reference
BEYOND = (1.0, 1.5, 2.0)


def protocol_hands(seed: int, n: int) -> np.ndarray:
    """The hands :func:`simkit.regret.regret` measures at ``seed``: its first spawned seed
    deals them, seat 0's hand of each deal."""
    deal_seed, _ = np.random.SeedSequence(seed).spawn(2)
    return np.sort(deal(n, PLAYERS, rng=as_generator(deal_seed))[:, 0], axis=1).astype(np.int64)


def list_call(hands: np.ndarray, strategy: ExpectedScoreRerank, v) -> partial:
    """The strategy's search of ``hands`` as one call of :func:`rerank_ids` (what it plays
    where a card-removal model fits)."""
    model = strategy.removal_model(v, PLAYERS)
    first = strategy.first().solver(v, PLAYERS)
    own = strategy.solver(v, PLAYERS)
    return partial(rerank_ids, hands, first, own, model, *strategy.rerank_list())


def list_run(hands: np.ndarray, strategy: ExpectedScoreRerank, v) -> tuple[np.ndarray, np.ndarray]:
    """The strategy's picks (split ids) and the splits its search scored, per hand."""
    ids, _, scored, _ = list_call(hands, strategy, v)()
    return ids, scored


def pick_depth(hands: np.ndarray, ids: np.ndarray, v) -> np.ndarray:
    """How far each pick's expected-score value lies under the bar's reference: expected-
    score's best over all splits (its search), capped at the strategy's cap."""
    first = ExpectedScoreRerank().first().solver(v, PLAYERS)
    _, best, _ = max_ev_ids(hands, first)
    picked = split_values(dun_ranks(_ids_to_cards(hands, ids), v), first)
    return np.minimum(best, RERANK_CAP) - picked


def depth_summary(depth: np.ndarray) -> dict:
    return {
        "hands": int(depth.size),
        "max": float(depth.max()),
        "p999": float(np.percentile(depth, 99.9)),
        "p99": float(np.percentile(depth, 99)),
        "beyond": {f"{b:g}": int((depth > b + 1e-9).sum()) for b in BEYOND},
    }


def study(variant: str, n_hands: int, seed: int, timed: int, rounds: int, repeats: int) -> dict:
    v = resolve_variant(variant)
    hands = np.sort(deal(n_hands // PLAYERS, PLAYERS, rng=seed).reshape(-1, 13), axis=1)
    hands = hands.astype(np.int64)
    wide = np.array([keeps_wide(h) for h in hands])
    none_ids, none_scored = list_run(hands, ExpectedScoreRerank(wide_window=np.inf), v)
    depth = pick_depth(hands, none_ids, v)
    protocol = {s: protocol_hands(s, PROTOCOL_HANDS) for s in PROTOCOL_SEEDS}
    protocol_none = {
        s: list_run(h, ExpectedScoreRerank(wide_window=np.inf), v)[0] for s, h in protocol.items()
    }
    rows = []
    for window in WINDOWS:
        strategy = ExpectedScoreRerank(wide_window=window)
        ids, scored = list_run(hands, strategy, v)
        rows.append(
            {
                "wide_window": window,
                "differ": int((ids != none_ids).any(axis=1).sum()),
                "differ_protocol": {
                    str(s): int((list_run(h, strategy, v)[0] != protocol_none[s]).any(axis=1).sum())
                    for s, h in protocol.items()
                },
                "scored": float(scored.mean()),
                "scored_wide": float(scored[wide].mean()),
            }
        )
    runs = {
        w: list_call(np.ascontiguousarray(hands[:timed]), ExpectedScoreRerank(wide_window=w), v)
        for w in (np.inf, *WINDOWS)
    }
    for run in runs.values():  # compiled and read before timing
        run()
    # each timing starts its turns at another window: a call's place in the turn moves its time
    timings = rotated_turns({f"{w:g}": run for w, run in runs.items()}, rounds, repeats)
    rate = {w: round(timed / min(t[w] for t in timings)) for w in timings[0]}
    for row in rows:
        w = f"{row['wide_window']:g}"
        ratios = [t["inf"] / t[w] for t in timings]
        row["hands_per_s"] = rate[w]  # the fastest timing's
        row["speed_over_none"] = {
            "median": round(float(np.median(ratios)), 3),
            "low": round(min(ratios), 3),
            "high": round(max(ratios), 3),
        }
    return {
        "variant": variant,
        "hands": int(hands.shape[0]),
        "hands_per_s_none": rate["inf"],
        "share_wide": float(wide.mean()),
        "depth_wide": depth_summary(depth[wide]),
        "depth_other": depth_summary(depth[~wide]),
        "scored_none": float(none_scored.mean()),
        "scored_none_wide": float(none_scored[wide].mean()),
        "rows": rows,
    }


def render(results: list[dict], meta: dict) -> str:
    lines = [
        "# The window of expected-score-rerank's wide list",
        "",
        __doc__.split("\n\n")[1].replace("\n", " "),
        "",
        f"`{meta['command']}` — seed {meta['seed']}, numba {meta['numba']}, {meta['when']}, "
        f"load average at the end {tuple(meta['load_average'])} (the machine is shared: "
        f"compare the speeds within a row), {meta['minutes']:.1f} min.  The shipped wide "
        f"window: {RERANK_WIDE_WINDOW:g} (cap {RERANK_CAP:g}).",
        "",
        "How far under the bar's reference the pick of the list kept whatever its values lies "
        "(expected-score points):",
        "",
        "| variant | hands | keep the wide list | max | 99.9th percentile | 99th percentile | "
        + " | ".join(f"beyond {b:g}" for b in BEYOND)
        + " |",
        "|---|---|---|---|---|---|" + "---|" * len(BEYOND),
    ]
    for r in results:
        for label, d in (("yes", r["depth_wide"]), ("no", r["depth_other"])):
            lines.append(
                f"| {r['variant']} | {d['hands']:,} | {label} | {d['max']:.3f} | "
                f"{d['p999']:.3f} | {d['p99']:.3f} | "
                + " | ".join(str(d["beyond"][f"{b:g}"]) for b in BEYOND)
                + " |"
            )
    seeds = " and ".join(str(s) for s in PROTOCOL_SEEDS)
    lines += [
        "",
        f"Each wide window against none: the picks that differ on the dealt hands and on the "
        f"regret protocol's {PROTOCOL_HANDS:,} hands of seeds {seeds}, and the splits the "
        "search scores (mean over all hands, and over those keeping the wide list), its "
        f"speed on the first {meta['timed_hands']:,} hands (the fastest of {meta['rounds']} "
        f"timings, each the best of {meta['repeats']} calls in turn) and that speed over the "
        "list without a window (median over the timings, and its range):",
        "",
        "| variant | wide window | picks differ (dealt hands) | picks differ (protocol, "
        f"seeds {seeds}) | splits scored | splits scored, wide list | hands/s | speed over "
        "none |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for r in results:
        lines.append(
            f"| {r['variant']} | inf (none) | — | — | {r['scored_none']:.1f} | "
            f"{r['scored_none_wide']:.1f} | {r['hands_per_s_none']:,} | 1 |"
        )
        for row in r["rows"]:
            protocol = ", ".join(str(row["differ_protocol"][str(s)]) for s in PROTOCOL_SEEDS)
            lines.append(
                f"| {r['variant']} | {row['wide_window']:g} | {row['differ']} of {r['hands']:,} "
                f"| {protocol} | {row['scored']:.1f} | {row['scored_wide']:.1f} | "
                f"{row['hands_per_s']:,} | {row['speed_over_none']['median']:.2f}× "
                f"({row['speed_over_none']['low']:.2f}–{row['speed_over_none']['high']:.2f}) |"
            )
    return "\n".join(lines) + "\n"


def main() -> None:
    ap = hands_parser(__doc__.split("\n")[0], 40000, None, 3, ROOT / "results" / "strategy")
    ap.add_argument("--seed", type=int, default=11)
    ap.add_argument("--timed-hands", type=int, default=8000, help="hands timed (default 8000)")
    ap.add_argument("--rounds", type=int, default=7, help="independent timings (default 7)")
    a = ap.parse_args()
    check_hands_args(a)  # makes --out
    if not 1 <= a.timed_hands <= a.hands - a.hands % PLAYERS or a.rounds < 1:
        raise SystemExit("1 ≤ --timed-hands ≤ --hands, --rounds ≥ 1")
    start = time.perf_counter()
    results = []
    for variant in VARIANTS:
        results.append(study(variant, a.hands, a.seed, a.timed_hands, a.rounds, a.repeats))
        print(json.dumps(results[-1]), flush=True)
    command = (
        "PYTHONPATH=. python experiments/rerank_wide_window.py "
        f"--hands {a.hands} --seed {a.seed} --timed-hands {a.timed_hands} --rounds {a.rounds} "
        f"--repeats {a.repeats}"
    )
    meta = {
        **run_meta(command, a.seed),
        "timed_hands": a.timed_hands,
        "rounds": a.rounds,
        "repeats": a.repeats,
        "minutes": (time.perf_counter() - start) / 60,
    }
    (a.out / "rerank-wide-window.json").write_text(
        json.dumps({"meta": meta, "results": results}, indent=1) + "\n", encoding="utf-8"
    )
    text = render(results, meta)
    (a.out / "rerank-wide-window.md").write_text(text, encoding="utf-8")
    print(text)


if __name__ == "__main__":
    main()
