"""``simkit arrange``: the best ways to set one hand, by max-ev's value model and by rollouts."""

from __future__ import annotations

import argparse
from typing import Any

from simkit.commands._options import (
    add_players_option,
    add_seed_option,
    add_variant_option,
    chosen_variant,
)


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "arrange",
        help="show the best splits of a 13-card hand, with their values",
        description="Rank every legal split of a hand by max-ev's value model (EV(model): its "
        "estimate from the shipped win tables, not the expected score under the variant's "
        "full rules) and print the best, with the special hands it qualifies for and what "
        "max-ev declares.  --rollouts N also scores each split shown, and declaring where the "
        "hand qualifies, on N random deals of the other cards to opponents playing max-ev "
        "(the same deals for every setting) under the full rules: the mean and its 95%% CI.",
    )
    parser.add_argument("cards", help='13 cards, e.g. "As Ks Qs Js Ts 9h 9d 9c 2h 3h 4d 5c 7s"')
    add_variant_option(parser)
    add_players_option(parser)
    parser.add_argument(
        "--top",
        type=int,
        default=None,
        help="how many splits to show (default: {simkit.describe.DEFAULT_TOP})",
    )
    parser.add_argument(
        "--rollouts",
        type=int,
        default=None,
        metavar="N",
        help="score each split on N random deals under the full rules, 2-4 players "
        "(default: none, the model value only)",
    )
    parser.add_argument(
        "--seat",
        choices=("banker", "player"),
        default="player",
        help="in a banker variant, the rollouts seat the hand as the banker or as a player "
        "facing the banker (default: player)",
    )
    parser.add_argument(
        "--strategy",
        default=None,
        metavar="NAME",
        help="also print how this strategy sets the hand: greedy, random-legal, rollout "
        "(max-ev's best splits valued by rollouts against max-ev, seeded by --seed) or a "
        "trained .npz table (default: none)",
    )
    add_seed_option(parser)
    parser.set_defaults(func=handle)


def handle(args: argparse.Namespace) -> int:
    from simkit.describe import DEFAULT_TOP, describe_splits

    top = DEFAULT_TOP if args.top is None else args.top
    lines = describe_splits(
        args.cards,
        chosen_variant(args),
        args.players,
        top,
        rollouts=args.rollouts,
        seat=args.seat,
        seed=args.seed,
    )
    for line in lines:
        print(line)
    if args.strategy is not None:
        for line in _strategy_lines(args):
            print(line)
    return 0


def _strategy_lines(args: argparse.Namespace) -> list[str]:
    """How ``--strategy`` sets the hand, what it declares and the value it gives the setting."""
    from dataclasses import replace

    from simkit.arrange import arrangements, strategy_from_name
    from simkit.cards import format_cards, parse_cards
    from simkit.evaluate import describe_rank
    from simkit.rollout import Rollout
    from simkit.variants import resolve_variant

    v = resolve_variant(chosen_variant(args))
    strategy = strategy_from_name(args.strategy)
    if isinstance(strategy, Rollout):
        strategy = replace(strategy, seat=args.seat)
    (found,) = arrangements(
        [parse_cards(args.cards)], [v], strategy, n_players=args.players, rng=args.seed
    )
    worth = "" if found.value is None else f" (its value {float(found.value):+.3f})"
    if isinstance(strategy, Rollout):
        against = getattr(strategy.opponents, "name", strategy.opponents)
        worth += f", on {strategy.rollouts} rollouts against {against} under the full rules"
    lines = [f"{strategy.name} sets it{worth}:"]
    cards = found.cards
    duns = (cards[:3], cards[3:8], cards[8:])
    for label, dun, rank in zip(("front ", "middle", "back  "), duns, found.ranks, strict=True):
        lines.append(f"      {label} {format_cards(dun):<16} {describe_rank(int(rank))}")
    d = int(found.declared)
    lines.append(f"{strategy.name} declares " + (v.specials.rules[d].name if d >= 0 else "nothing"))
    return lines
