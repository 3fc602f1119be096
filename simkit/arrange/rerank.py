"""Re-ranking expected-score's best few splits by the hand's own card removal and the places.

The card-removal model (:class:`~simkit.arrange.removal.RemovalModel`) and the t-formula's
places (:class:`~simkit.arrange.value.PlaceModel`) together bring guangxi's regret under 0.02
(``expected-score:places=true,conditioning=model``), but searched over all splits they
cost twice expected-score's time: the hand's own quantities are written at the few hundred
classes the search reads, and the places' value, which saturates for strong hands, prunes
less.  The split they choose is nearly always one expected-score ranks among its best few
(the full search's choice is among expected-score's best 6 distinct class triples on 97% of
hands, ``results/bench/rerank.md``; re-ranking those 6 on guangxi's rerank probe hands
recovers 0.0297 of the 0.0315 a hand the full search recovers,
``results/strategy/rerank-top.md``).  So here the search keeps expected-score's ``top``
best splits of distinct class triples (:func:`_rerank_kernel`, the max-ev search of
:mod:`simkit.arrange.search` with the ``top``-th best as its bar), and only those are valued
under the hand's own tables and the places: at most ``3 · top`` classes conditioned, ``top``
splits valued.

The list keeps only splits near the best (:func:`window_bar`: ``window`` points below its
value, that value capped at ``cap``): of the best six, the split the re-ranking picks lies
within 0.03 points of expected-score's best on nine hands in ten (0.37 at the 99th
percentile), and a bar close under the best prunes far more than the sixth's value does.
Strong hands (the best above ``cap``) keep their best ``top`` down to ``cap - window``, since
the places can lift a split far above the rest.  On the rerank probe's hands the window loses
nothing of the six's gain (``results/strategy/rerank-top.md``), and the search runs at about
1.2× the speed without it (``results/bench/rerank.md``).

A hand holding two trips or more (:data:`WIDE_TRIPS`; one hand in twelve) keeps a longer list
and its own window (``wide_top``, ``wide_window``: the strategy keeps its best ten within 1.5
points of the best's value, that value capped at ``cap``).  Its two trips take those ranks
from the opponents, who then hold fewer trips and full houses of them, so a split that sets a
second full house is worth points more under the hand's own tables than under
expected-score's: the pick lies past the sixth split, and up to two points under the best
(under an earlier objective), on the hands the six lose most on (of the regret protocol's
guangxi-regional hands, the five the six lost most on all hold two trips).  Ten bring those
hands' part of the regret down to the full search's on both rerank probes
(``results/strategy/rerank-wide-guangxi.md``, ``…-guangxi-regional.md``).  Under the shipped
objective the pick of a hand keeping the wide list lies at most 1.41 points under the bar's
reference (the best's value capped at ``cap``) on 40,000 dealt hands of each guangxi row, so
the wide window (1.5) changes no pick there nor on the regret protocol's hands, and spares
the search the splits further down (``results/strategy/rerank-wide-window.md``).

A hand holding one trips and three pairs or more (:data:`WIDE_PAIRS`; 15% of hands) keeps the
same longer list: the re-ranking prices the opponents' home runs by its own rate
(:attr:`~simkit.arrange.strategies.ExpectedScore.home_rate`), which moves such a hand
from the full house behind and a pair in the middle (expected-score's pick, often scooped by
a hand that goes on to scoop the table) to its highest pair in front, two pairs in the middle
and the trips behind, a split expected-score ranks up to a point under its best
(``results/strategy/rerank-home-guangxi.md``, ``…-guangxi-regional.md``).  Whether a hand
keeps the longer list (:func:`keeps_wide`) is known from its cards before the search, so its
bar is as monotone as the others' and the search stays exact.  On the regret protocol the
strategy gives away 0.0134 a hand in guangxi and 0.0171 in guangxi-regional (0.0095 and
0.0159 on fresh hands; before the home rate and this list 0.0139 and 0.0203,
``results/strategy/regret-hand-4p-2000.md``).

Splits of equal class triples have equal values under both objectives (the model shifts a
class, not a split), so the list keeps one split of each triple, the one expected-score's
tie-break prefers.  (Under a 马牌 two splits of one triple may hold the card in different
duns and differ in value; the list keeps the one expected-score values higher.  No variant
with a card-removal model plays one.)  The order of the list is that tie-break's total
order (value, then the stronger front, back, middle, front, then lower subset ids:
:func:`~simkit.arrange.search.dun_beats`), and the re-ranked value's ties go to the split earlier
in it.  :func:`reference_rerank` is the same by scanning all 72,072 splits.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from simkit.arrange.classes import CLASS_BITS, coarse_of_fine, fine_classes
from simkit.arrange.conditioned import set_quantities
from simkit.arrange.removal import MAX_HAND_FEATURES, RemovalModel, hand_features
from simkit.arrange.search import (
    BACK_FRONT,
    BACK_MIDDLE,
    FIVE_SUBSETS,
    SPLIT_IDS,
    THREE_SUBSETS,
    Solver,
    back_caps,
    clear_groups,
    dun_beats,
    group_backs,
    horse_copies,
    horse_counts,
    legal_split,
    long_suits,
    present_below,
    split_values,
    values_kernel,
    walk_scratch,
)
from simkit.arrange.subsets import rank_subsets
from simkit.arrange.value import (
    P_HORSE,
    P_N_OPP,
    P_PLACE,
    expected_points,
    horse_bound,
    horse_bound_back,
    horse_points,
    separable_ev,
    split_ev,
)
from simkit.borrow import borrowed
from simkit.cards import check_plain_deck
from simkit.evaluate import orders_hold, rank3, rank5
from simkit.splits import split_positions

#: Columns of a kept split in the list: its ranks, subset ids and classes.
_RB, _RM, _RF, _IB, _IM, _IF, _CF, _CM, _CB = range(9)
#: The largest list a search keeps.
MAX_TOP = 64
#: A hand holding this many trips or more (ranks of three or four of its cards), or one trips
#: and ``wide_pairs`` pairs or more (:data:`WIDE_PAIRS` unless told), keeps the wide list
#: (``wide_top``): see the module's notes.  One trips leaves ten cards, five pairs at most, so
#: ``wide_pairs`` 6 or more gives the wide list to two trips only (the list before the home
#: rate).
WIDE_TRIPS = 2
WIDE_PAIRS = 3
#: The largest ``wide_pairs`` a list takes (none holds as many: two trips only).
MAX_WIDE_PAIRS = 6


@nb.njit(cache=True)
def rank_groups(hand):
    """``(trips, pairs)``: how many ranks ``hand`` (plain-deck cards, rank ``card >> 2``)
    holds three or four cards of, and exactly two."""
    one = 0
    two = 0
    three = 0
    for i in range(hand.shape[0]):
        bit = 1 << (hand[i] >> 2)
        three |= two & bit
        two |= one & bit
        one |= bit
    pairs = two & ~three
    return _bits(three), _bits(pairs)


@nb.njit(cache=True)
def _bits(x):
    n = 0
    while x:
        x &= x - 1
        n += 1
    return n


@nb.njit(cache=True)
def trips_held(hand):
    """How many ranks ``hand`` holds three or four cards of (:func:`rank_groups`)."""
    return rank_groups(hand)[0]


@nb.njit(cache=True)
def keeps_wide(hand, wide_pairs=WIDE_PAIRS):
    """Whether ``hand`` keeps the wide list: it holds :data:`WIDE_TRIPS` trips or more, or
    one trips and ``wide_pairs`` pairs or more."""
    trips, pairs = rank_groups(hand)
    return trips >= WIDE_TRIPS or (trips >= 1 and pairs >= wide_pairs)


@nb.njit(cache=True)
def hand_list(hand, top, window, wide_top, wide_window, wide_pairs=WIDE_PAIRS):
    """The list ``hand`` keeps, its length and window: ``(wide_top, wide_window)`` where it
    keeps the wide list (:func:`keeps_wide` with ``wide_pairs``), else ``(top, window)``."""
    if keeps_wide(hand, wide_pairs):
        return wide_top, wide_window
    return top, window


@nb.njit(cache=True)
def window_bar(best, window, cap):
    """The lowest value a kept split may have, the best's value being ``best``:
    ``min(best, cap) - window``.  Near splits are kept (``window`` points below the best),
    and below ``cap`` only: a strong hand keeps all of its best ``top`` above ``cap - window``,
    since the places can lift one of them far above the rest.  The bar never falls as
    ``best`` grows, which lets the search raise it as it finds better splits."""
    return min(best, cap) - window


def check_window(window: float, cap: float, name: str = "window") -> None:
    """The window's options, checked: ``window`` (an option called ``name``) a number of
    points at least 0 (``inf``: no window), ``cap`` a number (``inf``: no cap)."""
    if not window >= 0.0:  # NaN too
        raise ValueError(f"{name} must be a number of points >= 0 (inf: none), got {window}")
    if cap != cap or cap == -np.inf:
        raise ValueError(f"cap must be a number of points (inf: none), got {cap}")


def check_list(
    top: int,
    window: float,
    cap: float,
    wide_top: int,
    wide_window: float,
    wide_pairs: int = WIDE_PAIRS,
) -> None:
    """The list's options, checked: ``top`` and ``wide_top`` in 1..:data:`MAX_TOP`,
    ``wide_pairs`` in 0..:data:`MAX_WIDE_PAIRS`, the windows and the cap by
    :func:`check_window`."""
    for name, k, low, high in (
        ("top", top, 1, MAX_TOP), ("wide_top", wide_top, 1, MAX_TOP),
        ("wide_pairs", wide_pairs, 0, MAX_WIDE_PAIRS),
    ):  # fmt: skip
        if not low <= k <= high:
            raise ValueError(f"{name} must lie in {low}..{high}, got {k}")
    check_window(window, cap)
    check_window(wide_window, cap, "wide_window")


def _wide_list(
    top: int, window: float, wide_top: int | None, wide_window: float | None
) -> tuple[int, float]:
    """``wide_top`` and ``wide_window``, None read as ``top`` and ``window`` (one list for
    every hand)."""
    return (top if wide_top is None else wide_top, window if wide_window is None else wide_window)


@nb.njit(cache=True)
def _keep(v, rf, rm, rb, f, m, b, cf, cm, cb, tv, tk, n, top, front_first):
    """Offer a split to the list ``tv`` (values) / ``tk`` (keys), kept in the tie-break's
    order with one split per class triple; returns the list's new length."""
    # the place the split takes: that of its triple's split where the tie-break prefers it
    # (equal values), else a new one at the end, the last dropped when the list is full
    j = -1
    for i in range(n):
        if tk[i, _CF] == cf and tk[i, _CM] == cm and tk[i, _CB] == cb:
            j = i
            break
    if j < 0:
        j = n if n < top else top - 1
    if j < n and not dun_beats(
        v, rf, rm, rb, f, m, b, tv[j], tk[j, _RB], tk[j, _RM], tk[j, _RF], tk[j, _IB],
        tk[j, _IM], tk[j, _IF], front_first,
    ):  # fmt: skip
        return n
    if j == n:
        n += 1
    # up past the splits it beats
    while j > 0 and dun_beats(
        v, rf, rm, rb, f, m, b, tv[j - 1], tk[j - 1, _RB], tk[j - 1, _RM], tk[j - 1, _RF],
        tk[j - 1, _IB], tk[j - 1, _IM], tk[j - 1, _IF], front_first,
    ):  # fmt: skip
        tv[j] = tv[j - 1]
        for c in range(tk.shape[1]):  # a loop: a slice's copy builds two views each step
            tk[j, c] = tk[j - 1, c]
        j -= 1
    _write(tv, tk, j, v, rf, rm, rb, f, m, b, cf, cm, cb)
    return n


@nb.njit(cache=True)
def _list_bar(tv, n, top, window, cap):
    """The value a split must reach to enter the list: the list's last once it is full and,
    once it holds a split, :func:`window_bar` of its best.  The best only grows while the
    search runs, so the bar never rises above the final list's: no split of the final list
    is pruned, and those kept under a lower bar are dropped at the end."""
    bar = -np.inf
    if n > 0:
        bar = window_bar(tv[0], window, cap)
        if n == top and tv[top - 1] > bar:
            bar = tv[top - 1]
    return bar


@nb.njit(cache=True)
def _write(tv, tk, j, v, rf, rm, rb, f, m, b, cf, cm, cb):
    tv[j] = v
    tk[j, _RB], tk[j, _RM], tk[j, _RF] = rb, rm, rf
    tk[j, _IB], tk[j, _IM], tk[j, _IF] = b, m, f
    tk[j, _CF], tk[j, _CM], tk[j, _CB] = cf, cm, cb


@nb.njit(cache=True, inline="always")
def _bound(fav, p, cop, cf, cm, cb, has_horse, x_top, copies, x_back):
    """The expected score's bound over splits whose duns are at most classes (cf, cm, cb):
    with the 马牌's bound of a group (``x_back`` < 0) or of one back (its own extra count).
    Inlined at both, as expected-score's walk inlines its bound (1.02-1.04x against a call per
    back in one process: a gain inside this host's noise, the same answers)."""
    bound = split_ev(fav, p, cop, cf, cm, cb, True)
    if has_horse:
        n_opp = p[P_N_OPP]
        if x_back < 0.0:
            bound += n_opp * horse_bound(fav, cf, cm, cb, x_top, copies)
        else:
            bound += n_opp * horse_bound_back(fav, cf, cm, cb, x_top, copies, x_back)
    return bound


@nb.njit(cache=True)
def _eval_back_top(
    b, r5, r3, c5, c3, back_middle, back_front, q, sep, p, cop, strict, rest_max, tv, tk, n,
    top, window, cap, x5, x3, has_horse, front_first, memo_key, memo_value, gen,
):  # fmt: skip
    """:func:`~simkit.arrange.search._eval_back` (without the places) keeping the best
    ``top`` class triples in ``tv`` / ``tk``: a split is skipped where its separable part
    plus ``rest_max`` cannot reach the list's last value once the list is full.  Returns the
    list's length and the splits scored."""
    rb = r5[b]
    # classes as unsigned indices (as in _eval_back)
    cb = np.uint64(c5[b])
    n_opp = p[P_N_OPP]
    sep_b = sep[2, cb]
    w2, l2, v2, e2 = q[2, cb, 0], q[2, cb, 1], q[2, cb, 2], q[2, cb, 3]
    bar = _list_bar(tv, n, top, window, cap)
    n_scored = 0
    for j in range(back_middle.shape[1]):
        m = back_middle[b, j]
        f = back_front[b, j]
        rm = r5[m]
        rf = r3[f]
        if not legal_split(rf, rm, rb, strict):
            continue
        cf = np.uint64(c3[f])
        cm = np.uint64(c5[m])
        points = n_opp * (sep[0, cf] + sep[1, cm] + sep_b)
        # 1e-9: rounding must never drop a split that ties the bar (the tie-break decides)
        if points + rest_max + 1e-9 < bar:
            continue
        n_scored += 1
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
        n = _keep(
            v, rf, rm, rb, f, m, b, np.int64(cf), np.int64(cm), np.int64(cb), tv, tk, n, top,
            front_first,
        )  # fmt: skip
        bar = _list_bar(tv, n, top, window, cap)
    return n, n_scored


@nb.njit(cache=True)
def _rerank_kernel(
    hands, rt, back_middle, back_front, q, fav, sep, p, cop, strict, horse, front_first,
    q_own, p_own, cop_own, weights, win, tie, top, window, wide_top, wide_window, wide_pairs,
    cap, five, three, group_of, out, values, n_scored, n_kept,
):  # fmt: skip
    """For each hand: expected-score's best ``top`` splits of distinct class triples (its
    quantities ``q``, ``fav``, ``sep``, its payout ``p``: :func:`~simkit.arrange.search.
    max_ev_kernel`'s walk and bounds, with the list's last value as the bar once the list
    is full), then each valued under the hand's own tables (``weights``, a card-removal
    model, shifting ``win`` / ``tie``; the quantities written into ``q_own``, a copy of the
    base) and the payout ``p_own`` (the places); the best of them, the earlier on a tie.
    A hand that keeps the wide list (:func:`keeps_wide` with ``wide_pairs``) keeps
    ``wide_top`` splits within ``wide_window``, not ``top`` within ``window``
    (:func:`hand_list`).

    ``out`` ``(n, 3)``: the split's ids; ``values``: its value under the hand's own tables;
    ``n_scored``: the splits the search scored; ``n_kept``: the list's length."""
    work = walk_scratch(group_of[q.shape[1] - 1] + 1)
    top_max = max(top, wide_top)
    # the list, and the re-ranking's scratch (set_quantities' favourable and separable
    # outputs are not read here)
    listed = (
        np.empty(top_max, dtype=np.float64),
        np.empty((top_max, 9), dtype=np.int64),
        np.empty(MAX_HAND_FEATURES, dtype=np.int64),
        np.empty((1, *q_own.shape[1:3], 2), dtype=q_own.dtype),
        np.empty((1, *q_own.shape[1:3]), dtype=np.float64),
        np.empty((top_max, 3), dtype=np.int64),
        np.empty((top_max, 3), dtype=np.float64),
        np.empty(top_max, dtype=np.float64),
    )
    _rerank_walk(
        hands, rt, back_middle, back_front, q, fav, sep, p, cop, strict, horse, front_first,
        q_own, p_own, cop_own, weights, win, tie, top, window, wide_top, wide_window, wide_pairs,
        cap, five, three, group_of, out, values, n_scored, n_kept, work, listed,
    )  # fmt: skip


@nb.njit(cache=True)
def _rerank_walk(
    hands, rt, back_middle, back_front, q, fav, sep, p, cop, strict, horse, front_first,
    q_own, p_own, cop_own, weights, win, tie, top, window, wide_top, wide_window, wide_pairs,
    cap, five, three, group_of, out, values, n_scored, n_kept, work, listed,
):  # fmt: skip
    """:func:`_rerank_kernel`'s search and re-ranking, on the scratch arrays ``work``
    (:func:`~simkit.arrange.search.walk_scratch`) and ``listed``, every array borrowed
    (:func:`simkit.borrow.borrowed`: the caller holds them all)."""
    (
        hands, rt, back_middle, back_front, q, fav, sep, p, cop, q_own, p_own, cop_own, weights,
        win, tie, five, three, group_of, out, values, n_scored, n_kept, work, listed,
    ) = borrowed((
        hands, rt, back_middle, back_front, q, fav, sep, p, cop, q_own, p_own, cop_own, weights,
        win, tie, five, three, group_of, out, values, n_scored, n_kept, work, listed,
    ))  # fmt: skip
    (
        r5, r3, c5, c3, head, group_top, next_back, group_list, present, cap_m, cap_f, cap_hand,
        x5, x3, memo_key, memo_value, cap_rank, cap_class, rank_key, rank_hand, rank_caps,
    ) = work  # fmt: skip
    tv, tk, active, fav_own, sep_own, kept_classes, extra, own_values = listed
    class_of_code = rt[6]
    n_opp = p[P_N_OPP]
    copies = 0
    for h in range(hands.shape[0]):
        rank_subsets(hands[h], rt, r5, r3, c5, c3)
        top_f, top_5, n_grp = group_backs(
            c3, c5, group_of, head, group_top, next_back, group_list, present
        )
        long_a, long_b = long_suits(hands[h])
        copies = 0
        if horse >= 0:
            copies = horse_counts(hands[h], horse, p[P_HORSE], five, three, x5, x3)
        has_horse = copies > 0
        x_top = p[P_HORSE] ** copies - 1.0
        gen = np.int64(h % (1 << 24) + 1) << 39
        if h % (1 << 24) == 0:
            memo_key[:] = -1
        top_h, window_h = hand_list(hands[h], top, window, wide_top, wide_window, wide_pairs)
        n = 0
        scored = 0
        g = group_of[top_5] + 1
        while True:
            g = present_below(present, g)
            if g < 0:
                break
            bar = _list_bar(tv, n, top_h, window_h, cap)
            cb_top = group_top[g]
            cm = min(top_5, cb_top)
            cf = min(top_f, cm)
            bound = _bound(fav, p, cop, cf, cm, cb_top, has_horse, x_top, copies, -1.0)
            if bound + 1e-9 < bar:
                break
            group_rest = bound - n_opp * separable_ev(fav, cf, cm, cb_top)
            failed_cb = -1
            failed_cm = -1
            failed_cf = -1
            failed_x = -1.0
            b = head[g]
            while b >= 0:
                back_caps(
                    b, h, r5, r3, back_middle, back_front, long_a, long_b, class_of_code, cap_m,
                    cap_f, cap_hand, cap_rank, cap_class, rank_key, rank_hand, rank_caps,
                    hands[h], rt,
                )  # fmt: skip
                cb = c5[b]
                cm_top = cap_m[b]
                cf_cap = cap_f[b]
                x_b = x5[b] if has_horse else 0.0
                if cm_top >= 0 and (
                    cm_top > failed_cm or cf_cap > failed_cf or cb > failed_cb or x_b != failed_x
                ):
                    bar = _list_bar(tv, n, top_h, window_h, cap)
                    bound = n_opp * separable_ev(fav, cf_cap, cm_top, cb) + group_rest
                    if bound + 1e-9 >= bar:
                        bound = _bound(
                            fav, p, cop, cf_cap, cm_top, cb, has_horse, x_top, copies, x_b
                        )
                    if bound + 1e-9 >= bar:
                        rest_max = bound - n_opp * separable_ev(fav, cf_cap, cm_top, cb)
                        n, k = _eval_back_top(
                            b, r5, r3, c5, c3, back_middle, back_front, q, sep, p, cop,
                            strict, rest_max, tv, tk, n, top_h, window_h, cap, x5, x3, has_horse,
                            front_first, memo_key, memo_value, gen,
                        )  # fmt: skip
                        scored += k
                    else:
                        failed_cb = cb
                        failed_cm = cm_top
                        failed_cf = cf_cap
                        failed_x = x_b
                b = next_back[b]
        clear_groups(head, present, group_list, n_grp)
        # the window's bar by the final best (the splits under it were kept by a lower one)
        bar = _list_bar(tv, n, top_h, window_h, cap)
        while n > 1 and tv[n - 1] + 1e-9 < bar:
            n -= 1
        # the kept splits under the hand's own tables and the places
        n_active = hand_features(hands[h], active)
        for i in range(n):
            for d in range(3):
                c = tk[i, _CF + d]
                row = weights[d, c]
                s = 0.0
                for j in range(n_active):
                    s += np.float64(row[active[j]])
                set_quantities(s, d, c, win, tie, q_own, fav_own, sep_own, -np.inf, np.inf)
                kept_classes[i, d] = c
            if has_horse:
                extra[i, 0] = x3[tk[i, _IF]]
                extra[i, 1] = x5[tk[i, _IM]]
                extra[i, 2] = x5[tk[i, _IB]]
            else:
                extra[i, :] = 0.0
        values_kernel(kept_classes[:n], q_own[0], p_own, cop_own, extra[:n], own_values[:n])
        best = 0
        for i in range(1, n):
            if own_values[i] > own_values[best]:
                best = i
        best_v = own_values[best]
        out[h, 0], out[h, 1], out[h, 2] = tk[best, _IF], tk[best, _IM], tk[best, _IB]
        values[h] = best_v
        n_scored[h] = scored
        n_kept[h] = n


def rerank_ids(
    rows: np.ndarray,
    solver: Solver,
    own: Solver,
    model: RemovalModel,
    top: int,
    window: float = np.inf,
    cap: float = np.inf,
    wide_top: int | None = None,
    wide_window: float | None = None,
    wide_pairs: int = WIDE_PAIRS,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Each hand of ``rows`` set by the best of ``solver``'s ``top`` best splits of distinct
    class triples within its window (:func:`window_bar`: ``window`` below the best's value,
    that value capped at ``cap``), valued under ``own``'s payout on the hand's tables
    conditioned by ``model`` (:func:`~simkit.arrange.conditioned.model_tables`): split ids
    ``(n, 3)``, their values under the hand's own tables, the splits the search scored and
    the splits kept, per hand.

    ``solver``: expected-score's search (fine tables, no places); ``own``: the same tables
    with the payout the splits are re-ranked by (the places).  ``window=inf`` (the default
    here) keeps the best ``top`` whatever their values.  ``wide_top``, ``wide_window``: the
    list's length and window for a hand that keeps the wide list (:func:`keeps_wide`: two
    trips, or one and ``wide_pairs`` pairs; None: ``top``, ``window``)."""
    wide_top, wide_window = _wide_list(top, window, wide_top, wide_window)
    check_list(top, window, cap, wide_top, wide_window, wide_pairs)
    for name, s in (("solver", solver), ("own", own)):
        if s.tables.win.shape != s.q.shape[:2]:
            raise ValueError(f"rerank_ids needs {name} on fine tables")
    if solver.model.params[P_PLACE] > 0.0:
        raise ValueError("rerank_ids: the first search prices no places (own does)")
    if (
        own.variant.name != solver.variant.name
        or own.q.shape != solver.q.shape
        or (
            own.tables is not solver.tables
            and not (
                np.array_equal(own.tables.win, solver.tables.win)
                and np.array_equal(own.tables.tie, solver.tables.tie)
            )
        )
    ):
        raise ValueError("rerank_ids: solver and own must be one variant's, on the same tables")
    model.check_fits(solver.tables)
    rows = np.ascontiguousarray(rows)
    check_plain_deck(rows, "rerank_ids needs")
    n = rows.shape[0]
    ids = np.empty((n, 3), dtype=np.int64)
    values = np.empty(n, dtype=np.float64)
    n_scored = np.empty(n, dtype=np.int64)
    n_kept = np.empty(n, dtype=np.int64)
    q_own = own.q.copy().reshape((1, *own.q.shape))  # win points and lose pay from the base
    _rerank_kernel(
        rows, solver.rank_tables, BACK_MIDDLE, BACK_FRONT, solver.q, solver.fav, solver.sep,
        solver.model.params, solver.joint, solver.strict, solver.horse_card,
        solver.front_first, q_own, own.model.params, own.joint, model.weights,
        np.ascontiguousarray(own.tables.win, dtype=np.float64),
        np.ascontiguousarray(own.tables.tie, dtype=np.float64), int(top), float(window),
        int(wide_top), float(wide_window), int(wide_pairs), float(cap), FIVE_SUBSETS,
        THREE_SUBSETS, coarse_of_fine(), ids, values, n_scored, n_kept,
    )  # fmt: skip
    return ids, values, n_scored, n_kept


def _all_splits(row: np.ndarray, solver: Solver) -> tuple[np.ndarray, ...]:
    """Every legal split of one hand: subset ids, dun ranks and fine dun classes, each
    ``(n, 3)``.  Each of the hand's 286 3-card and 1,287 5-card subsets is ranked and classed
    once by the evaluator, and every split reads its duns' by their subset ids (the ranks of
    the duns set out in full)."""
    ids = SPLIT_IDS.astype(np.int64)
    row = np.asarray(row)
    r3 = rank3(row[THREE_SUBSETS], solver.variant)
    r5 = rank5(row[FIVE_SUBSETS], solver.variant)
    c3, c5 = fine_classes(r3).astype(np.int64), fine_classes(r5).astype(np.int64)
    ranks = np.stack([r3[ids[:, 0]], r5[ids[:, 1]], r5[ids[:, 2]]], axis=-1)
    legal = orders_hold(ranks, solver.strict)
    ids = ids[legal]
    classes = np.stack([c3[ids[:, 0]], c5[ids[:, 1]], c5[ids[:, 2]]], axis=-1)
    return ids, ranks[legal], classes


def _arranged(row: np.ndarray, ids: np.ndarray) -> np.ndarray:
    """The hand ``row`` set as each split of subset ids ``ids`` ``(n, 3)``: ``(n, 13)``."""
    return row[split_positions(ids).astype(np.int64)]


def _split_values(
    row: np.ndarray,
    ids: np.ndarray,
    ranks: np.ndarray,
    solver: Solver,
    classes: np.ndarray | None = None,
) -> np.ndarray:
    """:func:`~simkit.arrange.search.split_values` of the splits ``ids`` of ``row``, the
    solver's 马牌 counted where each split holds it (``classes``: the ranks' fine classes,
    where the caller has them)."""
    horse = None
    if solver.horse_card >= 0:
        horse = horse_copies(_arranged(row, ids), solver.horse_card)
    return split_values(ranks, solver, horse, classes)


def top_splits(
    row: np.ndarray,
    solver: Solver,
    top: int,
    window: float = np.inf,
    cap: float = np.inf,
    wide_top: int | None = None,
    wide_window: float | None = None,
    wide_pairs: int = WIDE_PAIRS,
) -> tuple[np.ndarray, np.ndarray]:
    """The reference of the first stage, by scanning every legal split: ``solver``'s best
    ``top`` splits (``wide_top`` where the hand keeps the wide list, :func:`keeps_wide` with
    ``wide_pairs``) of distinct class triples in the tie-break's order, those under the
    window's bar (:func:`window_bar` of the best's value; ``wide_window`` for such a hand) left
    out, as subset ids ``(k, 3)`` (front, middle, back) and dun ranks ``(k, 3)``."""
    row = np.asarray(row)
    ids, ranks, classes = _all_splits(row, solver)
    v = _split_values(row, ids, ranks, solver, classes)
    wide_top, wide_window = _wide_list(top, window, wide_top, wide_window)
    length, window = hand_list(row, top, window, wide_top, wide_window, wide_pairs)
    bar = window_bar(float(v.max()), window, cap)
    # only splits at or over the bar are kept, and the first of a class triple in the order
    # is its highest valued: ordering these alone keeps the same list, at a fraction of the
    # time where the window is narrow
    near = v + 1e-9 >= bar
    ids, ranks, classes, v = ids[near], ranks[near], classes[near], v[near]
    kept = kept_order(v, ranks, solver.front_first, ids, classes)[:length]
    return ids[kept], ranks[kept]


def kept_order(
    values: np.ndarray,
    ranks: np.ndarray,
    front_first: bool,
    ids: np.ndarray | None = None,
    classes: np.ndarray | None = None,
) -> np.ndarray:
    """Splits in expected-score's tie-break order (value, then with ``front_first`` the
    stronger front, then the stronger back, middle, front, then the lower subset ``ids``
    where given), the first of each class triple: indices into ``values`` (``classes``: the
    ranks' fine classes, where the caller has them)."""
    rf, rm, rb = ranks[:, 0], ranks[:, 1], ranks[:, 2]
    keys = [] if ids is None else [ids[:, 0], ids[:, 1], ids[:, 2]]
    keys += [-rf, -rm, -rb]
    if front_first:
        keys.append(-rf)
    order = np.lexsort((*keys, -values))
    # a class triple as one number (classes are below 2**CLASS_BITS): np.unique's first index
    # of each, as of the rows, at a fraction of the time
    if classes is None:
        classes = fine_classes(ranks).astype(np.int64)
    triples = (classes[:, 0] << (2 * CLASS_BITS)) | (classes[:, 1] << CLASS_BITS) | classes[:, 2]
    _, first = np.unique(triples[order], return_index=True)
    return order[np.sort(first)]


def reference_rerank(
    row: np.ndarray,
    solver: Solver,
    own_tables_solver: Solver,
    top: int,
    window: float = np.inf,
    cap: float = np.inf,
    wide_top: int | None = None,
    wide_window: float | None = None,
    wide_pairs: int = WIDE_PAIRS,
) -> tuple[np.ndarray, float]:
    """:func:`rerank_ids` of one hand by scanning every split: :func:`top_splits`, each
    valued by ``own_tables_solver`` (the hand's own tables and the re-ranking payout:
    :meth:`~simkit.arrange.strategies.ExpectedScore.hand_solver`), the best kept (the
    earlier on a tie).  Returns the split's ids ``(3,)`` and value."""
    row = np.asarray(row)
    ids, ranks = top_splits(row, solver, top, window, cap, wide_top, wide_window, wide_pairs)
    v = _split_values(row, ids, ranks, own_tables_solver)
    best = int(np.argmax(v))  # the first of equal values
    return ids[best], float(v[best])
