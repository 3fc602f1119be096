"""The contract every registered strategy keeps, on every shipped variant and deck option
(scikit-learn's ``parametrize_with_checks`` pattern: each check a test of its own per strategy).

- legal: each hand's cards, set so that no dun order the variant calls a foul is broken
  (:func:`~simkit.evaluate.order_holds`, the scorer's own test) wherever a legal split exists;
- deterministic: the same hands and seed give the same splits and values;
- alone as in a batch: a hand is set as it is in any batch (strategies that draw, whose
  draws are per batch, are checked on the batch's first hand only);
- declares only what it holds: a declared special is one the hand's cards qualify for.

The slow ``rollout`` strategy runs with tiny options and is marked slow; it plays one plain
deck, and refuses the others with a clear error before any work.
"""

from __future__ import annotations

import numpy as np
import pytest

from simkit.arrange import Arrangement, arrangements, foul_strict, legal_splits
from simkit.arrange.strategies import strategy_from_name, strategy_names
from simkit.deal import deal
from simkit.errors import SimkitError
from simkit.evaluate import order_holds
from simkit.variants import deck_option_names, load_variant, variant_names

PLAYERS = 4
#: The strategies by name with the options that keep them small; a name not listed here
#: runs with its defaults (every registered name runs: :func:`strategy_names`).
SMALL = {"rollout": "rollout:top=2,rollouts=8"}
#: Strategies whose choices draw from the generator (one draw sequence per batch).
DRAWS = ("random-legal", "rollout")
SLOW = ("rollout",)
#: Strategies that play one plain deck only: elsewhere they refuse before any work.
ONE_DECK = ("rollout",)
VARIANTS = (*variant_names(), *deck_option_names())


def _play(spec: str, name: str, hands: np.ndarray, seed: int = 3) -> Arrangement:
    v = load_variant(name)
    strategy = strategy_from_name(spec)
    (found,) = arrangements([hands], [v], strategy, n_players=PLAYERS, rng=seed)
    return found


def _hands(name: str, games: int = 6) -> np.ndarray:
    v = load_variant(name)
    gen = np.random.default_rng((41, VARIANTS.index(name)))
    return deal(games, PLAYERS, rng=gen, deck=v.deck_for(PLAYERS)).reshape(-1, 13)


CASES = [
    pytest.param(name, variant, marks=[pytest.mark.slow] if name in SLOW else [])
    for name in strategy_names()
    for variant in VARIANTS
]


@pytest.mark.parametrize(("name", "variant"), CASES)
def test_strategy_contract(name: str, variant: str) -> None:
    spec = SMALL.get(name, name)
    v = load_variant(variant)
    hands = _hands(variant, 2 if name in SLOW else 6)
    if name in ONE_DECK and not v.deck_for(PLAYERS).is_one_deck:
        with pytest.raises(SimkitError, match="one plain deck"):
            _play(spec, variant, hands)
        return
    found = _play(spec, variant, hands)
    # legal: the hand's cards, no foul where a legal split exists
    assert (np.sort(found.cards, axis=1) == np.sort(hands, axis=1)).all()
    order = foul_strict(v)
    for row, ranks in zip(hands, found.ranks, strict=True):
        if order_holds(int(ranks[0]), int(ranks[1]), int(ranks[2]), order):
            continue
        ids, _ = legal_splits(row, v)
        assert len(ids) == 0, f"{name} fouls a hand with {len(ids)} legal splits"
    # declares only what the hand holds
    declared = found.declared.astype(np.int64)
    held = (found.special_masks.astype(np.int64) >> np.maximum(declared, 0)) & 1
    assert ((declared < 0) | (held == 1)).all()
    # deterministic
    again = _play(spec, variant, hands)
    assert (again.split_ids == found.split_ids).all()
    assert (again.declared == found.declared).all()
    assert (found.value is None) == (again.value is None)
    if found.value is not None:
        assert again.value is not None and (again.value == found.value).all()
    # alone as in a batch
    checked = range(1) if name in DRAWS else range(0, len(hands), 5)
    for h in checked:
        alone = _play(spec, variant, hands[h : h + 1])
        assert (alone.split_ids[0] == found.split_ids[h]).all(), (name, variant, h)
        assert alone.declared[0] == found.declared[h]
