"""``simkit design``: payouts designed backwards from targets (issue 51.5)."""

from __future__ import annotations

import argparse
import shlex
import sys
from pathlib import Path
from typing import Any

from simkit.commands._options import (
    add_jobs_option,
    add_players_option,
    add_seed_option,
    add_variant_option,
    chosen_variant,
    count,
)

DEFAULT_GAMES = 20_000


def register(subparsers: Any) -> None:
    """Add ``simkit design`` to ``subparsers``: the base ``--variant``, the payouts
    set free (``--free``), the targets (``--target``, ``--minimize``), ``--players``,
    ``--games``, ``--verify``, ``--rounds``, ``--verify-games``, ``--name``, ``--seed``,
    ``--jobs`` and the required ``--out``; :func:`handle` runs it."""
    parser = subparsers.add_parser(
        "design",
        help="design payouts backwards from targets (banker.edge, player.sd, ...)",
        description="Free numeric fields of a variant file and search them for targets on the "
        "variant's kept games re-scored under each candidate (fixed play), then verify the best "
        "candidates by a fresh simulation with the strategy re-derived for their rules. Writes "
        "OUT/NAME.toml (extends the variant), OUT/par.md and OUT/design.md. Infeasible targets "
        "are reported with the closest table found.",
    )
    add_variant_option(parser)
    parser.add_argument(
        "--free",
        action="append",
        default=[],
        metavar="KEY=LO:HI[:STEP]",
        help="a dotted numeric field of the file to search (e.g. specials.six-pairs.payout=3:9, "
        "scoring.duns.middle.full-house=1:4); repeat for more",
    )
    parser.add_argument(
        "--target",
        action="append",
        default=[],
        metavar="METRIC=VALUE[:TOL]",
        help="ROLE.COLUMN of the par sheet (banker.edge, player.sd, seat.p_win, ...) equal to "
        "VALUE within TOL, or declare-worthwhile / rarity-monotone; repeat for more",
    )
    parser.add_argument(
        "--minimize", default=None, metavar="METRIC",
        help="a metric to minimize (default: none, only the targets)",
    )  # fmt: skip
    add_players_option(parser)
    parser.add_argument(
        "--games", type=count, default=DEFAULT_GAMES, help="kept games to search on"
    )
    parser.add_argument(
        "--verify-games", type=count, default=None, help="games of each fresh verification "
        "(default: --games)"
    )  # fmt: skip
    parser.add_argument(
        "--verify", type=count, default=2, help="candidates verified afresh per round, best first"
    )
    parser.add_argument(
        "--rounds", type=count, default=3, help="rounds of search and fresh verification at most"
    )
    parser.add_argument("--name", default=None, help="the designed file's name (default: V-design)")
    parser.add_argument(
        "--regret-hands", type=int, default=0, metavar="N",
        help="measure the default's regret under the chosen table on N hands a seat (150 + 150 "
        "rollouts each) and report it in design.md (default: 0, not measured)",
    )  # fmt: skip
    add_seed_option(parser)
    add_jobs_option(parser)
    parser.add_argument(
        "--out", type=Path, required=True, metavar="DIR", help="folder for the design (required)"
    )
    parser.set_defaults(func=handle)


def handle(args: argparse.Namespace) -> int:
    """Search the free payouts for a table that meets the targets
    (:func:`simkit.design.design`), write the variant file, ``par.md`` and ``design.md`` to
    ``--out``, and print whether the chosen table met every target on a fresh simulation;
    returns exit status 0 (an infeasible design is reported, not an error).  Free payouts or
    targets that do not fit the variant raise :class:`~simkit.errors.SimkitError` before any
    game is played."""
    from simkit.design import design
    from simkit.files import check_output_dir

    check_output_dir(args.out)
    result = design(
        chosen_variant(args),
        args.free,
        args.target,
        minimize=args.minimize,
        n_players=args.players,
        games=args.games,
        seed=args.seed,
        out=args.out,
        name=args.name,
        verify=args.verify,
        rounds=args.rounds,
        verify_games=args.verify_games,
        n_jobs=args.jobs,
        command="simkit " + shlex.join(sys.argv[1:]),
        regret_hands=args.regret_hands,
    )
    name = args.name or f"{result.base.name}-design"
    values = ", ".join(
        f"{f.key} = {v:g}" for f, v in zip(result.frees, result.chosen_values, strict=True)
    )
    if result.feasible:
        print(f"feasible: {values} meets every target on a fresh simulation")
    else:
        print(
            f"INFEASIBLE: no candidate met every target; the closest table found is {values} "
            f"(loss {result.chosen.loss:.4g}); see {args.out / 'design.md'}"
        )
    print(
        f"written: {args.out / (name + '.toml')}, {args.out / 'par.md'}, {args.out / 'design.md'}"
    )
    return 0
