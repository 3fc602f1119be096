"""The packs every exact count covers: :class:`DeckShape` (decks, suits, jokers) and the
packs ``[deck]`` accepts (:data:`DECK_SHAPES`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from simkit.cards import N_RANKS
from simkit.errors import SimkitError

HAND = 13
ALL_RANKS = tuple(range(N_RANKS))
#: The most cards of one rank a representative hand can hold (4 suits, each card twice): the
#: detector reads at most two copies of a card.  Vectors with more a rank (two decks of five
#: suits, two decks and jokers: up to 12) are classified on their counts
#: (:func:`~simkit.specials.rank_count_masks`).
MAX_REPRESENTED = 8
#: Colour of each suit for 凑一色: ♣ ♠ black, ♦ ♥ red, the fifth suit neither (a reading).
SUIT_COLOURS = ("black", "red", "red", "black", None)


@dataclass(frozen=True, kw_only=True)
class DeckShape:
    """What the exact counts need to know of a deck: ``decks`` copies (1 or 2) of a deck of
    ``n_suits`` suits (4, or 5 with the added suit) of 13 ranks, and ``jokers`` wild cards."""

    decks: int = 1
    n_suits: int = 4
    jokers: int = 0

    def __post_init__(self) -> None:
        if self.decks not in (1, 2):
            raise SimkitError(f"decks must be 1 or 2, got {self.decks!r}")
        if self.n_suits not in (4, 5):
            raise SimkitError(f"n_suits must be 4 or 5, got {self.n_suits!r}")
        if self.jokers not in (0, 1, 2):
            raise SimkitError(f"jokers must be 0, 1 or 2, got {self.jokers!r}")

    @property
    def per_rank(self) -> int:
        """Physical cards of one rank."""
        return self.decks * self.n_suits

    @property
    def n_cards(self) -> int:
        """The physical cards of the pack, jokers included."""
        return N_RANKS * self.per_rank + self.jokers

    @property
    def key(self) -> str:
        """A short name for files: ``1d``, ``2d``, ``1d-5s``, ``1d-1j``, ``2d-2j`` ..."""
        parts = [f"{self.decks}d"]
        if self.n_suits == 5:
            parts.append("5s")
        if self.jokers:
            parts.append(f"{self.jokers}j")
        return "-".join(parts)

    @property
    def label(self) -> str:
        """The pack in words, for tables: ``one deck + 2 jokers`` ..."""
        text = "one deck" if self.decks == 1 else "two decks"
        if self.n_suits == 5:
            text += " + a fifth suit"
        if self.jokers:
            text += f" + {self.jokers} joker" + ("s" if self.jokers > 1 else "")
        return text

    @classmethod
    def parse(cls, key: str) -> DeckShape:
        """The shape a :attr:`key` names: ``1d``, ``2d``, ``1d-5s``, ``1d-2j``, ``2d-5s-1j`` ..."""
        parts = key.strip().lower().split("-")
        values = {"decks": 1, "n_suits": 4, "jokers": 0}
        fields = {"d": "decks", "s": "n_suits", "j": "jokers"}
        for part in parts:
            if len(part) != 2 or not part[0].isdigit() or part[1] not in fields:
                raise SimkitError(
                    f"deck {key!r}: expected parts like 1d or 2d, 5s, 1j or 2j joined by '-'"
                )
            values[fields[part[1]]] = int(part[0])
        return cls(**values)

    @classmethod
    def of(cls, deck: Any) -> DeckShape:
        """The shape of a deck object (``decks``, ``n_suits`` or ``extra_suit``, ``jokers``);
        ``None`` is one plain deck."""
        if deck is None:
            return cls()
        if isinstance(deck, DeckShape):
            return deck
        n_suits = getattr(deck, "n_suits", None)
        if n_suits is None:
            n_suits = 5 if getattr(deck, "extra_suit", False) else 4
        return cls(
            decks=int(getattr(deck, "decks", 1)),
            n_suits=int(n_suits),
            jokers=int(getattr(deck, "jokers", 0)),
        )


ONE_DECK = DeckShape()

#: Every pack ``[deck]`` accepts, by :attr:`DeckShape.key`, the packs counted first (one deck, two
#: decks, the fifth suit, jokers) before their combinations: the experiments number the packs
#: in this order.
DECK_SHAPES: dict[str, DeckShape] = {
    shape.key: shape
    for shape in (
        ONE_DECK,
        DeckShape(decks=2),
        DeckShape(n_suits=5),
        DeckShape(jokers=1),
        DeckShape(jokers=2),
        DeckShape(n_suits=5, jokers=1),
        DeckShape(n_suits=5, jokers=2),
        DeckShape(decks=2, jokers=1),
        DeckShape(decks=2, jokers=2),
        DeckShape(decks=2, n_suits=5),
        DeckShape(decks=2, n_suits=5, jokers=1),
        DeckShape(decks=2, n_suits=5, jokers=2),
    )
}


def deck_of(variant: Any) -> DeckShape:
    """The deck a variant plays (its ``deck`` attribute), one plain deck if it names none."""
    return DeckShape.of(getattr(variant, "deck", None))
