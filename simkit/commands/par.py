"""``simkit par``: the par sheet of a variant (a fresh run) or of a run's kept games."""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path
from typing import Any

from simkit.commands._options import (
    add_jobs_option,
    add_out_option,
    add_players_option,
    add_seed_option,
    add_strategy_option,
    add_variant_option,
    chosen_variant,
    count,
)

DEFAULT_GAMES = 20_000


def register(subparsers: Any) -> None:
    """Add ``simkit par`` to ``subparsers``: a run folder RUN or ``--variant`` with
    ``--players``, ``--games``, ``--strategy``, ``--seed`` and ``--jobs``, and ``--out``;
    :func:`handle` runs it."""
    parser = subparsers.add_parser(
        "par",
        help="par sheet per seat role: edge, SD, sessions, risk of ruin",
        description="The par sheet of a variant per seat role ('seat' in all-pairs variants, "
        "'banker' and 'player' in banker variants): par, returns, sessions and ruin tables "
        "(parquet) and par.md with figures. Give RUN (a run folder with kept games) or "
        "--variant to simulate one (its games kept in OUT/kept).",
    )
    parser.add_argument(
        "run",
        type=Path,
        nargs="?",
        default=None,
        metavar="RUN",
        help="a run folder with kept games (default: simulate --variant afresh)",
    )
    add_variant_option(parser)
    add_players_option(parser)
    parser.add_argument("--games", type=count, default=DEFAULT_GAMES, help="deals to play")
    add_strategy_option(parser)
    add_seed_option(parser)
    add_jobs_option(parser)
    add_out_option(parser, "folder for the par sheet (default: print only)")
    parser.set_defaults(func=handle)


def handle(args: argparse.Namespace) -> int:
    """Print the par sheet (:func:`~simkit.par.par_sheet`) of RUN's kept games, or of
    a fresh simulation of ``--variant`` that keeps its games (in ``--out``/run, or in a
    temporary folder removed afterwards), and write it to ``--out`` if given; returns exit
    status 0.  Raises :class:`~simkit.errors.SimkitError` where both RUN and ``--variant``
    are given."""
    import polars as pl

    from simkit.errors import SimkitError
    from simkit.files import check_output_dir
    from simkit.kept import KEPT_DIR
    from simkit.par import par_sheet, write_par
    from simkit.simulate import simulate

    if args.run is not None and args.variant is not None:
        raise SimkitError("give RUN or --variant, not both: a run's par sheet is its variant's")
    if args.out is not None:
        check_output_dir(args.out)
    with tempfile.TemporaryDirectory(prefix="simkit-par-") as tmp:
        run = args.run
        if run is None:
            run = (args.out if args.out is not None else Path(tmp)) / "run"
            simulate(
                chosen_variant(args),
                args.games,
                args.players,
                args.strategy,
                seed=args.seed,
                n_jobs=args.jobs,
                keep_games=run / KEPT_DIR,
            )
        sheet = par_sheet(run, seed=args.seed)
    with pl.Config(tbl_rows=60, tbl_cols=14, tbl_width_chars=160):
        for name, table in sheet.tables.items():
            print(f"{name}:")
            print(table.drop("variant", "players"))
    if args.out is not None:
        write_par(sheet, args.out)
        print(f"par sheet written to {args.out}")
    return 0
