"""Regret of a strategy under each variant's full rules, by rollouts (see :mod:`simkit.regret`).

For every shipped variant at 2, 3 and 4 players (both seats where the variant has a banker):
the mean points per hand the strategy gives away against the best setting of the same cards,
picked on selection rollouts and valued on independent evaluation rollouts, with a 95% CI.

    python -m experiments.pipelines.regret [--strategy max-ev] [--hands 200]
        [--rollouts 300 300] [--variants guangxi ...] [--players 2 3 4] [--jobs 2] [--parts 1]

``--parts P`` measures each row in P runs of its hands (``regret(..., part=(k, P))``), merged
into the whole row (:func:`simkit.regret.merge_parts`): the same figures as one run, spread
over more processes than there are rows.

Writes results/strategy/regret.md and regret.json (and regret-hands.npz, each row's per-hand
regrets, with ``--save-hands``).
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path
from typing import Any

import numpy as np

from simkit.arrange import DEFAULT_STRATEGY, strategy_from_name
from simkit.parallel import run_ordered
from simkit.regret import merge_parts, regret
from simkit.variants import resolve_variant, variant_names

ROOT = Path(__file__).resolve().parents[2]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument(
        "--strategy",
        default=DEFAULT_STRATEGY,
        help=f"strategy under test, options as name:key=value,... (default {DEFAULT_STRATEGY})",
    )
    parser.add_argument(
        "--opponents",
        default=None,
        help="what the opponents play (default: the strategy under test, as the protocol asks; "
        "another shows what the strategy gives away among players of that one)",
    )
    parser.add_argument("--hands", type=int, default=200, help="hands per row (default 200)")
    parser.add_argument(
        "--rollouts",
        type=int,
        nargs=2,
        default=(300, 300),
        metavar=("SELECT", "EVALUATE"),
        help="selection and evaluation rollouts per hand (default 300 300)",
    )
    parser.add_argument("--variants", nargs="+", default=None, help="default: every variant")
    parser.add_argument("--players", type=int, nargs="+", default=[2, 3, 4])
    parser.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    parser.add_argument("--out", type=Path, default=ROOT / "results" / "strategy")
    parser.add_argument(
        "--jobs", type=int, default=1, help="rows measured at once (processes; same figures)"
    )
    parser.add_argument(
        "--parts", type=int, default=1, help="runs each row's hands are split into (same figures)"
    )
    parser.add_argument(
        "--save-hands",
        action="store_true",
        help="also write each row's per-hand regrets to regret-hands.npz (for paired comparisons "
        "of two strategies on the same hands and deals)",
    )
    args = parser.parse_args()
    if args.jobs < 1:
        raise SystemExit(f"--jobs must be at least 1, got {args.jobs}")
    if not 1 <= args.parts <= args.hands:
        raise SystemExit(f"--parts must be between 1 and --hands, got {args.parts}")
    # a bad name or option fails before any work
    strategy = strategy_from_name(args.strategy)
    opponents = args.opponents or args.strategy
    opponent_strategy = strategy_from_name(opponents) if args.opponents else strategy
    names = args.variants or variant_names()
    for name in names:
        resolve_variant(name)  # bad names fail before any work
    args.out.mkdir(parents=True, exist_ok=True)

    start = time.perf_counter()
    todo = []
    for name in names:
        v = resolve_variant(name)
        seats = ("banker", "player") if v.scoring.topology == "banker" else ("player",)
        todo += [(name, players, seat) for players in args.players for seat in seats]

    def measure(name: str, players: int, seat: str, k: int) -> Any:
        return regret(
            strategy,
            name,
            players,
            seat=seat,
            opponents=opponent_strategy,
            hands=args.hands,
            rollouts=tuple(args.rollouts),
            seed=args.seed,
            part=(k, args.parts) if args.parts > 1 else None,
        )

    # every row is seeded on its own: the same figures in any number of processes, in order
    rows = []
    per_hand: dict[str, Any] = {}
    parts: list[Any] = []
    # simkit's runner: its workers end with this process, however it ends
    tasks = [(*row, k) for row in todo for k in range(args.parts)]
    for r in run_ordered(measure, tasks, n_jobs=args.jobs):
        parts.append(r)
        if len(parts) == args.parts:
            whole = merge_parts(parts) if args.parts > 1 else parts[0]
            parts = []
            rows.append(whole.row())
            key = f"{whole.variant}/{whole.n_players}/{whole.seat}"
            per_hand[f"{key}/regret"], per_hand[f"{key}/differs"] = whole.per_hand, whole.differs
            print(whole, flush=True)
    elapsed = time.perf_counter() - start

    command = (
        f"python -m experiments.pipelines.regret --strategy {args.strategy} --hands {args.hands} "
        f"--rollouts {args.rollouts[0]} {args.rollouts[1]} --seed {args.seed}"
    )
    if args.opponents:
        command += f" --opponents {args.opponents}"
    if args.save_hands:
        command += " --save-hands"
    if args.variants:  # the rows this run measured, so that the command reproduces them
        command += " --variants " + " ".join(args.variants)
    if args.players != [2, 3, 4]:
        command += " --players " + " ".join(str(n) for n in args.players)
    meta = {
        "strategy": args.strategy,
        "opponents": opponents,
        "hands": args.hands,
        "rollouts": list(args.rollouts),
        "seed": args.seed,
        "seconds": round(elapsed, 1),
        "command": command,
    }
    (args.out / "regret.json").write_text(
        json.dumps({"meta": meta, "rows": rows}, indent=2, ensure_ascii=False) + "\n",
        encoding="utf-8",
    )
    lines = [
        f"# Regret of `{args.strategy}` under each variant's full rules",
        "",
        f"{args.hands} hands per row; for each hand, every setting on its Pareto front, the "
        "strategy's own and declaring (where the hand qualifies) are scored on the same random "
        f"deals of the other cards to opponents who play `{opponents}`; the best is picked on "
        f"{args.rollouts[0]} deals and valued against the strategy's own on {args.rollouts[1]} "
        "independent ones (an estimate that errs low). Points per hand, 95% CI over hands.",
        "",
        f"Reproduce: `{meta['command']}` ({elapsed / 60:.1f} min here).",
        "",
        "| variant | players | seat | regret | 95% CI | best differs | settings compared |",
        "|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        lines.append(
            f"| {r['variant']} | {r['players']} | {r['seat']} | {r['regret']:.4f} | "
            f"{r['ci_low']:.4f} to {r['ci_high']:.4f} | {r['share_differs']:.0%} | "
            f"{r['mean_candidates']:.0f} |"
        )
    (args.out / "regret.md").write_text("\n".join(lines) + "\n", encoding="utf-8")
    if args.save_hands:  # rows keyed variant/players/seat, hands in the run's order
        np.savez_compressed(args.out / "regret-hands.npz", **per_hand)
    print(f"regret: {len(rows)} rows → {args.out / 'regret.md'}")


if __name__ == "__main__":
    main()
