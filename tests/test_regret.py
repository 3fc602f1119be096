"""The regret estimator: a negative control, a known gap, and reproducibility."""

import numpy as np
import pytest

from simkit.arrange import arrange, legal_splits, pareto_front
from simkit.cards import parse_cards
from simkit.regret import merge_parts, regret, rollout_values
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


def test_parts_of_a_run_merge_into_the_whole_run():
    whole = regret("max-ev", "guangxi", 3, hands=7, rollouts=(15, 15), seed=4)
    parts = [
        regret("max-ev", "guangxi", 3, hands=7, rollouts=(15, 15), seed=4, part=(k, 3))
        for k in range(3)
    ]
    assert [p.hands for p in parts] == [2, 2, 3]
    merged = merge_parts(parts)
    np.testing.assert_array_equal(merged.per_hand, whole.per_hand)
    np.testing.assert_array_equal(merged.differs, whole.differs)
    np.testing.assert_array_equal(merged.candidates, whole.candidates)
    assert merged.row()["regret"] == whole.row()["regret"]
    other = regret("max-ev", "guangxi", 4, hands=7, rollouts=(15, 15), seed=4, part=(0, 3))
    with pytest.raises(ValueError, match="differ in n_players"):
        merge_parts([parts[0], other])


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
        ({"hands": 3, "part": (3, 3)}, "part must be"),
        ({"hands": 3, "part": (0, 4)}, "part must be"),
        ({"hands": 3, "part": 1}, "part must be"),
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


README_HAND = parse_cards("As Ks Qs Js Ts 9h 9d 9c 2h 3h 4d 5c 7s")


@pytest.mark.parametrize(
    ("variant", "n_players", "seat"),
    [("guangxi", 3, "player"), ("taiwan", 4, "banker"), ("taiwan", 4, "player")],
)
def test_rollout_values_agree_with_a_direct_computation(variant, n_players, seat):
    # Two settings of one hand: max-ev's and the weakest back.  The direct computation deals
    # the other cards by its own generator, sets them with max-ev and scores whole games.
    hand = np.sort(README_HAND)
    settings = np.stack(
        [
            arrange(hand, variant, "max-ev", n_players=n_players)[0],
            arrange(hand, variant, _worst_back, n_players=n_players)[0],
        ]
    )
    mean, se = rollout_values(
        hand, settings, variant, n_players, rollouts=1500, seed=2, seat=seat, chunk=700,
        opponents="max-ev",
    )  # fmt: skip
    rng = np.random.default_rng(99)
    rest = np.setdiff1d(np.arange(52), hand)
    need = (n_players - 1) * 13
    opp = np.stack([rng.permutation(rest)[:need] for _ in range(1500)])
    opp = np.sort(opp.reshape(1500, n_players - 1, 13), axis=2).astype(np.int8)
    opp_set, opp_decl = arrange(opp, variant, "max-ev", n_players=n_players)
    banker = 0 if seat == "banker" else 1
    for k, mine in enumerate(settings):
        games = np.concatenate([np.broadcast_to(mine, (1500, 1, 13)), opp_set], axis=1)
        declared = np.concatenate([np.full((1500, 1), -1, np.int8), opp_decl], axis=1)
        points = score(games, variant, declared=declared, banker=banker)[:, 0]
        direct, direct_se = points.mean(), points.std(ddof=1) / np.sqrt(points.size)
        assert abs(mean[k] - direct) < 4 * np.hypot(se[k], direct_se)
    assert mean[0] > mean[1]  # the weakest back is worse


def test_rollout_values_seat_each_setting_on_the_same_deals():
    hand = np.sort(README_HAND)
    mine, _ = arrange(hand, "guangxi", n_players=3)
    twice = np.stack([mine, mine])
    mean, se = rollout_values(hand, twice, "guangxi", 3, rollouts=300, seed=4)
    assert mean[0] == mean[1] and se[0] == se[1] > 0
    again, _ = rollout_values(hand, mine[None], "guangxi", 3, rollouts=300, seed=4, chunk=64)
    assert again[0] == mean[0]


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"candidates": np.zeros((1, 13), dtype=np.int8)}, "13 cards of the hand"),
        ({"declared": [0]}, "does not qualify"),
        ({"rollouts": 0}, "rollouts must be"),
        ({"seat": "dealer"}, "seat must be one of"),
        ({"n_players": 5}, "one deck"),
    ],
)
def test_rollout_values_name_bad_arguments(kwargs, message):
    hand = np.sort(README_HAND)
    mine, _ = arrange(hand, "western-2-4", n_players=2)
    args = {"candidates": mine[None], "variant": "western-2-4", "n_players": 2, **kwargs}
    with pytest.raises(ValueError, match=message):
        rollout_values(hand, **args)


def test_arrange_command_prints_rollouts_with_their_ci(capsys):
    from simkit.cli import main

    hand = "As Ks Qs Js Ts 9h 9d 9c 2h 3h 4d 5c 7s"
    args = ["arrange", hand, "--variant", "guangxi", "--players", "3", "--top", "2"]
    args += ["--max-deals", "4000"]
    assert main([*args, "--rollouts", "200", "--seed", "1"]) == 0
    out = capsys.readouterr().out
    assert "model" in out and "not the expected score" in out
    assert out.count("rollouts +") == 2 and out.count("95% CI") == 3
    assert "on 200 other" in out
    assert main(args) == 0
    assert "95% CI" not in capsys.readouterr().out


def test_arrange_rollouts_value_declaring_where_the_hand_qualifies():
    from simkit.describe import describe_splits

    dragon = "2s 3s 4s 5s 6s 7s 8s 9s Ts Js Qs Kd Ad"  # 一条龙, 36 a player in taiwan
    lines = describe_splits(dragon, "taiwan", 4, top=1, rollouts=100, seat="player", max_deals=4000)
    declaring = [line for line in lines if line.startswith("declaring")]
    assert len(declaring) == 1 and "95% CI" in declaring[0]
    assert "player seat" in lines[0]
