"""Setting 13 cards into front, middle and back: the arrangement strategies.

:func:`arrange` returns, for every hand, the cards in the order [front 3 | middle 5 | back 5]
and the special hand (报到) it declares.  No strategy ever fouls (倒水): front ≤ middle ≤ back
by :func:`~simkit.evaluate.rank3` / :func:`~simkit.evaluate.rank5`, or the strict form the
variant's ``[scoring.foul]`` names, tested by the scorer's own :func:`~simkit.evaluate.order_holds`.

Strategies (:mod:`~simkit.arrange.strategies`; each also named by a string)
----------------------------------------------------------------------------
``MaxEV(tables)``, ``"max-ev"``
    The split with the largest expected score against opponents who play the same way, under
    the variant's payouts, estimated from per-dun win tables (:class:`WinTables`, trained by
    fictitious play in :mod:`simkit.train`; None takes the shipped ones).  This is the method
    of Paul Hankin's near-optimal heads-up Chinese poker solver (2015): a split is valued by
    table lookups of the win probability of each of its duns (:mod:`~simkit.arrange.value`).
    The search is exact for that objective: it returns the same value as scoring every one of
    the 72,072 splits, pruning whole backs by upper bounds (:mod:`~simkit.arrange.search`).
``ExpectedScore(tables, ...)``, ``"expected-score"``, ``"expected-score-rerank"``
    Max-ev's search with the variant's score as the scorer applies it, closer: fine dun classes
    (every front rank its own class, three kicker digits in the middle and back:
    :func:`~simkit.arrange.classes.fine_classes`), the 马牌 of a winning dun priced
    (:func:`~simkit.arrange.value.horse_model`), equal values going to the stronger front,
    on fine-class tables trained by fictitious play against itself
    (``simkit train --strategy expected-score``).  Named options add the t-formula's places,
    the home rate, the hand's own card removal (:mod:`~simkit.arrange.removal`) and a
    re-ranked search (:mod:`~simkit.arrange.rerank`); :data:`PRESETS` names the combinations
    a command line chooses by name.  ``"expected-score-rerank"``, the default
    (:func:`default_strategy`), re-ranks expected-score's best splits by the hand's own card
    removal where a card-removal model fits, and plays expected-score elsewhere.
``Greedy()``, ``"greedy"``
    The strongest back, then the strongest middle of the other 8 cards, front = the rest
    (lexicographic maximum of (back, middle, front) over legal splits).
``RandomLegal()``, ``"random-legal"``
    A uniformly random legal split (a baseline).
``Objective(fn)``, a callable
    A research objective: ``objective(ranks)`` with ``ranks`` an ``int32 (n_splits, 3)`` array of
    (front, middle, back) dun ranks of one hand's legal splits returns ``(n_splits,)`` scores;
    the best one is kept.

The package, one job a module: :mod:`~simkit.arrange.classes` (dun classes),
:mod:`~simkit.arrange.wintables` (win tables), :mod:`~simkit.arrange.value` (the expected-score
model), :mod:`~simkit.arrange.subsets` (ranking a hand's subsets), :mod:`~simkit.arrange.search`
(the kernels), :mod:`~simkit.arrange.removal` (card removal by hand bucket),
:mod:`~simkit.arrange.conditioned` (card removal by the hand's own cards: each hand's tables
conditioned on them), :mod:`~simkit.arrange.strategies` and :mod:`~simkit.arrange.api`.
"""

from simkit.arrange.api import (
    DECLARE_RULES,
    Arrangement,
    Declare,
    arrange,
    arrange_variants,
    arrangements,
    legal_splits,
    pareto_front,
    removal_pool,
)
from simkit.arrange.classes import (
    CLASS_BITS,
    CLASS_MASK,
    DIGIT,
    N_CLASSES,
    N_DUNS,
    dun_class,
    dun_classes,
    fine_classes,
    n_fine_classes,
)
from simkit.arrange.removal import N_REMOVAL_BUCKETS, removal_buckets, shifted_tables
from simkit.arrange.search import (
    Solver,
    exhaustive_ids,
    horse_copies,
    make_solver,
    max_ev_ids,
    max_ev_ids_many,
    split_values,
)
from simkit.arrange.strategies import (
    DEFAULT_STRATEGY,
    PRESET_OPTIONS,
    PRESETS,
    STRATEGIES,
    ExpectedScore,
    Greedy,
    MaxEV,
    Objective,
    RandomLegal,
    Strategy,
    StrategyLike,
    as_strategy,
    default_strategy,
    register_strategy,
    strategy_from_name,
    strategy_names,
)
from simkit.arrange.subsets import rank_tables_of
from simkit.arrange.value import (
    N_T_LEVELS,
    PAYOUT_PARAMS,
    Q_LE,
    Q_LOSE,
    Q_VW,
    Q_WIN,
    PayoutModel,
    PlaceModel,
    ev_quantities,
    expected_points,
    favourable_quantities,
    foul_strict,
    horse_model,
    new_params,
    payout_model,
    placed_points,
    plays_t_formula,
    t_expected,
)
from simkit.arrange.wintables import (
    WinTables,
    default_fine_tables,
    default_tables,
    home_rate_entry,
    objective_weights,
    place_entry,
    shipped_table_path,
    table_name,
    uniform_tables,
)
from simkit.splits import N_FIVE, N_THREE

__all__ = [
    "CLASS_BITS",
    "CLASS_MASK",
    "DECLARE_RULES",
    "DEFAULT_STRATEGY",
    "DIGIT",
    "N_CLASSES",
    "N_DUNS",
    "N_FIVE",
    "N_REMOVAL_BUCKETS",
    "N_THREE",
    "N_T_LEVELS",
    "PAYOUT_PARAMS",
    "PRESETS",
    "PRESET_OPTIONS",
    "Q_LE",
    "Q_LOSE",
    "Q_VW",
    "Q_WIN",
    "STRATEGIES",
    "Arrangement",
    "Declare",
    "ExpectedScore",
    "Greedy",
    "MaxEV",
    "Objective",
    "PayoutModel",
    "PlaceModel",
    "RandomLegal",
    "Solver",
    "Strategy",
    "StrategyLike",
    "WinTables",
    "arrange",
    "arrange_variants",
    "arrangements",
    "as_strategy",
    "default_fine_tables",
    "default_strategy",
    "default_tables",
    "dun_class",
    "dun_classes",
    "ev_quantities",
    "exhaustive_ids",
    "expected_points",
    "favourable_quantities",
    "fine_classes",
    "foul_strict",
    "home_rate_entry",
    "horse_copies",
    "horse_model",
    "legal_splits",
    "make_solver",
    "max_ev_ids",
    "max_ev_ids_many",
    "n_fine_classes",
    "new_params",
    "objective_weights",
    "pareto_front",
    "payout_model",
    "place_entry",
    "placed_points",
    "plays_t_formula",
    "rank_tables_of",
    "register_strategy",
    "removal_buckets",
    "removal_pool",
    "shifted_tables",
    "shipped_table_path",
    "split_values",
    "strategy_from_name",
    "strategy_names",
    "t_expected",
    "table_name",
    "uniform_tables",
]
