# Baseline of bench_conditioned.py: the conditioned kernel of simkit/arrange/conditioned.py at
# commit 8669b9d, verbatim (_condition, _conditioned_kernel, conditioned_ids), before the hand's
# quantities were built only at the classes its search reads, the compatible hands counted by
# bits in each dun's class order, and the search run on the subsets the conditioning ranked.
# Its pool held one set of card bits in the pool's own order and the mid-CDF as a running sum
# of shares: before_pool() builds those from a pool of today's.  The helpers it shares with
# the code as it is now are imported from there.
"""The conditioned kernel as it was at commit 8669b9d (see the comment above)."""

from typing import NamedTuple

import numba as nb
import numpy as np

from simkit.arrange.classes import coarse_of_fine
from simkit.arrange.conditioned import SHRINK_PRIOR, Pool, _card_bits, _class_counts, _lowest_bit
from simkit.arrange.search import (
    BACK_FRONT,
    BACK_MIDDLE,
    FIVE_SUBSETS,
    THREE_SUBSETS,
    Solver,
    _max_ev_kernel,
)
from simkit.arrange.subsets import _rank_subsets
from simkit.splits import N_FIVE, N_THREE


class PoolBefore(NamedTuple):
    """The pool as the kernel at 8669b9d read it."""

    classes: np.ndarray
    masks: np.ndarray
    card_bits: np.ndarray
    pooled: np.ndarray


def before_pool(pool: Pool) -> PoolBefore:
    """``pool`` in the layout of 8669b9d: card bits in the pool's order, the mid-CDF summed
    from shares (simkit.arrange.removal.mid_cdf as it was)."""
    counts = _class_counts(pool.classes)
    share = counts / np.maximum(counts.sum(axis=-1, keepdims=True), 1.0)
    pooled = np.cumsum(share, axis=-1) - 0.5 * share
    return PoolBefore(
        pool.classes, pool.masks, _card_bits(pool.masks, pool.dun_bits.shape[2]), pooled
    )


@nb.njit(cache=True)
def _condition(
    hand, card_bits, n_pool, classes, pooled, win, tie, prior, top, q, fav, sep, counts, free,
    share, cum, w_out, l_out,
):  # fmt: skip
    """Write the hand's conditioned quantities in ``q``, ``fav``, ``sep`` (``[0]`` of each)
    for the classes up to ``top[d]`` of each dun ``d``, the same to the last bit as
    :func:`make_solver` on :func:`hand_tables`.  Every quantity of a class is a function of
    the classes at or below it (the mid-CDF and the favourable quantities are running sums and
    maxima from the weakest class up), and the search reads none above the hand's strongest
    dun of each kind, so the classes above are left as they were.  ``win``, ``tie``: the base
    tables' ``float64 (3, N_FINE)``; ``q``, ``fav`` hold the base solver's win points and lose
    pay already (the shift leaves them); ``counts`` ``(3, N_FINE)`` zeros, left zero;
    ``free``, ``share``, ``cum``, ``w_out``, ``l_out``: scratch buffers."""
    n_words = card_bits.shape[1]
    free[:] = 0
    for i in range(hand.shape[0]):  # a card's row at a time: contiguous, so it vectorizes
        row = card_bits[hand[i]]
        for w in range(n_words):
            free[w] |= row[w]
    for w in range(n_words):
        free[w] = ~free[w]
    if n_pool % 64:
        free[n_words - 1] &= (np.uint64(1) << np.uint64(n_pool % 64)) - np.uint64(1)
    k = 0
    for w in range(n_words):
        x = free[w]
        while x:
            j = w * 64 + _lowest_bit(x)
            x &= x - np.uint64(1)
            for d in range(3):
                c = classes[j, d]
                if c <= top[d]:
                    counts[d, c] += 1
            k += 1
    n_fine = win.shape[1]
    shrink = k / (k + prior) if k > 0 else 0.0
    kk = max(k, 1) * 1.0
    for d in range(3):
        n_up = min(top[d] + 1, n_fine)
        # in passes, so that the independent ones vectorize
        for c in range(n_up):
            share[c] = counts[d, c] / kk
            counts[d, c] = 0
        acc = 0.0
        for c in range(n_up):
            acc += share[c]
            cum[c] = acc
        for c in range(n_up):
            s = (cum[c] - 0.5 * share[c] - pooled[d, c]) * shrink
            w0 = win[d, c]
            w1 = min(max(w0 + s, 0.0), 1.0)
            l1 = min(min(max(1.0 - w0 - tie[d, c] - s, 0.0), 1.0), 1.0 - w1)
            t1 = 1.0 - w1 - l1
            # ev_quantities on the shifted tables: win, tie clipped, lose the rest
            t2 = min(max(t1, 0.0), 1.0 - w1)
            w_out[c] = w1
            l_out[c] = min(max(1.0 - w1 - t2, 0.0), 1.0)
        top_w = -np.inf
        low_l = np.inf
        for c in range(n_up):
            w2 = w_out[c]
            l2 = l_out[c]
            q[0, d, c, 0] = w2
            q[0, d, c, 1] = l2
            # favourable_quantities, in float64 before the cast as make_solver does
            top_w = max(top_w, w2)
            low_l = min(low_l, l2)
            fav[0, d, c, 0] = top_w
            fav[0, d, c, 1] = min(low_l, 1.0 - top_w)
            sep[0, d, c] = np.float64(q[0, d, c, 0]) * np.float64(q[0, d, c, 2]) - np.float64(
                q[0, d, c, 1]
            ) * np.float64(q[0, d, c, 3])
    return k


@nb.njit(cache=True)
def _conditioned_kernel(
    hands, rt, back_middle, back_front, card_bits, n_pool, classes, pooled, win, tie, q0, fav0,
    prior, params, cops, stricts, horses, ties, five, three, group_of, out, values, n_scored,
    n_compatible,
):  # fmt: skip
    """The exact search of every hand on its own conditioned tables (:func:`_condition`)."""
    q = q0.copy().reshape((1, *q0.shape))  # win points and lose pay kept from the base
    fav = fav0.copy().reshape((1, *fav0.shape))
    n_fine = q0.shape[1]
    share = np.empty(n_fine)
    cum = np.empty(n_fine)
    w_out = np.empty(n_fine)
    l_out = np.empty(n_fine)
    sep = np.empty((1, q0.shape[0], q0.shape[1]), dtype=np.float64)
    counts = np.zeros((q0.shape[0], q0.shape[1]), dtype=np.int64)
    free = np.empty(card_bits.shape[1], dtype=np.uint64)
    pick = np.zeros((1, 1), dtype=np.int64)
    r5 = np.empty(N_FIVE, dtype=np.int32)
    r3 = np.empty(N_THREE, dtype=np.int32)
    c5 = np.empty(N_FIVE, dtype=np.int32)
    c3 = np.empty(N_THREE, dtype=np.int32)
    top = np.empty(3, dtype=np.int64)
    for h in range(hands.shape[0]):
        # the hand's strongest front and 5-card classes: the search reads none above them
        _rank_subsets(hands[h], rt, r5, r3, c5, c3)
        top[0] = c3.max()
        top[1] = top[2] = c5.max()
        n_compatible[h] = _condition(
            hands[h], card_bits, n_pool, classes, pooled, win, tie, prior, top, q, fav, sep,
            counts, free, share, cum, w_out, l_out,
        )  # fmt: skip
        _max_ev_kernel(
            hands[h : h + 1], rt, back_middle, back_front, q, fav, sep, params, cops, stricts,
            horses, ties, pick, five, three, group_of, out[:, h : h + 1], values[:, h : h + 1],
            n_scored[:, h : h + 1],
        )  # fmt: skip


def conditioned_ids(
    rows: np.ndarray, solver: Solver, pool: PoolBefore, prior: float = SHRINK_PRIOR
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The search of every hand of ``rows`` on ``solver``'s tables conditioned on its own
    cards: split ids ``(n, 3)``, expected scores, splits scored and compatible pool hands
    per hand.  ``solver`` must be built on fine tables (``solver.tables``) with no removal
    buckets."""
    tables = solver.tables
    if tables.win.shape != solver.q.shape[:2]:
        raise ValueError("conditioned search needs a solver on fine tables")
    rows = np.ascontiguousarray(rows)
    n = rows.shape[0]
    ids = np.empty((1, n, 3), dtype=np.int64)
    values = np.empty((1, n), dtype=np.float64)
    n_scored = np.empty((1, n), dtype=np.int64)
    n_compatible = np.empty(n, dtype=np.int64)
    _conditioned_kernel(
        rows, solver.rank_tables, BACK_MIDDLE, BACK_FRONT, pool.card_bits, pool.masks.shape[0],
        pool.classes, pool.pooled, np.ascontiguousarray(tables.win, dtype=np.float64),
        np.ascontiguousarray(tables.tie, dtype=np.float64), solver.q, solver.fav, float(prior),
        solver.model.params[None], solver.joint[None],
        np.array([solver.strict], dtype=np.int64), np.array([solver.horse_card], dtype=np.int64),
        np.array([solver.front_first], dtype=np.int64), FIVE_SUBSETS, THREE_SUBSETS,
        coarse_of_fine(), ids, values, n_scored, n_compatible,
    )  # fmt: skip
    return ids[0], values[0], n_scored[0], n_compatible
