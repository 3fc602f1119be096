"""What 抢庄, 谈判 and 抛牌 are worth to each seat (004 钱塘), paired on the same deals.

    python -m experiments.pipelines.phase_value_settle [--games N] [--seed S] [--players 4 3]

Deals are those of a simulation with the same seed (block by block, passing included); every
hand is set once by the strategy and scored once, with the scorer's pairwise output, and each
phase is then played on those games alone (the others off), so "with" and "without" differ only
by the phase: the standard errors are those of the per-game differences.  Rows
(``results/phases/settle.json``, the schema of every ``results/phases/*.json``): ``phase``,
``variant``, ``players``, ``seat`` (banker: seat 0; player: the mean of the other seats),
``games``, ``with``, ``without``, ``diff``, ``se``, ``ci_low``, ``ci_high`` (95%), ``seed``,
``command``, and per phase: ``rate`` (share of banker-player pairs settled or surrendered),
``mean_amount`` (mean X of a settlement), ``best_threshold`` (抛牌 before the comparison: the
threshold on the conditional expected score that gains the player most, against the rule's
``-cost``), ``fair_bid`` (抢庄), ``sd_with`` / ``sd_without`` (the standard deviation of one
seat's score per game: seat 0, or seat 1 for ``player``).  ``meta.calibration``: the
expected-score maps' held-out error.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

from simkit.arrange import arrangements
from simkit.deal import deal
from simkit.phases import before_setting
from simkit.phases.expected import expected_score, hand_values, pair_results
from simkit.phases.settle import fair_bid, seat_bid, settle
from simkit.report import DEFAULT_SEED
from simkit.simulate import BLOCK_GAMES, DEFAULT_STRATEGY
from simkit.variants import load_variant
from simkit.variants.rules import Phases, Surrender

ROOT = Path(__file__).resolve().parents[2]
Z = 1.959963984540054


def parse() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=65_536)
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED)
    parser.add_argument("--players", type=int, nargs="+", default=[4, 3])
    parser.add_argument("--costs", type=float, nargs="+", default=[1, 2, 3, 4, 6])
    parser.add_argument("--variant", default="qiantang")
    parser.add_argument("--strategy", default=DEFAULT_STRATEGY)
    parser.add_argument("--out", type=Path, default=ROOT / "results" / "phases")
    return parser.parse_args()


def play(args: argparse.Namespace, variant: Any, p: int) -> dict[str, np.ndarray]:
    """The run's deals, set and scored once: totals, pairs, values, declared (and the plays)."""
    parts: dict[str, list[np.ndarray]] = {"total": [], "pairs": [], "value": []}
    plays = []
    for block in range(-(-args.games // BLOCK_GAMES)):
        n = min(BLOCK_GAMES, args.games - block * BLOCK_GAMES)
        block_seq = np.random.SeedSequence(args.seed, spawn_key=(block,))
        deal_seq, play_seq, phase_seq = block_seq.spawn(3)  # as simulate.play_block
        dealt = deal(n, p, rng=np.random.default_rng(deal_seq))
        # the phases before setting (换牌) as the simulator plays them, their fees included
        hands, fees = before_setting(dealt, variant, None, phase_seq, args.strategy)
        (arranged,) = arrangements([hands], [variant], args.strategy, n_players=p, rng=play_seq)
        total, pairs = pair_results(arranged, variant)
        for paid in fees.values():
            total = total + paid
        parts["total"].append(total)
        parts["pairs"].append(pairs)
        parts["value"].append(hand_values(arranged, variant, p))
        plays.append(arranged)
    out = {k: np.concatenate(v) for k, v in parts.items()}
    out["plays"] = plays  # type: ignore[assignment]
    return out


def paired_rows(
    phase: str, variant: Any, p: int, total: np.ndarray, paid: np.ndarray, extra: dict[str, Any]
) -> list[dict[str, Any]]:
    rows = []
    n = total.shape[0]
    for seat, cols in (("banker", [0]), ("player", list(range(1, p)))):
        without = total[:, cols].mean(axis=1)
        diff = paid[:, cols].mean(axis=1)
        se = float(diff.std(ddof=1) / np.sqrt(n))
        d = float(diff.mean())
        rows.append(
            {
                "phase": phase,
                "variant": variant.name,
                "players": p,
                "seat": seat,
                "games": n,
                "with": float((without + diff).mean()),
                "without": float(without.mean()),
                "diff": d,
                "se": se,
                "ci_low": d - Z * se,
                "ci_high": d + Z * se,
                # what it does to the spread of the seat's score per game
                "sd_with": float((total[:, cols[0]] + paid[:, cols[0]]).std(ddof=1)),
                "sd_without": float(total[:, cols[0]].std(ddof=1)),
                **extra,
            }
        )
    return rows


def settle_all(variant: Any, run: dict[str, Any], phases: Phases, p: int, bid: float = 0.0):
    """The phases ``phases`` over the run's blocks: summed payments and the settlements."""
    paid, found_all = [], []
    start = 0
    for arranged in run["plays"]:
        n = arranged.declared.shape[0]
        rows = slice(start, start + n)
        found = settle(
            arranged,
            variant,
            run["pairs"][rows],
            expected_score(variant, p),
            value=run["value"][rows],
            bid=bid,
            phases=phases,
        )
        paid.append(sum(found.payments.values(), np.zeros((n, p))))
        found_all.append(found)
        start += n
    return np.concatenate(paid), found_all


def best_threshold(run: dict[str, Any], variant: Any, p: int, cost: float) -> dict[str, float]:
    """Surrendering before the comparison when the expected score is below t: the player's
    gain for t around ``-cost``, on the run's own pairs (the rule says t = -cost)."""
    expected = expected_score(variant, p)
    declared = np.concatenate([a.declared for a in run["plays"]])
    e_p = expected.player_vs_banker(run["value"][:, 1:], declared[:, 1:])
    r = run["pairs"][:, 1:, 0]
    offsets = np.arange(-2.0, 2.01, 0.25)
    gains = [float(np.mean(np.where(e_p < -cost + o, -cost - r, 0.0))) for o in offsets]
    k = int(np.argmax(gains))
    return {
        "best_threshold": float(-cost + offsets[k]),
        "gain_at_best": gains[k],
        "gain_at_rule": gains[int(np.argmin(np.abs(offsets)))],
    }


def main() -> None:
    args = parse()
    command = "python -m experiments.pipelines.phase_value_settle " + " ".join(sys.argv[1:])
    command = command.strip()
    base = load_variant(args.variant)
    rows: list[dict[str, Any]] = []
    calibration: dict[str, Any] = {}
    started = time.monotonic()
    for p in args.players:
        run = play(args, base, p)
        total = run["total"]
        expected = expected_score(base, p)
        calibration[str(p)] = {"games": expected.games, **expected.error}
        played = base.phases
        # 谈判 alone
        neg = dataclasses.replace(played.negotiation, enabled=True)
        paid, found = settle_all(base, run, Phases(negotiation=neg), p)
        settled = np.concatenate([f.settled for f in found])
        amount = np.concatenate([f.amount for f in found])
        rows += paired_rows(
            "谈判 negotiation",
            base,
            p,
            total,
            paid,
            {
                "rate": float(settled.mean()),
                "mean_amount": float(amount[settled].mean()) if settled.any() else 0.0,
            },
        )
        # 抛牌 alone, at a few costs, before and after the comparison
        for when in ("before", "after"):
            for cost in args.costs:
                sur = Surrender(enabled=True, cost=cost, when=when)  # type: ignore[arg-type]
                paid, found = settle_all(base, run, Phases(surrender=sur), p)
                rate = float(np.concatenate([f.surrendered != 0 for f in found]).mean())
                extra: dict[str, Any] = {"rate": rate, "cost": cost, "when": when}
                if when == "before":
                    extra |= best_threshold(run, base, p, cost)
                rows += paired_rows(
                    f"抛牌 surrender {when}, cost {cost:g}", base, p, total, paid, extra
                )
        # 抢庄: the fair bid is the banker's edge under the other phases the file plays
        others = dataclasses.replace(
            played, bidding=dataclasses.replace(played.bidding, enabled=False)
        )
        paid, _ = settle_all(base, run, others, p)
        edge = total[:, 0] + paid[:, 0]
        calibrated_edge, calibrated_se = fair_bid(base, p, args.strategy)
        fair = {
            "fair_bid": float(edge.mean()),
            "fair_bid_se": float(edge.std(ddof=1) / np.sqrt(edge.size)),
            "fair_bid_calibration_deals": calibrated_edge,
            "fair_bid_calibration_se": calibrated_se,
            "bid_played": seat_bid(base, p, args.strategy),
        }
        rows += paired_rows(
            "抢庄 banker's edge under the other phases (the fair bid)", base, p, total, paid, fair
        )
        bidding = dataclasses.replace(played.bidding, enabled=True)
        bid = seat_bid(base, p, args.strategy)  # what the file's seats bid
        paid, _ = settle_all(base, run, Phases(bidding=bidding), p, bid=bid)
        rows += paired_rows(
            "抢庄 bidding (the fair bid, whole 道)", base, p, total, paid, {"bid": bid}
        )
        # everything the file plays
        paid, _ = settle_all(base, run, played, p, bid=seat_bid(base, p, args.strategy))
        rows += paired_rows(f"all phases {base.name} plays", base, p, total, paid, {})
    for row in rows:
        row["seed"] = args.seed
        row["command"] = command
    meta = {
        "variant": base.name,
        "key": base.key,
        "strategy": args.strategy,
        "games": args.games,
        "seed": args.seed,
        "command": command,
        "calibration": calibration,
        "seconds": round(time.monotonic() - started, 1),
    }
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "settle.json").write_text(
        json.dumps({"meta": meta, "rows": rows}, indent=1, ensure_ascii=False) + "\n",
        encoding="utf-8",
    )
    (args.out / "settle.md").write_text(markdown(meta, rows), encoding="utf-8")
    print(f"settle: {len(rows)} rows in {meta['seconds']} s → {args.out}")


NOTES = (
    "sd_with", "sd_without", "mean_amount", "best_threshold", "gain_at_best", "gain_at_rule",
    "fair_bid", "fair_bid_se", "bid_played", "bid",
)  # fmt: skip


def markdown(meta: dict[str, Any], rows: list[dict[str, Any]]) -> str:
    lines = [
        f"# What 抢庄, 谈判 and 抛牌 are worth ({meta['variant']}, {meta['strategy']})\n",
        f"{meta['games']:,} deals a table size, seed {meta['seed']}, paired: each phase alone "
        "against none on the same games; points per game, 95% CI.  Reproduce: "
        f"`{meta['command']}`.\n",
        "| players | phase | seat | with | without | diff | 95% CI | rate | notes |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        notes = ", ".join(
            f"{k} {v:.3f}" if isinstance(v, float) else f"{k} {v}"
            for k, v in r.items()
            if k in NOTES
        )  # fmt: skip
        rate = f"{r['rate']:.1%}" if "rate" in r else ""
        lines.append(
            f"| {r['players']} | {r['phase']} | {r['seat']} | {r['with']:.3f} | "
            f"{r['without']:.3f} | {r['diff']:+.3f} | {r['ci_low']:+.3f} to {r['ci_high']:+.3f} "
            f"| {rate} | {notes} |"
        )
    lines.append("\nCalibration of the conditional expected score (held-out half of its deals):\n")
    lines.append("| players | map | ECE | noise | raw value ECE | R² |")
    lines.append("|---|---|---|---|---|---|")
    for p, err in meta["calibration"].items():
        for name in ("banker", "player", "table"):
            lines.append(
                f"| {p} | {name} | {err[f'{name}_ece']:.3f} | {err[f'{name}_noise']:.3f} | "
                f"{err[f'{name}_raw_ece']:.3f} | {err[f'{name}_r2']:.3f} |"
            )
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    main()
