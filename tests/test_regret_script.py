"""``experiments/regret.py``: the rows it writes do not depend on ``--jobs``."""

import json
import sys

import numpy as np
import pytest
from conftest import experiment
from scipy.stats import norm


def _rows(tmp_path, monkeypatch, jobs):
    out = tmp_path / f"jobs{jobs}"
    argv = ["regret.py", "--hands", "3", "--rollouts", "4", "4", "--variants", "western-2-4",
            "taiwan", "--players", "2", "--seed", "5", "--jobs", str(jobs), "--out", str(out)]  # fmt: skip
    monkeypatch.setattr(sys, "argv", argv)
    experiment("regret").main()
    rows = json.loads((out / "regret.json").read_text())["rows"]
    for r in rows:
        del r["hands_per_s"]  # time, not a figure
    return rows


def test_regret_rows_are_the_same_in_one_or_two_processes(tmp_path, monkeypatch):
    one = _rows(tmp_path, monkeypatch, 1)
    two = _rows(tmp_path, monkeypatch, 2)
    assert [(r["variant"], r["seat"]) for r in one] == [
        ("western-2-4", "any"), ("taiwan", "banker"), ("taiwan", "player")
    ]  # fmt: skip
    assert one == two


def test_regret_targets_merges_runs_and_judges_each_row_by_its_target(tmp_path, monkeypatch):
    targets = experiment("regret_targets")
    one = tmp_path / "jobs1"
    _rows(tmp_path, monkeypatch, 1)

    def row(variant, players, seat, regret, high):
        return {"variant": variant, "players": players, "seat": seat, "regret": regret,
                "ci_low": regret - 0.01, "ci_high": high, "share_differs": 0.3}  # fmt: skip

    meta = {"command": "experiments/regret.py", "hands": 9, "rollouts": [4, 4], "seed": 1,
            "seconds": 60.0}  # fmt: skip
    later = tmp_path / "later.json"
    later.write_text(json.dumps({"meta": meta, "rows": [
        row("taiwan", 2, "banker", 0.5, 0.6),  # replaces the first run's row
        row("guangxi", 4, "any", 0.023, 0.037), row("qiantang", 4, "any", 0.025, 0.035),
        row("fujian", 4, "any", 0.01, 0.019), row("western-2-4", 2, "any", 0.0069, 0.008),
    ]}))  # fmt: skip
    out = tmp_path / "merged"
    argv = ["regret_targets.py", str(one / "regret.json"), str(later), "--out", str(out)]
    monkeypatch.setattr(sys, "argv", argv)
    targets.main()
    merged = {(r["variant"], r["players"], r["seat"]): r
              for r in json.loads(out.with_suffix(".json").read_text())["rows"]}  # fmt: skip
    assert merged[("taiwan", 2, "banker")]["regret"] == 0.5
    assert ("taiwan", 2, "player") in merged and len(merged) == 6  # two of five replaced
    verdicts = {k: targets.verdict(r) for k, r in merged.items()}
    assert verdicts[("guangxi", 4, "any")] == "no (+0.0030)"
    assert verdicts[("qiantang", 4, "any")] == "yes"  # its target is 0.03
    assert verdicts[("fujian", 4, "any")] == "yes, CI below it"
    assert verdicts[("western-2-4", 2, "any")] == "yes"
    assert verdicts[("taiwan", 2, "banker")] == ""  # the issue sets no 2-player taiwan target
    md = out.with_suffix(".md").read_text()
    assert "| guangxi | 4 | any | 0.0230 | 0.0130 to 0.0370 | ≤ 0.02 | no (+0.0030) |" in md


def test_regret_targets_rejects_a_file_that_is_not_a_run(tmp_path, monkeypatch):
    bad = tmp_path / "bad.json"
    bad.write_text('{"rows": []}')
    out = tmp_path / "out"
    for path in (bad, tmp_path / "missing.json"):
        monkeypatch.setattr(sys, "argv", ["regret_targets.py", str(path), "--out", str(out)])
        try:
            experiment("regret_targets").main()
        except SystemExit as err:
            assert str(path) in str(err)
        else:
            raise AssertionError("a bad input was accepted")
    assert not out.with_suffix(".md").exists()


def test_tformula_study_rejects_bad_input_before_any_work(monkeypatch):
    study = experiment("tformula_features")
    for argv, says in ((["--rows", "fujian:4"], "t-formula"), (["--rows", "guangxi:2"], "t-formula"),
                       (["--hands", "3"], "--hands"), (["--rows", "nope:4"], "nope"),
                       (["--rollouts", "1", "5"], "--rollouts")):  # fmt: skip
        monkeypatch.setattr(sys, "argv", ["tformula_features.py", *argv])
        try:
            study.main()
        except SystemExit as err:
            assert says in str(err)
        else:
            raise AssertionError(f"{argv} was accepted")


def test_tformula_study_fits_and_renders_a_tiny_row(tmp_path, monkeypatch):
    study = experiment("tformula_features")
    argv = ["tformula_features.py", "--rows", "guangxi:4", "--hands", "16", "--rollouts", "6",
            "8", "--population", "200", "--top", "4", "--out", str(tmp_path)]  # fmt: skip
    monkeypatch.setattr(sys, "argv", argv)
    study.main()
    (row,) = json.loads((tmp_path / "tformula-features.json").read_text())
    assert [m["terms"] for m in row["models"]] == [list(t) for t in study.MODELS]
    assert row["tau"]["1.0"] >= 1.0 and row["tau"]["4.0"] >= 4.0
    assert all(m["ci95"][0] <= m["gain"] <= m["ci95"][1] for m in row["models"])
    assert "## guangxi, 4 players" in (tmp_path / "tformula-features.md").read_text()
    assert row["rollout_pick_ci95"][0] <= row["rollout_pick"] <= row["rollout_pick_ci95"][1]


def test_tformula_place_term_follows_the_waters():
    """The place term is the normal approximation of the place payment: within ±n_opp, of B's
    sign; the strength terms are B, S, H times one factor per hand."""
    study = experiment("tformula_features")
    data = study.collect("guangxi", 4, 12, 4, 5, 3)
    tau = {w: w for w in (1.0, 3.0, 4.0, 5.0, 8.0, 10.0, 20.0)}  # guangxi's dun worths
    x = study.features(data, "guangxi", 4, tau)
    place, b = x["place"], x["B"]
    assert np.all(np.abs(place) <= 3.0)
    assert np.array_equal(np.sign(place), np.sign(b))
    assert np.unique(data["hand"]).size > 1 and place.size > 5
    var = x["var"]
    spread = 2.0 * study.PAIR_VARIANCE
    expected = 3.0 * (2.0 * norm.cdf(4.0 * (b / 3.0) / np.sqrt(6.0 * var + spread)) - 1.0)
    np.testing.assert_allclose(place, expected)
    for g in study._hands(data["hand"]):
        z = x["Bz"][g] / np.where(b[g] != 0, b[g], np.nan)
        z = z[np.isfinite(z)]
        assert np.allclose(z, z[0]) and -2.0 <= z[0] <= 2.0


def test_per_hand_regrets_are_saved_and_paired(tmp_path, monkeypatch):
    """``--save-hands`` keeps each row's per-hand regrets (their mean is the row's); two runs
    of the same hands pair hand by hand in regret_paired.py."""
    runs = {}
    for strategy in ("expected-score", "greedy"):
        out = tmp_path / strategy
        argv = ["regret.py", "--strategy", strategy, "--hands", "4", "--rollouts", "4", "4",
                "--variants", "western-2-4", "--players", "2", "--seed", "5", "--save-hands",
                "--out", str(out)]  # fmt: skip
        monkeypatch.setattr(sys, "argv", argv)
        experiment("regret").main()
        (row,) = json.loads((out / "regret.json").read_text())["rows"]
        with np.load(out / "regret-hands.npz") as z:
            runs[strategy] = z["western-2-4/2/any/regret"]
            assert z["western-2-4/2/any/differs"].dtype == bool
        assert runs[strategy].shape == (4,)
        assert np.isclose(runs[strategy].mean(), row["regret"])
    md = tmp_path / "paired.md"
    argv = ["regret_paired.py", str(tmp_path / "expected-score" / "regret.json"),
            str(tmp_path / "greedy" / "regret.json"), "--out", str(md)]  # fmt: skip
    monkeypatch.setattr(sys, "argv", argv)
    experiment("regret_paired").main()
    (row,) = json.loads(md.with_suffix(".json").read_text())["rows"]
    gain = runs["expected-score"] - runs["greedy"]
    assert np.isclose(row["gain"]["mean"], gain.mean())
    assert row["gain"]["low"] < gain.mean() < row["gain"]["high"]
    assert "| western-2-4 | 2 | any |" in md.read_text()
    # runs of other hands do not pair
    other = json.loads((tmp_path / "greedy" / "regret.json").read_text())
    other["meta"]["seed"] = 6
    (tmp_path / "greedy" / "regret.json").write_text(json.dumps(other))
    with pytest.raises(SystemExit, match="differ in seed"):
        experiment("regret_paired").main()
    monkeypatch.setattr(sys, "argv", [*argv[:2], "--out", str(md)])
    with pytest.raises(SystemExit, match="in pairs"):
        experiment("regret_paired").main()


def test_the_opponents_can_play_another_strategy(tmp_path, monkeypatch):
    """``--opponents``: what the strategy gives away among players of another strategy; the
    rows say so and the command reproduces them."""
    out = tmp_path / "among-greedy"
    argv = ["regret.py", "--hands", "3", "--rollouts", "4", "4", "--variants", "western-2-4",
            "--players", "2", "--seed", "5", "--opponents", "greedy", "--out", str(out)]  # fmt: skip
    monkeypatch.setattr(sys, "argv", argv)
    experiment("regret").main()
    meta = json.loads((out / "regret.json").read_text())["meta"]
    assert meta["opponents"] == "greedy" and "--opponents greedy" in meta["command"]
    assert "opponents who play `greedy`" in (out / "regret.md").read_text()
    monkeypatch.setattr(sys, "argv", [*argv[:-2], "--opponents", "telepathy", "--out", str(out)])
    with pytest.raises(Exception, match="unknown strategy 'telepathy'"):
        experiment("regret").main()


def test_regret_targets_relabels_only_the_rows_of_the_strategy_named(tmp_path, monkeypatch):
    targets = experiment("regret_targets")
    meta = {"command": "experiments/regret.py", "hands": 9, "rollouts": [4, 4], "seed": 1,
            "seconds": 60.0}  # fmt: skip

    def row(variant, strategy):
        return {"variant": variant, "players": 4, "seat": "any", "strategy": strategy,
                "regret": 0.01, "ci_low": 0.0, "ci_high": 0.015, "share_differs": 0.3}  # fmt: skip

    old, new = tmp_path / "old.json", tmp_path / "new.json"
    old.write_text(json.dumps({"meta": meta, "rows": [row("fujian", "expected-score"),
                                                      row("guangxi", "expected-score")]}))  # fmt: skip
    new.write_text(json.dumps({"meta": meta, "rows": [row("guangxi", "expected-score-rerank")]}))
    out = tmp_path / "merged"
    argv = ["regret_targets.py", str(old), str(new), "--out", str(out),
            "--relabel", "expected-score=expected-score-rerank"]  # fmt: skip
    monkeypatch.setattr(sys, "argv", argv)
    targets.main()
    rows = {r["variant"]: r for r in json.loads(out.with_suffix(".json").read_text())["rows"]}
    assert {r["strategy"] for r in rows.values()} == {"expected-score-rerank"}
    assert rows["fujian"]["measured_as"] == "expected-score"  # relabelled, and marked
    assert "measured_as" not in rows["guangxi"]  # the later run's own row replaced it
    md = out.with_suffix(".md").read_text()
    assert "| fujian † | 4 | any |" in md and "| guangxi | 4 | any |" in md
    # the merged file is an input too: its runs, merged again
    again = tmp_path / "again"
    argv = ["regret_targets.py", str(out.with_suffix(".json")), "--out", str(again),
            "--relabel", "expected-score=expected-score-rerank"]  # fmt: skip
    monkeypatch.setattr(sys, "argv", argv)
    targets.main()
    assert again.with_suffix(".md").read_text() == md
    for bad in ("expected-score", "a=a", "=b"):
        with pytest.raises(SystemExit, match="--relabel"):
            targets.parse_relabel(bad)
