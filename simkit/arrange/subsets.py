"""Ranking every 5-card and 3-card subset of a hand at once: the first step of every search.

A hand's 1,287 5-card and 286 3-card subsets are ranked once, from rank-multiset tables small
enough for L1 (:func:`rank_tables_of`); each entry packs a rank with its fine dun class, so one
load gives both.
"""

from __future__ import annotations

from functools import lru_cache
from itertools import combinations_with_replacement
from math import comb

import numba as nb
import numpy as np

from simkit.arrange.classes import (
    CLASS_BITS,
    CLASS_MASK,
    fine_class_of_code,
    fine_classes,
    fine_code,
)
from simkit.cards import DECK_SIZE, FIRST_JOKER
from simkit.evaluate import (
    RANK_KEYS,
    any_deck_flat,
    best_at_most,
    flat3_index,
    flat5_index,
    front_cap,
    middle_cap,
    rank3_any_one,
    rank5_any_one,
    rank5_one,
    ranking_order,
    ranking_tables,
    reach_tables,
)
from simkit.splits import FIVE_SUBSETS, THREE_SUBSETS
from simkit.variants import Ranking, Variant


def _multiset_index(ranks: tuple[int, ...]) -> int:
    """Combinatorial-number-system index of a non-decreasing rank multiset (5 or 3 ranks)."""
    return sum(comb(r + i, i + 1) for i, r in enumerate(ranks))


@lru_cache(maxsize=8)
def _multiset_tables(ranking: Ranking) -> tuple[np.ndarray, np.ndarray]:
    """``(multi5, multi3)``: ranks of non-flush 5-card duns and of fronts by the
    :func:`_multiset_index` of their sorted ranks (-1 where no hand has that index)."""
    table5, _, table3 = ranking_tables(ranking)
    multi5 = np.full(comb(17, 5), -1, dtype=np.int32)
    for combo in combinations_with_replacement(range(13), 5):
        multi5[_multiset_index(combo)] = table5[int(RANK_KEYS[list(combo)].sum())]
    multi3 = np.full(comb(15, 3), -1, dtype=np.int32)
    for front in combinations_with_replacement(range(13), 3):
        multi3[_multiset_index(front)] = table3[int(RANK_KEYS[list(front)].sum())]
    return multi5, multi3


def rank_tables_of(variant: Variant) -> tuple[np.ndarray, ...]:
    """The tables every kernel here takes: ``(packed5, packed3, flush_table, table5, flat5,
    flat3, class_of_code, start5, ranks5, start3, ranks3)``.

    ``packed5[i]`` is ``rank << CLASS_BITS | fine class`` of the non-flush 5-card hand whose sorted
    ranks have multiset index ``i`` (C(17,5) = 6,188 entries, against the 472,726 of the
    additive-key table: small enough for L1), ``packed3`` the same for fronts (C(15,3) = 455):
    one load gives a subset both its rank and its
    :func:`~simkit.arrange.classes.fine_classes`; ``class_of_code`` gives a flush its class
    (:func:`~simkit.arrange.classes.fine_class_of_code`).  Variants whose
    duns order alike get the same tuple (:func:`simkit.evaluate.ranking_order`).
    ``flat5``, ``flat3``: the tables of :func:`simkit.evaluate.any_deck_flat` for a variant
    whose deck has a fifth suit or jokers (a hand holding such cards is ranked with them),
    one-entry placeholders otherwise; ``start5`` .. ``ranks3``: the ranks each dun holding a
    joker can be named to (:func:`simkit.evaluate.reach_tables`, read by :func:`name_split`;
    placeholders likewise).
    """
    return _rank_tables(ranking_order(variant.ranking), not variant.deck.plain)


@lru_cache(maxsize=8)
def _rank_tables(ranking: Ranking, any_deck: bool = False) -> tuple[np.ndarray, ...]:
    table5, flush_table, _ = ranking_tables(ranking)
    packed = []
    for multi in _multiset_tables(ranking):
        ranks = np.maximum(multi, 0).astype(np.int64)
        packed.append(ranks << CLASS_BITS | fine_classes(ranks).astype(np.int64))
    if any_deck:
        flat5, flat3 = any_deck_flat(ranking)
        reach = reach_tables(ranking)
    else:  # read-only placeholders, as the real tables are: the kernels compile once for both
        flat5 = flat3 = np.zeros(1, np.int32)
        flat5.setflags(write=False)
        placeholder = np.zeros(2, np.int32)
        placeholder.setflags(write=False)
        reach = (placeholder,) * 4
    return (packed[0], packed[1], flush_table, table5, flat5, flat3, fine_class_of_code(), *reach)


@nb.njit(cache=True)
def rank_subsets(hand, rt, r5, r3, k5, k3):
    """Ranks of all 1,287 5-card and 286 3-card subsets of one rank-sorted hand.

    Nested loops visit subsets in the order of :data:`~simkit.splits.FIVE_SUBSETS` and carry
    partial sums of the multiset index (rank of position ``k``-th in the subset contributes
    C(rank + k, k + 1)).  Suited 5-sets go to the flush path of ``rank5_one``.  ``k5``, ``k3``
    receive the fine class of each rank
    (:func:`~simkit.arrange.classes.fine_classes`).

    Every index is unsigned (``n`` and the table lookups): a signed one makes numba test each
    lookup and store for a negative index, which slows the loops (results/bench/walk.md).
    """
    packed5, packed3, flush_table, table5, flat5, flat3, class_of_code = rt[:7]
    if hand[12] >= DECK_SIZE:  # a sorted hand with a fifth-suit card or a joker (last)
        _rank_subsets_any(hand, flat5, flat3, class_of_code, r5, r3, k5, k3)
        return
    scratch = np.empty((6, 13), dtype=np.int64)  # one allocation per hand, not six
    suits = scratch[0]
    # c[k][i] = C(rank_i + k, k + 1)
    c1, c2, c3, c4, c5 = scratch[1], scratch[2], scratch[3], scratch[4], scratch[5]
    for i in range(13):
        suits[i] = hand[i] & 3
        r = np.int64(hand[i] >> 2)
        c1[i] = r
        c2[i] = (r + 1) * r // 2
        c3[i] = (r + 2) * (r + 1) * r // 6
        c4[i] = (r + 3) * (r + 2) * (r + 1) * r // 24
        c5[i] = (r + 4) * (r + 3) * (r + 2) * (r + 1) * r // 120
    n = np.uint64(0)
    for a in range(9):
        ia = c1[a]
        sa = suits[a]
        for b in range(a + 1, 10):
            ib = ia + c2[b]
            fb = suits[b] == sa
            for c in range(b + 1, 11):
                ic = ib + c3[c]
                fc = fb and suits[c] == sa
                for d in range(c + 1, 12):
                    idx = ic + c4[d]
                    fd = fc and suits[d] == sa
                    for e in range(d + 1, 13):
                        if fd and suits[e] == sa:
                            rank = rank5_one(
                                hand[a], hand[b], hand[c], hand[d], hand[e], table5, flush_table
                            )
                            r5[n] = rank
                            k5[n] = class_of_code[fine_code(rank)]
                        else:
                            v = packed5[np.uint64(idx + c5[e])]
                            r5[n] = v >> CLASS_BITS
                            k5[n] = v & CLASS_MASK
                        n += np.uint64(1)
    n = np.uint64(0)
    for a in range(11):
        for b in range(a + 1, 12):
            ib = c1[a] + c2[b]
            for c in range(b + 1, 13):
                v = packed3[np.uint64(ib + c3[c])]
                r3[n] = v >> CLASS_BITS
                k3[n] = v & CLASS_MASK
                n += np.uint64(1)


@nb.njit(cache=True)
def _rank_subsets_any(hand, flat5, flat3, class_of_code, r5, r3, k5, k3):
    """:func:`rank_subsets` for a hand of any deck (jokers wild): each subset ranked on its own
    by :func:`~simkit.evaluate.rank5_any_one`, in the same order."""
    n = 0
    for a in range(9):
        for b in range(a + 1, 10):
            for c in range(b + 1, 11):
                for d in range(c + 1, 12):
                    for e in range(d + 1, 13):
                        r5[n] = rank5_any_one(hand[a], hand[b], hand[c], hand[d], hand[e], flat5)
                        k5[n] = class_of_code[fine_code(r5[n])]
                        n += 1
    n = 0
    for a in range(11):
        for b in range(a + 1, 12):
            for c in range(b + 1, 13):
                r3[n] = rank3_any_one(hand[a], hand[b], hand[c], flat3)
                k3[n] = class_of_code[fine_code(r3[n])]
                n += 1


@nb.njit(cache=True, inline="always")
def holds_joker(hand):
    """Whether a rank-sorted hand (jokers last) holds a joker: its duns are named
    (:func:`name_split`)."""
    return hand[12] >= FIRST_JOKER


@nb.njit(cache=True, inline="always")
def name_split(hand, f, m, rf, rm, rb, order, rt):
    """``(legal, front rank, middle rank)`` of the split (front ``f``, middle ``m``, a back of
    rank ``rb``) of a hand holding jokers, each joker named by its holder
    (:func:`simkit.evaluate.name_duns`): the middle at its strongest rank the foul order
    ``order`` allows under the back, the front at its strongest under that middle; ``rf``,
    ``rm``: the duns' strongest ranks (:func:`rank_subsets`).  ``legal`` is False where no
    naming keeps the order (the ranks returned then are not read).  A dun is looked up in
    the reach tables of ``rt`` only when its strongest rank is over its cap."""
    cap = middle_cap(rb, order)
    if rm > cap:
        a = FIVE_SUBSETS[m]
        index = flat5_index(hand[a[0]], hand[a[1]], hand[a[2]], hand[a[3]], hand[a[4]])
        rm = best_at_most(rm, index, cap, rt[7], rt[8])
        if rm < 0:
            return False, rf, rm
    cap = front_cap(rm, order)
    if rf > cap:
        a = THREE_SUBSETS[f]
        rf = best_at_most(rf, flat3_index(hand[a[0]], hand[a[1]], hand[a[2]]), cap, rt[9], rt[10])
        if rf < 0:
            return False, rf, rm
    return True, rf, rm


@nb.njit(cache=True, inline="always")
def named_class(rank, best, best_class, class_of_code):
    """The fine class of a dun named to ``rank``: ``best_class`` where it is the dun's
    strongest ``best``, else looked up."""
    if rank == best:
        return best_class
    return class_of_code[fine_code(rank)]
