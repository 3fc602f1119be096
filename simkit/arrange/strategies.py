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
from dataclasses import MISSING, dataclass, field, fields, is_dataclass, replace
from pathlib import Path
from typing import Literal, TypeAlias, TypeVar

import numpy as np

from simkit.arrange.classes import N_CLASSES
from simkit.arrange.conditioned import model_ids, model_tables
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
    greedy_kernel,
    legal_ranks_kernel,
    make_solver,
    max_ev_ids,
    max_ev_ids_many,
    random_kernel,
)
from simkit.arrange.subsets import rank_tables_of
from simkit.arrange.value import PlaceModel, check_home_rate, foul_strict
from simkit.arrange.wintables import (
    WinTables,
    default_fine_tables,
    objective_weights,
    place_entry,
    shipped_name_for,
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
    name: str

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
    name: str = field(default="max-ev", init=False, repr=False, compare=False)

    def solver(self, variant: str | Variant | None, n_players: int) -> Solver:
        """The search of this strategy under ``variant`` at ``n_players``."""
        return make_solver(variant, n_players, self.tables)

    def one_pass_search(self, variant: Variant, n_players: int) -> MaxEV | None:
        """The search that sets ``variant``'s hands at ``n_players`` in one pass with other
        variants' (:func:`~simkit.arrange.arrangements`; its answers are those of
        :meth:`choose_splits`), or None where the hands go through :meth:`choose_splits`."""
        return self

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
        """The split of each hand of ``rows`` (``int8 (n, 13)``, each row sorted) with the
        largest expected score under :meth:`solvers` (a hand's removal bucket picks its
        search): split ids ``int64 (n, 3)`` and those scores ``(n,)``.  ``rng`` is not
        used (the search draws nothing)."""
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


#: How expected-score finds a hand's own card removal (:attr:`ExpectedScore.conditioning`).
CONDITIONING = ("none", "auto", "model")
#: How expected-score searches (:attr:`ExpectedScore.search`).
SEARCHES = ("full", "rerank")

#: The defaults of :data:`DEFAULT_STRATEGY`'s re-ranked list and home rate; each was chosen on
#: the rerank probe's hands (never the regret protocol's), see ``docs/studies.md``.
RERANK_TOP = 6
RERANK_WINDOW = 0.5
RERANK_CAP = 5.0
RERANK_WIDE_TOP = 10
RERANK_WIDE_WINDOW = 1.5
RERANK_HOME_RATE = 0.25

Weights: TypeAlias = tuple[float, float]


@dataclass(frozen=True, eq=False, repr=False)  # __repr__ below shows the options
class ExpectedScore(MaxEV):
    """The split with the largest expected score under the variant's rules as the scorer
    applies them: max-ev's search and payouts (:mod:`simkit.arrange.value`) on fine dun
    classes (:func:`~simkit.arrange.classes.fine_classes`), the 马牌 of a winning dun priced
    (:func:`~simkit.arrange.value.horse_model`), equal values going to the stronger front.

    One strategy with named options; :data:`PRESETS` names the combinations a command line
    chooses by name (``expected-score``: every option at its default;
    ``expected-score-rerank``, the default strategy: see :func:`default_strategy`).

    The value of a split:

    ``tables``: fine-class win tables (None: the shipped ones,
    :func:`~simkit.arrange.wintables.default_fine_tables`).
    ``weights``: (scoop, home run) weights of those terms (None: the ones fitted for the
    tables, the place model's where ``places`` is on and it carries them,
    :func:`~simkit.arrange.wintables.objective_weights`).
    ``joint``: price scoops and majorities by the opponents' copula
    (:mod:`simkit.arrange.joint`); False: as independent duns.
    ``removal``: shift the tables by the hand's removal bucket where they carry shifts
    (:mod:`simkit.arrange.removal`).
    ``places``: price dun points by the t-formula's places where the tables carry a place
    model (:class:`~simkit.arrange.value.PlaceModel`).
    ``home_rate``: the chance that an opponent who scoops the hand scoops every other player
    too (the payout record's ``home_rate``; 0: the table's scoop rate for each other player).
    ``conditioning``: the hand's own card removal, its tables shifted by the card-removal
    model shipped for the tables (:class:`~simkit.arrange.removal.RemovalModel`): ``"none"``;
    ``"auto"``, where a model fits these tables and options (else none); ``"model"``, an
    error where none fits.

    The search:

    ``search="full"``: the exact search of that value.  ``search="rerank"``
    (:mod:`simkit.arrange.rerank`): expected-score's search (:meth:`first`) keeps its best
    ``top`` splits of distinct class triples within ``window`` points of its best (that
    value capped at ``cap``), ``wide_top`` within ``wide_window`` for a hand holding two
    trips, or trips and ``wide_pairs`` pairs (:func:`~simkit.arrange.rerank.keeps_wide`);
    the best of them by the value above is played.  It needs the hand's own card removal:
    where no model fits, :meth:`first` plays alone.

    Raises :class:`~simkit.errors.SimkitError` on an option of the wrong type or out of range.
    """

    weights: Weights | None = None
    joint: bool = True
    removal: bool = True
    places: bool = False
    home_rate: float = 0.0
    conditioning: str = "none"
    search: str = "full"
    top: int = RERANK_TOP
    window: float = RERANK_WINDOW
    cap: float = RERANK_CAP
    wide_top: int = RERANK_WIDE_TOP
    wide_window: float = RERANK_WIDE_WINDOW
    wide_pairs: int = WIDE_PAIRS
    #: The preset this strategy was made from (:data:`PRESETS`), its name in results.
    name: str = field(default="expected-score", kw_only=True, compare=False)

    def __post_init__(self) -> None:
        numbers = (("top", int), ("wide_top", int), ("wide_pairs", int), ("window", float),
                   ("cap", float), ("wide_window", float), ("home_rate", float))  # fmt: skip
        for key, kind in numbers:
            value = getattr(self, key)
            if isinstance(value, bool) or not isinstance(value, (int, kind)):
                what = "an integer" if kind is int else "a number"
                raise SimkitError(f"{key} must be {what}, got {value!r}")
        for key, allowed in (("conditioning", CONDITIONING), ("search", SEARCHES)):
            if getattr(self, key) not in allowed:
                raise SimkitError(
                    f"{key} must be one of {', '.join(allowed)}, got {getattr(self, key)!r}"
                )
        try:
            check_list(*self.rerank_list())
            check_home_rate(float(self.home_rate))
        except ValueError as e:
            raise SimkitError(str(e)) from None
        if self.search == "rerank" and self.conditioning == "none":
            raise SimkitError(
                "search=rerank re-ranks by the hand's own card removal: conditioning is auto "
                "or model"
            )

    # -- the value ---------------------------------------------------------------------------

    def _tables(self, v: Variant, n_players: int) -> WinTables:
        return self.tables if self.tables is not None else default_fine_tables(v, n_players)

    def _weights(self, tables: WinTables) -> Weights:
        if self.weights is not None:
            return self.weights
        entry = place_entry(tables) if self.places else None
        if entry is not None and "weights" in entry:  # fitted over the places
            return float(entry["weights"]["scoop"]), float(entry["weights"]["home_run"])
        return objective_weights(tables)

    def _make(self, v: Variant, n_players: int, tables: WinTables, weights: Weights) -> Solver:
        entry = place_entry(tables) if self.places else None
        return make_solver(
            v, n_players, tables, horse=True, front_first=True, dtype=np.float32,
            weights=weights, joint=self.joint,
            place=None if entry is None else PlaceModel.from_meta(entry),
            home_rate=float(self.home_rate),
        )  # fmt: skip

    def solver(self, variant: str | Variant | None, n_players: int) -> Solver:
        """The search of this value on the pooled tables (no removal buckets, no hand's own
        card removal: :meth:`solvers` and :meth:`hand_solver` have them)."""
        v = resolve_variant(variant)
        tables = self._tables(v, n_players)
        return self._make(v, n_players, tables, self._weights(tables))

    def solvers(self, variant: str | Variant | None, n_players: int) -> tuple[Solver, ...]:
        """One search per removal bucket where the tables carry removal shifts and
        ``removal`` is on (built once per tables, variant and options), else
        ``(solver,)``."""
        v = resolve_variant(variant)
        tables = self._tables(v, n_players)
        if not self.removal or tables.removal is None:
            return (self.solver(v, n_players),)
        weights = self._weights(tables)
        key = (id(tables), id(v), n_players, weights, self.joint, self.places, self.home_rate)
        return _recent(
            _BUCKET_SOLVERS, key,
            lambda: tuple(self._make(v, n_players, t, weights) for t in bucket_tables(tables)),
            tables, v,
        )  # fmt: skip

    def setter_name(self) -> str:
        """The strategy that set the pool a card-removal model is fitted to, as the model's
        :func:`~simkit.arrange.removal.model_key` names it."""
        return f"expected-score(weights={self.weights}, joint={self.joint}, places={self.places})"

    def removal_model(self, variant: str | Variant | None, n_players: int) -> RemovalModel | None:
        """The card-removal model this strategy reads for ``variant`` at ``n_players``: None
        where ``conditioning`` is ``"none"``, the deck is not one plain deck, the tables are
        not fine ones or (``"auto"``) no shipped model was fitted for these tables and
        options.  Raises :class:`~simkit.errors.SimkitError` where ``conditioning`` is
        ``"model"`` and none fits."""
        if self.conditioning == "none":
            return None
        v = resolve_variant(variant)
        tables = self._tables(v, n_players)
        if not v.deck_for(n_players).is_one_deck or tables.win.shape[1] == N_CLASSES:
            return None
        key = (id(tables), id(v), n_players, self.setter_name())

        def find() -> RemovalModel | None:
            # the model ships beside the tables of these rules, whatever the variant's name
            shipped = shipped_name_for(v, n_players, fine=True)
            model = None if shipped is None else shipped_removal_model(shipped, n_players)
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
                "for the shipped tables with places on); use conditioning=auto or none"
            )
        return model

    def hand_solver(self, row: np.ndarray, variant: str | Variant | None, n_players: int) -> Solver:
        """The search whose value sets the hand ``row`` (card ints ``(13,)``): on the hand's
        own tables where a card-removal model applies; else :meth:`first`'s where the search
        re-ranks, this strategy's removal bucket's otherwise."""
        v = resolve_variant(variant)
        model = self.removal_model(v, n_players)
        if model is not None:
            tables = self._tables(v, n_players)
            own = model_tables(tables, np.asarray(row), model)
            return self._make(v, n_players, own, self._weights(tables))
        if self.search == "rerank":
            return self.first().hand_solver(row, v, n_players)
        return super().hand_solver(row, v, n_players)

    # -- the search --------------------------------------------------------------------------

    def first(self) -> ExpectedScore:
        """The search whose best splits ``search="rerank"`` re-ranks: expected-score on the
        same tables, weights, joint chances and removal buckets, without the places, the home
        rate or the hand's own card removal."""
        return ExpectedScore(self.tables, self.weights, self.joint, self.removal)

    def rerank_list(self) -> tuple[int, float, float, int, float, int]:
        """The kept list as :func:`~simkit.arrange.rerank.rerank_ids` takes it:
        ``(top, window, cap, wide_top, wide_window, wide_pairs)``."""
        return (
            self.top, float(self.window), float(self.cap), self.wide_top,
            float(self.wide_window), self.wide_pairs,
        )  # fmt: skip

    def one_pass_search(self, variant: Variant, n_players: int) -> MaxEV | None:
        """None where a card-removal model fits (each hand is searched on its own tables, by
        :meth:`choose_splits`); else :meth:`first` where ``search="rerank"`` (it plays alone
        without the model), this strategy otherwise."""
        if self.removal_model(variant, n_players) is not None:
            return None  # each hand its own tables: choose_splits
        return self.first() if self.search == "rerank" else self

    def choose_splits(
        self, rows: np.ndarray, variant: Variant, *, n_players: int, rng: RngLike = None
    ) -> Choice:
        """The split of each hand of ``rows`` (``int8 (n, 13)``, each row sorted) and its
        value: split ids ``int64 (n, 3)`` and expected scores ``(n,)``.  Without a
        card-removal model (:meth:`removal_model`): :class:`MaxEV`'s answer for this search,
        or for :meth:`first` where ``search="rerank"``; with one, each hand valued on its own
        tables, by the full search or by re-ranking :meth:`first`'s best splits
        (:func:`~simkit.arrange.rerank.rerank_ids`).  ``rng`` is not used.  Raises
        :class:`~simkit.errors.SimkitError` where ``search="rerank"`` would re-rank on tables
        with removal buckets (a model fits and ``removal`` is on)."""
        model = self.removal_model(variant, n_players)
        if model is None:  # no hand's own removal: one search, or the first search alone
            searched = self.first() if self.search == "rerank" else self
            return MaxEV.choose_splits(searched, rows, variant, n_players=n_players)
        if self.search == "full":
            ids, values, _ = model_ids(rows, self.solver(variant, n_players), model)
            return ids, values
        group = self.first().solvers(variant, n_players)
        if len(group) != 1:  # removal buckets: a hand's own tables are the model's
            raise SimkitError(
                "search=rerank re-ranks one search: use removal=false with tables that carry "
                "removal buckets"
            )
        if self.top == 1 and self.wide_top == 1:
            ids, values, _ = max_ev_ids(rows, group[0])
            return ids, values
        ids, values, _, _ = rerank_ids(
            rows, group[0], self.solver(variant, n_players), model, *self.rerank_list()
        )
        return ids, values

    def reference_splits(
        self, rows: np.ndarray, variant: str | Variant, n_players: int
    ) -> tuple[np.ndarray, np.ndarray]:
        """The splits and values of ``search="rerank"`` where a card-removal model fits,
        found by scanning every split (:func:`~simkit.arrange.rerank.reference_rerank`, each
        hand re-ranked by a solver built for it alone): the slow check of the search.
        ``rows``: sorted hands ``int8 (n, 13)``; returns ids ``int64 (n, 3)`` and values
        ``float64 (n,)``.  Raises ValueError where nothing is re-ranked."""
        v = resolve_variant(variant)
        if self.search != "rerank" or self.removal_model(v, n_players) is None:
            raise ValueError(
                f"{self!r} re-ranks nothing in {v.name} at {n_players} players: its reference "
                "there is expected-score's exhaustive scan"
            )
        first = self.first().solver(v, n_players)
        ids = np.empty((len(rows), 3), dtype=np.int64)
        values = np.empty(len(rows), dtype=np.float64)
        for i, row in enumerate(rows):
            ids[i], values[i] = reference_rerank(
                row, first, self.hand_solver(row, v, n_players), *self.rerank_list()
            )
        return ids, values

    def with_tables(self, tables: WinTables | None) -> ExpectedScore:
        """This strategy, options and name kept, with other win tables (None: the variant's
        default fine tables)."""
        return replace(self, tables=tables)

    def __repr__(self) -> str:
        """The preset's name and the options that differ from it, as a command line writes
        them (``expected-score-rerank:top=3``), with the tables' file where given."""
        base = PRESETS.get(self.name, ExpectedScore)()
        options = [
            f"{f.name}={getattr(self, f.name)}"
            for f in fields(self)
            if f.name not in ("tables", "name") and getattr(self, f.name) != getattr(base, f.name)
        ]
        if self.tables is not None:
            options.insert(0, f"tables={self.tables.meta.get('file', 'WinTables(...)')!r}")
        return self.name + (":" + ",".join(options) if options else "")


def default_strategy(tables: WinTables | None = None) -> ExpectedScore:
    """:data:`DEFAULT_STRATEGY`, built top to bottom (``tables``: None, the shipped fine
    tables).

    The value: expected-score's (fine classes, the 马牌, the copula of the opponents' duns),
    with the t-formula's places priced and the home run against the hand at
    :data:`RERANK_HOME_RATE`, on the hand's own tables by the card-removal model shipped for
    guangxi and guangxi-regional at 4 players.  The search: expected-score's plain search
    keeps its best six splits within half a point of its best (ten within 1.5 points for a
    hand of two trips, or trips and three pairs), and the best of them by that value is
    played.  Where no card-removal model fits (other variants, player counts, decks or
    tables), expected-score's plain search plays alone.
    """
    return ExpectedScore(
        tables,
        places=True,
        home_rate=RERANK_HOME_RATE,
        conditioning="auto",
        search="rerank",
        top=RERANK_TOP,
        window=RERANK_WINDOW,
        cap=RERANK_CAP,
        wide_top=RERANK_WIDE_TOP,
        wide_window=RERANK_WIDE_WINDOW,
        wide_pairs=WIDE_PAIRS,
        name="expected-score-rerank",
    )


#: The options a command line may set on each preset (``name:key=value,...``); any other
#: is refused with this list.
_VALUE_OPTIONS = ("joint", "removal", "places", "home_rate", "conditioning")
PRESET_OPTIONS: dict[str, tuple[str, ...]] = {
    "expected-score": (*_VALUE_OPTIONS, "search"),
    "expected-score-rerank": (
        *_VALUE_OPTIONS, "top", "window", "cap", "wide_top", "wide_window", "wide_pairs",
    ),
}  # fmt: skip
#: The named presets of :class:`ExpectedScore`: each name's construction (tables: None, the
#: shipped ones).
PRESETS: dict[str, Callable[[], ExpectedScore]] = {
    "expected-score": ExpectedScore,
    "expected-score-rerank": default_strategy,
}


#: Recent sets of bucket solvers (80 searches of about 0.7 MB each) and pools (a few MB
#: each), keyed by the ids of the tables and variant they were built from, which they hold (so
#: that the ids stay theirs).
_BUCKET_SOLVERS: dict[tuple[object, ...], tuple[WinTables, Variant, tuple[Solver, ...]]] = {}
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

    name: str = field(default="greedy", init=False, repr=False, compare=False)

    def choose_splits(
        self, rows: np.ndarray, variant: Variant, *, n_players: int, rng: RngLike = None
    ) -> Choice:
        """The greedy split of each hand of ``rows`` (``int8 (n, 13)``, each row sorted):
        split ids ``int64 (n, 3)`` and no expected score (None).  ``rng`` is not used."""
        ids = np.empty((rows.shape[0], 3), dtype=np.int64)
        greedy_kernel(rows, rank_tables_of(variant), BACK_REST, foul_strict(variant), ids)
        return ids, None


@dataclass(frozen=True)
class RandomLegal(Strategy):
    """A uniformly random legal split (a baseline); ``rng`` seeds it."""

    name: str = field(default="random-legal", init=False, repr=False, compare=False)

    def choose_splits(
        self, rows: np.ndarray, variant: Variant, *, n_players: int, rng: RngLike = None
    ) -> Choice:
        """A legal split of each hand of ``rows`` (``int8 (n, 13)``, each row sorted) drawn
        uniformly, one seed per hand from ``rng``: split ids ``int64 (n, 3)`` and no
        expected score (None).  The same ``rng`` gives the same splits."""
        ids = np.empty((rows.shape[0], 3), dtype=np.int64)
        seeds = as_generator(rng).integers(0, 2**63, size=rows.shape[0], dtype=np.uint64)
        random_kernel(rows, seeds, rank_tables_of(variant), SPLIT_IDS, foul_strict(variant), ids)
        return ids, None


@dataclass(frozen=True)
class Objective(Strategy):
    """A research objective: ``objective(ranks)`` with ``ranks`` an ``int32 (n_splits, 3)``
    array of (front, middle, back) dun ranks of one hand's legal splits returns
    ``(n_splits,)`` scores; the best one is kept (one call per hand: a research tool)."""

    objective: Callable[[np.ndarray], np.ndarray]
    name: str = field(default="objective", init=False, repr=False, compare=False)

    def choose_splits(
        self, rows: np.ndarray, variant: Variant, *, n_players: int, rng: RngLike = None
    ) -> Choice:
        """The legal split of each hand of ``rows`` (``int8 (n, 13)``, each row sorted) that
        the objective scores highest (the first on a tie): split ids ``int64 (n, 3)`` and no
        expected score (None).  ``rng`` is not used.  Raises
        :class:`~simkit.errors.SimkitError` where the objective does not return one score
        per split."""
        rt = rank_tables_of(variant)
        strict = foul_strict(variant)
        out = np.empty((rows.shape[0], 3), dtype=np.int64)
        for h in range(rows.shape[0]):
            ids, ranks = legal_ranks_kernel(rows[h], rt, BACK_REST, strict)
            scores = np.asarray(self.objective(ranks), dtype=np.float64)
            if scores.shape != (ranks.shape[0],):
                raise SimkitError(
                    f"objective must return one score per split, shape ({ranks.shape[0]},), "
                    f"got {scores.shape}"
                )
            out[h] = ids[int(np.argmax(scores))]
        return out, None


#: The strategy every run, search and measurement plays unless told otherwise: the
#: :class:`ExpectedScore` preset :func:`default_strategy` builds.
DEFAULT_STRATEGY = "expected-score-rerank"
StrategyName: TypeAlias = Literal[
    "expected-score-rerank", "expected-score", "max-ev", "greedy", "random-legal", "rollout"
]
#: What :func:`~simkit.arrange.arrange` accepts as a strategy: a strategy, a name in
#: :func:`strategy_names` (checked when used) or a callable objective.
StrategyLike: TypeAlias = Strategy | StrategyName | str | Callable[[np.ndarray], np.ndarray]


@dataclass(frozen=True)
class _Entry:
    """A registered name: what builds its strategy, and the options (by name, with their
    types) a command line may set on it."""

    build: Callable[[], Strategy]
    options: dict[str, type]


_REGISTRY: dict[str, _Entry] = {}
_S = TypeVar("_S", bound=Strategy)
#: Strategies defined in later stages, by name: the module that defines and registers each
#: (imported when the name is first used, so that this stage imports nothing later).
LATER_STRATEGIES: dict[str, str] = {"rollout": "simkit.rollout"}


def register_strategy(
    cls: type[_S],
    *,
    name: str | None = None,
    build: Callable[[], Strategy] | None = None,
    options: tuple[str, ...] | None = None,
) -> type[_S]:
    """Make ``name`` (default ``cls.name``) choose the strategy ``build()`` (default
    ``cls()``) in :func:`as_strategy` and :func:`strategy_from_name`, with ``options`` (default:
    every field of ``cls`` with a plain default) settable from a command line.  Usable as a
    class decorator.  Raises :class:`~simkit.errors.SimkitError` where the name is taken."""
    key = cls.name if name is None else name
    if key in _REGISTRY:
        raise SimkitError(f"strategy name {key!r} is taken")
    settable = _settable(cls)
    if options is not None:
        settable = {k: settable[k] for k in options}
    _REGISTRY[key] = _Entry(cls if build is None else build, settable)
    return cls


def strategy_names() -> tuple[str, ...]:
    """Every name a strategy can be chosen by: the registered ones, then the later ones."""
    return tuple(dict.fromkeys([*_REGISTRY, *LATER_STRATEGIES]))


def _entry(name: str) -> _Entry | None:
    if name not in _REGISTRY and name in LATER_STRATEGIES:
        importlib.import_module(LATER_STRATEGIES[name])  # registers it
    return _REGISTRY.get(name)


def as_strategy(strategy: StrategyLike) -> Strategy:
    """A :class:`Strategy` from a strategy, a name in :func:`strategy_names` (with options as
    ``name:key=value,...``: :func:`strategy_from_name`) or a callable objective
    (:class:`Objective`).  Raises :class:`~simkit.errors.SimkitError` for an unknown name."""
    if isinstance(strategy, Strategy):
        return strategy
    if isinstance(strategy, str) and (entry := _entry(strategy)) is not None:
        return entry.build()
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
        if f.init
        and f.name != "name"
        and f.default is not MISSING
        and type(f.default) in _OPTION_TYPES
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


def _with_options(name: str, entry: _Entry, options: str, spec: str) -> Strategy:
    """``name``'s strategy with the ``key=value`` pairs of ``options`` (comma-separated; ``-``
    in a key reads as ``_``), each checked against the options ``entry`` lets a command line
    set before any is set."""
    kwargs: dict[str, object] = {}
    for item in options.split(","):
        key, eq, raw = item.partition("=")
        key = key.strip().replace("-", "_")
        if not eq or not key or not raw.strip():
            raise SimkitError(f"strategy option {item!r} in {spec!r} is not key=value")
        if key not in entry.options:
            have = ", ".join(entry.options) or "none"
            raise SimkitError(
                f"strategy {name!r} has no option {key!r} a command line can set (it has: {have})"
            )
        if key in kwargs:
            raise SimkitError(f"strategy option {key} is given twice in {spec!r}")
        kwargs[key] = _option_value(entry.options[key], raw.strip(), key, spec)
    return replace(entry.build(), **kwargs)  # type: ignore[type-var]


def strategy_from_name(spec: str) -> Strategy:
    """A strategy named on a command line: a name in :func:`strategy_names`, with options as
    ``name:key=value,...`` (``expected-score-rerank:top=3``: the options the name lets a
    command line set, :data:`PRESET_OPTIONS` for expected-score's presets), or an ``.npz``
    table file (max-ev with those tables; expected-score with fine-class ones).  Raises
    :class:`~simkit.errors.SimkitError` for an unknown name, an option the name does not
    take (naming the ones it does) or a value of the wrong type."""
    if spec.endswith(".npz"):
        if not Path(spec).exists():
            raise SimkitError(f"no such table file: {spec}")
        tables = WinTables.load(spec)
        # fine-class tables are expected-score's (simkit train --strategy expected-score)
        return (ExpectedScore if tables.win.shape[1] != N_CLASSES else MaxEV)(tables)
    name, colon, options = spec.partition(":")
    name = name.strip()
    if (entry := _entry(name)) is not None:
        return _with_options(name, entry, options, spec) if colon else entry.build()
    raise SimkitError(
        f"unknown strategy {name!r}: use one of {', '.join(strategy_names())} (options as "
        "name:key=value,...) or a trained .npz table"
    )


register_strategy(MaxEV)
register_strategy(Greedy)
register_strategy(RandomLegal)
for _name, _build in PRESETS.items():
    register_strategy(ExpectedScore, name=_name, build=_build, options=PRESET_OPTIONS[_name])
#: The names of the built-in strategies (:func:`strategy_names` adds the later ones).
STRATEGIES = tuple(_REGISTRY)
