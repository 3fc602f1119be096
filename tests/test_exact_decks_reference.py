"""The specials a fifth suit changes (至尊清龙, 三同花顺, 三同花, 凑一色), read off the rule text card
by card, against the exact counter on every hand of small five-suit decks and against the
detector on dealt hands.

The reference here shares nothing with :mod:`simkit.exact_decks` or :mod:`simkit.specials`: a
hand is its natural cards' (rank, suit) counts and its jokers; a joker is any card, so a hand
qualifies when its natural cards fit inside some completed hand of the special:

- 至尊清龙: every natural card of one (allowed) suit, no rank twice;
- 凑一色: every natural card red (♦ ♥) or every one black (♣ ♠); the fifth suit is neither;
- 三同花: suits for the front, middle and back such that each suit holds no more natural cards
  than the duns of that suit have places;
- 三同花顺: the natural cards inside a front straight flush plus two 5-card straight flushes,
  every such completed hand listed from the straights of the rule text.
"""

from __future__ import annotations

import itertools
from functools import lru_cache
from pathlib import Path

import numpy as np
import polars as pl
import pytest
from scipy import stats

from simkit.exact_decks import DeckShape, mask_counts, sample_hands
from simkit.specials import detect_specials
from simkit.variants import load_variant, variant_names
from simkit.variants.special_kinds import SpecialCode

RESULTS = Path(__file__).resolve().parents[1] / "results" / "decks"
ACE = 12
BLACK, RED = (0, 3), (1, 2)  # ♣ ♠, ♦ ♥; suit 4 is the fifth suit
CODES = (
    SpecialCode.CLEAN_DRAGON,
    SpecialCode.THREE_STRAIGHT_FLUSHES,
    SpecialCode.ONE_COLOR,
    SpecialCode.THREE_FLUSHES,
)


def _front_straights(front_qka: bool, front_a23: bool) -> list[tuple[int, ...]]:
    """Three ranks in a row, 2-3-4 to J-Q-K; Q-K-A and A-2-3 by the rule's options."""
    out = [(r, r + 1, r + 2) for r in range(10)]
    return out + [(10, 11, ACE)] * front_qka + [(ACE, 0, 1)] * front_a23


def _five_straights() -> list[tuple[int, ...]]:
    """A-2-3-4-5, then 2-6 up to T-A."""
    return [(ACE, 0, 1, 2, 3)] + [tuple(range(r, r + 5)) for r in range(9)]


@lru_cache(maxsize=8)
def _straight_flush_hands(n_suits: int, front_qka: bool, front_a23: bool) -> np.ndarray:
    """Every completed 三同花顺 hand as card counts ``int8[n, 13 * n_suits]`` (rank-major)."""
    fronts = [
        [n_suits * r + s for r in f]
        for f in _front_straights(front_qka, front_a23)
        for s in range(n_suits)
    ]
    fives = [[n_suits * r + s for r in f] for f in _five_straights() for s in range(n_suits)]
    out = []
    for front in fronts:
        for a, b in itertools.combinations_with_replacement(fives, 2):
            row = np.zeros(13 * n_suits, dtype=np.int8)
            np.add.at(row, front + a + b, 1)
            out.append(row)
    return np.unique(np.array(out), axis=0)


def reference_masks(counts: np.ndarray, jokers: np.ndarray, specials, n_suits: int) -> np.ndarray:
    """Masks of the four specials (other bits clear) of hands given as natural card counts
    ``int[n, 13 * n_suits]`` (rank-major) and joker counts ``int[n]``."""
    n = len(counts)
    grid = counts.reshape(n, 13, n_suits)
    suit_n = grid.sum(axis=1)
    out = np.zeros(n, dtype=np.uint32)
    for i, rule in enumerate(specials.rules):
        code = rule.kind.code
        if code == SpecialCode.CLEAN_DRAGON:
            suits = [3] if rule.option("suits") == "spades" else range(n_suits)
            ok = np.zeros(n, dtype=bool)
            for s in suits:
                ok |= (suit_n.sum(axis=1) == suit_n[:, s]) & (grid[:, :, s] <= 1).all(axis=1)
        elif code == SpecialCode.ONE_COLOR:
            ok = np.zeros(n, dtype=bool)
            for colour in (BLACK, RED):
                others = [s for s in range(n_suits) if s not in colour]
                ok |= suit_n[:, others].sum(axis=1) == 0
        elif code in (SpecialCode.THREE_FLUSHES, SpecialCode.THREE_STRAIGHT_FLUSHES):
            ok = np.zeros(n, dtype=bool)
            for front, middle, back in itertools.product(range(n_suits), repeat=3):
                places = np.zeros(n_suits, dtype=np.int64)
                places[front] += 3
                places[middle] += 5
                places[back] += 5
                ok |= (suit_n <= places).all(axis=1)
            if code == SpecialCode.THREE_STRAIGHT_FLUSHES:
                hands = _straight_flush_hands(
                    n_suits, rule.option("front_qka"), rule.option("front_a23")
                )
                for row in np.flatnonzero(ok):
                    ok[row] = (hands >= counts[row]).all(axis=1).any()
        else:
            continue
        out |= ok.astype(np.uint32) << np.uint32(i)
    return out


def _bits(specials) -> np.uint32:
    return np.uint32(sum(1 << i for i, r in enumerate(specials.rules) if r.kind.code in CODES))


def _physical_deck(shape: DeckShape, ranks: tuple[int, ...]) -> list[tuple[int, int]]:
    cards = [(r, s) for r in ranks for s in range(shape.n_suits) for _ in range(shape.decks)]
    return cards + [(-1, -1)] * shape.jokers


def _as_counts(hands: np.ndarray, deck: list[tuple[int, int]], n_suits: int):
    """Physical hands (indices into ``deck``) → natural card counts and joker counts."""
    table = np.array(deck)
    ranks, suits = table[hands, 0], table[hands, 1]
    natural = ranks >= 0
    types = np.where(natural, n_suits * ranks + suits, 13 * n_suits)
    counts = np.zeros((len(hands), 13 * n_suits + 1), dtype=np.int8)
    np.add.at(counts, (np.arange(len(hands))[:, None], types), 1)
    return counts[:, :-1], (~natural).sum(axis=1)


SMALL_DECKS = [
    # A 2 3 4 and two jokers: 三同花 and 三同花顺 (A-2-3-4 + a joker each dun) occur.
    (DeckShape(n_suits=5, jokers=2), (ACE, 0, 1, 2)),
    # Two decks of A 2 and two jokers: suits of four cards, 三同花 from two jokers.
    (DeckShape(decks=2, n_suits=5, jokers=2), (ACE, 0)),
    # A to 5 without jokers: 三同花顺 of natural cards only (5.2M hands).
    (DeckShape(n_suits=5), (ACE, 0, 1, 2, 3)),
]


@pytest.mark.slow  # the counter of a whole five-suit pack with jokers: about two minutes each
@pytest.mark.parametrize(("shape", "ranks"), SMALL_DECKS, ids=lambda x: getattr(x, "key", ""))
def test_every_hand_of_a_small_five_suit_deck_matches_the_counter(shape, ranks):
    """Every 13-card hand of the deck, its four specials by the reference, against the exact
    counter restricted to the same ranks (the joint distribution of the four bits)."""
    specials = load_variant("guangxi").specials
    deck = _physical_deck(shape, ranks)
    hands = np.array(list(itertools.combinations(range(len(deck)), 13)), dtype=np.int64)
    counts, jokers = _as_counts(hands, deck, shape.n_suits)
    reference = reference_masks(counts, jokers, specials, shape.n_suits)
    bits = _bits(specials)
    found, n = np.unique(reference, return_counts=True)
    expected = dict(zip(found.tolist(), n.tolist(), strict=True))
    counted: dict[int, int] = {}
    for mask, ways in mask_counts(specials, shape, ranks).items():
        counted[mask & int(bits)] = counted.get(mask & int(bits), 0) + ways
    assert {m: w for m, w in counted.items() if w} == expected
    assert len(expected) >= 2  # some hands qualify: the check is not vacuous


def _engine_cards(hands: np.ndarray, shape: DeckShape) -> np.ndarray:
    """:func:`sample_hands` cards as the detector's card ints: 4 r + s, 52 + r for the fifth
    suit, 65 and 66 for the jokers."""
    natural = hands < 13 * shape.per_rank
    rank, suit = hands // shape.per_rank, hands % shape.n_suits
    cards = np.where(suit == 4, 52 + rank, 4 * rank + suit)
    return np.where(natural, cards, 65 + hands - 13 * shape.per_rank).astype(np.int8)


def _dealt(shape: DeckShape, n: int, seed: int):
    hands = sample_hands(shape, n, np.random.default_rng([seed, shape.n_cards]))
    natural = hands < 13 * shape.per_rank
    counts = np.zeros((n, 13 * shape.n_suits + 1), dtype=np.int8)
    rank, suit = hands // shape.per_rank, hands % shape.n_suits
    types = np.where(natural, shape.n_suits * rank + suit, 13 * shape.n_suits)
    np.add.at(counts, (np.arange(n)[:, None], types), 1)
    return hands, counts[:, :-1], (~natural).sum(axis=1)


@pytest.mark.parametrize("key", ["1d-5s", "1d-5s-1j", "1d-5s-2j", "2d-5s", "2d-5s-2j"])
def test_dealt_hands_match_the_detector(key):
    """Dealt hands: the reference's four specials are the detector's, hand by hand."""
    shape = DeckShape.parse(key)
    specials = load_variant("guangxi").specials
    hands, counts, jokers = _dealt(shape, 20_000, 11)
    reference = reference_masks(counts, jokers, specials, shape.n_suits)
    detected = detect_specials(_engine_cards(hands, shape), specials) & _bits(specials)
    assert (reference == detected).all()
    assert reference.any()


P_VALUE_FLOOR = 6.3e-5  # two-sided, the normal tail beyond 4 standard errors


@pytest.mark.parametrize("key", ["2d-5s", "1d-5s-2j"])
def test_dealt_frequencies_match_the_published_counts(key):
    """Dealt hands, specials by the reference: 三同花 and 凑一色 occur at the published exact
    probability (within 4 SE); the same count against a probability 1.5x or 0.75x fails."""
    shape = DeckShape.parse(key)
    specials = load_variant("guangxi").specials
    n = 400_000
    _, counts, jokers = _dealt(shape, n, 23)
    reference = reference_masks(counts, jokers, specials, shape.n_suits)
    table = pl.read_csv(RESULTS / f"exact-{key}.csv").filter(pl.col("table") == "specials")
    for special in ("three-flushes", "one-color"):
        i = specials.ids.index(special)
        held = int(((reference >> np.uint32(i)) & np.uint32(1)).sum())
        p = table.filter(pl.col("entry") == special)["probability"][0]
        assert stats.binomtest(held, n, p).pvalue > P_VALUE_FLOOR, (special, held, n * p)
        if special == "three-flushes":
            for wrong in (1.5 * p, 0.75 * p):
                assert stats.binomtest(held, n, wrong).pvalue < P_VALUE_FLOOR


# ---------------------------------------------------------------------------------------------
# The rank-count specials on the vectors of more than eight cards a rank (two decks with jokers,
# two decks of five suits), read off the rule text as group partitions.


@lru_cache(maxsize=4)
def _three_straights(front_qka: bool, front_a23: bool) -> frozenset[tuple[int, ...]]:
    out = set()
    for front in _front_straights(front_qka, front_a23):
        for a, b in itertools.combinations_with_replacement(_five_straights(), 2):
            made = [0] * 13
            for r in front + a + b:
                made[r] += 1
            out.add(tuple(made))
    return frozenset(out)


def _rank_rule_holds(rule, c: tuple[int, ...]) -> bool:
    """Whether 13 cards of rank counts ``c`` qualify for a rank-count special, by its text."""
    code = rule.kind.code
    held = sorted(k for k in c if k)
    if code == SpecialCode.DRAGON:
        return all(k == 1 for k in c)
    if code == SpecialCode.ROYAL_TWELVE:
        if rule.option("definition") == "all-jqk-plus-one":
            return c[9] + c[10] + c[11] >= 12
        return all(c[r] == 0 for r in range(9))
    if code == SpecialCode.RANKS_FROM_SET:
        return all(c[r] == 0 for r in range(13) if r not in rule.option("ranks"))
    if code == SpecialCode.THREE_QUADS:  # three groups of four of three ranks, and a card
        return sum(k >= 4 for k in c) >= 3
    if code == SpecialCode.THREE_TRIPS_AND_QUADS:
        return held == [3, 3, 3, 4]
    if code == SpecialCode.FOUR_TRIPS:  # four trips of four ranks and a card (may join one)
        return held == [1, 3, 3, 3, 3] or (
            rule.option("quads_count_as_trips") and held == [3, 3, 3, 4]
        )
    if code == SpecialCode.FIVE_PAIRS_AND_TRIPS:  # groups 3 2 2 2 2 2, sharing a rank by option
        for t in range(13):
            if c[t] >= 3:
                rest = [k - 3 * (r == t) for r, k in enumerate(c)]
                shared = any(k >= 4 for k in rest) or rest[t] >= 2
                if all(k % 2 == 0 for k in rest) and (
                    not shared or rule.option("quads_count_as_two_pairs")
                ):
                    return True
        return False
    if code == SpecialCode.SIX_PAIRS:  # six pairs and a card
        for single in range(13):
            if c[single] >= 1:
                rest = [k - (r == single) for r, k in enumerate(c)]
                if any(k % 2 for k in rest):
                    continue
                if any(k >= 4 for k in rest) and not rule.option("quads_count_as_two_pairs"):
                    continue
                if rest[single] >= 2 and not rule.option("trips_count_as_pair"):
                    continue
                return True
        return False
    if code == SpecialCode.THREE_STRAIGHTS:  # a front straight and two 5-card straights
        return c in _three_straights(rule.option("front_qka"), rule.option("front_a23"))
    raise AssertionError(f"not a rank-count special: {code!r}")


def test_rank_count_tests_on_ranks_of_nine_to_twelve_cards_follow_the_rule_text():
    """Every 13-card vector with a rank of 9 to 12 cards (none of 52-card types holds one), and
    a sample of the others: the counts-only tests the exact counter classifies with agree with
    the group partitions of the rule text, under the variants' options."""
    from simkit.exact_decks import packed_keys, rank_vectors
    from simkit.specials import rank_count_masks

    vectors = rank_vectors(13, 12)
    big = vectors[vectors.max(axis=1) >= 9]
    rest = vectors[vectors.max(axis=1) < 9]
    pick = np.random.default_rng(5).choice(len(rest), 2000, replace=False)
    sample = np.concatenate([big, rest[pick]])
    keys = packed_keys(sample)
    rows = [tuple(int(k) for k in v) for v in sample]
    seen = set()
    for name in variant_names():
        specials = load_variant(name).specials
        masks = rank_count_masks(keys, specials)
        for i, rule in enumerate(specials.rules):
            definition = (rule.kind.code, tuple(sorted(rule.options.items())))
            if rule.kind.exact != "rank-counts" or definition in seen:
                continue
            seen.add(definition)
            got = ((masks >> np.uint32(i)) & np.uint32(1)).astype(bool)
            assert (got == np.array([_rank_rule_holds(rule, c) for c in rows])).all(), rule.id
    assert len(seen) >= 9
