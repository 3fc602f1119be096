"""Setting 13 cards into front, middle and back: the arrangement strategies.

:func:`arrange` returns, for every hand, the cards in the order [front 3 | middle 5 | back 5]
and the special hand (报到) it declares.  No strategy ever fouls (倒水): front ≤ middle ≤ back
by :func:`~simkit.evaluate.rank3` / :func:`~simkit.evaluate.rank5` (front < middle when the
variant's scoring says so).

Strategies
----------
``"max-ev"``
    The split with the largest expected score against opponents who play the same way, under
    the variant's payouts, estimated from per-dun win tables (:class:`WinTables`, trained by
    fictitious play in :mod:`simkit.train`).  This is the method of Paul Hankin's near-optimal
    heads-up Chinese poker solver (2015): a split is valued by table lookups of the win
    probability of each of its duns.  The search is exact for that objective: it returns the
    same value as scoring every one of the 72,072 splits, pruning whole backs by upper bounds.
``"greedy"``
    The strongest back, then the strongest middle of the other 8 cards, front = the rest
    (lexicographic maximum of (back, middle, front) over legal splits).
``"random-legal"``
    A uniformly random legal split (a baseline).
a callable
    A research objective: ``objective(ranks)`` with ``ranks`` an ``int32 (n_splits, 3)`` array of
    (front, middle, back) dun ranks of one hand's legal splits returns ``(n_splits,)`` scores;
    the best one is kept.

The expected-score model (an approximation, documented here once)
-----------------------------------------------------------------
For one opponent and dun ``d`` the tables give, by the class of my dun rank (its category and
top two rank digits, :func:`dun_class`, about 1,960 classes per dun), the chance ``W`` that I
win it, ``T`` that we tie, ``L = 1 - W - T`` that I lose, and ``LE`` the points I pay on that
dun when I lose (1 plus the opponent's bonus, averaged over the hands that beat mine), all
measured against opponents playing max-ev, card removal included.  ``VW`` is what I collect
when I win (the ``[scoring.duns]`` worth of my category there).  Duns are treated as
independent, so the expected pairwise points (:func:`expected_points`) are

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

The search
----------
A hand's 1,287 5-card and 286 3-card subsets are ranked once (rank-multiset tables small
enough for L1).  Backs are grouped by class and visited strongest class first; a bound at
the favourable end of the tables (:func:`favourable_quantities`) drops whole back classes
(that bound never rises as the class falls, so the first class that fails ends the search),
then single backs (capping the middle and front at the strongest legal ones the other 8 cards
allow, one vectorized pass over the back's 56 splits; a back whose caps are no stronger than
those of a back of its class that failed fails without its bound computed), then single splits
(the separable part plus a bound on the rest).  The expected score never falls when a
dun's win chance or worth rises, so every bound is valid and the answer equals the scan of
all 72,072 splits, ties broken the same way (stronger back, middle, front, then lower ids).
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from itertools import combinations_with_replacement
from math import comb
from pathlib import Path
from typing import Any, Literal

import numba as nb
import numpy as np
import numpy.typing as npt

from simkit.cards import HAND_SIZE, as_card_rows
from simkit.deal import RngLike, as_generator, check_players
from simkit.evaluate import RANK_KEYS, rank5_one, ranking_order, ranking_tables
from simkit.splits import BACK_FRONT, BACK_MIDDLE, BACK_REST, SPLIT_IDS, split_positions
from simkit.variants import DEFAULT_VARIANT, Ranking, Variant, resolve_variant
from simkit.variants.compiled import ScoopMode, compile_rules
from simkit.variants.scoring_rules import MIN_PLAYERS

Strategy = Literal["max-ev", "greedy", "random-legal"] | Callable[[np.ndarray], np.ndarray]
Declare = Literal["auto", "always", "never"]
STRATEGIES = ("max-ev", "greedy", "random-legal")
DECLARE_RULES = ("auto", "always", "never")

N_DUNS = 3
N_FIVE = 1287  # C(13, 5)
N_THREE = 286  # C(13, 3)
DIGIT = 14  # kicker digits are base 14 (simkit.evaluate)
N_CLASSES = 10 * DIGIT * DIGIT  # category × first kicker digit × second kicker digit

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
    N_PARAMS,
) = range(11)


# --------------------------------------------------------------------------------------------
# Dun classes


@nb.njit(cache=True, inline="always")
def dun_class(rank):  # type: ignore[no-untyped-def]
    """The class of a dun rank: category, first and second kicker digit (0..1959).

    Classes are ordered as ranks are.  The only rank whose kicker is not a left-aligned digit
    string, the second-highest wheel (``encode(STRAIGHT, (K,)) + 1``), gets second digit 13,
    between the K-high and the A-high straight.
    """
    category = rank >> 20
    kicker = rank & 0xFFFFF
    d1 = kicker // 38416  # 14**4
    rest = kicker - d1 * 38416
    d2 = rest // 2744  # 14**3
    if d2 == 0 and rest > 0:
        d2 = 13
    return category * 196 + d1 * 14 + d2


def dun_classes(ranks: npt.ArrayLike) -> np.ndarray:
    """:func:`dun_class` of every rank in an array, as ``int16``."""
    r = np.asarray(ranks, dtype=np.int64)
    category = r >> 20
    kicker = r & 0xFFFFF
    d1 = kicker // 38416
    rest = kicker - d1 * 38416
    d2 = rest // 2744
    d2 = np.where((d2 == 0) & (rest > 0), 13, d2)
    return (category * 196 + d1 * 14 + d2).astype(np.int16)


# --------------------------------------------------------------------------------------------
# Payouts and win tables


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
    return PayoutModel(
        win_points=np.ascontiguousarray(win_points), params=params, strict=foul_strict(variant)
    )


def foul_strict(variant: Variant) -> int:
    """The variant's foul order as kernel bits: bit 0 front < middle, bit 1 middle < back
    (clear bits: ≤)."""
    rules = compile_rules(variant, MIN_PLAYERS)  # the foul order is the same at any table
    return int(rules.front_middle_strict) | 2 * int(rules.middle_back_strict)


@dataclass(frozen=True)
class WinTables:
    """Per-dun win tables of one variant and player count.

    ``win``, ``tie``, ``lose_pay``: ``float64 (3, N_CLASSES)``, by dun (front, middle, back) and
    :func:`dun_class` of my dun: the chance I win it against one opponent, the chance we tie,
    and the points I pay on it when I lose.  ``count``: how many comparisons each class saw in
    training.  ``scoop_rate``: the chance a player scoops a given opponent.  ``meta``: how the
    tables were made (command, seed, games, iterations, change per iteration).
    """

    win: np.ndarray
    tie: np.ndarray
    lose_pay: np.ndarray
    count: np.ndarray
    scoop_rate: float = 0.0
    meta: dict[str, Any] = field(default_factory=dict)

    def save(self, path: str | Path) -> None:
        import json

        np.savez_compressed(
            path,
            win=self.win.astype(np.float32),
            tie=self.tie.astype(np.float32),
            lose_pay=self.lose_pay.astype(np.float32),
            count=self.count.astype(np.int64),
            scoop_rate=np.float64(self.scoop_rate),
            meta=np.array(json.dumps(self.meta, ensure_ascii=False)),
        )

    @classmethod
    def load(cls, path: str | Path) -> WinTables:
        import json

        with np.load(path, allow_pickle=False) as z:
            return cls(
                win=z["win"].astype(np.float64),
                tie=z["tie"].astype(np.float64),
                lose_pay=z["lose_pay"].astype(np.float64),
                count=z["count"],
                scoop_rate=float(z["scoop_rate"]),
                meta=json.loads(str(z["meta"])),
            )


def table_name(variant_name: str, n_players: int) -> str:
    """File name of a shipped table: ``<variant>-<players>p.npz``."""
    return f"{variant_name}-{n_players}p.npz"


def shipped_table_path(variant_name: str, n_players: int) -> Path:
    return Path(str(resources.files("simkit"))) / "data" / table_name(variant_name, n_players)


@lru_cache(maxsize=64)
def _load_shipped(variant_name: str, n_players: int) -> WinTables | None:
    path = shipped_table_path(variant_name, n_players)
    if not path.exists():
        return None
    return WinTables.load(path)


def default_tables(variant: Variant, n_players: int) -> WinTables:
    """The shipped tables of ``variant`` at ``n_players``.

    Tables ship for 2, 3 and 4 players.  Otherwise (5-8 players, or a variant file of one's
    own) this warns and takes the nearest: the same variant at the nearest shipped player
    count, then ``guangxi`` at that count, then untrained tables.
    """
    tables = _load_shipped(variant.name, n_players)
    if tables is not None:
        return tables
    near = min(max(n_players, 2), 4)
    candidates = [(variant.name, k) for k in sorted((2, 3, 4), key=lambda k: abs(k - near))]
    candidates.append((DEFAULT_VARIANT, near))
    for name, players in candidates:
        tables = _load_shipped(name, players)
        if tables is not None:
            warnings.warn(
                f"no trained win tables for {variant.name!r} at {n_players} players; using "
                f"{table_name(name, players)} (train one with `simkit train`)",
                stacklevel=3,
            )
            return tables
    warnings.warn(
        f"no trained win tables for {variant.name!r}; max-ev plays untrained tables",
        stacklevel=3,
    )
    return uniform_tables()


def uniform_tables() -> WinTables:
    """Untrained tables: a dun wins as often as its rank's position in the class order says."""
    frac = (np.arange(N_CLASSES, dtype=np.float64) + 0.5) / N_CLASSES
    win = np.broadcast_to(frac, (N_DUNS, N_CLASSES)).copy()
    return WinTables(
        win=win,
        tie=np.zeros_like(win),
        lose_pay=np.ones_like(win),
        count=np.zeros((N_DUNS, N_CLASSES), dtype=np.int64),
        meta={"made": "uniform prior"},
    )


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


# --------------------------------------------------------------------------------------------
# Kernels


@nb.njit(cache=True, inline="always")
def expected_points(w0, w1, w2, l0, l1, l2, v0, v1, v2, e0, e1, e2, p):  # type: ignore[no-untyped-def]
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
        total += (p[P_HOME_FACTOR] - 1.0) * (
            n_opp * home_for * (won + p[P_HOME_ADD]) - home_against * (paid + p[P_HOME_ADD])
        )
    return total


@nb.njit(cache=True, inline="always")
def _ev(qa, p, cf, cm, cb):  # type: ignore[no-untyped-def]
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
def _legal(rf, rm, rb, strict):  # type: ignore[no-untyped-def]
    """Front ≤ middle ≤ back; bit 0 of ``strict`` makes it front < middle, bit 1 middle < back."""
    if rm > rb or (strict & 2 and rm == rb):
        return False
    if strict & 1:
        return rf < rm
    return rf <= rm


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
    """The tables every kernel here takes: ``(packed5, packed3, flush_table, table5)``.

    ``packed5[i]`` is ``rank << CLASS_BITS | class`` of the non-flush 5-card hand whose sorted
    ranks have multiset index ``i`` (C(17,5) = 6,188 entries, against the 472,726 of the
    additive-key table: small enough for L1), ``packed3`` the same for fronts (C(15,3) = 455):
    one load gives a subset both its rank and its :func:`dun_class`.  Variants whose
    duns order alike get the same tuple (:func:`simkit.evaluate.ranking_order`).
    """
    return _rank_tables(ranking_order(variant.ranking))


CLASS_BITS = 11  # dun classes are below 2**11 (N_CLASSES = 1,960)
CLASS_MASK = (1 << CLASS_BITS) - 1


@lru_cache(maxsize=8)
def _rank_tables(ranking: Ranking) -> tuple[np.ndarray, ...]:
    table5, flush_table, _ = ranking_tables(ranking)
    packed = []
    for multi in _multiset_tables(ranking):
        ranks = np.maximum(multi, 0).astype(np.int64)
        packed.append(ranks << CLASS_BITS | dun_classes(ranks).astype(np.int64))
    return packed[0], packed[1], flush_table, table5


@nb.njit(cache=True)
def _rank_subsets(hand, rt, r5, r3, k5, k3):  # type: ignore[no-untyped-def]
    """Ranks of all 1,287 5-card and 286 3-card subsets of one rank-sorted hand.

    Nested loops visit subsets in the order of :data:`~simkit.splits.FIVE_SUBSETS` and carry
    partial sums of the multiset index (rank of position ``k``-th in the subset contributes
    C(rank + k, k + 1)).  Suited 5-sets go to the flush path of ``rank5_one``.  ``k5``, ``k3``
    receive the :func:`dun_class` of each rank.
    """
    packed5, packed3, flush_table, table5 = rt
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
    n = 0
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
                            r5[n] = rank5_one(
                                hand[a], hand[b], hand[c], hand[d], hand[e], table5, flush_table
                            )
                            k5[n] = dun_class(r5[n])
                        else:
                            v = packed5[idx + c5[e]]
                            r5[n] = v >> CLASS_BITS
                            k5[n] = v & CLASS_MASK
                        n += 1
    n = 0
    for a in range(11):
        for b in range(a + 1, 12):
            ib = c1[a] + c2[b]
            for c in range(b + 1, 13):
                v = packed3[ib + c3[c]]
                r3[n] = v >> CLASS_BITS
                k3[n] = v & CLASS_MASK
                n += 1


@nb.njit(cache=True)
def _greedy_kernel(hands, rt, back_rest, strict, out):  # type: ignore[no-untyped-def]
    r5 = np.empty(N_FIVE, dtype=np.int32)
    r3 = np.empty(N_THREE, dtype=np.int32)
    k5 = np.empty(N_FIVE, dtype=np.int32)
    k3 = np.empty(N_THREE, dtype=np.int32)
    for h in range(hands.shape[0]):
        _rank_subsets(hands[h], rt, r5, r3, k5, k3)
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
                if not _legal(rf, rm, rb, strict):
                    continue
                if rb > best_b or (
                    rb == best_b and (rm > best_m or (rm == best_m and rf > best_f))
                ):
                    best_b, best_m, best_f = rb, rm, rf
                    id_f, id_m, id_b = f, m, b
        out[h, 0], out[h, 1], out[h, 2] = id_f, id_m, id_b


@nb.njit(cache=True, inline="always")
def _splitmix(state):  # type: ignore[no-untyped-def]
    state = (state + np.uint64(0x9E3779B97F4A7C15)) & np.uint64(0xFFFFFFFFFFFFFFFF)
    z = state
    z = ((z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)) & np.uint64(0xFFFFFFFFFFFFFFFF)
    z = ((z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)) & np.uint64(0xFFFFFFFFFFFFFFFF)
    return state, z ^ (z >> np.uint64(31))


@nb.njit(cache=True)
def _random_kernel(hands, seeds, rt, split_ids, strict, out):  # type: ignore[no-untyped-def]
    r5 = np.empty(N_FIVE, dtype=np.int32)
    r3 = np.empty(N_THREE, dtype=np.int32)
    k5 = np.empty(N_FIVE, dtype=np.int32)
    k3 = np.empty(N_THREE, dtype=np.int32)
    n_splits = np.uint64(split_ids.shape[0])
    for h in range(hands.shape[0]):
        _rank_subsets(hands[h], rt, r5, r3, k5, k3)
        state = np.uint64(seeds[h])
        chosen = -1
        # Rejection sampling is exactly uniform over legal splits; after 64 misses (a hand
        # with few legal splits) count them and draw one by index, also uniform.
        for _ in range(64):
            state, z = _splitmix(state)
            s = np.int64(z % n_splits)
            if _legal(r3[split_ids[s, 0]], r5[split_ids[s, 1]], r5[split_ids[s, 2]], strict):
                chosen = s
                break
        if chosen < 0:
            n_legal = 0
            for s in range(split_ids.shape[0]):
                if _legal(r3[split_ids[s, 0]], r5[split_ids[s, 1]], r5[split_ids[s, 2]], strict):
                    n_legal += 1
            state, z = _splitmix(state)
            k = np.int64(z % np.uint64(n_legal))
            for s in range(split_ids.shape[0]):
                if _legal(r3[split_ids[s, 0]], r5[split_ids[s, 1]], r5[split_ids[s, 2]], strict):
                    if k == 0:
                        chosen = s
                        break
                    k -= 1
        out[h, 0] = split_ids[chosen, 0]
        out[h, 1] = split_ids[chosen, 1]
        out[h, 2] = split_ids[chosen, 2]


@nb.njit(cache=True, inline="always")
def _separable(qa, cf, cm, cb):  # type: ignore[no-untyped-def]
    """Σ over duns of (win chance × win points − lose chance × lose pay), one opponent."""
    return (
        qa[0, cf, 0] * qa[0, cf, 2] - qa[0, cf, 1] * qa[0, cf, 3]
        + qa[1, cm, 0] * qa[1, cm, 2] - qa[1, cm, 1] * qa[1, cm, 3]
        + qa[2, cb, 0] * qa[2, cb, 2] - qa[2, cb, 1] * qa[2, cb, 3]
    )  # fmt: skip


@nb.njit(cache=True, inline="always")
def _beats(v, rf, rm, rb, f, m, b, best_v, key_b, key_m, key_f, id_b, id_m, id_f):  # type: ignore[no-untyped-def]
    """Whether a split beats the best so far: higher value, then stronger back, middle and
    front, then lower subset ids, so the answer does not depend on the visiting order.  The
    best so far comes in scalars (a kernel keeps them in registers)."""
    if v != best_v:
        return v > best_v
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


@nb.njit(cache=True, inline="always")
def _best_duns(r5, r3, middles, fronts, rb):  # type: ignore[no-untyped-def]
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
def _eval_back(b, r5, r3, c5, c3, back_middle, back_front, q, sep, p, strict, rest_max, best, key):  # type: ignore[no-untyped-def]
    """Score the legal splits with back ``b``, keeping the best in ``best`` / ``key``.

    ``sep[d, c]`` is the separable part of the expected score of class ``c`` in dun ``d``
    and ``rest_max`` bounds the rest (scoop, majority, home run) over this back's splits, so
    a split whose separable part plus that bound cannot reach the best is not scored.  The
    best so far lives in locals during the loop: stores to ``best`` would otherwise force the
    back's quantities to be reloaded for every split.
    """
    rb = r5[b]
    cb = c5[b]
    n_opp = p[P_N_OPP]
    sep_b = sep[2, cb]
    w2, l2, v2, e2 = q[2, cb, 0], q[2, cb, 1], q[2, cb, 2], q[2, cb, 3]
    best_v = best[0]
    key_b, key_m, key_f, id_b, id_m, id_f = key[0], key[1], key[2], key[3], key[4], key[5]
    n_scored = 0
    for j in range(back_middle.shape[1]):
        m = back_middle[b, j]
        f = back_front[b, j]
        rm = r5[m]
        rf = r3[f]
        if not _legal(rf, rm, rb, strict):
            continue
        cf = c3[f]
        cm = c5[m]
        # 1e-9: rounding must never drop a split that ties the best (the tie-break decides)
        if n_opp * (sep[0, cf] + sep[1, cm] + sep_b) + rest_max + 1e-9 < best_v:
            continue
        n_scored += 1
        v = expected_points(
            q[0, cf, 0], q[1, cm, 0], w2,
            q[0, cf, 1], q[1, cm, 1], l2,
            q[0, cf, 2], q[1, cm, 2], v2,
            q[0, cf, 3], q[1, cm, 3], e2,
            p,
        )  # fmt: skip
        if _beats(v, rf, rm, rb, f, m, b, best_v, key_b, key_m, key_f, id_b, id_m, id_f):
            best_v = v
            key_b, key_m, key_f, id_b, id_m, id_f = rb, rm, rf, b, m, f
    best[0] = best_v
    key[0], key[1], key[2], key[3], key[4], key[5] = key_b, key_m, key_f, id_b, id_m, id_f
    return n_scored


@nb.njit(cache=True)
def _max_ev_kernel(  # type: ignore[no-untyped-def]
    hands, rt, back_middle, back_front, qs, favs, seps, ps, stricts, out, values, n_scored
):
    """Exact argmax of the expected score over legal splits, for one or more solvers at once.

    ``qs``, ``favs``, ``seps``, ``ps``, ``stricts`` stack the quantities of ``S`` solvers that
    share one ranking; ``out`` ``(S, n, 3)``, ``values`` and ``n_scored`` ``(S, n)``.  What
    depends only on the cards (the ranks of the 1,573 subsets, the back classes and the caps
    of each back) is computed once per hand and shared by the solvers: a simulation plays the
    same deal under several variants.

    Every split with back ``b`` has its front at most the hand's best front class and its
    middle at most min(the hand's best 5-card class, the class of b): that bound depends only
    on b's class and never rises as the class falls (the favourable quantities are monotone),
    so back classes are visited strongest first and the search stops at the first class whose
    bound cannot beat the best value found.  A back that passes gets a tighter bound from the
    strongest legal middle and front its other 8 cards allow (:func:`_best_duns`) before its 56
    splits are scored; that bound rises with both caps, so once it fails for one pair of caps
    it fails for every back of the class whose caps are no stronger.
    """
    n_solvers = qs.shape[0]
    n_classes = qs.shape[2]
    r5 = np.empty(N_FIVE, dtype=np.int32)
    r3 = np.empty(N_THREE, dtype=np.int32)
    c5 = np.empty(N_FIVE, dtype=np.int32)
    c3 = np.empty(N_THREE, dtype=np.int32)
    head = np.full(n_classes, -2, dtype=np.int64)  # -2: class absent from this hand
    next_back = np.empty(N_FIVE, dtype=np.int64)
    class_list = np.empty(N_FIVE, dtype=np.int64)
    # the caps of each back as dun classes (-1: no legal split), computed at most once per
    # hand: ``cap_hand[b] == h`` marks them current
    cap_m = np.empty(N_FIVE, dtype=np.int64)
    cap_f = np.empty(N_FIVE, dtype=np.int64)
    cap_hand = np.full(N_FIVE, -1, dtype=np.int64)
    best = np.empty(1, dtype=np.float64)
    key = np.empty(6, dtype=np.int64)
    for h in range(hands.shape[0]):
        _rank_subsets(hands[h], rt, r5, r3, c5, c3)
        top_f = 0
        for i in range(N_THREE):
            top_f = max(top_f, c3[i])
        top_5 = 0
        for i in range(N_FIVE):
            top_5 = max(top_5, c5[i])
        # distinct back classes, and the backs of each class as a linked list
        n_cls = 0
        for b in range(N_FIVE):
            cb = c5[b]
            if head[cb] == -2:
                head[cb] = -1
                class_list[n_cls] = cb
                n_cls += 1
            next_back[b] = head[cb]
            head[cb] = b
        # strongest class first (insertion sort: a few dozen classes)
        for k in range(1, n_cls):
            c = class_list[k]
            i = k - 1
            while i >= 0 and class_list[i] < c:
                class_list[i + 1] = class_list[i]
                i -= 1
            class_list[i + 1] = c
        for s in range(n_solvers):
            q, fav, sep, p, strict = qs[s], favs[s], seps[s], ps[s], stricts[s]
            best[0] = -np.inf
            key[:] = -1
            scored = 0
            for k in range(n_cls):
                cb = class_list[k]
                cm = min(top_5, cb)
                if _ev(fav, p, min(top_f, cm), cm, cb) < best[0]:
                    break
                # a back of this class whose caps are no stronger than these fails too
                failed_cm = -1
                failed_cf = -1
                b = head[cb]
                while b >= 0:
                    if cap_hand[b] != h:
                        rm_top, rf_top = _best_duns(r5, r3, back_middle[b], back_front[b], r5[b])
                        cap_hand[b] = h
                        cap_m[b] = dun_class(rm_top) if rm_top >= 0 else -1
                        cap_f[b] = dun_class(rf_top) if rm_top >= 0 else -1
                    cm_top = cap_m[b]
                    cf_cap = cap_f[b]
                    if cm_top >= 0 and (cm_top > failed_cm or cf_cap > failed_cf):
                        bound = _ev(fav, p, cf_cap, cm_top, cb)
                        if bound >= best[0]:
                            # the non-separable part is monotone too: bounded at the caps
                            rest_max = bound - p[P_N_OPP] * _separable(fav, cf_cap, cm_top, cb)
                            scored += _eval_back(
                                b, r5, r3, c5, c3, back_middle, back_front,
                                q, sep, p, strict, rest_max, best, key,
                            )  # fmt: skip
                        else:
                            failed_cm = cm_top
                            failed_cf = cf_cap
                    b = next_back[b]
            out[s, h, 0], out[s, h, 1], out[s, h, 2] = key[5], key[4], key[3]
            values[s, h] = best[0]
            n_scored[s, h] = scored
        for k in range(n_cls):
            head[class_list[k]] = -2


@nb.njit(cache=True)
def _exhaustive_kernel(hands, rt, split_ids, q, p, strict, out, values):  # type: ignore[no-untyped-def]
    """Score every one of the 72,072 splits (the reference the pruned search must match)."""
    r5 = np.empty(N_FIVE, dtype=np.int32)
    r3 = np.empty(N_THREE, dtype=np.int32)
    k5 = np.empty(N_FIVE, dtype=np.int32)
    k3 = np.empty(N_THREE, dtype=np.int32)
    for h in range(hands.shape[0]):
        _rank_subsets(hands[h], rt, r5, r3, k5, k3)
        best_v = -np.inf
        key_b, key_m, key_f, id_b, id_m, id_f = -1, -1, -1, -1, -1, -1
        for s in range(split_ids.shape[0]):
            f, m, b = (
                np.int64(split_ids[s, 0]),
                np.int64(split_ids[s, 1]),
                np.int64(split_ids[s, 2]),
            )
            rf, rm, rb = r3[f], r5[m], r5[b]
            if not _legal(rf, rm, rb, strict):
                continue
            v = _ev(q, p, k3[f], k5[m], k5[b])
            if _beats(v, rf, rm, rb, f, m, b, best_v, key_b, key_m, key_f, id_b, id_m, id_f):
                best_v = v
                key_b, key_m, key_f, id_b, id_m, id_f = rb, rm, rf, b, m, f
        out[h, 0], out[h, 1], out[h, 2] = id_f, id_m, id_b
        values[h] = best_v


@nb.njit(cache=True)
def _legal_ranks_kernel(hand, rt, back_rest, strict):  # type: ignore[no-untyped-def]
    """All legal splits of one hand with the two 5-card duns unordered: ids and dun ranks."""
    r5 = np.empty(N_FIVE, dtype=np.int32)
    r3 = np.empty(N_THREE, dtype=np.int32)
    k5 = np.empty(N_FIVE, dtype=np.int32)
    k3 = np.empty(N_THREE, dtype=np.int32)
    _rank_subsets(hand, rt, r5, r3, k5, k3)
    ids = np.empty((36036, 3), dtype=np.int16)
    ranks = np.empty((36036, 3), dtype=np.int32)
    n = 0
    for b in range(N_FIVE):
        rb = r5[b]
        for j in range(back_rest.shape[1]):
            m = back_rest[b, j, 0]
            f = back_rest[b, j, 1]
            rm = r5[m]
            # A split with equal 5-card duns appears twice (either may be the back): keep one.
            if rm == rb and m < b:
                continue
            if not _legal(r3[f], rm, rb, strict):
                continue
            ids[n, 0], ids[n, 1], ids[n, 2] = f, m, b
            ranks[n, 0], ranks[n, 1], ranks[n, 2] = r3[f], rm, rb
            n += 1
    return ids[:n].copy(), ranks[:n].copy()


# --------------------------------------------------------------------------------------------
# Public API


def _as_hands(hands: npt.ArrayLike) -> tuple[np.ndarray, tuple[int, ...]]:
    rows, lead = as_card_rows(hands, HAND_SIZE, "arrange")
    # The kernels want each hand sorted by rank (card order is rank-major).
    return np.ascontiguousarray(np.sort(rows, axis=1)), lead


@dataclass(frozen=True)
class Solver:
    """Everything a search kernel needs for one variant, player count and set of tables."""

    variant: Variant
    n_players: int
    tables: WinTables
    model: PayoutModel
    q: np.ndarray
    fav: np.ndarray

    @property
    def sep(self) -> np.ndarray:
        """Separable part of the expected score per dun and class (one opponent)."""
        q = self.q
        return np.ascontiguousarray(q[..., Q_WIN] * q[..., Q_VW] - q[..., Q_LOSE] * q[..., Q_LE])

    @property
    def strict(self) -> int:
        return self.model.strict

    @property
    def rank_tables(self) -> tuple[np.ndarray, ...]:
        return rank_tables_of(self.variant)


def make_solver(
    variant: str | Variant | None, n_players: int = 4, tables: WinTables | None = None
) -> Solver:
    """A :class:`Solver` for ``variant`` (shipped tables unless ``tables`` is given)."""
    v = resolve_variant(variant)
    check_players(n_players)
    if tables is None:
        tables = default_tables(v, n_players)
    model = payout_model(v, n_players)
    model.params[P_SCOOP_RATE] = tables.scoop_rate  # a fresh model: its own params array
    q = ev_quantities(tables, model)
    return Solver(v, n_players, tables, model, q, favourable_quantities(q))


def max_ev_ids(rows: np.ndarray, solver: Solver) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Pruned max-ev search: split ids ``(n, 3)``, expected scores, splits scored per hand."""
    return max_ev_ids_many(rows, [solver])[0]


def max_ev_ids_many(
    rows: np.ndarray, solvers: Sequence[Solver]
) -> list[tuple[np.ndarray, np.ndarray, np.ndarray]]:
    """:func:`max_ev_ids` of the same hands under several solvers, in one pass over the hands.

    The solvers must share a ranking (their variants rank duns alike); the work that depends
    only on the cards is then done once per hand, not once per solver.
    """
    if not solvers:
        return []
    rt = solvers[0].rank_tables
    for solver in solvers[1:]:
        same = zip(solver.rank_tables, rt, strict=True)
        if not all(a is b or np.array_equal(a, b) for a, b in same):
            raise ValueError(
                f"max_ev_ids_many: {solver.variant.name!r} ranks duns differently from "
                f"{solvers[0].variant.name!r}; search them separately"
            )
    n = rows.shape[0]
    k = len(solvers)
    ids = np.empty((k, n, 3), dtype=np.int64)
    values = np.empty((k, n), dtype=np.float64)
    n_scored = np.empty((k, n), dtype=np.int64)
    _max_ev_kernel(
        rows, rt, BACK_MIDDLE, BACK_FRONT,
        np.stack([s.q for s in solvers]),
        np.stack([s.fav for s in solvers]),
        np.stack([s.sep for s in solvers]),
        np.stack([s.model.params for s in solvers]),
        np.array([s.strict for s in solvers], dtype=np.int64),
        ids, values, n_scored,
    )  # fmt: skip
    return [(ids[i], values[i], n_scored[i]) for i in range(k)]


def exhaustive_ids(rows: np.ndarray, solver: Solver) -> tuple[np.ndarray, np.ndarray]:
    """Max-ev by scoring all 72,072 splits: split ids ``(n, 3)`` and expected scores."""
    rt = solver.rank_tables
    n = rows.shape[0]
    ids = np.empty((n, 3), dtype=np.int64)
    values = np.empty(n, dtype=np.float64)
    _exhaustive_kernel(
        rows, rt, SPLIT_IDS,
        solver.q, solver.model.params, solver.strict, ids, values,
    )  # fmt: skip
    return ids, values


def split_values(ranks: npt.ArrayLike, solver: Solver) -> np.ndarray:
    """Expected score of splits given their dun ranks ``int32 (..., 3)`` (front, middle, back)."""
    classes = dun_classes(ranks).astype(np.int64)
    flat = classes.reshape(-1, 3)
    out = np.empty(flat.shape[0], dtype=np.float64)
    _values_kernel(flat, solver.q, solver.model.params, out)
    return out.reshape(classes.shape[:-1])


@nb.njit(cache=True)
def _values_kernel(classes, q, p, out):  # type: ignore[no-untyped-def]
    for i in range(classes.shape[0]):
        out[i] = _ev(q, p, classes[i, 0], classes[i, 1], classes[i, 2])


def legal_splits(
    hand: npt.ArrayLike, variant: str | Variant | None = None, *, strict: int | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """Legal splits of one hand, 5-card duns unordered: ``(ids int16 (n, 3), ranks int32 (n, 3))``.

    ``ids`` are (front, middle, back) subset ids (:mod:`simkit.splits`); ``ranks`` the dun ranks.
    """
    rows, lead = _as_hands(hand)
    if lead != ():
        raise ValueError(f"legal_splits takes one hand of 13 cards, got shape {np.shape(hand)}")
    v = resolve_variant(variant)
    if strict is None:
        strict = foul_strict(v)
    return _legal_ranks_kernel(rows[0], rank_tables_of(v), BACK_REST, strict)


def pareto_front(ranks: npt.ArrayLike) -> np.ndarray:
    """Boolean mask of the splits no other split beats or equals in every dun (first of equals).

    ``ranks``: ``int32 (n, 3)`` (front, middle, back).  A split is dropped when another is at
    least as strong in all three duns (of splits with identical ranks the first is kept): an
    objective that never falls when a dun gets stronger has its best on this front (Hankin
    2015).
    """
    r = np.asarray(ranks, dtype=np.int64)
    if r.ndim != 2 or r.shape[1] != 3:
        raise ValueError(f"pareto_front expects ranks of shape (n, 3), got {r.shape}")
    order = np.lexsort((np.arange(len(r)), -r[:, 0], -r[:, 1], -r[:, 2]))
    keep = np.zeros(len(r), dtype=bool)
    _pareto_kernel(r, order, keep)
    return keep


@nb.njit(cache=True)
def _pareto_kernel(r, order, keep):  # type: ignore[no-untyped-def]
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


def _ids_to_cards(rows: np.ndarray, ids: np.ndarray) -> np.ndarray:
    return np.take_along_axis(rows, split_positions(ids).astype(np.int64), axis=1)


def _objective_ids(
    rows: np.ndarray, variant: Variant, strict: int, objective: Callable
) -> np.ndarray:
    """Best split per hand for a user objective (one call per hand: a research tool)."""
    rt = rank_tables_of(variant)
    out = np.empty((rows.shape[0], 3), dtype=np.int64)
    for h in range(rows.shape[0]):
        ids, ranks = _legal_ranks_kernel(rows[h], rt, BACK_REST, strict)
        scores = np.asarray(objective(ranks), dtype=np.float64)
        if scores.shape != (ranks.shape[0],):
            raise ValueError(
                f"objective must return one score per split, shape ({ranks.shape[0]},), "
                f"got {scores.shape}"
            )
        out[h] = ids[int(np.argmax(scores))]
    return out


def _declare(
    rows: np.ndarray,
    variant: Variant,
    rule: str,
    n_players: int,
    normal_value: np.ndarray | None,
) -> np.ndarray:
    n = rows.shape[0]
    if rule == "never" or len(variant.specials) == 0:
        return np.full(n, -1, dtype=np.int8)
    from simkit.specials import best_special, detect_specials

    best = best_special(detect_specials(rows, variant))
    if rule == "always" or normal_value is None:
        return best
    payouts = np.array([r.payout for r in variant.specials.rules], dtype=np.float64)
    special_value = np.where(best >= 0, payouts[np.maximum(best, 0)] * (n_players - 1), -np.inf)
    return np.where(special_value > normal_value, best, np.int8(-1)).astype(np.int8)


def arrange(
    hands: npt.ArrayLike,
    variant: str | Variant | None = None,
    strategy: Strategy = "max-ev",
    *,
    n_players: int = 4,
    rng: RngLike = None,
    declare: Declare = "auto",
    tables: WinTables | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """Set hands into [front 3 | middle 5 | back 5]; returns ``(arranged, declared)``.

    ``arranged``: ``int8 (..., 13)``; ``declared``: ``int8 (...)``.

    ``hands``: card ints ``(..., 13)``.  ``strategy``: ``"max-ev"`` (default), ``"greedy"``,
    ``"random-legal"`` or a callable objective over ``int32 (n_splits, 3)`` dun ranks.
    ``declared`` is the index into ``variant.specials.rules`` of the special each hand declares,
    or -1.  ``declare``: ``"auto"`` declares when the special's payout from every opponent beats
    the hand's expected score played normally (max-ev; other strategies have no estimate and
    declare whenever they qualify), ``"always"`` whenever the hand qualifies, ``"never"``.
    ``n_players`` chooses the win tables and payouts; ``rng`` seeds ``random-legal``.
    ``tables`` overrides the shipped win tables.

    >>> from simkit.cards import parse_cards, format_cards
    >>> cards, declared = arrange(parse_cards("As Ks Qs Js Ts 9h 9d 9c 2h 3h 4d 5c 7s"),
    ...                           "western-2-4", "greedy")
    >>> format_cards(cards[8:])
    'T♠ J♠ Q♠ K♠ A♠'
    """
    if declare not in DECLARE_RULES:
        raise ValueError(f"declare must be one of {', '.join(DECLARE_RULES)}, got {declare!r}")
    if not callable(strategy) and strategy not in STRATEGIES:
        raise ValueError(
            f"unknown strategy {strategy!r}; choose one of {', '.join(STRATEGIES)} or pass a "
            "callable objective"
        )
    check_players(n_players)
    v = resolve_variant(variant)
    if strategy == "max-ev":
        (found,) = arrange_variants(
            [hands], [v], n_players=n_players, declare=declare, tables=[tables]
        )
        return found
    rows, lead = _as_hands(hands)
    strict = foul_strict(v)
    rt = rank_tables_of(v)
    ids = np.empty((rows.shape[0], 3), dtype=np.int64)
    if strategy == "greedy":
        _greedy_kernel(rows, rt, BACK_REST, strict, ids)
    elif strategy == "random-legal":
        seeds = as_generator(rng).integers(0, 2**63, size=rows.shape[0], dtype=np.uint64)
        _random_kernel(rows, seeds, rt, SPLIT_IDS, strict, ids)
    else:
        assert callable(strategy)
        ids = _objective_ids(rows, v, strict, strategy)
    arranged = _ids_to_cards(rows, ids).astype(np.int8)
    declared = _declare(rows, v, declare, n_players, None)
    return arranged.reshape((*lead, HAND_SIZE)), declared.reshape(lead)


def arrange_variants(
    hands: Sequence[npt.ArrayLike],
    variants: Sequence[str | Variant],
    *,
    n_players: int = 4,
    declare: Declare = "auto",
    tables: Sequence[WinTables | None] | None = None,
) -> list[tuple[np.ndarray, np.ndarray]]:
    """:func:`arrange` with ``strategy="max-ev"`` of ``hands[i]`` under ``variants[i]``, for all i.

    The answers are those of one :func:`arrange` call per variant.  Variants given equal hands
    whose duns order alike are searched in one pass over the hands, which shares the work
    that depends only on the cards: a simulation plays each deal under every variant, and for
    the shipped variants this is about twice as fast as one search per variant.
    ``tables[i]`` overrides the shipped win tables of ``variants[i]``.
    """
    if declare not in DECLARE_RULES:
        raise ValueError(f"declare must be one of {', '.join(DECLARE_RULES)}, got {declare!r}")
    if len(hands) != len(variants):
        raise ValueError(f"arrange_variants: {len(hands)} hand arrays for {len(variants)} variants")
    table_list = list(tables) if tables is not None else [None] * len(variants)
    if len(table_list) != len(variants):
        raise ValueError(
            f"arrange_variants: {len(table_list)} win tables for {len(variants)} variants"
        )
    check_players(n_players)
    resolved = [resolve_variant(v) for v in variants]
    prepared = [_as_hands(h) for h in hands]
    solvers = [make_solver(v, n_players, t) for v, t in zip(resolved, table_list, strict=True)]
    # groups: indices whose hands are equal and whose rankings share their tables
    groups: list[list[int]] = []
    for i, (rows, _) in enumerate(prepared):
        for group in groups:
            j = group[0]
            if solvers[j].rank_tables is solvers[i].rank_tables and np.array_equal(
                prepared[j][0], rows
            ):
                group.append(i)
                break
        else:
            groups.append([i])
    results: list[tuple[np.ndarray, np.ndarray]] = [None] * len(variants)  # type: ignore[list-item]
    for group in groups:
        rows = prepared[group[0]][0]
        found = max_ev_ids_many(rows, [solvers[i] for i in group])
        for i, (ids, values, _) in zip(group, found, strict=True):
            lead = prepared[i][1]
            arranged = _ids_to_cards(rows, ids).astype(np.int8)
            declared = _declare(rows, resolved[i], declare, n_players, values)
            results[i] = (arranged.reshape((*lead, HAND_SIZE)), declared.reshape(lead))
    return results
