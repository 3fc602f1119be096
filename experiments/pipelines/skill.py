"""Skill against luck: how many games until the better strategy is ahead, and what play can
gain at most.

Builds on ``experiments/pipelines/strategy_matters.py`` (which measures each strategy in one
seat against the default): here two strategies meet at the same table.  Per variant at 4
players, ``--games`` deals are dealt once (after the variant's card pass) and every strategy
sets every hand of them (``random-legal`` from one fixed stream).

**Duels.**  For each pair (A, B) of ``--strategies``: A sits in one seat, B in another, the
other seats play the default (in a banker variant A and B are players, seats 1 and 2, the
banker seat 0 the default; in an all-pairs variant seats 0 and 1).  A game's difference
D = A's score − B's score.  Every deal is played twice with A and B swapping seats (a
duplicate match), so the **edge** of A over B, E[D], is estimated from the per-deal mean of
the two orientations (paired: the cards' luck cancels; mean ± 1.96 SE).  The **SD** is that of
one game's D (a real game is played once), pooled over both orientations, its SE by the delta
method.  The games until the better one is ahead with 95% probability (a normal sum of N
independent games): **N = (1.645 SD / edge)²**; its 95% CI takes the edge's and the SD's
interval ends (N from the upper edge and lower SD, and from the lower edge and upper SD;
unbounded where the edge's interval reaches 0).

**Perfect information.**  On the first ``--deals`` deals, one seat sees the other seats' set
hands (all set by the default) and picks its best setting against them: exhaustive over every
legal split of its 13 cards (:func:`simkit.arrange.legal_splits`, the two 5-card duns in the
legal order) and declaring its best special where it qualifies, each scored by the scorer
against the fixed others.  The **bound** is the mean over deals of that best minus the
default's own score in the seat (≥ 0 deal by deal: the default's setting is among those
searched), with a 95% CI: no play that sees only its own cards can gain more than that over the
default.  The seat is seat 0 in an all-pairs variant; the banker (seat 0) and a player
(seat 1) in a banker variant.  Scores are the scorer's (a phase after setting, 抢庄 / 谈判 /
抛牌, is not played here).

    python -m experiments.pipelines.skill [--games 2000] [--deals 100] [--seed 0]
        [--variants ...] [--strategies expected-score-rerank max-ev greedy random-legal]

Writes results/strategy/skill.json, skill.parquet (the duels), skill.md and skill.png.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from collections.abc import Sequence
from itertools import combinations
from pathlib import Path
from typing import Any

import numpy as np

import simkit.objective  # noqa: F401  (registers the table builder and its extras' fitters)
from experiments.support import hands_after_pass as hands_of
from simkit.arrange import DEFAULT_STRATEGY, arrange
from simkit.deal import deal
from simkit.skill import duel, perfect_information
from simkit.variants import Variant, has_banker, resolve_variant, variant_names

ROOT = Path(__file__).resolve().parents[2]
PLAYERS = 4
STRATEGIES = (DEFAULT_STRATEGY, "max-ev", "greedy", "random-legal")


# --------------------------------------------------------------------------- one variant


def measure_variant(
    variant: Variant,
    dealt: np.ndarray,
    strategies: Sequence[str],
    n_deals: int,
    play_seed: int,
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """``(duels, bounds)`` of one variant: a duel per pair of ``strategies`` (the first is the
    default), the perfect-information bound per seat on the first ``n_deals`` deals."""
    hands = hands_of(dealt, variant)
    default = strategies[0]
    played = {
        name: arrange(hands, variant, name, n_players=PLAYERS, rng=np.random.default_rng(play_seed))
        for name in strategies
    }
    duels = [duel(variant, played, default, a, b) for a, b in combinations(strategies, 2)]
    cards, declared = played[default]
    seats = (0, 1) if has_banker(variant) else (0,)
    bounds = [
        perfect_information(variant, cards[:n_deals], declared[:n_deals], seat) for seat in seats
    ]
    return duels, bounds


# --------------------------------------------------------------------------- output


def _n(x: float) -> str:
    return "∞" if not math.isfinite(x) else f"{x:,.0f}"


def markdown(
    meta: dict[str, Any], duels: Sequence[dict[str, Any]], bounds: Sequence[dict[str, Any]]
) -> str:
    lines = [
        "# Skill against luck",
        "",
        f"{meta['games']:,} deals of {meta['players']} players per variant (seed {meta['seed']}); "
        f"the default is `{meta['default']}`.  **Duels**: A and B at the same table (players 1 "
        "and 2 under a banker, else seats 0 and 1), the other seats the default, each deal "
        "played twice with A and B swapping seats.  **edge**: A's score minus B's per game "
        "(paired, 95% CI); **SD**: of one game's difference; **games to lead**: N = "
        "(1.645 SD / edge)², the games until the better one is ahead with 95% probability, "
        "with the interval from the edge's and the SD's.",
        "",
        f"Reproduce: `python {meta['command']}` ({meta['seconds'] / 60:.1f} min here).",
        "",
        "| variant | A | B | edge of A | 95% CI | SD | games to lead | 95% CI |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for r in duels:
        lines.append(
            f"| {r['variant']} | {r['a']} | {r['b']} | {r['edge']:+.3f} | "
            f"{r['edge_ci_low']:+.3f} to {r['edge_ci_high']:+.3f} | {r['sd']:.2f} ± "
            f"{r['sd_se']:.2f} | {_n(r['n_lead'])} | {_n(r['n_lead_ci_low'])} to "
            f"{_n(r['n_lead_ci_high'])} |"
        )
    lines += [
        "",
        "## What play can gain at most",
        "",
        f"On the first {meta['deals']:,} deals, one seat sees the others' set hands (the "
        "default's) and takes its best legal setting against them (every legal split, and "
        "declaring its best special, scored exhaustively).  **bound**: that best minus the "
        "default's own score in the seat, per game (95% CI): no play that sees only its own "
        "cards gains more over the default.  **best differs**: the share of deals where "
        "some setting scores above the default's.",
        "",
        "| variant | seat | default's score | bound | 95% CI | best differs |",
        "|---|---|---|---|---|---|",
    ]
    for r in bounds:
        lines.append(
            f"| {r['variant']} | {r['seat']} | {r['own']:+.3f} | {r['bound']:.3f} | "
            f"{r['bound_ci_low']:.3f} to {r['bound_ci_high']:.3f} | {r['share_better']:.0%} |"
        )
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2_000, help="deals per variant")
    parser.add_argument("--deals", type=int, default=100, help="deals of the perfect-info bound")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--variants", nargs="+", default=None, help="default: every shipped one")
    parser.add_argument("--strategies", nargs="+", default=None, help="the first is the default")
    parser.add_argument("--out", type=Path, default=ROOT / "results" / "strategy")
    args = parser.parse_args(argv)
    strategies = list(args.strategies or STRATEGIES)
    if len(strategies) < 2:
        parser.error("--strategies: name at least two")
    if args.games < 2 or not 2 <= args.deals <= args.games:
        parser.error("--games must be ≥ 2 and --deals between 2 and --games")
    names = args.variants or variant_names()
    variants = [resolve_variant(n) for n in names]  # bad names fail before any work

    deal_seed, play_seed = np.random.SeedSequence(args.seed).spawn(2)
    dealt = deal(args.games, PLAYERS, rng=np.random.default_rng(deal_seed))
    play = int(play_seed.generate_state(1)[0])
    started = time.perf_counter()
    duels: list[dict[str, Any]] = []
    bounds: list[dict[str, Any]] = []
    done: list[str] = []
    for v in variants:
        got_duels, got_bounds = measure_variant(v, dealt, strategies, args.deals, play)
        duels += got_duels
        bounds += got_bounds
        done.append(v.name)
        for r in got_duels:
            print(
                f"{r['variant']:17s} {r['a']:22s} vs {r['b']:13s} edge {r['edge']:+.3f} ± "
                f"{r['edge_se']:.3f} sd {r['sd']:.2f} N {_n(r['n_lead'])}",
                flush=True,
            )
        for r in got_bounds:
            print(f"{r['variant']:17s} {r['seat']:6s} bound {r['bound']:.3f} ± {r['bound_se']:.3f}")
        # written after every variant, naming the variants measured so far
        seconds = time.perf_counter() - started
        meta = _meta(args, strategies, done, seconds)
        write(args.out, meta, duels, bounds)
    print(f"skill: {len(duels)} duels, {len(bounds)} bounds in {seconds:.0f} s → {args.out}")
    return 0


def _meta(
    args: argparse.Namespace, strategies: list[str], done: list[str], seconds: float
) -> dict[str, Any]:
    """The run's meta: its parameters, the variants measured and the command that gives them."""
    command = (
        f"-m experiments.pipelines.skill --games {args.games} --deals {args.deals} "
        f"--seed {args.seed}"
    )
    if args.variants or done != variant_names():
        command += " --variants " + " ".join(done)
    if args.strategies:
        command += " --strategies " + " ".join(strategies)
    return {
        "default": strategies[0],
        "strategies": strategies,
        "variants": done,
        "games": args.games,
        "deals": args.deals,
        "players": PLAYERS,
        "seed": args.seed,
        "seconds": round(seconds, 1),
        "command": command,
    }


def write(
    out: Path, meta: dict[str, Any], duels: list[dict[str, Any]], bounds: list[dict[str, Any]]
) -> None:
    """skill.json (meta, duels, bounds; ``inf`` written as null), skill.parquet (the duels),
    skill.md and the figure skill.png under ``out``."""
    import polars as pl

    from simkit.plots import plot_skill

    def finite(r: dict[str, Any]) -> dict[str, Any]:
        return {
            k: (None if isinstance(x, float) and not math.isfinite(x) else x) for k, x in r.items()
        }

    out.mkdir(parents=True, exist_ok=True)
    data = {"meta": meta, "rows": [finite(r) for r in duels], "bounds": bounds}
    (out / "skill.json").write_text(
        json.dumps(data, indent=2, ensure_ascii=False) + "\n", encoding="utf-8"
    )
    pl.DataFrame([finite(r) for r in duels]).write_parquet(out / "skill.parquet")
    (out / "skill.md").write_text(markdown(meta, duels, bounds), encoding="utf-8")
    plot_skill(data["rows"], bounds, meta["default"]).savefig(out / "skill.png", dpi=110)


if __name__ == "__main__":
    sys.exit(main())
