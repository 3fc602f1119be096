"""``simkit rescore``: score a run's kept games under another variant file."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from simkit.commands._options import add_jobs_option, add_out_option


def register(subparsers: Any) -> None:
    """Add ``simkit rescore`` to ``subparsers``: the run folder RUN, the required
    ``--variant``, ``--from``, ``--gain-sample``, ``--jobs`` and ``--out``; :func:`handle`
    runs it."""
    parser = subparsers.add_parser(
        "rescore",
        help="score a run's kept games under another variant file",
        description="Score the games a run kept (simkit simulate --keep-games) under another "
        "variant file, with the hands as the run set them, and write the tables of simulate. "
        "A change the kept hands cannot express (deck, ranking, phases before setting, "
        "players) is refused with the reason.",
    )
    parser.add_argument("run", type=Path, metavar="RUN", help="a run folder with kept games")
    parser.add_argument(
        "--variant",
        required=True,
        metavar="NAME",
        help="variant name or file to score under (required, no default)",
    )
    parser.add_argument(
        "--from",
        dest="source",
        default=None,
        metavar="NAME",
        help="which of the run's variants' games (default: the run's only one)",
    )
    parser.add_argument(
        "--gain-sample",
        type=int,
        default=0,
        metavar="N",
        help="also measure, on the first N kept games, what the strategy re-derived for the "
        "file gains over the kept play (default: 0, not measured)",
    )
    add_jobs_option(parser)
    add_out_option(parser, "folder for the tables (default: print only)")
    parser.set_defaults(func=handle)


def handle(args: argparse.Namespace) -> int:
    """Score RUN's kept games again under ``--variant``
    (:func:`~simkit.rescore.rescore`), print the scores, with ``--gain-sample`` the gain of
    the re-derived play over the kept one, and save the tables in ``--out`` if given;
    returns exit status 0.  A run without kept games or a variant they cannot be scored
    under raises :class:`~simkit.errors.SimkitError`."""
    import polars as pl

    from simkit.files import check_output_dir
    from simkit.rescore import rederived_gain, rescore

    if args.out is not None:
        check_output_dir(args.out)
    result = rescore(args.run, args.variant, source=args.source, n_jobs=args.jobs)
    with pl.Config(tbl_rows=50, tbl_cols=12, tbl_width_chars=120):
        print(result["scores"].select("variant", "seat", "n", "mean", "se", "sd", "sd_se"))
    if args.gain_sample:
        gain = rederived_gain(args.run, args.variant, source=args.source, sample=args.gain_sample)
        print(
            f"re-derived play ({gain['strategy']}) gains {gain['gain']:+.4f} points a game "
            f"over the kept play (95% CI {gain['ci_low']:+.4f} to {gain['ci_high']:+.4f}, "
            f"{gain['games']} games); the tables above are for the kept play"
        )
    if args.out is not None:
        print(f"tables written to {result.save(args.out)}")
    return 0
