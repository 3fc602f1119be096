"""``simkit exact``: exact special-hand and category probabilities of variants."""

from __future__ import annotations

import argparse
from typing import Any

from simkit.commands._options import (
    add_out_option,
    add_variant_arguments,
    add_variant_option,
    chosen_variants,
)


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "exact",
        help="exact probabilities of the special hands and hand categories",
        description="Print the exact special-hand table of each variant (per hand of 13 "
        "cards from the variant's deck, or --deck) and, with --out, write every exact table "
        "as parquet.",
    )
    add_variant_option(parser, many=True)
    parser.add_argument(
        "--deck",
        metavar="KEY",
        default=None,
        help="count over another deck: 1d or 2d (one or two decks), with -5s (a fifth suit) "
        "and -1j or -2j (jokers), e.g. 2d-5s-2j; default: the variant's deck",
    )
    add_variant_arguments(parser)
    add_out_option(parser, "folder for <variant>-<table>.parquet (default: print only)")
    parser.set_defaults(func=handle)


def handle(args: argparse.Namespace) -> int:
    import polars as pl

    from simkit.exact import exact_tables
    from simkit.exact_decks import DeckShape, deck_of
    from simkit.files import atomic_write, check_output_dir
    from simkit.variants import resolve_variants

    variants = resolve_variants(chosen_variants(args))
    if args.out is not None:
        check_output_dir(args.out)
    chosen = DeckShape.parse(args.deck) if args.deck is not None else None
    for variant in variants:
        shape = chosen if chosen is not None else deck_of(variant)
        tables = exact_tables(variant, deck=shape)
        print(f"{variant.name} ({variant.key}), {shape.label}, {shape.n_cards} cards")
        with pl.Config(tbl_rows=40, tbl_cols=9, tbl_width_chars=140, fmt_str_lengths=40):
            # best_one_in: one hand in N has the special as its best one (the report's "one in").
            print(
                tables["specials"].select(
                    "special",
                    "id",
                    "count",
                    "probability",
                    "best_probability",
                    "one_in",
                    (1 / pl.col("best_probability")).alias("best_one_in"),
                )
            )
        if args.out is not None:
            args.out.mkdir(parents=True, exist_ok=True)
            for name, table in tables.items():
                stem = variant.name if chosen is None else f"{variant.name}-{shape.key}"
                atomic_write(args.out / f"{stem}-{name}.parquet", table.write_parquet)
    return 0
