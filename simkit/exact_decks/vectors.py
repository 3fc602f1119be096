"""Rank-count vectors of any pack, a representative hand of each, and the rank-count
specials of their masks, jokers completed one at a time."""

from __future__ import annotations

from functools import lru_cache

import numba as nb
import numpy as np

from simkit.cards import N_RANKS
from simkit.exact_decks.shapes import (
    HAND,
    MAX_REPRESENTED,
    DeckShape,
)
from simkit.specials import (
    detect_specials,
    rank_count_masks,
)
from simkit.variants import Specials
from simkit.variants.special_kinds import ExactMethod


def count_vectors(total: int, cap: int, n_ranks: int = N_RANKS) -> int:
    """How many vectors of ``n_ranks`` counts, each 0..cap, sum to ``total``."""
    ways = [1] + [0] * total
    for _ in range(n_ranks):
        ways = [sum(ways[t - k] for k in range(min(cap, t) + 1)) for t in range(total + 1)]
    return ways[total]


@nb.njit(cache=True)
def _fill_vectors(total, cap, vectors):
    """Every vector of counts 0..cap summing to ``total`` (odometer order); returns how many."""
    n_ranks = vectors.shape[1]
    c = np.zeros(n_ranks, dtype=np.int64)
    n = 0
    s = 0
    while True:
        if s == total:
            for r in range(n_ranks):
                vectors[n, r] = c[r]
            n += 1
        r = 0
        while r < n_ranks and (c[r] == cap or s >= total):
            s -= c[r]
            c[r] = 0
            r += 1
        if r == n_ranks:
            return n
        c[r] += 1
        s += 1


@lru_cache(maxsize=64)
def rank_vectors(total: int, cap: int) -> np.ndarray:
    """Every rank-count vector of ``total`` cards with at most ``cap`` a rank, ``int8[n, 13]``,
    sorted by :func:`packed_keys`."""
    n = count_vectors(total, cap)
    out = np.empty((n, N_RANKS), dtype=np.int8)
    if _fill_vectors(total, cap, out) != n:
        raise AssertionError("rank-count vector enumeration miscounted")
    order = np.argsort(packed_keys(out), kind="stable")
    return out[order]


def packed_keys(vectors: np.ndarray) -> np.ndarray:
    """Rank-count vectors packed 4 bits a rank (the detector's key), ``int64[n]``."""
    out = np.empty(len(vectors), dtype=np.int64)
    _pack(np.ascontiguousarray(vectors, dtype=np.int8), out)
    return out


@nb.njit(cache=True)
def _pack(vectors, out):
    for n in range(vectors.shape[0]):
        key = np.int64(0)
        for r in range(vectors.shape[1]):
            key += np.int64(vectors[n, r]) << np.int64(4 * r)
        out[n] = key


@nb.njit(cache=True)
def representatives(vectors, out):
    """A hand with each vector's ranks: the ``i``-th card of rank ``r`` is ``4 r + i % 4``."""
    for n in range(vectors.shape[0]):
        j = 0
        for r in range(vectors.shape[1]):
            for i in range(vectors[n, r]):
                out[n, j] = 4 * r + (i & 3)
                j += 1


def rank_bits(specials: Specials) -> int:
    """The bit mask of the ``specials`` (by their index) that the rank-count vector decides
    (:attr:`~simkit.variants.special_kinds.ExactMethod.RANK_COUNTS`)."""
    return sum(
        1 << i
        for i, rule in enumerate(specials.rules)
        if rule.kind.exact == ExactMethod.RANK_COUNTS
    )


@lru_cache(maxsize=32)
def _completed_masks(specials: Specials, cap: int) -> np.ndarray:
    """Rank-count special masks of every 13-card vector with at most ``cap`` a rank, in the
    order of :func:`rank_vectors`."""
    vectors = rank_vectors(HAND, cap)
    bits = rank_bits(specials)
    if cap > MAX_REPRESENTED:
        # More cards a rank than a hand of two 52-card decks holds (two decks of five suits,
        # or two decks and jokers): the detector's tests read on the counts directly.
        return rank_count_masks(packed_keys(vectors), specials).astype(np.int64) & bits
    hands = np.empty((len(vectors), HAND), dtype=np.int8)
    representatives(vectors, hands)
    out = np.empty(len(vectors), dtype=np.int64)
    block = 1 << 20
    for start in range(0, len(vectors), block):
        masks = detect_specials(hands[start : start + block], specials)
        out[start : start + block] = masks.astype(np.int64) & bits
    return out


def natural_rank_masks(specials: Specials, shape: DeckShape, jokers: int) -> np.ndarray:
    """Rank-count special masks of the natural cards of hands with ``jokers`` jokers: one per
    vector of :func:`rank_vectors` ``(13 - jokers, shape.per_rank)``, the union over the ranks
    the jokers may take."""
    return _level_masks(specials, HAND - jokers, shape.per_rank)


@lru_cache(maxsize=32)
def _level_masks(specials: Specials, total: int, cap: int) -> np.ndarray:
    """Masks of the ``total``-card vectors (at most ``cap`` a rank) completed by ``13 - total``
    jokers: a union over the rank of one joker of the masks one card up (one more a rank
    allowed there, as a joker may repeat a card)."""
    if total == HAND:
        return _completed_masks(specials, cap)
    upper_keys = packed_keys(rank_vectors(total + 1, cap + 1))
    upper_masks = _level_masks(specials, total + 1, cap + 1)
    keys = packed_keys(rank_vectors(total, cap))
    out = np.zeros(len(keys), dtype=np.int64)
    for r in range(N_RANKS):
        target = keys + (np.int64(1) << np.int64(4 * r))
        pos = np.minimum(np.searchsorted(upper_keys, target), len(upper_keys) - 1)
        if not (upper_keys[pos] == target).all():
            raise AssertionError("a completed rank-count vector is missing")
        out |= upper_masks[pos]
    return out
