"""What the decision phases know of a hand: the max-ev strategy's own value of it, and which of
its cards it can best spare.

The phases that change hands before they are set (:mod:`~simkit.phases.passing`,
:mod:`~simkit.phases.exchange`) decide with these, whatever strategy then sets the hands: the
max-ev search is the one strategy that values a hand (its expected score against opponents who
play the same way, :mod:`simkit.arrange.value`).

Which cards a hand spares is a cheap proxy computed from its max-ev arrangement, not a search
over the 286 three-card passes (each would need the value of a hand whose new cards are still
unknown): the hand is set as max-ev sets it, and a card that its dun does not use for its
category (a kicker or a high card: outside the pair, two pair, trips or quads of its dun;
straights, flushes, full houses and straight flushes use all five) is *free*.  Free cards go
first, lowest rank first (ties by suit), then the cards that make a category, lowest first.
The proxy ignores special hands (报到): passing a card of a six-pairs hand breaks it.
"""

from __future__ import annotations

import numpy as np

from simkit.arrange import Solver, max_ev_ids
from simkit.cards import HAND_SIZE
from simkit.errors import SimkitError
from simkit.evaluate import CATEGORY_SHIFT, Category, dun_ranks
from simkit.splits import split_positions

#: Categories whose five cards all make the category (a free card can only be a kicker).
_WHOLE = np.zeros(len(Category), dtype=bool)
_WHOLE[[Category.STRAIGHT, Category.FLUSH, Category.FULL_HOUSE, Category.STRAIGHT_FLUSH,
        Category.FIVE_OF_A_KIND]] = True  # fmt: skip
#: The dun of each position of an arranged hand [front 3 | middle 5 | back 5].
_DUN_OF = np.array([0] * 3 + [1] * 5 + [2] * 5)


def _rows(hands: np.ndarray) -> np.ndarray:
    """Hands ``(..., 13)`` as sorted contiguous ``int8`` rows ``(m, 13)`` for the search."""
    return np.ascontiguousarray(np.sort(hands.reshape(-1, HAND_SIZE), axis=1), dtype=np.int8)


def hand_values(hands: np.ndarray, solver: Solver) -> np.ndarray:
    """``float64 (...)``: max-ev's expected score of each hand ``(..., 13)`` set its best way."""
    _, values, _ = max_ev_ids(_rows(hands), solver)
    return values.reshape(hands.shape[:-1])


def spare_order(hands: np.ndarray, solver: Solver) -> tuple[np.ndarray, np.ndarray]:
    """Each hand's positions, the card it can best spare first, and the hand's value.

    ``hands``: sorted hands ``int8 (..., 13)``.  Returns ``(order int64 (..., 13), values
    float64 (...))``: ``order[..., 0]`` is the position (in the sorted hand) of the first card
    to give away (see the module's note: free cards lowest first, then made cards).
    """
    rows = _rows(hands)
    ids, values, _ = max_ev_ids(rows, solver)
    positions = split_positions(ids).astype(np.int64)  # (m, 13) dun order → sorted position
    cards = np.take_along_axis(rows, positions, axis=1)
    category = dun_ranks(cards, solver.variant) >> CATEGORY_SHIFT  # (m, 3)
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
