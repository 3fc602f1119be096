"""Dun classes: a dun rank coarsened to its category and top two kicker digits.

The win tables (:mod:`simkit.arrange.wintables`) are indexed by class, not by rank: about
1,960 classes per dun instead of a million ranks, each seen often enough in training.  A rank
is ``category << CATEGORY_SHIFT | kicker`` with the kicker five base-14 digits
(:mod:`simkit.evaluate`); a class keeps the category and the first two digits.
"""

from __future__ import annotations

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

CLASS_BITS = 11  # dun classes are below 2**11 (N_CLASSES = 1,960)
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
