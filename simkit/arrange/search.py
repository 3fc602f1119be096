"""The search kernels: greedy, random-legal, max-ev (pruned and exhaustive), legal splits.

Every kernel ranks a hand's subsets once (:func:`~simkit.arrange.subsets.rank_subsets`) and
then reads the ranks of its splits by gathering through the constant tables of
:mod:`simkit.splits`.

The max-ev search
-----------------
Backs are grouped by class and visited strongest class first; a bound at the favourable end
of the tables (:func:`~simkit.arrange.value.favourable_quantities`) drops whole back classes
(that bound never rises as the class falls, so the first class that fails ends the search),
then single backs (capping the middle and front at the strongest legal ones the other 8 cards
allow, one vectorized pass over the back's 56 splits, shared by the backs of one rank where
those 8 cards can hold no flush; a back whose caps are no stronger than
those of a back of its class that failed fails without its bound computed, and one whose
separable part at its caps plus the rest bounded at its class's caps falls short fails without
the joint chances of its own bound), then single splits
(the separable part plus a bound on the rest).  The expected score never falls when a
dun's win chance or worth rises, so every bound is valid and the answer equals the scan of
all 72,072 splits, ties broken the same way (stronger back, middle, front, then lower ids).

One walk (:func:`search_walk`) keeps the best ``k`` splits of distinct class triples
(:func:`keep_split`), its bounds tested against the list's bar (:func:`list_bar`): ``k = 1``
with no window is the max-ev search (:func:`max_ev_kernel`), a longer list within a window
the first stage of :mod:`simkit.arrange.rerank`.  Its inputs come in records:
:class:`SolverData` (one solver; :class:`SolverStack` stacks several), :class:`WalkTables`
(the constant tables) and :class:`WalkScratch` (the scratch, :func:`walk_scratch`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import NamedTuple, TypeAlias

import numba as nb
import numpy as np
import numpy.typing as npt

from simkit.arrange.classes import coarse_of_fine, fine_classes, fine_code
from simkit.arrange.joint import JOINT_CELLS, joint_cdfs
from simkit.arrange.subsets import (
    holds_joker,
    name_split,
    named_class,
    rank_subsets,
    rank_tables_of,
)
from simkit.arrange.value import (
    Q_LE,
    Q_LOSE,
    Q_VW,
    Q_WIN,
    PayoutModel,
    PlaceModel,
    check_home_rate,
    ev_quantities,
    expected_points,
    favourable_quantities,
    horse_bound,
    horse_bound_back,
    horse_points,
    payout_model,
    placed_points,
    placed_skip_below,
    plays_t_formula,
    separable_ev,
    split_ev,
    tie_extremes,
)
from simkit.arrange.wintables import WinTables, default_tables
from simkit.borrow import borrowed
from simkit.cards import DECK_SIZE
from simkit.deal import check_players
from simkit.evaluate import order_holds
from simkit.splits import (
    BACK_FRONT,
    BACK_MIDDLE,
    FIVE_MASKS,
    FIVE_SUBSETS,
    FIVE_WITH,
    N_DISTINCT,
    N_FIVE,
    N_THREE,
    SPLIT_IDS,
    THREE_SUBSETS,
    THREE_WITH,
)
from simkit.variants import Variant, resolve_variant
from simkit.variants.compiled import FOUL_MIDDLE_BELOW


@nb.njit(cache=True, inline="always")
def legal_split(rf, rm, rb, strict):
    """Whether a split keeps the foul order ``strict`` (the variant's
    :attr:`~simkit.variants.compiled.CompiledRules.foul_order` bits): the scorer's own test,
    :func:`simkit.evaluate.order_holds`, so no strategy sets a hand the scorer calls fouled."""
    return order_holds(rf, rm, rb, strict)


@nb.njit(cache=True, inline="always")
def _split_legal(hand, wild, split, r3, r5, strict, rt):
    """:func:`legal_split` of ``split`` (front, middle, back ids), the jokers of a hand that holds
    them (``wild``: :func:`~simkit.arrange.subsets.holds_joker`) named by the holder
    (:func:`~simkit.arrange.subsets.name_split`)."""
    f, m, b = split[0], split[1], split[2]
    if wild:
        return name_split(hand, f, m, r3[f], r5[m], r5[b], strict, rt)[0]
    return legal_split(r3[f], r5[m], r5[b], strict)


@nb.njit(cache=True)
def greedy_kernel(hands, rt, back_rest, strict, out):
    """The greedy split of each hand: the strongest back, then middle, then front, among the
    legal splits.

    ``hands``: int8 ``(n, 13)`` rank-sorted hands; ``rt``: the variant's rank tables
    (:func:`~simkit.arrange.subsets.rank_tables_of`); ``back_rest``: int ``(1287, k, 2)``, for
    each back subset the (middle, front) subset pairs of the rest; ``strict``: the foul-order
    bits (:func:`legal_split`).  Writes ``out[h]`` (int64 ``(n, 3)``): front, middle and back
    subset ids."""
    r5 = np.empty(N_FIVE, dtype=np.int32)
    r3 = np.empty(N_THREE, dtype=np.int32)
    k5 = np.empty(N_FIVE, dtype=np.int32)
    k3 = np.empty(N_THREE, dtype=np.int32)
    for h in range(hands.shape[0]):
        rank_subsets(hands[h], rt, r5, r3, k5, k3)
        wild = holds_joker(hands[h])
        best_b, best_m, best_f = -1, -1, -1
        id_f, id_m, id_b = -1, -1, -1
        for b in range(N_FIVE):
            rb = r5[b]
            if rb < best_b:
                continue
            for j in range(back_rest.shape[1]):
                m = back_rest[b, j, 0]
                f = back_rest[b, j, 1]
                rm, rf = r5[m], r3[f]
                if wild:
                    ok, rf, rm = name_split(hands[h], f, m, rf, rm, rb, strict, rt)
                    if not ok:
                        continue
                elif not legal_split(rf, rm, rb, strict):
                    continue
                if rb > best_b or (
                    rb == best_b and (rm > best_m or (rm == best_m and rf > best_f))
                ):
                    best_b, best_m, best_f = rb, rm, rf
                    id_f, id_m, id_b = f, m, b
        out[h, 0], out[h, 1], out[h, 2] = id_f, id_m, id_b


@nb.njit(cache=True, inline="always")
def _splitmix(state):
    state = (state + np.uint64(0x9E3779B97F4A7C15)) & np.uint64(0xFFFFFFFFFFFFFFFF)
    z = state
    z = ((z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)) & np.uint64(0xFFFFFFFFFFFFFFFF)
    z = ((z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)) & np.uint64(0xFFFFFFFFFFFFFFFF)
    return state, z ^ (z >> np.uint64(31))


@nb.njit(cache=True)
def random_kernel(hands, seeds, rt, split_ids, strict, out):
    """A uniformly random legal split of each hand, drawn from its own uint64 ``seeds[h]``
    (splitmix64), so the draw does not depend on the batch.

    ``hands``: int8 ``(n, 13)`` rank-sorted hands; ``rt``: the variant's rank tables;
    ``split_ids``: int ``(72072, 3)`` (front, middle, back) subset ids of every split;
    ``strict``: the foul-order bits (:func:`legal_split`).  Writes ``out[h]`` (int64
    ``(n, 3)``): the chosen split's front, middle and back subset ids."""
    r5 = np.empty(N_FIVE, dtype=np.int32)
    r3 = np.empty(N_THREE, dtype=np.int32)
    k5 = np.empty(N_FIVE, dtype=np.int32)
    k3 = np.empty(N_THREE, dtype=np.int32)
    n_splits = np.uint64(split_ids.shape[0])
    for h in range(hands.shape[0]):
        rank_subsets(hands[h], rt, r5, r3, k5, k3)
        wild = holds_joker(hands[h])
        hand = hands[h]
        state = np.uint64(seeds[h])
        chosen = -1
        # Rejection sampling is exactly uniform over legal splits; after 64 misses (a hand
        # with few legal splits) count them and draw one by index, also uniform.
        for _ in range(64):
            state, z = _splitmix(state)
            s = np.int64(z % n_splits)
            if _split_legal(hand, wild, split_ids[s], r3, r5, strict, rt):
                chosen = s
                break
        if chosen < 0:
            n_legal = 0
            for s in range(split_ids.shape[0]):
                if _split_legal(hand, wild, split_ids[s], r3, r5, strict, rt):
                    n_legal += 1
            state, z = _splitmix(state)
            k = np.int64(z % np.uint64(n_legal))
            for s in range(split_ids.shape[0]):
                if _split_legal(hand, wild, split_ids[s], r3, r5, strict, rt):
                    if k == 0:
                        chosen = s
                        break
                    k -= 1
        out[h, 0] = split_ids[chosen, 0]
        out[h, 1] = split_ids[chosen, 1]
        out[h, 2] = split_ids[chosen, 2]


@nb.njit(cache=True, inline="always")
def dun_beats(v, rf, rm, rb, f, m, b, best_v, key_b, key_m, key_f, id_b, id_m, id_f, front_first):
    """Whether a split beats the best so far: higher value, then stronger back, middle and
    front (``front_first``: front, middle, back), then lower subset ids, so the answer does
    not depend on the visiting order.  The best so far comes in scalars (a kernel keeps them
    in registers)."""
    if v != best_v:
        return v > best_v
    if front_first and rf != key_f:
        return rf > key_f
    if rb != key_b:
        return rb > key_b
    if rm != key_m:
        return rm > key_m
    if rf != key_f:
        return rf > key_f
    if b != id_b:
        return b < id_b
    if m != id_m:
        return m < id_m
    return f < id_f


# --------------------------------------------------------------------------------------------
# The kept list: the best ``top`` splits of distinct class triples, in the tie-break's order

#: Columns of a kept split's key (:attr:`WalkScratch.kept_keys`): its dun ranks, subset ids
#: and fine classes.
KEY_RB, KEY_RM, KEY_RF, KEY_IB, KEY_IM, KEY_IF, KEY_CF, KEY_CM, KEY_CB = range(9)


@nb.njit(cache=True, inline="always")
def window_bar(best, window, cap):
    """The lowest value a kept split may have, the best's value being ``best``:
    ``min(best, cap) - window``.  Near splits are kept (``window`` points below the best),
    and below ``cap`` only: a strong hand keeps all of its best ``top`` above ``cap - window``,
    since the places can lift one of them far above the rest.  The bar never falls as
    ``best`` grows, which lets the search raise it as it finds better splits."""
    return min(best, cap) - window


@nb.njit(cache=True, inline="always")
def list_bar(tv, n, top, window, cap):
    """The value a split must reach to enter the list ``tv`` (values, ``n`` kept, at most
    ``top``): the list's last once it is full and, once it holds a split, :func:`window_bar`
    of its best (``-inf`` while it is empty).  The best only grows while the search runs, so
    the bar never rises above the final list's: no split of the final list is pruned, and
    those kept under a lower bar are dropped at the end.  With ``top`` 1 and no window
    (``window`` and ``cap`` ``inf``) the bar is the best value found."""
    bar = -np.inf
    if n > 0:
        bar = window_bar(tv[0], window, cap)
        if n == top and tv[top - 1] > bar:
            bar = tv[top - 1]
    return bar


@nb.njit(cache=True)
def _write_kept(tv, tk, j, v, rf, rm, rb, f, m, b, cf, cm, cb):
    tv[j] = v
    tk[j, KEY_RB], tk[j, KEY_RM], tk[j, KEY_RF] = rb, rm, rf
    tk[j, KEY_IB], tk[j, KEY_IM], tk[j, KEY_IF] = b, m, f
    tk[j, KEY_CF], tk[j, KEY_CM], tk[j, KEY_CB] = cf, cm, cb


@nb.njit(cache=True)
def keep_split(v, rf, rm, rb, f, m, b, cf, cm, cb, tv, tk, n, top, front_first):
    """Offer a split (value ``v``, dun ranks, subset ids and fine classes) to the list ``tv``
    (float64 values) / ``tk`` (int64 keys, columns ``KEY_*``) of ``n`` splits, at most
    ``top``, kept in :func:`dun_beats`' order with one split per class triple (the one that
    order prefers); returns the list's new length."""
    # the place the split takes: that of its triple's split where the tie-break prefers it
    # (equal values), else a new one at the end, the last dropped when the list is full
    j = -1
    for i in range(n):
        if tk[i, KEY_CF] == cf and tk[i, KEY_CM] == cm and tk[i, KEY_CB] == cb:
            j = i
            break
    if j < 0:
        j = n if n < top else top - 1
    if j < n and not dun_beats(
        v, rf, rm, rb, f, m, b, tv[j], tk[j, KEY_RB], tk[j, KEY_RM], tk[j, KEY_RF],
        tk[j, KEY_IB], tk[j, KEY_IM], tk[j, KEY_IF], front_first,
    ):  # fmt: skip
        return n
    if j == n:
        n += 1
    # up past the splits it beats
    while j > 0 and dun_beats(
        v, rf, rm, rb, f, m, b, tv[j - 1], tk[j - 1, KEY_RB], tk[j - 1, KEY_RM],
        tk[j - 1, KEY_RF], tk[j - 1, KEY_IB], tk[j - 1, KEY_IM], tk[j - 1, KEY_IF], front_first,
    ):  # fmt: skip
        tv[j] = tv[j - 1]
        for c in range(tk.shape[1]):  # a loop: a slice's copy builds two views each step
            tk[j, c] = tk[j - 1, c]
        j -= 1
    _write_kept(tv, tk, j, v, rf, rm, rb, f, m, b, cf, cm, cb)
    return n


@nb.njit(cache=True, inline="always")
def _best_duns(r5, r3, middles, fronts, rb):
    """The strongest middle and front ranks over the splits ``(middles[j], fronts[j])`` of a
    back of rank ``rb`` that are legal with non-strict order (-1 if none): caps on the middle
    and front of every legal split with this back.

    Branch-free over unsigned ids, so the loop compiles to vector gathers.
    """
    top_m = np.int32(-1)
    top_f = np.int32(-1)
    for j in range(middles.shape[0]):
        rm = r5[middles[j]]
        rf = r3[fronts[j]]
        legal = (rm <= rb) & (rf <= rm)
        top_m = max(top_m, rm if legal else np.int32(-1))
        top_f = max(top_f, rf if legal else np.int32(-1))
    return top_m, top_f


@nb.njit(cache=True)
def _best_duns_named(hand, r5, r3, middles, fronts, rb, rt):
    """:func:`_best_duns` for a hand holding jokers, each split's jokers named by the holder
    (:func:`~simkit.arrange.subsets.name_split`) under the non-strict order, whose named
    ranks bound those of every stricter order's."""
    top_m = np.int32(-1)
    top_f = np.int32(-1)
    for j in range(middles.shape[0]):
        f, m = fronts[j], middles[j]
        ok, rf, rm = name_split(hand, f, m, r3[f], r5[m], rb, 0, rt)
        if ok:
            top_m = max(top_m, rm)
            top_f = max(top_f, rf)
    return top_m, top_f


#: Slots of a search's cache of the fine classes of its caps' ranks (a power of 2), for the
#: middle's and the front's each.
CAP_CLASS_SLOTS = 4096


@nb.njit(cache=True, inline="always")
def _cap_classes(rm_top, rf_top, class_of_code, cap_rank, cap_class):
    """The fine classes of a back's caps (:func:`_best_duns`' ranks; -1, -1 where the back has
    no legal split), each read through a direct-mapped cache keyed by the rank's low bits
    (``cap_rank``: the rank a slot holds, -1 none; ``cap_class``: its class; the middle's
    slots first, then the front's).  :func:`~simkit.arrange.classes.fine_code`'s divisions
    took about a tenth of the walk's time when done for every back visited, and the caps of a
    hand's backs, and of one hand and the next, repeat a few ranks (the strongest duns the
    other cards allow): the cache answers most of them with one load."""
    if rm_top < 0:
        return -1, -1
    slot = rm_top & (CAP_CLASS_SLOTS - 1)
    if cap_rank[slot] != rm_top:
        cap_rank[slot] = rm_top
        cap_class[slot] = class_of_code[fine_code(rm_top)]
    cm = cap_class[slot]
    slot = CAP_CLASS_SLOTS + (rf_top & (CAP_CLASS_SLOTS - 1))
    if cap_rank[slot] != rf_top:
        cap_rank[slot] = rf_top
        cap_class[slot] = class_of_code[fine_code(rf_top)]
    return cm, cap_class[slot]


#: Slots of a search's cache of caps by the back's rank (a power of 2), for backs whose other
#: 8 cards can hold no flush (:func:`back_caps`).
RANK_CAP_SLOTS = 1024
#: Set bits of every 13-bit mask.
_POPCOUNT13 = np.array([bin(i).count("1") for i in range(1 << 13)], dtype=np.uint8)
_POPCOUNT13.setflags(write=False)


@nb.njit(cache=True, inline="always")
def long_suits(hand):
    """The position masks of ``hand``'s suits of five cards or more (13 cards hold two at
    most; 0: none): the 8 cards beside a back can hold a flush of such a suit only.  A hand
    of any deck (a fifth suit or jokers, sorted last) gets ``-1, -1``: ranks there depend on
    more than suits, and :func:`back_caps` shares none of its caps."""
    if hand[12] >= DECK_SIZE:
        return np.int64(-1), np.int64(-1)
    first = np.int64(0)
    second = np.int64(0)
    for suit in range(4):
        m = np.int64(0)
        for i in range(13):
            if hand[i] & 3 == suit:
                m |= np.int64(1) << i
        if _POPCOUNT13[m] >= 5:
            if first == 0:
                first = m
            else:
                second = m
    return first, second


@nb.njit(cache=True, inline="always")
def back_caps(
    b, h, r5, r3, back_middle, back_front, long_a, long_b, class_of_code, cap_m, cap_f,
    cap_hand, cap_rank, cap_class, rank_key, rank_hand, rank_caps, hand, rt,
):  # fmt: skip
    """Make back ``b``'s caps (:func:`_best_duns` as fine classes, :func:`_cap_classes`)
    current for hand ``h`` in ``cap_m`` / ``cap_f``.

    Backs of one rank hold the same ranks, so the 8 cards beside them hold the same ranks
    too, and where those 8 can hold no flush (fewer than five cards of each of the hand's
    suits of five or more, ``long_a`` and ``long_b``: :func:`long_suits`) every 5-card and
    3-card subset of them ranks by its ranks alone: the caps are those of any back of that
    rank whose other 8 cards hold no flush either.  Such caps are kept by the back's rank
    (``rank_key``: the rank a slot holds, ``rank_hand``: its hand, ``rank_caps``: the
    middle's and front's classes; a slot taken by another rank costs a scan, not an answer),
    which spares about half the scans of a walk (two backs differing in the suit of a pair's
    card, say).  A hand holding jokers (``hand``, with the reach tables of ``rt``) names them
    (:func:`_best_duns_named`)."""
    if cap_hand[b] == h:
        return
    cap_hand[b] = h
    rb = r5[b]
    rest = np.int64(8191) & ~np.int64(FIVE_MASKS[b])
    shared = long_a >= 0 and _POPCOUNT13[long_a & rest] < 5 and _POPCOUNT13[long_b & rest] < 5
    slot = rb & (RANK_CAP_SLOTS - 1)
    if shared and rank_hand[slot] == h and rank_key[slot] == rb:
        cap_m[b] = rank_caps[slot, 0]
        cap_f[b] = rank_caps[slot, 1]
        return
    if holds_joker(hand):
        rm_top, rf_top = _best_duns_named(hand, r5, r3, back_middle[b], back_front[b], rb, rt)
    else:
        rm_top, rf_top = _best_duns(r5, r3, back_middle[b], back_front[b], rb)
    cm, cf = _cap_classes(rm_top, rf_top, class_of_code, cap_rank, cap_class)
    cap_m[b] = cm
    cap_f[b] = cf
    if shared:
        rank_key[slot] = rb
        rank_hand[slot] = h
        rank_caps[slot, 0] = cm
        rank_caps[slot, 1] = cf


@nb.njit(cache=True)
def eval_back(
    b, hand, solver, backs, subsets, memo, kept, n, top, window, cap, rest_max, m_cap, has_horse,
    gen,
):  # fmt: skip
    """Offer the legal splits with back ``b`` to the kept list ``kept`` (``(values, keys)``,
    :attr:`WalkScratch.kept_values` and ``kept_keys``; ``n`` splits, at most ``top``,
    :func:`keep_split`, its bar :func:`list_bar` with ``window`` and ``cap``), under
    ``solver`` (:class:`SolverData`); returns the list's new length and the splits scored.
    ``backs``: ``(back_middle, back_front, rt)`` of :class:`WalkTables`; ``subsets``:
    ``(r5, r3, c5, c3, x5, x3)`` and ``memo``: ``(memo_key, memo_value)`` of
    :class:`WalkScratch` (the few arrays read per split, not the whole records: a call per
    back passes each array's fields).

    ``solver.sep[d, c]`` is the separable part of the expected score of class ``c`` in dun
    ``d`` and ``rest_max`` bounds the rest (scoop, majority, home run, 马牌) over this back's
    splits, so a split whose separable part plus that bound cannot reach the bar is not
    scored.  Under the t-formula's places (:func:`~simkit.arrange.value.placed_points`) the
    separable part is the split's placed points (its own biggest worth), and ``rest_max``
    was found with the placed points of the caps' bound at ``m_cap``, their biggest worth.
    ``x5``, ``x3``: each subset's extra count of the 马牌 when it wins (read when
    ``has_horse``).  ``memo_key``, ``memo_value``: the values of recent class triples of
    this hand and solver (keys that hold ``gen``, the hand and solver's generation,
    :func:`next_generation`): splits of equal classes (cards of one rank swapped between
    duns, backs alike in all but suits) have equal values, and a fifth to a third of the
    splits scored repeat one.  A hand holding jokers (``hand``; the reach tables and
    ``class_of_code`` of ``rt``) names them (:func:`~simkit.arrange.subsets.
    name_split`): its splits are valued at the named duns' classes.
    """
    return _eval_back_body(
        b, hand, solver, backs, subsets, memo, kept, n, top, window, cap, rest_max, m_cap,
        has_horse, gen, True,
    )  # fmt: skip


@nb.njit(cache=True, inline="always")
def eval_back_plain(
    b, hand, solver, backs, subsets, memo, kept, n, top, window, cap, rest_max, m_cap, has_horse,
    gen,
):  # fmt: skip
    """:func:`eval_back` of a hand holding no joker under a solver that prices no places: the
    same answers, compiled without those paths and inlined into the walk (its most common
    case; ``results/bench/walk.md``)."""
    return _eval_back_body(
        b, hand, solver, backs, subsets, memo, kept, n, top, window, cap, rest_max, m_cap,
        has_horse, gen, False,
    )  # fmt: skip


@nb.njit(cache=True, inline="always")
def _eval_back_body(
    b, hand, solver, backs, subsets, memo, kept, n, top, window, cap, rest_max, m_cap, has_horse,
    gen, general,
):  # fmt: skip
    """:func:`eval_back`'s loop; ``general`` False (a constant where it is inlined) leaves
    out the jokers' naming and the places."""
    q, sep, p, cop, strict = solver.q, solver.sep, solver.p, solver.cop, solver.strict
    back_middle, back_front, rt = backs
    r5, r3, c5, c3, x5, x3 = subsets
    memo_key, memo_value = memo
    tv, tk = kept
    front_first = solver.front_first
    rb = r5[b]
    wild = general and holds_joker(hand)
    # classes as unsigned indices: no test for a negative index at each lookup
    cb = np.uint64(c5[b])
    n_opp = p.n_opp
    sep_b = sep[2, cb]
    w2, l2, v2, e2 = q[2, cb, 0], q[2, cb, 1], q[2, cb, 2], q[2, cb, 3]
    bar = list_bar(tv, n, top, window, cap)
    n_scored = 0
    placed = general and p.place > 0.0
    # 1e-9: rounding must never drop a split that ties the bar (the tie-break decides)
    skip_below = placed_skip_below(bar - rest_max - 1e-9, m_cap, p, True) if placed else 0.0
    # the same for the split's own biggest worth, kept for the last worth seen
    last_m = -1.0
    last_skip = 0.0
    for j in range(back_middle.shape[1]):
        m = back_middle[b, j]
        f = back_front[b, j]
        rm = r5[m]
        rf = r3[f]
        if wild:
            ok, rf, rm = name_split(hand, f, m, rf, rm, rb, strict, rt)
            if not ok:
                continue
            cf = np.uint64(named_class(rf, r3[f], c3[f], rt[6]))
            cm = np.uint64(named_class(rm, r5[m], c5[m], rt[6]))
        else:
            if not legal_split(rf, rm, rb, strict):
                continue
            cf = np.uint64(c3[f])
            cm = np.uint64(c5[m])
        points = n_opp * (sep[0, cf] + sep[1, cm] + sep_b)
        if placed:  # the caps' bound first, then the split's own biggest worth
            if points < skip_below:
                continue
            m_split = np.float64(max(q[0, cf, 2], max(q[1, cm, 2], v2)))
            if m_split != last_m:
                last_m = m_split
                last_skip = placed_skip_below(bar - rest_max - 1e-9, m_split, p, False)
            if points < last_skip:
                continue
        elif points + rest_max + 1e-9 < bar:
            continue
        n_scored += 1
        # the classes and the generation in one key (13 bits a class: fine classes < 8,192)
        triple = gen | (np.int64(cf) << 26) | (np.int64(cm) << 13) | np.int64(cb)
        slot = (np.int64(cf) ^ (np.int64(cm) * 7) ^ (np.int64(cb) * 13)) & (memo_key.shape[0] - 1)
        if memo_key[slot] == triple:
            v = memo_value[slot]
        else:
            v = expected_points(
                q[0, cf, 0], q[1, cm, 0], w2,
                q[0, cf, 1], q[1, cm, 1], l2,
                q[0, cf, 2], q[1, cm, 2], v2,
                q[0, cf, 3], q[1, cm, 3], e2,
                p, cop,
            )  # fmt: skip
            memo_key[slot] = triple
            memo_value[slot] = v
        if has_horse:
            v += n_opp * horse_points(
                q, np.int64(cf), np.int64(cm), np.int64(cb), x3[f], x5[m], x5[b]
            )
        if v + 1e-9 < bar:
            continue
        n = keep_split(
            v, rf, rm, rb, f, m, b, np.int64(cf), np.int64(cm), np.int64(cb), tv, tk, n, top,
            front_first,
        )  # fmt: skip
        new_bar = list_bar(tv, n, top, window, cap)
        if placed and new_bar != bar:
            skip_below = placed_skip_below(new_bar - rest_max - 1e-9, m_cap, p, True)
            last_m = -1.0
        bar = new_bar
    return n, n_scored


#: Slots of the search's memo of split values by class triple (a power of 2).
MEMO_SLOTS = 256


@nb.njit(cache=True)
def horse_counts(hand, card, multiplier, five, three, x5, x3):
    """The 马牌's extra count (multiplier**copies - 1) of every subset of ``hand``; returns
    the copies the hand holds (0: ``x5``, ``x3`` left as they are)."""
    held = np.zeros(13, dtype=np.int64)
    copies = 0
    for i in range(13):
        if hand[i] == card:
            held[i] = 1
            copies += 1
    if copies == 0:
        return 0
    if copies == 1:  # one copy: the subsets that hold it, and none elsewhere
        x5[:] = 0.0
        x3[:] = 0.0
        i = np.argmax(held)
        for s in FIVE_WITH[i]:
            x5[s] = multiplier - 1.0
        for s in THREE_WITH[i]:
            x3[s] = multiplier - 1.0
        return copies
    # the extra count of k copies, looked up once (not a power per subset)
    extra = np.empty(6, dtype=np.float64)
    for k in range(6):
        extra[k] = multiplier**k - 1.0
    for s in range(five.shape[0]):  # two decks: count the copies in every subset
        k = held[five[s, 0]] + held[five[s, 1]] + held[five[s, 2]] + held[five[s, 3]]
        k += held[five[s, 4]]
        x5[s] = extra[k]
    for s in range(three.shape[0]):
        k = held[three[s, 0]] + held[three[s, 1]] + held[three[s, 2]]
        x3[s] = extra[k]
    return copies


@nb.njit(cache=True, inline="always")
def present_below(present, g):
    """The highest group below ``g`` whose bit is set in ``present`` (-1: none)."""
    w = (g - 1) >> 6
    if w < 0:
        return -1
    bits = present[w] & ((np.uint64(2) << np.uint64((g - 1) & 63)) - np.uint64(1))
    while bits == 0:
        w -= 1
        if w < 0:
            return -1
        bits = present[w]
    top = 0  # the highest set bit, by halves
    for half in (32, 16, 8, 4, 2, 1):
        if bits >> np.uint64(half) != 0:
            bits >>= np.uint64(half)
            top += half
    return w * 64 + top


@nb.njit(cache=True)
def group_backs(c3, c5, group_of, head, group_top, next_back, group_list, present):
    """A hand's backs by the group of their fine class (:func:`max_ev_kernel`'s walk): the
    backs of group ``g`` as a linked list from ``head[g]`` through ``next_back``, its
    strongest class in ``group_top[g]``, its bit set in ``present`` and ``g`` in
    ``group_list`` (``head`` holds -2 for the groups the hand lacks, as
    :func:`clear_groups` leaves it).  Returns the strongest front class, the strongest
    5-card class and the number of groups.

    A function of its own, not inlined into the walk: inlined, its loop over the 1,287 backs
    shared the walk's registers and reloaded its arrays from the stack at every back."""
    top_f = 0
    for i in range(N_THREE):
        top_f = max(top_f, c3[i])
    top_5 = 0
    for i in range(N_FIVE):
        top_5 = max(top_5, c5[i])
    n_grp = 0
    for b in range(N_FIVE):
        cb = c5[b]
        g = np.uint64(group_of[np.uint64(cb)])  # unsigned: no test for a negative index
        if head[g] == -2:
            head[g] = -1
            present[g >> np.uint64(6)] |= np.uint64(1) << (g & np.uint64(63))
            group_top[g] = cb
            group_list[n_grp] = g
            n_grp += 1
        group_top[g] = max(group_top[g], cb)
        next_back[b] = head[g]
        head[g] = b
    return top_f, top_5, n_grp


@nb.njit(cache=True, inline="always")
def clear_groups(head, present, group_list, n_grp):
    """Undo :func:`group_backs` for the next hand (only the groups it set)."""
    for k in range(n_grp):
        head[group_list[k]] = -2
        present[group_list[k] >> 6] = 0


# --------------------------------------------------------------------------------------------
# The search walk's records: what a kernel passes the walk, bundled by role


class SolverData(NamedTuple):
    """One solver's inputs to the walk (:meth:`Solver.data`; :func:`solver_at` of a stack).

    ``q``, ``fav``: the quantities and their favourable ends (``(3, C, 4)``, float32 or
    float64); ``sep``: float64 ``(3, C)``, the separable part (:attr:`Solver.sep`); ``p``:
    the payout record (a :data:`~simkit.arrange.value.PAYOUT_PARAMS` record, fields read by
    name); ``cop``: the copula grids; ``strict``: the foul-order bits
    (:func:`legal_split`); ``horse``: the 马牌 card (-1: none; its multiplier ``p.horse``);
    ``front_first``: equal values go to the stronger front (:func:`dun_beats`)."""

    q: np.ndarray
    fav: np.ndarray
    sep: np.ndarray
    p: np.void
    cop: np.ndarray
    strict: int
    horse: int
    front_first: bool


class SolverStack(NamedTuple):
    """``K`` solvers' :class:`SolverData` stacked along a first axis (solvers that share one
    ranking): ``q``, ``fav`` ``(K, 3, C, 4)``, ``sep`` ``(K, 3, C)``, ``p`` ``(K,)`` payout records,
    ``cop`` ``(K, ...)``; ``strict``, ``horse``, ``ties`` int64 ``(K,)`` (``ties[k]`` 1:
    ``front_first``)."""

    q: np.ndarray
    fav: np.ndarray
    sep: np.ndarray
    p: np.ndarray
    cop: np.ndarray
    strict: np.ndarray
    horse: np.ndarray
    ties: np.ndarray


@nb.njit(cache=True, inline="always")
def solver_at(stack, k):
    """Solver ``k`` of a :class:`SolverStack` as its :class:`SolverData` (views, no copy)."""
    return SolverData(
        stack.q[k], stack.fav[k], stack.sep[k], stack.p[k], stack.cop[k], stack.strict[k],
        stack.horse[k], stack.ties[k] != 0,
    )  # fmt: skip


class WalkTables(NamedTuple):
    """The constant tables the walk reads: ``rt``, the variant's rank tables
    (:func:`~simkit.arrange.subsets.rank_tables_of`; ``rt[6]`` the fine class of a rank code);
    ``back_middle``, ``back_front``: int ``(1287, 56)``, each back's splits
    (:data:`~simkit.splits.BACK_MIDDLE`, :data:`~simkit.splits.BACK_FRONT`); ``five``,
    ``three``: the subsets' hand positions (:data:`~simkit.splits.FIVE_SUBSETS`,
    :data:`~simkit.splits.THREE_SUBSETS`); ``group_of``: int ``(C,)``, the group of each fine
    class, ordered as the classes are (:func:`~simkit.arrange.classes.coarse_of_fine`)."""

    rt: tuple[np.ndarray, ...]
    back_middle: np.ndarray
    back_front: np.ndarray
    five: np.ndarray
    three: np.ndarray
    group_of: np.ndarray


def walk_tables(rt: tuple[np.ndarray, ...]) -> WalkTables:
    """The :class:`WalkTables` of a variant's rank tables ``rt`` and the shipped constants."""
    return WalkTables(rt, BACK_MIDDLE, BACK_FRONT, FIVE_SUBSETS, THREE_SUBSETS, coarse_of_fine())


class WalkScratch(NamedTuple):
    """The walk's scratch arrays (:func:`walk_scratch`), as it expects them at its start.

    ``r5``, ``r3``, ``c5``, ``c3``: the subsets' ranks and fine classes; ``head``,
    ``group_top``, ``next_back``, ``group_list``, ``present``: the backs' groups
    (:func:`group_backs`; ``present`` holds the groups present as bits, 64 a word); ``cap_m``,
    ``cap_f``, ``cap_hand``: each back's caps as dun classes (-1: no legal split), current
    where ``cap_hand[b]`` is the hand's index; ``x5``, ``x3``: the 马牌's extra counts
    (:func:`horse_counts`); ``memo_key``, ``memo_value``: the memo of split values
    (:func:`eval_back`); ``cap_rank``, ``cap_class``: the cache of the caps' classes
    (:func:`_cap_classes`); ``rank_key``, ``rank_hand``, ``rank_caps``: the caps kept by the
    back's rank (:func:`back_caps`); ``kept_values`` float64 ``(top,)``, ``kept_keys`` int64
    ``(top, 9)``: the kept list (:func:`keep_split`; columns ``KEY_*``)."""

    r5: np.ndarray
    r3: np.ndarray
    c5: np.ndarray
    c3: np.ndarray
    head: np.ndarray
    group_top: np.ndarray
    next_back: np.ndarray
    group_list: np.ndarray
    present: np.ndarray
    cap_m: np.ndarray
    cap_f: np.ndarray
    cap_hand: np.ndarray
    x5: np.ndarray
    x3: np.ndarray
    memo_key: np.ndarray
    memo_value: np.ndarray
    cap_rank: np.ndarray
    cap_class: np.ndarray
    rank_key: np.ndarray
    rank_hand: np.ndarray
    rank_caps: np.ndarray
    kept_values: np.ndarray
    kept_keys: np.ndarray


@nb.njit(cache=True, inline="always")
def walk_bound(fav, p, cop, cf, cm, cb, has_horse, x_top, copies, x_back, one_back):
    """The expected score's bound over splits whose duns are at most classes ``(cf, cm, cb)``
    (:func:`~simkit.arrange.value.split_ev` at the favourable quantities ``fav``), with the
    马牌's bound of a group (:func:`~simkit.arrange.value.horse_bound`) or, ``one_back``, of
    one back whose own extra count is ``x_back``
    (:func:`~simkit.arrange.value.horse_bound_back`)."""
    bound = split_ev(fav, p, cop, cf, cm, cb, True)
    if has_horse:
        if one_back:
            bound += p.n_opp * horse_bound_back(fav, cf, cm, cb, x_top, copies, x_back)
        else:
            bound += p.n_opp * horse_bound(fav, cf, cm, cb, x_top, copies)
    return bound


@nb.njit(cache=True, inline="always")
def hand_groups(hand, tables, work):
    """The work of a walk that depends on ``hand``'s cards only, shared by every solver it is
    searched under: its subsets ranked into ``work`` (``r5``, ``r3``, ``c5``, ``c3``), its
    backs grouped (:func:`group_backs`).  Returns ``(top_f, top_5, n_grp, long_a, long_b)``:
    the strongest front and 5-card classes, the groups' count (for :func:`clear_groups`) and
    the hand's long suits (:func:`long_suits`)."""
    rank_subsets(hand, tables.rt, work.r5, work.r3, work.c5, work.c3)
    top_f, top_5, n_grp = group_backs(
        work.c3, work.c5, tables.group_of, work.head, work.group_top, work.next_back,
        work.group_list, work.present,
    )  # fmt: skip
    long_a, long_b = long_suits(hand)
    return top_f, top_5, n_grp, long_a, long_b


@nb.njit(cache=True, inline="always")
def next_generation(n_gen, memo_key):
    """The memo's next generation after ``n_gen``: ``(n_gen, gen)``, ``gen`` the key bits of
    a new hand or solver (its entries are stale then; the generation sits in a key's top 24
    bits, and once they are spent the memo is emptied and counts again)."""
    n_gen += 1
    if n_gen == 1 << 24:
        memo_key[:] = -1
        n_gen = 1
    return n_gen, np.int64(n_gen) << 39


@nb.njit(cache=True, inline="always")
def search_walk(h, hand, groups, solver, tables, work, top, window, cap, gen):
    """The best ``top`` splits of distinct class triples of hand ``h`` (``hand``, its backs
    grouped by :func:`hand_groups`, which returned ``groups``) under ``solver``
    (:class:`SolverData`), within the window's bar (:func:`list_bar`: ``window`` below the
    best's value, that value capped at ``cap``), in :func:`dun_beats`' order: written to
    ``work.kept_values`` / ``work.kept_keys`` (:func:`keep_split`).  Returns the splits kept
    and the splits scored.  ``top`` 1 with ``window`` and ``cap`` ``inf`` keeps the argmax
    of the expected score over the legal splits (:func:`max_ev_kernel`), the scan of all
    72,072 splits' answer with its tie-break.  ``gen``: the memo's generation
    (:func:`next_generation`), new for each hand and solver.

    Every split with back ``b`` has its front at most the hand's best front class and its
    middle at most min(the hand's best 5-card class, the class of b): that bound depends only
    on b's class and never rises as the class falls (the favourable quantities are monotone).
    Backs are grouped by ``tables.group_of`` their fine class (a hand's few hundred fine back
    classes fall in a few dozen groups, ordered as the classes are), groups are visited
    strongest first, and the walk stops at the first group whose bound at its strongest class
    cannot reach the bar.  A back that passes gets a tighter bound from its own class and the
    strongest legal middle and front its other 8 cards allow (:func:`back_caps`) before its
    56 splits are scored (:func:`eval_back`); that bound rises with all three, so once it
    fails it fails for every back of the group whose class and caps are no stronger.  Outside
    the places, the group's bound less its separable part bounds the rest of every back of
    the group, so a back's separable part at its caps plus that is checked first, with no
    joint chances to compute.  A hand holding the solver's 马牌 adds
    :func:`~simkit.arrange.value.horse_points` to every split and the 马牌's bounds to the
    group's and back's (:func:`walk_bound`).

    Inlined into each kernel that calls it, as :func:`hand_groups` is (a call of its own per
    hand and solver is slower: ``results/bench/walk.md``).
    """
    top_f, top_5, _, long_a, long_b = groups
    fav, p, cop = solver.fav, solver.p, solver.cop
    head, group_top, next_back, present = work.head, work.group_top, work.next_back, work.present
    c5, cap_m, cap_f, x5 = work.c5, work.cap_m, work.cap_f, work.x5
    tv = work.kept_values
    # what eval_back reads, bundled once
    backs = (tables.back_middle, tables.back_front, tables.rt)
    subsets = (work.r5, work.r3, c5, work.c3, x5, work.x3)
    memo = (work.memo_key, work.memo_value)
    kept = (tv, work.kept_keys)
    copies = 0
    if solver.horse >= 0:
        copies = horse_counts(hand, solver.horse, p.horse, tables.five, tables.three, x5, work.x3)
    has_horse = copies > 0
    x_top = p.horse**copies - 1.0
    n_opp = p.n_opp
    placed = p.place > 0.0
    wild = holds_joker(hand)
    n = 0
    scored = 0
    # strongest group first: a walk down the group index, stepping over the absent ones by
    # their bits
    g = tables.group_of[top_5] + 1
    while True:
        g = present_below(present, g)
        if g < 0:
            break
        cb_top = group_top[g]
        cm = min(top_5, cb_top)
        cf = min(top_f, cm)
        bound = walk_bound(fav, p, cop, cf, cm, cb_top, has_horse, x_top, copies, 0.0, False)
        # 1e-9: rounding must never drop a back that ties the bar (the tie-break decides)
        if bound + 1e-9 < list_bar(tv, n, top, window, cap):
            break
        # the rest (all but the separable part) at the group's caps bounds the rest of every
        # back of the group; not under the places, whose duns' part is not separable
        group_rest = np.inf if placed else bound - n_opp * separable_ev(fav, cf, cm, cb_top)
        # a back of this group whose class and caps are no stronger than these fails
        failed_cb, failed_cm, failed_cf, failed_x = -1, -1, -1, -1.0
        b = head[g]
        while b >= 0:
            back_caps(
                b, h, work.r5, work.r3, tables.back_middle, tables.back_front, long_a, long_b,
                tables.rt[6], cap_m, cap_f, work.cap_hand, work.cap_rank, work.cap_class,
                work.rank_key, work.rank_hand, work.rank_caps, hand, tables.rt,
            )  # fmt: skip
            cb = c5[b]
            cm_top = cap_m[b]
            cf_cap = cap_f[b]
            # the 马牌's extra count in this back: its bound is tighter with it known, so
            # only a back of the same count is ruled out by another's failure
            x_b = x5[b] if has_horse else 0.0
            if cm_top >= 0 and (
                cm_top > failed_cm or cf_cap > failed_cf or cb > failed_cb or x_b != failed_x
            ):
                bar = list_bar(tv, n, top, window, cap)
                separable = n_opp * separable_ev(fav, cf_cap, cm_top, cb)
                bound = separable + group_rest
                if bound + 1e-9 >= bar:
                    bound = walk_bound(
                        fav, p, cop, cf_cap, cm_top, cb, has_horse, x_top, copies, x_b, True
                    )
                if bound + 1e-9 >= bar:
                    # the non-separable part is monotone too: bounded at the caps
                    m_cap = max(fav[0, cf_cap, 2], max(fav[1, cm_top, 2], fav[2, cb, 2]))
                    rest_max = bound - placed_points(separable, m_cap, p, True)
                    if placed or wild:
                        n, k = eval_back(
                            b, hand, solver, backs, subsets, memo, kept, n, top, window, cap,
                            rest_max, m_cap, has_horse, gen,
                        )  # fmt: skip
                    else:
                        n, k = eval_back_plain(
                            b, hand, solver, backs, subsets, memo, kept, n, top, window, cap,
                            rest_max, m_cap, has_horse, gen,
                        )  # fmt: skip
                    scored += k
                else:
                    failed_cb, failed_cm, failed_cf, failed_x = cb, cm_top, cf_cap, x_b
            b = next_back[b]
    # the window's bar by the final best (the splits under it were kept by a lower one)
    bar = list_bar(tv, n, top, window, cap)
    while n > 1 and tv[n - 1] + 1e-9 < bar:
        n -= 1
    return n, scored


@nb.njit(cache=True)
def walk_scratch(n_groups, top=1):
    """The scratch of a search's walk for ``n_groups`` back groups and a kept list of ``top``
    splits, as a :class:`WalkScratch` the walk expects at its start (no group present, no
    caps current, no memo entry or cached class kept)."""
    return WalkScratch(
        np.empty(N_FIVE, dtype=np.int32),
        np.empty(N_THREE, dtype=np.int32),
        np.empty(N_FIVE, dtype=np.int32),
        np.empty(N_THREE, dtype=np.int32),
        np.full(n_groups, -2, dtype=np.int64),  # head: -2, the group absent from this hand
        np.empty(n_groups, dtype=np.int64),
        np.empty(N_FIVE, dtype=np.int64),
        np.empty(N_FIVE, dtype=np.int64),
        np.zeros((n_groups + 63) // 64, dtype=np.uint64),
        np.empty(N_FIVE, dtype=np.int64),
        np.empty(N_FIVE, dtype=np.int64),
        np.full(N_FIVE, -1, dtype=np.int64),  # cap_hand: no back's caps current
        np.zeros(N_FIVE, dtype=np.float64),
        np.zeros(N_THREE, dtype=np.float64),
        np.full(MEMO_SLOTS, -1, dtype=np.int64),  # memo_key: no value kept
        np.empty(MEMO_SLOTS, dtype=np.float64),
        np.full(2 * CAP_CLASS_SLOTS, -1, dtype=np.int32),  # cap_rank: no class kept
        np.empty(2 * CAP_CLASS_SLOTS, dtype=np.int32),
        np.full(RANK_CAP_SLOTS, -1, dtype=np.int64),  # rank_key: no caps kept
        np.full(RANK_CAP_SLOTS, -1, dtype=np.int64),
        np.empty((RANK_CAP_SLOTS, 2), dtype=np.int64),
        np.empty(top, dtype=np.float64),
        np.empty((top, 9), dtype=np.int64),
    )


@nb.njit(cache=True)
def max_ev_kernel(hands, solvers, tables, pick, out, values, n_scored):
    """Exact argmax of the expected score over legal splits, for one or more solvers at once:
    :func:`search_walk` keeping the best split.

    ``hands``: int8 ``(n, 13)`` rank-sorted hands; ``solvers``: a :class:`SolverStack` of
    ``K`` solvers that share one ranking; ``tables``: :class:`WalkTables`; ``pick`` int64
    ``(S, n)``: the solver that answer ``s`` of hand ``h`` is searched under (the identity
    for ``S == K`` plain solvers; a removal bucket's solver where the quantities depend on
    the hand, :mod:`simkit.arrange.removal`).  Writes ``out`` int64 ``(S, n, 3)`` (front,
    middle, back subset ids), ``values`` float64 ``(S, n)`` (the expected score) and
    ``n_scored`` int64 ``(S, n)`` (the splits scored).  What depends only on the cards (the
    ranks of the 1,573 subsets, the back classes and the caps of each back) is computed
    once per hand and shared by the answers: a simulation plays the same deal under several
    variants."""
    work = walk_scratch(tables.group_of[solvers.q.shape[2] - 1] + 1)
    _max_ev_hands(hands, solvers, tables, pick, out, values, n_scored, work)


@nb.njit(cache=True)
def _max_ev_hands(hands, solvers, tables, pick, out, values, n_scored, work):
    """:func:`max_ev_kernel` on the scratch ``work`` (:func:`walk_scratch`), every array
    borrowed (:func:`simkit.borrow.borrowed`: the caller holds them all)."""
    hands, solvers, tables, pick, out, values, n_scored, work = borrowed(
        (hands, solvers, tables, pick, out, values, n_scored, work)
    )
    tv, tk = work.kept_values, work.kept_keys
    n_gen = 0
    for h in range(hands.shape[0]):
        groups = hand_groups(hands[h], tables, work)
        for s in range(pick.shape[0]):
            n_gen, gen = next_generation(n_gen, work.memo_key)
            solver = solver_at(solvers, pick[s, h])
            n, scored = search_walk(
                h, hands[h], groups, solver, tables, work, 1, np.inf, np.inf, gen
            )
            if n > 0:
                out[s, h, 0], out[s, h, 1] = tk[0, KEY_IF], tk[0, KEY_IM]
                out[s, h, 2] = tk[0, KEY_IB]
                values[s, h] = tv[0]
            else:  # no legal split (a hand of no variant): as the scan leaves it
                out[s, h, :] = -1
                values[s, h] = -np.inf
            n_scored[s, h] = scored
        clear_groups(work.head, work.present, work.group_list, groups[2])


@nb.njit(cache=True)
def _exhaustive_kernel(
    hands, rt, split_ids, q, p, cop, strict, horse, front_first, five, three, out, values
):
    """Score every one of the 72,072 splits (the reference the pruned search must match)."""
    r5 = np.empty(N_FIVE, dtype=np.int32)
    r3 = np.empty(N_THREE, dtype=np.int32)
    k5 = np.empty(N_FIVE, dtype=np.int32)
    k3 = np.empty(N_THREE, dtype=np.int32)
    x5 = np.zeros(N_FIVE, dtype=np.float64)
    x3 = np.zeros(N_THREE, dtype=np.float64)
    n_opp = p.n_opp
    for h in range(hands.shape[0]):
        rank_subsets(hands[h], rt, r5, r3, k5, k3)
        wild = holds_joker(hands[h])
        copies = 0
        if horse >= 0:
            copies = horse_counts(hands[h], horse, p.horse, five, three, x5, x3)
        best_v = -np.inf
        key_b, key_m, key_f, id_b, id_m, id_f = -1, -1, -1, -1, -1, -1
        for s in range(split_ids.shape[0]):
            f, m, b = (
                np.int64(split_ids[s, 0]),
                np.int64(split_ids[s, 1]),
                np.int64(split_ids[s, 2]),
            )
            rf, rm, rb = r3[f], r5[m], r5[b]
            kf, km = k3[f], k5[m]
            if wild:
                ok, rf, rm = name_split(hands[h], f, m, rf, rm, rb, strict, rt)
                if not ok:
                    continue
                kf = named_class(rf, r3[f], kf, rt[6])
                km = named_class(rm, r5[m], km, rt[6])
            elif not legal_split(rf, rm, rb, strict):
                continue
            v = split_ev(q, p, cop, kf, km, k5[b])
            if copies > 0:
                v += n_opp * horse_points(q, kf, km, k5[b], x3[f], x5[m], x5[b])
            if dun_beats(
                v, rf, rm, rb, f, m, b, best_v, key_b, key_m, key_f, id_b, id_m, id_f,
                front_first,
            ):  # fmt: skip
                best_v = v
                key_b, key_m, key_f, id_b, id_m, id_f = rb, rm, rf, b, m, f
        out[h, 0], out[h, 1], out[h, 2] = id_f, id_m, id_b
        values[h] = best_v


@nb.njit(cache=True)
def legal_ranks_kernel(hand, rt, back_rest, strict):
    """All legal splits of one hand with the two 5-card duns unordered: ids and dun ranks.

    A hand holding jokers has them named by its holder (the ranks are the named ones), and
    keeps both orders of two 5-card duns where each is legal: the naming depends on which
    dun is the back."""
    r5 = np.empty(N_FIVE, dtype=np.int32)
    r3 = np.empty(N_THREE, dtype=np.int32)
    k5 = np.empty(N_FIVE, dtype=np.int32)
    k3 = np.empty(N_THREE, dtype=np.int32)
    rank_subsets(hand, rt, r5, r3, k5, k3)
    wild = holds_joker(hand)
    # with jokers named, both orders of two 5-card duns may be legal
    size = N_FIVE * back_rest.shape[1] if wild else N_DISTINCT
    ids = np.empty((size, 3), dtype=np.int16)
    ranks = np.empty((size, 3), dtype=np.int32)
    n = 0
    for b in range(N_FIVE):
        rb = r5[b]
        for j in range(back_rest.shape[1]):
            m = back_rest[b, j, 0]
            f = back_rest[b, j, 1]
            rm = r5[m]
            rf = r3[f]
            # A split with equal 5-card duns appears twice (either may be the back): keep one
            # (naming gives both orders one result, unless the middle must be below the back).
            if rm == rb and m < b and not (wild and strict & FOUL_MIDDLE_BELOW):
                continue
            if wild:
                ok, rf, rm = name_split(hand, f, m, rf, rm, rb, strict, rt)
                if not ok:
                    continue
            elif not legal_split(rf, rm, rb, strict):
                continue
            ids[n, 0], ids[n, 1], ids[n, 2] = f, m, b
            ranks[n, 0], ranks[n, 1], ranks[n, 2] = rf, rm, rb
            n += 1
    return ids[:n].copy(), ranks[:n].copy()


@nb.njit(cache=True)
def pareto_kernel(r, order, keep):
    """Mark in ``keep`` (bool ``(n,)``, all False on entry) the rows of ``r`` (int ``(n, 3)``
    dun ranks) that no other row dominates (at least as strong in all three duns), visiting
    them in ``order`` (int ``(n,)``, strongest back first, so that a row can only be
    dominated by one visited before it)."""
    # Visited strongest back first: a split can only be dominated by one visited before it.
    kept = np.empty((r.shape[0], 3), dtype=np.int64)
    n = 0
    for i in order:
        dominated = False
        for k in range(n):
            if kept[k, 0] >= r[i, 0] and kept[k, 1] >= r[i, 1] and kept[k, 2] >= r[i, 2]:
                dominated = True
                break
        if not dominated:
            kept[n] = r[i]
            n += 1
            keep[i] = True


# --------------------------------------------------------------------------------------------
# Solvers: a variant's max-ev search, ready to run

#: The copula grids of independent duns, which solvers without a copula carry (unread; the
#: grid's size, so that solvers with and without one stack).
INDEPENDENT_JOINT = joint_cdfs(np.ones((JOINT_CELLS,) * 3))
INDEPENDENT_JOINT.flags.writeable = False


@dataclass(frozen=True)
class Solver:
    """Everything a search kernel needs for one variant, player count and set of tables.

    ``front_first``: equal values go to the stronger front (else the stronger back).
    ``joint``: the cumulative copula grids of the opponents' duns
    (:func:`~simkit.arrange.joint.joint_cdfs`), read when the model's ``joint`` is set.
    """

    variant: Variant
    n_players: int
    tables: WinTables
    model: PayoutModel
    q: np.ndarray
    fav: np.ndarray
    front_first: bool = False
    joint: np.ndarray = field(default_factory=lambda: INDEPENDENT_JOINT)

    @property
    def sep(self) -> np.ndarray:
        """Separable part of the expected score per dun and class (one opponent), float64
        (what the kernels compute from the quantities, so its bounds hold to the last bit)."""
        q = self.q.astype(np.float64)
        return np.ascontiguousarray(q[..., Q_WIN] * q[..., Q_VW] - q[..., Q_LOSE] * q[..., Q_LE])

    @property
    def strict(self) -> int:
        """The foul order's strict bits (bit 0 front < middle, bit 1 middle < back)."""
        return self.model.strict

    @property
    def horse_card(self) -> int:
        """The 马牌 card this solver prices (-1: none)."""
        return self.model.horse_card

    @property
    def rank_tables(self) -> tuple[np.ndarray, ...]:
        """The variant's rank tables the kernels read (:func:`rank_tables_of`)."""
        return rank_tables_of(self.variant)

    @property
    def data(self) -> SolverData:
        """The solver as the walk reads it (:class:`SolverData`)."""
        return SolverData(
            self.q, self.fav, self.sep, self.model.record, self.joint, self.strict,
            self.horse_card, self.front_first,
        )  # fmt: skip


def make_solver(
    variant: str | Variant | None,
    n_players: int = 4,
    tables: WinTables | None = None,
    *,
    horse: bool = False,
    front_first: bool = False,
    dtype: type = np.float64,
    weights: tuple[float, float] = (1.0, 1.0),
    joint: bool = False,
    place: PlaceModel | None = None,
    home_rate: float = 0.0,
) -> Solver:
    """A :class:`Solver` for ``variant`` (shipped tables unless ``tables`` is given).

    ``horse``: price the 马牌 (:func:`~simkit.arrange.value.horse_model`); ``front_first``:
    the tie-break of equal values (:class:`Solver`); ``weights``: (scoop, home run), the
    weights of those terms of the value (``w_scoop``, ``w_home``; finite and ≥ 0, so the
    value still rises with every win chance); ``dtype``: of the quantities the kernels read
    (``float32`` halves them, so that fine classes stay in a core's L2 cache;
    the value is still computed in float64 from them); ``joint``: price the joint chances
    (scoop, scooped, majority) by the copula of the opponents' duns stored with the tables
    (:mod:`simkit.arrange.joint`; the independent products where the tables hold none);
    ``place``: price the duns' points by the t-formula's places
    (:class:`~simkit.arrange.value.PlaceModel`; only where the variant plays the t-formula at
    ``n_players``); ``home_rate``: the chance that an opponent who scoops a hand scoops every
    other player too (in [0, 1]; 0: the table's scoop rate for each of them).
    """
    v = resolve_variant(variant)
    check_players(n_players)
    if tables is None:
        tables = default_tables(v, n_players)
    model = payout_model(v, n_players, horse=horse)
    model.params["scoop_rate"] = tables.scoop_rate  # a fresh model: its own params array
    w_scoop, w_home = (float(w) for w in weights)
    if not (math.isfinite(w_scoop) and math.isfinite(w_home) and w_scoop >= 0 and w_home >= 0):
        # negative weights would break the search's bounds (the value must rise with wins)
        raise ValueError(f"objective weights must be finite and ≥ 0, got {weights!r}")
    model.params["w_scoop"], model.params["w_home"] = w_scoop, w_home
    check_home_rate(home_rate)
    model.params["home_rate"] = home_rate
    if place is not None:
        if not plays_t_formula(v, n_players):
            raise ValueError(
                f"a place model prices the t-formula, which {v.name} does not play at "
                f"{n_players} players"
            )
        place.write(model.params)
    q = ev_quantities(tables, model)
    fav: np.ndarray = favourable_quantities(q).astype(dtype)
    q = q.astype(dtype)
    cdfs = INDEPENDENT_JOINT
    if joint and tables.copula is not None:
        cdfs = joint_cdfs(tables.copula)
        model.params["joint"] = 1.0
        model.params["tie_triple"], model.params["tie_pairs"] = tie_extremes(q)
    return Solver(v, n_players, tables, model, q, fav, front_first, cdfs)


def max_ev_ids(rows: np.ndarray, solver: Solver) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Pruned max-ev search: split ids ``(n, 3)``, expected scores, splits scored per hand."""
    return max_ev_ids_many(rows, [solver])[0]


#: A search of :func:`max_ev_ids_many`: one solver, or one per removal bucket (the hand's
#: bucket picks it; :mod:`simkit.arrange.removal`).
SolverLike: TypeAlias = "Solver | Sequence[Solver]"


def max_ev_ids_many(
    rows: np.ndarray, solvers: Sequence[SolverLike], buckets: np.ndarray | None = None
) -> list[tuple[np.ndarray, np.ndarray, np.ndarray]]:
    """:func:`max_ev_ids` of the same hands under several solvers, in one pass over the hands.

    The solvers must share a ranking (their variants rank duns alike); the work that depends
    only on the cards is then done once per hand, not once per solver.  An entry of
    ``solvers`` that is a sequence holds one solver per removal bucket: hand ``h`` is searched
    under ``entry[buckets[h]]`` (``buckets``: ``int64 (n,)``, needed where an entry is one).
    """
    if not solvers:
        return []
    sets = [tuple(s) if not isinstance(s, Solver) else (s,) for s in solvers]
    if any(not group for group in sets):
        raise ValueError("max_ev_ids_many: an empty set of bucket solvers")
    n = rows.shape[0]
    bucketed = any(len(group) > 1 for group in sets)
    hand_bucket = np.zeros(n, dtype=np.int64)
    if bucketed:
        if buckets is None or np.shape(buckets) != (n,):
            raise ValueError(f"max_ev_ids_many: bucket solvers need buckets of shape ({n},)")
        hand_bucket = np.asarray(buckets, dtype=np.int64)
        for group in sets:
            if (
                len(group) > 1
                and n
                and not 0 <= hand_bucket.min() <= hand_bucket.max() < len(group)
            ):
                raise ValueError(
                    f"max_ev_ids_many: buckets must lie in 0..{len(group) - 1}, got "
                    f"{hand_bucket.min()}..{hand_bucket.max()}"
                )
    flat = [s for group in sets for s in group]
    rt = flat[0].rank_tables
    for solver in flat[1:]:
        same = zip(solver.rank_tables, rt, strict=True)
        if not all(a is b or np.array_equal(a, b) for a, b in same):
            raise ValueError(
                f"max_ev_ids_many: {solver.variant.name!r} ranks duns differently from "
                f"{flat[0].variant.name!r}; search them separately"
            )
    k = len(sets)
    # hands of one bucket together: each bucket's quantities stay in cache
    order = np.argsort(hand_bucket, kind="stable") if bucketed else None
    if order is not None:
        rows = np.ascontiguousarray(rows[order])
        hand_bucket = hand_bucket[order]
    pick = np.empty((k, n), dtype=np.int64)
    start = 0
    for i, group in enumerate(sets):
        pick[i] = start + hand_bucket if len(group) > 1 else start
        start += len(group)
    ids = np.empty((k, n, 3), dtype=np.int64)
    values = np.empty((k, n), dtype=np.float64)
    n_scored = np.empty((k, n), dtype=np.int64)
    max_ev_kernel(rows, _stacked(tuple(flat)), walk_tables(rt), pick, ids, values, n_scored)
    if order is not None:
        back = np.empty_like(order)
        back[order] = np.arange(n)
        ids, values, n_scored = ids[:, back], values[:, back], n_scored[:, back]
    return [(ids[i], values[i], n_scored[i]) for i in range(k)]


#: The stacked quantities of recent solver lists, with the solvers (kept alive, so that the
#: ids that key an entry are theirs): a strategy searching chunk after chunk stacks its 80
#: bucket solvers once.
_STACKS: dict[tuple[int, ...], tuple[tuple[Solver, ...], SolverStack]] = {}
_MAX_STACKS = 4
_MIN_HELD = 8


def _stacked(solvers: tuple[Solver, ...]) -> SolverStack:
    key = tuple(id(s) for s in solvers)
    hit = _STACKS.get(key)
    if hit is not None:
        return hit[1]
    arrays = SolverStack(
        np.stack([s.q for s in solvers]),
        np.stack([s.fav for s in solvers]),
        np.stack([s.sep for s in solvers]),
        np.stack([s.model.params for s in solvers]),
        np.stack([s.joint for s in solvers]),
        np.array([s.strict for s in solvers], dtype=np.int64),
        np.array([s.horse_card for s in solvers], dtype=np.int64),
        np.array([s.front_first for s in solvers], dtype=np.int64),
    )
    if len(solvers) > _MIN_HELD:  # a few stack in no time: not worth holding
        if len(_STACKS) >= _MAX_STACKS:
            del _STACKS[next(iter(_STACKS))]
        _STACKS[key] = (solvers, arrays)
    return arrays


def exhaustive_ids(rows: np.ndarray, solver: Solver) -> tuple[np.ndarray, np.ndarray]:
    """Max-ev by scoring all 72,072 splits: split ids ``(n, 3)`` and expected scores."""
    rt = solver.rank_tables
    n = rows.shape[0]
    ids = np.empty((n, 3), dtype=np.int64)
    values = np.empty(n, dtype=np.float64)
    _exhaustive_kernel(
        rows, rt, SPLIT_IDS, solver.q, solver.model.record, solver.joint, solver.strict,
        solver.horse_card, solver.front_first, FIVE_SUBSETS, THREE_SUBSETS, ids, values,
    )  # fmt: skip
    return ids, values


def split_values(
    ranks: npt.ArrayLike,
    solver: Solver,
    horse: npt.ArrayLike | None = None,
    classes: npt.ArrayLike | None = None,
) -> np.ndarray:
    """Expected score of splits given their dun ranks ``int32 (..., 3)`` (front, middle, back).

    ``horse``: ``(..., 3)`` copies of the solver's 马牌 in each dun (None: none held; read
    only when the solver prices it).  ``classes``: the ranks' fine classes (None: found
    here), for a caller that has them.
    """
    if classes is None:
        classes = fine_classes(ranks)
    classes = np.asarray(classes).astype(np.int64)
    flat = classes.reshape(-1, 3)
    extra = np.zeros(flat.shape, dtype=np.float64)
    if horse is not None and solver.horse_card >= 0:
        copies = np.broadcast_to(np.asarray(horse), classes.shape).reshape(-1, 3)
        extra = solver.model.params["horse"] ** copies - 1.0
    out = np.empty(flat.shape[0], dtype=np.float64)
    values_kernel(
        flat, solver.q, solver.model.record, solver.joint, np.ascontiguousarray(extra), out
    )
    return out.reshape(classes.shape[:-1])


def horse_copies(arranged: npt.ArrayLike, card: int) -> np.ndarray:
    """Copies of ``card`` in each dun of arranged hands ``(..., 13)``: ``int64 (..., 3)``."""
    a = np.asarray(arranged) == card
    return np.stack([a[..., :3].sum(-1), a[..., 3:8].sum(-1), a[..., 8:].sum(-1)], axis=-1)


@nb.njit(cache=True)
def values_kernel(classes, q, p, cop, extra, out):
    """Expected score of each split given by its dun classes: ``out[i]`` (float64) is
    :func:`~simkit.arrange.value.split_ev` of ``classes[i]`` (int ``(n, 3)``: front, middle,
    back class) with quantities ``q``, value parameters ``p`` and copula ``cop``, plus the
    马牌's points from ``extra[i]`` (float64 ``(n, 3)``, each dun's extra count) against
    every opponent."""
    n_opp = p.n_opp
    for i in range(classes.shape[0]):
        cf, cm, cb = classes[i, 0], classes[i, 1], classes[i, 2]
        out[i] = split_ev(q, p, cop, cf, cm, cb) + n_opp * horse_points(
            q, cf, cm, cb, extra[i, 0], extra[i, 1], extra[i, 2]
        )
