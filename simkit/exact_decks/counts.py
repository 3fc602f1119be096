"""Exact counts of the specials of any pack: the hands of each mask of specials."""

from __future__ import annotations

from functools import lru_cache
from math import comb

import numba as nb
import numpy as np

from simkit.cards import N_RANKS
from simkit.exact_decks.card_list import (
    CARD_COMPLETIONS,
    check_countable,
    completion_counts,
    natural_counts,
    unique_rows,
)
from simkit.exact_decks.shapes import (
    ALL_RANKS,
    HAND,
    ONE_DECK,
    DeckShape,
)
from simkit.exact_decks.suits import (
    SUIT_TESTS,
    suit_classes,
    suit_outcomes,
)
from simkit.exact_decks.vectors import (
    natural_rank_masks,
    packed_keys,
    rank_vectors,
)
from simkit.variants import SpecialRule, Specials
from simkit.variants.special_kinds import ExactMethod


def _profile_codes(vectors: np.ndarray, per_rank: int) -> np.ndarray:
    """Each vector's profile as one integer (base 14 digits: ranks holding 1, 2, ... cards)."""
    out = np.empty(len(vectors), dtype=np.int64)
    _profile_kernel(vectors, per_rank, out)
    return out


@nb.njit(cache=True)
def _profile_kernel(vectors, per_rank, out):
    weights = np.zeros(per_rank + 1, dtype=np.int64)
    for k in range(1, per_rank + 1):
        weights[k] = 14 ** (k - 1)
    for n in range(vectors.shape[0]):
        code = np.int64(0)
        for r in range(vectors.shape[1]):
            code += weights[vectors[n, r]]
        out[n] = code


def _decode(code: int, per_rank: int) -> tuple[int, ...]:
    out = []
    for _ in range(per_rank):
        code, digit = divmod(code, 14)
        out.append(digit)
    return tuple(out)


def total_hands(shape: DeckShape, k: int = HAND) -> int:
    """C(n_cards, k): the number of ``k``-card hands of the pack ``shape``."""
    return comb(shape.n_cards, k)


@lru_cache(maxsize=32)
def mask_counts(
    specials: Specials, shape: DeckShape = ONE_DECK, ranks: tuple[int, ...] = ALL_RANKS
) -> dict[int, int]:
    """Number of 13-card hands of ``shape`` with each exact special mask (bits in variant
    order); the values sum to C(n_cards, 13).

    ``ranks``: count only the hands whose natural cards are of these ranks (all 13; fewer make
    the small decks the tests list in full; a joker still stands for any card).
    """
    allowed = np.zeros(N_RANKS, dtype=bool)
    allowed[list(ranks)] = True
    kinds = [rule.kind for rule in specials.rules]
    for kind in kinds:
        check_countable(kind)
    suit_bits = [
        sum(
            1 << i
            for i, k in enumerate(kinds)
            if k.exact == ExactMethod.SUIT_COUNTS and k.code == t
        )
        for t in SUIT_TESTS
    ]
    counts: dict[int, int] = {}
    # Natural rank masks, looked up again for the card-listed hands below.
    lookups: dict[int, tuple[np.ndarray, np.ndarray]] = {}
    for j in range(shape.jokers + 1):
        joker_ways = comb(shape.jokers, j)
        vectors = rank_vectors(HAND - j, shape.per_rank)
        masks = natural_rank_masks(specials, shape, j)
        lookups[j] = (packed_keys(vectors), masks)
        if not allowed.all():
            inside = (vectors[:, ~allowed] == 0).all(axis=1)
            vectors, masks = vectors[inside], masks[inside]
        codes = _profile_codes(vectors, shape.per_rank)
        # Count the vectors by (rank mask, profile); each stands for its profile's cards.
        profiles, index = np.unique(codes, return_inverse=True)
        keys, n_vectors = np.unique(masks * len(profiles) + index, return_counts=True)
        for key, n in zip(keys.tolist(), n_vectors.tolist(), strict=True):
            rank_mask, p = divmod(key, len(profiles))
            profile = _decode(int(profiles[p]), shape.per_rank)
            for outcome, ways in suit_classes(shape, j, profile).items():
                m = rank_mask
                for bits, passed in zip(suit_bits, outcome, strict=True):
                    m |= bits if passed else 0
                counts[m] = counts.get(m, 0) + n * ways * joker_ways
    # Move the card-listed hands' natural card sets to their full masks.
    for j in range(shape.jokers + 1):
        moves = _listed_moves(specials, shape, j, lookups[j], suit_bits, allowed)
        for reduced, full, ways in moves:
            counts[reduced] -= ways
            counts[full] = counts.get(full, 0) + ways
    n_cards = len(ranks) * shape.per_rank + shape.jokers
    if sum(counts.values()) != comb(n_cards, HAND):
        raise AssertionError(f"special mask counts do not sum to C({n_cards}, 13)")
    return {m: n for m, n in counts.items() if n}


def _listed_moves(
    specials: Specials,
    shape: DeckShape,
    jokers: int,
    lookup: tuple[np.ndarray, np.ndarray],
    suit_bits: list[int],
    allowed: np.ndarray,
) -> list[tuple[int, int, int]]:
    """``(reduced mask, full mask, hands)`` of the natural card sets with ``jokers`` jokers
    that some card-listed special accepts: reduced is the mask steps 1-2 gave them."""
    parts, bits = [], []
    for i, rule in enumerate(specials.rules):
        if rule.kind.exact != ExactMethod.CARD_LIST:
            continue
        completed = completion_counts(shape, list(CARD_COMPLETIONS[rule.kind.code](shape, rule)))
        naturals = natural_counts(completed, jokers, shape.decks)
        outside = np.repeat(~allowed, shape.n_suits)  # card types rank-major
        naturals = naturals[(naturals[:, outside] == 0).all(axis=1)]
        parts.append(naturals)
        bits.append(np.full(len(naturals), 1 << i, dtype=np.int64))
    if not parts:
        return []
    rows, inverse = unique_rows(np.concatenate(parts))
    listed_bits = np.zeros(len(rows), dtype=np.int64)
    np.bitwise_or.at(listed_bits, inverse, np.concatenate(bits))
    grid = rows.reshape(len(rows), N_RANKS, shape.n_suits).astype(np.int64)
    keys, masks = lookup
    key = packed_keys(grid.sum(axis=2))
    pos = np.minimum(np.searchsorted(keys, key), len(keys) - 1)
    if not (keys[pos] == key).all():
        raise AssertionError("a listed hand's rank vector is missing")
    reduced = masks[pos].copy()
    suit_counts = tuple(grid.sum(axis=1).T)
    for test_bits, test in zip(suit_bits, suit_outcomes(shape.n_suits, jokers), strict=True):
        reduced |= np.where(test[suit_counts], test_bits, 0)
    choose = np.array([comb(shape.decks, k) for k in range(shape.decks + 1)], dtype=np.int64)
    ways = choose[rows].prod(axis=1) * comb(shape.jokers, jokers)
    full = reduced | listed_bits
    return list(zip(reduced.tolist(), full.tolist(), ways.tolist(), strict=True))


def special_counts(
    specials: Specials, shape: DeckShape = ONE_DECK
) -> list[tuple[SpecialRule, int, int]]:
    """``(rule, count, best_count)`` for each special, best first, over the deck's hands."""
    counts = mask_counts(specials, shape)
    out = []
    for i, rule in enumerate(specials.rules):
        bit = 1 << i
        any_count = sum(n for m, n in counts.items() if m & bit)
        best = sum(n for m, n in counts.items() if m & bit and not m & (bit - 1))
        out.append((rule, any_count, best))
    return out
