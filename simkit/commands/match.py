"""``simkit match``: two strategies on the same deals with seats swapped (duplicate format)."""

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

DEFAULT_GAMES = 20_000


def register(subparsers: Any) -> None:
    """Add ``simkit match`` to ``subparsers``: strategies A and B, ``--variant``,
    ``--players``, ``--games`` and ``--seed``; :func:`handle` runs it."""
    parser = subparsers.add_parser(
        "match",
        help="points per hand between two strategies, duplicate format, with a 95%% CI",
        description="Deal once, play every deal with strategy A in each seat in turn and B in "
        "the others (heads-up: seats swapped), and report A's points per hand with a 95% "
        "confidence interval.  A strategy is " + STRATEGY_CHOICES + ".",
    )
    parser.add_argument("a", help="strategy A")
    parser.add_argument("b", help="strategy B")
    add_variant_option(parser)
    add_players_option(parser)
    parser.add_argument("--games", type=count, default=DEFAULT_GAMES, help="deals to play")
    add_seed_option(parser)
    parser.set_defaults(func=handle)


def handle(args: argparse.Namespace) -> int:
    """Play A against B in the duplicate format
    (:func:`~simkit.train.duplicate_match`) and print A's points per hand with its SE and
    95% CI; returns exit status 0.  Raises :class:`~simkit.errors.SimkitError` for fewer
    than 2 games, an unknown strategy or a table trained for another variant or table
    size."""
    from simkit.arrange import strategy_from_name
    from simkit.errors import SimkitError
    from simkit.train import duplicate_match
    from simkit.variants import resolve_variant

    if args.games < 2:
        raise SimkitError(f"--games must be at least 2, got {args.games}")
    strategy_a = strategy_from_name(args.a)  # with its options and tables
    strategy_b = strategy_from_name(args.b)
    variant = resolve_variant(chosen_variant(args))
    for spec, strategy in ((args.a, strategy_a), (args.b, strategy_b)):
        _check_table_fits(spec, getattr(strategy, "tables", None), variant.name, args.players)
    r = duplicate_match(
        strategy_a,
        strategy_b,
        variant,
        n_players=args.players,
        n_games=args.games,
        rng=args.seed,
    )
    print(
        f"{args.a} vs {args.b}, {variant.name}, {args.players} players, {args.games} deals "
        f"(duplicate, seed {args.seed}):"
    )
    print(
        f"  {args.a} wins {r['mean']:+.4f} points per hand (se {r['se']:.4f}; "
        f"95% CI {r['ci_low']:+.4f} .. {r['ci_high']:+.4f})"
    )
    return 0


def _check_table_fits(spec: str, tables: Any, variant: str, n_players: int) -> None:
    """Refuse a trained ``.npz`` table (``spec``) made for another table size or variant than
    the match's: its win rates are those of that game, so the match would measure something
    else without saying so.  A table whose ``meta`` does not record them is let through."""
    from simkit.errors import SimkitError

    if not spec.endswith(".npz") or tables is None:
        return
    made_for = tables.meta.get("n_players")
    if made_for is not None and int(made_for) != n_players:
        raise SimkitError(
            f"table {spec} was trained for {made_for} players, but this match seats "
            f"{n_players} (--players {n_players}): give --players {made_for} or a table trained "
            f"for {n_players} players (simkit train --players {n_players})"
        )
    trained_on = tables.meta.get("variant")
    if trained_on is not None and trained_on != variant:
        raise SimkitError(
            f"table {spec} was trained for variant {trained_on!r}, but this match plays "
            f"{variant!r}: give --variant {trained_on} or a table trained for {variant}"
        )
