"""Win tables from counted outcomes: :func:`tabulate` counts how each dun class fares
against the other players' duns, :class:`OutcomeCounts` blends the counts of the iterations,
:func:`tables_from_counts` turns them into monotone rates."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy.optimize import isotonic_regression

from simkit.arrange import (
    N_CLASSES,
    N_DUNS,
    WinTables,
    dun_classes,
)
from simkit.arrange.classes import fine_classes, n_fine_classes

PRIOR_WEIGHT = 20.0  # pseudo-comparisons pulling a rarely seen class toward the prior


def tabulate(
    ranks: np.ndarray,
    normal: np.ndarray,
    win_points: np.ndarray,
    scoop_ties: bool,
    seats: tuple[int, ...] | None = None,
    *,
    fine: bool = False,
    horse_extra: np.ndarray | None = None,
    other_deals: int = 0,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, float, int]:
    """Count outcomes per dun class over every ordered pair of normal hands in each game.

    ``ranks``: ``int32 (n_games, n_players, 3)``; ``normal``: bool ``(n_games, n_players)``,
    False for hands that declared a special (they compare no duns); ``win_points``: what each
    dun collects when it wins, ``(3, N_FINE)`` by fine class (the payout model's) or
    ``(3, N_CLASSES)`` by coarse class.  Returns per-dun-class sums
    ``(count, wins, ties, paid)`` each ``float64 (3, N_CLASSES)`` (``fine``: ``(3, N_FINE)``,
    by fine class), the number of ordered pairs where the first scooped the second, and the
    number of ordered pairs.  ``seats``: count only pairs whose first hand sits there (a best
    response learns its own duns only).  ``horse_extra``: ``(n_games, n_players, 3)``, the
    extra count of each dun that wins (the 马牌's multiplier**copies - 1): a loss to it pays
    that much more.

    ``other_deals``: 0 counts each hand against the other hands of its own game (card removal
    in the counts); ``k > 0`` counts it instead against the hands of the next ``k`` games
    (game ``g`` against ``g + 1 … g + k``, cyclically), so that a class's chances are those
    of its dun against opponents dealt independently of the rest of the hand that played it.
    The scoops (the home run's scoop rate) are counted within the games either way.
    """
    n_players = ranks.shape[1]
    coarse = dun_classes(ranks).astype(np.int64)
    bins = fine_classes(ranks).astype(np.int64) if fine else coarse
    # what a winning dun collects, read by the classes ``win_points`` is indexed by
    classes = coarse if win_points.shape[1] == N_CLASSES else fine_classes(ranks).astype(np.int64)
    n_bins = n_fine_classes() if fine else N_CLASSES
    count = np.zeros((N_DUNS, n_bins))
    wins = np.zeros((N_DUNS, n_bins))
    ties = np.zeros((N_DUNS, n_bins))
    paid = np.zeros((N_DUNS, n_bins))
    scoops = 0.0
    pairs = 0
    # the game each hand's opponents come from: its own, or each of the next other_deals games
    games = np.arange(ranks.shape[0])
    shifts = range(1, other_deals + 1) if other_deals else (0,)
    opponent_games = [np.roll(games, -shift) for shift in shifts]
    for i in range(n_players) if seats is None else seats:
        for j in range(n_players):
            if i == j:
                continue
            both = normal[:, i] & normal[:, j]
            for rolled in opponent_games:
                mask = normal[:, i] & normal[rolled, j]
                opp = rolled[mask]  # the game of each counted hand's opponent
                ri, rj = ranks[mask, i], ranks[opp, j]
                ci, cj = bins[mask, i], classes[opp, j]
                won, lost, tied = ri > rj, ri < rj, ri == rj
                for d in range(N_DUNS):
                    c = ci[:, d]
                    count[d] += np.bincount(c, minlength=n_bins)
                    wins[d] += np.bincount(c, weights=won[:, d], minlength=n_bins)
                    ties[d] += np.bincount(c, weights=tied[:, d], minlength=n_bins)
                    worth = win_points[d, cj[:, d]]
                    if horse_extra is not None:
                        worth = worth * (1.0 + horse_extra[opp, j, d])
                    pay = np.where(lost[:, d], worth, 0.0)
                    paid[d] += np.bincount(c, weights=pay, minlength=n_bins)
            # the scoops (the home run's scoop rate) within the game, whatever was counted
            ri, rj = ranks[both, i], ranks[both, j]
            won, lost = ri > rj, ri < rj
            if scoop_ties:
                scooped = (~lost).all(axis=1) & won.any(axis=1)
            else:
                scooped = won.all(axis=1)
            scoops += float(scooped.sum())
            pairs += int(both.sum())
    return count, wins, ties, paid, scoops, pairs


def isotonic_increasing(values: np.ndarray, weights: np.ndarray) -> np.ndarray:
    """Weighted least-squares non-decreasing fit (pool adjacent violators, scipy's)."""
    return np.asarray(isotonic_regression(values, weights=weights).x)


def _monotone(rate: np.ndarray, weight: np.ndarray, increasing: bool, empty: float) -> np.ndarray:
    """Isotonic fit over observed classes; unobserved ones take the last observed value below."""
    out = np.empty_like(rate)
    n_classes = rate.shape[1]
    for d in range(N_DUNS):
        seen = weight[d] > 0
        values = np.full(n_classes, empty)
        if seen.any():
            fit = isotonic_regression(rate[d, seen], weights=weight[d, seen], increasing=increasing)
            values[seen] = fit.x
            # forward fill: a class never seen sits with the class below it
            idx = np.where(seen, np.arange(n_classes), -1)
            idx = np.maximum.accumulate(idx)
            values = np.where(idx >= 0, values[np.maximum(idx, 0)], empty)
        out[d] = values
    return out


def tables_from_counts(
    count: np.ndarray,
    wins: np.ndarray,
    ties: np.ndarray,
    paid: np.ndarray,
    scoop_rate: float,
    meta: dict,
) -> WinTables:
    """Monotone win tables from outcome counts (see the module docstring).

    A class seen rarely is pulled toward a prior: ``PRIOR_WEIGHT`` pseudo-comparisons at the
    chance that a random opponent's same dun ranks below it (the cumulative class
    distribution of the same counts, half of its own class counted as won; no card removal),
    so rare strong hands (a low full house in the back) are not averaged down by a handful of
    unlucky deals before the monotone fit.
    """
    total = count.sum(axis=1, keepdims=True)
    share = count / np.maximum(total, 1.0)
    prior_win = np.cumsum(share, axis=1) - 0.5 * share
    with np.errstate(invalid="ignore", divide="ignore"):
        losses = count - wins - ties
        weight = count + PRIOR_WEIGHT
        win_rate = (wins + PRIOR_WEIGHT * prior_win) / weight
        lose_rate = (losses + PRIOR_WEIGHT * (1.0 - prior_win)) / weight
        # one pseudo-loss worth 1 keeps a class that rarely loses from a noisy average
        pay_rate = (paid + 1.0) / (losses + 1.0)
    count_seen = weight
    win = _monotone(win_rate, count_seen, increasing=True, empty=0.0)
    lose = _monotone(lose_rate, count_seen, increasing=False, empty=1.0)
    lose = np.minimum(lose, 1.0 - win)
    tie = 1.0 - win - lose
    return WinTables(
        win=win,
        tie=tie,
        lose_pay=pay_rate,
        count=np.rint(count).astype(np.int64),
        scoop_rate=scoop_rate,
        meta=meta,
    )


@dataclass(frozen=True)
class OutcomeCounts:
    """Outcome sums per dun class, blended over the iterations of fictitious play.

    ``count``, ``wins``, ``ties``, ``paid``: ``float64 (3, N_CLASSES)`` (:func:`tabulate`);
    ``scoops`` of ``pairs`` ordered pairs.
    """

    count: np.ndarray
    wins: np.ndarray
    ties: np.ndarray
    paid: np.ndarray
    scoops: float = 0.0
    pairs: float = 0.0

    def blend(self, new: tuple, keep: float) -> OutcomeCounts:
        """These counts times ``keep`` plus the :func:`tabulate` output ``new``."""
        count, wins, ties, paid, scoops, pairs = new
        return OutcomeCounts(
            keep * self.count + count,
            keep * self.wins + wins,
            keep * self.ties + ties,
            keep * self.paid + paid,
            keep * self.scoops + scoops,
            keep * self.pairs + pairs,
        )

    def tables(self, scoop_rate: float | None = None) -> WinTables:
        """:func:`tables_from_counts` of these counts; ``scoop_rate`` defaults to theirs."""
        if scoop_rate is None:
            scoop_rate = self.scoops / max(self.pairs, 1.0)
        return tables_from_counts(
            self.count, self.wins, self.ties, self.paid, scoop_rate=scoop_rate, meta={}
        )
