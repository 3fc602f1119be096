"""Scoring: arranged hands → points per player, by the variant's ``[scoring]`` rules.

The scorer is a rule-agnostic core plus transforms (:mod:`simkit.variants.scoring_rules`), all
read from the variant's :class:`~simkit.variants.compiled.CompiledRules` (one typed record per
variant and table size, also read by the strategy's value model):

1. **Per player**: the three dun ranks, whether the hand fouls (:func:`_is_foul`), what each
   dun would be worth if won, and what it compares by (rank, or 食夹棍's category and top
   card).
2. **Core, pair by pair.**  Every pair that compares (all pairs, or each player with the
   banker) settles one of three ways: a declared special hand against anyone
   (:func:`_special_pair`: its payout; special against special by the variant's ``versus``
   rule); a fouled hand against a hand that did not foul (:func:`_foul_payment`); or two
   normal hands, dun by dun (:func:`_three_duns`: 1 a dun, the ``[scoring.duns]`` bonuses;
   :func:`_match_sign`: the majority point; :func:`_banker_wins_tie` for 食夹棍).  Each of
   these is an antisymmetric matrix ``(p, p)`` per game, so the core is zero-sum by
   construction.  Then the specials' table-wide rules: §4.3's places when nobody holds a
   normal hand (:func:`_all_special_places`) and 通杀, a special that collected from every
   other player paid a multiple (:func:`_special_sweep`).
3. **Transforms**, in the order the variant lists them (:class:`~simkit.variants.compiled.
   Transform`): ``scoop`` (打枪, :func:`_scoop_transform`) adds to the scooped pair;
   ``home-run`` (全垒打, :func:`_home_run_transform`) multiplies the runner's pairs or the
   runner's total (the others paying equal shares) and adds its extra; ``t-formula``
   (:func:`_t_formula_transform`) replaces the dun points of the hands compared normally by
   place payments (±3t, ±t); ``horse`` (:func:`_horse_transform`) adds again the winning duns
   that held the marked card (recorded in the core), or multiplies the pairs of its holder.
   Each moves points between players and never creates them.

:func:`pair_points` is the pairwise part of the core for two normal hands (dun points,
bonuses, majority and the pair's scoop), the quantity an arrangement strategy maximizes;
:func:`pair_points_one` computes it inside numba code with the same scalar helpers as the
kernel, so the pair rule is written once.  :func:`score` adds fouls, specials and the
table-wide transforms.

All of it runs in numba over games (no Python loop per game), in :func:`_kernel`: per game,
the per-player loop, the pair loop, the transforms and the totals.  Helpers called per pair
or per player take scalars; the per-game steps (clearing, transforms, totals) are array
helpers compiled inline (``inline="always"``); the per-player and per-pair loops stay in the
kernel's body (docs/architecture.md, "The scorer's kernel", has the measurements behind this
layout).  Rule codes are :class:`~enum.IntEnum` members, which numba compiles like literals;
the rules arrive as one :class:`~simkit.variants.compiled.CompiledRules`.
"""

from __future__ import annotations

from enum import IntEnum
from typing import Literal, overload

import numba as nb
import numpy as np
import numpy.typing as npt

from simkit.cards import DECK_SIZE, HAND_SIZE, N_CARD_INTS
from simkit.errors import SimkitError
from simkit.evaluate import (
    dun_ranks,
    order_holds,
    orders_hold,
    rank3_one,
    rank5_one,
    ranking_tables,
)
from simkit.specials import detect_specials
from simkit.variants import Variant, resolve_variant
from simkit.variants.compiled import (
    CompareMode,
    CompiledRules,
    FoulPenalty,
    ScoopMode,
    Transform,
    compile_rules,
)
from simkit.variants.scoring_rules import MIN_PLAYERS

__all__ = [
    "COMPONENTS",
    "Component",
    "fouled",
    "fouled_ranks",
    "pair_points",
    "pair_points_one",
    "pair_points_params",
    "score",
]


class Component(IntEnum):
    """A part of the score, returned by name with ``breakdown=True`` (see :data:`COMPONENTS`)."""

    DUNS = 0  #: 1 per dun won, -1 per dun lost (hands compared normally)
    BONUSES = 1  #: dun worth above 1 (the [scoring.duns] table)
    MAJORITY = 2  #: the match point for winning more duns (004, 2-4 scoring)
    FOULS = 3  #: foul penalties (倒水)
    SPECIALS = 4  #: special hands (报到)
    SCOOPS = 5  #: 打枪
    HOME_RUN = 6  #: 全垒打
    T_FORMULA = 7  #: place payments of the t-based formula
    HORSE = 8  #: 马牌 multiplication


#: Names of the score components returned with ``breakdown=True``, in :class:`Component` order.
COMPONENTS: tuple[str, ...] = tuple(c.name.lower() for c in Component)
_N_COMP = len(Component)


# --------------------------------------------------------------------------------------------
# Scalar helpers: one dun, one pair, one player (scalars in, scalars out)
# --------------------------------------------------------------------------------------------


@nb.njit(cache=True, inline="always")
def _dun_result(a, b, worth_a, worth_b):
    """One dun compared: ``(won, lost, point, bonus)`` for the holder of ``a`` against ``b``.

    ``point`` is 1, -1 or 0; ``bonus`` is the winner's worth above 1 (``worth_a - 1`` when
    won, ``-(worth_b - 1)`` when lost, 0 on a tie).
    """
    if a > b:
        return 1, 0, 1.0, worth_a - 1.0
    if a < b:
        return 0, 1, -1.0, -(worth_b - 1.0)
    return 0, 0, 0.0, 0.0


@nb.njit(cache=True, inline="always")
def _three_duns(a0, a1, a2, b0, b1, b2, wa0, wa1, wa2, wb0, wb1, wb2):
    """Two normal hands dun by dun: ``(dun points, bonuses, duns won, duns lost)`` of hand A.

    ``a*``/``b*``: what the duns compare by (front, middle, back); ``wa*``/``wb*``: what
    each would be worth if won.  Sums start at +0.0 and add a tie's 0.0, so they are never
    -0.0.
    """
    won0, lost0, point0, bonus0 = _dun_result(a0, b0, wa0, wb0)
    won1, lost1, point1, bonus1 = _dun_result(a1, b1, wa1, wb1)
    won2, lost2, point2, bonus2 = _dun_result(a2, b2, wa2, wb2)
    base = ((0.0 + point0) + point1) + point2
    bonus = ((0.0 + bonus0) + bonus1) + bonus2
    return base, bonus, won0 + won1 + won2, lost0 + lost1 + lost2


@nb.njit(cache=True, inline="always")
def _match_sign(won, lost, two_wins):
    """The majority match: 1 won, -1 lost, 0 tied; ``two_wins``: it needs two duns won,
    else more duns won than lost."""
    if two_wins:
        return 1.0 if won >= 2 else (-1.0 if lost >= 2 else 0.0)
    return 1.0 if won > lost else (-1.0 if lost > won else 0.0)


@nb.njit(cache=True, inline="always")
def _scoops(won, lost, with_ties):
    """``(A scoops B, B scoops A)``: all three duns won, or with ``with_ties`` none lost and
    at least one won."""
    if with_ties:
        return lost == 0 and won >= 1, won == 0 and lost >= 1
    return won == 3, lost == 3


@nb.njit(cache=True, inline="always")
def _scoop_amount(mode, doubles_all, points, duns, bonus, majority):
    """What a scoop adds to the scooper's pair: ``points`` (ADD), or the pair's dun points,
    bonuses and majority again (DOUBLE, ``doubles_all``), or its dun points only."""
    if mode == ScoopMode.ADD:
        return points
    if doubles_all:
        return duns + bonus + majority
    return duns


@nb.njit(cache=True, inline="always")
def _special_pair(si, sj, pay_i, pay_j, banker_pays, i_is_banker):
    """What player i wins from j when at least one of them declared a special (``si``,
    ``sj``: special indices, -1 none; ``pay_*``: their payouts).  Two specials: the banker
    pays the player (``banker_pays``), else the bigger (lower index) collects."""
    if si >= 0 and sj >= 0:
        if banker_pays:
            return -pay_j if i_is_banker else pay_i
        if si < sj:
            return pay_i
        if sj < si:
            return -pay_j
        return 0.0
    if si >= 0:
        return pay_i
    return -pay_j


@nb.njit(cache=True, inline="always")
def _foul_payment(
    penalty, amount, biggest, w0, w1, w2, majority, majority_replaces, majority_points
):
    """What a fouled hand pays an opponent that did not foul, whose duns are worth
    ``w0, w1, w2`` if won; ``biggest``: the worth of the round's biggest dun."""
    if penalty == FoulPenalty.LOSE_ALL:  # the opponent wins every dun with its worth
        if majority_replaces:
            return majority_points
        amt = w0 + w1 + w2
        if majority:
            amt += majority_points
        return amt
    if penalty == FoulPenalty.FIXED:
        return amount
    return max(amount, biggest)


@nb.njit(cache=True, inline="always")
def _banker_wins_tie(a, b, a_is_banker, b_is_banker):
    """食夹棍: on a tied dun the banker's value is raised by one, so the banker wins it."""
    if a == b:
        if a_is_banker:
            return a + 1, b
        if b_is_banker:
            return a, b + 1
    return a, b


@nb.njit(cache=True, inline="always")
def _horse_dun(a, b, copies_a, copies_b, worth_a, worth_b, multiplier):
    """马牌 by the winning dun: what the holder of ``a`` wins from ``b`` more on one dun, the
    winner's copies of the card in it making its worth count ``multiplier**copies`` times."""
    if a > b and copies_a > 0:
        return (multiplier**copies_a - 1.0) * worth_a
    if b > a and copies_b > 0:
        return -((multiplier**copies_b - 1.0) * worth_b)
    return 0.0


@nb.njit(cache=True, inline="always")
def _is_foul(r0, r1, r2, foul_order):
    """The foul order ``foul_order`` (:attr:`CompiledRules.foul_order` bits: front ≤ middle ≤
    back, or a strict form) fails for dun ranks r*: the strategies' own legality test."""
    return not order_holds(r0, r1, r2, foul_order)


# --------------------------------------------------------------------------------------------
# The pairwise primitive
# --------------------------------------------------------------------------------------------


def pair_points_params(variant: str | Variant | None, n_players: int) -> CompiledRules:
    """The rules :func:`pair_points_one` reads: the variant's
    :func:`~simkit.variants.compiled.compile_rules` at ``n_players``."""
    v = resolve_variant(variant)
    return compile_rules(v, n_players)


@nb.njit(cache=True, inline="always")
def _pair_total(
    base,
    bonus,
    won,
    lost,
    majority,
    majority_two_wins,
    majority_points,
    majority_replaces,
    scoop_mode,
    scoop_doubles_all,
    scoop_points,
    scoop_with_ties,
):
    """Two normal hands' :func:`_three_duns` result (dun points, bonuses, duns won and
    lost) → what hand A wins: with the majority point and the pair's scoop."""
    maj = 0.0
    if majority:
        maj = _match_sign(won, lost, majority_two_wins) * majority_points
        if majority_replaces:
            base = 0.0
            bonus = 0.0
    total = base + bonus + maj
    if scoop_mode != ScoopMode.NONE:
        a_scoops, b_scoops = _scoops(won, lost, scoop_with_ties)
        if a_scoops:
            total += _scoop_amount(scoop_mode, scoop_doubles_all, scoop_points, base, bonus, maj)
        elif b_scoops:
            total -= _scoop_amount(scoop_mode, scoop_doubles_all, scoop_points, -base, -bonus, -maj)
    return total


@nb.njit(cache=True, inline="always")
def pair_points_one(a0, a1, a2, b0, b1, b2, rules):
    """Points dun ranks (a0, a1, a2) win from (b0, b1, b2): one pair, numba-callable.

    ``rules`` is :func:`pair_points_params` (a :class:`~simkit.variants.compiled.
    CompiledRules`); see :func:`pair_points` for what is counted.  It calls the kernel's own
    pair helpers, so the two cannot disagree.
    """
    worth = rules.dun_worth
    base, bonus, won, lost = _three_duns(
        a0,
        a1,
        a2,
        b0,
        b1,
        b2,
        worth[0, a0 >> 20],
        worth[1, a1 >> 20],
        worth[2, a2 >> 20],
        worth[0, b0 >> 20],
        worth[1, b1 >> 20],
        worth[2, b2 >> 20],
    )
    return _pair_total(
        base,
        bonus,
        won,
        lost,
        rules.majority,
        rules.majority_two_wins,
        rules.majority_points,
        rules.majority_replaces_duns,
        rules.scoop_mode,
        rules.scoop_doubles_all,
        rules.scoop_points,
        rules.scoop_with_ties,
    )


@nb.njit(cache=True)
def _pair_points_rows(a, b, rules, out):
    """:func:`pair_points_one` of each row pair (``a``, ``b``: int ``(n, 3)`` dun ranks) into
    ``out`` (float64 ``(n,)``), the rules read once for all rows rather than bound per row."""
    worth = rules.dun_worth
    majority = rules.majority
    majority_two_wins = rules.majority_two_wins
    majority_points = rules.majority_points
    majority_replaces = rules.majority_replaces_duns
    scoop_mode = rules.scoop_mode
    scoop_doubles_all = rules.scoop_doubles_all
    scoop_points = rules.scoop_points
    scoop_with_ties = rules.scoop_with_ties
    for k in range(a.shape[0]):
        a0, a1, a2 = a[k, 0], a[k, 1], a[k, 2]
        b0, b1, b2 = b[k, 0], b[k, 1], b[k, 2]
        base, bonus, won, lost = _three_duns(
            a0,
            a1,
            a2,
            b0,
            b1,
            b2,
            worth[0, a0 >> 20],
            worth[1, a1 >> 20],
            worth[2, a2 >> 20],
            worth[0, b0 >> 20],
            worth[1, b1 >> 20],
            worth[2, b2 >> 20],
        )
        out[k] = _pair_total(
            base,
            bonus,
            won,
            lost,
            majority,
            majority_two_wins,
            majority_points,
            majority_replaces,
            scoop_mode,
            scoop_doubles_all,
            scoop_points,
            scoop_with_ties,
        )


def pair_points(
    ranks_a: npt.ArrayLike,
    ranks_b: npt.ArrayLike,
    variant: str | Variant | None,
    n_players: int,
) -> np.ndarray:
    """Points hand A wins from hand B in one pairwise comparison of normal hands.

    ``ranks_a``, ``ranks_b``: int32 ``(..., 3)`` dun ranks (front, middle, back) from
    :func:`simkit.evaluate.rank3` / :func:`~simkit.evaluate.rank5` of hands that did not foul
    and declare no special; they broadcast.  Returns float64 ``(...)``: dun points (1 a dun
    won, -1 a dun lost), the ``[scoring.duns]`` bonuses, the majority point and, when the
    variant lists ``scoop``, the pair's 打枪 (with ``n_players`` choosing its size).  It is
    antisymmetric: ``pair_points(a, b) == -pair_points(b, a)``.  Inside numba code use
    :func:`pair_points_one` with :func:`pair_points_params`.

    How it relates to :func:`score`: at an all-pairs table with no fouls, no specials and no
    home run, t-formula or horse card in play, ``score`` of player i is the sum over j != i of
    ``pair_points(ranks_i, ranks_j)``.  ``score`` adds what this leaves out: fouls, specials,
    the 食夹棍 comparison (which favours the banker), and the table-wide transforms (home run,
    t-formula, horse card), and skips the scoop when the variant requires that nobody
    declared a special.
    """
    rules = pair_points_params(variant, n_players)
    a = np.asarray(ranks_a)
    b = np.asarray(ranks_b)
    if a.shape[-1:] != (3,) or b.shape[-1:] != (3,):
        raise SimkitError(
            f"ranks_a and ranks_b must have a last axis of 3 (front, middle, back), "
            f"got {a.shape} and {b.shape}"
        )
    if not (np.issubdtype(a.dtype, np.integer) and np.issubdtype(b.dtype, np.integer)):
        raise TypeError("ranks_a and ranks_b must be integer dun ranks from rank3/rank5")
    a, b = np.broadcast_arrays(a, b)
    shape = a.shape[:-1]
    a2 = np.ascontiguousarray(a.reshape(-1, 3), dtype=np.int64)
    b2 = np.ascontiguousarray(b.reshape(-1, 3), dtype=np.int64)
    out = np.empty(a2.shape[0], dtype=np.float64)
    _pair_points_rows(a2, b2, rules, out)
    return out.reshape(shape)


def fouled(arranged: npt.ArrayLike, variant: str | Variant | None = None) -> np.ndarray:
    """Which arranged hands are fouled (倒水) under the variant's ``[scoring.foul]`` order.

    ``arranged``: int8 ``(..., 13)`` hands in order [front 3 | middle 5 | back 5]; returns bool
    ``(...)``: True where front ≤ middle ≤ back (or the strict form the variant names, e.g.
    front < the middle's top three, :func:`simkit.evaluate.top_three`) fails.
    """
    v = resolve_variant(variant)
    hands = np.asarray(arranged)
    if hands.shape[-1:] != (HAND_SIZE,):
        raise SimkitError(f"arranged must have a last axis of 13 cards, got shape {hands.shape}")
    return fouled_ranks(dun_ranks(hands, v), v)


def fouled_ranks(ranks: np.ndarray, variant: Variant) -> np.ndarray:
    """:func:`fouled` from the dun ranks ``(..., 3)`` (front, middle, back) of set hands."""
    r = np.asarray(ranks, dtype=np.int32)
    if r.shape[-1:] != (3,):
        raise SimkitError(f"ranks must have a last axis of 3 duns, got shape {r.shape}")
    rules = compile_rules(variant, MIN_PLAYERS)  # the foul order is the same at any table
    return ~orders_hold(r.reshape(-1, 3), rules.foul_order).reshape(r.shape[:-1])


# --------------------------------------------------------------------------------------------
# Once-per-game helpers: the transforms (arrays: the table's work space; rule scalars)
# --------------------------------------------------------------------------------------------


@nb.njit(cache=True, inline="always")
def _places(keys, members, weights_out, t):
    """Place payments (q-1-2k)·t for the players in ``members`` ranked by ``keys`` (high first),
    players with equal keys sharing the mean of their places' payments (000/002 §1.4)."""
    q = members.shape[0]
    for a in range(q):
        i = members[a]
        above = 0
        equal = 0
        for b in range(q):
            j = members[b]
            if keys[j] > keys[i]:
                above += 1
            elif keys[j] == keys[i]:
                equal += 1
        # places above .. above+equal-1 share: mean of (q-1-2k) over them
        total = 0.0
        for k in range(above, above + equal):
            total += q - 1 - 2 * k
        weights_out[i] = total / equal * t


@nb.njit(cache=True, inline="always")
def _pivot_payment(k, q, t):
    """000/002 §4.3 second method: what place ``k`` (0 = first) of ``q`` scores.  The pivot is
    place q/2 counted from 1 (0-based c = q/2 - 1, a half when q is odd): it scores 0; a place
    below pays (k - c)·t; the places above share what those pay, in proportion to c - k."""
    c = q / 2.0 - 1.0
    if k > c:
        return -(k - c) * t
    if k == c:
        return 0.0
    paid = 0.0  # what the places below the pivot pay, in units of t
    above = 0.0  # the sum of the distances c - k of the places above it
    for kk in range(q):
        if kk > c:
            paid += kk - c
        elif kk < c:
            above += c - kk
    return paid * t * (c - k) / above


@nb.njit(cache=True, inline="always")
def _pivot_places(keys, members, weights_out, t):
    """:func:`_pivot_payment` for the players in ``members`` ranked by ``keys`` (high first),
    players with equal keys sharing the mean of their places' payments (§1.4)."""
    q = members.shape[0]
    for a in range(q):
        i = members[a]
        above = 0
        equal = 0
        for b in range(q):
            j = members[b]
            if keys[j] > keys[i]:
                above += 1
            elif keys[j] == keys[i]:
                equal += 1
        total = 0.0
        for k in range(above, above + equal):
            total += _pivot_payment(k, q, t)
        weights_out[i] = total / equal


@nb.njit(cache=True, inline="always")
def _all_special_places(g, pivot, declared, spay, P, V, dirty, keys, members, weights):
    """000/002 §4.3 first method: when nobody holds a normal hand, specials are paid by
    places in special order (t = the biggest payout) instead of pair by pair; ``pivot``: by
    the second method's places (:func:`_pivot_payment`)."""
    p = V.shape[1]
    n_special = 0
    for i in range(p):
        if declared[g, i] >= 0:
            n_special += 1
    if n_special != p:
        return
    t_spec = 0.0
    for i in range(p):
        keys[i] = -declared[g, i]
        members[i] = i
        if spay[g, i] > t_spec:
            t_spec = spay[g, i]
        for j in range(p):
            P[Component.SPECIALS, i, j] = 0.0
    if pivot:
        _pivot_places(keys, members[:p], weights, t_spec)
    else:
        _places(keys, members[:p], weights, t_spec)
    for i in range(p):
        V[Component.SPECIALS, i] += weights[i]
    dirty[Component.SPECIALS] = True


@nb.njit(cache=True, inline="always")
def _special_sweep(g, declared, sweep, compared, P, dirty):
    """通杀 of a special (004 "通杀时奖励翻倍"): a declared special with a multiplier above 1
    that collects from every other player has its pairwise payments multiplied."""
    p = compared.shape[0]
    for i in range(p):
        s = declared[g, i]
        if s < 0 or sweep[s] <= 1.0:
            continue
        swept = True
        for j in range(p):
            if j != i and not (compared[i, j] and P[Component.SPECIALS, i, j] > 0.0):
                swept = False
        if not swept:
            continue
        for j in range(p):
            if j != i:
                amt = (sweep[s] - 1.0) * P[Component.SPECIALS, i, j]
                P[Component.SPECIALS, i, j] += amt
                P[Component.SPECIALS, j, i] -= amt
        dirty[Component.SPECIALS] = True


@nb.njit(cache=True, inline="always")
def _scoop_transform(mode, doubles_all, points, n_scoops, scoop_winner, scoop_loser, P, dirty):
    """打枪: each recorded scoop adds :func:`_scoop_amount` to the scooper's pair."""
    dirty[Component.SCOOPS] = True
    # Each pair scoops at most once, so the order of the scoops does not matter.
    for k in range(n_scoops):
        i = scoop_winner[k]
        j = scoop_loser[k]
        amt = _scoop_amount(
            mode,
            doubles_all,
            points,
            P[Component.DUNS, i, j],
            P[Component.BONUSES, i, j],
            P[Component.MAJORITY, i, j],
        )
        P[Component.SCOOPS, i, j] += amt
        P[Component.SCOOPS, j, i] -= amt


@nb.njit(cache=True, inline="always")
def _home_run_base(scoop_mode, duns, scoops):
    """What a base-only home run multiplies in one of the runner's pairs: the dun count, twice
    when a doubling scoop doubled it (``scoops``: the pair's scoop points, 0 when none)."""
    if scoop_mode == ScoopMode.DOUBLE and scoops != 0.0:
        return duns + duns
    return duns


@nb.njit(cache=True, inline="always")
def _home_run_transform(even, doubles_all, scoop_mode, factor, extra, n_scooped, P, V, dirty):
    """全垒打: the player who scooped every other player has its pairs (``split = "pairs"``)
    or its total (``"even"``, the others paying equal shares) multiplied, plus the extra;
    ``doubles_all`` false: only the dun count (:func:`_home_run_base`) is multiplied."""
    p = V.shape[1]
    runner = -1
    for i in range(p):
        if n_scooped[i] == p - 1:
            runner = i
    if runner < 0:
        return
    dirty[Component.HOME_RUN] = True
    if not even:
        for j in range(p):
            if j == runner:
                continue
            pair_total = 0.0
            if doubles_all:
                for c in range(_N_COMP):
                    if dirty[c]:
                        pair_total += P[c, runner, j]
            else:
                pair_total = _home_run_base(
                    scoop_mode, P[Component.DUNS, runner, j], P[Component.SCOOPS, runner, j]
                )
            amt = (factor - 1.0) * pair_total + extra
            P[Component.HOME_RUN, runner, j] += amt
            P[Component.HOME_RUN, j, runner] -= amt
    else:
        own = 0.0
        if doubles_all:
            for c in range(_N_COMP):
                own += V[c, runner]
                for j in range(p):
                    own += P[c, runner, j]
        else:
            for j in range(p):
                if j != runner:
                    own += _home_run_base(
                        scoop_mode, P[Component.DUNS, runner, j], P[Component.SCOOPS, runner, j]
                    )
        inc = (factor - 1.0) * own + extra * (p - 1)
        V[Component.HOME_RUN, runner] += inc
        for j in range(p):
            if j != runner:
                V[Component.HOME_RUN, j] -= inc / (p - 1)


@nb.njit(cache=True, inline="always")
def _t_formula_transform(normal, biggest, P, V, dirty, keys, members, weights):
    """The t-formula: the hands compared normally are paid by place (±3t, ±t, ..., ranked by
    ``keys``, t = ``biggest``) instead of their dun points, bonuses and majority."""
    p = V.shape[1]
    dirty[Component.T_FORMULA] = True
    q = 0
    for i in range(p):
        if normal[i]:
            members[q] = i
            q += 1
    _places(keys, members[:q], weights, biggest)
    for a in range(q):
        i = members[a]
        V[Component.T_FORMULA, i] += weights[i]
        for b in range(q):
            j = members[b]
            P[Component.DUNS, i, j] = 0.0
            P[Component.BONUSES, i, j] = 0.0
            P[Component.MAJORITY, i, j] = 0.0


@nb.njit(cache=True, inline="always")
def _horse_transform(by_dun, multiplier, horse_count, horse_duns, P, dirty):
    """马牌: ``by_dun``: the pairs' winning duns that held the card (``horse_duns``, from the
    core) are added; else a pair is multiplied by ``multiplier`` once per copy of the card
    either holds."""
    p = horse_count.shape[0]
    if by_dun:
        for i in range(p):
            for j in range(p):
                if horse_duns[i, j] != 0.0:
                    P[Component.HORSE, i, j] += horse_duns[i, j]
                    dirty[Component.HORSE] = True
        return
    for i in range(p):
        for j in range(i + 1, p):
            e = horse_count[i] + horse_count[j]
            if e == 0:
                continue
            dirty[Component.HORSE] = True
            pair_total = 0.0
            for c in range(_N_COMP):
                if dirty[c]:  # the others are zeros, which add nothing
                    pair_total += P[c, i, j]
            amt = (multiplier**e - 1.0) * pair_total
            P[Component.HORSE, i, j] += amt
            P[Component.HORSE, j, i] -= amt


# --------------------------------------------------------------------------------------------
# Per-game steps of the kernel (inlined: numba compiles them into the kernel's body)
# --------------------------------------------------------------------------------------------


@nb.njit(cache=True, inline="always")
def _table_pairs(banker_topology, banker, table_pairs, compared):
    """Fill ``table_pairs`` (bool ``(p, p)``) with the pairs the topology compares (every
    pair, or each player with the ``banker``) and copy it into ``compared``."""
    p = table_pairs.shape[0]
    for i in range(p):
        for j in range(p):
            if banker_topology:
                table_pairs[i, j] = (i == banker) != (j == banker)
            else:
                table_pairs[i, j] = i != j
            compared[i, j] = table_pairs[i, j]


@nb.njit(cache=True, inline="always")
def _skip_pairs(g, skipped, table_pairs, compared):
    """``compared``: the topology's pairs less those game ``g`` skipped (``skipped``, bool
    ``(n_games, p, p)``)."""
    p = table_pairs.shape[0]
    for i in range(p):
        for j in range(p):
            compared[i, j] = table_pairs[i, j] and not skipped[g, i, j]


@nb.njit(cache=True, inline="always")
def _clear_components(dirty, P, V):
    """Zero the components the last game wrote (``dirty``) in ``P`` ``(c, p, p)`` and ``V``
    ``(c, p)``, and mark none written; the others hold zeros already."""
    p = V.shape[1]
    for c in range(_N_COMP):
        if dirty[c]:
            for i in range(p):
                V[c, i] = 0.0
                for j in range(p):
                    P[c, i, j] = 0.0
            dirty[c] = False


@nb.njit(cache=True, inline="always")
def _top_card_cmp(r, top):
    """食夹棍: what a dun of rank ``r`` whose highest card is ``top`` compares by (the
    category, then only the highest card's rank)."""
    return ((r >> 20) << 4) | (top >> 2)


@nb.njit(cache=True, inline="always")
def _count_horse(h, horse_card, copies, i):
    """Copies of the 马牌 ``horse_card`` in hand ``h`` (13 cards): the total, returned, and
    per dun in ``copies[i]`` (front, middle, back)."""
    e = 0
    copies[i, 0] = 0
    copies[i, 1] = 0
    copies[i, 2] = 0
    for k in range(HAND_SIZE):
        if h[k] == horse_card:
            e += 1
            copies[i, 0 if k < 3 else (1 if k < 8 else 2)] += 1
    return e


@nb.njit(cache=True, inline="always")
def _horse_pair(a0, a1, a2, b0, b1, b2, copies, worth, i, j, multiplier):
    """马牌 by the winning dun: what i wins from j more on its three duns (``a*``/``b*``:
    what they compare by; ``copies``, ``worth``: ``(p, 3)``), :func:`_horse_dun` summed."""
    d0 = _horse_dun(a0, b0, copies[i, 0], copies[j, 0], worth[i, 0], worth[j, 0], multiplier)
    d1 = _horse_dun(a1, b1, copies[i, 1], copies[j, 1], worth[i, 1], worth[j, 1], multiplier)
    d2 = _horse_dun(a2, b2, copies[i, 2], copies[j, 2], worth[i, 2], worth[j, 2], multiplier)
    return (d0 + d1) + d2


@nb.njit(cache=True, inline="always")
def _sum_components(g, dirty, P, V, totals, out, write_components):
    """Game ``g``'s totals: each written component's row sum (``V`` plus ``P``'s row),
    components added in order, into ``totals[g]`` and, with ``write_components``,
    ``out[c, g]``.  A component not written in this game is all zeros and one written but
    unused by the variant holds only ±0.0: both add nothing (sums start at +0.0)."""
    p = V.shape[1]
    for i in range(p):
        totals[g, i] = 0.0
    for c in range(_N_COMP):
        if not dirty[c]:
            continue
        for i in range(p):
            acc = V[c, i]
            for j in range(p):
                acc += P[c, i, j]
            totals[g, i] += acc
            if write_components:
                out[c, g, i] = acc


@nb.njit(cache=True, inline="always")
def _sum_pairs(g, dirty, P, pairs):
    """Game ``g``'s pairwise part: ``pairs[g, i, j]``, the written components of
    ``P[:, i, j]`` summed in order."""
    p = P.shape[1]
    for i in range(p):
        for j in range(p):
            acc = 0.0
            for c in range(_N_COMP):
                if dirty[c]:
                    acc += P[c, i, j]
            pairs[g, i, j] = acc


# --------------------------------------------------------------------------------------------
# The kernel
# --------------------------------------------------------------------------------------------


@nb.njit(cache=True)
def _kernel(
    arranged,
    ranks,
    declared,
    spay,
    banker,
    table5,
    flush_table,
    table3,
    rules,
    skipped,
    write_components,
    totals,
    out,
    pairs,
):
    """Score ``n_games`` games: ``totals[g, i]`` and, with ``write_components``, each
    component in ``out[c, g, i]``; when ``pairs`` has rows, what i wins from j in
    ``pairs[g, i, j]`` (the pairwise components summed).

    ``arranged``: int8 ``(n_games, p, 13)``; ``ranks``: int32 ``(n_games, p, 3)`` dun ranks,
    or no rows to rank here; ``declared``: int8 ``(n_games, p)`` special indices (-1 none);
    ``spay``: float64 ``(n_games, p)`` each declared special's payout; ``rules``: the
    variant's :class:`~simkit.variants.compiled.CompiledRules` at ``p`` players; ``skipped``:
    bool ``(n_games, p, p)``, the pairs that skip the comparison (谈判, 抛牌), or no rows.

    Each game: clear, per player, core pair by pair, transforms, totals.  The per-player and
    per-pair loops stay in this body and call scalar helpers; the per-game steps are helpers
    inlined into it.
    """
    n_games, p = arranged.shape[0], arranged.shape[1]
    cmpv = np.empty((p, 3), dtype=np.int64)  # what each dun compares by
    worth = np.empty((p, 3), dtype=np.float64)  # what each dun is worth if won
    fouled = np.empty(p, dtype=np.bool_)
    foul_factor = np.ones(p, dtype=np.float64)  # a fouled hand's penalty multiple (严重破坏牌序)
    normal = np.empty(p, dtype=np.bool_)  # neither fouled nor declaring a special
    horse_count = np.zeros(p, dtype=np.int64)
    horse_copies = np.zeros((p, 3), dtype=np.int64)  # copies of the 马牌 in each dun
    horse_duns = np.zeros((p, p), dtype=np.float64)  # what the 马牌 duns add, i from j
    P = np.zeros((_N_COMP, p, p), dtype=np.float64)  # pairwise components: i wins from j
    V = np.zeros((_N_COMP, p), dtype=np.float64)  # per-player components
    # dirty[c]: component c was written in this game, so it is summed here and zeroed before
    # the next game; the others hold zeros (which add nothing: every sum starts at +0.0).
    dirty = np.ones(_N_COMP, dtype=np.bool_)
    n_scooped = np.zeros(p, dtype=np.int64)
    scoop_winner = np.empty(p * p, dtype=np.int64)  # this game's scoops (打枪): who scooped whom
    scoop_loser = np.empty(p * p, dtype=np.int64)
    table_pairs = np.zeros((p, p), dtype=np.bool_)  # the pairs the topology compares
    compared = np.zeros((p, p), dtype=np.bool_)  # those of them compared in this game
    keys = np.zeros(p, dtype=np.float64)
    weights = np.zeros(p, dtype=np.float64)
    members = np.empty(p, dtype=np.int64)
    have_ranks = ranks.shape[0] > 0
    # The rules, read once.
    dun_worth = rules.dun_worth
    transforms = rules.transforms
    top_card = rules.compare == CompareMode.TOP_CARD
    banker_ties = top_card and rules.banker_topology  # 食夹棍: the banker wins tied duns
    foul_order = rules.foul_order
    foul_severe_factor = rules.foul_severe_factor
    majority = rules.majority
    majority_replaces = rules.majority_replaces_duns
    horse_card = rules.horse_card
    horse_by_dun = rules.horse_by_dun and horse_card >= 0
    horse_multiplier = rules.horse_multiplier
    _table_pairs(rules.banker_topology, banker, table_pairs, compared)
    for g in range(n_games):
        # A pair that skipped the comparison (谈判 settled, 抛牌 before it) is not compared: it
        # pays nothing here, scoops nobody, and so breaks a 全垒打 or a special's 通杀, which
        # need every other player beaten (004 "三墩均胜过其余所有对手").
        if skipped.shape[0] > 0:
            _skip_pairs(g, skipped, table_pairs, compared)
        _clear_components(dirty, P, V)
        if horse_by_dun:
            horse_duns[:, :] = 0.0
        # ---- per player: dun ranks, foul, dun worths, what each dun compares by, horse cards
        any_special = False
        n_normal = 0
        biggest = 1.0  # the biggest dun worth among the hands compared normally
        foul_biggest = 1.0  # the fouled hands' biggest, when they size the foul penalty
        for i in range(p):
            n_scooped[i] = 0
            keys[i] = 0.0
            h = arranged[g, i]
            if have_ranks:
                r0 = ranks[g, i, 0]
                r1 = ranks[g, i, 1]
                r2 = ranks[g, i, 2]
            else:
                r0 = rank3_one(h[0], h[1], h[2], table3)
                r1 = rank5_one(h[3], h[4], h[5], h[6], h[7], table5, flush_table)
                r2 = rank5_one(h[8], h[9], h[10], h[11], h[12], table5, flush_table)
            bad = _is_foul(r0, r1, r2, foul_order)
            fouled[i] = bad
            foul_factor[i] = foul_severe_factor if r0 > r1 and r1 > r2 else 1.0
            w0 = dun_worth[0, r0 >> 20]
            w1 = dun_worth[1, r1 >> 20]
            w2 = dun_worth[2, r2 >> 20]
            worth[i, 0] = w0
            worth[i, 1] = w1
            worth[i, 2] = w2
            if top_card:  # 食夹棍: the category first, then only the highest card's rank
                cmpv[i, 0] = _top_card_cmp(r0, max(h[0], h[1], h[2]))
                cmpv[i, 1] = _top_card_cmp(r1, max(max(h[3], h[4]), max(h[5], h[6]), h[7]))
                cmpv[i, 2] = _top_card_cmp(r2, max(max(h[8], h[9]), max(h[10], h[11]), h[12]))
            else:
                cmpv[i, 0] = r0
                cmpv[i, 1] = r1
                cmpv[i, 2] = r2
            if horse_card >= 0:
                horse_count[i] = _count_horse(h, horse_card, horse_copies, i)
            if declared[g, i] >= 0:
                any_special = True
                normal[i] = False
            else:
                normal[i] = not bad
                if not bad:
                    n_normal += 1
                    biggest = max(biggest, w0, w1, w2)
                elif rules.foul_biggest_all_hands:
                    foul_biggest = max(foul_biggest, w0, w1, w2)
        # ---- core, pair by pair: specials, fouls, then dun points, bonuses and majority
        n_scoops = 0
        dirty[Component.DUNS] = True
        dirty[Component.BONUSES] = True
        dirty[Component.MAJORITY] = majority
        for i in range(p):
            for j in range(i + 1, p):
                if not compared[i, j]:
                    continue
                if not (normal[i] and normal[j]):
                    si = declared[g, i]
                    sj = declared[g, j]
                    if si >= 0 or sj >= 0:
                        amt = _special_pair(
                            si, sj, spay[g, i], spay[g, j], rules.specials_banker_pays, i == banker
                        )
                        P[Component.SPECIALS, i, j] += amt
                        P[Component.SPECIALS, j, i] -= amt
                        dirty[Component.SPECIALS] = True
                        continue
                    if fouled[i] and fouled[j]:
                        continue  # two fouled hands settle nothing
                    f = i if fouled[i] else j
                    o = j if fouled[i] else i
                    if rules.home_run_fouled_beaten:
                        n_scooped[o] += 1
                    amt = foul_factor[f] * _foul_payment(
                        rules.foul_penalty,
                        rules.foul_amount,
                        max(biggest, foul_biggest),
                        worth[o, 0],
                        worth[o, 1],
                        worth[o, 2],
                        majority,
                        majority_replaces,
                        rules.majority_points,
                    )
                    P[Component.FOULS, o, f] += amt
                    P[Component.FOULS, f, o] -= amt
                    dirty[Component.FOULS] = True
                    continue
                # Both hands normal.
                i_ties = banker_ties and i == banker
                j_ties = banker_ties and j == banker
                a0, b0 = _banker_wins_tie(cmpv[i, 0], cmpv[j, 0], i_ties, j_ties)
                a1, b1 = _banker_wins_tie(cmpv[i, 1], cmpv[j, 1], i_ties, j_ties)
                a2, b2 = _banker_wins_tie(cmpv[i, 2], cmpv[j, 2], i_ties, j_ties)
                wi0, wi1, wi2 = worth[i, 0], worth[i, 1], worth[i, 2]
                wj0, wj1, wj2 = worth[j, 0], worth[j, 1], worth[j, 2]
                base, bonus, w, lo = _three_duns(
                    a0, a1, a2, b0, b1, b2, wi0, wi1, wi2, wj0, wj1, wj2
                )
                if horse_by_dun and horse_count[i] + horse_count[j] > 0 and not majority_replaces:
                    amt = _horse_pair(
                        a0, a1, a2, b0, b1, b2, horse_copies, worth, i, j, horse_multiplier
                    )
                    horse_duns[i, j] = amt
                    horse_duns[j, i] = -amt
                i_scoops, j_scoops = _scoops(w, lo, rules.scoop_with_ties)
                if i_scoops or j_scoops:
                    n_scooped[i if i_scoops else j] += 1
                    scoop_winner[n_scoops] = i if i_scoops else j
                    scoop_loser[n_scoops] = j if i_scoops else i
                    n_scoops += 1
                maj_ij = 0.0  # P[MAJORITY] as it stands when the majority is off
                maj_ji = 0.0
                if majority:
                    m = _match_sign(w, lo, rules.majority_two_wins)
                    maj_ij = m * rules.majority_points
                    maj_ji = -m * rules.majority_points
                    P[Component.MAJORITY, i, j] = maj_ij
                    P[Component.MAJORITY, j, i] = maj_ji
                    if majority_replaces:
                        base = 0.0
                        bonus = 0.0
                P[Component.DUNS, i, j] = base
                P[Component.DUNS, j, i] = -base
                P[Component.BONUSES, i, j] = bonus
                P[Component.BONUSES, j, i] = -bonus
                # The t-formula's keys, summed as it would over P: pairs come in order
                # (0, 1), (0, 2), .., (1, 2), .., so each player's partners come in seat order.
                keys[i] += (base + bonus) + maj_ij
                keys[j] += (-base + -bonus) + maj_ji
        if rules.specials_all_places and any_special:
            _all_special_places(
                g, rules.specials_all_pivot, declared, spay, P, V, dirty, keys, members, weights
            )
        if rules.specials_sweep and any_special:
            _special_sweep(g, declared, rules.special_sweep, compared, P, dirty)
        # ---- transforms, in the variant's order
        for t_index in range(transforms.shape[0]):
            transform = transforms[t_index]
            if transform == Transform.SCOOP:
                if n_scoops > 0 and not (rules.scoop_requires_no_specials and any_special):
                    _scoop_transform(
                        rules.scoop_mode,
                        rules.scoop_doubles_all,
                        rules.scoop_points,
                        n_scoops,
                        scoop_winner,
                        scoop_loser,
                        P,
                        dirty,
                    )
            elif transform == Transform.HOME_RUN:
                if n_scoops > 0 and rules.home_run:
                    _home_run_transform(
                        rules.home_run_even,
                        rules.home_run_doubles_all,
                        rules.scoop_mode,
                        rules.home_run_factor,
                        rules.home_run_extra,
                        n_scooped,
                        P,
                        V,
                        dirty,
                    )
            elif transform == Transform.T_FORMULA:
                if n_normal >= rules.t_formula_min_players:
                    _t_formula_transform(normal, biggest, P, V, dirty, keys, members, weights)
            elif transform == Transform.HORSE:
                _horse_transform(horse_by_dun, horse_multiplier, horse_count, horse_duns, P, dirty)
        # ---- totals, and the pairwise part when asked
        _sum_components(g, dirty, P, V, totals, out, write_components)
        if pairs.shape[0] > 0:
            _sum_pairs(g, dirty, P, pairs)


# --------------------------------------------------------------------------------------------
# The public scorer
# --------------------------------------------------------------------------------------------


def _stacked_payouts(masks: np.ndarray, declared: np.ndarray, payouts: np.ndarray) -> np.ndarray:
    """Declared payout plus those of every other qualifying special listed after it
    (``masks``: the :func:`~simkit.specials.detect_specials` bits of each hand)."""
    masks = np.asarray(masks).astype(np.int64)
    idx = np.clip(declared, 0, None).astype(np.int64)
    total = payouts[idx].copy()
    for k in range(payouts.shape[0]):
        has_k = ((masks >> k) & 1).astype(bool) & (k > idx)
        total = total + np.where(has_k, payouts[k], 0.0)
    return total


def _given_hands(arranged: npt.ArrayLike, v: Variant) -> np.ndarray:
    """Validated arranged hands ``(n_games, n_players, 13)`` passed to :func:`score`, as a
    C-contiguous int8 array: 2-8 players, every value a card of ``v``'s deck."""
    hands = np.asarray(arranged)
    if hands.ndim != 3 or hands.shape[2] != HAND_SIZE:
        raise SimkitError(f"arranged must have shape (n_games, n_players, 13), got {hands.shape}")
    if not np.issubdtype(hands.dtype, np.integer):
        raise TypeError(f"arranged must hold integer cards, got dtype {hands.dtype}")
    n_players = hands.shape[1]
    if not 2 <= n_players <= 8:
        raise SimkitError(f"十三水 is played by 2 to 8 players, got n_players={n_players}")
    # Fifth-suit cards and jokers (52..66) where the variant's deck has them: their duns are
    # ranked by dun_ranks (jokers wild) unless the ranks are given.
    limit = DECK_SIZE if v.deck.plain else N_CARD_INTS
    if hands.size and (hands.min() < 0 or hands.max() >= limit):
        raise SimkitError(
            f"arranged holds a value that is not a card of {v.name}'s deck (cards are 0..51"
            + (")" if v.deck.plain else ", 52..64 the fifth suit, 65-66 jokers)")
        )
    return np.ascontiguousarray(hands, dtype=np.int8)


def _given_declared(
    declared: npt.ArrayLike | None, shape: tuple[int, int], v: Variant
) -> np.ndarray:
    """Validated declared specials ``(n_games, n_players)`` passed to :func:`score`, as int8
    indices into ``v.specials.rules`` (-1 none; None: nobody declares)."""
    if declared is None:
        return np.full(shape, -1, dtype=np.int8)
    decl = np.asarray(declared)
    if decl.shape != shape:
        raise SimkitError(f"declared must have shape {shape}, got {decl.shape}")
    if not np.issubdtype(decl.dtype, np.integer):
        raise TypeError(f"declared must hold integer special indices, got {decl.dtype}")
    n_specials = len(v.specials.rules)
    if decl.size and (decl.min() < -1 or decl.max() >= n_specials):
        raise SimkitError(
            f"declared holds an index outside -1..{n_specials - 1} "
            f"({v.name} plays {n_specials} specials)"
        )
    return np.ascontiguousarray(decl, dtype=np.int8)


def _with_horse(rules: CompiledRules, horse: int | None, v: Variant) -> CompiledRules:
    """``rules`` with the 马牌 card ``horse`` passed to :func:`score` (None: the variant's);
    raises when the variant plays no horse card and one is given, or the card is not 0..51."""
    if rules.horse_card < 0:
        if horse is not None:
            raise SimkitError(f"{v.name} does not play a horse card (马牌); pass horse=None")
        return rules
    card = rules.horse_card if horse is None else horse
    if isinstance(card, bool) or not isinstance(card, int | np.integer):
        raise TypeError(f"horse must be a card int, got {card!r}")
    if not 0 <= card < DECK_SIZE:
        raise SimkitError(f"horse must be a card 0..51, got {card}")
    if card != rules.horse_card:
        rules = rules._replace(horse_card=int(card))
    return rules


def _special_pays(
    hands: np.ndarray, v: Variant, rules: CompiledRules, decl: np.ndarray, masks: np.ndarray | None
) -> np.ndarray:
    """float64 ``(n_games, n_players)``: what each declared special pays (stacked with the
    other specials the hand qualifies for where the variant stacks them; ``masks``: their
    bits, detected here when None), 0 where nothing is declared."""
    payouts = rules.special_payouts
    if decl.size and (decl >= 0).any():
        if rules.specials_stack:
            if masks is None:
                masks = detect_specials(hands, v)
            spay = _stacked_payouts(masks, decl, payouts)
        else:
            spay = payouts[np.clip(decl, 0, None)]
        spay = np.where(decl >= 0, spay, 0.0)
    else:
        spay = np.zeros(decl.shape)
    return np.ascontiguousarray(spay, dtype=np.float64)


def _given_pairs(pairs: np.ndarray | None, shape: tuple[int, int]) -> np.ndarray:
    """The ``pairs`` array passed to :func:`score`, checked to be C-contiguous float64
    ``(n_games, n_players, n_players)``; None: an array with no rows (nothing written)."""
    n_games, p = shape
    if pairs is None:
        return np.empty((0, p, p), dtype=np.float64)
    if pairs.shape != (n_games, p, p) or pairs.dtype != np.float64 or not pairs.flags.c_contiguous:
        raise SimkitError(f"pairs must be a C-contiguous float64 array of shape {(n_games, p, p)}")
    return pairs


def _given_ranks(ranks: npt.ArrayLike, shape: tuple[int, int]) -> np.ndarray:
    """Validated dun ranks ``(n_games, n_players, 3)`` passed to :func:`score`, as int32."""
    r = np.asarray(ranks)
    if r.shape != (*shape, 3):
        raise SimkitError(f"ranks must have shape {(*shape, 3)}, got {r.shape}")
    if not np.issubdtype(r.dtype, np.integer):
        raise TypeError(f"ranks must hold integer dun ranks, got dtype {r.dtype}")
    return np.ascontiguousarray(r, dtype=np.int32)


def _given_masks(special_masks: npt.ArrayLike, shape: tuple[int, int]) -> np.ndarray:
    """Validated special bit masks ``(n_games, n_players)`` passed to :func:`score`."""
    m = np.asarray(special_masks)
    if m.shape != shape:
        raise SimkitError(f"special_masks must have shape {shape}, got {m.shape}")
    if not np.issubdtype(m.dtype, np.integer):
        raise TypeError(f"special_masks must hold integer bit masks, got dtype {m.dtype}")
    return m


def _given_skipped(skipped: npt.ArrayLike | None, shape: tuple[int, int]) -> np.ndarray:
    """Validated skipped pairs ``(n_games, n_players, n_players)`` passed to :func:`score`, as
    bool (no rows for None: nothing skipped)."""
    n_games, p = shape
    if skipped is None:
        return np.zeros((0, p, p), dtype=np.bool_)
    s = np.asarray(skipped)
    if s.shape != (n_games, p, p):
        raise SimkitError(f"skipped must have shape {(n_games, p, p)}, got {s.shape}")
    if s.dtype != np.bool_:
        raise TypeError(f"skipped must be a bool mask of pairs, got dtype {s.dtype}")
    if not np.array_equal(s, s.transpose(0, 2, 1)):
        raise SimkitError("skipped must be symmetric: a pair skips the comparison for both")
    if s[:, np.arange(p), np.arange(p)].any():
        raise SimkitError("skipped marks a player against itself (its diagonal must be False)")
    return np.ascontiguousarray(s)


@overload
def score(
    arranged: npt.ArrayLike,
    variant: str | Variant | None = ...,
    *,
    declared: npt.ArrayLike | None = ...,
    banker: int = ...,
    horse: int | None = ...,
    breakdown: Literal[False] = ...,
    ranks: npt.ArrayLike | None = ...,
    special_masks: npt.ArrayLike | None = ...,
    pairs: np.ndarray | None = ...,
    skipped: npt.ArrayLike | None = ...,
) -> np.ndarray: ...


@overload
def score(
    arranged: npt.ArrayLike,
    variant: str | Variant | None = ...,
    *,
    declared: npt.ArrayLike | None = ...,
    banker: int = ...,
    horse: int | None = ...,
    breakdown: Literal[True],
    ranks: npt.ArrayLike | None = ...,
    special_masks: npt.ArrayLike | None = ...,
    pairs: np.ndarray | None = ...,
    skipped: npt.ArrayLike | None = ...,
) -> tuple[np.ndarray, dict[str, np.ndarray]]: ...


@overload
def score(
    arranged: npt.ArrayLike,
    variant: str | Variant | None = ...,
    *,
    declared: npt.ArrayLike | None = ...,
    banker: int = ...,
    horse: int | None = ...,
    breakdown: bool,
    ranks: npt.ArrayLike | None = ...,
    special_masks: npt.ArrayLike | None = ...,
    pairs: np.ndarray | None = ...,
    skipped: npt.ArrayLike | None = ...,
) -> np.ndarray | tuple[np.ndarray, dict[str, np.ndarray]]: ...


def score(
    arranged: npt.ArrayLike,
    variant: str | Variant | None = None,
    *,
    declared: npt.ArrayLike | None = None,
    banker: int = 0,
    horse: int | None = None,
    breakdown: bool = False,
    ranks: npt.ArrayLike | None = None,
    special_masks: npt.ArrayLike | None = None,
    pairs: np.ndarray | None = None,
    skipped: npt.ArrayLike | None = None,
) -> np.ndarray | tuple[np.ndarray, dict[str, np.ndarray]]:
    """Score arranged hands by the variant's rules.

    ``arranged``: int8 ``(n_games, n_players, 13)``, each hand in order [front 3 | middle 5 |
    back 5]; 2-4 players with one deck, 5-8 with two.  ``declared``: int8 ``(n_games,
    n_players)``, the index into ``variant.specials.rules`` of the special each player declares,
    -1 for none (None: nobody declares; a player may play a special hand as a normal one).
    ``banker``: the banker's seat, used by banker topologies and 食夹棍.  ``horse``: the 马牌
    card (card int) when the variant plays it; None takes the variant's card.

    A caller that has already computed them may pass, so that they are not computed again:
    ``ranks``, int ``(n_games, n_players, 3)``, the dun ranks of ``arranged``
    (:func:`simkit.evaluate.dun_ranks` with this variant); ``special_masks``, int
    ``(n_games, n_players)``, the bits of the specials each hand qualifies for
    (:func:`simkit.specials.detect_specials` of the same hands), read only when the variant
    stacks special payouts.  They are checked for shape and dtype, not recomputed: values
    that do not belong to ``arranged`` give wrong scores.

    ``pairs``: a float64 ``(n_games, n_players, n_players)`` array, filled with what player i
    wins from player j (``pairs[g, i, j] == -pairs[g, j, i]``): the pairwise part of the score,
    which the decision phases settling a pair replace.  The per-player parts (t-formula
    places, an even home-run split, §4.3 places) are no pair's and are not in it; without them
    the totals are its row sums.

    ``skipped``: bool ``(n_games, n_players, n_players)``, symmetric, the pairs that skip the
    comparison (004 谈判 "跳过比牌直接结算", 抛牌 before it; :mod:`simkit.phases.settle`), or None
    for none.  A skipped pair is not compared: the scorer pays nothing between the two (the
    phase pays what they settled for), and neither scoops the other, so a player with a skipped
    pair scores no 全垒打 ("三墩均胜过其余所有对手") and a special no 通杀; 打枪 in the pairs that
    compared stands.

    Returns float64 ``(n_games, n_players)`` points, zero-sum in every game; with
    ``breakdown=True``, ``(total, components)``: a dict from each name of :data:`COMPONENTS` to
    float64 ``(n_games, n_players)``, adding up to ``total``.
    """
    v = resolve_variant(variant)
    hands = _given_hands(arranged, v)
    n_games, n_players = hands.shape[0], hands.shape[1]
    shape = (n_games, n_players)
    if hands.size and hands.max() >= DECK_SIZE:
        if v.scoring.compare == "top-card":
            raise SimkitError("the top-card comparison (食夹棍) reads one-deck cards only")
        if ranks is None:
            ranks = dun_ranks(hands, v)
    decl = _given_declared(declared, shape, v)
    if isinstance(banker, bool) or not isinstance(banker, int | np.integer):
        raise TypeError(f"banker must be a seat number, got {banker!r}")
    if not 0 <= banker < n_players:
        raise SimkitError(f"banker must be a seat 0..{n_players - 1}, got {banker}")
    rules = _with_horse(compile_rules(v, n_players), horse, v)
    if ranks is None:
        given_ranks = np.empty((0, n_players, 3), dtype=np.int32)  # no rows: rank in the kernel
    else:
        given_ranks = _given_ranks(ranks, shape)
    masks = None if special_masks is None else _given_masks(special_masks, shape)
    spay = _special_pays(hands, v, rules, decl, masks)
    table5, flush_table, table3 = ranking_tables(v.ranking)
    totals = np.empty(shape, dtype=np.float64)
    out = np.zeros((_N_COMP, n_games if breakdown else 0, n_players), dtype=np.float64)
    pair_out = _given_pairs(pairs, shape)
    _kernel(
        hands,
        given_ranks,
        decl,
        spay,
        int(banker),
        table5,
        flush_table,
        table3,
        rules,
        _given_skipped(skipped, shape),
        bool(breakdown),
        totals,
        out,
        pair_out,
    )
    if not breakdown:
        return totals
    return totals, {name: out[c] for c, name in enumerate(COMPONENTS)}
