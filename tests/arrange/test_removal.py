"""Card removal by hand bucket (simkit.arrange.removal): the buckets, the shifted tables, the
shifts' measurement, and expected-score's search with one solver per bucket against the
exhaustive scan under each hand's own objective."""

from __future__ import annotations

import io
from dataclasses import replace

import numpy as np
import pytest

from simkit.arrange import (
    N_REMOVAL_BUCKETS,
    ExpectedScore,
    WinTables,
    arrange,
    arrangements,
    default_fine_tables,
    exhaustive_ids,
    make_solver,
    max_ev_ids,
    max_ev_ids_many,
    removal_buckets,
    shifted_tables,
)
from simkit.arrange.removal import bucket_tables
from simkit.cards import parse_cards, rank_of
from simkit.deal import deal
from simkit.train import removal_shifts
from simkit.variants import resolve_variant

#: The rows whose shipped fine tables carry removal shifts (experiments/pipelines/fit_removal.py).
SHIPPED = [("fujian", 4), ("wiki-points", 4), ("qiantang", 4)]


def _bucket_by_hand(row) -> int:
    """The bucket spelled out: aces, kings (3 = three or more), queens (likewise)."""
    ranks = [int(r) for r in rank_of(row)]
    aces, kings, queens = ranks.count(12), min(ranks.count(11), 3), min(ranks.count(10), 3)
    return (aces * 4 + kings) * 4 + queens


def test_buckets_count_aces_kings_and_queens():
    hand = np.sort(parse_cards("As Ah Ad Ks Kh Kd Kc Qs 2c 3c 4c 5c 6c"))
    assert removal_buckets(hand) == (3 * 4 + 3) * 4 + 1  # kings capped at 3
    assert removal_buckets(np.sort(parse_cards("2s 3s 4s 5s 6s 7s 8s 9s Ts Js 2h 3h 4h"))) == 0
    hands = deal(3000, 4, rng=0).reshape(-1, 13)
    got = removal_buckets(hands)
    assert got.shape == (12_000,) and got.dtype == np.int64
    assert got.tolist() == [_bucket_by_hand(h) for h in hands]
    assert 0 <= got.min() and got.max() < N_REMOVAL_BUCKETS


def test_shifted_tables_stay_chances_and_move_win_and_loss_by_the_shift():
    base = default_fine_tables(resolve_variant("fujian"), 4)
    rng = np.random.default_rng(1)
    shift = rng.normal(0, 0.05, base.win.shape)
    t = shifted_tables(base, shift)
    lose, base_lose = 1 - t.win - t.tie, 1 - base.win - base.tie
    assert (t.win >= 0).all() and (t.win <= 1).all() and (t.tie >= -1e-12).all()
    assert (lose >= -1e-12).all()
    inside = (base.win + shift >= 0) & (base.win + shift <= 1) & (base_lose - shift >= 0)
    inside &= base_lose - shift <= 1 - (base.win + shift)
    assert inside.mean() > 0.5
    np.testing.assert_allclose(t.win[inside], (base.win + shift)[inside])
    np.testing.assert_allclose(lose[inside], (base_lose - shift)[inside], atol=1e-12)
    np.testing.assert_allclose(t.tie[inside], base.tie[inside], atol=1e-12)
    assert t.removal is None and t.lose_pay is base.lose_pay and t.copula is base.copula


def test_tables_keep_their_shifts_through_a_file_and_reject_a_wrong_shape():
    base = default_fine_tables(resolve_variant("guangxi"), 4)
    shifts = np.random.default_rng(2).normal(0, 0.02, (N_REMOVAL_BUCKETS, *base.win.shape))
    buffer = io.BytesIO()
    replace(base, removal=shifts).save(buffer)
    buffer.seek(0)
    loaded = WinTables.load(buffer)
    assert loaded.removal is not None and loaded.removal.shape == shifts.shape
    np.testing.assert_allclose(loaded.removal, shifts, rtol=1e-3, atol=1e-7)  # float16
    with pytest.raises(ValueError, match="removal shifts must be"):
        replace(base, removal=shifts[:, :2])


@pytest.fixture(scope="module")
def fujian_shifts() -> np.ndarray:
    return removal_shifts("fujian", 4, n_games=3000, seed=1)


def test_shifts_follow_the_high_cards(fujian_shifts):
    """A hand without aces, kings or queens leaves them to the opponents: its fronts win less
    often than the pooled tables say; a hand with three aces leaves them few: more often."""
    assert fujian_shifts.shape == (N_REMOVAL_BUCKETS, 3, default_fine_tables(resolve_variant("fujian"), 4).win.shape[1])  # fmt: skip
    no_high = fujian_shifts[0]
    three_aces = fujian_shifts[_bucket_by_hand(parse_cards("As Ah Ad 2c 3c 4c 5c 6c 7d 8d 9d 2h 3h"))]  # fmt: skip
    assert no_high[0].mean() < 0 < three_aces[0].mean()


def test_a_bucket_never_seen_has_no_shift(fujian_shifts):
    """Four aces, three kings and three queens: not one such hand in 12,000."""
    top = (4 * 4 + 3) * 4 + 3
    assert not (fujian_shifts[top] != 0).any()


def test_shifts_are_reproducible_from_their_seed():
    a = removal_shifts("wiki-points", 4, n_games=600, seed=3)
    assert np.array_equal(a, removal_shifts("wiki-points", 4, n_games=600, seed=3))
    assert not np.array_equal(a, removal_shifts("wiki-points", 4, n_games=600, seed=4))


def test_shifts_need_one_plain_deck():
    with pytest.raises(Exception, match="one plain deck"):
        removal_shifts("fujian", 6, n_games=10)


def _with_shifts(variant: str, players: int, shifts: np.ndarray) -> ExpectedScore:
    base = default_fine_tables(resolve_variant(variant), players)
    return ExpectedScore(replace(base, removal=shifts))


def test_each_hand_is_set_by_its_own_buckets_search(fujian_shifts):
    """choose_splits of the bucketed strategy is, hand by hand, max_ev_ids under the solver of
    the hand's bucket: the tables shifted by that bucket's shifts."""
    strategy = _with_shifts("fujian", 4, fujian_shifts)
    v = resolve_variant("fujian")
    hands = deal(1500, 4, rng=7).reshape(-1, 13)
    ids, values = strategy.choose_splits(hands, v, n_players=4)
    buckets = removal_buckets(hands)
    group = strategy.solvers(v, 4)
    assert len(group) == N_REMOVAL_BUCKETS
    for b in np.unique(buckets)[:12]:
        mine = buckets == b
        tables = shifted_tables(strategy.tables, fujian_shifts[b])
        solver = ExpectedScore(tables).solver(v, 4)
        want_ids, want_values, _ = max_ev_ids(np.ascontiguousarray(hands[mine]), solver)
        assert (ids[mine] == want_ids).all()
        assert (values[mine] == want_values).all()
    # the shifts move choices: the pooled search sets some hands otherwise
    pooled_ids, _ = ExpectedScore(strategy.tables, removal=False).choose_splits(
        hands, v, n_players=4
    )
    assert 0 < (pooled_ids != ids).any(axis=1).mean() < 0.5


@pytest.mark.slow
@pytest.mark.parametrize(("variant", "players"), SHIPPED)
def test_bucketed_search_equals_the_exhaustive_scan_on_10000_hands(variant, players):
    """With the shipped shifts: every hand's split and value are those of scoring all 72,072
    splits under the objective of its own bucket."""
    strategy = ExpectedScore()
    v = resolve_variant(variant)
    group = strategy.solvers(v, players)
    assert len(group) == N_REMOVAL_BUCKETS  # the shipped file carries shifts
    hands = deal(10_000 // players + 1, players, rng=2027).reshape(-1, 13)[:10_000]
    n = 10_000 if variant == "fujian" else 2_000  # one family in full, the others in part
    hands = hands[:n]
    ids, values = strategy.choose_splits(hands, v, n_players=players)
    buckets = removal_buckets(hands)
    for b in np.unique(buckets):
        mine = np.flatnonzero(buckets == b)
        want_ids, want_values = exhaustive_ids(np.ascontiguousarray(hands[mine]), group[b])
        assert (values[mine] == want_values).all()
        assert (ids[mine] == want_ids).all()


def test_without_shifts_or_with_removal_off_the_strategy_is_the_pooled_one():
    v = resolve_variant("fujian")
    hands = deal(300, 4, rng=4).reshape(-1, 13)
    off = ExpectedScore(removal=False)
    assert len(off.solvers(v, 4)) == 1
    ids, values = off.choose_splits(hands, v, n_players=4)
    want_ids, want_values, _ = max_ev_ids(hands, ExpectedScore().solver(v, 4))
    assert (ids == want_ids).all() and (values == want_values).all()
    guangxi = resolve_variant("guangxi")  # its shipped file carries no shifts
    assert default_fine_tables(guangxi, 4).removal is None
    assert len(ExpectedScore().solvers(guangxi, 4)) == 1
    assert bucket_tables(default_fine_tables(guangxi, 4))[0] is default_fine_tables(guangxi, 4)


def test_bucket_solvers_are_built_once():
    v = resolve_variant("fujian")
    assert ExpectedScore().solvers(v, 4) is ExpectedScore().solvers(v, 4)


@pytest.mark.parametrize(("variant", "players"), SHIPPED)
def test_shipped_shifts_are_shifts_of_their_tables(variant, players):
    tables = default_fine_tables(resolve_variant(variant), players)
    assert tables.removal is not None
    assert tables.removal.shape == (N_REMOVAL_BUCKETS, *tables.win.shape)
    assert np.isfinite(tables.removal).all() and np.abs(tables.removal).max() < 0.5
    assert "removal" in tables.meta and tables.meta["removal"]["games"] >= 100_000


def test_one_pass_over_variants_matches_one_search_per_variant():
    """arrangements() searches variants that rank alike in one pass; with bucket solvers
    (fujian, wiki-points) beside a plain one (guangxi) the answers are each variant's own."""
    hands = deal(400, 4, rng=9)
    names = ["fujian", "guangxi", "wiki-points"]
    together = arrangements([hands] * 3, names, n_players=4)
    for name, found in zip(names, together, strict=True):
        cards, declared = arrange(hands, name, n_players=4)
        assert (found.cards == cards).all() and (found.declared == declared).all()


def test_max_ev_ids_many_checks_its_buckets():
    v = resolve_variant("fujian")
    group = ExpectedScore().solvers(v, 4)
    hands = deal(10, 4, rng=1).reshape(-1, 13)
    with pytest.raises(ValueError, match="need buckets"):
        max_ev_ids_many(hands, [group])
    with pytest.raises(ValueError, match="must lie in"):
        max_ev_ids_many(hands, [group], np.full(40, N_REMOVAL_BUCKETS))
    plain = make_solver(v, 4)
    ((ids, _, _),) = max_ev_ids_many(hands, [plain])
    assert (ids == max_ev_ids(hands, plain)[0]).all()


def test_the_rollout_cache_tells_removal_on_from_off():
    """simkit arrange caches rollout scores by the opponents' strategy: with and without the
    shifts they are different strategies."""
    from simkit.setting_scores import strategy_digest

    v = resolve_variant("fujian")
    on, off = ExpectedScore(), ExpectedScore(removal=False)
    assert repr(off) == "expected-score:removal=False" and repr(on) == "expected-score"
    assert strategy_digest(on, v, 4) != strategy_digest(off, v, 4)
    assert strategy_digest(on, v, 4) == strategy_digest(ExpectedScore(), v, 4)
