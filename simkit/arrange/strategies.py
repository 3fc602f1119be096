"""Arrangement strategies as objects: each sets a batch of hands, one legal split per hand.

A strategy has a ``name`` (what a command line calls it) and :meth:`Strategy.choose_splits`.
:func:`as_strategy` turns what :func:`~simkit.arrange.arrange` accepts (a strategy, a name or a
callable objective) into a strategy; :func:`strategy_from_name` reads one from a command line
(a name, or a trained ``.npz`` table meaning max-ev with that table).

A strategy that needs a later stage (the rollout strategy scores with :mod:`simkit.score`) is
defined there and registered with :func:`register_strategy`; :data:`LATER_STRATEGIES` names its
module, imported the first time the name is used, so the name works without importing the
module first and this stage imports nothing later.
"""

from __future__ import annotations

import importlib
from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import MISSING, dataclass, fields, is_dataclass, replace
from pathlib import Path
from typing import ClassVar, Literal, TypeAlias, TypeVar

import numpy as np

from simkit.arrange.classes import N_CLASSES
from simkit.arrange.conditioned import (
    POOL_HANDS,
    POOL_SEED,
    SHRINK_PRIOR,
    Pool,
    conditioned_ids,
    hand_tables,
    make_pool,
    model_ids,
    model_tables,
)
from simkit.arrange.removal import (
    RemovalModel,
    bucket_tables,
    model_key,
    removal_buckets,
    shipped_removal_model,
)
from simkit.arrange.rerank import WIDE_PAIRS, check_list, reference_rerank, rerank_ids
from simkit.arrange.search import (
    Solver,
    _greedy_kernel,
    _legal_ranks_kernel,
    _random_kernel,
    make_solver,
    max_ev_ids,
    max_ev_ids_many,
)
from simkit.arrange.subsets import rank_tables_of
from simkit.arrange.value import PlaceModel, check_home_rate, foul_strict
from simkit.arrange.wintables import (
    WinTables,
    default_fine_tables,
    home_rate_entry,
    objective_weights,
    place_entry,
)
from simkit.deal import RngLike, as_generator
from simkit.errors import SimkitError
from simkit.splits import BACK_REST, SPLIT_IDS
from simkit.variants import Variant, resolve_variant

#: What a strategy chooses for ``n`` hands: split ids ``int64 (n, 3)`` (front, middle, back
#: subset ids, :mod:`simkit.splits`) and each choice's expected score (None: no estimate).
Choice: TypeAlias = tuple[np.ndarray, np.ndarray | None]


class Strategy(ABC):
    """How a player sets hands into [front 3 | middle 5 | back 5] without fouling."""

    #: The strategy's name on a command line and in results.
    name: ClassVar[str]

    @abstractmethod
    def choose_splits(
        self, rows: np.ndarray, variant: Variant, *, n_players: int, rng: RngLike = None
    ) -> Choice:
        """The split of each hand in ``rows``, ``int8 (n, 13)`` card ints, each row sorted.

        ``n_players`` is the table size (it sets payouts and tables); ``rng`` seeds a
        strategy that draws.
        """


@dataclass(frozen=True, eq=False)
class MaxEV(Strategy):
    """The split with the largest expected score (:mod:`simkit.arrange.value`).

    ``tables``: the win tables that estimate it; None takes the variant's shipped tables at
    the table size (:func:`~simkit.arrange.wintables.default_tables`).
    """

    tables: WinTables | None = None
    name: ClassVar[str] = "max-ev"
    #: Whether its choices are those of :meth:`solvers` searched by ``max_ev_ids_many``, so
    #: that :func:`~simkit.arrange.arrangements` may search several variants in one pass over
    #: the hands (False: it sets each variant's hands through :meth:`choose_splits`).
    one_pass: ClassVar[bool] = True

    def solver(self, variant: str | Variant | None, n_players: int) -> Solver:
        """The search of this strategy under ``variant`` at ``n_players``."""
        return make_solver(variant, n_players, self.tables)

    def one_pass_search(self, variant: Variant, n_players: int) -> MaxEV | None:
        """The search that sets ``variant``'s hands at ``n_players`` in one pass with other
        variants' (:func:`~simkit.arrange.arrangements`; its answers are those of
        :meth:`choose_splits`), or None where the hands go through :meth:`choose_splits`:
        this strategy where :attr:`one_pass` says so."""
        return self if self.one_pass else None

    def solvers(self, variant: str | Variant | None, n_players: int) -> tuple[Solver, ...]:
        """The searches a hand may be set by: one per removal bucket
        (:mod:`simkit.arrange.removal`; :func:`hand_buckets` says which), or just
        :meth:`solver`."""
        return (self.solver(variant, n_players),)

    def hand_solver(self, row: np.ndarray, variant: str | Variant | None, n_players: int) -> Solver:
        """The search that sets the hand ``row`` (card ints ``(13,)``)."""
        group = self.solvers(variant, n_players)
        bucket = hand_buckets(row[None], group)
        return group[0 if bucket is None else int(bucket[0])]

    def choose_splits(
        self, rows: np.ndarray, variant: Variant, *, n_players: int, rng: RngLike = None
    ) -> Choice:
        group = self.solvers(variant, n_players)
        ids, values, _ = max_ev_ids_many(rows, [group], hand_buckets(rows, group))[0]
        return ids, values

    def with_tables(self, tables: WinTables | None) -> MaxEV:
        """This strategy with other win tables (None: the shipped ones)."""
        return type(self)(tables)

    def __repr__(self) -> str:
        kind = type(self).__name__
        if self.tables is None:
            return f"{kind}()"
        return f"{kind}(tables={self.tables.meta.get('file', 'WinTables(...)')!r})"


@dataclass(frozen=True, eq=False)
class ExpectedScore(MaxEV):
    """The split with the largest expected score under the variant's rules as the scorer
    applies them: max-ev's search and payouts (:mod:`simkit.arrange.value`) on fine dun
    classes (every front rank its own class, three kicker digits in the middle and back;
    :func:`~simkit.arrange.classes.fine_classes`), with the 马牌 of a winning dun priced
    (:func:`~simkit.arrange.value.horse_model`), and equal values going to the stronger
    front.

    ``tables``: fine-class win tables (``simkit train --strategy expected-score``); None takes
    the shipped ones (:func:`~simkit.arrange.wintables.default_fine_tables`).  ``weights``:
    (scoop, home run), the weights of those terms of the value; None takes the ones fitted to
    rollouts for the tables (:func:`~simkit.arrange.wintables.objective_weights`, 1 and 1
    where none were fitted).  ``joint``: price scoops and majorities by the copula of the
    opponents' duns the tables hold (:mod:`simkit.arrange.joint`); False: as independent duns.
    ``removal``: value each hand with the tables shifted by its removal bucket, where the
    tables carry removal shifts (:mod:`simkit.arrange.removal`); False: the pooled tables.
    ``places``: price the duns' points by the t-formula's places where the tables carry a
    place model (:class:`~simkit.arrange.value.PlaceModel`), with the weights fitted over it
    (:class:`ExpectedScorePlaces`); False: as they are paid.
    """

    weights: tuple[float, float] | None = None
    joint: bool = True
    removal: bool = True
    places: bool = False
    name: ClassVar[str] = "expected-score"

    def _tables(self, v: Variant, n_players: int) -> WinTables:
        return self.tables if self.tables is not None else default_fine_tables(v, n_players)

    def _weights(self, tables: WinTables) -> Weights:
        if self.weights is not None:
            return self.weights
        entry = place_entry(tables) if self.places else None
        if entry is not None and "weights" in entry:  # fitted over the places
            return float(entry["weights"]["scoop"]), float(entry["weights"]["home_run"])
        return objective_weights(tables)

    def _place(self, tables: WinTables) -> PlaceModel | None:
        entry = place_entry(tables) if self.places else None
        return None if entry is None else PlaceModel.from_meta(entry)

    def _home_rate(self, tables: WinTables) -> float:
        """The chance that an opponent who scoops a hand scoops every other player too, as
        this strategy's searches with ``tables`` price it (``P_HOME_RATE``; 0: the table's
        scoop rate)."""
        return 0.0

    def _make(self, v: Variant, n_players: int, tables: WinTables, weights: Weights) -> Solver:
        return make_solver(
            v, n_players, tables, horse=True, front_first=True, dtype=np.float32,
            weights=weights, joint=self.joint, place=self._place(tables),
            home_rate=self._home_rate(tables),
        )  # fmt: skip

    def solver(self, variant: str | Variant | None, n_players: int) -> Solver:
        """The search on the pooled tables (no removal shifts: :meth:`solvers` has them)."""
        v = resolve_variant(variant)
        tables = self._tables(v, n_players)
        return self._make(v, n_players, tables, self._weights(tables))

    def solvers(self, variant: str | Variant | None, n_players: int) -> tuple[Solver, ...]:
        """One search per removal bucket where the tables carry removal shifts and
        ``removal`` is on (built once per tables, variant and player count), else
        ``(solver,)``."""
        v = resolve_variant(variant)
        tables = self._tables(v, n_players)
        if not self.removal or tables.removal is None:
            return (self.solver(v, n_players),)
        weights = self._weights(tables)
        key = (
            id(tables), id(v), n_players, weights, self.joint, self.places,
            self._home_rate(tables),
        )  # fmt: skip
        return _recent(
            _BUCKET_SOLVERS, key,
            lambda: tuple(self._make(v, n_players, t, weights) for t in bucket_tables(tables)),
            tables, v,
        )  # fmt: skip

    def with_tables(self, tables: WinTables | None) -> ExpectedScore:
        return replace(self, tables=tables)

    def __repr__(self) -> str:
        shown = super().__repr__()[:-1]  # "ExpectedScore(" or "ExpectedScore(tables=..."
        # the options that differ from their class's defaults, in field order
        options = [
            f"{f.name}={getattr(self, f.name)!r}"
            for f in fields(self)
            if f.name != "tables" and getattr(self, f.name) != f.default
        ]
        if options:
            shown += (", " if not shown.endswith("(") else "") + ", ".join(options)
        return shown + ")"


Weights: TypeAlias = tuple[float, float]


@dataclass(frozen=True, eq=False)
class ExpectedScorePlaces(ExpectedScore):
    """expected-score with the t-formula's places in its value where the fine tables carry a
    place model (guangxi and guangxi-regional at 4 players; :mod:`simkit.objective`,
    ``experiments/fit_places.py``): a split's dun points are priced ``τ(m)·h(B)``, its expected
    place payment times the expected t, and the scoop and home-run terms by weights fitted over
    that.  Elsewhere it plays as expected-score.  Not the default: its picks gain +0.0037 ±
    0.0034 points a hand against the default's in guangxi (``results/strategy/places.md``; on
    the regret protocol −0.0015 ± 0.0067, ``places-regret.md``; in guangxi-regional −0.0005 ±
    0.0036), but its search, whose value saturates for strong hands, scores about twice the
    splits and runs at 0.80× the default's speed.  With each hand's own card removal
    (:class:`ExpectedScoreHand`, which prices the places by default) they gain where alone
    they do not: ``results/strategy/regret-hand-4p-2000.md``."""

    places: bool = True
    name: ClassVar[str] = "expected-score-places"


@dataclass(frozen=True, eq=False, repr=False)  # ExpectedScore.__repr__ shows its options
class ExpectedScoreHome(ExpectedScore):
    """expected-score pricing the home run against it by a fitted rate where the fine tables
    carry one (``meta["home_rate"]``: guangxi and guangxi-regional at 4 players,
    :func:`simkit.objective.fit_home_rate`, ``experiments/fit_home_rate.py``); elsewhere it plays
    as expected-score.

    expected-score prices an opponent's home run against the hand (全垒打: it scoops every
    player) at the chance that it scoops the hand times the table's scoop rate for each other
    player, as if its scoops were independent; but a hand that scoops one player is strong and
    scoops the others far more often.  Here that chance is the chance of being scooped times
    the fitted ``rate`` (``P_HOME_RATE``), with the scoop and home-run weights fitted beside
    it on the same rollouts.  A parameter of the value, not a longer search: the same
    kernel, the same bounds, the exhaustive scan's answers, at 0.98–0.99× expected-score's speed
    (``results/bench/home-rate.md``).  ``weights``, where given, replace the fitted weights (the
    rate stays the tables').

    Fitted rate 0.35 in both guangxi rows (scoop and home-run weights 0.156, 0.412 in guangxi;
    0.062, 0.399 in guangxi-regional), held-out gain of its picks over expected-score's +0.0067
    (+0.0038 to +0.0095) and +0.0107 (+0.0075 to +0.0139) a hand
    (``results/strategy/home-rate-fit.md``); against expected-score's on 20,000 fresh hands
    (``experiments/objective_ab.py``, seed 77) +0.0050 ± 0.0022 and +0.0076 ± 0.0024 with
    expected-score opponents, +0.0039 ± 0.0022 and +0.0063 ± 0.0024 with its own.  On the
    issue's regret protocol 0.0287 (0.0200 to 0.0375) and 0.0277 (0.0201 to 0.0353) against
    expected-score's 0.0290 and 0.0324, paired +0.0002 ± 0.0053 and +0.0047 ± 0.0061
    (``results/strategy/home-rate-regret.md``): a gain within the protocol's CIs, and both rows
    still above 0.02, so expected-score stays the default."""

    name: ClassVar[str] = "expected-score-home"

    def _weights(self, tables: WinTables) -> Weights:
        entry = home_rate_entry(tables)
        if self.weights is not None or entry is None or self.places:
            return super()._weights(tables)
        return entry[1], entry[2]

    def _home_rate(self, tables: WinTables) -> float:
        entry = home_rate_entry(tables)
        return 0.0 if entry is None else entry[0]


#: Where a later round's shift is measured from (:attr:`ExpectedScoreHand.shift_from`).
SHIFT_FROM = ("first-round", "own-pool")
#: How expected-score-hand finds a hand's shift (:attr:`ExpectedScoreHand.conditioning`).
CONDITIONING = ("auto", "model", "pool")


@dataclass(frozen=True, eq=False, repr=False)  # ExpectedScore.__repr__ shows its options
class ExpectedScoreHand(ExpectedScore):
    """expected-score on each hand's own tables: the fine tables conditioned on the 13 cards it
    holds (:mod:`simkit.arrange.conditioned`: the opponents' duns counted over a pool of hands
    that share no card with it).  Still the exact search of one objective per hand
    (:meth:`hand_solver` is that objective's search).  Where the deck is not one plain deck, or
    the tables are not fine ones, it plays as expected-score.

    ``prior``: the compatible hands at which a hand's shift is shrunk by half; ``pool_hands``:
    the hands dealt for each round's pool (:data:`~simkit.arrange.conditioned.POOL_HANDS`).
    ``rounds``:
    rounds of fictitious play that set the pool: 1 (the default), a pool set by expected-score;
    ``r``, a pool of fresh deals set by this strategy with ``rounds = r - 1``, so that the
    opponents a hand is conditioned on play as it does.  ``shift_from`` (later rounds only):
    ``"first-round"``, the shift is the compatible hands' mid-CDF minus the first round's
    whole pool's, the duns the tables were fitted against, so that it carries the later
    opponents' other play as well as the removal; ``"own-pool"``, minus the round's own whole
    pool's (the removal alone).  On guangxi's regret protocol, where
    the opponents play the strategy under test, two rounds from the own pool measured no
    better than one (0.0263 against 0.0227 a hand, unpaired, CIs ±0.009; ``results/strategy/
    regret-hand-4p-2000.md``) and cost a ~30 s pool a process, so one is the default.

    ``places`` (on here, unlike expected-score): price the t-formula's places where the tables
    carry a place model (guangxi and guangxi-regional at 4 players, as
    :class:`ExpectedScorePlaces` does), the first round's pool set by expected-score-places.
    Neither the places nor the hand's own tables alone bring guangxi's regret to 0.02;
    together, on the issue's protocol, 0.0170 (0.0118 to 0.0222) in guangxi and 0.0192
    (0.0140 to 0.0244) in guangxi-regional, against 0.0227 and 0.0264 without the places
    (``results/strategy/regret-hand-4p-2000.md``).  Elsewhere it changes nothing.  The
    earlier figures of this docstring are of the strategy without the places.

    ``conditioning``: how a hand's shift is found.  ``"pool"`` (the default): counted over
    the pool, as above.  ``"model"``: read from the card-removal model shipped beside the
    tables (:class:`~simkit.arrange.removal.RemovalModel`, fitted to a larger pool's exact
    shifts by ``experiments/fit_removal_model.py``; guangxi and guangxi-regional at 4
    players): no pool built, 1.2× the speed (``results/bench/removal-model.md``); an error
    where none fits these tables and options (it is fitted for one round of this strategy's
    defaults on the shipped tables).  ``"auto"``: the model where one fits and no option of
    the pool (``prior``, ``pool_hands``) is set, else the pool.
    """

    places: bool = True
    prior: float = SHRINK_PRIOR
    rounds: int = 1
    pool_hands: int = POOL_HANDS
    shift_from: str = "first-round"
    conditioning: str = "pool"
    name: ClassVar[str] = "expected-score-hand"
    one_pass: ClassVar[bool] = False  # each hand its own search: choose_splits

    def __post_init__(self) -> None:
        if isinstance(self.rounds, bool) or not isinstance(self.rounds, int) or self.rounds < 1:
            raise SimkitError(f"rounds must be an integer ≥ 1, got {self.rounds!r}")
        if not self.prior >= 0:
            raise SimkitError(f"prior must be ≥ 0, got {self.prior!r}")
        if isinstance(self.pool_hands, bool) or not isinstance(self.pool_hands, int):
            raise SimkitError(f"pool_hands must be an integer, got {self.pool_hands!r}")
        if self.pool_hands < 64:
            raise SimkitError(f"pool_hands must be at least 64, got {self.pool_hands}")
        if self.shift_from not in SHIFT_FROM:
            raise SimkitError(
                f"shift_from must be one of {', '.join(SHIFT_FROM)}, got {self.shift_from!r}"
            )
        if self.conditioning not in CONDITIONING:
            raise SimkitError(
                f"conditioning must be one of {', '.join(CONDITIONING)}, got {self.conditioning!r}"
            )
        if self.conditioning == "model" and self.rounds != 1:
            raise SimkitError(
                "conditioning=model reads a model fitted for the first round; "
                f"rounds={self.rounds} counts its shifts over a pool (conditioning=pool)"
            )
        if self.conditioning == "model" and self._pool_options_set():
            raise SimkitError(
                "prior and pool_hands set the pool's shifts: conditioning=model reads none"
            )

    def _pool_options_set(self) -> bool:
        """Whether an option of the pool's shifts (``prior``, ``pool_hands``) is set: then
        ``"auto"`` counts over the pool the options describe."""
        return self.prior != SHRINK_PRIOR or self.pool_hands != POOL_HANDS

    def setter_name(self) -> str:
        """The strategy that sets this strategy's first-round pool, as a removal model's
        :func:`~simkit.arrange.removal.model_key` names it."""
        return f"expected-score(weights={self.weights}, joint={self.joint}, places={self.places})"

    def removal_model(self, variant: str | Variant | None, n_players: int) -> RemovalModel | None:
        """The card-removal model the hands of ``variant`` at ``n_players`` read (see
        :attr:`conditioning`), None where they count their shifts over the pool or play as
        expected-score.  Raises where ``conditioning="model"`` and no model fits."""
        if self.conditioning == "pool" or self.rounds != 1 or self._pool_options_set():
            return None
        v = resolve_variant(variant)
        tables = self._tables(v, n_players)
        if not v.deck_for(n_players).is_one_deck or tables.win.shape[1] == N_CLASSES:
            return None
        key = (id(tables), id(v), n_players, self.setter_name())

        def find() -> RemovalModel | None:
            model = shipped_removal_model(v.name, n_players)
            if model is None or model.meta.get("fitted_on") != model_key(
                tables, self.setter_name()
            ):
                return None
            return model

        model = _recent(_MODELS, key, find, tables, v)
        if model is None and self.conditioning == "model":
            raise SimkitError(
                f"no card-removal model fits {v.name} at {n_players} players with these tables "
                "and options (one ships for guangxi and guangxi-regional at 4 players, fitted "
                "for the shipped tables and this strategy's defaults); use conditioning=pool"
            )
        return model

    def pool(self, variant: str | Variant | None, n_players: int) -> Pool | None:
        """The pool the hands of ``variant`` at ``n_players`` are conditioned on (built once
        per tables, variant, player count and rounds), None where none applies."""
        v = resolve_variant(variant)
        tables = self._tables(v, n_players)
        if not v.deck_for(n_players).is_one_deck or tables.win.shape[1] == N_CLASSES:
            return None
        # the first round's pool is set by expected-score (with the places where they are on):
        # the prior does not enter it
        prior = self.prior if self.rounds > 1 else None
        shift_from = self.shift_from if self.rounds > 1 else None
        key = (
            id(tables), id(v), n_players, self._weights(tables), self.joint, self.places, prior,
            self.rounds, self.pool_hands, shift_from,
        )  # fmt: skip

        def build() -> Pool:
            setter: ExpectedScore = (
                ExpectedScore(tables, self.weights, self.joint, False, self.places)
                if self.rounds == 1  # expected-score on the same tables, without removal shifts
                else replace(self, rounds=self.rounds - 1)
            )
            pool = build_pool(setter, v, n_players, self.pool_hands, round_=self.rounds)
            if shift_from == "first-round":
                # the tables were fitted against expected-score's duns: measure the shift from
                # those (the first round's pool), so that the later round's opponents' other
                # play enters it beside the removal
                first = replace(self, rounds=1).pool(v, n_players)
                assert first is not None
                pool = replace(pool, pooled=first.pooled)
            return pool

        return _recent(_POOLS, key, build, tables, v)

    def hand_solver(self, row: np.ndarray, variant: str | Variant | None, n_players: int) -> Solver:
        v = resolve_variant(variant)
        tables = self._tables(v, n_players)
        model = self.removal_model(v, n_players)
        if model is not None:
            own = model_tables(tables, np.asarray(row), model)
            return self._make(v, n_players, own, self._weights(tables))
        pool = self.pool(v, n_players)
        if pool is None:
            return super().hand_solver(row, v, n_players)
        own = hand_tables(tables, np.asarray(row), pool, self.prior)
        return self._make(v, n_players, own, self._weights(tables))

    def choose_splits(
        self, rows: np.ndarray, variant: Variant, *, n_players: int, rng: RngLike = None
    ) -> Choice:
        model = self.removal_model(variant, n_players)
        if model is not None:
            ids, values, _ = model_ids(rows, self.solver(variant, n_players), model)
            return ids, values
        pool = self.pool(variant, n_players)
        if pool is None:
            return super().choose_splits(rows, variant, n_players=n_players, rng=rng)
        ids, values, _, _ = conditioned_ids(rows, self.solver(variant, n_players), pool, self.prior)
        return ids, values


#: How many of expected-score's best splits expected-score-rerank re-ranks
#: (:attr:`ExpectedScoreRerank.top`).  On guangxi's rerank probe hands (seed 5, never the
#: regret protocol's; ``results/strategy/rerank-top.md``, ``experiments/rerank_top.py``),
#: re-ranking the best 3, 4, 5, 6, 8 and 10 distinct class triples by the hand's own tables and
#: the places gives regrets 0.0162, 0.0117, 0.0086, 0.0083, 0.0081 and 0.0075, all of them
#: 0.0065 and expected-score 0.0380: six keep nearly all of the gain, and each one more costs
#: some 6% of the speed without the window, 2% with it (``results/bench/rerank.md``).
RERANK_TOP = 6
#: The window of expected-score-rerank's list (:attr:`ExpectedScoreRerank.window`,
#: :attr:`~ExpectedScoreRerank.cap`; :func:`~simkit.arrange.rerank.window_bar`): splits more
#: than half a point under the best's value, capped at 5, are not kept.  Chosen on the same
#: probe hands: the six within the window give the six's regret (0.0083; a window of 0.3
#: 0.0086, of 0.2 0.0099; a cap of 10 0.0095), and the search runs about 1.2× as fast.
RERANK_WINDOW = 0.5
RERANK_CAP = 5.0
#: How many of expected-score's best splits expected-score-rerank re-ranks for a hand holding
#: two trips or more (:attr:`ExpectedScoreRerank.wide_top`,
#: :data:`~simkit.arrange.rerank.WIDE_TRIPS`; also for trips and three pairs, where the home
#: rate moves the pick as far: :data:`RERANK_HOME_RATE`): the card removal of two trips moves
#: a split's value by points (a second full house is worth more than expected-score's tables
#: say, the opponents holding fewer of those ranks), so the hand's pick may lie further down
#: expected-score's list, and further under its best than the window reaches: such a hand
#: keeps its best ten within a wider window (:data:`RERANK_WIDE_WINDOW`).  Chosen on the rerank
#: probe's hands (``results/strategy/rerank-wide-guangxi.md``, ``…-guangxi-regional.md``): ten
#: bring the part of the regret these hands give from 0.0031 / 0.0022 (six) to 0.0007 / 0.0008,
#: the full search's 0.0009 / 0.0010; with or without a window alike there.
RERANK_WIDE_TOP = 10
#: The window of the wide list (:attr:`ExpectedScoreRerank.wide_window`): its splits more than
#: 1.5 points under the best's value (capped at :data:`RERANK_CAP`) are not kept.  The ten
#: were kept whatever their values before; the pick never lay that far down: on 40,000 dealt
#: hands of each guangxi row it lay at most 1.41 points under (1.03 / 1.16 at the 99.9th
#: percentile of the hands keeping the wide list), so a window of 1.5 changes no pick there
#: nor on the regret protocol's 8,000 hands, the search scores a sixth fewer splits and runs
#: 1-5% faster (``results/strategy/rerank-wide-window.md``; 1.0 would change 12 and 17 picks
#: of the 40,000).
RERANK_WIDE_WINDOW = 1.5
#: The chance that an opponent who scoops a hand scoops every other player too, as
#: expected-score-rerank's re-ranking prices the home run against it
#: (:attr:`ExpectedScoreRerank.home_rate`, ``P_HOME_RATE``).  The model's default, the table's
#: scoop rate for each other player (0.113² = 0.013 in guangxi), misses that an opponent who
#: beats all three of a split's duns holds a strong hand: in self-play one who scoops a player
#: scoops all three 12% of the time, and 22-26% when it scoops the full-house split of the
#: rerank probe's hands the re-ranking lost most on (a middling pair in front, a pair of aces
#: in the middle, a full house behind, where the rollouts' best sets the aces in front, two
#: pairs in the middle and the trips behind): the rival split gains 0.55-0.85 points under the
#: full rules, -0.08 to +0.22 without the home run (``results/strategy/home-rate-check.md``,
#: ``experiments/home_rate_check.py``).  Chosen on the rerank probes
#: (``results/strategy/rerank-home-guangxi.md``, ``…-guangxi-regional.md``; of 0.04 to 0.64):
#: 0.25 gives the full search of the objective its least regret in guangxi-regional (0.0043;
#: 0.0081 at 0) and near it in guangxi (0.0040; 0.0035 at 0.16, 0.0058 at 0), and the list,
#: with the wide list for trips and three pairs (their pick lies up to a point under
#: expected-score's best), 0.0065 and 0.0049 against 0.0104 and 0.0081 before; the list's
#: regret is flat from 0.25 to 0.64 in both rows.
RERANK_HOME_RATE = 0.25


@dataclass(frozen=True, eq=False, repr=False)  # ExpectedScore.__repr__ shows its options
class ExpectedScoreRerank(ExpectedScoreHand):
    """expected-score-hand's objective (the hand's own tables by the card-removal model, the
    t-formula's places) over expected-score's best ``top`` splits only
    (:mod:`simkit.arrange.rerank`): expected-score's search keeps its best ``top`` splits of
    distinct class triples, and the best of them under the hand's own objective is played.
    The model's choice is nearly always among them, and the search costs far less than the
    full search of that objective (``results/bench/rerank.md``).

    ``top``: how many are re-ranked (:data:`RERANK_TOP`; 1, with ``wide_top=1``, plays
    expected-score).
    ``window``, ``cap``: of those, only the splits at most ``window`` points under the
    best's value, that value capped at ``cap`` (:data:`RERANK_WINDOW`, :data:`RERANK_CAP`;
    :func:`~simkit.arrange.rerank.window_bar`; ``window=inf`` keeps all ``top``).
    ``wide_top``, ``wide_window``: how many, and within which window, for a hand holding two
    trips or more, or trips and three pairs (:func:`~simkit.arrange.rerank.keeps_wide`;
    :data:`RERANK_WIDE_TOP`, :data:`RERANK_WIDE_WINDOW`: the best ten within 1.5 points;
    ``wide_top=6,wide_window=0.5`` keeps one list for every hand).  ``wide_pairs``: the pairs
    a hand holding one trips needs to keep the wide list too (3; 6: none does, two trips
    only, the list before the home rate).
    ``home_rate``: the chance that an opponent who scoops the hand scoops every other player
    too, as the re-ranking prices the home run against it (:data:`RERANK_HOME_RATE`; 0: the
    table's scoop rate for each other player, as expected-score prices it; the first search
    keeps expected-score's).
    ``conditioning``: ``"auto"`` (the default) plays as expected-score where no card-removal
    model fits (every variant and player count but guangxi's and guangxi-regional's at 4
    players, other tables or options); ``"model"`` is an error there.  The pool's
    conditioning is not offered: counting a hand's shifts over a pool costs more than the
    whole search.
    """

    conditioning: str = "auto"
    top: int = RERANK_TOP
    window: float = RERANK_WINDOW
    cap: float = RERANK_CAP
    wide_top: int = RERANK_WIDE_TOP
    wide_window: float = RERANK_WIDE_WINDOW
    home_rate: float = RERANK_HOME_RATE
    wide_pairs: int = WIDE_PAIRS
    name: ClassVar[str] = "expected-score-rerank"

    def __post_init__(self) -> None:
        super().__post_init__()
        for key, kind in (("top", int), ("wide_top", int), ("window", float), ("cap", float),
                          ("wide_window", float), ("home_rate", float),
                          ("wide_pairs", int)):  # fmt: skip
            value = getattr(self, key)
            if isinstance(value, bool) or not isinstance(value, (int, kind)):
                what = "an integer" if kind is int else "a number"
                raise SimkitError(f"{key} must be {what}, got {value!r}")
        try:
            check_list(
                self.top, float(self.window), float(self.cap), self.wide_top,
                float(self.wide_window), self.wide_pairs,
            )  # fmt: skip
            check_home_rate(float(self.home_rate))
        except ValueError as e:
            raise SimkitError(str(e)) from None
        if self.conditioning == "pool":
            raise SimkitError(
                "expected-score-rerank re-ranks by the card-removal model: conditioning is "
                "auto or model (expected-score-hand counts shifts over a pool)"
            )
        if self.rounds != 1 or self._pool_options_set():
            raise SimkitError(
                "expected-score-rerank reads the card-removal model of one round: rounds, "
                "prior and pool_hands are expected-score-hand's"
            )

    def _home_rate(self, tables: WinTables) -> float:
        return float(self.home_rate)

    def one_pass_search(self, variant: Variant, n_players: int) -> MaxEV | None:
        # choose_splits plays expected-score's search where no model fits: that search's pass
        return self.first() if self.removal_model(variant, n_players) is None else None

    def rerank_list(self) -> tuple[int, float, float, int, float, int]:
        """The list the strategy keeps, as :func:`~simkit.arrange.rerank.rerank_ids` takes it
        after the model: ``(top, window, cap, wide_top, wide_window, wide_pairs)``."""
        return (
            self.top, float(self.window), float(self.cap), self.wide_top,
            float(self.wide_window), self.wide_pairs,
        )  # fmt: skip

    def reference_splits(
        self, rows: np.ndarray, variant: str | Variant, n_players: int
    ) -> tuple[np.ndarray, np.ndarray]:
        """The splits and values :meth:`choose_splits` plays where a card-removal model fits,
        found by the scan of every split (:func:`~simkit.arrange.rerank.reference_rerank`,
        each hand re-ranked by a solver built for it alone): the check of the search, some
        5 ms a hand.  ``rows``: hands ``(n, 13)`` as :meth:`choose_splits` takes them."""
        v = resolve_variant(variant)
        if self.removal_model(v, n_players) is None:
            raise ValueError(
                f"expected-score-rerank re-ranks nothing in {v.name} at {n_players} players: "
                "its reference there is expected-score's exhaustive scan"
            )
        first = self.first().solver(v, n_players)
        ids = np.empty((len(rows), 3), dtype=np.int64)
        values = np.empty(len(rows), dtype=np.float64)
        for i, row in enumerate(rows):
            ids[i], values[i] = reference_rerank(
                row, first, self.hand_solver(row, v, n_players), *self.rerank_list()
            )
        return ids, values

    def first(self) -> ExpectedScore:
        """The search whose best splits are re-ranked: expected-score on the same tables,
        weights and joint chances, without the places."""
        return ExpectedScore(self.tables, self.weights, self.joint, self.removal, False)

    def hand_solver(self, row: np.ndarray, variant: str | Variant | None, n_players: int) -> Solver:
        """The objective the kept splits are re-ranked by (the hand's own tables, the places);
        expected-score's where no model fits."""
        if self.removal_model(variant, n_players) is None:
            return self.first().hand_solver(row, variant, n_players)
        return super().hand_solver(row, variant, n_players)

    def choose_splits(
        self, rows: np.ndarray, variant: Variant, *, n_players: int, rng: RngLike = None
    ) -> Choice:
        model = self.removal_model(variant, n_players)
        first = self.first()
        if model is None:
            return first.choose_splits(rows, variant, n_players=n_players, rng=rng)
        group = first.solvers(variant, n_players)
        if len(group) != 1:  # removal buckets: a hand's own tables are the model's
            raise SimkitError(
                "expected-score-rerank re-ranks one search: use removal=false with tables "
                "that carry removal buckets"
            )
        if self.top == 1 and self.wide_top == 1:
            ids, values, _ = max_ev_ids(rows, group[0])
            return ids, values
        ids, values, _, _ = rerank_ids(
            rows, group[0], self.solver(variant, n_players), model, *self.rerank_list()
        )
        return ids, values


def build_pool(
    strategy: ExpectedScore,
    variant: Variant,
    n_players: int,
    n_hands: int = POOL_HANDS,
    round_: int = 1,
) -> Pool:
    """``n_hands`` hands dealt from :data:`POOL_SEED` (round 1; a later round's from its own
    child of it, fresh deals), set by ``strategy``; those that play normally (declare no
    special) make the :class:`Pool`."""
    from simkit.arrange.api import arrangements  # the api stage sits on this one
    from simkit.deal import deal

    games = -(-n_hands // n_players)
    gen = np.random.default_rng(POOL_SEED if round_ == 1 else (POOL_SEED, round_))
    hands = deal(games, n_players, rng=gen, deck=variant.deck_for(n_players)).reshape(-1, 13)
    (found,) = arrangements([hands[:n_hands]], [variant], strategy, n_players=n_players)
    normal = found.declared < 0
    return make_pool(found.cards[normal], found.ranks[normal])


#: Recent sets of bucket solvers (80 searches of about 0.7 MB each) and pools (a few MB
#: each), keyed by the ids of the tables and variant they were built from, which they hold (so
#: that the ids stay theirs).
_BUCKET_SOLVERS: dict[tuple[object, ...], tuple[WinTables, Variant, tuple[Solver, ...]]] = {}
_POOLS: dict[tuple[object, ...], tuple[WinTables, Variant, Pool]] = {}
_MODELS: dict[tuple[object, ...], tuple[WinTables, Variant, RemovalModel | None]] = {}
_MAX_BUCKET_SOLVERS = 4

_T = TypeVar("_T")


def _recent(
    cache: dict[tuple[object, ...], tuple[WinTables, Variant, _T]],
    key: tuple[object, ...],
    build: Callable[[], _T],
    tables: WinTables,
    variant: Variant,
) -> _T:
    """``cache[key]``'s value, built by ``build`` if absent; the cache keeps the
    :data:`_MAX_BUCKET_SOLVERS` most recently used entries, each with the tables and variant
    whose ids its key holds."""
    hit = cache.pop(key, None)
    if hit is None:
        hit = (tables, variant, build())
        if len(cache) >= _MAX_BUCKET_SOLVERS:
            del cache[next(iter(cache))]
    cache[key] = hit  # the most recent last
    return hit[2]


def hand_buckets(rows: np.ndarray, group: tuple[Solver, ...]) -> np.ndarray | None:
    """The removal bucket of each hand of ``rows`` where ``group`` holds bucket solvers."""
    return removal_buckets(rows) if len(group) > 1 else None


@dataclass(frozen=True)
class Greedy(Strategy):
    """The strongest back, then the strongest middle of the other 8 cards, front = the rest
    (the lexicographic maximum of (back, middle, front) over legal splits)."""

    name: ClassVar[str] = "greedy"

    def choose_splits(
        self, rows: np.ndarray, variant: Variant, *, n_players: int, rng: RngLike = None
    ) -> Choice:
        ids = np.empty((rows.shape[0], 3), dtype=np.int64)
        _greedy_kernel(rows, rank_tables_of(variant), BACK_REST, foul_strict(variant), ids)
        return ids, None


@dataclass(frozen=True)
class RandomLegal(Strategy):
    """A uniformly random legal split (a baseline); ``rng`` seeds it."""

    name: ClassVar[str] = "random-legal"

    def choose_splits(
        self, rows: np.ndarray, variant: Variant, *, n_players: int, rng: RngLike = None
    ) -> Choice:
        ids = np.empty((rows.shape[0], 3), dtype=np.int64)
        seeds = as_generator(rng).integers(0, 2**63, size=rows.shape[0], dtype=np.uint64)
        _random_kernel(rows, seeds, rank_tables_of(variant), SPLIT_IDS, foul_strict(variant), ids)
        return ids, None


@dataclass(frozen=True)
class Objective(Strategy):
    """A research objective: ``objective(ranks)`` with ``ranks`` an ``int32 (n_splits, 3)``
    array of (front, middle, back) dun ranks of one hand's legal splits returns
    ``(n_splits,)`` scores; the best one is kept (one call per hand: a research tool)."""

    objective: Callable[[np.ndarray], np.ndarray]
    name: ClassVar[str] = "objective"

    def choose_splits(
        self, rows: np.ndarray, variant: Variant, *, n_players: int, rng: RngLike = None
    ) -> Choice:
        rt = rank_tables_of(variant)
        strict = foul_strict(variant)
        out = np.empty((rows.shape[0], 3), dtype=np.int64)
        for h in range(rows.shape[0]):
            ids, ranks = _legal_ranks_kernel(rows[h], rt, BACK_REST, strict)
            scores = np.asarray(self.objective(ranks), dtype=np.float64)
            if scores.shape != (ranks.shape[0],):
                raise SimkitError(
                    f"objective must return one score per split, shape ({ranks.shape[0]},), "
                    f"got {scores.shape}"
                )
            out[h] = ids[int(np.argmax(scores))]
        return out, None


#: The strategies a name selects, by name: the fast built-ins.
STRATEGY_TYPES: dict[str, type[Strategy]] = {
    cls.name: cls for cls in (MaxEV, Greedy, RandomLegal, ExpectedScore)
}
STRATEGIES = tuple(STRATEGY_TYPES)  # ("max-ev", "greedy", "random-legal", "expected-score")

#: Strategies defined in later stages, by name: the module that defines and registers each
#: (imported when the name is first used).
LATER_STRATEGIES: dict[str, str] = {"rollout": "simkit.rollout"}
_REGISTERED: dict[str, type[Strategy]] = {}

#: The strategy every run, search and measurement plays unless told otherwise
#: (:class:`ExpectedScoreRerank`: expected-score's best splits re-ranked by the hand's own card
#: removal and the t-formula's places where a card-removal model fits, guangxi and
#: guangxi-regional at 4 players; expected-score itself everywhere else, the same splits).
DEFAULT_STRATEGY = "expected-score-rerank"
StrategyName: TypeAlias = Literal[
    "expected-score-rerank", "expected-score", "max-ev", "greedy", "random-legal", "rollout"
]
#: What :func:`~simkit.arrange.arrange` accepts as a strategy: a strategy, a name in
#: :func:`strategy_names` (checked when used) or a callable objective.
StrategyLike: TypeAlias = Strategy | StrategyName | str | Callable[[np.ndarray], np.ndarray]


def register_strategy(cls: type[Strategy]) -> type[Strategy]:
    """Make ``cls`` known by its ``name`` to :func:`as_strategy` and :func:`strategy_from_name`
    (a class decorator for strategies defined after this stage)."""
    if cls.name in STRATEGY_TYPES:
        raise SimkitError(f"strategy name {cls.name!r} is taken by a built-in strategy")
    _REGISTERED[cls.name] = cls
    return cls


register_strategy(ExpectedScorePlaces)
register_strategy(ExpectedScoreHome)
register_strategy(ExpectedScoreHand)
register_strategy(ExpectedScoreRerank)


def strategy_names() -> tuple[str, ...]:
    """Every name a strategy can be chosen by: :data:`STRATEGIES`, then the later ones."""
    return (*STRATEGIES, *dict.fromkeys([*LATER_STRATEGIES, *_REGISTERED]))


def _strategy_type(name: str) -> type[Strategy] | None:
    if name in STRATEGY_TYPES:
        return STRATEGY_TYPES[name]
    if name not in _REGISTERED and name in LATER_STRATEGIES:
        importlib.import_module(LATER_STRATEGIES[name])  # registers it
    return _REGISTERED.get(name)


def as_strategy(strategy: StrategyLike) -> Strategy:
    """A :class:`Strategy` from a strategy, a name in :func:`strategy_names` (with options as
    ``name:key=value,...``: :func:`strategy_from_name`) or a callable objective
    (:class:`Objective`)."""
    if isinstance(strategy, Strategy):
        return strategy
    if isinstance(strategy, str) and (cls := _strategy_type(strategy)) is not None:
        return cls()
    if isinstance(strategy, str) and ":" in strategy:  # a name with options
        return strategy_from_name(strategy)
    if callable(strategy):
        return Objective(strategy)
    raise SimkitError(
        f"unknown strategy {strategy!r}; choose one of {', '.join(strategy_names())} or pass a "
        "callable objective"
    )


#: Option types a command line can set on a strategy (``name:key=value,...``).
_OPTION_TYPES: tuple[type, ...] = (bool, int, float, str)
_TRUE, _FALSE = ("true", "yes", "1", "on"), ("false", "no", "0", "off")


def _settable(cls: type[Strategy]) -> dict[str, type]:
    """The options of ``cls`` a command line can set: its dataclass fields with a plain
    default (a number, a flag or a word), by name, with the default's type."""
    if not is_dataclass(cls):
        return {}
    return {
        f.name: type(f.default)
        for f in fields(cls)
        if f.init and f.default is not MISSING and type(f.default) in _OPTION_TYPES
    }


def _option_value(kind: type, raw: str, key: str, spec: str) -> object:
    if kind is bool:
        if raw.lower() in _TRUE + _FALSE:
            return raw.lower() in _TRUE
        raise SimkitError(f"strategy option {key} in {spec!r} takes true or false, got {raw!r}")
    if kind is str:
        return raw
    try:
        return kind(raw)
    except ValueError:
        raise SimkitError(
            f"strategy option {key} in {spec!r} takes {'an integer' if kind is int else 'a number'}"
            f", got {raw!r}"
        ) from None


def _with_options(cls: type[Strategy], options: str, spec: str) -> Strategy:
    """``cls`` built with the ``key=value`` pairs of ``options`` (comma-separated; ``-`` in a
    key reads as ``_``), each checked against the options ``cls`` has before any is set."""
    settable = _settable(cls)
    kwargs: dict[str, object] = {}
    for item in options.split(","):
        key, eq, raw = item.partition("=")
        key = key.strip().replace("-", "_")
        if not eq or not key or not raw.strip():
            raise SimkitError(f"strategy option {item!r} in {spec!r} is not key=value")
        if key not in settable:
            have = ", ".join(settable) or "none"
            raise SimkitError(
                f"strategy {cls.name!r} has no option {key!r} a command line can set "
                f"(it has: {have})"
            )
        if key in kwargs:
            raise SimkitError(f"strategy option {key} is given twice in {spec!r}")
        kwargs[key] = _option_value(settable[key], raw.strip(), key, spec)
    return cls(**kwargs)


def strategy_from_name(spec: str) -> Strategy:
    """A strategy named on a command line: a name in :func:`strategy_names`, with options as
    ``name:key=value,...`` (``expected-score-hand:pool_hands=524288,prior=300``: any option
    of the strategy's that is a number, a flag or a word), or an ``.npz`` table file (max-ev
    with those tables; expected-score with fine-class ones)."""
    if spec.endswith(".npz"):
        if not Path(spec).exists():
            raise SimkitError(f"no such table file: {spec}")
        tables = WinTables.load(spec)
        # fine-class tables are expected-score's (simkit train --strategy expected-score)
        return (ExpectedScore if tables.win.shape[1] != N_CLASSES else MaxEV)(tables)
    name, colon, options = spec.partition(":")
    if (cls := _strategy_type(name.strip())) is not None:
        return _with_options(cls, options, spec) if colon else cls()
    raise SimkitError(
        f"unknown strategy {name!r}: use one of {', '.join(strategy_names())} (options as "
        "name:key=value,...) or a trained .npz table"
    )
