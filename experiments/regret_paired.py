"""Two strategies' regret on the same hands, paired hand by hand.

``experiments/regret.py --save-hands`` keeps each row's per-hand regrets.  Two runs of the
same rows, hands, rollouts and seed measure two strategies on the same dealt hands (each
against opponents who play it, as the protocol asks), so the difference of their regrets can be
taken hand by hand: the hands that are hard for one are mostly hard for the other, and the
paired difference's CI is far narrower than the two CIs together.

    PYTHONPATH=. python experiments/regret_paired.py A/regret.json B/regret.json \\
        [A2/regret.json B2/regret.json ...] [--out results/strategy/regret-paired.md]

The arguments are pairs of runs (A then B), each a run's ``regret.json`` with its
``regret-hands.npz`` beside it.  Prints, and with ``--out`` writes (``.md`` and ``.json``),
every row the two runs of a pair share: both regrets and B's gain over A (A − B), mean and
95% CI over hands, and how much of each regret the worst 2.5% of the hands hold.
"""

from __future__ import annotations

import argparse
import json
import math
from pathlib import Path
from typing import Any

import numpy as np

from simkit.regret import Z95

SAME = ("hands", "rollouts", "seed")
#: The share of the hands whose part of the regret is reported (the worst of them).
WORST = 0.025


def _run(path: Path) -> tuple[dict[str, Any], dict[str, np.ndarray]]:
    if not path.exists():
        raise SystemExit(f"no such file: {path}")
    hands = path.with_name("regret-hands.npz")
    if not hands.exists():
        raise SystemExit(f"{path} has no regret-hands.npz beside it: run regret.py --save-hands")
    meta = json.loads(path.read_text(encoding="utf-8"))["meta"]
    with np.load(hands) as z:
        per_hand = {k.removesuffix("/regret"): z[k] for k in z.files if k.endswith("/regret")}
    return meta, per_hand


def _who(meta: dict[str, Any]) -> str:
    """A run's strategy, and its opponents where they play another."""
    opponents = meta.get("opponents", meta["strategy"])
    if opponents == meta["strategy"]:
        return f"`{meta['strategy']}`"
    return f"`{meta['strategy']}` among `{opponents}`"


def _worst_share(x: np.ndarray) -> float:
    """The share of the total regret that the worst :data:`WORST` of the hands hold."""
    worst = np.sort(x)[::-1][: max(1, round(WORST * x.size))]
    return float(worst.sum() / x.sum()) if x.sum() > 0 else float("nan")


def _ci(x: np.ndarray) -> dict[str, float]:
    half = Z95 * float(x.std(ddof=1)) / math.sqrt(x.size)
    return {"mean": float(x.mean()), "low": float(x.mean()) - half, "high": float(x.mean()) + half}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("runs", type=Path, nargs="+", help="regret.json of A, of B, [A2, B2, ...]")
    ap.add_argument("--out", type=Path, default=None, help="write this .md (and .json beside it)")
    args = ap.parse_args()
    if len(args.runs) % 2:
        raise SystemExit(f"runs come in pairs (A then B), got {len(args.runs)}")
    runs = [_run(path) for path in args.runs]  # every file checked before any figure
    rows, pairs = [], []
    for (meta_a, rows_a), (meta_b, rows_b) in zip(runs[::2], runs[1::2], strict=True):
        differs = [k for k in SAME if meta_a[k] != meta_b[k]]
        if differs:
            raise SystemExit(f"runs of other hands: they differ in {', '.join(differs)}")
        shared = [k for k in rows_a if k in rows_b]
        if not shared:
            raise SystemExit(f"{meta_a['command']} and {meta_b['command']} share no row")
        pairs.append({"a": meta_a, "b": meta_b})
        for key in shared:
            a, b = rows_a[key], rows_b[key]
            variant, players, seat = key.split("/")
            rows.append(
                {"variant": variant, "players": int(players), "seat": seat, "hands": int(a.size),
                 "a_strategy": _who(meta_a), "b_strategy": _who(meta_b),
                 "rollouts": meta_a["rollouts"], "seed": meta_a["seed"],
                 "a": _ci(a), "b": _ci(b), "gain": _ci(a - b),
                 "correlation": float(np.corrcoef(a, b)[0, 1]),
                 "worst_share": [_worst_share(a), _worst_share(b)]}
            )  # fmt: skip
    lines = [
        "# Regret of two strategies, paired hand by hand",
        "",
        __doc__.split("\n\n")[1].replace("\n", " "),
        "",
        "| variant | players | seat | hands | rollouts | A | regret of A | B | regret of B | "
        "gain A − B, paired | correlation of the hands' regrets | share of A's, B's regret in "
        f"their worst {WORST:.1%} of hands |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        a, b, g = r["a"], r["b"], r["gain"]
        lines.append(
            f"| {r['variant']} | {r['players']} | {r['seat']} | {r['hands']} | "
            f"{r['rollouts'][0]} + {r['rollouts'][1]}, seed {r['seed']} | {r['a_strategy']} | "
            f"{a['mean']:.4f} ({a['low']:.4f} to {a['high']:.4f}) | {r['b_strategy']} | "
            f"{b['mean']:.4f} ({b['low']:.4f} to {b['high']:.4f}) | {g['mean']:+.4f} "
            f"({g['low']:+.4f} to {g['high']:+.4f}) | {r['correlation']:.2f} | "
            f"{r['worst_share'][0]:.0%}, {r['worst_share'][1]:.0%} |"
        )
    lines += ["", "The runs (`.venv/bin/python` from the repository root, `PYTHONPATH=.`):", ""]
    # a run may be in several pairs: its command once
    lines += dict.fromkeys(f"    {run['command']}" for p in pairs for run in (p["a"], p["b"]))
    print("\n".join(lines[4:]))
    if args.out is not None:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text("\n".join(lines) + "\n", encoding="utf-8")
        args.out.with_suffix(".json").write_text(
            json.dumps({"pairs": pairs, "rows": rows}, indent=2) + "\n", encoding="utf-8"
        )


if __name__ == "__main__":
    main()
