"""``simkit exact``: exact special-hand and category probabilities of variants."""

from __future__ import annotations

import argparse
import math
from typing import Any

from simkit.commands._options import (
    add_out_option,
    add_variant_arguments,
    add_variant_option,
    chosen_variants,
)


def register(subparsers: Any) -> None:
    """Add ``simkit exact`` to ``subparsers``: the variants (``--variant`` or
    positional), ``--deck`` and ``--out``; :func:`handle` runs it."""
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
    """Print each variant's exact special-hand odds (or why it has none) over
    its deck or ``--deck``, and with ``--out`` write every exact table as
    ``<variant>[-<deck>]-<table>.parquet``; returns exit status 0.  Raises
    :class:`~simkit.errors.SimkitError` for an unknown variant or deck key."""

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
        if tables["specials"].is_empty():
            print(no_specials_text(variant.name))
        else:
            print(odds_table(tables["specials"]))
        if args.out is not None:
            args.out.mkdir(parents=True, exist_ok=True)
            for name, table in tables.items():
                stem = variant.name if chosen is None else f"{variant.name}-{shape.key}"
                atomic_write(args.out / f"{stem}-{name}.parquet", table.write_parquet)
    return 0


# Odds past this are printed in scientific notation: 16 digits and more are unreadable as
# "one in" and past a float's exact integers.
HUGE_ODDS = 1e15


def format_one_in(odds: float | None) -> str:
    """One-in odds as a reader writes them: ``158,753,389,900``, ``9,462``; below 100 with
    two decimals (``3.52``), past :data:`HUGE_ODDS` as ``2.13e+17``, and ``never`` where the
    chance is nil (an infinite or missing N)."""
    if odds is None or math.isnan(odds) or math.isinf(odds):
        return "never"
    if odds >= HUGE_ODDS:
        return f"{odds:.3g}"
    if odds < 100:
        return f"{odds:,.2f}"
    return f"{round(odds):,}"


def odds_table(specials: Any) -> Any:
    """The printed special-hand table: counts with thousands separators, the odds of holding
    each special (``one_in``) and of its being the hand's best (``best_one_in``, the report's
    "one in") as :func:`format_one_in` writes them."""
    import polars as pl

    table = specials.select(
        "special",
        "id",
        pl.col("count").map_elements(lambda n: f"{n:,}", return_dtype=pl.String),
        "probability",
        "best_probability",
        pl.col("one_in").map_elements(format_one_in, return_dtype=pl.String),
        (1 / pl.col("best_probability"))
        .map_elements(format_one_in, return_dtype=pl.String)
        .alias("best_one_in"),
    )
    with pl.Config(
        tbl_rows=40,
        tbl_cols=9,
        tbl_width_chars=160,
        fmt_str_lengths=40,
        tbl_cell_numeric_alignment="RIGHT",
        tbl_hide_dataframe_shape=True,
    ):
        return str(table)


def no_specials_text(name: str) -> str:
    """What ``exact`` prints for a variant without special hands, instead of an empty table."""
    return (
        f"{name} has no special hands (its [specials].order lists none), so there are no "
        "special-hand odds to show.  Its exact hand-category counts (five_card, three_card) "
        "and the chance that 13 cards hold each 5-card category (contains) are written by "
        f"simkit exact --variant {name} --out DIR."
    )
