"""What 13 cards of any pack contain, jokers included: the hands holding (or able to
make, with jokers) a 5-card hand of each category."""

from __future__ import annotations

from functools import lru_cache
from itertools import combinations
from math import comb

import numba as nb
import numpy as np

from simkit.cards import N_RANKS
from simkit.exact_decks.categories import (
    category_names,
)
from simkit.exact_decks.counts import (
    total_hands,
)
from simkit.exact_decks.shapes import (
    ALL_RANKS,
    HAND,
    DeckShape,
)
from simkit.exact_decks.vectors import (
    rank_vectors,
)
from simkit.specials import (
    five_straights,
)

WINDOWS = tuple(sum(1 << r for r in w) for w in five_straights())  # 5-card straights, rank masks


@lru_cache(maxsize=16)
def contains_counts(shape: DeckShape, five_suit_straight: bool = False) -> dict[str, int] | None:
    """Number of 13-card hands holding a 5-card dun of exactly each category, or None when
    五彩同花顺 is played (count it as a straight: ``five_suit_straight=False``).  Decks with
    jokers: :func:`contains_with_jokers`.

    Without jokers a deck of ``decks`` copies of ``n_suits`` suits gives:

    - five of a kind, quads, full house, trips: from the rank counts (a trips is never one
      suit: that takes three copies of a card);
    - pair and two pair: from the rank counts, less (two decks) the hands all of one suit,
      whose every pair is two copies of one card, so every such dun is a flush;
    - flush and straight flush: properties of each suit's cards, counted by a generating
      function over the independent suits (a suit of six or more cards always holds a flush:
      drop the second-lowest rank, or keep a repeated card);
    - straight: a covered window fails only when all cards of its ranks are of one suit, the
      same suit over each connected run of covered windows.
    """
    if five_suit_straight:
        return None
    if shape.jokers:
        return contains_with_jokers(shape)
    vectors = rank_vectors(HAND, shape.per_rank)
    choose = np.array([comb(shape.per_rank, k) for k in range(shape.per_rank + 1)], np.int64)
    one_suit = np.array([comb(shape.decks, k) for k in range(shape.per_rank + 1)], dtype=np.int64)
    weights, straight_fail = _contains_features(vectors, choose, one_suit, shape.n_suits)
    n_ge2 = (vectors >= 2).sum(axis=1)
    n_ge3 = (vectors >= 3).sum(axis=1)
    present = (vectors >= 1).sum(axis=1)
    biggest = vectors.max(axis=1)
    total = total_hands(shape)

    def hands(selected: np.ndarray) -> int:
        return int(weights[selected].sum())

    # Hands of one suit (two copies of each card at most): pairs there are flushes.
    monochrome = vectors.max(axis=1) <= shape.decks
    mono_weight = np.where(monochrome, one_suit[vectors].prod(axis=1), 0) * shape.n_suits
    pair_ranks = (n_ge2 >= 1) & (present >= 4)
    two_pair_ranks = (n_ge2 >= 2) & (present >= 3)
    mono_pairs = shape.decks > 1
    out = {
        "FIVE_OF_A_KIND": hands(biggest >= 5),
        "STRAIGHT_FLUSH": total - _hands_without_suit_pattern(shape, "straight-flush"),
        "QUADS": hands(biggest >= 4),
        "FULL_HOUSE": hands((n_ge3 >= 1) & (n_ge2 >= 2)),
        "FLUSH": total - _hands_without_suit_pattern(shape, "flush"),
        "STRAIGHT": int((weights - straight_fail).sum()),
        "TRIPS": hands((n_ge3 >= 1) & (present >= 3)),
        "TWO_PAIR": hands(two_pair_ranks)
        - (int(mono_weight[two_pair_ranks].sum()) if mono_pairs else 0),
        "PAIR": hands(pair_ranks) - (int(mono_weight[pair_ranks].sum()) if mono_pairs else 0),
    }
    return {name: n for name, n in out.items() if n}


@nb.njit(cache=True)
def _one_suited_hands(row, covered, held, parent, choose, one_suit, n_suits):
    """The hands of rank-count ``row`` whose cards on the ranks ``held[k]`` of every window
    ``k`` in the bit set ``covered`` are all of one suit, the same suit over windows sharing a
    held rank (components by union-find on the windows, ``parent`` its scratch array); the
    ranks outside every covered window are free."""
    n_windows = held.shape[0]
    for k in range(n_windows):
        parent[k] = k
    for a in range(n_windows):
        if not (covered >> a) & 1:
            continue
        for b in range(a):
            if (covered >> b) & 1 and held[a] & held[b]:
                ra = a
                while parent[ra] != ra:
                    ra = parent[ra]
                rb = b
                while parent[rb] != rb:
                    rb = parent[rb]
                parent[ra] = rb
    union = np.int64(0)
    f = np.int64(1)
    for a in range(n_windows):
        if not (covered >> a) & 1:
            continue
        root = a
        while parent[root] != root:
            root = parent[root]
        if root != a:
            continue
        ranks = np.int64(0)
        for b in range(n_windows):
            if (covered >> b) & 1:
                rb = b
                while parent[rb] != rb:
                    rb = parent[rb]
                if rb == a:
                    ranks |= held[b]
        union |= ranks
        part = np.int64(n_suits)
        for r in range(13):
            if (ranks >> r) & 1:
                part *= one_suit[row[r]]
        f *= part
    for r in range(13):
        if not (union >> r) & 1:
            f *= choose[row[r]]
    return f


@nb.njit(cache=True)
def _contains_features(vectors, choose, one_suit, n_suits):
    """Per rank-count vector: its hands (prod C(per_rank, c_r)), and of those the hands whose
    every covered straight window has all its cards in one suit (no plain straight; the
    vector's hands when it covers no window)."""
    windows = np.array([0b1000000001111] + [0b11111 << r for r in range(9)], dtype=np.int64)
    n = vectors.shape[0]
    weights = np.empty(n, dtype=np.int64)
    fail = np.empty(n, dtype=np.int64)
    parent = np.empty(10, dtype=np.int64)
    for i in range(n):
        present = np.int64(0)
        w = np.int64(1)
        for r in range(13):
            w *= choose[vectors[i, r]]
            if vectors[i, r] > 0:
                present |= np.int64(1) << r
        weights[i] = w
        covered = 0
        for k in range(10):
            if present & windows[k] == windows[k]:
                covered |= 1 << k
        if covered == 0:
            fail[i] = w
            continue
        fail[i] = _one_suited_hands(vectors[i], covered, windows, parent, choose, one_suit, n_suits)
    return weights, fail


def _suit_pattern_holds(vector: np.ndarray, pattern: str) -> np.ndarray:
    """Does one suit's cards (rank counts, ``int8[n, 13]``) hold a straight flush, or a flush
    that is not one (six cards or more, or five that are not five ranks in a row)."""
    bits = (vector > 0).astype(np.int64) << np.arange(N_RANKS, dtype=np.int64)
    mask = bits.sum(axis=1)
    window = np.zeros(len(vector), dtype=bool)
    for w in WINDOWS:
        window |= mask & w == w
    if pattern == "straight-flush":
        return window
    size = vector.sum(axis=1)
    distinct = (vector > 0).sum(axis=1)
    return (size >= 6) | ((size == 5) & ~((distinct == 5) & window))


def _hands_without_suit_pattern(shape: DeckShape, pattern: str) -> int:
    """13-card hands none of whose suits holds ``pattern``: [x^13] P(x)^n_suits, P the
    generating function of one suit's card sets without it (suits are independent)."""
    poly = [0] * (HAND + 1)
    for size in range(HAND + 1):
        vectors = rank_vectors(size, shape.decks)
        keep = ~_suit_pattern_holds(vectors, pattern)
        ways = np.array([comb(shape.decks, k) for k in range(shape.decks + 1)], dtype=np.int64)
        poly[size] = int(ways[vectors[keep]].prod(axis=1).sum())
    total = [1] + [0] * HAND
    for _ in range(shape.n_suits):
        total = [sum(total[i] * poly[n - i] for i in range(n + 1)) for n in range(HAND + 1)]
    return total[HAND]


# ---------------------------------------------------------------------------------------------
# What 13 cards with jokers contain


def contains_with_jokers(
    shape: DeckShape, hand: int = HAND, ranks: tuple[int, ...] = ALL_RANKS
) -> dict[str, int]:
    """Number of ``hand``-card hands (13) holding a 5-card dun of exactly each category, jokers
    wild: a dun's category is its best over the values of its jokers, so a hand contains a
    category when some 5 of its cards, jokers among them or not, are at best that category.

    ``ranks``: the deck's ranks (all 13; fewer, with a smaller ``hand``, make the small decks
    the tests list in full; a joker still stands for any card).  A hand of ``j`` jokers is
    counted by its natural cards' rank-count vector, choosing which of the dun's cards are
    jokers (``j'`` of them, up to ``j``):

    - five of a kind: a rank of ``5 - j``; quads: a rank of ``4 - j`` and another rank (its
      jokers make the four, never five); full house: a trips and a pair, or with a joker two
      pairs (a joker beside trips makes quads instead);
    - two pair: only natural cards make it (a joker beside a pair makes trips), so the rank
      counts less (two decks) the hands all of one suit, as without jokers;
    - trips: a natural trips; or a joker, a pair and two other ranks not all of one suit
      (else a flush): two pairs and 3 ranks, less the one-suited hands; or two jokers and
      three single ranks lying in no straight window and not all of one suit;
    - pair: a natural pair and three other ranks, less the one-suited hands; or a joker and
      four single ranks in no straight window, not all of one suit;
    - straight: ``5 - j`` distinct ranks of one window not all of one suit: it fails only when
      the cards of every window holding ``5 - j`` ranks are one suit, the same over windows
      sharing a held rank;
    - flush and straight flush: properties of each suit's cards with ``j`` jokers, counted by a
      generating function over the independent suits (:func:`_suit_holds_flush`).

    The "not all of one suit" tests over single ranks count, per vector, the suit choices
    that make every qualifying set of ranks one-suited: a product over the connected
    components of those sets (:func:`_one_suited_choices`).
    """
    allowed = np.zeros(N_RANKS, dtype=bool)
    allowed[list(ranks)] = True
    out = dict.fromkeys(category_names(False)[:-1], 0)
    for j in range(shape.jokers + 1):
        for name, count in _contains_level(shape, hand - j, j, allowed).items():
            out[name] += comb(shape.jokers, j) * count
    return {name: n for name, n in out.items() if n}


def _contains_level(shape: DeckShape, n: int, j: int, allowed: np.ndarray) -> dict[str, int]:
    """:func:`contains_with_jokers` for the hands of ``n`` natural cards and ``j`` jokers,
    natural cards of the ``allowed`` ranks only (not yet weighted by the choice of jokers)."""
    vectors = rank_vectors(n, shape.per_rank)
    vectors = vectors[(vectors[:, ~allowed] == 0).all(axis=1)]
    choose = np.array([comb(shape.per_rank, k) for k in range(shape.per_rank + 1)], np.int64)
    one_suit = np.array([comb(shape.decks, k) for k in range(shape.per_rank + 1)], np.int64)
    weights = choose[vectors].prod(axis=1)
    mono = shape.n_suits * one_suit[vectors].prod(axis=1)
    n_ge2 = (vectors >= 2).sum(axis=1)
    n_ge3 = (vectors >= 3).sum(axis=1)
    present = (vectors >= 1).sum(axis=1)
    biggest = vectors.max(axis=1)
    total = int(weights.sum())
    if total != comb(int(allowed.sum()) * shape.per_rank, n):
        raise AssertionError("natural card choices do not sum to C(cards, n)")

    def hands(selected: np.ndarray) -> int:
        return int(weights[selected].sum())

    def mixed(selected: np.ndarray) -> int:
        """Hands of these vectors not all of one suit."""
        return hands(selected) - int(mono[selected].sum())

    def singles_mixed(size: int) -> int:
        """Hands of single ranks (one card each) holding ``size`` ranks in no straight window
        whose cards are not all of one suit."""
        selected = np.flatnonzero((biggest <= 1) & (present >= size))
        fails = sum(_one_suited_choices(shape, _rank_mask(vectors[i]), size) for i in selected)
        return hands(selected) - fails

    windows = np.array(WINDOWS, dtype=np.int64)
    fails = _straight_fails(vectors, choose, one_suit, shape.n_suits, 5 - j, windows)
    trips = hands((n_ge3 >= 1) & (present >= 3))
    pair = mixed((n_ge2 >= 1) & (present >= 4))
    if j >= 1:
        trips += mixed((n_ge3 == 0) & (n_ge2 >= 1) & (present >= 3))
        pair += singles_mixed(4)
    if j >= 2:
        trips += singles_mixed(3)
    return {
        "FIVE_OF_A_KIND": hands(biggest >= 5 - j),
        "STRAIGHT_FLUSH": total - _hands_without(shape, n, allowed, j, "straight-flush"),
        "QUADS": hands((biggest >= 4 - j) & (present >= 2)),
        "FULL_HOUSE": hands((n_ge2 >= 2) & ((n_ge3 >= 1) | (j >= 1))),
        "FLUSH": total - _hands_without(shape, n, allowed, j, "flush"),
        "STRAIGHT": int((weights - fails).sum()),
        "TRIPS": trips,
        "TWO_PAIR": mixed((n_ge2 >= 2) & (present >= 3)),
        "PAIR": pair,
    }


def _rank_mask(vector: np.ndarray) -> int:
    return int(sum(1 << r for r in range(N_RANKS) if vector[r]))


def _within_a_window(ranks: int) -> bool:
    return any(ranks & ~w == 0 for w in WINDOWS)


def _one_suited_choices(shape: DeckShape, held: int, size: int) -> int:
    """Physical choices of one card of each ``held`` rank such that every ``size`` of those
    ranks lying in no straight window are one suit: the sets sharing a rank must share the
    suit, so a product over their connected components (``n_suits`` suits, ``decks`` copies
    a card) and over the ranks in no such set (any of their ``per_rank`` cards)."""
    rank_list = [r for r in range(N_RANKS) if held >> r & 1]
    parent = {r: r for r in rank_list}

    def find(r: int) -> int:
        while parent[r] != r:
            r = parent[r]
        return r

    covered: set[int] = set()
    for subset in combinations(rank_list, size):
        if _within_a_window(sum(1 << r for r in subset)):
            continue
        covered.update(subset)
        for r in subset[1:]:
            parent[find(r)] = find(subset[0])
    components: dict[int, int] = {}
    for r in covered:
        components[find(r)] = components.get(find(r), 0) + 1
    out = shape.per_rank ** (len(rank_list) - len(covered))
    for k in components.values():
        out *= shape.n_suits * shape.decks**k
    return out


@nb.njit(cache=True)
def _straight_fails(vectors, choose, one_suit, n_suits, need, windows):
    """Per rank-count vector, the hands holding no plain straight made with ``5 - need``
    jokers: those whose cards of every window holding ``need`` ranks are one suit, the same
    suit over windows sharing a held rank (union-find on the windows)."""
    n = vectors.shape[0]
    n_windows = windows.shape[0]
    fail = np.empty(n, dtype=np.int64)
    parent = np.empty(n_windows, dtype=np.int64)
    held = np.empty(n_windows, dtype=np.int64)
    for i in range(n):
        present = np.int64(0)
        for r in range(13):
            if vectors[i, r] > 0:
                present |= np.int64(1) << r
        covered = 0
        for k in range(n_windows):
            held[k] = present & windows[k]
            bits = 0
            for r in range(13):
                bits += (held[k] >> r) & 1
            if bits >= need:
                covered |= 1 << k
        fail[i] = _one_suited_hands(vectors[i], covered, held, parent, choose, one_suit, n_suits)
    return fail


@lru_cache(maxsize=4)
def _window_subsets(size: int) -> np.ndarray:
    """Rank masks of the ``size``-rank sets lying in some straight window (distinct)."""
    found = {
        sum(1 << r for r in subset) for w in five_straights() for subset in combinations(w, size)
    }
    return np.array(sorted(found), dtype=np.int64)


def _some_outside_windows(mask: np.ndarray, size: int) -> np.ndarray:
    """Do the rank masks hold ``size`` ranks lying in no straight window: more ``size``-sets
    than those inside windows."""
    distinct = np.zeros(len(mask), dtype=np.int64)
    for r in range(N_RANKS):
        distinct += (mask >> r) & 1
    inside = np.zeros(len(mask), dtype=np.int64)
    for sub in _window_subsets(size).tolist():
        inside += (mask & sub) == sub
    sets = np.array([comb(int(d), size) for d in range(N_RANKS + 1)], dtype=np.int64)
    return sets[distinct] > inside


def _suit_holds_flush(vector: np.ndarray, jokers: int, pattern: str) -> np.ndarray:
    """Does one suit's cards (rank counts, ``int8[n, 13]``) with ``jokers`` jokers make a dun of
    exactly ``pattern`` (straight flush, or flush)?

    Straight flush: ``5 - jokers`` of its ranks in one window.  Flush: five of its cards not a
    straight flush; or with a joker four cards neither four ranks of a window nor two pairs
    (a full house), that is one pair and two other ranks, or four ranks in no window; or with
    two jokers three ranks in no window (a pair among three would make quads).
    """
    bits = (vector > 0).astype(np.int64) << np.arange(N_RANKS, dtype=np.int64)
    mask = bits.sum(axis=1)
    distinct = (vector > 0).sum(axis=1)
    if pattern == "straight-flush":
        best = np.zeros(len(vector), dtype=np.int64)
        for w in WINDOWS:
            inside = np.zeros(len(vector), dtype=np.int64)
            for r in range(N_RANKS):
                if w >> r & 1:
                    inside += (mask >> r) & 1
            best = np.maximum(best, inside)
        return best >= 5 - jokers
    out = _suit_pattern_holds(vector, "flush")
    if jokers >= 1:
        pairs = (vector >= 2).sum(axis=1)
        out = out | ((pairs >= 1) & (distinct >= 3)) | _some_outside_windows(mask, 4)
    if jokers >= 2:
        out = out | _some_outside_windows(mask, 3)
    return out


def _hands_without(shape: DeckShape, n: int, allowed: np.ndarray, jokers: int, pattern: str) -> int:
    """Natural hands of ``n`` cards (of the ``allowed`` ranks) none of whose suits makes
    ``pattern`` with the ``jokers``: [x^n] P(x)^n_suits over one suit's card sets P."""
    poly = [0] * (n + 1)
    ways = np.array([comb(shape.decks, k) for k in range(shape.decks + 1)], dtype=np.int64)
    for size in range(n + 1):
        vectors = rank_vectors(size, shape.decks)
        vectors = vectors[(vectors[:, ~allowed] == 0).all(axis=1)]
        if not len(vectors):
            continue
        keep = ~_suit_holds_flush(vectors, jokers, pattern)
        poly[size] = int(ways[vectors[keep]].prod(axis=1).sum())
    total = [1] + [0] * n
    for _ in range(shape.n_suits):
        total = [sum(total[i] * poly[k - i] for i in range(k + 1)) for k in range(n + 1)]
    return total[n]
