"""Card removal of the hand itself: expected-score's tables conditioned on the 13 cards it holds.

The fine tables price a dun against opponents dealt independently of the hand that plays it
(:data:`simkit.train.FINE_OTHER_DEALS`).  They are not independent: a hand holding four aces
and three kings leaves the opponents no pair of either, and its front of K-K-7 then loses
only to trips.  Removal buckets (:mod:`simkit.arrange.removal`) put back an average of that
over hands alike in aces, kings and queens, or in shape; on guangxi neither gains (the docs'
studies page): the hands a bucket pools differ in the cards that matter.  Here every hand
gets its own.

A **pool** of hands set by the strategy and played normally (about 130,000, dealt from a fixed
seed: :func:`~simkit.arrange.api.removal_pool`) stands for the opponents.  For one hand,
the pool hands that share no card with it are the opponents it can meet (C(39,13)/C(52,13),
1.3% of them: some 1,650); per
dun, their fine classes' mid-CDF (the share below each class plus half the share at it;
:func:`~simkit.arrange.removal.mid_cdf`) minus
the whole pool's is how much more often than the tables say a dun of that class wins against
this hand's opponents.  That shift, shrunk toward none by ``k / (k + prior)`` for ``k``
compatible hands (:data:`SHRINK_PRIOR`: the pool's sampling noise would otherwise move
near-equal splits), raises the win chance of every class and lowers its lose chance, as
:func:`~simkit.arrange.removal.shifted_tables` does for a bucket; the search is then the usual
exact search on the hand's own tables.

:func:`hand_tables` builds those tables with numpy (the reference, and what
a card-removal model is fitted against); the kernel
:func:`_conditioned_kernel` builds the same quantities to the last bit in buffers, one hand at a
time, and runs :func:`~simkit.arrange.search.max_ev_kernel` on them.  It builds them only at
the classes the search reads (the hand's own fronts and 5-card duns: some 150 of each, of
4,840), and counts the compatible hands by bit sets: for each dun, the pool hands in the order
of that dun's class, and for every card the ones that hold it, so that the hands compatible
with a 13-card hand are the complement of 13 ORed sets, and those below a class a count of
bits (:func:`_condition`).  A hand costs about two and a half times what expected-score's
search costs (the bit sets, then the search).

A hand's shift can also be read instead of counted: the **card-removal model**
(:class:`~simkit.arrange.removal.RemovalModel`) is a linear function of the hand's card
features fitted to the exact shifts of a larger pool (:func:`fit_removal_model`), shipped for
guangxi and guangxi-regional at 4 players.  The kernel then sums the weights of the 18 or so
features a hand sets at each class (:func:`_model_condition`) instead of ORing the pool's bit
sets, needs no pool, and averages the pool's sampling noise out over the fit's hands (no
shrinkage); :func:`model_ids` and :func:`model_tables` are its search and its numpy
reference.  :class:`~simkit.arrange.strategies.ExpectedScore` reads it where it fits (its
``conditioning``).

One plain deck only (a card held twice cannot be told apart by a bit).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numba as nb
import numpy as np

from simkit.arrange.classes import N_DUNS, fine_classes, n_fine_classes
from simkit.arrange.removal import (
    MAX_HAND_FEATURES,
    N_CARD_FEATURES,
    RemovalModel,
    card_features,
    hand_features,
    mid_cdf,
    shifted_tables,
)
from simkit.arrange.search import Solver, SolverStack, max_ev_kernel, walk_tables
from simkit.arrange.subsets import rank_subsets
from simkit.arrange.value import PAYOUT_PARAMS
from simkit.arrange.wintables import WinTables
from simkit.cards import DECK_SIZE, check_plain_deck
from simkit.splits import N_FIVE, N_THREE

#: Pool hands dealt for the conditioning (those that declare a special are left out): fewer
#: cost regret by the pool's sampling noise (the docs' studies page).
POOL_HANDS = 131072
#: The pool's seed: the pool, and so the strategy, is a fixed function of the tables.
POOL_SEED = 20261204
#: Compatible hands at which a hand's shift is shrunk by half.  Chosen at 300 on the probe
#: hands with a first pool (of another seed) where 100, 200, 300 and 500 gave 0.0183, 0.0177,
#: 0.0163 and 0.0255; on the shipped pool priors 0 to 1000 lie within 0.0147-0.0164 (the same
#: within noise) and only the small pools gain from shrinking.
SHRINK_PRIOR = 300.0


@dataclass(frozen=True)
class Pool:
    """The opponents a hand's tables are conditioned on.

    ``classes``: ``int16 (n, 3)`` fine classes of the pool hands' duns; ``masks``: ``uint64
    (n,)`` the cards each holds as bits; ``dun_bits``: ``uint64 (3, 52, ceil(n / 64))``: for
    each dun ``d`` and card, the pool hands that hold the card as bits, the hands taken in
    the order of their dun ``d``'s class (weakest first); ``dun_starts``: ``int64 (3, N_FINE
    + 1)`` where each class begins in that order, so that the hands of dun ``d`` below class
    ``c`` are the first ``dun_starts[d, c]``; ``pooled``: ``float64 (3, N_FINE)`` the mid-CDF
    by dun the shift is measured from: the whole pool's.
    """

    classes: np.ndarray
    masks: np.ndarray
    dun_bits: np.ndarray
    dun_starts: np.ndarray
    pooled: np.ndarray


def card_masks(rows: np.ndarray) -> np.ndarray:
    """``uint64 (n,)``: the cards of each hand ``rows`` ``(n, 13)`` (one deck) as bits."""
    rows = np.asarray(rows)
    check_plain_deck(rows, "card masks need")
    return np.bitwise_or.reduce(np.uint64(1) << rows.astype(np.uint64), axis=-1)


def make_pool(cards: np.ndarray, ranks: np.ndarray) -> Pool:
    """The :class:`Pool` of hands that play normally: their cards ``(n, 13)`` and dun ranks
    ``(n, 3)``."""
    cards = np.asarray(cards)
    n = cards.shape[0]
    if n < 1 or cards.shape[1:] != (13,) or np.shape(ranks) != (n, N_DUNS):
        raise ValueError(f"a pool needs cards (n, 13) and ranks (n, 3), got {cards.shape}")
    # int16: half the bytes of int32 (the numpy reference reads them)
    classes = np.ascontiguousarray(fine_classes(ranks), dtype=np.int16)
    masks = card_masks(cards)
    n_fine = n_fine_classes()
    n_words = -(-n // 64)
    dun_bits = np.empty((N_DUNS, DECK_SIZE, n_words), dtype=np.uint64)
    dun_starts = np.empty((N_DUNS, n_fine + 1), dtype=np.int64)
    for d in range(N_DUNS):
        order = np.argsort(classes[:, d], kind="stable")
        dun_starts[d] = np.searchsorted(classes[order, d], np.arange(n_fine + 1), side="left")
        dun_bits[d] = _card_bits(masks[order], n_words)
    counts = _class_counts(classes)
    return Pool(classes, masks, dun_bits, dun_starts, mid_cdf(counts))


def _card_bits(masks: np.ndarray, n_words: int) -> np.ndarray:
    """``uint64 (52, n_words)``: row ``c``, bit ``j`` (little-endian within each 64-bit word)
    set when hand ``j`` of ``masks`` holds card ``c``."""
    holds = (masks[None, :] >> np.arange(DECK_SIZE, dtype=np.uint64)[:, None]) & np.uint64(1)
    padded = np.zeros((DECK_SIZE, n_words * 64), dtype=np.uint8)
    padded[:, : masks.shape[0]] = holds
    return np.packbits(padded, axis=1, bitorder="little").view("<u8").astype(np.uint64)


def _class_counts(classes: np.ndarray) -> np.ndarray:
    """``float64 (3, N_FINE)``: how many of the hands' duns ``classes`` ``(n, 3)`` fall in each
    fine class, by dun."""
    n_fine = n_fine_classes()
    return np.stack([np.bincount(classes[:, d], minlength=n_fine) for d in range(N_DUNS)]).astype(
        np.float64
    )


def hand_shift(row: np.ndarray, pool: Pool, prior: float = SHRINK_PRIOR) -> np.ndarray:
    """``float64 (3, N_FINE)``: the shift of the win chances for the hand ``row`` (its card
    ints, ``(13,)``): the compatible pool hands' mid-CDF minus the pool's, shrunk by
    ``k / (k + prior)``."""
    ok = (pool.masks & card_masks(np.asarray(row)[None])[0]) == 0
    k = int(ok.sum())
    if k == 0:
        return np.zeros_like(pool.pooled)
    return (mid_cdf(_class_counts(pool.classes[ok])) - pool.pooled) * (k / (k + prior))


def hand_tables(
    base: WinTables, row: np.ndarray, pool: Pool, prior: float = SHRINK_PRIOR
) -> WinTables:
    """``base`` conditioned on the hand ``row``: each class's win chance raised by
    :func:`hand_shift` and its lose chance lowered as much (clipped as
    :func:`~simkit.arrange.removal.shifted_tables` clips them)."""
    return shifted_tables(base, hand_shift(row, pool, prior))


#: De Bruijn sequence B(2, 6): the top 6 bits of ``2**i * _DE_BRUIJN`` (mod 2**64) are
#: distinct for i = 0..63, so they index the position of a lone set bit.
_DE_BRUIJN = 0x03F79D71B4CB0A89
_DE_BRUIJN_POSITION = np.argsort([((2**i * _DE_BRUIJN) % 2**64) >> 58 for i in range(64)])


@nb.njit(cache=True, inline="always")
def _lowest_bit(x):
    """The index of the lowest set bit of a nonzero uint64 (one multiply and a lookup)."""
    low = x & (~x + np.uint64(1))
    return _DE_BRUIJN_POSITION[(low * np.uint64(_DE_BRUIJN)) >> np.uint64(58)]


@nb.njit(cache=True, inline="always")
def _mark(bits, d, c):
    """Set bit ``c`` of row ``d`` of the bit sets ``bits`` ``uint64 (3, words)``."""
    bits[d, c >> 6] |= np.uint64(1) << np.uint64(c & 63)


@nb.njit(cache=True, inline="always")
def _popcount(x):
    """Set bits of a uint64 (the bit-parallel sum; LLVM emits the popcount instruction)."""
    x = x - ((x >> np.uint64(1)) & np.uint64(0x5555555555555555))
    x = (x & np.uint64(0x3333333333333333)) + ((x >> np.uint64(2)) & np.uint64(0x3333333333333333))
    x = (x + (x >> np.uint64(4))) & np.uint64(0x0F0F0F0F0F0F0F0F)
    return np.int64((x * np.uint64(0x0101010101010101)) >> np.uint64(56))


@nb.njit(cache=True, inline="always")
def _count_below(free, below, position):
    """Set bits of ``free`` before bit ``position``, ``below[w]`` holding those before word
    ``w``."""
    w = position >> 6
    part = position & 63
    if part == 0:
        return below[w]
    return below[w] + _popcount(free[w] & ((np.uint64(1) << np.uint64(part)) - np.uint64(1)))


@nb.njit(cache=True)
def _condition(
    hand, dun_bits, dun_starts, n_pool, pooled, win, tie, prior, fronts, fives, q, fav, sep,
    free, below, wanted, classes,
):  # fmt: skip
    """Write the hand's conditioned quantities in ``q``, ``fav``, ``sep`` (``[0]`` of each)
    at the classes the search reads: the hand's fronts ``fronts`` and 5-card duns ``fives``
    (their fine classes; repeats allowed), for the front also its 5-card classes up to its
    strongest front (a front's cap is the lesser of the strongest front and a middle).
    ``q`` and ``sep`` there are :func:`make_solver`'s on :func:`hand_tables` to the last bit;
    ``fav`` is the running best over those classes alone, which bounds every split of the
    hand (whose duns are among them) at least as tightly as the running best over all
    classes.  Classes the search does not read are left as they were.

    For each dun the compatible pool hands are the complement of the 13 ORed card rows of
    its class order (up to the hand's strongest class of that dun), so the compatible hands
    below a class are a count of bits before the class's start (running counts by word,
    ``below``); the mid-CDF is then those counts (twice those below plus those at it, over
    twice the compatible hands: exact integers and one division, as
    :func:`~simkit.arrange.removal.mid_cdf`).  ``win``, ``tie``: the base
    tables' ``float64 (3, N_FINE)``; ``q``, ``fav`` hold the base solver's win points and
    lose pay already (the shift leaves them); ``free`` ``uint64 (words,)``, ``below`` ``int64
    (words + 1,)``, ``classes`` ``int64 (N_FINE,)``: scratch; ``wanted`` ``uint64 (3,
    ceil(N_FINE / 64))``: zeros, left zero."""
    top_front = fronts.max()
    top_five = fives.max()
    _mark_wanted(fronts, fives, wanted)
    all_words = dun_bits.shape[2]
    tail = np.uint64(0xFFFFFFFFFFFFFFFF)
    if n_pool % 64:
        tail = (np.uint64(1) << np.uint64(n_pool % 64)) - np.uint64(1)
    k = 0
    shrink = 0.0
    twice = 2.0
    for d in (1, 0, 2):
        # the middle's order counts every compatible hand (the same in every order); the
        # front and back only need the hands up to the hand's strongest class of theirs
        n_words = all_words
        if d != 1:
            top = top_front if d == 0 else top_five
            n_words = min(all_words, (dun_starts[d, top + 1] >> 6) + 1)
        free[:n_words] = 0
        for i in range(hand.shape[0]):  # a card's row at a time: contiguous, so it vectorizes
            row = dun_bits[d, hand[i]]
            for w in range(n_words):
                free[w] |= row[w]
        for w in range(n_words):
            free[w] = ~free[w]
        if n_words == all_words:
            free[n_words - 1] &= tail
        total = 0
        for w in range(n_words):
            below[w] = total
            total += _popcount(free[w])
        below[n_words] = total
        if d == 1:
            k = total
            shrink = k / (k + prior) if k > 0 else 0.0
            twice = 2.0 * max(k, 1)
        top_w = -np.inf
        low_l = np.inf
        for i in range(_take_wanted(wanted, d, classes)):
            c = classes[i]
            at_or_below = _count_below(free, below, dun_starts[d, c + 1])
            under = _count_below(free, below, dun_starts[d, c])
            mid = (under + at_or_below) / twice
            top_w, low_l = set_quantities(
                (mid - pooled[d, c]) * shrink, d, c, win, tie, q, fav, sep, top_w, low_l
            )
    return k


@nb.njit(cache=True, inline="always")
def _take_wanted(wanted, d, classes):
    """The classes marked in row ``d`` of ``wanted``, weakest first, into ``classes``; the
    row is left zero.  Returns how many."""
    n = 0
    for w in range(wanted.shape[1]):
        x = wanted[d, w]
        wanted[d, w] = 0
        while x:
            classes[n] = w * 64 + _lowest_bit(x)
            n += 1
            x &= x - np.uint64(1)
    return n


@nb.njit(cache=True, inline="always")
def _mark_wanted(fronts, fives, wanted):
    """Mark in ``wanted`` the classes the search reads: the fronts ``fronts`` (row 0), the
    5-card duns ``fives`` (rows 1 and 2), and the 5-card classes up to the strongest front
    (row 0: a front's cap is the lesser of the strongest front and a middle)."""
    top_front = fronts.max()
    for i in range(fronts.shape[0]):
        _mark(wanted, 0, fronts[i])
    for i in range(fives.shape[0]):
        c = fives[i]
        _mark(wanted, 1, c)
        if c <= top_front:
            _mark(wanted, 0, c)
    wanted[2, :] = wanted[1, :]


@nb.njit(cache=True, inline="always")
def set_quantities(s, d, c, win, tie, q, fav, sep, top_w, low_l):
    """Write class ``c`` of dun ``d``'s quantities with its win chance shifted by ``s`` (as
    :func:`~simkit.arrange.removal.shifted_tables` shifts it, then :func:`make_solver`):
    ``q[0]``'s win and lose chances, ``sep[0]``, and ``fav[0]`` as the running best of the
    classes written so far (``top_w``, ``low_l``, returned updated)."""
    w0 = win[d, c]
    w1 = min(max(w0 + s, 0.0), 1.0)
    l1 = min(min(max(1.0 - w0 - tie[d, c] - s, 0.0), 1.0), 1.0 - w1)
    t1 = 1.0 - w1 - l1
    # ev_quantities on the shifted tables: win, tie clipped, lose the rest
    t2 = min(max(t1, 0.0), 1.0 - w1)
    l2 = min(max(1.0 - w1 - t2, 0.0), 1.0)
    q[0, d, c, 0] = w1
    q[0, d, c, 1] = l2
    # favourable_quantities, in float64 before the cast as make_solver does
    top_w = max(top_w, w1)
    low_l = min(low_l, l2)
    fav[0, d, c, 0] = top_w
    fav[0, d, c, 1] = min(low_l, 1.0 - top_w)
    sep[0, d, c] = np.float64(q[0, d, c, 0]) * np.float64(q[0, d, c, 2]) - np.float64(
        q[0, d, c, 1]
    ) * np.float64(q[0, d, c, 3])
    return top_w, low_l


@nb.njit(cache=True)
def _model_condition(hand, weights, win, tie, fronts, fives, q, fav, sep, wanted, active, classes):
    """:func:`_condition` with the shift read from a card-removal model
    (:class:`~simkit.arrange.removal.RemovalModel`'s ``weights``) instead of counted over a
    pool: at each wanted class the weights of the features the hand sets, summed in
    :meth:`~simkit.arrange.removal.RemovalModel.shift`'s order (so the two agree to the last
    bit).  ``active`` ``int64 (MAX_HAND_FEATURES,)``, ``classes`` ``int64 (N_FINE,)``:
    scratch."""
    n_active = hand_features(hand, active)
    _mark_wanted(fronts, fives, wanted)
    for d in range(N_DUNS):
        top_w = -np.inf
        low_l = np.inf
        for i in range(_take_wanted(wanted, d, classes)):
            c = classes[i]
            row = weights[d, c]
            s = 0.0
            for j in range(n_active):
                s += np.float64(row[active[j]])
            top_w, low_l = set_quantities(s, d, c, win, tie, q, fav, sep, top_w, low_l)


@nb.njit(cache=True)
def _conditioned_kernel(
    hands, solver, tables, dun_bits, dun_starts, n_pool, pooled, win, tie, prior, weights,
    use_model, out, values, n_scored, n_compatible,
):  # fmt: skip
    """The exact search of every hand on its own conditioned tables: the shift counted over
    the pool (:func:`_condition`), or read from a card-removal model where ``use_model``
    (:func:`_model_condition`; ``n_compatible`` is then -1, and the pool's arrays are not
    read).  ``solver``: the base solver (:class:`~simkit.arrange.search.SolverData`; its
    ``q``, ``fav`` the pooled tables' quantities, its ``p`` may price the home run against by
    its own rate, ``home_rate``: the full search of expected-score-rerank's objective);
    ``tables``: :class:`~simkit.arrange.search.WalkTables`."""
    q0, fav0, rt = solver.q, solver.fav, tables.rt
    q = q0.copy().reshape((1, *q0.shape))  # win points and lose pay kept from the base
    fav = fav0.copy().reshape((1, *fav0.shape))
    n_fine = q0.shape[1]
    sep = np.empty((1, q0.shape[0], q0.shape[1]), dtype=np.float64)
    one_params = np.empty(1, dtype=PAYOUT_PARAMS)
    one_params[0] = solver.p
    stack = SolverStack(
        q, fav, sep, one_params,
        solver.cop.copy().reshape((1, *solver.cop.shape)),
        np.full(1, solver.strict, dtype=np.int64), np.full(1, solver.horse, dtype=np.int64),
        np.full(1, solver.front_first, dtype=np.int64),
    )  # fmt: skip
    wanted = np.zeros((q0.shape[0], (n_fine + 63) // 64), dtype=np.uint64)
    free = np.empty(dun_bits.shape[2], dtype=np.uint64)
    below = np.empty(dun_bits.shape[2] + 1, dtype=np.int64)
    active = np.empty(MAX_HAND_FEATURES, dtype=np.int64)
    classes = np.empty(n_fine, dtype=np.int64)
    pick = np.zeros((1, 1), dtype=np.int64)
    r5 = np.empty(N_FIVE, dtype=np.int32)
    r3 = np.empty(N_THREE, dtype=np.int32)
    c5 = np.empty(N_FIVE, dtype=np.int32)
    c3 = np.empty(N_THREE, dtype=np.int32)
    for h in range(hands.shape[0]):
        # the classes of the hand's fronts and 5-card duns: the search reads no others
        rank_subsets(hands[h], rt, r5, r3, c5, c3)
        if use_model:
            _model_condition(
                hands[h], weights, win, tie, c3, c5, q, fav, sep, wanted, active, classes
            )
            n_compatible[h] = -1
        else:
            n_compatible[h] = _condition(
                hands[h], dun_bits, dun_starts, n_pool, pooled, win, tie, prior, c3, c5, q, fav,
                sep, free, below, wanted, classes,
            )  # fmt: skip
        max_ev_kernel(
            hands[h : h + 1], stack, tables, pick, out[:, h : h + 1], values[:, h : h + 1],
            n_scored[:, h : h + 1],
        )  # fmt: skip


def _search(
    rows: np.ndarray, solver: Solver, pool: Pool | None, prior: float, model: RemovalModel | None
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    tables = solver.tables
    if tables.win.shape != solver.q.shape[:2]:
        raise ValueError("conditioned search needs a solver on fine tables")
    if model is not None:
        model.check_fits(tables)
    rows = np.ascontiguousarray(rows)
    # the kernel indexes a card's bits and its rank's count by the card
    check_plain_deck(rows, "conditioned search needs")
    n = rows.shape[0]
    ids = np.empty((1, n, 3), dtype=np.int64)
    values = np.empty((1, n), dtype=np.float64)
    n_scored = np.empty((1, n), dtype=np.int64)
    n_compatible = np.empty(n, dtype=np.int64)
    if pool is None:  # not read: shapes the kernel can allocate its scratch from
        bits, starts, n_pool, pooled = _NO_POOL
    else:
        bits, starts, n_pool, pooled = (
            pool.dun_bits,
            pool.dun_starts,
            pool.masks.shape[0],
            pool.pooled,
        )
    weights = _NO_MODEL if model is None else model.weights
    _conditioned_kernel(
        rows, solver.data, walk_tables(solver.rank_tables), bits, starts, n_pool, pooled,
        np.ascontiguousarray(tables.win, dtype=np.float64),
        np.ascontiguousarray(tables.tie, dtype=np.float64), float(prior), weights,
        model is not None, ids, values, n_scored, n_compatible,
    )  # fmt: skip
    return ids[0], values[0], n_scored[0], n_compatible


_NO_POOL = (
    np.zeros((N_DUNS, DECK_SIZE, 1), dtype=np.uint64),
    np.zeros((N_DUNS, 2), dtype=np.int64),
    1,
    np.zeros((N_DUNS, 1), dtype=np.float64),
)
_NO_MODEL = np.zeros((N_DUNS, 1, N_CARD_FEATURES), dtype=np.float32)


def conditioned_ids(
    rows: np.ndarray, solver: Solver, pool: Pool, prior: float = SHRINK_PRIOR
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The search of every hand of ``rows`` on ``solver``'s tables conditioned on its own
    cards: split ids ``(n, 3)``, expected scores, splits scored and compatible pool hands
    per hand.  ``solver`` must be built on fine tables (``solver.tables``) with no removal
    buckets."""
    return _search(rows, solver, pool, prior, None)


def model_ids(
    rows: np.ndarray, solver: Solver, model: RemovalModel
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """:func:`conditioned_ids` with each hand's shift read from the card-removal model
    ``model`` (:func:`model_tables` are the tables it searches): split ids ``(n, 3)``,
    expected scores and splits scored per hand."""
    ids, values, n_scored, _ = _search(rows, solver, None, 0.0, model)
    return ids, values, n_scored


def model_tables(base: WinTables, row: np.ndarray, model: RemovalModel) -> WinTables:
    """``base`` conditioned on the hand ``row`` by the card-removal model: each class's win
    chance raised by :meth:`~simkit.arrange.removal.RemovalModel.shift` (the numpy reference
    of :func:`model_ids`' tables)."""
    return shifted_tables(base, model.shift(np.asarray(row)))


#: Hands whose exact shifts a removal model is fitted to (:func:`fit_removal_model`).
FIT_HANDS = 20000
#: Their deal's seed (neither the regret protocol's nor the probes').
FIT_SEED = 777
#: The ridge of the fit, as a share of the features' mean square (the suit lengths' counts
#: add up to 4, the constant's, so the plain normal equations are singular).
FIT_RIDGE = 1e-3


def fit_removal_model(
    pool: Pool, *, n_hands: int = FIT_HANDS, seed: int = FIT_SEED, ridge: float = FIT_RIDGE
) -> tuple[RemovalModel, dict[str, float]]:
    """Fit a card-removal model to ``pool``'s exact shifts (:func:`hand_shift` without
    shrinkage) of ``n_hands`` hands dealt from ``seed``: :func:`fit_linear_shifts`.  Its
    figures gain ``noise_rms``: the root mean square, over the classes, of the sampling
    noise of a shift counted over ``k`` compatible pool hands, ``√(p (1 − p) / k)`` at the
    pool's mid-CDF ``p`` and the fit's mean ``k`` (how much of ``rms_residual`` the pool's
    own noise would leave)."""
    from simkit.deal import deal

    rows = deal(-(-n_hands // 4), 4, rng=np.random.default_rng(seed)).reshape(-1, 13)[:n_hands]
    model, figures = fit_linear_shifts(rows, lambda row: hand_shift(row, pool, 0.0), ridge=ridge)
    k = float(np.mean([((pool.masks & m) == 0).sum() for m in card_masks(rows)]))
    p = pool.pooled
    figures["compatible_per_hand"] = k
    figures["noise_rms"] = float(np.sqrt((p * (1.0 - p)).mean() / k))
    return model, figures


def fit_linear_shifts(
    rows: np.ndarray,
    shift_of: Callable[[np.ndarray], np.ndarray],
    *,
    ridge: float = FIT_RIDGE,
    batch: int = 1000,
) -> tuple[RemovalModel, dict[str, float]]:
    """A card-removal model of the shifts ``shift_of(row)`` (``float64 (3, N)``) of hands
    ``rows``: a ridge regression of every class's shift on the hands'
    :func:`~simkit.arrange.removal.card_features`, its weights rounded as a model file keeps
    them (float16), so that the model fitted is the model shipped.

    Returns the model (its ``meta`` left to the caller) and figures of the fit:
    ``rms_exact`` and ``rms_residual``, the shifts' root mean square and their difference's
    from the model's."""
    rows = np.asarray(rows)
    n_hands = rows.shape[0]
    if n_hands < N_CARD_FEATURES:
        raise ValueError(f"a fit needs at least {N_CARD_FEATURES} hands, got {n_hands}")
    x = card_features(rows)
    xtx = x.T @ x
    xts: np.ndarray | None = None
    exact_sq = 0.0
    shape: tuple[int, ...] = ()
    for start in range(0, n_hands, batch):
        shifts = np.stack([shift_of(r) for r in rows[start : start + batch]])
        shape = shifts.shape[1:]
        flat = shifts.reshape(shifts.shape[0], -1)
        xts = x[start : start + batch].T @ flat + (0.0 if xts is None else xts)
        exact_sq += float((flat**2).sum())
    assert xts is not None
    lam = ridge * np.trace(xtx) / N_CARD_FEATURES
    beta = np.linalg.solve(xtx + lam * np.eye(N_CARD_FEATURES), xts)  # (features, 3 N)
    kept = beta.astype(np.float16).astype(np.float64)  # as the file keeps them
    model = RemovalModel(np.ascontiguousarray(kept.T.reshape(*shape, N_CARD_FEATURES), np.float32))
    # Σ_h |s_h - x_h W|² from the sums already made: no second pass over the exact shifts
    resid_sq = exact_sq - 2.0 * float((kept * xts).sum()) + float((kept * (xtx @ kept)).sum())
    size = n_hands * int(np.prod(shape))
    figures = {
        "rms_exact": float(np.sqrt(exact_sq / size)),
        "rms_residual": float(np.sqrt(max(resid_sq, 0.0) / size)),
    }
    return model, figures
