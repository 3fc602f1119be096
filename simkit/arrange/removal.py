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

A finer first-order model prices each hand on its own: the **card-removal model**
(:class:`RemovalModel`), a linear map from the hand's :func:`card_features` (how many of each
rank it holds, how its suits are spread) to the shift of every class's win chance, fitted to
the exact shifts a pool of hands gives (:func:`simkit.arrange.conditioned.fit_removal_model`).
A hand sets 18 or so of the 62 features, so a class's shift is that many sums:
expected-score's ``conditioning`` reads it instead of counting the pool
(:mod:`simkit.arrange.conditioned`).
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field, replace
from functools import lru_cache
from pathlib import Path
from typing import Any

import numba as nb
import numpy as np

from simkit.arrange.wintables import WinTables, shipped_table_path
from simkit.cards import N_RANKS, N_SUITS, check_plain_deck, rank_of

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


#: A suit holding this many cards or more counts as holding this many (:func:`card_features`).
SUIT_COUNT_CAP = 8
#: :func:`card_features`: a constant, four indicators per rank (it holds 1, 2, 3 or 4 of it),
#: and a count of suits per suit length 0..SUIT_COUNT_CAP.
N_CARD_FEATURES = 1 + 4 * N_RANKS + SUIT_COUNT_CAP + 1
_SUIT_FEATURES = 1 + 4 * N_RANKS  # where the suit lengths' counts begin
#: Most features one hand sets (:func:`hand_features`): the constant, 13 ranks, 4 suits.
MAX_HAND_FEATURES = 1 + N_RANKS + N_SUITS


def card_features(rows: np.ndarray) -> np.ndarray:
    """``float64 (n, N_CARD_FEATURES)``: the card-removal model's features of hands ``rows``
    ``(n, 13)`` (one deck): 1; for each rank ``r`` and count ``k`` in 1..4, whether the hand
    holds exactly ``k`` cards of rank ``r`` (at ``1 + (k - 1) * 13 + r``); and for each
    length ``l`` in 0..8, how many suits hold ``l`` cards (8 or more count as 8).

    What the opponents can hold follows from these: pairs and trips of a rank from its
    count, flushes from the suit lengths (the fine classes do not name a suit, so a suit's
    length matters and not which suit it is)."""
    rows = np.ascontiguousarray(rows, dtype=np.int64)
    check_plain_deck(rows, "card features need")
    out = np.zeros((rows.shape[0], N_CARD_FEATURES), dtype=np.float64)
    _features_kernel(rows, out)
    return out


@nb.njit(cache=True)
def _features_kernel(rows, out):
    """:func:`card_features` into ``out``: each hand's :func:`hand_features` counted."""
    active = np.empty(MAX_HAND_FEATURES, dtype=np.int64)
    for h in range(rows.shape[0]):
        for j in range(hand_features(rows[h], active)):
            out[h, active[j]] += 1.0


@nb.njit(cache=True)
def hand_features(hand, out):
    """The features :func:`card_features` sets for one hand, as column indices in ``out``
    (a column once per unit: a suit length shared by two suits appears twice), in the order
    the model sums them: the constant, the ranks upward, the suits.  Returns how many."""
    counts = np.zeros(N_RANKS, dtype=np.int64)
    lengths = np.zeros(N_SUITS, dtype=np.int64)
    for i in range(hand.shape[0]):
        counts[hand[i] >> 2] += 1
        lengths[hand[i] & 3] += 1
    out[0] = 0
    n = 1
    for r in range(N_RANKS):
        if counts[r] > 0:
            out[n] = 1 + (counts[r] - 1) * N_RANKS + r
            n += 1
    for s in range(N_SUITS):
        out[n] = _SUIT_FEATURES + min(lengths[s], SUIT_COUNT_CAP)
        n += 1
    return n


@dataclass(frozen=True)
class RemovalModel:
    """The card-removal model of one table file: hand ``x``'s shift of the win chance of
    class ``c`` in dun ``d`` is ``Σ_f weights[d, c, f] · x_f`` over its
    :func:`card_features` ``x`` (the constant feature carries the shift every hand shares).

    ``weights``: ``float32 (3, N_FINE, N_CARD_FEATURES)``, a class's row contiguous (the
    kernel reads the 18 or so features a hand sets from it); ``meta``: how it was fitted,
    and ``fitted_on``, the :func:`model_key` of the tables and pool setter it was fitted for
    (a model applies to those only)."""

    weights: np.ndarray
    meta: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        w = self.weights
        if w.ndim != 3 or w.shape[0] != 3 or w.shape[2] != N_CARD_FEATURES:
            raise ValueError(
                f"a removal model's weights must be (3, N, {N_CARD_FEATURES}), got {w.shape}"
            )
        if w.dtype != np.float32 or not w.flags.c_contiguous:
            raise ValueError("a removal model's weights must be C-contiguous float32")
        if not np.isfinite(w).all():
            raise ValueError("a removal model's weights must be finite")

    def check_fits(self, tables: WinTables) -> None:
        """Refuse tables whose classes are not the model's (a model of other tables)."""
        if self.weights.shape[:2] != tables.win.shape:
            raise ValueError(
                f"a removal model of {self.weights.shape[:2]} classes does not fit tables of "
                f"{tables.win.shape}"
            )

    def shift(self, row: np.ndarray) -> np.ndarray:
        """``float64 (3, N_FINE)``: the hand ``row``'s shift of every class's win chance,
        its features' weights summed one at a time in :func:`hand_features`' order (as the
        kernel sums them, so the two agree to the last bit)."""
        active = np.empty(MAX_HAND_FEATURES, dtype=np.int64)
        n = hand_features(np.asarray(row, dtype=np.int64), active)
        out = np.zeros(self.weights.shape[:2], dtype=np.float64)
        for f in active[:n]:
            out = out + self.weights[..., f].astype(np.float64)
        return out

    def save(self, path: str | Path) -> None:
        """Write the model to ``path`` as a compressed ``.npz``: the weights as float16 (see
        below) and the meta as JSON.  :meth:`load` reads it back."""
        # float16 on disk: 5e-4 relative, a few 1e-5 of a shift, where the fit leaves 5e-3
        np.savez_compressed(
            path,
            weights=self.weights.astype(np.float16),
            meta=np.array(json.dumps(self.meta, ensure_ascii=False)),
        )

    @classmethod
    def load(cls, path: str | Path) -> RemovalModel:
        """The model :meth:`save` wrote to ``path``, its weights as C-contiguous float32.
        Raises ``OSError`` for a missing file, ``KeyError`` for an ``.npz`` without ``weights``
        or ``meta``, ``ValueError`` for weights of the wrong shape or not finite."""
        with np.load(path, allow_pickle=False) as z:
            return cls(
                weights=np.ascontiguousarray(z["weights"], dtype=np.float32),
                meta=json.loads(str(z["meta"])),
            )


def tables_fingerprint(tables: WinTables) -> str:
    """A digest of what a removal model is fitted against: the tables' chances, pay and
    the meta entries that change the strategy (objective weights, place model)."""
    h = hashlib.sha256()
    for a in (tables.win, tables.tie, tables.lose_pay):
        h.update(np.ascontiguousarray(a, dtype=np.float64).tobytes())
    meta = {k: tables.meta.get(k) for k in ("objective_weights", "place_model")}
    h.update(json.dumps(meta, sort_keys=True).encode())
    return h.hexdigest()


def model_key(tables: WinTables, setter: str) -> dict[str, str]:
    """What a removal model was fitted for: the tables (:func:`tables_fingerprint`) and the
    strategy that set the pool its shifts were counted on (its repr)."""
    return {"tables": tables_fingerprint(tables), "setter": setter}


#: The suffix of a shipped removal model's file name, beside its fine tables.
MODEL_SUFFIX = "-removal-model"


def removal_model_path(variant_name: str, n_players: int) -> Path:
    """Where the removal model of ``variant_name``'s fine tables at ``n_players`` ships:
    ``simkit/data/<variant>-<players>p-fine-removal-model.npz``."""
    fine = shipped_table_path(variant_name, n_players, fine=True)
    return fine.with_name(fine.stem + MODEL_SUFFIX + fine.suffix)


@lru_cache(maxsize=64)  # a few models ship; the lookups that miss are cached too
def shipped_removal_model(variant_name: str, n_players: int) -> RemovalModel | None:
    """The removal model shipped for ``variant_name`` at ``n_players`` (read once a
    process), None where none ships."""
    path = removal_model_path(variant_name, n_players)
    return RemovalModel.load(path) if path.exists() else None
