"""Exact counts of the 5-card and 3-card dun categories of any pack."""

from __future__ import annotations

from collections.abc import Iterator
from functools import lru_cache
from itertools import combinations_with_replacement
from math import comb, factorial, prod

from simkit.evaluate import Category, rank3_reference, rank5_reference
from simkit.exact_decks.shapes import (
    ALL_RANKS,
    ONE_DECK,
    DeckShape,
)
from simkit.variants import Ranking

#: The 5-card categories this module counts, strongest first (五彩同花顺 where it is played).
FIVE_SUIT_STRAIGHT = "FIVE_SUIT_STRAIGHT"


def category_names(five_suit_straight: bool) -> list[str]:
    """Category names strongest first; 五彩同花顺 just above the straight when played."""
    names = [c.name for c in reversed(Category)]
    if five_suit_straight:
        names.insert(names.index(Category.STRAIGHT.name), FIVE_SUIT_STRAIGHT)
    return names


def _category(
    ranks: tuple[int, ...], suited: bool, rainbow: bool, ranking: Ranking, five_suit_straight: bool
) -> tuple[int, str]:
    """(strength, name) of five natural cards: the ranking's category, 五彩同花顺 for a straight
    of five suits when it is played.  Strength orders the names of :func:`category_names`."""
    category = Category(rank5_reference(ranks, suited, ranking) >> 20)
    if category == Category.STRAIGHT and rainbow and five_suit_straight:
        return 2 * int(category) + 1, FIVE_SUIT_STRAIGHT
    return 2 * int(category), category.name


def _rank_multisets(k: int, ranks: tuple[int, ...] = ALL_RANKS) -> Iterator[tuple[int, ...]]:
    return combinations_with_replacement(ranks, k)


def _suit_classes_of_cards(shape: DeckShape, counts: list[int]) -> tuple[int, int, int]:
    """Physical choices of natural cards with these rank counts: (all one suit, all different
    suits, neither), for two or more cards."""
    m = sum(counts)
    total = prod(comb(shape.per_rank, c) for c in counts)
    suited = shape.n_suits * prod(comb(shape.decks, c) for c in counts)
    s = shape.n_suits
    rainbow = 0
    if m <= s:
        rainbow = factorial(s) // factorial(s - m) // prod(factorial(c) for c in counts)
        rainbow *= shape.decks**m
    return suited, rainbow, total - suited - rainbow


@lru_cache(maxsize=32)
def five_card_counts(
    ranking: Ranking,
    shape: DeckShape = ONE_DECK,
    five_suit_straight: bool = False,
    ranks: tuple[int, ...] = ALL_RANKS,
) -> dict[str, int]:
    """Category counts over all C(n_cards, 5) 5-card duns, a joker at its best value.

    ``ranks``: the deck's ranks (all 13; fewer make the small decks the tests list in full).
    """
    out = dict.fromkeys(category_names(five_suit_straight), 0)
    for j in range(shape.jokers + 1):
        joker_ways = comb(shape.jokers, j)
        for natural in _rank_multisets(5 - j, ranks):
            counts = [natural.count(r) for r in sorted(set(natural))]
            if max(counts) > shape.per_rank:
                continue
            classes = _suit_classes_of_cards(shape, counts)
            for (suited, rainbow), ways in zip(
                ((True, False), (False, True), (False, False)), classes, strict=True
            ):
                if not ways:
                    continue
                can_rainbow = rainbow and shape.n_suits >= 5
                best = max(
                    _category(
                        tuple(sorted(natural + wild)),
                        suited,
                        can_rainbow,
                        ranking,
                        five_suit_straight,
                    )
                    for wild in _rank_multisets(j, ranks)
                )
                out[best[1]] += ways * joker_ways
    if sum(out.values()) != comb(len(ranks) * shape.per_rank + shape.jokers, 5):
        raise AssertionError("5-card category counts do not sum to C(n, 5)")
    return {name: n for name, n in out.items() if n}


@lru_cache(maxsize=8)
def three_card_counts(
    shape: DeckShape = ONE_DECK, ranks: tuple[int, ...] = ALL_RANKS
) -> dict[str, int]:
    """Category counts over all C(n_cards, 3) fronts, a joker at its best value."""
    out = {c.name: 0 for c in reversed(Category)}
    for j in range(shape.jokers + 1):
        for natural in _rank_multisets(3 - j, ranks):
            counts = [natural.count(r) for r in sorted(set(natural))]
            if max(counts, default=0) > shape.per_rank:
                continue
            ways = comb(shape.jokers, j) * prod(comb(shape.per_rank, c) for c in counts)
            best = max(rank3_reference(tuple(natural + wild)) for wild in _rank_multisets(j, ranks))
            out[Category(best >> 20).name] += ways
    if sum(out.values()) != comb(len(ranks) * shape.per_rank + shape.jokers, 3):
        raise AssertionError("3-card category counts do not sum to C(n, 3)")
    return {name: n for name, n in out.items() if n}
