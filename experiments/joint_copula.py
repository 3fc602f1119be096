"""What the copula of the opponents' duns is worth: its accuracy and the regret it saves.

    PYTHONPATH=. python experiments/joint_copula.py [--rows western-2-4:4:player ...] \
        [--hands 1000] [--rollouts 200 200] [--seed 11] [--population 60000] [--jobs 2]

For each row (variant, players, seat), with the shipped fine tables (which hold the copula of
the population they were trained on, :mod:`simkit.arrange.joint`):

* **accuracy**: ``--population`` hands are dealt and set by the default strategy; for 500 of
  them, the chances that a population hand's three duns all lose to theirs (a scoop) and all
  beat them (scooped) are counted against the whole population, and set beside what the
  model reads at the same hand's counted dun chances: the shipped copula grid, and the
  product of the three chances (independent duns);
* **regret**: :func:`simkit.regret.regret` of one seat pricing the joint chances by the copula
  (the default) and of the same seat pricing them as products (``ExpectedScore(joint=False)``),
  both against opponents playing the default, on the same hands and rollout seeds, so the
  rollouts are the same and the paired difference per hand is the change in what the seat's
  own choice gives away (95% CI).

Writes ``results/strategy/joint.md`` and ``.json``.  About 3 minutes a row on one core.
"""

from __future__ import annotations

import argparse
import json
import math
from pathlib import Path
from typing import Any

import numpy as np
from training_schedule import parse_row  # experiments/ is on sys.path when run as a script

from simkit.arrange import ExpectedScore, arrange, default_fine_tables
from simkit.arrange.joint import JOINT_CELLS, cdf3, joint_cdfs
from simkit.deal import deal
from simkit.evaluate import dun_ranks
from simkit.files import atomic_write
from simkit.parallel import run_ordered
from simkit.regret import Z95, regret
from simkit.variants import resolve_variant

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "results" / "strategy"
ROWS = ("western-2-4:2:player", "western-2-4:4:player", "fujian:4:player",
        "taiwan:4:banker", "wiki-points:4:player", "guangxi:4:player")  # fmt: skip
PROBES = 500  # population hands whose joint chances are counted


def _ci(d: np.ndarray) -> list[float]:
    half = Z95 * d.std(ddof=1) / math.sqrt(d.size)
    return [float(d.mean()), float(d.mean() - half), float(d.mean() + half)]


def accuracy(name: str, players: int, population: int, seed: int) -> dict[str, float]:
    """Mean absolute error of the copula grid and of the products, scoop and scooped."""
    v = resolve_variant(name)
    tables = default_fine_tables(v, players)
    if tables.copula is None:
        raise SystemExit(f"{name} at {players} players: the shipped tables hold no copula")
    cop = joint_cdfs(tables.copula)
    gen = np.random.default_rng(seed)
    hands = deal(population // players, players, rng=gen, deck=v.deck_for(players))
    arranged, declared = arrange(hands, v, ExpectedScore(), n_players=players, rng=gen)
    ranks = dun_ranks(arranged, v)[declared < 0]
    errors = {"scoop grid": [], "scoop products": [], "scooped grid": [], "scooped products": []}
    counted = {"scoop": [], "scooped": []}
    for mine in ranks[gen.choice(len(ranks), PROBES, replace=False)]:
        below, above = ranks < mine, ranks > mine  # the population's duns against mine
        w, l_ = below.mean(axis=0), above.mean(axis=0)
        for what, event, chances, side in (("scoop", below, w, 0), ("scooped", above, l_, 1)):
            truth = float(event.all(axis=1).mean())
            counted[what].append(truth)
            errors[f"{what} grid"].append(abs(cdf3(cop[side], *chances) - truth))
            errors[f"{what} products"].append(abs(float(np.prod(chances)) - truth))
    out = {k: float(np.mean(e)) for k, e in errors.items()}
    out["scoop mean"] = float(np.mean(counted["scoop"]))
    out["scooped mean"] = float(np.mean(counted["scooped"]))
    # the dependence: all three duns below their medians, against the products' 1/8
    out["below medians"] = float(cdf3(cop[0], 0.5, 0.5, 0.5))
    return out


def measure(row: tuple[str, int, str], args: argparse.Namespace) -> dict[str, Any]:
    name, players, seat = row
    acc = accuracy(name, players, args.population, args.seed)
    per_hand, differs = {}, {}
    pricings = (("copula", ExpectedScore()), ("products", ExpectedScore(joint=False)))
    for label, strategy in pricings:
        r = regret(strategy, name, players, seat=seat, hands=args.hands,
                   rollouts=tuple(args.rollouts), seed=args.seed,
                   opponents=ExpectedScore())  # fmt: skip
        per_hand[label] = np.asarray(r.per_hand)
        differs[label] = r.share_differs
        print(f"{name} {players}p {seat} {label}: {r}", flush=True)
    return {
        "variant": name, "players": players, "seat": seat, "hands": args.hands,
        "rollouts": list(args.rollouts), "seed": args.seed, "population": args.population,
        "cells": JOINT_CELLS, "accuracy": acc,
        "copula": _ci(per_hand["copula"]), "products": _ci(per_hand["products"]),
        "paired": _ci(per_hand["copula"] - per_hand["products"]), "differs": differs,
        "per_hand": {k: h.tolist() for k, h in per_hand.items()},
    }  # fmt: skip


def render(rows: list[dict[str, Any]]) -> str:
    lines = [
        "# The copula of the opponents' duns",
        "",
        "`expected-score` prices a scoop (打枪), being scooped and the majority match by the "
        f"copula of the opponents' three duns ({JOINT_CELLS}³ cells of the duns' percentiles, "
        "counted by the trainer on the population its tables were trained on; "
        "`simkit.arrange.joint`) instead of the product of the three duns' chances.  Written by "
        "`experiments/joint_copula.py` (its docstring has the protocol).",
        "",
        "**Accuracy**: for 500 hands of the default's own play, the chance that an opponent's "
        "three duns all lose to theirs (scoop) or all beat them (scooped), counted against "
        "the population of the default's play, and the mean absolute error of what the model "
        "reads at the hand's counted dun chances: the shipped copula grid, or the products.  "
        "`below medians`: the copula's chance that all three duns sit below their medians "
        "(independent duns: 0.125).",
        "",
        "| variant | players | population | scoop (mean) | error: grid | error: products "
        "| scooped (mean) | error: grid | error: products | below medians |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        a = r["accuracy"]
        lines.append(
            f"| {r['variant']} | {r['players']} | {r['population']:,} | {a['scoop mean']:.3f} "
            f"| **{a['scoop grid']:.4f}** | {a['scoop products']:.4f} | "
            f"{a['scooped mean']:.3f} | **{a['scooped grid']:.4f}** | "
            f"{a['scooped products']:.4f} | {a['below medians']:.3f} |"
        )
    lines += [
        "",
        "**Regret** (points per hand, 95% CI over hands; `simkit.regret`) of one seat pricing "
        "the joint chances by the copula (the default) or as products "
        "(`ExpectedScore(joint=False)`), both against opponents who play the default, on the "
        "same hands and rollout seeds: the rollouts are the same, and `paired` (copula minus "
        "products, per hand) is what the copula saves in the seat's own choice.",
        "",
        "| variant | players | seat | hands | rollouts | seed | products | copula | paired "
        "| best differs (products → copula) |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        a, b, d = r["products"], r["copula"], r["paired"]
        lines.append(
            f"| {r['variant']} | {r['players']} | {r['seat']} | {r['hands']} | "
            f"{r['rollouts'][0]} + {r['rollouts'][1]} | {r['seed']} | "
            f"{a[0]:.4f} ({a[1]:.4f} to {a[2]:.4f}) | {b[0]:.4f} ({b[1]:.4f} to {b[2]:.4f}) | "
            f"**{d[0]:+.4f}** ({d[1]:+.4f} to {d[2]:+.4f}) | "
            f"{r['differs']['products']:.0%} → {r['differs']['copula']:.0%} |"
        )
    return "\n".join(lines) + "\n"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rows", nargs="+", default=list(ROWS), help="VARIANT:PLAYERS:SEAT")
    ap.add_argument("--hands", type=int, default=1000)
    ap.add_argument("--rollouts", type=int, nargs=2, default=(200, 200))
    ap.add_argument("--seed", type=int, default=11)
    ap.add_argument("--population", type=int, default=60_000)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--out", type=Path, default=OUT)
    args = ap.parse_args()
    rows = [parse_row(r) for r in args.rows]  # bad input fails before any work
    for what, value, least in (("--hands", args.hands, 2), ("--population", args.population,
                                PROBES), ("--jobs", args.jobs, 1)):  # fmt: skip
        if value < least:
            raise SystemExit(f"{what} must be at least {least}, got {value}")
    done = list(run_ordered(measure, [(row, args) for row in rows], n_jobs=args.jobs))
    path = args.out / "joint.json"
    kept: list[dict[str, Any]] = json.loads(path.read_text()) if path.exists() else []
    key = ("variant", "players", "seat", "hands", "rollouts", "seed")
    for row in done:
        kept = [d for d in kept if any(d[k] != row[k] for k in key)] + [row]
    args.out.mkdir(parents=True, exist_ok=True)
    text = json.dumps(kept, indent=1) + "\n"
    atomic_write(path, lambda tmp: tmp.write_text(text, encoding="utf-8"))
    md = render(kept)
    atomic_write(args.out / "joint.md", lambda tmp: tmp.write_text(md, encoding="utf-8"))
    print(md)


if __name__ == "__main__":
    main()
