"""One test per scoring clause, named after its source and clause, with the worked numbers.

Hands are written ``"front | middle | back"``; seat 0 is the banker unless a test says otherwise.
"""

from __future__ import annotations

import numpy as np
import pytest
from conftest import table

from simkit.cards import parse_cards
from simkit.evaluate import rank3, rank5
from simkit.score import pair_points, score
from simkit.variants import load_variant


def ranks(hand: str) -> np.ndarray:
    front, middle, back = (parse_cards(part) for part in hand.split("|"))
    return np.array([rank3(front), rank5(middle), rank5(back)], dtype=np.int32)


def over(tmp_path, base: str, text: str):
    path = tmp_path / "v.toml"
    path.write_text(f'[variant]\nname = "v"\nextends = "{base}"\n{text}\n', encoding="utf-8")
    return load_variant(path)


# Four hands strictly ordered in every dun (0 > 1 > 2 > 3), the biggest dun is seat 0's back
# quads (worth 4 in 002's table), none bigger: middle full houses are worth 3, fronts 1.
CHAIN = (
    "Ah Ad 2c | Kc Kd Kh 3c 3d | Qc Qd Qh Qs 4c",
    "Jc Jd 2d | Tc Td Th 4d 4h | 9c 9d 9h 9s 5c",
    "8c 8d 2h | 7c 7d 7h 5d 5h | 6c 6d 6h 6s 3h",
    "Ks 8h 2s | As Ac Jh 7s 4s | Js Ts 8s 5s 3s",
)
TRIPS_FRONT = "2c 2d 2h | 3s 3h 7d 8d 9c | 4c 4d 4s 5h 5d"
PAIR8_MIDDLE = "Ad Kc 7c | 8c 8s 6d Tc Jc | Qc Qd Qs Jd 3c"
WEAK = "Ad Kc 7c | 8c 8d 4c 6d 9c | Qc Qd Jc Jd 3c"


# --- 001 香港 ------------------------------------------------------------------------------


def test_001_hongkong_trips_front_straight_flushes_beat_banker_for_18() -> None:
    """001: "除了一条龙及通吃的报到外,最大的组合为:三条、同花顺、同花顺,可得十八注":
    trips in front 3 + middle straight flush 10 + back straight flush 5 = 18 from the banker."""
    arranged = table(WEAK, "2c 2d 2h | 3s 4s 5s 6s 7s | 9h Th Jh Qh Kh")
    total = score(arranged, "hongkong", banker=0)
    assert total.tolist() == [[-18.0, 18.0]]


def test_001_hongkong_players_compare_with_the_banker_only() -> None:
    """001 香港 "打开牌跟庄家比较大小": seat 1 (18 from the banker) and seat 2 (loses 3 to the
    banker) never settle with each other: banker -18 + 3 = -15."""
    arranged = table(
        "Ah Kd 5c | 8c 8d 4c 6d 9c | Qc Qd Jc Jd 3c",
        "2c 2d 2h | 3s 4s 5s 6s 7s | 9h Th Jh Qh Kh",
        "3d 4d 6h | 5d 7d 9d Td 2s | 8h 8s Ac Ks Qs",
    )
    total = score(arranged, "hongkong", banker=0)
    assert total.tolist() == [[-15.0, 18.0, -3.0]]


def test_001_hongkong_bonus_table_middle_full_house_2_back_quads_4() -> None:
    """001 香港 赔率: 夫佬摆二道 两注; 四条摆尾 四注; front won 1: 1 + 2 + 4 = 7."""
    arranged = table(WEAK, "Kh Ks 2c | 3s 3h 3d 4s 4h | 5c 5d 5h 5s 6c")
    assert score(arranged, "hongkong").tolist() == [[-7.0, 7.0]]


def test_001_hongkong_foul_pays_everything_with_bonuses() -> None:
    """001 "凡倒水者全赔": a fouled player (middle pair above a high-card back) pays the banker
    every dun with the banker's bonuses: back quads 4 + middle full house 2 + front 1 = 7."""
    banker = "Kh Ks 2c | 3s 3h 3d 4s 4h | 5c 5d 5h 5s 6c"
    fouled = "Ad Kc 7c | 8c 8d 4c 6d 9c | Qc Jd Td 2d 9s"
    total, parts = score(table(banker, fouled), "hongkong", breakdown=True)
    assert total.tolist() == [[7.0, -7.0]]
    assert parts["fouls"].tolist() == [[7.0, -7.0]]


def test_001_hongkong_front_must_be_strictly_below_middle() -> None:
    """001 "第一墩必须小于第二墩": the strict order; the same hand under 002's ≤ plays."""
    hk = load_variant("hongkong")
    assert hk.scoring.foul.front_middle == "<"
    assert load_variant("guangxi").scoring.foul.front_middle == "<="


def test_001_shijiagun_top_card_only_banker_wins_ties(tmp_path) -> None:
    """001 "先比牌型。牌型相同时,再比点数 … 只比点数最大的一只牌。倘若相同,一律由庄家胜" (食夹棍,
    compare = 'top-card'): fronts K-Q-2 and K-5-3, both high card, top K and K → banker; the
    player's A-high middle is a smaller category than the banker's pair of kings → banker;
    backs: two pair each, top A and A → banker.  Player -3."""
    variant = over(tmp_path, "hongkong", '[scoring]\ncompare = "top-card"')
    banker = "Kc 5d 3c | Kd Kh 4c 6d 9c | Ac Qc Qd Jc Jd"
    player = "Ks Qs 2c | Ad 2d 4d 7h 8h | Ah 9h 9s 6h 6s"
    assert score(table(banker, player), variant).tolist() == [[3.0, -3.0]]
    # With the full comparison the player wins the front (K-Q-2 over K-5-3) instead, and
    # loses the middle (KK) and the back (QQJJ over 9966): -1 as well, by other duns.
    full = score(table(banker, player), "hongkong").tolist()
    assert full == [[1.0, -1.0]]


def test_001_hongkong_banker_pays_player_when_both_report() -> None:
    """001 "倘若庄家及闲家同时报到,由庄家赔闲家": banker declares 杂龙 (13), player 六对半 (3):
    the banker pays the player 3 although the dragon is bigger."""
    v = load_variant("hongkong")
    arranged = table(WEAK, "2c 2d 2h | 3s 4s 5s 6s 7s | 9h Th Jh Qh Kh")
    declared = np.array([[v.specials.ids.index("dragon"), v.specials.ids.index("six-pairs")]])
    assert score(arranged, v, declared=declared).tolist() == [[-3.0, 3.0]]


# --- 002 / 000 ----------------------------------------------------------------------------


def test_002_1_1_t4_pays_first_of_four_12_and_second_4() -> None:
    """002 1.1: "t=4第一名+3*4=12，第二名+1*4=4"; 1.3: four players +3t, +t, -t, -3t.
    The biggest dun is back quads (4 in 002's table): t = 4 → 12, 4, -4, -12."""
    _total, parts = score(table(*CHAIN), "guangxi", breakdown=True)
    assert parts["t_formula"].tolist() == [[12.0, 4.0, -4.0, -12.0]]
    assert parts["duns"].tolist() == [[0.0] * 4]  # replaced by the places


def test_002_1_2_three_players_2t_0_minus_2t() -> None:
    """002 1.2: three players +2t, 0, -2t; t = 4 (back quads) → 8, 0, -8."""
    _total, parts = score(table(*CHAIN[:3]), "guangxi", breakdown=True)
    assert parts["t_formula"].tolist() == [[8.0, 0.0, -8.0]]


def test_002_1_4_tied_places_share_the_mean() -> None:
    """002 1.4: "若两人牌型一样，则取两人原先名次分数的平均数如3人中两个第一，则两人各加1t":
    two identical hands (suits differ) on top of three: (2t + 0)/2 = t each, -2t last; t = 1
    (no dun with a bonus)."""
    arranged = table(
        "Ac Kc 2c | Qc Qd 3c 4c 5c | Jc Jd Tc Td 6c",
        "Ad Kd 2d | Qh Qs 3d 4d 5d | Jh Js Th Ts 6d",
        "9c 8c 3h | 9d 9h 4h 5h 6h | 8d 8h 7c 7d 2h",
    )
    _total, parts = score(arranged, "guangxi", breakdown=True)
    assert parts["t_formula"].tolist() == [[1.0, 1.0, -2.0]]


def test_002_2_scoop_plus_3_per_scooped_with_four_players() -> None:
    """002 (2): 4人开枪者+3，中枪者-3: in the chain seat 0 scoops three (+9), seat 1 two and is
    scooped once (+3), seat 2 +3 - 6 = -3, seat 3 -9."""
    _total, parts = score(table(*CHAIN), "guangxi", breakdown=True)
    assert parts["scoops"].tolist() == [[9.0, 3.0, -3.0, -9.0]]


def test_002_3_1_home_run_four_players_54_style_multiple_of_3() -> None:
    """002 "四人全垒打一般水数都是3的倍数": seat 0 scoops all three: t-formula 12 + scoops 9 =
    21, ×(p-1) = 63 (3.2) plus 12(p-1) = 36 (3.1): 99 = 3 × 33, each other pays 78/3 = 26 more."""
    total, parts = score(table(*CHAIN), "guangxi", breakdown=True)
    assert parts["home_run"].tolist() == [[78.0, -26.0, -26.0, -26.0]]
    assert total[0, 0] == 99.0
    assert total[0, 0] % 3 == 0


def test_002_3_2_three_players_own_waters_doubled() -> None:
    """002 3.2 "3人中一人已得到30水并且通杀则他最终得分为60水=30×2" and 3.1 "3人时另加24":
    seat 0 of the first three chain hands: t = 4: places 8, 0, -8; scoops +2 each (3 players):
    own waters 8 + 4 = 12, doubled 24, plus 24: 48; the two others pay (12 + 24) / 2 = 18."""
    total, parts = score(table(*CHAIN[:3]), "guangxi", breakdown=True)
    assert parts["scoops"].tolist() == [[4.0, 0.0, -4.0]]
    assert parts["home_run"].tolist() == [[36.0, -18.0, -18.0]]
    assert total[0, 0] == 2 * 12 + 24


# Four hands ordered in every dun with no bonus dun anywhere (no front trips, no full house,
# quads or straight flush): t = 1.
PLAIN_CHAIN = (
    "Ac Ad 2c | Kc Kd Qc Qd 3c | 2h 5h 7h 9h Jh",
    "Kh Ks 3d | Jc Jd Tc Td 4c | 3s 5s 7s 8s Ts",
    "Qh Qs 4d | 9c 9s 8c 8d 5c | 6c 7c 8h 9d Th",
    "Ah Js 2d | 4h 4s 7d 5d 3h | 6d 6h 6s As 2s",
)


def test_002_home_run_four_players_usually_54_pairwise_reading(tmp_path) -> None:
    """002 "四人一般的全垒打是加54分（最大牌+3*3=9开枪3*3=9，全垒打另加36分9+9+36=54）": with
    plain duns compared pair by pair (t-formula off) and no ×(p-1) (factor = 1): 3 duns × 3
    opponents 9 + scoops 9 + 36 = 54.  The file's reading (t-formula, 3.2's ×(p-1)): t = 1,
    places 3 + scoops 9 = 12, ×3 = 36, + 36 = 72."""
    v = over(
        tmp_path,
        "guangxi",
        '[scoring]\ntransforms = ["scoop", "home-run"]\n[scoring.t_formula]\nenabled = false\n'
        "[scoring.home_run]\nfactor = 1",
    )
    assert score(table(*PLAIN_CHAIN), v)[0, 0] == 54.0
    assert score(table(*PLAIN_CHAIN), "guangxi")[0, 0] == 72.0


def test_002_home_run_two_players_plus_18_usually_21() -> None:
    """002 table: "2人是三墩都是一方赢一方输另加18水，一般为21分": 3 duns + 18 = 21 (no bonus
    dun in these hands); 3.1's +12 is the other reading (extra_two_players = 12): 15."""
    arranged = table(
        "Ac Kc 2c | Qc Qd 3c 4c 5c | Jc Jd Tc Td 6c",
        "9c 8c 3h | 9d 9h 4h 5h 6h | 8d 8h 7c 7d 2h",
    )
    assert score(arranged, "guangxi").tolist() == [[21.0, -21.0]]


def test_002_home_run_two_players_other_reading_12(tmp_path) -> None:
    """000/002 3.1 "2人时开枪者另加12": 3 + 12 = 15."""
    v = over(tmp_path, "guangxi", "[scoring.home_run]\nextra_two_players = 12")
    arranged = table(
        "Ac Kc 2c | Qc Qd 3c 4c 5c | Jc Jd Tc Td 6c",
        "9c 8c 3h | 9d 9h 4h 5h 6h | 8d 8h 7c 7d 2h",
    )
    assert score(arranged, v).tolist() == [[15.0, -15.0]]


def test_002_scoop_one_win_two_ties_counts() -> None:
    """002 "三墩1胜2和或2胜1和，按打枪处理": one dun won, two tied, four players: 1 + 3 = 4."""
    a = ranks("Ac Kc 2c | Qc Qd 3c 4c 5c | Jc Jd Tc Td 6c")
    b = ranks("Ad Kd 2d | Qh Qs 3d 4d 5d | Jh Js Th Ts 3h")
    assert pair_points(a, b, "guangxi", 4) == 4.0
    assert pair_points(b, a, "guangxi", 4) == -4.0


def test_002_scoop_only_when_nobody_declared_a_special() -> None:
    """002 "3人及3人以上玩家均无特殊牌型时才会执行": with a declared special at the table the
    chain's scoops are not paid."""
    v = load_variant("guangxi")
    declared = np.array([[-1, -1, -1, v.specials.ids.index("three-flushes")]])
    _total, parts = score(table(*CHAIN), v, declared=declared, breakdown=True)
    assert parts["scoops"].tolist() == [[0.0] * 4]
    # 1.1 "无论是否有怪物": the three normal hands still take places: t = 4: 8, 0, -8.
    assert parts["t_formula"].tolist() == [[8.0, 0.0, -8.0, 0.0]]


def test_002_special_wins_fixed_payout_from_every_normal_hand() -> None:
    """002 注: "当一家有特殊牌型时普通牌型家无论牌再大都要支付一定的水数": 六对半 4 from each of
    three: +12."""
    v = load_variant("guangxi")
    declared = np.array([[v.specials.ids.index("six-pairs"), -1, -1, -1]])
    _total, parts = score(table(*CHAIN), v, declared=declared, breakdown=True)
    assert parts["specials"].tolist() == [[12.0, -4.0, -4.0, -4.0]]


def test_002_ps_special_vs_special_bigger_collects_equal_ties() -> None:
    """002 Ps: "特殊牌型最大的一家赢其余三家牌型属第二的一家赢其余两家...相同的特殊牌型时，则为
    平局": 一条龙 (36), 六对半 (4), 六对半, normal: dragon +36×3 = 108; each 六对半 -36 + 4 = -32;
    the normal hand -36 - 4 - 4 = -44."""
    v = load_variant("guangxi")
    dragon, pairs = v.specials.ids.index("dragon"), v.specials.ids.index("six-pairs")
    declared = np.array([[dragon, pairs, pairs, -1]])
    _total, parts = score(table(*CHAIN), v, declared=declared, breakdown=True)
    assert parts["specials"].tolist() == [[108.0, -32.0, -32.0, -44.0]]


def test_002_4_1_two_normal_hands_compare_and_pay_the_specials() -> None:
    """000/002 4.1 "若还剩2人或2人以上含有普通牌型则先比普通牌型，比完普通牌型后平摊所有特殊牌型的
    水数": seats 2 and 3 declare 三同花 (3) and 六对半 (4); seats 0 and 1 compare normally (2
    players left: no t-formula; seat 0 wins all three duns: 1 + 3 + 4 = 8, no scoop since
    specials are out) and each pays 3 + 4 = 7 to the specials, who settle 4 - 3 between them."""
    v = load_variant("guangxi")
    ids = v.specials.ids
    declared = np.array([[-1, -1, ids.index("three-flushes"), ids.index("six-pairs")]])
    _total, parts = score(table(*CHAIN), v, declared=declared, breakdown=True)
    assert (parts["duns"] + parts["bonuses"]).tolist() == [[8.0, -8.0, 0.0, 0.0]]
    assert parts["specials"].tolist() == [[-7.0, -7.0, 3 + 3 - 4, 4 + 4 + 4]]
    assert parts["scoops"].tolist() == [[0.0] * 4]


def test_002_4_2_one_normal_hand_pays_every_special() -> None:
    """000/002 4.2 "若只有1人含有普通牌型，则持有普通牌型的选手判负并扣除所有特殊牌型分数总和":
    三顺子 3, 六对半 4, 全大 15 against one normal hand: it pays 3 + 4 + 15 = 22."""
    v = load_variant("guangxi")
    ids = v.specials.ids
    declared = np.array(
        [[-1, ids.index("three-straights"), ids.index("six-pairs"), ids.index("all-big")]]
    )
    total, parts = score(table(*CHAIN), v, declared=declared, breakdown=True)
    assert parts["specials"][0, 0] == -22.0
    assert total[0, 0] == -22.0


def test_002_4_3_first_method_places_by_special_order(tmp_path) -> None:
    """000/002 4.3 first method (all_special = 'places'): nobody normal, places by special
    order, t = the biggest payout: 一条龙 36, 全大, 六对半, 三顺子 → 3t, t, -t, -3t = 108, 36,
    -36, -108."""
    v = over(tmp_path, "guangxi", '[scoring.specials]\nall_special = "places"')
    ids = v.specials.ids
    declared = np.array(
        [[ids.index(s) for s in ("dragon", "all-big", "six-pairs", "three-straights")]]
    )
    _total, parts = score(table(*CHAIN), v, declared=declared, breakdown=True)
    assert parts["specials"].tolist() == [[108.0, 36.0, -36.0, -108.0]]


def test_002_foul_pays_3_or_the_biggest_hand() -> None:
    """002 倒水 "输每家3水（如果玩家家有大牌，则按4个玩家中最大的牌型赔3家）": with back quads
    (4) on the table the fouled hand pays 4 to each of the others (not 3)."""
    fouled = "Ad Kc 7c | 8c 8d 4c 6d 9c | Qc Jd Td 2d 9s"
    others = (
        "Kh Ks 2c | 3s 3h 3d 4s 4h | 5c 5d 5h 5s 6c",
        "Ah 4d 2s | 7d 7h 2h 3c 6h | Jh Js Th Ts 8h",
    )
    _total, parts = score(table(fouled, *others), "guangxi", breakdown=True)
    assert parts["fouls"].tolist() == [[-8.0, 4.0, 4.0]]


def test_000_regional_front_trips_4() -> None:
    """000 §7 部分地区 三尖刀 4 (原3): front trips wins 4 in guangxi-regional, 3 in guangxi."""
    a = ranks(TRIPS_FRONT)
    b = ranks(PAIR8_MIDDLE)
    # front won with trips, middle lost (pair 3 < pair 8), back won (full house > trips)
    assert pair_points(a, b, "guangxi-regional", 4) == 4 - 1 + 1
    assert pair_points(a, b, "guangxi", 4) == 3 - 1 + 1


# --- 001 台式 / 台湾玩法 -----------------------------------------------------------------


def test_001_taiwan_scoop_doubles_base_3_to_6_and_home_run_to_12() -> None:
    """001 台湾玩法: 打枪 "原本全胜基本注得三注,此时翻倍为六注"; 全垒打 "原本各家打枪后赢得各家
    六注,此时倍翻为十二注".  The banker (seat 0 of the chain) beats each player in all three duns:
    front 1 + middle full house 2 + back quads 4 = 7; the scoop doubles the base 3: 10; the
    home run doubles the base again ("所赢得之基本注再倍增", 6 → 12, the bonuses not doubled):
    16 from each player, 48 in all."""
    total, parts = score(table(*CHAIN), "taiwan", banker=0, breakdown=True)
    assert parts["scoops"].tolist() == [[9.0, -3.0, -3.0, -3.0]]
    assert parts["home_run"].tolist() == [[18.0, -6.0, -6.0, -6.0]]
    assert total.tolist() == [[48.0, -16.0, -16.0, -16.0]]


def test_001_taiwan_back_quads_larger_reading_4() -> None:
    """001 台式 "铁支摆尾:胜出得三或四注": the file takes 4 (3 is the other reading)."""
    v = load_variant("taiwan")
    assert v.scoring.duns.back["quads"] == 4
    assert v.scoring.duns.middle["quads"] == 8


# --- 001 玩法3 ----------------------------------------------------------------------------


def test_001_wanfa3_bonus_added_paid_by_the_loser() -> None:
    """001 玩法3 "冲三(第一墩三条):输家需额外支付1分": front trips won 1 + 1; middle lost -1;
    back won +1 (a full house in the back has no addition): 2."""
    a = ranks(TRIPS_FRONT)
    b = ranks(PAIR8_MIDDLE)
    assert pair_points(a, b, "wiki-points", 4) == 2 - 1 + 1


def test_001_wanfa3_scooped_pays_base_3_plus_bonus_read_as_doubling() -> None:
    """001 玩法3 "被冲三打枪,支付3+1分": read as doubling: (3 + 1) × 2 = 8; the literal
    reading (mode = 'none') pays 4."""
    a = ranks("2c 2d 2h | 9s 9d 5s 6s 8d | Ah Th Jh Qh 8h")
    b = ranks("Ad Kc 5c | 8c 7d 4c 6d Tc | Qc Qd Jc Jd 3c")
    assert pair_points(a, b, "wiki-points", 4) == 8.0


def test_001_wanfa3_home_run_doubles_and_others_split_evenly() -> None:
    """001 玩法3 全垒打 "此玩家得分再乘以二,负分由三名玩家平均分摊": seat 0 of the chain scoops
    all three; its score before the home run S becomes 2S, each other player paying S/3 more."""
    total, parts = score(table(*CHAIN), "wiki-points", breakdown=True)
    before = total[0, 0] - parts["home_run"][0, 0]
    assert parts["home_run"][0, 0] == before
    assert total[0, 0] == 2 * before
    np.testing.assert_allclose(parts["home_run"][0, 1:], -before / 3)


# --- 003 -------------------------------------------------------------------------------------


def test_003_scoop_plus_3_total_6() -> None:
    """003 "打枪（三墩全赢）：额外奖励+3水（合计6水）": 3 duns + 3 = 6."""
    a = ranks(CHAIN[0])
    b = ranks(CHAIN[1])
    assert pair_points(a, b, "fujian", 4) == 6.0


def test_003_home_run_doubled() -> None:
    """003 "全垒打：一局中打枪所有三位对手，额外再翻倍": 6 from each doubled: 36."""
    total = score(table(*CHAIN), "fujian")
    assert total[0, 0] == 36.0


def test_003_foul_pays_6_per_player() -> None:
    """003 "相公（倒水）...通常赔付每家6水": -6 × 2 = -12."""
    fouled = "Ad Kc 7c | 8c 8d 4c 6d 9c | Qc Jd Td 2d 9s"
    others = (
        "Kh Ks 2c | 3s 3h 3d 4s 4h | 5c 5d 5h 5s 6c",
        "Ah 4d 2s | 7d 7h 2h 3c 6h | Jh Js Th Ts 8h",
    )
    _total, parts = score(table(fouled, *others), "fujian", breakdown=True)
    assert parts["fouls"].tolist() == [[-12.0, 6.0, 6.0]]


# --- 004 钱塘 -------------------------------------------------------------------------------


def test_004_majority_two_of_three_wins_the_match() -> None:
    """004 "A赢前墩与后墩，输中墩 → A胜": 1 - 1 + 1 = 1 duns, +1 match = 2;
    "A赢前墩，输中墩，后墩平 → 整局平局": 0."""
    a = ranks("Ac Ad 2c | 3s 4s 5s 6h 8d | 9h 9d 9s Qh 8h")
    b = ranks("Kd Kc 5c | 8c 8s 9c 6d Tc | 7c 7d Jc Jd 3c")
    assert pair_points(a, b, "qiantang", 4) == 2.0
    c = ranks("Ah As 3c | 3d 4d 5d 6c 8c | 9c 9s Jh Qs 8s")
    d = ranks("Kh Ks 5h | 7h 7d 9c 6s Ts | 9d 9h Jd Qd 8h")
    assert pair_points(c, d, "qiantang", 4) == 0.0


def test_004_horse_card_doubles_the_holder(tmp_path) -> None:
    """004 马牌 (♥A in the file), the whole-result reading (counts = 'whole-result'): the
    holder's results doubled.  Seat 0 of the chain holds ♥A and beats each player in all three
    duns: 3 + the match point 1 = 4; 打枪 奖励翻倍: 8; 全垒打 doubles again: 16; the horse card
    doubles: 32 from each, 96 in all (48 of it the horse's).  The file's reading (the winning
    dun holding ♥A counts twice): its front, worth 1, once more from each: 17 each, 51."""
    whole = over(tmp_path, "qiantang", '[scoring.horse]\ncounts = "whole-result"')
    total, parts = score(table(*CHAIN), whole, breakdown=True)
    assert total[0, 0] == 96.0
    assert parts["horse"][0, 0] == 48.0
    total, parts = score(table(*CHAIN), "qiantang", breakdown=True)
    assert total[0, 0] == 51.0
    assert parts["horse"][0, 0] == 3.0


def test_004_double_horse_doubles_again(tmp_path) -> None:
    """004 双马牌 "奖励直接翻倍": two decks, a player holding both ♥A: ×4 (counts =
    'whole-result').  Seat 1 (two ♥A) beats seat 0 in all three duns: 3 + 1 = 4, doubled by
    the scoop 8, ×4 = 32 (two players: no home run).  The file's reading: both ♥A in the
    winning front, worth 1, count 4 times: 8 + 3 = 11."""
    arranged = table(
        "3c 4d 6c | 5d 7d 9d Td 2s | 8h 8s Jc Ks Qs",
        "Ah Ah Kd | 2c 2d 2h 7c 7s | 5c 5d 5h 5s 6c",
        decks=2,
    )
    whole = over(tmp_path, "qiantang", '[scoring.horse]\ncounts = "whole-result"')
    assert score(arranged, whole).tolist() == [[-32.0, 32.0]]
    assert score(arranged, "qiantang").tolist() == [[-11.0, 11.0]]


# --- western 2-4 ---------------------------------------------------------------------------


def test_western_2_4_scoop_is_4_two_of_three_is_2() -> None:
    """2-4 scoring: 1 a dun and 1 for the overall: 3 + 1 = 4 for a scoop, 2 - 1 + 1 = 2."""
    assert pair_points(ranks(CHAIN[0]), ranks(CHAIN[1]), "western-2-4", 4) == 4.0
    a = ranks("Ac Ad 2c | 3s 4s 5s 6h 8d | 9h 9d 9s Qh 8h")
    b = ranks("Kd Kc 5c | 8c 8s 9c 6d Tc | 7c 7d Jc Jd 3c")
    assert pair_points(a, b, "western-2-4", 4) == 2.0


# --- declaring, stacking -----------------------------------------------------------------


def test_001_a_player_may_decline_to_declare() -> None:
    """001 (十二皇族/三分天下 played normally may be worth more): declared = -1 plays the hand
    normally; declaring pays the special instead."""
    v = load_variant("guangxi")
    normal = score(table(*CHAIN[:2]), v)
    declared = score(table(*CHAIN[:2]), v, declared=np.array([[-1, -1]]))
    assert normal.tolist() == declared.tolist()
    six = v.specials.ids.index("six-pairs")
    assert score(table(*CHAIN[:2]), v, declared=np.array([[six, -1]])).tolist() == [[4.0, -4.0]]


def test_001_wanfa3_stacking_option_pays_every_qualifying_special(tmp_path) -> None:
    """001 玩法3 "全小 可抽走凑一色10分" (stack = true): this hand is 全小, 凑一色 and 六对半:
    10 + 10 + 4 = 24 from the other player; without stacking the declared 全小 alone: 10."""
    v = over(tmp_path, "wiki-points", "[scoring.specials]\nstack = true")
    small_black = "2c 2s 3c | 3s 4c 4s 5c 5s | 6c 6s 7c 7s 8c"
    arranged = table(small_black, "Ah Ad Kh | Kd Qh Qd Jh Jd | Th Td 9h 9d 8h")
    declared = np.array([[v.specials.ids.index("all-small"), -1]])
    assert score(arranged, v, declared=declared).tolist() == [[24.0, -24.0]]
    plain = load_variant("wiki-points")
    assert score(arranged, plain, declared=declared).tolist() == [[10.0, -10.0]]


# --- input checks -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("kwargs", "error", "match"),
    [
        ({"arranged": np.zeros((2, 4, 12), dtype=np.int8)}, ValueError, "shape"),
        ({"arranged": np.zeros((2, 9, 13), dtype=np.int8)}, ValueError, "2 to 8"),
        ({"arranged": np.full((2, 4, 13), 60, dtype=np.int8)}, ValueError, "not a card"),
        ({"arranged": np.zeros((2, 4, 13))}, TypeError, "integer"),
        ({"declared": np.zeros((2, 3), dtype=np.int8)}, ValueError, "declared"),
        ({"declared": np.full((2, 4), 40, dtype=np.int8)}, ValueError, "index"),
        ({"banker": 4}, ValueError, "banker"),
        ({"horse": 3}, ValueError, "horse"),
    ],
)
def test_bad_input_is_named(kwargs, error, match) -> None:
    args = {"arranged": np.zeros((2, 4, 13), dtype=np.int8)} | kwargs
    arranged = args.pop("arranged")
    with pytest.raises(error, match=match):
        score(arranged, "guangxi", **args)


def test_pair_points_checks_shapes() -> None:
    with pytest.raises(ValueError, match="last axis"):
        pair_points(np.zeros(4, dtype=np.int32), np.zeros(3, dtype=np.int32), "guangxi", 4)
    with pytest.raises(ValueError, match="n_players"):
        pair_points(np.zeros(3, dtype=np.int32), np.zeros(3, dtype=np.int32), "guangxi", 9)
