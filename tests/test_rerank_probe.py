"""``experiments/rerank_probe.py`` and ``experiments/rollout_strategy.py``: the re-ranking rule,
the population's scoring, and the rows they write."""

import json
import sys

import numpy as np
import pytest
from conftest import experiment

from simkit.arrange import arrange, legal_splits
from simkit.arrange.strategies import RERANK_WIDE_WINDOW
from simkit.deal import deal
from simkit.evaluate import dun_ranks
from simkit.score import score
from simkit.splits import split_positions
from simkit.variants import resolve_variant

INF = float("inf")


def _hand(model, sel, ev, **sources):
    return {
        "model": np.asarray(model, float),
        "sel": np.asarray(sel, float),
        "ev": np.asarray(ev, float),
        **{k: np.asarray(v, float) for k, v in sources.items()},
    }


def test_rerank_keeps_the_best_of_the_models_top_and_the_default_on_a_tie():
    probe = experiment("rerank_probe")
    # candidate 0: the default's choice; 1: a copy of it on the front (identical on every
    # deal); 2, 3, 4: others the model rates 2nd, 3rd and last
    hand = _hand(
        model=[5.0, 5.0, 4.0, 3.0, 1.0],
        sel=[0.0, 0.0, 0.5, 0.2, 2.0],  # the selection deals pick candidate 4
        ev=[0.0, 0.0, 0.4, 0.3, 1.0],
        src=[0.0, 0.0, 0.1, 0.9, 5.0],
        tie=[0.0, 0.0, 0.0, 0.0, 0.0],
    )
    # top 1: the copy is skipped, so candidate 2 is compared with 0 and kept
    assert probe.rerank_regret([hand], "src", 1)[0] == pytest.approx(1.0 - 0.4)
    # top 2: candidate 3 scores best on the source
    assert probe.rerank_regret([hand], "src", 2)[0] == pytest.approx(1.0 - 0.3)
    # top 3 reaches candidate 4, the one the selection deals pick: no regret
    assert probe.rerank_regret([hand], "src", 3)[0] == pytest.approx(0.0)
    # a source that cannot tell them apart keeps the default's choice
    assert probe.rerank_regret([hand], "tie", 3)[0] == pytest.approx(1.0)


def test_population_points_are_the_scorers_on_the_assembled_games():
    probe = experiment("rerank_probe")
    v = resolve_variant("guangxi")
    tables = probe.population("guangxi", 4, 6, np.random.SeedSequence(1))
    hand = np.sort(deal(1, 4, rng=2)[0, 0])
    mine, _ = arrange(hand, v, "expected-score", n_players=4)
    greedy, _ = arrange(hand, v, "greedy", n_players=4)
    cards = np.stack([mine, greedy]).astype(np.int8)
    pick = np.array([0, 3, 5, 3])
    got = probe._population_points(cards, v, 4, tables, pick)
    pc, pd, _ = tables
    for c in range(2):
        for i, t in enumerate(pick):
            game = np.concatenate([cards[c][None], pc[t]])[None]
            decl = np.concatenate([[-1], pd[t]])[None]
            assert got[c, i] == pytest.approx(score(game, v, declared=decl)[0, 0])
    assert (dun_ranks(tables[0].reshape(-1, 13), v) == tables[2].reshape(-1, 3)).all()


def test_probe_writes_its_rows(tmp_path, monkeypatch):
    argv = ["rerank_probe.py", "--hands", "4", "--rollouts", "6", "6", "--m", "8",
            "--tables", "40", "--parts", "2", "--jobs", "1", "--out", str(tmp_path)]  # fmt: skip
    monkeypatch.setattr(sys, "argv", argv)
    experiment("rerank_probe").main()
    rows = json.loads((tmp_path / "rerank-probe.json").read_text())["rows"]
    assert {(r["source"], r["deals"], r["top"]) for r in rows} == {
        (s, d, t) for s in ("rollouts", "population") for d in (2, 4, 8) for t in (2, 4, 8)
    }
    page = (tmp_path / "rerank-probe.md").read_text()
    assert "| population | 8 | default + 8 |" in page and "## Where they disagree" in page


def test_the_list_studies_read_the_probe_file(tmp_path, monkeypatch):
    """rerank_top.py, rerank_wide.py and rerank_home.py on a small probe file: every row
    written; the six within the window of one equal to the same list (no wide list) of the
    other; the home study's row without the home rate and with the wide list for two trips is
    the wide study's row of the shipped wide list (10 within the wide window)."""
    probe = tmp_path / "probe.npz"
    argv = ["rerank_probe.py", "--hands", "6", "--rollouts", "6", "6", "--m", "4",
            "--tables", "40", "--parts", "2", "--jobs", "1", "--out", str(tmp_path),
            "--save-hands", str(probe)]  # fmt: skip
    monkeypatch.setattr(sys, "argv", argv)
    experiment("rerank_probe").main()
    for study in ("rerank_top", "rerank_wide", "rerank_home"):
        argv = [f"{study}.py", "--probe", str(probe), "--out", str(tmp_path)]
        monkeypatch.setattr(sys, "argv", argv)
        experiment(study).main()
    top = json.loads((tmp_path / "rerank-top.json").read_text())
    wide = json.loads((tmp_path / "rerank-wide-guangxi.json").read_text())
    assert top["meta"]["hands"] == wide["meta"]["hands"] == 6
    module = experiment("rerank_wide")
    assert len(wide["rows"]) == len(module.LISTS)
    six = next(r for r in top["windows"] if (r["window"], r["cap"]) == (0.5, 5.0))
    same = next(
        r for r in wide["rows"] if (r["top"], r["wide_top"], r["wide_window"]) == (6, 6, 0.5)
    )
    assert six["regret"]["mean"] == pytest.approx(same["regret"]["mean"], abs=1e-12)
    assert six["mean_kept"] == pytest.approx(same["mean_kept"])
    assert "| 6 | 10 | inf |" in (tmp_path / "rerank-wide-guangxi.md").read_text()
    home = json.loads((tmp_path / "rerank-home-guangxi.json").read_text())
    home_module = experiment("rerank_home")
    assert home["meta"]["hands"] == 6
    assert len(home["rows"]) == len(home_module.RATES) * len(home_module.LISTS)
    assert len(home["full_search"]) == len(home_module.RATES)
    before = next(r for r in home["rows"] if (r["home_rate"], r["list"]) == (0.0, "two trips"))
    shipped = next(
        r
        for r in wide["rows"]
        if (r["top"], r["wide_top"], r["wide_window"]) == (6, 10, RERANK_WIDE_WINDOW)
    )
    assert before["regret"]["mean"] == pytest.approx(shipped["regret"]["mean"], abs=1e-12)
    assert before["gain"]["mean"] == 0.0


def test_home_rate_check_writes_its_rows(tmp_path, monkeypatch):
    """home_rate_check.py with few games and rollouts: both rows' self-play rates, and the
    three hands' two splits (the strategy's with and without the home rate) under the three
    rules, the second split holding the aces in front."""
    argv = ["home_rate_check.py", "--games", "300", "--rollouts", "200", "--out", str(tmp_path)]
    monkeypatch.setattr(sys, "argv", argv)
    experiment("home_rate_check").main()
    out = json.loads((tmp_path / "home-rate-check.json").read_text())
    assert [p["variant"] for p in out["self_play"]] == ["guangxi", "guangxi-regional"]
    for p in out["self_play"]:
        assert 0.0 < p["scoop_rate"] < 1.0 and 0.0 <= p["home_given_scoop"] <= 1.0
    assert len(out["hands"]) == 3
    for h in out["hands"]:
        assert len(h["splits"]) == 2 and set(h["gain"]) == {
            "full rules",
            "no home run",
            "no scoop nor home run",
        }
        assert h["splits"][1]["split"].split(" / ")[0].count("A") == 2
    bad = ["home_rate_check.py", "--games", "10"]
    monkeypatch.setattr(sys, "argv", bad)
    with pytest.raises(SystemExit, match="at least 100"):
        experiment("home_rate_check").main()


def test_hand_features_count_what_they_name():
    from simkit.cards import parse_cards

    probe = experiment("rerank_probe")
    hand = parse_cards("As Ah Kd Kc Ks Qs Js 9s 7h 5h 4d 3c 2s")
    assert probe.hand_features(hand) == {"high cards": 7, "pairs": 2, "longest suit": 6}
    assert [name for name, _ in probe.HAND_FEATURES] == list(probe.hand_features(hand))


def test_removal_bias_reads_the_rollouts_against_the_population():
    probe = experiment("rerank_probe")
    v = resolve_variant("guangxi")
    hand = np.sort(deal(1, 4, rng=3)[0, 0])
    ids, ranks = legal_splits(hand, v)
    ends = ids[[np.argmin(ranks[:, 0]), np.argmax(ranks[:, 0])]].astype(np.int64)
    weak, strong = hand[split_positions(ends).astype(np.int64)]
    assert dun_ranks(weak, v)[0] < dun_ranks(strong, v)[0]
    rec = _hand(
        model=[2.0, 1.0], sel=[0.0, 1.0], ev=[0.0, 1.0],
        **{"rollouts m": [0.0, 0.7], "population m": [0.0, 0.2]},
    )  # fmt: skip
    rec["cards"] = np.stack([strong, weak])
    rows = probe.removal_bias(np.stack([hand, hand]), [rec, rec], v)
    # the alternative's front is weaker than the default's; the rollouts like it 0.5 more
    assert rows[0]["front"] == "weaker" and rows[0]["feature"] == "all"
    assert rows[0]["mean"] == pytest.approx(0.5) and rows[0]["n"] == 2


def test_rollout_script_names_a_bad_case_before_any_work():
    script = experiment("rollout_strategy")
    assert script.parse_case("guangxi:4") == ("guangxi", 4)
    with pytest.raises(SystemExit, match="2-4 players"):
        script.parse_case("guangxi:6")
    with pytest.raises(ValueError, match="no-such-variant"):
        script.parse_case("no-such-variant:4")


def test_rerank_by_shape_writes_its_rows(tmp_path, monkeypatch):
    """rerank_by_shape.py on a few hands: the shapes part the hands (their shares sum to one,
    as do their shares of the modelled gain), each rule's shares are its shapes', the rule of
    every hand is the strategy and the rule of none the default; bad counts refused."""
    argv = ["rerank_by_shape.py", "--hands", "200", "--repeats", "1", "--out", str(tmp_path)]
    monkeypatch.setattr(sys, "argv", argv)
    module = experiment("rerank_by_shape")
    module.main()
    out = json.loads((tmp_path / "rerank-by-shape.json").read_text())
    assert [r["variant"] for r in out["rows"]] == ["guangxi", "guangxi-regional"]
    for r in out["rows"]:
        shapes, rules = r["shapes"], r["rules"]
        assert list(shapes) == list(module.SHAPES) and list(rules) == list(module.RULES)
        assert r["mean_gain"] > 0.0
        assert sum(s["share_of_hands"] for s in shapes.values()) == pytest.approx(1.0, abs=1e-3)
        assert sum(s["share_of_gain"] for s in shapes.values()) == pytest.approx(1.0, abs=1e-3)
        for rule, kept in module.RULES.items():
            for key in ("share_of_hands", "share_of_gain"):
                want = sum(shapes[name][key] for name in kept)
                assert rules[rule][key] == pytest.approx(want, abs=1e-3)
            assert rules[rule]["hands_per_s"] > 0
        assert rules["every hand (expected-score-rerank)"]["share_of_gain"] == 1.0
        assert rules["none (expected-score)"]["share_of_hands"] == 0.0
    assert (tmp_path / "rerank-by-shape.md").read_text().count("| rule: re-rank |") == 2
    monkeypatch.setattr(sys, "argv", ["rerank_by_shape.py", "--hands", "2"])
    with pytest.raises(SystemExit, match="--hands"):
        module.main()


def test_the_wide_window_study_writes_its_rows(tmp_path, monkeypatch):
    """rerank_wide_window.py on few hands: a row for every window of both guangxi rows, and
    each window changes the pick of at least the hands whose pick (kept whatever its value)
    lies further under the bar's reference than the window reaches: the study's two
    measures agree."""
    module = experiment("rerank_wide_window")
    monkeypatch.setattr(module, "PROTOCOL_HANDS", 12)
    argv = ["rerank_wide_window.py", "--hands", "200", "--timed-hands", "40", "--rounds", "2",
            "--repeats", "1", "--out", str(tmp_path)]  # fmt: skip
    monkeypatch.setattr(sys, "argv", argv)
    module.main()
    out = json.loads((tmp_path / "rerank-wide-window.json").read_text())
    assert [r["variant"] for r in out["results"]] == list(module.VARIANTS)
    for r in out["results"]:
        assert [row["wide_window"] for row in r["rows"]] == list(module.WINDOWS)
        assert r["hands"] == 200 and r["depth_wide"]["hands"] + r["depth_other"]["hands"] == 200
        for row in r["rows"]:
            assert 0 <= row["differ"] <= r["hands"]
            assert all(0 <= n <= 12 for n in row["differ_protocol"].values())
            speed = row["speed_over_none"]
            assert 0 < speed["low"] <= speed["median"] <= speed["high"]
            beyond = f"{row['wide_window']:g}"
            if beyond in r["depth_wide"]["beyond"]:
                cut = r["depth_wide"]["beyond"][beyond] + r["depth_other"]["beyond"][beyond]
                assert row["differ"] >= cut
        # a narrower window scores no more splits than a wider one
        scored = [r["scored_none"]] + [row["scored"] for row in r["rows"]]
        assert scored == sorted(scored, reverse=True)
    assert "| guangxi | 1.5 |" in (tmp_path / "rerank-wide-window.md").read_text()
