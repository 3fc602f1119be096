"""``simkit train``: win tables of the max-ev strategy by fictitious play."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from simkit.commands._options import (
    add_out_option,
    add_players_option,
    add_seed_option,
    add_variant_option,
    chosen_variant,
)


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "train",
        help="train max-ev win tables by fictitious play",
        description="Deal, arrange with the current strategy, count how often each dun class "
        "wins, blend, repeat; prints the change per iteration and saves an .npz table. "
        "The shipped tables in simkit/data/ were made with the defaults and --seed 0.",
    )
    add_variant_option(parser)
    add_players_option(parser)
    add_seed_option(parser)
    parser.add_argument(
        "--games",
        type=int,
        default=None,
        help="games per iteration (default: {simkit.train.DEFAULT_GAMES:,} hands / players)",
    )
    parser.add_argument(
        "--iterations",
        type=int,
        default=None,
        help="fictitious-play iterations after the greedy start "
        "(default: {simkit.train.DEFAULT_ITERATIONS})",
    )
    parser.add_argument(
        "--blend",
        type=float,
        default=None,
        help="share of the running counts each iteration replaces: old × (1 - blend) + new "
        "(default: {simkit.train.DEFAULT_BLEND})",
    )
    add_out_option(parser, "output table (default: <variant>-<players>p.npz)", file=True)
    parser.set_defaults(func=handle)


def handle(args: argparse.Namespace) -> int:
    from simkit.arrange import table_name
    from simkit.train import train
    from simkit.variants import resolve_variant

    variant = resolve_variant(chosen_variant(args))
    # options not given leave the library's defaults in place
    given = {"iterations": args.iterations, "blend": args.blend}
    tables = train(
        variant,
        args.players,
        seed=args.seed,
        n_games=args.games,
        progress=print,
        **{name: value for name, value in given.items() if value is not None},
    )
    out = args.out if args.out is not None else Path(table_name(variant.name, args.players))
    tables.save(out)
    meta = tables.meta
    print(
        f"{out}: {meta['games_total']} games ({meta['n_games_per_iteration']} per iteration, "
        f"{meta['iterations']} iterations after a greedy start), {meta['seconds']} s"
    )
    return 0
