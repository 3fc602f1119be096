"""The removal shifts of the fine tables (:func:`removal_shifts`): how a hand's own cards
move its opponents' duns, measured from self-play by removal bucket."""

from __future__ import annotations

import numpy as np

from simkit.arrange import (
    N_DUNS,
    ExpectedScore,
    WinTables,
    arrange,
)
from simkit.arrange.classes import fine_classes, n_fine_classes
from simkit.arrange.removal import N_REMOVAL_BUCKETS, mid_cdf, removal_buckets
from simkit.deal import check_players, deal
from simkit.errors import SimkitError
from simkit.evaluate import dun_ranks
from simkit.variants import Variant, resolve_variant

#: Self-play games and seed of the removal shifts the shipped fine tables carry
#: (:func:`removal_shifts`; ``experiments/pipelines/fit_removal.py``).
REMOVAL_GAMES = 240_000
REMOVAL_SEED = 5
#: Opponent duns seen in a bucket at which its measured shift gets half weight.
REMOVAL_PRIOR = 1000.0
#: Games per block of :func:`removal_shifts` (each its own seed, so memory stays bounded).
REMOVAL_BLOCK = 20_000


def removal_shifts(
    variant: str | Variant,
    n_players: int,
    tables: WinTables | None = None,
    *,
    n_games: int = REMOVAL_GAMES,
    seed: int = REMOVAL_SEED,
) -> np.ndarray:
    """The removal shifts of ``tables`` (the shipped fine ones if None):
    ``float64 (N_REMOVAL_BUCKETS, 3, N_FINE)`` (:mod:`simkit.arrange.removal`).

    ``n_games`` games are dealt and set by expected-score on the pooled tables (no shifts:
    the result does not depend on shifts the tables already carry).  For every ordered pair
    of hands in a game that both play their duns, the opponent's fine dun classes are counted
    by the removal bucket of the hand it sits against, so the counts carry the card removal
    the fine tables leave out.  A bucket's shift for a class is the opponents' mid-CDF at that
    class (the share of their duns below it plus half the share equal to it) in that bucket,
    minus the pooled mid-CDF: how much more often than the tables say a dun of that class
    beats an opponent of a hand of that bucket; a bucket seen rarely is shrunk toward no
    shift (:data:`REMOVAL_PRIOR`).  The games are dealt in blocks of
    :data:`REMOVAL_BLOCK`, block ``i`` from the ``i``-th child of ``seed``.  One plain deck
    only (2-4 players).
    """
    v = resolve_variant(variant)
    check_players(n_players)
    if not v.deck_for(n_players).is_one_deck:
        raise SimkitError(
            f"removal shifts need one plain deck; {v.name} at {n_players} players deals "
            f"{v.deck_for(n_players)}"
        )
    if isinstance(n_games, bool) or not isinstance(n_games, int) or n_games < 1:
        raise SimkitError(f"n_games must be an integer ≥ 1, got {n_games!r}")
    pooled_play = ExpectedScore(tables, removal=False)
    n_fine = n_fine_classes()
    seen = np.zeros((N_REMOVAL_BUCKETS, N_DUNS, n_fine))
    starts = range(0, n_games, REMOVAL_BLOCK)
    for lo, block_seed in zip(starts, np.random.SeedSequence(seed).spawn(len(starts)), strict=True):
        gen = np.random.default_rng(block_seed)
        size = min(REMOVAL_BLOCK, n_games - lo)
        hands = deal(size, n_players, rng=gen, deck=v.deck_for(n_players))
        arranged, declared = arrange(hands, v, pooled_play, n_players=n_players, rng=gen)
        classes = fine_classes(dun_ranks(arranged, v)).astype(np.int64)
        normal = declared < 0
        bucket = removal_buckets(hands)
        for i in range(n_players):
            for j in range(n_players):
                if i == j:
                    continue
                both = normal[:, i] & normal[:, j]
                for d in range(N_DUNS):
                    key = bucket[both, i] * n_fine + classes[both, j, d]
                    seen[:, d] += np.bincount(key, minlength=N_REMOVAL_BUCKETS * n_fine).reshape(
                        N_REMOVAL_BUCKETS, n_fine
                    )
    shifts = mid_cdf(seen) - mid_cdf(seen.sum(axis=0))  # each bucket's minus the pooled
    # a rare bucket's shift is noise, an empty one's would be minus the pooled CDF: shrink
    # each toward none by the opponent duns it saw (half weight at REMOVAL_PRIOR of them)
    seen_per_bucket = seen[:, 0].sum(axis=1)
    return shifts * (seen_per_bucket / (seen_per_bucket + REMOVAL_PRIOR))[:, None, None]
