"""The rule objects a variant file is loaded into: frozen, keyword-only dataclasses.

A variant has a ``[variant]`` header, a ``[deck]`` section (the cards it is played with), a
``[ranking]`` section, a ``[deal]`` section (what happens between the deal and the arranging),
a ``[specials]`` section (the natural hands, 报到, in the variant's order with their payouts and
definitions; the kinds are registered in :mod:`simkit.variants.special_kinds`) and a
``[scoring]`` section (see :mod:`simkit.variants.scoring_rules`).
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, Literal

from simkit.cards import HAND_SIZE, N_RANKS
from simkit.errors import SimkitError
from simkit.variants.schema import FrozenMap, to_plain
from simkit.variants.scoring_rules import Scoring
from simkit.variants.special_kinds import (
    SPECIAL_KINDS,
    OptionSpec,
    SpecialKind,
    parse_rank_list,
)

__all__ = [
    "SPECIAL_KINDS",
    "STANDARD_TWO_DECKS",
    "CardPass",
    "Deal",
    "Deck",
    "Header",
    "OptionSpec",
    "Ranking",
    "SpecialKind",
    "SpecialRule",
    "Specials",
    "Variant",
    "parse_rank_list",
    "variant_key",
]


@dataclass(frozen=True, kw_only=True)
class Ranking:
    """How hands of one dun are ordered.

    ``wheel``: where the straight A-2-3-4-5 ranks: ``"lowest"`` (below 2-3-4-5-6, as 004 says)
    or ``"second"`` (second-highest, above 9-10-J-Q-K, as 002 says: "第二大的牌不是9、10、J、Q、K
    （此为第三大）而是A、2、3、4、5").  The same rule orders straight flushes.
    ``five_of_a_kind``: with two decks, 五同 ranks above the straight flush (000); when false it
    ranks as quads do, by rank.  It exists wherever the deck allows it: two decks, a fifth suit
    or a joker (000 五同: "在两副牌或者王能够带任意牌的情形").
    ``five_suit_straight``: 五彩同花顺, five cards in sequence of five different suits (004's
    optional rare hand "五张同花顺但花色各不相同"; only a fifth suit makes it).  ``"off"``: it is a
    plain straight.  Otherwise it is a kind of 同花顺, as 004 names it: it ranks in the straight
    flush category (and earns a straight flush's dun bonus), ``"below-straight-flush"`` just
    below every real straight flush (the order of rarity: 1,200 five-card hands of 65 against 50
    straight flushes and 3,900 quads) or ``"above-straight-flush"`` just above them, below 五同.
    """

    wheel: Literal["lowest", "second"] = "lowest"
    five_of_a_kind: bool = True
    five_suit_straight: Literal["off", "below-straight-flush", "above-straight-flush"] = "off"
    source: str = ""


@dataclass(frozen=True, kw_only=True)
class Deck:
    """The ``[deck]`` section: the cards a variant is played with, and the table sizes it serves.

    ``decks``: one or two 52-card decks shuffled together (with two, a card may repeat in a hand
    and 五同 occurs).  ``extra_suit``: 加一色, a fifth suit of 13 cards per deck (004's option,
    read as a fifth suit so that a fifth player gets 13 cards).  ``jokers``: 0 to 2 jokers in the
    pack (大小王), wild cards: a joker stands for whichever card makes its dun strongest (000
    五同: "王能够带任意牌").  ``players``: the player counts this deck serves; 13 cards each must
    fit in the pack.  A variant's table sizes outside ``players`` are dealt the usual deck for
    that size when its deck is the usual one (see :meth:`Variant.deck_for`).
    """

    decks: int = 1
    extra_suit: bool = False
    jokers: int = 0
    players: tuple[int, ...] = (2, 3, 4)
    source: str = ""

    def __post_init__(self) -> None:
        if self.decks not in (1, 2):
            raise SimkitError(f"decks must be 1 or 2, got {self.decks}")
        if not 0 <= self.jokers <= 2:
            raise SimkitError(f"jokers must be 0, 1 or 2, got {self.jokers}")
        if not self.players:
            raise SimkitError("players: list at least one player count")
        if list(self.players) != sorted(set(self.players)):
            raise SimkitError(f"players must be increasing, without repeats, got {self.players}")
        bad = [p for p in self.players if not 2 <= p <= 8]
        if bad:
            raise SimkitError(f"players: 十三水 is played by 2 to 8 players, got {bad[0]}")
        too_many = [p for p in self.players if p * HAND_SIZE > self.n_cards]
        if too_many:
            raise SimkitError(
                f"players: {too_many[0]} players need {too_many[0] * HAND_SIZE} cards but this "
                f"deck ({self.describe()}) holds {self.n_cards}; at most "
                f"{self.n_cards // HAND_SIZE} players"
            )

    @property
    def n_suits(self) -> int:
        """4, or 5 with the fifth suit."""
        return 5 if self.extra_suit else 4

    @property
    def n_cards(self) -> int:
        """The cards in the pack: 13 per suit per deck, plus the jokers."""
        return self.decks * N_RANKS * self.n_suits + self.jokers

    @property
    def is_one_deck(self) -> bool:
        """The plain 52-card deck (the one the exact one-deck tables describe)."""
        return self.decks == 1 and not self.extra_suit and self.jokers == 0

    @property
    def plain(self) -> bool:
        """One or two plain decks: no fifth suit, no jokers."""
        return not self.extra_suit and self.jokers == 0

    @property
    def pack(self) -> tuple[int, bool, int]:
        """``(decks, extra_suit, jokers)``: what is shuffled (equal packs deal equal games)."""
        return (self.decks, self.extra_suit, self.jokers)

    def serves(self, n_players: int) -> bool:
        return n_players in self.players

    def describe(self) -> str:
        """``"2 decks + 5th suit + 2 jokers"``-style summary."""
        parts = [f"{self.decks} deck" + ("s" if self.decks > 1 else "")]
        if self.extra_suit:
            parts.append("5th suit")
        if self.jokers:
            parts.append(f"{self.jokers} joker" + ("s" if self.jokers > 1 else ""))
        return " + ".join(parts) + f" ({self.n_cards} cards)"


#: The usual deck of 5 to 8 players: two plain decks shuffled together.
STANDARD_TWO_DECKS = Deck(
    decks=2, players=(5, 6, 7, 8), source="5 to 8 players: two decks (000 五同 在两副牌)"
)


@dataclass(frozen=True, kw_only=True)
class CardPass:
    """菲律宾玩法 (001): each player passes three cards to another seat, ``rounds`` times (0: no
    pass), before arranging.  ``direction``: ``"clockwise"`` (seat s to s + 1),
    ``"counter-clockwise"`` (s to s - 1) or ``"across"`` (s to s + p/2).  001 lets the banker
    choose both ("不换，换一次，换两次; 顺时针，逆时针，与对家交换"); a variant fixes one reading.
    """

    rounds: int = 0
    direction: Literal["clockwise", "counter-clockwise", "across"] = "clockwise"
    source: str = ""

    def __post_init__(self) -> None:
        if not 0 <= self.rounds <= 2:
            raise SimkitError(f"passing.rounds must be 0, 1 or 2, got {self.rounds}")


@dataclass(frozen=True, kw_only=True)
class Deal:
    """The ``[deal]`` section: the rules between the deal and the arranging, one table a phase
    (today the three-card pass, ``[deal.passing]``).  They change the hands the players set, not
    the scoring; the simulator reads them when it deals."""

    passing: CardPass = field(default_factory=CardPass)
    source: str = ""

    @property
    def pass_rounds(self) -> int:
        return self.passing.rounds

    @property
    def pass_direction(self) -> str:
        return self.passing.direction


@dataclass(frozen=True, kw_only=True)
class SpecialRule:
    """One special hand as a variant plays it: definition options and payout per opponent."""

    id: str
    payout: float
    options: FrozenMap[str, Any] = field(default_factory=FrozenMap)
    source: str = ""

    @property
    def kind(self) -> SpecialKind:
        return SPECIAL_KINDS[self.id]

    @property
    def name(self) -> str:
        return self.kind.name

    def option(self, key: str) -> Any:
        return self.options[key]


@dataclass(frozen=True, kw_only=True)
class Specials:
    """The special hands a variant plays, best first (the variant's order decides who is bigger)."""

    rules: tuple[SpecialRule, ...] = ()
    source: str = ""

    @property
    def ids(self) -> tuple[str, ...]:
        return tuple(r.id for r in self.rules)

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(r.name for r in self.rules)

    def __len__(self) -> int:
        return len(self.rules)

    def get(self, special_id: str) -> SpecialRule:
        for r in self.rules:
            if r.id == special_id:
                return r
        raise KeyError(f"special {special_id!r} is not played here; played: {', '.join(self.ids)}")


@dataclass(frozen=True, kw_only=True)
class Header:
    """The ``[variant]`` table."""

    name: str
    title: str = ""
    summary: str = ""
    sources: tuple[str, ...] = ()
    extends: str | None = None
    notes: tuple[str, ...] = ()


def variant_key(
    name: str,
    ranking: Ranking,
    specials: Specials,
    scoring: Scoring,
    deal: Deal | None = None,
    deck: Deck | None = None,
) -> str:
    """``name@digest``: the digest hashes the resolved rules (deck, ranking, deal, specials,
    scoring)
    as plain data without their ``source`` citations, so two variants with one key play alike
    whatever their files look like, and editing a citation changes no key."""
    resolved = {
        "deck": to_plain(deck if deck is not None else Deck(), sources=False),
        "ranking": to_plain(ranking, sources=False),
        "deal": to_plain(deal if deal is not None else Deal(), sources=False),
        "specials": to_plain(specials, sources=False),
        "scoring": to_plain(scoring, sources=False),
    }
    digest = hashlib.sha256(
        json.dumps(resolved, sort_keys=True, ensure_ascii=False).encode()
    ).hexdigest()[:10]
    return f"{name}@{digest}"


@dataclass(frozen=True, kw_only=True)
class Variant:
    """A fully resolved variant: the rules of one regional game, frozen.

    ``origin`` is the ``[variant]`` name of the file; ``changes`` lists the rule transforms
    (:mod:`simkit.variants.transforms`) applied since, transform → the label it adds to the name.
    ``name`` and ``key`` are derived, never stored, so a modified copy cannot carry stale ones.
    """

    origin: str
    title: str
    summary: str
    sources: tuple[str, ...]
    notes: tuple[str, ...]
    ranking: Ranking
    deck: Deck = field(default_factory=Deck)
    deal: Deal = field(default_factory=Deal)
    specials: Specials
    scoring: Scoring
    path: str
    changes: FrozenMap[str, str] = field(default_factory=FrozenMap)

    @property
    def name(self) -> str:
        """The name results are filed under: the file's name, ``+label`` per transform applied."""
        return self.origin + "".join(f"+{label}" for label in self.changes.values())

    @cached_property
    def key(self) -> str:
        """``name@digest`` of the rules (:func:`variant_key`): results record it."""
        return variant_key(
            self.name, self.ranking, self.specials, self.scoring, self.deal, self.deck
        )

    def deck_for(self, n_players: int) -> Deck:
        """The deck dealt at ``n_players``: the variant's ``[deck]`` where it serves that count;
        otherwise, when the variant plays the usual one deck, the usual deck for the table size
        (two decks for 5 to 8 players).  A variant with another deck serves only its own
        player counts."""
        if self.deck.serves(n_players):
            return self.deck
        if self.deck.is_one_deck and STANDARD_TWO_DECKS.serves(n_players):
            return STANDARD_TWO_DECKS
        raise SimkitError(
            f"variant {self.name!r}: its deck ({self.deck.describe()}) serves "
            f"{', '.join(map(str, self.deck.players))} players, not {n_players}"
        )

    def __repr__(self) -> str:
        return f"Variant({self.key!r})"
