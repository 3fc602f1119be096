"""Re-ranking expected-score's best few splits by the hand's own card removal and the places.

The card-removal model (:class:`~simkit.arrange.removal.RemovalModel`) and the t-formula's
places (:class:`~simkit.arrange.value.PlaceModel`) value a split better than expected-score's
plain tables, but searched over every split they cost about twice its time: the hand's own
quantities are written at every class the search reads, and the places' value, which
saturates for strong hands, prunes less.  The split they choose is nearly always among the
few expected-score ranks best.  So the search here (:func:`_rerank_kernel`: the one walk of
:mod:`simkit.arrange.search` keeping its best ``top`` splits of distinct class triples) keeps
only those, and only they are valued under the hand's own tables and the places: at most
``3 · top`` classes conditioned, ``top`` splits valued.

The list keeps only splits near the best (:func:`window_bar`: ``window`` points below its
value, that value capped at ``cap``), since a bar close under the best prunes far more than
the ``top``-th value does; strong hands (the best above ``cap``) keep their best ``top`` down
to ``cap - window``, since the places can lift a split far above the rest.

A hand holding two trips, or one trips and :data:`WIDE_PAIRS` pairs (:func:`keeps_wide`),
keeps a longer list in a wider window (``wide_top``, ``wide_window``).  Two trips take those
ranks from the opponents, so a split that sets a second full house is worth more under the
hand's own tables than under expected-score's; and the home run priced against the hand by
its own rate (:attr:`~simkit.arrange.strategies.ExpectedScore.home_rate`) moves a hand of
trips and three pairs to a split expected-score ranks up to a point under its best.  Whether
a hand keeps the longer list is known from its cards before the search, so its bar is as
monotone as the others' and the search stays exact.  The measurements behind ``top``, the
windows and the wide lists are listed in the docs' studies page (``docs/studies.md``).

Splits of equal class triples have equal values under both objectives (the model shifts a
class, not a split), so the list keeps one split of each triple, the one expected-score's
tie-break prefers.  (Under a 马牌 two splits of one triple may hold the card in different
duns and differ in value; the list keeps the one expected-score values higher.  No variant
with a card-removal model plays one.)  The order of the list is that tie-break's total
order (value, then the stronger front, back, middle, front, then lower subset ids:
:func:`~simkit.arrange.search.dun_beats`), and the re-ranked value's ties go to the split earlier
in it.  :func:`reference_rerank` is the same by scanning all 72,072 splits.
"""

from __future__ import annotations

from typing import NamedTuple

import numba as nb
import numpy as np

from simkit.arrange.classes import CLASS_BITS, fine_classes
from simkit.arrange.conditioned import set_quantities
from simkit.arrange.removal import MAX_HAND_FEATURES, RemovalModel, hand_features
from simkit.arrange.search import (
    KEY_CF,
    KEY_IB,
    KEY_IF,
    KEY_IM,
    SPLIT_IDS,
    Solver,
    clear_groups,
    hand_groups,
    horse_copies,
    next_generation,
    search_walk,
    split_values,
    values_kernel,
    walk_scratch,
    walk_tables,
    window_bar,
)
from simkit.borrow import borrowed
from simkit.cards import check_plain_deck
from simkit.evaluate import orders_hold, rank3, rank5
from simkit.splits import FIVE_SUBSETS, THREE_SUBSETS, split_positions

#: The largest list a search keeps.
MAX_TOP = 64
#: A hand holding this many trips or more (ranks of three or four of its cards), or one trips
#: and ``wide_pairs`` pairs or more (:data:`WIDE_PAIRS` unless told), keeps the wide list
#: (``wide_top``): see the module's notes.  One trips leaves ten cards, five pairs at most, so
#: ``wide_pairs`` 6 or more gives the wide list to two trips only (the list before the home
#: rate).
WIDE_TRIPS = 2
WIDE_PAIRS = 3
#: The largest ``wide_pairs`` a list takes (none holds as many: two trips only).
MAX_WIDE_PAIRS = 6


@nb.njit(cache=True)
def rank_groups(hand):
    """``(trips, pairs)``: how many ranks ``hand`` (plain-deck cards, rank ``card >> 2``)
    holds three or four cards of, and exactly two."""
    one = 0
    two = 0
    three = 0
    for i in range(hand.shape[0]):
        bit = 1 << (hand[i] >> 2)
        three |= two & bit
        two |= one & bit
        one |= bit
    pairs = two & ~three
    return _bits(three), _bits(pairs)


@nb.njit(cache=True)
def _bits(x):
    n = 0
    while x:
        x &= x - 1
        n += 1
    return n


@nb.njit(cache=True)
def trips_held(hand):
    """How many ranks ``hand`` holds three or four cards of (:func:`rank_groups`)."""
    return rank_groups(hand)[0]


@nb.njit(cache=True)
def keeps_wide(hand, wide_pairs=WIDE_PAIRS):
    """Whether ``hand`` keeps the wide list: it holds :data:`WIDE_TRIPS` trips or more, or
    one trips and ``wide_pairs`` pairs or more."""
    trips, pairs = rank_groups(hand)
    return trips >= WIDE_TRIPS or (trips >= 1 and pairs >= wide_pairs)


@nb.njit(cache=True)
def hand_list(hand, top, window, wide_top, wide_window, wide_pairs=WIDE_PAIRS):
    """The list ``hand`` keeps, its length and window: ``(wide_top, wide_window)`` where it
    keeps the wide list (:func:`keeps_wide` with ``wide_pairs``), else ``(top, window)``."""
    if keeps_wide(hand, wide_pairs):
        return wide_top, wide_window
    return top, window


def check_window(window: float, cap: float, name: str = "window") -> None:
    """The window's options, checked: ``window`` (an option called ``name``) a number of
    points at least 0 (``inf``: no window), ``cap`` a number (``inf``: no cap)."""
    if not window >= 0.0:  # NaN too
        raise ValueError(f"{name} must be a number of points >= 0 (inf: none), got {window}")
    if cap != cap or cap == -np.inf:
        raise ValueError(f"cap must be a number of points (inf: none), got {cap}")


def check_list(
    top: int,
    window: float,
    cap: float,
    wide_top: int,
    wide_window: float,
    wide_pairs: int = WIDE_PAIRS,
) -> None:
    """The list's options, checked: ``top`` and ``wide_top`` in 1..:data:`MAX_TOP`,
    ``wide_pairs`` in 0..:data:`MAX_WIDE_PAIRS`, the windows and the cap by
    :func:`check_window`."""
    for name, k, low, high in (
        ("top", top, 1, MAX_TOP), ("wide_top", wide_top, 1, MAX_TOP),
        ("wide_pairs", wide_pairs, 0, MAX_WIDE_PAIRS),
    ):  # fmt: skip
        if not low <= k <= high:
            raise ValueError(f"{name} must lie in {low}..{high}, got {k}")
    check_window(window, cap)
    check_window(wide_window, cap, "wide_window")


def _wide_list(
    top: int, window: float, wide_top: int | None, wide_window: float | None
) -> tuple[int, float]:
    """``wide_top`` and ``wide_window``, None read as ``top`` and ``window`` (one list for
    every hand)."""
    return (top if wide_top is None else wide_top, window if wide_window is None else wide_window)


class ListOptions(NamedTuple):
    """The kept list's options (:func:`rerank_ids`): ``top`` splits within ``window`` of the
    best for most hands, ``wide_top`` within ``wide_window`` for a hand that keeps the wide
    list (:func:`keeps_wide` with ``wide_pairs``), the best's value capped at ``cap`` in the
    window's bar (:func:`window_bar`)."""

    top: int
    window: float
    wide_top: int
    wide_window: float
    wide_pairs: int
    cap: float


class Reranking(NamedTuple):
    """What the kept splits are re-ranked by: ``q`` ``(1, 3, C, 4)``, a copy of the base
    quantities into which the hand's own are written (win points and lose pay kept from the
    base); ``p``, ``cop``: the re-ranking payout's record
    (:data:`~simkit.arrange.value.PAYOUT_PARAMS`) and copula; ``weights``: the card-removal
    model's (:attr:`~simkit.arrange.removal.RemovalModel.weights`); ``win``,
    ``tie``: float64 ``(3, C)``, the fine tables it shifts."""

    q: np.ndarray
    p: np.void
    cop: np.ndarray
    weights: np.ndarray
    win: np.ndarray
    tie: np.ndarray


@nb.njit(cache=True)
def _rerank_kernel(hands, solver, tables, options, own, out, values, n_scored, n_kept):
    """For each hand: expected-score's best ``top`` splits of distinct class triples under
    ``solver`` (:class:`~simkit.arrange.search.SolverData`, no places), by
    :func:`~simkit.arrange.search.search_walk` with the list's options ``options``
    (:class:`ListOptions`: a hand that keeps the wide list, :func:`keeps_wide`, keeps
    ``wide_top`` splits within ``wide_window``, :func:`hand_list`), then each valued under
    the hand's own tables and the re-ranking payout ``own`` (:class:`Reranking`); the best of
    them, the earlier on a tie.  ``tables``: :class:`~simkit.arrange.search.WalkTables`.

    ``out`` int64 ``(n, 3)``: the split's ids; ``values`` float64: its value under the hand's
    own tables; ``n_scored``: the splits the search scored; ``n_kept``: the list's length."""
    top_max = max(options.top, options.wide_top)
    work = walk_scratch(tables.group_of[solver.q.shape[1] - 1] + 1, top_max)
    q_own = own.q
    # the re-ranking's scratch (set_quantities' favourable and separable outputs are not read)
    listed = (
        np.empty(MAX_HAND_FEATURES, dtype=np.int64),
        np.empty((1, *q_own.shape[1:3], 2), dtype=q_own.dtype),
        np.empty((1, *q_own.shape[1:3]), dtype=np.float64),
        np.empty((top_max, 3), dtype=np.int64),
        np.empty((top_max, 3), dtype=np.float64),
        np.empty(top_max, dtype=np.float64),
    )
    _rerank_hands(hands, solver, tables, options, own, out, values, n_scored, n_kept, work, listed)


@nb.njit(cache=True)
def _rerank_hands(hands, solver, tables, options, own, out, values, n_scored, n_kept, work, listed):
    """:func:`_rerank_kernel` on the scratch ``work``
    (:func:`~simkit.arrange.search.walk_scratch`) and ``listed``, every array borrowed
    (:func:`simkit.borrow.borrowed`: the caller holds them all)."""
    hands, solver, tables, own, out, values, n_scored, n_kept, work, listed = borrowed(
        (hands, solver, tables, own, out, values, n_scored, n_kept, work, listed)
    )
    tk = work.kept_keys
    n_gen = 0
    for h in range(hands.shape[0]):
        groups = hand_groups(hands[h], tables, work)
        n_gen, gen = next_generation(n_gen, work.memo_key)
        top_h, window_h = hand_list(
            hands[h], options.top, options.window, options.wide_top, options.wide_window,
            options.wide_pairs,
        )  # fmt: skip
        n, scored = search_walk(
            h, hands[h], groups, solver, tables, work, top_h, window_h, options.cap, gen
        )
        clear_groups(work.head, work.present, work.group_list, groups[2])
        best, best_v = _rerank_kept(hands[h], n, solver.horse, work, own, listed)
        out[h, 0], out[h, 1], out[h, 2] = tk[best, KEY_IF], tk[best, KEY_IM], tk[best, KEY_IB]
        values[h] = best_v
        n_scored[h] = scored
        n_kept[h] = n


@nb.njit(cache=True, inline="always")
def _rerank_kept(hand, n, horse, work, own, listed):
    """The best of the ``n`` splits kept in ``work`` (:func:`~simkit.arrange.search.
    search_walk`) under the hand's own tables and the re-ranking payout ``own``
    (:class:`Reranking`; the 马牌 card ``horse``, -1 none, counted by the extra counts the
    walk left in ``work``), on the scratch ``listed``: its place in the list (the earlier on
    a tie) and its value."""
    active, fav_own, sep_own, kept_classes, extra, own_values = listed
    tk, x5, x3 = work.kept_keys, work.x5, work.x3
    has_horse = False
    for i in range(hand.shape[0]):
        has_horse |= horse >= 0 and hand[i] == horse
    n_active = hand_features(hand, active)
    for i in range(n):
        for d in range(3):
            c = tk[i, KEY_CF + d]
            row = own.weights[d, c]
            s = 0.0
            for j in range(n_active):
                s += np.float64(row[active[j]])
            set_quantities(s, d, c, own.win, own.tie, own.q, fav_own, sep_own, -np.inf, np.inf)
            kept_classes[i, d] = c
        if has_horse:
            extra[i, 0] = x3[tk[i, KEY_IF]]
            extra[i, 1] = x5[tk[i, KEY_IM]]
            extra[i, 2] = x5[tk[i, KEY_IB]]
        else:
            extra[i, :] = 0.0
    values_kernel(kept_classes[:n], own.q[0], own.p, own.cop, extra[:n], own_values[:n])
    best = 0
    for i in range(1, n):
        if own_values[i] > own_values[best]:
            best = i
    return best, own_values[best]


def rerank_ids(
    rows: np.ndarray,
    solver: Solver,
    own: Solver,
    model: RemovalModel,
    top: int,
    window: float = np.inf,
    cap: float = np.inf,
    wide_top: int | None = None,
    wide_window: float | None = None,
    wide_pairs: int = WIDE_PAIRS,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Each hand of ``rows`` set by the best of ``solver``'s ``top`` best splits of distinct
    class triples within its window (:func:`window_bar`: ``window`` below the best's value,
    that value capped at ``cap``), valued under ``own``'s payout on the hand's tables
    conditioned by ``model`` (:func:`~simkit.arrange.conditioned.model_tables`): split ids
    ``(n, 3)``, their values under the hand's own tables, the splits the search scored and
    the splits kept, per hand.

    ``solver``: expected-score's search (fine tables, no places); ``own``: the same tables
    with the payout the splits are re-ranked by (the places).  ``window=inf`` (the default
    here) keeps the best ``top`` whatever their values.  ``wide_top``, ``wide_window``: the
    list's length and window for a hand that keeps the wide list (:func:`keeps_wide`: two
    trips, or one and ``wide_pairs`` pairs; None: ``top``, ``window``)."""
    wide_top, wide_window = _wide_list(top, window, wide_top, wide_window)
    check_list(top, window, cap, wide_top, wide_window, wide_pairs)
    for name, s in (("solver", solver), ("own", own)):
        if s.tables.win.shape != s.q.shape[:2]:
            raise ValueError(f"rerank_ids needs {name} on fine tables")
    if solver.model.params["place"] > 0.0:
        raise ValueError("rerank_ids: the first search prices no places (own does)")
    if (
        own.variant.name != solver.variant.name
        or own.q.shape != solver.q.shape
        or (
            own.tables is not solver.tables
            and not (
                np.array_equal(own.tables.win, solver.tables.win)
                and np.array_equal(own.tables.tie, solver.tables.tie)
            )
        )
    ):
        raise ValueError("rerank_ids: solver and own must be one variant's, on the same tables")
    model.check_fits(solver.tables)
    rows = np.ascontiguousarray(rows)
    check_plain_deck(rows, "rerank_ids needs")
    n = rows.shape[0]
    ids = np.empty((n, 3), dtype=np.int64)
    values = np.empty(n, dtype=np.float64)
    n_scored = np.empty(n, dtype=np.int64)
    n_kept = np.empty(n, dtype=np.int64)
    reranking = Reranking(
        own.q.copy().reshape((1, *own.q.shape)),  # win points and lose pay from the base
        own.model.record,
        own.joint,
        model.weights,
        np.ascontiguousarray(own.tables.win, dtype=np.float64),
        np.ascontiguousarray(own.tables.tie, dtype=np.float64),
    )
    options = ListOptions(
        int(top), float(window), int(wide_top), float(wide_window), int(wide_pairs), float(cap)
    )
    _rerank_kernel(
        rows, solver.data, walk_tables(solver.rank_tables), options, reranking, ids, values,
        n_scored, n_kept,
    )  # fmt: skip
    return ids, values, n_scored, n_kept


def _all_splits(row: np.ndarray, solver: Solver) -> tuple[np.ndarray, ...]:
    """Every legal split of one hand: subset ids, dun ranks and fine dun classes, each
    ``(n, 3)``.  Each of the hand's 286 3-card and 1,287 5-card subsets is ranked and classed
    once by the evaluator, and every split reads its duns' by their subset ids (the ranks of
    the duns set out in full)."""
    ids = SPLIT_IDS.astype(np.int64)
    row = np.asarray(row)
    r3 = rank3(row[THREE_SUBSETS], solver.variant)
    r5 = rank5(row[FIVE_SUBSETS], solver.variant)
    c3, c5 = fine_classes(r3).astype(np.int64), fine_classes(r5).astype(np.int64)
    ranks = np.stack([r3[ids[:, 0]], r5[ids[:, 1]], r5[ids[:, 2]]], axis=-1)
    legal = orders_hold(ranks, solver.strict)
    ids = ids[legal]
    classes = np.stack([c3[ids[:, 0]], c5[ids[:, 1]], c5[ids[:, 2]]], axis=-1)
    return ids, ranks[legal], classes


def _arranged(row: np.ndarray, ids: np.ndarray) -> np.ndarray:
    """The hand ``row`` set as each split of subset ids ``ids`` ``(n, 3)``: ``(n, 13)``."""
    return row[split_positions(ids).astype(np.int64)]


def _split_values(
    row: np.ndarray,
    ids: np.ndarray,
    ranks: np.ndarray,
    solver: Solver,
    classes: np.ndarray | None = None,
) -> np.ndarray:
    """:func:`~simkit.arrange.search.split_values` of the splits ``ids`` of ``row``, the
    solver's 马牌 counted where each split holds it (``classes``: the ranks' fine classes,
    where the caller has them)."""
    horse = None
    if solver.horse_card >= 0:
        horse = horse_copies(_arranged(row, ids), solver.horse_card)
    return split_values(ranks, solver, horse, classes)


def top_splits(
    row: np.ndarray,
    solver: Solver,
    top: int,
    window: float = np.inf,
    cap: float = np.inf,
    wide_top: int | None = None,
    wide_window: float | None = None,
    wide_pairs: int = WIDE_PAIRS,
) -> tuple[np.ndarray, np.ndarray]:
    """The reference of the first stage, by scanning every legal split: ``solver``'s best
    ``top`` splits (``wide_top`` where the hand keeps the wide list, :func:`keeps_wide` with
    ``wide_pairs``) of distinct class triples in the tie-break's order, those under the
    window's bar (:func:`window_bar` of the best's value; ``wide_window`` for such a hand) left
    out, as subset ids ``(k, 3)`` (front, middle, back) and dun ranks ``(k, 3)``."""
    row = np.asarray(row)
    ids, ranks, classes = _all_splits(row, solver)
    v = _split_values(row, ids, ranks, solver, classes)
    wide_top, wide_window = _wide_list(top, window, wide_top, wide_window)
    length, window = hand_list(row, top, window, wide_top, wide_window, wide_pairs)
    bar = window_bar(float(v.max()), window, cap)
    # only splits at or over the bar are kept, and the first of a class triple in the order
    # is its highest valued: ordering these alone keeps the same list, at a fraction of the
    # time where the window is narrow
    near = v + 1e-9 >= bar
    ids, ranks, classes, v = ids[near], ranks[near], classes[near], v[near]
    kept = kept_order(v, ranks, solver.front_first, ids, classes)[:length]
    return ids[kept], ranks[kept]


def kept_order(
    values: np.ndarray,
    ranks: np.ndarray,
    front_first: bool,
    ids: np.ndarray | None = None,
    classes: np.ndarray | None = None,
) -> np.ndarray:
    """Splits in expected-score's tie-break order (value, then with ``front_first`` the
    stronger front, then the stronger back, middle, front, then the lower subset ``ids``
    where given), the first of each class triple: indices into ``values`` (``classes``: the
    ranks' fine classes, where the caller has them)."""
    rf, rm, rb = ranks[:, 0], ranks[:, 1], ranks[:, 2]
    keys = [] if ids is None else [ids[:, 0], ids[:, 1], ids[:, 2]]
    keys += [-rf, -rm, -rb]
    if front_first:
        keys.append(-rf)
    order = np.lexsort((*keys, -values))
    # a class triple as one number (classes are below 2**CLASS_BITS): np.unique's first index
    # of each, as of the rows, at a fraction of the time
    if classes is None:
        classes = fine_classes(ranks).astype(np.int64)
    triples = (classes[:, 0] << (2 * CLASS_BITS)) | (classes[:, 1] << CLASS_BITS) | classes[:, 2]
    _, first = np.unique(triples[order], return_index=True)
    return order[np.sort(first)]


def reference_rerank(
    row: np.ndarray,
    solver: Solver,
    own_tables_solver: Solver,
    top: int,
    window: float = np.inf,
    cap: float = np.inf,
    wide_top: int | None = None,
    wide_window: float | None = None,
    wide_pairs: int = WIDE_PAIRS,
) -> tuple[np.ndarray, float]:
    """:func:`rerank_ids` of one hand by scanning every split: :func:`top_splits`, each
    valued by ``own_tables_solver`` (the hand's own tables and the re-ranking payout:
    :meth:`~simkit.arrange.strategies.ExpectedScore.hand_solver`), the best kept (the
    earlier on a tie).  Returns the split's ids ``(3,)`` and value."""
    row = np.asarray(row)
    ids, ranks = top_splits(row, solver, top, window, cap, wide_top, wide_window, wide_pairs)
    v = _split_values(row, ids, ranks, own_tables_solver)
    best = int(np.argmax(v))  # the first of equal values
    return ids[best], float(v[best])
