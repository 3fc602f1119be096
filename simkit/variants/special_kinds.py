"""The registry of special hands (报到): one entry per kind simkit can detect.

Each :class:`SpecialKind` holds everything a special needs in one place: its detector code
(:class:`SpecialCode`, the integer :mod:`simkit.specials` dispatches on), the way
:mod:`simkit.exact` counts it (:class:`ExactMethod`), and the schema of its ``[specials.ID]``
table (a frozen dataclass over :class:`SpecialTable`, read by :func:`simkit.variants.schema.build`
like every other section).  Adding a special is one entry here, one branch in the detector and,
for a card-listed or suit-counted kind, its counter in :mod:`simkit.exact`; the tests assert every
entry is complete.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from enum import IntEnum, StrEnum
from typing import Any, Literal, get_args, get_origin, get_type_hints

from simkit.cards import RANK_CHARS
from simkit.errors import SimkitError
from simkit.variants.schema import FrozenMap, VariantError, build


class SpecialCode(IntEnum):
    """What the detector tests for a kind; several kinds may share a test (全大 and 全小 are both
    "every rank from a set").  The values are fixed: compiled kernels receive them as ints."""

    CLEAN_DRAGON = 0  #: A to K of one suit
    DRAGON = 1  #: one card of each rank
    ROYAL_TWELVE = 2  #: court cards only
    THREE_STRAIGHT_FLUSHES = 3  #: a 3/5/5 split into straight flushes
    THREE_QUADS = 4  #: three quads
    RANKS_FROM_SET = 5  #: every card's rank in a listed set
    ONE_COLOR = 6  #: all red or all black
    THREE_TRIPS_AND_QUADS = 7  #: a quads and three trips
    FOUR_TRIPS = 8  #: four trips
    FIVE_PAIRS_AND_TRIPS = 9  #: five pairs and a trips
    SIX_PAIRS = 10  #: six pairs and one card
    THREE_FLUSHES = 11  #: a 3/5/5 split into one-suited duns
    THREE_STRAIGHTS = 12  #: a 3/5/5 split into straights


class ExactMethod(StrEnum):
    """How :mod:`simkit.exact` counts the 13-card hands of a kind over one deck."""

    RANK_COUNTS = "rank-counts"  #: decided by the rank-count vector (how many cards a rank)
    SUIT_COUNTS = "suit-counts"  #: decided by the suit-count vector (how many cards a suit)
    CARD_LIST = "card-list"  #: few hands, listed card by card


def parse_rank_list(values: Any, where: str) -> tuple[int, ...]:
    """Rank characters (2-9, T or 10, J, Q, K, A) → sorted rank ints, with clear errors."""
    if not isinstance(values, list | tuple) or not values:
        raise VariantError(f"{where}: expected a non-empty list of ranks like ['8', 'A']")
    out = set()
    for v in values:
        text = str(v).upper()
        text = "T" if text == "10" else text
        if len(text) != 1 or text not in RANK_CHARS:
            raise VariantError(f"{where}: {v!r} is not a rank; ranks are 2-9, T or 10, J, Q, K, A")
        out.add(RANK_CHARS.index(text))
    return tuple(sorted(out))


class RankSet(tuple[int, ...]):
    """A set of ranks as sorted rank ints; files write rank characters (``"10"`` or ``"T"``)."""

    __slots__ = ()

    @classmethod
    def from_toml(cls, value: Any, where: str) -> RankSet:
        """The schema loader's hook: rank characters as written → a :class:`RankSet`."""
        return cls(parse_rank_list(value, where))

    def written(self) -> tuple[str, ...]:
        """The ranks as rank characters."""
        return tuple(RANK_CHARS[r] for r in self)


def _doc(text: str) -> dict[str, str]:
    return {"doc": text}


@dataclass(frozen=True, kw_only=True)
class SpecialTable:
    """The keys of every ``[specials.ID]`` table; a kind's table adds its definition options."""

    payout: float  # waters won from each opponent
    source: str = ""

    def __post_init__(self) -> None:
        if self.payout < 0:
            raise SimkitError(f"payout: expected a non-negative number, got {self.payout:g}")


@dataclass(frozen=True, kw_only=True)
class CleanDragonTable(SpecialTable):
    """``[specials.clean-dragon]``: the payout and which suit the thirteen cards share."""

    suits: Literal["any", "spades"] = field(
        default="any", metadata=_doc("'any' suit (000/001/002) or 'spades' only (004: 黑桃A至K)")
    )


@dataclass(frozen=True, kw_only=True)
class RoyalTwelveTable(SpecialTable):
    """``[specials.royal-twelve]``: the payout and which hands of court cards count."""

    definition: Literal["all-jqka", "all-jqk-plus-one"] = field(
        default="all-jqka",
        metadata=_doc(
            "'all-jqka': every card is J, Q, K or A (001, 002); "
            "'all-jqk-plus-one': the twelve J, Q, K and any card (003, 004)"
        ),
    )


@dataclass(frozen=True, kw_only=True)
class FrontStraightTable(SpecialTable):
    """``[specials.three-straights]`` and ``[specials.three-straight-flushes]``: the payout
    and which three-card fronts count as straights."""

    front_qka: bool = field(
        default=True,
        metadata=_doc("a Q-K-A front counts as a three-card straight (001 excludes it)"),
    )
    front_a23: bool = field(
        default=True, metadata=_doc("an A-2-3 front counts as a three-card straight")
    )


@dataclass(frozen=True, kw_only=True)
class AllBigTable(SpecialTable):
    """``[specials.all-big]``: the payout and the ranks every card must have."""

    ranks: RankSet = field(
        default=RankSet.from_toml(("8", "9", "T", "J", "Q", "K", "A"), "all-big.ranks"),
        metadata=_doc("the ranks allowed (004 reads '10, J, Q, K, A')"),
    )


@dataclass(frozen=True, kw_only=True)
class AllSmallTable(SpecialTable):
    """``[specials.all-small]``: the payout and the ranks every card must have."""

    ranks: RankSet = field(
        default=RankSet.from_toml(("2", "3", "4", "5", "6", "7", "8"), "all-small.ranks"),
        metadata=_doc("the ranks allowed (004 reads 'A, 2, 3, 4, 5')"),
    )


@dataclass(frozen=True, kw_only=True)
class FourTripsTable(SpecialTable):
    """``[specials.four-trips]``: the payout and whether a quads stands in for trips."""

    quads_count_as_trips: bool = field(
        default=False, metadata=_doc("a quads may stand in for one of the trips (4+3+3+3)")
    )


@dataclass(frozen=True, kw_only=True)
class FivePairsAndTripsTable(SpecialTable):
    """``[specials.five-pairs-and-trips]``: the payout and whether a quads stands in for two
    pairs."""

    quads_count_as_two_pairs: bool = field(
        default=True, metadata=_doc("a quads may stand in for two of the pairs")
    )


@dataclass(frozen=True, kw_only=True)
class SixPairsTable(SpecialTable):
    """``[specials.six-pairs]``: the payout and what else counts as pairs (a quads as two, a
    trips as one)."""

    quads_count_as_two_pairs: bool = field(
        default=True,
        metadata=_doc(
            "a quads counts as two pairs (000: three quads 'becomes' 三分天下; "
            "001 玩法3: 三分天下 '等于六对半')"
        ),
    )
    trips_count_as_pair: bool = field(
        default=False,
        metadata=_doc("a trips counts as a pair plus the odd card (5 pairs + trips)"),
    )


@dataclass(frozen=True, kw_only=True)
class OptionSpec:
    """One definition option of a special: its default (as written), allowed values, meaning."""

    default: Any
    choices: tuple[Any, ...] | None = None  # None: any value of the default's type
    doc: str = ""


_TABLE_KEYS = frozenset(f.name for f in dataclasses.fields(SpecialTable))


@dataclass(frozen=True, kw_only=True)
class SpecialKind:
    """A special hand simkit knows how to detect: names, definition, codes and table schema.

    ``code`` and ``exact`` are required: a kind the detector or the exact counter cannot handle
    is an error when the registry is built, never a silent count of 0.
    """

    id: str
    name: str  # Chinese name as the digest writes it
    english: str
    definition: str
    code: SpecialCode
    exact: ExactMethod
    table: type[SpecialTable] = SpecialTable

    def __post_init__(self) -> None:
        if not isinstance(self.code, SpecialCode):
            raise SimkitError(f"special {self.id!r}: code must be a SpecialCode, got {self.code!r}")
        if not isinstance(self.exact, ExactMethod):
            raise SimkitError(
                f"special {self.id!r}: exact must be an ExactMethod "
                f"({', '.join(m.value for m in ExactMethod)}), got {self.exact!r}"
            )
        if not (isinstance(self.table, type) and issubclass(self.table, SpecialTable)):
            raise SimkitError(f"special {self.id!r}: table must be a SpecialTable dataclass")

    @property
    def option_names(self) -> tuple[str, ...]:
        """The definition options' keys in the kind's ``[specials.ID]`` table (its fields
        other than ``payout`` and ``source``), in declaration order; empty for a kind with
        none."""
        return tuple(f.name for f in dataclasses.fields(self.table) if f.name not in _TABLE_KEYS)

    @property
    def options(self) -> FrozenMap[str, OptionSpec]:
        """The definition options, read from the table's schema (default, choices, meaning)."""
        hints = get_type_hints(self.table)
        out = {}
        for f in dataclasses.fields(self.table):
            if f.name in _TABLE_KEYS:
                continue
            tp = hints[f.name]
            default = f.default.written() if isinstance(f.default, RankSet) else f.default
            choices: tuple[Any, ...] | None = None
            if get_origin(tp) is Literal:
                choices = get_args(tp)
            elif tp is bool:
                choices = (True, False)
            out[f.name] = OptionSpec(
                default=default, choices=choices, doc=f.metadata.get("doc", "")
            )
        return FrozenMap(out)

    def read_table(self, table: Any, where: str) -> tuple[float, FrozenMap[str, Any], str]:
        """``(payout, options, source)`` of a ``[specials.ID]`` table, checked by the schema."""
        built = build(self.table, table, where, label=f"{self.name} ({self.id})")
        options = FrozenMap({name: getattr(built, name) for name in self.option_names})
        return built.payout, options, built.source


#: Every special hand simkit can detect, by id.  A variant lists the ones it plays.
SPECIAL_KINDS: dict[str, SpecialKind] = {
    k.id: k
    for k in (
        SpecialKind(
            id="clean-dragon",
            name="至尊清龙",
            english="clean dragon",
            definition="A to K all in one suit",
            code=SpecialCode.CLEAN_DRAGON,
            exact=ExactMethod.CARD_LIST,
            table=CleanDragonTable,
        ),
        SpecialKind(
            id="dragon",
            name="一条龙",
            english="dragon",
            definition="one card of each rank A to K",
            code=SpecialCode.DRAGON,
            exact=ExactMethod.RANK_COUNTS,
        ),
        SpecialKind(
            id="royal-twelve",
            name="十二皇族",
            english="twelve royals",
            definition="all cards J, Q, K, A (or all twelve J, Q, K plus any card)",
            code=SpecialCode.ROYAL_TWELVE,
            exact=ExactMethod.RANK_COUNTS,
            table=RoyalTwelveTable,
        ),
        SpecialKind(
            id="three-straight-flushes",
            name="三同花顺",
            english="three straight flushes",
            definition="a 3/5/5 split whose three duns are straight flushes",
            code=SpecialCode.THREE_STRAIGHT_FLUSHES,
            exact=ExactMethod.CARD_LIST,
            table=FrontStraightTable,
        ),
        SpecialKind(
            id="three-quads",
            name="三分天下",
            english="three quads",
            definition="three quads and one card (三套炸弹)",
            code=SpecialCode.THREE_QUADS,
            exact=ExactMethod.RANK_COUNTS,
        ),
        SpecialKind(
            id="all-big",
            name="全大",
            english="all big",
            definition="every card from the listed ranks (8 to A)",
            code=SpecialCode.RANKS_FROM_SET,
            exact=ExactMethod.RANK_COUNTS,
            table=AllBigTable,
        ),
        SpecialKind(
            id="all-small",
            name="全小",
            english="all small",
            definition="every card from the listed ranks (2 to 8)",
            code=SpecialCode.RANKS_FROM_SET,
            exact=ExactMethod.RANK_COUNTS,
            table=AllSmallTable,
        ),
        SpecialKind(
            id="one-color",
            name="凑一色",
            english="one colour",
            definition="all 13 cards red (♦ ♥) or all black (♠ ♣)",
            code=SpecialCode.ONE_COLOR,
            exact=ExactMethod.SUIT_COUNTS,
        ),
        SpecialKind(
            id="three-trips-and-quads",
            name="三冲加弹",
            english="three trips and quads",
            definition="three trips and one quads (000 部分地区)",
            code=SpecialCode.THREE_TRIPS_AND_QUADS,
            exact=ExactMethod.RANK_COUNTS,
        ),
        SpecialKind(
            id="four-trips",
            name="四套三条",
            english="four trips",
            definition="four trips and one card",
            code=SpecialCode.FOUR_TRIPS,
            exact=ExactMethod.RANK_COUNTS,
            table=FourTripsTable,
        ),
        SpecialKind(
            id="five-pairs-and-trips",
            name="五对三条",
            english="five pairs and trips",
            definition="five pairs and one trips",
            code=SpecialCode.FIVE_PAIRS_AND_TRIPS,
            exact=ExactMethod.RANK_COUNTS,
            table=FivePairsAndTripsTable,
        ),
        SpecialKind(
            id="six-pairs",
            name="六对半",
            english="six and a half pairs",
            definition="six pairs and one card",
            code=SpecialCode.SIX_PAIRS,
            exact=ExactMethod.RANK_COUNTS,
            table=SixPairsTable,
        ),
        SpecialKind(
            id="three-flushes",
            name="三同花",
            english="three flushes",
            definition="a 3/5/5 split whose three duns are each of one suit "
            "(straight flushes allowed, 002)",
            code=SpecialCode.THREE_FLUSHES,
            exact=ExactMethod.SUIT_COUNTS,
        ),
        SpecialKind(
            id="three-straights",
            name="三顺子",
            english="three straights",
            definition="a 3/5/5 split whose three duns are straights (front: three in a row)",
            code=SpecialCode.THREE_STRAIGHTS,
            exact=ExactMethod.RANK_COUNTS,
            table=FrontStraightTable,
        ),
    )
}
