"""Exact counts of the 5-card and 3-card dun categories of one deck."""

from __future__ import annotations

from functools import lru_cache
from math import comb

import numba as nb
import numpy as np
import polars as pl

from simkit.evaluate import Category, rank3, rank5
from simkit.exact.vectors import (
    HANDS_3,
    HANDS_5,
)
from simkit.variants import Ranking


@lru_cache(maxsize=2)
def all_combinations(k: int) -> np.ndarray:
    """Every k-card combination of one deck in lexicographic order, ``int8[C(52, k), k]``."""
    out = np.empty((comb(52, k), k), dtype=np.int8)
    _fill_combinations(out, 52)
    return out


@nb.njit(cache=True)
def _fill_combinations(out, n):
    k = out.shape[1]
    combo = np.arange(k)
    for row in range(out.shape[0]):
        out[row, :] = combo
        i = k - 1  # the rightmost position that can still move right
        while i >= 0 and combo[i] == n - k + i:
            i -= 1
        if i < 0:
            return
        combo[i] += 1
        for j in range(i + 1, k):
            combo[j] = combo[j - 1] + 1


def _category_table(ranks: np.ndarray, total: int) -> pl.DataFrame:
    counts = np.bincount(ranks >> 20, minlength=len(Category))
    cats = [c for c in reversed(Category) if counts[c] > 0]
    return pl.DataFrame(
        {
            "category": [c.name for c in cats],
            "count": [int(counts[c]) for c in cats],
            "probability": [int(counts[c]) / total for c in cats],
        },
        schema={"category": pl.String, "count": pl.Int64, "probability": pl.Float64},
    )


@lru_cache(maxsize=8)
def five_card_table(ranking: Ranking) -> pl.DataFrame:
    """Category counts over all C(52,5) 5-card hands, strongest first."""
    return _category_table(rank5(all_combinations(5), ranking), HANDS_5)


@lru_cache(maxsize=8)
def three_card_table(ranking: Ranking) -> pl.DataFrame:
    """Category counts over all C(52,3) 3-card fronts, strongest first."""
    return _category_table(rank3(all_combinations(3), ranking), HANDS_3)
