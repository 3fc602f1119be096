"""``simkit arrange``: the best ways to set one hand, with their expected scores under the full
rules (measured by seeded rollouts, cached) and the strategy's own model value."""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from typing import Any

from simkit.commands._options import (
    STRATEGY_CHOICES,
    add_players_option,
    add_seed_option,
    add_variant_option,
    chosen_variant,
    count,
)

#: Seconds of measuring before progress lines are printed.
PROGRESS_AFTER_S = 3.0


def register(subparsers: Any) -> None:
    """Add ``simkit arrange`` to ``subparsers``: the hand (13 cards), ``--variant``,
    ``--players``, ``--top``, ``--rollouts``, ``--seat``, ``--target-se``, ``--max-deals``,
    ``--no-cache``, ``--strategy`` and ``--seed``; :func:`handle` runs it."""
    parser = subparsers.add_parser(
        "arrange",
        help="show the best splits of a 13-card hand, with their expected scores",
        description="Show the splits of a hand that the default strategy (expected-score-rerank) "
        "rates highest, best expected score first, each with two numbers.  score: the "
        "seat's expected points per game under the variant's full rules (every rule the "
        "scorer applies: dun points and bonuses, majority, scoops, home runs, the t-formula, "
        "the horse card, the banker and the seat, declared specials) against opponents "
        "playing the default, measured on random deals of the other cards, the same deals "
        "for every split, from a fixed stream, until every split's standard error is at "
        "most --target-se or --max-deals are dealt (2-4 players); the variant's phases "
        "(passing, exchange, bidding, negotiation, surrender) are not played, and the output "
        "names those the variant has.  model: the default's own value of the split (its "
        "win tables, duns priced as independent; under guangxi's two variants at 4 players "
        "the tables conditioned on the hand's own cards and the t-formula's places, the "
        "value expected-score's best splits are re-ranked by), the number it ranks splits "
        "by, which is not on the score's scale.  Scores are cached in $SIMKIT_CACHE_DIR (default "
        "~/.cache/simkit)/setting-scores, keyed by the hand, the variant's rules, the win "
        "tables and simkit's source: a repeated call reads them, a changed rule or table "
        "measures again.  --rollouts N adds an independent estimate on N deals of the --seed "
        "stream, with its 95% CI.  The last lines name the special hands the hand qualifies "
        "for, what the default declares and what declaring scores.",
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
        type=count,
        default=None,
        metavar="N",
        help="also score each split shown on N random deals of the --seed stream, "
        "independent of the score's, and print the mean with its 95%% CI, 2-4 players "
        "(default: none)",
    )
    parser.add_argument(
        "--seat",
        choices=("banker", "player"),
        default="player",
        help="in a banker variant, score the hand as the banker or as a player facing the "
        "banker (default: player)",
    )
    parser.add_argument(
        "--target-se",
        type=float,
        default=None,
        metavar="SE",
        help="deal until every split's score has at most this standard error, in points "
        "(default: {simkit.setting_scores.TARGET_SE})",
    )
    parser.add_argument(
        "--max-deals",
        type=count,
        default=None,
        metavar="N",
        help="deal at most N times for the score (default: {simkit.setting_scores.MAX_DEALS})",
    )
    parser.add_argument(
        "--no-cache",
        action="store_true",
        help="measure the score again, neither reading nor writing the cache",
    )
    parser.add_argument(
        "--strategy",
        default=None,
        metavar="NAME",
        help="also print how this strategy sets the hand (default: none): " + STRATEGY_CHOICES,
    )
    add_seed_option(parser)
    parser.set_defaults(func=handle)


def handle(args: argparse.Namespace) -> int:
    """Print the hand's best splits with their scores
    (:func:`~simkit.describe.describe_splits`) and, with ``--strategy``, how that strategy
    sets it; returns exit status 0.  A bad hand or option raises
    :class:`~simkit.errors.SimkitError` (exit status 2 from :func:`simkit.cli.main`)."""
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
        target_se=args.target_se,
        max_deals=args.max_deals,
        cache=not args.no_cache,
        progress=_progress_printer(),
    )
    for line in lines:
        print(line)
    if args.strategy is not None:
        for line in _strategy_lines(args):
            print(line)
    return 0


def _progress_printer() -> Callable[[int, float], None]:
    """Progress of the score's deals on stderr, once a measurement has run a few seconds."""
    start = time.perf_counter()
    shown = False

    def show(deals: int, worst_se: float) -> None:
        nonlocal shown
        if time.perf_counter() - start > PROGRESS_AFTER_S or shown:
            shown = True
            print(f"scoring: {deals:,} deals, largest SE {worst_se:.3f}", file=sys.stderr)

    return show


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
