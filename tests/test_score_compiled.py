"""The compiled rule record the scorer and the value model read, and the scorer's precomputed
inputs."""

from __future__ import annotations

import dataclasses

import numpy as np

from simkit.deal import deal
from simkit.evaluate import dun_ranks
from simkit.score import score
from simkit.specials import best_special, detect_specials
from simkit.variants import load_variant
from simkit.variants.compiled import TRANSFORM_OF_NAME, ScoopMode, Transform, compile_rules


def test_compile_rules_is_cached_per_variant_and_table_size() -> None:
    v = load_variant("guangxi")
    assert compile_rules(v, 4) is compile_rules(v, 4)
    assert compile_rules(v, 4) is compile_rules(load_variant("guangxi"), 4)
    assert compile_rules(v, 3) is not compile_rules(v, 4)
    assert compile_rules(v, 3).n_players == 3


def test_a_modified_variant_compiles_to_different_rules() -> None:
    v = load_variant("taiwan")
    scoop = dataclasses.replace(v.scoring.scoop, with_ties=not v.scoring.scoop.with_ties)
    changed = dataclasses.replace(v, scoring=dataclasses.replace(v.scoring, scoop=scoop))
    before, after = compile_rules(v, 4), compile_rules(changed, 4)
    assert after is not before
    assert after.scoop_with_ties != before.scoop_with_ties
    assert after is compile_rules(changed, 4)


def test_compiled_rules_read_the_variant_tables() -> None:
    v = load_variant("guangxi")
    rules = compile_rules(v, 4)
    assert [Transform(t) for t in rules.transforms] == [
        TRANSFORM_OF_NAME[t] for t in v.scoring.transforms
    ]
    assert rules.scoop_points == v.scoring.scoop.points[4 - 2]
    assert (rules.scoop_mode != ScoopMode.NONE) == ("scoop" in v.scoring.transforms)
    assert rules.dun_worth.shape == (3, 10) and not rules.dun_worth.flags.writeable


def _stacking(name: str):  # type: ignore[no-untyped-def]
    v = load_variant(name)
    specials = dataclasses.replace(v.scoring.specials, stack=True)
    return dataclasses.replace(v, scoring=dataclasses.replace(v.scoring, specials=specials))


def test_precomputed_ranks_and_masks_give_the_same_scores() -> None:
    for v in (load_variant("fujian"), load_variant("hongkong"), _stacking("guangxi")):
        hands = deal(500, 4, rng=3)
        masks = detect_specials(hands, v)
        declared = best_special(masks)
        plain = score(hands, v, declared=declared, breakdown=True)
        given = score(
            hands,
            v,
            declared=declared,
            breakdown=True,
            ranks=dun_ranks(hands, v),
            special_masks=masks,
        )
        np.testing.assert_array_equal(plain[0], given[0])
        for key in plain[1]:
            np.testing.assert_array_equal(plain[1][key], given[1][key])
