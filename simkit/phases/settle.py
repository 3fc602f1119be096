"""The phases that move points around the comparison (004 钱塘): 抢庄, 谈判 and 抛牌.

Seat 0 is the banker.  Each phase is read from the variant's ``[phases]`` section
(:class:`~simkit.variants.rules.Phases`) and pays a score component of its own, zero-sum in
every game (:func:`simkit.phases.add_payments` joins them to the scores):

``bidding`` (抢庄)
    Bids are sealed and made before the deal, so every seat bids alike and the banker's seat
    (seat 0, which wins ties) pays its bid: each player receives an equal share in whole units,
    the remainder returns to the banker (``pot = "all"``: every seat pays its bid and the pot is
    shared so).  A seat's bid is the fair bid, the banker's edge per game under the variant's
    other phases (:func:`fair_bid`), rounded down to whole units, unless the file fixes one.
    Bidding the fair bid leaves a seat indifferent between winning and losing: with banker edge
    ``e`` and the players' ``-e/(p-1)``, winning at bid b gives ``e - b``, losing
    ``-e/(p-1) + b/(p-1)``, equal at ``b = e``.
``negotiation`` (谈判)
    After setting, the banker and each player settle for X (what the player receives) when a
    whole unit X lies in ``[e_p + margin, -e_b - margin]``, ``e_p`` being the player's expected
    points from the banker given its own hand and ``e_b`` the banker's from one player given
    its own (:mod:`simkit.phases.expected`): each side then gains at least ``margin`` in its own
    estimate.  X is the whole unit nearest the midpoint (split the difference).  The component
    is ``X - r`` for the player, ``r`` being what their comparison paid it.
``surrender`` (抛牌)
    A pair that did not settle: the player surrenders, paying ``cost`` to the banker in place of
    their comparison, ``"before"`` it when ``e_p < -cost`` (risk-neutral best response on what
    the player knows), ``"after"`` it when its result ``r < -cost``; with ``by = "both"`` the
    banker then surrenders to the player on the same rule.  The component is ``∓cost - r``.

What a settled or surrendered pair's comparison paid, ``r``, is the scorer's pairwise output
(:func:`simkit.score.score` ``pairs=``): dun points, bonuses, majority, 打枪, the pair's share of a
全垒打 and its 马牌 duns.  The rest of the table compares as usual.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from simkit.arrange import DEFAULT_STRATEGY, Arrangement
from simkit.phases.expected import (
    ExpectedScore,
    calibration_deals,
    expected_score,
    hand_values,
    pair_results,
)
from simkit.variants import Variant
from simkit.variants.rules import Bidding, Phases

#: The component names the phases pay under, in the order they are played.
PHASE_COMPONENTS = ("bidding", "negotiation", "surrender")


@dataclass(frozen=True)
class Settlement:
    """What the phases did in each game: ``(n, p - 1)`` arrays over the players (seat j+1)."""

    #: True where the banker and the player settled (谈判).
    settled: np.ndarray
    #: What the player received by settling (0 where not settled).
    amount: np.ndarray
    #: +1 where the player surrendered, -1 where the banker surrendered to it, else 0 (抛牌).
    surrendered: np.ndarray
    #: What their comparison paid the player (``pairs[:, j, 0]``).
    compared: np.ndarray
    #: The bid the banker's seat paid.
    bid: float
    #: Component name → ``float (n, p)`` payments, the enabled phases only.
    payments: dict[str, np.ndarray]


def _whole(x: np.ndarray | float, unit: float, how: str) -> np.ndarray:
    return np.asarray(getattr(np, how)(np.asarray(x) / unit) * unit, dtype=np.float64)


def bid_payments(rules: Bidding, bid: float, n_games: int, n_players: int) -> np.ndarray:
    """``float (n, p)``: the banker's seat (0) bought at ``bid`` (see the module)."""
    p = n_players
    out = np.zeros((n_games, p))
    if rules.pot == "winner":
        share = float(_whole(bid / (p - 1), rules.unit, "floor"))
        out[:, 1:] = share
        out[:, 0] = -share * (p - 1)
    else:
        share = float(_whole(p * bid / (p - 1), rules.unit, "floor"))
        out[:, 1:] = share - bid
        out[:, 0] = -(share - bid) * (p - 1)
    return out


def settle(
    play: Arrangement,
    variant: Variant,
    pairs: np.ndarray,
    expected: ExpectedScore,
    *,
    value: np.ndarray | None = None,
    bid: float = 0.0,
    phases: Phases | None = None,
) -> Settlement:
    """Play the phases of ``phases`` (default: the variant's) on arranged games.

    ``pairs``: ``float (n, p, p)`` what i wins from j (:func:`simkit.score.score` ``pairs=``);
    ``expected``: the conditional expected scores; ``value``: ``float (n, p)`` the hands' values
    (default :func:`~simkit.phases.expected.hand_values`); ``bid``: the bid of each seat.
    """
    rules = variant.phases if phases is None else phases
    n, p = play.declared.shape
    if value is None:
        value = hand_values(play, variant, p)
    declared = play.declared
    e_p = expected.player_vs_banker(value[:, 1:], declared[:, 1:])
    e_b = np.broadcast_to(expected.banker_vs_player(value[:, :1], declared[:, :1]), e_p.shape)
    compared = pairs[:, 1:, 0]
    # 谈判
    neg = rules.negotiation
    settled = np.zeros(e_p.shape, dtype=bool)
    amount = np.zeros(e_p.shape)
    if neg.enabled:
        lo = e_p + neg.margin  # the least the player accepts
        hi = -e_b - neg.margin  # the most the banker pays
        lo_u = _whole(lo, neg.unit, "ceil")
        hi_u = _whole(hi, neg.unit, "floor")
        settled = lo_u <= hi_u
        mid = _whole((lo + hi) / 2, neg.unit, "round")
        amount = np.where(settled, np.clip(mid, lo_u, hi_u), 0.0) + 0.0  # no -0.0
    # 抛牌
    sur = rules.surrender
    surrendered = np.zeros(e_p.shape, dtype=np.int8)
    if sur.enabled:
        mine, theirs = (e_p, e_b) if sur.when == "before" else (compared, -compared)
        surrendered[(mine < -sur.cost) & ~settled] = 1
        if sur.by == "both":
            surrendered[(theirs < -sur.cost) & ~settled & (surrendered == 0)] = -1
    payments: dict[str, np.ndarray] = {}
    if rules.bidding.enabled:
        payments["bidding"] = bid_payments(rules.bidding, bid, n, p)
    for name, enabled, where, replaced in (
        ("negotiation", neg.enabled, settled, amount),
        ("surrender", sur.enabled, surrendered != 0, -sur.cost * surrendered),
    ):
        if enabled:
            to_player = np.where(where, replaced - compared, 0.0)
            out = np.zeros((n, p))
            out[:, 1:] = to_player
            out[:, 0] = -to_player.sum(axis=1)
            payments[name] = out
    return Settlement(settled, amount, surrendered, compared, bid, payments)


@lru_cache(maxsize=16)
def fair_bid(
    variant: Variant, n_players: int, strategy: str = DEFAULT_STRATEGY
) -> tuple[float, float]:
    """``(edge, se)``: the banker's mean score per game on the calibration deals under the
    variant's negotiation and surrender (bidding off), and its standard error: what the
    banker's seat is worth, so the bid that leaves a seat indifferent (see the module)."""
    deals = calibration_deals(variant, n_players, strategy)
    expected = expected_score(variant, n_players, strategy)
    found = settle(deals.play, variant, deals.pairs, expected, value=deals.value)
    banker = deals.total[:, 0] + sum(
        (pay[:, 0] for name, pay in found.payments.items() if name != "bidding"),
        np.zeros(deals.total.shape[0]),
    )
    return float(banker.mean()), float(banker.std(ddof=1) / np.sqrt(banker.size))


def seat_bid(variant: Variant, n_players: int, strategy: str = DEFAULT_STRATEGY) -> float:
    """What each seat bids for the banker's seat: the file's bid, else the fair bid rounded
    down to whole units, never below 0."""
    rules = variant.phases.bidding
    if rules.bid is not None:
        return float(rules.bid)
    edge, _ = fair_bid(variant, n_players, strategy)
    return float(_whole(max(edge, 0.0), rules.unit, "floor"))


def settle_payments(
    play: Arrangement, variant: Variant, n_players: int, strategy: str = DEFAULT_STRATEGY
) -> dict[str, np.ndarray]:
    """The payments of the variant's enabled ``[phases]`` on one block of arranged games
    (empty when none is enabled): what :func:`simkit.simulate.play_block` adds to the scores."""
    if not variant.phases.any_enabled:
        return {}
    _, pairs = pair_results(play, variant)
    expected = expected_score(variant, n_players, strategy)
    bid = seat_bid(variant, n_players, strategy) if variant.phases.bidding.enabled else 0.0
    return settle(play, variant, pairs, expected, bid=bid).payments
