"""How many of expected-score's best splits expected-score-rerank re-ranks: chosen on the rerank
probe's hands, never on the regret protocol's.

``rerank_probe.py --save-hands`` keeps, for each of its hands, the regret protocol's
candidates (the default's choice and the hand's Pareto front) with their mean points on the
selection and evaluation rollouts (1000 + 1000, expected-score opponents).  Here the
candidates are put in expected-score's order (its value, then its tie-break: the stronger
front, back, middle, front), one per class triple, as expected-score-rerank's search keeps
them; the first ``top`` are valued under the hand's own tables and the places
(:meth:`~simkit.arrange.ExpectedScoreRerank.hand_solver`), the best kept (the earlier on a
tie) and valued on the evaluation rollouts against the best picked on the selection
rollouts: the regret of each ``top``, and its gain over the default's, hand by hand (95% CI).
Then the window of the list (:func:`~simkit.arrange.rerank.window_bar`): of the best six, only
those at most ``window`` points under the best's value, that value capped at ``cap``.
The search keeps its best over every legal split, the probe's over the front: a split the
front leaves out ranks below the one that dominates it, so the lists differ only where such
a split would have taken a place.

    PYTHONPATH=. python experiments/rerank_probe.py --variant guangxi --hands 1200 \\
        --rollouts 1000 1000 --m 512 --seed 5 --save-hands probe.npz
    PYTHONPATH=. python experiments/rerank_top.py --probe probe.npz

Writes results/strategy/rerank-top.md and .json.
"""

from __future__ import annotations

import json
import time

import numpy as np
from rerank_probe import (  # experiments/ is on sys.path as a script
    mean_ci95,
    probe_args,
    probe_hands,
)

from simkit.arrange.rerank import window_bar
from simkit.arrange.strategies import RERANK_CAP, RERANK_TOP, RERANK_WINDOW
from simkit.variants import resolve_variant

TOPS = (1, 2, 3, 4, 5, 6, 8, 10, 16)
#: windows (points under the best, the best's value capped at) tried on the best six
WINDOWS = (
    (0.1, RERANK_CAP),
    (0.2, RERANK_CAP),
    (0.3, RERANK_CAP),
    (RERANK_WINDOW, RERANK_CAP),
    (1.0, RERANK_CAP),
    (RERANK_WINDOW, 2.0),
    (RERANK_WINDOW, 8.0),
    (RERANK_WINDOW, 10.0),
    (RERANK_WINDOW, 15.0),
    (RERANK_WINDOW, float("inf")),
)


def main() -> None:
    a = probe_args(__doc__.split("\n")[0])
    v = resolve_variant(a.variant)
    start = time.perf_counter()
    regrets: dict[object, list[float]] = {top: [] for top in (*TOPS, "all")}
    windowed: dict[tuple[float, float], list[float]] = {w: [] for w in WINDOWS}
    lengths: dict[tuple[float, float], list[int]] = {w: [] for w in WINDOWS}
    gaps = []  # how far under expected-score's best the best six's pick lies
    plain = []
    n_hands = 0
    for h in probe_hands(a.probe, v, a.players):
        n_hands += 1
        ev, best, first, own, kept = h.ev, h.best, h.first, h.own, h.kept
        plain.append(best - ev[0])
        for top in TOPS:
            head = kept[:top]
            regrets[top].append(best - ev[head[int(np.argmax(own[head]))]])
        regrets["all"].append(best - ev[int(np.argmax(own))])
        six = kept[:RERANK_TOP]
        gaps.append(first[six[0]] - first[six[int(np.argmax(own[six]))]])
        for w in WINDOWS:
            bar = window_bar(float(first[six[0]]), *w)
            head = six[first[six] + 1e-9 >= bar]
            windowed[w].append(best - ev[head[int(np.argmax(own[head]))]])
            lengths[w].append(len(head))
    base = np.array(plain)
    rows = [
        {"top": top, "regret": mean_ci95(np.array(r)), "gain": mean_ci95(base - np.array(r))}
        for top, r in regrets.items()
    ]
    window_rows = [
        {
            "window": w,
            "cap": c,
            "regret": mean_ci95(np.array(windowed[w, c])),
            "gain": mean_ci95(base - np.array(windowed[w, c])),
            "mean_kept": float(np.mean(lengths[w, c])),
            "shortened": float(np.mean(np.array(lengths[w, c]) < RERANK_TOP)),
        }
        for w, c in WINDOWS
    ]
    gap = np.array(gaps)
    gap_quantiles = {f"p{q}": float(np.percentile(gap, q)) for q in (50, 90, 95, 99)}
    elapsed = time.perf_counter() - start
    meta = {
        "variant": a.variant,
        "players": a.players,
        "hands": n_hands,
        "probe": a.probe.name,
        "default_regret": mean_ci95(base),
        "pick_gap_of_six": gap_quantiles,
        "seconds": round(elapsed, 1),
    }
    a.out.mkdir(parents=True, exist_ok=True)
    (a.out / "rerank-top.json").write_text(
        json.dumps({"meta": meta, "rows": rows, "windows": window_rows}, indent=2) + "\n",
        encoding="utf-8",
    )
    d = meta["default_regret"]
    lines = [
        "# expected-score-rerank's list, chosen on the rerank probe's hands",
        "",
        __doc__.split("\n\n")[1].replace("\n", " "),
        "",
        f"{a.variant}, {a.players} players, {n_hands} hands (rerank_probe.py seed 5; the "
        f"regret protocol's hands are seed 3's); the default's regret on them: "
        f"**{d['mean']:.4f} ± {d['ci95']:.4f}**.  {elapsed / 60:.1f} min here.  `all`: every "
        "candidate re-ranked (the full search of the same objective, over the front).",
        "",
        "| splits re-ranked | regret | gain over the default (paired) |",
        "|---|---|---|",
    ]
    for r in rows:
        lines.append(
            f"| {r['top']} | {r['regret']['mean']:.4f} ± {r['regret']['ci95']:.4f} | "
            f"{r['gain']['mean']:+.4f} ± {r['gain']['ci95']:.4f} |"
        )
    g = gap_quantiles
    lines += [
        "",
        f"**The window** (expected-score-rerank keeps the best {RERANK_TOP} within "
        f"{RERANK_WINDOW} points of the best's value, that value capped at {RERANK_CAP:g}).  "
        f"The split the best {RERANK_TOP} re-ranked pick lies under expected-score's best by "
        f"{g['p50']:.3f} points at the median, {g['p90']:.3f} at the 90th percentile, "
        f"{g['p95']:.3f} at the 95th and {g['p99']:.3f} at the 99th: a bar close under the "
        "best keeps the pick.  Of the best six, those at least the window's bar "
        "(`min(best, cap) - window`):",
        "",
        "| window | cap | regret | gain over the default (paired) | splits kept (mean) | "
        "lists the window shortens |",
        "|---|---|---|---|---|---|",
    ]
    for r in window_rows:
        lines.append(
            f"| {r['window']:g} | {r['cap']:g} | {r['regret']['mean']:.4f} ± "
            f"{r['regret']['ci95']:.4f} | {r['gain']['mean']:+.4f} ± {r['gain']['ci95']:.4f} | "
            f"{r['mean_kept']:.2f} | {100 * r['shortened']:.0f}% |"
        )
    (a.out / "rerank-top.md").write_text("\n".join(lines) + "\n", encoding="utf-8")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
