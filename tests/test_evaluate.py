"""Hand ranking, checked exhaustively against a slow, obviously correct reference.

Every one of the 2,598,960 five-card hands and 22,100 three-card hands is ranked by simkit and
by the reference below (written from the rule text, not from simkit's tables); the two orders
must agree exactly, for each reading of where A-2-3-4-5 ranks.  A digest of the order is stored
so that any change to it is noticed.
"""

import hashlib
from collections import Counter
from itertools import combinations
from math import comb

import numpy as np
import pytest

from simkit.cards import parse_cards
from simkit.evaluate import Category, category_of, describe_rank, rank3, rank5
from simkit.variants import Ranking, load_variant

# --- the reference ------------------------------------------------------------------------
# 5-card order (all sources): straight flush > quads > full house > flush > straight > trips >
# two pair > pair > high card; five of a kind above straight flush (000, two decks).  Ties:
# category, then ranks from high to low; suits never break ties (002, 003, 004).
REF_ORDER = [
    "high",
    "pair",
    "two-pair",
    "trips",
    "straight",
    "flush",
    "full-house",
    "quads",
    "straight-flush",
    "five",
]


def ref_straight_value(ranks: list[int], wheel: str) -> float | None:
    """Value of a straight by its top card; the wheel A-2-3-4-5 per the variant."""
    r = sorted(set(ranks))
    if len(r) != 5:
        return None
    if r == [0, 1, 2, 3, 12]:
        # 004: lowest straight (5-high).  002: second highest, between K-high and A-high.
        return 3 if wheel == "lowest" else 11.5
    if r[4] - r[0] == 4:
        return r[4]
    return None


def ref_key5(cards: tuple[int, ...], wheel: str) -> tuple:
    ranks = [c // 4 for c in cards]
    suits = [c % 4 for c in cards]
    flush = len(set(suits)) == 1
    counts = Counter(ranks)
    # ranks ordered by (how many, rank): the pair before the kickers, etc.
    by_group = sorted(ranks, key=lambda r: (counts[r], r), reverse=True)
    shape = sorted(counts.values(), reverse=True)
    straight = ref_straight_value(ranks, wheel)
    if shape == [5]:
        return (REF_ORDER.index("five"), by_group)
    if flush and straight is not None:
        return (REF_ORDER.index("straight-flush"), [straight])
    if shape == [4, 1]:
        return (REF_ORDER.index("quads"), by_group)
    if shape == [3, 2]:
        return (REF_ORDER.index("full-house"), by_group)
    if flush:
        return (REF_ORDER.index("flush"), sorted(ranks, reverse=True))
    if straight is not None:
        return (REF_ORDER.index("straight"), [straight])
    if shape == [3, 1, 1]:
        return (REF_ORDER.index("trips"), by_group)
    if shape == [2, 2, 1]:
        return (REF_ORDER.index("two-pair"), by_group)
    if shape == [2, 1, 1, 1]:
        return (REF_ORDER.index("pair"), by_group)
    return (REF_ORDER.index("high"), by_group)


def ref_key3(cards: tuple[int, ...]) -> tuple:
    """Front: trips > pair > high card only (001: 头因为只有三张牌，因此不算顺、花)."""
    ranks = [c // 4 for c in cards]
    counts = Counter(ranks)
    by_group = sorted(ranks, key=lambda r: (counts[r], r), reverse=True)
    shape = sorted(counts.values(), reverse=True)
    name = {3: "trips", 2: "pair", 1: "high"}[shape[0]]
    return (REF_ORDER.index(name), by_group)


def dense(keys: list) -> np.ndarray:
    """Dense ordinal of each key in sorted order (equal keys share an ordinal)."""
    order = {k: i for i, k in enumerate(sorted(set(keys)))}
    return np.array([order[k] for k in keys], dtype=np.int64)


@pytest.fixture(scope="module")
def all_five() -> np.ndarray:
    return np.array(list(combinations(range(52), 5)), dtype=np.int8)


def _ref_dense_5(all_five: np.ndarray, wheel: str) -> np.ndarray:
    # The reference key depends on the cards only through their ranks and whether they share
    # a suit, so memoizing on that is safe and makes 2.6M evaluations affordable.
    memo: dict = {}
    keys = []
    for hand in map(tuple, all_five.tolist()):
        sig = (tuple(sorted(c // 4 for c in hand)), len({c % 4 for c in hand}) == 1)
        if sig not in memo:
            memo[sig] = ref_key5(hand, wheel)
            memo[sig] = (memo[sig][0], tuple(memo[sig][1]))
        keys.append(memo[sig])
    return dense(keys)


def _dense_of(values: np.ndarray) -> np.ndarray:
    _, inverse = np.unique(values, return_inverse=True)
    return inverse.astype(np.int64)


# sha256 of the dense order of all C(52,5) hands in combination order, per wheel reading.
ORDER_DIGESTS = {
    "lowest": "915368d8101d00b07f992aa5df74de3677e75b25e89d7e8d087e24e1fad77ef2",
    "second": "1294626c0f88616e40f79dabd2f0aabf7f9026ad8fba79216bfe380e7f76873a",
}


@pytest.mark.slow
@pytest.mark.parametrize("wheel", ["lowest", "second"])
def test_five_card_order_matches_reference_exhaustively(all_five, wheel):
    ranking = Ranking(wheel=wheel)
    ours = _dense_of(rank5(all_five, ranking))
    ref = _ref_dense_5(all_five, wheel)
    assert (ours == ref).all()
    # 7,462 distinct classes of five-card hands in the standard game (either wheel reading).
    assert ours.max() + 1 == 7462
    digest = hashlib.sha256(ours.astype(np.int16).tobytes()).hexdigest()
    assert digest == ORDER_DIGESTS[wheel]


def test_five_card_category_counts_exhaustive(all_five):
    counts = np.bincount(category_of(rank5(all_five)), minlength=10)
    assert dict(zip([c.name for c in Category], counts.tolist(), strict=True)) == {
        "HIGH_CARD": 1_302_540,
        "PAIR": 1_098_240,
        "TWO_PAIR": 123_552,
        "TRIPS": 54_912,
        "STRAIGHT": 10_200,
        "FLUSH": 5_108,
        "FULL_HOUSE": 3_744,
        "QUADS": 624,
        "STRAIGHT_FLUSH": 40,
        "FIVE_OF_A_KIND": 0,
    }
    assert counts.sum() == comb(52, 5)


def test_three_card_order_and_counts_exhaustive():
    fronts = np.array(list(combinations(range(52), 3)), dtype=np.int8)
    ours = _dense_of(rank3(fronts))
    ref = dense([(k[0], tuple(k[1])) for k in map(ref_key3, map(tuple, fronts.tolist()))])
    assert (ours == ref).all()
    counts = np.bincount(category_of(rank3(fronts)), minlength=10)
    assert counts[Category.TRIPS] == 52
    assert counts[Category.PAIR] == 3_744
    assert counts[Category.HIGH_CARD] == 18_304
    assert counts.sum() == comb(52, 3)


def test_front_versus_middle_is_one_integer_comparison():
    """rank3(front) <= rank5(middle) is the rule's test: category first, then ranks high to low,
    a front that runs out of cards on equal ranks is the smaller (002: 先比该墩牌牌中最大的一支)."""
    rng = np.random.default_rng(0)
    for _ in range(3000):
        cards = rng.permutation(52)[:8].astype(np.int8)
        front, middle = cards[:3], cards[3:]
        k3 = ref_key3(tuple(front.tolist()))
        k5 = ref_key5(tuple(middle.tolist()), "lowest")
        # Map the 5-card straights/flushes into the comparison by category index.
        ref_le = (k3[0], k3[1]) <= (k5[0], list(k5[1]))
        assert (int(rank3(front)) <= int(rank5(middle))) == ref_le


@pytest.mark.parametrize(
    ("front", "middle", "front_bigger"),
    [
        ("Ah Ad 3c", "Ac As Kd Qh Js", False),  # same pair, front runs out first: not bigger
        ("Ah Ad Kc", "Ac As Qd Jh Ts", True),  # same pair, front's kicker higher: fouls
        ("Ah Kd Qc", "As Kc Qd 3h 2s", False),  # high cards equal as far as the front goes
        ("2h 2d 2c", "As Ad Ac Kh Ks", False),  # trips of 2s below any full house
        ("Kh Kd Kc", "Ah Ad Ac 3s 2s", False),
        ("Ah Ad Ac", "Kh Kd Kc 3s 2s", True),
    ],
)
def test_front_middle_examples(front, middle, front_bigger):
    assert (int(rank3(parse_cards(front))) > int(rank5(parse_cards(middle)))) == front_bigger


def test_front_knows_no_straights_or_flushes():
    """001: 头因为只有三张牌，因此不算顺、花 — 3-4-5 suited is high card."""
    assert Category(int(category_of(rank3(parse_cards("3h 4h 5h"))))) is Category.HIGH_CARD


@pytest.mark.parametrize(
    ("wheel", "expected_position"),
    [("lowest", 0), ("second", 8)],  # among the 10 straights, weakest first
)
def test_wheel_position_per_variant(wheel, expected_position):
    """004: A-2-3-4-5 is the lowest straight; 002: it is the second highest, above 9-10-J-Q-K."""
    tops = ["5", "6", "7", "8", "9", "T", "J", "Q", "K", "A"]
    hands = []
    for top in tops:
        i = "23456789TJQKA".index(top)
        ranks = [12, 0, 1, 2, 3] if top == "5" else list(range(i - 4, i + 1))
        suits = "cdhsc"
        hands.append(" ".join("23456789TJQKA"[r] + s for r, s in zip(ranks, suits, strict=True)))
    values = [int(rank5(parse_cards(h), Ranking(wheel=wheel))) for h in hands]
    order = np.argsort(values)
    assert list(order).index(0) == expected_position
    assert describe_rank(values[0]).endswith("5-4-3-2-A") == (wheel == "second")


def test_wheel_reading_is_taken_from_the_variant():
    wheel = parse_cards("Ah 2s 3d 4c 5c")
    nine_high = parse_cards("9h Ts Jd Qc Kc")
    assert rank5(wheel, "guangxi") > rank5(nine_high, "guangxi")
    assert rank5(wheel, "qiantang") < rank5(nine_high, "qiantang")
    assert rank5(wheel, load_variant("guangxi")) == rank5(wheel, None)


def test_two_decks_five_of_a_kind_and_suited_pairs():
    """000: 五同 exists only with two decks and ranks above the straight flush."""
    five = parse_cards("As As Ah Ad Ac", decks=2)
    royal = parse_cards("As Ks Qs Js Ts")
    assert rank5(five) > rank5(royal)
    assert rank5(five, Ranking(five_of_a_kind=False)) < rank5(royal)
    assert category_of(rank5(five, Ranking(five_of_a_kind=False))) == Category.QUADS
    # A suited hand with a repeated card is a flush (beats its pair), ranked by its ranks.
    suited_pair = parse_cards("As As Ks Qs Js", decks=2)
    assert category_of(rank5(suited_pair)) == Category.FLUSH
    assert rank5(suited_pair) > rank5(parse_cards("As Ks Qs Js 9s"))
    assert rank5(suited_pair) < rank5(parse_cards("Ac Ad Ah Ks Kd"))


def test_vectorized_over_leading_axes():
    hands = np.random.default_rng(1).permutation(52)[:40].astype(np.int8).reshape(2, 4, 5)
    out = rank5(hands)
    assert out.shape == (2, 4) and out.dtype == np.int32
    assert out[1, 2] == rank5(hands[1, 2])


@pytest.mark.parametrize(
    ("cards", "error"),
    [
        (np.zeros((3, 4), dtype=np.int8), ValueError),
        (np.array([1, 2, 3, 4, 70]), ValueError),
        (np.array([1.0, 2, 3, 4, 5]), TypeError),
    ],
)
def test_bad_input(cards, error):
    with pytest.raises(error):
        rank5(cards)


def test_order_agrees_with_phevaluator_on_random_hands():
    """A published evaluator (phevaluator; 1 = best) orders hands as simkit does when
    A-2-3-4-5 is the lowest straight."""
    phevaluator = pytest.importorskip("phevaluator")
    keys = np.random.default_rng(0).random((20_000, 52))
    hands = np.argsort(keys, axis=1)[:, :5].astype(np.int8)
    peer = np.array([phevaluator.evaluate_cards(*map(int, h)) for h in hands.tolist()])
    ours = rank5(hands, Ranking(wheel="lowest"))
    assert (_dense_of(ours) == _dense_of(-peer)).all()
