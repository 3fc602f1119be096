"""Card removal in expected-score's tables: the opponents' duns shifted by what the hand holds.

The fine tables count every dun against opponents dealt independently of the hand that played
it (:data:`simkit.train.FINE_OTHER_DEALS`), so they price a dun as if the other 39 cards were
any 39.  They are not: a hand holding three aces leaves the opponents one, and their fronts
and pairs are weaker for it.  A first-order part of that is put back by bucket: every hand
falls in one of :data:`N_REMOVAL_BUCKETS` buckets by its count of aces (0-4), kings (0-3, 3
meaning three or more) and queens (likewise), and a table file may carry ``removal``, an
``(N_REMOVAL_BUCKETS, 3, N_FINE)`` array of shifts: for each bucket and dun, the opponents'
mid-CDF over fine classes when they face a hand of that bucket, minus the pooled one
(:func:`simkit.train.removal_shifts` measures it from self-play).  A hand of bucket ``b`` is
then valued with :func:`shifted_tables`: the win chance of each of its dun classes raised by
the shift (the opponents' duns sit lower) and the lose chance lowered by as much.  The search
is the same search on those tables, so its answers are still those of the exhaustive scan
under the hand's own objective.

Only a deck of one of each card is bucketed this way (aces are clipped at 4 otherwise).
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from simkit.arrange.wintables import WinTables
from simkit.cards import rank_of

#: Buckets by (aces 0-4) × (kings 0-3+) × (queens 0-3+).
N_REMOVAL_BUCKETS = 80

_ACE, _KING, _QUEEN = 12, 11, 10  # ranks of simkit.cards.rank_of (2 is 0)


def removal_buckets(rows: np.ndarray) -> np.ndarray:
    """The removal bucket of each hand: ``int64 (...)`` from card ints ``(..., 13)``.

    ``(aces * 4 + min(kings, 3)) * 4 + min(queens, 3)``, aces clipped at 4.
    """
    rank = rank_of(rows)
    aces = np.minimum((rank == _ACE).sum(axis=-1), 4)
    kings = np.minimum((rank == _KING).sum(axis=-1), 3)
    queens = np.minimum((rank == _QUEEN).sum(axis=-1), 3)
    return ((aces * 4 + kings) * 4 + queens).astype(np.int64)


def mid_cdf(counts: np.ndarray) -> np.ndarray:
    """The mid-CDF of counts over ordered classes (the last axis): the share below each plus
    half its own.  A dun of a class wins against a population by this much more than half
    the ties: the difference of two of them is a shift of the win chance."""
    # twice the count below plus the count at, over twice the total: counts are whole
    # numbers, so this is exact up to one rounding (what the conditioned kernel computes)
    total = np.maximum(counts.sum(axis=-1, keepdims=True), 1.0)
    return (2.0 * np.cumsum(counts, axis=-1) - counts) / (2.0 * total)


def shifted_tables(base: WinTables, shift: np.ndarray) -> WinTables:
    """``base`` with each class's win chance raised by ``shift`` ``(3, N)`` and its lose chance
    lowered as much (both clipped to [0, 1]; the tie chance takes the rest), other fields
    kept.  The result carries no shifts of its own."""
    win = np.clip(base.win + shift, 0.0, 1.0)
    lose = np.minimum(np.clip(1.0 - base.win - base.tie - shift, 0.0, 1.0), 1.0 - win)
    return replace(base, win=win, tie=1.0 - win - lose, removal=None)


def bucket_tables(base: WinTables) -> tuple[WinTables, ...]:
    """The tables of every removal bucket (``base`` shifted by each of its ``removal``
    shifts); ``(base,)`` where it carries none."""
    if base.removal is None:
        return (base,)
    return tuple(shifted_tables(base, s) for s in base.removal)
