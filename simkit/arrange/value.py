"""The expected-score model of ``max-ev``: payouts read from a variant, and the value of a split.

The model (an approximation, documented here once)
--------------------------------------------------
For one opponent and dun ``d`` the tables give, by the class of my dun rank (its category and
top two rank digits, :func:`~simkit.arrange.classes.dun_class`, about 1,960 classes per dun),
the chance ``W`` that I win it, ``T`` that we tie, ``L = 1 - W - T`` that I lose, and ``LE``
the points I pay on that dun when I lose (1 plus the opponent's bonus, averaged over the hands
that beat mine), all measured against opponents playing the strategy (max-ev's tables count
them within each game, card removal included; expected-score's against independent deals,
:data:`simkit.train.FINE_OTHER_DEALS`).  ``VW``
is what I collect when I win (the ``[scoring.duns]`` worth of my category there).  The expected
pairwise points (:func:`expected_points`) are

    Σ_d (W_d·VW_d − L_d·LE_d)                              duns and bonuses
    + majority·(P(match won) − P(match lost))              [scoring.majority]
    + scoop: add·(S⁺ − S⁻), or doubling: S⁺·won − S⁻·paid  [scoring.scoop] (打枪)

with ``S⁺ = Π W_d`` the chance I scoop the opponent and ``S⁻ = Π L_d`` the chance I am
scooped (when ties count, ``S⁺ = Π(1 − L) − Π T``), ``won`` / ``paid`` the pair's points in a
scoop before the scoop rule.  Those products take the opponent's three duns as independent;
with a copula of the opponents' duns (``joint``: expected-score's tables hold the copula of
the population they were trained on, :mod:`simkit.arrange.joint`) the joint chances are read
from it instead (:func:`joint_chances`): an opponent's three duns are set from one hand, and
strength moved into its back is missing from its front, so that (with every shipped variant's
tables) all three of its duns sit below their medians 25-35% less often than the products
say, and scoops at middling chances are rarer.  The expected score is that times the number
of opponents, plus the home run (全垒打): I scoop everyone with chance ``(S⁺)^(n−1)``; an
opponent who scoops me scoops the rest at the table's average scoop rate, or (``home_rate``
> 0) scoops all of them with that chance: an opponent that beats all three of a split's duns
holds a strong hand, and scoops the others far more often than the average hand does
(:attr:`~simkit.arrange.strategies.ExpectedScore.home_rate` sets it).  With win and lose
chances 0 or 1 the pair formula is exactly :func:`simkit.score.pair_points` (tested for every
shipped variant).  The t-formula, the horse card and the banker topology rank or multiply net
waters and are left out; specials of opponents add a constant that cannot change the best split.

Under the t-formula a place model (:class:`PlaceModel`, ``place``; read by
``ExpectedScore(places=True)`` where the tables carry one) prices the duns' part instead by the
places: ``τ(m)·h(B)``, ``B`` the duns' expected points over the table, ``h`` their expected
place payment and ``τ(m)`` the expected t when the split's biggest worth is ``m``
(:func:`placed_points`); the scoop and home-run terms stay as above.

The scoop terms (of every pair) and the home-run terms are multiplied by two weights,
``w_scoop`` and ``w_home`` (1 and 1: the formula above, to the last bit).  Where the
scorer pays the round otherwise than the duns' points say (guangxi's t-formula replaces them by
places and multiplies a home run's places), expected-score reads weights fitted to rollouts of
the full rules from its tables (:mod:`simkit.objective`); nonnegative weights keep the value
monotone in every win chance and payout, which the search's bounds need.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, cast

import numba as nb
import numpy as np

from simkit.arrange.classes import (
    FINE_PER_CATEGORY,
    N_CLASSES,
    N_DUNS,
    coarse_of_fine,
    fine_code_list,
    fine_of_ranked,
    n_fine_classes,
    ranked_code_list,
)
from simkit.arrange.joint import cdf3, cdf3_and_pairs
from simkit.arrange.wintables import WinTables
from simkit.variants import Variant
from simkit.variants.compiled import ScoopMode, Transform, compile_rules
from simkit.variants.scoring_rules import MIN_PLAYERS

# Quantities of the win tables, along the last axis of a ``(3, N_FINE, 4)`` array.
Q_WIN, Q_LOSE, Q_VW, Q_LE = range(4)
#: Levels of T the place model holds (their chances follow the levels in ``params``).
N_T_LEVELS = 8
#: The payout parameters, one record (a 0-d structured array of this dtype, see the module
#: docstring and :func:`payout_model`); the kernels read its fields by name (``p.n_opp``).
PAYOUT_PARAMS = np.dtype(
    [
        ("n_opp", np.float64),  # opponents at the table
        ("scoop_add", np.float64),  # points a scoop adds (mode "add")
        ("scoop_double", np.float64),  # 0: no doubling; 1: a scoop doubles all; 2: the dun count
        ("scoop_ties", np.float64),  # 1: a tied dun does not prevent a scoop
        ("majority", np.float64),  # points of the majority match (0: none)
        ("majority_two", np.float64),  # 1: the match needs two wins; 0: more wins than losses
        ("home", np.float64),  # 1: home runs are paid at this table
        ("home_add", np.float64),  # extra each scooped opponent pays the home-run player
        ("home_factor", np.float64),  # the home-run player's points are multiplied by this
        ("scoop_rate", np.float64),  # chance a player scoops a given opponent (from training)
        ("home_base", np.float64),  # > 0: the home run multiplies the dun count only, this many
        ("horse", np.float64),  # the 马牌 multiplier of a winning dun that holds it (1: none)
        ("w_scoop", np.float64),  # weight of the scoop terms in a pair's value (1: as priced)
        ("w_home", np.float64),  # weight of the home-run terms (1: as priced)
        ("joint", np.float64),  # 1: the joint chances of the opponents' copula; 0: products
        ("tie_triple", np.float64),  # bounds only: the largest t₀·t₁·t₂ of any split
        ("tie_pairs", np.float64),  # bounds only: the largest Σ tᵢ·tⱼ over pairs of duns
        ("place", np.float64),  # > 0: the t-formula's places price the duns (h's amplitude)
        ("place_centre", np.float64),  # h's centre: the expected points where the place is even
        ("place_scale", np.float64),  # h's scale in points
        ("t_level", np.float64, (N_T_LEVELS,)),  # levels of T, the others' biggest dun worth
        ("t_chance", np.float64, (N_T_LEVELS,)),  # their chances
        # > 0: the chance an opponent who scoops me scoops every other player too (0: the
        # table's scoop rate for each of them)
        ("home_rate", np.float64),
    ],
    # aligned: numba reads an aligned record's fields with aligned loads (an unaligned one's
    # with byte-aligned loads, which the search kernels ran about 5% slower with)
    align=True,
)


def new_params() -> np.ndarray:
    """A zeroed payout record: a 0-d array of :data:`PAYOUT_PARAMS` (``params["n_opp"] = 3``
    sets a field; ``params[()]`` is the record the kernels take)."""
    return np.zeros((), dtype=PAYOUT_PARAMS)


@dataclass(frozen=True)
class PayoutModel:
    """The pairwise payouts the expected-score model needs, read from a variant's scoring.

    ``win_points[d, c]``: points collected for winning dun ``d`` with a hand of fine class
    ``c`` (1 plus its bonus; 0 when a majority point replaces the duns).  ``params``: the
    payout record, a 0-d array of :data:`PAYOUT_PARAMS`.  ``strict``: bit 0 front < middle,
    bit 1 middle < back.  ``horse_card``: the card whose winning dun counts ``params["horse"]``
    times (-1: none in this model).
    """

    win_points: np.ndarray
    params: np.ndarray
    strict: int = 0
    horse_card: int = -1

    @property
    def record(self) -> np.void:
        """``params`` as the record the kernels take (a view: a change of ``params`` shows)."""
        return cast(np.void, self.params[()])


@dataclass(frozen=True)
class PlaceModel:
    """The t-formula's places as expected-score prices them (:func:`placed_points`).

    Under the t-formula a hand is paid ``t·Σ_j sign(N_me − N_j)`` (its place among the hands
    compared normally, ranked by net waters ``N``), ``t`` the worth of the round's biggest dun.
    The model prices the place by ``h(b) = amplitude·tanh((b − centre)/scale)``, ``b`` the
    split's expected dun points over the table, and t by ``τ(m) = E[max(m, T)]``, ``m`` the
    split's biggest worth and ``T`` the other hands' (``levels`` with ``chances``): both
    fitted on tables set by the default (:func:`simkit.objective.fit_place_model`).
    """

    amplitude: float
    centre: float
    scale: float
    levels: tuple[float, ...]
    chances: tuple[float, ...]

    def __post_init__(self) -> None:
        numbers = (self.amplitude, self.centre, self.scale, *self.levels, *self.chances)
        if not all(math.isfinite(x) for x in numbers):
            raise ValueError(f"a place model's numbers must be finite, got {self!r}")
        if self.amplitude <= 0 or self.scale <= 0:
            raise ValueError(
                f"a place model's amplitude and scale must be > 0, got {self.amplitude}, "
                f"{self.scale}"
            )
        if not 1 <= len(self.levels) == len(self.chances) <= N_T_LEVELS:
            raise ValueError(
                f"a place model needs 1 to {N_T_LEVELS} levels of T with one chance each, got "
                f"{len(self.levels)} levels and {len(self.chances)} chances"
            )
        if min(self.chances) < 0 or abs(sum(self.chances) - 1.0) > 1e-6:
            raise ValueError(f"the chances of T must be ≥ 0 and sum to 1, got {self.chances}")

    def write(self, params: np.ndarray) -> None:
        """Set the model in a payout record (its fields ``place`` to ``t_chance``)."""
        params["place"] = self.amplitude
        params["place_centre"] = self.centre
        params["place_scale"] = self.scale
        params["t_level"] = 0.0
        params["t_chance"] = 0.0
        k = len(self.levels)
        params["t_level"][:k] = self.levels
        params["t_chance"][:k] = self.chances

    def as_meta(self) -> dict[str, Any]:
        """The model as a tables file's meta entry (JSON numbers and lists)."""
        return {
            "amplitude": self.amplitude, "centre": self.centre, "scale": self.scale,
            "levels": list(self.levels), "chances": list(self.chances),
        }  # fmt: skip

    @classmethod
    def from_meta(cls, entry: dict[str, Any]) -> PlaceModel:
        """The model of a meta entry :meth:`as_meta` wrote; raises KeyError where a field is
        missing."""
        return cls(
            float(entry["amplitude"]), float(entry["centre"]), float(entry["scale"]),
            tuple(float(x) for x in entry["levels"]), tuple(float(x) for x in entry["chances"]),
        )  # fmt: skip


def plays_t_formula(variant: Variant, n_players: int) -> bool:
    """Whether ``variant`` pays the t-formula's places at ``n_players`` (when every hand is
    compared normally)."""
    rules = compile_rules(variant, n_players)
    return bool(
        (rules.transforms == Transform.T_FORMULA).any() and n_players >= rules.t_formula_min_players
    )


def check_home_rate(home_rate: float) -> None:
    """``home_rate``'s value, checked: a chance in [0, 1]."""
    if not 0.0 <= home_rate <= 1.0:  # NaN too
        raise ValueError(f"home_rate must be a chance in [0, 1], got {home_rate!r}")


def payout_model(variant: Variant, n_players: int, *, horse: bool = False) -> PayoutModel:
    """The :class:`PayoutModel` of ``variant`` for ``n_players`` players.

    ``horse``: price the 马牌 of a winning dun (:func:`horse_model`; ``expected-score``).

    Read from ``[scoring]``: the dun worths, the majority point, the scoop (打枪) and home run
    (全垒打).  The t-formula (which pays places ranked by net waters), the horse card (a
    positive multiplier) and the banker topology do not enter: the model maximizes the net
    waters against every other player, the quantity those rules rank or multiply.
    """
    rules = compile_rules(variant, n_players)
    category_of_class = fine_code_list() // FINE_PER_CATEGORY
    win_points = rules.dun_worth[:, category_of_class]  # (3, N_FINE), a fresh array
    params = new_params()
    params["n_opp"] = rules.n_players - 1
    params["horse"] = 1.0
    params["w_scoop"] = params["w_home"] = 1.0
    if rules.majority:
        params["majority"] = rules.majority_points
        params["majority_two"] = rules.majority_two_wins
        if rules.majority_replaces_duns:
            win_points = np.zeros_like(win_points)
    if rules.scoop_mode != ScoopMode.NONE:
        params["scoop_ties"] = rules.scoop_with_ties
        if rules.scoop_mode == ScoopMode.ADD:
            params["scoop_add"] = rules.scoop_points
        else:
            params["scoop_double"] = 1.0 if rules.scoop_doubles_all else 2.0
    if rules.home_run:
        params["home"] = 1.0
        params["home_add"] = rules.home_run_extra
        params["home_factor"] = rules.home_run_factor
        if not rules.home_run_doubles_all and not rules.majority_replaces_duns:
            # the scorer's base-only home run: the three duns won, twice when a doubling
            # scoop doubled the count (score._home_run_base)
            params["home_base"] = 6.0 if rules.scoop_mode == ScoopMode.DOUBLE else 3.0
    horse_card = -1
    if horse:
        horse_card, params["horse"] = horse_model(variant, n_players)
    return PayoutModel(
        win_points=np.ascontiguousarray(win_points),
        params=params,
        strict=foul_strict(variant),
        horse_card=horse_card,
    )


def horse_model(variant: Variant, n_players: int) -> tuple[int, float]:
    """The 马牌 as the expected-score model reads it: ``(card, multiplier)``, ``(-1, 1.0)``
    when the variant plays none or the marked card rewards the holder's whole result.

    With ``[scoring.horse] counts = "winning-dun"`` a dun that holds the card and wins counts
    ``multiplier`` times against the opponent it beats (the horse transform comes after the
    scoop and home run, which do not multiply it).  The whole-result reading multiplies every
    pair of the holder, which cannot change which split is best.
    """
    rules = compile_rules(variant, n_players)
    if rules.horse_card < 0 or not rules.horse_by_dun or rules.majority_replaces_duns:
        return -1, 1.0
    return int(rules.horse_card), float(rules.horse_multiplier)


def foul_strict(variant: Variant) -> int:
    """The variant's foul order as kernel bits (:attr:`CompiledRules.foul_order
    <simkit.variants.compiled.CompiledRules.foul_order>`: bit 0 front < middle, bit 1
    middle < back, bit 2 front < the middle's top three; clear bits: ≤)."""
    return compile_rules(variant, MIN_PLAYERS).foul_order  # the same at any table size


def ev_quantities(tables: WinTables, model: PayoutModel) -> np.ndarray:
    """``float64 (3, N_FINE, 4)``: per dun and fine class (win, lose, win points, lose pay).

    Coarse tables (``N_CLASSES`` columns) are read through
    :func:`~simkit.arrange.classes.coarse_of_fine`: every fine class of a coarse class gets
    its figures, so they play as they did on coarse classes."""
    n_fine = n_fine_classes()
    win, tie, lose_pay = tables.win, tables.tie, tables.lose_pay
    if win.shape[1] == ranked_code_list().shape[0] != n_fine:  # the first fine tables
        col = fine_of_ranked()
        win, tie, lose_pay = win[:, col], tie[:, col], lose_pay[:, col]
    elif win.shape[1] == N_CLASSES:
        win, tie, lose_pay = (
            win[:, coarse_of_fine()],
            tie[:, coarse_of_fine()],
            lose_pay[:, coarse_of_fine()],
        )
    elif win.shape[1] != n_fine:
        raise ValueError(
            f"win tables have {win.shape[1]} classes; expected {N_CLASSES} or {n_fine}"
        )
    q = np.empty((N_DUNS, n_fine, 4), dtype=np.float64)
    win = np.clip(win, 0.0, 1.0)
    tie = np.clip(tie, 0.0, 1.0 - win)
    q[..., Q_WIN] = win
    q[..., Q_LOSE] = np.clip(1.0 - win - tie, 0.0, 1.0)
    q[..., Q_VW] = model.win_points
    q[..., Q_LE] = np.maximum(lose_pay, 0.0)
    return q


def tie_extremes(q: np.ndarray) -> tuple[float, float]:
    """The largest ``t₀·t₁·t₂`` and ``Σ tᵢ·tⱼ`` (pairs of duns) of any split, ``t`` the tie
    chances ``1 - W - L`` of the quantities ``q`` as the kernels compute them (in float64 from
    ``q``'s own values): what :func:`joint_chances` bounds its tie terms by."""
    q = np.asarray(q).astype(np.float64)
    top = np.clip((1.0 - q[..., Q_WIN] - q[..., Q_LOSE]).max(axis=1), 0.0, 1.0) + 1e-12
    return float(top.prod()), float(top[0] * top[1] + top[0] * top[2] + top[1] * top[2])


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
def expected_points(w0, w1, w2, l0, l1, l2, v0, v1, v2, e0, e1, e2, p, cop, bound=False):
    """Expected score of a split from its per-dun win/lose chances (the module's model).

    ``w*``, ``l*``: chance of winning / losing each dun against one opponent; ``v*``: points
    collected when winning it; ``e*``: points paid when losing it; ``p``: payout parameters;
    ``cop``: the cumulative copula grids of the opponents' duns (:func:`joint_chances`; read
    when ``p.joint``).  The value rises with every ``w`` and ``v`` and falls with every
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
    if p.place > 0.0:  # the t-formula's places price the duns: the rest priced as before
        placed = placed_points(p.n_opp * base, max(v0, max(v1, v2)), p, bound)
        base = 0.0
    else:
        placed = 0.0
    if p.joint > 0.0:
        s_for, s_against, maj_win, maj_lose = joint_chances(w0, w1, w2, l0, l1, l2, p, cop, bound)
    else:
        s_for, s_against, maj_win, maj_lose = _independent_chances(w0, w1, w2, l0, l1, l2, p)
    home_for = s_for  # I scoop every opponent
    if p.home > 0.0:
        for _ in range(int(p.n_opp) - 1):  # integer powers: far cheaper than ``**``
            home_for *= s_for
    total = points_of_chances(
        base, v0 + v1 + v2, e0 + e1 + e2, s_for, s_against, maj_win, maj_lose, home_for, p
    )
    if p.place > 0.0:
        total += placed
    return total


@nb.njit(cache=True, inline="always")
def t_expected(m, p):
    """``τ(m) = E[max(m, T)]``: the round's t when my biggest dun is worth ``m`` and the other
    hands' biggest is ``T`` (its levels and chances in ``p``)."""
    out = 0.0
    for k in range(N_T_LEVELS):
        level = p.t_level[k]
        out += p.t_chance[k] * (m if m > level else level)
    return out


@nb.njit(cache=True, inline="always")
def placed_points(b, m, p, bound=False):
    """The duns' part of the value: ``b``, their expected points over the table, as they are
    paid, or under the t-formula's places (``p.place > 0``) ``τ(m)·h(b)``.

    ``h(b) = A·tanh((b − c)/s)`` is the expected place payment (±3, ±1 at 4 players, before t)
    of a hand whose duns expect ``b`` points, and ``τ(m)`` (:func:`t_expected`) the expected
    t when its biggest dun is worth ``m``: a hand expected to place well gains by raising t, one
    expected to place badly loses.  The value rises with ``b``; it rises with ``m`` only where
    ``h(b) ≥ 0``, so ``bound`` (``b`` and ``m`` upper bounds over some splits) takes the
    smallest t, ``τ(0)``, where ``h(b) < 0``: every split at most those has
    ``τ(m)·h(b') ≤ τ(m)·h(b) ≤ τ(0)·h(b)``.
    """
    if p.place <= 0.0:
        return b
    h = p.place * np.tanh((b - p.place_centre) / p.place_scale)
    if bound and h < 0.0:
        return t_expected(0.0, p) * h
    return t_expected(m, p) * h


@nb.njit(cache=True, inline="always")
def _independent_chances(w0, w1, w2, l0, l1, l2, p):
    """(scoop, scooped, majority won, majority lost) of independent duns."""
    t0, t1, t2 = 1.0 - w0 - l0, 1.0 - w1 - l1, 1.0 - w2 - l2
    if p.scoop_ties > 0.0:  # ties count toward a scoop: no dun lost and at least one won
        s_for = (1.0 - l0) * (1.0 - l1) * (1.0 - l2) - t0 * t1 * t2
        s_against = (1.0 - w0) * (1.0 - w1) * (1.0 - w2) - t0 * t1 * t2
    else:
        s_for = w0 * w1 * w2
        s_against = l0 * l1 * l2
    maj_win = maj_lose = 0.0
    if p.majority != 0.0:
        if p.majority_two > 0.0:  # the match needs two duns won
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
    return s_for, s_against, maj_win, maj_lose


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
    (``tie_triple``, ``tie_pairs``).
    """
    below, above = cop[0], cop[1]
    t0, t1, t2 = 1.0 - w0 - l0, 1.0 - w1 - l1, 1.0 - w2 - l2
    s_for = s_against = 0.0
    won3 = lost3 = -1.0
    won2 = lost2 = 0.0
    if p.majority != 0.0:  # the triples and the pairs, from one lookup of the cells
        won3, won2 = cdf3_and_pairs(below, w0, w1, w2)
        lost3, lost2 = cdf3_and_pairs(above, l0, l1, l2)
    if p.scoop_double != 0.0 or p.scoop_add != 0.0 or p.home > 0.0:
        if p.scoop_ties > 0.0:  # no dun lost, less all three tied
            s_for = cdf3(below, 1.0 - l0, 1.0 - l1, 1.0 - l2)
            s_against = cdf3(above, 1.0 - w0, 1.0 - w1, 1.0 - w2)
            if bound:
                s_against -= p.tie_triple
            else:
                s_for -= t0 * t1 * t2
                s_against -= t0 * t1 * t2
            s_for = max(s_for, 0.0)
            s_against = max(s_against, 0.0)
        else:
            if won3 < 0.0:
                won3 = cdf3(below, w0, w1, w2)
                lost3 = cdf3(above, l0, l1, l2)
            s_for = won3
            s_against = lost3
    maj_win = maj_lose = 0.0
    if p.majority != 0.0:
        maj_win = won2 - 2.0 * won3
        maj_lose = lost2 - 2.0 * lost3
        if p.majority_two == 0.0:  # more wins than losses: one win and two ties too
            if bound:
                maj_win += p.tie_pairs
            else:
                maj_win += w0 * t1 * t2 + w1 * t0 * t2 + w2 * t0 * t1
                maj_lose += l0 * t1 * t2 + l1 * t0 * t2 + l2 * t0 * t1
    return s_for, s_against, maj_win, maj_lose


@nb.njit(cache=True, inline="always")
def points_of_chances(base, won, paid, s_for, s_against, maj_win, maj_lose, home_for, p):
    """The model's expected score from one opponent's chances, however they were found.

    ``base``: the duns' expected points against one opponent (Σ W·VW − L·LE); ``won``,
    ``paid``: the duns' points of a scoop won and lost, before the scoop rule; ``s_for``,
    ``s_against``: the chances of scooping and being scooped; ``maj_win``, ``maj_lose``: of
    the majority match (read only when the variant pays one); ``home_for``: of scooping every
    opponent (read only with home runs).  :func:`expected_points` passes those of independent
    duns; a caller may pass counted ones.
    """
    pair = base
    if p.majority != 0.0:
        pair += p.majority * (maj_win - maj_lose)
        won += p.majority
        paid += p.majority
    if p.scoop_double == 1.0:  # a scoop doubles the pair's points
        pair += p.w_scoop * (s_for * won - s_against * paid)
        won *= 2.0
        paid *= 2.0
    elif p.scoop_double == 2.0:  # a scoop doubles the dun count (3)
        pair += p.w_scoop * (3.0 * (s_for - s_against))
        won += 3.0
        paid += 3.0
    if p.scoop_add != 0.0:
        pair += p.w_scoop * (p.scoop_add * (s_for - s_against))
        won += p.scoop_add
        paid += p.scoop_add
    n_opp = p.n_opp
    total = n_opp * pair
    if p.home > 0.0:
        # I scoop everyone; or an opponent scoops me and (at the table's scoop rate, or with
        # the chance home_rate that one who scoops me scoops them all) the rest.
        if p.home_rate > 0.0 and n_opp > 1.0:  # one opponent: its scoop is the home run
            home_against = s_against * p.home_rate
        else:
            home_against = s_against
            for _ in range(int(n_opp) - 1):
                home_against *= p.scoop_rate
        w_home = p.w_home
        total += w_home * (n_opp * p.home_add * (home_for - home_against))
        if p.home_base > 0.0:  # only the dun count is multiplied
            total += w_home * (
                (p.home_factor - 1.0) * p.home_base * (n_opp * home_for - home_against)
            )
        else:
            total += w_home * (
                (p.home_factor - 1.0)
                * (n_opp * home_for * (won + p.home_add) - home_against * (paid + p.home_add))
            )
    return total


@nb.njit(cache=True, inline="always")
def placed_skip_below(y, m, p, bound):
    """Under the place model, a ``b`` below which :func:`placed_points` at ``m`` (with
    ``bound``) is below ``y``: the search drops a split whose expected dun points are below
    it without the split's ``tanh`` (``1e-7`` to spare for the rounding of the inverse).
    ``inf`` where no ``b`` reaches ``y``."""
    tau = t_expected(0.0, p) if bound and y < 0.0 else t_expected(m, p)
    needed = y / tau / p.place
    if needed >= 1.0:
        return np.inf
    if needed <= -1.0:
        return -np.inf
    return p.place_centre + p.place_scale * np.arctanh(needed) - 1e-7


@nb.njit(cache=True, inline="always")
def split_ev(qa, p, cop, cf, cm, cb, bound=False):
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


@nb.njit(cache=True, inline="always")
def horse_points(qa, cf, cm, cb, x0, x1, x2):
    """What the 马牌 adds against one opponent: ``x*`` the extra count of a won dun that holds
    it (multiplier**copies - 1; 0 elsewhere) times its win chance and worth."""
    return (
        np.float64(x0) * qa[0, cf, 0] * qa[0, cf, 2]
        + np.float64(x1) * qa[1, cm, 0] * qa[1, cm, 2]
        + np.float64(x2) * qa[2, cb, 0] * qa[2, cb, 2]
    )


@nb.njit(cache=True, inline="always")
def horse_bound(fav, cf, cm, cb, x_top, copies):
    """Bounds :func:`horse_points` over the splits whose duns are at most these classes when
    the hand holds ``copies`` marked cards, the largest extra count being ``x_top``."""
    a = np.float64(fav[0, cf, 0]) * fav[0, cf, 2]
    b = np.float64(fav[1, cm, 0]) * fav[1, cm, 2]
    c = np.float64(fav[2, cb, 0]) * fav[2, cb, 2]
    if copies <= 1:
        return x_top * max(a, max(b, c))
    return x_top * (a + b + c)


@nb.njit(cache=True, inline="always")
def horse_bound_back(fav, cf, cm, cb, x_top, copies, x_back):
    """:func:`horse_bound` over the splits of one back of class ``cb`` whose extra count is
    ``x_back``: with one marked card, the back's own term where it holds the card, else the
    front's or the middle's (the card is in one dun only)."""
    if copies != 1:
        return horse_bound(fav, cf, cm, cb, x_top, copies)
    if x_back > 0.0:
        return x_back * (np.float64(fav[2, cb, 0]) * fav[2, cb, 2])
    a = np.float64(fav[0, cf, 0]) * fav[0, cf, 2]
    b = np.float64(fav[1, cm, 0]) * fav[1, cm, 2]
    return x_top * max(a, b)


@nb.njit(cache=True, inline="always")
def separable_ev(qa, cf, cm, cb):
    """Σ over duns of (win chance × win points − lose chance × lose pay), one opponent."""
    return (
        np.float64(qa[0, cf, 0]) * qa[0, cf, 2] - np.float64(qa[0, cf, 1]) * qa[0, cf, 3]
        + np.float64(qa[1, cm, 0]) * qa[1, cm, 2] - np.float64(qa[1, cm, 1]) * qa[1, cm, 3]
        + np.float64(qa[2, cb, 0]) * qa[2, cb, 2] - np.float64(qa[2, cb, 1]) * qa[2, cb, 3]
    )  # fmt: skip
