"""Two strategies' regret on the same hands, paired hand by hand.

``experiments/regret.py --save-hands`` keeps each row's per-hand regrets.  Two runs of the
same rows, hands, rollouts and seed measure two strategies on the same dealt hands (each
against opponents who play it, as the protocol asks), so the difference of their regrets can be
taken hand by hand: the hands that are hard for one are mostly hard for the other, and the
paired difference's CI is far narrower than the two CIs together.

    PYTHONPATH=. python experiments/regret_paired.py A/regret.json B/regret.json \\
        [--out results/strategy/regret-paired.md]

Each argument is a run's ``regret.json``, its ``regret-hands.npz`` beside it.  Prints, and
with ``--out`` writes (``.md`` and ``.json``), every row the two runs share: both regrets and
B's gain over A (A − B), mean and 95% CI over hands.
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


def _ci(x: np.ndarray) -> dict[str, float]:
    half = Z95 * float(x.std(ddof=1)) / math.sqrt(x.size)
    return {"mean": float(x.mean()), "low": float(x.mean()) - half, "high": float(x.mean()) + half}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("a", type=Path, help="regret.json of strategy A")
    ap.add_argument("b", type=Path, help="regret.json of strategy B")
    ap.add_argument("--out", type=Path, default=None, help="write this .md (and .json beside it)")
    args = ap.parse_args()
    (meta_a, rows_a), (meta_b, rows_b) = _run(args.a), _run(args.b)
    differs = [k for k in SAME if meta_a[k] != meta_b[k]]
    if differs:
        raise SystemExit(f"the runs are not of the same hands: they differ in {', '.join(differs)}")
    shared = [k for k in rows_a if k in rows_b]
    if not shared:
        raise SystemExit("the runs share no row")
    rows = []
    for key in shared:
        a, b = rows_a[key], rows_b[key]
        variant, players, seat = key.split("/")
        rows.append(
            {"variant": variant, "players": int(players), "seat": seat, "hands": int(a.size),
             "a": _ci(a), "b": _ci(b), "gain": _ci(a - b),
             "correlation": float(np.corrcoef(a, b)[0, 1])}
        )  # fmt: skip
    lines = [
        f"# `{meta_b['strategy']}` against `{meta_a['strategy']}`: regret paired hand by hand",
        "",
        __doc__.split("\n\n")[1].replace("\n", " "),
        "",
        f"{meta_a['hands']} hands a row, {meta_a['rollouts'][0]} + {meta_a['rollouts'][1]} "
        f"rollouts, seed {meta_a['seed']}.  A: `{meta_a['command']}`.  B: `{meta_b['command']}`.",
        "",
        f"| variant | players | seat | regret of `{meta_a['strategy']}` (A) | regret of "
        f"`{meta_b['strategy']}` (B) | gain A − B, paired | correlation of the hands' regrets |",
        "|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        a, b, g = r["a"], r["b"], r["gain"]
        lines.append(
            f"| {r['variant']} | {r['players']} | {r['seat']} | {a['mean']:.4f} ({a['low']:.4f} "
            f"to {a['high']:.4f}) | {b['mean']:.4f} ({b['low']:.4f} to {b['high']:.4f}) | "
            f"{g['mean']:+.4f} ({g['low']:+.4f} to {g['high']:+.4f}) | {r['correlation']:.2f} |"
        )
    print("\n".join(lines[8:]))
    if args.out is not None:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text("\n".join(lines) + "\n", encoding="utf-8")
        args.out.with_suffix(".json").write_text(
            json.dumps({"a": meta_a, "b": meta_b, "rows": rows}, indent=2) + "\n",
            encoding="utf-8",
        )


if __name__ == "__main__":
    main()
