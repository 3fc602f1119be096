"""Exact tables for every deck: one deck as today, brute force on small decks, closed forms of
the published tables, and Monte Carlo dealt hands against them (with a negative control).
"""

from __future__ import annotations

import itertools
from collections import Counter
from functools import lru_cache
from math import comb, prod
from pathlib import Path

import numpy as np
import polars as pl
import pytest
from scipy import stats

from simkit import exact
from simkit.evaluate import Category
from simkit.exact_decks import (
    ONE_DECK,
    DeckShape,
    category_names,
    contains_counts,
    deck_of,
    five_card_counts,
    mask_counts,
    natural_counts,
    packed_keys,
    rank_vectors,
    reference_categories,
    reference_contains,
    reference_masks,
    representatives,
    sample_hands,
    suit_count_distribution,
    three_card_counts,
)
from simkit.exact_decks.vectors import _level_masks
from simkit.specials import detect_specials, rank_count_masks
from simkit.variants import Ranking, load_variant

RESULTS = Path(__file__).resolve().parents[1] / "results" / "decks"
DECKS = {
    "1d": DeckShape(),
    "2d": DeckShape(decks=2),
    "1d-5s": DeckShape(n_suits=5),
    "1d-1j": DeckShape(jokers=1),
    "1d-2j": DeckShape(jokers=2),
}


def test_deck_shape_reads_a_deck_object_and_defaults_to_one_deck():
    class Deck:  # the attributes a variant's deck carries
        decks, extra_suit, jokers = 2, True, 1

    assert DeckShape.of(Deck()) == DeckShape(decks=2, n_suits=5, jokers=1)
    assert deck_of(load_variant("guangxi")) == ONE_DECK
    assert DeckShape(decks=2, n_suits=5, jokers=2).n_cards == 132
    with pytest.raises(ValueError, match="jokers"):
        DeckShape(jokers=3)


@pytest.mark.parametrize("key", ["1d", "2d", "1d-5s", "1d-1j", "1d-2j", "2d-5s-2j"])
def test_deck_keys_name_their_shape(key):
    assert DeckShape.parse(key).key == key


def test_rank_count_masks_agree_with_the_detector_on_every_vector_it_reads():
    """Every 13-card vector of at most 8 cards a rank: the counts-only tests (which classify
    the vectors of two decks with jokers or a fifth suit, up to 12 a rank) give the
    detector's masks on a representative hand."""
    specials = load_variant("guangxi").specials
    vectors = rank_vectors(13, 8)
    hands = np.empty((len(vectors), 13), dtype=np.int8)
    representatives(vectors, hands)
    bits = sum(1 << i for i, r in enumerate(specials.rules) if r.kind.exact == "rank-counts")
    by_detector = detect_specials(hands, specials) & np.uint32(bits)
    assert (rank_count_masks(packed_keys(vectors), specials) == by_detector).all()


def test_a_bad_deck_key_is_an_error_naming_it():
    with pytest.raises(ValueError, match="'3x'"):
        DeckShape.parse("3x")


# ---------------------------------------------------------------------------------------------
# One deck: the general counter gives today's figures


def test_one_deck_masks_equal_the_one_deck_counter():
    specials = load_variant("guangxi").specials
    assert mask_counts(specials, ONE_DECK) == exact.mask_counts(specials)


def test_one_deck_tables_are_unchanged():
    tables = exact.exact_tables("guangxi", deck=ONE_DECK)
    five = dict(zip(tables["five_card"]["category"], tables["five_card"]["count"], strict=True))
    assert five["STRAIGHT_FLUSH"] == 40 and five["HIGH_CARD"] == 1_302_540
    assert five_card_counts(Ranking(), ONE_DECK) == five
    three = dict(zip(tables["three_card"]["category"], tables["three_card"]["count"], strict=True))
    assert three_card_counts(ONE_DECK) == three
    assert contains_counts(ONE_DECK) == {c.name: n for c, n in exact.contains_counts().items()}


# ---------------------------------------------------------------------------------------------
# Brute force on small decks: every physical 5-card hand, ranked by the plain categorizer
# (written apart from simkit.evaluate), jokers tried at every card of the deck.


def _brute_force_five(shape: DeckShape, ranks: tuple[int, ...], five_suit: bool) -> Counter:
    cards = [(r, s) for r in ranks for s in range(shape.n_suits) for _ in range(shape.decks)]
    deck = cards + [(-1, -1)] * shape.jokers
    combos = np.array(list(itertools.combinations(range(len(deck)), 5)))
    table = np.array(deck)
    r, s = table[combos, 0], table[combos, 1]
    best = np.full(len(combos), -1)
    wild = r < 0
    values = sorted(set(cards))
    for j in range(shape.jokers + 1):
        rows = np.flatnonzero(wild.sum(axis=1) == j)
        for subs in itertools.product(values, repeat=j):
            rr, ss = r[rows].copy(), s[rows].copy()
            for k, (vr, vs) in enumerate(subs):
                slot = np.argsort(~wild[rows], axis=1, kind="stable")[:, k]  # jokers first
                rr[np.arange(len(rows)), slot] = vr
                ss[np.arange(len(rows)), slot] = vs
            best[rows] = np.maximum(best[rows], reference_categories(rr, ss, five_suit))
    names = category_names(five_suit)[::-1]
    found, counts = np.unique(best, return_counts=True)
    return Counter({names[i]: int(n) for i, n in zip(found, counts, strict=True)})


SMALL_DECKS = [
    (DeckShape(decks=2), (12, 0, 1, 2, 3)),  # A 2 3 4 5: the wheel
    (DeckShape(n_suits=5), (8, 9, 10, 11, 12, 0)),  # T J Q K A and a 2
    (DeckShape(jokers=1), (12, 0, 1, 2, 3, 4)),  # A 2 3 4 5 6: the wheel and 2-6
    (DeckShape(jokers=2), (8, 9, 10, 11, 12)),
]


@pytest.mark.parametrize(("shape", "ranks"), SMALL_DECKS, ids=lambda x: getattr(x, "key", ""))
def test_five_card_counts_match_brute_force_on_small_decks(shape, ranks):
    """Every physical 5-card hand of a deck of five or six ranks, jokers at every card."""
    five_suit = shape.n_suits == 5
    got = five_card_counts(Ranking(), shape, five_suit, ranks)
    assert got == _brute_force_five(shape, ranks, five_suit)


@pytest.mark.parametrize("shape", [*DECKS.values(), DeckShape(decks=2, jokers=2)])
def test_three_card_counts_by_closed_forms(shape):
    """Fronts: trips, pairs and the rest, choosing ranks and physical cards directly."""
    n, k, j = shape.per_rank, shape.n_cards, shape.jokers
    trips = 13 * comb(n, 3) + j * 13 * comb(n, 2) + comb(j, 2) * 13 * n
    pairs = 13 * comb(n, 2) * 12 * n + j * comb(13, 2) * n * n
    assert three_card_counts(shape) == {
        "TRIPS": trips,
        "PAIR": pairs,
        "HIGH_CARD": comb(k, 3) - trips - pairs,
    }


def test_suit_count_distribution_matches_brute_force_for_two_decks_and_five_suits():
    """Physical cards of ranks holding 1, 1, 2, 3 cards, by suit-count vector, listed."""
    for shape in (DeckShape(decks=2), DeckShape(n_suits=5)):
        per_rank = [1, 1, 2, 3]
        physical = [(s, c) for s in range(shape.n_suits) for c in range(shape.decks)]
        brute: Counter = Counter()
        for choice in itertools.product(*[itertools.combinations(physical, k) for k in per_rank]):
            suits = Counter(s for cards in choice for s, _ in cards)
            brute[tuple(suits[s] for s in range(shape.n_suits))] += 1
        profile = tuple(per_rank.count(k) for k in range(1, shape.per_rank + 1))
        dist = suit_count_distribution(shape, profile)
        assert dist.sum() == sum(brute.values()) == prod(comb(shape.per_rank, k) for k in per_rank)
        for key, ways in brute.items():
            assert dist[key] == ways


def test_natural_card_sets_of_a_completed_hand_are_listed_once():
    """A completed hand with a card twice, one deck: removing two cards leaves every set of 11
    distinct cards inside it; the repeated card must go."""
    completed = np.zeros((1, 52), dtype=np.int8)
    completed[0, :12] = 1
    completed[0, 0] = 2  # 13 cards, card 0 twice
    rows = natural_counts(completed, 2, decks=1)
    expected = {
        tuple(int(c) for c in np.flatnonzero(np.bincount(sub, minlength=52)))
        for sub in itertools.combinations([0, 0, *range(1, 12)], 11)
        if len(set(sub)) == 11
    }
    assert {tuple(np.flatnonzero(r)) for r in rows} == expected
    # Drop card 0 once and one of the other eleven, or card 0 twice.
    assert len(rows) == len(expected) == 12


def test_joker_rank_masks_are_unions_over_the_joker_ranks():
    """One joker: a 12-card vector's mask is the union over its 13 completions (sampled)."""
    specials = load_variant("guangxi").specials
    vectors = rank_vectors(12, 4)
    masks = _level_masks(specials, 12, 4)
    pick = np.random.default_rng(3).choice(len(vectors), 4000, replace=False)
    expected = np.zeros(len(pick), dtype=np.int64)
    bits = sum(1 << i for i, r in enumerate(specials.rules) if r.kind.exact == "rank-counts")
    for r in range(13):
        completed = vectors[pick].copy()
        completed[:, r] += 1
        hands = np.empty((len(pick), 13), dtype=np.int8)
        representatives(completed, hands)
        expected |= detect_specials(hands, specials).astype(np.int64) & bits
    assert (masks[pick] == expected).all()


# ---------------------------------------------------------------------------------------------
# The published tables: closed forms, totals, and dealt hands


@lru_cache(maxsize=8)
def _published(key: str) -> pl.DataFrame:
    return pl.read_csv(RESULTS / f"exact-{key}.csv")


def _entry(key: str, table: str, entry: str) -> dict:
    frame = _published(key)
    return frame.filter((pl.col("table") == table) & (pl.col("entry") == entry)).row(0, named=True)


@pytest.mark.parametrize("key", list(DECKS))
def test_published_specials_match_closed_forms(key):
    """一条龙, 至尊清龙, 十二皇族 (all J Q K A), 全大 and 凑一色 chosen card by card: a joker
    fills any missing card, the fifth suit is of neither colour."""
    shape = DECKS[key]
    s, d, j = shape.n_suits, shape.decks, shape.jokers
    one_each = sum(comb(j, k) * comb(13, k) * (s * d) ** (13 - k) for k in range(j + 1))
    clean = sum(comb(j, k) * s * comb(13, k) * d ** (13 - k) for k in range(j + 1))
    assert _entry(key, "specials", "dragon")["count"] == one_each
    assert _entry(key, "specials", "clean-dragon")["count"] == clean
    assert _entry(key, "specials", "royal-twelve")["count"] == comb(4 * s * d + j, 13)
    assert _entry(key, "specials", "all-big")["count"] == comb(7 * s * d + j, 13)
    assert _entry(key, "specials", "one-color")["count"] == 2 * comb(26 * d + j, 13)
    frame = _published(key)
    total = comb(shape.n_cards, 13)
    specials = frame.filter(pl.col("table") == "specials")
    assert specials["best_count"].sum() <= total
    assert (specials["best_count"] <= specials["count"]).all()
    for table, size in (("five_card", 5), ("three_card", 3)):
        assert frame.filter(pl.col("table") == table)["count"].sum() == comb(shape.n_cards, size)


P_VALUE_FLOOR = 6.3e-5  # two-sided, the normal tail beyond 4 standard errors


def _agrees(observed: int, n: int, p: float) -> bool:
    return bool(stats.binomtest(observed, n, p).pvalue > P_VALUE_FLOOR)


@lru_cache(maxsize=8)
def _dealt(key: str, n: int) -> np.ndarray:
    shape = DECKS[key]
    hands = sample_hands(shape, n, np.random.default_rng([20261201, len(key), shape.n_cards]))
    return reference_masks(hands, load_variant("guangxi").specials, shape)


@pytest.mark.parametrize(("key", "n"), [("2d", 200_000), ("1d-5s", 200_000), ("1d-1j", 100_000)])
def test_dealt_specials_match_the_published_probabilities(key, n):
    """Dealt hands, specials by the slow reference: every frequency fits its exact value
    (the full 1M-hand check is experiments/pipelines/exact_decks_mc.py, results/decks/mc.md)."""
    masks = _dealt(key, n)
    ids = load_variant("guangxi").specials.ids
    for i, special in enumerate(ids):
        row = _entry(key, "specials", special)
        held = int(((masks >> np.uint32(i)) & np.uint32(1)).sum())
        assert _agrees(held, n, row["probability"]), (special, held, n * row["probability"])


def test_negative_control_a_wrong_probability_is_rejected():
    masks = _dealt("2d", 200_000)
    i = load_variant("guangxi").specials.ids.index("six-pairs")
    held = int(((masks >> np.uint32(i)) & np.uint32(1)).sum())
    p = _entry("2d", "specials", "six-pairs")["probability"]
    assert _agrees(held, len(masks), p)
    assert not _agrees(held, len(masks), p * 1.5)
    assert not _agrees(held, len(masks), p * 0.75)


@pytest.mark.parametrize("key", ["2d", "1d-5s"])
def test_contains_matches_every_five_of_dealt_hands(key):
    """Dealt hands, every 5 of their 13 cards ranked by the plain categorizer: each
    category's frequency fits the published exact probability."""
    shape = DECKS[key]
    hands = sample_hands(shape, 1500, np.random.default_rng(7 + shape.n_cards))
    held = reference_contains(hands, shape)
    names = category_names(False)[::-1]
    published = _published(key).filter(pl.col("table") == "contains")
    assert set(published["entry"]) == set(names) - {Category.HIGH_CARD.name}
    for row in published.iter_rows(named=True):
        seen = int(held[:, names.index(row["entry"])].sum())
        assert _agrees(seen, len(hands), row["probability"]), row["entry"]
