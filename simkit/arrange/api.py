"""The arrangement API: set hands with a strategy, declare specials, list legal splits."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

import numpy as np
import numpy.typing as npt

from simkit.arrange.conditioned import POOL_HANDS, POOL_SEED, Pool, make_pool
from simkit.arrange.removal import removal_buckets
from simkit.arrange.search import legal_ranks_kernel, max_ev_ids_many, pareto_kernel
from simkit.arrange.strategies import (
    DEFAULT_STRATEGY,
    ExpectedScore,
    MaxEV,
    StrategyLike,
    as_strategy,
)
from simkit.arrange.subsets import rank_tables_of
from simkit.arrange.value import foul_strict
from simkit.arrange.wintables import WinTables
from simkit.cards import HAND_SIZE, JOKER_CARDS, as_card_rows, format_cards
from simkit.deal import RngLike, check_players, deal, decks_needed
from simkit.errors import SimkitError
from simkit.evaluate import dun_ranks
from simkit.specials import best_special, detect_specials
from simkit.splits import BACK_REST, split_positions
from simkit.variants import Variant, resolve_variant

Declare = Literal["auto", "always", "never"]
DECLARE_RULES = ("auto", "always", "never")


def _as_hands(
    hands: npt.ArrayLike, n_players: int | None = None, variant: Variant | None = None
) -> tuple[np.ndarray, tuple[int, ...]]:
    # A hand may hold a card at most as often as the decks the table size needs hold it.
    decks = None if n_players is None else _decks(variant, n_players)
    # Fifth-suit cards and jokers only where the variant's deck has them.
    any_deck = variant is not None and not variant.deck.plain
    # The kernels want each hand sorted by rank (card order is rank-major).
    return as_card_rows(hands, HAND_SIZE, "arrange", decks=decks, sort=True, any_deck=any_deck)


def _decks(variant: Variant | None, n_players: int) -> int:
    return decks_needed(n_players) if variant is None else variant.deck_for(n_players).decks


def check_tables(hands: np.ndarray, decks: int) -> None:
    """Refuse a table whose hands hold a card more often than its pack does.

    ``hands``: card ints ``(..., seats, 13)``, a table per leading index; ``decks``: the
    decks of the pack, which hold each card that many times (a joker once).  Raises
    :class:`SimkitError` naming the first such table, the card and the seats that hold it.
    """
    seats = hands.shape[-2]
    tables = hands.reshape(-1, seats * HAND_SIZE)
    ordered = np.sort(tables, axis=1)
    over = ordered[:, decks:] == ordered[:, :-decks]  # decks + 1 equal cards in a row
    for joker in JOKER_CARDS:  # a pack holds each joker once
        over[:, 0] |= (tables == joker).sum(axis=1) > 1
    if not over.any():
        return
    t = int(np.flatnonzero(over.any(axis=1))[0])
    table = tables[t].reshape(seats, HAND_SIZE)
    counts = np.unique(table, return_counts=True)
    limit = np.where(np.isin(counts[0], JOKER_CARDS), 1, decks)
    card = int(counts[0][np.flatnonzero(counts[1] > limit)[0]])
    holders = [int(p) for p in np.flatnonzero((table == card).any(axis=1))]
    times = int((table == card).sum())
    index = tuple(int(i) for i in np.unravel_index(t, hands.shape[:-2]))
    packs = "one deck holds" if decks == 1 else f"{decks} decks hold"
    raise SimkitError(
        f"arrange: table {index} deals {format_cards([card])} {times} times, to seats "
        f"{', '.join(map(str, holders))} (axis -2 of hands); {packs} "
        f"{1 if card in JOKER_CARDS else decks} of it: a table's hands come from one pack"
    )


def legal_splits(
    hand: npt.ArrayLike, variant: str | Variant | None = None, *, strict: int | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """Legal splits of one hand, 5-card duns unordered: ``(ids int16 (n, 3), ranks int32 (n, 3))``.

    ``ids`` are (front, middle, back) subset ids (:mod:`simkit.splits`); ``ranks`` the dun ranks.
    A hand holding jokers has them named by its holder (:func:`simkit.evaluate.name_duns`):
    a split is legal when some naming keeps the foul order, its ranks are the greedy
    naming's, and two 5-card duns may appear in both orders (the naming depends on which is
    the back).
    """
    v = resolve_variant(variant)
    rows, lead = _as_hands(hand, variant=v)
    if lead != ():
        raise SimkitError(f"legal_splits takes one hand of 13 cards, got shape {np.shape(hand)}")
    if strict is None:
        strict = foul_strict(v)
    return legal_ranks_kernel(rows[0], rank_tables_of(v), BACK_REST, strict)


def pareto_front(ranks: npt.ArrayLike) -> np.ndarray:
    """Boolean mask of the splits no other split beats or equals in every dun (first of equals).

    ``ranks``: ``int32 (n, 3)`` (front, middle, back).  A split is dropped when another is at
    least as strong in all three duns (of splits with identical ranks the first is kept): an
    objective that never falls when a dun gets stronger has its best on this front (Hankin
    2015).
    """
    r = np.asarray(ranks, dtype=np.int64)
    if r.ndim != 2 or r.shape[1] != 3:
        raise SimkitError(f"pareto_front expects ranks of shape (n, 3), got {r.shape}")
    order = np.lexsort((np.arange(len(r)), -r[:, 0], -r[:, 1], -r[:, 2]))
    keep = np.zeros(len(r), dtype=bool)
    pareto_kernel(r, order, keep)
    return keep


def _ids_to_cards(rows: np.ndarray, ids: np.ndarray) -> np.ndarray:
    return np.take_along_axis(rows, split_positions(ids).astype(np.int64), axis=1)


@dataclass(frozen=True)
class Arrangement:
    """Hands as one variant's players set them, with what scoring and statistics read of them.

    Made once per variant by :func:`arrangements` and passed on, so that nothing downstream
    ranks the duns or detects the specials again.  Arrays share the hands' leading shape
    ``(...)``.
    """

    #: ``int8 (..., 13)``: each hand as [front 3 | middle 5 | back 5].
    cards: np.ndarray
    #: ``int8 (...)``: the index into ``variant.specials.rules`` of the special declared, or -1.
    declared: np.ndarray
    #: ``int64 (..., 3)``: the (front, middle, back) subset ids of the split
    #: (:mod:`simkit.splits`), as positions in the hand sorted by card.
    split_ids: np.ndarray
    #: ``int32 (..., 3)``: the duns' ranks (:func:`simkit.evaluate.dun_ranks`).
    ranks: np.ndarray
    #: ``uint32 (...)``: bit i set when the hand qualifies for special i (its cards alone
    #: decide it, not how they are set).
    special_masks: np.ndarray
    #: ``int8 (...)``: the hand's best special (its lowest set bit), -1 for none.
    best: np.ndarray
    #: ``float64 (...)``: the strategy's own expected score of its split (max-ev), else None.
    value: np.ndarray | None = None


def _declare(
    best: np.ndarray,
    variant: Variant,
    rule: str,
    n_players: int,
    normal_value: np.ndarray | None,
) -> np.ndarray:
    if rule == "never" or len(variant.specials) == 0:
        return np.full(best.shape, -1, dtype=np.int8)
    if rule == "always" or normal_value is None:
        return best
    payouts = np.array([r.payout for r in variant.specials.rules], dtype=np.float64)
    special_value = np.where(best >= 0, payouts[np.maximum(best, 0)] * (n_players - 1), -np.inf)
    return np.where(special_value > normal_value, best, np.int8(-1)).astype(np.int8)


def _arrangement(
    rows: np.ndarray,
    lead: tuple[int, ...],
    variant: Variant,
    ids: np.ndarray,
    values: np.ndarray | None,
    declare: str,
    n_players: int,
) -> Arrangement:
    """The record of sorted hands ``rows`` set by split ``ids``: each dun ranked and each
    hand's specials detected here, once."""
    cards = _ids_to_cards(rows, ids).astype(np.int8)
    masks = detect_specials(rows, variant, decks=_decks(variant, n_players))
    best = best_special(masks).astype(np.int8)
    declared = _declare(best, variant, declare, n_players, values)
    return Arrangement(
        cards=cards.reshape((*lead, HAND_SIZE)),
        declared=declared.reshape(lead),
        split_ids=np.asarray(ids, dtype=np.int64).reshape((*lead, 3)),
        ranks=dun_ranks(cards, variant).reshape((*lead, 3)),
        special_masks=masks.reshape(lead),
        best=best.reshape(lead),
        value=None if values is None else np.asarray(values, np.float64).reshape(lead),
    )


def arrange(
    hands: npt.ArrayLike,
    variant: str | Variant | None = None,
    strategy: StrategyLike = DEFAULT_STRATEGY,
    *,
    n_players: int = 4,
    rng: RngLike = None,
    declare: Declare = "auto",
    tables: WinTables | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """Set hands into [front 3 | middle 5 | back 5]; returns ``(arranged, declared)``.

    ``arranged``: ``int8 (..., 13)``; ``declared``: ``int8 (...)``.

    Hands with three or more axes, ``(..., seats, 13)``, are tables, as :func:`simkit.deal`
    deals them: a table's hands together may hold a card only as often as its pack does
    (:func:`check_tables`; a card in two seats' hands of one deck is an error naming both).

    ``hands``: card ints ``(..., 13)``; a hand may hold a card only as often as the decks of
    ``n_players`` hold it (once for 2-4 players).  ``strategy``: a :class:`Strategy`
    (``ExpectedScore(tables)``, ``MaxEV(tables)``, ``Greedy()``, ``RandomLegal()``), its name
    (``"expected-score"``, the default, ``"max-ev"``, ``"greedy"``, ``"random-legal"``) or a
    callable objective over ``int32 (n_splits, 3)`` dun ranks (:class:`Objective`).
    ``declared`` is the index into ``variant.specials.rules`` of the special each hand
    declares, or -1.  ``declare``: ``"auto"`` declares when the special's payout from every
    opponent beats the hand's expected score played normally (expected-score, max-ev; other
    strategies have no estimate and declare whenever they qualify), ``"always"`` whenever the
    hand qualifies, ``"never"``.  ``n_players`` chooses the win
    tables and payouts; ``rng`` seeds ``random-legal``.  ``tables`` is short for
    ``MaxEV(tables)`` when the strategy is max-ev (other strategies use no tables).

    >>> from simkit.cards import parse_cards, format_cards
    >>> cards, declared = arrange(parse_cards("As Ks Qs Js Ts 9h 9d 9c 2h 3h 4d 5c 7s"),
    ...                           "western-2-4", "greedy")
    >>> format_cards(cards[8:])
    'T♠ J♠ Q♠ K♠ A♠'
    """
    if declare not in DECLARE_RULES:
        raise SimkitError(f"declare must be one of {', '.join(DECLARE_RULES)}, got {declare!r}")
    chosen = as_strategy(strategy)
    if tables is not None and isinstance(chosen, MaxEV):
        if chosen.tables is not None:
            raise SimkitError("arrange: win tables given twice, in MaxEV(tables) and tables=")
        chosen = chosen.with_tables(tables)
    check_players(n_players)
    v = resolve_variant(variant)
    rows, lead = _as_hands(hands, n_players, v)
    if len(lead) >= 2:  # (..., seats, 13): the hands of a table come from one pack
        check_tables(rows.reshape((*lead, HAND_SIZE)), _decks(v, n_players))
    ids, values = chosen.choose_splits(rows, v, n_players=n_players, rng=rng)
    found = _arrangement(rows, lead, v, ids, values, declare, n_players)
    return found.cards, found.declared


def arrange_variants(
    hands: Sequence[npt.ArrayLike],
    variants: Sequence[str | Variant],
    strategy: StrategyLike = DEFAULT_STRATEGY,
    *,
    n_players: int = 4,
    declare: Declare = "auto",
    tables: Sequence[WinTables | None] | None = None,
) -> list[tuple[np.ndarray, np.ndarray]]:
    """:func:`arrange` of ``hands[i]`` under ``variants[i]`` by ``strategy``, for all i:
    ``(arranged int8 (..., 13), declared int8 (...))`` per variant.

    The answers are those of one :func:`arrange` call per variant; :func:`arrangements`
    (which this calls) searches variants given equal hands whose duns order alike in one pass
    over the hands.  ``tables[i]`` overrides the shipped win tables of ``variants[i]``.
    Raises :class:`~simkit.errors.SimkitError` where the lists' lengths differ.
    """
    found = arrangements(
        hands, variants, strategy, n_players=n_players, declare=declare, tables=tables
    )
    return [(a.cards, a.declared) for a in found]


def arrangements(
    hands: Sequence[npt.ArrayLike],
    variants: Sequence[str | Variant],
    strategy: StrategyLike = DEFAULT_STRATEGY,
    *,
    n_players: int = 4,
    declare: Declare = "auto",
    tables: Sequence[WinTables | None] | None = None,
    rng: np.random.SeedSequence | int | None = None,
) -> list[Arrangement]:
    """``hands[i]`` set under ``variants[i]`` by ``strategy``, as :class:`Arrangement` records.

    Max-ev and expected-score search variants that see equal hands and rank duns alike in one
    pass (see :func:`arrange_variants`; :meth:`~simkit.arrange.MaxEV.one_pass_search` says
    which search a variant gets: the default's is expected-score's wherever it does not
    re-rank).  Other strategies set each variant's hands with a generator
    made afresh from ``rng`` (the same random numbers for every variant: common numbers).
    ``tables[i]`` overrides the shipped win tables of ``variants[i]`` (max-ev only).
    """
    if declare not in DECLARE_RULES:
        raise SimkitError(f"declare must be one of {', '.join(DECLARE_RULES)}, got {declare!r}")
    if len(hands) != len(variants):
        raise SimkitError(
            f"arrange_variants: {len(hands)} hand arrays for {len(variants)} variants"
        )
    table_list = list(tables) if tables is not None else [None] * len(variants)
    if len(table_list) != len(variants):
        raise SimkitError(
            f"arrange_variants: {len(table_list)} win tables for {len(variants)} variants"
        )
    check_players(n_players)
    resolved = [resolve_variant(v) for v in variants]
    prepared = [_as_hands(h, n_players, v) for h, v in zip(hands, resolved, strict=True)]
    chosen = as_strategy(strategy)
    # each variant's search in one pass with the others', or None: its hands go through
    # choose_splits (a strategy that searches otherwise, or one given its own tables); asked
    # with the variant's tables where they are given (a removal model is looked up by them)
    one_pass = [
        (chosen if t is None else chosen.with_tables(t)).one_pass_search(v, n_players)
        if isinstance(chosen, MaxEV) and chosen.tables is None
        else None
        for v, t in zip(resolved, table_list, strict=True)
    ]
    by_index: dict[int, Arrangement] = {}
    for i, ((rows, lead), v, t) in enumerate(zip(prepared, resolved, table_list, strict=True)):
        if one_pass[i] is not None:
            continue
        own = chosen.with_tables(t) if isinstance(chosen, MaxEV) and t is not None else chosen
        gen = np.random.default_rng(rng)
        ids, values = own.choose_splits(rows, v, n_players=n_players, rng=gen)
        by_index[i] = _arrangement(rows, lead, v, ids, values, declare, n_players)
    # each variant's searches: one, or one per removal bucket (the hand's bucket picks it)
    solvers = {
        i: search.with_tables(table_list[i]).solvers(resolved[i], n_players)
        for i, search in enumerate(one_pass)
        if search is not None
    }
    # groups: indices whose hands are equal and whose rankings share their tables
    groups: list[list[int]] = []
    for i in solvers:
        rows = prepared[i][0]
        for group in groups:
            j = group[0]
            if solvers[j][0].rank_tables is solvers[i][0].rank_tables and np.array_equal(
                prepared[j][0], rows
            ):
                group.append(i)
                break
        else:
            groups.append([i])
    for group in groups:
        rows = prepared[group[0]][0]
        bucketed = any(len(solvers[i]) > 1 for i in group)
        found = max_ev_ids_many(
            rows, [solvers[i] for i in group], removal_buckets(rows) if bucketed else None
        )
        for i, (ids, values, _) in zip(group, found, strict=True):
            by_index[i] = _arrangement(
                rows, prepared[i][1], resolved[i], ids, values, declare, n_players
            )
    return [by_index[i] for i in range(len(variants))]


def removal_pool(
    strategy: ExpectedScore, variant: Variant, n_players: int, n_hands: int = POOL_HANDS
) -> Pool:
    """The pool a card-removal model for ``strategy``'s value is fitted over
    (:mod:`simkit.arrange.conditioned`): ``n_hands`` hands dealt from
    :data:`~simkit.arrange.conditioned.POOL_SEED`, set by ``strategy``'s value without
    removal buckets or the hand's own card removal (expected-score with its tables, weights,
    joint chances and places); those that declare no special make the pool."""
    setter = ExpectedScore(
        strategy.tables, strategy.weights, strategy.joint, False, strategy.places
    )
    games = -(-n_hands // n_players)
    gen = np.random.default_rng(POOL_SEED)
    hands = deal(games, n_players, rng=gen, deck=variant.deck_for(n_players)).reshape(-1, 13)
    (found,) = arrangements([hands[:n_hands]], [variant], setter, n_players=n_players)
    normal = found.declared < 0
    return make_pool(found.cards[normal], found.ranks[normal])
