"""Special hands (报到): which of a variant's specials each 13-card hand qualifies for.

:func:`detect_specials` returns one ``uint32`` bit mask per hand: bit ``i`` is set when the hand
qualifies for ``variant.specials.rules[i]`` (best first), under that rule's definition options.
:func:`best_special` reads the best one back (the lowest set bit).  A hand may qualify for several
specials at once (a clean dragon is also a dragon, one colour, three flushes...); which one is
paid is the variant's order, and the mask keeps them all so the scorer can decide.

Definitions (the registry ``SPECIAL_KINDS`` in :mod:`simkit.variants.special_kinds`, one entry
a kind with its :class:`~simkit.variants.special_kinds.SpecialCode`, the test the kernel runs),
as read here.  "Group" means
cards of one rank; a hand qualifies when its 13 cards can be partitioned as stated:

- 至尊清龙 clean-dragon: the 13 cards are A to K of one suit (``suits``: any suit or spades only).
- 一条龙 dragon: one card of each rank (a clean dragon is also a dragon).
- 十二皇族 royal-twelve: ``all-jqka``: every card is J, Q, K or A; ``all-jqk-plus-one``: at least
  twelve cards are J, Q or K (003 "12张人头牌+任意1张"; with one deck, all four of each).
- 三同花顺 three-straight-flushes / 三同花 three-flushes / 三顺子 three-straights: a real split
  of the 13 cards into a 3-card front and two 5-card duns, each a straight flush / one suit /
  straight.  A 5-card straight is five consecutive ranks, A-2-3-4-5 included, never wrapping
  (no K-A-2-3-4).  The front straight is three consecutive ranks; Q-K-A counts when
  ``front_qka``, A-2-3 when ``front_a23``; K-A-2 never.  Straight flushes may stand as duns of
  三同花 and 三顺子 (002).  Only suits matter to 三同花: the hand qualifies exactly when its
  non-empty suits hold 3+5+5, 8+5, 3+10 or 13 cards.
- 三分天下 three-quads: three groups of four of three different ranks and one card.  With one
  deck the odd card can never make a fourth quads (it would take 16 cards); with two decks it
  may share a quads' rank (5+4+4).
- 全大 all-big / 全小 all-small: every card's rank is in ``ranks``.
- 凑一色 one-color: all 13 cards red (♦ ♥) or all black (♣ ♠).
- 三冲加弹 three-trips-and-quads: a quads and three trips, four different ranks: counts 4,3,3,3.
- 四套三条 four-trips: four trips of four different ranks and one card of another rank; with
  ``quads_count_as_trips`` the odd card may share a trips' rank, so counts 4,3,3,3 qualify too.
- 五对三条 five-pairs-and-trips: one trips and five pairs; ``quads_count_as_two_pairs`` lets two
  groups share a rank (a quads is two pairs: 4,3,2,2,2 and 4,4,3,2 qualify; without it they
  do not).
- 六对半 six-pairs: six pairs and one card; ``quads_count_as_two_pairs`` lets two pairs share a
  rank (4,4,4,1 — three quads — is six pairs, as 001 玩法3 says "三分天下 等于六对半");
  ``trips_count_as_pair`` lets the odd card share a pair's rank (3,2,2,2,2,2 — five pairs and
  trips — is six pairs, as 001 香港 "牌中有六对" reads).

Two decks (5 to 8 players) give repeated cards; every definition above applies unchanged to the
multiset of 13 cards (a repeated card can serve in two duns of a split, and a rank may hold up to
eight cards: a rank of five, for instance, is trips plus a pair, which needs
``quads_count_as_two_pairs`` since the two groups share a rank).

Decks with a fifth suit or jokers take a second kernel (only for hands holding such a card, so
one and two plain decks run the first unchanged).  A joker may stand for any card, a copy of one
held included, and a hand qualifies for a special when some value of its jokers makes it qualify
(a joker fills the missing rank of 一条龙, the missing card of a 三同花顺 dun, ...).  The tests
that read only rank counts try every rank for each joker (13, or 91 pairs); 至尊清龙 and 凑一色
read the real cards (the jokers take the suit or colour); 三同花 tries every suit for each joker,
三同花顺 every suit and rank.  The fifth suit (★) is a suit like the others, of no colour:
a hand holding a ★ card is never 凑一色 (reading: 凑一色 is 都是方块红心或黑桃梅花, 002).

How it is fast: one pass over the 13 cards builds rank counts, suit counts and a packed key of
the rank counts (4 bits a rank) overall and per suit; the straight-split specials are then
membership tests of those keys in small sorted tables of every possible split (built once per
option set), and the rest are tests on the histogram of rank counts.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from itertools import combinations_with_replacement
from pathlib import Path

import numba as nb
import numpy as np
import numpy.typing as npt

from simkit.cards import (
    CARD_RANKS,
    CARD_SUITS,
    DECK_SIZE,
    FIRST_JOKER,
    HAND_SIZE,
    N_CARD_INTS,
    card_rows,
)
from simkit.errors import SimkitError
from simkit.variants import SpecialRule, Specials, Variant, resolve_variant
from simkit.variants.special_kinds import SPECIAL_KINDS, SpecialCode

VariantLike = str | Path | Variant | Specials | None

#: The kernel's dispatch code of each special id, read from the registry (全大 and 全小 share
#: ``SpecialCode.RANKS_FROM_SET``).
KIND_CODES: dict[str, int] = {kind.id: int(kind.code) for kind in SPECIAL_KINDS.values()}
MAX_SPECIALS = 32  # bits of the uint32 mask

ACE, QUEEN, KING = 12, 10, 11
RANK_BITS = 4  # packed rank-count keys: 4 bits a rank, 52 bits in all
# Dun sizes a suit may hold in a 3/5/5 split into one-suited duns, and the index of each
# size's table of straight-flush splits.
SPLIT_SIZES = (3, 5, 8, 10, 13)


def front_straights(front_qka: bool, front_a23: bool) -> list[tuple[int, ...]]:
    """The 3-card front straights (rank tuples): three in a row, Q-K-A and A-2-3 by option."""
    out: list[tuple[int, ...]] = [(r, r + 1, r + 2) for r in range(QUEEN)]  # 2-3-4 .. J-Q-K
    if front_qka:
        out.append((QUEEN, KING, ACE))
    if front_a23:
        out.append((ACE, 0, 1))
    return out


def five_straights() -> list[tuple[int, ...]]:
    """The ten 5-card straights (rank tuples), A-2-3-4-5 included, no wraparound."""
    return [(ACE, 0, 1, 2, 3)] + [tuple(range(r, r + 5)) for r in range(ACE - 3)]


def rank_key(ranks: tuple[int, ...] | list[int]) -> int:
    """The packed rank-count key of some ranks (4 bits a rank), as the kernel computes it."""
    return sum(1 << (RANK_BITS * r) for r in ranks)


@lru_cache(maxsize=8)
def straight_split_keys(front_qka: bool, front_a23: bool) -> dict[int, np.ndarray]:
    """Sorted ``int64`` rank-count keys of the unions of straights, by number of cards.

    ``keys[3]`` fronts, ``keys[5]`` 5-card straights, ``keys[8]`` a front plus a straight,
    ``keys[10]`` two straights, ``keys[13]`` a front plus two straights (三顺子).  A suit holding
    8 cards of a 三同花顺 holds the front and one 5-card dun, and so on.
    """
    fronts = [rank_key(f) for f in front_straights(front_qka, front_a23)]
    fives = [rank_key(f) for f in five_straights()]
    pairs = [a + b for a, b in combinations_with_replacement(fives, 2)]
    sets = {
        3: fronts,
        5: fives,
        8: [f + a for f in fronts for a in fives],
        10: pairs,
        13: [f + p for f in fronts for p in pairs],
    }
    return {n: np.unique(np.array(v, dtype=np.int64)) for n, v in sets.items()}


@lru_cache(maxsize=64)
def _plan(
    specials: Specials,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Kernel inputs for a variant's specials: kind codes, option params and split tables."""
    if len(specials) > MAX_SPECIALS:
        raise SimkitError(f"at most {MAX_SPECIALS} specials fit a mask, got {len(specials)}")
    kinds = np.empty(len(specials), dtype=np.int64)
    params = np.zeros((len(specials), 2), dtype=np.int64)
    sf_keys = np.zeros(0, dtype=np.int64)
    sf_offsets = np.zeros(len(SPLIT_SIZES) + 1, dtype=np.int64)
    ts_keys = np.zeros(0, dtype=np.int64)
    codes = [rule.kind.code for rule in specials.rules]
    for code in (SpecialCode.THREE_STRAIGHT_FLUSHES, SpecialCode.THREE_STRAIGHTS):
        if codes.count(code) > 1:
            raise SimkitError(f"{code.name} may be played once per variant, got {specials.ids}")
    for i, (rule, code) in enumerate(zip(specials.rules, codes, strict=True)):
        kinds[i] = code
        params[i] = _PARAMS.get(code, _no_params)(rule)
        if code == SpecialCode.THREE_STRAIGHT_FLUSHES:
            tables = straight_split_keys(rule.option("front_qka"), rule.option("front_a23"))
            parts = [tables[n] for n in SPLIT_SIZES]
            sf_keys = np.concatenate(parts)
            sf_offsets = np.concatenate([[0], np.cumsum([len(p) for p in parts])])
        elif code == SpecialCode.THREE_STRAIGHTS:
            tables = straight_split_keys(rule.option("front_qka"), rule.option("front_a23"))
            ts_keys = tables[13]
    return kinds, params, sf_keys, sf_offsets.astype(np.int64), ts_keys, key_filter(ts_keys)


FILTER_BITS = 16
_HASH_MULTIPLIER = np.uint64(0x9E3779B97F4A7C15)  # Fibonacci hashing


def key_filter(keys: np.ndarray) -> np.ndarray:
    """A 2**16-bit filter of ``keys``: a clear bit proves a key absent without a search."""
    hashed = (keys.astype(np.uint64) * _HASH_MULTIPLIER) >> np.uint64(64 - FILTER_BITS)
    bits = np.zeros(1 << FILTER_BITS, dtype=bool)
    bits[hashed.astype(np.int64)] = True
    return np.packbits(bits, bitorder="little").view(np.uint64)


@nb.njit(cache=True, inline="always")
def _maybe_in(filter_words, key):
    h = (np.uint64(key) * np.uint64(0x9E3779B97F4A7C15)) >> np.uint64(48)
    return (filter_words[h >> np.uint64(6)] >> (h & np.uint64(63))) & np.uint64(1) != 0


def _no_params(rule: SpecialRule) -> tuple[int, int]:
    return 0, 0


# The two kernel params of a kind's definition options, by code (kinds without options: 0, 0).
_PARAMS: dict[SpecialCode, Callable[[SpecialRule], tuple[int, int]]] = {
    SpecialCode.CLEAN_DRAGON: lambda r: (0b1000 if r.option("suits") == "spades" else 0b11111, 0),
    SpecialCode.ROYAL_TWELVE: lambda r: (int(r.option("definition") == "all-jqk-plus-one"), 0),
    SpecialCode.RANKS_FROM_SET: lambda r: (sum(1 << k for k in r.option("ranks")), 0),
    SpecialCode.FOUR_TRIPS: lambda r: (int(r.option("quads_count_as_trips")), 0),
    SpecialCode.FIVE_PAIRS_AND_TRIPS: lambda r: (int(r.option("quads_count_as_two_pairs")), 0),
    SpecialCode.SIX_PAIRS: lambda r: (
        int(r.option("quads_count_as_two_pairs")),
        int(r.option("trips_count_as_pair")),
    ),
}


@nb.njit(cache=True, inline="always")
def _has_key(keys, lo, hi, key):
    """Binary search for ``key`` in the sorted slice ``keys[lo:hi]``."""
    end = hi
    while lo < hi:
        mid = (lo + hi) >> 1
        if keys[mid] < key:
            lo = mid + 1
        else:
            hi = mid
    return lo < end and keys[lo] == key


# Packed-key arithmetic: a key holds 13 nibbles, one count (0..8) a rank.  0x1111111111111
# picks the low bit of every nibble (and is the key of one card a rank); a sum of nibble bits
# is read off a multiplication by it (no carries: the sum is at most 13).

# Suit sizes that fit a 3/5/5 split into one-suited duns, as a bit set: 0 or a SPLIT_SIZES.
FLUSH_SPLIT_SIZES = 1 | sum(1 << n for n in SPLIT_SIZES)
# A suit size's index in SPLIT_SIZES (its table of straight-flush splits); -1 for other sizes.
SPLIT_SIZE_INDEX = np.full(14, -1, dtype=np.int64)
SPLIT_SIZE_INDEX[list(SPLIT_SIZES)] = np.arange(len(SPLIT_SIZES))
SPLIT_SIZE_INDEX.setflags(write=False)


@nb.njit(cache=True, inline="always")
def _count_low_bits(x):
    """How many nibbles of ``x`` have their low bit set (``x`` has no other bits)."""
    return ((x * 0x1111111111111) >> 48) & 15


@nb.njit(cache=True, inline="always")
def _count_nibbles_equal(key, value):
    """How many of the 13 nibbles of ``key`` equal ``value``."""
    z = ~(key ^ (value * 0x1111111111111))
    return _count_low_bits(z & (z >> 1) & (z >> 2) & (z >> 3) & 0x1111111111111)


@nb.njit(cache=True)
def _detect_kernel(rows, kinds, params, sf_keys, sf_offsets, ts_keys, ts_filter, max_copies, out):
    """Write each hand's mask to ``out``; return -1, or the index of the first hand holding a
    card that is not 0..51 or that appears more than ``max_copies`` times (then stop)."""
    n_rules = kinds.shape[0]
    suit_n = np.zeros(4, dtype=np.int64)
    suit_key = np.zeros(4, dtype=np.int64)
    for h in range(rows.shape[0]):
        suit_n[:] = 0
        suit_key[:] = 0
        key = np.int64(0)  # rank counts, 4 bits a rank
        rank_mask = np.int64(0)  # ranks present
        seen = np.int64(0)  # cards present, and present twice
        twice = np.int64(0)
        for j in range(13):
            c = np.int64(rows[h, j])
            if c < 0 or c > 51:
                return h
            card_bit = np.int64(1) << c
            if seen & card_bit:
                if max_copies < 2 or twice & card_bit:
                    return h
                twice |= card_bit
            seen |= card_bit
            r = c >> 2
            s = c & 3
            suit_n[s] += 1
            bit = np.int64(1) << (4 * r)
            suit_key[s] += bit
            key += bit
            rank_mask |= np.int64(1) << r
        odd = key & 0x1111111111111  # ranks with an odd count
        n_odd = _count_low_bits(odd)
        pairs = (13 - n_odd) >> 1  # sum of count // 2 over ranks, as the counts sum to 13
        # Counts 4..8 have bit 2 or bit 3 set; odd counts >= 3 have bit 0 and a higher bit.
        n_big = _count_low_bits(((key | (key >> 1)) & 0x4444444444444) >> 2)
        odd_big = _count_low_bits(odd & ((key >> 1) | (key >> 2) | (key >> 3)))
        flush_split = True
        for s in range(4):
            if not (FLUSH_SPLIT_SIZES >> suit_n[s]) & 1:
                flush_split = False
        mask = np.uint32(0)
        for i in range(n_rules):
            kind = kinds[i]
            ok = False
            if kind == SpecialCode.CLEAN_DRAGON:
                for s in range(4):
                    if (params[i, 0] >> s) & 1 and suit_key[s] == 0x1111111111111:
                        ok = True  # A..K once each
            elif kind == SpecialCode.DRAGON:
                ok = key == 0x1111111111111
            elif kind == SpecialCode.ROYAL_TWELVE:
                if params[i, 0] == 0:
                    ok = (rank_mask & ~0x1E00) == 0  # only J, Q, K, A
                else:
                    jqk = ((key >> 36) & 15) + ((key >> 40) & 15) + ((key >> 44) & 15)
                    ok = jqk >= 12
            elif kind == SpecialCode.THREE_STRAIGHT_FLUSHES:
                if flush_split:
                    ok = True
                    for s in range(4):
                        if suit_n[s] > 0:
                            t = SPLIT_SIZE_INDEX[suit_n[s]]
                            lo = sf_offsets[t]
                            if not _has_key(sf_keys, lo, sf_offsets[t + 1], suit_key[s]):
                                ok = False
            elif kind == SpecialCode.THREE_QUADS:
                ok = n_big >= 3
            elif kind == SpecialCode.RANKS_FROM_SET:
                ok = (rank_mask & ~params[i, 0]) == 0
            elif kind == SpecialCode.ONE_COLOR:
                ok = suit_n[1] + suit_n[2] == 13 or suit_n[0] + suit_n[3] == 13
            elif kind == SpecialCode.THREE_TRIPS_AND_QUADS:
                ok = _count_nibbles_equal(key, 4) == 1 and _count_nibbles_equal(key, 3) == 3
            elif kind == SpecialCode.FOUR_TRIPS:
                n3 = _count_nibbles_equal(key, 3)
                if params[i, 0]:
                    ok = n3 + _count_nibbles_equal(key, 4) == 4
                else:
                    ok = n3 == 4
            elif kind == SpecialCode.FIVE_PAIRS_AND_TRIPS:
                ok = n_odd == 1 and odd_big == 1 and (n_big == 0 or params[i, 0] == 1)
            elif kind == SpecialCode.SIX_PAIRS:
                ok = (
                    pairs == 6
                    and (n_big == 0 or params[i, 0] == 1)
                    and (odd_big == 0 or params[i, 1] == 1)
                )
            elif kind == SpecialCode.THREE_FLUSHES:
                ok = flush_split
            elif kind == SpecialCode.THREE_STRAIGHTS:
                ok = _maybe_in(ts_filter, key) and _has_key(ts_keys, 0, ts_keys.shape[0], key)
            if ok:
                mask |= np.uint32(1) << np.uint32(i)
        out[h] = mask
    return -1


ONES = 0x1111111111111  # the low bit of every rank nibble
JQKA_NIBBLES = (1 << 36) | (1 << 40) | (1 << 44) | (1 << 48)  # the low bits of J, Q, K, A


@nb.njit(cache=True, inline="always")
def _key_qualifies(kind, p0, p1, key, ts_keys, ts_filter):
    """The tests of the kinds that read only the rank counts of 13 cards (packed ``key``)."""
    odd = key & ONES
    n_odd = _count_low_bits(odd)
    present = (key | (key >> 1) | (key >> 2) | (key >> 3)) & ONES  # ranks held
    if kind == SpecialCode.DRAGON:
        return key == ONES
    if kind == SpecialCode.ROYAL_TWELVE:
        if p0 == 0:
            return (present & ~JQKA_NIBBLES) == 0  # only J, Q, K, A
        return ((key >> 36) & 15) + ((key >> 40) & 15) + ((key >> 44) & 15) >= 12
    if kind == SpecialCode.RANKS_FROM_SET:
        for r in range(13):
            if (present >> (4 * r)) & 1 and not (p0 >> r) & 1:
                return False
        return True
    n_big = _count_low_bits(((key | (key >> 1)) & 0x4444444444444) >> 2)
    if kind == SpecialCode.THREE_QUADS:
        return n_big >= 3
    if kind == SpecialCode.THREE_TRIPS_AND_QUADS:
        return _count_nibbles_equal(key, 4) == 1 and _count_nibbles_equal(key, 3) == 3
    if kind == SpecialCode.FOUR_TRIPS:
        n3 = _count_nibbles_equal(key, 3)
        if p0:
            return n3 + _count_nibbles_equal(key, 4) == 4
        return n3 == 4
    odd_big = _count_low_bits(odd & ((key >> 1) | (key >> 2) | (key >> 3)))
    if kind == SpecialCode.FIVE_PAIRS_AND_TRIPS:
        return n_odd == 1 and odd_big == 1 and (n_big == 0 or p0 == 1)
    if kind == SpecialCode.SIX_PAIRS:
        pairs = (13 - n_odd) >> 1
        return pairs == 6 and (n_big == 0 or p0 == 1) and (odd_big == 0 or p1 == 1)
    if kind == SpecialCode.THREE_STRAIGHTS:
        return _maybe_in(ts_filter, key) and _has_key(ts_keys, 0, ts_keys.shape[0], key)
    return False


@nb.njit(cache=True, inline="always")
def _key_qualifies_jokers(kind, p0, p1, key, jokers, ts_keys, ts_filter):
    """Some ranks of the ``jokers`` (0..2) make the rank counts qualify."""
    if jokers == 0:
        return _key_qualifies(kind, p0, p1, key, ts_keys, ts_filter)
    for r1 in range(13):
        k1 = key + (np.int64(1) << (4 * r1))
        if jokers == 1:
            if _key_qualifies(kind, p0, p1, k1, ts_keys, ts_filter):
                return True
        else:
            for r2 in range(r1, 13):
                k2 = k1 + (np.int64(1) << (4 * r2))
                if _key_qualifies(kind, p0, p1, k2, ts_keys, ts_filter):
                    return True
    return False


def rank_count_masks(keys: npt.ArrayLike, variant: VariantLike = None) -> np.ndarray:
    """Masks of the specials that read only rank counts, for 13-card rank-count vectors given
    as packed keys (4 bits a rank, ``int64[n]``); the other specials' bits are clear.

    The counts may exceed what one hand of cards of a 52-card deck can hold (up to 15 a rank:
    two decks of five suits and jokers give twelve); the tests are those of the joker kernel
    (:func:`_key_qualifies`), read on counts.  Used by the exact counts of every deck.
    """
    plan = _plan(specials_of(variant))
    arr = np.ascontiguousarray(np.asarray(keys, dtype=np.int64).ravel())
    out = np.empty(arr.shape[0], dtype=np.uint32)
    _rank_count_kernel(arr, plan[0], plan[1], plan[4], plan[5], out)
    return out


@nb.njit(cache=True)
def _rank_count_kernel(keys, kinds, params, ts_keys, ts_filter, out):
    for h in range(keys.shape[0]):
        mask = np.uint32(0)
        for i in range(kinds.shape[0]):
            if _key_qualifies(kinds[i], params[i, 0], params[i, 1], keys[h], ts_keys, ts_filter):
                mask |= np.uint32(1) << np.uint32(i)
        out[h] = mask


@nb.njit(cache=True, inline="always")
def _sizes_split(suit_n, n_suits):
    for s in range(n_suits):
        if not (FLUSH_SPLIT_SIZES >> suit_n[s]) & 1:
            return False
    return True


@nb.njit(cache=True, inline="always")
def _suits_straight_flush_split(suit_n, suit_key, n_suits, sf_keys, sf_offsets):
    for s in range(n_suits):
        if suit_n[s] > 0:
            t = SPLIT_SIZE_INDEX[suit_n[s]]
            if t < 0 or not _has_key(sf_keys, sf_offsets[t], sf_offsets[t + 1], suit_key[s]):
                return False
    return True


@nb.njit(cache=True)
def _three_straight_flushes_jokers(suit_n, suit_key, n_suits, jokers, sf_keys, sf_offsets):
    """Some suits and ranks of the jokers make every suit a union of straight-flush duns."""
    if jokers == 0:
        return _sizes_split(suit_n, n_suits) and _suits_straight_flush_split(
            suit_n, suit_key, n_suits, sf_keys, sf_offsets
        )
    for s1 in range(n_suits):
        suit_n[s1] += 1
        for s2 in range(s1 if jokers == 2 else 0, n_suits if jokers == 2 else 1):
            if jokers == 2:
                suit_n[s2] += 1
            if _sizes_split(suit_n, n_suits):
                for r1 in range(13):
                    suit_key[s1] += np.int64(1) << (4 * r1)
                    if jokers == 1:
                        found = _suits_straight_flush_split(
                            suit_n, suit_key, n_suits, sf_keys, sf_offsets
                        )
                    else:
                        found = False
                        for r2 in range(r1 if s2 == s1 else 0, 13):
                            suit_key[s2] += np.int64(1) << (4 * r2)
                            found = _suits_straight_flush_split(
                                suit_n, suit_key, n_suits, sf_keys, sf_offsets
                            )
                            suit_key[s2] -= np.int64(1) << (4 * r2)
                            if found:
                                break
                    suit_key[s1] -= np.int64(1) << (4 * r1)
                    if found:
                        if jokers == 2:
                            suit_n[s2] -= 1
                        suit_n[s1] -= 1
                        return True
            if jokers == 2:
                suit_n[s2] -= 1
        suit_n[s1] -= 1
    return False


@nb.njit(cache=True)
def _three_flushes_jokers(suit_n, n_suits, jokers):
    if jokers == 0:
        return _sizes_split(suit_n, n_suits)
    for s1 in range(n_suits):
        suit_n[s1] += 1
        if jokers == 1:
            ok = _sizes_split(suit_n, n_suits)
        else:
            ok = False
            for s2 in range(s1, n_suits):
                suit_n[s2] += 1
                ok = _sizes_split(suit_n, n_suits)
                suit_n[s2] -= 1
                if ok:
                    break
        suit_n[s1] -= 1
        if ok:
            return True
    return False


@nb.njit(cache=True)
def _detect_any_kernel(rows, kinds, params, sf_keys, sf_offsets, ts_keys, ts_filter, n_suits, out):
    """The masks of hands of any deck (fifth suit 52..64, jokers 65-66; checked beforehand)."""
    n_rules = kinds.shape[0]
    suit_n = np.zeros(5, dtype=np.int64)
    suit_key = np.zeros(5, dtype=np.int64)
    for h in range(rows.shape[0]):
        suit_n[:] = 0
        suit_key[:] = 0
        key = np.int64(0)
        jokers = 0
        for j in range(13):
            c = rows[h, j]
            if c >= _FIRST_JOKER:
                jokers += 1
                continue
            r = _CARD_RANK[c]
            s = _CARD_SUIT[c]
            bit = np.int64(1) << (4 * r)
            suit_n[s] += 1
            suit_key[s] += bit
            key += bit
        real = 13 - jokers
        mask = np.uint32(0)
        for i in range(n_rules):
            kind = kinds[i]
            if kind == SpecialCode.CLEAN_DRAGON:
                ok = False
                for s in range(n_suits):
                    if (params[i, 0] >> s) & 1 and suit_n[s] == real:
                        ok = (suit_key[s] & ~ONES) == 0  # no rank twice: jokers fill the rest
            elif kind == SpecialCode.ONE_COLOR:
                ok = suit_n[1] + suit_n[2] == real or suit_n[0] + suit_n[3] == real
            elif kind == SpecialCode.THREE_FLUSHES:
                ok = _three_flushes_jokers(suit_n, n_suits, jokers)
            elif kind == SpecialCode.THREE_STRAIGHT_FLUSHES:
                ok = _three_straight_flushes_jokers(
                    suit_n, suit_key, n_suits, jokers, sf_keys, sf_offsets
                )
            else:
                ok = _key_qualifies_jokers(
                    kind, params[i, 0], params[i, 1], key, jokers, ts_keys, ts_filter
                )
            if ok:
                mask |= np.uint32(1) << np.uint32(i)
        out[h] = mask


_FIRST_JOKER = FIRST_JOKER
_CARD_RANK = np.maximum(CARD_RANKS, 0).astype(np.int64)  # a joker's entry is never read
_CARD_SUIT = np.maximum(CARD_SUITS, 0).astype(np.int64)


def _as_hand_rows(hands: npt.ArrayLike) -> tuple[np.ndarray, np.ndarray, tuple[int, ...]]:
    arr = np.asarray(hands)
    if arr.ndim == 0 or arr.shape[-1] != HAND_SIZE:
        raise SimkitError(
            f"detect_specials expects hands with a last axis of {HAND_SIZE} cards, "
            f"got shape {arr.shape}"
        )
    if not np.issubdtype(arr.dtype, np.integer):
        raise TypeError(f"detect_specials expects integer card arrays, got dtype {arr.dtype}")
    if arr.dtype != np.int8 and arr.size and (arr.min() < 0 or arr.max() >= N_CARD_INTS):
        bad = int(arr[(arr < 0) | (arr >= N_CARD_INTS)].ravel()[0])
        raise SimkitError(
            f"detect_specials: {bad} is not a card integer (cards are 0..51, 52..64 the fifth "
            "suit, 65-66 jokers)"
        )
    rows = np.ascontiguousarray(arr.reshape(-1, HAND_SIZE), dtype=np.int8)
    return arr, rows, arr.shape[:-1]


def _bad_hand_error(arr: np.ndarray, row: int, max_copies: int) -> ValueError:
    index = tuple(int(i) for i in np.unravel_index(row, arr.shape[:-1])) if arr.ndim > 1 else ()
    hand = arr.reshape(-1, HAND_SIZE)[row]
    if hand.min() < 0 or hand.max() >= N_CARD_INTS:
        bad = int(hand[(hand < 0) | (hand >= N_CARD_INTS)][0])
        return ValueError(
            f"detect_specials: {bad} at hand index {index} is not a card integer (cards are "
            "0..51, 52..64 the fifth suit, 65-66 jokers)"
        )
    decks = "one deck" if max_copies == 1 else "two decks"
    return ValueError(
        f"detect_specials: hand at index {index} holds a card more than {max_copies} time(s), "
        f"which {decks} cannot deal"
    )


def specials_of(variant: VariantLike) -> Specials:
    """The :class:`~simkit.variants.Specials` of a variant argument (or a ``Specials`` itself)."""
    if isinstance(variant, Specials):
        return variant
    return resolve_variant(variant).specials


def special_names(variant: VariantLike = None) -> tuple[str, ...]:
    """Chinese names of a variant's specials in bit order (best first)."""
    return specials_of(variant).names


def detect_specials(
    hands: npt.ArrayLike, variant: VariantLike = None, *, decks: int | None = None
) -> np.ndarray:
    """Bit masks of the specials each hand qualifies for: ``hands[..., 13]`` → ``uint32[...]``.

    Bit ``i`` stands for ``variant.specials.rules[i]`` (best first).  ``hands`` holds card ints
    (0..51); a card may repeat (two decks) at most twice, or never when ``decks=1``.
    ``variant`` is a name, a path, a :class:`~simkit.variants.Variant`, a
    :class:`~simkit.variants.Specials` or None for the default variant.

    >>> from simkit.cards import parse_cards
    >>> hand = parse_cards("2c 3d 4h 5s 6c 7d 8h 9s Tc Jd Qh Ks Ac")
    >>> [special_names()[i] for i in range(32) if int(detect_specials(hand)) >> i & 1]
    ['一条龙', '三顺子']
    """
    if decks not in (None, 1, 2):
        raise SimkitError(f"decks must be 1, 2 or None (up to two copies), got {decks!r}")
    arr, rows, lead = _as_hand_rows(hands)
    plan = _plan(specials_of(variant))
    max_copies = 1 if decks == 1 else 2
    out = np.empty(rows.shape[0], dtype=np.uint32)
    # The kernel checks every card as it reads it and stops at the first bad hand.
    bad_row = int(_detect_kernel(rows, *plan, max_copies, out))
    if bad_row >= 0:
        if rows.max() < DECK_SIZE:
            raise _bad_hand_error(arr, bad_row, max_copies)
        outside = ((rows < 0) | (rows >= N_CARD_INTS)).any(axis=1)
        if outside.any():
            raise _bad_hand_error(arr, int(np.argmax(outside)), max_copies)
        # a fifth-suit card or a joker: the kernel for any deck, after the card checks
        rows, _ = _any_deck_rows(arr, max_copies)
        n_suits = 5 if (rows[rows < FIRST_JOKER] >= DECK_SIZE).any() else 4
        _detect_any_kernel(rows, *plan, n_suits, out)
    return out.reshape(lead)


def _any_deck_rows(arr: np.ndarray, max_copies: int) -> tuple[np.ndarray, tuple]:
    rows, lead, _ = card_rows(arr, HAND_SIZE, "detect_specials", decks=max_copies, any_deck=True)
    return rows, lead


def best_special(masks: npt.ArrayLike) -> np.ndarray:
    """Index of the best special of each mask (its lowest set bit), ``-1`` for none, as ``int8``.

    >>> best_special(np.array([0, 0b100, 0b110], dtype=np.uint32)).tolist()
    [-1, 2, 1]
    """
    m = np.asarray(masks)
    if not np.issubdtype(m.dtype, np.integer):
        raise TypeError(f"best_special expects integer masks, got dtype {m.dtype}")
    m = m.astype(np.uint32)
    lowest = m & (~m + np.uint32(1))
    index = np.bitwise_count(lowest - np.uint32(1)).astype(np.int8)
    return np.where(m == 0, np.int8(-1), index).astype(np.int8)
