"""Ranking with any deck: five of a kind, 五彩同花顺 and wild jokers, against slow references."""

from __future__ import annotations

import dataclasses
from itertools import combinations, combinations_with_replacement

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from simkit.cards import JOKER_CARDS, make_card, pack_cards, parse_cards
from simkit.deal import deal
from simkit.evaluate import (
    Category,
    _rank5_any_rows,
    _rank5_rows,
    any_deck_flat,
    category_of,
    describe_rank,
    dun_ranks,
    rank3,
    rank3_jokers_reference,
    rank5,
    rank5_any_reference,
    rank5_jokers_reference,
    ranking_tables,
)
from simkit.variants import Deck, load_variant

GUANGXI = load_variant("guangxi").ranking  # wheel second, 五同 on, 五彩 off
FIVE_SUITS = load_variant("guangxi-five-suits").ranking  # 五彩 below the straight flush
QIANTANG5 = load_variant("qiantang-five-suits").ranking  # wheel lowest, 五彩 below
ABOVE = dataclasses.replace(FIVE_SUITS, five_suit_straight="above-straight-flush")
NO_FIVE = dataclasses.replace(GUANGXI, five_of_a_kind=False)
RANKINGS = {
    "guangxi": GUANGXI,
    "five-suits": FIVE_SUITS,
    "qiantang5": QIANTANG5,
    "above": ABOVE,
    "no-five": NO_FIVE,
}
JK = JOKER_CARDS[0]


def _cards(ranks, suits):
    return tuple(make_card(r, s) for r, s in zip(ranks, suits, strict=True))


def _suit_patterns(width, five_suits):
    """Suit assignments that reach every case the kernel tells apart: one suit, all different,
    mixed (and the fifth suit in each where the deck has it)."""
    patterns = [(0,) * width, (4,) * width if five_suits else (3,) * width]
    patterns.append(tuple(range(width)) if width <= 4 else (0, 1, 2, 3, 4))
    if five_suits and width <= 4:
        patterns.append(tuple(range(5 - width, 5)))
    patterns.append((0, 0, *range(1, width - 1)))
    return [p for p in patterns if len(p) == width and (five_suits or max(p) < 4)]


@pytest.mark.slow
@pytest.mark.parametrize("name", ["guangxi", "five-suits", "qiantang5", "above"])
def test_one_joker_exhaustively_over_ranks_and_suit_patterns(name):
    """Every multiset of four ranks, under every suit pattern, with one joker: the table
    kernel equals the best over every card the joker may stand for."""
    ranking = RANKINGS[name]
    five = ranking.five_suit_straight != "off"
    hands, expected = [], []
    for ranks in combinations_with_replacement(range(13), 4):
        for suits in _suit_patterns(4, five):
            hand = (*_cards(ranks, suits), JK)
            hands.append(hand)
            expected.append(rank5_jokers_reference(hand, ranking))
    got = rank5(np.array(hands, dtype=np.int8), ranking)
    assert got.tolist() == expected


@pytest.mark.slow
@pytest.mark.parametrize("name", ["guangxi", "five-suits"])
def test_two_jokers_exhaustively_over_ranks(name):
    """Every multiset of three ranks with two jokers (a sample of suit patterns per rank set,
    as the reference tries 65 × 65 substitutions)."""
    ranking = RANKINGS[name]
    five = ranking.five_suit_straight != "off"
    rng = np.random.default_rng(3)
    hands, expected = [], []
    for ranks in combinations_with_replacement(range(13), 3):
        patterns = _suit_patterns(3, five)
        suits = patterns[int(rng.integers(len(patterns)))]
        hand = (*_cards(ranks, suits), *JOKER_CARDS)
        hands.append(hand)
        expected.append(rank5_jokers_reference(hand, ranking))
    assert rank5(np.array(hands, dtype=np.int8), ranking).tolist() == expected


@pytest.mark.parametrize("name", list(RANKINGS))
def test_fronts_with_jokers_exhaustively(name):
    ranking = RANKINGS[name]
    hands = []
    for jokers in range(3):
        for ranks in combinations_with_replacement(range(13), 3 - jokers):
            hands.append((*_cards(ranks, [0] * len(ranks)), *JOKER_CARDS[:jokers]))
    expected = [rank3_jokers_reference(h, ranking) for h in hands]
    assert rank3(np.array(hands, dtype=np.int8), ranking).tolist() == expected


@pytest.mark.slow
def test_any_deck_kernel_equals_the_one_deck_kernel_on_every_one_deck_hand():
    """All C(52, 5) = 2,598,960 hands: the kernel for any deck ranks them as the one-deck
    kernel does (the one-deck path itself is unchanged and still used for them)."""
    rows = np.array(list(combinations(range(52), 5)), dtype=np.int8)
    for ranking in (GUANGXI, QIANTANG5):
        table5, flush_table, _ = ranking_tables(ranking)
        flat5 = any_deck_flat(ranking)[0]
        old = np.empty(rows.shape[0], np.int32)
        new = np.empty(rows.shape[0], np.int32)
        _rank5_rows(rows, table5, flush_table, old)
        _rank5_any_rows(rows, flat5, new)
        assert (old == new).all()


def test_any_deck_kernel_equals_the_one_deck_kernel_on_two_deck_hands():
    hands = deal(20000, 6, rng=9).reshape(-1, 13)[:, :5]
    table5, flush_table, _ = ranking_tables(GUANGXI)
    old = np.empty(hands.shape[0], np.int32)
    new = np.empty(hands.shape[0], np.int32)
    _rank5_rows(np.ascontiguousarray(hands), table5, flush_table, old)
    _rank5_any_rows(np.ascontiguousarray(hands), any_deck_flat(GUANGXI)[0], new)
    assert (old == new).all()


@pytest.mark.parametrize("name", ["five-suits", "qiantang5", "above"])
def test_fifth_suit_hands_against_the_reference(name):
    ranking = RANKINGS[name]
    deck = Deck(decks=2, extra_suit=True, jokers=2, players=(5,))
    hands = deal(4000, 5, rng=11, deck=deck).reshape(-1, 13)
    duns = np.concatenate([hands[:, 3:8], hands[:, 8:13]])
    duns = duns[(duns < JK).all(axis=1)][:6000]  # real cards only: the no-joker reference
    expected = [rank5_any_reference(tuple(d.tolist()), ranking) for d in duns]
    assert rank5(duns, ranking).tolist() == expected


_PACK = pack_cards(2, True, 2).tolist()


@settings(max_examples=150, deadline=None)
@given(st.lists(st.sampled_from(range(len(_PACK))), min_size=5, max_size=5, unique=True))
def test_random_duns_of_the_largest_pack_match_the_reference(positions):
    cards = tuple(_PACK[i] for i in positions)
    for ranking in (FIVE_SUITS, ABOVE):
        assert int(rank5(np.array(cards, np.int8), ranking)) == rank5_jokers_reference(
            cards, ranking
        )


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.integers(0, 64), min_size=5, max_size=5),
    st.integers(0, 4),
)
def test_a_joker_never_weakens_a_dun(cards, where):
    """Replacing any card by a joker never lowers the dun: the joker may stand for that card."""
    before = rank5(np.array(cards, np.int8), FIVE_SUITS)
    cards[where] = JK
    assert rank5(np.array(cards, np.int8), FIVE_SUITS) >= before


# ---------------------------------------------------------------------------------------------
# Rule clauses.


def test_000_five_of_a_kind_with_two_decks_or_a_joker():
    """000 五同: "在两副牌或者王能够带任意牌的情形时，由五张一模一样的牌构成" — two decks, or
    a joker standing for any card; above the straight flush (000: 五同…是最大的那种牌型)."""
    two_decks = rank5(parse_cards("As As Ad Ah Ac", decks=2), GUANGXI)
    with_joker = rank5(parse_cards("As Ad Ah Ac JK"), GUANGXI)
    assert category_of(two_decks) == category_of(with_joker) == Category.FIVE_OF_A_KIND
    assert with_joker > rank5(parse_cards("As Ks Qs Js Ts"), GUANGXI)
    assert category_of(rank5(parse_cards("As Ad Ah Ac JK"), NO_FIVE)) == Category.QUADS


def test_000_a_joker_stands_for_any_card_in_every_dun():
    """000 "王能够带任意牌": the joker takes the value that makes its dun strongest; in the
    front a pair and a joker are trips."""
    assert describe_rank(int(rank5(parse_cards("Ks Qs Js Ts JK"), GUANGXI))) == ("STRAIGHT_FLUSH A")
    assert describe_rank(int(rank5(parse_cards("9c 9d 5h 5s JK"), GUANGXI))) == ("FULL_HOUSE 9-5")
    assert describe_rank(int(rank3(parse_cards("Qc Qd JK"), GUANGXI))) == "TRIPS Q"
    assert describe_rank(int(rank3(parse_cards("JK 🃏 7c"), GUANGXI))) == "TRIPS 7"
    assert describe_rank(int(rank3(parse_cards("Ac 7d JK"), GUANGXI))) == "PAIR A-7"


def test_004_five_suit_straight_is_an_option_with_a_named_place():
    """004: "五彩同花顺（五张同花顺但花色各不相同）" is an optional rare hand; its place is the
    ranking's reading (below or above the straight flushes; off: a plain straight)."""
    hand = parse_cards("9c Td Jh Qs K*")
    sf = parse_cards("2c 3c 4c 5c 6c")
    quads = [*parse_cards("Ac Ad Ah As A*")[:4].tolist(), make_card(0, 0)]
    below = int(rank5(hand, FIVE_SUITS))
    above = int(rank5(hand, ABOVE))
    assert category_of(below) == category_of(above) == Category.STRAIGHT_FLUSH
    assert int(rank5(np.array(quads, np.int8), FIVE_SUITS)) < below < int(rank5(sf, FIVE_SUITS))
    assert int(rank5(parse_cards("Ac Kc Qc Jc Tc"), ABOVE)) < above
    assert above < int(rank5(parse_cards("2c 2d 2h 2s 2*"), ABOVE))
    plain = dataclasses.replace(FIVE_SUITS, five_suit_straight="off")
    assert category_of(rank5(hand, plain)) == Category.STRAIGHT
    assert describe_rank(below) == describe_rank(above) == "FIVE_SUIT_STRAIGHT K"


def test_five_suit_straights_order_by_top_and_the_wheel_follows_the_variant():
    tops = [parse_cards(t) for t in ("Ac 2d 3h 4s 5*", "2c 3d 4h 5s 6*", "9c Td Jh Qs K*",
                                      "Tc Jd Qh Ks A*")]  # fmt: skip
    second = [int(rank5(t, FIVE_SUITS)) for t in tops]  # wheel second-highest (002)
    lowest = [int(rank5(t, QIANTANG5)) for t in tops]  # wheel lowest (004)
    assert second[1] < second[2] < second[0] < second[3]
    assert lowest == sorted(lowest)


def test_dun_ranks_of_a_joker_hand():
    """On its own the middle 3-4-5-6♣ 🃏 is a straight flush; in this setting its holder names
    the joker so that it stays under the back's full house (issue 52.2): a flush, at its
    strongest (the ace of clubs)."""
    hand = parse_cards("JK 2c 2d  3c 4c 5c 6c JK  Kd Kh Ks 9c 9d")
    assert describe_rank(int(rank5(hand[3:8], GUANGXI))) == "STRAIGHT_FLUSH 7"
    front, middle, back = dun_ranks(hand, GUANGXI).tolist()
    assert describe_rank(front) == "TRIPS 2"
    assert describe_rank(middle) == "FLUSH A-6-5-4-3"
    assert describe_rank(back) == "FULL_HOUSE K-9"


# ---------------------------------------------------------------------------------------------
# Specials with jokers and a fifth suit.


def _one_deck_kernel_masks(hands: np.ndarray, specials) -> np.ndarray:  # type: ignore[no-untyped-def]
    from simkit.specials import _detect_kernel, _plan

    out = np.empty(len(hands), np.uint32)
    assert _detect_kernel(np.ascontiguousarray(hands, np.int8), *_plan(specials), 3, out) == -1
    return out


def _any_kernel_masks(hands: np.ndarray, specials, n_suits: int = 4) -> np.ndarray:  # type: ignore[no-untyped-def]
    from simkit.specials import _detect_any_kernel, _plan

    out = np.empty(len(hands), np.uint32)
    _detect_any_kernel(np.ascontiguousarray(hands, np.int8), *_plan(specials), n_suits, out)
    return out


def specials_jokers_reference(hand: tuple[int, ...], specials) -> int:  # type: ignore[no-untyped-def]
    """The mask of a one-deck hand with jokers: the OR over every card each joker may stand for
    (any of the 52, a copy of a held card included) of the masks of the substituted hands;
    a substituted hand with a card three times is judged by the plain reference of
    tests/test_specials.py, the others by the one-deck detector (itself checked there)."""
    from test_specials import reference_masks

    real = [c for c in hand if c < JK]
    jokers = len(hand) - len(real)
    subs = [list(s) for s in combinations_with_replacement(range(52), jokers)]
    rows = np.array([real + s for s in subs], dtype=np.int8)
    thrice = np.array([np.bincount(r, minlength=52).max() > 2 for r in rows])
    mask = int(np.bitwise_or.reduce(_one_deck_kernel_masks(rows[~thrice], specials)))
    if thrice.any():
        mask |= int(np.bitwise_or.reduce(reference_masks(rows[thrice], specials)))
    return mask


def _joker_hands(seed: int, n: int, jokers: int) -> np.ndarray:
    """One-deck hands built to (nearly) qualify for each special, with ``jokers`` of their cards
    replaced by jokers."""
    from test_specials import built_hands

    rng = np.random.default_rng(seed)
    hands = built_hands(seed, 2)
    hands = hands[rng.permutation(len(hands))[:n]].copy()
    for h in hands:
        h[rng.choice(13, size=jokers, replace=False)] = JOKER_CARDS[:jokers]
    return np.sort(hands, axis=1)


def _option_sets():  # type: ignore[no-untyped-def]
    from test_specials import OPTION_SETS

    return OPTION_SETS


@pytest.mark.slow
@pytest.mark.parametrize("jokers", [1, 2])
@pytest.mark.parametrize("index", range(4))
def test_specials_with_jokers_match_the_substitution_reference(jokers, index):
    from simkit.specials import detect_specials

    specials = _option_sets()[index]
    hands = _joker_hands(100 + index, 30 if jokers == 1 else 16, jokers)
    got = detect_specials(hands, specials).tolist()
    want = [specials_jokers_reference(tuple(h.tolist()), specials) for h in hands]
    assert got == want
    assert bin(int(np.bitwise_or.reduce(np.array(want, np.uint32)))).count("1") >= 8  # not trivial


def test_a_joker_keeps_every_special_of_the_card_it_replaces():
    """A joker may stand for the card it replaced: the hand keeps every special it had."""
    from test_specials import built_hands

    from simkit.specials import detect_specials

    rng = np.random.default_rng(5)
    for specials in _option_sets():
        hands = built_hands(7, 3)
        before = detect_specials(hands, specials)
        for jokers in (1, 2):
            changed = hands.copy()
            for h in changed:
                h[rng.choice(13, size=jokers, replace=False)] = JOKER_CARDS[:jokers]
            after = detect_specials(changed, specials)
            assert ((after & before) == before).all()


def test_any_deck_specials_kernel_equals_the_one_deck_kernel_without_jokers():
    from test_specials import built_hands, one_deck_pool, two_deck_pool

    pools = [one_deck_pool(), two_deck_pool(), built_hands(3, 5)]
    for specials in _option_sets():
        for pool in pools:
            got = _any_kernel_masks(pool, specials)
            assert (got == _one_deck_kernel_masks(pool, specials)).all()


def test_fifth_suit_specials_equal_those_of_the_hand_with_a_missing_suit_for_it():
    """A hand that leaves one of ♣ ♦ ♥ ♠ empty and holds ★ cards qualifies as the hand with ★
    relabelled to that suit does, for every special but 凑一色 (★ has no colour) and a
    spades-only 至尊清龙."""
    from test_specials import built_hands

    from simkit.specials import detect_specials

    rng = np.random.default_rng(8)
    hands = built_hands(9, 4)
    checked = 0
    for specials in _option_sets():
        keep = [
            i for i, r in enumerate(specials.rules) if r.id not in ("one-color", "clean-dragon")
        ]
        bits = sum(1 << i for i in keep)
        for hand in hands:
            suits = hand & 3
            empty = [s for s in range(4) if not (suits == s).any()]
            used = sorted(set(suits.tolist()))
            if not empty or not used:
                continue
            moved = used[int(rng.integers(len(used)))]  # this suit becomes ★ ...
            five = np.where(suits == moved, 52 + (hand >> 2), hand).astype(np.int8)
            relabelled = np.where(suits == moved, 4 * (hand >> 2) + empty[0], hand)
            a = int(detect_specials(five, specials)) & bits
            b = int(detect_specials(relabelled.astype(np.int8), specials)) & bits
            assert a == b
            checked += 1
    assert checked > 50


def test_specials_clauses_with_jokers_and_a_fifth_suit():
    """A joker fills a missing rank of 一条龙 and a missing card of 三同花顺; ★ is a suit of its
    own (a ★ 至尊清龙), of no colour (never 凑一色)."""
    from simkit.specials import detect_specials, special_names

    names = special_names("guangxi")

    def has(text: str) -> set[str]:
        mask = int(detect_specials(parse_cards(text, decks=2), "guangxi"))
        return {names[i] for i in range(len(names)) if mask >> i & 1}

    assert "一条龙" in has("2c 3d 4h 5s 6c 7d 8h 9s Tc Jd Qh Ks JK")
    assert "三同花顺" in has("2c 3c 4c 5d 6d 7d 8d JK Th Jh Qh Kh Ah")
    assert "至尊清龙" in has("2c 3c 4c 5c 6c 7c 8c 9c Tc Jc Qc JK 🃏")
    assert "至尊清龙" in has("2* 3* 4* 5* 6* 7* 8* 9* T* J* Q* K* A*")
    assert "凑一色" not in has("2* 3* 4* 5* 6* 7* 8* 9* T* J* Q* K* A*")
    assert "凑一色" in has("2c 3c 4c 5c 6s 7s 8s 9s Tc Jc Qc JK 🃏")
    assert "三分天下" in has("Ac Ad Ah As Kc Kd Kh Ks Qc Qd Qh JK 2c")


# ---------------------------------------------------------------------------------------------
# Arranging hands of any deck: the search ranks every subset joker-aware, so no split fouls.

DECK_OPTIONS = [("guangxi-jokers", 4), ("guangxi-five-suits", 5), ("qiantang-five-suits", 4)]


@pytest.mark.parametrize(("name", "players"), DECK_OPTIONS)
def test_the_search_ranks_every_subset_as_rank5_and_rank3_do(name, players):
    from simkit.arrange.subsets import rank_subsets, rank_tables_of
    from simkit.splits import FIVE_SUBSETS, THREE_SUBSETS

    variant = load_variant(name)
    hands = deal(40, players, rng=4, deck=variant.deck_for(players)).reshape(-1, 13)
    rt = rank_tables_of(variant)
    r5 = np.empty(len(FIVE_SUBSETS), np.int32)
    r3 = np.empty(len(THREE_SUBSETS), np.int32)
    k5 = np.empty_like(r5)
    k3 = np.empty_like(r3)
    assert (hands >= 52).any(axis=1).mean() > 0.3
    for hand in hands:
        rank_subsets(hand, rt, r5, r3, k5, k3)
        assert (r5 == rank5(hand[FIVE_SUBSETS], variant)).all()
        assert (r3 == rank3(hand[THREE_SUBSETS], variant)).all()


@pytest.mark.parametrize(("name", "players"), DECK_OPTIONS)
def test_max_ev_pruned_search_equals_all_splits_with_any_deck(name, players):
    import warnings

    from simkit.arrange.search import exhaustive_ids, make_solver, max_ev_ids

    variant = load_variant(name)
    hands = deal(300 // players, players, rng=6, deck=variant.deck_for(players)).reshape(-1, 13)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # no trained tables for a deck option: the nearest
        solver = make_solver(variant, players)
    ids, values, _ = max_ev_ids(hands, solver)
    ids_all, values_all = exhaustive_ids(hands, solver)
    assert (values == values_all).all()
    assert (ids == ids_all).all()


@pytest.mark.parametrize("strategy", ["max-ev", "greedy", "random-legal"])
@pytest.mark.parametrize(("name", "players"), DECK_OPTIONS)
def test_no_strategy_fouls_with_jokers_or_a_fifth_suit(strategy, name, players):
    import warnings

    from simkit.arrange import arrange

    variant = load_variant(name)
    hands = deal(50, players, rng=3, deck=variant.deck_for(players))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        arranged, _ = arrange(hands, variant, strategy, n_players=players, rng=1)
    assert (np.sort(arranged, axis=-1) == hands).all()  # the same cards, set
    r = dun_ranks(arranged, variant)
    assert (r[..., 0] <= r[..., 1]).all() and (r[..., 1] <= r[..., 2]).all()


def test_a_plain_variant_rejects_jokers_and_a_two_deck_variant_takes_repeats():
    import warnings

    from simkit.arrange import arrange

    with pytest.raises(ValueError, match=r"0\.\.51"):
        arrange(parse_cards("JK 2c 2d 3c 4c 5c 6c 7c Kd Kh Ks 9c 9d"), "guangxi", "greedy")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        cards, _ = arrange(
            parse_cards("As As Ad Ah Ac 2c 3d 4h 5s 7c 8d 9h Tc", decks=2),
            "guangxi-two-decks",
            "greedy",
        )
    assert describe_rank(int(rank5(cards[8:], "guangxi"))) == "FIVE_OF_A_KIND A"


def test_score_ranks_joker_duns_and_a_plain_variant_rejects_them():
    from simkit.arrange import arrange
    from simkit.score import score

    variant = load_variant("guangxi-jokers")
    hands = deal(30, 4, rng=2, deck=variant.deck_for(4))
    arranged, _ = arrange(hands, variant, "greedy", declare="never")
    own = score(arranged, variant)
    given = score(arranged, variant, ranks=dun_ranks(arranged, variant))
    assert (own == given).all() and np.allclose(own.sum(axis=1), 0)
    with pytest.raises(ValueError, match="not a card of guangxi's deck"):
        score(arranged, "guangxi")
