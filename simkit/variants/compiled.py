"""A variant's scoring rules for one table size, compiled once into one typed record.

:func:`compile_rules` reads a :class:`~simkit.variants.Variant`'s ``[scoring]`` and
``[specials]`` tables and returns a :class:`CompiledRules`: a ``typing.NamedTuple`` of scalars,
:class:`~enum.IntEnum` codes and small read-only arrays.  numba passes a NamedTuple to a
kernel by value and reads its fields as fast as it reads index-addressed arrays, so the
scorer (:mod:`simkit.score`), its pairwise primitive and the strategy's value model
(:mod:`simkit.arrange`) all read this one object instead of each packing the dataclasses
into arrays of its own.  Every fact a kernel needs is computed here, once: which transforms
apply at this table size, the scoop size for this many players, the home-run factor.

A new rule is one field here plus one branch in the kernel that reads it.

>>> from simkit.variants import load_variant
>>> rules = compile_rules(load_variant("guangxi"), 4)
>>> rules is compile_rules(load_variant("guangxi"), 4)
True
>>> rules.n_players, rules.foul_penalty.name
(4, 'BIGGEST_HAND')
"""

from __future__ import annotations

from enum import IntEnum
from functools import lru_cache
from typing import NamedTuple

import numpy as np

from simkit.errors import SimkitError
from simkit.variants.rules import Variant
from simkit.variants.scoring_rules import MAX_PLAYERS, MIN_PLAYERS

__all__ = [
    "FOUL_FRONT_BELOW",
    "FOUL_FRONT_BELOW_TOP_THREE",
    "FOUL_MIDDLE_BELOW",
    "CompareMode",
    "CompiledRules",
    "FoulPenalty",
    "FrontMiddle",
    "ScoopMode",
    "Transform",
    "compile_rules",
]


class Transform(IntEnum):
    """A score-only rule applied over the core pairwise scores (``[scoring].transforms``)."""

    SCOOP = 0  #: 打枪: extra points to a pair's scooper
    HOME_RUN = 1  #: 全垒打: the player who scoops everyone is paid more
    T_FORMULA = 2  #: the t-based place payments of 000/002 §1
    HORSE = 3  #: 马牌: the marked card's holder has its pairs multiplied


#: The transform of each name a variant may list.
TRANSFORM_OF_NAME: dict[str, Transform] = {
    "scoop": Transform.SCOOP,
    "home-run": Transform.HOME_RUN,
    "t-formula": Transform.T_FORMULA,
    "horse": Transform.HORSE,
}


class FoulPenalty(IntEnum):
    """What a fouled hand (倒水) pays an opponent that did not foul (``[scoring.foul].penalty``)."""

    LOSE_ALL = 0  #: every dun of the opponent, with its worth (and the majority point)
    FIXED = 1  #: the fixed ``amount``
    BIGGEST_HAND = 2  #: ``amount`` or, if larger, the worth of the round's biggest dun


class FrontMiddle(IntEnum):
    """How the front must compare with the middle (``[scoring.foul].front_middle``)."""

    AT_MOST = 0  #: ``"<="``: front ≤ middle on the one scale of :mod:`simkit.evaluate`
    #: ``"<"``: front < middle on that scale (no front equals a middle there: as AT_MOST)
    BELOW = 1
    #: ``"<top-three"``: front < the middle's top three (:func:`simkit.evaluate.top_three`)
    BELOW_TOP_THREE = 2


#: The bits of :attr:`CompiledRules.foul_order`, the one form of the foul order that every
#: legality test reads (:func:`simkit.evaluate.order_holds`: the scorer's foul test and the
#: strategies' legal splits alike); no bit set: front ≤ middle ≤ back.
FOUL_FRONT_BELOW = 1  #: front < middle
FOUL_MIDDLE_BELOW = 2  #: middle < back
FOUL_FRONT_BELOW_TOP_THREE = 4  #: front < the middle's top three


class ScoopMode(IntEnum):
    """What a scoop (打枪) adds (``[scoring.scoop].mode``); NONE when scoop is not a transform."""

    NONE = 0  #: nothing
    ADD = 1  #: a fixed number of points, by table size
    DOUBLE = 2  #: the pair's points again (all of them, or the dun count only)


class CompareMode(IntEnum):
    """How two duns are compared (``[scoring].compare``)."""

    FULL = 0  #: by rank: category, then kickers
    #: 食夹棍: by category, then by the highest card's rank only, the banker winning ties
    TOP_CARD = 1


_FOUL_PENALTY_OF_NAME = {
    "lose-all": FoulPenalty.LOSE_ALL,
    "fixed": FoulPenalty.FIXED,
    "biggest-hand": FoulPenalty.BIGGEST_HAND,
}
_FRONT_MIDDLE_OF_NAME = {
    "<=": FrontMiddle.AT_MOST,
    "<": FrontMiddle.BELOW,
    "<top-three": FrontMiddle.BELOW_TOP_THREE,
}
_FOUL_BIT_OF_FRONT_MIDDLE = {
    FrontMiddle.AT_MOST: 0,
    FrontMiddle.BELOW: FOUL_FRONT_BELOW,
    FrontMiddle.BELOW_TOP_THREE: FOUL_FRONT_BELOW_TOP_THREE,
}
_SCOOP_MODE_OF_NAME = {"none": ScoopMode.NONE, "add": ScoopMode.ADD, "double": ScoopMode.DOUBLE}
_COMPARE_OF_NAME = {"full": CompareMode.FULL, "top-card": CompareMode.TOP_CARD}


class CompiledRules(NamedTuple):
    """The scoring rules of one variant at one table size, as kernels read them.

    Arrays are read-only and C-contiguous.  Amounts are float64 points; flags are bools.
    """

    #: players at the table (2..8)
    n_players: int
    #: each player compares with the banker only (``topology = "banker"``); else all pairs
    banker_topology: bool
    #: full ranking or 食夹棍 (category, then top card, the banker winning ties)
    compare: CompareMode
    #: the foul order: how the front compares with the middle; middle < back (else ≤); both
    #: as the bits every legality test reads (``FOUL_*``; the same at any table size)
    front_middle: FrontMiddle
    middle_back_strict: bool
    foul_order: int
    #: what a fouled hand pays, and the amount of the fixed / biggest-hand penalties
    foul_penalty: FoulPenalty
    foul_amount: float
    #: the fouled hands' own duns count toward the biggest-hand penalty's biggest dun
    foul_biggest_all_hands: bool
    #: what a hand that breaks both orders (front above middle above back) pays, in multiples
    #: of the penalty (1: as any fouled hand)
    foul_severe_factor: float
    #: float64 ``(3, 10)``: worth of a dun won, by position (front, middle, back) and category
    dun_worth: np.ndarray
    #: the majority match point is played; it needs two duns won (else more won than lost);
    #: its points; it replaces the dun count and bonuses (only when it is played)
    majority: bool
    majority_two_wins: bool
    majority_points: float
    majority_replaces_duns: bool
    #: int64 ``(n_transforms,)``: the :class:`Transform` codes, in the variant's order
    transforms: np.ndarray
    #: the scoop's mode (NONE unless scoop is a transform), its points at this table size,
    #: whether doubling doubles everything (else the dun count only), whether tied duns with
    #: the rest won count as a scoop, whether it needs that nobody declared a special
    scoop_mode: ScoopMode
    scoop_points: float
    scoop_doubles_all: bool
    scoop_with_ties: bool
    scoop_requires_no_specials: bool
    #: the home run is a transform and this table is large enough for it; the increase is
    #: split evenly among the others (else pair by pair); the factor multiplies every point
    #: (else the dun count only, with the scoop's doubling of it); its factor and extra per
    #: opponent
    home_run: bool
    home_run_even: bool
    home_run_doubles_all: bool
    home_run_factor: float
    home_run_extra: float
    #: a fouled opponent counts as beaten toward the home run (else it blocks it)
    home_run_fouled_beaten: bool
    #: the t-formula applies when at least this many hands are compared normally
    t_formula_min_players: int
    #: the 马牌 card (card int), -1 when the variant plays none; what each copy multiplies by;
    #: it rewards the winning duns that hold it (else it multiplies the holder's whole result)
    horse_card: int
    horse_multiplier: float
    horse_by_dun: bool
    #: float64 ``(n_specials,)``: each special's payout, in ``[specials].order``
    special_payouts: np.ndarray
    #: two specials meeting at a banker table: the banker pays the player (``banker-pays``)
    specials_banker_pays: bool
    #: when nobody holds a normal hand, specials are paid by places (000/002 §4.3, the first
    #: method, or the second, ``specials_all_pivot``: place p/2 scores 0, the lower places
    #: pay; only at 4 or more players)
    specials_all_places: bool
    specials_all_pivot: bool
    #: a hand is paid every special it qualifies for, not only the declared one
    specials_stack: bool
    #: float64 ``(n_specials,)``: what a special that collects from every other player (通杀)
    #: has its payments multiplied by (1: nothing); whether any special's is above 1
    special_sweep: np.ndarray
    specials_sweep: bool


#: 000/002 §4.3's second method: "仅限4人或4人以上"
_PIVOT_MIN_PLAYERS = 4


def _frozen(array: np.ndarray) -> np.ndarray:
    array = np.ascontiguousarray(array)
    array.setflags(write=False)
    return array


@lru_cache(maxsize=128)
def compile_rules(variant: Variant, n_players: int) -> CompiledRules:
    """The :class:`CompiledRules` of ``variant`` at a table of ``n_players`` (cached)."""
    if isinstance(n_players, bool) or not isinstance(n_players, int | np.integer):
        raise TypeError(f"n_players must be an integer, got {n_players!r}")
    if not MIN_PLAYERS <= n_players <= MAX_PLAYERS:
        raise SimkitError(f"n_players must be {MIN_PLAYERS}..{MAX_PLAYERS}, got {n_players}")
    n_players = int(n_players)
    s = variant.scoring
    listed = set(s.transforms)
    ids = variant.specials.ids
    for special in s.specials.sweep:
        if special not in ids:
            raise SimkitError(
                f"scoring.specials.sweep: {special!r} is not a special of {variant.name}; "
                f"its specials are: {', '.join(ids)}"
            )
    sweep = np.array([float(s.specials.sweep.get(i, 1.0)) for i in ids], dtype=np.float64)
    majority = bool(s.majority.enabled)
    front_middle = _FRONT_MIDDLE_OF_NAME[s.foul.front_middle]
    middle_back_strict = s.foul.middle_back == "<"
    return CompiledRules(
        n_players=n_players,
        banker_topology=s.topology == "banker",
        compare=_COMPARE_OF_NAME[s.compare],
        front_middle=front_middle,
        middle_back_strict=middle_back_strict,
        foul_order=_FOUL_BIT_OF_FRONT_MIDDLE[front_middle]
        | (FOUL_MIDDLE_BELOW if middle_back_strict else 0),
        foul_penalty=_FOUL_PENALTY_OF_NAME[s.foul.penalty],
        foul_amount=float(s.foul.amount),
        foul_biggest_all_hands=s.foul.biggest_of == "all-hands",
        foul_severe_factor=float(s.foul.severe_factor),
        dun_worth=_frozen(np.array(s.duns.values(), dtype=np.float64)),
        majority=majority,
        majority_two_wins=s.majority.rule == "two-wins",
        majority_points=float(s.majority.points),
        majority_replaces_duns=majority and bool(s.majority.replaces_duns),
        transforms=_frozen(np.array([TRANSFORM_OF_NAME[t] for t in s.transforms], np.int64)),
        scoop_mode=_SCOOP_MODE_OF_NAME[s.scoop.mode] if "scoop" in listed else ScoopMode.NONE,
        scoop_points=float(s.scoop.points[n_players - MIN_PLAYERS]),
        scoop_doubles_all=s.scoop.doubles == "all",
        scoop_with_ties=bool(s.scoop.with_ties),
        scoop_requires_no_specials=bool(s.scoop.requires_no_specials),
        home_run="home-run" in listed and n_players >= s.home_run.min_players,
        home_run_even=s.home_run.split == "even",
        home_run_doubles_all=s.home_run.doubles == "all",
        home_run_factor=float(s.home_run.factor_for(n_players)),
        home_run_extra=float(s.home_run.extra_for(n_players)),
        home_run_fouled_beaten=s.home_run.fouled == "beaten",
        t_formula_min_players=int(s.t_formula.min_players),
        horse_card=s.horse.card_int if "horse" in listed else -1,
        horse_multiplier=float(s.horse.multiplier),
        horse_by_dun=s.horse.counts == "winning-dun",
        special_payouts=_frozen(
            np.array([r.payout for r in variant.specials.rules], dtype=np.float64)
        ),
        specials_banker_pays=s.specials.versus == "banker-pays" and s.topology == "banker",
        specials_all_places=s.specials.all_special == "places"
        or (s.specials.all_special == "pivot" and n_players >= _PIVOT_MIN_PLAYERS),
        specials_all_pivot=s.specials.all_special == "pivot" and n_players >= _PIVOT_MIN_PLAYERS,
        specials_stack=bool(s.specials.stack),
        special_sweep=_frozen(sweep),
        specials_sweep=bool((sweep > 1.0).any()),
    )
