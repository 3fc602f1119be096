"""Exact counts of one deck's specials: the hands of each mask of specials, and the
count and best count of each special."""

from __future__ import annotations

from functools import lru_cache

import numpy as np
import polars as pl

from simkit.cards import RANK_CHARS
from simkit.exact.card_list import (
    CARD_LISTS,
    check_countable,
)
from simkit.exact.vectors import (
    HANDS_13,
    SUIT_TESTS,
    profile_indices,
    rank_vector_data,
    suit_classes,
)
from simkit.specials import (
    VariantLike,
    best_special,
    detect_specials,
    specials_of,
)
from simkit.variants import SpecialRule, Specials
from simkit.variants.special_kinds import ExactMethod


@lru_cache(maxsize=32)
def mask_counts(specials: Specials) -> dict[int, int]:
    """Number of one-deck 13-card hands with each exact special mask (bits in variant order).

    The values sum to C(52,13).
    """
    kinds = [rule.kind for rule in specials.rules]
    for kind in kinds:
        check_countable(kind)
    rank_bits = sum(1 << i for i, k in enumerate(kinds) if k.exact == ExactMethod.RANK_COUNTS)
    card_bits = sum(1 << i for i, k in enumerate(kinds) if k.exact == ExactMethod.CARD_LIST)
    suit_bits = [
        sum(
            1 << i
            for i, k in enumerate(kinds)
            if k.exact == ExactMethod.SUIT_COUNTS and k.code == t
        )
        for t in SUIT_TESTS
    ]
    _, hands, _ = rank_vector_data()
    profile_codes, profile_index = profile_indices()
    masks = detect_specials(hands, specials, decks=1).astype(np.int64) & rank_bits
    # Count the vectors by (rank mask, profile); each stands for its profile's suit assignments.
    n_profiles = len(profile_codes)
    tally = np.bincount(masks * n_profiles + profile_index)
    nonzero = np.flatnonzero(tally)
    codes = (nonzero // n_profiles) * 14**4 + profile_codes[nonzero % n_profiles]
    n_vectors = tally[nonzero]
    counts: dict[int, int] = {}
    for code, n in zip(codes.tolist(), n_vectors.tolist(), strict=True):
        rank_mask, profile = divmod(code, 14**4)
        for outcome, ways in suit_classes(profile).items():
            m = rank_mask
            for bits, passed in zip(suit_bits, outcome, strict=True):
                m |= bits if passed else 0
            counts[m] = counts.get(m, 0) + n * ways
    # Move the hands of the card-listed specials to their full masks.
    exact_hands = [np.zeros((0, 13), dtype=np.int8)]
    for rule, kind in zip(specials.rules, kinds, strict=True):
        if kind.exact == ExactMethod.CARD_LIST:
            exact_hands.append(CARD_LISTS[kind.code](rule))
    hands = np.unique(np.vstack(exact_hands), axis=0)
    for full in detect_specials(hands, specials, decks=1).astype(np.int64).tolist():
        reduced = full & ~card_bits
        counts[reduced] -= 1
        counts[full] = counts.get(full, 0) + 1
    if sum(counts.values()) != HANDS_13:
        raise AssertionError("special mask counts do not sum to C(52,13)")
    return {m: n for m, n in counts.items() if n}


_OPTION_DEFINITIONS = {
    ("royal-twelve", "all-jqka"): "every card is J, Q, K or A",
    ("royal-twelve", "all-jqk-plus-one"): "the twelve J, Q, K and any card",
}


def _definition(rule: SpecialRule) -> str:
    """The definition as the rule plays it, with its option values."""
    kind = rule.kind
    if rule.id == "royal-twelve":
        text = _OPTION_DEFINITIONS[(rule.id, rule.option("definition"))]
    elif "ranks" in rule.options:
        text = "every card from the ranks " + " ".join(RANK_CHARS[r] for r in rule.option("ranks"))
    else:
        text = kind.definition
    shown = [
        f"{key}={value}"
        for key, value in rule.options.items()
        if key not in ("ranks", "definition")
    ]
    return f"{text} ({', '.join(shown)})" if shown else text


def special_counts(variant: VariantLike = None) -> list[tuple[SpecialRule, int, int]]:
    """``(rule, count, best_count)`` for each special of a variant, best first."""
    specials = specials_of(variant)
    counts = mask_counts(specials)
    out = []
    for i, rule in enumerate(specials.rules):
        bit = 1 << i
        any_count = sum(n for m, n in counts.items() if m & bit)
        best = sum(n for m, n in counts.items() if m & bit and not m & (bit - 1))
        out.append((rule, any_count, best))
    return out


def special_probabilities(variant: VariantLike = None) -> dict[str, tuple[float, float]]:
    """``{special id: (P(qualifies), P(it is the best special))}`` for one random one-deck hand."""
    return {
        rule.id: (count / HANDS_13, best / HANDS_13)
        for rule, count, best in special_counts(variant)
    }


def compare_with_exact(masks: np.ndarray, variant: VariantLike = None) -> pl.DataFrame:
    """Monte Carlo frequencies of specials beside their exact probabilities.

    ``masks`` are :func:`~simkit.specials.detect_specials` masks of one-deck hands dealt at
    random (any shape).  One row per special and per measure (``any``: it qualifies; ``best``:
    it is the best special): n, observed, frequency, the exact probability, the binomial
    standard error sqrt(p(1-p)/n) from the exact p, z = (frequency - p) / se, and the two-sided
    exact binomial p-value (which stays valid for specials too rare for a normal z).
    """
    from scipy import stats  # imported here: only this check needs scipy

    flat = np.asarray(masks).ravel()
    n = flat.size
    best = best_special(flat)
    rows: dict[str, list] = {k: [] for k in ("special", "id", "measure", "observed", "p_exact")}
    for i, (rule, count, best_count) in enumerate(special_counts(variant)):
        held = int(((flat >> np.uint32(i)) & np.uint32(1)).sum())
        first = int((best == i).sum())
        for measure, seen, exact in (("any", held, count), ("best", first, best_count)):
            rows["special"].append(rule.name)
            rows["id"].append(rule.id)
            rows["measure"].append(measure)
            rows["observed"].append(seen)
            rows["p_exact"].append(exact / HANDS_13)
    p = np.array(rows["p_exact"], dtype=float)
    observed = np.array(rows["observed"], dtype=np.int64)
    se = np.sqrt(p * (1 - p) / max(n, 1))
    frequency = observed / max(n, 1)
    with np.errstate(divide="ignore", invalid="ignore"):
        z = np.where(se > 0, (frequency - p) / se, 0.0)
    p_values = [
        float(stats.binomtest(int(k), n, float(q)).pvalue) if n and 0 < q < 1 else 1.0
        for k, q in zip(observed, p, strict=True)
    ]
    return pl.DataFrame(
        {
            **{k: rows[k] for k in ("special", "id", "measure")},
            "n": [n] * len(p),
            "observed": observed,
            "frequency": frequency,
            "p_exact": p,
            "se": se,
            "z": z,
            "p_value": p_values,
        },
        schema={
            "special": pl.String,
            "id": pl.String,
            "measure": pl.String,
            "n": pl.Int64,
            "observed": pl.Int64,
            "frequency": pl.Float64,
            "p_exact": pl.Float64,
            "se": pl.Float64,
            "z": pl.Float64,
            "p_value": pl.Float64,
        },
    )


def specials_table(variant: VariantLike = None) -> pl.DataFrame:
    """The exact special table of a variant (see :func:`exact_tables`)."""
    return specials_frame(special_counts(variant), HANDS_13)


def specials_frame(rows: list[tuple[SpecialRule, int, int]], total: int) -> pl.DataFrame:
    """Special counts ``(rule, qualifying, best)`` over ``total`` hands, as the table."""
    return pl.DataFrame(
        {
            "special": [r.name for r, _, _ in rows],
            "id": [r.id for r, _, _ in rows],
            "definition": [_definition(r) for r, _, _ in rows],
            "count": [c for _, c, _ in rows],
            "best_count": [b for _, _, b in rows],
            "probability": [c / total for _, c, _ in rows],
            "best_probability": [b / total for _, _, b in rows],
            "one_in": [total / c if c else float("inf") for _, c, _ in rows],
        },
        schema={
            "special": pl.String,
            "id": pl.String,
            "definition": pl.String,
            "count": pl.Int64,
            "best_count": pl.Int64,
            "probability": pl.Float64,
            "best_probability": pl.Float64,
            "one_in": pl.Float64,
        },
    )
