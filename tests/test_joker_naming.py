"""A joker is named by its holder (issue 52.2): the engine fouls a set hand only where no naming
of its jokers keeps the foul order, and ranks it at the greedy naming.

Sources: 000 五同 "在两副牌或者王能够带任意牌的情形" (a joker may stand for any card: the holder
says which); 000 倒水 "要是玩家在分组时没遵循规则，就是后一副牌的牌型比前一副小，那就被视为“倒水”"
(a foul is the player's setting breaking the order, so a setting the holder can name legally is
not one).  Every check is against slow references that try every card for every joker
(:func:`simkit.evaluate.legal_namings_reference`).
"""

from __future__ import annotations

import itertools

import numba as nb
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from simkit.arrange import arrange, legal_splits
from simkit.arrange.search import exhaustive_ids, make_solver, max_ev_ids
from simkit.cards import JOKER_CARDS, pack_cards, parse_cards
from simkit.evaluate import (
    any_deck_flat,
    dun_ranks,
    flat3_index,
    flat5_index,
    legal_namings_reference,
    named_dun_ranks,
    named_ranks_reference,
    orders_hold,
    rank3,
    rank5,
    reach_tables,
    reachable_ranks_reference,
)
from simkit.score import fouled, score
from simkit.splits import FIVE_SUBSETS, SPLIT_IDS, THREE_SUBSETS
from simkit.variants import load_variant
from simkit.variants.compiled import (
    FOUL_FRONT_BELOW,
    FOUL_FRONT_BELOW_TOP_THREE,
    FOUL_MIDDLE_BELOW,
)

JOKERS = load_variant("guangxi-jokers")
RANKING = JOKERS.ranking
JK1, JK2 = JOKER_CARDS
#: Every foul order the variants' ``[scoring.foul]`` can name (the bits, combined).
ORDERS = (
    0,
    FOUL_FRONT_BELOW,
    FOUL_MIDDLE_BELOW,
    FOUL_FRONT_BELOW | FOUL_MIDDLE_BELOW,
    FOUL_FRONT_BELOW_TOP_THREE,
)
PACK = pack_cards(1, False, 2)


@nb.njit
def _indices(five, three, out5, out3):
    for i in range(five.shape[0]):
        out5[i] = flat5_index(five[i, 0], five[i, 1], five[i, 2], five[i, 3], five[i, 4])
    for i in range(three.shape[0]):
        out3[i] = flat3_index(three[i, 0], three[i, 1], three[i, 2])


def _reach_of(five: np.ndarray, three: np.ndarray) -> tuple[list[set], list[set]]:
    """The reachable ranks the engine's tables give each 5-card and 3-card dun."""
    i5 = np.empty(len(five), np.int64)
    i3 = np.empty(len(three), np.int64)
    _indices(five.astype(np.int64), three.astype(np.int64), i5, i3)
    start5, ranks5, start3, ranks3 = reach_tables(RANKING)
    flat5, flat3 = any_deck_flat(RANKING)
    out5 = [set(ranks5[start5[i] : start5[i + 1]].tolist()) or {int(flat5[i])} for i in i5]
    out3 = [set(ranks3[start3[i] : start3[i + 1]].tolist()) or {int(flat3[i])} for i in i3]
    return out5, out3


def test_reach_tables_list_every_rank_a_dun_can_be_named_to():
    """Every front with a joker (all real pairs; two jokers with every card), and 5-card duns
    with one and two jokers (every real card set of a few rank patterns and suits), reach
    exactly the ranks the reference finds by trying every card."""
    real = [c for c in range(52)]
    fronts = [(a, b, JK1) for a, b in itertools.combinations(real, 2)]
    fronts += [(a, JK1, JK2) for a in real]
    rng = np.random.default_rng(5)
    fives = []
    for jokers in (1, 2):
        for _ in range(400):
            cards = rng.choice(52, 5 - jokers, replace=False).tolist()
            fives.append(tuple(cards) + JOKER_CARDS[:jokers])
    # suited sets and straights, where the flush and straight-flush ranks enter
    fives += [(0, 4, 8, 12, JK1), (48, 44, 40, 36, JK1), (0, 8, 16, JK1, JK2), (1, 5, 9, JK1, JK2)]
    fives += [(48, 1, 6, 11, JK1), (48, 49, 50, 51, JK1), (48, 49, JK1, JK2, 50)]
    got5, got3 = _reach_of(np.array(fives), np.array(fronts))
    for cards, got in zip(fives, got5, strict=True):
        assert got == reachable_ranks_reference(cards, RANKING), cards
    for cards, got in zip(fronts, got3, strict=True):
        assert got == reachable_ranks_reference(cards, RANKING), cards
    # each list's top is the dun's strongest rank (the flat tables' answer)
    assert max(got5[0]) == int(rank5(np.array(fives[0]), RANKING))
    assert max(got3[0]) == int(rank3(np.array(fronts[0]), RANKING))


def _settings(hand: np.ndarray) -> np.ndarray:
    """Every ordered setting of a hand (72,072 rows, [front | middle | back])."""
    return np.concatenate(
        [hand[THREE_SUBSETS[SPLIT_IDS[:, 0]]], hand[FIVE_SUBSETS[SPLIT_IDS[:, 1]]],
         hand[FIVE_SUBSETS[SPLIT_IDS[:, 2]]]],
        axis=1,
    )  # fmt: skip


def _check_every_setting(hand: np.ndarray, order: int) -> tuple[int, int]:
    """Every setting of ``hand`` against the reference: the engine's named ranks are the best
    legal naming's, componentwise above every legal naming, and the engine fouls it iff no
    naming is legal.  Returns (settings legal, those legal only by a weaker naming)."""
    rows = _settings(np.sort(hand).astype(np.int8))
    got = named_dun_ranks(rows, RANKING, order)
    legal = orders_hold(got, order)
    strongest = np.stack(
        [rank3(rows[:, :3], RANKING), rank5(rows[:, 3:8], RANKING), rank5(rows[:, 8:], RANKING)],
        axis=1,
    )
    n_legal = 0
    for i, row in enumerate(rows):
        namings = legal_namings_reference(tuple(row.tolist()), RANKING, order)
        assert bool(legal[i]) == bool(namings), row
        if namings:
            n_legal += 1
            g = tuple(got[i].tolist())
            assert g in namings, row
            assert all(n[0] <= g[0] and n[1] <= g[1] and n[2] <= g[2] for n in namings), row
        else:  # fouled: the strongest ranks, as a dun on its own has them
            assert (got[i] == strongest[i]).all()
    return n_legal, int((legal & ~orders_hold(strongest, order)).sum())


#: A hand with one joker whose settings often need the joker named down: 9s and 5s give
#: trips or better in two duns, the joker raises whichever it joins.
ONE_JOKER = parse_cards("As Ad Kc Kh 9s 9d 5c 5h 7s 3d 2c Qh JK")
TWO_JOKERS = parse_cards("As Ks Qs 9d 9c 7h 6h 4c 3d 2s Td JK JK")


@pytest.mark.slow
@pytest.mark.parametrize("order", [0, FOUL_MIDDLE_BELOW | FOUL_FRONT_BELOW])
def test_every_setting_of_a_hand_with_one_joker(order):
    n_legal, by_naming = _check_every_setting(ONE_JOKER, order)
    assert by_naming > 100  # the hand exercises the naming: settings today's rule fouled
    assert n_legal > by_naming


@pytest.mark.slow
def test_every_setting_of_a_hand_with_two_jokers():
    n_legal, by_naming = _check_every_setting(TWO_JOKERS, 0)
    assert by_naming > 100
    assert n_legal > by_naming


@pytest.mark.parametrize("order", ORDERS)
def test_settings_of_joker_hands_in_every_foul_order(order):
    """A sample of settings (every 97th) of both hands, in each foul order."""
    for hand in (ONE_JOKER, TWO_JOKERS):
        rows = _settings(np.sort(hand).astype(np.int8))[::97]
        got = named_dun_ranks(rows, RANKING, order)
        legal = orders_hold(got, order)
        for i, row in enumerate(rows):
            want = named_ranks_reference(tuple(row.tolist()), RANKING, order)
            assert bool(legal[i]) == (want is not None)
            if want is not None:
                assert tuple(got[i].tolist()) == want


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    jokers=st.sampled_from([1, 2]),
    order=st.sampled_from(ORDERS),
)
def test_engine_fouls_a_setting_iff_no_naming_is_legal(seed, jokers, order):
    """Random hands with jokers, set at random: the ranks the engine uses are the greedy
    naming's, and it fouls the setting exactly when no naming keeps the order."""
    rng = np.random.default_rng(seed)
    row = np.concatenate([rng.choice(52, 13 - jokers, replace=False), JOKER_CARDS[:jokers]])
    row = rng.permutation(row).astype(np.int8)
    want = named_ranks_reference(tuple(row.tolist()), RANKING, order)
    got = dun_ranks(row, RANKING, order=order)
    assert bool(orders_hold(got[None], order)[0]) == (want is not None)
    if want is not None:
        assert tuple(got.tolist()) == want


def test_a_joker_named_down_keeps_a_setting_legal():
    """000 倒水: "后一副牌的牌型比前一副小，那就被视为“倒水”"; 000 五同: "王能够带任意牌".  The
    middle K-K-7-5-🃏 is trips at its strongest, above the back's two pair A-A-9-9; its holder
    names the joker a 7 (two pair K-7) and the hand is legal, ranked at that naming."""
    setting = parse_cards("2c 3d 4h  Ks Kh 7c 5d JK  Ad Ac 9s 9c 5s")
    assert not fouled(setting, JOKERS)
    ranks = dun_ranks(setting, JOKERS)
    assert ranks[1] == int(rank5(parse_cards("Ks Kh 7c 5d 7d"), RANKING))
    assert ranks[2] == int(rank5(setting[8:], RANKING))
    # the same middle over a back it cannot stay under (quads need no joker) fouls
    assert fouled(parse_cards("2c 3d 4h  Ks Kh Kd Kc JK  As Qs 9s 7s 5s"), JOKERS)


def test_the_scorer_pays_a_named_setting_as_legal():
    """A seat whose setting is legal only by naming its joker is not paid as fouled: it
    compares dun by dun (here it wins the back and the middle and loses the front)."""
    named = parse_cards("2c 3d 4h  Ks Kh 7c 5d JK  Ad Ac 9s 9c 5s")
    other = parse_cards("Qs Jd 6c  8s 8h 6d 3s 2d  Ts Th 4s 4d 3c")
    points = score(np.stack([named, other])[None], JOKERS)[0]
    assert points[0] == -points[1]
    assert points[0] == 1  # +1 back, +1 middle, -1 front: no foul penalty
    assert not fouled(named, JOKERS)


def test_every_strategy_sets_a_hand_legal_only_by_naming():
    """A hand whose only strong settings need a joker named down: every strategy sets it
    legally (the scorer agrees), and the greedy setting is the best named one."""
    hands = np.stack([ONE_JOKER, TWO_JOKERS]).astype(np.int8)
    for strategy in ("greedy", "random-legal", "expected-score"):
        arranged, _ = arrange(hands, JOKERS, strategy, rng=1, declare="never")
        assert not fouled(arranged, JOKERS).any(), strategy
    greedy, _ = arrange(hands, JOKERS, "greedy", declare="never")
    for hand, setting in zip(hands, greedy, strict=True):
        _, ranks = legal_splits(hand, JOKERS)
        best = max(map(tuple, ranks[:, ::-1].tolist()))
        assert tuple(dun_ranks(setting, JOKERS)[::-1].tolist()) == best


@pytest.mark.parametrize("hand", [ONE_JOKER, TWO_JOKERS], ids=["one", "two"])
def test_legal_splits_are_the_settings_some_naming_keeps_legal(hand):
    """The legal mask: legal_splits lists exactly the settings with a legal naming (both
    orders of two 5-card duns where each is legal), at the greedy naming's ranks."""
    row = np.sort(hand).astype(np.int8)
    ids, ranks = legal_splits(row, JOKERS)
    got = {tuple(i): tuple(r) for i, r in zip(ids.tolist(), ranks.tolist(), strict=True)}
    rows = _settings(row)
    named = named_dun_ranks(rows, RANKING, 0)
    legal = orders_hold(named, 0)
    r5 = rank5(row[FIVE_SUBSETS], RANKING)
    want = {}
    for s in np.flatnonzero(legal):
        f, m, b = SPLIT_IDS[s].tolist()
        if r5[m] == r5[b] and m < b:
            continue  # the same setting with the two equal 5-card duns swapped
        want[f, m, b] = tuple(named[s].tolist())
    assert got == want


def test_max_ev_search_equals_the_scan_of_every_split_on_joker_hands():
    """The pruned search (bounds at the named caps) finds the exhaustive scan's split and
    value on hands holding jokers."""
    rng = np.random.default_rng(11)
    rows = []
    while len(rows) < 24:
        hand = rng.choice(PACK, 13, replace=False)
        if (hand >= JK1).any():
            rows.append(np.sort(hand))
    rows_a = np.array([*rows, np.sort(ONE_JOKER), np.sort(TWO_JOKERS)], dtype=np.int8)
    solver = make_solver(JOKERS, 4)
    ids, values, _ = max_ev_ids(rows_a, solver)
    ids_x, values_x = exhaustive_ids(rows_a, solver)
    np.testing.assert_array_equal(ids, ids_x)
    np.testing.assert_allclose(values, values_x, rtol=0, atol=1e-9)


def test_hands_without_jokers_rank_dun_by_dun():
    """The naming leaves a hand without a joker as it was: its duns ranked on their own."""
    rng = np.random.default_rng(2)
    rows = np.array([rng.permutation(52)[:13] for _ in range(200)], dtype=np.int8)
    want = np.stack(
        [rank3(rows[:, :3], JOKERS), rank5(rows[:, 3:8], JOKERS), rank5(rows[:, 8:], JOKERS)],
        axis=1,
    )
    np.testing.assert_array_equal(dun_ranks(rows, JOKERS), want)
    np.testing.assert_array_equal(named_dun_ranks(rows, RANKING, 0), want)
