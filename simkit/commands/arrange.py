"""``simkit arrange``: the best ways to set one hand, with their expected scores."""

from __future__ import annotations

import argparse
from typing import Any

from simkit.commands._options import add_players_option, add_variant_option, chosen_variant


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "arrange",
        help="show the best splits of a 13-card hand with their expected scores",
        description="Rank every legal split of a hand by its max-ev expected score (against "
        "opponents playing max-ev, from the shipped win tables) and print the best, with "
        "the special hands it qualifies for and what max-ev declares.",
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
    parser.set_defaults(func=handle)


def handle(args: argparse.Namespace) -> int:
    from simkit.describe import DEFAULT_TOP, describe_splits

    top = DEFAULT_TOP if args.top is None else args.top
    for line in describe_splits(args.cards, chosen_variant(args), args.players, top):
        print(line)
    return 0
