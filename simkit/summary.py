"""Mergeable summaries of simulated games: counts, sums, sums of squares and histograms.

A run is cut into *blocks* of a fixed number of games; each block is summarized on its own and
the summaries are merged in block order, so the result never depends on how blocks were grouped
into chunks or spread over workers:

- ``counts`` (``int64`` arrays: event counts, histograms) merge by integer addition, which is
  exact in any order, so a chunk may pre-merge the counts of its blocks;
- ``sums`` (``float64`` arrays: sums of scores, squares, cross products) are *folded* one block
  at a time in block order (``((b0 + b1) + b2) + ...``), a fixed sequence of floating-point
  additions whatever the chunking.

Memory is that of one summary, whatever the number of games.  The helpers below turn arrays of
one block into these sums; :func:`moments` turns sums back into means, standard deviations and
standard errors.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from simkit.errors import SimkitError

#: Two-sided 95% normal quantile.
Z95 = 1.959963984540054


@dataclass
class Summary:
    """Counts and sums by key; ``n_games`` and ``n_blocks`` say how much they cover.

    A run files its arrays under :class:`simkit.statistics.Key`, which says what each holds.
    """

    counts: dict[Any, np.ndarray] = field(default_factory=dict)
    sums: dict[Any, np.ndarray] = field(default_factory=dict)
    n_games: int = 0
    n_blocks: int = 0

    def add_counts(self, counts: Mapping[Any, np.ndarray]) -> None:
        """Add integer counts (exact, so the order of calls does not matter)."""
        _add_into(self.counts, counts, np.int64)

    def fold_sums(self, sums: Mapping[Any, np.ndarray]) -> None:
        """Add one block's float sums; call in block order for reproducible results."""
        _add_into(self.sums, sums, np.float64)

    def equals(self, other: Summary) -> bool:
        """Exact equality of every array (bit for bit) and of the coverage."""
        if (self.n_games, self.n_blocks) != (other.n_games, other.n_blocks):
            return False
        for mine, theirs in ((self.counts, other.counts), (self.sums, other.sums)):
            if mine.keys() != theirs.keys():
                return False
            if any(not np.array_equal(mine[k], theirs[k]) for k in mine):
                return False
        return True


def _add_into(target: dict[Any, np.ndarray], source: Mapping[Any, np.ndarray], dtype: type) -> None:
    for key, value in source.items():
        arr: np.ndarray = np.asarray(value, dtype=dtype)
        if key in target:
            if target[key].shape != arr.shape:
                raise SimkitError(
                    f"cannot merge {key!r}: shapes {target[key].shape} and {arr.shape} differ"
                )
            target[key] = target[key] + arr
        else:
            target[key] = arr.copy()


@dataclass
class BlockOutput:
    """What a chunk of consecutive blocks returns: merged counts, and sums block by block."""

    first_block: int
    n_games: list[int]
    counts: dict[Any, np.ndarray]
    block_sums: list[dict[Any, np.ndarray]]
    #: Per block, the arrays to keep (:func:`simkit.kept.kept_arrays`) when the run keeps its
    #: games, else None.
    kept: list[dict[str, np.ndarray]] | None = None


def event_sums(events: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per-game counts of events among a game's hands → (Σ k, Σ k²) over games (``int64``).

    ``events`` is boolean ``(n_games, n_players, *shape)``; the sum of squares gives a standard
    error that treats the game (whose hands come from one deck) as the independent unit.
    """
    per_game = events.sum(axis=1, dtype=np.int64)
    return per_game.sum(axis=0), (per_game * per_game).sum(axis=0)


def histogram(values: np.ndarray, half_width: int) -> np.ndarray:
    """Counts of ``values`` rounded to the nearest integer in ``-half_width..half_width``.

    Returns ``int64 (2 * half_width + 3,)``: bin 0 counts values below ``-half_width``, the
    last bin values above ``half_width``, bin ``i`` the integer ``i - half_width - 1``.
    """
    idx = np.floor(np.asarray(values, dtype=np.float64) + 0.5).astype(np.int64)
    idx = np.clip(idx + half_width + 1, 0, 2 * half_width + 2)
    return np.bincount(idx.ravel(), minlength=2 * half_width + 3).astype(np.int64)


def histogram_bins(half_width: int) -> np.ndarray:
    """The integer value of each inner bin of :func:`histogram` (the two tails excluded)."""
    return np.arange(-half_width, half_width + 1)


@dataclass(frozen=True)
class Moments:
    """Mean, standard deviation and standard error of the mean from n, Σx, Σx²."""

    n: int
    mean: float
    sd: float
    se: float

    @property
    def ci_low(self) -> float:
        """The lower end of the normal 95% confidence interval of the mean."""
        return self.mean - Z95 * self.se

    @property
    def ci_high(self) -> float:
        """The upper end of the normal 95% confidence interval of the mean."""
        return self.mean + Z95 * self.se


def moments(n: int | float, s1: float, s2: float) -> Moments:
    """Moments of a sample known by its size ``n``, sum ``s1`` and sum of squares ``s2``.

    The one-pass formula loses about 1e-16 · Σx² to rounding, which is negligible here: scores
    are centred near 0 (zero-sum games), so Σx² is of the order of n · variance.
    """
    n = int(n)
    if n <= 0:
        return Moments(0, math.nan, math.nan, math.nan)
    mean = s1 / n
    if n == 1:
        return Moments(1, mean, math.nan, math.nan)
    var = max((s2 - s1 * s1 / n) / (n - 1), 0.0)
    sd = math.sqrt(var)
    return Moments(n, mean, sd, sd / math.sqrt(n))


def sd_se(sd: float, mean_square_se: float) -> float:
    """Delta method: the se of a standard deviation (the root of a mean square) from the se of
    the mean square, se(m) / (2 sqrt(m)); NaN when the sd is 0 or the se is not finite."""
    if not sd or not math.isfinite(mean_square_se):
        return math.nan
    return mean_square_se / (2 * sd)


def rate_se(n_games: int, n_units: int, k1: float, k2: float) -> tuple[float, float]:
    """A rate per unit (hand, player-game) and its standard error with games as clusters.

    ``k1``/``k2`` are Σk and Σk² of the per-game event counts; ``n_units`` the number of units
    (games × hands per game).  The rate is k1/n_units; its variance is that of the per-game
    count divided by the number of games, scaled to units.
    """
    if n_units <= 0 or n_games <= 0:
        return math.nan, math.nan
    rate = k1 / n_units
    per_game = moments(n_games, k1, k2)
    units_per_game = n_units / n_games
    se = per_game.se / units_per_game if n_games > 1 else math.nan
    return rate, se
