"""Dun classes: a dun rank coarsened to its category and top kicker digits.

The win tables (:mod:`simkit.arrange.wintables`) are indexed by class, not by rank, so that
each class is seen often enough in training.  A rank is ``category << CATEGORY_SHIFT |
kicker`` with the kicker five base-14 digits (:mod:`simkit.evaluate`).  Two resolutions:

* the **coarse** class (:func:`dun_class`, ``N_CLASSES`` = 1,960) keeps the category and the
  first two digits: the tables of ``max-ev``;
* the **fine** class (:func:`fine_classes`, 4,840 of them) keeps three digits (the code
  :func:`fine_code`), numbered in rank order over the codes that occur
  (:func:`fine_code_list`): every front (3 cards: 455 distinct ranks) is its own class, and
  so is every two pair, trips, full house, quads and straight; a high card, pair or flush
  keeps three of its ranks.  The tables of ``expected-score``.

The kernels read fine classes; every fine class lies in one coarse class
(:func:`coarse_of_fine`), so coarse tables are read through that map and play exactly as they
did on coarse classes.  4,840 classes (3,396 that ranks take) keep a solver's float32
quantities in L2, where the 27,440
codes would not.
"""

from __future__ import annotations

from functools import lru_cache

import numba as nb
import numpy as np
import numpy.typing as npt

from simkit.evaluate import CATEGORY_SHIFT, KICKER_BASE, KICKER_DIGITS, KICKER_MASK, Category

N_DUNS = 3
DIGIT = KICKER_BASE  # kicker digits are base 14 (simkit.evaluate)
CLASSES_PER_CATEGORY = DIGIT * DIGIT  # first kicker digit × second kicker digit
N_CLASSES = len(Category) * CLASSES_PER_CATEGORY  # category × first × second digit: 1,960
FIRST_PLACE = KICKER_BASE ** (KICKER_DIGITS - 1)  # place value of the first kicker digit
SECOND_PLACE = KICKER_BASE ** (KICKER_DIGITS - 2)  # and of the second
# The second digit of the second-highest wheel, between the K-high and the A-high straight.
SECOND_WHEEL_DIGIT = KICKER_BASE - 1

THIRD_PLACE = KICKER_BASE ** (KICKER_DIGITS - 3)  # and of the third
FINE_PER_CATEGORY = DIGIT**3  # first × second × third kicker digit
N_FINE_CODES = len(Category) * FINE_PER_CATEGORY  # 27,440 codes, of which ~3,400 occur

CLASS_BITS = 15  # fine dun classes (what the kernels read) are below 2**15
CLASS_MASK = (1 << CLASS_BITS) - 1


@nb.njit(cache=True, inline="always")
def dun_class(rank):
    """The class of a dun rank: category, first and second kicker digit (0..1959).

    Classes are ordered as ranks are.  The only rank whose kicker is not a left-aligned digit
    string, the second-highest wheel (``encode(STRAIGHT, (K,)) + 1``), gets second digit 13,
    between the K-high and the A-high straight.
    """
    category = rank >> CATEGORY_SHIFT
    kicker = rank & KICKER_MASK
    d1 = kicker // FIRST_PLACE
    rest = kicker - d1 * FIRST_PLACE
    d2 = rest // SECOND_PLACE
    if d2 == 0 and rest > 0:
        d2 = SECOND_WHEEL_DIGIT
    return category * CLASSES_PER_CATEGORY + d1 * DIGIT + d2


def dun_classes(ranks: npt.ArrayLike) -> np.ndarray:
    """:func:`dun_class` of every rank in an array, as ``int16``."""
    r = np.asarray(ranks, dtype=np.int64)
    category = r >> CATEGORY_SHIFT
    kicker = r & KICKER_MASK
    d1 = kicker // FIRST_PLACE
    rest = kicker - d1 * FIRST_PLACE
    d2 = rest // SECOND_PLACE
    d2 = np.where((d2 == 0) & (rest > 0), SECOND_WHEEL_DIGIT, d2)
    return (category * CLASSES_PER_CATEGORY + d1 * DIGIT + d2).astype(np.int16)


@nb.njit(cache=True, inline="always")
def fine_code(rank):
    """The fine code of a dun rank: category and first three kicker digits (0..27439).

    Codes are ordered as ranks are; ``fine_code(r) // DIGIT == dun_class(r)``.  The
    second-highest wheel (``encode(STRAIGHT, (K,)) + 1``) gets second digit 13, as in
    :func:`dun_class`.
    """
    category = rank >> CATEGORY_SHIFT
    kicker = rank & KICKER_MASK
    d1 = kicker // FIRST_PLACE
    rest = kicker - d1 * FIRST_PLACE
    d2 = rest // SECOND_PLACE
    if d2 == 0 and rest > 0:
        return category * FINE_PER_CATEGORY + (d1 * DIGIT + SECOND_WHEEL_DIGIT) * DIGIT
    d3 = (rest - d2 * SECOND_PLACE) // THIRD_PLACE
    return category * FINE_PER_CATEGORY + (d1 * DIGIT + d2) * DIGIT + d3


def fine_codes(ranks: npt.ArrayLike) -> np.ndarray:
    """:func:`fine_code` of every rank in an array, as ``int64``."""
    r = np.asarray(ranks, dtype=np.int64)
    category = r >> CATEGORY_SHIFT
    kicker = r & KICKER_MASK
    d1 = kicker // FIRST_PLACE
    rest = kicker - d1 * FIRST_PLACE
    d2 = rest // SECOND_PLACE
    d3 = (rest - d2 * SECOND_PLACE) // THIRD_PLACE
    wheel = (d2 == 0) & (rest > 0)
    d2 = np.where(wheel, SECOND_WHEEL_DIGIT, d2)
    d3 = np.where(wheel, 0, d3)
    return category * FINE_PER_CATEGORY + (d1 * DIGIT + d2) * DIGIT + d3


@lru_cache(maxsize=1)
def ranked_code_list() -> np.ndarray:
    """``int64 (3396,)``: the fine codes of every dun rank of the shipped variants' one- and
    two-deck rank tables, sorted (the classes of the first fine tables, which have 3,396
    columns)."""
    from simkit.evaluate import ranking_tables
    from simkit.variants import resolve_variant, variant_names

    codes = set()
    for ranking in {resolve_variant(name).ranking for name in variant_names()}:
        for table in ranking_tables(ranking):
            codes.update(fine_codes(table[table >= 0]).tolist())
    out = np.array(sorted(codes), dtype=np.int64)
    out.setflags(write=False)
    return out


@lru_cache(maxsize=1)
def fine_code_list() -> np.ndarray:
    """``int64 (N_FINE,)``: the fine codes listed, sorted: :func:`ranked_code_list` and the
    first code of every coarse class.  Fine class ``i`` is code ``fine_code_list()[i]``.

    A rank whose code is not listed (a two-deck flush with a repeated card, a hand with
    jokers) falls to the class of the largest listed code below it, which the prefixes keep
    in its own coarse class: coarse tables read through fine classes are exact for every rank.
    """
    codes = set(ranked_code_list().tolist())
    codes.update((np.arange(N_CLASSES, dtype=np.int64) * DIGIT).tolist())
    out = np.array(sorted(codes), dtype=np.int64)
    out.setflags(write=False)
    return out


def fine_of_ranked() -> np.ndarray:
    """``int64 (N_FINE,)``: for each fine class, the column of a table on
    :func:`ranked_code_list` that holds its figures (the largest ranked code at or below)."""
    ranked = ranked_code_list()
    return np.maximum(np.searchsorted(ranked, fine_code_list(), side="right") - 1, 0)


@lru_cache(maxsize=1)
def fine_class_of_code() -> np.ndarray:
    """``int16 (N_FINE_CODES,)``: the fine class of each code: that of the largest listed
    code at or below it (a ranking of one's own with codes of its own stays ordered)."""
    listed = fine_code_list()
    out = np.maximum(np.searchsorted(listed, np.arange(N_FINE_CODES), side="right") - 1, 0)
    out = out.astype(np.int16)
    out.setflags(write=False)
    return out


def fine_classes(ranks: npt.ArrayLike) -> np.ndarray:
    """The fine class (0..N_FINE - 1) of every rank in an array, as ``int16``: its category
    and first three kicker digits, numbered in rank order over the codes that occur."""
    return fine_class_of_code()[fine_codes(ranks)]


def n_fine_classes() -> int:
    """How many fine classes there are (:func:`fine_code_list`)."""
    return int(fine_code_list().shape[0])


def coarse_of_fine() -> np.ndarray:
    """``int64 (N_FINE,)``: the coarse class (:func:`dun_class`) of each fine class."""
    return fine_code_list() // DIGIT
