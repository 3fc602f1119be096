"""Training the win tables of ``max-ev`` and ``expected-score`` by fictitious play.

Each iteration deals ``n_games`` games, sets every hand with the current strategy (greedy for
the first), ranks the duns, and counts for every dun class how often it wins, ties and loses
against the same dun of every other player in the same game (max-ev's tables: card removal is
counted) or of the other players of the next games (expected-score's, ``other_deals``: the
dun's own chances, free of the rest of the hand that played it), and what it pays when it
loses.  The counts are blended into the running counts (old counts are
multiplied by ``1 - blend`` first; or, the fine tables' schedule ``blend="linear"``, the greedy
start's counts are dropped and iteration ``j`` of the strategy's own play weighs ``j``), turned
into rates (a rarely seen class pulled toward the chance that a random opponent's dun ranks
below it), made monotone in the class order (a stronger dun cannot win less often: weighted
isotonic regression), and the next iteration plays the strategy (``max-ev`` or
``expected-score``) with the new tables.  The change per iteration (count-weighted mean absolute
change of the win chance) is recorded in the tables' ``meta``.  That loop is
:func:`fictitious_play`; :func:`train` runs it from a greedy start, and a best response (one
seat learning against frozen tables, ``experiments/studies/best_response.py``) from frozen counts.

The package, by job: :mod:`~simkit.train.counts` (counting outcomes, blending, fitting rates),
:mod:`~simkit.train.loop` (the loop, :func:`train` and its schedules),
:mod:`~simkit.train.removal` (:func:`removal_shifts`) and :mod:`~simkit.train.match`
(:func:`duplicate_match`); every name is re-exported here.

>>> from simkit.train import train
>>> t = train("western-2-4", 2, seed=1, n_games=2000, iterations=1, strategy="max-ev")
>>> t.win.shape
(3, 1960)
"""

from __future__ import annotations

from simkit.train.counts import (
    PRIOR_WEIGHT,
    OutcomeCounts,
    isotonic_increasing,
    tables_from_counts,
    tabulate,
)
from simkit.train.loop import (
    DEFAULT_BLEND,
    DEFAULT_GAMES,
    DEFAULT_ITERATIONS,
    FINE_BLEND,
    FINE_GAMES,
    FINE_ITERATIONS,
    FINE_OTHER_DEALS,
    LINEAR,
    TRAINED_STRATEGIES,
    Play,
    fictitious_play,
    other_deals_of,
    schedule,
    train,
)
from simkit.train.match import (
    duplicate_match,
)
from simkit.train.removal import (
    REMOVAL_BLOCK,
    REMOVAL_GAMES,
    REMOVAL_PRIOR,
    REMOVAL_SEED,
    removal_shifts,
)

__all__ = [
    "DEFAULT_BLEND",
    "DEFAULT_GAMES",
    "DEFAULT_ITERATIONS",
    "FINE_BLEND",
    "FINE_GAMES",
    "FINE_ITERATIONS",
    "FINE_OTHER_DEALS",
    "LINEAR",
    "PRIOR_WEIGHT",
    "REMOVAL_BLOCK",
    "REMOVAL_GAMES",
    "REMOVAL_PRIOR",
    "REMOVAL_SEED",
    "TRAINED_STRATEGIES",
    "OutcomeCounts",
    "Play",
    "duplicate_match",
    "fictitious_play",
    "isotonic_increasing",
    "other_deals_of",
    "removal_shifts",
    "schedule",
    "tables_from_counts",
    "tabulate",
    "train",
]
