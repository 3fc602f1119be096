"""``simkit compare``: two or more variants on the same deals, paired differences."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from simkit.commands.simulate import add_run_options, claim_out, simulate_args

DEFAULT_GAMES = 10_000


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "compare",
        help="compare variants on the same deals (paired differences with standard errors)",
        description="Play the same deals under each variant and print, per pair, the "
        "difference of the seat means and of the mean square score with its paired "
        "standard error.",
    )
    parser.add_argument("variants", nargs="+", help="two or more variant names or paths")
    add_run_options(parser, games=DEFAULT_GAMES)
    parser.add_argument("--out", type=Path, default=None, help="also save the tables here")
    parser.set_defaults(func=handle)


def handle(args: argparse.Namespace) -> int:
    import polars as pl

    if len(args.variants) < 2:
        raise ValueError("compare needs at least two variants")
    with claim_out(args):
        result = simulate_args(args)
        with pl.Config(tbl_rows=100, tbl_cols=12, tbl_width_chars=140):
            print(
                result["scores"]
                .filter(pl.col("seat").is_in(["0", "all"]))
                .select("variant", "seat", "n", "mean", "se", "sd", "sd_se")
            )
            print(result["paired"].filter(pl.col("seat").is_in(["0", "all"])))
            print(result["events"].select("variant", "event", "rate", "se"))
        if args.out is not None:
            print(f"tables written to {result.save(args.out)}")
    return 0
