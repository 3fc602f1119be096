"""``[scoring.foul].front_middle = "<top-three"``: the front strictly below the middle's top three.

A slow reference in plain Python over the cards (category first, then the ranks a 3-card hand of
that category is ranked by) against the kernels: exhaustively over every front and middle rank
pattern, then over the legal splits of hands drawn to make the equal case common; every strategy
under the reading sets no hand the scorer calls fouled; and the readings that existed before
(``"<="``, ``"<"``) are unchanged.
"""

from __future__ import annotations

import dataclasses
import warnings
from itertools import combinations_with_replacement

import numba as nb
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from simkit.arrange import (
    Greedy,
    MaxEV,
    RandomLegal,
    arrange,
    default_tables,
    exhaustive_ids,
    legal_splits,
    make_solver,
    max_ev_ids,
)
from simkit.cards import parse_cards
from simkit.deal import deal
from simkit.evaluate import (
    Category,
    dun_ranks,
    order_holds,
    rank3,
    rank3_reference,
    rank5,
    rank5_reference,
    top_three,
)
from simkit.regret import front_candidates
from simkit.score import fouled, fouled_ranks, score
from simkit.splits import FIVE_SUBSETS, SPLIT_IDS, THREE_SUBSETS
from simkit.variants import Variant, load_variant
from simkit.variants.compiled import (
    FOUL_FRONT_BELOW,
    FOUL_FRONT_BELOW_TOP_THREE,
    FrontMiddle,
    compile_rules,
)
from simkit.variants.schema import VariantError

# ---------------------------------------------------------------------------------------------
# The reference: plain Python over the cards, nothing shared with the rank encoding


def _groups(ranks: tuple[int, ...]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """(counts, ranks) of the rank groups, biggest group first, then higher rank first."""
    counts: dict[int, int] = {}
    for r in ranks:
        counts[r] = counts.get(r, 0) + 1
    groups = sorted(counts.items(), key=lambda kv: (kv[1], kv[0]), reverse=True)
    return tuple(c for _, c in groups), tuple(r for r, _ in groups)


def front_key(ranks: tuple[int, ...]) -> tuple[int, tuple[int, ...]]:
    """A front's category (trips, pair or high card) and the ranks it is ranked by."""
    shape, order = _groups(ranks)
    if shape[0] >= 3:
        return Category.TRIPS, order[:1]
    if shape[0] == 2:
        return Category.PAIR, order
    return Category.HIGH_CARD, order


def middle_key(ranks: tuple[int, ...], suited: bool) -> tuple[int, tuple[int, ...]]:
    """A middle's category and its ranks in tie-break order; a category no front holds comes
    with no ranks (it is above or below a front whatever they are): two pair, and STRAIGHT
    standing for straight and everything above it."""
    shape, order = _groups(ranks)
    distinct = sorted(set(ranks))
    straight = len(distinct) == 5 and (
        distinct[4] - distinct[0] == 4 or distinct == [0, 1, 2, 3, 12]
    )
    if suited or straight or shape[0] >= 4 or shape == (3, 2):
        return Category.STRAIGHT, ()  # or above
    if shape == (2, 2, 1):
        return Category.TWO_PAIR, ()
    if shape[0] == 3:
        return Category.TRIPS, order
    if shape[0] == 2:
        return Category.PAIR, order
    return Category.HIGH_CARD, order


def below_top_three(
    front: tuple[int, tuple[int, ...]], middle: tuple[int, tuple[int, ...]]
) -> bool:
    """001 "第一墩必须小于第二墩" read as: the front strictly below the middle's top three, from
    their :func:`front_key` and :func:`middle_key`.

    Categories first ("先比牌型"); in one category the ranks from the highest down ("由最大点数
    的牌比起 … 如此类推"), the middle's cut where the front's end."""
    cf, tf = front
    cm, tm = middle
    if cf != cm:
        return cf < cm
    return tf < tm[: len(tf)]


def reference_legal(hand: np.ndarray, variant: Variant) -> np.ndarray:
    """Bool ``(72072,)``: which ordered splits of ``hand`` keep front < the middle's top three
    (the reference) and middle ≤ back (ranked by :func:`rank5`, which this reading leaves)."""
    cards = hand.tolist()
    fronts = [front_key(tuple(cards[p] >> 2 for p in s)) for s in THREE_SUBSETS.tolist()]
    middles = [
        middle_key(tuple(cards[p] >> 2 for p in s), len({cards[p] & 3 for p in s}) == 1)
        for s in FIVE_SUBSETS.tolist()
    ]
    r5 = rank5(hand[FIVE_SUBSETS], variant).tolist()
    return np.array(
        [
            r5[m] <= r5[b] and below_top_three(fronts[f], middles[m])
            for f, m, b in SPLIT_IDS.tolist()
        ],
        dtype=bool,
    )


# ---------------------------------------------------------------------------------------------
# Variants


def with_front_middle(name: str, front_middle: str) -> Variant:
    """A shipped variant under another ``front_middle`` (same name: its shipped win tables)."""
    v = load_variant(name)
    foul = dataclasses.replace(v.scoring.foul, front_middle=front_middle)
    return dataclasses.replace(v, scoring=dataclasses.replace(v.scoring, foul=foul))


HK_TOP3 = with_front_middle("hongkong", "<top-three")


def test_the_option_compiles_to_its_own_bit_and_bad_values_name_the_field(tmp_path):
    rules = compile_rules(HK_TOP3, 4)
    assert rules.front_middle == FrontMiddle.BELOW_TOP_THREE
    assert rules.foul_order == FOUL_FRONT_BELOW_TOP_THREE
    assert compile_rules(load_variant("hongkong"), 4).foul_order == FOUL_FRONT_BELOW
    assert compile_rules(load_variant("guangxi"), 4).foul_order == 0
    path = tmp_path / "v.toml"
    path.write_text(
        '[variant]\nname = "v"\nextends = "hongkong"\n[scoring.foul]\nfront_middle = "<3"\n',
        encoding="utf-8",
    )
    with pytest.raises(VariantError, match=r"scoring.*foul.*front_middle.*'<top-three'"):
        load_variant(path)
    path.write_text(
        '[variant]\nname = "v"\nextends = "hongkong"\n[scoring.foul]\nfront_middle = "<top-three"\n',
        encoding="utf-8",
    )
    assert load_variant(path).scoring.foul.front_middle == "<top-three"
    assert load_variant(path).key != load_variant("hongkong").key


# ---------------------------------------------------------------------------------------------
# Exhaustive: every front rank pattern against every middle rank pattern


def _patterns():
    ranking = load_variant("hongkong").ranking
    fronts = list(combinations_with_replacement(range(13), 3))  # 455, two decks included
    middles = [(m, False) for m in combinations_with_replacement(range(13), 5)]  # 6,188
    middles += [(m, True) for m in combinations_with_replacement(range(13), 5) if len(set(m)) == 5]
    rf = np.array([rank3_reference(f) for f in fronts], dtype=np.int32)
    rm = np.array([rank5_reference(m, s, ranking) for m, s in middles], dtype=np.int32)
    return fronts, middles, rf, rm


def test_top_three_equals_the_reference_for_every_front_and_middle():
    """455 fronts × 7,475 middles (one or two decks): ``rank3(front) < top_three(middle)``
    exactly when the reference says the front is below the middle's top three."""
    fronts, middles, rf, rm = _patterns()
    fast = rf[:, None] < top_three(rm)[None, :]
    cf = np.array([front_key(f)[0] for f in fronts])
    cm = np.array([middle_key(m, s)[0] for m, s in middles])
    want = cf[:, None] < cm[None, :]  # different categories: the category decides
    fk = [front_key(f) for f in fronts]
    mk = [middle_key(m, s) for m, s in middles]
    for i, j in zip(*np.nonzero(cf[:, None] == cm[None, :]), strict=True):
        want[i, j] = below_top_three(fk[i], mk[j])
    assert (fast == want).all()
    assert (fast != (rf[:, None] < rm[None, :])).sum() > 0  # the reading has effect


def test_the_weak_form_against_the_top_three_is_the_plain_order():
    """front ≤ the middle's top three ⇔ front ≤ middle, and front < middle ⇔ front ≤ middle:
    why "<top-three" has no weak value and "<" plays as "<=" (no front equals a middle)."""
    _, _, rf, rm = _patterns()
    plain = rf[:, None] <= rm[None, :]
    assert ((rf[:, None] <= top_three(rm)[None, :]) == plain).all()
    assert ((rf[:, None] < rm[None, :]) == plain).all()


def test_worked_patterns():
    """Q-Q-4 | Q-Q-4-3-2 and A-K-Q | A-K-Q-3-2 foul, Q-Q-3 | Q-Q-4-3-2 does not; a trips front
    (two decks) under a trips middle of the same rank fouls; two pair is above any front."""

    def below(front: str, middle: str) -> bool:
        rf = int(rank3(parse_cards(front, decks=2)))
        return rf < int(top_three(rank5(parse_cards(middle, decks=2))))

    assert not below("Qd Qc 4s", "Qs Qh 4d 3c 2s")
    assert not below("As Kd Qh", "Ac Kc Qd 3s 2h")
    assert below("Qd Qc 3s", "Qs Qh 4d 3c 2s")
    assert below("As Kd Jh", "Ac Kc Qd 3s 2h")
    assert not below("Ks Kd 2h", "Ac Kc Qd 3s 2h")
    assert not below("7s 7h 7d", "7c 7s 7h Kd 2c")
    assert below("Ad Ac Ks", "2s 2h 3d 3c 4s")


# ---------------------------------------------------------------------------------------------
# Hands: the legal splits equal the reference's


@nb.njit(cache=True)
def _legal_mask(r3, r5, split_ids, order, out):  # type: ignore[no-untyped-def]
    for s in range(split_ids.shape[0]):
        out[s] = order_holds(r3[split_ids[s, 0]], r5[split_ids[s, 1]], r5[split_ids[s, 2]], order)


def _few_ranks_hand(ranks: list[int], draw: list[int]) -> np.ndarray:
    """13 cards of a 4×len(ranks) card pool (few ranks: equal fronts and middles abound)."""
    pool = [4 * r + s for r in ranks for s in range(4)]
    return np.array(sorted(pool[i] for i in draw), dtype=np.int8)


few_ranks_hands = st.lists(st.integers(0, 12), min_size=5, max_size=8, unique=True).flatmap(
    lambda ranks: st.permutations(range(4 * len(ranks))).map(
        lambda perm: _few_ranks_hand(ranks, list(perm[:13]))
    )
)


def _check_hand(hand: np.ndarray) -> int:
    want = reference_legal(hand, HK_TOP3)
    r3 = rank3(hand[THREE_SUBSETS], HK_TOP3)
    r5 = rank5(hand[FIVE_SUBSETS], HK_TOP3)
    fast = np.empty(len(SPLIT_IDS), dtype=np.bool_)
    _legal_mask(r3, r5, SPLIT_IDS, FOUL_FRONT_BELOW_TOP_THREE, fast)
    assert (fast == want).all()
    # legal_splits: the same set, each split with two equal 5-card duns once
    ids, _ = legal_splits(hand, HK_TOP3)
    m, b = SPLIT_IDS[:, 1], SPLIT_IDS[:, 2]
    once = want & ~((r5[m] == r5[b]) & (m < b))
    assert {tuple(r) for r in ids.tolist()} == {tuple(r) for r in SPLIT_IDS[once].tolist()}
    assert len(ids) == once.sum()
    # ... and the scorer calls none of them fouled
    cards = hand[np.concatenate([THREE_SUBSETS[ids[:, 0]], FIVE_SUBSETS[ids[:, 1]],
                                 FIVE_SUBSETS[ids[:, 2]]], axis=1)]  # fmt: skip
    assert not fouled(cards, HK_TOP3).any()
    plain = np.empty(len(SPLIT_IDS), dtype=np.bool_)
    _legal_mask(r3, r5, SPLIT_IDS, FOUL_FRONT_BELOW, plain)
    assert (want <= plain).all()  # the reading only removes splits
    return int((plain & ~want).sum())


@settings(max_examples=20)
@given(few_ranks_hands)
def test_legal_splits_equal_the_reference_on_hands_of_few_ranks(hand):
    _check_hand(hand)


def test_legal_splits_equal_the_reference_on_dealt_and_built_hands():
    removed = 0
    hands = [
        parse_cards("Qs Qh Qd Qc 4s 4h 3c 2s 9d 8c 7h 6s 5d"),
        parse_cards("As Ad Ks Kd Qs Qd 3c 3h 2c 2h 8s 6d 5c"),
        *deal(3, 4, rng=31).reshape(-1, 13)[:8],
    ]
    for hand in hands:
        removed += _check_hand(np.sort(hand))
    assert removed > 0


# ---------------------------------------------------------------------------------------------
# Strategies under the reading set no hand the scorer calls fouled


def strongest_front_weakest_middle(ranks: np.ndarray) -> np.ndarray:
    """The strongest front, then the weakest middle the order allows: where a front that
    equals its middle's top three is set, if anywhere."""
    return ranks[:, 0] * 2.0**25 - ranks[:, 1]


STRATEGIES = [MaxEV(), Greedy(), RandomLegal(), strongest_front_weakest_middle]


@pytest.mark.parametrize("strategy", STRATEGIES, ids=["max-ev", "greedy", "random", "objective"])
def test_no_strategy_fouls_under_the_top_three_reading(strategy):
    """Dealt hands, and hands of few ranks; the strongest-front objective (a negative control)
    does set fronts that foul under the reading when it plays today's order."""
    rng = np.random.default_rng(41)
    few = [
        _few_ranks_hand(sorted(rng.choice(13, 5, replace=False).tolist()), rng.permutation(20)[:13])
        for _ in range(150)
    ]
    hands = np.concatenate([deal(150, 4, rng=42).reshape(-1, 13), np.array(few)])
    arranged, _ = arrange(hands, HK_TOP3, strategy, rng=5, declare="never")
    assert (np.sort(arranged, axis=-1) == np.sort(hands, axis=-1)).all()
    assert not fouled(arranged, HK_TOP3).any()
    if not isinstance(strategy, MaxEV | Greedy | RandomLegal):
        today, _ = arrange(hands, "hongkong", strategy, declare="never")
        assert fouled(today, HK_TOP3).sum() > 0
        assert not fouled(today, "hongkong").any()


@given(few_ranks_hands)
def test_regret_candidates_are_legal_under_the_reading(hand):
    candidates = front_candidates(hand, HK_TOP3)
    assert len(candidates) > 0
    assert not fouled(candidates, HK_TOP3).any()


def test_the_scorer_fouls_a_hand_set_against_the_reading():
    """Scores of hands set under today's order, scored under the reading: exactly the hands
    whose front is not below their middle's top three pay as fouled."""
    hands = deal(200, 4, rng=43)
    arranged, _ = arrange(hands, "hongkong", strongest_front_weakest_middle, declare="never")
    ranks = dun_ranks(arranged, HK_TOP3)
    bad = ranks[..., 0] >= top_three(ranks[..., 1])
    assert bad.any()
    assert (fouled_ranks(ranks, HK_TOP3) == bad).all()
    good = ~bad.any(axis=1)
    # games with no hand fouled under the reading score as today
    a = score(arranged[good], HK_TOP3, banker=0)
    b = score(arranged[good], "hongkong", banker=0)
    assert (a == b).all()
    assert not (score(arranged, HK_TOP3, banker=0) == score(arranged, "hongkong", banker=0)).all()


# ---------------------------------------------------------------------------------------------
# The readings that existed before are unchanged


@pytest.mark.parametrize("name", ["hongkong", "taiwan", "guangxi"])
def test_the_plain_orders_arrange_and_score_alike(name):
    """The orders "<" and "<=" give the same arrangement and the same scores (no front equals a
    middle), with the same win tables (tables are found by the rules, and "<=" ships none)."""
    strict = with_front_middle(name, "<")
    weak = with_front_middle(name, "<=")
    hands = deal(300, 4, rng=44)
    max_ev = MaxEV(default_tables(load_variant(name), 4))
    for strategy in (max_ev, "greedy", "random-legal"):
        a, da = arrange(hands, strict, strategy, rng=7)
        b, db = arrange(hands, weak, strategy, rng=7)
        assert (a == b).all() and (da == db).all()
    assert (score(a, strict, declared=da) == score(a, weak, declared=da)).all()


def test_the_shipped_001_variants_take_todays_reading():
    for name in ("hongkong", "taiwan", "philippines", "wiki-points"):
        foul = load_variant(name).scoring.foul
        assert foul.front_middle == "<"
        assert "<top-three" in foul.source
    make_solver(HK_TOP3, 4)  # the reading finds the variant's own tables (same name)


def test_two_deck_hands_trips_front_under_trips_middle():
    """Two decks: a trips front fouls under a trips middle of its rank, and the strategies of
    a 6-player table still set no fouled hand."""
    hand = np.sort(parse_cards("7s 7h 7d 7c 7s 7h Kd 2c 9d 9c Ah Qs 4d", decks=2))
    assert _check_hand(hand) > 0
    hands = np.concatenate([deal(40, 6, rng=45).reshape(-1, 13), hand[None, :]])
    for strategy in ("max-ev", "greedy", "random-legal"):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UserWarning)  # no tables trained at 6 players
            arranged, _ = arrange(hands, HK_TOP3, strategy, n_players=6, rng=1, declare="never")
        assert not fouled(arranged, HK_TOP3).any()


def test_pruned_max_ev_equals_all_splits_under_the_reading():
    """The search's bounds cap each back by the splits of the plain order, a superset of the
    reading's: still exact (same split and value as scoring every legal split)."""
    rng = np.random.default_rng(46)
    few = [
        _few_ranks_hand(sorted(rng.choice(13, 6, replace=False).tolist()), rng.permutation(24)[:13])
        for _ in range(100)
    ]
    hands = np.concatenate([deal(50, 4, rng=47).reshape(-1, 13), np.array(few)])
    solver = make_solver(HK_TOP3, 4)
    ids, values, _ = max_ev_ids(hands, solver)
    ids_all, values_all = exhaustive_ids(hands, solver)
    assert (ids == ids_all).all() and (values == values_all).all()
