"""Suit-count distributions of any pack: the ways the physical cards of a rank-count
profile give each suit-count vector, and what the suits decide (凑一色, 三同花)."""

from __future__ import annotations

from functools import lru_cache
from itertools import product
from math import comb, prod

import numpy as np

from simkit.exact_decks.shapes import (
    HAND,
    SUIT_COLOURS,
    DeckShape,
)
from simkit.specials import (
    SPLIT_SIZES,
)
from simkit.variants.special_kinds import SpecialCode


def _rank_suit_moves(shape: DeckShape, k: int) -> list[tuple[tuple[int, ...], int]]:
    """How a rank's ``k`` cards may fall into the suits: (cards a suit, physical ways)."""
    out = []
    for e in product(range(shape.decks + 1), repeat=shape.n_suits):
        if sum(e) == k:
            out.append((e, prod(comb(shape.decks, x) for x in e)))
    return out


@lru_cache(maxsize=512)
def suit_count_distribution(shape: DeckShape, profile: tuple[int, ...]) -> np.ndarray:
    """Physical card choices of a rank-count profile by suit-count vector.

    ``profile[k - 1]`` ranks hold ``k`` cards; entry ``[a_0, .., a_{S-1}]`` of the
    ``int64[14] * n_suits`` array is the number of ways to choose those ranks' physical cards so
    that suit ``s`` holds ``a_s`` of them.
    """
    dims = (HAND + 1,) * shape.n_suits
    dist = np.zeros(dims, dtype=np.int64)
    dist[(0,) * shape.n_suits] = 1
    for k, n_ranks in enumerate(profile, start=1):
        moves = _rank_suit_moves(shape, k)
        for _ in range(n_ranks):
            new = np.zeros_like(dist)
            for e, ways in moves:
                dst = tuple(slice(x, None) for x in e)
                src = tuple(slice(0, HAND + 1 - x) for x in e)
                new[dst] += ways * dist[src]
            dist = new
    return dist


@lru_cache(maxsize=16)
def suit_outcomes(n_suits: int, jokers: int) -> tuple[np.ndarray, np.ndarray]:
    """For every suit-count vector of the natural cards (``bool[14] * n_suits``): can the hand
    be one colour, and can it split 3/5/5 into one-suited duns, once its jokers are placed."""
    grids = np.meshgrid(*[np.arange(HAND + 1)] * n_suits, indexing="ij")
    total = sum(grids)
    natural = total == HAND - jokers
    colours = {c for c in SUIT_COLOURS[:n_suits] if c is not None}
    one_colour = np.zeros_like(natural)
    for colour in colours:
        outside = sum(g for g, c in zip(grids, SUIT_COLOURS, strict=False) if c != colour)
        one_colour |= outside == 0
    sizes = np.array((0, *SPLIT_SIZES))
    flush_split = np.zeros_like(natural)
    for placed in product(range(jokers + 1), repeat=n_suits):
        if sum(placed) != jokers:
            continue
        fits = np.ones_like(natural)
        for g, x in zip(grids, placed, strict=True):
            fits &= np.isin(g + x, sizes)
        flush_split |= fits
    return one_colour & natural, flush_split & natural


SUIT_TESTS: tuple[SpecialCode, ...] = (SpecialCode.ONE_COLOR, SpecialCode.THREE_FLUSHES)


@lru_cache(maxsize=1024)
def suit_classes(shape: DeckShape, jokers: int, profile: tuple[int, ...]) -> dict[tuple, int]:
    """Physical choices of a profile by the outcome of each of :data:`SUIT_TESTS`."""
    dist = suit_count_distribution(shape, profile)
    tests = suit_outcomes(shape.n_suits, jokers)
    out = {}
    for outcome in product((False, True), repeat=len(tests)):
        selected = np.ones(dist.shape, dtype=bool)
        for test, passed in zip(tests, outcome, strict=True):
            selected &= test == passed
        ways = int(dist[selected].sum())
        if ways:
            out[outcome] = ways
    return out
