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
    the player knows), ``"after"`` it when its result ``r < -cost``, ``"both"``: before, else
    after; with ``by = "both"`` the banker then surrenders to the player on the same rule, and
    with ``to = "any"`` (all-pairs tables) two players may too, before the comparison on each
    one's expected score per opponent.  The component is ``∓cost - r``.

A pair that settles or surrenders before the comparison skips it (004 "跳过比牌直接结算"): the
games that hold one are scored again with those pairs left out (:func:`simkit.score.score`
``skipped=``), so a player that did not beat every other player in a comparison scores no 全垒打
over the pairs it did compare.  The change that makes to the scores joins the component of the
phase that skipped the pair (settled pairs first, then surrendered ones), with what the pair
paid in place of the comparison.  What a surrendered-after pair's comparison paid, ``r``, is the
scorer's pairwise output (:func:`simkit.score.score` ``pairs=``) as played: dun points, bonuses,
majority, 打枪, the pair's share of a 全垒打 and its 马牌 duns.  The rest of the table compares as
usual.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from simkit.arrange import DEFAULT_STRATEGY, Arrangement
from simkit.errors import SimkitError
from simkit.phases.expected import (
    ExpectedScore,
    calibration_deals,
    expected_score,
    hand_values,
    pair_results,
)
from simkit.score import score
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
    #: ``bool (n, p, p)``: the pairs that skipped the comparison (settled, or surrendered
    #: before it), both ways.
    skipped: np.ndarray
    #: ``bool (n, p, p)``: [g, i, j] where i surrendered to j (抛牌), before or after.
    gave: np.ndarray
    #: ``float (n, p, p)``: what i won from j in the comparison as played, the pairs that
    #: skipped it left out (zeros); ``pairs`` as given where no pair skipped.
    pairs: np.ndarray


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


def _rescored(
    play: Arrangement, variant: Variant, rows: np.ndarray, skipped: np.ndarray | None
) -> tuple[np.ndarray, np.ndarray]:
    """``(total (k, p), pairs (k, p, p))`` of the games ``rows`` scored with the pairs
    ``skipped`` (``(k, p, p)``, None: none) left out of the comparison."""
    k, p = rows.size, play.declared.shape[1]
    pairs = np.zeros((k, p, p), dtype=np.float64)
    masks = play.special_masks
    total = score(
        play.cards[rows],
        variant,
        declared=play.declared[rows],
        ranks=None if play.ranks is None else play.ranks[rows],
        special_masks=None if masks is None else masks[rows],
        pairs=pairs,
        skipped=skipped,
    )
    return np.asarray(total, dtype=np.float64), pairs


def _transfers(amount: np.ndarray) -> np.ndarray:
    """``float (n, p)``: each player's net receipt from ``amount[g, i, j]``, what j pays i."""
    return amount.sum(axis=2) - amount.sum(axis=1)


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

    ``pairs``: ``float (n, p, p)`` what i wins from j when every pair compares
    (:func:`simkit.score.score` ``pairs=``); ``expected``: the conditional expected scores;
    ``value``: ``float (n, p)`` the hands' values (default
    :func:`~simkit.phases.expected.hand_values`); ``bid``: the bid of each seat.

    A pair that settles (谈判) or surrenders before the comparison skips it: the games that
    hold one are scored again with those pairs left out (:func:`simkit.score.score`
    ``skipped=``), so that a player who did not compare with everybody scores no 全垒打 over
    the others, and the difference joins the phase's component with what the pair settled for.
    """
    rules = variant.phases if phases is None else phases
    if rules.surrender.enabled and rules.surrender.to == "any":
        if variant.scoring.topology == "banker":
            raise SimkitError(
                f"{variant.name}: [phases.surrender] to = 'any' needs the players to compare "
                "with one another (topology = 'all-pairs'); at a banker table only the banker "
                "is an opponent"
            )
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
    skip_settled = np.zeros((n, p, p), dtype=bool)
    skip_settled[:, 0, 1:] = settled
    skip_settled[:, 1:, 0] = settled
    # 抛牌: gave[g, i, j] where i surrendered to j (one surrender a pair, "你无法再抛牌")
    sur = rules.surrender
    gave = np.zeros((n, p, p), dtype=bool)
    if sur.enabled and sur.when in ("before", "both"):
        mine = np.zeros((n, p, p))  # what i expects from j, for the pairs that may surrender
        mine[:, 1:, 0] = e_p
        mine[:, 0, 1:] = e_b
        if sur.to == "any":
            table = expected.vs_table(value, declared)
            mine[:, 1:, 1:] = table[:, 1:, None]
        _surrenders(gave, mine, skip_settled, sur.cost, sur.by, sur.to)
    skipped = skip_settled | gave | gave.transpose(0, 2, 1)
    rows = np.flatnonzero(skipped.any(axis=(1, 2)))
    total_0 = total_s = total_sg = np.zeros((0, p))
    pairs_now = pairs
    if rows.size:
        total_0, _ = _rescored(play, variant, rows, None)
        total_s, _ = _rescored(play, variant, rows, skip_settled[rows])
        total_sg, pairs_sg = _rescored(play, variant, rows, skipped[rows])
        pairs_now = pairs.copy()
        pairs_now[rows] = pairs_sg
    if sur.enabled and sur.when in ("after", "both"):
        before = gave.copy()
        _surrenders(gave, pairs_now, skipped, sur.cost, sur.by, sur.to)
        after = gave & ~before
    else:
        after = np.zeros_like(gave)
    surrendered = gave[:, 1:, 0].astype(np.int8) - gave[:, 0, 1:].astype(np.int8)
    payments: dict[str, np.ndarray] = {}
    if rules.bidding.enabled:
        payments["bidding"] = bid_payments(rules.bidding, bid, n, p)
    if neg.enabled:
        out = np.zeros((n, p))
        out[rows] += total_s - total_0  # the settled pairs out of the comparison
        out[:, 1:] += amount  # ... and X in its place
        out[:, 0] -= amount.sum(axis=1)
        payments["negotiation"] = out
    if sur.enabled:
        out = np.zeros((n, p))
        out[rows] += total_sg - total_s  # the pairs surrendered before it out of it
        # the surrenderer pays the cost: what j pays i is the cost where j gave to i, and
        # where the pair compared first it no longer pays its result (pairs_now[j, i])
        owed = sur.cost * gave.transpose(0, 2, 1)
        result = np.where(after, pairs_now, 0.0)
        out += _transfers(owed) - _transfers(result)
        payments["surrender"] = out + 0.0
    return Settlement(
        settled, amount, surrendered, compared, bid, payments, skipped, gave, pairs_now
    )


def _surrenders(
    gave: np.ndarray,
    expects: np.ndarray,
    closed: np.ndarray,
    cost: float,
    by: str,
    to: str,
) -> None:
    """Mark in ``gave`` (``bool (n, p, p)``, in place) who surrenders to whom: i to j where
    ``expects[g, i, j] < -cost`` in a pair that may (a player with the banker; with ``by =
    "both"`` the banker with a player too; with ``to = "any"`` two players) and that neither
    ``closed`` (settled, skipped) nor already surrendered.  Players first, in seat order, then
    the banker: a pair surrenders once."""
    p = gave.shape[1]
    open_ = ~(closed | gave | gave.transpose(0, 2, 1))
    order = [(i, 0) for i in range(1, p)]
    if to == "any":
        order += [(i, j) for i in range(1, p) for j in range(1, p) if i != j]
    if by == "both":
        order += [(0, j) for j in range(1, p)]
    for i, j in order:
        now = open_[:, i, j] & (expects[:, i, j] < -cost)
        gave[:, i, j] |= now
        open_[:, i, j] &= ~now
        open_[:, j, i] &= ~now


@lru_cache(maxsize=16)
def fair_bid(
    variant: Variant, n_players: int, strategy: str = DEFAULT_STRATEGY
) -> tuple[float, float]:
    """``(edge, se)``: the banker's mean score per game on the calibration deals under the
    variant's negotiation and surrender (bidding off), and its standard error: what the
    banker's seat is worth, so the bid that leaves a seat indifferent (see the module).  With
    ``[phases.bidding] fees = "counted"`` (the default) what the seat pays and receives in
    换牌's fees counts toward it; ``"dropped"`` leaves them out."""
    deals = calibration_deals(variant, n_players, strategy)
    expected = expected_score(variant, n_players, strategy)
    found = settle(deals.play, variant, deals.pairs, expected, value=deals.value)
    fees = deals.fees[:, 0] if variant.phases.bidding.fees == "counted" else 0.0
    banker = (
        deals.total[:, 0]
        + fees
        + sum(
            (pay[:, 0] for name, pay in found.payments.items() if name != "bidding"),
            np.zeros(deals.total.shape[0]),
        )
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
