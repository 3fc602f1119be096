"""The phases decided by the strategy in play (issue 54.1, 54.3): the valuer the phases ask is
the strategy that then sets the hands; the banker's pass values its options without the
winner's curse; the same seed gives the same tables for any ``n_jobs`` and chunk size; the
variants without phases play as before.
"""

from __future__ import annotations

import hashlib

import numpy as np
import pytest
from polars.testing import assert_frame_equal

from simkit.arrange import DEFAULT_STRATEGY, arrangements, as_strategy, make_solver
from simkit.deal import deal
from simkit.errors import SimkitError
from simkit.phases import before_setting
from simkit.phases.expected import without_phases
from simkit.phases.hand_value import HandValue, hand_values, spare_order, strategy_value
from simkit.phases.passing import (
    BANKER_SAMPLES,
    banker_choice,
    banker_kinds,
    banker_options,
    cross_fitted,
    option_kind,
    play_passing,
)
from simkit.simulate import BLOCK_GAMES, simulate
from simkit.splits import split_positions
from simkit.variants import load_variant


@pytest.mark.parametrize(("name", "players"), [("philippines", 4), ("qiantang", 3)])
def test_the_phases_value_a_hand_as_the_strategy_in_play_sets_it(name, players) -> None:
    """54.1: the valuer of the default strategy sets each hand by the split the strategy plays
    and values it by the strategy's own value: the same ids and values as
    :func:`~simkit.arrange.arrangements` (hands that declare no special)."""
    v = load_variant(name)
    hands = deal(24, players, rng=54)
    valuer = strategy_value(v, players)
    assert isinstance(valuer, HandValue) and valuer.strategy.name == DEFAULT_STRATEGY
    rows = np.sort(hands.reshape(-1, 13), axis=1).astype(np.int8)
    ids, values = valuer.choose(rows)
    (play,) = arrangements([hands], [v], DEFAULT_STRATEGY, n_players=players)
    normal = play.declared.reshape(-1) < 0
    assert normal.sum() > 60
    np.testing.assert_array_equal(ids[normal], play.split_ids.reshape(-1, 3)[normal])
    assert play.value is not None
    np.testing.assert_allclose(values[normal], play.value.reshape(-1)[normal])
    # the spare order reads that split: free cards of the strategy's duns first
    order, found = spare_order(hands, valuer)
    np.testing.assert_allclose(found.reshape(-1), values)
    positions = split_positions(ids).astype(np.int64)
    assert (np.sort(order.reshape(-1, 13), axis=1) == np.arange(13)).all()
    assert set(np.unique(positions)) == set(range(13))


def test_the_phases_value_with_max_ev_where_the_run_plays_it() -> None:
    """The run's strategy decides: with max-ev the valuer is max-ev's search (the values of a
    bare solver), with the default another model; a strategy without an estimate (greedy) has
    its split valued by max-ev's model."""
    v = load_variant("philippines")
    hands = deal(16, 4, rng=1)
    solver = make_solver(v, 4)
    np.testing.assert_allclose(
        hand_values(hands, strategy_value(v, 4, "max-ev")), hand_values(hands, solver)
    )
    default = hand_values(hands, strategy_value(v, 4))
    assert not np.allclose(default, hand_values(hands, solver))
    greedy = hand_values(hands, strategy_value(v, 4, "greedy"))
    assert (greedy <= hand_values(hands, solver) + 1e-9).all()  # max-ev's best bounds it
    with pytest.raises(SimkitError, match="unknown strategy"):
        strategy_value(v, 4, "no-such-strategy")


def test_before_setting_passes_as_the_runs_strategy_values() -> None:
    """The run's phases (:func:`before_setting`) are :func:`play_passing` with the run's
    strategy as valuer: max-ev and the default may pass different cards."""
    v = load_variant("philippines")
    dealt = deal(32, 4, rng=2)
    seq = np.random.SeedSequence(5, spawn_key=(0, 2))
    for strategy in ("max-ev", DEFAULT_STRATEGY):
        got, paid = before_setting(dealt, v, None, seq, strategy)
        want = play_passing(
            dealt, v, strategy_value(v, 4, strategy), np.random.default_rng(seq)
        ).hands
        np.testing.assert_array_equal(got, want)
        assert paid == {}


# --- the winner's curse -------------------------------------------------------------------------


def test_cross_fitting_removes_the_winners_curse_of_the_largest_mean() -> None:
    """Five choices all worth 0, each valued on 4 noisy deals: the largest mean is biased upward
    (the negative control: far above 0), the cross-fitted value is not (within 4 se of 0), so
    set against an exact 0 it passes about half the time, not nearly always."""
    rng = np.random.default_rng(54)
    samples = rng.normal(0.0, 1.0, size=(20_000, BANKER_SAMPLES, 5))
    largest = samples.mean(axis=1).max(axis=1)
    _, value = cross_fitted(samples)
    se = value.std(ddof=1) / np.sqrt(value.size)
    assert largest.mean() > 0.5  # E max of 5 N(0, 1/4) ≈ 0.58
    assert abs(value.mean()) < 4 * se
    assert 0.45 < (value > 0).mean() < 0.55
    assert (largest > 0).mean() > 0.9
    with pytest.raises(SimkitError, match="two imagined deals"):
        cross_fitted(samples[:, :1])


@pytest.mark.slow
def test_001_the_banker_values_passing_without_leaning_toward_it() -> None:
    """54.1: on philippines deals, the value the banker's choice rests on against the value
    of the same kind on fresh imagined deals (common to both rules): the largest mean of the
    kinds (the earlier rule's) overestimates what the kind it picks is worth, the cross-fitted
    value does not (its error within 3 se of 0)."""
    v = load_variant("philippines")
    n, fresh_k = 400, 8
    hands = deal(n, 4, rng=540)
    valuer = strategy_value(v, 4)
    choice = banker_choice(hands, "chosen", valuer, np.random.default_rng(1))
    options = banker_options(4, each_round=False)
    kinds = list(dict.fromkeys(option_kind(*o, 4) for o in options[1:]))
    of_kind = np.array([kinds.index(option_kind(*o, 4)) for o in options[1:]])
    means = np.stack([choice.values[:, 1 + list(of_kind).index(c)] for c in range(len(kinds))], 1)
    picked = np.argmax(means, axis=1)
    # the same kinds valued on fresh deals of the unseen cards
    from simkit.phases.hand_value import unseen_hands

    banker = np.repeat(hands[:, 0], fresh_k, axis=0)
    draws = np.random.default_rng(2).random((n * fresh_k, 39))
    others = np.sort(unseen_hands(banker, draws)[:, :39].reshape(-1, 3, 13), axis=2)
    found = banker_kinds(banker, others, kinds, "chosen", valuer)
    fresh = np.stack([found[k][1].reshape(n, fresh_k).mean(axis=1) for k in kinds], axis=1)
    truth = fresh[np.arange(n), picked]
    curse = means[np.arange(n), picked] - truth
    fixed = choice.pass_value - truth
    se = np.sqrt(curse.var(ddof=1) / n)
    assert curse.mean() > 3 * se  # the negative control: the largest mean leans up
    assert abs(fixed.mean()) < 3 * np.sqrt(fixed.var(ddof=1) / n)


# --- same seed, same numbers; the variants without phases as before -----------------------------


def table_digest(result) -> str:
    h = hashlib.sha256()
    for name in sorted(result.tables):
        h.update(name.encode())
        h.update(result.tables[name].write_csv().encode())
    return h.hexdigest()[:16]


@pytest.mark.slow
def test_phases_give_the_same_tables_for_any_n_jobs_and_chunk_size() -> None:
    """54.3: philippines (the banker's pass) and qiantang's 换牌 (its settlements off, so that
    no calibration runs in each worker), their phases drawing from each block's own stream,
    give bit-identical tables in one chunk, one chunk per block, an odd chunk and two worker
    processes."""
    qiantang = without_phases(load_variant("qiantang"))
    assert qiantang.deal.changes_hands
    variants, n = [load_variant("philippines"), qiantang], BLOCK_GAMES + 64
    base = simulate(variants, n, seed=54, n_jobs=1, progress=False)
    for jobs, chunk in ((1, BLOCK_GAMES), (1, BLOCK_GAMES + 1), (2, BLOCK_GAMES)):
        other = simulate(variants, n, seed=54, n_jobs=jobs, chunk_size=chunk, progress=False)
        assert other.tables.keys() == base.tables.keys()
        for name in base.tables:
            assert_frame_equal(base.tables[name], other.tables[name], check_exact=True)


#: :func:`table_digest` of the run below on main at f09ea0c, before the phases were decided by
#: the strategy in play: the variants without phases must not move.
WITHOUT_PHASES = "5403bd854a268bf1"


@pytest.mark.slow
def test_variants_without_phases_give_the_same_tables_as_before() -> None:
    """54.3/54.5: guangxi, fujian, hongkong and taiwan play no phase: their tables are those
    taken on main before this change (seed 54, 2,048 games, the default strategy)."""
    result = simulate(
        ["guangxi", "fujian", "hongkong", "taiwan"], 2048, 4, seed=54, n_jobs=1, progress=False
    )
    assert table_digest(result) == WITHOUT_PHASES


def test_the_strategy_of_a_valuer_is_the_runs() -> None:
    """A valuer holds the strategy the run names, on the tables it is given."""
    v = load_variant("qiantang")
    valuer = strategy_value(v, 4, as_strategy("max-ev"))
    assert valuer.strategy.name == "max-ev" and valuer.n_players == 4


def test_004_the_three_player_swap_values_only_the_seats_it_asks() -> None:
    """54.2: the 3-player swap values a player's hand only where every seat before it declined;
    its decisions are those of valuing every seat (:func:`fresh_values`, same numbers)."""
    from simkit.phases.exchange import exchange_three, fresh_values

    v = load_variant("qiantang")
    hands = deal(64, 3, rng=6)
    solver = make_solver(v, 3)
    done = exchange_three(hands, 1.0, solver, np.random.default_rng(4))
    own = hand_values(hands, solver)
    fresh = fresh_values(hands, solver, np.random.default_rng(4))
    want = np.full(64, -1)
    want[fresh[:, 0] - 2.0 > own[:, 0]] = 0
    for seat in (1, 2):
        want[(want < 0) & (fresh[:, seat] - 1.0 > own[:, seat])] = seat
    np.testing.assert_array_equal(done.bought, want)
    assert {0, 1, 2, -1} >= set(want.tolist()) and (want >= 0).any() and (want < 0).any()
