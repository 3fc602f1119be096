"""How many splits expected-score-rerank re-ranks for a hand holding two trips or more: chosen
on the rerank probe's hands, never on the regret protocol's.

Two trips (two ranks of three or four cards) take those ranks from the opponents: they hold
fewer trips and full houses of them, and a split that sets a second full house is worth more
than expected-score's tables say, by points.  So the hand's own tables move such a split from
far down expected-score's list to the top: it lies past the sixth on the hands where the six
miss most (of the regret protocol's guangxi-regional hands, the five the six lost most on
all hold two trips).  Here, as in ``rerank_top.py``: the candidates of each probe hand (its
front and the default's choice, with their mean points on 1000 + 1000 rollouts against
expected-score opponents) are put in expected-score's order, one per class triple; the first
``top`` within the strategy's window (``wide_top`` within ``wide_window`` for a hand holding
:data:`~simkit.arrange.rerank.WIDE_TRIPS` trips or more) are valued under the hand's own
tables and the places, the best kept: its regret (95% CI), the part of it the hands holding
two trips give, its gain over the same top for every hand, and the splits kept.

    PYTHONPATH=. python experiments/rerank_probe.py --variant guangxi-regional --hands 2400 \\
        --rollouts 1000 1000 --m 4 --tables 2000 --seed 5 --save-hands probe.npz
    PYTHONPATH=. python experiments/rerank_wide.py --probe probe.npz --variant guangxi-regional

Writes results/strategy/rerank-wide-<variant>.md and .json.
"""

from __future__ import annotations

import json
import time

import numpy as np
from rerank_probe import (  # experiments/ is on sys.path as a script
    list_head,
    list_regret,
    mean_ci95,
    probe_args,
    probe_hands,
)

from simkit.arrange.rerank import MAX_WIDE_PAIRS, hand_list, keeps_wide
from simkit.arrange.strategies import (
    RERANK_CAP,
    RERANK_TOP,
    RERANK_WIDE_TOP,
    RERANK_WIDE_WINDOW,
    RERANK_WINDOW,
)
from simkit.variants import resolve_variant

INF = float("inf")
#: (top, wide_top, wide_window) tried, the strategy's window and cap applied to the others
LISTS = (
    *(
        (top, wide, w)
        for top in (4, 5)
        for wide, w in ((top, RERANK_WINDOW), (10, RERANK_WINDOW), (10, INF))
    ),
    *((6, wide, RERANK_WINDOW) for wide in (6, 8, 10, 12, 16)),
    *((6, wide, w) for wide in (8, 10, 12, 16) for w in (1.0, 1.5, 2.0, INF)),
)


def main() -> None:
    a = probe_args(__doc__.split("\n")[0])
    v = resolve_variant(a.variant)
    start = time.perf_counter()
    regrets: dict[tuple[int, int, float], list[float]] = {k: [] for k in LISTS}
    kept_n: dict[tuple[int, int, float], list[int]] = {k: [] for k in LISTS}
    plain, every, wide_hand = [], [], []
    for h in probe_hands(a.probe, v, a.players):
        hand = np.sort(h.hand)
        plain.append(h.best - h.ev[0])
        every.append(h.best - h.ev[int(np.argmax(h.own))])
        wide_hand.append(keeps_wide(hand, MAX_WIDE_PAIRS))  # two trips or more only
        for top, wide_top, wide_window in LISTS:
            length, window = hand_list(
                hand, top, RERANK_WINDOW, wide_top, wide_window, MAX_WIDE_PAIRS
            )
            head = list_head(h, length, window)
            regrets[top, wide_top, wide_window].append(list_regret(h, head, h.own))
            kept_n[top, wide_top, wide_window].append(len(head))
    held = np.array(wide_hand)
    n = held.size

    def summary(r: list[float]) -> dict:
        x = np.array(r)
        return {**mean_ci95(x), "two_trips_part": float(x[held].sum() / n)}

    rows = []
    for key in LISTS:
        narrow = np.array(regrets[key[0], key[0], RERANK_WINDOW])  # one list for every hand
        rows.append({
            "top": key[0],
            "wide_top": key[1],
            "wide_window": key[2],
            "regret": summary(regrets[key]),
            "gain": mean_ci95(narrow - np.array(regrets[key])),
            "mean_kept": float(np.mean(kept_n[key])),
            # None where no probe hand holds two trips (a small probe)
            "mean_kept_two_trips": (
                float(np.mean(np.array(kept_n[key])[held])) if held.any() else None
            ),
        })  # fmt: skip
    elapsed = time.perf_counter() - start
    meta = {
        "variant": a.variant,
        "players": a.players,
        "hands": n,
        "share_two_trips": float(held.mean()),
        "probe": a.probe.name,
        "default_regret": summary(plain),
        "every_candidate": summary(every),
        "window": RERANK_WINDOW,
        "cap": RERANK_CAP,
        "seconds": round(elapsed, 1),
    }
    a.out.mkdir(parents=True, exist_ok=True)
    stem = f"rerank-wide-{a.variant}"
    (a.out / f"{stem}.json").write_text(
        json.dumps({"meta": meta, "rows": rows}, indent=2) + "\n", encoding="utf-8"
    )

    def cell(s: dict) -> str:
        return f"{s['mean']:.4f} ± {s['ci95']:.4f} | {s['two_trips_part']:.4f}"

    def prose(s: dict) -> str:
        return (
            f"{s['mean']:.4f} ± {s['ci95']:.4f}, of which the hands holding two trips give "
            f"{s['two_trips_part']:.4f}"
        )

    lines = [
        f"# expected-score-rerank's list for hands holding two trips ({a.variant})",
        "",
        __doc__.split("\n\n")[1].replace("\n", " "),
        "",
        f"{a.variant}, {a.players} players, {n} hands (rerank_probe.py seed 5; the regret "
        f"protocol's hands are seed 3's), {100 * held.mean():.1f}% of them holding two trips or "
        f"more; window {RERANK_WINDOW}, cap {RERANK_CAP:g}.  {elapsed / 60:.1f} min here.  The "
        f"shipped list: top {RERANK_TOP}, wide top {RERANK_WIDE_TOP}, wide window "
        f"{RERANK_WIDE_WINDOW:g}.",
        "",
        f"* the default's regret on these hands: {prose(meta['default_regret'])}",
        "* every candidate re-ranked (the full search of the same objective, over the front): "
        f"{prose(meta['every_candidate'])}",
        "",
        "| top | wide top (two trips or more) | wide window | regret | two trips' part | gain "
        "over one list for every hand (paired) | splits kept (mean) | splits kept, hands with "
        "two trips |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        g = r["gain"]
        k = r["mean_kept_two_trips"]
        kept_two = "–" if k is None else f"{k:.2f}"
        lines.append(
            f"| {r['top']} | {r['wide_top']} | {r['wide_window']:g} | {cell(r['regret'])} | "
            f"{g['mean']:+.4f} ± "
            f"{g['ci95']:.4f} | {r['mean_kept']:.2f} | {kept_two} |"
        )
    (a.out / f"{stem}.md").write_text("\n".join(lines) + "\n", encoding="utf-8")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
