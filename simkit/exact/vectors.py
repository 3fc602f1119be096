"""One deck's rank-count vectors (the 3,598,180 ways 13 cards fall on 13 ranks), a
representative hand of each, and the suit-count distributions of their profiles."""

from __future__ import annotations

from functools import lru_cache
from itertools import combinations
from itertools import product as itertools_product
from math import comb

import numba as nb
import numpy as np

from simkit.specials import (
    SPLIT_SIZES,
)
from simkit.variants.special_kinds import SpecialCode

HANDS_13 = comb(52, 13)  # 635,013,559,600
HANDS_5 = comb(52, 5)  # 2,598,960
HANDS_3 = comb(52, 3)  # 22,100

#: The ``suit-counts`` kinds, in the order of :func:`_suit_vector_bits`' tests.
SUIT_TESTS: tuple[SpecialCode, ...] = (SpecialCode.ONE_COLOR, SpecialCode.THREE_FLUSHES)


# ---------------------------------------------------------------------------------------------
# Rank-count vectors and suit-count distributions


N_RANK_VECTORS = 3_598_180  # [x^13] (1 + x + x^2 + x^3 + x^4)^13


@nb.njit(cache=True)
def _enumerate_rank_vectors(vectors, hands, profiles):
    """Fill every rank-count vector (odometer order), a hand with those ranks and its profile."""
    c = np.zeros(13, dtype=np.int64)
    n = 0
    while True:
        total = 0
        for r in range(13):
            total += c[r]
        if total == 13:
            j = 0
            code = 0
            for r in range(13):
                vectors[n, r] = c[r]
                for s in range(c[r]):
                    hands[n, j] = 4 * r + s
                    j += 1
                if c[r] > 0:
                    code += 14 ** (c[r] - 1)
            profiles[n] = code
            n += 1
        # Next vector: increment the lowest rank that can take a card, reset those below it.
        r = 0
        while r < 13 and (c[r] == 4 or total >= 13):
            total -= c[r]
            c[r] = 0
            r += 1
        if r == 13:
            return n
        c[r] += 1


@lru_cache(maxsize=1)
def rank_vector_data() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Every rank-count vector of one deck, computed once: ``(vectors, hands, profiles)``,
    int8 ``(3598180, 13)`` card counts per rank, int8 ``(3598180, 13)`` a representative hand
    of each, int64 ``(3598180,)`` each vector's profile code.  Raises ``AssertionError`` if the
    enumeration finds another number of vectors."""
    vectors = np.empty((N_RANK_VECTORS, 13), dtype=np.int8)
    hands = np.empty((N_RANK_VECTORS, 13), dtype=np.int8)
    profiles = np.empty(N_RANK_VECTORS, dtype=np.int64)
    n = _enumerate_rank_vectors(vectors, hands, profiles)
    if n != N_RANK_VECTORS:
        raise AssertionError(f"enumerated {n} rank-count vectors, expected {N_RANK_VECTORS}")
    return vectors, hands, profiles


def rank_count_vectors() -> np.ndarray:
    """Every rank-count vector of a 13-card one-deck hand: ``int8[3_598_180, 13]``.

    Row ``i`` of :func:`representative_hands` holds these ranks, rank ``r`` with ``k`` cards
    taking suits 0..k-1.
    """
    return rank_vector_data()[0]


def representative_hands() -> np.ndarray:
    """One sorted hand per rank-count vector, in the order of :func:`rank_count_vectors`."""
    return rank_vector_data()[1]


@lru_cache(maxsize=1)
def profile_indices() -> tuple[np.ndarray, np.ndarray]:
    """The distinct profile codes, and each rank-count vector's index among them."""
    codes = rank_vector_data()[2]
    seen = np.zeros(14**4, dtype=bool)
    seen[codes] = True
    distinct = np.flatnonzero(seen)
    dense = np.cumsum(seen) - 1
    return distinct, dense[codes]


@lru_cache(maxsize=128)
def suit_classes(profile_code: int) -> dict[tuple[bool, ...], int]:
    """Suit assignments of a profile by the outcome of each of :data:`SUIT_TESTS`, zeros left
    out."""
    dist = suit_count_distribution(_decode_profile(profile_code))
    tests = _suit_vector_bits()
    out = {}
    for outcome in itertools_product((False, True), repeat=len(tests)):
        selected = np.ones(dist.shape, dtype=bool)
        for test, passed in zip(tests, outcome, strict=True):
            selected &= test == passed
        ways = int(dist[selected].sum())
        if ways:
            out[outcome] = ways
    return out


def _decode_profile(code: int) -> tuple[int, int, int, int]:
    n1, rest = code % 14, code // 14
    n2, rest = rest % 14, rest // 14
    n3, n4 = rest % 14, rest // 14
    return n1, n2, n3, n4


@lru_cache(maxsize=64)
def suit_count_distribution(profile: tuple[int, int, int, int]) -> np.ndarray:
    """Suit assignments of a rank-count profile by suit-count vector: ``int64[14, 14, 14, 14]``.

    ``profile`` is (ranks with 1, 2, 3, 4 cards); entry ``[a, b, c, d]`` is the number of ways
    to choose the suits of every rank's cards so that ♣ ♦ ♥ ♠ hold a, b, c, d cards.
    """
    dist = np.zeros((14, 14, 14, 14), dtype=np.int64)
    dist[0, 0, 0, 0] = 1
    for k, n_ranks in zip(range(1, 5), profile, strict=True):
        subsets = list(combinations(range(4), k))
        for _ in range(n_ranks):
            new = np.zeros_like(dist)
            for subset in subsets:
                e = [1 if s in subset else 0 for s in range(4)]
                new[e[0] :, e[1] :, e[2] :, e[3] :] += dist[
                    : 14 - e[0], : 14 - e[1], : 14 - e[2], : 14 - e[3]
                ]
            dist = new
    return dist


@lru_cache(maxsize=1)
def _suit_vector_bits() -> tuple[np.ndarray, np.ndarray]:
    """For every suit-count vector: is it one colour, and does it allow a 3/5/5 flush split."""
    a, b, c, d = np.meshgrid(*[np.arange(14)] * 4, indexing="ij")
    one_color = (a + d == 13) | (b + c == 13)  # ♣ ♠ black (suits 0, 3), ♦ ♥ red (1, 2)
    sizes = np.array((0, *SPLIT_SIZES))  # a suit's size in a 3/5/5 split into flushes
    three_flush = np.isin(a, sizes) & np.isin(b, sizes) & np.isin(c, sizes) & np.isin(d, sizes)
    total = a + b + c + d == 13
    return one_color & total, three_flush & total
