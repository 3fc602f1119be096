"""Clause tests for readings of the sources that were once scored wrong: each quotes its clause
and works the figure by hand.

Hands are written ``"front | middle | back"``; seat 0 is the banker unless a test says otherwise.
"""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest
from conftest import table

from simkit.cards import parse_cards
from simkit.score import fouled, score
from simkit.variants import load_variant
from simkit.variants.schema import FrozenMap


def over(tmp_path, base: str, text: str):
    path = tmp_path / "v.toml"
    path.write_text(f'[variant]\nname = "v"\nextends = "{base}"\n{text}\n', encoding="utf-8")
    return load_variant(path)


# --- 001 香港 / 台式: 食夹棍 ------------------------------------------------------------------


def test_001_shijiagun_compares_the_category_before_the_top_card(tmp_path) -> None:
    """001 香港 and 台式: "比较时,先比牌型。牌型相同时,再比点数 … 部分玩法的规则订成对庄家稍为
    有利:只比点数最大的一只牌。倘若相同,一律由庄家胜(俗称食夹棍)".

    Banker J53 | Q-high | AA88, player K64 | 22 | AA99.  Front: both high card, K over J →
    player.  Middle: the player's pair of 2s is a bigger category than the banker's Q-high →
    player (comparing the top card alone, Q over 9, gave it to the banker).  Back: two pair
    each, top card A and A → tied → banker.  Player +1 (the full comparison: +3, the back's
    99 over 88 won too; the top card alone: -1)."""
    variant = over(tmp_path, "hongkong", '[scoring]\ncompare = "top-card"')
    banker = "Jc 5d 3c | Qh Jd 9c 7s 4h | Ac Ad 8c 8d 6h"
    player = "Ks 6d 4c | 2h 2s 9d 7d 3h | Ah As 9s 9h 4d"
    arranged = table(banker, player)
    assert score(arranged, variant, banker=0).tolist() == [[-1.0, 1.0]]
    assert score(arranged, "hongkong", banker=0).tolist() == [[-3.0, 3.0]]


# --- 001 台湾玩法: 全垒打 ----------------------------------------------------------------------

# The banker's front trips (worth 3 in 001's table) win a bonus of 2; its flush middle and
# full-house back are worth 1 each.  Each player loses every dun to it.
HOME_RUN_TABLE = (
    "Ah Ad Ac | 2s 5s 8s Ts Qs | Kc Kd Kh 3c 3d",
    "Qd Qh 4c | 6c 7d 8h 9c Th | Jc Jd Js 5c 5d",
    "2c 2d 4d | 3h 3s 6d 6h 9d | 4h 5h 7h 9h Jh",
    "Ks As 2h | 7c 7s 4s 6s 9s | 8c 8d Tc Td Qc",
)


def test_001_taiwan_home_run_doubles_the_base_not_the_bonuses(tmp_path) -> None:
    """001 台湾玩法 全垒打: "除“打枪”所获得的各家基本注翻倍以外,此时所赢得之基本注再倍增(原本各家
    打枪后赢得各家六注,此时倍翻为十二注)".

    The banker scoops all three players with trips in front: the base 3, doubled by the scoop
    (打枪 "基本注翻倍") to 6, doubled again by the home run to 12, plus the front's bonus 2 =
    14 from each player, 42 in all.  Doubling the bonus with the base (doubles = 'all') gave
    (3 + 2 + 3) × 2 = 16 a player."""
    arranged = table(*HOME_RUN_TABLE)
    total, parts = score(arranged, "taiwan", banker=0, breakdown=True)
    assert total.tolist() == [[42.0, -14.0, -14.0, -14.0]]
    assert parts["duns"][0, 1:].tolist() == [-3.0] * 3
    assert parts["bonuses"][0, 1:].tolist() == [-2.0] * 3
    assert parts["scoops"][0, 1:].tolist() == [-3.0] * 3
    assert parts["home_run"][0, 1:].tolist() == [-6.0] * 3
    everything = over(tmp_path, "taiwan", '[scoring.home_run]\ndoubles = "all"')
    assert score(arranged, everything, banker=0).tolist() == [[48.0, -16.0, -16.0, -16.0]]


# --- 004 钱塘: 至尊清龙 / 一条龙 通杀翻倍 ------------------------------------------------------

# Three players (the 马牌 ♥A is not dealt): seat 0 holds A-K of diamonds (a dragon, 一条龙),
# seat 1 the thirteen spades (004's 至尊清龙), seat 2 A-K of clubs (a dragon).
DRAGONS = (
    "2d 3d 4d | 5d 6d 7d 8d 9d | Td Jd Qd Kd Ad",
    "2s 3s 4s | 5s 6s 7s 8s 9s | Ts Js Qs Ks As",
    "2c 3c 4c | 5c 6c 7c 8c 9c | Tc Jc Qc Kc Ac",
)


def test_004_dragons_collect_double_when_they_beat_every_hand() -> None:
    """004 (二) 特殊牌型: "1. 至尊清龙:黑桃A至K完整一套。极为罕见,其他玩家每家输104水,通杀时
    奖励翻倍。2. 一条龙:A至K十三张牌(花色不限)。其他玩家每家输52水,通杀翻倍。"

    A clean dragon against two normal hands: 104 × 2 from each, +416.  Against a declared
    dragon it still beats every hand: +416; the dragon, beaten, collects only its 52 from the
    normal hand.  Two dragons tie, so neither sweeps: 52 each from the third hand.  A lone
    dragon: 52 × 2 from each, +208."""
    v = load_variant("qiantang")
    clean, dragon = v.specials.ids.index("clean-dragon"), v.specials.ids.index("dragon")
    arranged = table(*DRAGONS)
    cases = {
        (-1, clean, -1): [-208.0, 416.0, -208.0],
        (-1, clean, dragon): [-208.0 - 52.0, 416.0, -208.0 + 52.0],
        (dragon, -1, dragon): [52.0, -104.0, 52.0],
        (-1, -1, dragon): [-104.0, -104.0, 208.0],
    }
    for declared, expected in cases.items():
        _total, parts = score(arranged, v, declared=np.array([declared]), breakdown=True)
        assert parts["specials"].tolist() == [expected], declared
    # Without the sweep rule (the other reading: 通杀 adds nothing) the clean dragon gets 208.
    plain = dataclasses.replace(
        v,
        scoring=dataclasses.replace(
            v.scoring, specials=dataclasses.replace(v.scoring.specials, sweep=FrozenMap())
        ),
    )
    _total, parts = score(arranged, plain, declared=np.array([[-1, clean, -1]]), breakdown=True)
    assert parts["specials"].tolist() == [[-104.0, 208.0, -104.0]]


# --- 002 / 000 §4.3: nobody holds a normal hand ---------------------------------------------


def test_002_4_3_second_method_pivot_place_scores_zero_lower_places_pay(tmp_path) -> None:
    """002 4.3: "若无人含有普通牌型，则有以下两种方法——第一种：按（1）中的方法计分第二种（仅限4人或4人
    以上）：先确定p/2名的位置，将其计0分若结果为半数则不计任何人0分。排名靠后的对应扣分第三种：按4.2的
    方法处理" (000 the same).

    Four specials, ranked 一条龙 (36) > 凑一色 > 六对半 > 三同花: t = 36, the pivot is place
    4/2 = 2.  The second method: place 2 scores 0, places 3 and 4 pay 1t and 2t, place 1
    collects both: +108, 0, -36, -72.  The first method (§1): +3t, +t, -t, -3t.  The third
    (§4.2, pair by pair): the dragon 3 × 36 = 108; 凑一色 +10 +10 -36 = -16; 六对半 +4 -10 -36
    = -42; 三同花 -4 -10 -36 = -50.  Two dragons tie for places 1-2 and share (108 + 0) / 2."""
    from simkit.deal import deal

    pivot = over(tmp_path, "guangxi", '[scoring.specials]\nall_special = "pivot"')
    ids = pivot.specials.ids
    six, dragon, flushes, color = (
        ids.index(k) for k in ("six-pairs", "dragon", "three-flushes", "one-color")
    )
    hands = deal(1, 4, rng=0)  # the cards do not matter: every hand declares
    declared = np.array([[six, dragon, flushes, color]])
    assert score(hands, pivot, declared=declared).tolist() == [[-36.0, 108.0, -72.0, 0.0]]
    first = over(tmp_path, "guangxi", '[scoring.specials]\nall_special = "places"')
    assert score(hands, first, declared=declared).tolist() == [[-36.0, 108.0, -108.0, 36.0]]
    third = score(hands, "guangxi", declared=declared).tolist()
    assert third == [[-42.0, 108.0, -50.0, -16.0]]
    tied = np.array([[dragon, dragon, six, flushes]])
    assert score(hands, pivot, declared=tied).tolist() == [[54.0, 54.0, -36.0, -72.0]]
    # "仅限4人或4人以上": three players settle pair by pair (the third method): the dragon
    # +72, 六对半 -36 + 4 = -32, 三同花 -40.
    three = score(deal(1, 3, rng=0), pivot, declared=np.array([[dragon, six, flushes]]))
    assert three.tolist() == [[72.0, -32.0, -40.0]]


# --- 004 钱塘: 马牌 ------------------------------------------------------------------------


def test_004_horse_card_rewards_the_winning_dun_that_holds_it(tmp_path) -> None:
    """004 马牌: "若玩家成功将其纳入有效墩位并在比牌中获胜，即可获得额外奖励。例如，中墩组出含“马牌”
    的顺子，不仅赢得该墩，还可叠加马牌收益"; 双马牌 "一旦触发，奖励直接翻倍".

    The holder of ♥A (the file's 马牌) wins the front with A♥A♦ and loses the middle (straight
    against a flush) and the back (full house against quads): duns 1 - 2 = -1, the match
    (two of three, lost) -1: -2; the horse front counts twice: +1 more, -1.  Multiplying
    the whole result, losses included (counts = 'whole-result'), gave -4.  With both ♥A in
    that front (two decks, 双马牌) it counts 2 × 2 = 4 times: +3, so +1."""
    holder = "Ah Ad 5c | 2c 3d 4h 5d 6s | 7c 7d 7s 9c 9d"
    other = "Kc Kd 4c | 2h 6h 8h Th Qh | Js Jh Jc Jd 3s"
    total, parts = score(table(holder, other), "qiantang", breakdown=True)
    assert total.tolist() == [[-1.0, 1.0]]
    assert parts["horse"].tolist() == [[1.0, -1.0]]
    whole = over(tmp_path, "qiantang", '[scoring.horse]\ncounts = "whole-result"')
    assert score(table(holder, other), whole).tolist() == [[-4.0, 4.0]]
    double = "Ah Ah 5c | 2c 3d 4h 5d 6s | 7c 7d 7s 9c 9d"
    assert score(table(double, other, decks=2), "qiantang").tolist() == [[1.0, -1.0]]
    # ♥A in the holder's losing middle (a wheel, under the flush) earns nothing: -2.
    losing = "Ac Ad 6s | Ah 2c 3d 4h 5d | 7c 7d 7s 9c 9d"
    total, parts = score(table(losing, other), "qiantang", breakdown=True)
    assert total.tolist() == [[-2.0, 2.0]]
    assert parts["horse"].tolist() == [[0.0, 0.0]]


# --- 002 倒水: whose duns size the biggest hand ---------------------------------------------


def test_002_foul_biggest_hand_with_or_without_the_foulers_own_duns(tmp_path) -> None:
    """002 倒水: "输每家3水（如果玩家家有大牌，则按4个玩家中最大的牌型赔3家）".

    The fouled hand sets four 8s in the middle above a Q-high back; the other two hands hold
    no dun worth more than 1.  Read over the hands compared normally (the file's reading) the
    biggest dun is 1, so the fouler pays 3 to each: -6.  Read over all the players ("4个玩家中
    最大的牌型", biggest_of = 'all-hands') its own middle quads (8 in 002's table) size it: 8
    to each, -16."""
    fouled = "2c 3d 4c | 8c 8d 8h 8s 9c | Qc Jd Td 6d 9s"
    others = (
        "Ah 4d 2s | 7d 7h 3h 3c 6h | Jh Js Th Ts 7s",
        "Kh Kd 5c | 4h 4s 9h 9d Ad | Qh Qs Qd 5d 5h",
    )
    arranged = table(fouled, *others)
    _total, parts = score(arranged, "guangxi", breakdown=True)
    assert parts["fouls"].tolist() == [[-6.0, 3.0, 3.0]]
    every = over(tmp_path, "guangxi", '[scoring.foul]\nbiggest_of = "all-hands"')
    _total, parts = score(arranged, every, breakdown=True)
    assert parts["fouls"].tolist() == [[-16.0, 8.0, 8.0]]


# --- 002 / 000 四套三条: a quads as one of the trips ------------------------------------------


def test_002_four_trips_a_quads_is_not_a_trips_unless_the_option_says(tmp_path) -> None:
    """002 四套三条: "四个三张相同余一张"; 000 §6: "三冲加弹，也就是三个三条再加上四个炸弹，像二十二二，
    三三三，四四四，五五五五这种情况". 222 999 KKK 5555 is 四套三条 only when a quads may stand in
    for a trips (quads_count_as_trips = true, which 002's words admit); the files take 000's
    reading, which names exactly this hand 三冲加弹."""
    from simkit.specials import detect_specials

    hand = parse_cards("2c 2d 2h 9c 9d 9h Kc Kd Kh 5c 5d 5h 5s")
    gx = load_variant("guangxi")
    bit = 1 << gx.specials.ids.index("four-trips")
    assert not gx.specials.rules[gx.specials.ids.index("four-trips")].option("quads_count_as_trips")
    assert int(detect_specials(hand, gx)) & bit == 0
    admitted = over(tmp_path, "guangxi", "[specials.four-trips]\nquads_count_as_trips = true")
    assert int(detect_specials(hand, admitted)) & bit == bit
    regional = load_variant("guangxi-regional")
    quads_bit = 1 << regional.specials.ids.index("three-trips-and-quads")
    assert int(detect_specials(hand, regional)) & quads_bit == quads_bit


def test_001_taiwan_home_run_the_strategy_prices_the_base_only():
    """001 台湾玩法 "此时所赢得之基本注再倍增": the max-ev value model reads the same compiled
    rule as the scorer.  A hand sure to win every dun, front trips (worth 3), against each of
    three opponents: 3 duns + 2 bonus, the scoop doubles the count (+3), the home run doubles
    the doubled count again (+6): 14 a player, 42 in all (not 16 a player)."""
    from simkit.arrange.search import INDEPENDENT_JOINT
    from simkit.arrange.value import expected_points, payout_model
    from simkit.variants import load_variant

    model = payout_model(load_variant("taiwan"), 4)
    assert model.params["home_base"] == 6.0
    chances = (1.0, 1.0, 1.0, 0.0, 0.0, 0.0)  # every dun won, none lost
    worths = (3.0, 1.0, 1.0, 0.0, 0.0, 0.0)
    value = expected_points(*chances, *worths, model.params[()], INDEPENDENT_JOINT)
    assert value == 42.0
    for name in ("guangxi", "fujian", "wiki-points", "qiantang"):
        assert payout_model(load_variant(name), 4).params["home_base"] == 0.0


# --- 001 香港 / 台式 / 玩法3: 第一墩必须小于第二墩 -----------------------------------------------


def test_001_front_strictly_below_the_middles_top_three(tmp_path) -> None:
    """001 香港 (台式 and 玩法3 the same): "第一墩必须小于第二墩,第二墩必须小于或等于第三墩,否则为
    “倒水”(摆乌龙)。凡“倒水”者全赔", read with ``front_middle = "<top-three"``.

    Player Q♦Q♣4♠ | Q♠Q♥4♦3♣2♠ | T♣T♦T♥8♠6♦ against the banker J♣7♦5♣ | 9♣9♦8♣6♣2♦ |
    A♠A♦K♣K♦7♣.  Today's order ranks the front Q-Q-4 below the middle Q-Q-4-3-2 (their
    pairs and first kickers tie; the front has no 3 and 2 to follow), so the hand is legal and
    wins every dun: pair over J-high, queens over nines, trips over two pair, +3 (香港 pays
    no 打枪).  The middle's top three are Q-Q-4 (the pair and its highest kicker): the front
    equals them, is not 小于, and the hand is 倒水: 全赔, it pays the banker's three duns, 1
    each, -3.  The front Q♦Q♣3♠ is below Q-Q-4 (3 < 4): legal in both readings, +3."""
    variant = over(tmp_path, "hongkong", '[scoring.foul]\nfront_middle = "<top-three"')
    banker = "Jc 7d 5c | 9c 9d 8c 6c 2d | As Ad Kc Kd 7c"
    equal = table(banker, "Qd Qc 4s | Qs Qh 4d 3c 2s | Tc Td Th 8s 6d")
    below = table(banker, "Qd Qc 3s | Qs Qh 4d 3c 2s | Tc Td Th 8s 6d")
    assert score(equal, "hongkong", banker=0).tolist() == [[-3.0, 3.0]]
    assert score(equal, variant, banker=0).tolist() == [[3.0, -3.0]]
    assert score(below, "hongkong", banker=0).tolist() == [[-3.0, 3.0]]
    assert score(below, variant, banker=0).tolist() == [[-3.0, 3.0]]
    assert fouled(equal, variant).tolist() == [[False, True]]
    assert fouled(equal, "hongkong").tolist() == [[False, False]]


# --- 004 钱塘: 谈判 / 抛牌 skip the comparison, and 全垒打 needs every opponent beaten in it ------

# HOME_RUN_TABLE's first hand wins every dun from the three others.  In qiantang (duns 1 each,
# the majority point, 打枪 "奖励翻倍" doubling all, the 马牌 ♥A in the winner's front worth one
# dun more) it wins 3 + 1 = 4 from each, 8 with 打枪, +1 for the ♥A front: 9 a pair.  Its 全垒打
# ("奖励大幅加成", read as doubling again) adds 8 a pair: 17.


def _phases_play(hands: tuple[str, ...], values: list[float], **tables):
    from phases.test_phases_settle import as_arrangement, identity_expected, with_phases

    from simkit.phases.expected import pair_results
    from simkit.phases.settle import settle

    variant = with_phases(**tables)
    play = as_arrangement(table(*hands), variant, np.array([values], dtype=np.float64))
    _, pairs = pair_results(play, variant)
    found = settle(play, variant, pairs, identity_expected(len(hands), len(variant.specials)))
    return play, variant, found


def _final(play, variant, found) -> list[float]:
    from phases.test_phases_settle import final_scores

    return final_scores(play, variant, found)[0].tolist()


def test_004_negotiated_pair_skips_the_comparison_so_no_home_run() -> None:
    """004 谈判: "若双方达成一致，则跳过比牌直接结算"; 全垒打: "某玩家三墩均胜过其余所有对手".

    Issue 52's example, four players: player 1 holds the hand that wins every dun from all
    three, and settles with the banker (its expected +2 against the banker's -5: X = 4, the
    whole unit nearest the midpoint 3.5).  It then compares with players 2 and 3 only and beats
    both: 打枪 on each, 9 a pair, and no 全垒打, since it did not beat the banker in a comparison:
    4 + 9 + 9 = 22 (the home run over every pair paid 4 + 17 + 17 = 38)."""
    from simkit.variants.rules import Negotiation

    hands = (HOME_RUN_TABLE[1], HOME_RUN_TABLE[0], HOME_RUN_TABLE[2], HOME_RUN_TABLE[3])
    play, variant, found = _phases_play(
        hands, [-5.0, 2.0, 10.0, 10.0], negotiation=Negotiation(enabled=True)
    )
    assert found.settled.tolist() == [[True, False, False]]
    assert found.amount.tolist() == [[4.0, 0.0, 0.0]]
    final = _final(play, variant, found)
    assert final[1] == 22.0
    assert sum(final) == 0.0
    # the scorer itself, with the settled pair skipped: 打枪 on the two pairs, no 全垒打
    skipped = found.skipped
    assert skipped[0, 0, 1] and skipped[0, 1, 0] and skipped.sum() == 2
    _, parts = score(play.cards, variant, skipped=skipped, breakdown=True)
    assert parts["scoops"][0, 1] == 8.0
    assert not parts["home_run"].any()


def test_004_surrender_before_the_comparison_skips_it_so_no_home_run() -> None:
    """004 抛牌: "玩家可在比牌前或比牌后选择“抛牌”直接结算" (before: the pair skips the comparison).

    The banker holds the winning hand; player 1 (expecting -10, below -3) surrenders before the
    comparison and pays the cost 3.  The banker beats players 2 and 3 in the comparison, 9 each
    with 打枪, and scores no 全垒打: 3 + 9 + 9 = 21 (with the home run: 3 + 17 + 17 = 37)."""
    from simkit.variants.rules import Surrender

    play, variant, found = _phases_play(
        HOME_RUN_TABLE, [0.0, -10.0, 0.0, 0.0], surrender=Surrender(enabled=True, cost=3)
    )
    assert found.surrendered.tolist() == [[1, 0, 0]]
    assert _final(play, variant, found)[0] == 21.0


def test_004_surrender_after_the_comparison_keeps_the_home_run() -> None:
    """004 抛牌: "若选择比牌后再抛牌 … 须按原结果支付对应道数": after the comparison the pair has
    compared, so the banker's 全垒打 stands; a player may then surrender its result for the cost.

    Cost 12: each player, shown a loss of 17 (the home run's), surrenders and pays 12: the
    banker has 36."""
    from simkit.variants.rules import Surrender

    play, variant, found = _phases_play(
        HOME_RUN_TABLE, [0.0] * 4, surrender=Surrender(enabled=True, cost=12, when="after")
    )
    assert found.surrendered.tolist() == [[1, 1, 1]]
    assert not found.skipped.any()
    assert _final(play, variant, found)[0] == 36.0


def test_004_surrender_at_both_timings_in_one_game() -> None:
    """004 抛牌: "玩家可在比牌前或比牌后选择“抛牌”" (``when = "both"``: each timing in one game).

    Cost 12.  Player 1 (expecting -20) surrenders before the comparison, so the banker scores
    no 全垒打; players 2 and 3, expecting 0, compare, lose 9 each (打枪, no home run), and that
    is above -12: they pay it.  The banker: 12 + 9 + 9 = 30."""
    from simkit.variants.rules import Surrender

    play, variant, found = _phases_play(
        HOME_RUN_TABLE,
        [0.0, -20.0, 0.0, 0.0],
        surrender=Surrender(enabled=True, cost=12, when="both"),
    )
    assert found.surrendered.tolist() == [[1, 0, 0]]
    assert _final(play, variant, found)[0] == 30.0


# --- readings the sources leave open (issue 52.3): each an option of the variant file ---------


def test_home_run_with_a_fouled_hand_at_the_table_blocks_or_counts_it_beaten(tmp_path) -> None:
    """全垒打 "三墩均胜过其余所有对手" (004), "一玩家打枪另外三名玩家" (001 玩法3): whether a fouled
    opponent, which is not compared, stops it, the sources do not say.

    taiwan, HOME_RUN_TABLE with player 3's middle (two pair) set above its back (a pair of 7s):
    fouled, it pays the banker the fixed 5.  The banker scoops players 1 and 2, (3 + 2) each
    with 打枪's doubled base 3: 8 each.  ``fouled = "block"`` (today's reading, the default): no
    home run, 16 + 5 = 21.  ``fouled = "beaten"``: the fouled hand counts as beaten, so the
    home run doubles the base of 6 again on players 1 and 2 (+6 each) and adds nothing on the
    fouled pair (its dun count is 0): 33."""
    hands = list(HOME_RUN_TABLE)
    hands[3] = "Ks As 2h | 8c 8d Tc Td Qc | 7c 7s 4s 6s 9s"
    arranged = table(*hands)
    assert fouled(arranged, "taiwan").tolist() == [[False, False, False, True]]
    assert score(arranged, "taiwan").tolist() == [[21.0, -8.0, -8.0, -5.0]]
    beaten = over(tmp_path, "taiwan", '[scoring.home_run]\nfouled = "beaten"')
    total, parts = score(arranged, beaten, breakdown=True)
    assert total.tolist() == [[33.0, -14.0, -14.0, -5.0]]
    assert parts["home_run"].tolist() == [[12.0, -6.0, -6.0, 0.0]]
    assert load_variant("taiwan").scoring.home_run.fouled == "block"


def test_004_severe_foul_pays_a_multiple_of_the_penalty(tmp_path) -> None:
    """004 倒水: "按房间设定向其余每位玩家支付固定赔偿（如金币或道数），严重破坏牌序者将承担全局惩罚".

    Read as ``[scoring.foul] severe_factor``: a hand that breaks both orders (front above
    middle above back) pays that multiple of the penalty to each opponent; 1 (the default)
    is today's reading.  qiantang pays a fixed 6.  Player 1 with trips JJJ in front, two pair
    in the middle and a straight behind breaks one order: 6 to each, 18, either way.  With the
    middle a pair of queens and the back T-high it breaks both: 6 each by default, 12 each
    (36) with ``severe_factor = 2``."""
    hands = list(HOME_RUN_TABLE)
    hands[1] = "Jc Jd Js | Qd Qh 4c 5c 5d | 6c 7d 8h 9c Th"
    severe = list(HOME_RUN_TABLE)
    severe[1] = "Jc Jd Js | Qd Qh 4c 5c 6c | 5d 7d 8h 9c Th"
    harsh = over(tmp_path, "qiantang", "[scoring.foul]\nsevere_factor = 2")
    for variant in ("qiantang", harsh):
        _, parts = score(table(*hands), variant, breakdown=True)
        assert parts["fouls"][0, 1] == -18.0
    _, parts = score(table(*severe), "qiantang", breakdown=True)
    assert parts["fouls"][0].tolist() == [6.0, -18.0, 6.0, 6.0]
    _, parts = score(table(*severe), harsh, breakdown=True)
    assert parts["fouls"][0].tolist() == [12.0, -36.0, 12.0, 12.0]


def test_001_wiki_points_literal_scoop_is_the_scoop_left_out_of_transforms(tmp_path) -> None:
    """001 玩法3 打枪: "被打枪的玩家须支付基本三分与特殊加分（例：被冲三打枪，支付3+1分）"; 全垒打:
    "一玩家打枪另外三名玩家，则此玩家得分再乘以二，负分由三名玩家平均分摊".

    The literal reading pays no extra for the scoop: ``transforms = ["home-run"]`` (the loader
    refuses ``mode = "none"`` beside a listed scoop); the scoop is still detected, so the home
    run stands.  The banker of HOME_RUN_TABLE wins 3 duns and the front trips' +1 from each:
    4, 12 in all, doubled by the home run to 24 (the others sharing the increase).
    wiki-points' reading (the scoop doubles 3 + 1): 8 each, 24, doubled: 48."""
    arranged = table(*HOME_RUN_TABLE)
    assert score(arranged, "wiki-points")[0, 0] == 48.0
    literal = over(tmp_path, "wiki-points", '[scoring]\ntransforms = ["home-run"]')
    total, parts = score(arranged, literal, breakdown=True)
    assert total[0, 0] == 24.0
    assert parts["home_run"][0, 0] == 12.0
    note = load_variant("wiki-points").scoring.scoop.source
    assert "transforms = ['home-run']" in note and "is mode = 'none'" not in note


def test_004_surrender_to_another_player_where_every_pair_compares() -> None:
    """004 抛牌: "若选择比牌后再抛牌，而对手已在比牌阶段抛牌并完成结算，则你无法再抛牌" names the
    one surrendered to 对手, an opponent; in qiantang every pair compares, so ``to = "any"``
    lets a player surrender to another player too (``to = "banker"``, the default, to the
    banker only).

    Cost 3; player 2 expects -10 against anyone and surrenders before the comparison to all
    three: it pays 3 to each, -9.  The banker, who beats players 1 and 3 (9 each with 打枪),
    scores no 全垒打 (player 2 skipped the comparison): 3 + 9 + 9 = 21."""
    from simkit.variants.rules import Surrender

    play, variant, found = _phases_play(
        HOME_RUN_TABLE, [0.0, 0.0, -10.0, 0.0], surrender=Surrender(enabled=True, to="any")
    )
    assert found.gave[0, 2].tolist() == [True, True, False, True]
    assert found.gave.sum() == 3
    final = _final(play, variant, found)
    assert final[0] == 21.0 and final[2] == -9.0
    # to the banker only: player 2 surrenders there and compares with players 1 and 3
    play, variant, found = _phases_play(
        HOME_RUN_TABLE, [0.0, 0.0, -10.0, 0.0], surrender=Surrender(enabled=True)
    )
    assert found.gave.sum() == 1 and found.gave[0, 2, 0]


def test_surrender_to_another_player_needs_an_all_pairs_table() -> None:
    from phases.test_phases_settle import as_arrangement, identity_expected

    from simkit.errors import SimkitError
    from simkit.phases.expected import pair_results
    from simkit.phases.settle import settle
    from simkit.variants.rules import Phases, Surrender

    base = load_variant("hongkong")
    variant = dataclasses.replace(base, phases=Phases(surrender=Surrender(enabled=True, to="any")))
    play = as_arrangement(table(*HOME_RUN_TABLE), variant, np.zeros((1, 4)))
    _, pairs = pair_results(play, variant)
    with pytest.raises(SimkitError, match="to = 'any' needs the players to compare"):
        settle(play, variant, pairs, identity_expected(4, len(variant.specials)))


def test_004_fair_bid_counts_the_three_player_exchange_fees(monkeypatch) -> None:
    """004 （一）抢庄 "出价最高者成为庄家" and （二）换牌 2. "庄家可支付1道补偿给两位闲家，换取剩余未发的
    13张新牌；若庄家放弃，则按顺时针顺序，闲家可各付1道给庄家以换取新牌": whoever holds the banker's
    seat pays 2 when it buys the new cards and receives 1 when a player buys, so those fees are
    part of what the seat is worth and of the fair bid (``fees = "counted"``, the default);
    ``"dropped"`` is the calibration that left them out.  On a small calibration (512 deals,
    the constants patched) the two edges differ by exactly the banker's mean fee."""
    from simkit.phases import expected
    from simkit.phases.settle import fair_bid

    monkeypatch.setattr(expected, "CALIBRATION_GAMES", 512)
    monkeypatch.setattr(expected, "CALIBRATION_CHUNK", 512)
    caches = (expected._calibration_deals, expected._expected_score, fair_bid)
    for cached in caches:
        cached.cache_clear()
    try:
        qiantang = load_variant("qiantang")
        assert qiantang.phases.bidding.fees == "counted"
        dropped = dataclasses.replace(
            qiantang,
            phases=dataclasses.replace(
                qiantang.phases,
                bidding=dataclasses.replace(qiantang.phases.bidding, fees="dropped"),
            ),
        )
        assert dropped.key != qiantang.key
        counted_edge, _ = fair_bid(qiantang, 3)
        dropped_edge, _ = fair_bid(dropped, 3)
        fees = expected.calibration_deals(qiantang, 3).fees
        banker = fees[:, 0]
        assert set(np.unique(banker).tolist()) <= {-2.0, 0.0, 1.0} and banker.any()
        np.testing.assert_allclose(fees.sum(axis=1), 0.0)
        assert counted_edge - dropped_edge == pytest.approx(banker.mean())
        # four players trade cards for cards: no fee
        assert not expected.calibration_deals(qiantang, 4).fees.any()
    finally:
        for cached in caches:
            cached.cache_clear()
