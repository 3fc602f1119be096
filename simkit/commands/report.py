"""``simkit report``: the rule-balance report (tables, figures, README.md) of every variant."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from simkit.commands._options import add_out_option, add_variant_option, given_variants
from simkit.commands.simulate import add_run_options, run_kwargs


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "report",
        help="simulate every variant and write the report (README.md, tables, figures)",
        description="Play the same deals under every shipped variant (and each banker variant "
        "with the other 食夹棍 setting), then write OUT/README.md, OUT/tables/*.parquet and "
        "OUT/figures/*.png|svg.  --games scales the run.",
    )
    add_out_option(parser, "report folder", default=Path("results/report"))
    add_variant_option(
        parser,
        many=True,
        help="variant name or path; repeat it or give a comma list (default: every shipped one)",
    )
    # the older spelling, still read
    parser.add_argument(
        "--variants", dest="variant", nargs="+", action="extend", help=argparse.SUPPRESS
    )
    parser.add_argument(
        "--games",
        type=int,
        default=None,
        help="deals to play (default: {simkit.report.DEFAULT_GAMES:,})",
    )
    add_run_options(parser, games=None)
    parser.add_argument(
        "--from",
        dest="from_dir",
        type=Path,
        default=None,
        metavar="DIR",
        help="redraw the figures and README from the tables saved in DIR, simulating nothing "
        "(default: simulate)",
    )
    parser.set_defaults(func=handle)


def handle(args: argparse.Namespace) -> int:
    import time

    from simkit.report import build_report, write_report

    start = time.perf_counter()
    if args.from_dir is not None:
        path = write_report(args.from_dir, args.out)
    else:
        games = {} if args.games is None else {"n_games": args.games}
        path = build_report(
            args.out,
            seed=args.seed,
            variants=given_variants(args) or None,
            n_players=args.players,
            strategy=args.strategy,
            **games,
            **run_kwargs(args),
        )
    print(f"report written to {path} in {time.perf_counter() - start:.0f} s")
    return 0
