"""The expected-score model of ``max-ev``: payouts read from a variant, and the value of a split.

The model (an approximation, documented here once)
--------------------------------------------------
For one opponent and dun ``d`` the tables give, by the class of my dun rank (its category and
top two rank digits, :func:`~simkit.arrange.classes.dun_class`, about 1,960 classes per dun),
the chance ``W`` that I win it, ``T`` that we tie, ``L = 1 - W - T`` that I lose, and ``LE``
the points I pay on that dun when I lose (1 plus the opponent's bonus, averaged over the hands
that beat mine), all measured against opponents playing max-ev, card removal included.  ``VW``
is what I collect when I win (the ``[scoring.duns]`` worth of my category there).  Duns are
treated as independent, so the expected pairwise points (:func:`expected_points`) are

    Σ_d (W_d·VW_d − L_d·LE_d)                              duns and bonuses
    + majority·(P(match won) − P(match lost))              [scoring.majority]
    + scoop: add·(S⁺ − S⁻), or doubling: S⁺·won − S⁻·paid  [scoring.scoop] (打枪)

with ``S⁺ = Π W_d`` the chance I scoop the opponent and ``S⁻ = Π L_d`` the chance I am
scooped (when ties count, ``S⁺ = Π(1 − L) − Π T``), ``won`` / ``paid`` the pair's points in a
scoop before the scoop rule.  The expected score is that times the number of opponents, plus
the home run (全垒打): I scoop everyone with chance ``(S⁺)^(n−1)``; an opponent who scoops me
scoops the rest at the table's average scoop rate.  With win and lose chances 0 or 1 the pair
formula is exactly :func:`simkit.score.pair_points` (tested for every shipped variant).  The
t-formula, the horse card and the banker topology rank or multiply net waters and are left
out; specials of opponents add a constant that cannot change the best split.
"""

from __future__ import annotations

from dataclasses import dataclass

import numba as nb
import numpy as np

from simkit.arrange.classes import DIGIT, N_CLASSES, N_DUNS
from simkit.arrange.wintables import WinTables
from simkit.variants import Variant
from simkit.variants.compiled import ScoopMode, compile_rules
from simkit.variants.scoring_rules import MIN_PLAYERS

# Quantities of the win tables, along the last axis of a ``(3, N_CLASSES, 4)`` array.
Q_WIN, Q_LOSE, Q_VW, Q_LE = range(4)
# The payout parameters, a float64 vector (see the module docstring and payout_model).
(
    P_N_OPP,  # opponents at the table
    P_SCOOP_ADD,  # points a scoop adds (mode "add")
    P_SCOOP_DOUBLE,  # 0: no doubling; 1: a scoop doubles everything; 2: the dun count only
    P_SCOOP_TIES,  # 1: a tied dun does not prevent a scoop
    P_MAJORITY,  # points of the majority match (0: none)
    P_MAJORITY_TWO,  # 1: the match needs two wins; 0: more wins than losses
    P_HOME,  # 1: home runs are paid at this table
    P_HOME_ADD,  # extra each scooped opponent pays the home-run player
    P_HOME_FACTOR,  # the home-run player's points are multiplied by this
    P_SCOOP_RATE,  # chance a player scoops a given opponent (from training)
    P_HOME_BASE,  # > 0: the home run multiplies only the dun count, this many points a pair
    N_PARAMS,
) = range(12)


@dataclass(frozen=True)
class PayoutModel:
    """The pairwise payouts the expected-score model needs, read from a variant's scoring.

    ``win_points[d, c]``: points collected for winning dun ``d`` with a hand of class ``c``
    (1 plus its bonus; 0 when a majority point replaces the duns).  ``params``: the float64
    payout vector (``P_*`` indices).  ``strict``: bit 0 front < middle, bit 1 middle < back.
    """

    win_points: np.ndarray
    params: np.ndarray
    strict: int = 0


def payout_model(variant: Variant, n_players: int) -> PayoutModel:
    """The :class:`PayoutModel` of ``variant`` for ``n_players`` players.

    Read from ``[scoring]``: the dun worths, the majority point, the scoop (打枪) and home run
    (全垒打).  The t-formula (which pays places ranked by net waters), the horse card (a
    positive multiplier) and the banker topology do not enter: the model maximizes the net
    waters against every other player, the quantity those rules rank or multiply.
    """
    rules = compile_rules(variant, n_players)
    category_of_class = np.arange(N_CLASSES) // (DIGIT * DIGIT)
    win_points = rules.dun_worth[:, category_of_class]  # (3, N_CLASSES), a fresh array
    params = np.zeros(N_PARAMS, dtype=np.float64)
    params[P_N_OPP] = rules.n_players - 1
    if rules.majority:
        params[P_MAJORITY] = rules.majority_points
        params[P_MAJORITY_TWO] = rules.majority_two_wins
        if rules.majority_replaces_duns:
            win_points = np.zeros_like(win_points)
    if rules.scoop_mode != ScoopMode.NONE:
        params[P_SCOOP_TIES] = rules.scoop_with_ties
        if rules.scoop_mode == ScoopMode.ADD:
            params[P_SCOOP_ADD] = rules.scoop_points
        else:
            params[P_SCOOP_DOUBLE] = 1.0 if rules.scoop_doubles_all else 2.0
    if rules.home_run:
        params[P_HOME] = 1.0
        params[P_HOME_ADD] = rules.home_run_extra
        params[P_HOME_FACTOR] = rules.home_run_factor
        if not rules.home_run_doubles_all and not rules.majority_replaces_duns:
            # the scorer's base-only home run: the three duns won, twice when a doubling
            # scoop doubled the count (score._home_run_base)
            params[P_HOME_BASE] = 6.0 if rules.scoop_mode == ScoopMode.DOUBLE else 3.0
    return PayoutModel(
        win_points=np.ascontiguousarray(win_points), params=params, strict=foul_strict(variant)
    )


def foul_strict(variant: Variant) -> int:
    """The variant's foul order as kernel bits (:attr:`CompiledRules.foul_order
    <simkit.variants.compiled.CompiledRules.foul_order>`: bit 0 front < middle, bit 1
    middle < back, bit 2 front < the middle's top three; clear bits: ≤)."""
    return compile_rules(variant, MIN_PLAYERS).foul_order  # the same at any table size


def ev_quantities(tables: WinTables, model: PayoutModel) -> np.ndarray:
    """``float64 (3, N_CLASSES, 4)``: per dun and class (win, lose, win points, lose pay)."""
    q = np.empty((N_DUNS, N_CLASSES, 4), dtype=np.float64)
    win = np.clip(tables.win, 0.0, 1.0)
    tie = np.clip(tables.tie, 0.0, 1.0 - win)
    q[..., Q_WIN] = win
    q[..., Q_LOSE] = np.clip(1.0 - win - tie, 0.0, 1.0)
    q[..., Q_VW] = model.win_points
    q[..., Q_LE] = np.maximum(tables.lose_pay, 0.0)
    return q


def favourable_quantities(q: np.ndarray) -> np.ndarray:
    """The most favourable quantities over the classes at or below each class.

    Largest win chance and win points, smallest lose chance (at most 1 − that win chance) and
    lose pay: :func:`expected_points` of these bounds every split whose duns are no stronger.
    """
    fav = np.empty_like(q)
    fav[..., Q_WIN] = np.maximum.accumulate(q[..., Q_WIN], axis=1)
    fav[..., Q_LOSE] = np.minimum(
        np.minimum.accumulate(q[..., Q_LOSE], axis=1), 1.0 - fav[..., Q_WIN]
    )
    fav[..., Q_VW] = np.maximum.accumulate(q[..., Q_VW], axis=1)
    fav[..., Q_LE] = np.minimum.accumulate(q[..., Q_LE], axis=1)
    return fav


@nb.njit(cache=True, inline="always")
def expected_points(w0, w1, w2, l0, l1, l2, v0, v1, v2, e0, e1, e2, p):
    """Expected score of a split from its per-dun win/lose chances (the module's model).

    ``w*``, ``l*``: chance of winning / losing each dun against one opponent; ``v*``: points
    collected when winning it; ``e*``: points paid when losing it; ``p``: payout parameters.
    The value rises with every ``w`` and ``v`` and falls with every ``l`` and ``e``.
    """
    t0, t1, t2 = 1.0 - w0 - l0, 1.0 - w1 - l1, 1.0 - w2 - l2
    base = w0 * v0 + w1 * v1 + w2 * v2 - l0 * e0 - l1 * e1 - l2 * e2
    if p[P_SCOOP_TIES] > 0.0:  # ties count toward a scoop: no dun lost and at least one won
        s_for = (1.0 - l0) * (1.0 - l1) * (1.0 - l2) - t0 * t1 * t2
        s_against = (1.0 - w0) * (1.0 - w1) * (1.0 - w2) - t0 * t1 * t2
    else:
        s_for = w0 * w1 * w2
        s_against = l0 * l1 * l2
    pair = base
    won = v0 + v1 + v2  # a scoop's points before the scoop rule
    paid = e0 + e1 + e2
    if p[P_MAJORITY] != 0.0:
        if p[P_MAJORITY_TWO] > 0.0:  # the match needs two duns won
            maj_win = w0 * w1 + w0 * w2 + w1 * w2 - 2.0 * w0 * w1 * w2
            maj_lose = l0 * l1 + l0 * l2 + l1 * l2 - 2.0 * l0 * l1 * l2
        else:  # more duns won than lost: the distribution of wins minus losses
            a_m2 = l0 * l1
            a_m1 = l0 * t1 + t0 * l1
            a_0 = t0 * t1 + w0 * l1 + l0 * w1
            a_1 = w0 * t1 + t0 * w1
            a_2 = w0 * w1
            maj_win = a_2 + a_1 * (1.0 - l2) + a_0 * w2
            maj_lose = a_m2 + a_m1 * (1.0 - w2) + a_0 * l2
        pair += p[P_MAJORITY] * (maj_win - maj_lose)
        won += p[P_MAJORITY]
        paid += p[P_MAJORITY]
    if p[P_SCOOP_DOUBLE] == 1.0:  # a scoop doubles the pair's points
        pair += s_for * won - s_against * paid
        won *= 2.0
        paid *= 2.0
    elif p[P_SCOOP_DOUBLE] == 2.0:  # a scoop doubles the dun count (3)
        pair += 3.0 * (s_for - s_against)
        won += 3.0
        paid += 3.0
    if p[P_SCOOP_ADD] != 0.0:
        pair += p[P_SCOOP_ADD] * (s_for - s_against)
        won += p[P_SCOOP_ADD]
        paid += p[P_SCOOP_ADD]
    n_opp = p[P_N_OPP]
    total = n_opp * pair
    if p[P_HOME] > 0.0:
        # I scoop everyone; or an opponent scoops me and (at the table's scoop rate) the rest.
        home_for = s_for
        home_against = s_against
        for _ in range(int(n_opp) - 1):  # integer powers: far cheaper than ``**``
            home_for *= s_for
            home_against *= p[P_SCOOP_RATE]
        total += n_opp * p[P_HOME_ADD] * (home_for - home_against)
        if p[P_HOME_BASE] > 0.0:  # only the dun count is multiplied
            total += (p[P_HOME_FACTOR] - 1.0) * p[P_HOME_BASE] * (n_opp * home_for - home_against)
        else:
            total += (p[P_HOME_FACTOR] - 1.0) * (
                n_opp * home_for * (won + p[P_HOME_ADD]) - home_against * (paid + p[P_HOME_ADD])
            )
    return total


@nb.njit(cache=True, inline="always")
def _ev(qa, p, cf, cm, cb):
    """:func:`expected_points` of dun classes (cf, cm, cb) read from a quantity array.

    With the plain quantities (:func:`ev_quantities`) this is a split's expected score; with
    the favourable ones (:func:`favourable_quantities`) it bounds every split whose duns are
    at most those classes, since the value rises with win chances and points and falls with
    lose chances and pay.
    """
    return expected_points(
        qa[0, cf, 0], qa[1, cm, 0], qa[2, cb, 0],
        qa[0, cf, 1], qa[1, cm, 1], qa[2, cb, 1],
        qa[0, cf, 2], qa[1, cm, 2], qa[2, cb, 2],
        qa[0, cf, 3], qa[1, cm, 3], qa[2, cb, 3],
        p,
    )  # fmt: skip


@nb.njit(cache=True, inline="always")
def _separable(qa, cf, cm, cb):
    """Σ over duns of (win chance × win points − lose chance × lose pay), one opponent."""
    return (
        qa[0, cf, 0] * qa[0, cf, 2] - qa[0, cf, 1] * qa[0, cf, 3]
        + qa[1, cm, 0] * qa[1, cm, 2] - qa[1, cm, 1] * qa[1, cm, 3]
        + qa[2, cb, 0] * qa[2, cb, 2] - qa[2, cb, 1] * qa[2, cb, 3]
    )  # fmt: skip
