"""``experiments/regret.py``: the rows it writes do not depend on ``--jobs``."""

import json
import sys

from conftest import experiment


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
