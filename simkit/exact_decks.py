"""Exact counts for every deck: two decks, a fifth suit, jokers, by combinatorics, never by
sampling.

:mod:`simkit.exact` counts one 52-card deck; this module counts the 13-card hands, the 5- and
3-card duns and what 13 cards contain over the physical cards of any :class:`DeckShape`: ``decks``
copies (1 or 2) of a deck of ``n_suits`` suits (4, or 5 with the added suit) of 13 ranks, and
``jokers`` wild cards (0 to 2).  Two copies of a card are different physical cards, so a hand
is one of C(n_cards, 13) equally likely sets.

Readings taken (the engine that ranks and deals these decks states them in its variant files):

- A joker stands for any card, rank and suit, even one the hand already holds (five of a kind
  with one deck and a joker needs a fifth card of a rank, 000: "王能够带任意牌").  A hand
  qualifies for a special when some value of its jokers makes it qualify, each special on its
  own; a dun's category is the best one over the values of its jokers.  These counts are of
  hands and duns on their own, so they do not depend on the holder naming a joker with the
  setting to keep it legal (:func:`simkit.evaluate.name_duns`), which changes only the duns of
  a set hand whose strongest values break the foul order.
- The fifth suit belongs to neither colour: 凑一色 (all red or all black) is never made with a
  card of it.
- 五彩同花顺 (optional) is a straight whose five cards are of five different suits; it ranks
  above the plain straight.  Where it ranks among the stronger categories changes no count
  here: no set of cards, jokers included, can make it and anything stronger than a straight.

How the special counts are exact (the method of :mod:`simkit.exact`, one step wider):

1. The hand's natural (non-joker) cards have a rank-count vector ``c`` (each ``c[r]`` at most
   ``decks * n_suits``, summing to ``13 - j`` with ``j`` jokers).  The rank-count specials of a
   hand with jokers are the union over the ranks the jokers may take of the specials of the
   completed vector: adding one joker at a time, the masks of the 12-card vectors are unions of
   masks of 13-card vectors, and so on.  13-card vectors are classified once by
   :func:`~simkit.specials.detect_specials` on a representative hand (a rank of ``k`` cards
   takes suits 0, 1, 2, 3, 0, 1, ... ; ranks only are read); where a rank may hold more than
   eight cards (two decks with jokers, two decks of five suits: up to twelve), which no hand
   of 52-card types holds, by the same tests read on the counts
   (:func:`~simkit.specials.rank_count_masks`, equal to the detector on every vector of at
   most eight a rank: tested).
2. The suits decide 凑一色 and 三同花 through the suit-count vector of the natural cards (the
   jokers join whichever suit helps).  The number of ways to choose the physical cards of a
   rank-count vector that give each suit-count vector depends only on the vector's profile
   (how many ranks hold 1, 2, ... cards): a dynamic programme per profile adds one rank at a
   time, choosing how many of its cards each suit holds (``prod C(decks, e_s)`` ways).
3. 至尊清龙 and 三同花顺 depend on the exact cards.  Every completed hand of them is listed
   (card multiplicities up to 3: a joker may repeat a card), each is reduced to the natural
   card sets it can come from (remove ``j`` cards, at most ``decks`` copies of a card left), and
   those are moved from the mask steps 1-2 gave them to their full mask.

The mask counts sum to C(n_cards, 13) (checked).

Covered: the specials, the 5- and 3-card categories and what 13 cards contain, for every pack
``[deck]`` accepts (one or two decks, with or without the fifth suit, with 0, 1 or 2 jokers).
What 13 cards contain counts 五彩同花顺 as a straight (:func:`contains_counts`,
:func:`contains_with_jokers`).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations, combinations_with_replacement, product
from math import comb, factorial, prod
from typing import Any

import numba as nb
import numpy as np

from simkit.cards import N_RANKS
from simkit.errors import SimkitError
from simkit.evaluate import Category, rank3_reference, rank5_reference
from simkit.specials import (
    SPLIT_SIZES,
    detect_specials,
    five_straights,
    front_straights,
    rank_count_masks,
    straight_split_keys,
)
from simkit.variants import Ranking, SpecialRule, Specials
from simkit.variants.special_kinds import ExactMethod, SpecialCode, SpecialKind

HAND = 13
ALL_RANKS = tuple(range(N_RANKS))
#: The most cards of one rank a representative hand can hold (4 suits, each card twice): the
#: detector reads at most two copies of a card.  Vectors with more a rank (two decks of five
#: suits, two decks and jokers: up to 12) are classified on their counts
#: (:func:`~simkit.specials.rank_count_masks`).
MAX_REPRESENTED = 8
#: Colour of each suit for 凑一色: ♣ ♠ black, ♦ ♥ red, the fifth suit neither (a reading).
SUIT_COLOURS = ("black", "red", "red", "black", None)


@dataclass(frozen=True, kw_only=True)
class DeckShape:
    """What the exact counts need to know of a deck: ``decks`` copies (1 or 2) of a deck of
    ``n_suits`` suits (4, or 5 with the added suit) of 13 ranks, and ``jokers`` wild cards."""

    decks: int = 1
    n_suits: int = 4
    jokers: int = 0

    def __post_init__(self) -> None:
        if self.decks not in (1, 2):
            raise SimkitError(f"decks must be 1 or 2, got {self.decks!r}")
        if self.n_suits not in (4, 5):
            raise SimkitError(f"n_suits must be 4 or 5, got {self.n_suits!r}")
        if self.jokers not in (0, 1, 2):
            raise SimkitError(f"jokers must be 0, 1 or 2, got {self.jokers!r}")

    @property
    def per_rank(self) -> int:
        """Physical cards of one rank."""
        return self.decks * self.n_suits

    @property
    def n_cards(self) -> int:
        return N_RANKS * self.per_rank + self.jokers

    @property
    def key(self) -> str:
        """A short name for files: ``1d``, ``2d``, ``1d-5s``, ``1d-1j``, ``2d-2j`` ..."""
        parts = [f"{self.decks}d"]
        if self.n_suits == 5:
            parts.append("5s")
        if self.jokers:
            parts.append(f"{self.jokers}j")
        return "-".join(parts)

    @property
    def label(self) -> str:
        text = "one deck" if self.decks == 1 else "two decks"
        if self.n_suits == 5:
            text += " + a fifth suit"
        if self.jokers:
            text += f" + {self.jokers} joker" + ("s" if self.jokers > 1 else "")
        return text

    @classmethod
    def parse(cls, key: str) -> DeckShape:
        """The shape a :attr:`key` names: ``1d``, ``2d``, ``1d-5s``, ``1d-2j``, ``2d-5s-1j`` ..."""
        parts = key.strip().lower().split("-")
        values = {"decks": 1, "n_suits": 4, "jokers": 0}
        fields = {"d": "decks", "s": "n_suits", "j": "jokers"}
        for part in parts:
            if len(part) != 2 or not part[0].isdigit() or part[1] not in fields:
                raise SimkitError(
                    f"deck {key!r}: expected parts like 1d or 2d, 5s, 1j or 2j joined by '-'"
                )
            values[fields[part[1]]] = int(part[0])
        return cls(**values)

    @classmethod
    def of(cls, deck: Any) -> DeckShape:
        """The shape of a deck object (``decks``, ``n_suits`` or ``extra_suit``, ``jokers``);
        ``None`` is one plain deck."""
        if deck is None:
            return cls()
        if isinstance(deck, DeckShape):
            return deck
        n_suits = getattr(deck, "n_suits", None)
        if n_suits is None:
            n_suits = 5 if getattr(deck, "extra_suit", False) else 4
        return cls(
            decks=int(getattr(deck, "decks", 1)),
            n_suits=int(n_suits),
            jokers=int(getattr(deck, "jokers", 0)),
        )


ONE_DECK = DeckShape()

#: Every pack ``[deck]`` accepts, by :attr:`DeckShape.key`, the packs counted first (one deck, two
#: decks, the fifth suit, jokers) before their combinations: the experiments number the packs
#: in this order.
DECK_SHAPES: dict[str, DeckShape] = {
    shape.key: shape
    for shape in (
        ONE_DECK,
        DeckShape(decks=2),
        DeckShape(n_suits=5),
        DeckShape(jokers=1),
        DeckShape(jokers=2),
        DeckShape(n_suits=5, jokers=1),
        DeckShape(n_suits=5, jokers=2),
        DeckShape(decks=2, jokers=1),
        DeckShape(decks=2, jokers=2),
        DeckShape(decks=2, n_suits=5),
        DeckShape(decks=2, n_suits=5, jokers=1),
        DeckShape(decks=2, n_suits=5, jokers=2),
    )
}


def deck_of(variant: Any) -> DeckShape:
    """The deck a variant plays (its ``deck`` attribute), one plain deck if it names none."""
    return DeckShape.of(getattr(variant, "deck", None))


# ---------------------------------------------------------------------------------------------
# Rank-count vectors


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
def _representatives(vectors, out):
    """A hand with each vector's ranks: the ``i``-th card of rank ``r`` is ``4 r + i % 4``."""
    for n in range(vectors.shape[0]):
        j = 0
        for r in range(vectors.shape[1]):
            for i in range(vectors[n, r]):
                out[n, j] = 4 * r + (i & 3)
                j += 1


def _rank_bits(specials: Specials) -> int:
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
    bits = _rank_bits(specials)
    if cap > MAX_REPRESENTED:
        # More cards a rank than a hand of two 52-card decks holds (two decks of five suits,
        # or two decks and jokers): the detector's tests read on the counts directly.
        return rank_count_masks(packed_keys(vectors), specials).astype(np.int64) & bits
    hands = np.empty((len(vectors), HAND), dtype=np.int8)
    _representatives(vectors, hands)
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


# ---------------------------------------------------------------------------------------------
# Suit-count distributions


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
def _suit_classes(shape: DeckShape, jokers: int, profile: tuple[int, ...]) -> dict[tuple, int]:
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


# ---------------------------------------------------------------------------------------------
# Card-exact specials


def _card(shape: DeckShape, rank: int, suit: int) -> int:
    """A card type (rank, suit) as an int, rank-major; a hand is a multiset of them."""
    return shape.n_suits * rank + suit


def clean_dragon_completions(shape: DeckShape, rule: SpecialRule) -> Iterator[tuple[int, ...]]:
    """Every completed hand (sorted card types) of A-K in one suit the rule accepts."""
    suits = [3] if rule.option("suits") == "spades" else range(shape.n_suits)
    for s in suits:
        yield tuple(_card(shape, r, s) for r in range(N_RANKS))


def straight_flush_completions(shape: DeckShape, rule: SpecialRule) -> Iterator[tuple[int, ...]]:
    """Every completed hand (sorted card types, a card up to three times) of a front and two
    5-card straight flushes."""
    fronts = [
        tuple(_card(shape, r, s) for r in ranks)
        for ranks in front_straights(rule.option("front_qka"), rule.option("front_a23"))
        for s in range(shape.n_suits)
    ]
    fives = [
        tuple(_card(shape, r, s) for r in ranks)
        for ranks in five_straights()
        for s in range(shape.n_suits)
    ]
    seen: set[tuple[int, ...]] = set()
    for f in fronts:
        for a, b in combinations_with_replacement(fives, 2):
            hand = tuple(sorted(f + a + b))
            if hand not in seen:
                seen.add(hand)
                yield hand


CARD_COMPLETIONS = {
    SpecialCode.CLEAN_DRAGON: clean_dragon_completions,
    SpecialCode.THREE_STRAIGHT_FLUSHES: straight_flush_completions,
}


def _unique_rows(rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Distinct rows of small card counts (0..3) and each row's index among them: the rows
    are packed 2 bits a card type into int64 words and sorted on those (faster than
    ``np.unique(axis=0)``)."""
    n, width = rows.shape
    words = []
    for start in range(0, width, 31):
        block = rows[:, start : start + 31].astype(np.int64)
        shifts = 2 * np.arange(block.shape[1], dtype=np.int64)
        words.append((block << shifts).sum(axis=1))
    order = np.lexsort(words[::-1])
    packed = np.stack(words, axis=1)[order]
    new = np.ones(n, dtype=bool)
    new[1:] = (packed[1:] != packed[:-1]).any(axis=1)
    inverse = np.empty(n, dtype=np.int64)
    inverse[order] = np.cumsum(new) - 1
    return rows[order[new]], inverse


def _completion_counts(shape: DeckShape, hands: list[tuple[int, ...]]) -> np.ndarray:
    """Completed hands as card-type counts ``int8[n, 13 * n_suits]``, duplicates dropped."""
    out = np.zeros((len(hands), N_RANKS * shape.n_suits), dtype=np.int8)
    for i, hand in enumerate(hands):
        for c in hand:
            out[i, c] += 1
    return _unique_rows(out)[0] if len(out) else out


def natural_counts(completed: np.ndarray, jokers: int, decks: int) -> np.ndarray:
    """The natural card sets completed hands may come from, as card-type counts: ``jokers``
    cards removed, at most ``decks`` copies of a card left; duplicates dropped."""
    found = [np.zeros((0, completed.shape[1]), dtype=np.int8)]
    _remove_cards(completed, jokers, decks, 0, found)
    rows = np.concatenate(found)
    return _unique_rows(rows)[0] if len(rows) else rows


def _remove_cards(rows: np.ndarray, left: int, decks: int, start: int, found: list) -> None:
    """Append to ``found`` the rows with ``left`` more cards removed (types ``start`` on, in
    order, so each removal is made once), pruning rows whose excess copies exceed ``left``."""
    excess = np.maximum(rows.astype(np.int64) - decks, 0).sum(axis=1)
    rows = rows[excess <= left]
    if left == 0:
        found.append(rows)
        return
    for t in range(start, rows.shape[1]):
        sub = rows[rows[:, t] >= 1].copy()
        if len(sub):
            sub[:, t] -= 1
            _remove_cards(sub, left - 1, decks, t, found)


def check_countable(kind: SpecialKind) -> None:
    """Raise unless this module can count the hands of ``kind`` for every deck."""
    if kind.exact == ExactMethod.RANK_COUNTS:
        return
    if kind.exact == ExactMethod.SUIT_COUNTS and kind.code in SUIT_TESTS:
        return
    if kind.exact == ExactMethod.CARD_LIST and kind.code in CARD_COMPLETIONS:
        return
    raise SimkitError(
        f"special {kind.id!r} ({kind.code.name}): simkit.exact_decks has no "
        f"{kind.exact.value!r} counter for it"
    )


# ---------------------------------------------------------------------------------------------
# Special counts


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
            for outcome, ways in _suit_classes(shape, j, profile).items():
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
        completed = _completion_counts(shape, list(CARD_COMPLETIONS[rule.kind.code](shape, rule)))
        naturals = natural_counts(completed, jokers, shape.decks)
        outside = np.repeat(~allowed, shape.n_suits)  # card types rank-major
        naturals = naturals[(naturals[:, outside] == 0).all(axis=1)]
        parts.append(naturals)
        bits.append(np.full(len(naturals), 1 << i, dtype=np.int64))
    if not parts:
        return []
    rows, inverse = _unique_rows(np.concatenate(parts))
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


# ---------------------------------------------------------------------------------------------
# Dun categories


#: The 5-card categories this module counts, strongest first (五彩同花顺 where it is played).
FIVE_SUIT_STRAIGHT = "FIVE_SUIT_STRAIGHT"


def category_names(five_suit_straight: bool) -> list[str]:
    """Category names strongest first; 五彩同花顺 just above the straight when played."""
    names = [c.name for c in reversed(Category)]
    if five_suit_straight:
        names.insert(names.index(Category.STRAIGHT.name), FIVE_SUIT_STRAIGHT)
    return names


def _category(
    ranks: tuple[int, ...], suited: bool, rainbow: bool, ranking: Ranking, five_suit_straight: bool
) -> tuple[int, str]:
    """(strength, name) of five natural cards: the ranking's category, 五彩同花顺 for a straight
    of five suits when it is played.  Strength orders the names of :func:`category_names`."""
    category = Category(rank5_reference(ranks, suited, ranking) >> 20)
    if category == Category.STRAIGHT and rainbow and five_suit_straight:
        return 2 * int(category) + 1, FIVE_SUIT_STRAIGHT
    return 2 * int(category), category.name


def _rank_multisets(k: int, ranks: tuple[int, ...] = ALL_RANKS) -> Iterator[tuple[int, ...]]:
    return combinations_with_replacement(ranks, k)


def _suit_classes_of_cards(shape: DeckShape, counts: list[int]) -> tuple[int, int, int]:
    """Physical choices of natural cards with these rank counts: (all one suit, all different
    suits, neither), for two or more cards."""
    m = sum(counts)
    total = prod(comb(shape.per_rank, c) for c in counts)
    suited = shape.n_suits * prod(comb(shape.decks, c) for c in counts)
    s = shape.n_suits
    rainbow = 0
    if m <= s:
        rainbow = factorial(s) // factorial(s - m) // prod(factorial(c) for c in counts)
        rainbow *= shape.decks**m
    return suited, rainbow, total - suited - rainbow


@lru_cache(maxsize=32)
def five_card_counts(
    ranking: Ranking,
    shape: DeckShape = ONE_DECK,
    five_suit_straight: bool = False,
    ranks: tuple[int, ...] = ALL_RANKS,
) -> dict[str, int]:
    """Category counts over all C(n_cards, 5) 5-card duns, a joker at its best value.

    ``ranks``: the deck's ranks (all 13; fewer make the small decks the tests list in full).
    """
    out = dict.fromkeys(category_names(five_suit_straight), 0)
    for j in range(shape.jokers + 1):
        joker_ways = comb(shape.jokers, j)
        for natural in _rank_multisets(5 - j, ranks):
            counts = [natural.count(r) for r in sorted(set(natural))]
            if max(counts) > shape.per_rank:
                continue
            classes = _suit_classes_of_cards(shape, counts)
            for (suited, rainbow), ways in zip(
                ((True, False), (False, True), (False, False)), classes, strict=True
            ):
                if not ways:
                    continue
                can_rainbow = rainbow and shape.n_suits >= 5
                best = max(
                    _category(
                        tuple(sorted(natural + wild)),
                        suited,
                        can_rainbow,
                        ranking,
                        five_suit_straight,
                    )
                    for wild in _rank_multisets(j, ranks)
                )
                out[best[1]] += ways * joker_ways
    if sum(out.values()) != comb(len(ranks) * shape.per_rank + shape.jokers, 5):
        raise AssertionError("5-card category counts do not sum to C(n, 5)")
    return {name: n for name, n in out.items() if n}


@lru_cache(maxsize=8)
def three_card_counts(
    shape: DeckShape = ONE_DECK, ranks: tuple[int, ...] = ALL_RANKS
) -> dict[str, int]:
    """Category counts over all C(n_cards, 3) fronts, a joker at its best value."""
    out = {c.name: 0 for c in reversed(Category)}
    for j in range(shape.jokers + 1):
        for natural in _rank_multisets(3 - j, ranks):
            counts = [natural.count(r) for r in sorted(set(natural))]
            if max(counts, default=0) > shape.per_rank:
                continue
            ways = comb(shape.jokers, j) * prod(comb(shape.per_rank, c) for c in counts)
            best = max(rank3_reference(tuple(natural + wild)) for wild in _rank_multisets(j, ranks))
            out[Category(best >> 20).name] += ways
    if sum(out.values()) != comb(len(ranks) * shape.per_rank + shape.jokers, 3):
        raise AssertionError("3-card category counts do not sum to C(n, 3)")
    return {name: n for name, n in out.items() if n}


# ---------------------------------------------------------------------------------------------
# What 13 cards contain


WINDOWS = tuple(sum(1 << r for r in w) for w in five_straights())  # 5-card straights, rank masks


@lru_cache(maxsize=16)
def contains_counts(shape: DeckShape, five_suit_straight: bool = False) -> dict[str, int] | None:
    """Number of 13-card hands holding a 5-card dun of exactly each category, or None when
    五彩同花顺 is played (count it as a straight: ``five_suit_straight=False``).  Decks with
    jokers: :func:`contains_with_jokers`.

    Without jokers a deck of ``decks`` copies of ``n_suits`` suits gives:

    - five of a kind, quads, full house, trips: from the rank counts (a trips is never one
      suit: that takes three copies of a card);
    - pair and two pair: from the rank counts, less (two decks) the hands all of one suit,
      whose every pair is two copies of one card, so every such dun is a flush;
    - flush and straight flush: properties of each suit's cards, counted by a generating
      function over the independent suits (a suit of six or more cards always holds a flush:
      drop the second-lowest rank, or keep a repeated card);
    - straight: a covered window fails only when all cards of its ranks are of one suit, the
      same suit over each connected run of covered windows.
    """
    if five_suit_straight:
        return None
    if shape.jokers:
        return contains_with_jokers(shape)
    vectors = rank_vectors(HAND, shape.per_rank)
    choose = np.array([comb(shape.per_rank, k) for k in range(shape.per_rank + 1)], np.int64)
    one_suit = np.array([comb(shape.decks, k) for k in range(shape.per_rank + 1)], dtype=np.int64)
    weights, straight_fail = _contains_features(vectors, choose, one_suit, shape.n_suits)
    n_ge2 = (vectors >= 2).sum(axis=1)
    n_ge3 = (vectors >= 3).sum(axis=1)
    present = (vectors >= 1).sum(axis=1)
    biggest = vectors.max(axis=1)
    total = total_hands(shape)

    def hands(selected: np.ndarray) -> int:
        return int(weights[selected].sum())

    # Hands of one suit (two copies of each card at most): pairs there are flushes.
    monochrome = vectors.max(axis=1) <= shape.decks
    mono_weight = np.where(monochrome, one_suit[vectors].prod(axis=1), 0) * shape.n_suits
    pair_ranks = (n_ge2 >= 1) & (present >= 4)
    two_pair_ranks = (n_ge2 >= 2) & (present >= 3)
    mono_pairs = shape.decks > 1
    out = {
        "FIVE_OF_A_KIND": hands(biggest >= 5),
        "STRAIGHT_FLUSH": total - _hands_without_suit_pattern(shape, "straight-flush"),
        "QUADS": hands(biggest >= 4),
        "FULL_HOUSE": hands((n_ge3 >= 1) & (n_ge2 >= 2)),
        "FLUSH": total - _hands_without_suit_pattern(shape, "flush"),
        "STRAIGHT": int((weights - straight_fail).sum()),
        "TRIPS": hands((n_ge3 >= 1) & (present >= 3)),
        "TWO_PAIR": hands(two_pair_ranks)
        - (int(mono_weight[two_pair_ranks].sum()) if mono_pairs else 0),
        "PAIR": hands(pair_ranks) - (int(mono_weight[pair_ranks].sum()) if mono_pairs else 0),
    }
    return {name: n for name, n in out.items() if n}


@nb.njit(cache=True)
def _one_suited_hands(row, covered, held, parent, choose, one_suit, n_suits):
    """The hands of rank-count ``row`` whose cards on the ranks ``held[k]`` of every window
    ``k`` in the bit set ``covered`` are all of one suit, the same suit over windows sharing a
    held rank (components by union-find on the windows, ``parent`` its scratch array); the
    ranks outside every covered window are free."""
    n_windows = held.shape[0]
    for k in range(n_windows):
        parent[k] = k
    for a in range(n_windows):
        if not (covered >> a) & 1:
            continue
        for b in range(a):
            if (covered >> b) & 1 and held[a] & held[b]:
                ra = a
                while parent[ra] != ra:
                    ra = parent[ra]
                rb = b
                while parent[rb] != rb:
                    rb = parent[rb]
                parent[ra] = rb
    union = np.int64(0)
    f = np.int64(1)
    for a in range(n_windows):
        if not (covered >> a) & 1:
            continue
        root = a
        while parent[root] != root:
            root = parent[root]
        if root != a:
            continue
        ranks = np.int64(0)
        for b in range(n_windows):
            if (covered >> b) & 1:
                rb = b
                while parent[rb] != rb:
                    rb = parent[rb]
                if rb == a:
                    ranks |= held[b]
        union |= ranks
        part = np.int64(n_suits)
        for r in range(13):
            if (ranks >> r) & 1:
                part *= one_suit[row[r]]
        f *= part
    for r in range(13):
        if not (union >> r) & 1:
            f *= choose[row[r]]
    return f


@nb.njit(cache=True)
def _contains_features(vectors, choose, one_suit, n_suits):
    """Per rank-count vector: its hands (prod C(per_rank, c_r)), and of those the hands whose
    every covered straight window has all its cards in one suit (no plain straight; the
    vector's hands when it covers no window)."""
    windows = np.array([0b1000000001111] + [0b11111 << r for r in range(9)], dtype=np.int64)
    n = vectors.shape[0]
    weights = np.empty(n, dtype=np.int64)
    fail = np.empty(n, dtype=np.int64)
    parent = np.empty(10, dtype=np.int64)
    for i in range(n):
        present = np.int64(0)
        w = np.int64(1)
        for r in range(13):
            w *= choose[vectors[i, r]]
            if vectors[i, r] > 0:
                present |= np.int64(1) << r
        weights[i] = w
        covered = 0
        for k in range(10):
            if present & windows[k] == windows[k]:
                covered |= 1 << k
        if covered == 0:
            fail[i] = w
            continue
        fail[i] = _one_suited_hands(vectors[i], covered, windows, parent, choose, one_suit, n_suits)
    return weights, fail


def _suit_pattern_holds(vector: np.ndarray, pattern: str) -> np.ndarray:
    """Does one suit's cards (rank counts, ``int8[n, 13]``) hold a straight flush, or a flush
    that is not one (six cards or more, or five that are not five ranks in a row)."""
    bits = (vector > 0).astype(np.int64) << np.arange(N_RANKS, dtype=np.int64)
    mask = bits.sum(axis=1)
    window = np.zeros(len(vector), dtype=bool)
    for w in WINDOWS:
        window |= mask & w == w
    if pattern == "straight-flush":
        return window
    size = vector.sum(axis=1)
    distinct = (vector > 0).sum(axis=1)
    return (size >= 6) | ((size == 5) & ~((distinct == 5) & window))


def _hands_without_suit_pattern(shape: DeckShape, pattern: str) -> int:
    """13-card hands none of whose suits holds ``pattern``: [x^13] P(x)^n_suits, P the
    generating function of one suit's card sets without it (suits are independent)."""
    poly = [0] * (HAND + 1)
    for size in range(HAND + 1):
        vectors = rank_vectors(size, shape.decks)
        keep = ~_suit_pattern_holds(vectors, pattern)
        ways = np.array([comb(shape.decks, k) for k in range(shape.decks + 1)], dtype=np.int64)
        poly[size] = int(ways[vectors[keep]].prod(axis=1).sum())
    total = [1] + [0] * HAND
    for _ in range(shape.n_suits):
        total = [sum(total[i] * poly[n - i] for i in range(n + 1)) for n in range(HAND + 1)]
    return total[HAND]


# ---------------------------------------------------------------------------------------------
# What 13 cards with jokers contain


def contains_with_jokers(
    shape: DeckShape, hand: int = HAND, ranks: tuple[int, ...] = ALL_RANKS
) -> dict[str, int]:
    """Number of ``hand``-card hands (13) holding a 5-card dun of exactly each category, jokers
    wild: a dun's category is its best over the values of its jokers, so a hand contains a
    category when some 5 of its cards, jokers among them or not, are at best that category.

    ``ranks``: the deck's ranks (all 13; fewer, with a smaller ``hand``, make the small decks
    the tests list in full; a joker still stands for any card).  A hand of ``j`` jokers is
    counted by its natural cards' rank-count vector, choosing which of the dun's cards are
    jokers (``j'`` of them, up to ``j``):

    - five of a kind: a rank of ``5 - j``; quads: a rank of ``4 - j`` and another rank (its
      jokers make the four, never five); full house: a trips and a pair, or with a joker two
      pairs (a joker beside trips makes quads instead);
    - two pair: only natural cards make it (a joker beside a pair makes trips), so the rank
      counts less (two decks) the hands all of one suit, as without jokers;
    - trips: a natural trips; or a joker, a pair and two other ranks not all of one suit
      (else a flush): two pairs and 3 ranks, less the one-suited hands; or two jokers and
      three single ranks lying in no straight window and not all of one suit;
    - pair: a natural pair and three other ranks, less the one-suited hands; or a joker and
      four single ranks in no straight window, not all of one suit;
    - straight: ``5 - j`` distinct ranks of one window not all of one suit: it fails only when
      the cards of every window holding ``5 - j`` ranks are one suit, the same over windows
      sharing a held rank;
    - flush and straight flush: properties of each suit's cards with ``j`` jokers, counted by a
      generating function over the independent suits (:func:`_suit_holds_flush`).

    The "not all of one suit" tests over single ranks count, per vector, the suit choices
    that make every qualifying set of ranks one-suited: a product over the connected
    components of those sets (:func:`_one_suited_choices`).
    """
    allowed = np.zeros(N_RANKS, dtype=bool)
    allowed[list(ranks)] = True
    out = dict.fromkeys(category_names(False)[:-1], 0)
    for j in range(shape.jokers + 1):
        for name, count in _contains_level(shape, hand - j, j, allowed).items():
            out[name] += comb(shape.jokers, j) * count
    return {name: n for name, n in out.items() if n}


def _contains_level(shape: DeckShape, n: int, j: int, allowed: np.ndarray) -> dict[str, int]:
    """:func:`contains_with_jokers` for the hands of ``n`` natural cards and ``j`` jokers,
    natural cards of the ``allowed`` ranks only (not yet weighted by the choice of jokers)."""
    vectors = rank_vectors(n, shape.per_rank)
    vectors = vectors[(vectors[:, ~allowed] == 0).all(axis=1)]
    choose = np.array([comb(shape.per_rank, k) for k in range(shape.per_rank + 1)], np.int64)
    one_suit = np.array([comb(shape.decks, k) for k in range(shape.per_rank + 1)], np.int64)
    weights = choose[vectors].prod(axis=1)
    mono = shape.n_suits * one_suit[vectors].prod(axis=1)
    n_ge2 = (vectors >= 2).sum(axis=1)
    n_ge3 = (vectors >= 3).sum(axis=1)
    present = (vectors >= 1).sum(axis=1)
    biggest = vectors.max(axis=1)
    total = int(weights.sum())
    if total != comb(int(allowed.sum()) * shape.per_rank, n):
        raise AssertionError("natural card choices do not sum to C(cards, n)")

    def hands(selected: np.ndarray) -> int:
        return int(weights[selected].sum())

    def mixed(selected: np.ndarray) -> int:
        """Hands of these vectors not all of one suit."""
        return hands(selected) - int(mono[selected].sum())

    def singles_mixed(size: int) -> int:
        """Hands of single ranks (one card each) holding ``size`` ranks in no straight window
        whose cards are not all of one suit."""
        selected = np.flatnonzero((biggest <= 1) & (present >= size))
        fails = sum(_one_suited_choices(shape, _rank_mask(vectors[i]), size) for i in selected)
        return hands(selected) - fails

    windows = np.array(WINDOWS, dtype=np.int64)
    fails = _straight_fails(vectors, choose, one_suit, shape.n_suits, 5 - j, windows)
    trips = hands((n_ge3 >= 1) & (present >= 3))
    pair = mixed((n_ge2 >= 1) & (present >= 4))
    if j >= 1:
        trips += mixed((n_ge3 == 0) & (n_ge2 >= 1) & (present >= 3))
        pair += singles_mixed(4)
    if j >= 2:
        trips += singles_mixed(3)
    return {
        "FIVE_OF_A_KIND": hands(biggest >= 5 - j),
        "STRAIGHT_FLUSH": total - _hands_without(shape, n, allowed, j, "straight-flush"),
        "QUADS": hands((biggest >= 4 - j) & (present >= 2)),
        "FULL_HOUSE": hands((n_ge2 >= 2) & ((n_ge3 >= 1) | (j >= 1))),
        "FLUSH": total - _hands_without(shape, n, allowed, j, "flush"),
        "STRAIGHT": int((weights - fails).sum()),
        "TRIPS": trips,
        "TWO_PAIR": mixed((n_ge2 >= 2) & (present >= 3)),
        "PAIR": pair,
    }


def _rank_mask(vector: np.ndarray) -> int:
    return int(sum(1 << r for r in range(N_RANKS) if vector[r]))


def _within_a_window(ranks: int) -> bool:
    return any(ranks & ~w == 0 for w in WINDOWS)


def _one_suited_choices(shape: DeckShape, held: int, size: int) -> int:
    """Physical choices of one card of each ``held`` rank such that every ``size`` of those
    ranks lying in no straight window are one suit: the sets sharing a rank must share the
    suit, so a product over their connected components (``n_suits`` suits, ``decks`` copies
    a card) and over the ranks in no such set (any of their ``per_rank`` cards)."""
    rank_list = [r for r in range(N_RANKS) if held >> r & 1]
    parent = {r: r for r in rank_list}

    def find(r: int) -> int:
        while parent[r] != r:
            r = parent[r]
        return r

    covered: set[int] = set()
    for subset in combinations(rank_list, size):
        if _within_a_window(sum(1 << r for r in subset)):
            continue
        covered.update(subset)
        for r in subset[1:]:
            parent[find(r)] = find(subset[0])
    components: dict[int, int] = {}
    for r in covered:
        components[find(r)] = components.get(find(r), 0) + 1
    out = shape.per_rank ** (len(rank_list) - len(covered))
    for k in components.values():
        out *= shape.n_suits * shape.decks**k
    return out


@nb.njit(cache=True)
def _straight_fails(vectors, choose, one_suit, n_suits, need, windows):
    """Per rank-count vector, the hands holding no plain straight made with ``5 - need``
    jokers: those whose cards of every window holding ``need`` ranks are one suit, the same
    suit over windows sharing a held rank (union-find on the windows)."""
    n = vectors.shape[0]
    n_windows = windows.shape[0]
    fail = np.empty(n, dtype=np.int64)
    parent = np.empty(n_windows, dtype=np.int64)
    held = np.empty(n_windows, dtype=np.int64)
    for i in range(n):
        present = np.int64(0)
        for r in range(13):
            if vectors[i, r] > 0:
                present |= np.int64(1) << r
        covered = 0
        for k in range(n_windows):
            held[k] = present & windows[k]
            bits = 0
            for r in range(13):
                bits += (held[k] >> r) & 1
            if bits >= need:
                covered |= 1 << k
        fail[i] = _one_suited_hands(vectors[i], covered, held, parent, choose, one_suit, n_suits)
    return fail


@lru_cache(maxsize=4)
def _window_subsets(size: int) -> np.ndarray:
    """Rank masks of the ``size``-rank sets lying in some straight window (distinct)."""
    found = {
        sum(1 << r for r in subset) for w in five_straights() for subset in combinations(w, size)
    }
    return np.array(sorted(found), dtype=np.int64)


def _some_outside_windows(mask: np.ndarray, size: int) -> np.ndarray:
    """Do the rank masks hold ``size`` ranks lying in no straight window: more ``size``-sets
    than those inside windows."""
    distinct = np.zeros(len(mask), dtype=np.int64)
    for r in range(N_RANKS):
        distinct += (mask >> r) & 1
    inside = np.zeros(len(mask), dtype=np.int64)
    for sub in _window_subsets(size).tolist():
        inside += (mask & sub) == sub
    sets = np.array([comb(int(d), size) for d in range(N_RANKS + 1)], dtype=np.int64)
    return sets[distinct] > inside


def _suit_holds_flush(vector: np.ndarray, jokers: int, pattern: str) -> np.ndarray:
    """Does one suit's cards (rank counts, ``int8[n, 13]``) with ``jokers`` jokers make a dun of
    exactly ``pattern`` (straight flush, or flush)?

    Straight flush: ``5 - jokers`` of its ranks in one window.  Flush: five of its cards not a
    straight flush; or with a joker four cards neither four ranks of a window nor two pairs
    (a full house), that is one pair and two other ranks, or four ranks in no window; or with
    two jokers three ranks in no window (a pair among three would make quads).
    """
    bits = (vector > 0).astype(np.int64) << np.arange(N_RANKS, dtype=np.int64)
    mask = bits.sum(axis=1)
    distinct = (vector > 0).sum(axis=1)
    if pattern == "straight-flush":
        best = np.zeros(len(vector), dtype=np.int64)
        for w in WINDOWS:
            inside = np.zeros(len(vector), dtype=np.int64)
            for r in range(N_RANKS):
                if w >> r & 1:
                    inside += (mask >> r) & 1
            best = np.maximum(best, inside)
        return best >= 5 - jokers
    out = _suit_pattern_holds(vector, "flush")
    if jokers >= 1:
        pairs = (vector >= 2).sum(axis=1)
        out = out | ((pairs >= 1) & (distinct >= 3)) | _some_outside_windows(mask, 4)
    if jokers >= 2:
        out = out | _some_outside_windows(mask, 3)
    return out


def _hands_without(shape: DeckShape, n: int, allowed: np.ndarray, jokers: int, pattern: str) -> int:
    """Natural hands of ``n`` cards (of the ``allowed`` ranks) none of whose suits makes
    ``pattern`` with the ``jokers``: [x^n] P(x)^n_suits over one suit's card sets P."""
    poly = [0] * (n + 1)
    ways = np.array([comb(shape.decks, k) for k in range(shape.decks + 1)], dtype=np.int64)
    for size in range(n + 1):
        vectors = rank_vectors(size, shape.decks)
        vectors = vectors[(vectors[:, ~allowed] == 0).all(axis=1)]
        if not len(vectors):
            continue
        keep = ~_suit_holds_flush(vectors, jokers, pattern)
        poly[size] = int(ways[vectors[keep]].prod(axis=1).sum())
    total = [1] + [0] * n
    for _ in range(shape.n_suits):
        total = [sum(total[i] * poly[k - i] for i in range(k + 1)) for k in range(n + 1)]
    return total[n]


# ---------------------------------------------------------------------------------------------
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
    bits = _rank_bits(specials)
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
    _representatives(vectors, hands)
    out = detect_specials(hands, specials) & np.uint32(_rank_bits(specials))
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


__all__ = [
    "DECK_SHAPES",
    "ONE_DECK",
    "DeckShape",
    "contains_counts",
    "contains_with_jokers",
    "deck_of",
    "engine_cards",
    "five_card_counts",
    "mask_counts",
    "reference_categories",
    "reference_contains",
    "reference_covers",
    "reference_masks",
    "sample_hands",
    "special_counts",
    "three_card_counts",
]
