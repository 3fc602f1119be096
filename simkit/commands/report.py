"""``simkit report``: the rule-balance report (tables, figures, README.md) of every variant."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from simkit.commands.simulate import add_run_options, run_kwargs


def register(subparsers: Any) -> None:
    from simkit.report import DEFAULT_GAMES, DEFAULT_SEED

    parser = subparsers.add_parser(
        "report",
        help="simulate every variant and write the report (README.md, tables, figures)",
        description="Play the same deals under every shipped variant (and each banker variant "
        "with the other 食夹棍 setting), then write OUT/README.md, OUT/tables/*.parquet and "
        "OUT/figures/*.png|svg.  --games scales the run.",
    )
    parser.add_argument("--out", type=Path, default=Path("results/report"), help="report folder")
    parser.add_argument("--variants", nargs="+", default=None, help="variants (default: all)")
    add_run_options(parser, games=DEFAULT_GAMES, seed=DEFAULT_SEED)
    parser.add_argument(
        "--from",
        dest="from_dir",
        type=Path,
        default=None,
        help="redraw the figures and README from saved tables (no simulation)",
    )
    parser.set_defaults(func=handle)


def handle(args: argparse.Namespace) -> int:
    import time

    from simkit.report import build_report, write_report

    start = time.perf_counter()
    if args.from_dir is not None:
        path = write_report(args.from_dir, args.out)
    else:
        path = build_report(
            args.out,
            n_games=args.games,
            seed=args.seed,
            variants=args.variants,
            n_players=args.players,
            strategy=args.strategy,
            **run_kwargs(args),
        )
    print(f"report written to {path} in {time.perf_counter() - start:.0f} s")
    return 0
