"""What 13 cards with jokers contain, and the specials of the packs with more than eight cards a
rank: brute force on small decks, closed forms, the no-joker counts as before, and dealt hands.
"""

from __future__ import annotations

import itertools
from functools import lru_cache
from math import comb
from pathlib import Path

import numpy as np
import polars as pl
import pytest
from scipy import stats

from simkit.evaluate import Category, rank5
from simkit.exact_decks import (
    DeckShape,
    category_names,
    contains_counts,
    contains_with_jokers,
    engine_cards,
    reference_categories,
    sample_hands,
)
from simkit.exact_decks.contains import _contains_level

RESULTS = Path(__file__).resolve().parents[1] / "results" / "decks"
ACE = 12
NAMES = category_names(False)[::-1]  # weakest first, as reference_categories counts


@lru_cache(maxsize=8)
def _best_of_every_five(shape: DeckShape, ranks: tuple[int, ...]) -> tuple[np.ndarray, np.ndarray]:
    """Every 5 physical cards of the small deck (as bit masks, sorted) and its category, a joker
    tried at every card of the full deck (written apart from simkit.evaluate)."""
    cards = [(r, s) for r in ranks for s in range(shape.n_suits) for _ in range(shape.decks)]
    deck = np.array(cards + [(-1, -1)] * shape.jokers)
    values = [(r, s) for r in range(13) for s in range(shape.n_suits)]
    combos = np.array(list(itertools.combinations(range(len(deck)), 5)))
    r, s = deck[combos, 0], deck[combos, 1]
    wild = r < 0
    best = np.full(len(combos), -1)
    for j in range(shape.jokers + 1):
        rows = np.flatnonzero(wild.sum(axis=1) == j)
        slots = np.argsort(~wild[rows], axis=1, kind="stable")  # jokers first
        for subs in itertools.combinations_with_replacement(values, j):
            rr, ss = r[rows].copy(), s[rows].copy()
            for k, (vr, vs) in enumerate(subs):
                rr[np.arange(len(rows)), slots[:, k]] = vr
                ss[np.arange(len(rows)), slots[:, k]] = vs
            best[rows] = np.maximum(best[rows], reference_categories(rr, ss, False))
    masks = (np.int64(1) << combos.astype(np.int64)).sum(axis=1)
    order = np.argsort(masks)
    return masks[order], best[order]


def _brute_force_contains(shape: DeckShape, ranks: tuple[int, ...], hand: int) -> dict[str, int]:
    """Every ``hand``-card hand of the small deck: which categories some 5 of its cards make."""
    masks, best = _best_of_every_five(shape, ranks)
    n_cards = len(ranks) * shape.per_rank + shape.jokers
    hands = np.array(list(itertools.combinations(range(n_cards), hand)), dtype=np.int64)
    held = np.zeros((len(hands), len(NAMES)), dtype=bool)
    for sub in itertools.combinations(range(hand), 5):
        five = (np.int64(1) << hands[:, list(sub)]).sum(axis=1)
        held[np.arange(len(hands)), best[np.searchsorted(masks, five)]] = True
    return {
        NAMES[c]: int(held[:, c].sum())
        for c in range(len(NAMES) - 1, -1, -1)
        if NAMES[c] != "HIGH_CARD" and held[:, c].any()
    }


SMALL = [
    (DeckShape(n_suits=5, jokers=1), (ACE, 0, 1, 2), 7),
    (DeckShape(decks=2), (ACE, 0, 1), 7),
    (DeckShape(decks=2, jokers=1), (ACE, 0, 1), 7),
    pytest.param(DeckShape(jokers=1), (ACE, 0, 1, 2, 3, 4), 7, marks=pytest.mark.slow),
    pytest.param(DeckShape(jokers=2), (8, 9, 10, 11, ACE), 7, marks=pytest.mark.slow),
    pytest.param(DeckShape(jokers=2), (ACE, 0, 1, 2, 3, 4), 6, marks=pytest.mark.slow),
    pytest.param(DeckShape(decks=2, jokers=2), (ACE, 0, 1), 7, marks=pytest.mark.slow),
    pytest.param(DeckShape(n_suits=5, jokers=2), (0, 1, 2, 3), 6, marks=pytest.mark.slow),
]


@pytest.mark.parametrize(("shape", "ranks", "hand"), SMALL, ids=lambda x: getattr(x, "key", ""))
def test_contains_with_jokers_matches_brute_force_on_small_decks(shape, ranks, hand):
    """Every hand of 6 or 7 cards of a deck of three to six ranks, every 5 of its cards ranked,
    jokers at every card: the counter (the same formulas as for 13 cards) agrees."""
    assert contains_with_jokers(shape, hand, ranks) == _brute_force_contains(shape, ranks, hand)


@pytest.mark.slow
@pytest.mark.parametrize("key", ["1d", "2d", "1d-5s"])
def test_contains_without_jokers_is_the_count_of_today(key):
    """The joker counter with no joker gives the no-joker table (written separately)."""
    shape = DeckShape.parse(key)
    level = _contains_level(shape, 13, 0, np.ones(13, dtype=bool))
    assert {k: v for k, v in level.items() if v} == contains_counts(shape)


def _published(key: str, table: str) -> dict[str, int]:
    frame = pl.read_csv(RESULTS / f"exact-{key}.csv").filter(pl.col("table") == table)
    return dict(zip(frame["entry"], frame["count"], strict=True))


def test_one_joker_five_of_a_kind_by_inclusion_exclusion():
    """One deck and a joker: 五同 needs the joker and a natural quads among the other 12."""
    quads = sum((-1) ** (k + 1) * comb(13, k) * comb(52 - 4 * k, 12 - 4 * k) for k in (1, 2, 3))
    assert _published("1d-1j", "contains")["FIVE_OF_A_KIND"] == quads


ALL_PACKS = [
    "1d", "2d", "1d-5s", "1d-1j", "1d-2j", "1d-5s-1j", "1d-5s-2j",
    "2d-1j", "2d-2j", "2d-5s", "2d-5s-1j", "2d-5s-2j",
]  # fmt: skip


@pytest.mark.parametrize("key", ALL_PACKS)
def test_every_pack_has_published_tables_that_sum_and_match_closed_forms(key):
    """一条龙, 至尊清龙, 十二皇族 (all J Q K A), 全大 and 凑一色 chosen card by card; the dun tables
    sum to C(n, 5) and C(n, 3); the contains table is published."""
    shape = DeckShape.parse(key)
    s, d, j = shape.n_suits, shape.decks, shape.jokers
    frame = pl.read_csv(RESULTS / f"exact-{key}.csv")
    specials = frame.filter(pl.col("table") == "specials")
    count = dict(zip(specials["entry"], specials["count"], strict=True))
    assert count["dragon"] == sum(comb(j, k) * comb(13, k) * (s * d) ** (13 - k) for k in (0, 1, 2))
    assert count["clean-dragon"] == sum(
        comb(j, k) * s * comb(13, k) * d ** (13 - k) for k in (0, 1, 2)
    )
    assert count["royal-twelve"] == comb(4 * s * d + j, 13)
    assert count["all-big"] == comb(7 * s * d + j, 13)
    assert count["one-color"] == 2 * comb(26 * d + j, 13)
    assert (specials["best_count"] <= specials["count"]).all()
    assert specials["best_count"].sum() <= comb(shape.n_cards, 13)
    for table, size in (("five_card", 5), ("three_card", 3)):
        assert frame.filter(pl.col("table") == table)["count"].sum() == comb(shape.n_cards, size)
    assert set(_published(key, "contains")) >= {"STRAIGHT", "FLUSH", "PAIR"}


def _dealt_contains(shape: DeckShape, n: int, seed: int) -> np.ndarray:
    """Dealt hands, every 5 of their 13 cards ranked by the engine (a joker at its best)."""
    hands = sample_hands(shape, n, np.random.default_rng([seed, shape.n_cards]))
    duns = engine_cards(hands, shape)[:, np.array(list(itertools.combinations(range(13), 5)))]
    cats = rank5(duns) >> 20
    return np.stack([(cats == c).any(axis=1) for c in Category], axis=1)


P_VALUE_FLOOR = 6.3e-5


@pytest.mark.parametrize("key", ["1d-1j", "2d-2j", "1d-5s-2j"])
def test_dealt_hands_contain_the_published_categories(key):
    """Dealt hands: each category's frequency fits the published exact probability (4 SE); the
    straight's count against its probability ×1.1 fails (a negative control)."""
    shape = DeckShape.parse(key)
    n = 4000
    held = _dealt_contains(shape, n, 5)
    total = comb(shape.n_cards, 13)
    for name, count in _published(key, "contains").items():
        seen = int(held[:, Category[name]].sum())
        assert stats.binomtest(seen, n, count / total).pvalue > P_VALUE_FLOOR, (name, seen)
    p = _published(key, "contains")["STRAIGHT"] / total
    seen = int(held[:, Category.STRAIGHT].sum())
    assert stats.binomtest(seen, n, min(1.0, 1.1 * p)).pvalue < P_VALUE_FLOOR


@pytest.mark.parametrize("key", ["2d-1j", "2d-5s", "2d-5s-2j"])
def test_dealt_specials_of_the_big_packs_match_the_published_probabilities(key):
    """Dealt hands of packs with more than eight cards a rank, specials by the detector: every
    frequency fits its exact value (4 SE); 六对半 at ×1.5 and ×0.75 does not."""
    from simkit.specials import detect_specials
    from simkit.variants import load_variant

    shape = DeckShape.parse(key)
    specials = load_variant("guangxi").specials
    n = 100_000
    hands = sample_hands(shape, n, np.random.default_rng([31, shape.n_cards]))
    masks = detect_specials(engine_cards(hands, shape), specials)
    frame = pl.read_csv(RESULTS / f"exact-{key}.csv").filter(pl.col("table") == "specials")
    p_exact = dict(zip(frame["entry"], frame["probability"], strict=True))
    for i, special in enumerate(specials.ids):
        held = int(((masks >> np.uint32(i)) & np.uint32(1)).sum())
        assert stats.binomtest(held, n, p_exact[special]).pvalue > P_VALUE_FLOOR, special
    i = specials.ids.index("six-pairs")
    held = int(((masks >> np.uint32(i)) & np.uint32(1)).sum())
    for scale in (1.5, 0.75):
        assert stats.binomtest(held, n, scale * p_exact["six-pairs"]).pvalue < P_VALUE_FLOOR


def test_exact_tables_of_a_variant_include_the_contains_table():
    """A ranking's ``five_suit_straight = "off"`` is off: one deck takes the one-deck tables,
    the contains table among them."""
    from simkit import exact

    tables = exact.exact_tables("guangxi")
    assert set(tables) == {"specials", "five_card", "three_card", "contains"}
    published = dict(zip(tables["contains"]["category"], tables["contains"]["count"], strict=True))
    assert published == {c.name: n for c, n in exact.contains_counts().items()}
