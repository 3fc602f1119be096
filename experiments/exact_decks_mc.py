"""Monte Carlo check of the exact deck tables (``results/decks/mc-<deck>.csv``, ``mc.md``).

    .venv/bin/python experiments/exact_decks_mc.py [--hands 1000000] [--seed 20261201]

For each deck it deals ``--hands`` uniform 13-card hands of physical cards
(:func:`simkit.exact_decks.sample_hands`), finds their specials with the slow reference
(:func:`simkit.exact_decks.reference_masks`: every joker value tried on the detector) and
compares each special's frequency, held and best, with the exact probability in
``results/decks/exact-<deck>.csv`` (run ``experiments/exact_decks.py`` first): the standard
error sqrt(p(1-p)/n), z, and the exact binomial p-value.  Pass: p-value above 6.3e-5 (4 SE,
two-sided) everywhere and |z| < 4 where n·p > 1000.  The negative control, 六对半's
probability ×1.5 and ×0.75, must fail.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import numpy as np
import polars as pl
from scipy import stats

from simkit.exact_decks import (
    DeckShape,
    category_names,
    reference_contains,
    reference_masks,
    sample_hands,
)
from simkit.specials import best_special
from simkit.variants import resolve_variant

ROOT = Path(__file__).resolve().parents[1]
P_VALUE_FLOOR = 6.3e-5
DECKS = {
    "1d": DeckShape(),
    "2d": DeckShape(decks=2),
    "1d-5s": DeckShape(n_suits=5),
    "1d-1j": DeckShape(jokers=1),
    "1d-2j": DeckShape(jokers=2),
}


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
        help="dealt hands whose every 5 cards are ranked, decks without jokers",
    )
    parser.add_argument("--decks", nargs="+", default=list(DECKS), choices=list(DECKS))
    parser.add_argument("--out", type=Path, default=ROOT / "results" / "decks")
    args = parser.parse_args()
    variant = resolve_variant(args.variant)
    ids = variant.specials.ids
    summary = [
        "# Monte Carlo check of the exact deck tables",
        "",
        f"`python experiments/exact_decks_mc.py --variant {variant.name} --hands {args.hands} "
        f"--seed {args.seed}`: {args.hands:,} dealt hands a deck, specials by the slow "
        "reference (every joker value tried), against `exact-<deck>.csv`.  Pass: every "
        "binomial p-value > 6.3e-5 (4 SE) and |z| < 4 where n·p > 1000; the negative control "
        "(六对半 ×1.5, ×0.75) must fail.",
        "",
        "| deck | hands | worst |z| (n·p > 1000) | smallest p-value | pass | control ×1.5 "
        "| control ×0.75 | seconds |",
        "|---|---:|---:|---:|---|---|---|---:|",
    ]
    for key in args.decks:
        shape = DECKS[key]
        start = time.perf_counter()
        rng = np.random.default_rng([args.seed, list(DECKS).index(key)])
        hands = sample_hands(shape, args.hands, rng)
        masks = reference_masks(hands, variant.specials, shape)
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
        summary.append(
            f"| {key} | {args.hands:,} | {worst:.2f} | "
            f"{table['p_value'].min():.3g} | {'yes' if passes(table) else 'NO'} | "
            f"{controls[0]} | {controls[1]} | {seconds:.0f} |"
        )
        print(summary[-1], flush=True)
    summary += [
        "",
        "## What 13 cards contain",
        "",
        f"{args.contains_hands:,} dealt hands a deck without jokers, every 5 of their 13 cards "
        "ranked by the plain categorizer (`simkit.exact_decks.reference_categories`), against "
        "the `contains` rows of `exact-<deck>.csv` (五彩同花顺 counted as a straight).",
        "",
        "| deck | category | observed | frequency | p exact | se | z | p-value |",
        "|---|---|---:|---:|---:|---:|---:|---:|",
    ]
    names = category_names(False)[::-1]
    for key in args.decks:
        shape = DECKS[key]
        if shape.jokers:
            continue
        rng = np.random.default_rng([args.seed, 100 + list(DECKS).index(key)])
        held = reference_contains(sample_hands(shape, args.contains_hands, rng), shape)
        exact = pl.read_csv(args.out / f"exact-{key}.csv").filter(pl.col("table") == "contains")
        n = args.contains_hands
        for row in exact.iter_rows(named=True):
            seen = int(held[:, names.index(row["entry"])].sum())
            p = row["probability"]
            se = float(np.sqrt(p * (1 - p) / n))
            z = (seen / n - p) / se if se else 0.0
            p_value = float(stats.binomtest(seen, n, p).pvalue) if 0 < p < 1 else 1.0
            summary.append(
                f"| {key} | {row['entry']} | {seen:,} | {seen / n:.5f} | {p:.5f} | {se:.5f} "
                f"| {z:+.2f} | {p_value:.3g} |"
            )
        print(f"{key}: contains checked", flush=True)
    (args.out / "mc.md").write_text("\n".join(summary) + "\n")


if __name__ == "__main__":
    main()
