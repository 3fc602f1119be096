"""Exact special-hand and dun-category tables for every deck (``results/decks/exact-<deck>``).

    python -m experiments.pipelines.exact_decks [--variant guangxi] [--decks 1d 2d 1d-5s ...]

For each pack ``[deck]`` accepts (one or two decks, with or without the fifth suit, with 0, 1
or 2 jokers: twelve) it writes ``exact-<deck>.csv`` (one row per table and entry: count, best
count, probability, exact integers) and ``exact-<deck>.md`` (the same as tables, with P and
one-in), by :func:`simkit.exact.exact_tables`, combinatorics only.  A five-suit pack counts
五彩同花顺 apart in its 5-card table.  The two-deck five-suit packs take a few minutes each.
"""

from __future__ import annotations

import argparse
import time
from math import comb
from pathlib import Path

import polars as pl

from simkit.exact import exact_tables
from simkit.exact_decks import DECK_SHAPES, DeckShape, contains_counts
from simkit.variants import resolve_variant

ROOT = Path(__file__).resolve().parents[2]
DECKS = DECK_SHAPES
# Who each deck serves (the deal's player counts; jokers are an option of any game).
SERVES = {
    "1d": "2-4 players",
    "2d": "5-8 players",
    "1d-5s": "5-6 players (加一色, 004)",
    "1d-1j": "2-4 players, one joker wild (000: 王能够带任意牌)",
    "1d-2j": "2-4 players, two jokers wild (000)",
    "1d-5s-1j": "up to 5 players, a fifth suit and one joker",
    "1d-5s-2j": "up to 5 players, a fifth suit and two jokers",
    "2d-1j": "5-8 players, one joker wild",
    "2d-2j": "5-8 players, two jokers wild",
    "2d-5s": "up to 8 players, two decks of five suits",
    "2d-5s-1j": "up to 8 players, two decks of five suits and one joker",
    "2d-5s-2j": "up to 8 players, two decks of five suits and two jokers",
}


def tidy(tables: dict[str, pl.DataFrame]) -> pl.DataFrame:
    """All tables as one: table, entry, count, best_count (specials only), probability."""
    rows = []
    specials = tables["specials"]
    for r in specials.iter_rows(named=True):
        rows.append(
            (
                "specials",
                r["id"],
                r["count"],
                r["best_count"],
                r["probability"],
                r["best_probability"],
            )
        )
    for name in ("five_card", "three_card", "contains"):
        if name in tables:
            for r in tables[name].iter_rows(named=True):
                rows.append((name, r["category"], r["count"], None, r["probability"], None))
    return pl.DataFrame(
        rows,
        schema={
            "table": pl.String,
            "entry": pl.String,
            "count": pl.Int64,
            "best_count": pl.Int64,
            "probability": pl.Float64,
            "best_probability": pl.Float64,
        },
        orient="row",
    )


def markdown(key: str, shape: DeckShape, variant: str, tables: dict[str, pl.DataFrame]) -> str:
    lines = [
        f"# Exact tables: {shape.label} ({key}), variant {variant}",
        "",
        f"{shape.n_cards} physical cards ({SERVES[key]}); every count is over all "
        f"C({shape.n_cards}, k) sets of k physical cards, by combinatorics "
        "(`simkit.exact.exact_tables`), reproduced by "
        f"`python -m experiments.pipelines.exact_decks --variant {variant} --decks {key}`.",
        "",
        "## Specials (13-card hands)",
        "",
        "| special | id | count | P(qualifies) | best count | P(best) | one in (best) |",
        "|---|---|---:|---:|---:|---:|---:|",
    ]
    for r in tables["specials"].iter_rows(named=True):
        one_in = f"{1 / r['best_probability']:,.0f}" if r["best_probability"] else "never"
        lines.append(
            f"| {r['special']} | {r['id']} | {r['count']:,} | {r['probability']:.6g} | "
            f"{r['best_count']:,} | {r['best_probability']:.6g} | {one_in} |"
        )
    titles = {
        "five_card": "5-card duns (middle, back): category counts",
        "three_card": "3-card fronts: category counts",
        "contains": "13 cards hold a 5-card dun of exactly each category",
    }
    for name, title in titles.items():
        lines += ["", f"## {title}", ""]
        if name == "contains" and shape.n_suits == 5:
            lines += [
                "五彩同花顺 is not counted apart here: a straight of five suits is a STRAIGHT "
                "in this table (the 5-card table above counts it apart).",
                "",
            ]
        if name == "contains" and shape.jokers:
            lines += [
                "A joker takes its best value in each dun: a hand holds a category when some 5 "
                "of its cards, jokers among them or not, are at best that category.",
                "",
            ]
        lines += ["| category | count | probability |", "|---|---:|---:|"]
        for r in tables[name].iter_rows(named=True):
            lines.append(f"| {r['category']} | {r['count']:,} | {r['probability']:.6g} |")
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--variant", default="guangxi")
    parser.add_argument("--decks", nargs="+", default=list(DECKS), choices=list(DECKS))
    parser.add_argument("--out", type=Path, default=ROOT / "results" / "decks")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    variant = resolve_variant(args.variant)
    for key in args.decks:
        shape = DECKS[key]
        start = time.perf_counter()
        # 五彩同花顺 counted apart wherever a fifth suit makes it (the ranking of the deck
        # options that play it), whatever the variant's own ranking says.
        tables = exact_tables(variant, deck=shape, five_suit_straight=shape.n_suits == 5)
        if "contains" not in tables:
            # 五彩同花顺 played: the contains table is counted without it (a five-suit
            # straight is a straight there); the markdown says so.
            counts = contains_counts(shape, five_suit_straight=False)
            total = comb(shape.n_cards, 13)
            tables["contains"] = pl.DataFrame(
                {
                    "category": list(counts),
                    "count": list(counts.values()),
                    "probability": [n / total for n in counts.values()],
                }
            )
        tidy(tables).write_csv(args.out / f"exact-{key}.csv")
        (args.out / f"exact-{key}.md").write_text(markdown(key, shape, variant.name, tables))
        print(f"{key}: {time.perf_counter() - start:.1f} s", flush=True)


if __name__ == "__main__":
    main()
