"""A set hand's conditional expected score: what a seat that knows only its own hand expects to
win from the banker, from one player, or from the table, under the variant's full rules.

谈判 and 抛牌 decide from it (:mod:`simkit.phases.settle`), and it is what "输/赢X道" is worth to a
hand.  The strategy's own value of a split (:attr:`simkit.arrange.Arrangement.value`, the
max-ev model's expected score against the table, :mod:`simkit.arrange.value`) ranks hands well
but is a model: it leaves out the horse card and the specials of the others, treats the duns as
independent, and speaks of the table, not of one pair.  So it is *calibrated* into expected
score by a binned, monotone map fitted on simulated deals:

1. :data:`CALIBRATION_GAMES` deals from a stream of their own (spawn key ``(CALIBRATION_KEY,
   k)``, which no run's block ever has, so the map is independent of every run's deals), set by
   the run's strategy and scored by :func:`simkit.score.score` with its pairwise output.
2. The hands played normally are cut into :data:`N_BINS` bins at the quantiles of their values;
   each bin's mean of the realized result is the map, made non-decreasing by pool-adjacent-
   violators (weighted by the bin counts, so it keeps the overall mean).  Three maps: the
   banker's hand against one player (``pairs[g, 0, j]``), a player's hand against the banker
   (``pairs[g, j, 0]``), and any hand against the table (total per opponent).  Where the
   banker's seat scores as any other (all-pairs, :func:`seats_alike`) the first two are one
   map fitted on every ordered pair of the table: exchangeable seats make them equal, and the
   pooled fit has four times the samples (two separate noisy maps would also hand one side a
   spurious edge in 谈判).
3. A hand that declares a special is looked up by its special instead: the mean of that
   special's results, shrunk toward its payout by :data:`SPECIAL_PRIOR` pseudo-games (specials
   are rare).

Its error is reported (:attr:`ExpectedScore.error`): the maps are fitted again on one half of
the calibration deals and tested on the other, giving the expected calibration error (the
count-weighted mean |predicted − realized| over bins) and the share of variance the prediction
explains.  The whole fit is deterministic and takes seconds; it is cached per variant, table
size and strategy in each process (a worker fits its own, to the same numbers), and at play
time the map is a vectorized lookup.  Pre-arrangement phases (passing, 换牌) are played only as
far as ``[deal.passing]``: the map is that of hands set from the deal.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

import numpy as np

from simkit.arrange import (
    DEFAULT_STRATEGY,
    Arrangement,
    arrangements,
    make_solver,
    split_values,
)
from simkit.deal import deal
from simkit.phases import before_setting
from simkit.score import score
from simkit.variants import Variant
from simkit.variants.rules import Phases

#: Calibration deals; the two halves that measure the error have half of them each.
CALIBRATION_GAMES = 16_384
#: The calibration stream: ``SeedSequence(CALIBRATION_ENTROPY, spawn_key=(CALIBRATION_KEY, k))``
#: for chunk k.  A run's block b draws ``spawn_key=(b,)``: the keys never meet.
CALIBRATION_ENTROPY = 2_026_004
CALIBRATION_KEY = 1_000_004
CALIBRATION_CHUNK = 2048
#: Bins of the strategy's value.
N_BINS = 32
#: Pseudo-games of the payout a declared special's mean is shrunk toward.
SPECIAL_PRIOR = 5.0


def monotone_means(means: np.ndarray, weights: np.ndarray) -> np.ndarray:
    """Pool adjacent violators: the non-decreasing sequence nearest ``means`` in weighted least
    squares (its weighted mean is that of ``means``).  Bins of weight 0 take their neighbours'
    pooled value."""
    blocks: list[list[float]] = []  # [value, weight, length]
    for m, w in zip(means.tolist(), weights.tolist(), strict=True):
        blocks.append([m if w > 0 else 0.0, float(w), 1])
        while len(blocks) > 1 and (
            blocks[-1][1] == 0 or blocks[-2][1] == 0 or blocks[-2][0] > blocks[-1][0]
        ):
            v2, w2, n2 = blocks.pop()
            v1, w1, n1 = blocks.pop()
            w = w1 + w2
            v = (v1 * w1 + v2 * w2) / w if w > 0 else 0.0
            blocks.append([v, w, n1 + n2])
    return np.concatenate([np.full(int(n), v) for v, _, n in blocks])


@dataclass(frozen=True)
class BinnedMap:
    """A monotone step function of the value: ``means[searchsorted(edges, value)]``."""

    edges: np.ndarray  # float64 (N_BINS - 1,): the interior quantiles of the values
    means: np.ndarray  # float64 (N_BINS,): the monotone bin means
    counts: np.ndarray  # int64 (N_BINS,)

    def __call__(self, value: np.ndarray) -> np.ndarray:
        return self.means[np.searchsorted(self.edges, value, side="right")]


def fit_map(value: np.ndarray, result: np.ndarray, edges: np.ndarray) -> BinnedMap:
    """The binned, monotone map of ``result`` on ``value`` (1-D arrays) over bins ``edges``."""
    idx = np.searchsorted(edges, value, side="right")
    n_bins = edges.size + 1
    counts = np.bincount(idx, minlength=n_bins)
    sums = np.bincount(idx, weights=result, minlength=n_bins)
    means = np.divide(sums, counts, out=np.zeros(n_bins), where=counts > 0)
    return BinnedMap(edges, monotone_means(means, counts.astype(np.float64)), counts)


def quantile_edges(value: np.ndarray, n_bins: int = N_BINS) -> np.ndarray:
    """Interior bin edges at the quantiles of ``value`` (ties merged)."""
    return np.unique(np.quantile(value, np.linspace(0, 1, n_bins + 1)[1:-1]))


def hand_values(play: Arrangement, variant: Variant, n_players: int) -> np.ndarray:
    """``float64 (...)``: the strategy's value of each set hand (``play.value``; for strategies
    that keep none, the max-ev model's value of the split they chose)."""
    if play.value is not None:
        return np.asarray(play.value, dtype=np.float64)
    return split_values(play.ranks, make_solver(variant, n_players))


def pair_results(play: Arrangement, variant: Variant) -> tuple[np.ndarray, np.ndarray]:
    """``(total (n, p), pairs (n, p, p))`` of an arrangement: the scores and what i wins from j."""
    n, p = play.declared.shape
    pairs = np.zeros((n, p, p), dtype=np.float64)
    total = score(
        play.cards,
        variant,
        declared=play.declared,
        ranks=play.ranks,
        special_masks=play.special_masks,
        pairs=pairs,
    )
    return np.asarray(total, dtype=np.float64), pairs


@dataclass(frozen=True)
class CalibrationDeals:
    """The calibration deals as played: arrangement, values, scores and pair results, and
    what the phases before setting paid (换牌's fees; zeros where none is played)."""

    play: Arrangement
    value: np.ndarray  # (n, p)
    total: np.ndarray  # (n, p)
    pairs: np.ndarray  # (n, p, p)
    fees: np.ndarray  # (n, p)


def without_phases(variant: Variant) -> Variant:
    """The variant with its ``[phases]`` off: the calibration does not depend on them, so
    variants that differ only there share one."""
    if variant.phases == Phases():
        return variant
    return dataclasses.replace(variant, phases=Phases())


def calibration_deals(
    variant: Variant, n_players: int, strategy: str = DEFAULT_STRATEGY
) -> CalibrationDeals:
    """:data:`CALIBRATION_GAMES` deals of their own stream, set by ``strategy`` and scored
    (cached per process)."""
    return _calibration_deals(without_phases(variant), n_players, strategy)


@lru_cache(maxsize=16)
def _calibration_deals(variant: Variant, n_players: int, strategy: str) -> CalibrationDeals:
    plays: list[Arrangement] = []
    fees: list[np.ndarray] = []
    for k in range(-(-CALIBRATION_GAMES // CALIBRATION_CHUNK)):
        seq = np.random.SeedSequence(CALIBRATION_ENTROPY, spawn_key=(CALIBRATION_KEY, k))
        deal_seq, play_seq, phase_seq = seq.spawn(3)
        dealt = deal(CALIBRATION_CHUNK, n_players, rng=np.random.default_rng(deal_seq))
        # the hands as the phases before setting leave them (their fees are paid whatever
        # the hands then do, so they stay out of what a hand expects)
        hands, paid = before_setting(dealt, variant, None, phase_seq, strategy)
        fees.append(sum(paid.values(), np.zeros((CALIBRATION_CHUNK, n_players))))
        plays.extend(arrangements([hands], [variant], strategy, n_players=n_players, rng=play_seq))
    play = _concat(plays)
    total, pairs = pair_results(play, variant)
    return CalibrationDeals(
        play, hand_values(play, variant, n_players), total, pairs, np.concatenate(fees)
    )


def _concat(plays: list[Arrangement]) -> Arrangement:
    fields: dict[str, Any] = {}
    for name in ("cards", "declared", "split_ids", "ranks", "special_masks", "best"):
        fields[name] = np.concatenate([getattr(a, name) for a in plays])
    values = [a.value for a in plays]
    fields["value"] = None if any(v is None for v in values) else np.concatenate(values)  # type: ignore[arg-type]
    return Arrangement(**fields)


@dataclass(frozen=True)
class ExpectedScore:
    """The conditional expected scores of set hands at one table size (see the module).

    ``banker``: what the banker's hand expects to win from one player; ``player``: what a
    player's hand expects to win from the banker; ``table``: what a hand expects per opponent.
    Each is a :class:`BinnedMap` of the hand's value for hands played normally, and a mean per
    special (index into ``variant.specials.rules``) for hands that declare one.
    """

    n_players: int
    games: int
    banker: BinnedMap
    player: BinnedMap
    table: BinnedMap
    special_banker: np.ndarray  # (n_specials,)
    special_player: np.ndarray
    special_table: np.ndarray
    #: Held-out calibration error: fitted on one half of the deals, tested on the other.
    error: dict[str, float] = field(default_factory=dict)

    def _lookup(
        self, fitted: BinnedMap, special: np.ndarray, value: np.ndarray, declared: np.ndarray
    ) -> np.ndarray:
        normal = fitted(np.asarray(value, dtype=np.float64))
        if special.size == 0:
            return normal
        d = np.asarray(declared)
        return np.where(d >= 0, special[np.clip(d, 0, None)], normal)

    def banker_vs_player(self, value: np.ndarray, declared: np.ndarray) -> np.ndarray:
        """The banker's expected points from one player, given the banker's hand."""
        return self._lookup(self.banker, self.special_banker, value, declared)

    def player_vs_banker(self, value: np.ndarray, declared: np.ndarray) -> np.ndarray:
        """A player's expected points from the banker, given the player's hand."""
        return self._lookup(self.player, self.special_player, value, declared)

    def vs_table(self, value: np.ndarray, declared: np.ndarray) -> np.ndarray:
        """A hand's expected points per opponent at the table."""
        return self._lookup(self.table, self.special_table, value, declared)


def seats_alike(variant: Variant) -> bool:
    """Whether the banker's seat scores as any other: at an all-pairs table (食夹棍's ties to
    the banker need a banker topology) a hand's pair result does not depend on who holds the
    banker's seat, so the banker's and the players' maps are one, fitted on every pair.  Not
    where a phase before setting favours a seat (换牌: the banker chooses first), which leaves
    the banker's hands, and so what a player's hand meets, unlike the others'."""
    return variant.scoring.topology != "banker" and not variant.deal.changes_hands


def _samples(deals: CalibrationDeals, rows: Any, alike: bool) -> dict[str, tuple[np.ndarray, ...]]:
    """(value, declared, result) of the banker's hands (one sample per player), the players'
    hands, and every hand against the table, over games ``rows``; with ``alike``, the banker's
    and the players' samples are both every ordered pair (i, j) of the table."""
    value = deals.value[rows]
    declared = deals.play.declared[rows]
    pairs = deals.pairs[rows]
    total = deals.total[rows]
    n, p = value.shape
    table = (value.ravel(), declared.ravel(), total.ravel() / (p - 1))
    if alike:
        off = ~np.eye(p, dtype=bool)
        every = (
            np.broadcast_to(value[:, :, None], (n, p, p))[:, off].ravel(),
            np.broadcast_to(declared[:, :, None], (n, p, p))[:, off].ravel(),
            pairs[:, off].ravel(),
        )
        return {"banker": every, "player": every, "table": table}
    return {
        "banker": (
            np.repeat(value[:, 0], p - 1),
            np.repeat(declared[:, 0], p - 1),
            pairs[:, 0, 1:].ravel(),
        ),
        "player": (value[:, 1:].ravel(), declared[:, 1:].ravel(), pairs[:, 1:, 0].ravel()),
        "table": table,
    }


def _special_means(declared: np.ndarray, result: np.ndarray, payouts: np.ndarray) -> np.ndarray:
    n = payouts.size
    if n == 0:
        return np.zeros(0)
    d = declared >= 0
    counts = np.bincount(declared[d], minlength=n)
    sums = np.bincount(declared[d], weights=result[d], minlength=n)
    return (sums + SPECIAL_PRIOR * payouts) / (counts + SPECIAL_PRIOR)


def _fit(
    deals: CalibrationDeals, rows: Any, variant: Variant, edges: np.ndarray
) -> tuple[dict[str, BinnedMap], dict[str, np.ndarray]]:
    payouts = np.array([r.payout for r in variant.specials.rules], dtype=np.float64)
    maps, specials = {}, {}
    for name, (value, declared, result) in _samples(deals, rows, seats_alike(variant)).items():
        normal = declared < 0
        maps[name] = fit_map(value[normal], result[normal], edges)
        specials[name] = _special_means(declared, result, payouts)
    return maps, specials


def _error(deals: CalibrationDeals, variant: Variant, edges: np.ndarray) -> dict[str, float]:
    """Fitted on the first half of the calibration deals, tested on the second."""
    n = deals.value.shape[0]
    first, second = slice(0, n // 2), slice(n // 2, n)
    maps, _ = _fit(deals, first, variant, edges)
    error: dict[str, float] = {}
    p = deals.value.shape[1]
    n_bins = edges.size + 1
    for name, (value, declared, result) in _samples(deals, second, seats_alike(variant)).items():
        normal = declared < 0
        v = value[normal]
        realized = result[normal]
        idx = np.searchsorted(edges, v, side="right")
        counts = np.bincount(idx, minlength=n_bins)

        def bin_means(
            x: np.ndarray, idx: np.ndarray = idx, counts: np.ndarray = counts
        ) -> np.ndarray:
            sums = np.bincount(idx, weights=x, minlength=n_bins)
            return np.divide(sums, counts, out=np.zeros(n_bins), where=counts > 0)

        realized_means = bin_means(realized)
        predicted = maps[name](v)
        resid = realized - predicted
        error[f"{name}_ece"] = float(
            np.sum(counts * np.abs(maps[name].means - realized_means)) / counts.sum()
        )
        # the same for the strategy's own value per opponent, uncalibrated
        error[f"{name}_raw_ece"] = float(
            np.sum(counts * np.abs(bin_means(v / (p - 1)) - realized_means)) / counts.sum()
        )
        # what sampling noise alone gives: the count-weighted mean standard error of a bin
        sd = np.sqrt(np.maximum(bin_means(realized**2) - realized_means**2, 0.0))
        error[f"{name}_noise"] = float(
            np.sum(np.sqrt(counts) * sd) / counts.sum() * np.sqrt(2 / np.pi)
        )
        error[f"{name}_r2"] = float(1.0 - resid.var() / realized.var())
        error[f"{name}_mean_predicted"] = float(predicted.mean())
        error[f"{name}_mean_realized"] = float(realized.mean())
    return error


def expected_score(
    variant: Variant, n_players: int, strategy: str = DEFAULT_STRATEGY
) -> ExpectedScore:
    """The conditional expected-score maps of ``variant`` at ``n_players`` seats, hands set by
    ``strategy`` (fitted once per process; see the module)."""
    return _expected_score(without_phases(variant), n_players, strategy)


@lru_cache(maxsize=16)
def _expected_score(variant: Variant, n_players: int, strategy: str) -> ExpectedScore:
    deals = calibration_deals(variant, n_players, strategy)
    normal_values = deals.value[deals.play.declared < 0]
    edges = quantile_edges(normal_values)
    maps, specials = _fit(deals, slice(None), variant, edges)
    return ExpectedScore(
        n_players=n_players,
        games=deals.value.shape[0],
        banker=maps["banker"],
        player=maps["player"],
        table=maps["table"],
        special_banker=specials["banker"],
        special_player=specials["player"],
        special_table=specials["table"],
        error=_error(deals, variant, edges),
    )
