"""Special hands: the numba detector against a slow, plainly written reference, on the sources'
own example hands, random hands, hands built to (nearly) qualify, every shipped variant, every
definition option and two-deck hands; plus the edge readings the module docstring documents.
"""

from __future__ import annotations

import itertools
from collections import Counter
from functools import cache, lru_cache

import numpy as np
import pytest
from conftest import N_VARIANTS
from hypothesis import given
from hypothesis import strategies as st

from simkit.cards import RANK_CHARS, parse_cards
from simkit.deal import deal
from simkit.specials import best_special, detect_specials, special_names
from simkit.variants import SpecialRule, Specials, VariantError, load_variant, variant_names
from simkit.variants.rules import SPECIAL_KINDS
from simkit.variants.schema import FrozenMap

# ---------------------------------------------------------------------------------------------
# The reference: each definition written out directly, searching every split or grouping.


def _ranks_of(text: str) -> frozenset[int]:
    return frozenset(RANK_CHARS.index(c) for c in text)


# Straights as written on the cards: five in a row, A-2-3-4-5 the lowest, no wraparound.
FIVE_STRAIGHTS = {
    _ranks_of(t) for t in "A2345 23456 34567 45678 56789 6789T 789TJ 89TJQ 9TJQK TJQKA".split()
}
PLAIN_FRONTS = {_ranks_of(t) for t in "234 345 456 567 678 789 89T 9TJ TJQ JQK".split()}
QKA_FRONT, A23_FRONT = _ranks_of("QKA"), _ranks_of("A23")
ANY_FRONT = PLAIN_FRONTS | {QKA_FRONT, A23_FRONT}


def _rank(card: int) -> int:
    return card // 4


def _suit(card: int) -> int:
    return card % 4


def _is_straight(cards: list[int]) -> bool:
    ranks = [_rank(c) for c in cards]
    return len(set(ranks)) == len(ranks) and frozenset(ranks) in FIVE_STRAIGHTS


def _is_front_straight(cards: list[int]) -> bool:
    ranks = [_rank(c) for c in cards]
    return len(set(ranks)) == 3 and frozenset(ranks) in ANY_FRONT


def _one_suit(cards: list[int]) -> bool:
    return len({_suit(c) for c in cards}) == 1


POSITIONS = range(13)
FIVE_POSITIONS = [(m, sum(1 << i for i in m)) for m in itertools.combinations(POSITIONS, 5)]
ALL_POSITIONS = (1 << 13) - 1
STRAIGHT_RANK_MASKS = {sum(1 << r for r in s) for s in FIVE_STRAIGHTS}


@cache
def _split_fronts(hand: tuple[int, ...]) -> dict[str, frozenset[frozenset[int]]]:
    """Rank sets of the fronts of the 3/5/5 splits of ``hand`` whose duns are all straights,
    all one suit, or all straight flushes (keys "straight", "flush", "straight-flush").

    Every pair of disjoint good 5-card duns is tried, the front being the three cards left;
    the front is checked against every front straight, and the rule's options filter the
    returned fronts.  One-suit splits are all alike, so the first one found is enough.
    """
    rank_bit = [1 << _rank(c) for c in hand]
    suit_bit = [1 << _suit(c) for c in hand]
    good: dict[str, list[int]] = {"straight": [], "flush": [], "straight-flush": []}
    for (a, b, c, d, e), bits in FIVE_POSITIONS:
        ranks = rank_bit[a] | rank_bit[b] | rank_bit[c] | rank_bit[d] | rank_bit[e]
        straight = ranks in STRAIGHT_RANK_MASKS  # five different ranks in a row
        flush = (suit_bit[a] | suit_bit[b] | suit_bit[c] | suit_bit[d] | suit_bit[e]) in (
            1,
            2,
            4,
            8,
        )
        if straight:
            good["straight"].append(bits)
        if flush:
            good["flush"].append(bits)
        if straight and flush:
            good["straight-flush"].append(bits)
    fronts: dict[str, set[frozenset[int]]] = {k: set() for k in good}
    for kind, fives in good.items():
        for i, first in enumerate(fives):
            for second in fives[i + 1 :]:
                if first & second:
                    continue
                rest = ALL_POSITIONS & ~(first | second)
                cards = [hand[p] for p in POSITIONS if rest >> p & 1]
                straight_ok = kind == "flush" or _is_front_straight(cards)
                if straight_ok and (kind == "straight" or _one_suit(cards)):
                    fronts[kind].add(frozenset(_rank(c) for c in cards))
            if kind == "flush" and fronts[kind]:
                break
    return {k: frozenset(v) for k, v in fronts.items()}


def _allowed_front(ranks: frozenset[int], rule: SpecialRule) -> bool:
    if ranks == QKA_FRONT:
        return bool(rule.option("front_qka"))
    if ranks == A23_FRONT:
        return bool(rule.option("front_a23"))
    return True


def _groups_exist(hand: tuple[int, ...], sizes: list[int], may_share) -> bool:  # type: ignore[no-untyped-def]
    """Can the cards be split into same-rank groups of ``sizes`` (which sum to 13)?

    ``may_share(i, j)`` says whether groups ``i`` and ``j`` may take cards of the same rank.
    """
    left = Counter(_rank(c) for c in hand)
    chosen: list[int] = []

    def place(g: int) -> bool:
        if g == len(sizes):
            return True
        for rank in range(13):
            if left[rank] < sizes[g]:
                continue
            if any(r == rank and not may_share(i, g) for i, r in enumerate(chosen)):
                continue
            left[rank] -= sizes[g]
            chosen.append(rank)
            if place(g + 1):
                return True
            chosen.pop()
            left[rank] += sizes[g]
        return False

    return place(0)


def reference_qualifies(hand: tuple[int, ...], rule: SpecialRule) -> bool:
    """Whether a 13-card hand qualifies for ``rule``, written from the definitions."""
    ranks = [_rank(c) for c in hand]
    suits = [_suit(c) for c in hand]
    sid = rule.id
    if sid == "clean-dragon":
        allowed = {3} if rule.option("suits") == "spades" else {0, 1, 2, 3}
        return sorted(ranks) == list(range(13)) and len(set(suits)) == 1 and suits[0] in allowed
    if sid == "dragon":
        return sorted(ranks) == list(range(13))
    if sid == "royal-twelve":
        if rule.option("definition") == "all-jqka":
            return all(RANK_CHARS[r] in "JQKA" for r in ranks)
        return sum(RANK_CHARS[r] in "JQK" for r in ranks) >= 12
    if sid in ("all-big", "all-small"):
        return all(r in rule.option("ranks") for r in ranks)
    if sid == "one-color":
        return all(s in (1, 2) for s in suits) or all(s in (0, 3) for s in suits)
    if sid == "three-quads":  # the odd card (group 3) may share a quads' rank
        return _groups_exist(hand, [4, 4, 4, 1], lambda i, j: 3 in (i, j))
    if sid == "three-trips-and-quads":
        return _groups_exist(hand, [4, 3, 3, 3], lambda i, j: False)
    if sid == "four-trips":
        odd_may_join = bool(rule.option("quads_count_as_trips"))
        return _groups_exist(hand, [3, 3, 3, 3, 1], lambda i, j: odd_may_join and 4 in (i, j))
    if sid == "five-pairs-and-trips":
        share = bool(rule.option("quads_count_as_two_pairs"))
        return _groups_exist(hand, [3, 2, 2, 2, 2, 2], lambda i, j: share)
    if sid == "six-pairs":
        pairs_share = bool(rule.option("quads_count_as_two_pairs"))
        odd_shares = bool(rule.option("trips_count_as_pair"))
        return _groups_exist(
            hand, [2] * 6 + [1], lambda i, j: odd_shares if 6 in (i, j) else pairs_share
        )
    if sid == "three-flushes":
        return bool(_split_fronts(hand)["flush"])
    if sid == "three-straights":
        return any(_allowed_front(f, rule) for f in _split_fronts(hand)["straight"])
    if sid == "three-straight-flushes":
        return any(_allowed_front(f, rule) for f in _split_fronts(hand)["straight-flush"])
    raise AssertionError(f"no reference for {sid}")


def reference_masks(hands: np.ndarray, specials: Specials) -> np.ndarray:
    out = np.zeros(len(hands), dtype=np.uint32)
    for h, hand in enumerate(hands.tolist()):
        key = tuple(sorted(hand))
        for i, rule in enumerate(specials.rules):
            if reference_qualifies(key, rule):
                out[h] |= np.uint32(1 << i)
    return out


# ---------------------------------------------------------------------------------------------
# Rules with chosen options, and option sets that together use every value of every option.


def rule(special_id: str, **options: object) -> SpecialRule:
    kind = SPECIAL_KINDS[special_id]
    values = {k: spec.default for k, spec in kind.options.items()} | options
    if "ranks" in values:
        values["ranks"] = tuple(sorted(RANK_CHARS.index(c) for c in values["ranks"]))
    return SpecialRule(id=special_id, payout=1.0, options=FrozenMap(values))


def _option_sets() -> list[Specials]:
    """Four Specials of every kind; across them every option takes each of its values."""
    flags = [(True, True), (True, False), (False, True), (False, False)]
    out = []
    for i, (a, b) in enumerate(flags):
        out.append(
            Specials(
                rules=(
                    rule("clean-dragon", suits=("any", "spades")[i % 2]),
                    rule("dragon"),
                    rule("royal-twelve", definition=("all-jqka", "all-jqk-plus-one")[i % 2]),
                    rule("three-straight-flushes", front_qka=a, front_a23=b),
                    rule("three-quads"),
                    rule("all-big", ranks=("89TJQKA", "TJQKA")[i % 2]),
                    rule("all-small", ranks=("2345678", "A2345")[i % 2]),
                    rule("one-color"),
                    rule("three-trips-and-quads"),
                    rule("four-trips", quads_count_as_trips=i % 2 == 0),
                    rule("five-pairs-and-trips", quads_count_as_two_pairs=i % 2 == 1),
                    rule("six-pairs", quads_count_as_two_pairs=a, trips_count_as_pair=b),
                    rule("three-flushes"),
                    rule("three-straights", front_qka=b, front_a23=a),
                )
            )
        )
    return out


OPTION_SETS = _option_sets()


def test_option_sets_cover_every_kind_and_option_value():
    for kind in SPECIAL_KINDS.values():
        assert all(kind.id in s.ids for s in OPTION_SETS)
        for key, spec in kind.options.items():
            seen = {s.get(kind.id).option(key) for s in OPTION_SETS}
            if spec.choices is not None:
                assert seen == set(spec.choices), (kind.id, key)
            else:
                assert len(seen) == 2, (kind.id, key)


# ---------------------------------------------------------------------------------------------
# Hands: random, and built to (nearly) qualify.


def _with_suits(rng: np.random.Generator, ranks: list[int], decks: int = 1) -> list[int] | None:
    counts = Counter(ranks)
    if max(counts.values()) > 4 * decks:
        return None
    hand = []
    for r, k in counts.items():
        copies = rng.choice(4 * decks, size=k, replace=False) % 4
        hand += [4 * r + int(s) for s in copies]
    return sorted(hand)


def _perturb(rng: np.random.Generator, hand: list[int], decks: int = 1) -> list[int]:
    """Replace one card by another the deck(s) can still supply."""
    out = list(hand)
    out.pop(int(rng.integers(13)))
    while True:
        card = int(rng.integers(52))
        if out.count(card) < decks:
            return sorted([*out, card])


FRONTS = sorted(tuple(sorted(f)) for f in ANY_FRONT)
FIVES = sorted(tuple(sorted(f)) for f in FIVE_STRAIGHTS)
RANK_PATTERNS = [
    [4, 4, 4, 1],
    [4, 3, 3, 3],
    [3, 3, 3, 3, 1],
    [4, 3, 3, 2, 1],
    [3, 2, 2, 2, 2, 2],
    [4, 3, 2, 2, 2],
    [4, 4, 3, 2],
    [2, 2, 2, 2, 2, 2, 1],
    [4, 2, 2, 2, 2, 1],
    [4, 4, 2, 2, 1],
    [3, 3, 2, 2, 2, 1],
    [3, 3, 3, 2, 2],
]
# Two decks: a rank may hold five to eight cards.
TWO_DECK_PATTERNS = [[5, 4, 4], [5, 2, 2, 2, 2], [6, 3, 2, 2], [5, 3, 3, 2], [8, 4, 1], [7, 3, 3]]
TWO_DECK_PATTERNS += [[6, 6, 1], [5, 4, 2, 2], [7, 2, 2, 2], [6, 4, 3], [5, 5, 3], [8, 2, 2, 1]]
RANK_SETS = ["JQKA", "JQK", "89TJQKA", "2345678", "TJQKA", "A2345", "2345"]


def _built_hand(rng: np.random.Generator, what: int, decks: int = 1) -> list[int] | None:
    if what == 0:  # three straights (any front)
        f = FRONTS[rng.integers(len(FRONTS))]
        a, b = (FIVES[i] for i in rng.integers(len(FIVES), size=2))
        return _with_suits(rng, [*f, *a, *b], decks)
    if what == 1:  # three straight flushes: one suit per dun
        f = FRONTS[rng.integers(len(FRONTS))]
        a, b = (FIVES[i] for i in rng.integers(len(FIVES), size=2))
        suits = rng.integers(4, size=3)
        hand = sorted(
            [4 * r + int(suits[0]) for r in f]
            + [4 * r + int(suits[1]) for r in a]
            + [4 * r + int(suits[2]) for r in b]
        )
        return hand if max(Counter(hand).values()) <= decks else None
    if what == 2:  # three flushes
        sizes = [[3, 5, 5], [8, 5], [3, 10], [13]][rng.integers(4)]
        suits = rng.choice(4, size=len(sizes), replace=False)
        hand = []
        for size, s in zip(sizes, suits, strict=True):
            pool = [4 * r + int(s) for r in range(13)] * decks
            hand += [int(c) for c in rng.choice(pool, size=size, replace=False)]
        return sorted(hand)
    if what == 3:  # a pattern of rank counts
        patterns = RANK_PATTERNS + TWO_DECK_PATTERNS * (decks - 1)
        pattern = patterns[rng.integers(len(patterns))]
        ranks = rng.choice(13, size=len(pattern), replace=False)
        return _with_suits(
            rng, [int(r) for r, k in zip(ranks, pattern, strict=True) for _ in range(k)], decks
        )
    if what == 4:  # all cards from a rank set
        allowed = _ranks_of(RANK_SETS[rng.integers(len(RANK_SETS))])
        pool = [c for c in range(52) if _rank(c) in allowed] * decks
        if len(pool) < 12:
            return None
        picked = [int(c) for c in rng.choice(pool, size=min(13, len(pool)), replace=False)]
        while len(picked) < 13:
            picked.append(int(rng.integers(52)))
        return sorted(picked)
    if what == 5:  # one colour
        colour = (1, 2) if rng.integers(2) else (0, 3)
        pool = [c for c in range(52) if _suit(c) in colour] * decks
        return sorted(int(c) for c in rng.choice(pool, size=13, replace=False))
    if what == 6:  # a dragon, sometimes a clean one
        suits = np.full(13, rng.integers(4)) if rng.integers(3) == 0 else rng.integers(4, size=13)
        return [4 * r + int(s) for r, s in enumerate(suits)]
    raise AssertionError(what)


N_BUILDERS = 7


def built_hands(seed: int, per_builder: int, decks: int = 1) -> np.ndarray:
    """Hands built to qualify for each special, each also with one card changed."""
    rng = np.random.default_rng(seed)
    hands: list[list[int]] = []
    for what in range(N_BUILDERS):
        made = 0
        while made < per_builder:
            hand = _built_hand(rng, what, decks)
            if hand is None:
                continue
            hands += [hand, _perturb(rng, hand, decks)]
            made += 1
    return np.array(hands, dtype=np.int8)


@lru_cache(maxsize=1)
def one_deck_pool() -> np.ndarray:
    return np.vstack([deal(75, 4, rng=11).reshape(-1, 13), built_hands(12, 30)])


@lru_cache(maxsize=1)
def two_deck_pool() -> np.ndarray:
    return np.vstack([deal(25, 8, rng=13).reshape(-1, 13), built_hands(14, 12, decks=2)])


# ---------------------------------------------------------------------------------------------
# Agreement with the reference


def test_every_shipped_variant_is_checked():
    """The registry drives the tests; a variant cannot drop out unnoticed."""
    assert len(variant_names()) == N_VARIANTS


@pytest.mark.parametrize("name", variant_names())
def test_detector_matches_reference_for_each_shipped_variant(name):
    specials = load_variant(name).specials
    hands = one_deck_pool()
    assert (detect_specials(hands, name) == reference_masks(hands, specials)).all()


@pytest.mark.parametrize("index", range(len(OPTION_SETS)))
def test_detector_matches_reference_under_every_option(index):
    specials = OPTION_SETS[index]
    hands = one_deck_pool()
    got = detect_specials(hands, specials)
    want = reference_masks(hands, specials)
    bad = np.flatnonzero(got != want)
    assert bad.size == 0, [(hands[i].tolist(), int(got[i]), int(want[i])) for i in bad[:3]]
    # The pool is not trivial: every special of the set occurs in it.
    assert np.bitwise_or.reduce(want) == (1 << len(specials)) - 1


@pytest.mark.parametrize("index", range(len(OPTION_SETS)))
def test_detector_matches_reference_on_two_deck_hands(index):
    specials = OPTION_SETS[index]
    hands = two_deck_pool()
    assert any(len(set(h)) < 13 for h in hands.tolist())  # repeated cards are present
    got = detect_specials(hands, specials)
    want = reference_masks(hands, specials)
    bad = np.flatnonzero(got != want)
    assert bad.size == 0, [(hands[i].tolist(), int(got[i]), int(want[i])) for i in bad[:3]]


# Suit relabellings that keep the colours together (♣♠ black, ♦♥ red): 凑一色 is unchanged.
COLOUR_PRESERVING = [
    p for p in itertools.permutations(range(4)) if {p[0], p[3]} in ({0, 3}, {1, 2})
]
HANDS = st.one_of(
    st.lists(st.integers(0, 51), min_size=13, max_size=13, unique=True),
    st.integers(0, 10**6).map(lambda i: one_deck_pool()[i % len(one_deck_pool())].tolist()),
)


@given(HANDS, st.randoms(use_true_random=False), st.sampled_from(COLOUR_PRESERVING))
def test_masks_ignore_card_order_and_colour_preserving_suit_changes(hand, random, perm):
    """Invariants: the order of the cards never matters; relabelling suits within colours
    never matters when 至尊清龙 accepts any suit; and the reference agrees."""
    shuffled = list(hand)
    random.shuffle(shuffled)
    relabelled = [4 * (c // 4) + perm[c % 4] for c in hand]
    specials = OPTION_SETS[0]
    assert specials.get("clean-dragon").option("suits") == "any"
    masks = detect_specials(np.array([hand, shuffled, relabelled], dtype=np.int8), specials)
    assert masks[0] == masks[1] == masks[2]
    assert masks[0] == reference_masks(np.array([hand], dtype=np.int8), specials)[0]


def test_detector_is_vectorized_over_leading_axes():
    hands = deal(50, 4, rng=5)
    masks = detect_specials(hands)
    assert masks.shape == (50, 4) and masks.dtype == np.uint32
    assert (masks.ravel() == detect_specials(hands.reshape(-1, 13))).all()
    assert detect_specials(hands[0, 0]).shape == ()


# ---------------------------------------------------------------------------------------------
# The sources' example hands (001 玩法3's table of 报到 hands, one per special)


def _has(hand_text: str, r: SpecialRule) -> bool:
    hand = parse_cards(hand_text)
    specials = Specials(rules=(r,))
    got = bool(int(detect_specials(hand, specials)) & 1)
    assert got == reference_qualifies(tuple(sorted(hand.tolist())), r)
    return got


def test_001_wanfa3_three_flushes_example():
    """001 玩法3 三同花: 首墩 3♣ 7♣ A♣, 中墩 2♥ 4♥ 8♥ J♥ Q♥, 尾墩 4♠ 5♠ 9♠ Q♠ K♠."""
    assert _has("3c 7c Ac 2h 4h 8h Jh Qh 4s 5s 9s Qs Ks", rule("three-flushes"))


def test_001_wanfa3_three_straights_example():
    """001 玩法3 三顺子: 4♠ 5♦ 6♦ / 6♥ 7♣ 8♣ 9♠ 10♥ / 10♠ J♣ Q♠ K♥ A♦."""
    hand = "4s 5d 6d 6h 7c 8c 9s Th Ts Jc Qs Kh Ad"
    assert _has(hand, rule("three-straights", front_qka=False, front_a23=True))


def test_001_wanfa3_three_straights_excludes_qka_front():
    """001 玩法3 三顺子: 'QKA, KA2不算在内' — Q-K-A front counts only with front_qka."""
    hand = "Qc Kd Ah 2c 2d 3c 3d 4c 4d 5c 5d 6c 6d"  # only QKA + 23456 + 23456
    assert not _has(hand, rule("three-straights", front_qka=False))
    assert _has(hand, rule("three-straights", front_qka=True))


def test_001_wanfa3_six_pairs_example_is_five_pairs_and_trips():
    """001 玩法3 六对半 example: 2♦2♥3♣ / 3♠7♣7♥8♦8♠ / J♣J♦Q♦Q♥Q♠ holds 2,3,7,8,J pairs and
    Q trips: six pairs only when a trips counts as a pair plus the odd card."""
    hand = "2d 2h 3c 3s 7c 7h 8d 8s Jc Jd Qd Qh Qs"
    assert _has(hand, rule("five-pairs-and-trips"))
    assert _has(hand, rule("six-pairs", trips_count_as_pair=True))
    assert not _has(hand, rule("six-pairs", trips_count_as_pair=False))


def test_001_wanfa3_four_trips_example():
    """001 玩法3 四套三条: 2♣2♦2♠ 6♦6♥6♠ 8♣8♥8♠ 9♦9♥9♠ K♠."""
    assert _has("2c 2d 2s 6d 6h 6s 8c 8h 8s 9d 9h 9s Ks", rule("four-trips"))


def test_001_wanfa3_one_color_example():
    """001 玩法3 凑一色: 3♣3♠4♣4♠6♣7♣8♠9♠10♣J♣J♠Q♠A♠, all black."""
    assert _has("3c 3s 4c 4s 6c 7c 8s 9s Tc Jc Js Qs As", rule("one-color"))


def test_001_wanfa3_all_small_example():
    """001 玩法3 全小 (13张牌皆为2~8): 2♣3♣3♦3♥4♦4♠5♣6♦7♣7♦7♥7♠8♦."""
    hand = "2c 3c 3d 3h 4d 4s 5c 6d 7c 7d 7h 7s 8d"
    assert _has(hand, rule("all-small"))
    assert not _has(hand, rule("all-big"))


def test_001_wanfa3_all_big_example():
    """001 玩法3 全大 (8~K和A): 8♣9♣9♦10♥J♦J♠Q♣Q♦Q♥K♦K♥K♠A♣; not 004's 10-A reading."""
    hand = "8c 9c 9d Th Jd Js Qc Qd Qh Kd Kh Ks Ac"
    assert _has(hand, rule("all-big"))
    assert not _has(hand, rule("all-big", ranks="TJQKA"))


def test_001_wanfa3_three_straight_flushes_example():
    """001 玩法3 三同花顺: 9♣10♣J♣ / 2♦3♦4♦5♦6♦ / 9♥10♥J♥Q♥K♥."""
    hand = "9c Tc Jc 2d 3d 4d 5d 6d 9h Th Jh Qh Kh"
    assert _has(hand, rule("three-straight-flushes", front_qka=False))
    assert _has(hand, rule("three-flushes")) and _has(hand, rule("three-straights"))


def test_001_dragon_and_clean_dragon():
    """001: 一条龙 A.K.Q...2 各一张; 至尊清龙 全同花的一条龙 (004: spades only)."""
    mixed = "Ac Kd Qh Js Tc 9d 8h 7s 6c 5d 4h 3s 2c"
    assert _has(mixed, rule("dragon")) and not _has(mixed, rule("clean-dragon"))
    hearts = " ".join(f"{r}h" for r in RANK_CHARS)
    spades = " ".join(f"{r}s" for r in RANK_CHARS)
    assert _has(hearts, rule("clean-dragon")) and _has(hearts, rule("dragon"))
    assert not _has(hearts, rule("clean-dragon", suits="spades"))
    assert _has(spades, rule("clean-dragon", suits="spades"))


def test_royal_twelve_readings():
    """002/001: 全是J、Q、K、A; 003/004: 12张人头牌 (J、Q、K各四张) + 任意1张."""
    jqka = "Jc Jd Jh Js Qc Qd Qh Qs Kc Kd Kh Ac Ad"
    jqk_plus = "Jc Jd Jh Js Qc Qd Qh Qs Kc Kd Kh Ks 2c"
    assert _has(jqka, rule("royal-twelve", definition="all-jqka"))
    assert not _has(jqka, rule("royal-twelve", definition="all-jqk-plus-one"))
    assert _has(jqk_plus, rule("royal-twelve", definition="all-jqk-plus-one"))
    assert not _has(jqk_plus, rule("royal-twelve", definition="all-jqka"))


# ---------------------------------------------------------------------------------------------
# Edge readings (module docstring)


def test_three_quads_is_also_six_pairs_when_quads_count_as_two_pairs():
    """001 玩法3: 三分天下 '等于六对半'; 000: three quads 'becomes' 三分天下."""
    hand = "2c 2d 2h 2s 9c 9d 9h 9s Kc Kd Kh Ks 5c"
    assert _has(hand, rule("three-quads"))
    assert _has(hand, rule("six-pairs", quads_count_as_two_pairs=True))
    assert not _has(hand, rule("six-pairs", quads_count_as_two_pairs=False))


def test_four_three_three_three_under_four_trips_and_three_trips_and_quads():
    """Counts 4,3,3,3 are 三冲加弹; they are 四套三条 only when a quads counts as trips."""
    hand = "2c 2d 2h 2s 9c 9d 9h Kc Kd Kh 5c 5d 5h"
    assert _has(hand, rule("three-trips-and-quads"))
    assert _has(hand, rule("four-trips", quads_count_as_trips=True))
    assert not _has(hand, rule("four-trips", quads_count_as_trips=False))


def test_five_pairs_and_trips_with_a_quads():
    """4,3,2,2,2 holds a trips and five pairs only when a quads counts as two pairs."""
    hand = "2c 2d 2h 2s 9c 9d 9h Kc Kd 5c 5d 7h 7s"
    assert _has(hand, rule("five-pairs-and-trips", quads_count_as_two_pairs=True))
    assert not _has(hand, rule("five-pairs-and-trips", quads_count_as_two_pairs=False))


def test_wraparound_straights_never_count():
    """K-A-2 fronts and K-A-2-3-4 duns are not straights (001: KA2, JQKA2 除外)."""
    hand = "Kc Ad 2h 3c 3d 4c 4d 5c 5d 6c 6d 7c 7d"  # only KA2 + 34567 + 34567
    assert not _has(hand, rule("three-straights", front_qka=True, front_a23=True))
    hand = "Jc Jd Qc Qd Kc Kd Ac Ad 2c 2d 3h 4h 5h"  # only JQKA2 + JQKA2 + 345
    assert not _has(hand, rule("three-straights", front_qka=True, front_a23=True))
    wheel = "Ac 2d 3h 4c 5d 6h 7s 8c 9d Th Jc Qs Kd"  # A2345 + 678 + 9TJQK
    assert _has(wheel, rule("three-straights"))


def test_two_decks_repeated_cards_can_fill_two_duns():
    """Two decks: 7♠8♠9♠ + 2♠-6♠ + 2♠-6♠ (2♠..6♠ twice) is three straight flushes, and a
    hand of six repeated cards plus one is six pairs."""
    hand = parse_cards("7s 8s 9s 2s 3s 4s 5s 6s 2s 3s 4s 5s 6s", decks=2)
    specials = Specials(rules=(rule("three-straight-flushes"), rule("six-pairs")))
    mask = int(detect_specials(hand, specials))
    assert mask == 0b01  # 2..6 twice and 7, 8, 9 once: five pairs only
    assert reference_masks(hand[None], specials)[0] == mask
    pairs = parse_cards("2c 2c 5d 5d 7h 7h 9s 9s Jc Jc Ad Ad Kh", decks=2)
    assert int(detect_specials(pairs, specials)) == 0b10
    assert reference_masks(pairs[None], specials)[0] == 0b10


def test_clean_dragon_holds_many_specials():
    """A clean dragon is a dragon, one colour, three flushes, three straights and 三同花顺."""
    names = special_names("guangxi")
    hand = parse_cards(" ".join(f"{r}d" for r in RANK_CHARS))
    mask = int(detect_specials(hand, "guangxi"))
    held = {names[i] for i in range(len(names)) if mask >> i & 1}
    assert held == {"至尊清龙", "一条龙", "三同花顺", "凑一色", "三同花", "三顺子"}
    assert best_special(mask) == 0


# ---------------------------------------------------------------------------------------------
# best_special and bad input


def test_best_special_is_the_lowest_set_bit():
    masks = np.array([0, 1, 2, 3, 0b1000, 0b1010_0000, 1 << 31], dtype=np.uint32)
    assert best_special(masks).tolist() == [-1, 0, 1, 0, 3, 5, 31]
    for m in range(1, 1 << 10):
        assert best_special(np.uint32(m)) == (m & -m).bit_length() - 1


def test_bad_input_is_rejected_with_a_clear_error():
    with pytest.raises(ValueError, match="last axis of 13"):
        detect_specials(np.zeros((4, 12), dtype=np.int8))
    with pytest.raises(ValueError, match="not a card integer"):
        detect_specials(np.full(13, 67, dtype=np.int8))  # 52..66: fifth suit, jokers
    with pytest.raises(TypeError, match="integer"):
        detect_specials(np.zeros(13, dtype=float))
    with pytest.raises(VariantError, match="unknown variant"):
        detect_specials(deal(1, 4, rng=0), "atlantis")
    three_copies = np.array([0, 0, 0, *range(4, 14)], dtype=np.int8)
    with pytest.raises(ValueError, match="more than 2"):
        detect_specials(three_copies)
    two_copies = np.array([0, 0, *range(4, 15)], dtype=np.int8)
    detect_specials(two_copies)  # two decks allow it
    with pytest.raises(ValueError, match="more than 1"):
        detect_specials(two_copies, decks=1)


# ---------------------------------------------------------------------------------------------
# The registry: one complete entry per kind.

N_SPECIAL_KINDS = 14


def test_registry_count_and_every_entry_complete():
    """Every kind has a detector code, an exact method and a table schema; none drops out."""
    from simkit.variants.special_kinds import ExactMethod, SpecialCode, SpecialTable

    assert len(SPECIAL_KINDS) == N_SPECIAL_KINDS
    for special_id, kind in SPECIAL_KINDS.items():
        assert kind.id == special_id
        assert isinstance(kind.code, SpecialCode)
        assert isinstance(kind.exact, ExactMethod)
        assert issubclass(kind.table, SpecialTable)
        assert kind.name and kind.english and kind.definition
        for spec in kind.options.values():
            assert spec.doc, (special_id, spec)


def test_kernel_codes_keep_their_values():
    """Compiled kernels receive these ints: they never change."""
    from simkit.specials import KIND_CODES

    assert KIND_CODES == {
        "clean-dragon": 0,
        "dragon": 1,
        "royal-twelve": 2,
        "three-straight-flushes": 3,
        "three-quads": 4,
        "all-big": 5,
        "all-small": 5,
        "one-color": 6,
        "three-trips-and-quads": 7,
        "four-trips": 8,
        "five-pairs-and-trips": 9,
        "six-pairs": 10,
        "three-flushes": 11,
        "three-straights": 12,
    }


def test_an_entry_without_a_code_or_exact_method_is_an_error():
    from simkit.variants.special_kinds import ExactMethod, SpecialCode, SpecialKind

    names = {"id": "x", "name": "x", "english": "x", "definition": "x"}
    with pytest.raises(TypeError, match="exact"):
        SpecialKind(**names, code=SpecialCode.DRAGON)  # type: ignore[call-arg]
    with pytest.raises(ValueError, match="exact must be an ExactMethod"):
        SpecialKind(**names, code=SpecialCode.DRAGON, exact="by-hand")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="code must be a SpecialCode"):
        SpecialKind(**names, code=1, exact=ExactMethod.RANK_COUNTS)  # type: ignore[arg-type]


def test_special_tables_are_read_by_the_schema_loader(tmp_path):
    """A special's table is a schema dataclass: types, choices and unknown keys are checked."""
    path = tmp_path / "mine.toml"
    path.write_text(
        '[variant]\nname = "x"\n[specials]\norder = ["six-pairs"]\n'
        '[specials.six-pairs]\npayout = 3\ntrips_count_as_pair = "yes"\n',
        encoding="utf-8",
    )
    with pytest.raises(VariantError, match=r"six-pairs\.trips_count_as_pair: expected true"):
        load_variant(path)
    kind = SPECIAL_KINDS["all-big"]
    assert kind.options["ranks"].default == ("8", "9", "T", "J", "Q", "K", "A")
    payout, options, _ = kind.read_table({"payout": 2, "ranks": ["10", "A"]}, "t")
    assert payout == 2.0 and options["ranks"] == (8, 12)
