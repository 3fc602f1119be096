"""The runner's run time: one worker pool per run with its setup built once per worker,
checkpoints that hold data only and are refused when damaged, kernels compiled before the
workers start, and progress lines off a terminal."""

from __future__ import annotations

import importlib
import io
import os
import pickle
import re
import subprocess
import sys
import time
import warnings
from pathlib import Path

import psutil
import pytest
from polars.testing import assert_frame_equal

from simkit.errors import SimkitError
from simkit.simulate import BLOCK_GAMES, make_config, simulate

sim = importlib.import_module("simkit.simulate")
blocks = importlib.import_module("simkit.simulate.blocks")
runner = importlib.import_module("simkit.simulate.runner")
ROOT = Path(__file__).resolve().parent.parent
VARIANT = "western-2-4"
STRATEGY = "random-legal"  # the cheapest: these tests are about the runner, not the play


# --------------------------------------------------------------------------- workers


def test_a_worker_plays_every_task_of_a_run_with_one_copy_of_its_configuration(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Each task carries the configuration, unpickled anew in the worker; the strategies'
    built state is keyed by the variant objects' identity, so the worker must play every task
    with the first copy it received (its setup built once, not per task)."""
    config = make_config([VARIANT], 3 * BLOCK_GAMES, strategy=STRATEGY, seed=1)
    key = sim.run_key(config)
    played = []
    monkeypatch.setattr(blocks, "play_chunk", lambda c, first, n: played.append(c))
    monkeypatch.setattr(blocks, "_RUN_CONFIGS", {})
    monkeypatch.setattr(blocks, "setups_in_process", 0)
    for block in range(3):
        copy = pickle.loads(pickle.dumps(config))  # as a worker receives it
        sim.play_task(key, copy, block, 1)
    assert played[0] is played[1] is played[2]
    assert played[0].variants[0] is played[2].variants[0]
    assert blocks.setups_in_process == 1
    other = make_config([VARIANT], 3 * BLOCK_GAMES, strategy=STRATEGY, seed=2)
    sim.play_task(sim.run_key(other), other, 0, 1)  # another run: its own setup
    assert played[-1] is other and blocks.setups_in_process == 2


def test_run_key_names_the_configuration() -> None:
    config = make_config([VARIANT], 100, strategy=STRATEGY, seed=1)
    same = make_config([VARIANT], 100, strategy=STRATEGY, seed=1)
    assert sim.run_key(config) == sim.run_key(same)
    assert sim.run_key(config) != sim.run_key(make_config([VARIANT], 100, seed=1))


def _worker_pids() -> frozenset[int]:
    """This process's children that are loky workers (not its resource tracker)."""
    pids = set()
    for child in psutil.Process().children():
        try:
            cmdline = " ".join(child.cmdline())
        except psutil.Error:
            continue
        if "resource_tracker" not in cmdline:
            pids.add(child.pid)
    return frozenset(pids)


def test_workers_live_for_the_whole_run_across_checkpoints(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A checkpoint at every block (one block a task): the same worker plays them all beside
    this process (2 jobs: one worker and this process), and no warning reaches the user."""
    monkeypatch.setattr(runner, "CHECKPOINT_INTERVAL_S", 0.0)
    seen: list[frozenset[int]] = []
    real_save = runner.save_checkpoint

    def save(path, config, state):  # type: ignore[no-untyped-def]
        seen.append(_worker_pids())
        real_save(path, config, state)

    monkeypatch.setattr(runner, "save_checkpoint", save)
    n_games = 8 * BLOCK_GAMES
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = simulate(
            [VARIANT, "hongkong"],
            n_games,
            strategy=STRATEGY,
            seed=3,
            n_jobs=2,
            checkpoint=tmp_path / "run.ckpt",
            progress=False,
        )
    assert len(seen) == 8  # one checkpoint a block
    assert len(seen[0]) == 1 and all(pids == seen[0] for pids in seen), seen
    assert [str(w.message) for w in caught] == []
    plain = simulate(
        [VARIANT, "hongkong"], n_games, strategy=STRATEGY, seed=3, n_jobs=1, progress=False
    )
    assert result.summary is not None and plain.summary is not None
    assert result.summary.equals(plain.summary)


def test_this_process_plays_beside_its_workers_results_in_task_order() -> None:
    """``parent_plays``: n_jobs - 1 workers and this process play the tasks, the results come
    in task order, and both played some (this process while the worker starts; the worker
    the tasks queued for it)."""
    from simkit.parallel import run_ordered

    tasks = [(-i,) for i in range(40)]
    assert list(run_ordered(abs, tasks, n_jobs=2, parent_plays=True)) == list(range(40))
    pids = set(run_ordered(os.getpid, [()] * 40, n_jobs=2, parent_plays=True))
    assert os.getpid() in pids and len(pids) == 2


@pytest.mark.parametrize("bad", [1, 30])
def test_an_error_in_a_task_reaches_the_caller_when_this_process_plays(bad: int) -> None:
    """A task that fails, early (played by a worker) or late (here), raises in the caller."""
    from simkit.parallel import run_ordered

    tasks = [(str(i) if i != bad else "x",) for i in range(40)]
    with pytest.raises(ValueError, match="invalid literal"):
        list(run_ordered(int, tasks, n_jobs=2, parent_plays=True))


def test_lokys_worker_replaced_warning_is_not_shown() -> None:
    """loky warns from its manager thread when it replaces a worker; the run goes on with the
    same results, so a user does not see it (other warnings still show)."""
    from simkit.parallel import LOKY_WORKER_STOPPED, run_ordered

    assert list(run_ordered(abs, [(-1,), (-2,), (-3,)], n_jobs=2)) == [1, 2, 3]
    with warnings.catch_warnings(record=True) as caught:
        stopped = f"{LOKY_WORKER_STOPPED}. This can be caused by a memory leak."
        warnings.warn(stopped, UserWarning, stacklevel=1)
        warnings.warn("another warning", UserWarning, stacklevel=1)
    assert [str(w.message) for w in caught] == ["another warning"]


# --------------------------------------------------------------------------- checkpoints


@pytest.fixture(scope="module")
def checkpoint(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("ckpt") / "run.ckpt"
    simulate([VARIANT], 2 * BLOCK_GAMES, strategy=STRATEGY, seed=5, n_jobs=1, checkpoint=path)
    return path


def _resume(path: Path) -> sim.SimulationResult:
    return simulate(
        [VARIANT], 2 * BLOCK_GAMES, strategy=STRATEGY, seed=5, n_jobs=1, checkpoint=path,
        progress=False,
    )  # fmt: skip


def test_a_checkpoint_holds_data_only(checkpoint: Path) -> None:
    data = checkpoint.read_bytes()
    assert data.startswith(sim.CHECKPOINT_MAGIC + b"3\n")
    assert b"pickle" not in data and data[:1] != b"\x80"
    config = make_config([VARIANT], 2 * BLOCK_GAMES, strategy=STRATEGY, seed=5)
    state = sim.load_checkpoint(checkpoint, config)
    again = simulate([VARIANT], 2 * BLOCK_GAMES, strategy=STRATEGY, seed=5, n_jobs=1)
    assert again.summary is not None and state.summary.equals(again.summary)
    assert_frame_equal(_resume(checkpoint)["convergence"], again["convergence"], check_exact=True)


@pytest.mark.parametrize("where", [0, 10, 25, 60, 100, 0.3, 0.5, 0.8, -30, -1])
def test_a_flipped_bit_anywhere_is_refused(checkpoint: Path, tmp_path: Path, where: float) -> None:
    data = bytearray(checkpoint.read_bytes())
    at = int(where * len(data)) if isinstance(where, float) else where % len(data)
    data[at] ^= 0x04
    damaged = tmp_path / "run.ckpt"
    damaged.write_bytes(bytes(data))
    with pytest.raises(sim.CheckpointError, match=re.escape(str(damaged))) as err:
        _resume(damaged)
    assert re.search(r"damaged|cannot be read", str(err.value))
    assert isinstance(err.value, SimkitError) and isinstance(err.value, ValueError)


@pytest.mark.parametrize("keep", [0, 5, 40, 0.5, -1])
def test_a_truncated_checkpoint_is_refused(checkpoint: Path, tmp_path: Path, keep: float) -> None:
    data = checkpoint.read_bytes()
    size = int(keep * len(data)) if isinstance(keep, float) else keep % len(data)
    cut = tmp_path / "run.ckpt"
    cut.write_bytes(data[:size])
    with pytest.raises(sim.CheckpointError, match=r"damaged|cannot be read"):
        _resume(cut)


def test_an_old_pickled_checkpoint_is_refused_unread(tmp_path: Path) -> None:
    """Format 2 was a pickle: loading it would run whatever code it holds."""
    old = tmp_path / "run.ckpt"
    marker = tmp_path / "ran"
    payload = {"format": 2, "code": _RunsCode(str(marker))}
    old.write_bytes(pickle.dumps(payload, protocol=pickle.HIGHEST_PROTOCOL))
    with pytest.raises(sim.CheckpointError, match="pickled checkpoint of an older simkit"):
        _resume(old)
    assert not marker.exists()


class _RunsCode:
    def __init__(self, path: str) -> None:
        self.path = path

    def __reduce__(self):  # type: ignore[no-untyped-def]
        return (Path.touch, (Path(self.path),))


def test_another_runs_checkpoint_is_refused(checkpoint: Path) -> None:
    with pytest.raises(sim.CheckpointError, match=r"different run.*seed"):
        simulate([VARIANT], 2 * BLOCK_GAMES, strategy=STRATEGY, seed=6, n_jobs=1,
                 checkpoint=checkpoint)  # fmt: skip


# --------------------------------------------------------------------------- compiling, progress


def test_cold_kernels_are_compiled_in_a_visible_stage_before_the_run(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import simkit.kernel_cache as kc

    monkeypatch.setattr(kc, "cold_kernels", lambda: ["simkit.score._kernel"])
    warmed = []
    real_block = runner.play_block
    monkeypatch.setattr(runner, "play_block", lambda c, b: warmed.append(c) or real_block(c, b))
    simulate([VARIANT, "hongkong"], 300, strategy=STRATEGY, seed=1, n_jobs=1, progress=False)
    err = capsys.readouterr().err
    assert kc.NOTICE in err and "about 30 s" not in err
    assert "compiling kernels: western-2-4 (1 of 2)" in err
    assert "compiling kernels: hongkong (2 of 2)" in err
    assert re.search(r"compiling kernels: done in \d+ s", err)
    # a small game of each variant alone, then the run's one block
    assert [[v.name for v in c.variants] for c in warmed[:2]] == [[VARIANT], ["hongkong"]]
    monkeypatch.setattr(kc, "cold_kernels", lambda: [])
    assert kc.compile_stage([("x", lambda: 1 / 0)]) is None  # warm: nothing run


def test_progress_lines_when_stderr_is_a_pipe(tmp_path: Path) -> None:
    """Off a terminal (CI, nohup, | tee) a long run prints plain progress lines."""
    env = os.environ | {"SIMKIT_PROGRESS_INTERVAL": "0", "PYTHONPATH": str(ROOT)}
    env.pop("CI", None)
    run = [
        sys.executable, "-m", "simkit", "simulate", "--variant", VARIANT,
        "--games", str(3 * BLOCK_GAMES), "--strategy", STRATEGY, "--seed", "1",
        "--jobs", "1", "--chunk-size", str(BLOCK_GAMES),
    ]  # fmt: skip
    done = subprocess.run(run, capture_output=True, text=True, env=env, timeout=300, check=True)
    lines = re.findall(r"^simulate: ([\d,]+) / 6,144 games \(([\d.]+)%\), \d+ s elapsed(.*)$",
                       done.stderr, flags=re.M)  # fmt: skip
    assert [games for games, _, _ in lines] == ["2,048", "4,096", "6,144"], done.stderr
    assert re.fullmatch(r", ~\d+ s left", lines[0][2]) and lines[-1][2] == ", done"
    assert "Warning" not in done.stderr


def test_progress_lines_come_while_no_chunk_does(monkeypatch: pytest.MonkeyPatch) -> None:
    """The workers' start and a long first chunk are not silent: a timer prints the lines."""
    monkeypatch.setenv("SIMKIT_PROGRESS_INTERVAL", "0.05")
    stream = io.StringIO()
    lines = sim.ProgressLines(300_000, 47_104, stream)
    time.sleep(0.5)
    lines.update(10_000)
    time.sleep(0.3)
    lines.update(300_000 - 57_104)
    lines.close()
    printed = stream.getvalue().splitlines()
    assert len(printed) >= 4
    assert re.fullmatch(r"simulate: 47,104 / 300,000 games \(15\.7%\), \d+ s elapsed", printed[0])
    assert re.fullmatch(r"simulate: 57,104 / 300,000 games \(19\.0%\), \d+ s elapsed, ~\d+ s left",
                        printed[-2])  # fmt: skip
    assert re.fullmatch(r"simulate: 300,000 / 300,000 games \(100\.0%\), \d+ s elapsed, done",
                        printed[-1])  # fmt: skip
    assert sum(line.endswith("done") for line in printed) == 1


def test_a_resumed_run_says_where_it_resumes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    ckpt = tmp_path / "run.ckpt"
    monkeypatch.setattr(runner, "CHECKPOINT_INTERVAL_S", 0.0)
    real_chunk = blocks.play_chunk
    calls = {"n": 0}

    def dying_chunk(config, first, n):  # type: ignore[no-untyped-def]
        calls["n"] += 1
        if calls["n"] == 2:
            raise KeyboardInterrupt
        return real_chunk(config, first, n)

    monkeypatch.setattr(blocks, "play_chunk", dying_chunk)
    args = ([VARIANT], 3 * BLOCK_GAMES)
    kwargs = {"strategy": STRATEGY, "seed": 1, "n_jobs": 1, "checkpoint": ckpt}
    with pytest.raises(sim.RunInterrupted):
        simulate(*args, **kwargs)
    capsys.readouterr()
    simulate(*args, **kwargs, progress=None)
    err = capsys.readouterr().err
    assert f"simulate: resuming at 2,048 of 6,144 games (from {ckpt})" in err
