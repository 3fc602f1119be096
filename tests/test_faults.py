"""What happens when things go wrong: killed runs, two writers, interrupts, bad saved results.

Runs that must die are real ``simkit`` processes, found and killed by their own PIDs; the rest
call the command line in this process.
"""

from __future__ import annotations

import importlib
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import psutil
import pytest

from simkit.cli import main
from simkit.simulate import BLOCK_GAMES, load_result, simulate

sim = importlib.import_module("simkit.simulate")  # `simkit.simulate` is also a function
blocks = importlib.import_module("simkit.simulate.blocks")

ROOT = Path(__file__).resolve().parents[1]
VARIANT = "western-2-4"
#: Long enough that a run is still going when it is killed (it is never left to finish).
LONG = str(40 * BLOCK_GAMES)
#: The interrupted run, resumed to its end in this process.
RUN_GAMES = 24 * BLOCK_GAMES  # many chunks: a loaded machine must not finish it before the signal


def start(log: Path, *args: str) -> subprocess.Popen[bytes]:
    """``python -m simkit ARGS`` in its own process, from this checkout, output to ``log``.

    A file, not a pipe: a pipe stays open as long as any child that inherited it lives, so
    reading it would wait on exactly the orphans these tests look for.
    """
    env = os.environ | {"PYTHONPATH": str(ROOT)}
    with log.open("wb") as out:
        return subprocess.Popen(
            [sys.executable, "-m", "simkit", *args],
            cwd=ROOT,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,  # its own process group, as a shell job is
        )


def wait_for(condition, timeout: float, what: str) -> None:  # type: ignore[no-untyped-def]
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.1)


def descendants(proc: subprocess.Popen[bytes]) -> list[psutil.Process]:
    try:
        return psutil.Process(proc.pid).children(recursive=True)
    except psutil.NoSuchProcess:
        return []


def assert_all_gone(procs: list[psutil.Process], timeout: float = 8.0) -> None:
    _, alive = psutil.wait_procs(procs, timeout=timeout)
    alive = [p for p in alive if p.is_running() and p.status() != psutil.STATUS_ZOMBIE]
    for p in alive:  # do not leave them to the rest of the suite
        p.kill()
    assert not alive, f"processes outlived their run: {[p.pid for p in alive]}"


@pytest.fixture
def no_work(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*args, **kwargs):  # type: ignore[no-untyped-def]
        raise AssertionError("work started before the output paths were checked")

    monkeypatch.setattr(blocks, "play_chunk", refuse)


# --------------------------------------------------------------------------- 1. orphans


@pytest.mark.slow
def test_workers_die_with_a_killed_report_run(tmp_path: Path) -> None:
    ckpt = tmp_path / "run.ckpt"
    proc = start(
        tmp_path / "log", "report", "--variants", VARIANT, "--games", LONG, "--jobs", "2", "--quiet",
        "--chunk-size", str(BLOCK_GAMES), "--checkpoint", str(ckpt),
        "--out", str(tmp_path / "report"),
    )  # fmt: skip
    try:
        wait_for(ckpt.exists, 120, "the first chunk (the workers at work)")
        children = descendants(proc)
        assert len(children) >= 2
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=10)
        assert_all_gone(children)
    finally:
        proc.kill()
        proc.wait()


# --------------------------------------------------------------------------- 2 and 5


def test_a_run_holds_its_folder_and_ctrl_c_saves_and_says_how_to_resume(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Ctrl-C (SIGINT to the run's process group, workers included): the checkpoint is saved,
    one line says so and no traceback, exit 130, no worker left; while it ran, a second run
    into its folder failed at once; the same command then resumes."""
    out, ckpt = tmp_path / "out", tmp_path / "run.ckpt"
    args = [
        "simulate", VARIANT, "--games", str(RUN_GAMES), "--chunk-size", str(BLOCK_GAMES),
        "--seed", "1", "--quiet", "--out", str(out), "--checkpoint", str(ckpt),
    ]  # fmt: skip
    proc = start(tmp_path / "log", *args, "--jobs", "2")
    children: list[psutil.Process] = []
    try:
        wait_for(ckpt.exists, 90, "the first checkpoint (saved with the first chunk)")
        os.killpg(proc.pid, signal.SIGSTOP)  # paused mid-run, its lock held, for the checks
        children = descendants(proc)
        started = time.monotonic()
        assert main([*args[:-4], "--jobs", "1", "--out", str(out)]) == 2
        assert time.monotonic() - started < 10
        assert "another simkit run" in capsys.readouterr().err
        os.killpg(proc.pid, signal.SIGINT)  # delivered as the run goes on
        os.killpg(proc.pid, signal.SIGCONT)
        proc.wait(timeout=30)
    finally:
        proc.kill()
        proc.wait()
        assert_all_gone(children)
    err = (tmp_path / "log").read_text()
    assert proc.returncode == 130, err
    assert "Traceback" not in err
    saved = load_checkpoint_games(ckpt)
    want = f"interrupted: {saved} of {RUN_GAMES} games saved in {ckpt}; run the same command"
    assert want in err
    assert 0 < saved < RUN_GAMES
    assert not (out / "scores.parquet").exists()
    assert main([*args, "--jobs", "1"]) == 0  # resumes
    assert load_result(out).provenance["n_games"] == RUN_GAMES


def load_checkpoint_games(path: Path, n_games: int = RUN_GAMES) -> int:
    config = sim.make_config([VARIANT], n_games, seed=1)
    return sim.load_checkpoint(path, config).summary.n_games


def test_sigterm_saves_the_checkpoint_and_exits_143(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    real_chunk = blocks.play_chunk

    def terminated_during_the_second_chunk(config, first, n):  # type: ignore[no-untyped-def]
        if first == 1:
            os.kill(os.getpid(), signal.SIGTERM)
        return real_chunk(config, first, n)

    def unhandled(signum, frame):  # type: ignore[no-untyped-def]
        raise RuntimeError("SIGTERM reached the caller: the run did not handle it")

    monkeypatch.setattr(blocks, "play_chunk", terminated_during_the_second_chunk)
    previous = signal.signal(signal.SIGTERM, unhandled)  # not the default: it would end pytest
    ckpt = tmp_path / "run.ckpt"
    n_games = 3 * BLOCK_GAMES
    run = ["simulate", VARIANT, "--games", str(n_games), "--chunk-size", str(BLOCK_GAMES)]
    run += ["--seed", "1", "--jobs", "1", "--quiet", "--checkpoint", str(ckpt)]
    try:
        assert main(run) == 143
        assert signal.getsignal(signal.SIGTERM) is unhandled  # handlers restored
    finally:
        signal.signal(signal.SIGTERM, previous)
    err = capsys.readouterr().err
    assert f"interrupted: {BLOCK_GAMES} of {n_games} games saved in {ckpt}; run the same" in err
    assert load_checkpoint_games(ckpt, n_games) == BLOCK_GAMES


def test_ctrl_c_without_checkpoint_says_nothing_was_saved(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def interrupted(*args, **kwargs):  # type: ignore[no-untyped-def]
        raise KeyboardInterrupt

    monkeypatch.setattr(blocks, "play_chunk", interrupted)
    try:
        code = main(["simulate", VARIANT, "--games", "100", "--jobs", "1", "--quiet"])
    except KeyboardInterrupt:
        pytest.fail("Ctrl-C ended the command with a traceback")
    assert code == 130
    err = capsys.readouterr().err
    assert "interrupted after 0 of 100 games; nothing was saved" in err
    assert "--checkpoint" in err


def test_results_of_another_run_are_kept_unless_overwrite(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "out"
    run = ["simulate", VARIANT, "--games", "50", "--jobs", "1", "--quiet", "--out", str(out)]
    assert main([*run, "--seed", "1"]) == 0
    assert main([*run, "--seed", "1"]) == 0  # the same run again writes the same tables
    assert main([*run, "--seed", "2"]) == 2
    err = capsys.readouterr().err
    assert "already holds results of another run (seed: 1 there, 2 here)" in err
    assert "--overwrite" in err
    assert load_result(out).provenance["seed"] == 1
    assert main([*run, "--seed", "2", "--overwrite"]) == 0
    assert load_result(out).provenance["seed"] == 2
    assert not (out / ".simkit.lock").exists()
    (tmp_path / "notes").mkdir()
    (tmp_path / "notes" / "mine.txt").write_text("x")
    assert main([*run[:-1], str(tmp_path / "notes")]) == 2
    assert "not simkit results" in capsys.readouterr().err


# --------------------------------------------------------------------------- 3. output paths


def test_checkpoint_into_a_new_folder_is_made_before_work(tmp_path: Path) -> None:
    ckpt = tmp_path / "new" / "folder" / "run.ckpt"
    simulate([VARIANT], 50, seed=1, n_jobs=1, checkpoint=ckpt)
    assert ckpt.is_file()


def test_unusable_output_paths_are_refused_before_work(no_work, tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    blocker = tmp_path / "file"
    blocker.write_text("x")
    run = ["simulate", VARIANT, "--games", "50", "--jobs", "1", "--quiet"]
    assert main([*run, "--checkpoint", str(blocker / "run.ckpt")]) == 2
    assert "not a folder" in capsys.readouterr().err
    assert main([*run, "--checkpoint", str(tmp_path)]) == 2
    assert "is a folder" in capsys.readouterr().err
    assert main([*run, "--out", str(blocker)]) == 2
    assert "not a folder" in capsys.readouterr().err
    assert main(["report", "--variants", VARIANT, "--games", "50", "--out", str(blocker)]) == 2
    assert sorted(p.name for p in tmp_path.iterdir()) == ["file"]


# --------------------------------------------------------------------------- 4. identity


def test_resume_with_other_win_tables_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    arrange_module = importlib.import_module("simkit.arrange.wintables")
    ckpt = tmp_path / "run.ckpt"
    first = simulate([VARIANT], 50, strategy="max-ev", seed=1, n_jobs=1, checkpoint=ckpt)
    hashes = first.provenance["win_tables_sha256"]
    assert list(hashes) == [VARIANT] and len(hashes[VARIANT]) == 64
    assert first.provenance["run"]["win_tables_sha256"] == hashes
    assert first.provenance["run"]["strategy"] == "max-ev"

    real = arrange_module._load_shipped

    def retrained(name: str, players: int, *fine):  # type: ignore[no-untyped-def]
        tables = real(name, players, *fine)
        return None if tables is None else type(tables)(**{**vars(tables), "win": tables.win * 0.9})

    monkeypatch.setattr(arrange_module, "_load_shipped", retrained)
    with pytest.raises(ValueError, match=r"different run \(win_tables_sha256"):
        simulate([VARIANT], 50, strategy="max-ev", seed=1, n_jobs=1, checkpoint=ckpt)


# --------------------------------------------------------------------------- 6. saved results


@pytest.fixture(scope="module")
def saved(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("saved") / "tables"
    simulate([VARIANT], 50, seed=1, n_jobs=1).save(out)
    return out


@pytest.mark.parametrize(
    ("damage", "named"),
    [
        (lambda d: (d / "scores.parquet").write_bytes(b"PAR1 broken"), "scores.parquet"),
        (lambda d: (d / "scores.parquet").unlink(), "scores.parquet"),
        (lambda d: (d / "provenance.json").write_text("{ not json"), "provenance.json"),
        (lambda d: (d / "provenance.json").write_text("[]"), "provenance.json"),
        (lambda d: (d / "provenance.json").unlink(), "provenance.json"),
    ],
    ids=["corrupt table", "missing table", "broken json", "not a provenance", "no provenance"],
)
def test_report_from_bad_tables_names_the_file_and_writes_nothing(
    saved: Path,
    tmp_path: Path,
    damage,
    named,
    capsys,  # type: ignore[no-untyped-def]
) -> None:
    source = tmp_path / "tables"
    source.mkdir()
    for path in saved.iterdir():
        (source / path.name).write_bytes(path.read_bytes())
    damage(source)
    out = tmp_path / "report"
    assert main(["report", "--from", str(source), "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert named in err and "Traceback" not in err
    assert not out.exists()


def test_report_from_good_tables_keeps_them_with_the_figures(saved: Path, tmp_path: Path) -> None:
    out = tmp_path / "report"
    assert main(["report", "--from", str(saved), "--out", str(out)]) == 0
    assert (out / "README.md").is_file() and (out / "tables" / "scores.parquet").is_file()
    assert not [p for p in out.iterdir() if p.name.startswith(".")]


# --------------------------------------------------------------------------- 7. train


def test_train_checks_its_arguments_and_output_before_training(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    train_module = importlib.import_module("simkit.train")  # also a function of `simkit`

    def refuse(*args, **kwargs):  # type: ignore[no-untyped-def]
        raise AssertionError("training started before the arguments were checked")

    monkeypatch.setattr(train_module, "train", refuse)
    table = tmp_path / "t.npz"
    table.write_bytes(b"kept")
    base = ["train", "--variant", VARIANT, "--players", "2", "--iterations", "1"]
    assert main([*base, "--games", "0", "--out", str(tmp_path / "new.npz")]) == 2
    assert "--games must be at least 1" in capsys.readouterr().err
    assert main([*base, "--out", str(tmp_path / "t.txt")]) == 2
    assert "must end in .npz" in capsys.readouterr().err
    assert main([*base, "--out", str(table)]) == 2
    assert "exists; pass --overwrite" in capsys.readouterr().err
    blocker = tmp_path / "file"
    blocker.write_text("x")
    assert main([*base, "--out", str(blocker / "t.npz")]) == 2
    assert "not a folder" in capsys.readouterr().err
    assert table.read_bytes() == b"kept"
    monkeypatch.undo()
    with pytest.raises(ValueError, match="n_games must be an integer >= 1"):
        train_module.train(VARIANT, 2, n_games=0, iterations=1)


# --------------------------------------------------------------------------- 9. numba cache


def test_make_uses_numba_default_cache() -> None:
    makefile = (ROOT / "Makefile").read_text()
    assert "NUMBA_CACHE_DIR" not in makefile.replace("# ", "")


def test_cold_cache_is_detected_and_told_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import simkit.kernel_cache as kc

    for module, name in kc.PROBES:
        assert hasattr(importlib.import_module(module), name), f"no kernel {module}.{name}"

    (tmp_path / "cold_probe.py").write_text(
        "import numba\n\n@numba.njit(cache=True)\ndef add_one(x):\n    return x + 1\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))  # a fresh source file: nothing cached yet
    import cold_probe

    assert kc.is_cold(cold_probe.add_one)
    assert cold_probe.add_one(np.int64(1)) == 2
    assert not kc.is_cold(cold_probe.add_one)

    monkeypatch.setattr(kc, "_noticed", False)
    monkeypatch.setattr(kc, "cold_kernels", lambda: [])
    assert not kc.notice_if_cold()
    monkeypatch.setattr(kc, "cold_kernels", lambda: ["simkit.score._kernel"])
    assert kc.notice_if_cold() and not kc.notice_if_cold()
    assert capsys.readouterr().err == kc.NOTICE + "\n"


def test_import_simkit_does_not_load_the_cache_probe() -> None:
    assert "kernel_cache" not in (ROOT / "simkit" / "__init__.py").read_text()
