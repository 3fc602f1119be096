"""What the phases that change the hands before they are set are worth to each seat.

    python -m experiments.pipelines.phase_value_exchange [--games 20000] [--seed 2026] [--jobs 1]

For each phase, the variant with the phase and the same variant with it off play the same deals
(one :func:`simkit.simulate.simulate` run, common random numbers); the difference of the
banker's (seat 0) mean score is paired game by game, with its 95% CI.  Scores and payments sum
to zero in every game, so the players' mean difference is minus the banker's over p − 1 (and
its se that over p − 1), and over all seats it is 0.  Phases:

- ``passing``: philippines as shipped (the banker chooses rounds and direction, players choose
  their cards, :mod:`simkit.phases.passing`) against no pass;
- ``passing-fixed``: the earlier reading (one clockwise pass of the three lowest cards)
  against no pass;
- ``exchange``: qiantang's 换牌 (:mod:`simkit.phases.exchange`) against none, at 4 players
  (one card each) and at 3 (the 13 undealt cards, for 1 道 a player).

Writes ``results/phases/exchange.json`` (rows ``phase, variant, players, seat, games, with,
without, diff, se, ci_low, ci_high, seed, command``) and ``exchange.md``, with how often each
decision was taken on the first 2,048 deals.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import shlex
import sys
import time
from pathlib import Path

import numpy as np

from simkit.arrange import arrangements
from simkit.deal import deal
from simkit.evaluate import CATEGORY_SHIFT, Category
from simkit.phases.exchange import play_exchange
from simkit.phases.hand_value import strategy_value
from simkit.phases.passing import play_passing
from simkit.simulate import DEFAULT_STRATEGY, simulate
from simkit.summary import Z95
from simkit.variants import Variant, load_variant
from simkit.variants.rules import CardExchange, CardPass
from simkit.variants.transforms import derive

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "results" / "phases"


NOTES = [
    "How the phases decide (readings and policies: `simkit/phases/passing.py`, "
    "`simkit/phases/exchange.py`, and the variant files' notes):",
    "",
    f"- passing: the banker values each kind of option (no pass; one round; two rounds, by "
    f"who feeds the second round's giver: options of one kind are alike to a banker who sees "
    f"no other hand) by the mean value {DEFAULT_STRATEGY} (the strategy in play) gives its "
    f"own hand after it, over 4 imagined deals of the 39 cards it does not see, common to "
    f"every kind; it passes where the cross-fitted value of passing (the kind best on half "
    f"the deals valued on the other half) beats no pass, and plays a direction of the best "
    f"kind drawn uniformly; each player passes the three cards the strategy's split of its "
    f"hand spares best (free kickers first, lowest first). "
    "Hands improve on both sides of a pass (a player keeps its made cards and sheds its worst), "
    "so the banker, weighing only its own hand, passes in almost every game; what the pass is "
    "worth to it in score is the row above.",
    "- exchange, 4 players: each puts down the card it spares best; the banker takes the best "
    "of the three for its hand, the player robbed the better of two, then the chain is forced "
    "(the last player takes the banker's card). Choosing first from three is the banker's edge.",
    f"- exchange, 3 players: a seat buys the 13 undealt (unseen) cards when the mean value "
    f"{DEFAULT_STRATEGY} gives 8 imagined hands from the cards it does not see, less its fee, "
    f"beats its own.",
    "- every decision values hands as the strategy in play sets them "
    "(`simkit.phases.hand_value.strategy_value`), the one that then sets the hands.",
]


def without_pass(v: Variant) -> Variant:
    return derive(v, "passing", "no-pass", deal=dataclasses.replace(v.deal, passing=CardPass()))


def fixed_pass(v: Variant) -> Variant:
    fixed = CardPass(rounds=1, direction="clockwise", choice="fixed", cards="lowest")
    return derive(v, "passing", "fixed-pass", deal=dataclasses.replace(v.deal, passing=fixed))


def without_exchange(v: Variant) -> Variant:
    off = CardExchange(play=False)
    return derive(v, "exchange", "no-exchange", deal=dataclasses.replace(v.deal, exchange=off))


def rows_of(result, phase: str, on: Variant, off: Variant, players: int, seed: int, cmd: str):
    scores = result["scores"]
    paired = result["paired"]

    def mean(v: Variant, seat: str) -> float:
        row = scores.filter((scores["variant"] == v.name) & (scores["seat"] == seat))
        return float(row["mean"][0])

    def mean_se(v: Variant, seat: str) -> float:
        row = scores.filter((scores["variant"] == v.name) & (scores["seat"] == seat))
        return float(row["se"][0])

    names = {on.name, off.name}
    pair = paired.filter(
        paired["variant_a"].is_in(names)
        & paired["variant_b"].is_in(names)
        & (paired["seat"] == "0")
        & (paired["statistic"] == "mean score")
    ).row(0, named=True)
    sign = 1.0 if pair["variant_a"] == on.name else -1.0
    diff, se = sign * pair["diff"], pair["se"]
    banker_with, banker_without = mean(on, "0"), mean(off, "0")
    k = players - 1
    out = []
    for seat, w, wo, d, s in (
        ("banker", banker_with, banker_without, diff, se),
        ("player", -banker_with / k, -banker_without / k, -diff / k, se / k),
    ):
        out.append(
            {
                "phase": phase,
                "variant": on.origin,
                "players": players,
                "seat": seat,
                "games": pair["n"],
                "with": w,
                "without": wo,
                # the banker's mean score and its se (the player's: −banker/(p−1))
                "with_se": mean_se(on, "0") / (1 if seat == "banker" else k),
                "without_se": mean_se(off, "0") / (1 if seat == "banker" else k),
                "diff": d,
                "se": s,
                "ci_low": d - Z95 * s,
                "ci_high": d + Z95 * s,
                "seed": seed,
                "command": cmd,
            }
        )
    return out


def decisions(seed: int) -> list[str]:
    """How often each decision is taken on the first 2,048 deals (block 0's deal stream)."""
    lines = []
    rng = np.random.default_rng(seed)
    ph = load_variant("philippines")
    hands = deal(2048, 4, rng=rng)
    passed = play_passing(hands, ph, strategy_value(ph, 4), np.random.default_rng(seed + 1))
    names = {0: "none", 1: "clockwise", 3: "counter-clockwise", 2: "across"}
    counts: dict[str, int] = {}
    for r, s in zip(passed.rounds.tolist(), passed.shift.tolist(), strict=True):
        key = "no pass" if r == 0 else f"{r} × {names[s]}"
        counts[key] = counts.get(key, 0) + 1
    lines.append(
        "philippines, the banker's choice (4 players): "
        + ", ".join(f"{k} {v / 2048:.1%}" for k, v in sorted(counts.items()))
    )
    # what the chosen passes build: the backs the default strategy sets, before and after
    before, after = arrangements([hands, passed.hands], [ph, ph], DEFAULT_STRATEGY, n_players=4)
    quads = [float(np.mean(a.ranks[..., 2] >> CATEGORY_SHIFT >= Category.QUADS)) for a in
             (before, after)]  # fmt: skip
    lines.append(
        f"philippines, a back of quads or better ({DEFAULT_STRATEGY} sets the hands, all "
        f"seats, specials declared): {quads[0]:.1%} of hands without the pass, "
        f"{quads[1]:.1%} after the chosen passes"
    )
    qt = load_variant("qiantang")
    three = deal(2048, 3, rng=rng)
    ex = play_exchange(three, qt, strategy_value(qt, 3), np.random.default_rng(seed + 2))
    who = {-1: "nobody", 0: "the banker", 1: "seat 1", 2: "seat 2"}
    lines.append(
        "qiantang, who takes the 13 undealt cards (3 players): "
        + ", ".join(f"{who[b]} {np.mean(ex.bought == b):.1%}" for b in (0, 1, 2, -1))
    )
    return lines


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20_000)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args()
    cmd = "python -m experiments.pipelines.phase_value_exchange " + shlex.join(sys.argv[1:])
    cmd = cmd.strip()
    rows = []
    started = time.process_time()
    ph = load_variant("philippines")
    off, fixed = without_pass(ph), fixed_pass(ph)
    tables = {off.name: "philippines", fixed.name: "philippines"}
    result = simulate(
        [ph, fixed, off],
        args.games,
        4,
        seed=args.seed,
        n_jobs=args.jobs,
        win_tables=tables,
        progress=False,
    )
    rows += rows_of(result, "passing", ph, off, 4, args.seed, cmd)
    rows += rows_of(result, "passing-fixed", fixed, off, 4, args.seed, cmd)
    qt = load_variant("qiantang")
    qt_off = without_exchange(qt)
    for players in (4, 3):
        result = simulate(
            [qt, qt_off],
            args.games,
            players,
            seed=args.seed,
            n_jobs=args.jobs,
            win_tables={qt_off.name: "qiantang"},
            progress=False,
        )
        rows += rows_of(result, "exchange", qt, qt_off, players, args.seed, cmd)
        if players == 3:
            comps = result["components"]
            fees = comps.filter(comps["component"] == "exchange_fees")
            fee_line = (
                f"qiantang 3 players: the exchange_fees component moves "
                f"{float(fees['mean_abs'][0]):.3f} 道 per player-game (mean |transfer|)"
            )
    cpu = time.process_time() - started
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "exchange.json").write_text(
        json.dumps(rows, indent=2, ensure_ascii=False) + "\n", encoding="utf-8"
    )
    lines = [
        "# What the card pass and the card exchange are worth to each seat",
        "",
        f"`{cmd}` — {args.games:,} deals per table size, seed {args.seed}, hands set by "
        f"{DEFAULT_STRATEGY}; "
        f"{cpu:.0f} s of CPU in this process.",
        "",
        "Each row: the same variant with the phase and with it off, on the same deals; `diff` "
        "is the paired mean score difference (with − without) per game, 95% CI.  Seat 0 is the "
        "banker; `player` is the mean of the other seats (scores and fees sum to zero, so it is "
        "−banker/(p−1), and 0 over all seats).",
        "",
        "| phase | variant | players | seat | with | without | diff | 95% CI |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        lines.append(
            f"| {r['phase']} | {r['variant']} | {r['players']} | {r['seat']} | "
            f"{r['with']:+.3f} | {r['without']:+.3f} | {r['diff']:+.3f} | "
            f"{r['ci_low']:+.3f} … {r['ci_high']:+.3f} |"
        )
    lines += ["", "Decisions taken (first 2,048 deals of a separate stream):", ""]
    lines += [f"- {line}" for line in [*decisions(args.seed), fee_line]]
    lines += ["", *NOTES]
    (args.out / "exchange.md").write_text("\n".join(lines) + "\n", encoding="utf-8")
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
