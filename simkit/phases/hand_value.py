"""What the decision phases know of a hand: the value that the strategy in play sets it by, and
which of its cards it can best spare.

The phases that change hands before they are set (:mod:`~simkit.phases.passing`,
:mod:`~simkit.phases.exchange`) decide with a *valuer*: a :class:`HandValue`, the strategy in
play (the run's, :data:`~simkit.arrange.DEFAULT_STRATEGY` unless told otherwise), so that the
player who passes or exchanges is the one who then sets the hand; or a bare
:class:`~simkit.arrange.Solver`, max-ev's search on those tables (the earlier model, kept for
research and tests).  A hand's value is the strategy's own estimate of the split it plays, the
expected score against opponents who play the same way (:mod:`simkit.arrange.value`); a
strategy that keeps no estimate (greedy, random-legal) has its split valued by max-ev's model.

Which cards a hand spares is a cheap proxy computed from the split the valuer sets it by, not
a search over the 286 three-card passes (each would need the value of a hand whose new cards
are still unknown): a card that its dun does not use for its category (a kicker or a high card:
outside the pair, two pair, trips or quads of its dun; straights, flushes, full houses and
straight flushes use all five) is *free*.  Free cards go first, lowest rank first (ties by
suit), then the cards that make a category, lowest first.  The proxy ignores special hands
(报到): passing a card of a six-pairs hand breaks it.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import TypeAlias

import numpy as np

from simkit.arrange import (
    DEFAULT_STRATEGY,
    MaxEV,
    Solver,
    Strategy,
    StrategyLike,
    WinTables,
    as_strategy,
    make_solver,
    max_ev_ids,
    split_values,
)
from simkit.cards import HAND_SIZE
from simkit.errors import SimkitError
from simkit.evaluate import CATEGORY_SHIFT, Category, dun_ranks
from simkit.splits import split_positions
from simkit.variants import Variant

#: Categories whose five cards all make the category (a free card can only be a kicker).
_WHOLE = np.zeros(len(Category), dtype=bool)
_WHOLE[[Category.STRAIGHT, Category.FLUSH, Category.FULL_HOUSE, Category.STRAIGHT_FLUSH,
        Category.FIVE_OF_A_KIND]] = True  # fmt: skip
#: The dun of each position of an arranged hand [front 3 | middle 5 | back 5].
_DUN_OF = np.array([0] * 3 + [1] * 5 + [2] * 5)


@dataclass(frozen=True, eq=False)
class HandValue:
    """The strategy in play as the phases ask it: how it sets a hand and what it says the hand
    is worth (:func:`strategy_value` builds one).

    ``strategy`` sets hands of ``variant`` at ``n_players`` seats; ``rng`` feeds a strategy
    that draws (random-legal), so that the phases' decisions repeat for a seed.
    """

    variant: Variant
    n_players: int
    strategy: Strategy
    rng: np.random.Generator | None = None

    def choose(self, rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """``(ids int64 (m, 3), values float64 (m,))``: the split the strategy sets each of the
        sorted hands ``rows`` (``int8 (m, 13)``) by, and its value of it."""
        ids, values = self.strategy.choose_splits(
            rows, self.variant, n_players=self.n_players, rng=self.rng
        )
        ids = np.asarray(ids, dtype=np.int64)
        if values is None:  # a strategy without an estimate: max-ev's value of its split
            cards = np.take_along_axis(rows, split_positions(ids).astype(np.int64), axis=1)
            ranks = dun_ranks(cards, self.variant)
            values = split_values(ranks, _max_ev_solver(self.variant, self.n_players))
        return ids, np.asarray(values, dtype=np.float64)


#: What the phases value hands with: the strategy in play, or max-ev's search on a solver.
Valuer: TypeAlias = HandValue | Solver


@lru_cache(maxsize=8)
def _max_ev_solver(variant: Variant, n_players: int) -> Solver:
    return make_solver(variant, n_players)


def strategy_value(
    variant: Variant,
    n_players: int,
    strategy: StrategyLike = DEFAULT_STRATEGY,
    tables: WinTables | None = None,
    rng: np.random.Generator | None = None,
) -> HandValue:
    """The valuer of ``strategy`` (a name or a strategy) for ``variant`` at ``n_players``,
    on ``tables`` where given (as :func:`~simkit.arrange.arrangements` plays them: max-ev and
    expected-score only).  Raises :class:`~simkit.errors.SimkitError` for an unknown
    strategy."""
    chosen = as_strategy(strategy)
    if tables is not None and isinstance(chosen, MaxEV):
        chosen = chosen.with_tables(tables)
    return HandValue(variant, n_players, chosen, rng)


def _rows(hands: np.ndarray) -> np.ndarray:
    """Hands ``(..., 13)`` as sorted contiguous ``int8`` rows ``(m, 13)`` for the search."""
    return np.ascontiguousarray(np.sort(hands.reshape(-1, HAND_SIZE), axis=1), dtype=np.int8)


def _choose(rows: np.ndarray, valuer: Valuer) -> tuple[np.ndarray, np.ndarray]:
    if isinstance(valuer, HandValue):
        return valuer.choose(rows)
    ids, values, _ = max_ev_ids(rows, valuer)
    return ids, values


def hand_values(hands: np.ndarray, valuer: Valuer) -> np.ndarray:
    """``float64 (...)``: the valuer's value of each hand ``(..., 13)`` set its way."""
    if hands.size == 0:
        return np.zeros(hands.shape[:-1])
    _, values = _choose(_rows(hands), valuer)
    return values.reshape(hands.shape[:-1])


def spare_order(hands: np.ndarray, valuer: Valuer) -> tuple[np.ndarray, np.ndarray]:
    """Each hand's positions, the card it can best spare first, and the hand's value.

    ``hands``: sorted hands ``int8 (..., 13)``.  Returns ``(order int64 (..., 13), values
    float64 (...))``: ``order[..., 0]`` is the position (in the sorted hand) of the first card
    to give away (see the module's note: free cards lowest first, then made cards).
    """
    rows = _rows(hands)
    ids, values = _choose(rows, valuer)
    positions = split_positions(ids).astype(np.int64)  # (m, 13) dun order → sorted position
    cards = np.take_along_axis(rows, positions, axis=1)
    category = dun_ranks(cards, valuer.variant) >> CATEGORY_SHIFT  # (m, 3)
    rank = cards.astype(np.int64) >> 2
    same = np.zeros(cards.shape, dtype=np.int64)
    for lo, hi in ((0, 3), (3, 8), (8, 13)):
        seg = rank[:, lo:hi]
        same[:, lo:hi] = (seg[:, :, None] == seg[:, None, :]).sum(axis=2)
    made = (same >= 2) | _WHOLE[category[:, _DUN_OF]]
    key = made * 64 + cards  # card ints are rank-major: lowest rank (then suit) first
    order = np.take_along_axis(positions, np.argsort(key, axis=1, kind="stable"), axis=1)
    return order.reshape(hands.shape), values.reshape(hands.shape[:-1])


def unseen_hands(hand: np.ndarray, draws: np.ndarray) -> np.ndarray:
    """Hands of other cards, as the holder of ``hand`` may imagine them: ``draws`` picks them.

    ``hand``: ``int8 (n, 13)``, sorted; ``draws``: ``float (n, 52 d - 13)`` uniform numbers for
    a pack of ``d`` decks (``d`` read from the width), whose order deals the cards this hand
    does not see (the other copy of a card it holds included, with two decks).  Returns
    ``int8 (n, 52 d - 13)``, the unseen cards in that random order (take consecutive runs of
    13 for hands).
    """
    n = hand.shape[0]
    decks = (draws.shape[1] + HAND_SIZE) // 52
    if decks * 52 - HAND_SIZE != draws.shape[1] or decks not in (1, 2):
        raise SimkitError(f"unseen_hands: {draws.shape[1]} draws fit no pack of 52 or 104 cards")
    # a physical card is card + 52 * copy; the second of two equal cards in a hand is copy 1
    copy = np.zeros(hand.shape, dtype=np.int64)
    copy[:, 1:] = hand[:, 1:] == hand[:, :-1]
    seen = np.zeros((n, 52 * decks), dtype=bool)
    np.put_along_axis(seen, hand.astype(np.int64) + 52 * copy, True, axis=1)
    unseen = np.nonzero(~seen)[1].reshape(n, 52 * decks - HAND_SIZE) % 52
    return np.take_along_axis(unseen, np.argsort(draws, axis=1), axis=1).astype(np.int8)
