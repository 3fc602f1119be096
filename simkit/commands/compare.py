"""``simkit compare``: two or more variants on the same deals, paired differences."""

from __future__ import annotations

import argparse
from typing import Any

from simkit.commands._options import (
    add_out_option,
    add_variant_arguments,
    add_variant_option,
    chosen_variants,
)
from simkit.commands.simulate import add_run_options, claim_out, simulate_args
from simkit.errors import SimkitError

DEFAULT_GAMES = 10_000


def register(subparsers: Any) -> None:
    """Add ``simkit compare`` to ``subparsers``: the variants (``--variant``,
    repeated or a comma list, or positional), the run options of
    :func:`~simkit.commands.simulate.add_run_options` with ``--games`` and ``--out``;
    :func:`handle` runs it."""
    parser = subparsers.add_parser(
        "compare",
        help="compare variants on the same deals (paired differences with standard errors)",
        description="Play the same deals under each variant and print, per pair, the "
        "difference of the seat means and of the mean square score with its paired "
        "standard error.",
    )
    add_variant_option(
        parser,
        many=True,
        help="two or more variant names or paths; repeat the option or give a comma list, "
        "'all' for every shipped one (no default)",
    )
    add_variant_arguments(parser)
    add_run_options(parser, games=DEFAULT_GAMES)
    add_out_option(parser, "also save the tables in this folder (default: print only)")
    parser.set_defaults(func=handle)


def handle(args: argparse.Namespace) -> int:
    """Simulate the variants on the same deals, print the seat-0 and pooled
    scores, the paired differences and the event rates, and save the tables in ``--out``
    if given; returns exit status 0.  Raises :class:`~simkit.errors.SimkitError` for fewer
    than two variants (``all`` counts as many)."""
    import polars as pl

    names = chosen_variants(args)
    if names != ["all"] and len(names) < 2:
        raise SimkitError(f"compare needs at least two variants, got {', '.join(names)}")
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
