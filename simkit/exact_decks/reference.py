"""Dealing a pack at random and a slow reference of its specials, categories and
contents, for the Monte Carlo check of the exact counts."""

from __future__ import annotations

from itertools import combinations, combinations_with_replacement, product

import numpy as np

from simkit.cards import N_RANKS
from simkit.errors import SimkitError
from simkit.exact_decks.categories import (
    FIVE_SUIT_STRAIGHT,
    category_names,
)
from simkit.exact_decks.shapes import (
    HAND,
    MAX_REPRESENTED,
    DeckShape,
)
from simkit.exact_decks.vectors import (
    rank_bits,
    representatives,
)
from simkit.specials import (
    SPLIT_SIZES,
    detect_specials,
    straight_split_keys,
)
from simkit.variants import Specials
from simkit.variants.special_kinds import SpecialCode

# Dealing at random and a slow reference, for the Monte Carlo check of the counts


def sample_hands(shape: DeckShape, n: int, rng: np.random.Generator) -> np.ndarray:
    """``n`` uniform 13-card hands of physical cards, ``int16[n, 13]``: card ``p`` below
    ``13 * per_rank`` is rank ``p // per_rank``, suit ``p % n_suits``; the rest are jokers."""
    out = np.empty((n, HAND), dtype=np.int16)
    block = 50_000
    for start in range(0, n, block):
        m = min(block, n - start)
        keys = rng.random((m, shape.n_cards))
        out[start : start + m] = np.argpartition(keys, HAND, axis=1)[:, :HAND]
    return out


def engine_cards(hands: np.ndarray, shape: DeckShape) -> np.ndarray:
    """:func:`sample_hands` cards as the engine's card ints (:mod:`simkit.cards`): ``4 r + s``,
    ``52 + r`` for the fifth suit, 65 and 66 for the jokers; ``int8``, same shape."""
    n_natural = N_RANKS * shape.per_rank
    natural = hands < n_natural
    rank, suit = hands // shape.per_rank, hands % shape.n_suits
    cards = np.where(suit == 4, 52 + rank, 4 * rank + suit)
    return np.where(natural, cards, 65 + hands - n_natural).astype(np.int8)


def reference_covers(shape: DeckShape) -> bool:
    """Whether :func:`reference_masks` reads this deck's hands (a rank of at most 8 cards with
    its jokers, no fifth suit with jokers); other decks are checked on the detector."""
    return shape.per_rank + shape.jokers <= MAX_REPRESENTED and not (
        shape.n_suits == 5 and shape.jokers
    )


def reference_masks(hands: np.ndarray, specials: Specials, shape: DeckShape) -> np.ndarray:
    """Special masks of sampled hands (:func:`sample_hands`) by the definitions directly: a
    hand with jokers is tried with every value of its jokers on
    :func:`~simkit.specials.detect_specials` (four suits); five suits test their suit and
    card specials here, suit by suit (a joker may not make a third copy of a card here).
    """
    n_natural = N_RANKS * shape.per_rank
    natural = hands < n_natural
    ranks = np.where(natural, hands // shape.per_rank, -1)
    suits = np.where(natural, hands % shape.n_suits, -1)
    jokers = (~natural).sum(axis=1)
    out = np.zeros(len(hands), dtype=np.uint32)
    if shape.n_suits == 5:
        if shape.jokers:
            raise SimkitError("the reference does not deal a fifth suit with jokers")
        return _reference_five_suits(ranks.astype(np.int64), suits.astype(np.int64), specials)
    bits = rank_bits(specials)
    for j in range(shape.jokers + 1):
        rows = np.flatnonzero(jokers == j)
        if not len(rows):
            continue
        order = np.argsort(~natural[rows], axis=1, kind="stable")  # naturals first
        r = np.take_along_axis(ranks[rows], order, axis=1)[:, : HAND - j]
        su = np.take_along_axis(suits[rows], order, axis=1)[:, : HAND - j]
        cards = (4 * r + su).astype(np.int8)
        if j == 0:
            out[rows] = detect_specials(cards, specials)
            continue
        # Rank specials: every rank of the jokers, on the suits least held.
        rank_mask = np.zeros(len(rows), dtype=np.uint32)
        for wild in product(range(N_RANKS), repeat=j):
            extra = _least_held(cards, wild)
            rank_mask |= detect_specials(np.concatenate([cards, extra], axis=1), specials)
        rank_mask &= np.uint32(bits)
        # Suit and card specials: every card for the jokers, on the hands that may be one
        # colour or split into three one-suited duns.
        suit_n = np.stack([(su == x).sum(axis=1) for x in range(4)], axis=1)
        fits = np.zeros((len(rows), 4), dtype=bool)
        for size in (0, *SPLIT_SIZES):
            fits |= (suit_n <= size) & (size <= suit_n + j)
        colours = (suit_n[:, [1, 2]].sum(axis=1) == 0) | (suit_n[:, [0, 3]].sum(axis=1) == 0)
        candidates = np.flatnonzero(fits.all(axis=1) | colours)
        other = np.zeros(len(rows), dtype=np.uint32)
        for wild in combinations_with_replacement(range(52), j):
            extra = np.broadcast_to(np.array(wild, dtype=np.int8), (len(candidates), j))
            full = np.concatenate([cards[candidates], extra], axis=1)
            ok = (np.stack([(full == c).sum(axis=1) for c in set(wild)], axis=1) <= 2).all(1)
            if ok.any():
                other[candidates[ok]] |= detect_specials(full[ok], specials)
        out[rows] = rank_mask | (other & np.uint32(~bits & 0xFFFFFFFF))
    return out


def _least_held(cards: np.ndarray, wild: tuple[int, ...]) -> np.ndarray:
    """Cards of the given ranks for each hand, on suits the hand holds least (no third copy)."""
    held = np.zeros((len(cards), 52), dtype=np.int64)
    np.add.at(held, (np.arange(len(cards))[:, None], cards.astype(np.int64)), 1)
    extra = np.empty((len(cards), len(wild)), dtype=np.int8)
    for k, rank in enumerate(wild):
        block = held[:, 4 * rank : 4 * rank + 4]
        suit = block.argmin(axis=1)
        extra[:, k] = 4 * rank + suit
        held[np.arange(len(cards)), 4 * rank + suit] += 1
    return extra


def _reference_five_suits(ranks: np.ndarray, suits: np.ndarray, specials: Specials) -> np.ndarray:
    """Masks of five-suit hands without jokers: rank specials on a four-suit hand of the same
    ranks, the suit and card specials from each suit's cards."""
    n = len(ranks)
    vectors = np.zeros((n, N_RANKS), dtype=np.int8)
    np.add.at(vectors, (np.arange(n)[:, None], ranks), 1)
    hands = np.empty((n, HAND), dtype=np.int8)
    representatives(vectors, hands)
    out = detect_specials(hands, specials) & np.uint32(rank_bits(specials))
    suit_n = np.stack([(suits == x).sum(axis=1) for x in range(5)], axis=1)
    suit_keys = np.zeros((n, 5), dtype=np.int64)
    for x in range(5):
        suit_keys[:, x] = ((suits == x) * (np.int64(1) << (4 * ranks))).sum(axis=1)
    sizes = np.asarray(np.isin(suit_n, (0, *SPLIT_SIZES)).all(axis=1))
    for i, rule in enumerate(specials.rules):
        code = rule.kind.code
        ok: np.ndarray
        if code == SpecialCode.ONE_COLOR:
            ok = (suit_n[:, [1, 2, 4]].sum(axis=1) == 0) | (suit_n[:, [0, 3, 4]].sum(axis=1) == 0)
        elif code == SpecialCode.THREE_FLUSHES:
            ok = sizes
        elif code == SpecialCode.CLEAN_DRAGON:
            allowed = [3] if rule.option("suits") == "spades" else range(5)
            ok = np.zeros(n, dtype=bool)
            for x in allowed:
                ok |= suit_keys[:, x] == 0x1111111111111
        elif code == SpecialCode.THREE_STRAIGHT_FLUSHES:
            tables = straight_split_keys(rule.option("front_qka"), rule.option("front_a23"))
            ok = sizes.copy()
            for x in range(5):
                for size in SPLIT_SIZES:
                    here = suit_n[:, x] == size
                    ok[here] &= np.isin(suit_keys[here, x], tables[size])
        else:
            continue
        out |= ok.astype(np.uint32) << np.uint32(i)
    return out


def reference_categories(ranks: np.ndarray, suits: np.ndarray, five_suit: bool) -> np.ndarray:
    """Category of natural 5-card hands (``int[n, 5]`` ranks and suits) by the plain
    definitions, written apart from :mod:`simkit.evaluate`: its index counted from the weakest
    of :func:`category_names` (five of a kind played)."""
    names = category_names(five_suit)[::-1]
    strength = {name: i for i, name in enumerate(names)}
    counts = np.zeros((len(ranks), 13), dtype=np.int8)
    np.add.at(counts, (np.arange(len(ranks))[:, None], ranks), 1)
    counts.sort(axis=1)
    top, second = counts[:, -1], counts[:, -2]
    distinct = (counts > 0).sum(axis=1)
    flush = (suits == suits[:, :1]).all(axis=1)
    rainbow = np.stack([(suits == s).sum(axis=1) for s in range(5)], axis=1).max(axis=1) == 1
    lo, hi = ranks.min(axis=1), ranks.max(axis=1)
    wheel = np.isin(ranks, (12, 0, 1, 2, 3)).all(axis=1)
    straight = (distinct == 5) & ((hi - lo == 4) | wheel)
    out = np.full(len(ranks), strength["HIGH_CARD"])
    rules = [
        (top == 2, "PAIR"),
        ((top == 2) & (second == 2), "TWO_PAIR"),
        (top == 3, "TRIPS"),
        (straight, "STRAIGHT"),
        (straight & rainbow & five_suit, FIVE_SUIT_STRAIGHT),
        (flush, "FLUSH"),
        ((top == 3) & (second == 2), "FULL_HOUSE"),
        (top == 4, "QUADS"),
        (straight & flush, "STRAIGHT_FLUSH"),
        (top == 5, "FIVE_OF_A_KIND"),
    ]
    for held, name in rules:  # weakest first: a stronger category overwrites
        if name in strength:
            out = np.where(held & (top <= 5), np.maximum(out, strength[name]), out)
    return out


def reference_contains(hands: np.ndarray, shape: DeckShape) -> np.ndarray:
    """Which categories (columns as :func:`reference_categories`) some 5 of each sampled hand's
    13 cards make: ``bool[n, categories]``, every one of the 1,287 five-card subsets ranked
    (no jokers; 五彩同花顺 counted as a straight, as :func:`contains_counts` does)."""
    if shape.jokers:
        raise SimkitError("the contains reference deals no jokers")
    ranks, suits = hands // shape.per_rank, hands % shape.n_suits
    subsets = np.array(list(combinations(range(HAND), 5)))
    held = np.zeros((len(hands), len(category_names(False))), dtype=bool)
    block = 250
    for start in range(0, len(hands), block):
        r = ranks[start : start + block][:, subsets]
        s = suits[start : start + block][:, subsets]
        cats = reference_categories(r.reshape(-1, 5), s.reshape(-1, 5), False).reshape(len(r), -1)
        for c in range(held.shape[1]):
            held[start : start + block, c] = (cats == c).any(axis=1)
    return held
