"""Fictitious-play training of the win tables, the shipped tables, and duplicate matches."""

import json

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from simkit.arrange import N_CLASSES, WinTables, arrange, dun_classes, shipped_table_path
from simkit.cli import main
from simkit.deal import deal
from simkit.errors import SimkitError
from simkit.evaluate import dun_ranks
from simkit.train import (
    LINEAR,
    OutcomeCounts,
    duplicate_match,
    fictitious_play,
    isotonic_increasing,
    schedule,
    tabulate,
    train,
)
from simkit.variants import load_variant, variant_names


def test_isotonic_fit_pools_adjacent_violators():
    fit = isotonic_increasing(np.array([1.0, 3.0, 2.0, 4.0]), np.ones(4))
    np.testing.assert_allclose(fit, [1.0, 2.5, 2.5, 4.0])
    fit = isotonic_increasing(np.array([3.0, 1.0]), np.array([3.0, 1.0]))
    np.testing.assert_allclose(fit, [2.5, 2.5])


@given(st.lists(st.tuples(st.floats(0, 1), st.floats(0.1, 10)), min_size=1, max_size=30))
def test_isotonic_fit_is_monotone_and_keeps_the_weighted_mean(pairs):
    values = np.array([v for v, _ in pairs])
    weights = np.array([w for _, w in pairs])
    fit = isotonic_increasing(values, weights)
    assert (np.diff(fit) >= -1e-12).all()
    np.testing.assert_allclose(
        (fit * weights).sum(), (values * weights).sum(), rtol=1e-9, atol=1e-12
    )


def pool_adjacent_violators(values, weights):
    """The plain weighted PAVA (Barlow et al. 1972): pool neighbours while they decrease."""
    blocks = []  # [level, weight, size]
    for v, w in zip(values.tolist(), weights.tolist(), strict=True):
        blocks.append([v, w, 1])
        while len(blocks) > 1 and blocks[-2][0] > blocks[-1][0]:
            (a, wa, na), (b, wb, nb) = blocks[-2], blocks.pop()
            blocks[-1] = [(a * wa + b * wb) / (wa + wb), wa + wb, na + nb]
    return np.repeat([b[0] for b in blocks], [b[2] for b in blocks])


@given(st.lists(st.tuples(st.floats(0, 1), st.floats(0.1, 10)), min_size=1, max_size=60))
def test_isotonic_fit_equals_plain_pool_adjacent_violators(pairs):
    values = np.array([v for v, _ in pairs])
    weights = np.array([w for _, w in pairs])
    want = pool_adjacent_violators(values, weights)
    np.testing.assert_allclose(isotonic_increasing(values, weights), want, rtol=1e-12, atol=1e-14)


def _plain_counts(ranks, normal, worth, games):
    """(count, wins, ties, paid) by a plain loop: hand i of game g against hand j != i of game
    h, for every (g, h) of ``games``."""
    want = np.zeros((4, 3, N_CLASSES))
    classes = dun_classes(ranks)
    for g, h in games:
        for i in range(3):
            for j in range(3):
                if i == j or not (normal[g, i] and normal[h, j]):
                    continue
                for d in range(3):
                    c = classes[g, i, d]
                    want[0, d, c] += 1
                    want[1, d, c] += ranks[g, i, d] > ranks[h, j, d]
                    want[2, d, c] += ranks[g, i, d] == ranks[h, j, d]
                    if ranks[g, i, d] < ranks[h, j, d]:
                        want[3, d, c] += worth[d, classes[h, j, d]]
    return want


def test_tabulate_counts_every_ordered_pair_of_normal_hands():
    """Checked against a plain loop over games, players and duns."""
    v = load_variant("guangxi")
    hands = deal(40, 3, rng=1)
    arranged, _ = arrange(hands, v, "random-legal", rng=2)
    ranks = dun_ranks(arranged, v)
    normal = np.random.default_rng(3).random((40, 3)) > 0.2
    worth = np.arange(3 * N_CLASSES, dtype=np.float64).reshape(3, N_CLASSES) % 7 + 1
    count, wins, ties, paid, scoops, pairs = tabulate(ranks, normal, worth, scoop_ties=False)
    want = _plain_counts(ranks, normal, worth, [(g, g) for g in range(40)])
    want_scoops = want_pairs = 0
    for g in range(40):
        for i in range(3):
            for j in range(3):
                if i != j and normal[g, i] and normal[g, j]:
                    want_pairs += 1
                    want_scoops += all(ranks[g, i, d] > ranks[g, j, d] for d in range(3))
    for got, w in zip((count, wins, ties, paid), want, strict=True):
        np.testing.assert_allclose(got, w)
    assert (scoops, pairs) == (want_scoops, want_pairs)


def test_tabulate_other_deals_counts_each_hand_against_the_next_games():
    """``other_deals=k``: hand i of game g against hand j != i of games g+1..g+k (cyclically),
    checked against a plain loop; the scoops are still those within each game."""
    v = load_variant("guangxi")
    n_games, k = 30, 2
    hands = deal(n_games, 3, rng=4)
    arranged, _ = arrange(hands, v, "random-legal", rng=5)
    ranks = dun_ranks(arranged, v)
    normal = np.random.default_rng(6).random((n_games, 3)) > 0.2
    worth = np.arange(3 * N_CLASSES, dtype=np.float64).reshape(3, N_CLASSES) % 5 + 1
    count, wins, ties, paid, scoops, pairs = tabulate(
        ranks, normal, worth, scoop_ties=False, other_deals=k
    )
    games = [(g, (g + shift) % n_games) for g in range(n_games) for shift in range(1, k + 1)]
    want = _plain_counts(ranks, normal, worth, games)
    for got, w in zip((count, wins, ties, paid), want, strict=True):
        np.testing.assert_allclose(got, w)
    own = tabulate(ranks, normal, worth, scoop_ties=False)
    assert (scoops, pairs) == own[4:]
    assert not np.array_equal(wins, own[1])  # the opponents did change


def test_fine_tables_count_other_deals_by_default():
    fine = train("western-2-4", 2, seed=2, n_games=200, iterations=1, strategy="expected-score")
    assert fine.meta["other_deals"] == 3 and "--other-deals 3" in fine.meta["command"]
    coarse = train("western-2-4", 2, seed=2, n_games=200, iterations=1, strategy="max-ev")
    assert coarse.meta["other_deals"] == 0 and "--other-deals" not in coarse.meta["command"]
    own = train(
        "western-2-4", 2, seed=2, n_games=200, iterations=1, strategy="expected-score",
        other_deals=0,
    )  # fmt: skip
    assert not np.array_equal(own.win, fine.win)
    for bad in (-1, 1.5, True):
        with pytest.raises(SimkitError, match="other_deals"):
            train("western-2-4", 2, n_games=10, iterations=1, other_deals=bad)


def test_training_is_reproducible_and_monotone():
    a = train("western-2-4", 2, seed=5, n_games=400, iterations=2, strategy="max-ev")
    b = train("western-2-4", 2, seed=5, n_games=400, iterations=2, strategy="max-ev")
    c = train("western-2-4", 2, seed=6, n_games=400, iterations=2, strategy="max-ev")
    assert (a.win == b.win).all() and (a.lose_pay == b.lose_pay).all()
    assert not (a.win == c.win).all()
    assert (np.diff(a.win, axis=1) >= -1e-12).all()  # a stronger dun never wins less often
    lose = 1 - a.win - a.tie
    assert (np.diff(lose, axis=1) <= 1e-12).all()
    assert len(a.meta["change_per_iteration"]) == 2
    assert "--seed 5" in a.meta["command"]


def _iteration_counts(variant, seeds, n_games):
    """What each iteration of :func:`fictitious_play` counts when every hand plays greedy."""
    from simkit.arrange import Greedy, payout_model
    from simkit.deal import as_generator

    model = payout_model(variant, 2)
    scoop_ties = bool(model.params["scoop_ties"] > 0)
    out = []
    for seed in seeds:
        gen = as_generator(seed)
        hands = deal(n_games, 2, rng=gen)
        arranged, declared = arrange(hands, variant, Greedy(), n_players=2, rng=gen)
        ranks = dun_ranks(arranged, variant)
        out.append(tabulate(ranks, declared < 0, model.win_points, scoop_ties))
    return out


def test_linear_schedule_drops_the_greedy_start_and_weighs_iteration_j_by_j():
    """``blend="linear"``: after k iterations played with tables the counts are
    sum_j j * counts_j / k over those iterations, the greedy start's (iteration 0) left out;
    a share blend keeps iteration 0 at weight (1 - blend)**k."""
    from simkit.arrange import Greedy

    v = load_variant("western-2-4")
    seeds = np.random.SeedSequence(9).spawn(4)
    per_iteration = _iteration_counts(v, seeds, 300)

    def play(hands, tables, gen):  # the same greedy play whether or not tables exist
        return arrange(hands, v, Greedy(), n_players=2, rng=gen)

    def expected(weights):
        total = [sum(w * np.asarray(c[i], dtype=float) for w, c in zip(weights, per_iteration, strict=True))
                 for i in range(6)]  # fmt: skip
        return OutcomeCounts(*total[:4], scoops=total[4], pairs=total[5]).tables()

    linear, _ = fictitious_play(v, 2, play, seeds, n_games=300, blend=LINEAR)
    want = expected([0.0, 1 / 3, 2 / 3, 3 / 3])
    np.testing.assert_allclose(linear.win, want.win, rtol=0, atol=1e-12)
    np.testing.assert_allclose(linear.lose_pay, want.lose_pay, rtol=0, atol=1e-12)
    assert linear.scoop_rate == pytest.approx(want.scoop_rate, abs=1e-15)
    halves, _ = fictitious_play(v, 2, play, seeds, n_games=300, blend=0.5)
    np.testing.assert_allclose(halves.win, expected([0.125, 0.25, 0.5, 1.0]).win, atol=1e-12)
    assert np.abs(halves.win - linear.win).max() > 1e-3  # the control: the schedules differ


def test_each_strategy_trains_on_its_own_schedule():
    fine = train("western-2-4", 2, seed=2, n_games=200, iterations=2, strategy="expected-score")
    assert fine.meta["blend"] == LINEAR == schedule("expected-score")[2]
    assert (
        train("western-2-4", 2, seed=2, n_games=200, iterations=1, strategy="max-ev").meta["blend"]
        == 0.5
    )
    hands, iterations, _ = schedule("expected-score")
    assert (hands, iterations) == (60_000, 20)
    for bad in (0.0, 1.5, "half", True):
        with pytest.raises(ValueError, match="blend must be in"):
            train("western-2-4", 2, n_games=10, iterations=1, blend=bad)


@pytest.mark.parametrize("variant", variant_names())
def test_every_variant_ships_tables_for_two_to_four_players(variant):
    for players in (2, 3, 4):
        path = shipped_table_path(variant, players)
        assert path.exists(), f"missing {path.name}"
        tables = WinTables.load(path)
        meta = tables.meta
        assert meta["variant"] == variant and meta["n_players"] == players
        # trained under today's rules: a changed variant file needs `simkit train` again
        assert meta["variant_key"] == load_variant(variant).key, f"{path.name} is stale"
        assert meta["command"].startswith(f"simkit train --variant {variant} --players {players}")
        assert (np.diff(tables.win, axis=1) >= -1e-6).all()
        assert tables.count.sum() > 0
        json.dumps(meta)


def test_shipped_tables_converged():
    """The last iteration moved the win chances by well under a percentage point."""
    for variant in variant_names():
        for players in (2, 3, 4):
            changes = WinTables.load(shipped_table_path(variant, players)).meta[
                "change_per_iteration"
            ]
            assert changes[-1] < 0.02 and changes[-1] < changes[0]


def test_duplicate_match_of_a_strategy_against_itself_is_exactly_even():
    r = duplicate_match("greedy", "greedy", "guangxi", n_players=2, n_games=300, rng=1)
    assert r["mean"] == 0.0


def test_max_ev_beats_random_legal_and_greedy():
    r = duplicate_match("max-ev", "random-legal", "western-2-4", n_games=500, rng=2)
    assert r["ci_low"] > 0
    r = duplicate_match("max-ev", "greedy", "western-2-4", n_games=500, rng=3)
    assert r["ci_low"] > 0


def test_cli_train_match_arrange(tmp_path, capsys):
    out = tmp_path / "t.npz"
    args = ["--variant", "western-2-4", "--players", "2", "--seed", "1"]
    assert main(["train", *args, "--games", "200", "--iterations", "1", "--out", str(out)]) == 0
    assert WinTables.load(out).meta["seed"] == 1
    assert main(["match", str(out), "greedy", *args[:4], "--games", "200"]) == 0
    assert "95% CI" in capsys.readouterr().out
    hand = "As Ks Qs Js Ts 9h 9d 9c 2h 3h 4d 5c 7s"
    assert main(["arrange", hand, "--variant", "guangxi", "--top", "2", "--max-deals", "4000"]) == 0
    text = capsys.readouterr().out
    assert " 1. score" in text and " 2. score" in text and "special hands" in text
    assert main(["arrange", hand.replace("7s", "7x")]) == 2
    assert "'7x'" in capsys.readouterr().err
    assert main(["match", "best", "greedy"]) == 2
