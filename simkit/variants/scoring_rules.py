"""The ``[scoring]`` section of a variant file: how compared duns turn into points.

The section is one table with sub-tables, each a frozen keyword-only dataclass below, each with
a ``source`` string citing the rule text it encodes:

* ``[scoring]``: ``topology`` (who compares with whom), ``compare`` (full ranking or 食夹棍),
  ``transforms`` (the score-only rules applied over the core, in order: the one switch that
  puts a transform in play; its own table holds its parameters only).
* ``[scoring.foul]``: the order that must hold between duns, and what a fouled hand pays.
* ``[scoring.duns]``: what a dun won is worth by position and category (totals or additions).
* ``[scoring.majority]``: a point for winning more duns than the opponent (004, 2-4 scoring).
* ``[scoring.scoop]`` (打枪), ``[scoring.home_run]`` (全垒打), ``[scoring.t_formula]`` (the
  t-based p-player formula of 000/002 §1), ``[scoring.horse]`` (钱塘 马牌).
* ``[scoring.specials]``: how declared special hands (报到) settle.

The scorer (:mod:`simkit.score`) reads these objects only; a rule is never chosen by variant name.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any, Literal

from simkit.errors import SimkitError
from simkit.variants.schema import FrozenMap

#: Category names usable as keys of the dun tables, in :class:`simkit.evaluate.Category` order.
CATEGORY_KEYS: tuple[str, ...] = (
    "high-card",
    "pair",
    "two-pair",
    "trips",
    "straight",
    "flush",
    "full-house",
    "quads",
    "straight-flush",
    "five-of-a-kind",
)

#: Each transform a variant may list in ``[scoring].transforms``, and the attribute of
#: :class:`Scoring` (the ``[scoring.X]`` table) holding its parameters.
TRANSFORM_TABLES: dict[str, str] = {
    "scoop": "scoop",
    "home-run": "home_run",
    "t-formula": "t_formula",
    "horse": "horse",
}
#: Transform names, as ``[scoring].transforms`` writes them.
TRANSFORMS: tuple[str, ...] = tuple(TRANSFORM_TABLES)

MIN_PLAYERS = 2
MAX_PLAYERS = 8


def _check_table(table: FrozenMap[str, float], what: str) -> None:
    for key, value in table.items():
        if key not in CATEGORY_KEYS:
            raise SimkitError(
                f"{what}: unknown category {key!r}; categories are: {', '.join(CATEGORY_KEYS)}"
            )
        if value < 0:
            raise SimkitError(f"{what}.{key}: must be >= 0, got {value}")


@dataclass(frozen=True, kw_only=True)
class TransformTable:
    """The parameters of one transform.  Whether it plays is ``[scoring].transforms``' to say:
    :class:`Scoring` sets ``listed`` (derived, never read from a file) on its own copy."""

    listed: bool = field(default=False, init=False, repr=False, compare=False)

    @property
    def enabled(self) -> bool:
        """Whether the transform is in play (listed in ``[scoring].transforms``)."""
        return self.listed


@dataclass(frozen=True, kw_only=True)
class Foul:
    """倒水 / 相公: the order the duns must keep, and the penalty for breaking it.

    ``front_middle`` / ``middle_back``: ``"<="`` (front ≤ middle, 002/003/004) or ``"<"``
    (front strictly below middle, 001 "第一墩必须小于第二墩"), both on the one scale of
    :mod:`simkit.evaluate`, where a front's missing fourth and fifth cards rank below any card:
    A-K-Q < A-K-Q-3-2, so no front ever equals a middle and ``"<"`` plays exactly as ``"<="``.
    ``front_middle = "<top-three"`` is the reading that gives 001's "小于" its effect: the front
    must be strictly below **the middle's top three**, the middle compared as a 3-card front
    of its category would be (category first, "先比牌型。牌型相同时,再比点数", then only the
    ranks a 3-card hand of that category is ranked by, "由最大点数的牌比起 … 如此类推" stopping
    where the front's cards end):

      * high card: its three highest ranks (A-K-Q-3-2 → A-K-Q);
      * pair: the pair and its highest kicker (Q-Q-4-3-2 → Q-Q-4);
      * trips: the trips (7-7-7-K-2 → 7-7-7; a front can hold them with two decks only);
      * two pair and above: the category alone, above every front.

    So a front fouls there exactly when it is not below the whole middle, or when it has the
    middle's category and the ranks of its top three: Q-Q-4 | Q-Q-4-3-2 and A-K-Q | A-K-Q-3-2
    are fouled, Q-Q-3 | Q-Q-4-3-2 is not.  Its weak form (front ≤ the middle's top three) is
    exactly ``"<="``, so it has no value of its own.
    ``penalty``:
      * ``"lose-all"``: the fouled hand loses every dun to every opponent that did not foul,
        paying the opponent's dun values with their bonuses (001 "凡倒水者全赔");
      * ``"fixed"``: pays ``amount`` to every opponent that did not foul (003: 6);
      * ``"biggest-hand"``: pays every opponent that did not foul ``amount`` or, if larger, the
        value of the round's biggest dun (000/002: "输每家3水（如果玩家家有大牌，则按4个玩家中最大
        的牌型赔3家）").
    ``biggest_of``: which hands' duns size the round's biggest dun for ``"biggest-hand"``:
    ``"normal-hands"`` (those compared normally: a fouled hand's duns are not played) or
    ``"all-hands"`` (the fouled hands' own duns too: "4个玩家中最大的牌型" names all four players).
    Two fouled hands settle nothing between them.
    ``severe_factor``: a hand that breaks both orders, its front above its middle and its
    middle above its back (the ranks on the one scale), pays ``severe_factor`` times the
    penalty to every opponent that did not foul: 004's "严重破坏牌序者将承担全局惩罚" read as a
    heavier penalty for the worse disorder; 1 (the default) pays it as any fouled hand.
    """

    front_middle: Literal["<=", "<", "<top-three"] = "<="
    middle_back: Literal["<=", "<"] = "<="
    penalty: Literal["lose-all", "fixed", "biggest-hand"] = "lose-all"
    amount: float = 3.0
    biggest_of: Literal["normal-hands", "all-hands"] = "normal-hands"
    severe_factor: float = 1.0
    source: str = ""

    def __post_init__(self) -> None:
        if self.amount < 0:
            raise SimkitError(f"foul.amount must be >= 0, got {self.amount}")
        if self.severe_factor < 1:
            raise SimkitError(f"foul.severe_factor must be >= 1, got {self.severe_factor}")


@dataclass(frozen=True, kw_only=True)
class Duns:
    """What winning a dun is worth, by position (front, middle, back) and the winner's category.

    ``mode``:
      * ``"total"``: a dun won with a listed category is worth the listed total (002: trips in
        front scores 3), any other dun won is worth 1;
      * ``"added"``: a dun won is worth 1 plus the listed addition, paid by the loser (001 玩法3).
    A tied dun is worth 0 to both.
    """

    mode: Literal["total", "added"] = "total"
    front: FrozenMap[str, float] = field(default_factory=FrozenMap)
    middle: FrozenMap[str, float] = field(default_factory=FrozenMap)
    back: FrozenMap[str, float] = field(default_factory=FrozenMap)
    source: str = ""

    def __post_init__(self) -> None:
        for name in ("front", "middle", "back"):
            _check_table(getattr(self, name), f"duns.{name}")
        if self.mode == "total":
            for name in ("front", "middle", "back"):
                for key, value in getattr(self, name).items():
                    if value < 1:
                        raise SimkitError(
                            f"duns.{name}.{key}: a total must be >= 1 (a dun won is worth at "
                            f"least 1), got {value}"
                        )

    def values(self) -> tuple[tuple[float, ...], tuple[float, ...], tuple[float, ...]]:
        """Worth of a dun won, per position, indexed by category (ten entries each)."""
        out = []
        for name in ("front", "middle", "back"):
            table = getattr(self, name)
            if self.mode == "total":
                row = tuple(float(table.get(k, 1.0)) for k in CATEGORY_KEYS)
            else:
                row = tuple(1.0 + float(table.get(k, 0.0)) for k in CATEGORY_KEYS)
            out.append(row)
        return out[0], out[1], out[2]


@dataclass(frozen=True, kw_only=True)
class Majority:
    """A match point for the player who wins the pair's comparison overall.

    ``rule``: ``"more-wins"`` (more duns won than lost: 1 win + 2 ties wins, 1-1-tie is a tie)
    or ``"two-wins"`` (at least two duns won, 004 "三墩中至少赢两墩者").  ``points``: what the match
    is worth.  ``replaces_duns``: the match result replaces the per-dun count (duns and their
    bonuses then score nothing).
    """

    enabled: bool = False
    rule: Literal["more-wins", "two-wins"] = "more-wins"
    points: float = 1.0
    replaces_duns: bool = False
    source: str = ""


@dataclass(frozen=True, kw_only=True)
class Scoop(TransformTable):
    """打枪: one player wins all three duns against another.

    ``mode`` (how the scoop pays; read back as ``"none"`` when ``scoop`` is not listed in
    ``[scoring].transforms``): ``"add"``: the scooper wins ``points[p - 2]`` more from the
    scooped player (p = players at the table, 2..8); ``"double"``: the pair's points are doubled
    (``doubles``: ``"base"`` the dun count only, 001 台湾 "基本注翻倍"; ``"all"`` duns with their
    bonuses).  ``with_ties``: one or two tied duns with the rest won also count
    (002 "三墩1胜2和或2胜1和，按打枪处理").  ``requires_no_specials``: only when nobody at the table
    declared a special (002 "均无特殊牌型时才会执行").
    """

    # Written ``mode`` in files; the ``mode`` property reads "none" while the scoop is not listed.
    pays: Literal["add", "double"] = field(default="add", metadata={"key": "mode"})
    points: tuple[float, ...] = (0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0)
    doubles: Literal["base", "all"] = "all"
    with_ties: bool = False
    requires_no_specials: bool = False
    source: str = ""

    def __post_init__(self) -> None:
        n = MAX_PLAYERS - MIN_PLAYERS + 1
        if len(self.points) != n:
            raise SimkitError(
                f"scoop.points: expected {n} numbers (for 2..{MAX_PLAYERS} players), "
                f"got {len(self.points)}"
            )
        if any(v < 0 for v in self.points):
            raise SimkitError("scoop.points: values must be >= 0")

    @property
    def mode(self) -> Literal["add", "double", "none"]:
        """How the scoop pays, ``"none"`` when it is not in play."""
        return self.pays if self.listed else "none"


@dataclass(frozen=True, kw_only=True)
class HomeRun(TransformTable):
    """全垒打 / 通杀 / 红不让: one player scoops every other player at the table.

    ``extra_per_opponent``: each other player pays this much more (000/002 §3.1: 12, so the
    runner gets 12(p-1)); ``extra_two_players``: the same at a 2-player table.
    ``factor``: the runner's points are multiplied by this number, or by p-1 (``"p-minus-1"``,
    000/002 §3.2); ``split``: ``"pairs"``: each of the runner's pairwise results is multiplied
    (001 台湾 "再倍增": 6 from each becomes 12); ``"even"``: the runner's whole result is
    multiplied and the others pay the increase in equal shares (001 玩法3 "负分由三名玩家平均分摊").
    ``doubles`` (what the factor multiplies): ``"all"``: every point of the runner's pairs (or
    total), bonuses included; ``"base"``: the dun count only, counted twice where a doubling
    scoop (打枪) already doubled it (001 台湾 "除“打枪”所获得的各家基本注翻倍以外,此时所赢得之
    基本注再倍增": the base 3, 6 after the scoop, becomes 12; the dun bonuses are not doubled).
    ``min_players``: the smallest table where it applies.
    ``fouled``: what a fouled opponent does to it.  ``"block"``: the runner must scoop every
    other player in a comparison, and a fouled hand is not compared (it pays its penalty), so
    one fouled hand at the table leaves no home run; ``"beaten"``: a fouled opponent counts as
    beaten in every dun ("三墩均胜过其余所有对手" read over the hands that were set legally; at
    least one opponent must be scooped in a comparison), its
    pair multiplied as the others (its penalty with ``doubles = "all"``; with ``"base"`` only
    the extra, its dun count being 0).  The sources do not say (002 §3, 004 全垒打).
    """

    extra_per_opponent: float = 0.0
    extra_two_players: float = 0.0
    factor: float | Literal["p-minus-1"] = 1.0
    split: Literal["pairs", "even"] = "pairs"
    doubles: Literal["all", "base"] = "all"
    min_players: int = 3
    fouled: Literal["block", "beaten"] = "block"
    source: str = ""

    def __post_init__(self) -> None:
        if not MIN_PLAYERS <= self.min_players <= MAX_PLAYERS:
            raise SimkitError(f"home_run.min_players must be 2..8, got {self.min_players}")
        if isinstance(self.factor, float) and self.factor < 1:
            raise SimkitError(f"home_run.factor must be >= 1, got {self.factor}")
        if self.extra_per_opponent < 0 or self.extra_two_players < 0:
            raise SimkitError("home_run extras must be >= 0")

    def factor_for(self, n_players: int) -> float:
        """The home run's factor at ``n_players``: ``n_players - 1`` for ``"p-minus-1"``, else
        the fixed factor."""
        return float(n_players - 1) if self.factor == "p-minus-1" else float(self.factor)

    def extra_for(self, n_players: int) -> float:
        """The extra points at ``n_players``: :attr:`extra_two_players` heads-up, else
        :attr:`extra_per_opponent`."""
        return self.extra_two_players if n_players == 2 else self.extra_per_opponent


@dataclass(frozen=True, kw_only=True)
class TFormula(TransformTable):
    """The t-based p-player formula of 000/002 §1.1-1.4, replacing the per-dun count.

    t is the value of the round's biggest dun (``t = "biggest-dun"``: the largest dun worth, in
    the ``[scoring.duns]`` table, among the hands compared normally; 1 when no dun has a bonus).
    The q players compared normally are ranked by ``rank_by`` (``"net-waters"``: their net
    from the pairwise dun comparison with bonuses; the sources do not state the key) and place k
    (0 = first) is paid (q - 1 - 2k)·t: +3t, +t, -t, -3t for four, +2t, 0, -2t for three.
    Players tied on the key share the mean of their places' payments (§1.4).  Applies when
    q >= ``min_players``; below that the pairwise count stands.
    """

    rank_by: Literal["net-waters"] = "net-waters"
    t: Literal["biggest-dun"] = "biggest-dun"
    min_players: int = 3
    source: str = ""

    def __post_init__(self) -> None:
        if not MIN_PLAYERS <= self.min_players <= MAX_PLAYERS:
            raise SimkitError(f"t_formula.min_players must be 2..8, got {self.min_players}")


@dataclass(frozen=True, kw_only=True)
class Horse(TransformTable):
    """马牌 (004): a marked card, written as cards are parsed (``"AH"``, ``"♥A"``).

    ``counts`` (what the card rewards):
      * ``"winning-dun"``: a dun that holds the card and wins its comparison with a normal hand
        counts ``multiplier`` times (its worth, with its bonus) against that opponent (004
        "若玩家成功将其纳入有效墩位并在比牌中获胜，即可获得额外奖励 … 中墩组出含“马牌”的顺子，不仅
        赢得该墩，还可叠加马牌收益"); a dun that loses or ties, a fouled hand and a special earn
        nothing by it.  双马牌 ("一旦触发，奖励直接翻倍"): read as both copies of the card (two
        decks) in one winning dun, which counts ``multiplier``² times; copies in different duns
        reward each dun once.
      * ``"whole-result"``: each copy a player holds multiplies that player's pairwise results,
        losses included, by ``multiplier`` (two copies: ×multiplier²).
    """

    card: str = "AH"
    multiplier: float = 2.0
    counts: Literal["winning-dun", "whole-result"] = "winning-dun"
    source: str = ""

    def __post_init__(self) -> None:
        from simkit.cards import parse_cards  # cards sits below variants: no cycle

        try:
            parsed = parse_cards(self.card)
        except ValueError as exc:
            raise SimkitError(f"horse.card: {exc}") from exc
        if len(parsed) != 1:
            raise SimkitError(f"horse.card: expected one card, got {self.card!r}")
        if self.multiplier < 1:
            raise SimkitError(f"horse.multiplier must be >= 1, got {self.multiplier}")

    @property
    def card_int(self) -> int:
        """The horse card as a card int (:mod:`simkit.cards`)."""
        from simkit.cards import parse_cards

        return int(parse_cards(self.card)[0])


@dataclass(frozen=True, kw_only=True)
class SpecialSettlement:
    """How declared special hands (报到) settle; payouts are in ``[specials]``.

    A special wins its payout from every normal hand it meets (fouled or not).  ``versus``, when
    two specials meet: ``"bigger-collects"``: the bigger (earlier in ``[specials].order``) wins
    its payout from the smaller, equal specials tie (002; 001 玩法3 "较小的牌还是要支付较大的");
    ``"banker-pays"``: at a banker table the banker pays the player the player's payout (001
    "倘若庄家及闲家同时报到，由庄家赔闲家"), players otherwise as ``bigger-collects``.
    ``all_special``: when nobody holds a normal hand (000/002 §4.3): ``"pairwise"`` (the third
    method: settle as §4.2, pair by pair), ``"places"`` (the first method: the formula of §1,
    ranked by special order, t = the biggest payout) or ``"pivot"`` (the second method, "仅限4人
    或4人以上: 先确定p/2名的位置，将其计0分若结果为半数则不计任何人0分。排名靠后的对应扣分":
    ranked and t as ``"places"``; with places k = 1..p and the pivot m = p/2, place m scores 0
    (no place does when m is a half), each place k below it pays (k - m)·t, and the places above
    it share what those pay in proportion to their distance m - k (the text does not say who
    collects: read so that the game stays zero-sum); four players +3t, 0, -t, -2t, five
    +3.375t, +1.125t, -0.5t, -1.5t, -2.5t; tied specials share the mean of their places'
    scores (§1.4); below four players the pairwise settlement stands).  ``stack``: a hand that
    qualifies for several specials is paid the sum of their payouts, not only the declared
    one's.
    ``sweep``: special id → multiplier: a declared special of that id that collects from every
    other player at the table (通杀: it beats every hand; a tie with an equal special or a loss
    to a bigger one is no sweep, nor is a player's special at a banker table, which meets the
    banker only) is paid its pairwise payments times the multiplier (004 至尊清龙 "其他玩家每家
    输104水，通杀时奖励翻倍"; 一条龙 "通杀翻倍": 2).
    """

    versus: Literal["bigger-collects", "banker-pays"] = "bigger-collects"
    all_special: Literal["pairwise", "places", "pivot"] = "pairwise"
    stack: bool = False
    sweep: FrozenMap[str, float] = field(default_factory=FrozenMap)
    source: str = ""

    def __post_init__(self) -> None:
        for key, value in self.sweep.items():
            if value < 1:
                raise SimkitError(f"specials.sweep.{key}: must be >= 1, got {value}")


@dataclass(frozen=True, kw_only=True)
class Scoring:
    """How a variant pays: the ``[scoring]`` section.

    ``topology``: ``"all-pairs"`` (every pair of players compares) or ``"banker"`` (each player
    compares with the banker only).  ``compare``: ``"full"`` (category then ranks) or
    ``"top-card"`` (食夹棍, 001 "先比牌型。牌型相同时,再比点数 … 只比点数最大的一只牌。倘若
    相同,一律由庄家胜": the category first; within one category only the rank of the dun's
    highest card, the banker winning ties; bonuses go by the winner's category).
    ``transforms``: the score-only rules applied over the core pairwise scores, in order (any
    of ``scoop``, ``home-run``, ``t-formula``, ``horse``): the list alone puts a transform in
    play; its table (``scoop``, ``home_run``, ``t_formula``, ``horse``) holds its parameters,
    and reads ``enabled`` from the list.  The Philippine
    three-card pass is a deal rule: ``Variant.deal`` (the ``[deal]`` section).
    """

    topology: Literal["all-pairs", "banker"] = "all-pairs"
    compare: Literal["full", "top-card"] = "full"
    transforms: tuple[Literal["scoop", "home-run", "t-formula", "horse"], ...] = ()
    foul: Foul = field(default_factory=Foul)
    duns: Duns = field(default_factory=Duns)
    majority: Majority = field(default_factory=Majority)
    scoop: Scoop = field(default_factory=Scoop)
    home_run: HomeRun = field(default_factory=HomeRun)
    t_formula: TFormula = field(default_factory=TFormula)
    horse: Horse = field(default_factory=Horse)
    specials: SpecialSettlement = field(default_factory=SpecialSettlement)
    source: str = ""

    def __post_init__(self) -> None:
        for listed in self.transforms:
            if listed not in TRANSFORMS:
                raise SimkitError(
                    f"transforms: unknown transform {listed!r}; valid: {', '.join(TRANSFORMS)}"
                )
        if len(set(self.transforms)) != len(self.transforms):
            raise SimkitError(f"transforms: a transform is listed twice: {list(self.transforms)}")
        for name, attr in TRANSFORM_TABLES.items():
            # A copy of our own, so a table shared with another Scoring keeps its own flag.
            table = dataclasses.replace(getattr(self, attr))
            object.__setattr__(table, "listed", name in self.transforms)
            object.__setattr__(self, attr, table)
        order = {name: i for i, name in enumerate(self.transforms)}
        if "t-formula" in order and "scoop" in order:
            if self.scoop.mode == "double" and order["scoop"] > order["t-formula"]:
                raise SimkitError(
                    "a doubling scoop cannot follow the t-formula, which replaces the dun "
                    "points it doubles"
                )
        if "t-formula" in order and "home-run" in order and self.home_run.split == "pairs":
            if order["home-run"] > order["t-formula"]:
                raise SimkitError(
                    "home_run.split = 'pairs' cannot follow the t-formula, whose "
                    "results are not pairwise; use split = 'even'"
                )
        if "horse" in order:
            if order["horse"] != len(self.transforms) - 1:
                raise SimkitError("horse must be the last transform")
            if "t-formula" in order or ("home-run" in order and self.home_run.split == "even"):
                raise SimkitError(
                    "horse multiplies pairwise results: it cannot be combined "
                    "with the t-formula or an even-split home run"
                )

    def __getattr__(self, name: str) -> Any:
        if name in ("pass_rounds", "pass_direction"):
            raise AttributeError(
                f"Scoring.{name} is a deal rule now: read variant.deal.{name} ([deal.passing])"
            )
        raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")
