"""The rollout strategy: reproducible, legal, never worse than its model on its own rollouts."""

import numpy as np
import pytest

from simkit.arrange import (
    MaxEV,
    arrange,
    as_strategy,
    legal_splits,
    max_ev_ids,
    pareto_front,
    strategy_from_name,
)
from simkit.arrange.strategies import ExpectedScore, strategy_names
from simkit.cards import parse_cards
from simkit.deal import deal
from simkit.evaluate import dun_ranks
from simkit.regret import rollout_values
from simkit.rollout import Rollout, hand_seeds
from simkit.variants import resolve_variant

# Every legal split of this hand is dominated by one split (tests/test_regret.py).
ONE_SPLIT_HAND = parse_cards("2d 5h 6c 7s 8s 9c Td Jd Qh Ks Ac Ad As")
TINY = Rollout(top=3, rollouts=12, batch=3)
MAX_EV_TINY = Rollout(top=3, rollouts=12, batch=3, opponents=MaxEV(), model=MaxEV())


def as_variant(name: str):
    return resolve_variant(name)


def _hands(n: int, n_players: int, seed: int) -> np.ndarray:
    return np.sort(deal(n, n_players, rng=seed)[:, 0], axis=1)


def test_the_same_seed_makes_the_same_choices():
    hands = _hands(5, 4, 1)
    a = arrange(hands, "guangxi", TINY, n_players=4, rng=9)
    b = arrange(hands, "guangxi", TINY, n_players=4, rng=9)
    assert (a[0] == b[0]).all() and (a[1] == b[1]).all()
    ids_a, values_a = TINY.choose_splits(hands, as_variant("guangxi"), n_players=4, rng=9)
    ids_b, values_b = TINY.choose_splits(hands, as_variant("guangxi"), n_players=4, rng=9)
    assert (ids_a == ids_b).all() and values_a is not None and (values_a == values_b).all()


def test_a_hand_whose_front_is_one_split_gets_that_split():
    _, ranks = legal_splits(ONE_SPLIT_HAND, "western-2-4")
    (only,) = ranks[pareto_front(ranks)]
    cards, _ = arrange(ONE_SPLIT_HAND, "western-2-4", TINY, n_players=2, rng=0)
    assert (dun_ranks(cards, "western-2-4") == only).all()


@pytest.mark.parametrize(("variant", "players"), [("western-2-4", 2), ("guangxi", 4)])
def test_it_never_fouls(variant, players):
    hands = _hands(6, players, 2)
    cards, _ = arrange(hands, variant, TINY, n_players=players, rng=4)
    for hand, setting in zip(hands, cards, strict=True):
        _, legal = legal_splits(hand, variant)
        ranks = dun_ranks(setting, variant)
        assert (legal == ranks).all(axis=1).any()


@pytest.mark.parametrize("rollout", [TINY, MAX_EV_TINY], ids=["default-model", "max-ev-model"])
def test_its_choice_scores_at_least_its_models_on_the_same_rollouts(rollout):
    v = as_variant("guangxi")
    hands = _hands(4, 4, 5)
    _, values = rollout.choose_splits(hands, v, n_players=4, rng=3)
    mine, _ = arrange(hands, v, rollout, n_players=4, rng=3)
    model, _ = arrange(hands, v, rollout.model, n_players=4)
    for h, seed in enumerate(hand_seeds(3, len(hands))):
        mean, _ = rollout_values(
            hands[h], np.stack([mine[h], model[h]]), v, 4, rollouts=rollout.rollouts, seed=seed,
            opponents=rollout.opponents,
        )  # fmt: skip
        assert mean[0] >= mean[1]
        assert values is not None and mean[0] == pytest.approx(values[h])


def test_it_reads_the_default_strategy_unless_told_otherwise():
    # issue 11 item 3: the default's top splits valued by rollouts against the default
    assert isinstance(Rollout().model, ExpectedScore)
    assert isinstance(Rollout().opponents, ExpectedScore)
    assert type(MAX_EV_TINY.model) is MaxEV


@pytest.mark.parametrize("rollout", [TINY, MAX_EV_TINY], ids=["default-model", "max-ev-model"])
def test_candidates_start_with_the_models_choice(rollout):
    v = as_variant("guangxi")
    hands = _hands(3, 4, 6)
    solver = rollout.model.solver(v, 4)
    own, _, _ = max_ev_ids(hands, solver)
    for h in range(len(hands)):
        cand = rollout.candidates(hands[h], own[h], solver)
        assert (cand[0] == own[h]).all() and 1 <= len(cand) <= rollout.top + 1
        assert len({tuple(c) for c in cand}) == len(cand)


def test_the_name_resolves():
    assert "rollout" in strategy_names()
    assert isinstance(strategy_from_name("rollout"), Rollout)
    assert isinstance(as_strategy("rollout"), Rollout)
    cards, declared = arrange(ONE_SPLIT_HAND, "western-2-4", "rollout", n_players=2, rng=0)
    assert cards.shape == (13,) and declared.shape == ()


def test_bad_settings_are_rejected():
    with pytest.raises(ValueError, match="top must be"):
        Rollout(top=0)
    with pytest.raises(ValueError, match="seat must be"):
        Rollout(seat="dealer")
    with pytest.raises(ValueError, match="nest rollouts"):
        Rollout(opponents=Rollout())
    with pytest.raises(ValueError, match="one deck"):
        arrange(deal(1, 5, rng=0)[0, 0], "guangxi", TINY, n_players=5)


def test_the_commands_take_it(capsys):
    from simkit.cli import main

    hand = "As Ks Qs Js Ts 9h 9d 9c 2h 3h 4d 5c 7s"
    assert main(["arrange", hand, "--top", "1", "--strategy", "rollout"]) == 0
    out = capsys.readouterr().out
    assert "rollout sets it (its value" in out and "rollout declares nothing" in out
    args = ["regret", "rollout", "--variant", "western-2-4", "--players", "2", "--hands", "2"]
    assert main([*args, "--rollouts", "5", "5"]) == 0
    assert capsys.readouterr().out.startswith("rollout on western-2-4, 2 players")
    assert main(["regret", "rollout", "--opponents", "rollout", "--hands", "1"]) == 2
    assert "nest rollouts" in capsys.readouterr().err
    match = ["match", "rollout", "max-ev", "--variant", "western-2-4", "--players", "2"]
    assert main([*match, "--games", "3"]) == 0
    assert capsys.readouterr().out.startswith("rollout vs max-ev")
