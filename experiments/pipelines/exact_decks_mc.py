"""Monte Carlo check of the exact deck tables (``results/decks/mc-<deck>.csv``, ``mc.md``).

    python -m experiments.pipelines.exact_decks_mc [--hands 1000000] [--seed 20261201]

For each deck it deals ``--hands`` uniform 13-card hands of physical cards
(:func:`simkit.exact_decks.sample_hands`), finds their specials with the slow reference
(:func:`simkit.exact_decks.reference_masks`: every joker value tried on the detector; the decks
it does not read, two decks with jokers and a fifth suit with jokers or two decks, on the
detector itself, whose fifth-suit specials tests/test_exact_decks_reference.py checks against
the rule text) and compares each special's frequency, held and best, with the exact probability in
``results/decks/exact-<deck>.csv`` (run ``experiments.pipelines.exact_decks`` first): the standard
error sqrt(p(1-p)/n), z, and the exact binomial p-value.  Pass: p-value above 6.3e-5 (4 SE,
two-sided) everywhere and |z| < 4 where n·p > 1000.  The negative control, 六对半's
probability ×1.5 and ×0.75, must fail.  ``mc.md`` keeps the rows of the decks not rerun.
"""

from __future__ import annotations

import argparse
import time
from itertools import combinations
from pathlib import Path

import numpy as np
import polars as pl
from scipy import stats

from simkit.evaluate import Category, rank5
from simkit.exact_decks import (
    DECK_SHAPES,
    DeckShape,
    category_names,
    engine_cards,
    reference_contains,
    reference_covers,
    reference_masks,
    sample_hands,
)
from simkit.specials import best_special, detect_specials
from simkit.variants import resolve_variant

ROOT = Path(__file__).resolve().parents[2]
P_VALUE_FLOOR = 6.3e-5
DECKS = DECK_SHAPES


def dealt_masks(hands: np.ndarray, specials, shape: DeckShape) -> np.ndarray:
    """Specials of dealt hands: the slow reference where it reads the deck, else the detector."""
    if reference_covers(shape):
        return reference_masks(hands, specials, shape)
    return detect_specials(engine_cards(hands, shape), specials)


def contains_held(hands: np.ndarray, shape: DeckShape) -> np.ndarray:
    """Which categories some 5 of each hand's 13 cards make (columns as
    :func:`~simkit.exact_decks.reference_categories`): the plain categorizer without jokers;
    with jokers the engine's ranking (a joker at its best value) of every 5 of the 13."""
    if not shape.jokers:
        return reference_contains(hands, shape)
    subsets = np.array(list(combinations(range(13), 5)))
    cards = engine_cards(hands, shape)
    names = category_names(False)[::-1]
    to_column = np.array([names.index(c.name) for c in Category])
    held = np.zeros((len(hands), len(names)), dtype=bool)
    block = 2000
    for start in range(0, len(hands), block):
        duns = cards[start : start + block][:, subsets]
        cats = (rank5(duns) >> 20).astype(np.int64)
        for c in range(len(Category)):
            held[start : start + block, to_column[c]] |= (cats == c).any(axis=1)
    return held


def merged(path: Path, title: str, new_rows: dict[str, list[str]]) -> list[str]:
    """The rows of one table of ``mc.md`` (after ``title``), by deck: the new rows, and the
    old rows of the decks not rerun, in :data:`DECKS` order."""
    old: dict[str, list[str]] = {}
    if path.exists():
        lines = path.read_text().splitlines()
        inside = False
        for line in lines:
            if line.startswith("#"):
                inside = line == title
            elif inside and line.startswith("| ") and not line.startswith("| deck"):
                old.setdefault(line.split(" | ")[0][2:], []).append(line)
    out = []
    for key in DECKS:
        out += new_rows.get(key, old.get(key, []))
    return out


def check(
    masks: np.ndarray, exact: pl.DataFrame, ids: tuple[str, ...], scale: float = 1.0
) -> pl.DataFrame:
    """Observed against exact (probabilities times ``scale``, the negative control's lever)."""
    n = len(masks)
    best = best_special(masks)
    rows = []
    specials = exact.filter(pl.col("table") == "specials")
    for i, special in enumerate(ids):
        row = specials.filter(pl.col("entry") == special).row(0, named=True)
        for measure, seen, p in (
            ("any", int(((masks >> np.uint32(i)) & np.uint32(1)).sum()), row["probability"]),
            ("best", int((best == i).sum()), row["best_probability"]),
        ):
            p = min(p * scale, 1.0)
            se = float(np.sqrt(p * (1 - p) / n))
            z = (seen / n - p) / se if se else 0.0
            p_value = float(stats.binomtest(seen, n, p).pvalue) if 0 < p < 1 else 1.0
            rows.append((special, measure, n, seen, seen / n, p, se, z, p_value))
    return pl.DataFrame(
        rows,
        schema=["id", "measure", "n", "observed", "frequency", "p_exact", "se", "z", "p_value"],
        orient="row",
    )


def passes(table: pl.DataFrame) -> bool:
    common = table.filter(pl.col("p_exact") * pl.col("n") > 1000)
    return bool((table["p_value"] > P_VALUE_FLOOR).all() and (common["z"].abs() < 4).all())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--variant", default="guangxi")
    parser.add_argument("--hands", type=int, default=1_000_000)
    parser.add_argument("--seed", type=int, default=20261201)
    parser.add_argument(
        "--contains-hands",
        type=int,
        default=20_000,
        help="dealt hands whose every 5 cards are ranked",
    )
    parser.add_argument("--decks", nargs="+", default=list(DECKS), choices=list(DECKS))
    parser.add_argument(
        "--contains-decks",
        nargs="+",
        default=None,
        choices=list(DECKS),
        help="decks whose contains table is checked (default: --decks)",
    )
    parser.add_argument("--out", type=Path, default=ROOT / "results" / "decks")
    args = parser.parse_args()
    variant = resolve_variant(args.variant)
    ids = variant.specials.ids
    path = args.out / "mc.md"
    specials_title = "# Monte Carlo check of the exact deck tables"
    contains_title = "## What 13 cards contain"
    summary = [
        specials_title,
        "",
        "`python -m experiments.pipelines.exact_decks_mc "
        f"--variant {variant.name} --hands {args.hands} "
        f"--seed {args.seed}`: {args.hands:,} dealt hands a deck, specials by the slow "
        "reference (every joker value tried), against `exact-<deck>.csv`.  Pass: every "
        "binomial p-value > 6.3e-5 (4 SE) and |z| < 4 where n·p > 1000; the negative control "
        "(六对半 ×1.5, ×0.75) must fail.",
        "",
        "Two decks with jokers, and a fifth suit with jokers or two decks, take the detector "
        "itself (`simkit.specials.detect_specials`; its fifth-suit specials are checked "
        "against the rule text in `tests/test_exact_decks_reference.py`): the slow reference "
        "reads at most 8 cards a rank.  A row is rerun with `--decks <deck>`.",
        "",
        "| deck | hands | worst |z| (n·p > 1000) | smallest p-value | pass | control ×1.5 "
        "| control ×0.75 | seconds |",
        "|---|---:|---:|---:|---|---|---|---:|",
    ]
    rows: dict[str, list[str]] = {}
    for key in args.decks:
        shape = DECKS[key]
        start = time.perf_counter()
        rng = np.random.default_rng([args.seed, list(DECKS).index(key)])
        hands = sample_hands(shape, args.hands, rng)
        masks = dealt_masks(hands, variant.specials, shape)
        exact = pl.read_csv(args.out / f"exact-{key}.csv")
        table = check(masks, exact, ids)
        table.write_csv(args.out / f"mc-{key}.csv")
        six = ids.index("six-pairs")
        controls = []
        for scale in (1.5, 0.75):
            wrong = check(masks, exact, ids, scale).filter(pl.col("id") == ids[six])
            controls.append("rejected" if not passes(wrong) else "NOT rejected")
        common = table.filter(pl.col("p_exact") * pl.col("n") > 1000)
        worst = float(common["z"].abs().max() or 0.0)
        seconds = time.perf_counter() - start
        rows[key] = [
            f"| {key} | {args.hands:,} | {worst:.2f} | "
            f"{table['p_value'].min():.3g} | {'yes' if passes(table) else 'NO'} | "
            f"{controls[0]} | {controls[1]} | {seconds:.0f} |"
        ]
        print(rows[key][0], flush=True)
    summary += merged(path, specials_title, rows)
    summary += [
        "",
        contains_title,
        "",
        f"{args.contains_hands:,} dealt hands a deck, every 5 of their 13 cards ranked: by the "
        "plain categorizer (`simkit.exact_decks.reference_categories`) without jokers, by the "
        "engine's ranking (`simkit.evaluate.rank5`, a joker at its best value) with jokers; "
        "against the `contains` rows of `exact-<deck>.csv` (五彩同花顺 counted as a straight).",
        "",
        "| deck | category | observed | frequency | p exact | se | z | p-value |",
        "|---|---|---:|---:|---:|---:|---:|---:|",
    ]
    names = category_names(False)[::-1]
    rows = {}
    for key in args.contains_decks or args.decks:
        shape = DECKS[key]
        rng = np.random.default_rng([args.seed, 100 + list(DECKS).index(key)])
        held = contains_held(sample_hands(shape, args.contains_hands, rng), shape)
        exact = pl.read_csv(args.out / f"exact-{key}.csv").filter(pl.col("table") == "contains")
        n = args.contains_hands
        rows[key] = []
        for row in exact.iter_rows(named=True):
            seen = int(held[:, names.index(row["entry"])].sum())
            p = row["probability"]
            se = float(np.sqrt(p * (1 - p) / n))
            z = (seen / n - p) / se if se else 0.0
            p_value = float(stats.binomtest(seen, n, p).pvalue) if 0 < p < 1 else 1.0
            rows[key].append(
                f"| {key} | {row['entry']} | {seen:,} | {seen / n:.5f} | {p:.5f} | {se:.5f} "
                f"| {z:+.2f} | {p_value:.3g} |"
            )
        print(f"{key}: contains checked", flush=True)
    summary += merged(path, contains_title, rows)
    path.write_text("\n".join(summary) + "\n")


if __name__ == "__main__":
    main()
