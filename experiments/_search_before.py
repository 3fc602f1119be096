# Baseline of bench_search_ab.py: the max-ev search kernel of simkit/arrange/search.py at commit
# 079c806, verbatim (_eval_back, _horse_counts, _max_ev_kernel), before a back's bound was first
# checked against its class's rest (no joint chances) and the 马牌's counts were marked by
# lookup; and the value it scores splits with, simkit/arrange/value.py's joint_chances,
# expected_points and _ev at the same commit, verbatim, before the majority's pairs and triple
# were read from one lookup of their cells.  The helpers the search and the value share with
# the code as it is now are imported from there.
"""The max-ev search kernel as it was at commit 079c806 (see the comment above)."""

import numba as nb
import numpy as np

from simkit.arrange.classes import fine_code
from simkit.arrange.joint import cdf2, cdf3
from simkit.arrange.search import _beats, _best_duns, _legal
from simkit.arrange.subsets import _rank_subsets
from simkit.arrange.value import (
    P_HOME,
    P_HORSE,
    P_JOINT,
    P_MAJORITY,
    P_MAJORITY_TWO,
    P_N_OPP,
    P_PLACE,
    P_SCOOP_ADD,
    P_SCOOP_DOUBLE,
    P_SCOOP_TIES,
    P_TIE_PAIRS,
    P_TIE_TRIPLE,
    _horse_bound,
    _horse_points,
    _independent_chances,
    _separable,
    placed_points,
    placed_skip_below,
    points_of_chances,
)
from simkit.splits import N_FIVE, N_THREE


@nb.njit(cache=True, inline="always")
def joint_chances(w0, w1, w2, l0, l1, l2, p, cop, bound):
    """(scoop, scooped, majority won, majority lost) against an opponent whose duns follow
    the copula ``cop`` (:func:`~simkit.arrange.joint.joint_cdfs`: ``cop[0]`` the cumulative
    distribution of the duns' percentiles ``U``, ``cop[1]`` of ``1 - U``).

    The opponent's dun ``d`` loses to mine when ``U_d < w_d`` and beats it when
    ``U_d > 1 - l_d``: a scoop is ``cop[0]`` at ``w``, being scooped ``cop[1]`` at ``l``, two
    duns won the pairs' distributions less twice the triple's.  Ties enter where a rule counts
    them: a scoop with ties counts no dun lost (``cop[0]`` at ``1 - l``) less all three tied,
    and a majority of more wins than losses also one win and two ties; those tie terms (at
    most a few in 10⁴: ties are rare) are the independent products.  ``bound``: an upper bound
    of the value over the splits whose quantities are at most these favourable ones: the
    copula's chances are monotone, and each tie term takes its extreme over every split
    (``P_TIE_TRIPLE``, ``P_TIE_PAIRS``).
    """
    below, above = cop[0], cop[1]
    t0, t1, t2 = 1.0 - w0 - l0, 1.0 - w1 - l1, 1.0 - w2 - l2
    s_for = s_against = 0.0
    won3 = lost3 = -1.0
    if p[P_SCOOP_DOUBLE] != 0.0 or p[P_SCOOP_ADD] != 0.0 or p[P_HOME] > 0.0:
        if p[P_SCOOP_TIES] > 0.0:  # no dun lost, less all three tied
            s_for = cdf3(below, 1.0 - l0, 1.0 - l1, 1.0 - l2)
            s_against = cdf3(above, 1.0 - w0, 1.0 - w1, 1.0 - w2)
            if bound:
                s_against -= p[P_TIE_TRIPLE]
            else:
                s_for -= t0 * t1 * t2
                s_against -= t0 * t1 * t2
            s_for = max(s_for, 0.0)
            s_against = max(s_against, 0.0)
        else:
            won3 = s_for = cdf3(below, w0, w1, w2)
            lost3 = s_against = cdf3(above, l0, l1, l2)
    maj_win = maj_lose = 0.0
    if p[P_MAJORITY] != 0.0:
        if won3 < 0.0:
            won3 = cdf3(below, w0, w1, w2)
            lost3 = cdf3(above, l0, l1, l2)
        maj_win = cdf2(below, 2, w0, w1) + cdf2(below, 1, w0, w2) + cdf2(below, 0, w1, w2)
        maj_win -= 2.0 * won3
        maj_lose = cdf2(above, 2, l0, l1) + cdf2(above, 1, l0, l2) + cdf2(above, 0, l1, l2)
        maj_lose -= 2.0 * lost3
        if p[P_MAJORITY_TWO] == 0.0:  # more wins than losses: one win and two ties too
            if bound:
                maj_win += p[P_TIE_PAIRS]
            else:
                maj_win += w0 * t1 * t2 + w1 * t0 * t2 + w2 * t0 * t1
                maj_lose += l0 * t1 * t2 + l1 * t0 * t2 + l2 * t0 * t1
    return s_for, s_against, maj_win, maj_lose


@nb.njit(cache=True, inline="always")
def expected_points(w0, w1, w2, l0, l1, l2, v0, v1, v2, e0, e1, e2, p, cop, bound=False):
    """Expected score of a split from its per-dun win/lose chances (the module's model).

    ``w*``, ``l*``: chance of winning / losing each dun against one opponent; ``v*``: points
    collected when winning it; ``e*``: points paid when losing it; ``p``: payout parameters;
    ``cop``: the cumulative copula grids of the opponents' duns (:func:`joint_chances`; read
    when ``p[P_JOINT]``).  The value rises with every ``w`` and ``v`` and falls with every
    ``l`` and ``e``.  It is computed in float64 whatever the inputs' type (float32 quantities
    would otherwise be multiplied in float32, and the search's bounds, computed in float64,
    could then fall below the value they bound).  ``bound``: the favourable quantities' bound
    (:func:`joint_chances`).

    The joint chances (scoop, scooped, the majority match, the home run) are those of
    independent duns, or of the copula, and :func:`points_of_chances` pays them.
    """
    w0, w1, w2 = np.float64(w0), np.float64(w1), np.float64(w2)
    l0, l1, l2 = np.float64(l0), np.float64(l1), np.float64(l2)
    v0, v1, v2 = np.float64(v0), np.float64(v1), np.float64(v2)
    e0, e1, e2 = np.float64(e0), np.float64(e1), np.float64(e2)
    base = w0 * v0 + w1 * v1 + w2 * v2 - l0 * e0 - l1 * e1 - l2 * e2
    if p[P_PLACE] > 0.0:  # the t-formula's places price the duns: the rest priced as before
        placed = placed_points(p[P_N_OPP] * base, max(v0, max(v1, v2)), p, bound)
        base = 0.0
    else:
        placed = 0.0
    if p[P_JOINT] > 0.0:
        s_for, s_against, maj_win, maj_lose = joint_chances(w0, w1, w2, l0, l1, l2, p, cop, bound)
    else:
        s_for, s_against, maj_win, maj_lose = _independent_chances(w0, w1, w2, l0, l1, l2, p)
    home_for = s_for  # I scoop every opponent
    if p[P_HOME] > 0.0:
        for _ in range(int(p[P_N_OPP]) - 1):  # integer powers: far cheaper than ``**``
            home_for *= s_for
    total = points_of_chances(
        base, v0 + v1 + v2, e0 + e1 + e2, s_for, s_against, maj_win, maj_lose, home_for, p
    )
    if p[P_PLACE] > 0.0:
        total += placed
    return total


@nb.njit(cache=True, inline="always")
def _ev(qa, p, cop, cf, cm, cb, bound=False):
    """:func:`expected_points` of dun classes (cf, cm, cb) read from a quantity array.

    With the plain quantities (:func:`ev_quantities`) this is a split's expected score; with
    the favourable ones (:func:`favourable_quantities`) and ``bound`` it bounds every split
    whose duns are at most those classes, since the value rises with win chances and points
    and falls with lose chances and pay.
    """
    return expected_points(
        qa[0, cf, 0], qa[1, cm, 0], qa[2, cb, 0],
        qa[0, cf, 1], qa[1, cm, 1], qa[2, cb, 1],
        qa[0, cf, 2], qa[1, cm, 2], qa[2, cb, 2],
        qa[0, cf, 3], qa[1, cm, 3], qa[2, cb, 3],
        p, cop, bound,
    )  # fmt: skip


@nb.njit(cache=True)
def _eval_back(
    b, r5, r3, c5, c3, back_middle, back_front, q, sep, p, cop, strict, rest_max, m_cap, best,
    key, x5, x3, has_horse, front_first,
):  # fmt: skip
    """Score the legal splits with back ``b``, keeping the best in ``best`` / ``key``.

    ``sep[d, c]`` is the separable part of the expected score of class ``c`` in dun ``d``
    and ``rest_max`` bounds the rest (scoop, majority, home run, 马牌) over this back's
    splits, so a split whose separable part plus that bound cannot reach the best is not
    scored.  Under the t-formula's places (:func:`~simkit.arrange.value.placed_points`) the
    separable part is the split's placed points (its own biggest worth), and ``rest_max``
    was found with the placed points of the caps' bound at ``m_cap``, their biggest worth.
    ``x5``, ``x3``: each subset's extra count of the 马牌 when it wins (read when
    ``has_horse``).  The best so far lives in locals during the loop: stores to ``best``
    would otherwise force the back's quantities to be reloaded for every split.
    """
    rb = r5[b]
    cb = c5[b]
    n_opp = p[P_N_OPP]
    sep_b = sep[2, cb]
    w2, l2, v2, e2 = q[2, cb, 0], q[2, cb, 1], q[2, cb, 2], q[2, cb, 3]
    best_v = best[0]
    key_b, key_m, key_f, id_b, id_m, id_f = key[0], key[1], key[2], key[3], key[4], key[5]
    n_scored = 0
    placed = p[P_PLACE] > 0.0
    # 1e-9: rounding must never drop a split that ties the best (the tie-break decides)
    skip_below = placed_skip_below(best_v - rest_max - 1e-9, m_cap, p, True) if placed else 0.0
    # the same for the split's own biggest worth, kept for the last worth seen
    last_m = -1.0
    last_skip = 0.0
    for j in range(back_middle.shape[1]):
        m = back_middle[b, j]
        f = back_front[b, j]
        rm = r5[m]
        rf = r3[f]
        if not _legal(rf, rm, rb, strict):
            continue
        cf = c3[f]
        cm = c5[m]
        points = n_opp * (sep[0, cf] + sep[1, cm] + sep_b)
        if placed:  # the caps' bound first, then the split's own biggest worth
            if points < skip_below:
                continue
            m_split = np.float64(max(q[0, cf, 2], max(q[1, cm, 2], v2)))
            if m_split != last_m:
                last_m = m_split
                last_skip = placed_skip_below(best_v - rest_max - 1e-9, m_split, p, False)
            if points < last_skip:
                continue
        elif points + rest_max + 1e-9 < best_v:
            continue
        n_scored += 1
        v = expected_points(
            q[0, cf, 0], q[1, cm, 0], w2,
            q[0, cf, 1], q[1, cm, 1], l2,
            q[0, cf, 2], q[1, cm, 2], v2,
            q[0, cf, 3], q[1, cm, 3], e2,
            p, cop,
        )  # fmt: skip
        if has_horse:
            v += n_opp * _horse_points(q, cf, cm, cb, x3[f], x5[m], x5[b])
        if _beats(
            v, rf, rm, rb, f, m, b, best_v, key_b, key_m, key_f, id_b, id_m, id_f, front_first
        ):
            best_v = v
            key_b, key_m, key_f, id_b, id_m, id_f = rb, rm, rf, b, m, f
            if placed:
                skip_below = placed_skip_below(best_v - rest_max - 1e-9, m_cap, p, True)
                last_m = -1.0
    best[0] = best_v
    key[0], key[1], key[2], key[3], key[4], key[5] = key_b, key_m, key_f, id_b, id_m, id_f
    return n_scored


@nb.njit(cache=True)
def _horse_counts(hand, card, multiplier, five, three, x5, x3):
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
    for s in range(five.shape[0]):
        k = held[five[s, 0]] + held[five[s, 1]] + held[five[s, 2]] + held[five[s, 3]]
        k += held[five[s, 4]]
        x5[s] = multiplier**k - 1.0
    for s in range(three.shape[0]):
        k = held[three[s, 0]] + held[three[s, 1]] + held[three[s, 2]]
        x3[s] = multiplier**k - 1.0
    return copies


@nb.njit(cache=True)
def _max_ev_kernel(
    hands, rt, back_middle, back_front, qs, favs, seps, ps, cops, stricts, horses, ties, pick,
    five, three, group_of, out, values, n_scored,
):  # fmt: skip
    """Exact argmax of the expected score over legal splits, for one or more solvers at once.

    ``qs``, ``favs``, ``seps``, ``ps``, ``stricts`` stack the quantities of ``K`` solvers that
    share one ranking; ``pick`` ``(S, n)``: the solver that answer ``s`` of hand ``h`` is
    searched under (the identity for ``S == K`` plain solvers; a removal bucket's solver
    where the quantities depend on the hand, :mod:`simkit.arrange.removal`); ``out``
    ``(S, n, 3)``, ``values`` and ``n_scored`` ``(S, n)``.  What depends only on the cards
    (the ranks of the 1,573 subsets, the back classes and the caps of each back) is computed
    once per hand and shared by the answers: a simulation plays the same deal under several
    variants.

    Every split with back ``b`` has its front at most the hand's best front class and its
    middle at most min(the hand's best 5-card class, the class of b): that bound depends only
    on b's class and never rises as the class falls (the favourable quantities are monotone).
    Backs are grouped by ``group_of`` their fine class (the coarse class: a hand's few hundred
    fine back classes fall in a few dozen groups, ordered as the classes are), groups are
    visited strongest first, and the search stops at the first group whose bound at its
    strongest class cannot beat the best value found.  A back that passes gets a tighter bound
    from its own class and the strongest legal middle and front its other 8 cards allow
    (:func:`_best_duns`) before its 56 splits are scored; that bound rises with all three, so
    once it fails it fails for every back of the group whose class and caps are no stronger.

    ``horses[s]``: the 马牌 card of solver ``s`` (-1: none; its multiplier is ``ps[s]``'s
    ``P_HORSE``); a hand holding it adds :func:`_horse_points` to every split and
    :func:`_horse_bound` to every bound.  ``ties[s]``: 1 breaks equal values toward the
    stronger front (:func:`_beats`).  ``five``, ``three``: the subsets' hand positions.
    """
    n_answers = pick.shape[0]
    n_classes = qs.shape[2]
    r5 = np.empty(N_FIVE, dtype=np.int32)
    r3 = np.empty(N_THREE, dtype=np.int32)
    c5 = np.empty(N_FIVE, dtype=np.int32)
    c3 = np.empty(N_THREE, dtype=np.int32)
    class_of_code = rt[6]
    n_groups = group_of[n_classes - 1] + 1
    head = np.full(n_groups, -2, dtype=np.int64)  # -2: group absent from this hand
    group_top = np.empty(n_groups, dtype=np.int64)  # the group's strongest back class
    next_back = np.empty(N_FIVE, dtype=np.int64)
    group_list = np.empty(N_FIVE, dtype=np.int64)
    # the caps of each back as dun classes (-1: no legal split), computed at most once per
    # hand: ``cap_hand[b] == h`` marks them current
    cap_m = np.empty(N_FIVE, dtype=np.int64)
    cap_f = np.empty(N_FIVE, dtype=np.int64)
    cap_hand = np.full(N_FIVE, -1, dtype=np.int64)
    best = np.empty(1, dtype=np.float64)
    key = np.empty(6, dtype=np.int64)
    x5 = np.zeros(N_FIVE, dtype=np.float64)
    x3 = np.zeros(N_THREE, dtype=np.float64)
    for h in range(hands.shape[0]):
        _rank_subsets(hands[h], rt, r5, r3, c5, c3)
        top_f = 0
        for i in range(N_THREE):
            top_f = max(top_f, c3[i])
        top_5 = 0
        for i in range(N_FIVE):
            top_5 = max(top_5, c5[i])
        # distinct back groups, and the backs of each group as a linked list
        n_grp = 0
        for b in range(N_FIVE):
            cb = c5[b]
            g = group_of[cb]
            if head[g] == -2:
                head[g] = -1
                group_top[g] = cb
                group_list[n_grp] = g
                n_grp += 1
            group_top[g] = max(group_top[g], cb)
            next_back[b] = head[g]
            head[g] = b
        for s in range(n_answers):
            k = pick[s, h]
            q, fav, sep, p, cop, strict = qs[k], favs[k], seps[k], ps[k], cops[k], stricts[k]
            front_first = ties[k] != 0
            copies = 0
            if horses[k] >= 0:
                copies = _horse_counts(hands[h], horses[k], p[P_HORSE], five, three, x5, x3)
            has_horse = copies > 0
            x_top = p[P_HORSE] ** copies - 1.0
            n_opp = p[P_N_OPP]
            best[0] = -np.inf
            key[:] = -1
            scored = 0
            # strongest group first: a walk down the group index (groups are ordered as
            # their classes are, and the search mostly stops within a few)
            for g in range(group_of[top_5], -1, -1):
                if head[g] == -2:
                    continue
                cb_top = group_top[g]
                cm = min(top_5, cb_top)
                cf = min(top_f, cm)
                bound = _ev(fav, p, cop, cf, cm, cb_top, True)
                if has_horse:
                    bound += n_opp * _horse_bound(fav, cf, cm, cb_top, x_top, copies)
                # 1e-9: rounding must never drop a back that ties the best (as below)
                if bound + 1e-9 < best[0]:
                    break
                # a back of this group whose class and caps are no stronger than these fails
                failed_cb = -1
                failed_cm = -1
                failed_cf = -1
                b = head[g]
                while b >= 0:
                    if cap_hand[b] != h:
                        rm_top, rf_top = _best_duns(r5, r3, back_middle[b], back_front[b], r5[b])
                        cap_hand[b] = h
                        cap_m[b] = class_of_code[fine_code(rm_top)] if rm_top >= 0 else -1
                        cap_f[b] = class_of_code[fine_code(rf_top)] if rm_top >= 0 else -1
                    cb = c5[b]
                    cm_top = cap_m[b]
                    cf_cap = cap_f[b]
                    if cm_top >= 0 and (cm_top > failed_cm or cf_cap > failed_cf or cb > failed_cb):
                        bound = _ev(fav, p, cop, cf_cap, cm_top, cb, True)
                        if has_horse:
                            bound += n_opp * _horse_bound(fav, cf_cap, cm_top, cb, x_top, copies)
                        if bound + 1e-9 >= best[0]:
                            # the non-separable part is monotone too: bounded at the caps
                            m_cap = max(fav[0, cf_cap, 2], max(fav[1, cm_top, 2], fav[2, cb, 2]))
                            separable = n_opp * _separable(fav, cf_cap, cm_top, cb)
                            rest_max = bound - placed_points(separable, m_cap, p, True)
                            scored += _eval_back(
                                b, r5, r3, c5, c3, back_middle, back_front,
                                q, sep, p, cop, strict, rest_max, m_cap, best, key,
                                x5, x3, has_horse, front_first,
                            )  # fmt: skip
                        else:
                            failed_cb = cb
                            failed_cm = cm_top
                            failed_cf = cf_cap
                    b = next_back[b]
            out[s, h, 0], out[s, h, 1], out[s, h, 2] = key[5], key[4], key[3]
            values[s, h] = best[0]
            n_scored[s, h] = scored
        for k in range(n_grp):
            head[group_list[k]] = -2
