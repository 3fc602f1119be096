# Baseline of bench_score_ab.py: a verbatim copy of simkit/score.py at commit 474c9f5, before
# its rules were compiled into simkit.variants.compiled and its kernel split into helpers.
"""Scoring: arranged hands → points per player, by the variant's ``[scoring]`` rules.

The scorer is a rule-agnostic core plus transforms (:mod:`simkit.variants.scoring_rules`):

1. **Core, pair by pair.**  Every pair that compares (all pairs, or each player with the banker)
   settles one of three ways: a declared special hand against anyone (its payout; special
   against special by the variant's ``versus`` rule); a fouled hand against a hand that did not
   foul (the foul penalty); or two normal hands, dun by dun (1 a dun, the ``[scoring.duns]``
   bonuses, the majority point).  Each of these is an antisymmetric matrix ``(p, p)`` per game,
   so the core is zero-sum by construction.
2. **Transforms**, in the order the variant lists them: ``scoop`` (打枪) adds to the scooped
   pair; ``home-run`` (全垒打) multiplies the runner's pairs or the runner's total (the others
   paying equal shares) and adds its extra; ``t-formula`` replaces the dun points of the hands
   compared normally by place payments (±3t, ±t); ``horse`` multiplies the pairs of the holder
   of the marked card.  Each moves points between players and never creates them.

:func:`pair_points` is the pairwise part of the core for two normal hands (dun points,
bonuses, majority and the pair's scoop), the quantity an arrangement strategy maximizes;
:func:`score` adds fouls, specials and the table-wide transforms.

All of it runs in one numba kernel over games (no Python loop per game).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Literal, overload

import numba as nb
import numpy as np
import numpy.typing as npt

from simkit.cards import DECK_SIZE, HAND_SIZE
from simkit.evaluate import dun_ranks, rank3_one, rank5_one, ranking_tables
from simkit.variants import Variant, resolve_variant

__all__ = [
    "COMPONENTS",
    "fouled",
    "fouled_ranks",
    "pair_points",
    "pair_points_one",
    "pair_points_params",
    "score",
]

#: Names of the score components returned with ``breakdown=True``, in kernel order.
COMPONENTS: tuple[str, ...] = (
    "duns",  # 1 per dun won, -1 per dun lost (hands compared normally)
    "bonuses",  # dun worth above 1 (the [scoring.duns] table)
    "majority",  # the match point for winning more duns (004, 2-4 scoring)
    "fouls",  # foul penalties (倒水)
    "specials",  # special hands (报到)
    "scoops",  # 打枪
    "home_run",  # 全垒打
    "t_formula",  # place payments of the t-based formula
    "horse",  # 马牌 multiplication
)
_C_DUNS, _C_BONUS, _C_MAJ, _C_FOUL, _C_SPEC, _C_SCOOP, _C_HOME, _C_T, _C_HORSE = range(9)
_N_COMP = len(COMPONENTS)

_TRANSFORM_CODES = {"scoop": 0, "home-run": 1, "t-formula": 2, "horse": 3}


@dataclass(frozen=True)
class _Params:
    """The scoring rules of a variant for one table size, as kernel arguments."""

    ints: np.ndarray  # int64 flags, see _kernel
    floats: np.ndarray  # float64 amounts
    dun_values: np.ndarray  # float64 (3, 10): worth of a dun won, by position and category
    transforms: np.ndarray  # int64 transform codes in order
    payouts: np.ndarray  # float64 (n_specials,)
    used: np.ndarray  # int64 indices of the components this variant can make nonzero


# Indices into _Params.ints / _Params.floats.
(
    _I_BANKER_TOPO,
    _I_TOPCARD,
    _I_FM_STRICT,
    _I_MB_STRICT,
    _I_PENALTY,
    _I_MAJ_ON,
    _I_MAJ_TWO,
    _I_MAJ_REPLACES,
    _I_SCOOP_MODE,
    _I_SCOOP_ALL,
    _I_SCOOP_TIES,
    _I_SCOOP_NOSPEC,
    _I_HOME_EVEN,
    _I_HOME_MIN,
    _I_T_MIN,
    _I_VERSUS_BANKER,
    _I_ALLSPEC_PLACES,
    _N_INTS,
) = range(18)
(
    _F_FOUL_AMOUNT,
    _F_MAJ_POINTS,
    _F_SCOOP_POINTS,
    _F_HOME_FACTOR,
    _F_HOME_EXTRA,
    _F_HORSE_MULT,
    _N_FLOATS,
) = range(7)

_PENALTY_CODES = {"lose-all": 0, "fixed": 1, "biggest-hand": 2}
_SCOOP_CODES = {"none": 0, "add": 1, "double": 2}


@lru_cache(maxsize=128)
def _params(variant: Variant, n_players: int) -> _Params:
    s = variant.scoring
    ints = np.zeros(_N_INTS, dtype=np.int64)
    floats = np.zeros(_N_FLOATS, dtype=np.float64)
    ints[_I_BANKER_TOPO] = s.topology == "banker"
    ints[_I_TOPCARD] = s.compare == "top-card"
    ints[_I_FM_STRICT] = s.foul.front_middle == "<"
    ints[_I_MB_STRICT] = s.foul.middle_back == "<"
    ints[_I_PENALTY] = _PENALTY_CODES[s.foul.penalty]
    ints[_I_MAJ_ON] = s.majority.enabled
    ints[_I_MAJ_TWO] = s.majority.rule == "two-wins"
    ints[_I_MAJ_REPLACES] = s.majority.enabled and s.majority.replaces_duns
    ints[_I_SCOOP_MODE] = _SCOOP_CODES[s.scoop.mode]
    ints[_I_SCOOP_ALL] = s.scoop.doubles == "all"
    ints[_I_SCOOP_TIES] = s.scoop.with_ties
    ints[_I_SCOOP_NOSPEC] = s.scoop.requires_no_specials
    ints[_I_HOME_EVEN] = s.home_run.split == "even"
    ints[_I_HOME_MIN] = s.home_run.min_players
    ints[_I_T_MIN] = s.t_formula.min_players
    ints[_I_VERSUS_BANKER] = s.specials.versus == "banker-pays"
    ints[_I_ALLSPEC_PLACES] = s.specials.all_special == "places"
    floats[_F_FOUL_AMOUNT] = s.foul.amount
    floats[_F_MAJ_POINTS] = s.majority.points
    floats[_F_SCOOP_POINTS] = s.scoop.points[n_players - 2]
    floats[_F_HOME_FACTOR] = s.home_run.factor_for(n_players)
    floats[_F_HOME_EXTRA] = s.home_run.extra_for(n_players)
    floats[_F_HORSE_MULT] = s.horse.multiplier
    for arr in (ints, floats):
        arr.setflags(write=False)
    dun_values = np.array(s.duns.values(), dtype=np.float64)
    transforms = np.array([_TRANSFORM_CODES[t] for t in s.transforms], dtype=np.int64)
    payouts = np.array([r.payout for r in variant.specials.rules], dtype=np.float64)
    can_be_nonzero = {
        _C_DUNS: not (s.majority.enabled and s.majority.replaces_duns),
        _C_BONUS: bool((dun_values != 1.0).any()),
        _C_MAJ: s.majority.enabled,
        _C_FOUL: True,
        _C_SPEC: len(payouts) > 0,
        _C_SCOOP: "scoop" in s.transforms,
        _C_HOME: "home-run" in s.transforms,
        _C_T: "t-formula" in s.transforms,
        _C_HORSE: "horse" in s.transforms,
    }
    used = np.array([c for c, on in can_be_nonzero.items() if on], dtype=np.int64)
    return _Params(ints, floats, dun_values, transforms, payouts, used)


# --------------------------------------------------------------------------------------------
# The pairwise primitive
# --------------------------------------------------------------------------------------------


# Layout of pair_points_params: the (3, 10) dun worth table, then the rule scalars.
_PP_WORTH = 30
(
    _PP_MAJ_ON,
    _PP_MAJ_TWO,
    _PP_MAJ_POINTS,
    _PP_MAJ_REPLACES,
    _PP_SCOOP_MODE,
    _PP_SCOOP_POINTS,
    _PP_SCOOP_ALL,
    _PP_SCOOP_TIES,
    _PP_SIZE,
) = range(_PP_WORTH, _PP_WORTH + 9)


def pair_points_params(variant: str | Variant | None, n_players: int) -> np.ndarray:
    """The rules :func:`pair_points_one` needs, packed in a float64 array (for numba code)."""
    v = resolve_variant(variant)
    if isinstance(n_players, bool) or not isinstance(n_players, int | np.integer):
        raise TypeError(f"n_players must be an integer, got {n_players!r}")
    if not 2 <= n_players <= 8:
        raise ValueError(f"n_players must be 2..8, got {n_players}")
    return _pair_points_params(v, int(n_players))


@lru_cache(maxsize=128)
def _pair_points_params(v: Variant, n_players: int) -> np.ndarray:
    s = v.scoring
    out = np.zeros(_PP_SIZE, dtype=np.float64)
    out[:_PP_WORTH] = np.array(s.duns.values(), dtype=np.float64).ravel()
    out[_PP_MAJ_ON] = s.majority.enabled
    out[_PP_MAJ_TWO] = s.majority.rule == "two-wins"
    out[_PP_MAJ_POINTS] = s.majority.points
    out[_PP_MAJ_REPLACES] = s.majority.enabled and s.majority.replaces_duns
    out[_PP_SCOOP_MODE] = _SCOOP_CODES[s.scoop.mode] if "scoop" in s.transforms else 0
    out[_PP_SCOOP_POINTS] = s.scoop.points[n_players - 2]
    out[_PP_SCOOP_ALL] = s.scoop.doubles == "all"
    out[_PP_SCOOP_TIES] = s.scoop.with_ties
    out.setflags(write=False)
    return out


@nb.njit(cache=True, inline="always")
def pair_points_one(a0, a1, a2, b0, b1, b2, params):  # type: ignore[no-untyped-def]
    """Points dun ranks (a0, a1, a2) win from (b0, b1, b2): one pair, numba-callable.

    ``params`` is :func:`pair_points_params`; see :func:`pair_points` for what is counted.
    """
    w = 0
    lo = 0
    base = 0.0
    bonus = 0.0
    for d in range(3):
        a = a0 if d == 0 else (a1 if d == 1 else a2)
        b = b0 if d == 0 else (b1 if d == 1 else b2)
        if a > b:
            w += 1
            base += 1.0
            bonus += params[10 * d + (a >> 20)] - 1.0
        elif a < b:
            lo += 1
            base -= 1.0
            bonus -= params[10 * d + (b >> 20)] - 1.0
    majority = 0.0
    if params[_PP_MAJ_ON] != 0.0:
        if params[_PP_MAJ_TWO] != 0.0:
            m = 1.0 if w >= 2 else (-1.0 if lo >= 2 else 0.0)
        else:
            m = 1.0 if w > lo else (-1.0 if lo > w else 0.0)
        majority = m * params[_PP_MAJ_POINTS]
        if params[_PP_MAJ_REPLACES] != 0.0:
            base = 0.0
            bonus = 0.0
    total = base + bonus + majority
    mode = params[_PP_SCOOP_MODE]
    if mode != 0.0:
        if params[_PP_SCOOP_TIES] != 0.0:
            a_scoops = lo == 0 and w >= 1
            b_scoops = w == 0 and lo >= 1
        else:
            a_scoops = w == 3
            b_scoops = lo == 3
        if a_scoops or b_scoops:
            if mode == 1.0:
                total += params[_PP_SCOOP_POINTS] if a_scoops else -params[_PP_SCOOP_POINTS]
            elif params[_PP_SCOOP_ALL] != 0.0:
                total += base + bonus + majority
            else:
                total += base
    return total


@nb.njit(cache=True)
def _pair_points_rows(a, b, params, out):  # type: ignore[no-untyped-def]
    for k in range(a.shape[0]):
        out[k] = pair_points_one(a[k, 0], a[k, 1], a[k, 2], b[k, 0], b[k, 1], b[k, 2], params)


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
    params = pair_points_params(variant, n_players)
    a = np.asarray(ranks_a)
    b = np.asarray(ranks_b)
    if a.shape[-1:] != (3,) or b.shape[-1:] != (3,):
        raise ValueError(
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
    _pair_points_rows(a2, b2, params, out)
    return out.reshape(shape)


def fouled(arranged: npt.ArrayLike, variant: str | Variant | None = None) -> np.ndarray:
    """Which arranged hands are fouled (倒水) under the variant's ``[scoring.foul]`` order.

    ``arranged``: int8 ``(..., 13)`` hands in order [front 3 | middle 5 | back 5]; returns bool
    ``(...)``: True where front ≤ middle ≤ back (or the strict form the variant names) fails.
    """
    v = resolve_variant(variant)
    hands = np.asarray(arranged)
    if hands.shape[-1:] != (HAND_SIZE,):
        raise ValueError(f"arranged must have a last axis of 13 cards, got shape {hands.shape}")
    return fouled_ranks(dun_ranks(hands, v), v)


def fouled_ranks(ranks: np.ndarray, variant: Variant) -> np.ndarray:
    """:func:`fouled` from the dun ranks ``(..., 3)`` (front, middle, back) of set hands."""
    front, middle, back = ranks[..., 0], ranks[..., 1], ranks[..., 2]
    foul = variant.scoring.foul
    ok_front = front < middle if foul.front_middle == "<" else front <= middle
    ok_back = middle < back if foul.middle_back == "<" else middle <= back
    return np.asarray(~(ok_front & ok_back))


# --------------------------------------------------------------------------------------------
# The kernel
# --------------------------------------------------------------------------------------------


@nb.njit(cache=True, inline="always")
def _places(keys, members, weights_out, t):  # type: ignore[no-untyped-def]
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


@nb.njit(cache=True)
def _kernel(  # type: ignore[no-untyped-def]
    arranged,
    declared,
    spay,
    horse_card,
    banker,
    table5,
    flush_table,
    table3,
    ints,
    floats,
    dun_values,
    transforms,
    used,
    write_components,
    totals,
    out,
):
    n_games, p = arranged.shape[0], arranged.shape[1]
    cmpv = np.empty((p, 3), dtype=np.int64)
    worth = np.empty((p, 3), dtype=np.float64)
    fouled = np.empty(p, dtype=np.bool_)
    normal = np.empty(p, dtype=np.bool_)
    horse_count = np.zeros(p, dtype=np.int64)
    P = np.zeros((_N_COMP, p, p), dtype=np.float64)
    V = np.zeros((_N_COMP, p), dtype=np.float64)  # per-player components
    # dirty[c]: component c was written in this game, so it is summed here and zeroed before
    # the next game; the others hold zeros (which add nothing: every sum starts at +0.0).
    dirty = np.ones(_N_COMP, dtype=np.bool_)
    n_scooped = np.zeros(p, dtype=np.int64)
    scoop_winner = np.empty(p * p, dtype=np.int64)  # this game's scoops (打枪): who scooped whom
    scoop_loser = np.empty(p * p, dtype=np.int64)
    compared = np.zeros((p, p), dtype=np.bool_)
    keys = np.zeros(p, dtype=np.float64)
    weights = np.zeros(p, dtype=np.float64)
    members = np.empty(p, dtype=np.int64)
    # The rule flags, read once (inside the game loop a store could alias them).
    banker_topo = ints[_I_BANKER_TOPO] == 1
    topcard = ints[_I_TOPCARD] == 1
    banker_ties = topcard and banker_topo
    fm_strict = ints[_I_FM_STRICT] == 1
    mb_strict = ints[_I_MB_STRICT] == 1
    penalty = ints[_I_PENALTY]
    maj_on = ints[_I_MAJ_ON] == 1
    maj_two = ints[_I_MAJ_TWO] == 1
    maj_replaces = ints[_I_MAJ_REPLACES] == 1
    scoop_mode = ints[_I_SCOOP_MODE]
    scoop_all = ints[_I_SCOOP_ALL] == 1
    scoop_ties = ints[_I_SCOOP_TIES] == 1
    scoop_nospec = ints[_I_SCOOP_NOSPEC] == 1
    home_even = ints[_I_HOME_EVEN] == 1
    home_min = ints[_I_HOME_MIN]
    t_min = ints[_I_T_MIN]
    versus_banker = ints[_I_VERSUS_BANKER] == 1
    allspec_places = ints[_I_ALLSPEC_PLACES] == 1
    foul_amount = floats[_F_FOUL_AMOUNT]
    maj_points = floats[_F_MAJ_POINTS]
    scoop_points = floats[_F_SCOOP_POINTS]
    home_factor = floats[_F_HOME_FACTOR]
    home_extra = floats[_F_HOME_EXTRA]
    horse_mult = floats[_F_HORSE_MULT]
    n_transforms = transforms.shape[0]
    for i in range(p):
        for j in range(p):
            if banker_topo:
                compared[i, j] = (i == banker) != (j == banker)
            else:
                compared[i, j] = i != j
    for g in range(n_games):
        for c in range(_N_COMP):
            if dirty[c]:
                for i in range(p):
                    V[c, i] = 0.0
                    for j in range(p):
                        P[c, i, j] = 0.0
                dirty[c] = False
        any_scoop = False
        n_scoops = 0
        any_special = False
        n_normal = 0
        biggest = 1.0
        for i in range(p):
            n_scooped[i] = 0
            keys[i] = 0.0
            h = arranged[g, i]
            r0 = rank3_one(h[0], h[1], h[2], table3)
            r1 = rank5_one(h[3], h[4], h[5], h[6], h[7], table5, flush_table)
            r2 = rank5_one(h[8], h[9], h[10], h[11], h[12], table5, flush_table)
            bad = (r0 >= r1) if fm_strict else (r0 > r1)
            bad = bad or ((r1 >= r2) if mb_strict else (r1 > r2))
            fouled[i] = bad
            w0 = dun_values[0, r0 >> 20]
            w1 = dun_values[1, r1 >> 20]
            w2 = dun_values[2, r2 >> 20]
            worth[i, 0] = w0
            worth[i, 1] = w1
            worth[i, 2] = w2
            if topcard:
                cmpv[i, 0] = max(h[0], h[1], h[2]) >> 2
                cmpv[i, 1] = max(max(h[3], h[4]), max(h[5], h[6]), h[7]) >> 2
                cmpv[i, 2] = max(max(h[8], h[9]), max(h[10], h[11]), h[12]) >> 2
            else:
                cmpv[i, 0] = r0
                cmpv[i, 1] = r1
                cmpv[i, 2] = r2
            if horse_card >= 0:
                e = 0
                for k in range(13):
                    if arranged[g, i, k] == horse_card:
                        e += 1
                horse_count[i] = e
            if declared[g, i] >= 0:
                any_special = True
                normal[i] = False
            else:
                normal[i] = not bad
                if not bad:
                    n_normal += 1
                    if w0 > biggest:
                        biggest = w0
                    if w1 > biggest:
                        biggest = w1
                    if w2 > biggest:
                        biggest = w2
        # ---- core, pair by pair
        dirty[_C_DUNS] = True
        dirty[_C_BONUS] = True
        dirty[_C_MAJ] = maj_on
        for i in range(p):
            for j in range(i + 1, p):
                if not compared[i, j]:
                    continue
                if not (normal[i] and normal[j]):
                    si = declared[g, i]
                    sj = declared[g, j]
                    if si >= 0 or sj >= 0:
                        amt = 0.0  # what i wins from j
                        if si >= 0 and sj >= 0:
                            if versus_banker and banker_topo:
                                amt = -spay[g, j] if i == banker else spay[g, i]
                            elif si < sj:
                                amt = spay[g, i]
                            elif sj < si:
                                amt = -spay[g, j]
                        elif si >= 0:
                            amt = spay[g, i]
                        else:
                            amt = -spay[g, j]
                        P[_C_SPEC, i, j] += amt
                        P[_C_SPEC, j, i] -= amt
                        dirty[_C_SPEC] = True
                        continue
                    if fouled[i] and fouled[j]:
                        continue
                    f = i if fouled[i] else j
                    o = j if fouled[i] else i
                    if penalty == 0:  # lose-all: the opponent wins every dun with its worth
                        if maj_replaces:
                            amt = maj_points
                        else:
                            amt = worth[o, 0] + worth[o, 1] + worth[o, 2]
                            if maj_on:
                                amt += maj_points
                    elif penalty == 1:
                        amt = foul_amount
                    else:
                        amt = max(foul_amount, biggest)
                    P[_C_FOUL, o, f] += amt
                    P[_C_FOUL, f, o] -= amt
                    dirty[_C_FOUL] = True
                    continue
                # Both hands normal.  Adding 0.0 on a tie leaves base and bonus as they are
                # (they start at +0.0 and so are never -0.0), as does adding -x for -= x.
                base = 0.0
                bonus = 0.0
                w = 0
                lo = 0
                for d in range(3):
                    a = cmpv[i, d]
                    b = cmpv[j, d]
                    if banker_ties and a == b:
                        # 食夹棍: the banker wins ties
                        if i == banker:
                            a += 1
                        elif j == banker:
                            b += 1
                    won = a > b
                    lost = a < b
                    w += won
                    lo += lost
                    base += 1.0 if won else (-1.0 if lost else 0.0)
                    bonus += (worth[i, d] - 1.0) if won else (-(worth[j, d] - 1.0) if lost else 0.0)
                if scoop_ties:
                    i_scoops = lo == 0 and w >= 1
                    j_scoops = w == 0 and lo >= 1
                else:
                    i_scoops = w == 3
                    j_scoops = lo == 3
                if i_scoops:
                    n_scooped[i] += 1
                    any_scoop = True
                    scoop_winner[n_scoops] = i
                    scoop_loser[n_scoops] = j
                    n_scoops += 1
                elif j_scoops:
                    n_scooped[j] += 1
                    any_scoop = True
                    scoop_winner[n_scoops] = j
                    scoop_loser[n_scoops] = i
                    n_scoops += 1
                maj_ij = 0.0  # P[_C_MAJ] as it stands when the majority is off
                maj_ji = 0.0
                if maj_on:
                    if maj_two:
                        m = 1.0 if w >= 2 else (-1.0 if lo >= 2 else 0.0)
                    else:
                        m = 1.0 if w > lo else (-1.0 if lo > w else 0.0)
                    maj_ij = m * maj_points
                    maj_ji = -m * maj_points
                    P[_C_MAJ, i, j] = maj_ij
                    P[_C_MAJ, j, i] = maj_ji
                    if maj_replaces:
                        base = 0.0
                        bonus = 0.0
                P[_C_DUNS, i, j] = base
                P[_C_DUNS, j, i] = -base
                P[_C_BONUS, i, j] = bonus
                P[_C_BONUS, j, i] = -bonus
                # The t-formula's keys, summed as it would over P: pairs come in order
                # (0, 1), (0, 2), .., (1, 2), .., so each player's partners come in seat order.
                keys[i] += (base + bonus) + maj_ij
                keys[j] += (-base + -bonus) + maj_ji
        # ---- 000/002 §4.3 first method: nobody holds a normal hand, places by special order
        if allspec_places and any_special:
            n_special = 0
            for i in range(p):
                if declared[g, i] >= 0:
                    n_special += 1
            if n_special == p:
                t_spec = 0.0
                for i in range(p):
                    keys[i] = -declared[g, i]
                    members[i] = i
                    if spay[g, i] > t_spec:
                        t_spec = spay[g, i]
                    for j in range(p):
                        P[_C_SPEC, i, j] = 0.0
                _places(keys, members[:p], weights, t_spec)
                for i in range(p):
                    V[_C_SPEC, i] += weights[i]
                dirty[_C_SPEC] = True
        # ---- transforms, in the variant's order
        for t_index in range(n_transforms):
            tcode = transforms[t_index]
            if tcode == 0:  # scoop
                if not any_scoop or (scoop_nospec and any_special):
                    continue
                dirty[_C_SCOOP] = True
                # Each pair scoops at most once, so the order of the scoops does not matter.
                for k in range(n_scoops):
                    i = scoop_winner[k]
                    j = scoop_loser[k]
                    if scoop_mode == 1:
                        amt = scoop_points
                    elif scoop_all:
                        amt = P[_C_DUNS, i, j] + P[_C_BONUS, i, j] + P[_C_MAJ, i, j]
                    else:
                        amt = P[_C_DUNS, i, j]
                    P[_C_SCOOP, i, j] += amt
                    P[_C_SCOOP, j, i] -= amt
            elif tcode == 1:  # home run
                if not any_scoop or p < home_min:
                    continue
                runner = -1
                for i in range(p):
                    if n_scooped[i] == p - 1:
                        runner = i
                if runner < 0:
                    continue
                dirty[_C_HOME] = True
                if not home_even:
                    for j in range(p):
                        if j == runner:
                            continue
                        pair_total = 0.0
                        for c in range(_N_COMP):
                            if dirty[c]:
                                pair_total += P[c, runner, j]
                        amt = (home_factor - 1.0) * pair_total + home_extra
                        P[_C_HOME, runner, j] += amt
                        P[_C_HOME, j, runner] -= amt
                else:
                    own = 0.0
                    for c in range(_N_COMP):
                        own += V[c, runner]
                        for j in range(p):
                            own += P[c, runner, j]
                    inc = (home_factor - 1.0) * own + home_extra * (p - 1)
                    V[_C_HOME, runner] += inc
                    for j in range(p):
                        if j != runner:
                            V[_C_HOME, j] -= inc / (p - 1)
            elif tcode == 2:  # t-formula
                if n_normal < t_min:
                    continue
                dirty[_C_T] = True
                q = 0
                for i in range(p):
                    if normal[i]:
                        members[q] = i
                        q += 1
                _places(keys, members[:q], weights, biggest)
                for a in range(q):
                    i = members[a]
                    V[_C_T, i] += weights[i]
                    for b in range(q):
                        j = members[b]
                        P[_C_DUNS, i, j] = 0.0
                        P[_C_BONUS, i, j] = 0.0
                        P[_C_MAJ, i, j] = 0.0
            else:  # horse card
                for i in range(p):
                    for j in range(i + 1, p):
                        e = horse_count[i] + horse_count[j]
                        if e == 0:
                            continue
                        dirty[_C_HORSE] = True
                        pair_total = 0.0
                        for c in range(_N_COMP):
                            if dirty[c]:  # the others are zeros, which add nothing
                                pair_total += P[c, i, j]
                        amt = (horse_mult**e - 1.0) * pair_total
                        P[_C_HORSE, i, j] += amt
                        P[_C_HORSE, j, i] -= amt
        # ---- totals: each component's row sum, components added in order (a component not
        # written in this game is all zeros and adds nothing; ``out`` starts at zero)
        for i in range(p):
            totals[g, i] = 0.0
        for u in range(used.shape[0]):
            c = used[u]
            if not dirty[c]:
                continue
            for i in range(p):
                acc = V[c, i]
                for j in range(p):
                    acc += P[c, i, j]
                totals[g, i] += acc
                if write_components:
                    out[c, g, i] = acc


# --------------------------------------------------------------------------------------------
# The public scorer
# --------------------------------------------------------------------------------------------


def _stacked_payouts(
    arranged: np.ndarray, declared: np.ndarray, variant: Variant, payouts: np.ndarray
) -> np.ndarray:
    """Declared payout plus those of every other qualifying special listed after it."""
    from simkit.specials import detect_specials

    masks = np.asarray(detect_specials(arranged, variant)).astype(np.int64)
    idx = np.clip(declared, 0, None).astype(np.int64)
    total = payouts[idx].copy()
    for k in range(payouts.shape[0]):
        has_k = ((masks >> k) & 1).astype(bool) & (k > idx)
        total = total + np.where(has_k, payouts[k], 0.0)
    return total


@overload
def score(
    arranged: npt.ArrayLike,
    variant: str | Variant | None = ...,
    *,
    declared: npt.ArrayLike | None = ...,
    banker: int = ...,
    horse: int | None = ...,
    breakdown: Literal[False] = ...,
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
) -> np.ndarray | tuple[np.ndarray, dict[str, np.ndarray]]: ...


def score(
    arranged: npt.ArrayLike,
    variant: str | Variant | None = None,
    *,
    declared: npt.ArrayLike | None = None,
    banker: int = 0,
    horse: int | None = None,
    breakdown: bool = False,
) -> np.ndarray | tuple[np.ndarray, dict[str, np.ndarray]]:
    """Score arranged hands by the variant's rules.

    ``arranged``: int8 ``(n_games, n_players, 13)``, each hand in order [front 3 | middle 5 |
    back 5]; 2-4 players with one deck, 5-8 with two.  ``declared``: int8 ``(n_games,
    n_players)``, the index into ``variant.specials.rules`` of the special each player declares,
    -1 for none (None: nobody declares; a player may play a special hand as a normal one).
    ``banker``: the banker's seat, used by banker topologies and 食夹棍.  ``horse``: the 马牌
    card (card int) when the variant plays it; None takes the variant's card.

    Returns float64 ``(n_games, n_players)`` points, zero-sum in every game; with
    ``breakdown=True``, ``(total, components)``: a dict from each name of :data:`COMPONENTS` to
    float64 ``(n_games, n_players)``, adding up to ``total``.
    """
    v = resolve_variant(variant)
    hands = np.asarray(arranged)
    if hands.ndim != 3 or hands.shape[2] != HAND_SIZE:
        raise ValueError(f"arranged must have shape (n_games, n_players, 13), got {hands.shape}")
    if not np.issubdtype(hands.dtype, np.integer):
        raise TypeError(f"arranged must hold integer cards, got dtype {hands.dtype}")
    n_games, n_players = hands.shape[0], hands.shape[1]
    if not 2 <= n_players <= 8:
        raise ValueError(f"十三水 is played by 2 to 8 players, got n_players={n_players}")
    if hands.size and (hands.min() < 0 or hands.max() >= DECK_SIZE):
        raise ValueError("arranged holds a value that is not a card (cards are 0..51)")
    hands = np.ascontiguousarray(hands, dtype=np.int8)
    n_specials = len(v.specials.rules)
    if declared is None:
        decl = np.full((n_games, n_players), -1, dtype=np.int8)
    else:
        decl = np.asarray(declared)
        if decl.shape != (n_games, n_players):
            raise ValueError(f"declared must have shape {(n_games, n_players)}, got {decl.shape}")
        if not np.issubdtype(decl.dtype, np.integer):
            raise TypeError(f"declared must hold integer special indices, got {decl.dtype}")
        if decl.size and (decl.min() < -1 or decl.max() >= n_specials):
            raise ValueError(
                f"declared holds an index outside -1..{n_specials - 1} "
                f"({v.name} plays {n_specials} specials)"
            )
        decl = np.ascontiguousarray(decl, dtype=np.int8)
    if isinstance(banker, bool) or not isinstance(banker, int | np.integer):
        raise TypeError(f"banker must be a seat number, got {banker!r}")
    if not 0 <= banker < n_players:
        raise ValueError(f"banker must be a seat 0..{n_players - 1}, got {banker}")
    params = _params(v, n_players)
    if decl.size and (decl >= 0).any():
        if v.scoring.specials.stack:
            spay = _stacked_payouts(hands, decl, v, params.payouts)
        else:
            spay = params.payouts[np.clip(decl, 0, None)]
        spay = np.where(decl >= 0, spay, 0.0)
    else:
        spay = np.zeros((n_games, n_players))
    spay = np.ascontiguousarray(spay, dtype=np.float64)
    if v.scoring.horse.enabled:
        card = v.scoring.horse.card_int if horse is None else horse
        if isinstance(card, bool) or not isinstance(card, int | np.integer):
            raise TypeError(f"horse must be a card int, got {card!r}")
        if not 0 <= card < DECK_SIZE:
            raise ValueError(f"horse must be a card 0..51, got {card}")
        horse_card = int(card)
    else:
        if horse is not None:
            raise ValueError(f"{v.name} does not play a horse card (马牌); pass horse=None")
        horse_card = -1  # no card is -1: nobody holds the horse
    table5, flush_table, table3 = ranking_tables(v.ranking)
    totals = np.empty((n_games, n_players), dtype=np.float64)
    out = np.zeros((_N_COMP, n_games if breakdown else 0, n_players), dtype=np.float64)
    _kernel(
        hands,
        decl,
        spay,
        horse_card,
        int(banker),
        table5,
        flush_table,
        table3,
        params.ints,
        params.floats,
        params.dun_values,
        params.transforms,
        params.used,
        bool(breakdown),
        totals,
        out,
    )
    if not breakdown:
        return totals
    return totals, {name: out[c] for c, name in enumerate(COMPONENTS)}
