"""钱塘 换牌 (004 （二）换牌规则): the card exchange, played before the hands are set.

004: "1. 4人游戏：每人背面放置1张牌用于交换。庄家优先查看其余三人所放之牌，可选择其中一张替换自己的
手牌；若前两张均放弃，则自动换取最后一张。随后由被换牌者继续选择，直至四人均完成换牌。
2. 3人游戏：庄家可支付1道补偿给两位闲家，换取剩余未发的13张新牌；若庄家放弃，则按顺时针顺序，闲家
可各付1道给庄家以换取新牌。"  ``[deal.exchange]`` switches it on
(:class:`~simkit.variants.rules.CardExchange`); seat 0 is the banker.

Readings taken (also written in ``qiantang.toml``):

- Four players.  The card a player puts face down is the one it gives: a chooser takes a card
  for its own face-down card ("替换自己的手牌").  "直至四人均完成换牌" (until all four have
  exchanged) needs one chain: the banker takes one of the three players' cards; the player
  whose card was taken then takes one of the two other players' cards; that player's victim
  takes the last player's card, and the last player takes the banker's card.  So each player
  takes exactly one card and gives exactly one.  "查看" is read as the chooser seeing the
  cards it may take before it takes one; "若前两张均放弃，则自动换取最后一张" as: it must take
  one (refusing the first two leaves the last).
- Three players.  The banker pays ``fee`` 道 to each of the two players and takes the 13
  undealt cards for its whole hand, face unseen ("新牌"); if it declines, the players are asked
  clockwise (seat 1, then 2) and the first who accepts pays the banker ``fee`` ("各付1道给庄家":
  each who takes them pays 1 道, to the banker) and takes them: there is one set of new cards,
  so at most one player takes them.  The hand given up leaves the game.  道 is read as one point
  of the variant's score.
- Other table sizes: 004 gives no exchange; the phase leaves the hands as dealt.

Decision policies, with the value the strategy in play sets a hand by
(:mod:`~simkit.phases.hand_value`):

- the card put face down is the card the hand can best spare (its first in
  :func:`~simkit.phases.hand_value.spare_order`);
- a chooser takes the card that gives its hand the largest value (the face-down card it gives
  leaves its hand);
- with ``reveal = "one-at-a-time"`` (the other reading of "查看 … 若前两张均放弃，则自动换取最后一
  张"), a chooser turns the cards it may take one by one, clockwise from itself, and takes a
  turned card when its hand's value with it is at least what going on is worth: with one card
  left unturned, the mean value of its hand with a card it does not see (over
  :data:`FRESH_SAMPLES` such cards, the same for every card turned); with two left, the mean
  of the larger of that and a card's value (the optimal stopping rule on those samples); the
  last card is taken if it passed the others;
- the 13 new cards are unseen, so a seat buys them when the mean value of
  :data:`FRESH_SAMPLES` imagined hands of 13 of the 39 cards it does not see, less what it pays,
  beats the value of its own hand.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from simkit.cards import HAND_SIZE
from simkit.deal import undealt
from simkit.errors import SimkitError
from simkit.phases.hand_value import Valuer, hand_values, spare_order, unseen_hands
from simkit.variants import Variant

#: Imagined hands of unseen cards on which a seat values the 13 new cards.
FRESH_SAMPLES = 8
#: The score component the exchange's fees are recorded as.
FEES = "exchange_fees"


@dataclass(frozen=True)
class Exchange:
    """What the exchange did in each game."""

    #: ``int8 (n, p, 13)``: the hands after the exchange, each sorted.
    hands: np.ndarray
    #: ``int64 (n, p)``: four players: the seat whose card each seat took; -1 otherwise.
    took_from: np.ndarray
    #: ``int64 (n,)``: three players: the seat that took the 13 new cards, -1 for none.
    bought: np.ndarray
    #: What the exchange paid, by score component (``float64 (n, p)``, rows summing to 0).
    payments: dict[str, np.ndarray] = field(default_factory=dict)


def _with_card(rest: np.ndarray, card: np.ndarray) -> np.ndarray:
    """Hands ``rest (..., 12)`` each completed by ``card (...)``, sorted."""
    return np.sort(np.concatenate([rest, card[..., None]], axis=-1), axis=-1)


def _turned_one_at_a_time(
    offered: np.ndarray,
    hand: np.ndarray,
    rest: np.ndarray,
    valuer: Valuer,
    rng: np.random.Generator,
) -> np.ndarray:
    """``int64 (n,)``: which of the ``offered`` cards (``(n, k)``, in the order they are turned)
    a chooser with ``hand`` (``(n, 13)``, sorted: what it sees) and ``rest`` (``(n, 12)``: its
    hand without the card it gives) takes, turning them one at a time (see the module)."""
    n, k = offered.shape
    values = hand_values(_with_card(np.repeat(rest[:, None], k, axis=1), offered), valuer)
    unseen = unseen_hands(hand, rng.random((n, 52 - HAND_SIZE)))[:, :FRESH_SAMPLES]
    sampled = hand_values(
        _with_card(np.repeat(rest[:, None], FRESH_SAMPLES, axis=1), unseen), valuer
    )  # (n, FRESH_SAMPLES): what an unturned card may be worth
    going_on = sampled.mean(axis=1)  # one card left unturned
    taken = np.full(n, k - 1, dtype=np.int64)  # the last, if it passed the others
    thresholds = [going_on]
    for _ in range(k - 2):
        thresholds.append(np.maximum(sampled, thresholds[-1][:, None]).mean(axis=1))
    # thresholds[m]: what going on is worth with m + 1 cards left unturned
    undecided = np.ones(n, dtype=bool)
    for turned in range(k - 1):
        take = undecided & (values[:, turned] >= thresholds[k - 2 - turned])
        taken[take] = turned
        undecided &= ~take
    return taken


def exchange_four(
    hands: np.ndarray,
    valuer: Valuer,
    reveal: str = "all",
    rng: np.random.Generator | None = None,
) -> Exchange:
    """The four-player exchange (004 （二）1) on hands ``int8 (n, 4, 13)``; ``reveal``: the
    cards offered are seen together (``"all"``) or turned one at a time (``"one-at-a-time"``,
    which draws from ``rng``)."""
    if reveal not in ("all", "one-at-a-time"):
        raise SimkitError(f"exchange reveal must be 'all' or 'one-at-a-time', got {reveal!r}")
    if reveal == "one-at-a-time" and rng is None:
        raise SimkitError("the one-at-a-time exchange draws the cards a chooser imagines: pass rng")
    n, p, _ = hands.shape
    order, _ = spare_order(hands, valuer)
    placed_at = order[..., :1]  # (n, 4, 1)
    placed = np.take_along_axis(hands, placed_at, axis=2)[..., 0]  # (n, 4)
    keep = np.ones(hands.shape, dtype=bool)
    np.put_along_axis(keep, placed_at, False, axis=2)
    rest = hands[keep].reshape(n, p, HAND_SIZE - 1)
    games = np.arange(n)
    # the banker takes one of the three players' cards, the best for its hand
    if reveal == "all":
        banker_options = _with_card(np.repeat(rest[:, :1], 3, axis=1), placed[:, 1:])
        first = 1 + np.argmax(hand_values(banker_options, valuer), axis=1)
    else:
        assert rng is not None
        first = 1 + _turned_one_at_a_time(placed[:, 1:], hands[:, 0], rest[:, 0], valuer, rng)
    # the player robbed takes one of the two other players' cards (clockwise from it)
    others = np.stack([first % 3 + 1, (first + 1) % 3 + 1], axis=1)  # (n, 2)
    if reveal == "all":
        mine = np.repeat(rest[games, first][:, None], 2, axis=1)
        pick = np.argmax(hand_values(_with_card(mine, placed[games[:, None], others]), valuer), 1)
    else:
        assert rng is not None
        pick = _turned_one_at_a_time(
            placed[games[:, None], others], hands[games, first], rest[games, first], valuer, rng
        )
    second = others[games, pick]
    third = others[games, 1 - pick]
    took_from = np.empty((n, p), dtype=np.int64)
    took_from[:, 0] = first
    took_from[games, first] = second
    took_from[games, second] = third
    took_from[games, third] = 0  # the last player takes the banker's card
    received = np.take_along_axis(placed, took_from, axis=1)
    out = _with_card(rest, received).astype(np.int8)
    return Exchange(out, took_from, np.full(n, -1, dtype=np.int64))


def fresh_values(hands: np.ndarray, valuer: Valuer, rng: np.random.Generator) -> np.ndarray:
    """``float64 (n, p)``: each seat's mean value of :data:`FRESH_SAMPLES` hands of 13 cards
    drawn from the 39 it does not see (what 13 unseen new cards are worth to it)."""
    n, p, _ = hands.shape
    draws = rng.random((n, p, FRESH_SAMPLES, 52 - HAND_SIZE))
    flat = hands.reshape(n * p, HAND_SIZE)
    return _fresh(flat, draws.reshape(n * p, FRESH_SAMPLES, -1), valuer).reshape(n, p)


def _fresh(hands: np.ndarray, draws: np.ndarray, valuer: Valuer) -> np.ndarray:
    """``float64 (m,)``: the mean value of the hands ``draws`` (``(m, K, 39)`` uniforms) imagine
    from the cards each of ``hands`` (``int8 (m, 13)``) does not see."""
    m, k, width = draws.shape
    if m == 0:  # nobody asked
        return np.zeros(0)
    flat = np.repeat(hands, k, axis=0)
    imagined = unseen_hands(flat, draws.reshape(m * k, width))[:, :HAND_SIZE]
    return hand_values(imagined.reshape(m, k, HAND_SIZE), valuer).mean(axis=1)


def exchange_three(
    hands: np.ndarray, fee: float, valuer: Valuer, rng: np.random.Generator
) -> Exchange:
    """The three-player exchange (004 （二）2) on hands ``int8 (n, 3, 13)``.

    A seat is valued only where it is asked (the banker always; a player where every seat
    before it declined), on numbers drawn for every seat whatever is decided: the decisions of
    :func:`fresh_values` for all seats, at a fraction of the searches."""
    n, p, _ = hands.shape
    new_cards = undealt(hands)
    draws = rng.random((n, p, FRESH_SAMPLES, 52 - HAND_SIZE))  # as fresh_values draws them
    bought = np.full(n, -1, dtype=np.int64)
    for seat in range(p):  # the banker, then clockwise after it declines
        ask = np.flatnonzero(bought < 0)
        own = hand_values(hands[ask, seat], valuer)
        fresh = _fresh(hands[ask, seat], draws[ask, seat], valuer)
        pays = fee * (p - 1) if seat == 0 else fee
        bought[ask[fresh - pays > own]] = seat
    out = hands.copy()
    rows = np.flatnonzero(bought >= 0)
    out[rows, bought[rows]] = new_cards[rows]
    fees = np.zeros((n, p))
    banker = bought == 0
    fees[banker, 0] = -fee * (p - 1)
    fees[banker, 1:] = fee
    player = np.flatnonzero(bought > 0)
    fees[player, 0] = fee
    fees[player, bought[player]] = -fee
    took_from = np.full((n, p), -1, dtype=np.int64)
    return Exchange(out, took_from, bought, {FEES: fees})


def play_exchange(
    hands: np.ndarray, variant: Variant, valuer: Valuer, rng: np.random.Generator
) -> Exchange:
    """The ``[deal.exchange]`` phase of ``variant`` on sorted hands ``int8 (n, p, 13)``."""
    n, p, _ = hands.shape
    rules = variant.deal.exchange
    if rules.play and p == 4:
        return exchange_four(hands, valuer, rules.reveal, rng)
    if rules.play and p == 3:
        return exchange_three(hands, rules.fee, valuer, rng)
    return Exchange(hands, np.full((n, p), -1, np.int64), np.full(n, -1, np.int64))
