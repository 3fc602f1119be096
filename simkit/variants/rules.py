"""The rule objects a variant file is loaded into: frozen, keyword-only dataclasses.

A variant has a ``[variant]`` header, a ``[deck]`` section (the cards it is played with), a
``[ranking]`` section, a ``[deal]`` section (what happens between the deal and the arranging),
a ``[specials]`` section (the natural hands, 报到, in the variant's order with their payouts and
definitions; the kinds are registered in :mod:`simkit.variants.special_kinds`), a
``[scoring]`` section (see :mod:`simkit.variants.scoring_rules`) and an optional ``[phases]``
section (the payments made around the comparison: the banker's seat bought, pairs settled or
surrendered; played by :mod:`simkit.phases`).
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
    "Bidding",
    "CardExchange",
    "CardPass",
    "Deal",
    "Deck",
    "Header",
    "Negotiation",
    "OptionSpec",
    "Phases",
    "Ranking",
    "SpecialKind",
    "SpecialRule",
    "Specials",
    "Surrender",
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
    pack (大小王), wild cards: a joker stands for any card its holder names (000 五同:
    "王能够带任意牌"), named with the setting so that no setting some naming keeps legal is
    fouled (:func:`simkit.evaluate.dun_ranks`).  ``players``: the player counts this deck
    serves; 13 cards each must fit in the pack.  A variant's table sizes outside ``players``
    are dealt the usual deck for that size when its deck is the usual one (see
    :meth:`Variant.deck_for`).
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
        """Whether this deck is dealt at ``n_players`` (it is listed in :attr:`players`)."""
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
    """菲律宾玩法 (001): each player passes three cards to another seat, before arranging.

    001: "“换三张牌”由庄家决定次数,包括: 不换,换一次,换两次。交换次序由庄家决定,包括:顺时针,逆时针,
    与对家交换".  ``choice``: ``"banker"`` plays that clause (the banker, seat 0, chooses 0, 1
    or 2 rounds and the direction, :mod:`simkit.phases.passing`); ``"fixed"`` always plays
    ``rounds`` rounds (0: no pass) in ``direction`` (read only then).  ``direction``:
    ``"clockwise"`` (seat s to s + 1), ``"counter-clockwise"`` (s to s - 1) or ``"across"``
    (s to s + p/2).  ``cards``: which three each player passes, ``"chosen"`` (each player's
    choice by the value of its hand) or ``"lowest"`` (its three lowest cards).
    001 says "交换次序由庄家决定" once for both rounds; whether two rounds may go different ways
    it does not say.  ``second``: ``"same"`` (the default: the second round goes the first's
    way), or, with ``choice = "fixed"``, the second round's own direction; with ``choice =
    "banker"``, ``"any"`` lets the banker choose each round's direction.
    """

    rounds: int = 0
    direction: Literal["clockwise", "counter-clockwise", "across"] = "clockwise"
    choice: Literal["fixed", "banker"] = "fixed"
    cards: Literal["lowest", "chosen"] = "lowest"
    second: Literal["same", "clockwise", "counter-clockwise", "across", "any"] = "same"
    source: str = ""

    def __post_init__(self) -> None:
        if not 0 <= self.rounds <= 2:
            raise SimkitError(f"passing.rounds must be 0, 1 or 2, got {self.rounds}")
        if self.second == "any" and self.choice != "banker":
            raise SimkitError(
                "passing.second = 'any' lets the banker choose each round's direction: it needs "
                "choice = 'banker' (with choice = 'fixed' name the second round's direction)"
            )
        if self.choice == "banker" and self.second not in ("same", "any"):
            raise SimkitError(
                f"passing.second = {self.second!r} fixes a direction, but choice = 'banker' "
                "lets the banker choose: use 'same' or 'any'"
            )

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
    ``reveal`` (four players): ``"all"``: a chooser sees the cards it may take, then takes one
    (查看, today's reading); ``"one-at-a-time"``: it turns them one by one and takes or passes
    each, taking the last if it passed the others ("若前两张均放弃，则自动换取最后一张").
    """

    play: bool = False
    fee: float = 1.0
    reveal: Literal["all", "one-at-a-time"] = "all"
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
        """The file's pass ``direction`` (read where ``choice = "fixed"``)."""
        return self.passing.direction

    @property
    def changes_hands(self) -> bool:
        """Whether a phase may change the dealt hands (then they are no longer uniform deals)."""
        return self.passing.played or self.exchange.play


@dataclass(frozen=True, kw_only=True)
class Bidding:
    """抢庄 (004): "开局前设有抢庄阶段 … 每人暗置若干“道数”于手中，同时亮出。出价最高者成为庄家，
    并将所有抢庄道数收回后平均分给其余三位闲家；若有余数，则返还庄家".

    Read: bids are made before the deal ("开局前", a judgement of "牌力与局势" to come), so every
    seat bids alike; a bid is a whole number of ``unit`` 道.  ``pot``: ``"winner"``: the winner
    pays its own bid, shared equally among the other players in whole ``unit`` s, the remainder
    back to the banker; ``"all"``: every seat pays its bid into the pot ("所有抢庄道数") and the
    pot is shared among the players the same way.  ``bid``: what each seat bids; absent, the
    fair bid (the banker's edge per game under the variant's other phases,
    :mod:`simkit.phases.expected`), rounded down to whole units and never below 0.  Ties go to
    seat 0, the banker's seat (004 names no tie rule).  ``fees``: whether the fair bid counts
    what the seat pays and receives in 换牌 (3 players: "庄家可支付1道补偿给两位闲家 … 闲家可各付1道
    给庄家"): ``"counted"`` (the default: the fees are paid by and to whoever holds the banker's
    seat, so they are part of what the seat is worth) or ``"dropped"`` (the calibration before
    issue 52, which left them out).
    """

    enabled: bool = False
    pot: Literal["winner", "all"] = "winner"
    fees: Literal["counted", "dropped"] = "counted"
    bid: float | None = None
    unit: float = 1.0
    source: str = ""

    def __post_init__(self) -> None:
        if self.unit <= 0:
            raise SimkitError(f"bidding.unit must be above 0, got {self.unit}")
        if self.bid is not None and self.bid < 0:
            raise SimkitError(f"bidding.bid must be 0 or more, got {self.bid}")


@dataclass(frozen=True, kw_only=True)
class Negotiation:
    """谈判 (004): "组牌完成后，庄家与闲家可进入谈判阶段。任一方均可提出“输/赢X道”的结算方案 …
    若双方达成一致，则跳过比牌直接结算".

    Read: after setting, the banker and each player, each knowing only its own hand, settle when
    some whole-``unit`` X gives each side at least its conditional expected score of the pair
    plus ``margin`` (the gain it asks for settling); X is the whole unit nearest the midpoint of
    the two reservations (split the difference).  X replaces everything their comparison would
    have paid (dun points, bonuses, 打枪, a 全垒打's share, 马牌); the other pairs compare as usual.
    """

    enabled: bool = False
    margin: float = 0.0
    unit: float = 1.0
    source: str = ""

    def __post_init__(self) -> None:
        if self.unit <= 0:
            raise SimkitError(f"negotiation.unit must be above 0, got {self.unit}")
        if self.margin < 0:
            raise SimkitError(f"negotiation.margin must be 0 or more, got {self.margin}")


@dataclass(frozen=True, kw_only=True)
class Surrender:
    """抛牌 (004): "玩家可在比牌前或比牌后选择“抛牌”直接结算。若选择比牌后再抛牌，而对手已在比牌
    阶段抛牌并完成结算，则你无法再抛牌，须按原结果支付对应道数".

    Read: a player surrenders to the banker, paying ``cost`` 道 (004 names no figure: a room
    setting) in place of their comparison.  ``when``: ``"before"``: from its own hand, when its
    conditional expected score of the pair is below ``-cost`` (the best rule for a player who
    knows only its hand); ``"after"``: once the comparison is shown, when the result is below
    ``-cost`` (a loss capped at the cost).  ``by``: ``"player"``, or ``"both"``: the banker may
    surrender to a player too, on the same rule; a pair settles once, the player's surrender
    first, so an opponent who has surrendered cannot be surrendered to ("你无法再抛牌").
    ``when = "both"``: 004's two timings in one game ("比牌前或比牌后"): a player that did not
    surrender before the comparison may still surrender after it.  ``to``: ``"banker"``: only
    the pairs with the banker surrender; ``"any"``: at an all-pairs table a player may surrender
    to another player too (004 says 对手, an opponent, not 庄家), from its expected score per
    opponent (:meth:`~simkit.phases.expected.ExpectedScore.vs_table`) before the comparison and
    from the pair's result after it.  A pair surrendered before the comparison skips it, as a
    settled one does (no 全垒打 over it).
    """

    enabled: bool = False
    cost: float = 3.0
    when: Literal["before", "after", "both"] = "before"
    by: Literal["player", "both"] = "player"
    to: Literal["banker", "any"] = "banker"
    source: str = ""

    def __post_init__(self) -> None:
        if self.cost < 0:
            raise SimkitError(f"surrender.cost must be 0 or more, got {self.cost}")


@dataclass(frozen=True, kw_only=True)
class Phases:
    """The ``[phases]`` section: the decision phases that move points around the comparison,
    each off unless its table says ``enabled = true`` (played by :mod:`simkit.phases`; seat 0 is
    the banker).  Their payments are score components of their own."""

    bidding: Bidding = field(default_factory=Bidding)
    negotiation: Negotiation = field(default_factory=Negotiation)
    surrender: Surrender = field(default_factory=Surrender)
    source: str = ""

    @property
    def any_enabled(self) -> bool:
        """Whether any decision phase (bidding, negotiation, surrender) is played."""
        return self.bidding.enabled or self.negotiation.enabled or self.surrender.enabled


@dataclass(frozen=True, kw_only=True)
class SpecialRule:
    """One special hand as a variant plays it: definition options and payout per opponent."""

    id: str
    payout: float
    options: FrozenMap[str, Any] = field(default_factory=FrozenMap)
    source: str = ""

    @property
    def kind(self) -> SpecialKind:
        """The special as simkit detects it (:data:`SPECIAL_KINDS` by :attr:`id`)."""
        return SPECIAL_KINDS[self.id]

    @property
    def name(self) -> str:
        """The special's Chinese name, as the rules digest writes it."""
        return self.kind.name

    def option(self, key: str) -> Any:
        """The value of definition option ``key`` (the file's, or its default).  Raises
        ``KeyError`` for a key the kind does not have (:attr:`SpecialKind.option_names`)."""
        return self.options[key]


@dataclass(frozen=True, kw_only=True)
class Specials:
    """The special hands a variant plays, best first (the variant's order decides who is bigger)."""

    rules: tuple[SpecialRule, ...] = ()
    source: str = ""

    @property
    def ids(self) -> tuple[str, ...]:
        """The played specials' ids, best first."""
        return tuple(r.id for r in self.rules)

    @property
    def names(self) -> tuple[str, ...]:
        """The played specials' Chinese names, best first."""
        return tuple(r.name for r in self.rules)

    def __len__(self) -> int:
        return len(self.rules)

    def get(self, special_id: str) -> SpecialRule:
        """The played special ``special_id``.  Raises ``KeyError`` (listing the played ids)
        where the variant does not play it."""
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
_LATER_DEAL_DEFAULTS: dict[str, dict[str, Any]] = {
    "passing": {"choice": "fixed", "cards": "lowest", "second": "same"},
    "exchange": {"reveal": "all"},
}
#: The same for ``[scoring]`` and ``[phases]`` keys added later (issue 52's readings).
_LATER_SCORING_DEFAULTS: dict[str, dict[str, Any]] = {
    "foul": {"severe_factor": 1.0},
    "home_run": {"fouled": "block"},
}
_LATER_PHASE_DEFAULTS: dict[str, dict[str, Any]] = {
    "surrender": {"to": "banker"},
    "bidding": {"fees": "dropped"},
}


def _without_later_defaults(
    plain: dict[str, Any], defaults: dict[str, dict[str, Any]]
) -> dict[str, Any]:
    for table, keys in defaults.items():
        if table not in plain:
            continue
        for key, value in keys.items():
            if key in plain[table] and plain[table][key] == value:
                del plain[table][key]
    return plain


def _keyed_deal(deal: Deal) -> dict[str, Any]:
    plain: dict[str, Any] = to_plain(deal, sources=False)
    if not deal.exchange.play:
        del plain["exchange"]  # off, whatever its fee
    return _without_later_defaults(plain, _LATER_DEAL_DEFAULTS)


def variant_key(
    name: str,
    ranking: Ranking,
    specials: Specials,
    scoring: Scoring,
    deal: Deal | None = None,
    phases: Phases | None = None,
    deck: Deck | None = None,
) -> str:
    """``name@digest``: the digest hashes the resolved rules (deck, ranking, deal, specials,
    scoring, phases) as plain data without their ``source`` citations, so two variants with one
    key play alike whatever their files look like, and editing a citation changes no key.  Only
    the phases played enter the hash, so a variant that plays none keeps its key."""
    resolved = {
        "deck": to_plain(deck if deck is not None else Deck(), sources=False),
        "ranking": to_plain(ranking, sources=False),
        "deal": _keyed_deal(deal if deal is not None else Deal()),
        "specials": to_plain(specials, sources=False),
        "scoring": _without_later_defaults(
            to_plain(scoring, sources=False), _LATER_SCORING_DEFAULTS
        ),
    }
    played = {
        name: to_plain(getattr(phases, name), sources=False)
        for name in ("bidding", "negotiation", "surrender")
        if phases is not None and getattr(phases, name).enabled
    }
    played = _without_later_defaults(played, _LATER_PHASE_DEFAULTS)
    if played:
        resolved["phases"] = played
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
    phases: Phases = field(default_factory=Phases)
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
            self.name,
            self.ranking,
            self.specials,
            self.scoring,
            self.deal,
            self.phases,
            self.deck,
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
