"""The runner: :func:`simulate` plays a run's chunks on workers, merges them in block order,
saves checkpoints and stops cleanly on Ctrl-C or SIGTERM."""

from __future__ import annotations

import math
import signal
import sys
import threading
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from simkit.arrange import DEFAULT_STRATEGY
from simkit.errors import SimkitError
from simkit.files import check_output_dir
from simkit.kept import clear_kept, write_block, write_manifest
from simkit.parallel import check_backend, effective_jobs, run_ordered
from simkit.simulate.blocks import play_block, play_task, run_key
from simkit.simulate.checkpoints import (
    RunState,
    load_checkpoint,
    merge_output,
    save_checkpoint,
    trace_points,
)
from simkit.simulate.config import SimulationConfig, check_int, make_config
from simkit.simulate.identity import kept_provenance, provenance
from simkit.simulate.progress import progress_bar
from simkit.simulate.results import SimulationResult
from simkit.tables import build_tables

#: A checkpoint is written when the first chunk is in, then at most this often (seconds), on
#: an interrupt (Ctrl-C, SIGTERM) and at the end.
CHECKPOINT_INTERVAL_S = 10.0
#: Whether this process plays chunks beside its ``n_jobs - 1`` workers (True), or waits on
#: ``n_jobs`` workers (False: the runner before issue 54, kept for the benchmark's A/B).
PARENT_PLAYS = True


# --------------------------------------------------------------------------- the runner


#: Chunks a worker gets by default: the workers end within about one chunk of each other, so
#: with 4 chunks a worker the last one could run alone for an eighth of the run.  Small
#: chunks cost little since a worker keeps its setup between tasks (:func:`play_task`): a
#: task sends about 8 kB per variant and returns about 38 kB per variant and block.
CHUNKS_PER_WORKER = 16


def default_chunk_blocks(n_blocks: int, jobs: int) -> int:
    """Blocks per chunk: about :data:`CHUNKS_PER_WORKER` chunks a worker, at most 16 blocks
    (memory stays small)."""
    return max(1, min(16, -(-n_blocks // (CHUNKS_PER_WORKER * jobs))))


def simulate(
    variants: Any,
    n_games: int,
    n_players: int = 4,
    strategy: str = DEFAULT_STRATEGY,
    *,
    seed: int,
    n_jobs: int = -1,
    chunk_size: int | None = None,
    backend: str | None = None,
    scheduler: str | None = None,
    checkpoint: str | Path | None = None,
    progress: bool | None = None,
    win_tables: Mapping[str, str] | None = None,
    keep_games: str | Path | None = None,
) -> SimulationResult:
    """Play ``n_games`` deals under every variant in ``variants`` and summarize them as tables.

    ``variants``: a name, a path, a :class:`~simkit.variants.Variant`, a list of those, or
    ``"all"`` / None for every shipped variant.  ``strategy``: how hands are set, a name of
    :func:`~simkit.arrange.strategy_names` (``"expected-score"``, the default; ``"greedy"``,
    ``"random-legal"``, ``"max-ev"`` and the slower ones), with options as
    ``"name:key=value,..."`` (:func:`~simkit.arrange.strategy_from_name`).  The same ``seed``
    gives identical tables for any ``n_jobs``, ``chunk_size`` (games per task, rounded up to
    whole blocks of :data:`BLOCK_GAMES`) and ``backend`` (None: local processes; ``"dask"``:
    joblib's Dask backend on the cluster at ``scheduler``, e.g. ``"tcp://host:8786"``).
    ``checkpoint``: a file that saves progress (the first chunk, then every
    :data:`CHECKPOINT_INTERVAL_S`, and on Ctrl-C or SIGTERM); an interrupted run called again
    with it resumes and ends with exactly the tables of an uninterrupted run.  An interrupt
    raises :class:`RunInterrupted` (a ``KeyboardInterrupt`` that says what was saved).
    ``progress``: None (the default) shows a tqdm bar on a terminal and, elsewhere (``CI``
    set, a log, a pipe), a plain line every :data:`PROGRESS_INTERVAL_S` once the run has taken
    that long; True a bar, False nothing.  A resumed run says where it resumes, and a run
    that finds the kernels uncompiled compiles them here first, a line per variant.
    ``win_tables``: variant name → the shipped variant whose trained win tables ``max-ev`` uses
    for it (for variants derived from a shipped one).
    ``keep_games``: a folder where each game's set hands, declared specials and banker seat are
    kept (:mod:`simkit.kept`: a file per block, written as blocks come in, then ``kept.json``
    with the run's provenance); the same seed keeps the same games for any ``n_jobs`` and
    ``chunk_size``.  A new run (not a resumed one) first removes the block files of an earlier
    run there.

    >>> result = simulate("western-2-4", 256, seed=1, n_jobs=1, progress=False)
    >>> result["scores"].columns[:5]
    ['variant', 'seat', 'banker', 'n', 'mean']
    """
    config = make_config(variants, n_games, n_players, strategy, seed=seed, win_tables=win_tables)
    jobs = effective_jobs(n_jobs)
    check_backend(backend, scheduler)
    run = _prepare(config, jobs, chunk_size, checkpoint, keep_games)
    _play(run, jobs, backend, scheduler, progress)
    result = _result(run.config, run.state)
    if run.kept_dir is not None:
        write_manifest(
            run.kept_dir, kept_provenance(result.provenance, run.config), run.config.n_blocks
        )
    return result


@dataclass
class _Run:
    """A run about to be played: its configuration, its chunks' size in blocks, its files
    (checkpoint, kept games) and its state (empty, or resumed from the checkpoint)."""

    config: SimulationConfig
    chunk_blocks: int
    ckpt: Path | None
    kept_dir: Path | None
    state: RunState


def _prepare(
    config: SimulationConfig,
    jobs: int,
    chunk_size: int | None,
    checkpoint: str | Path | None,
    keep_games: str | Path | None,
) -> _Run:
    """Check the run's files and chunk size, and read its checkpoint, before any work."""
    kept_dir = Path(keep_games) if keep_games is not None else None
    if kept_dir is not None:
        check_output_dir(kept_dir, what="kept-games folder")
        config = replace(config, keep_games=True)
    if chunk_size is not None:
        check_int(chunk_size, "chunk_size", 1)
        chunk_blocks = -(-chunk_size // config.block_games)
    else:
        chunk_blocks = default_chunk_blocks(config.n_blocks, jobs)
        if checkpoint is not None:
            chunk_blocks = 1  # a block a task: progress reaches the checkpoint block by block
    ckpt = Path(checkpoint) if checkpoint is not None else None
    state = RunState()
    if ckpt is not None:
        if ckpt.is_dir():
            raise SimkitError(f"checkpoint {ckpt} is a folder; give a file name")
        check_output_dir(ckpt.parent, what="checkpoint folder")
        if ckpt.exists():
            state = load_checkpoint(ckpt, config)
        ckpt.parent.mkdir(parents=True, exist_ok=True)  # the folder is there before any work
    if kept_dir is not None:
        kept_dir.mkdir(parents=True, exist_ok=True)
        if state.summary.n_blocks == 0:
            clear_kept(kept_dir)
    return _Run(config, chunk_blocks, ckpt, kept_dir, state)


def _play(
    run: _Run, jobs: int, backend: str | None, scheduler: str | None, progress: bool | None
) -> None:
    """Play the run's remaining blocks and merge them into ``run.state`` in block order,
    saving the checkpoint as chunks come in and on an interrupt (then raising
    :class:`RunInterrupted`)."""
    config, state, ckpt = run.config, run.state, run.ckpt
    points = trace_points(config.n_blocks)
    start = state.summary.n_blocks
    key = run_key(config)
    tasks = (
        (key, config, b, min(run.chunk_blocks, config.n_blocks - b))
        for b in range(start, config.n_blocks, run.chunk_blocks)
    )
    if start and progress is not False:
        print(
            f"simulate: resuming at {state.summary.n_games:,} of {config.n_games:,} games "
            f"(from {ckpt})",
            file=sys.stderr,
            flush=True,
        )
    bar = None
    saved_blocks = state.summary.n_blocks
    last_save = -math.inf  # the first chunk in is saved at once
    # this process plays tasks too, while the workers start and whenever the next chunk in
    # order is not in yet (a task costs seconds, a merge milliseconds)
    outputs = run_ordered(
        play_task,
        tasks,
        n_jobs=jobs,
        backend=backend,
        scheduler=scheduler,
        parent_plays=PARENT_PLAYS,
    )
    try:
        with _checkpoint_held(ckpt), _interrupts_raised():
            if start < config.n_blocks:
                _compile_kernels(config)  # before the workers start: they load, not compile
            bar = progress_bar(config, state.summary.n_games, progress)
            for output in outputs:
                if run.kept_dir is not None and output.kept is not None:
                    for i, arrays in enumerate(output.kept):
                        write_block(run.kept_dir, output.first_block + i, arrays)
                merge_output(state, output, config, points)
                if bar is not None:
                    bar.update(sum(output.n_games))
                if ckpt is not None and (
                    time.monotonic() - last_save >= CHECKPOINT_INTERVAL_S
                    or state.summary.n_blocks == config.n_blocks
                ):
                    save_checkpoint(ckpt, config, state)
                    saved_blocks = state.summary.n_blocks
                    last_save = time.monotonic()
    except KeyboardInterrupt as exc:
        outputs.close()  # stop the workers before saving
        if ckpt is not None and state.summary.n_blocks > saved_blocks:
            save_checkpoint(ckpt, config, state)
        signum = getattr(exc, "signum", signal.SIGINT)
        raise RunInterrupted(signum, state.summary.n_games, config.n_games, ckpt) from None
    finally:
        outputs.close()
        if bar is not None:
            bar.close()


@contextmanager
def _checkpoint_held(ckpt: Path | None) -> Iterator[None]:
    """One run at a time per checkpoint file (a lock file beside it, removed at the end)."""
    if ckpt is None:
        yield
        return
    from simkit.locks import held_lock

    with held_lock(ckpt.with_name(f".{ckpt.name}.lock"), f"using the checkpoint {ckpt}"):
        yield


class RunInterrupted(KeyboardInterrupt):
    """A run stopped by Ctrl-C or SIGTERM; ``str()`` says what was saved and how to resume."""

    def __init__(self, signum: int, done: int, total: int, checkpoint: Path | None) -> None:
        super().__init__(signum, done, total, checkpoint)
        self.signum = int(signum)
        self.done = done
        self.total = total
        self.checkpoint = checkpoint

    @property
    def exit_code(self) -> int:
        """The shell's code for death by this signal: 130 for SIGINT, 143 for SIGTERM."""
        return 128 + self.signum

    def __str__(self) -> str:
        if self.checkpoint is not None:
            return (
                f"interrupted: {self.done} of {self.total} games saved in {self.checkpoint}; "
                "run the same command to resume"
            )
        return (
            f"interrupted after {self.done} of {self.total} games; nothing was saved "
            "(give --checkpoint FILE, or checkpoint= in Python, to make a run resumable)"
        )


class _Terminated(KeyboardInterrupt):
    """SIGTERM, raised like Ctrl-C so that the run stops the same way."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum


@contextmanager
def _interrupts_raised() -> Iterator[None]:
    """While running: SIGTERM raises like Ctrl-C (only the main thread can set handlers)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def terminated(signum: int, frame: Any) -> None:
        raise _Terminated(signum)

    previous = signal.signal(signal.SIGTERM, terminated)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


#: Warm-up games per variant when the kernels are compiled before a run (:func:`_compile_kernels`).
WARM_UP_GAMES = 256


def _compile_kernels(config: SimulationConfig) -> float | None:
    """When numba's cache is cold, compile what the run calls here, before any worker starts:
    a small game of each variant with the run's strategy and tables, a line per variant
    (:func:`simkit.kernel_cache.compile_stage`); the workers then load the kernels from the
    cache.  Returns the seconds it took, None when the cache was warm (nothing done)."""
    from simkit.kernel_cache import compile_stage

    def step(v: int) -> tuple[str, Any]:
        small = replace(
            config,
            variants=(config.variants[v],),
            n_games=min(WARM_UP_GAMES, config.n_games),
            win_tables=(config.tables_of(v),) if config.win_tables else (),
        )
        return config.variants[v].name, lambda: play_block(small, 0)

    return compile_stage([step(v) for v in range(len(config.variants))])


def _result(config: SimulationConfig, state: RunState) -> SimulationResult:
    prov = provenance(config)
    tables = build_tables(state.summary, config.variants, config.n_players, state.trace)
    return SimulationResult(provenance=prov, tables=tables, summary=state.summary, config=config)
