"""The one search walk (``simkit.arrange.search.search_walk``): the best ``k`` splits of
distinct class triples, ``k = 1`` the max-ev search, under every kind of solver it serves."""

from __future__ import annotations

import numpy as np
import pytest

from simkit.arrange.rerank import top_splits
from simkit.arrange.search import (
    KEY_IB,
    KEY_IF,
    KEY_IM,
    clear_groups,
    exhaustive_ids,
    hand_groups,
    make_solver,
    max_ev_ids,
    next_generation,
    search_walk,
    walk_scratch,
    walk_tables,
)
from simkit.arrange.value import PlaceModel
from simkit.cards import FIRST_JOKER
from simkit.deal import deal
from simkit.variants import load_variant

INF = float("inf")
PLACES = PlaceModel(2.86, -0.43, 4.53, (1.0, 3.0, 4.0, 5.0, 8.0), (0.81, 0.05, 0.09, 0.045, 0.005))


def _solvers():
    """A plain solver, one pricing the 马牌 (qiantang), one pricing the t-formula's places
    (guangxi) and one breaking ties toward the front: the paths the walk takes."""
    return {
        "plain": make_solver("taiwan", 4),
        "horse": make_solver("qiantang", 4, horse=True),
        "places": make_solver("guangxi", 4, place=PLACES),
        "front-first": make_solver("guangxi", 4, front_first=True, dtype=np.float32),
    }


def _walk(rows, solver, top, window=INF, cap=INF):
    """The kept list of each hand of ``rows`` as the walk leaves it: subset ids ``(n, 3)``
    (front, middle, back) and values, one entry per hand."""
    tables = walk_tables(solver.rank_tables)
    work = walk_scratch(tables.group_of[solver.q.shape[1] - 1] + 1, top)
    n_gen = 0
    out = []
    for h, row in enumerate(rows):
        groups = hand_groups(row, tables, work)
        n_gen, gen = next_generation(n_gen, work.memo_key)
        n, _ = search_walk(h, row, groups, solver.data, tables, work, top, window, cap, gen)
        clear_groups(work.head, work.present, work.group_list, groups[2])
        keys = work.kept_keys[:n]
        ids = np.stack([keys[:, KEY_IF], keys[:, KEY_IM], keys[:, KEY_IB]], axis=1)
        out.append((ids, work.kept_values[:n].copy()))
    return out


@pytest.fixture(scope="module")
def solvers():
    return _solvers()


@pytest.mark.parametrize("kind", ["plain", "horse", "places", "front-first"])
def test_the_walk_keeping_one_split_is_the_max_ev_search_and_the_scan(solvers, kind):
    """``k = 1`` with no window: the walk's one split is max-ev's and the exhaustive scan's,
    to the last bit and with the same tie-break."""
    solver = solvers[kind]
    v = solver.variant
    rows = np.sort(deal(10, 4, rng=31, deck=v.deck_for(4)).reshape(-1, 13), axis=1)
    if kind == "horse":  # hands that hold the 马牌, so that its points count
        rows = rows[(rows == solver.horse_card).any(axis=1)]
        assert len(rows) >= 5
    kept = _walk(rows, solver, 1)
    ids, values, _ = max_ev_ids(rows, solver)
    scan_ids, scan_values = exhaustive_ids(rows, solver)
    for i, (k_ids, k_values) in enumerate(kept):
        assert k_ids.shape == (1, 3)
        assert (k_ids[0] == ids[i]).all() and (ids[i] == scan_ids[i]).all()
        assert k_values[0] == values[i] == scan_values[i]


@pytest.mark.parametrize("kind", ["plain", "horse", "places", "front-first"])
@pytest.mark.parametrize("lists", [(4, INF, INF), (9, 0.5, INF), (6, 0.3, 2.0)])
def test_the_walk_keeping_k_splits_is_the_scan_s_best_k_class_triples(solvers, kind, lists):
    """``k > 1``: the walk's list is the scan of every legal split's best ``k`` of distinct
    class triples, in the tie-break's order, cut at the window's bar
    (``rerank.top_splits``), under every kind of solver."""
    solver = solvers[kind]
    v = solver.variant
    rows = np.sort(deal(4, 4, rng=32, deck=v.deck_for(4)).reshape(-1, 13), axis=1)
    top, window, cap = lists
    kept = _walk(rows, solver, top, window, cap)
    for row, (k_ids, _) in zip(rows, kept, strict=True):
        want, _ = top_splits(row, solver, top, window, cap, top, window)
        assert k_ids.shape == want.shape and (k_ids == want).all(), row


def test_hands_holding_jokers_walk_to_the_scan_s_split():
    """Hands holding jokers name them in the walk (``name_split``, the walk's general path):
    its one split is the exhaustive scan's, to the last bit."""
    v = load_variant("guangxi-jokers")
    solver = make_solver(v, 4)
    rows = np.sort(deal(12, 4, rng=33, deck=v.deck_for(4)).reshape(-1, 13), axis=1)
    rows = rows[rows[:, 12] >= FIRST_JOKER][:8]
    assert len(rows) >= 4
    kept = _walk(rows, solver, 1)
    scan_ids, scan_values = exhaustive_ids(rows, solver)
    for i, (k_ids, k_values) in enumerate(kept):
        assert (k_ids[0] == scan_ids[i]).all() and k_values[0] == scan_values[i]
