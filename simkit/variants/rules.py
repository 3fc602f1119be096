"""The rule objects a variant file is loaded into: frozen, keyword-only dataclasses.

A variant has a ``[variant]`` header, a ``[ranking]`` section, a ``[deal]`` section (what
happens between the deal and the arranging), a ``[specials]`` section (the natural hands, 报到, in
the variant's order with their payouts and definitions; the kinds are registered in
:mod:`simkit.variants.special_kinds`) and a ``[scoring]`` section (see
:mod:`simkit.variants.scoring_rules`).
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, Literal

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
    "CardExchange",
    "CardPass",
    "Deal",
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
    ranks as quads do, by rank.
    """

    wheel: Literal["lowest", "second"] = "lowest"
    five_of_a_kind: bool = True
    source: str = ""


@dataclass(frozen=True, kw_only=True)
class CardPass:
    """菲律宾玩法 (001): each player passes three cards to another seat, before arranging.

    001: "“换三张牌”由庄家决定次数,包括: 不换,换一次,换两次。交换次序由庄家决定,包括:顺时针,逆时针,
    与对家交换".  ``choice``: ``"banker"`` plays that clause (the banker, seat 0, chooses 0, 1
    or 2 rounds and the direction, :mod:`simkit.phases.passing`); ``"fixed"`` always plays
    ``rounds`` rounds (0: no pass) in ``direction`` (read only then).  ``direction``:
    ``"clockwise"`` (seat s to s + 1), ``"counter-clockwise"`` (s to s - 1) or ``"across"``
    (s to s + p/2).  ``cards``: which three each player passes, ``"chosen"`` (each player's
    choice by the value of its hand) or ``"lowest"`` (its three lowest cards).
    """

    rounds: int = 0
    direction: Literal["clockwise", "counter-clockwise", "across"] = "clockwise"
    choice: Literal["fixed", "banker"] = "fixed"
    cards: Literal["lowest", "chosen"] = "lowest"
    source: str = ""

    def __post_init__(self) -> None:
        if not 0 <= self.rounds <= 2:
            raise SimkitError(f"passing.rounds must be 0, 1 or 2, got {self.rounds}")

    @property
    def played(self) -> bool:
        """Whether cards may be passed at all."""
        return self.choice == "banker" or self.rounds > 0


@dataclass(frozen=True, kw_only=True)
class CardExchange:
    """钱塘 换牌 (004 （二）换牌规则), before arranging; ``play`` switches it on.

    Four players: each puts one card face down; the banker takes one of the other three for its
    own, then the player whose card was taken chooses, until all four have exchanged.  Three
    players: the banker may pay ``fee`` 道 to each player to take the 13 undealt cards; if it
    declines, the players in turn (clockwise) may pay the banker ``fee`` for them.  Other table
    sizes: 004 gives no exchange.  The readings taken are in :mod:`simkit.phases.exchange`.
    """

    play: bool = False
    fee: float = 1.0
    source: str = ""

    def __post_init__(self) -> None:
        if self.fee < 0:
            raise SimkitError(f"exchange.fee must be at least 0, got {self.fee}")


@dataclass(frozen=True, kw_only=True)
class Deal:
    """The ``[deal]`` section: the rules between the deal and the arranging, one table a phase
    (the three-card pass, ``[deal.passing]``; the exchange, ``[deal.exchange]``).  They change
    the hands the players set (and the exchange's fees); the simulator plays them after it
    deals (:mod:`simkit.phases`)."""

    passing: CardPass = field(default_factory=CardPass)
    exchange: CardExchange = field(default_factory=CardExchange)
    source: str = ""

    @property
    def pass_rounds(self) -> int:
        """The file's ``rounds`` (played when ``choice = "fixed"``; see :attr:`changes_hands`)."""
        return self.passing.rounds

    @property
    def pass_direction(self) -> str:
        return self.passing.direction

    @property
    def changes_hands(self) -> bool:
        """Whether a phase may change the dealt hands (then they are no longer uniform deals)."""
        return self.passing.played or self.exchange.play


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


#: ``[deal]`` keys added after variants were first keyed, at the value that plays as before:
#: left out of the key there, so a variant that does not play them keeps its key (and the
#: stamp of its trained tables).
_LATER_DEAL_DEFAULTS = {"passing": {"choice": "fixed", "cards": "lowest"}}


def _keyed_deal(deal: Deal) -> dict[str, Any]:
    plain: dict[str, Any] = to_plain(deal, sources=False)
    if not deal.exchange.play:
        del plain["exchange"]  # off, whatever its fee
    for table, defaults in _LATER_DEAL_DEFAULTS.items():
        for key, value in defaults.items():
            if plain[table][key] == value:
                del plain[table][key]
    return plain


def variant_key(
    name: str, ranking: Ranking, specials: Specials, scoring: Scoring, deal: Deal | None = None
) -> str:
    """``name@digest``: the digest hashes the resolved rules (ranking, deal, specials, scoring)
    as plain data without their ``source`` citations, so two variants with one key play alike
    whatever their files look like, and editing a citation changes no key."""
    resolved = {
        "ranking": to_plain(ranking, sources=False),
        "deal": _keyed_deal(deal if deal is not None else Deal()),
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
        return variant_key(self.name, self.ranking, self.specials, self.scoring, self.deal)

    def __repr__(self) -> str:
        return f"Variant({self.key!r})"
