"""``simkit regret``: what a strategy gives away per hand, by rollouts under the full rules."""

from __future__ import annotations

import argparse
from typing import Any

from simkit.commands._options import (
    STRATEGY_CHOICES,
    add_players_option,
    add_seed_option,
    add_variant_option,
    chosen_variant,
    count,
)

DEFAULT_HANDS = 200
DEFAULT_ROLLOUTS = (300, 300)


def register(subparsers: Any) -> None:
    """Add ``simkit regret`` to ``subparsers``: the strategy (positional, default the
    default strategy), ``--opponents``, ``--variant``, ``--players``, ``--seat``, ``--hands``,
    ``--rollouts SELECT EVALUATE`` and ``--seed``; :func:`handle` runs it."""
    parser = subparsers.add_parser(
        "regret",
        help="a strategy's regret per hand under a variant's full rules, with a 95%% CI",
        description="Deal --hands hands to one seat; score every setting on each hand's Pareto "
        "front, the strategy's own and declaring, on the same random deals of the other cards "
        "to opponents who play the strategy; pick the best on the selection rollouts and value "
        "it against the strategy's own on independent evaluation rollouts.",
    )
    parser.add_argument(
        "strategy",
        nargs="?",
        default="expected-score-rerank",
        help=STRATEGY_CHOICES,
    )
    parser.add_argument(
        "--opponents",
        default=None,
        metavar="STRATEGY",
        help="what the other seats play in the rollouts (default: the strategy itself; for "
        "rollout, the expected-score opponents it rolls out against)",
    )
    add_variant_option(parser)
    add_players_option(parser)
    parser.add_argument(
        "--seat",
        choices=("banker", "player"),
        default="player",
        help="in a banker variant: measure the banker, or a player facing the banker",
    )
    parser.add_argument("--hands", type=count, default=DEFAULT_HANDS, help="hands measured")
    parser.add_argument(
        "--rollouts",
        type=count,
        nargs=2,
        default=list(DEFAULT_ROLLOUTS),
        metavar=("SELECT", "EVALUATE"),
        help="selection and evaluation rollouts per hand",
    )
    add_seed_option(parser)
    parser.set_defaults(func=handle)


def handle(args: argparse.Namespace) -> int:
    """Measure the strategy's regret by rollouts (:func:`~simkit.regret.regret`)
    and print the result; returns exit status 0.  Raises
    :class:`~simkit.errors.SimkitError` for fewer than 1 hand or rollout opponents (they
    would nest rollouts)."""
    from dataclasses import replace

    import simkit.objective  # noqa: F401  (registers the fitters of built tables' extras)
    from simkit.arrange import strategy_from_name
    from simkit.errors import SimkitError
    from simkit.regret import regret
    from simkit.rollout import Rollout
    from simkit.variants import resolve_variant

    if args.hands < 1:
        raise SimkitError(f"--hands must be at least 1, got {args.hands}")
    strategy = strategy_from_name(args.strategy)
    if isinstance(strategy, Rollout):
        # it rolls out for the seat measured; rollout opponents would nest rollouts
        strategy = replace(strategy, seat=args.seat)
    if args.opponents is not None:
        opponents = strategy_from_name(args.opponents)
    else:
        opponents = strategy.opponents if isinstance(strategy, Rollout) else strategy
    if isinstance(opponents, Rollout):
        raise SimkitError("--opponents rollout would nest rollouts: choose a faster strategy")
    variant = resolve_variant(chosen_variant(args))
    r = regret(
        strategy,
        variant,
        args.players,
        seat=args.seat,
        hands=args.hands,
        rollouts=tuple(args.rollouts),
        seed=args.seed,
        opponents=opponents,
    )
    print(r)
    return 0
