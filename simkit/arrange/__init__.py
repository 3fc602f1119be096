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
``ExpectedScore(tables)``, ``"expected-score"``
    Max-ev's search with the variant's score as the scorer applies it, closer: fine dun classes
    (every front rank its own class, three kicker digits in the middle and back:
    :func:`~simkit.arrange.classes.fine_classes`), the 马牌 of a winning dun priced
    (:func:`~simkit.arrange.value.horse_model`), and equal values going to the stronger front;
    fine-class tables trained by fictitious play against itself
    (``simkit train --strategy expected-score``; None takes the shipped ``*-fine.npz``, or
    the coarse tables where none ship), shifted by the hand's card-removal bucket where the
    tables carry removal shifts (:mod:`~simkit.arrange.removal`).  Measured by
    :mod:`simkit.regret`, it gives away a third to a fifth of what max-ev does
    (``results/strategy/objective.md``).
``ExpectedScoreHand(tables)``, ``"expected-score-hand"``
    expected-score on each hand's own tables: the fine tables conditioned on the 13 cards the
    hand holds, by the duns of a pool of hands set by expected-score that share none of them
    (:mod:`~simkit.arrange.conditioned`), with the t-formula's places priced where the
    tables carry a place model.  About 0.4× expected-score's speed
    (``results/bench/conditioned-places.md``).  In guangxi, with every seat playing it, it
    gives away 0.017 points a hand where expected-score gives away 0.029 (guangxi-regional
    0.019 against 0.032) (``results/strategy/regret-hand-4p-2000.md``).  With
    ``conditioning="model"`` it reads each hand's shift from the card-removal model shipped
    for those two variants (:class:`~simkit.arrange.removal.RemovalModel`) instead of
    counting it over a pool: 1.2× faster, 0.016 and 0.022 on the same protocol.
``ExpectedScoreRerank(tables)``, ``"expected-score-rerank"``
    expected-score-hand's objective with the card-removal model, and the opponents' home runs
    priced by their own rate, over expected-score's best six splits within half a point of its
    best only, its best ten for a hand holding two trips or trips and three pairs
    (:mod:`~simkit.arrange.rerank`): 1.5–1.7× the speed of the full search, 0.7–0.8× the
    default's; 0.013 in guangxi and 0.017 in guangxi-regional on the same protocol.
    Elsewhere it plays as expected-score.
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
    STRATEGIES,
    STRATEGY_TYPES,
    ExpectedScore,
    ExpectedScoreHand,
    ExpectedScoreHome,
    ExpectedScorePlaces,
    ExpectedScoreRerank,
    Greedy,
    MaxEV,
    Objective,
    RandomLegal,
    Strategy,
    StrategyLike,
    as_strategy,
    strategy_from_name,
)
from simkit.arrange.subsets import rank_tables_of
from simkit.arrange.value import (
    N_PARAMS,
    P_HOME,
    P_HOME_ADD,
    P_HOME_BASE,
    P_HOME_FACTOR,
    P_HOME_RATE,
    P_HORSE,
    P_MAJORITY,
    P_MAJORITY_TWO,
    P_N_OPP,
    P_PLACE,
    P_SCOOP_ADD,
    P_SCOOP_DOUBLE,
    P_SCOOP_RATE,
    P_SCOOP_TIES,
    P_W_HOME,
    P_W_SCOOP,
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
    "N_PARAMS",
    "N_REMOVAL_BUCKETS",
    "N_THREE",
    "P_HOME",
    "P_HOME_ADD",
    "P_HOME_BASE",
    "P_HOME_FACTOR",
    "P_HOME_RATE",
    "P_HORSE",
    "P_MAJORITY",
    "P_MAJORITY_TWO",
    "P_N_OPP",
    "P_PLACE",
    "P_SCOOP_ADD",
    "P_SCOOP_DOUBLE",
    "P_SCOOP_RATE",
    "P_SCOOP_TIES",
    "P_W_HOME",
    "P_W_SCOOP",
    "Q_LE",
    "Q_LOSE",
    "Q_VW",
    "Q_WIN",
    "STRATEGIES",
    "STRATEGY_TYPES",
    "Arrangement",
    "Declare",
    "ExpectedScore",
    "ExpectedScoreHand",
    "ExpectedScoreHome",
    "ExpectedScorePlaces",
    "ExpectedScoreRerank",
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
    "objective_weights",
    "pareto_front",
    "payout_model",
    "place_entry",
    "placed_points",
    "plays_t_formula",
    "rank_tables_of",
    "removal_buckets",
    "shifted_tables",
    "shipped_table_path",
    "split_values",
    "strategy_from_name",
    "t_expected",
    "table_name",
    "uniform_tables",
]
