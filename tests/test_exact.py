"""Exact tables: the published figures, closed forms counted another way, brute force on small
pieces, and Monte Carlo frequencies of dealt hands against the exact probabilities (with a
negative control that a wrong probability must fail).
"""

from __future__ import annotations

import itertools
from collections import Counter
from functools import lru_cache
from math import comb, prod

import numpy as np
import pytest
from conftest import N_VARIANTS
from scipy import stats

from simkit.cards import RANK_CHARS
from simkit.deal import deal
from simkit.evaluate import Category, rank5
from simkit.exact import (
    HANDS_13,
    compare_with_exact,
    contains_counts,
    exact_tables,
    mask_counts,
    special_counts,
    special_probabilities,
    straight_flush_split_hands,
    suit_count_distribution,
)
from simkit.specials import best_special, detect_specials
from simkit.variants import SpecialRule, Specials, load_variant, variant_names
from simkit.variants.rules import SPECIAL_KINDS
from simkit.variants.schema import FrozenMap


def _counts(variant: str | Specials) -> dict[str, tuple[int, int]]:
    return {rule.id: (count, best) for rule, count, best in special_counts(variant)}


def _rule(special_id: str, **options: object) -> SpecialRule:
    kind = SPECIAL_KINDS[special_id]
    values = {k: spec.default for k, spec in kind.options.items()} | options
    if "ranks" in values:
        values["ranks"] = tuple(sorted(RANK_CHARS.index(c) for c in values["ranks"]))
    return SpecialRule(id=special_id, payout=1.0, options=FrozenMap(values))


def _alone(special_id: str, **options: object) -> tuple[int, int]:
    """(count, best count) of one special with the given options, played alone."""
    return _counts(Specials(rules=(_rule(special_id, **options),)))[special_id]


# ---------------------------------------------------------------------------------------------
# Published figures (001, via the rules digest)


def test_001_dragon_one_in_9462():
    """001: 一条龙 about 1 in 9,462 — 4^13 hands of one card a rank: C(52,13)/4^13 = 9,462.4."""
    table = exact_tables("guangxi")["specials"]
    row = table.filter(table["id"] == "dragon").row(0, named=True)
    assert row["count"] == 4**13 == 67_108_864
    assert round(row["one_in"]) == 9462
    assert row["best_count"] == 4**13 - 4  # the four clean dragons rank above it


def test_001_clean_dragon_one_in_158_753_389_900():
    """001: 至尊清龙 1 in 158,753,389,900 = C(52,13)/4; 004's spades-only reading is 4x rarer."""
    assert _counts("guangxi")["clean-dragon"] == (4, 4)
    assert HANDS_13 // 4 == 158_753_389_900 and HANDS_13 % 4 == 0
    assert _counts("qiantang")["clean-dragon"] == (1, 1)


def test_001_royal_twelve_all_jqka_one_in_1_133_952_785():
    """001: 十二皇族 (all J, Q, K, A) 1 in 1,133,952,785: C(16,13) = 560 hands."""
    table = exact_tables("guangxi")["specials"]
    row = table.filter(table["id"] == "royal-twelve").row(0, named=True)
    assert row["count"] == comb(16, 13) == 560
    assert HANDS_13 / 560 == 1_133_952_785 == round(row["one_in"])
    # 003/004's reading, the twelve J, Q, K and any of the other 40 cards.
    assert _counts("qiantang")["royal-twelve"][0] == 40


# ---------------------------------------------------------------------------------------------
# Dun categories


def test_five_card_category_counts():
    """The classical counts over C(52,5) = 2,598,960 hands."""
    table = exact_tables("guangxi")["five_card"]
    assert dict(zip(table["category"], table["count"], strict=True)) == {
        "STRAIGHT_FLUSH": 40,
        "QUADS": 624,
        "FULL_HOUSE": 3_744,
        "FLUSH": 5_108,
        "STRAIGHT": 10_200,
        "TRIPS": 54_912,
        "TWO_PAIR": 123_552,
        "PAIR": 1_098_240,
        "HIGH_CARD": 1_302_540,
    }
    assert table["probability"].sum() == pytest.approx(1.0)


def test_three_card_category_counts():
    """Over C(52,3) = 22,100 fronts: 13·C(4,3) = 52 trips, 13·6·48 = 3,744 pairs, the rest."""
    table = exact_tables("qiantang")["three_card"]
    assert dict(zip(table["category"], table["count"], strict=True)) == {
        "TRIPS": 52,
        "PAIR": 3_744,
        "HIGH_CARD": 18_304,
    }


# ---------------------------------------------------------------------------------------------
# Special counts: invariants and closed forms counted another way


def test_every_shipped_variant_is_checked():
    assert len(variant_names()) == N_VARIANTS


@pytest.mark.parametrize("name", variant_names())
def test_masks_partition_all_hands_and_best_counts_fit(name):
    """Each of the C(52,13) hands has one mask; best counts never exceed counts nor C(52,13)."""
    assert sum(mask_counts(load_variant(name).specials).values()) == HANDS_13
    rows = special_counts(name)
    assert all(0 <= best <= count for _, count, best in rows)
    assert sum(best for _, _, best in rows) <= HANDS_13
    assert rows == [] or rows[0][1] == rows[0][2]  # nothing ranks above the first


def test_rank_pattern_specials_match_closed_forms():
    """Counts by choosing ranks and suits directly (one deck), e.g. 三分天下 = C(13,3)·40."""
    pairs_and_single = comb(13, 6) * 6**6 * 7 * 4  # 2,2,2,2,2,2,1
    quads_as_pairs = (
        13 * comb(12, 4) * 6**4 * 8 * 4  # 4,2,2,2,2,1
        + comb(13, 2) * comb(11, 2) * 6**2 * 9 * 4  # 4,4,2,2,1
        + comb(13, 3) * 10 * 4  # 4,4,4,1
    )
    five_pairs_trips = 13 * 4 * comb(12, 5) * 6**5  # 3,2,2,2,2,2
    with_quads = (
        13 * 12 * 4 * comb(11, 3) * 6**3 + comb(13, 2) * 11 * 4 * 10 * 6
    )  # 4,3,2,2,2; 4,4,3,2
    four_trips = comb(13, 4) * 4**4 * 9 * 4  # 3,3,3,3,1
    trips_and_quads = 13 * comb(12, 3) * 4**3  # 4,3,3,3
    expected = [
        (_rule("three-quads"), comb(13, 3) * 40),  # 11,440
        (_rule("four-trips", quads_count_as_trips=False), four_trips),
        (_rule("four-trips", quads_count_as_trips=True), four_trips + trips_and_quads),
        (_rule("three-trips-and-quads"), trips_and_quads),
        (_rule("five-pairs-and-trips", quads_count_as_two_pairs=False), five_pairs_trips),
        (
            _rule("five-pairs-and-trips", quads_count_as_two_pairs=True),
            five_pairs_trips + with_quads,
        ),
        (_rule("six-pairs", quads_count_as_two_pairs=False), pairs_and_single),
        (_rule("six-pairs", quads_count_as_two_pairs=True), pairs_and_single + quads_as_pairs),
        (  # 001 香港: 牌中有六对
            _rule("six-pairs", quads_count_as_two_pairs=False, trips_count_as_pair=True),
            pairs_and_single + five_pairs_trips,
        ),
        (
            _rule("six-pairs", quads_count_as_two_pairs=True, trips_count_as_pair=True),
            pairs_and_single + quads_as_pairs + five_pairs_trips + with_quads,
        ),
        (_rule("all-big"), comb(28, 13)),
        (_rule("all-small"), comb(28, 13)),
        (_rule("all-big", ranks="TJQKA"), comb(20, 13)),
        (_rule("all-small", ranks="A2345"), comb(20, 13)),
        (_rule("one-color"), 2 * comb(26, 13)),
        (_rule("royal-twelve", definition="all-jqk-plus-one"), 40),
        (_rule("royal-twelve", definition="all-jqka"), comb(16, 13)),
        (_rule("dragon"), 4**13),
    ]
    # One pass: a Specials may list a kind twice with different options.
    rows = special_counts(Specials(rules=tuple(r for r, _ in expected)))
    for (rule, want), (_, count, _) in zip(expected, rows, strict=True):
        assert count == want, (rule.id, dict(rule.options))


def test_three_flushes_counted_by_suit_counts():
    """三同花: a hand's suits hold 3+5+5, 8+5, 3+10 or 13 cards: sum of prod C(13, s_i)."""
    total = 0
    for sizes in itertools.product(range(14), repeat=4):
        nonzero = sorted(s for s in sizes if s)
        if sum(sizes) == 13 and nonzero in ([3, 5, 5], [5, 8], [3, 10], [13]):
            total += prod(comb(13, s) for s in sizes)
    assert _counts("guangxi")["three-flushes"][0] == total == 5_705_516_392


@lru_cache(maxsize=4)
def _three_straight_rank_vectors(front_qka: bool, front_a23: bool) -> set[tuple[int, ...]]:
    fronts = [
        tuple(RANK_CHARS.index(c) for c in t)
        for t in ("234 345 456 567 678 789 89T 9TJ TJQ JQK").split()
    ]
    fronts += [(10, 11, 12)] * front_qka + [(12, 0, 1)] * front_a23
    fives = [(12, 0, 1, 2, 3)] + [tuple(range(r, r + 5)) for r in range(9)]
    out = set()
    for f in fronts:
        for a, b in itertools.combinations_with_replacement(fives, 2):
            c = Counter(f + a + b)
            if max(c.values()) <= 4:
                out.add(tuple(c[r] for r in range(13)))
    return out


FRONT_OPTIONS = [(True, True), (True, False), (False, True), (False, False)]


@pytest.mark.parametrize(("front_qka", "front_a23"), FRONT_OPTIONS)
def test_three_straights_counted_by_rank_vectors(front_qka, front_a23):
    """三顺子 depends on ranks only: sum over the rank-count vectors of straight splits of
    prod C(4, c_r) (each rank's suits chosen freely)."""
    vectors = _three_straight_rank_vectors(front_qka, front_a23)
    expected = sum(prod(comb(4, k) for k in v) for v in vectors)
    options = {"front_qka": front_qka, "front_a23": front_a23}
    assert _alone("three-straights", **options)[0] == expected


def test_suit_count_distribution_matches_brute_force():
    """The suit-count DP against listing every suit choice, for profile 3 singles, a pair, a trips
    and a quads (ranks holding 1, 1, 1, 2, 3, 4 cards)."""
    profile = (3, 1, 1, 1)
    per_rank = [1, 1, 1, 2, 3, 4]
    dist = suit_count_distribution(profile)
    brute: Counter[tuple[int, ...]] = Counter()
    for choice in itertools.product(*[itertools.combinations(range(4), k) for k in per_rank]):
        suits = Counter(s for subset in choice for s in subset)
        brute[tuple(suits[s] for s in range(4))] += 1
    assert sum(brute.values()) == 4**3 * 6 * 4 * 1
    for key, n in brute.items():
        assert dist[key] == n
    assert dist.sum() == sum(brute.values())


@pytest.mark.parametrize(("front_qka", "front_a23"), FRONT_OPTIONS)
def test_three_straight_flush_hands_agree_with_the_detector(front_qka, front_a23):
    """Every listed 三同花顺 hand is distinct and detected as one; the count is the list's size."""
    hands = straight_flush_split_hands(front_qka, front_a23)
    specials = Specials(
        rules=(_rule("three-straight-flushes", front_qka=front_qka, front_a23=front_a23),)
    )
    assert (detect_specials(hands, specials, decks=1) == 1).all()
    assert len({h.tobytes() for h in hands}) == len(hands)
    assert _counts(specials)["three-straight-flushes"] == (len(hands), len(hands))
    # The front options only remove hands: Q-K-A and A-2-3 fronts add splits.
    assert len(hands) <= len(straight_flush_split_hands(True, True))


# ---------------------------------------------------------------------------------------------
# What 13 cards contain


def test_contains_pair_and_quads_by_inclusion_exclusion():
    """No pair ⇔ one card a rank (4^13 hands); quads by inclusion–exclusion over the ranks."""
    counts = contains_counts()
    assert counts[Category.PAIR] == HANDS_13 - 4**13
    quads = sum((-1) ** (k + 1) * comb(13, k) * comb(52 - 4 * k, 13 - 4 * k) for k in range(1, 4))
    assert counts[Category.QUADS] == quads


def test_contains_matches_brute_force_on_dealt_hands():
    """4,000 dealt hands, every 5 of their 13 cards ranked: each category's frequency agrees with
    the exact probability (binomial test, p-value > 1e-4)."""
    hands = deal(1000, 4, rng=21).reshape(-1, 13)
    subsets = np.array(list(itertools.combinations(range(13), 5)))
    held = np.zeros((len(hands), len(Category)), dtype=bool)
    for start in range(0, len(hands), 500):
        block = hands[start : start + 500]
        cats = rank5(block[:, subsets]) >> 20
        for c in Category:
            held[start : start + 500, c] = (cats == c).any(axis=1)
    for category, count in contains_counts().items():
        test = stats.binomtest(int(held[:, category].sum()), len(hands), count / HANDS_13)
        assert test.pvalue > 1e-4, category


# ---------------------------------------------------------------------------------------------
# Monte Carlo: dealt hands against the exact probabilities


N_GAMES = 250_000  # 1,000,000 hands
P_VALUE_FLOOR = 6.3e-5  # two-sided, the normal tail beyond 4 standard errors


@lru_cache(maxsize=1)
def _dealt_hands() -> np.ndarray:
    return deal(N_GAMES, 4, rng=20261130).reshape(-1, 13)


def _agrees(observed: int, n: int, p: float) -> bool:
    """Does a count of ``observed`` in ``n`` fit probability ``p``?

    An exact binomial test at the level of 4 standard errors: for common specials it is the
    4-SE rule; for rare ones (n·p below one) it does not fail on a single occurrence.
    """
    return bool(stats.binomtest(observed, n, p).pvalue > P_VALUE_FLOOR)


@pytest.mark.parametrize("name", variant_names())
def test_dealt_frequencies_match_exact_probabilities(name):
    """1,000,000 dealt hands (250,000 games of 4): every special's frequency, as any special
    held and as the best one, agrees with its exact probability."""
    hands = _dealt_hands()
    masks = detect_specials(hands, name)
    best = best_special(masks)
    n = len(hands)
    for i, (special_id, (p_any, p_best)) in enumerate(special_probabilities(name).items()):
        held = int(((masks >> i) & 1).sum())
        first = int((best == i).sum())
        assert _agrees(held, n, p_any), (special_id, held, n * p_any)
        assert _agrees(first, n, p_best), (special_id, first, n * p_best)
    table = compare_with_exact(masks, name)
    assert table.height == 2 * len(load_variant(name).specials)
    assert (table["p_value"] > P_VALUE_FLOOR).all()
    common = table.filter(table["p_exact"] * n > 1000)  # normal regime: within 4 SE
    assert (common["z"].abs() < 4).all()


def test_negative_control_a_wrong_probability_is_rejected():
    """The same check with 六对半's probability ×1.5 (or ×0.75) must fail."""
    masks = detect_specials(_dealt_hands(), "guangxi")
    i = load_variant("guangxi").specials.ids.index("six-pairs")
    held = int(((masks >> i) & 1).sum())
    p_any = special_probabilities("guangxi")["six-pairs"][0]
    assert _agrees(held, len(masks), p_any)
    assert not _agrees(held, len(masks), p_any * 1.5)
    assert not _agrees(held, len(masks), p_any * 0.75)


# ---------------------------------------------------------------------------------------------
# Every registered kind has an exact counter; a kind without one is an error, never a 0.


def test_every_registered_kind_is_counted_exactly():
    from simkit.exact import check_countable

    for kind in SPECIAL_KINDS.values():
        check_countable(kind)  # raises for a kind this module cannot count


def test_a_kind_without_a_counter_is_an_error_not_a_zero():
    import dataclasses

    from simkit.exact import check_countable
    from simkit.variants.special_kinds import ExactMethod

    listed = dataclasses.replace(SPECIAL_KINDS["dragon"], exact=ExactMethod.CARD_LIST)
    with pytest.raises(ValueError, match="no 'card-list' counter"):
        check_countable(listed)
    suited = dataclasses.replace(SPECIAL_KINDS["dragon"], exact=ExactMethod.SUIT_COUNTS)
    with pytest.raises(ValueError, match="no 'suit-counts' counter"):
        check_countable(suited)
