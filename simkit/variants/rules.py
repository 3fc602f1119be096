"""The rule objects a variant file is loaded into: frozen, keyword-only dataclasses.

A variant has a ``[variant]`` header, a ``[ranking]`` section, a ``[specials]`` section (the
natural hands, 报到, in the variant's order with their payouts and definitions) and a
``[scoring]`` section (see :mod:`simkit.variants.scoring_rules`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from simkit.cards import RANK_CHARS
from simkit.variants.schema import FrozenMap, VariantError
from simkit.variants.scoring_rules import Scoring


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
class OptionSpec:
    """One definition option of a special hand: its default, allowed values and meaning."""

    default: Any
    choices: tuple[Any, ...] | None = None  # None: any value of the default's type
    doc: str = ""


@dataclass(frozen=True, kw_only=True)
class SpecialKind:
    """A special hand simkit knows how to detect, with the definitions the sources give."""

    id: str
    name: str  # Chinese name as the digest writes it
    english: str
    definition: str
    options: FrozenMap[str, OptionSpec] = field(default_factory=FrozenMap)


_FRONT_STRAIGHT_OPTIONS = FrozenMap(
    {
        "front_qka": OptionSpec(
            default=True,
            choices=(True, False),
            doc="a Q-K-A front counts as a three-card straight (001 excludes it)",
        ),
        "front_a23": OptionSpec(
            default=True,
            choices=(True, False),
            doc="an A-2-3 front counts as a three-card straight",
        ),
    }
)

#: Every special hand simkit can detect, by id.  A variant lists the ones it plays.
SPECIAL_KINDS: dict[str, SpecialKind] = {
    k.id: k
    for k in (
        SpecialKind(
            id="clean-dragon",
            name="至尊清龙",
            english="clean dragon",
            definition="A to K all in one suit",
            options=FrozenMap(
                {
                    "suits": OptionSpec(
                        default="any",
                        choices=("any", "spades"),
                        doc="'any' suit (000/001/002) or 'spades' only (004: 黑桃A至K)",
                    )
                }
            ),
        ),
        SpecialKind(
            id="dragon",
            name="一条龙",
            english="dragon",
            definition="one card of each rank A to K",
        ),
        SpecialKind(
            id="royal-twelve",
            name="十二皇族",
            english="twelve royals",
            definition="all cards J, Q, K, A (or all twelve J, Q, K plus any card)",
            options=FrozenMap(
                {
                    "definition": OptionSpec(
                        default="all-jqka",
                        choices=("all-jqka", "all-jqk-plus-one"),
                        doc="'all-jqka': every card is J, Q, K or A (001, 002); "
                        "'all-jqk-plus-one': the twelve J, Q, K and any card (003, 004)",
                    )
                }
            ),
        ),
        SpecialKind(
            id="three-straight-flushes",
            name="三同花顺",
            english="three straight flushes",
            definition="a 3/5/5 split whose three duns are straight flushes",
            options=_FRONT_STRAIGHT_OPTIONS,
        ),
        SpecialKind(
            id="three-quads",
            name="三分天下",
            english="three quads",
            definition="three quads and one card (三套炸弹)",
        ),
        SpecialKind(
            id="all-big",
            name="全大",
            english="all big",
            definition="every card from the listed ranks (8 to A)",
            options=FrozenMap(
                {
                    "ranks": OptionSpec(
                        default=("8", "9", "T", "J", "Q", "K", "A"),
                        doc="the ranks allowed (004 reads '10, J, Q, K, A')",
                    )
                }
            ),
        ),
        SpecialKind(
            id="all-small",
            name="全小",
            english="all small",
            definition="every card from the listed ranks (2 to 8)",
            options=FrozenMap(
                {
                    "ranks": OptionSpec(
                        default=("2", "3", "4", "5", "6", "7", "8"),
                        doc="the ranks allowed (004 reads 'A, 2, 3, 4, 5')",
                    )
                }
            ),
        ),
        SpecialKind(
            id="one-color",
            name="凑一色",
            english="one colour",
            definition="all 13 cards red (♦ ♥) or all black (♠ ♣)",
        ),
        SpecialKind(
            id="three-trips-and-quads",
            name="三冲加弹",
            english="three trips and quads",
            definition="three trips and one quads (000 部分地区)",
        ),
        SpecialKind(
            id="four-trips",
            name="四套三条",
            english="four trips",
            definition="four trips and one card",
            options=FrozenMap(
                {
                    "quads_count_as_trips": OptionSpec(
                        default=False,
                        choices=(True, False),
                        doc="a quads may stand in for one of the trips (4+3+3+3)",
                    )
                }
            ),
        ),
        SpecialKind(
            id="five-pairs-and-trips",
            name="五对三条",
            english="five pairs and trips",
            definition="five pairs and one trips",
            options=FrozenMap(
                {
                    "quads_count_as_two_pairs": OptionSpec(
                        default=True,
                        choices=(True, False),
                        doc="a quads may stand in for two of the pairs",
                    )
                }
            ),
        ),
        SpecialKind(
            id="six-pairs",
            name="六对半",
            english="six and a half pairs",
            definition="six pairs and one card",
            options=FrozenMap(
                {
                    "quads_count_as_two_pairs": OptionSpec(
                        default=True,
                        choices=(True, False),
                        doc="a quads counts as two pairs (000: three quads 'becomes' 三分天下; "
                        "001 玩法3: 三分天下 '等于六对半')",
                    ),
                    "trips_count_as_pair": OptionSpec(
                        default=False,
                        choices=(True, False),
                        doc="a trips counts as a pair plus the odd card (5 pairs + trips)",
                    ),
                }
            ),
        ),
        SpecialKind(
            id="three-flushes",
            name="三同花",
            english="three flushes",
            definition="a 3/5/5 split whose three duns are each of one suit "
            "(straight flushes allowed, 002)",
        ),
        SpecialKind(
            id="three-straights",
            name="三顺子",
            english="three straights",
            definition="a 3/5/5 split whose three duns are straights (front: three in a row)",
            options=_FRONT_STRAIGHT_OPTIONS,
        ),
    )
}


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


@dataclass(frozen=True, kw_only=True)
class Variant:
    """A fully resolved variant: the rules of one regional game, frozen.

    ``key`` names results produced under it: the name plus a hash of the resolved rules, so a
    change to any rule changes the key.
    """

    name: str
    title: str
    summary: str
    sources: tuple[str, ...]
    notes: tuple[str, ...]
    ranking: Ranking
    specials: Specials
    scoring: Scoring
    path: str
    key: str

    def __repr__(self) -> str:
        return f"Variant({self.key!r})"
