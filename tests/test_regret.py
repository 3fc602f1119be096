"""The regret estimator: a negative control, a known gap, and reproducibility."""

import numpy as np
import pytest

from simkit.arrange import arrange, legal_splits, pareto_front
from simkit.cards import parse_cards
from simkit.regret import regret
from simkit.score import score

# Found by search: every legal split of this hand is dominated by one split (its Pareto front
# has one member), so no setting can beat the strategy's own choice when that is the one.
ONE_SPLIT_HAND = parse_cards("2d 5h 6c 7s 8s 9c Td Jd Qh Ks Ac Ad As")


def test_one_split_hand_has_a_front_of_one():
    _, ranks = legal_splits(ONE_SPLIT_HAND, "western-2-4")
    assert pareto_front(ranks).sum() == 1


def test_negative_control_ci_covers_zero_where_the_choice_is_provably_best():
    r = regret(
        "max-ev",
        "western-2-4",
        2,
        hands=np.stack([ONE_SPLIT_HAND] * 8),
        rollouts=(30, 30),
        seed=3,
    )
    lo, hi = r.ci
    assert lo <= 0.0 <= hi
    assert not r.differs.any()


def _worst_back(ranks: np.ndarray) -> np.ndarray:
    """An objective forced onto a known-worse setting: the weakest legal back."""
    return -ranks[:, 2].astype(np.float64)


def test_recovers_a_known_gap():
    # The forced strategy's gap to max-ev, measured directly on independent deals of the
    # opponents' cards, is a lower bound of its regret (max-ev's setting is a candidate).
    hands = np.stack(
        [
            np.sort(h)
            for h in np.random.default_rng(7).permuted(np.tile(np.arange(52), (12, 1)), axis=1)[
                :, :13
            ]
        ]
    ).astype(np.int8)
    r = regret(
        _worst_back, "western-2-4", 2, hands=hands, rollouts=(150, 150), seed=5, opponents="max-ev"
    )
    forced, _ = arrange(hands, "western-2-4", _worst_back, n_players=2)
    good, _ = arrange(hands, "western-2-4", "max-ev", n_players=2)
    rng = np.random.default_rng(11)
    gaps = []
    for h in range(len(hands)):
        rest = np.setdiff1d(np.arange(52), hands[h])
        opp = np.sort(np.stack([rng.permutation(rest)[:13] for _ in range(400)]), axis=1)
        opp_set, _ = arrange(opp.astype(np.int8), "western-2-4", "max-ev", n_players=2)

        def mean_points(mine, opp_set=opp_set):
            games = np.stack([np.broadcast_to(mine, opp_set.shape), opp_set], axis=1)
            return score(games, "western-2-4")[:, 0].mean()

        gaps.append(mean_points(good[h]) - mean_points(forced[h]))
    known = float(np.mean(gaps))
    assert known > 0.5  # the weakest back is a bad setting
    assert r.ci[0] > 0
    assert r.mean >= known - 4 * r.se


def test_same_seed_same_figures_for_any_batch():
    a = regret("max-ev", "guangxi", 3, hands=6, rollouts=(20, 20), seed=9, batch=2)
    b = regret("max-ev", "guangxi", 3, hands=6, rollouts=(20, 20), seed=9, batch=5)
    np.testing.assert_array_equal(a.per_hand, b.per_hand)
    assert a.row()["regret"] == b.row()["regret"]


def test_banker_seat_is_measured_as_the_banker():
    a = regret("max-ev", "taiwan", 4, seat="banker", hands=4, rollouts=(20, 20), seed=2)
    b = regret("max-ev", "taiwan", 4, seat="player", hands=4, rollouts=(20, 20), seed=2)
    assert a.seat == "banker" and b.seat == "player"
    assert not np.array_equal(a.per_hand, b.per_hand)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"seat": "dealer"}, "seat must be one of"),
        ({"hands": 0}, "hands must be"),
        ({"rollouts": (10,)}, "rollouts must be two integers"),
        ({"hands": np.zeros((2, 12), dtype=np.int8)}, "shape"),
        ({"n_players": 5}, "one deck"),
    ],
)
def test_bad_arguments_are_named(kwargs, message):
    args = {"strategy": "max-ev", "variant": "western-2-4", "n_players": 2, **kwargs}
    with pytest.raises(ValueError, match=message):
        regret(**args)


def test_command_prints_the_estimate(capsys):
    from simkit.cli import main

    assert (
        main(
            [
                "regret",
                "--variant",
                "western-2-4",
                "--players",
                "2",
                "--hands",
                "3",
                "--rollouts",
                "10",
                "10",
                "--seed",
                "4",
            ]
        )
        == 0
    )
    out = capsys.readouterr().out
    assert "regret" in out and "95% CI" in out and "3 hands, 10 + 10 rollouts" in out
