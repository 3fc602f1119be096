"""The home run against in expected-score-rerank's re-ranking, and the list of a hand holding
trips and three pairs: chosen on the rerank probe's hands, never on the regret protocol's.

The model prices an opponent's home run against a split as the chance that opponent scoops
the split times the table's scoop rate for each other player (0.113² = 0.013 in guangxi).  An
opponent who beats all three of a split's duns holds a strong hand and scoops the others far
more often: the re-ranking lost most on hands holding trips and three pairs, whose full-house
split (a middling pair in front, a pair in the middle, the full house behind) pays those home
runs, where the rollouts' best (the highest pair in front, two pairs in the middle, the trips
behind) is seldom scooped.  ``home_rate`` (``P_HOME_RATE``) prices the chance that an opponent
who scoops the split scoops every other player too.  Here, as in ``rerank_top.py``: the
candidates of each probe hand (its front and the default's choice, with their mean points on
1000 + 1000 rollouts against expected-score opponents) are put in expected-score's order, one
per class triple; the strategy's list of them is valued under the hand's own tables, the
places and each ``home_rate``, the best kept: its regret (95% CI), its gain over the list and
objective before (``home_rate`` 0, the wide list for two trips only; paired), the part of the
regret the hands holding one trips and three pairs or more give, and the splits kept.  The
lists: the wide list (``wide_top`` within ``wide_window``) for a hand holding two trips or
more only, or also for one holding one trips and three pairs
(:func:`~simkit.arrange.rerank.keeps_wide`, the shipped rule).

    PYTHONPATH=. python experiments/rerank_probe.py --variant guangxi-regional --hands 2400 \\
        --rollouts 1000 1000 --m 4 --tables 2000 --seed 5 --save-hands probe.npz
    PYTHONPATH=. python experiments/rerank_home.py --probe probe.npz --variant guangxi-regional

Writes results/strategy/rerank-home-<variant>.md and .json.
"""

from __future__ import annotations

import json
import time

import numpy as np
from rerank_probe import (  # experiments/ is on sys.path as a script
    LIST_STUDY_RERANK,
    list_head,
    list_regret,
    mean_ci95,
    probe_args,
    probe_hands,
)

from simkit.arrange import split_values
from simkit.arrange.rerank import MAX_WIDE_PAIRS, WIDE_PAIRS, hand_list, rank_groups
from simkit.arrange.strategies import (
    RERANK_CAP,
    RERANK_HOME_RATE,
    RERANK_TOP,
    RERANK_WIDE_TOP,
    RERANK_WIDE_WINDOW,
    RERANK_WINDOW,
    ExpectedScoreRerank,
)
from simkit.variants import resolve_variant

#: home_rate tried (0: the table's scoop rate for each other player, the model before)
RATES = (0.0, 0.04, 0.09, 0.16, 0.25, 0.36, 0.49, 0.64)
#: the lists: which hands keep the wide list, and the ``wide_pairs`` that says so
SHIPPED = "two trips, or trips and three pairs"
LISTS = {"two trips": MAX_WIDE_PAIRS, SHIPPED: WIDE_PAIRS}


def main() -> None:
    a = probe_args(__doc__.split("\n")[0])
    v = resolve_variant(a.variant)
    start = time.perf_counter()
    strategies = {r: ExpectedScoreRerank(home_rate=r) for r in RATES}
    regrets: dict[tuple[float, str], list[float]] = {(r, w): [] for r in RATES for w in LISTS}
    kept_n: dict[str, list[int]] = {w: [] for w in LISTS}
    every: dict[float, list[float]] = {r: [] for r in RATES}
    plain, shape = [], []
    for h in probe_hands(a.probe, v, a.players, LIST_STUDY_RERANK):
        hand = np.sort(h.hand)
        trips, pairs = rank_groups(hand)
        shape.append(trips == 1 and pairs >= WIDE_PAIRS)
        plain.append(h.best - h.ev[0])
        heads = {}
        for w, wide_pairs in LISTS.items():
            length, window = hand_list(
                hand, RERANK_TOP, RERANK_WINDOW, RERANK_WIDE_TOP, RERANK_WIDE_WINDOW, wide_pairs
            )
            heads[w] = list_head(h, length, window)
            kept_n[w].append(len(heads[w]))
        for r, strategy in strategies.items():
            own = (
                h.own
                if r == 0.0
                else split_values(h.ranks, strategy.hand_solver(h.hand, v, a.players))
            )
            every[r].append(h.best - h.ev[int(np.argmax(own))])
            for w, head in heads.items():
                regrets[r, w].append(list_regret(h, head, own))
    held = np.array(shape)
    n = held.size
    before = np.array(regrets[0.0, "two trips"])

    def summary(r: list[float]) -> dict:
        x = np.array(r)
        return {**mean_ci95(x), "trips_pairs_part": float(x[held].sum() / n)}

    rows = [
        {
            "home_rate": r,
            "list": w,
            "regret": summary(regrets[r, w]),
            "gain": mean_ci95(before - np.array(regrets[r, w])),
            "mean_kept": float(np.mean(kept_n[w])),
        }
        for r in RATES
        for w in LISTS
    ]
    full = [{"home_rate": r, "regret": summary(every[r])} for r in RATES]
    elapsed = time.perf_counter() - start
    meta = {
        "variant": a.variant,
        "players": a.players,
        "hands": n,
        "share_trips_three_pairs": float(held.mean()),
        "probe": a.probe.name,
        "default_regret": summary(plain),
        "seconds": round(elapsed, 1),
    }
    a.out.mkdir(parents=True, exist_ok=True)
    stem = f"rerank-home-{a.variant}"
    (a.out / f"{stem}.json").write_text(
        json.dumps({"meta": meta, "rows": rows, "full_search": full}, indent=2) + "\n",
        encoding="utf-8",
    )

    def cell(s: dict) -> str:
        return f"{s['mean']:.4f} ± {s['ci95']:.4f} | {s['trips_pairs_part']:.4f}"

    lines = [
        f"# expected-score-rerank's home run against, and its list ({a.variant})",
        "",
        __doc__.split("\n\n")[1].replace("\n", " "),
        "",
        f"{a.variant}, {a.players} players, {n} hands (rerank_probe.py seed 5; the regret "
        f"protocol's hands are seeds 3 and 4's), {100 * held.mean():.1f}% of them holding one "
        f"trips and three pairs or more; top {RERANK_TOP} within {RERANK_WINDOW} (cap "
        f"{RERANK_CAP:g}), wide top {RERANK_WIDE_TOP} within {RERANK_WIDE_WINDOW:g}.  "
        f"{elapsed / 60:.1f} min here.  The shipped strategy: home_rate {RERANK_HOME_RATE}, the "
        f"wide list for {SHIPPED}.",
        "",
        f"* the default's regret on these hands: {cell(meta['default_regret'])} (mean ± 95% CI "
        "| the part of the hands holding trips and three pairs)",
        "",
        "| home_rate | wide list for | regret ± 95% CI | trips-and-three-pairs part | gain over "
        "home_rate 0, two trips (paired) | splits kept |",
        "|---|---|---|---|---|---|",
    ]
    for row in rows:
        g = row["gain"]
        lines.append(
            f"| {row['home_rate']:g} | {row['list']} | {cell(row['regret'])} | "
            f"{g['mean']:+.4f} ± {g['ci95']:.4f} | {row['mean_kept']:.2f} |"
        )
    lines += [
        "",
        "The full search of the same objective (every candidate valued under the hand's own "
        "tables, the places and the home_rate):",
        "",
        "| home_rate | regret ± 95% CI | trips-and-three-pairs part |",
        "|---|---|---|",
        *(f"| {f['home_rate']:g} | {cell(f['regret'])} |" for f in full),
        "",
    ]
    (a.out / f"{stem}.md").write_text("\n".join(lines), encoding="utf-8")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
