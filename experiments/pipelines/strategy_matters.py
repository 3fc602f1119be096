"""How much strategy matters: the default strategy against weaker ones, paired on the same deals.

For every shipped variant at 4 players, ``--games`` deals are dealt once (after the variant's
card pass, if any) and every strategy sets every hand of them (``random-legal`` from one fixed
stream), so each comparison below is paired: the same cards, only the strategy differs.

Two things are measured per strategy S:

- **One seat plays S, the others the default.**  The seat's score per game, its standard
  deviation, and the paired difference from the default in that seat (the same deal with the
  seat playing the default: all four seats then play it).  In an all-pairs variant every seat
  takes S in turn, the others keeping the default, and the unit is the deal's mean over the
  four rotations (a duplicate match, so the luck of the cards cancels); in a banker variant the
  banker seat (seat 0) and a player seat (each of seats 1-3 in turn, averaged) are separate
  rows.  The default's own row is the all-default game: its difference is 0.
- **Every seat plays S.**  The game's volatility as S plays it: the SD of the score per game
  of the same seats (every seat pooled, or the banker and the players apart).

95% CIs treat the deal as the independent unit (mean ± 1.96 SE; an SD's SE by the delta
method on the per-deal moments).

    python -m experiments.pipelines.strategy_matters [--games 20000] [--seed 0] [--variants ...]
        [--default max-ev] [--strategies greedy random-legal ...]

Writes results/strategy/matters.json and matters.md.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from experiments.support import hands_after_pass as hands_of
from experiments.support import seat_groups
from simkit.arrange import DEFAULT_STRATEGY, arrange
from simkit.arrange.strategies import strategy_names
from simkit.deal import deal
from simkit.score import score
from simkit.skill import mean_ci, sd_ci
from simkit.variants import Variant, resolve_variant, variant_names

ROOT = Path(__file__).resolve().parents[2]
PLAYERS = 4
#: Strategies too slow for 20,000 games a variant (reference studies only).
SLOW = ("rollout",)


def baseline_strategies(default: str) -> list[str]:
    """Every named strategy but the default and the slow ones (the old max-ev included once
    it is kept under another name)."""
    return [s for s in strategy_names() if s != default and s not in SLOW]


# The estimates and the roles are experiments.support's (the skill pipeline reads them too).


def measure_variant(
    variant: Variant,
    dealt: np.ndarray,
    default: str,
    strategies: Sequence[str],
    play_seed: int,
) -> list[dict[str, Any]]:
    """The rows of one variant (module docstring), the default's first."""
    hands = hands_of(dealt, variant)
    played = {}
    for name in (default, *strategies):
        played[name] = arrange(
            hands, variant, name, n_players=PLAYERS, rng=np.random.default_rng(play_seed)
        )
    base_cards, base_declared = played[default]
    base = np.asarray(score(base_cards, variant, declared=base_declared))
    rows = []
    for name in (default, *strategies):
        cards, declared = played[name]
        table = base if name == default else np.asarray(score(cards, variant, declared=declared))
        # one seat plays the strategy, the others the default: per seat, that seat's scores
        alone = np.empty_like(base)
        for seat in range(PLAYERS):
            if name == default:
                alone[:, seat] = base[:, seat]
                continue
            mixed_cards, mixed_declared = base_cards.copy(), base_declared.copy()
            mixed_cards[:, seat] = cards[:, seat]
            mixed_declared[:, seat] = declared[:, seat]
            points = np.asarray(score(mixed_cards, variant, declared=mixed_declared))
            alone[:, seat] = points[:, seat]
        for group, seats in seat_groups(variant).items():
            x = alone[:, seats]
            expected = mean_ci(x.mean(axis=1))
            diff = mean_ci((x - base[:, seats]).mean(axis=1))
            spread = sd_ci(x.mean(axis=1), (x * x).mean(axis=1))
            everyone = table[:, seats]
            table_sd = sd_ci(everyone.mean(axis=1), (everyone * everyone).mean(axis=1))
            rows.append(
                {
                    "variant": variant.name,
                    "seat": group,
                    "strategy": name,
                    "n_games": int(dealt.shape[0]),
                    **expected,
                    "diff": diff["mean"],
                    "diff_se": diff["se"],
                    "diff_ci_low": diff["ci_low"],
                    "diff_ci_high": diff["ci_high"],
                    **spread,
                    "table_sd": table_sd["sd"],
                    "table_sd_se": table_sd["sd_se"],
                    "table_sd_ci_low": table_sd["sd_ci_low"],
                    "table_sd_ci_high": table_sd["sd_ci_high"],
                }
            )
    return rows


# --------------------------------------------------------------------------- output


def markdown(meta: dict[str, Any], rows: Sequence[dict[str, Any]]) -> str:
    lines = [
        "# How much strategy matters",
        "",
        f"{meta['games']:,} deals of {meta['players']} players per variant (seed {meta['seed']}), "
        f"every strategy setting the same hands.  `{meta['default']}` is the default.  "
        "**seat**: one seat plays the strategy, the other three the default (`any`: every "
        "seat in turn, averaged per deal; `banker` is seat 0, `player` seats 1-3 in turn); "
        "**score** is that seat's expected score per game, **vs default** the paired "
        "difference from the default in the same seat on the same deals, **seat SD** its "
        "score's SD per game.  **table SD**: the same seat's score SD when every seat plays the "
        "strategy.  95% CIs, the deal as the unit.",
        "",
        f"Reproduce: `python {meta['command']}` ({meta['seconds'] / 60:.1f} min here).",
        "",
        "| variant | seat | strategy | score | 95% CI | vs default | 95% CI | seat SD | table SD |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        lines.append(
            f"| {r['variant']} | {r['seat']} | {r['strategy']} | {r['mean']:+.3f} | "
            f"{r['ci_low']:+.3f} to {r['ci_high']:+.3f} | {r['diff']:+.3f} | "
            f"{r['diff_ci_low']:+.3f} to {r['diff_ci_high']:+.3f} | "
            f"{r['sd']:.2f} ± {r['sd_se']:.2f} | {r['table_sd']:.2f} ± {r['table_sd_se']:.2f} |"
        )
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20_000, help="deals per variant")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--variants", nargs="+", default=None, help="default: every shipped one")
    parser.add_argument("--default", default=None, help=f"default: {DEFAULT_STRATEGY}")
    parser.add_argument("--strategies", nargs="+", default=None, help="default: all the others")
    parser.add_argument("--out", type=Path, default=ROOT / "results" / "strategy")
    args = parser.parse_args(argv)
    default = args.default or DEFAULT_STRATEGY
    strategies = args.strategies or baseline_strategies(default)
    names = args.variants or variant_names()
    variants = [resolve_variant(n) for n in names]  # bad names fail before any work

    deal_seed, play_seed = np.random.SeedSequence(args.seed).spawn(2)
    dealt = deal(args.games, PLAYERS, rng=np.random.default_rng(deal_seed))
    play = int(play_seed.generate_state(1)[0])
    started = time.perf_counter()
    rows: list[dict[str, Any]] = []
    for v in variants:
        got = measure_variant(v, dealt, default, strategies, play)
        rows.extend(got)
        for r in got:
            print(
                f"{r['variant']:17s} {r['seat']:6s} {r['strategy']:13s} {r['mean']:+.3f} "
                f"(vs default {r['diff']:+.3f} ± {r['diff_se']:.3f}) seat sd {r['sd']:.2f} "
                f"table sd {r['table_sd']:.2f}",
                flush=True,
            )
    seconds = time.perf_counter() - started
    # without "python": the report shows it as `python {command}`
    command = f"-m experiments.pipelines.strategy_matters --games {args.games} --seed {args.seed}"
    if args.variants:
        command += " --variants " + " ".join(names)
    if args.default:
        command += f" --default {default}"
    if args.strategies:
        command += " --strategies " + " ".join(strategies)
    meta = {
        "default": default,
        "strategies": [default, *strategies],
        "games": args.games,
        "players": PLAYERS,
        "seed": args.seed,
        "seconds": round(seconds, 1),
        "command": command,
    }
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "matters.json").write_text(
        json.dumps({"meta": meta, "rows": rows}, indent=2, ensure_ascii=False) + "\n",
        encoding="utf-8",
    )
    (args.out / "matters.md").write_text(markdown(meta, rows), encoding="utf-8")
    print(f"matters: {len(rows)} rows in {seconds:.0f} s → {args.out / 'matters.md'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
