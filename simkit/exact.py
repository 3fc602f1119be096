"""Exact probabilities by combinatorics over one 52-card deck, never by sampling.

Other decks (two decks, a fifth suit, jokers) are counted by :mod:`simkit.exact_decks`;
:func:`exact_tables` reads the variant's deck and sends them there.

:func:`exact_tables` gives, for a variant, the exact number of 13-card hands that qualify for
each special and for which it is the best one, the 5-card and 3-card category counts, and the
probability that 13 cards contain a 5-card hand of each category.  Monte Carlo estimates are
checked against these (:func:`special_probabilities`).

How the special counts are exact (C(52,13) = 635,013,559,600 hands are far too many to list):

Each kind's method is its registry entry's :class:`~simkit.variants.special_kinds.ExactMethod`;
a kind whose method has no counter here is an error (:func:`check_countable`), never a count of 0.

1. ``rank-counts``: the rank-count vector ``c`` (``c[r]`` cards of rank ``r``, each 0..4,
   summing to 13; there are 3,598,180 of them) decides the special (一条龙, 十二皇族, 三分天下,
   全大, 全小, 三冲加弹, 四套三条, 五对三条, 六对半, 三顺子).  Each vector is classified once by
   :func:`~simkit.specials.detect_specials` on a representative hand with those ranks.
2. ``suit-counts``: the suits decide 凑一色 and 三同花 only through the suit-count vector.
   The number of suit assignments of a rank-count vector that give each suit-count vector
   depends only on the vector's profile (how many ranks hold 1, 2, 3, 4 cards), so a small
   dynamic programme per profile (adding one rank at a time, choosing which suits it takes)
   gives the joint counts.
3. ``card-list``: 至尊清龙 and 三同花顺 depend on the exact cards; their hands are few (a few
   thousand), so they are listed explicitly (every union of a front and two 5-card straight
   flushes, deduplicated), classified with :func:`~simkit.specials.detect_specials`, and moved
   from the mask the first two steps gave them to their full mask.

The result is the number of hands with each exact mask of specials; the masks sum to C(52,13)
(checked), and a special's count and best count are sums over masks.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from itertools import combinations
from itertools import product as itertools_product
from math import comb

import numba as nb
import numpy as np
import polars as pl

import simkit.exact_decks as exact_decks
from simkit.cards import N_RANKS, RANK_CHARS
from simkit.errors import SimkitError
from simkit.evaluate import Category, rank3, rank5
from simkit.exact_decks import ONE_DECK, DeckShape
from simkit.specials import (
    SPLIT_SIZES,
    VariantLike,
    best_special,
    detect_specials,
    five_straights,
    front_straights,
    specials_of,
)
from simkit.variants import Ranking, SpecialRule, Specials, resolve_variant
from simkit.variants.special_kinds import ExactMethod, SpecialCode, SpecialKind

HANDS_13 = comb(52, 13)  # 635,013,559,600
HANDS_5 = comb(52, 5)  # 2,598,960
HANDS_3 = comb(52, 3)  # 22,100

#: The ``suit-counts`` kinds, in the order of :func:`_suit_vector_bits`' tests.
SUIT_TESTS: tuple[SpecialCode, ...] = (SpecialCode.ONE_COLOR, SpecialCode.THREE_FLUSHES)


# ---------------------------------------------------------------------------------------------
# Rank-count vectors and suit-count distributions


N_RANK_VECTORS = 3_598_180  # [x^13] (1 + x + x^2 + x^3 + x^4)^13


@nb.njit(cache=True)
def _enumerate_rank_vectors(vectors, hands, profiles):
    """Fill every rank-count vector (odometer order), a hand with those ranks and its profile."""
    c = np.zeros(13, dtype=np.int64)
    n = 0
    while True:
        total = 0
        for r in range(13):
            total += c[r]
        if total == 13:
            j = 0
            code = 0
            for r in range(13):
                vectors[n, r] = c[r]
                for s in range(c[r]):
                    hands[n, j] = 4 * r + s
                    j += 1
                if c[r] > 0:
                    code += 14 ** (c[r] - 1)
            profiles[n] = code
            n += 1
        # Next vector: increment the lowest rank that can take a card, reset those below it.
        r = 0
        while r < 13 and (c[r] == 4 or total >= 13):
            total -= c[r]
            c[r] = 0
            r += 1
        if r == 13:
            return n
        c[r] += 1


@lru_cache(maxsize=1)
def _rank_vector_data() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    vectors = np.empty((N_RANK_VECTORS, 13), dtype=np.int8)
    hands = np.empty((N_RANK_VECTORS, 13), dtype=np.int8)
    profiles = np.empty(N_RANK_VECTORS, dtype=np.int64)
    n = _enumerate_rank_vectors(vectors, hands, profiles)
    if n != N_RANK_VECTORS:
        raise AssertionError(f"enumerated {n} rank-count vectors, expected {N_RANK_VECTORS}")
    return vectors, hands, profiles


def rank_count_vectors() -> np.ndarray:
    """Every rank-count vector of a 13-card one-deck hand: ``int8[3_598_180, 13]``.

    Row ``i`` of :func:`representative_hands` holds these ranks, rank ``r`` with ``k`` cards
    taking suits 0..k-1.
    """
    return _rank_vector_data()[0]


def representative_hands() -> np.ndarray:
    """One sorted hand per rank-count vector, in the order of :func:`rank_count_vectors`."""
    return _rank_vector_data()[1]


@lru_cache(maxsize=1)
def _profile_index() -> tuple[np.ndarray, np.ndarray]:
    """The distinct profile codes, and each rank-count vector's index among them."""
    codes = _rank_vector_data()[2]
    seen = np.zeros(14**4, dtype=bool)
    seen[codes] = True
    distinct = np.flatnonzero(seen)
    dense = np.cumsum(seen) - 1
    return distinct, dense[codes]


@lru_cache(maxsize=128)
def _suit_classes(profile_code: int) -> dict[tuple[bool, ...], int]:
    """Suit assignments of a profile by the outcome of each of :data:`SUIT_TESTS`, zeros left
    out."""
    dist = suit_count_distribution(_decode_profile(profile_code))
    tests = _suit_vector_bits()
    out = {}
    for outcome in itertools_product((False, True), repeat=len(tests)):
        selected = np.ones(dist.shape, dtype=bool)
        for test, passed in zip(tests, outcome, strict=True):
            selected &= test == passed
        ways = int(dist[selected].sum())
        if ways:
            out[outcome] = ways
    return out


def _decode_profile(code: int) -> tuple[int, int, int, int]:
    n1, rest = code % 14, code // 14
    n2, rest = rest % 14, rest // 14
    n3, n4 = rest % 14, rest // 14
    return n1, n2, n3, n4


@lru_cache(maxsize=64)
def suit_count_distribution(profile: tuple[int, int, int, int]) -> np.ndarray:
    """Suit assignments of a rank-count profile by suit-count vector: ``int64[14, 14, 14, 14]``.

    ``profile`` is (ranks with 1, 2, 3, 4 cards); entry ``[a, b, c, d]`` is the number of ways
    to choose the suits of every rank's cards so that ♣ ♦ ♥ ♠ hold a, b, c, d cards.
    """
    dist = np.zeros((14, 14, 14, 14), dtype=np.int64)
    dist[0, 0, 0, 0] = 1
    for k, n_ranks in zip(range(1, 5), profile, strict=True):
        subsets = list(combinations(range(4), k))
        for _ in range(n_ranks):
            new = np.zeros_like(dist)
            for subset in subsets:
                e = [1 if s in subset else 0 for s in range(4)]
                new[e[0] :, e[1] :, e[2] :, e[3] :] += dist[
                    : 14 - e[0], : 14 - e[1], : 14 - e[2], : 14 - e[3]
                ]
            dist = new
    return dist


@lru_cache(maxsize=1)
def _suit_vector_bits() -> tuple[np.ndarray, np.ndarray]:
    """For every suit-count vector: is it one colour, and does it allow a 3/5/5 flush split."""
    a, b, c, d = np.meshgrid(*[np.arange(14)] * 4, indexing="ij")
    one_color = (a + d == 13) | (b + c == 13)  # ♣ ♠ black (suits 0, 3), ♦ ♥ red (1, 2)
    sizes = np.array((0, *SPLIT_SIZES))  # a suit's size in a 3/5/5 split into flushes
    three_flush = np.isin(a, sizes) & np.isin(b, sizes) & np.isin(c, sizes) & np.isin(d, sizes)
    total = a + b + c + d == 13
    return one_color & total, three_flush & total


# ---------------------------------------------------------------------------------------------
# Card-exact specials


@lru_cache(maxsize=4)
def straight_flush_split_hands(front_qka: bool, front_a23: bool) -> np.ndarray:
    """Every one-deck hand that splits into three straight flushes, ``int8[n, 13]`` sorted."""
    fronts = [
        sum(1 << (4 * r + s) for r in ranks)
        for ranks in front_straights(front_qka, front_a23)
        for s in range(4)
    ]
    fives = [sum(1 << (4 * r + s) for r in ranks) for ranks in five_straights() for s in range(4)]
    found: set[int] = set()
    for f in fronts:
        for i, a in enumerate(fives):
            if f & a:
                continue
            for b in fives[i + 1 :]:
                if not (b & (f | a)):
                    found.add(f | a | b)
    return _masks_to_hands(sorted(found))


def clean_dragon_hands(rule: SpecialRule) -> np.ndarray:
    """The one-suit A-K hands a clean-dragon rule accepts."""
    suits = [3] if rule.option("suits") == "spades" else range(4)
    return _masks_to_hands([sum(1 << (4 * r + s) for r in range(N_RANKS)) for s in suits])


#: The ``card-list`` kinds: every one-deck hand a rule of the kind may accept, by code.
CARD_LISTS: dict[SpecialCode, Callable[[SpecialRule], np.ndarray]] = {
    SpecialCode.CLEAN_DRAGON: clean_dragon_hands,
    SpecialCode.THREE_STRAIGHT_FLUSHES: lambda rule: straight_flush_split_hands(
        rule.option("front_qka"), rule.option("front_a23")
    ),
}


def check_countable(kind: SpecialKind) -> None:
    """Raise ``ValueError`` unless this module can count the hands of ``kind`` exactly."""
    if kind.exact == ExactMethod.RANK_COUNTS:
        return
    if kind.exact == ExactMethod.SUIT_COUNTS and kind.code in SUIT_TESTS:
        return
    if kind.exact == ExactMethod.CARD_LIST and kind.code in CARD_LISTS:
        return
    raise SimkitError(
        f"special {kind.id!r} ({kind.code.name}): simkit.exact has no {kind.exact.value!r} "
        "counter for it; add one (SUIT_TESTS or CARD_LISTS) or change its exact method"
    )


def _masks_to_hands(masks: list[int]) -> np.ndarray:
    """52-bit card masks of 13 cards each → sorted hands ``int8[n, 13]``."""
    as_bytes = np.array(masks, dtype=np.uint64).view(np.uint8).reshape(-1, 8)
    bits = np.unpackbits(as_bytes, axis=1, bitorder="little")[:, :52]
    rows, cards = np.nonzero(bits)
    if not (np.bincount(rows, minlength=len(masks)) == 13).all():
        raise AssertionError("a card mask does not hold 13 cards")
    return cards.astype(np.int8).reshape(len(masks), 13)


# ---------------------------------------------------------------------------------------------
# Special counts


@lru_cache(maxsize=32)
def mask_counts(specials: Specials) -> dict[int, int]:
    """Number of one-deck 13-card hands with each exact special mask (bits in variant order).

    The values sum to C(52,13).
    """
    kinds = [rule.kind for rule in specials.rules]
    for kind in kinds:
        check_countable(kind)
    rank_bits = sum(1 << i for i, k in enumerate(kinds) if k.exact == ExactMethod.RANK_COUNTS)
    card_bits = sum(1 << i for i, k in enumerate(kinds) if k.exact == ExactMethod.CARD_LIST)
    suit_bits = [
        sum(
            1 << i
            for i, k in enumerate(kinds)
            if k.exact == ExactMethod.SUIT_COUNTS and k.code == t
        )
        for t in SUIT_TESTS
    ]
    _, hands, _ = _rank_vector_data()
    profile_codes, profile_index = _profile_index()
    masks = detect_specials(hands, specials, decks=1).astype(np.int64) & rank_bits
    # Count the vectors by (rank mask, profile); each stands for its profile's suit assignments.
    n_profiles = len(profile_codes)
    tally = np.bincount(masks * n_profiles + profile_index)
    nonzero = np.flatnonzero(tally)
    codes = (nonzero // n_profiles) * 14**4 + profile_codes[nonzero % n_profiles]
    n_vectors = tally[nonzero]
    counts: dict[int, int] = {}
    for code, n in zip(codes.tolist(), n_vectors.tolist(), strict=True):
        rank_mask, profile = divmod(code, 14**4)
        for outcome, ways in _suit_classes(profile).items():
            m = rank_mask
            for bits, passed in zip(suit_bits, outcome, strict=True):
                m |= bits if passed else 0
            counts[m] = counts.get(m, 0) + n * ways
    # Move the hands of the card-listed specials to their full masks.
    exact_hands = [np.zeros((0, 13), dtype=np.int8)]
    for rule, kind in zip(specials.rules, kinds, strict=True):
        if kind.exact == ExactMethod.CARD_LIST:
            exact_hands.append(CARD_LISTS[kind.code](rule))
    hands = np.unique(np.vstack(exact_hands), axis=0)
    for full in detect_specials(hands, specials, decks=1).astype(np.int64).tolist():
        reduced = full & ~card_bits
        counts[reduced] -= 1
        counts[full] = counts.get(full, 0) + 1
    if sum(counts.values()) != HANDS_13:
        raise AssertionError("special mask counts do not sum to C(52,13)")
    return {m: n for m, n in counts.items() if n}


_OPTION_DEFINITIONS = {
    ("royal-twelve", "all-jqka"): "every card is J, Q, K or A",
    ("royal-twelve", "all-jqk-plus-one"): "the twelve J, Q, K and any card",
}


def _definition(rule: SpecialRule) -> str:
    """The definition as the rule plays it, with its option values."""
    kind = rule.kind
    if rule.id == "royal-twelve":
        text = _OPTION_DEFINITIONS[(rule.id, rule.option("definition"))]
    elif "ranks" in rule.options:
        text = "every card from the ranks " + " ".join(RANK_CHARS[r] for r in rule.option("ranks"))
    else:
        text = kind.definition
    shown = [
        f"{key}={value}"
        for key, value in rule.options.items()
        if key not in ("ranks", "definition")
    ]
    return f"{text} ({', '.join(shown)})" if shown else text


def special_counts(variant: VariantLike = None) -> list[tuple[SpecialRule, int, int]]:
    """``(rule, count, best_count)`` for each special of a variant, best first."""
    specials = specials_of(variant)
    counts = mask_counts(specials)
    out = []
    for i, rule in enumerate(specials.rules):
        bit = 1 << i
        any_count = sum(n for m, n in counts.items() if m & bit)
        best = sum(n for m, n in counts.items() if m & bit and not m & (bit - 1))
        out.append((rule, any_count, best))
    return out


def special_probabilities(variant: VariantLike = None) -> dict[str, tuple[float, float]]:
    """``{special id: (P(qualifies), P(it is the best special))}`` for one random one-deck hand."""
    return {
        rule.id: (count / HANDS_13, best / HANDS_13)
        for rule, count, best in special_counts(variant)
    }


def compare_with_exact(masks: np.ndarray, variant: VariantLike = None) -> pl.DataFrame:
    """Monte Carlo frequencies of specials beside their exact probabilities.

    ``masks`` are :func:`~simkit.specials.detect_specials` masks of one-deck hands dealt at
    random (any shape).  One row per special and per measure (``any``: it qualifies; ``best``:
    it is the best special): n, observed, frequency, the exact probability, the binomial
    standard error sqrt(p(1-p)/n) from the exact p, z = (frequency - p) / se, and the two-sided
    exact binomial p-value (which stays valid for specials too rare for a normal z).
    """
    from scipy import stats  # imported here: only this check needs scipy

    flat = np.asarray(masks).ravel()
    n = flat.size
    best = best_special(flat)
    rows: dict[str, list] = {k: [] for k in ("special", "id", "measure", "observed", "p_exact")}
    for i, (rule, count, best_count) in enumerate(special_counts(variant)):
        held = int(((flat >> np.uint32(i)) & np.uint32(1)).sum())
        first = int((best == i).sum())
        for measure, seen, exact in (("any", held, count), ("best", first, best_count)):
            rows["special"].append(rule.name)
            rows["id"].append(rule.id)
            rows["measure"].append(measure)
            rows["observed"].append(seen)
            rows["p_exact"].append(exact / HANDS_13)
    p = np.array(rows["p_exact"], dtype=float)
    observed = np.array(rows["observed"], dtype=np.int64)
    se = np.sqrt(p * (1 - p) / max(n, 1))
    frequency = observed / max(n, 1)
    with np.errstate(divide="ignore", invalid="ignore"):
        z = np.where(se > 0, (frequency - p) / se, 0.0)
    p_values = [
        float(stats.binomtest(int(k), n, float(q)).pvalue) if n and 0 < q < 1 else 1.0
        for k, q in zip(observed, p, strict=True)
    ]
    return pl.DataFrame(
        {
            **{k: rows[k] for k in ("special", "id", "measure")},
            "n": [n] * len(p),
            "observed": observed,
            "frequency": frequency,
            "p_exact": p,
            "se": se,
            "z": z,
            "p_value": p_values,
        },
        schema={
            "special": pl.String,
            "id": pl.String,
            "measure": pl.String,
            "n": pl.Int64,
            "observed": pl.Int64,
            "frequency": pl.Float64,
            "p_exact": pl.Float64,
            "se": pl.Float64,
            "z": pl.Float64,
            "p_value": pl.Float64,
        },
    )


def specials_table(variant: VariantLike = None) -> pl.DataFrame:
    """The exact special table of a variant (see :func:`exact_tables`)."""
    return _specials_frame(special_counts(variant), HANDS_13)


def _specials_frame(rows: list[tuple[SpecialRule, int, int]], total: int) -> pl.DataFrame:
    """Special counts ``(rule, qualifying, best)`` over ``total`` hands, as the table."""
    return pl.DataFrame(
        {
            "special": [r.name for r, _, _ in rows],
            "id": [r.id for r, _, _ in rows],
            "definition": [_definition(r) for r, _, _ in rows],
            "count": [c for _, c, _ in rows],
            "best_count": [b for _, _, b in rows],
            "probability": [c / total for _, c, _ in rows],
            "best_probability": [b / total for _, _, b in rows],
            "one_in": [total / c if c else float("inf") for _, c, _ in rows],
        },
        schema={
            "special": pl.String,
            "id": pl.String,
            "definition": pl.String,
            "count": pl.Int64,
            "best_count": pl.Int64,
            "probability": pl.Float64,
            "best_probability": pl.Float64,
            "one_in": pl.Float64,
        },
    )


# ---------------------------------------------------------------------------------------------
# Dun categories


@lru_cache(maxsize=2)
def all_combinations(k: int) -> np.ndarray:
    """Every k-card combination of one deck in lexicographic order, ``int8[C(52, k), k]``."""
    out = np.empty((comb(52, k), k), dtype=np.int8)
    _fill_combinations(out, 52)
    return out


@nb.njit(cache=True)
def _fill_combinations(out, n):
    k = out.shape[1]
    combo = np.arange(k)
    for row in range(out.shape[0]):
        out[row, :] = combo
        i = k - 1  # the rightmost position that can still move right
        while i >= 0 and combo[i] == n - k + i:
            i -= 1
        if i < 0:
            return
        combo[i] += 1
        for j in range(i + 1, k):
            combo[j] = combo[j - 1] + 1


def _category_table(ranks: np.ndarray, total: int) -> pl.DataFrame:
    counts = np.bincount(ranks >> 20, minlength=len(Category))
    cats = [c for c in reversed(Category) if counts[c] > 0]
    return pl.DataFrame(
        {
            "category": [c.name for c in cats],
            "count": [int(counts[c]) for c in cats],
            "probability": [int(counts[c]) / total for c in cats],
        },
        schema={"category": pl.String, "count": pl.Int64, "probability": pl.Float64},
    )


@lru_cache(maxsize=8)
def five_card_table(ranking: Ranking) -> pl.DataFrame:
    """Category counts over all C(52,5) 5-card hands, strongest first."""
    return _category_table(rank5(all_combinations(5), ranking), HANDS_5)


@lru_cache(maxsize=8)
def three_card_table(ranking: Ranking) -> pl.DataFrame:
    """Category counts over all C(52,3) 3-card fronts, strongest first."""
    return _category_table(rank3(all_combinations(3), ranking), HANDS_3)


# ---------------------------------------------------------------------------------------------
# What 13 cards contain


WINDOW_MASKS = tuple(sum(1 << r for r in w) for w in five_straights())  # 5-card straights


def _suit_mask_poly(excluded: list[bool]) -> list[int]:
    """Coefficients of sum over one-suit rank masks not ``excluded`` of x^popcount."""
    poly = [0] * 14
    for m in range(1 << N_RANKS):
        if not excluded[m]:
            poly[m.bit_count()] += 1
    return poly


def _hands_with_no_suit_pattern(excluded: list[bool]) -> int:
    """13-card hands in which no suit's rank mask is ``excluded``: [x^13] (poly)^4.

    The four suits' rank masks of a one-deck hand are independent subsets of the 13 ranks.
    """
    poly = _suit_mask_poly(excluded)
    total = [1] + [0] * 13
    for _ in range(4):
        total = [sum(total[i] * poly[n - i] for i in range(n + 1)) for n in range(14)]
    return total[13]


def has_straight_window(mask: int) -> bool:
    """Whether a set of ranks (bit mask) holds a 5-card straight."""
    return any(mask & w == w for w in WINDOW_MASKS)


def has_plain_flush(mask: int) -> bool:
    """Whether one suit's ranks hold five that are not a straight (a flush, not a SF).

    Five ranks are a flush unless they are a straight; from six or more ranks, dropping the
    second-lowest leaves five with a gap, never a straight (nor the wheel, whose second-lowest
    rank is adjacent to its lowest).
    """
    n = mask.bit_count()
    return n >= 6 or (n == 5 and not has_straight_window(mask))


@lru_cache(maxsize=1)
def contains_counts() -> dict[Category, int]:
    """Number of 13-card hands holding at least one 5-card hand of each category (exactly it).

    Pair, two pair, trips, full house and quads follow from the rank counts (13 cards always
    leave enough other ranks to fill the five).  Flush and straight flush are properties of each
    suit's rank mask, counted by a generating function over the four independent suit masks.
    A plain straight (not a straight flush) exists unless every straight window the ranks cover
    holds one card a rank, all of one suit; overlapping windows share cards, so each connected
    run of covered windows must be one suit.
    """
    weights, n_ge2, n_ge3, n_4, present, singles = _vector_features(rank_count_vectors())
    out: dict[Category, int] = {
        Category.PAIR: int(weights[n_ge2 >= 1].sum()),
        Category.TWO_PAIR: int(weights[n_ge2 >= 2].sum()),
        Category.TRIPS: int(weights[n_ge3 >= 1].sum()),
        Category.FULL_HOUSE: int(weights[(n_ge3 >= 1) & (n_ge2 >= 2)].sum()),
        Category.QUADS: int(weights[n_4 >= 1].sum()),
    }
    windows = five_straights()
    covered = np.stack([(present & w) == w for w in WINDOW_MASKS], axis=1)
    single = np.stack([(singles & w) == w for w in WINDOW_MASKS], axis=1)
    always = (covered & ~single).any(axis=1)
    maybe = covered.any(axis=1) & ~always
    straight = int(weights[always].sum())
    patterns = covered[maybe] @ (1 << np.arange(len(windows)))
    for pattern, weight_sum in _sum_by(patterns, weights[maybe]).items():
        components, union_size = _window_components(pattern, windows)
        # Of the 4^|U| suit choices of the union's single cards, 4^components are monochrome.
        straight += weight_sum - weight_sum * 4**components // 4**union_size
    out[Category.STRAIGHT] = straight
    no_sf = _hands_with_no_suit_pattern([has_straight_window(m) for m in range(1 << N_RANKS)])
    no_flush = _hands_with_no_suit_pattern([has_plain_flush(m) for m in range(1 << N_RANKS)])
    out[Category.STRAIGHT_FLUSH] = HANDS_13 - no_sf
    out[Category.FLUSH] = HANDS_13 - no_flush
    return out


@nb.njit(cache=True)
def _vector_features(vectors):
    """Per rank-count vector: hands (prod C(4, c_r)), ranks holding >= 2, >= 3 and 4 cards,
    and the bit masks of the ranks held and of the ranks held once."""
    n = vectors.shape[0]
    choose4 = np.array([1, 4, 6, 4, 1], dtype=np.int64)
    weights = np.empty(n, dtype=np.int64)
    n_ge2 = np.empty(n, dtype=np.int64)
    n_ge3 = np.empty(n, dtype=np.int64)
    n_4 = np.empty(n, dtype=np.int64)
    present = np.empty(n, dtype=np.int64)
    singles = np.empty(n, dtype=np.int64)
    for i in range(n):
        w, a, b, c, p, s = 1, 0, 0, 0, 0, 0
        for r in range(13):
            k = vectors[i, r]
            w *= choose4[k]
            a += k >= 2
            b += k >= 3
            c += k == 4
            if k >= 1:
                p |= 1 << r
            if k == 1:
                s |= 1 << r
        weights[i], n_ge2[i], n_ge3[i], n_4[i], present[i], singles[i] = w, a, b, c, p, s
    return weights, n_ge2, n_ge3, n_4, present, singles


def _sum_by(keys: np.ndarray, values: np.ndarray) -> dict[int, int]:
    uniq, inverse = np.unique(keys, return_inverse=True)
    sums = np.zeros(uniq.size, dtype=object)
    np.add.at(sums, inverse, values.astype(object))
    return {int(k): int(s) for k, s in zip(uniq.tolist(), sums.tolist(), strict=True)}


def _window_components(pattern: int, windows: list[tuple[int, ...]]) -> tuple[int, int]:
    """Connected components (windows sharing a rank) of the covered windows, and |union|."""
    chosen = [set(w) for i, w in enumerate(windows) if pattern >> i & 1]
    parent = list(range(len(chosen)))

    def find(i: int) -> int:
        while parent[i] != i:
            i = parent[i]
        return i

    for i in range(len(chosen)):
        for j in range(i):
            if chosen[i] & chosen[j]:
                parent[find(i)] = find(j)
    components = len({find(i) for i in range(len(chosen))})
    return components, len(set().union(*chosen))


def contains_table() -> pl.DataFrame:
    """P(13 random cards hold a 5-card hand of each category), strongest first, exact."""
    counts = contains_counts()
    cats = sorted(counts, reverse=True)
    return pl.DataFrame(
        {
            "category": [c.name for c in cats],
            "count": [counts[c] for c in cats],
            "probability": [counts[c] / HANDS_13 for c in cats],
        },
        schema={"category": pl.String, "count": pl.Int64, "probability": pl.Float64},
    )


def _deck_specials_table(specials: Specials, shape: DeckShape) -> pl.DataFrame:
    return _specials_frame(
        exact_decks.special_counts(specials, shape), exact_decks.total_hands(shape)
    )


def _counts_table(counts: dict[str, int], total: int) -> pl.DataFrame:
    return pl.DataFrame(
        {
            "category": list(counts),
            "count": list(counts.values()),
            "probability": [n / total for n in counts.values()],
        },
        schema={"category": pl.String, "count": pl.Int64, "probability": pl.Float64},
    )


def exact_tables(
    variant: VariantLike = None,
    *,
    deck: object = None,
    five_suit_straight: bool | None = None,
) -> dict[str, pl.DataFrame]:
    """Exact tables for a variant over its deck (one 52-card deck unless it names another).

    ``specials``: special (Chinese name), id, definition (with option values), count (13-card
    hands that qualify), best_count (hands for which it is the best special in the variant's
    order), probability, best_probability (both over all C(n_cards, 13) hands, e.g.
    635,013,559,600 for one deck) and one_in.
    ``five_card`` / ``three_card``: category counts over all C(n_cards, 5) / C(n_cards, 3)
    hands.  ``contains``: P(13 cards hold a 5-card hand of exactly each category, a joker at
    its best value in each; 五彩同花顺 counted as a straight there), for every deck.

    ``deck``: a deck (``decks``, ``n_suits`` or ``extra_suit``, ``jokers``) or a
    :class:`~simkit.exact_decks.DeckShape`; by default the variant's ``deck``.
    ``five_suit_straight``: count 五彩同花顺 as a category; by default the ranking's
    ``five_suit_straight`` where it has one, else on for a five-suit deck.  Other decks are
    counted by :mod:`simkit.exact_decks`; one deck by this module, as it always was.
    """
    resolved = None
    if isinstance(variant, Specials):
        specials, ranking = variant, Ranking()
    else:
        resolved = resolve_variant(variant)
        specials, ranking = resolved.specials, resolved.ranking
    shape = DeckShape.of(deck) if deck is not None else exact_decks.deck_of(resolved)
    if five_suit_straight is None:
        played = getattr(ranking, "five_suit_straight", None)  # "off" or where it ranks
        five_suit_straight = shape.n_suits == 5 if played is None else played != "off"
    if shape == ONE_DECK and not five_suit_straight:
        return {
            "specials": specials_table(specials),
            "five_card": five_card_table(ranking),
            "three_card": three_card_table(ranking),
            "contains": contains_table(),
        }
    tables = {
        "specials": _deck_specials_table(specials, shape),
        "five_card": _counts_table(
            exact_decks.five_card_counts(ranking, shape, five_suit_straight),
            exact_decks.total_hands(shape, 5),
        ),
        "three_card": _counts_table(
            exact_decks.three_card_counts(shape), exact_decks.total_hands(shape, 3)
        ),
    }
    # 五彩同花顺 is a straight in the contains table (a five-suit straight is counted apart in
    # the 5-card table only).
    contains = exact_decks.contains_counts(shape, five_suit_straight=False)
    if contains is not None:
        tables["contains"] = _counts_table(contains, exact_decks.total_hands(shape))
    return tables


__all__ = [
    "HANDS_13",
    "DeckShape",
    "check_countable",
    "compare_with_exact",
    "contains_counts",
    "exact_tables",
    "mask_counts",
    "special_counts",
    "special_probabilities",
]
