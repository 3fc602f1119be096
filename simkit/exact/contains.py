"""What 13 cards of one deck contain: the exact number of hands holding a 5-card hand of
each category."""

from __future__ import annotations

from functools import lru_cache

import numba as nb
import numpy as np
import polars as pl

from simkit.cards import N_RANKS
from simkit.evaluate import Category
from simkit.exact.vectors import (
    HANDS_13,
    rank_count_vectors,
)
from simkit.specials import (
    five_straights,
)

WINDOW_MASKS = tuple(sum(1 << r for r in w) for w in five_straights())  # 5-card straights


def _suit_mask_poly(excluded: list[bool]) -> list[int]:
    """Coefficients of sum over one-suit rank masks not ``excluded`` of x^popcount."""
    poly = [0] * 14
    for m in range(1 << N_RANKS):
        if not excluded[m]:
            poly[m.bit_count()] += 1
    return poly


def _hands_with_no_suit_pattern(excluded: list[bool]) -> int:
    """13-card hands in which no suit's rank mask is ``excluded``: [x^13] (poly)^4.

    The four suits' rank masks of a one-deck hand are independent subsets of the 13 ranks.
    """
    poly = _suit_mask_poly(excluded)
    total = [1] + [0] * 13
    for _ in range(4):
        total = [sum(total[i] * poly[n - i] for i in range(n + 1)) for n in range(14)]
    return total[13]


def has_straight_window(mask: int) -> bool:
    """Whether a set of ranks (bit mask) holds a 5-card straight."""
    return any(mask & w == w for w in WINDOW_MASKS)


def has_plain_flush(mask: int) -> bool:
    """Whether one suit's ranks hold five that are not a straight (a flush, not a SF).

    Five ranks are a flush unless they are a straight; from six or more ranks, dropping the
    second-lowest leaves five with a gap, never a straight (nor the wheel, whose second-lowest
    rank is adjacent to its lowest).
    """
    n = mask.bit_count()
    return n >= 6 or (n == 5 and not has_straight_window(mask))


@lru_cache(maxsize=1)
def contains_counts() -> dict[Category, int]:
    """Number of 13-card hands holding at least one 5-card hand of each category (exactly it).

    Pair, two pair, trips, full house and quads follow from the rank counts (13 cards always
    leave enough other ranks to fill the five).  Flush and straight flush are properties of each
    suit's rank mask, counted by a generating function over the four independent suit masks.
    A plain straight (not a straight flush) exists unless every straight window the ranks cover
    holds one card a rank, all of one suit; overlapping windows share cards, so each connected
    run of covered windows must be one suit.
    """
    weights, n_ge2, n_ge3, n_4, present, singles = _vector_features(rank_count_vectors())
    out: dict[Category, int] = {
        Category.PAIR: int(weights[n_ge2 >= 1].sum()),
        Category.TWO_PAIR: int(weights[n_ge2 >= 2].sum()),
        Category.TRIPS: int(weights[n_ge3 >= 1].sum()),
        Category.FULL_HOUSE: int(weights[(n_ge3 >= 1) & (n_ge2 >= 2)].sum()),
        Category.QUADS: int(weights[n_4 >= 1].sum()),
    }
    windows = five_straights()
    covered = np.stack([(present & w) == w for w in WINDOW_MASKS], axis=1)
    single = np.stack([(singles & w) == w for w in WINDOW_MASKS], axis=1)
    always = (covered & ~single).any(axis=1)
    maybe = covered.any(axis=1) & ~always
    straight = int(weights[always].sum())
    patterns = covered[maybe] @ (1 << np.arange(len(windows)))
    for pattern, weight_sum in _sum_by(patterns, weights[maybe]).items():
        components, union_size = _window_components(pattern, windows)
        # Of the 4^|U| suit choices of the union's single cards, 4^components are monochrome.
        straight += weight_sum - weight_sum * 4**components // 4**union_size
    out[Category.STRAIGHT] = straight
    no_sf = _hands_with_no_suit_pattern([has_straight_window(m) for m in range(1 << N_RANKS)])
    no_flush = _hands_with_no_suit_pattern([has_plain_flush(m) for m in range(1 << N_RANKS)])
    out[Category.STRAIGHT_FLUSH] = HANDS_13 - no_sf
    out[Category.FLUSH] = HANDS_13 - no_flush
    return out


@nb.njit(cache=True)
def _vector_features(vectors):
    """Per rank-count vector: hands (prod C(4, c_r)), ranks holding >= 2, >= 3 and 4 cards,
    and the bit masks of the ranks held and of the ranks held once."""
    n = vectors.shape[0]
    choose4 = np.array([1, 4, 6, 4, 1], dtype=np.int64)
    weights = np.empty(n, dtype=np.int64)
    n_ge2 = np.empty(n, dtype=np.int64)
    n_ge3 = np.empty(n, dtype=np.int64)
    n_4 = np.empty(n, dtype=np.int64)
    present = np.empty(n, dtype=np.int64)
    singles = np.empty(n, dtype=np.int64)
    for i in range(n):
        w, a, b, c, p, s = 1, 0, 0, 0, 0, 0
        for r in range(13):
            k = vectors[i, r]
            w *= choose4[k]
            a += k >= 2
            b += k >= 3
            c += k == 4
            if k >= 1:
                p |= 1 << r
            if k == 1:
                s |= 1 << r
        weights[i], n_ge2[i], n_ge3[i], n_4[i], present[i], singles[i] = w, a, b, c, p, s
    return weights, n_ge2, n_ge3, n_4, present, singles


def _sum_by(keys: np.ndarray, values: np.ndarray) -> dict[int, int]:
    uniq, inverse = np.unique(keys, return_inverse=True)
    sums = np.zeros(uniq.size, dtype=object)
    np.add.at(sums, inverse, values.astype(object))
    return {int(k): int(s) for k, s in zip(uniq.tolist(), sums.tolist(), strict=True)}


def _window_components(pattern: int, windows: list[tuple[int, ...]]) -> tuple[int, int]:
    """Connected components (windows sharing a rank) of the covered windows, and |union|."""
    chosen = [set(w) for i, w in enumerate(windows) if pattern >> i & 1]
    parent = list(range(len(chosen)))

    def find(i: int) -> int:
        while parent[i] != i:
            i = parent[i]
        return i

    for i in range(len(chosen)):
        for j in range(i):
            if chosen[i] & chosen[j]:
                parent[find(i)] = find(j)
    components = len({find(i) for i in range(len(chosen))})
    return components, len(set().union(*chosen))


def contains_table() -> pl.DataFrame:
    """P(13 random cards hold a 5-card hand of each category), strongest first, exact."""
    counts = contains_counts()
    cats = sorted(counts, reverse=True)
    return pl.DataFrame(
        {
            "category": [c.name for c in cats],
            "count": [counts[c] for c in cats],
            "probability": [counts[c] / HANDS_13 for c in cats],
        },
        schema={"category": pl.String, "count": pl.Int64, "probability": pl.Float64},
    )
