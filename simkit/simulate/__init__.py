"""The Monte Carlo runner: deal many games, play them under every variant, summarize.

How a run is organized (and why its numbers never depend on ``n_jobs`` or ``chunk_size``):

- The unit of randomness is the *block*: games ``[b·B, (b+1)·B)`` with ``B = BLOCK_GAMES``.  Block
  ``b`` draws from ``SeedSequence(seed, spawn_key=(b,))`` (the ``b``-th spawned child of the
  run's seed), so a block's deals are fixed by the seed and its index alone.
- Common random numbers: every variant plays the *same* deals of a block (and the same random
  stream for strategies that draw), so differences between variants are paired and their
  standard errors small.  With ``max-ev``, variants that see the same cards and rank duns
  alike are arranged in one pass over the hands (:func:`simkit.arrange.arrange_variants`), which
  does the card-only work once: a variant's answers are the same as when it runs alone.
- Each variant's arrangement of a block is read once (:class:`simkit.arrange.Arrangement`: dun
  ranks, specials) and flows one way, into the scorer and then the statistics.
- A chunk is a run of consecutive blocks; workers play chunks and return mergeable summaries
  (:mod:`simkit.summary`, laid out by :mod:`simkit.statistics`): integer counts pre-merged,
  float sums block by block.  The driver folds them in block order, so the arithmetic is the
  same sequence for any chunking.
- Memory is one summary plus the chunks in flight, whatever ``n_games``.
- A checkpoint file, rewritten atomically as chunks finish, lets a killed run resume; the
  resumed run folds the remaining blocks onto the saved state and so ends bit-identical.  It
  holds data only (arrays and JSON, no pickle) under a SHA-256 checksum, so a damaged file is
  refused and a file from elsewhere cannot run code.
- Workers live for the whole run and build their state (strategies' solvers, pools, tables)
  once: every task carries the configuration, but a worker plays all of a run's tasks with
  the first copy it received (:func:`play_task`).  With ``n_jobs`` = n on local cores, n - 1
  workers and this process play the chunks (:func:`simkit.parallel.run_ordered`'s
  ``parent_plays``): this process plays while the workers start and whenever the next chunk in
  order is not in yet, so no core waits on another's start.

Seat 0 is the banker in variants whose scoring has a banker; results are reported per seat.

The package's modules, one job each: :mod:`~simkit.simulate.config` (the configuration and its
validation), :mod:`~simkit.simulate.blocks` (playing blocks, chunks and a worker's tasks),
:mod:`~simkit.simulate.checkpoints` (the run's state, the merge, the checkpoint file),
:mod:`~simkit.simulate.identity`, :mod:`~simkit.simulate.progress`,
:mod:`~simkit.simulate.results` (the tables, saved and loaded) and
:mod:`~simkit.simulate.runner` (:func:`simulate`).  Every public name is importable from
``simkit.simulate``, and loaded when first asked for: a worker, which unpickles
:func:`play_task`, imports the modules that play blocks only (not polars nor the tables).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from simkit.arrange import DEFAULT_STRATEGY
    from simkit.simulate.blocks import play_block, play_block_kept, play_chunk, play_task, run_key
    from simkit.simulate.checkpoints import (
        CHECKPOINT_FORMAT,
        CHECKPOINT_MAGIC,
        CheckpointError,
        RunState,
        load_checkpoint,
        save_checkpoint,
        trace_points,
    )
    from simkit.simulate.config import BLOCK_GAMES, SimulationConfig, make_config
    from simkit.simulate.identity import (
        kept_provenance,
        provenance,
        run_identity,
        win_tables_hashes,
    )
    from simkit.simulate.progress import PROGRESS_INTERVAL_S, ProgressLines, progress_bar
    from simkit.simulate.results import (
        PROVENANCE_KEYS,
        MissingTableError,
        SimulationResult,
        load_result,
    )
    from simkit.simulate.runner import (
        CHECKPOINT_INTERVAL_S,
        CHUNKS_PER_WORKER,
        WARM_UP_GAMES,
        RunInterrupted,
        default_chunk_blocks,
        simulate,
    )

#: Where each public name lives (imported on first use: :func:`__getattr__`).
_WHERE = {
    "BLOCK_GAMES": "simkit.simulate.config",
    "CHECKPOINT_FORMAT": "simkit.simulate.checkpoints",
    "CHECKPOINT_INTERVAL_S": "simkit.simulate.runner",
    "CHECKPOINT_MAGIC": "simkit.simulate.checkpoints",
    "CHUNKS_PER_WORKER": "simkit.simulate.runner",
    "CheckpointError": "simkit.simulate.checkpoints",
    "DEFAULT_STRATEGY": "simkit.arrange",
    "MissingTableError": "simkit.simulate.results",
    "PROGRESS_INTERVAL_S": "simkit.simulate.progress",
    "PROVENANCE_KEYS": "simkit.simulate.results",
    "ProgressLines": "simkit.simulate.progress",
    "RunInterrupted": "simkit.simulate.runner",
    "RunState": "simkit.simulate.checkpoints",
    "SimulationConfig": "simkit.simulate.config",
    "SimulationResult": "simkit.simulate.results",
    "WARM_UP_GAMES": "simkit.simulate.runner",
    "default_chunk_blocks": "simkit.simulate.runner",
    "kept_provenance": "simkit.simulate.identity",
    "load_checkpoint": "simkit.simulate.checkpoints",
    "load_result": "simkit.simulate.results",
    "make_config": "simkit.simulate.config",
    "play_block": "simkit.simulate.blocks",
    "play_block_kept": "simkit.simulate.blocks",
    "play_chunk": "simkit.simulate.blocks",
    "play_task": "simkit.simulate.blocks",
    "progress_bar": "simkit.simulate.progress",
    "provenance": "simkit.simulate.identity",
    "run_identity": "simkit.simulate.identity",
    "run_key": "simkit.simulate.blocks",
    "save_checkpoint": "simkit.simulate.checkpoints",
    "simulate": "simkit.simulate.runner",
    "trace_points": "simkit.simulate.checkpoints",
    "win_tables_hashes": "simkit.simulate.identity",
}


def __getattr__(name: str) -> Any:
    if name not in _WHERE:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(_WHERE[name]), name)
    globals()[name] = value
    return value


__all__ = [
    "BLOCK_GAMES",
    "CHECKPOINT_FORMAT",
    "CHECKPOINT_INTERVAL_S",
    "CHECKPOINT_MAGIC",
    "CHUNKS_PER_WORKER",
    "DEFAULT_STRATEGY",
    "PROGRESS_INTERVAL_S",
    "PROVENANCE_KEYS",
    "WARM_UP_GAMES",
    "CheckpointError",
    "MissingTableError",
    "ProgressLines",
    "RunInterrupted",
    "RunState",
    "SimulationConfig",
    "SimulationResult",
    "default_chunk_blocks",
    "kept_provenance",
    "load_checkpoint",
    "load_result",
    "make_config",
    "play_block",
    "play_block_kept",
    "play_chunk",
    "play_task",
    "progress_bar",
    "provenance",
    "run_identity",
    "run_key",
    "save_checkpoint",
    "simulate",
    "trace_points",
    "win_tables_hashes",
]
