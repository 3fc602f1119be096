"""The rollout strategy (:mod:`simkit.rollout`): its speed, and its regret beside the default's.

For western-2-4 heads-up and the two guangxi variants at 4 players (the rows whose default
misses or sits nearest its regret target): how many hands a second ``Rollout()`` sets (the
default's choice and its 8 best other Pareto-front splits, 500 rollouts against the default),
and the regret of ``Rollout()`` and of the default ``expected-score`` by
:func:`simkit.regret.regret` on the issue's protocol (the same hands, seed and rollouts), with
the default in the opponents' seats for both (rollout opponents would nest rollouts).  The
paired gain is the default's regret minus rollout's, hand by hand: what the rollouts recover.

Each row is measured in ``--parts`` runs of hands (``regret(..., part=...)``) spread over
``--jobs`` processes; the figures depend on the parts (rollout seeds its rollouts per call),
never on ``--jobs``, and the default's are those of one whole run.

    .venv/bin/python experiments/rollout_strategy.py [--hands 2000] [--rollouts 1000 1000]
        [--seed 3] [--parts 16] [--jobs 2] [--cases guangxi:4 ...]

Writes results/strategy/rollout.md and rollout.json.
"""

from __future__ import annotations

import argparse
import json
import math
import time
from pathlib import Path
from typing import Any

from simkit.arrange import arrange
from simkit.deal import deal
from simkit.parallel import run_ordered
from simkit.regret import Z95, RegretResult, merge_parts, regret
from simkit.rollout import Rollout
from simkit.variants import resolve_variant

ROOT = Path(__file__).resolve().parents[1]
#: (variant, players) measured by default
CASES = (("western-2-4", 2), ("guangxi", 4), ("guangxi-regional", 4))
DEFAULT = "expected-score"
#: hands timed for the speed column (one process, after a warm-up call)
TIMED_HANDS = 100


def hands_per_second(strategy: Rollout, variant: str, players: int, seed: int) -> float:
    """Hands a second ``strategy`` sets on one process (timed after a warm-up call)."""
    v = resolve_variant(variant)
    hands = deal(TIMED_HANDS + 2, players, rng=seed)[:, 0]
    arrange(hands[:2], v, strategy, n_players=players, rng=0)
    start = time.perf_counter()
    arrange(hands[2:], v, strategy, n_players=players, rng=0)
    return TIMED_HANDS / (time.perf_counter() - start)


def _part(which: str, variant: str, players: int, common: dict[str, Any]) -> RegretResult:
    strategy = Rollout() if which == "rollout" else DEFAULT
    return regret(strategy, variant, players, opponents=DEFAULT, **common)


def parse_case(text: str) -> tuple[str, int]:
    name, _, players = text.partition(":")
    resolve_variant(name)  # a bad name fails before any work
    if not players.isdigit() or not 2 <= int(players) <= 4:
        raise SystemExit(f"--cases takes VARIANT:PLAYERS with 2-4 players, got {text!r}")
    return name, int(players)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--hands", type=int, default=2000, help="hands per row (default 2000)")
    parser.add_argument(
        "--rollouts",
        type=int,
        nargs=2,
        default=(1000, 1000),
        metavar=("SELECT", "EVALUATE"),
        help="the regret's selection and evaluation rollouts per hand (default 1000 1000)",
    )
    parser.add_argument("--seed", type=int, default=3, help="random seed (default 3)")
    parser.add_argument("--parts", type=int, default=16, help="runs of hands (default 16)")
    parser.add_argument("--jobs", type=int, default=2, help="processes (default 2)")
    parser.add_argument("--cases", nargs="+", default=None, help="VARIANT:PLAYERS rows")
    parser.add_argument("--out", type=Path, default=ROOT / "results" / "strategy")
    args = parser.parse_args()
    if args.hands < 1 or not 1 <= args.parts <= args.hands or args.jobs < 1:
        raise SystemExit("--hands, --parts (at most --hands) and --jobs must be at least 1")
    cases = [parse_case(c) for c in args.cases] if args.cases else list(CASES)
    args.out.mkdir(parents=True, exist_ok=True)
    rollouts = (int(args.rollouts[0]), int(args.rollouts[1]))
    strategy = Rollout()
    common = dict(hands=args.hands, rollouts=rollouts, seed=args.seed)

    rows = []
    start = time.perf_counter()
    for variant, players in cases:
        speed = hands_per_second(strategy, variant, players, args.seed)
        # simkit's runner: its workers end with this process, however it ends
        tasks = [
            (which, variant, players, {**common, "part": (k, args.parts)})
            for which in ("rollout", DEFAULT)
            for k in range(args.parts)
        ]
        done = list(run_ordered(_part, tasks, n_jobs=args.jobs))
        mine = merge_parts(done[: args.parts])
        base = merge_parts(done[args.parts :])
        gain = base.per_hand - mine.per_hand
        gain_se = float(gain.std(ddof=1) / math.sqrt(gain.size))
        row = {
            "variant": variant,
            "players": players,
            "hands": args.hands,
            "rollout_hands_per_s": speed,
            "rollout": mine.row(),
            "default": base.row(),
            "gain": float(gain.mean()),
            "gain_se": gain_se,
            "gain_ci": [float(gain.mean() - Z95 * gain_se), float(gain.mean() + Z95 * gain_se)],
        }
        rows.append(row)
        print(
            f"{variant} {players}p: rollout {speed:.1f} hands/s; regret rollout "
            f"{mine.mean:.4f} ± {Z95 * mine.se:.4f}, default {base.mean:.4f} ± "
            f"{Z95 * base.se:.4f}, gain {row['gain']:.4f} ± {Z95 * gain_se:.4f}",
            flush=True,
        )
    elapsed = time.perf_counter() - start

    command = (
        f"experiments/rollout_strategy.py --hands {args.hands} --rollouts {rollouts[0]} "
        f"{rollouts[1]} --seed {args.seed} --parts {args.parts}"
        + ("" if not args.cases else " --cases " + " ".join(args.cases))
    )
    meta = {
        "strategy": repr(strategy),
        "rollouts": list(rollouts),
        "seed": args.seed,
        "parts": args.parts,
        "jobs": args.jobs,
        "seconds": round(elapsed, 1),
        "command": command,
    }
    (args.out / "rollout.json").write_text(
        json.dumps({"meta": meta, "rows": rows}, indent=2, ensure_ascii=False) + "\n",
        encoding="utf-8",
    )
    lines = [
        "# The `rollout` strategy: speed and regret beside the default",
        "",
        f"`{meta['strategy']}`: for each hand, the default's (expected-score's) choice and "
        f"the {strategy.top} splits of the hand's Pareto front that its value model rates "
        f"highest, each scored on the same {strategy.rollouts} random deals of the other cards "
        "to expected-score opponents under the variant's full rules; the best is kept.",
        "",
        f"Regret by `simkit.regret.regret` ({rollouts[0]} selection + {rollouts[1]} evaluation "
        f"rollouts per hand, {args.hands} hands, seed {args.seed}: the issue's protocol) of "
        "both strategies on the same hands and rollouts, expected-score opponents for both; "
        "the gain is the default's regret minus rollout's, paired hand by hand (95% CI). "
        "Speed: hands a second `rollout` sets on one process "
        f"({TIMED_HANDS} hands, after a warm-up call).",
        "",
        f"Reproduce: `.venv/bin/python {command} --jobs J` ({elapsed / 60:.1f} min here "
        f"with {args.jobs} processes; the figures do not depend on J).",
        "",
        "| variant | players | hands | rollout hands/s | regret of rollout | regret of "
        "expected-score | gain (paired) | rollout's best differs |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        mine, base = r["rollout"], r["default"]
        lines.append(
            f"| {r['variant']} | {r['players']} | {r['hands']} | "
            f"{r['rollout_hands_per_s']:.0f} | "
            f"{mine['regret']:.4f} ({mine['ci_low']:.4f} to {mine['ci_high']:.4f}) | "
            f"{base['regret']:.4f} ({base['ci_low']:.4f} to {base['ci_high']:.4f}) | "
            f"{r['gain']:.4f} ({r['gain_ci'][0]:.4f} to {r['gain_ci'][1]:.4f}) | "
            f"{mine['share_differs']:.0%} |"
        )
    lines += [
        "",
        "rollout's best differs: the share of hands whose setting picked on the selection "
        "rollouts is not rollout's own (the default's: "
        + ", ".join(f"{r['variant']} {r['default']['share_differs']:.0%}" for r in rows)
        + ").",
    ]
    (args.out / "rollout.md").write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(f"rollout: {len(rows)} rows → {args.out / 'rollout.md'}")


if __name__ == "__main__":
    main()
