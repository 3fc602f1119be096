"""The specials that depend on the exact cards (至尊清龙, 三同花顺) in any pack: their
completed hands listed and reduced to the natural card sets they come from."""

from __future__ import annotations

from collections.abc import Iterator
from itertools import combinations_with_replacement

import numpy as np

from simkit.cards import N_RANKS
from simkit.errors import SimkitError
from simkit.exact_decks.shapes import (
    DeckShape,
)
from simkit.exact_decks.suits import (
    SUIT_TESTS,
)
from simkit.specials import (
    five_straights,
    front_straights,
)
from simkit.variants import SpecialRule
from simkit.variants.special_kinds import ExactMethod, SpecialCode, SpecialKind


def _card(shape: DeckShape, rank: int, suit: int) -> int:
    """A card type (rank, suit) as an int, rank-major; a hand is a multiset of them."""
    return shape.n_suits * rank + suit


def clean_dragon_completions(shape: DeckShape, rule: SpecialRule) -> Iterator[tuple[int, ...]]:
    """Every completed hand (sorted card types) of A-K in one suit the rule accepts."""
    suits = [3] if rule.option("suits") == "spades" else range(shape.n_suits)
    for s in suits:
        yield tuple(_card(shape, r, s) for r in range(N_RANKS))


def straight_flush_completions(shape: DeckShape, rule: SpecialRule) -> Iterator[tuple[int, ...]]:
    """Every completed hand (sorted card types, a card up to three times) of a front and two
    5-card straight flushes."""
    fronts = [
        tuple(_card(shape, r, s) for r in ranks)
        for ranks in front_straights(rule.option("front_qka"), rule.option("front_a23"))
        for s in range(shape.n_suits)
    ]
    fives = [
        tuple(_card(shape, r, s) for r in ranks)
        for ranks in five_straights()
        for s in range(shape.n_suits)
    ]
    seen: set[tuple[int, ...]] = set()
    for f in fronts:
        for a, b in combinations_with_replacement(fives, 2):
            hand = tuple(sorted(f + a + b))
            if hand not in seen:
                seen.add(hand)
                yield hand


CARD_COMPLETIONS = {
    SpecialCode.CLEAN_DRAGON: clean_dragon_completions,
    SpecialCode.THREE_STRAIGHT_FLUSHES: straight_flush_completions,
}


def unique_rows(rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Distinct rows of small card counts (0..3) and each row's index among them: the rows
    are packed 2 bits a card type into int64 words and sorted on those (faster than
    ``np.unique(axis=0)``)."""
    n, width = rows.shape
    words = []
    for start in range(0, width, 31):
        block = rows[:, start : start + 31].astype(np.int64)
        shifts = 2 * np.arange(block.shape[1], dtype=np.int64)
        words.append((block << shifts).sum(axis=1))
    order = np.lexsort(words[::-1])
    packed = np.stack(words, axis=1)[order]
    new = np.ones(n, dtype=bool)
    new[1:] = (packed[1:] != packed[:-1]).any(axis=1)
    inverse = np.empty(n, dtype=np.int64)
    inverse[order] = np.cumsum(new) - 1
    return rows[order[new]], inverse


def completion_counts(shape: DeckShape, hands: list[tuple[int, ...]]) -> np.ndarray:
    """Completed hands as card-type counts ``int8[n, 13 * n_suits]``, duplicates dropped."""
    out = np.zeros((len(hands), N_RANKS * shape.n_suits), dtype=np.int8)
    for i, hand in enumerate(hands):
        for c in hand:
            out[i, c] += 1
    return unique_rows(out)[0] if len(out) else out


def natural_counts(completed: np.ndarray, jokers: int, decks: int) -> np.ndarray:
    """The natural card sets completed hands may come from, as card-type counts: ``jokers``
    cards removed, at most ``decks`` copies of a card left; duplicates dropped."""
    found = [np.zeros((0, completed.shape[1]), dtype=np.int8)]
    _remove_cards(completed, jokers, decks, 0, found)
    rows = np.concatenate(found)
    return unique_rows(rows)[0] if len(rows) else rows


def _remove_cards(rows: np.ndarray, left: int, decks: int, start: int, found: list) -> None:
    """Append to ``found`` the rows with ``left`` more cards removed (types ``start`` on, in
    order, so each removal is made once), pruning rows whose excess copies exceed ``left``."""
    excess = np.maximum(rows.astype(np.int64) - decks, 0).sum(axis=1)
    rows = rows[excess <= left]
    if left == 0:
        found.append(rows)
        return
    for t in range(start, rows.shape[1]):
        sub = rows[rows[:, t] >= 1].copy()
        if len(sub):
            sub[:, t] -= 1
            _remove_cards(sub, left - 1, decks, t, found)


def check_countable(kind: SpecialKind) -> None:
    """Raise unless this module can count the hands of ``kind`` for every deck."""
    if kind.exact == ExactMethod.RANK_COUNTS:
        return
    if kind.exact == ExactMethod.SUIT_COUNTS and kind.code in SUIT_TESTS:
        return
    if kind.exact == ExactMethod.CARD_LIST and kind.code in CARD_COMPLETIONS:
        return
    raise SimkitError(
        f"special {kind.id!r} ({kind.code.name}): simkit.exact_decks has no "
        f"{kind.exact.value!r} counter for it"
    )
