"""The specials that depend on the exact cards (至尊清龙, 三同花顺): their hands, listed."""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache

import numpy as np

from simkit.cards import N_RANKS
from simkit.errors import SimkitError
from simkit.exact.vectors import (
    SUIT_TESTS,
)
from simkit.specials import (
    five_straights,
    front_straights,
)
from simkit.variants import SpecialRule
from simkit.variants.special_kinds import ExactMethod, SpecialCode, SpecialKind


@lru_cache(maxsize=4)
def straight_flush_split_hands(front_qka: bool, front_a23: bool) -> np.ndarray:
    """Every one-deck hand that splits into three straight flushes, ``int8[n, 13]`` sorted."""
    fronts = [
        sum(1 << (4 * r + s) for r in ranks)
        for ranks in front_straights(front_qka, front_a23)
        for s in range(4)
    ]
    fives = [sum(1 << (4 * r + s) for r in ranks) for ranks in five_straights() for s in range(4)]
    found: set[int] = set()
    for f in fronts:
        for i, a in enumerate(fives):
            if f & a:
                continue
            for b in fives[i + 1 :]:
                if not (b & (f | a)):
                    found.add(f | a | b)
    return _masks_to_hands(sorted(found))


def clean_dragon_hands(rule: SpecialRule) -> np.ndarray:
    """The one-suit A-K hands a clean-dragon rule accepts."""
    suits = [3] if rule.option("suits") == "spades" else range(4)
    return _masks_to_hands([sum(1 << (4 * r + s) for r in range(N_RANKS)) for s in suits])


#: The ``card-list`` kinds: every one-deck hand a rule of the kind may accept, by code.
CARD_LISTS: dict[SpecialCode, Callable[[SpecialRule], np.ndarray]] = {
    SpecialCode.CLEAN_DRAGON: clean_dragon_hands,
    SpecialCode.THREE_STRAIGHT_FLUSHES: lambda rule: straight_flush_split_hands(
        rule.option("front_qka"), rule.option("front_a23")
    ),
}


def check_countable(kind: SpecialKind) -> None:
    """Raise ``ValueError`` unless this module can count the hands of ``kind`` exactly."""
    if kind.exact == ExactMethod.RANK_COUNTS:
        return
    if kind.exact == ExactMethod.SUIT_COUNTS and kind.code in SUIT_TESTS:
        return
    if kind.exact == ExactMethod.CARD_LIST and kind.code in CARD_LISTS:
        return
    raise SimkitError(
        f"special {kind.id!r} ({kind.code.name}): simkit.exact has no {kind.exact.value!r} "
        "counter for it; add one (SUIT_TESTS or CARD_LISTS) or change its exact method"
    )


def _masks_to_hands(masks: list[int]) -> np.ndarray:
    """52-bit card masks of 13 cards each → sorted hands ``int8[n, 13]``."""
    as_bytes = np.array(masks, dtype=np.uint64).view(np.uint8).reshape(-1, 8)
    bits = np.unpackbits(as_bytes, axis=1, bitorder="little")[:, :52]
    rows, cards = np.nonzero(bits)
    if not (np.bincount(rows, minlength=len(masks)) == 13).all():
        raise AssertionError("a card mask does not hold 13 cards")
    return cards.astype(np.int8).reshape(len(masks), 13)
