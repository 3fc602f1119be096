"""Hand ranking: one integer scale for 5-card (middle, back) and 3-card (front) duns.

``rank5`` and ``rank3`` return ``int32`` ranks: higher is stronger, equal is a tie (suits never
break ties), and ``rank3(front) <= rank5(middle)`` is the front-versus-middle test of the
``"<="`` foul order, so foul checks and dun comparisons are plain integer comparisons.  The
foul order itself, in all its variant forms, is :func:`order_holds`: the one test the scorer
and every strategy read.  Its ``"<top-three"`` form compares the front with the middle's top
three (:func:`top_three`): the middle cut to the ranks a 3-card front of its category carries.

A rank is ``category << 20 | kicker``.  The kicker writes the ranks that decide ties, most
significant first, as base-14 digits ``rank + 1`` padded with 0: a 3-card front therefore sits
below any 5-card hand of its category that starts with the same ranks (A-K-Q front < A-K-Q-3-2
middle), which is how the sources compare a front with a middle.

How it is fast (the method of published evaluators): every rank has a small additive key chosen
so that the sum of the keys of any 5 (or 3) ranks is unique; one table maps that sum to the rank
of a hand that is not a flush.  A flush (five cards of one suit) is looked up instead in an
8,192-entry table indexed by the bit mask of its ranks.  Both tables are built once per ranking
rule (where A-2-3-4-5 sits, whether five of a kind exists) from the plain definitions below.

Decks beyond the plain one (a fifth suit, jokers; :mod:`simkit.cards`) take a second kernel,
chosen only when a hand holds such a card, so one and two plain decks run the code above
unchanged.  A joker stands for any card, a copy of a card already held included (four aces and
a joker are 五同); on its own a dun takes its strongest value (:func:`rank5`, :func:`rank3`),
and in a set hand the holder names the jokers with the setting (:func:`name_duns`,
:func:`dun_ranks`): a setting some naming keeps legal is never fouled.  What a dun can become
depends only on the ranks of its real cards and on whether their suits are all one (a flush is
possible) or all different (五彩同花顺 is possible): one table per number of jokers (0, 1,
2), indexed by the key sum of the real cards, holds the best rank over every value of the
jokers, for each of the three suit patterns (:func:`any_deck_tables`; the slow reference beside
it tries every card for every joker, :func:`rank5_jokers_reference`).  五彩同花顺
(``[ranking].five_suit_straight``) ranks in the straight-flush category, with kickers below (or
above) every real straight flush.
"""

from __future__ import annotations

from dataclasses import replace
from enum import IntEnum
from functools import lru_cache
from itertools import combinations, combinations_with_replacement

import numba as nb
import numpy as np
import numpy.typing as npt

from simkit.cards import CARD_RANKS, CARD_SUITS, FIRST_JOKER, card_rows
from simkit.variants import Ranking, Variant, resolve_variant
from simkit.variants.compiled import (
    FOUL_FRONT_BELOW,
    FOUL_FRONT_BELOW_TOP_THREE,
    FOUL_MIDDLE_BELOW,
    MIN_PLAYERS,
    compile_rules,
)

CATEGORY_SHIFT = 20
KICKER_BASE = 14  # digits are rank + 1 (1..13); 0 pads short (3-card) hands
KICKER_DIGITS = 5  # a kicker is five base-14 digits, most significant first
KICKER_MASK = (1 << CATEGORY_SHIFT) - 1  # the kicker bits of a rank


class Category(IntEnum):
    """Hand categories, weakest first; ``rank >> 20`` reads one back."""

    HIGH_CARD = 0  # 散牌 / 乌龙
    PAIR = 1  # 对子
    TWO_PAIR = 2  # 两对
    TRIPS = 3  # 三条 (in front: 三尖刀 / 冲三)
    STRAIGHT = 4  # 顺子 / 蛇
    FLUSH = 5  # 同花
    FULL_HOUSE = 6  # 葫芦
    QUADS = 7  # 铁支 / 炸弹
    STRAIGHT_FLUSH = 8  # 同花顺
    FIVE_OF_A_KIND = 9  # 五同 (two decks only)


# Additive rank keys: the smallest increasing integers (greedy search) such that the sums of
# any multiset of 5 ranks, each rank up to 5 times (two decks), are all distinct.  The table
# builder re-checks the property, so a wrong key cannot go unnoticed.
RANK_KEYS = np.array(
    [0, 1, 6, 31, 108, 366, 926, 2286, 5733, 12905, 27316, 44676, 94545], dtype=np.int32
)
CARD_KEYS = np.repeat(RANK_KEYS, 4)  # key of card c is RANK_KEYS[c >> 2]


def encode(category: int, ranks: tuple[int, ...] | list[int]) -> int:
    """The rank integer of ``category`` with tie-break ``ranks`` (most significant first)."""
    kicker = 0
    for i in range(5):
        kicker = kicker * KICKER_BASE + (ranks[i] + 1 if i < len(ranks) else 0)
    return (int(category) << CATEGORY_SHIFT) | kicker


def _straight_top(distinct_ranks_desc: tuple[int, ...]) -> int | None:
    """Top rank of a 5-rank straight (3 for the wheel A-2-3-4-5), or None."""
    r = distinct_ranks_desc
    if len(r) != 5:
        return None
    if r[0] - r[4] == 4:
        return r[0]
    if r == (12, 3, 2, 1, 0):
        return 3
    return None


def _straight_rank(category: Category, top: int, ranking: Ranking) -> int:
    if top == 3 and ranking.wheel == "second":
        # A-2-3-4-5 just above the K-high straight, just below the A-high one (002).
        return encode(category, (11,)) + 1
    return encode(category, (top,))


def rank5_reference(ranks: tuple[int, ...], suited: bool, ranking: Ranking) -> int:
    """Rank of five cards given their ranks and whether all share one suit (plain Python)."""
    counts: dict[int, int] = {}
    for r in ranks:
        counts[r] = counts.get(r, 0) + 1
    # Groups by (count, rank), biggest first: the order that breaks ties.
    groups = sorted(counts.items(), key=lambda kv: (kv[1], kv[0]), reverse=True)
    shape = tuple(c for _, c in groups)
    order = tuple(r for r, _ in groups)
    desc = tuple(sorted(ranks, reverse=True))
    if shape == (5,):
        if ranking.five_of_a_kind:
            return encode(Category.FIVE_OF_A_KIND, order)
        return encode(Category.QUADS, (order[0], order[0]))
    if suited and shape == (1, 1, 1, 1, 1):
        top = _straight_top(desc)
        if top is not None:
            return _straight_rank(Category.STRAIGHT_FLUSH, top, ranking)
    if shape == (4, 1):
        return encode(Category.QUADS, order)
    if shape == (3, 2):
        return encode(Category.FULL_HOUSE, order)
    if suited:
        return encode(Category.FLUSH, desc)
    if shape == (1, 1, 1, 1, 1):
        top = _straight_top(desc)
        if top is not None:
            return _straight_rank(Category.STRAIGHT, top, ranking)
        return encode(Category.HIGH_CARD, desc)
    if shape == (3, 1, 1):
        return encode(Category.TRIPS, order)
    if shape == (2, 2, 1):
        return encode(Category.TWO_PAIR, order)
    if shape == (2, 1, 1, 1):
        return encode(Category.PAIR, order)
    raise AssertionError(f"unreachable shape {shape}")


def rank3_reference(ranks: tuple[int, ...]) -> int:
    """Rank of a 3-card front: trips > pair > high card (no straights or flushes in front)."""
    counts: dict[int, int] = {}
    for r in ranks:
        counts[r] = counts.get(r, 0) + 1
    groups = sorted(counts.items(), key=lambda kv: (kv[1], kv[0]), reverse=True)
    shape = tuple(c for _, c in groups)
    order = tuple(r for r, _ in groups)
    if shape[0] >= 3:  # three of one rank (two decks cannot give more in three cards)
        return encode(Category.TRIPS, order[:1])
    if shape[0] == 2:
        return encode(Category.PAIR, order)
    return encode(Category.HIGH_CARD, order)


FIVE_SUIT_PLACE = KICKER_BASE**3  # 五彩同花顺 below the straight flushes: top digit one place down
ABOVE_STRAIGHT_FLUSH = 13 * KICKER_BASE**4  # the kicker of the A-high straight flush


def five_suit_straight_rank(top: int, ranking: Ranking) -> int:
    """Rank of a 五彩同花顺 (five suits in sequence) with top rank ``top`` (3: the wheel).

    It sits in the straight-flush category: ``below-straight-flush`` writes its top one kicker
    digit lower than a straight flush's (so every real straight flush beats it),
    ``above-straight-flush`` adds it two digits lower onto the A-high straight flush's kicker.
    A-2-3-4-5 sits where the variant's ``wheel`` puts it among them.
    """
    if ranking.five_suit_straight == "off":
        raise ValueError("five_suit_straight is off in this ranking")
    if ranking.five_suit_straight == "below-straight-flush":
        base, place = 0, FIVE_SUIT_PLACE
    else:
        base, place = ABOVE_STRAIGHT_FLUSH, KICKER_BASE**2
    if top == 3 and ranking.wheel == "second":
        kicker = base + 12 * place + 1  # between the K-high and the A-high one
    else:
        kicker = base + (top + 1) * place
    return (int(Category.STRAIGHT_FLUSH) << CATEGORY_SHIFT) | kicker


def rank5_any_reference(cards: tuple[int, ...], ranking: Ranking) -> int:
    """Rank of five real cards of any deck (no joker; card ints 0..64), plain Python: the
    one-deck definition of :func:`rank5_reference`, and 五彩同花顺 when the ranking plays it."""
    ranks = tuple(sorted(_RANK_OF[c] for c in cards))
    suits = {_SUIT_OF[c] for c in cards}
    value = _rank5_reference_cached(ranks, len(suits) == 1, ranking)
    if ranking.five_suit_straight != "off" and len(suits) == 5:
        top = _straight_top(tuple(sorted(set(ranks), reverse=True)))
        if top is not None:
            value = max(value, five_suit_straight_rank(top, ranking))
    return value


_RANK_OF = CARD_RANKS.tolist()
_SUIT_OF = CARD_SUITS.tolist()
# The plain definition, remembered per (sorted ranks, suited): the reference tries so many
# substitutions that most repeat a rank multiset already ranked.
_rank5_reference_cached = lru_cache(maxsize=None)(lambda r, s, k: rank5_reference(r, s, k))


def _substitutes(cards: tuple[int, ...], ranking: Ranking) -> range:
    """The cards a joker may stand for: every card of the deck (its fifth suit where the hand or
    the ranking shows there is one)."""
    five_suits = ranking.five_suit_straight != "off" or any(52 <= c < FIRST_JOKER for c in cards)
    return range(FIRST_JOKER if five_suits else 52)


def rank5_jokers_reference(cards: tuple[int, ...], ranking: Ranking) -> int:
    """Rank of five cards of any deck, jokers wild: the best rank over every card each joker
    may stand for (slow and plainly correct; the reference of :func:`rank5`)."""
    real = tuple(c for c in cards if c < FIRST_JOKER)
    if len(real) == len(cards):
        return rank5_any_reference(real, ranking)
    rest = (FIRST_JOKER,) * (len(cards) - len(real) - 1)
    return max(
        rank5_jokers_reference((*real, sub, *rest), ranking) for sub in _substitutes(cards, ranking)
    )


def rank3_jokers_reference(cards: tuple[int, ...], ranking: Ranking) -> int:
    """Rank of a 3-card front of any deck, jokers wild: the best over every substitution."""
    real = tuple(c for c in cards if c < FIRST_JOKER)
    if len(real) == len(cards):
        return rank3_reference(tuple(_RANK_OF[c] for c in real))
    rest = (FIRST_JOKER,) * (len(cards) - len(real) - 1)
    return max(
        rank3_jokers_reference((*real, sub, *rest), ranking) for sub in _substitutes(cards, ranking)
    )


def ranking_order(ranking: Ranking) -> Ranking:
    """The ranking without its ``source`` note: variants whose duns order alike map to one
    value, so their tables are built once and shared (by identity) between them."""
    return ranking if not ranking.source else replace(ranking, source="")


def ranking_tables(ranking: Ranking) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(table5, flush_table, table3)`` for a ranking rule, built once and cached.

    ``table5[sum of 5 keys]`` ranks hands that are not 5-card flushes, ``flush_table[mask]``
    ranks 5 distinct suited ranks, ``table3[sum of 3 keys]`` ranks fronts.  Unused entries
    hold -1.  Rankings that differ only in their source note share the same arrays.
    """
    return _ranking_tables(ranking_order(ranking))


@lru_cache(maxsize=8)
def _ranking_tables(ranking: Ranking) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    size5 = 5 * int(RANK_KEYS[-1]) + 1
    table5 = np.full(size5, -1, dtype=np.int32)
    for combo in combinations_with_replacement(range(13), 5):
        s = int(RANK_KEYS[list(combo)].sum())
        if table5[s] != -1:
            raise AssertionError("RANK_KEYS are not unique for 5-card sums")
        table5[s] = rank5_reference(combo, False, ranking)
    flush_table = np.full(1 << 13, -1, dtype=np.int32)
    for combo in combinations(range(13), 5):
        mask = sum(1 << r for r in combo)
        flush_table[mask] = rank5_reference(combo, True, ranking)
    size3 = 3 * int(RANK_KEYS[-1]) + 1
    table3 = np.full(size3, -1, dtype=np.int32)
    for front in combinations_with_replacement(range(13), 3):
        s = int(RANK_KEYS[list(front)].sum())
        if table3[s] != -1:
            raise AssertionError("RANK_KEYS are not unique for 3-card sums")
        table3[s] = rank3_reference(front)
    return table5, flush_table, table3


MAX_JOKERS = 2


def any_deck_tables(ranking: Ranking) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """``(mixed5, suited5, five_suits5, front3)`` for hands of any deck, built once and cached.

    Each is indexed ``[jokers, key sum of the real cards]`` and holds the best rank the dun can
    reach over every value of its ``jokers`` (0, 1, 2) jokers: ``mixed5`` when its cards need
    not share a suit, ``suited5`` when they all share one (the jokers take it too),
    ``five_suits5`` when every suit is different (五彩同花顺; -1 where impossible or not
    played) and ``front3`` for a 3-card front.  A dun's rank is the largest of those its real
    cards' suits allow.  Unused entries hold -1.
    """
    return _any_deck_tables(ranking_order(ranking))


def _best_over_jokers(table0: np.ndarray, width: int) -> np.ndarray:
    """``table0`` indexed by key sums of ``width`` ranks → ``[jokers, key sum of the others]``:
    the largest entry over the ranks the jokers take (copies allowed)."""
    out = np.full((MAX_JOKERS + 1, table0.shape[0]), -1, dtype=np.int32)
    out[0] = table0
    for jokers in range(1, min(MAX_JOKERS, width - 1) + 1):
        adds = np.array(
            [sum(c) for c in combinations_with_replacement(RANK_KEYS.tolist(), jokers)],
            dtype=np.int64,
        )
        real_keys = np.array(
            [
                int(RANK_KEYS[list(c)].sum())
                for c in combinations_with_replacement(range(13), width - jokers)
            ],
            dtype=np.int64,
        )
        out[jokers, real_keys] = table0[real_keys[:, None] + adds[None, :]].max(axis=1)
    return out


@lru_cache(maxsize=2)
def _rank_key_tables(
    ranking: Ranking,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """By the rank-key sum of a dun's cards: the 5-card rank of mixed suits, of one suit
    (``-1`` where no flush is possible), of five different suits (``-1`` where no 五彩同花顺),
    and the 3-card rank; the joker tables below build on them."""
    table5, _, table3 = _ranking_tables(ranking)
    suited0 = np.full_like(table5, -1)
    five_suits0 = np.full_like(table5, -1)
    for combo in combinations_with_replacement(range(13), 5):
        k = int(RANK_KEYS[list(combo)].sum())
        suited0[k] = rank5_reference(combo, True, ranking)
        top = _straight_top(tuple(sorted(set(combo), reverse=True)))
        if ranking.five_suit_straight != "off" and top is not None:
            five_suits0[k] = five_suit_straight_rank(top, ranking)
    return table5, suited0, five_suits0, table3


@lru_cache(maxsize=2)  # the kernels read the flat copies (_any_deck_flat), cached per ranking
def _any_deck_tables(
    ranking: Ranking,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    table5, suited0, five_suits0, table3 = _rank_key_tables(ranking)
    tables = (
        _best_over_jokers(table5, 5),
        _best_over_jokers(suited0, 5),
        _best_over_jokers(five_suits0, 5),
        _best_over_jokers(table3, 3),
    )
    for t in tables:
        t.flags.writeable = False
    return tables


STRIDE5 = 5 * int(RANK_KEYS[-1]) + 1  # key sums of 5 ranks are below this
STRIDE3 = 3 * int(RANK_KEYS[-1]) + 1
MIXED, SUITED, ALL_SUITS_DIFFERENT = 0, 1, 2  # the suit patterns of a dun's real cards


def any_deck_flat(ranking: Ranking) -> tuple[np.ndarray, np.ndarray]:
    """:func:`any_deck_tables` laid out for the kernels: ``flat5[pattern, jokers, key]`` (one
    flat array; each pattern's entry is already the best of the tables it allows) and
    ``flat3[jokers, key]``, so that a dun is one lookup at the sum of its cards' codes
    (``_CARD_CODE5``: a real card's rank key, a joker's one stride)."""
    return _any_deck_flat(ranking_order(ranking))


@lru_cache(maxsize=8)
def _any_deck_flat(ranking: Ranking) -> tuple[np.ndarray, np.ndarray]:
    mixed5, suited5, five_suits5, front3 = _any_deck_tables(ranking)
    flat5 = np.stack(
        [mixed5, np.maximum(mixed5, suited5), np.maximum(mixed5, five_suits5)]
    ).reshape(-1)
    flat3 = np.ascontiguousarray(front3[:, :STRIDE3]).reshape(-1)
    for t in (flat5, flat3):
        t.flags.writeable = False
    return flat5, flat3


@nb.njit(cache=True, inline="always")
def rank5_any_one(c0, c1, c2, c3, c4, flat5):
    """Rank of one 5-card dun of any deck (jokers wild), with :func:`any_deck_flat`."""
    code = _CARD_CODE5[c0] + _CARD_CODE5[c1] + _CARD_CODE5[c2] + _CARD_CODE5[c3] + _CARD_CODE5[c4]
    bits = _SUIT_BIT[c0] | _SUIT_BIT[c1] | _SUIT_BIT[c2] | _SUIT_BIT[c3] | _SUIT_BIT[c4]
    real = _IS_REAL[c0] + _IS_REAL[c1] + _IS_REAL[c2] + _IS_REAL[c3] + _IS_REAL[c4]
    if (bits & (bits - 1)) == 0:  # one suit among the real cards: a flush is possible
        pattern = SUITED
    elif _POPCOUNT5[bits] == real:  # every suit different: 五彩同花顺 is possible
        pattern = ALL_SUITS_DIFFERENT
    else:
        pattern = MIXED
    return flat5[pattern * (MAX_JOKERS + 1) * STRIDE5 + code]


@nb.njit(cache=True, inline="always")
def rank3_any_one(c0, c1, c2, flat3):
    """Rank of one 3-card front of any deck (jokers wild)."""
    return flat3[_CARD_CODE3[c0] + _CARD_CODE3[c1] + _CARD_CODE3[c2]]


# Per card integer: its rank key (a joker: one table stride, which counts the jokers), its suit
# bit (a joker: none) and whether it is a real card.  Global arrays: numba freezes them in.
_IS_JOKER = CARD_RANKS < 0
_KEY_OF_CARD = RANK_KEYS[np.maximum(CARD_RANKS, 0)].astype(np.int64)
_CARD_CODE5 = np.where(_IS_JOKER, STRIDE5, _KEY_OF_CARD)
_CARD_CODE3 = np.where(_IS_JOKER, STRIDE3, _KEY_OF_CARD)
_SUIT_BIT = np.where(_IS_JOKER, 0, 1 << np.maximum(CARD_SUITS, 0).astype(np.int64))
_IS_REAL = (~_IS_JOKER).astype(np.int64)
_POPCOUNT5 = np.array([bin(b).count("1") for b in range(32)], dtype=np.int64)


@nb.njit(cache=True)
def _rank5_any_rows(cards, flat5, out):
    for i in range(cards.shape[0]):
        out[i] = rank5_any_one(
            cards[i, 0], cards[i, 1], cards[i, 2], cards[i, 3], cards[i, 4], flat5
        )


@nb.njit(cache=True)
def _rank3_any_rows(cards, flat3, out):
    for i in range(cards.shape[0]):
        out[i] = rank3_any_one(cards[i, 0], cards[i, 1], cards[i, 2], flat3)


def reach_tables(ranking: Ranking) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """``(start5, ranks5, start3, ranks3)``: every rank a dun of any deck can be named to.

    A dun's jokers may stand for any cards (:func:`any_deck_flat`), so a dun holding jokers can
    reach a set of ranks, not only its best one.  ``ranks5[start5[i]:start5[i + 1]]`` lists,
    ascending and without repeats, the ranks reachable by the 5-card dun whose
    :func:`any_deck_flat` index (pattern, jokers, key sum of its real cards) is ``i``;
    ``start3`` / ``ranks3`` the same for fronts (index: jokers, key sum).  Entries of duns
    without a joker are empty (their one rank is the flat table's).  Each list's last entry is
    the flat table's best rank; :func:`best_at_most` reads them.  ``int32`` arrays, cached per
    ranking order.
    """
    return _reach_tables(ranking_order(ranking))


def _reach_lists(tables: list[np.ndarray], width: int) -> dict[tuple[int, int], np.ndarray]:
    """``{(jokers, real key sum): sorted reachable ranks}`` of a dun of ``width`` cards whose
    value with the jokers' ranks added is any of ``tables``' entries (``-1``: not reachable)."""
    out = {}
    for jokers in range(1, min(MAX_JOKERS, width - 1) + 1):
        adds = np.array(
            [sum(c) for c in combinations_with_replacement(RANK_KEYS.tolist(), jokers)],
            dtype=np.int64,
        )
        for real in combinations_with_replacement(range(13), width - jokers):
            key = int(RANK_KEYS[list(real)].sum())
            values = np.concatenate([t[key + adds] for t in tables])
            out[jokers, key] = np.unique(values[values >= 0]).astype(np.int32)
    return out


def _csr(lists: dict[int, np.ndarray], size: int) -> tuple[np.ndarray, np.ndarray]:
    """Index ``i`` → ``lists[i]`` (empty where absent) as ``(start, values)``."""
    lengths = np.zeros(size, dtype=np.int64)
    for i, values in lists.items():
        lengths[i] = values.size
    start = np.zeros(size + 1, dtype=np.int32)
    start[1:] = np.cumsum(lengths)
    values = np.zeros(max(int(start[-1]), 1), dtype=np.int32)
    for i, v in lists.items():
        values[start[i] : start[i + 1]] = v
    return start, values


@lru_cache(maxsize=2)
def _reach_tables(ranking: Ranking) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    table5, suited0, five_suits0, table3 = _rank_key_tables(ranking)
    # a pattern's jokers may take any suit: the mixed ranks, and those its suits allow
    by_pattern = ([table5], [table5, suited0], [table5, five_suits0])
    lists5 = {}
    for pattern, tables in enumerate(by_pattern):
        for (jokers, key), values in _reach_lists(tables, 5).items():
            lists5[(pattern * (MAX_JOKERS + 1) + jokers) * STRIDE5 + key] = values
    lists3 = {jokers * STRIDE3 + key: v for (jokers, key), v in _reach_lists([table3], 3).items()}
    start5, ranks5 = _csr(lists5, 3 * (MAX_JOKERS + 1) * STRIDE5)
    start3, ranks3 = _csr(lists3, (MAX_JOKERS + 1) * STRIDE3)
    for t in (start5, ranks5, start3, ranks3):
        t.flags.writeable = False
    return start5, ranks5, start3, ranks3


@nb.njit(cache=True, inline="always")
def flat5_index(c0, c1, c2, c3, c4):
    """The :func:`any_deck_flat` index of one 5-card dun of any deck (:func:`rank5_any_one`)."""
    code = _CARD_CODE5[c0] + _CARD_CODE5[c1] + _CARD_CODE5[c2] + _CARD_CODE5[c3] + _CARD_CODE5[c4]
    bits = _SUIT_BIT[c0] | _SUIT_BIT[c1] | _SUIT_BIT[c2] | _SUIT_BIT[c3] | _SUIT_BIT[c4]
    real = _IS_REAL[c0] + _IS_REAL[c1] + _IS_REAL[c2] + _IS_REAL[c3] + _IS_REAL[c4]
    if (bits & (bits - 1)) == 0:
        pattern = SUITED
    elif _POPCOUNT5[bits] == real:
        pattern = ALL_SUITS_DIFFERENT
    else:
        pattern = MIXED
    return pattern * (MAX_JOKERS + 1) * STRIDE5 + code


@nb.njit(cache=True, inline="always")
def flat3_index(c0, c1, c2):
    """The :func:`any_deck_flat` index of one 3-card front of any deck."""
    return _CARD_CODE3[c0] + _CARD_CODE3[c1] + _CARD_CODE3[c2]


@nb.njit(cache=True, inline="always")
def best_at_most(best, index, cap, start, ranks):
    """The strongest rank at most ``cap`` a dun can be named to: ``best`` (its strongest) when
    that is at most ``cap``, else the largest entry at most ``cap`` of its reachable ranks
    (:func:`reach_tables`' ``start``, ``ranks`` at its flat ``index``; empty without a joker),
    -1 when none is."""
    if best <= cap:
        return best
    lo = start[index]
    hi = start[index + 1]  # ranks[lo:hi] ascending; find the last <= cap
    while lo < hi:
        mid = (lo + hi) >> 1
        if ranks[mid] <= cap:
            lo = mid + 1
        else:
            hi = mid
    if lo == start[index]:
        return np.int32(-1)
    return ranks[lo - 1]


@nb.njit(cache=True, inline="always")
def middle_cap(rb, order):
    """The strongest middle rank the foul order ``order`` allows under a back of rank ``rb``."""
    return rb - 1 if order & FOUL_MIDDLE_BELOW else rb


@nb.njit(cache=True, inline="always")
def front_cap(rm, order):
    """The strongest front rank the foul order ``order`` allows under a middle of rank ``rm``
    (non-decreasing in ``rm``: naming the middle stronger never restricts the front)."""
    if order & FOUL_FRONT_BELOW_TOP_THREE:
        return top_three_one(rm) - 1
    if order & FOUL_FRONT_BELOW:
        return rm - 1
    return rm


@nb.njit(cache=True, inline="always")
def name_duns(rf, rm, rb, i3, i5m, order, start5, ranks5, start3, ranks3):
    """The ranks ``(front, middle, back)`` its holder names a set hand's jokers to, given each
    dun's strongest rank (``rf``, ``rm``, ``rb``) and the flat indices of the front and the
    middle (:func:`flat3_index`, :func:`flat5_index`; read only where a dun holds a joker).

    The naming is greedy: the back at its strongest, the middle at its strongest rank the foul
    order ``order`` allows under that back, the front at its strongest allowed under that
    middle.  Raising a dun never restricts a lower one (:func:`middle_cap`, :func:`front_cap`
    are non-decreasing) and each joker sits in one dun, so every legal naming is below the
    greedy one in each dun: the greedy naming is legal whenever some naming is, and it is the
    best for any scoring that never falls when a dun's rank rises.  Where no naming is legal,
    the strongest ranks come back unchanged (the hand is fouled, :func:`order_holds` says so).
    """
    nm = best_at_most(rm, i5m, middle_cap(rb, order), start5, ranks5)
    if nm < 0:
        return rf, rm, rb
    nf = best_at_most(rf, i3, front_cap(nm, order), start3, ranks3)
    if nf < 0:
        return rf, rm, rb
    return nf, nm, rb


@nb.njit(cache=True)
def _named_rows(hands, flat5, flat3, start5, ranks5, start3, ranks3, order, out):
    for i in range(hands.shape[0]):
        h = hands[i]
        i3 = flat3_index(h[0], h[1], h[2])
        i5m = flat5_index(h[3], h[4], h[5], h[6], h[7])
        i5b = flat5_index(h[8], h[9], h[10], h[11], h[12])
        out[i, 0], out[i, 1], out[i, 2] = name_duns(
            flat3[i3], flat5[i5m], flat5[i5b], i3, i5m, order, start5, ranks5, start3, ranks3
        )


def named_dun_ranks(arranged: npt.ArrayLike, ranking: Ranking, order: int) -> np.ndarray:
    """Ranks ``int32 (..., 3)`` of set hands ``(..., 13)`` of any deck, [front 3 | middle 5 |
    back 5], with each joker named by its holder (:func:`name_duns`) under the foul order
    ``order`` (:attr:`~simkit.variants.compiled.CompiledRules.foul_order` bits).  Raises
    :class:`~simkit.errors.SimkitError` for a value that is not a card."""
    rows, lead, _ = card_rows(arranged, 13, "named_dun_ranks", any_deck=True)
    out = np.empty((rows.shape[0], 3), dtype=np.int32)
    flat5, flat3 = any_deck_flat(ranking)
    _named_rows(rows, flat5, flat3, *reach_tables(ranking), order, out)
    return out.reshape((*lead, 3))


def reachable_ranks_reference(cards: tuple[int, ...], ranking: Ranking) -> frozenset[int]:
    """Every rank the dun ``cards`` (3 or 5 cards, jokers wild) can be named to, by trying
    every card for every joker (plain Python; the reference of :func:`reach_tables`)."""
    return _reachable(tuple(sorted(cards)), ranking)


@lru_cache(maxsize=1 << 16)
def _reachable(cards: tuple[int, ...], ranking: Ranking) -> frozenset[int]:
    real = tuple(c for c in cards if c < FIRST_JOKER)
    if len(real) == len(cards):
        if len(cards) == 3:
            return frozenset({rank3_reference(tuple(sorted(_RANK_OF[c] for c in real)))})
        return frozenset({rank5_any_reference(real, ranking)})
    rest = (FIRST_JOKER,) * (len(cards) - len(real) - 1)
    out: set[int] = set()
    for sub in _substitutes(cards, ranking):
        out |= _reachable(tuple(sorted((*real, sub))) + rest, ranking)
    return frozenset(out)


def order_holds_reference(rf: int, rm: int, rb: int, order: int) -> bool:
    """:func:`order_holds` in plain Python (the reference of the naming tests)."""
    if rm > rb or (order & FOUL_MIDDLE_BELOW and rm == rb):
        return False
    if order & FOUL_FRONT_BELOW_TOP_THREE:
        return rf < int(top_three(np.int32(rm)))
    if order & FOUL_FRONT_BELOW:
        return rf < rm
    return rf <= rm


def legal_namings_reference(
    arranged: tuple[int, ...], ranking: Ranking, order: int
) -> list[tuple[int, int, int]]:
    """Every (front, middle, back) ranks some naming of a set hand's jokers gives that keeps
    the foul order ``order``, by trying every card for every joker (plain Python)."""
    front = reachable_ranks_reference(tuple(arranged[:3]), ranking)
    middle = reachable_ranks_reference(tuple(arranged[3:8]), ranking)
    back = reachable_ranks_reference(tuple(arranged[8:]), ranking)
    return [
        (rf, rm, rb)
        for rb in back
        for rm in middle
        if rm <= rb
        for rf in front
        if order_holds_reference(rf, rm, rb, order)
    ]


def named_ranks_reference(
    arranged: tuple[int, ...], ranking: Ranking, order: int
) -> tuple[int, int, int] | None:
    """The best naming of a set hand's jokers, by trying them all: of the legal namings
    (:func:`legal_namings_reference`), the one strongest in back, then middle, then front;
    None when no naming keeps the hand legal (slow and plainly correct: the reference of
    :func:`name_duns`)."""
    legal = legal_namings_reference(arranged, ranking, order)
    if not legal:
        return None
    return max(legal, key=lambda r: (r[2], r[1], r[0]))


@nb.njit(cache=True, inline="always")
def rank5_one(c0, c1, c2, c3, c4, table5, flush_table):
    """Rank of one 5-card hand (card ints) with the tables of :func:`ranking_tables`."""
    suit = c0 & 3
    if (c1 & 3) == suit and (c2 & 3) == suit and (c3 & 3) == suit and (c4 & 3) == suit:
        r0, r1, r2, r3, r4 = c0 >> 2, c1 >> 2, c2 >> 2, c3 >> 2, c4 >> 2
        mask = (1 << r0) | (1 << r1) | (1 << r2) | (1 << r3) | (1 << r4)
        value = flush_table[mask]
        if value >= 0:
            return value
        # Two decks: a suited hand with a repeated card is a flush, which beats any pair or
        # two pair it also holds (a suited full house or quads needs 3 copies of a card).
        rs = np.empty(5, dtype=np.int64)
        rs[0], rs[1], rs[2], rs[3], rs[4] = r0, r1, r2, r3, r4
        rs.sort()
        kicker = 0
        for i in range(4, -1, -1):
            kicker = kicker * 14 + rs[i] + 1
        return np.int32((5 << 20) | kicker)
    k = (
        _CARD_KEYS_NB[c0]
        + _CARD_KEYS_NB[c1]
        + _CARD_KEYS_NB[c2]
        + _CARD_KEYS_NB[c3]
        + _CARD_KEYS_NB[c4]
    )
    return table5[k]


@nb.njit(cache=True, inline="always")
def rank3_one(c0, c1, c2, table3):
    """Rank of one 3-card front (card ints)."""
    return table3[_CARD_KEYS_NB[c0] + _CARD_KEYS_NB[c1] + _CARD_KEYS_NB[c2]]


_CARD_KEYS_NB = CARD_KEYS  # a global array: numba freezes it into the compiled code


@nb.njit(cache=True)
def _rank5_rows(cards, table5, flush_table, out):
    for i in range(cards.shape[0]):
        out[i] = rank5_one(
            cards[i, 0], cards[i, 1], cards[i, 2], cards[i, 3], cards[i, 4], table5, flush_table
        )


@nb.njit(cache=True)
def _rank3_rows(cards, table3, out):
    for i in range(cards.shape[0]):
        out[i] = rank3_one(cards[i, 0], cards[i, 1], cards[i, 2], table3)


# What the tie-break digits a 3-card front of a category does not carry are worth: a high-card
# front carries 3 digits of 5, a pair front 2, a trips front 1 (rank3_reference).
_DROP_HIGH_CARD = KICKER_BASE**2
_DROP_PAIR = KICKER_BASE**3
_DROP_TRIPS = KICKER_BASE**4


@nb.njit(cache=True, inline="always")
def top_three_one(rank):
    """The middle's top three: the 5-card ``rank`` as a 3-card front of its category would be
    ranked, on the front's scale (its tie-break cut to the digits a front carries).

    High card: its three highest ranks; pair: the pair and its highest kicker; trips: the
    trips; two pair and above: unchanged (above every front whatever its digits).
    """
    category = rank >> CATEGORY_SHIFT
    kicker = rank & KICKER_MASK
    if category == Category.HIGH_CARD:
        return rank - kicker % _DROP_HIGH_CARD
    if category == Category.PAIR:
        return rank - kicker % _DROP_PAIR
    if category == Category.TRIPS:
        return rank - kicker % _DROP_TRIPS
    return rank


@nb.njit(cache=True, inline="always")
def order_holds(rf, rm, rb, order):
    """Whether dun ranks (front, middle, back) keep the foul order ``order``: the bits of
    :attr:`~simkit.variants.compiled.CompiledRules.foul_order` (none set: front ≤ middle ≤
    back; ``FOUL_FRONT_BELOW``: front < middle; ``FOUL_MIDDLE_BELOW``: middle < back;
    ``FOUL_FRONT_BELOW_TOP_THREE``: front < the middle's top three, :func:`top_three_one`).

    The one legality test: the scorer's foul test and every strategy's legal splits read it.
    """
    if rm > rb or (order & FOUL_MIDDLE_BELOW and rm == rb):
        return False
    if order & FOUL_FRONT_BELOW_TOP_THREE:
        return rf < top_three_one(rm)
    if order & FOUL_FRONT_BELOW:
        return rf < rm
    return rf <= rm


@nb.njit(cache=True)
def _orders_hold_rows(ranks, order, out):
    for i in range(ranks.shape[0]):
        out[i] = order_holds(ranks[i, 0], ranks[i, 1], ranks[i, 2], order)


def orders_hold(ranks: np.ndarray, order: int) -> np.ndarray:
    """:func:`order_holds` of each row of dun ranks ``int32 (n, 3)`` (front, middle, back):
    ``bool (n,)``."""
    rows = np.ascontiguousarray(ranks, dtype=np.int32)
    out = np.empty(rows.shape[0], dtype=np.bool_)
    _orders_hold_rows(rows, order, out)
    return out


@nb.njit(cache=True)
def _top_three_rows(ranks, out):
    for i in range(ranks.shape[0]):
        out[i] = top_three_one(ranks[i])


def top_three(ranks: npt.ArrayLike) -> np.ndarray:
    """The middle's top three (:func:`top_three_one`) of 5-card ranks ``int32 (...)``, on the
    front's scale: ``rank3(front) < top_three(rank5(middle))`` is the ``"<top-three"`` order.

    >>> from simkit.cards import parse_cards
    >>> middle = rank5(parse_cards("Qs Qh 4d 3c 2s"))
    >>> int(top_three(middle)) == int(rank3(parse_cards("Qd Qc 4s")))
    True
    """
    r = np.asarray(ranks, dtype=np.int32)
    out = np.empty(r.size, dtype=np.int32)
    _top_three_rows(r.reshape(-1), out)
    return out.reshape(r.shape)


def _ranking_of(variant: str | Variant | Ranking | None) -> Ranking:
    if isinstance(variant, Ranking):
        return variant
    return resolve_variant(variant).ranking


def rank5(cards: npt.ArrayLike, variant: str | Variant | Ranking | None = None) -> np.ndarray:
    """Rank 5-card hands: ``cards[..., 5]`` (card ints) → ``int32[...]``, higher is stronger.

    ``variant`` is a variant name, a :class:`~simkit.variants.Variant`, a
    :class:`~simkit.variants.Ranking` or None for the default variant.  Cards may be of any
    deck (fifth suit 52..64, jokers 65-66, wild); 五彩同花顺 counts when the ranking plays it
    (a ranking that does implies a deck with a fifth suit, so a joker may be a fifth-suit card).

    >>> from simkit.cards import parse_cards
    >>> int(rank5(parse_cards("As Ks Qs Js Ts"))) > int(rank5(parse_cards("9c 9d 9h 9s 2c")))
    True
    """
    rows, lead, beyond = card_rows(cards, 5, "rank5", any_deck=True)
    ranking = _ranking_of(variant)
    out = np.empty(rows.shape[0], dtype=np.int32)
    if beyond:  # a fifth-suit card or a joker somewhere
        _rank5_any_rows(rows, any_deck_flat(ranking)[0], out)
    else:
        table5, flush_table, _ = ranking_tables(ranking)
        _rank5_rows(rows, table5, flush_table, out)
    return out.reshape(lead)


def rank3(cards: npt.ArrayLike, variant: str | Variant | Ranking | None = None) -> np.ndarray:
    """Rank 3-card fronts: ``cards[..., 3]`` → ``int32[...]`` on the same scale as :func:`rank5`.

    Fronts know only trips > pair > high card; three in a row or of a suit is high card.  A
    joker takes the rank that makes the front strongest (a pair and a joker are trips).
    """
    rows, lead, beyond = card_rows(cards, 3, "rank3", any_deck=True)
    ranking = _ranking_of(variant)
    out = np.empty(rows.shape[0], dtype=np.int32)
    if beyond:
        _rank3_any_rows(rows, any_deck_flat(ranking)[1], out)
    else:
        _rank3_rows(rows, ranking_tables(ranking)[2], out)
    return out.reshape(lead)


def dun_ranks(
    arranged: npt.ArrayLike,
    variant: str | Variant | Ranking | None = None,
    order: int | None = None,
) -> np.ndarray:
    """Ranks ``int32 (..., 3)`` (front, middle, back) of set hands ``(..., 13)`` laid out
    [front 3 | middle 5 | back 5].

    A joker is named by its holder (:func:`name_duns`): where some naming of a hand's jokers
    keeps the foul order, the ranks are the greedy naming's (the back at its strongest, then
    the middle and the front at their strongest the order allows); where none does, each
    dun's strongest.  ``order``: the foul order's bits
    (:attr:`~simkit.variants.compiled.CompiledRules.foul_order`); None reads the variant's
    (front ≤ middle ≤ back when ``variant`` is a bare :class:`~simkit.variants.Ranking`).
    Hands without a joker are ranked dun by dun, as :func:`rank5` and :func:`rank3` do.
    """
    hands = np.asarray(arranged)
    if hands.size and hands.shape[-1:] == (13,) and (hands >= FIRST_JOKER).any():
        ranking = _ranking_of(variant)
        if order is None:
            order = _foul_order_of(variant)
        return named_dun_ranks(hands, ranking, order)
    return np.stack(
        [
            rank3(hands[..., :3], variant),
            rank5(hands[..., 3:8], variant),
            rank5(hands[..., 8:], variant),
        ],
        axis=-1,
    )


def _foul_order_of(variant: str | Variant | Ranking | None) -> int:
    """The foul order bits of a variant (0, front ≤ middle ≤ back, for a bare ranking)."""
    if isinstance(variant, Ranking):
        return 0
    return compile_rules(resolve_variant(variant), MIN_PLAYERS).foul_order


def category_of(ranks: npt.ArrayLike) -> np.ndarray:
    """The :class:`Category` value of each rank (as an int array; ``Category(x)`` names one)."""
    return np.asarray(ranks) >> CATEGORY_SHIFT


def describe_rank(rank: int) -> str:
    """A short English description of one rank integer, e.g. ``'FULL_HOUSE K-7'``."""
    category = Category(int(rank) >> CATEGORY_SHIFT)
    kicker = int(rank) & ((1 << CATEGORY_SHIFT) - 1)
    if category == Category.STRAIGHT_FLUSH and (
        kicker < 4 * KICKER_BASE**4 or kicker > ABOVE_STRAIGHT_FLUSH
    ):  # 五彩同花顺 (see five_suit_straight_rank)
        place = FIVE_SUIT_PLACE if kicker < 4 * KICKER_BASE**4 else KICKER_BASE**2
        rest = kicker % (KICKER_BASE**4) if kicker > ABOVE_STRAIGHT_FLUSH else kicker
        if rest % place:
            return "FIVE_SUIT_STRAIGHT 5-4-3-2-A"
        return f"FIVE_SUIT_STRAIGHT {'23456789TJQKA'[rest // place - 1]}"
    if kicker == (12 * KICKER_BASE**4) + 1:  # the wheel ranked second-highest (see _straight_rank)
        return f"{category.name} 5-4-3-2-A"
    digits = []
    for _ in range(5):
        digits.append(kicker % KICKER_BASE)
        kicker //= KICKER_BASE
    chars = "23456789TJQKA"
    shown = [chars[d - 1] for d in reversed(digits) if d > 0]
    return f"{category.name} {'-'.join(shown)}"
