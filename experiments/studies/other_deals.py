"""Regret of expected-score with fine tables counted within each game or against other deals.

    python -m experiments.studies.other_deals [--rows western-2-4:4:player ...] \
        [--other-deals 3] [--hands 1000] [--rollouts 200 200] [--seed 11]

For each row (variant, players, seat) two fine tables are trained from seed 0 on the default
schedule (:func:`simkit.train.schedule`), which differ only in what each hand is counted
against (:func:`simkit.train.tabulate`'s ``other_deals``): the other hands of its own game
(0: a class's chances carry the card removal of the hands that play it) or the hands of the
next ``--other-deals`` games (independent opponents).  Both carry the objective weights of the
row's shipped file, so they differ by their counts alone.  The regret of each
(:func:`simkit.regret.regret`, the strategy with those tables in every seat) is measured on the
same hands and rollout seeds, and the paired difference per hand gives the change with its 95%
CI.  Writes ``results/strategy/other-deals.md`` and ``.json`` (rows of earlier runs are kept).
About 4 minutes a row on one core.
"""

from __future__ import annotations

import argparse
import json
import math
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np

from experiments.support import parse_seat_row as parse_row
from simkit.arrange import ExpectedScore, default_fine_tables
from simkit.arrange.wintables import WEIGHTS_KEY
from simkit.files import atomic_write
from simkit.regret import Z95, regret
from simkit.train import FINE_OTHER_DEALS, train
from simkit.variants import resolve_variant

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "results" / "strategy"
ROWS = ("western-2-4:2:player", "western-2-4:4:player", "fujian:4:player",
        "taiwan:4:banker", "wiki-points:4:player", "guangxi:4:player")  # fmt: skip


def _ci(d: np.ndarray) -> tuple[float, float, float]:
    half = Z95 * d.std(ddof=1) / math.sqrt(d.size)
    return float(d.mean()), float(d.mean() - half), float(d.mean() + half)


def render(rows: list[dict[str, Any]]) -> str:
    lines = [
        "# Fine tables counted within each game or against other deals",
        "",
        "Regret of `expected-score` (points per hand, 95% CI over hands; `simkit.regret`: every "
        "Pareto-front candidate scored on the same rollouts against opponents who play the same "
        "tables, picked on the selection deals and valued on independent ones), with fine "
        "tables trained from seed 0 on the default schedule that count each hand against the "
        "other hands of its own game (`own game`, the tables before) or against the hands of "
        "the next games (`other deals`, today's `simkit.train.FINE_OTHER_DEALS`).  Both carry "
        "the shipped file's objective weights.  `paired` is other deals minus own game, per "
        "hand on the same hands and rollout seeds.  Written by `experiments.studies.other_deals` "
        "(its docstring has the protocol).",
        "",
        "| variant | players | seat | hands | rollouts | seed | own game | other deals | paired "
        "| best differs (own → other) |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        a, b, d = r["own"], r["other"], r["paired"]
        lines.append(
            f"| {r['variant']} | {r['players']} | {r['seat']} | {r['hands']} | "
            f"{r['rollouts'][0]} + {r['rollouts'][1]} | {r['seed']} | "
            f"{a[0]:.4f} ({a[1]:.4f} to {a[2]:.4f}) | {b[0]:.4f} ({b[1]:.4f} to {b[2]:.4f}) | "
            f"**{d[0]:+.4f}** ({d[1]:+.4f} to {d[2]:+.4f}) | "
            f"{r['differs'][0]:.0%} → {r['differs'][1]:.0%} |"
        )
    return "\n".join(lines) + "\n"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rows", nargs="+", default=list(ROWS), help="VARIANT:PLAYERS:SEAT")
    ap.add_argument("--other-deals", type=int, default=FINE_OTHER_DEALS)
    ap.add_argument("--hands", type=int, default=1000)
    ap.add_argument("--rollouts", type=int, nargs=2, default=(200, 200))
    ap.add_argument("--seed", type=int, default=11)
    ap.add_argument("--out", type=Path, default=OUT)
    ap.add_argument(
        "--trial", type=int, nargs=2, metavar=("GAMES", "ITERATIONS"), default=None,
        help="train on GAMES per iteration and ITERATIONS, not the trainer's schedule (a quick "
        "trial: its rows are not the study's)",
    )  # fmt: skip
    args = ap.parse_args()
    schedule = {} if args.trial is None else {"n_games": args.trial[0], "iterations": args.trial[1]}
    rows = [parse_row(r) for r in args.rows]  # bad input fails before any work
    if args.other_deals < 1:
        raise SystemExit(f"--other-deals must be at least 1, got {args.other_deals}")
    path = args.out / "other-deals.json"
    done: list[dict[str, Any]] = json.loads(path.read_text()) if path.exists() else []
    for name, players, seat in rows:
        shipped = default_fine_tables(resolve_variant(name), players)
        weights = {} if shipped is None else {
            k: v for k, v in shipped.meta.items() if k == WEIGHTS_KEY
        }  # fmt: skip
        per_hand, differs = [], []
        for other in (0, args.other_deals):
            tables = train(name, players, seed=0, strategy=ExpectedScore.name, other_deals=other,
                           **schedule)  # fmt: skip
            tables = replace(tables, meta={**tables.meta, **weights})
            r = regret(ExpectedScore(tables), name, players, seat=seat, hands=args.hands,
                       rollouts=tuple(args.rollouts), seed=args.seed)  # fmt: skip
            per_hand.append(np.asarray(r.per_hand))
            differs.append(r.share_differs)
            print(f"{name} {players}p {seat} other_deals={other}: {r}", flush=True)
        row = {
            "variant": name, "players": players, "seat": seat, "hands": args.hands,
            "rollouts": list(args.rollouts), "seed": args.seed, "other_deals": args.other_deals,
            "weights": weights.get(WEIGHTS_KEY), "own": _ci(per_hand[0]),
            "other": _ci(per_hand[1]), "paired": _ci(per_hand[1] - per_hand[0]),
            "differs": differs, "per_hand": [h.tolist() for h in per_hand],
        }  # fmt: skip
        key = ("variant", "players", "seat", "hands", "rollouts", "seed", "other_deals")
        done = [d for d in done if any(d[k] != row[k] for k in key)] + [row]
        print(f"  paired: {row['paired'][0]:+.4f} ({row['paired'][1]:+.4f} to "
              f"{row['paired'][2]:+.4f})", flush=True)  # fmt: skip
        args.out.mkdir(parents=True, exist_ok=True)
        text = json.dumps(done, indent=1) + "\n"
        atomic_write(path, lambda tmp, t=text: tmp.write_text(t, encoding="utf-8"))
        md = render(done)
        atomic_write(args.out / "other-deals.md", lambda tmp, t=md: tmp.write_text(t, "utf-8"))


if __name__ == "__main__":
    main()
