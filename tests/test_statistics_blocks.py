"""The one-pass block summaries (:func:`simkit.statistics.record_blocks`, numba) against the
plain numpy reference (:func:`simkit.statistics.record_block_reference`), bit for bit, on
blocks that every shipped variant plays, several blocks in one batch, and scores that are not
whole numbers (where the float sums must fall back to the reference's own order)."""

from __future__ import annotations

import dataclasses
import functools
import importlib

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from simkit.arrange import Arrangement
from simkit.simulate import make_config, play_block
from simkit.statistics import (
    Key,
    Sum,
    record_block,
    record_block_reference,
    record_blocks,
    t_values,
    t_values_reference,
)
from simkit.variants import deck_option_names, load_variant, variant_names

GAMES = 300


def _equal(mine, reference) -> None:
    for got, want in zip(mine, reference, strict=True):
        assert got.keys() == want.keys()
        for key in want:
            a, b = np.asarray(got[key]), np.asarray(want[key])
            assert a.dtype == b.dtype, key
            assert a.shape == b.shape, key
            assert np.array_equal(a, b), key  # bit for bit (no tolerance)


def _block_inputs(variants, n_players=4, games=GAMES, seed=5, block=0, block_games=None):
    """What play_block hands to record_block for one block of ``variants``."""
    captured = {}

    def capture(vs, plays, scored):
        captured["args"] = (vs, plays, scored)
        return record_block_reference(vs, plays, scored)

    config = make_config(variants, games, n_players, "greedy", seed=seed)
    if block_games is not None:
        config = dataclasses.replace(config, block_games=block_games)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(importlib.import_module("simkit.simulate.blocks"), "record_block", capture)
        play_block(config, block)
    return captured["args"]


@pytest.mark.parametrize("name", [*variant_names(), *deck_option_names()])
def test_record_block_equals_the_reference_for_every_shipped_variant(name):
    args = _block_inputs([name])
    _equal(record_block(*args), record_block_reference(*args))


def test_record_block_equals_the_reference_for_several_variants_and_players():
    args = _block_inputs(["guangxi", "fujian", "taiwan"], n_players=3)
    _equal(record_block(*args), record_block_reference(*args))


def _concat(parts):
    """One batch of consecutive blocks from per-block ``(variants, plays, scored)``."""
    variants = parts[0][0]
    plays, scored = [], []
    for v in range(len(variants)):
        ps = [p[1][v] for p in parts]
        plays.append(
            Arrangement(
                **{
                    f: None
                    if getattr(ps[0], f) is None
                    else np.concatenate([getattr(x, f) for x in ps])
                    for f in (
                        "cards",
                        "declared",
                        "split_ids",
                        "ranks",
                        "special_masks",
                        "best",
                        "value",
                    )
                }
            )
        )
        totals = np.concatenate([p[2][v][0] for p in parts])
        comps = {k: np.concatenate([p[2][v][1][k] for p in parts]) for k in parts[0][2][v][1]}
        scored.append((totals, comps))
    return variants, plays, scored


def test_record_blocks_of_a_batch_equal_each_block_alone():
    parts = [
        _block_inputs(["guangxi", "hongkong"], games=700, block=b, block_games=300)
        for b in range(3)
    ]
    variants, plays, scored = _concat(parts)
    sizes = [len(p[2][0][0]) for p in parts]
    got = record_blocks(variants, plays, scored, sizes)
    assert sizes == [300, 300, 100]
    for recorded, part in zip(got, parts, strict=True):
        _equal(recorded, record_block_reference(*part))


def test_scores_that_are_not_whole_numbers_fall_back_to_the_reference_order():
    variants, plays, scored = _block_inputs(["guangxi"])
    total, comps = scored[0]
    shift = np.linspace(-0.3, 0.3, total.shape[0])[:, None] * np.array([1, -1, 1, -1.0])
    comps = dict(comps) | {"fouls": comps["fouls"] + shift}
    args = (variants, plays, [(total + shift, comps)])
    _equal(record_block(*args), record_block_reference(*args))


def test_a_score_too_large_for_exact_sums_falls_back_to_the_reference_order():
    variants, plays, scored = _block_inputs(["guangxi"])
    total, comps = scored[0]
    big = np.zeros_like(total)
    big[0] = [3e5, -1e5, -1e5, -1e5]  # whole numbers, but their fourth powers pass 2**53
    comps = dict(comps) | {"fouls": comps["fouls"] + big}
    args = (variants, plays, [(total + big, comps)])
    recorded = record_block(*args)
    _equal(recorded, record_block_reference(*args))
    assert recorded[1][Key(Sum.SQUARE_GAME2, 0)][0] > 2.0**53


@settings(max_examples=25, deadline=None)
@given(
    cuts=st.lists(st.integers(min_value=1, max_value=GAMES - 1), max_size=4, unique=True),
    scale=st.sampled_from([1.0, 0.5, 0.1]),
)
def test_record_blocks_equal_the_reference_block_by_block_for_any_cut(cuts, scale):
    variants, plays, scored = _base()
    edges = [0, *sorted(cuts), GAMES]
    total, comps = scored[0]
    total = total * scale
    comps = {k: c * scale for k, c in comps.items()}
    got = record_blocks(variants, plays, [(total, comps)], np.diff(edges).tolist())
    for b, recorded in enumerate(got):
        rows = slice(edges[b], edges[b + 1])
        play = plays[0]
        part = Arrangement(
            cards=play.cards[rows],
            declared=play.declared[rows],
            split_ids=play.split_ids[rows],
            ranks=play.ranks[rows],
            special_masks=play.special_masks[rows],
            best=play.best[rows],
            value=None if play.value is None else play.value[rows],
        )
        want = record_block_reference(
            variants, [part], [(total[rows], {k: c[rows] for k, c in comps.items()})]
        )
        _equal(recorded, want)


@functools.cache
def _base():
    return _block_inputs(["guangxi"])


@pytest.mark.parametrize(
    "name", [n for n in variant_names() if "t-formula" in load_variant(n).scoring.transforms]
)
def test_t_values_equal_the_reference(name):
    _, plays, _ = _block_inputs([name])
    variant, play = load_variant(name), plays[0]
    rng = np.random.default_rng(3)
    for declared in (play.declared, rng.integers(-1, 1, size=play.declared.shape).astype(np.int8)):
        got = t_values(play.ranks, declared, variant)
        want = t_values_reference(play.ranks, declared, variant)
        assert got.dtype == want.dtype and np.array_equal(got, want)
    assert (got >= 1).any() and (got == -1).any()
