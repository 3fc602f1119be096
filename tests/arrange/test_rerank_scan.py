"""The default strategy, as it plays guangxi's two variants, against the scan of every split
under the same objective on 10,000 dealt hands each (issue 11's check of a search against the
exhaustive scan, for the re-ranking search; expected-score's own is in
test_expected_score.py).  A file of its own so that a second test worker can run it beside
the re-ranking's other tests."""

from __future__ import annotations

import numpy as np
import pytest

from simkit.arrange import DEFAULT_STRATEGY, ExpectedScore, max_ev_ids, strategy_from_name
from simkit.arrange.rerank import keeps_wide
from simkit.deal import deal
from simkit.variants import resolve_variant


@pytest.mark.slow
@pytest.mark.parametrize("variant", ["guangxi", "guangxi-regional"])
def test_the_default_equals_the_scan_of_every_split_on_10000_hands(variant):
    """Each hand's split and value as the default plays them (its list of expected-score's
    best splits, re-ranked under the hand's own tables and the places) are those of
    :meth:`~simkit.arrange.strategies.ExpectedScore.reference_splits`
    (:func:`~simkit.arrange.rerank.reference_rerank`), which values all 72,072 splits in
    numpy, orders them by the tie-break and re-values the kept ones under a solver built for
    the hand alone.  The hands are a plain deal; the counts at the end make sure it holds hands
    of both lists and hands the re-ranking moves off expected-score's split."""
    strategy = strategy_from_name(DEFAULT_STRATEGY)
    assert isinstance(strategy, ExpectedScore) and strategy.search == "rerank"
    v = resolve_variant(variant)
    rows = np.sort(deal(2_500, 4, rng=2026).reshape(-1, 13), axis=1)
    ids, values = strategy.choose_splits(rows, v, n_players=4)
    want_ids, want_values = strategy.reference_splits(rows, v, 4)
    for i in range(len(rows)):
        assert (ids[i] == want_ids[i]).all(), (i, ids[i], want_ids[i])
        assert values[i] == want_values[i]  # the same quantities and payout: to the last bit
    first = strategy.first().solver(v, 4)
    plain, _, _ = max_ev_ids(rows, first)
    moved = int((ids != plain).any(axis=1).sum())
    wide = sum(bool(keeps_wide(row)) for row in rows)
    assert moved >= 200 and wide >= 1_000, (moved, wide)
