"""The command line refuses what it cannot do well before any work, with errors that name
what is wrong: a trained table that does not fit the match, an output or checkpoint path that
cannot be written."""

from __future__ import annotations

import importlib
from typing import Any

import pytest

from simkit.arrange.wintables import shipped_table_path
from simkit.cli import main

# the modules (simkit.train and simkit.simulate are also the package's functions)
sim = importlib.import_module("simkit.simulate")
training = importlib.import_module("simkit.train")
GUANGXI_4P = str(shipped_table_path("guangxi", 4))


@pytest.fixture
def no_match(monkeypatch: pytest.MonkeyPatch) -> list[dict[str, Any]]:
    """``duplicate_match`` replaced by a recorder: a test sees the match start, or not."""
    calls: list[dict[str, Any]] = []

    def record(*args: Any, **kwargs: Any) -> dict[str, float]:
        calls.append(kwargs)
        return {"mean": 0.0, "se": 0.0, "ci_low": 0.0, "ci_high": 0.0}

    monkeypatch.setattr(training, "duplicate_match", record)
    return calls


def test_match_refuses_a_table_trained_for_another_table_size(no_match, capsys) -> None:
    assert main(["match", GUANGXI_4P, "greedy", "--players", "2", "--games", "100"]) == 2
    err = capsys.readouterr().err
    assert f"table {GUANGXI_4P} was trained for 4 players" in err
    assert "this match seats 2 (--players 2)" in err
    # B's table is checked as A's is
    assert main(["match", "greedy", GUANGXI_4P, "--players", "3", "--games", "100"]) == 2
    assert "trained for 4 players, but this match seats 3" in capsys.readouterr().err
    assert no_match == []


def test_match_refuses_a_table_trained_for_another_variant(no_match, capsys) -> None:
    argv = ["match", GUANGXI_4P, "greedy", "--variant", "qiantang", "--games", "100"]
    assert main(argv) == 2
    assert "trained for variant 'guangxi', but this match plays 'qiantang'" in (
        capsys.readouterr().err
    )
    assert no_match == []


def test_match_plays_a_table_that_fits(no_match, capsys) -> None:
    assert main(["match", GUANGXI_4P, "greedy", "--players", "4", "--games", "100"]) == 0
    assert [call["n_players"] for call in no_match] == [4]
    assert "95% CI" in capsys.readouterr().out


def test_train_refuses_an_unwritable_output_before_training(monkeypatch, capsys) -> None:
    def refuse(*args: Any, **kwargs: Any) -> None:
        raise AssertionError("training started before the output path was checked")

    monkeypatch.setattr(training, "train", refuse)
    assert main(["train", "--variant", "western-2-4", "--out", "/proc/t.npz"]) == 2
    err = capsys.readouterr().err
    assert "simkit train: error: output file /proc/t.npz: /proc is not writable" in err


def test_an_unwritable_checkpoint_folder_is_called_a_checkpoint_folder(monkeypatch, capsys) -> None:
    def refuse(*args: Any, **kwargs: Any) -> None:
        raise AssertionError("work started before the checkpoint path was checked")

    monkeypatch.setattr(sim, "play_chunk", refuse)
    argv = ["simulate", "--games", "100", "--jobs", "1", "--quiet"]
    assert main([*argv, "--checkpoint", "/proc/simkit-run/run.ckpt"]) == 2
    err = capsys.readouterr().err
    assert "checkpoint folder /proc/simkit-run: /proc is not writable" in err
    assert "output folder" not in err
