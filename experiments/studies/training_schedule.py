"""Regret of expected-score under fine tables trained on different fictitious-play schedules.

A schedule is (hands per iteration, iterations, blend): ``blend`` a share (old counts ×
(1 − blend) + new, the greedy start's counts kept at a falling weight) or ``linear`` (the
greedy start's counts dropped once the strategy has played, iteration j weighing j).  For each
row (variant, players, seat) and schedule, tables are trained from the same seed with
``simkit.train.train`` and the strategy's regret is measured by ``simkit.regret.regret`` with
those tables in every seat: the same hands and the same rollout seeds for every schedule, so
the rows of one variant differ by the tables alone.  The default schedule's tables are the
shipped files (checked to be what the trainer makes: same settings in their ``meta``); the
others carry the shipped file's objective weights, so that they differ by their training
alone.  Each row records what the trainer counted each hand against
(:func:`simkit.train.other_deals_of`; rows written before ``FINE_OTHER_DEALS`` have none: they
counted within each game), and a row is paired with the previous schedule's row of the same
protocol and counting, or with today's where the previous was not run.

    python -m experiments.studies.training_schedule \
        [--rows taiwan:4:banker qiantang:4:player ...] \
        [--schedules 120000x5x0.5 60000x20xlinear ...] [--hands 400] [--rollouts 300 300]

Writes results/strategy/training.md and training.json (rows already there for other schedules
or rows are kept, so a study can be run a piece at a time).
"""

from __future__ import annotations

import argparse
import json
import math
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np

from experiments.support import parse_seat_row as parse_row
from simkit.arrange import ExpectedScore, default_fine_tables
from simkit.arrange.wintables import WEIGHTS_KEY
from simkit.files import atomic_write
from simkit.regret import Z95, regret
from simkit.train import LINEAR, other_deals_of, schedule, train
from simkit.variants import resolve_variant

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "results" / "strategy"
ROWS = ("taiwan:4:banker", "taiwan:4:player", "qiantang:4:player", "guangxi:4:player",
        "fujian:4:player", "wiki-points:4:player")  # fmt: skip
PREVIOUS = "120000x5x0.5"  # the schedule the fine tables had before this study


def parse_schedule(text: str) -> tuple[int, int, float | str]:
    """``HANDSxITERATIONSxBLEND`` → (hands per iteration, iterations, blend)."""
    try:
        hands, iterations, blend = text.split("x")
        return int(hands), int(iterations), blend if blend == LINEAR else float(blend)
    except ValueError:
        raise SystemExit(
            f"a schedule is HANDSxITERATIONSxBLEND (e.g. 60000x20xlinear): {text!r}"
        ) from None


def schedule_name(hands: int, iterations: int, blend: float | str) -> str:
    return f"{hands}x{iterations}x{blend}"


def tables_for(name: str, players: int, plan: tuple[int, int, float | str]) -> tuple[Any, float]:
    """The fine tables of ``plan`` (the shipped file for the default schedule) and the
    seconds spent training them (0 for a shipped file)."""
    hands, iterations, blend = plan
    if plan == schedule(ExpectedScore.name):
        shipped = default_fine_tables(resolve_variant(name), players)
        meta = shipped.meta if shipped is not None else {}
        want = {"n_games_per_iteration": hands // players, "iterations": iterations,
                "blend": blend, "seed": 0,
                "other_deals": other_deals_of(ExpectedScore.name)}  # fmt: skip
        if shipped is not None and all(meta.get(k) == w for k, w in want.items()):
            return shipped, 0.0
    started = time.perf_counter()
    tables = train(name, players, seed=0, n_games=hands // players, iterations=iterations,
                   blend=blend, strategy=ExpectedScore.name)  # fmt: skip
    seconds = time.perf_counter() - started
    shipped = default_fine_tables(resolve_variant(name), players)
    if shipped is not None and WEIGHTS_KEY in shipped.meta:
        tables = replace(tables, meta={**tables.meta, WEIGHTS_KEY: shipped.meta[WEIGHTS_KEY]})
    return tables, seconds


SAME = ("variant", "players", "seat", "hands", "rollouts", "seed")


def counted(row: dict[str, Any]) -> int:
    """What the row's tables counted each hand against: 0 its own game (rows written before
    the trainer counted against other deals carry no field), k the next k games."""
    return int(row.get("other_deals", 0))


def _baseline(row: dict[str, Any], rows: list[dict[str, Any]]) -> dict[str, Any] | None:
    """The row a row is paired with: the previous schedule's of the same protocol and
    counting, else today's; None for that row itself or when neither was run."""
    today = schedule_name(*schedule(ExpectedScore.name))
    peers = [r for r in rows if all(r[k] == row[k] for k in SAME) and counted(r) == counted(row)]
    for plan in (PREVIOUS, today):
        base = [r for r in peers if r["schedule"] == plan]
        if base:
            return None if row["schedule"] == plan else base[0]
    return None


def _paired(row: dict[str, Any], rows: list[dict[str, Any]]) -> str:
    """The row's per-hand regret minus its baseline's (:func:`_baseline`) on the same hands:
    mean and 95% CI, marked when the baseline is today's ("" without one or per-hand
    figures)."""
    base_row = _baseline(row, rows)
    if base_row is None or "per_hand" not in row or "per_hand" not in base_row:
        return ""
    d = np.asarray(row["per_hand"]) - np.asarray(base_row["per_hand"])
    half = Z95 * d.std(ddof=1) / math.sqrt(d.size)
    against = "" if base_row["schedule"] == PREVIOUS else " vs today's"
    return f"{d.mean():+.4f} ({d.mean() - half:+.4f} to {d.mean() + half:+.4f}){against}"


def commands(rows: list[dict[str, Any]]) -> list[str]:
    """The command that reruns each protocol's rows counted by today's trainer."""
    out = []
    today = [r for r in rows if counted(r) == other_deals_of(ExpectedScore.name)]
    for hands, rollouts, seed in sorted({(r["hands"], tuple(r["rollouts"]), r["seed"])
                                         for r in today}):  # fmt: skip
        group = [r for r in today if (r["hands"], tuple(r["rollouts"]), r["seed"]) ==
                 (hands, rollouts, seed)]  # fmt: skip
        specs = sorted({f"{r['variant']}:{r['players']}:{r['seat']}" for r in group})
        plans = sorted({r["schedule"] for r in group})
        out.append(
            f"python -m experiments.studies.training_schedule --rows "
            f"{' '.join(specs)} --schedules {' '.join(plans)} --hands {hands} "
            f"--rollouts {rollouts[0]} {rollouts[1]} --seed {seed}"
        )
    return out


def render(rows: list[dict[str, Any]]) -> str:
    plans = sorted({r["schedule"] for r in rows}, key=lambda s: (s != PREVIOUS, s))
    default = schedule_name(*schedule(ExpectedScore.name))
    lines = [
        "# Fine tables: the fictitious-play schedule and the regret it leaves",
        "",
        "Regret of `expected-score` (points per hand, 95% CI over hands; `simkit.regret`, "
        "the protocol of `regret.md`: every candidate scored on the same rollouts against "
        "opponents who play the same tables, picked on the first deals and valued on "
        "independent ones), with the fine tables trained by each schedule from seed 0.  "
        "Every schedule of a row is measured on the same hands and rollout seeds.  A schedule "
        "is hands per iteration × iterations × blend: a share of the running counts each "
        "iteration replaces (the greedy start's counts kept at a falling weight), or `linear` "
        "(the greedy start's counts dropped once the strategy has played; iteration j of its "
        f"own play weighs j).  `{PREVIOUS}` is the schedule the fine tables had before; "
        f"`{default}` is today's (`simkit.train.schedule`), read from the shipped files.  "
        "`counted against`: what the trainer counted each hand against (`simkit.train."
        "tabulate`'s `other_deals`): `own game` for the rows measured before the fine tables "
        "counted against the next games (`simkit.train.FINE_OTHER_DEALS`, `other-deals.md`; "
        "their today's row is the shipped file of then), `next k games` since.",
        "",
        "Reproduce (the rows counted against their own game ran on the trainer before "
        "`FINE_OTHER_DEALS`; this file's history has their commands):",
        "",
        "```sh",
        *commands(rows),
        "```",
        "",
        "`paired` is the row's per-hand regret minus that of the previous schedule (or of "
        "today's, marked) on the same hands, rollouts and counting, mean and 95% CI over hands.",
        "",
        "| variant | players | seat | counted against | schedule | hands | rollouts | seed | "
        "regret | 95% CI | paired vs previous | best differs | last change per iteration "
        "| train s |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    key = {p: i for i, p in enumerate(plans)}
    for r in sorted(rows, key=lambda r: (r["variant"], r["players"], r["seat"], counted(r),
                                         r["seed"], key[r["schedule"]])):  # fmt: skip
        mark = " (today)" if r["schedule"] == default else ""
        against = f"next {counted(r)} games" if counted(r) else "own game"
        lines.append(
            f"| {r['variant']} | {r['players']} | {r['seat']} | {against} | "
            f"`{r['schedule']}`{mark} | {r['hands']} | {r['rollouts'][0]} + {r['rollouts'][1]} "
            f"| {r['seed']} | {r['mean']:.4f} | {r['ci_low']:.4f} to {r['ci_high']:.4f} | "
            f"{_paired(r, rows)} | {r['differs']:.0%} | {r['last_change']:.4f} | "
            f"{r['train_s']:.0f} |"
        )
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", nargs="+", default=list(ROWS), help="VARIANT:PLAYERS:SEAT")
    parser.add_argument(
        "--schedules", nargs="+",
        default=[PREVIOUS, schedule_name(*schedule(ExpectedScore.name))],
        help="HANDSxITERATIONSxBLEND (default: the previous and today's)",
    )  # fmt: skip
    parser.add_argument("--hands", type=int, default=400)
    parser.add_argument("--rollouts", type=int, nargs=2, default=(300, 300))
    parser.add_argument("--seed", type=int, default=0, help="regret seed (default 0)")
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args()
    rows = [parse_row(r) for r in args.rows]  # bad input fails before any work
    plans = [parse_schedule(s) for s in args.schedules]
    path = args.out / "training.json"
    done: list[dict[str, Any]] = json.loads(path.read_text()) if path.exists() else []
    for name, players, seat in rows:
        for plan in plans:
            tables, seconds = tables_for(name, players, plan)
            r = regret(ExpectedScore(tables), name, players, seat=seat, hands=args.hands,
                       rollouts=tuple(args.rollouts), seed=args.seed)  # fmt: skip
            row = {
                "variant": name, "players": players, "seat": seat,
                "schedule": schedule_name(*plan), "hands": args.hands,
                "rollouts": list(args.rollouts), "seed": args.seed,
                "mean": r.mean, "ci_low": r.mean - Z95 * r.se, "ci_high": r.mean + Z95 * r.se,
                "differs": r.share_differs,
                "last_change": float(tables.meta["change_per_iteration"][-1]),
                "train_s": seconds, "per_hand": [float(x) for x in r.per_hand],
                "other_deals": other_deals_of(ExpectedScore.name),
            }  # fmt: skip
            same = (*SAME, "schedule")
            done = [
                d for d in done if any(d[k] != row[k] for k in same) or counted(d) != counted(row)
            ] + [row]
            print(f"{name} {players}p {seat} {row['schedule']}: {r.mean:.4f} "
                  f"± {Z95 * r.se:.4f} (train {seconds:.0f} s)", flush=True)  # fmt: skip
            args.out.mkdir(parents=True, exist_ok=True)
            text = json.dumps(done, indent=1) + "\n"
            atomic_write(path, lambda tmp, t=text: tmp.write_text(t, encoding="utf-8"))
            md = render(done)
            atomic_write(args.out / "training.md", lambda tmp, t=md: tmp.write_text(t, "utf-8"))


if __name__ == "__main__":
    main()
