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
  the first copy it received (:func:`play_task`).

Seat 0 is the banker in variants whose scoring has a banker; results are reported per seat.
"""

from __future__ import annotations

import hashlib
import io
import json
import math
import os
import pickle
import signal
import subprocess
import sys
import tempfile
import threading
import time
import warnings
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl

import simkit.objective  # registers the fitters of built tables' extras (weights, places)
import simkit.tables_cache  # noqa: F401  (registers the builder of missing win tables)
from simkit.arrange import (
    DEFAULT_STRATEGY,
    ExpectedScore,
    MaxEV,
    Strategy,
    WinTables,
    arrangements,
    default_fine_tables,
    default_tables,
    strategy_from_name,
)
from simkit.deal import check_players, deal
from simkit.errors import SimkitError
from simkit.files import STAGING_PREFIX, atomic_write, check_output_dir
from simkit.kept import clear_kept, kept_arrays, write_block, write_manifest
from simkit.parallel import check_backend, effective_jobs, run_ordered
from simkit.phases import add_payments, before_setting
from simkit.phases.settle import settle_payments
from simkit.score import score
from simkit.statistics import SCHEMA_VERSION, Key, convergence_rows, record_block
from simkit.summary import BlockOutput, Summary
from simkit.tables import build_tables
from simkit.variants import Variant, has_banker, resolve_variant, resolve_variants

#: Games per block, the unit of randomness.  Changing it changes every result; it is recorded
#: in the provenance of each run.
BLOCK_GAMES = 2048
#: A checkpoint is written when the first chunk is in, then at most this often (seconds), on
#: an interrupt (Ctrl-C, SIGTERM) and at the end.
CHECKPOINT_INTERVAL_S = 10.0
#: The checkpoint file's format (:func:`_save_checkpoint`); 3 replaced the pickles of 1 and 2.
CHECKPOINT_FORMAT = 3


@dataclass(frozen=True)
class SimulationConfig:
    """Everything that determines a run's numbers."""

    variants: tuple[Variant, ...]
    n_games: int
    n_players: int
    strategy: str
    seed: int
    block_games: int = BLOCK_GAMES
    #: Per variant, the variant whose trained win tables ``max-ev`` plays with ("" = its own).
    win_tables: tuple[str, ...] = ()
    #: Whether workers return each block's set hands (:mod:`simkit.kept`); not in the
    #: fingerprint, since keeping them changes no number.
    keep_games: bool = False

    def tables_of(self, v: int) -> str:
        return self.win_tables[v] if self.win_tables else ""

    @property
    def n_blocks(self) -> int:
        return -(-self.n_games // self.block_games)

    def block_size(self, block: int) -> int:
        return min(self.block_games, self.n_games - block * self.block_games)

    def fingerprint(self) -> dict[str, Any]:
        """The configuration as plain data: equal fingerprints give equal results (and the
        layout of the summary, so that a checkpoint of another layout is not resumed)."""
        return {
            "variants": [v.key for v in self.variants],
            "n_games": self.n_games,
            "n_players": self.n_players,
            "strategy": self.strategy,
            "seed": self.seed,
            "block_games": self.block_games,
            "win_tables": list(self.win_tables),
            "summary_schema": SCHEMA_VERSION,
        }


@dataclass
class SimulationResult:
    """The result of :func:`simulate`: polars tables, with the configuration and provenance.

    ``tables`` maps a table name to a :class:`polars.DataFrame` (see :mod:`simkit.tables`);
    ``result["scores"]`` reads one.  :meth:`save` writes them as parquet beside a
    ``provenance.json``; :func:`load_result` reads them back.
    """

    provenance: dict[str, Any]
    tables: dict[str, pl.DataFrame]
    summary: Summary | None = None
    config: SimulationConfig | None = None
    #: The folder it was loaded from (:func:`load_result`), None for a fresh run.
    source: Path | None = None

    def __getitem__(self, name: str) -> pl.DataFrame:
        try:
            return self.tables[name]
        except KeyError:
            where = f" in {self.source} (no {name}.parquet)" if self.source else ""
            raise MissingTableError(
                f"no table {name!r}{where}; tables are: {', '.join(sorted(self.tables))}"
            ) from None

    @property
    def variant_names(self) -> list[str]:
        return [v["name"] for v in self.provenance["variants"]]

    def __repr__(self) -> str:
        # a summary: the tables and the summary's arrays would print many kilobytes
        p = self.provenance
        return (
            f"SimulationResult({', '.join(self.variant_names)}; {p.get('n_games')} games "
            f"of {p.get('n_players')} players, {p.get('strategy')}, seed {p.get('seed')}; "
            f"tables: {', '.join(self.tables)})"
        )

    def save(self, out_dir: str | Path) -> Path:
        """Write every table as ``<name>.parquet`` and ``provenance.json`` into ``out_dir``.

        Files are written to a temporary folder beside ``out_dir`` and moved in one by one with
        atomic renames; on any error the temporary folder is removed, so no file is ever left
        half-written.
        """
        out = Path(out_dir)
        check_output_dir(out)
        out.mkdir(parents=True, exist_ok=True)
        staging = Path(tempfile.mkdtemp(prefix=STAGING_PREFIX, dir=out))
        try:
            for name, table in self.tables.items():
                table.write_parquet(staging / f"{name}.parquet")
            (staging / "provenance.json").write_text(
                json.dumps(self.provenance, indent=2, ensure_ascii=False) + "\n", encoding="utf-8"
            )
            for path in sorted(staging.iterdir()):
                os.replace(path, out / path.name)
        finally:
            for path in staging.iterdir():
                path.unlink()
            staging.rmdir()
        return out


class MissingTableError(KeyError, SimkitError):
    """A result has no table of that name: a ``KeyError``, and a SimkitError for the CLI."""

    def __str__(self) -> str:
        return str(self.args[0])


class _SavedTables(dict[str, pl.DataFrame]):
    """Tables read from a folder: a missing one is a :class:`MissingTableError` naming it."""

    def __init__(self, folder: Path, tables: dict[str, pl.DataFrame]) -> None:
        super().__init__(tables)
        self.folder = folder

    def __missing__(self, name: str) -> pl.DataFrame:
        raise MissingTableError(
            f"no table {name!r} in {self.folder} (no {name}.parquet); tables there: "
            f"{', '.join(sorted(self))}"
        )


#: Provenance keys that every saved result has (and the report reads).
PROVENANCE_KEYS = ("seed", "n_games", "n_players", "strategy", "variants")


def load_result(out_dir: str | Path) -> SimulationResult:
    """Read the tables and provenance that :meth:`SimulationResult.save` wrote.

    Everything is read and checked first: a missing or broken ``provenance.json`` or table
    raises ``ValueError`` naming the file.
    """
    out = Path(out_dir)
    if not out.is_dir():
        raise SimkitError(f"{out}: no such folder of simulation results")
    prov_path = out / "provenance.json"
    if not prov_path.is_file():
        raise SimkitError(f"{out} holds no simulation results (no provenance.json)")
    try:
        provenance = json.loads(prov_path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise SimkitError(f"{prov_path} cannot be read: {exc}") from None
    if not isinstance(provenance, dict):
        raise SimkitError(f"{prov_path} is not a simkit provenance (not a JSON object)")
    missing = [k for k in PROVENANCE_KEYS if k not in provenance]
    if missing or not isinstance(provenance["variants"], list):
        raise SimkitError(f"{prov_path} is not a simkit provenance (no {', '.join(missing)})")
    tables = {}
    for path in sorted(out.glob("*.parquet")):
        try:
            tables[path.stem] = pl.read_parquet(path)
        except Exception as exc:  # polars raises its own error types for broken files
            raise SimkitError(f"{path} is not a readable table ({exc})") from None
    if not tables:
        raise SimkitError(f"{out} holds no tables (no *.parquet beside provenance.json)")
    return SimulationResult(provenance=provenance, tables=_SavedTables(out, tables), source=out)


# --------------------------------------------------------------------------- validation


def _check_int(value: Any, what: str, minimum: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int | np.integer) or value < minimum:
        raise SimkitError(f"{what} must be an integer >= {minimum}, got {value!r}")
    return int(value)


def make_config(
    variants: Any,
    n_games: int,
    n_players: int = 4,
    strategy: str = DEFAULT_STRATEGY,
    *,
    seed: int,
    win_tables: Mapping[str, str] | None = None,
) -> SimulationConfig:
    """Validate the arguments of :func:`simulate` into a :class:`SimulationConfig`."""
    n_games = _check_int(n_games, "n_games", 1)
    check_players(n_players)
    _run_strategy(strategy)
    if isinstance(seed, np.random.SeedSequence):
        raise TypeError("seed must be a non-negative integer (it is recorded with the results)")
    seed = _check_int(seed, "seed", 0)
    resolved = resolve_variants(variants)
    decks = {v.deck_for(int(n_players)).pack: v.deck_for(int(n_players)) for v in resolved}
    if len(decks) > 1:  # each variant's pack at this table size
        raise SimkitError(
            f"the variants of one run are dealt the same cards, but their decks at {n_players} "
            f"players differ: {', '.join(sorted(d.describe() for d in decks.values()))}; run "
            "them apart"
        )
    for v in resolved:  # the phases before setting imagine the unseen cards of plain decks
        deck = v.deck_for(int(n_players))
        if v.deal.changes_hands and not deck.plain:
            raise SimkitError(
                f"variant {v.name!r} plays [deal] phases (the card pass, 换牌), which simkit "
                f"plays with plain decks only, not {deck.describe()}; switch them off in its file"
            )
        if v.deal.exchange.play and deck.decks != 1 and int(n_players) in (3, 4):
            raise SimkitError(
                f"variant {v.name!r} plays 换牌 at {n_players} players with one deck, not "
                f"{deck.describe()}; switch it off ([deal.exchange] play = false)"
            )
    win_tables = dict(win_tables or {})
    unknown = sorted(set(win_tables) - {v.name for v in resolved})
    if unknown:
        raise SimkitError(f"win_tables names {unknown[0]!r}, which is not a variant of this run")
    for source in win_tables.values():
        resolve_variant(source)  # the tables' variant must exist
    return SimulationConfig(
        variants=resolved,
        n_games=n_games,
        n_players=int(n_players),
        strategy=strategy,
        seed=seed,
        win_tables=tuple(win_tables.get(v.name, "") for v in resolved) if win_tables else (),
    )


# --------------------------------------------------------------------------- playing blocks


def _run_strategy(strategy: Any) -> Strategy:
    """The strategy a run's ``strategy`` names (a name, with options as
    ``name:key=value,...``), or a clear error: a run records it by its name."""
    if not isinstance(strategy, str):
        raise SimkitError(
            f"strategy must be a name (it is recorded with the results), got {strategy!r}"
        )
    if strategy.endswith(".npz"):
        raise SimkitError(
            f"strategy {strategy!r}: a run names its trained tables by win_tables, not as the "
            "strategy"
        )
    return strategy_from_name(strategy)


def _tables(strategy: str, variant: Variant, n_players: int) -> WinTables:
    """The shipped win tables ``strategy`` plays ``variant`` with (expected-score and its
    kin: the fine-class ones, where they ship)."""
    if isinstance(_run_strategy(strategy), ExpectedScore):
        return default_fine_tables(variant, n_players)
    return default_tables(variant, n_players)


def play_block(
    config: SimulationConfig, block: int
) -> tuple[dict[Key, np.ndarray], dict[Key, np.ndarray]]:
    """Play block ``block`` under every variant: ``(counts, sums)`` for :class:`Summary`."""
    counts, sums, _ = play_block_kept(config, block)
    return counts, sums


def play_block_kept(
    config: SimulationConfig, block: int
) -> tuple[dict[Key, np.ndarray], dict[Key, np.ndarray], dict[str, np.ndarray] | None]:
    """:func:`play_block`, with the block's arrays to keep (:func:`simkit.kept.kept_arrays`)
    when ``config.keep_games``, else None."""
    n = config.block_size(block)
    p = config.n_players
    block_seq = np.random.SeedSequence(config.seed, spawn_key=(block,))
    deal_seq, play_seq, phase_seq = block_seq.spawn(3)  # the first two as with spawn(2)
    deck = config.variants[0].deck_for(p)  # shared by every variant (make_config checks)
    dealt = deal(n, p, rng=np.random.default_rng(deal_seq), deck=deck)
    tables_of = [
        _tables(config.strategy, resolve_variant(source), p)
        if (source := config.tables_of(v))
        else None
        for v in range(len(config.variants))
    ]
    # --- phases before setting (simkit.phases.passing, simkit.phases.exchange)
    before = [
        before_setting(dealt, variant, tables_of[v], phase_seq)
        for v, variant in enumerate(config.variants)
    ]
    hands_of = [hands for hands, _ in before]
    # --- end of the phases before setting
    # max-ev searches the variants that see the same cards and rank duns alike in one pass;
    # random-legal draws the same stream under every variant (common numbers).  Each
    # arrangement is read once (dun ranks, specials) and flows on to scoring and statistics.
    plays = arrangements(
        hands_of, config.variants, config.strategy, n_players=p, tables=tables_of, rng=play_seq
    )
    scored = [
        score(
            play.cards,
            variant,
            declared=play.declared,
            ranks=play.ranks,
            special_masks=play.special_masks,
            breakdown=True,
        )
        for play, variant in zip(plays, config.variants, strict=True)
    ]
    # the payments of the phases before setting (the exchange's fees) join the scores as
    # components
    scored = [
        add_payments(s, paid) if paid else s for s, (_, paid) in zip(scored, before, strict=True)
    ]
    # ---- phases after setting (抢庄, 谈判, 抛牌; simkit.phases.settle): their zero-sum payments
    # join the scores as components of their own (nothing where a variant plays none)
    scored = [
        add_payments(s, settle_payments(play, variant, p, config.strategy))
        for play, variant, s in zip(plays, config.variants, scored, strict=True)
    ]
    # ---- end of the phases after setting
    kept = None
    if config.keep_games:
        kept = kept_arrays(plays, config.variants, [paid for _, paid in before])
    return (*record_block(config.variants, plays, scored), kept)


def play_chunk(config: SimulationConfig, first_block: int, n_blocks: int) -> BlockOutput:
    """Play blocks ``first_block .. first_block + n_blocks - 1`` (one task of a worker)."""
    counts = Summary()
    block_sums = []
    sizes = []
    kept: list[dict[str, np.ndarray]] = []
    for block in range(first_block, first_block + n_blocks):
        block_counts, sums, block_kept = play_block_kept(config, block)
        counts.add_counts(block_counts)
        block_sums.append(sums)
        sizes.append(config.block_size(block))
        if block_kept is not None:
            kept.append(block_kept)
    return BlockOutput(
        first_block, sizes, counts.counts, block_sums, kept if config.keep_games else None
    )


#: Per process, the configuration of the run its tasks belong to, by run key
#: (:func:`_run_key`).  Every task of a run carries the configuration, and a worker unpickles
#: it afresh each time; the strategies keep their built state (bucket solvers, pools, removal
#: models, tens of MB and seconds to build) keyed by the identity of the variant objects, so
#: a new copy per task rebuilt all of it for every task, grew the worker's memory until loky
#: replaced the worker, and made small tasks (checkpoints, ``--chunk-size``) slow.  Playing
#: every task of a run with the first copy a process received builds that state once per
#: process.
_RUN_CONFIGS: dict[str, SimulationConfig] = {}
#: How many times this process took up a run's configuration (its per-process setup).
setups_in_process = 0


def _run_key(config: SimulationConfig) -> str:
    """A key naming ``config`` by its content (equal configurations share their setup)."""
    return hashlib.sha256(pickle.dumps(config, protocol=pickle.HIGHEST_PROTOCOL)).hexdigest()


def play_task(
    run_key: str, config: SimulationConfig, first_block: int, n_blocks: int
) -> BlockOutput:
    """One task of a worker: :func:`play_chunk` with the configuration this process kept for
    ``run_key`` (the first copy it received), so that per-process state is built once."""
    global setups_in_process
    kept = _RUN_CONFIGS.get(run_key)
    if kept is None:
        _RUN_CONFIGS.clear()  # a process serves one run at a time; drop the previous one
        _RUN_CONFIGS[run_key] = kept = config
        setups_in_process += 1
    return play_chunk(kept, first_block, n_blocks)


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


def trace_points(n_blocks: int) -> set[int]:
    """Block counts after which the convergence trace is recorded (powers of two, and the end)."""
    points = {n_blocks}
    k = 1
    while k < n_blocks:
        points.add(k)
        k *= 2
    return points


@dataclass
class _State:
    summary: Summary = field(default_factory=Summary)
    trace: list[dict[str, Any]] = field(default_factory=list)


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
    kept_dir = Path(keep_games) if keep_games is not None else None
    if kept_dir is not None:
        check_output_dir(kept_dir, what="kept-games folder")
        config = replace(config, keep_games=True)
    jobs = effective_jobs(n_jobs)
    check_backend(backend, scheduler)
    if chunk_size is not None:
        _check_int(chunk_size, "chunk_size", 1)
        chunk_blocks = -(-chunk_size // config.block_games)
    else:
        chunk_blocks = default_chunk_blocks(config.n_blocks, jobs)
        if checkpoint is not None:
            chunk_blocks = 1  # a block a task: progress reaches the checkpoint block by block
    ckpt = Path(checkpoint) if checkpoint is not None else None
    state = _State()
    if ckpt is not None:
        if ckpt.is_dir():
            raise SimkitError(f"checkpoint {ckpt} is a folder; give a file name")
        check_output_dir(ckpt.parent, what="checkpoint folder")
        if ckpt.exists():
            state = _load_checkpoint(ckpt, config)
        ckpt.parent.mkdir(parents=True, exist_ok=True)  # the folder is there before any work

    points = trace_points(config.n_blocks)
    start = state.summary.n_blocks
    if kept_dir is not None:
        kept_dir.mkdir(parents=True, exist_ok=True)
        if start == 0:
            clear_kept(kept_dir)
    run_key = _run_key(config)
    tasks = (
        (run_key, config, b, min(chunk_blocks, config.n_blocks - b))
        for b in range(start, config.n_blocks, chunk_blocks)
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
    outputs = run_ordered(play_task, tasks, n_jobs=jobs, backend=backend, scheduler=scheduler)
    try:
        with _checkpoint_held(ckpt), _interrupts_raised():
            if start < config.n_blocks:
                _compile_kernels(config)  # before the workers start: they load, not compile
            bar = _progress_bar(config, state.summary.n_games, progress)
            for output in outputs:
                if kept_dir is not None and output.kept is not None:
                    for i, arrays in enumerate(output.kept):
                        write_block(kept_dir, output.first_block + i, arrays)
                _merge(state, output, config, points)
                if bar is not None:
                    bar.update(sum(output.n_games))
                if ckpt is not None and (
                    time.monotonic() - last_save >= CHECKPOINT_INTERVAL_S
                    or state.summary.n_blocks == config.n_blocks
                ):
                    _save_checkpoint(ckpt, config, state)
                    saved_blocks = state.summary.n_blocks
                    last_save = time.monotonic()
    except KeyboardInterrupt as exc:
        outputs.close()  # stop the workers before saving
        if ckpt is not None and state.summary.n_blocks > saved_blocks:
            _save_checkpoint(ckpt, config, state)
        signum = getattr(exc, "signum", signal.SIGINT)
        raise RunInterrupted(signum, state.summary.n_games, config.n_games, ckpt) from None
    finally:
        outputs.close()
        if bar is not None:
            bar.close()
    result = _result(config, state)
    if kept_dir is not None:
        write_manifest(kept_dir, kept_provenance(result.provenance, config), config.n_blocks)
    return result


def kept_provenance(prov: dict[str, Any], config: SimulationConfig) -> dict[str, Any]:
    """The run's provenance with each variant's file as a full path, so that the kept games
    can be re-scored under the very rules they were played by (:mod:`simkit.rescore`)."""
    variants = [
        entry | {"file": str(Path(v.path).resolve())}
        for entry, v in zip(prov["variants"], config.variants, strict=True)
    ]
    return prov | {"variants": variants}


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


def _merge(state: _State, output: BlockOutput, config: SimulationConfig, points: set[int]) -> None:
    summary = state.summary
    if output.first_block != summary.n_blocks:
        raise RuntimeError(
            f"chunks arrived out of order: expected block {summary.n_blocks}, "
            f"got {output.first_block}"
        )
    summary.add_counts(output.counts)
    for size, sums in zip(output.n_games, output.block_sums, strict=True):
        summary.fold_sums(sums)
        summary.n_games += size
        summary.n_blocks += 1
        if summary.n_blocks in points:
            state.trace.extend(convergence_rows(summary, config.variants, config.n_players))


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


#: Off a terminal, a plain progress line at most this often (seconds);
#: ``$SIMKIT_PROGRESS_INTERVAL`` sets another.
PROGRESS_INTERVAL_S = 5.0


class _ProgressLines:
    """Progress as plain lines on stderr, for a log (CI, ``nohup``, ``| tee``): a line every
    :data:`PROGRESS_INTERVAL_S` from a timer thread, whether or not a chunk came in (the
    workers' start and a long chunk are not silent), and one at the end if any was printed
    before it (a run shorter than the interval prints nothing).  An interval of 0 prints a
    line at every chunk instead."""

    def __init__(self, total: int, done: int, stream: Any = None) -> None:
        self.total = total
        self.done = self.resumed = done
        self.stream = stream
        self.start = time.monotonic()
        self.printed = False
        try:
            self.interval = float(os.environ.get("SIMKIT_PROGRESS_INTERVAL", PROGRESS_INTERVAL_S))
        except ValueError:
            self.interval = PROGRESS_INTERVAL_S
        self._stop = threading.Event()
        self._lock = threading.Lock()
        self._timer: threading.Thread | None = None
        if self.interval > 0:
            self._timer = threading.Thread(target=self._tick, name="simkit-progress", daemon=True)
            self._timer.start()

    def _tick(self) -> None:
        while not self._stop.wait(self.interval):
            if self.done < self.total:  # the end's line is update's
                self._print()

    def _print(self) -> None:
        with self._lock:
            self.printed = True
            print(self.line(time.monotonic()), file=self.stream or sys.stderr, flush=True)

    def update(self, n: int) -> None:
        self.done += n
        if self.interval <= 0 or (self.printed and self.done >= self.total):
            self._print()

    def line(self, now: float) -> str:
        """``simulate: 47,104 / 300,000 games (15.7%), 12 s elapsed, ~64 s left``."""
        elapsed = now - self.start
        head = (
            f"simulate: {self.done:,} / {self.total:,} games "
            f"({100 * self.done / self.total:.1f}%), {elapsed:.0f} s elapsed"
        )
        if self.done >= self.total:
            return head + ", done"
        played = self.done - self.resumed
        if played <= 0:
            return head
        return head + f", ~{elapsed * (self.total - self.done) / played:.0f} s left"

    def close(self) -> None:
        """Stop the timer (no line after the run's end)."""
        self._stop.set()
        if self._timer is not None:
            self._timer.join()


def _progress_bar(config: SimulationConfig, done: int, progress: bool | None) -> Any:
    """A tqdm bar on a terminal (or where ``progress`` is True), plain lines elsewhere
    (:class:`_ProgressLines`: CI, logs, pipes), None where ``progress`` is False."""
    if progress is False:
        return None
    if progress is None and not (sys.stderr.isatty() and not os.environ.get("CI")):
        return _ProgressLines(config.n_games, done)
    from tqdm import tqdm

    return tqdm(
        total=config.n_games,
        initial=done,
        unit="games",
        unit_scale=True,
        desc=f"simulate {len(config.variants)} variant(s)",
        smoothing=0.1,
    )


# --------------------------------------------------------------------------- checkpoints


#: The first line of a checkpoint file; the format number follows it on the same line.
CHECKPOINT_MAGIC = b"simkit-checkpoint "


class CheckpointError(SimkitError):
    """A checkpoint file that cannot be resumed: damaged, of another format, or another run's."""


def _save_checkpoint(path: Path, config: SimulationConfig, state: _State) -> None:
    """Write the run's state to ``path`` atomically, in a format that holds data only.

    The file is a line ``simkit-checkpoint <format>``, a line with the SHA-256 (hex) of the
    payload, then the payload: an ``.npz`` archive (no pickled objects) of the summary's
    arrays and ``meta``, JSON as ``uint8``: the run's identity, the coverage, the trace and
    where each array is filed (:class:`simkit.statistics.Key`).
    """
    arrays: dict[str, np.ndarray] = {}
    filed = []
    for kind, table in (("counts", state.summary.counts), ("sums", state.summary.sums)):
        for key, value in table.items():
            name = f"a{len(arrays)}"
            arrays[name] = np.ascontiguousarray(value)
            filed.append(
                {
                    "array": name,
                    "kind": kind,
                    "enum": type(key.field).__name__,
                    "field": str(key.field),
                    "variant": int(key.variant),
                    "component": key.component,
                }
            )
    meta = {
        "format": CHECKPOINT_FORMAT,
        "identity": run_identity(config),
        "n_games": state.summary.n_games,
        "n_blocks": state.summary.n_blocks,
        "trace": state.trace,
        "arrays": filed,
    }
    buffer = io.BytesIO()
    meta_bytes = np.frombuffer(json.dumps(meta).encode("utf-8"), dtype=np.uint8)
    arrays["meta"] = meta_bytes
    np.savez(buffer, allow_pickle=False, **arrays)
    payload = buffer.getvalue()
    digest = hashlib.sha256(payload).hexdigest().encode("ascii")

    def write(tmp: Path) -> None:
        with tmp.open("wb") as fh:
            fh.write(CHECKPOINT_MAGIC + str(CHECKPOINT_FORMAT).encode("ascii") + b"\n")
            fh.write(digest + b"\n")
            fh.write(payload)
            fh.flush()
            os.fsync(fh.fileno())  # the checkpoint must survive a crash right after

    atomic_write(path, write)


def _load_checkpoint(path: Path, config: SimulationConfig) -> _State:
    """The state saved in ``path`` by :func:`_save_checkpoint` for the run ``config``.

    Raises :class:`CheckpointError` (a ``ValueError``) naming the file and what is wrong when
    it is not a checkpoint of this format (an older, pickled one included: those are refused
    unread, since unpickling a file can run any code in it), when its content does not match
    its checksum (a changed bit, a truncated file), or when it belongs to another run.
    """
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise CheckpointError(f"checkpoint {path} cannot be read: {exc}") from None
    fresh = "delete it (or give another checkpoint file) and run again"
    if data[:1] == b"\x80":  # pickle's protocol opcode: the format of simkit before 3
        raise CheckpointError(
            f"checkpoint {path} cannot be read: it is a pickled checkpoint of an older simkit, "
            f"which is not read since unpickling a file can run code; {fresh}"
        )
    header, _, rest = data.partition(b"\n")
    if not header.startswith(CHECKPOINT_MAGIC):
        what = "an empty file" if not data else "not a simkit checkpoint"
        raise CheckpointError(f"checkpoint {path} cannot be read: {what}; {fresh}")
    version = header[len(CHECKPOINT_MAGIC) :]
    if version != str(CHECKPOINT_FORMAT).encode("ascii"):
        raise CheckpointError(
            f"checkpoint {path} cannot be read: its format is {version[:20]!r}, this simkit "
            f"reads format {CHECKPOINT_FORMAT} (a damaged file, or another version's); {fresh}"
        )
    digest, _, payload = rest.partition(b"\n")
    if hashlib.sha256(payload).hexdigest().encode("ascii") != digest:
        raise CheckpointError(
            f"checkpoint {path} is damaged: its content does not match its SHA-256 checksum "
            f"(a changed or truncated file), so it is not resumed; {fresh}"
        )
    try:
        meta, summary = _read_payload(payload)
    except Exception as exc:  # the checksum matched: a file written by other code
        raise CheckpointError(
            f"checkpoint {path} is damaged: its checksum matches but its content is not a "
            f"simkit checkpoint's ({exc.__class__.__name__}: {exc}); {fresh}"
        ) from None
    saved = meta["identity"]
    wanted = json.loads(json.dumps(run_identity(config)))  # as JSON reads it back
    if saved != wanted:
        diffs = [
            f"{k}: {saved.get(k)!r} there, {wanted[k]!r} here"
            for k in wanted
            if saved.get(k) != wanted[k]
        ]
        raise CheckpointError(
            f"checkpoint {path} belongs to a different run ({'; '.join(diffs)}); "
            "use another checkpoint file or delete this one"
        )
    return _State(summary=summary, trace=meta["trace"])


def _read_payload(payload: bytes) -> tuple[dict[str, Any], Summary]:
    """The metadata and summary of a checkpoint's payload (checked against its checksum)."""
    from simkit.statistics import Count, Sum

    enums: dict[str, type[Count] | type[Sum]] = {"Count": Count, "Sum": Sum}
    with np.load(io.BytesIO(payload), allow_pickle=False) as archive:
        meta = json.loads(archive["meta"].tobytes().decode("utf-8"))
        if meta.get("format") != CHECKPOINT_FORMAT:
            raise ValueError(f"format {meta.get('format')!r} in the metadata")
        summary = Summary(n_games=int(meta["n_games"]), n_blocks=int(meta["n_blocks"]))
        for entry in meta["arrays"]:
            key = Key(enums[entry["enum"]](entry["field"]), entry["variant"], entry["component"])
            table = summary.counts if entry["kind"] == "counts" else summary.sums
            table[key] = archive[entry["array"]]
    if not isinstance(meta["trace"], list) or not isinstance(meta["identity"], dict):
        raise ValueError("no trace or identity in the metadata")
    return meta, summary


# --------------------------------------------------------------------------- provenance


def _git_commit() -> str | None:
    root = Path(__file__).resolve().parent.parent
    try:
        out = subprocess.run(
            ["git", "-C", str(root), "rev-parse", "HEAD"],
            capture_output=True,
            text=True,
            timeout=5,
            check=True,
        )
    except (OSError, subprocess.SubprocessError):
        return None
    return out.stdout.strip() or None


def _file_hash(path: str) -> str | None:
    try:
        return hashlib.sha256(Path(path).read_bytes()).hexdigest()
    except OSError:
        return None


def _tables_hash(tables: Any) -> str:
    digest = hashlib.sha256()
    for name in ("win", "tie", "lose_pay", "count"):
        digest.update(np.ascontiguousarray(getattr(tables, name)).tobytes())
    digest.update(repr(float(tables.scoop_rate)).encode())
    return digest.hexdigest()


def win_tables_hashes(config: SimulationConfig) -> dict[str, str]:
    """Per variant, the sha256 of the win tables ``max-ev`` plays it with (empty otherwise).

    The hash is of the tables' arrays, so it changes whenever the tables do, whichever file
    they come from (a variant's own, a shipped fallback, or retrained ones).
    """
    if not isinstance(_run_strategy(config.strategy), MaxEV):
        return {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # a fallback is warned about when the run plays it
        return {
            variant.name: _tables_hash(
                _tables(
                    config.strategy,
                    resolve_variant(config.tables_of(v) or variant),
                    config.n_players,
                )
            )
            for v, variant in enumerate(config.variants)
        }


def run_identity(config: SimulationConfig) -> dict[str, Any]:
    """What makes a run's numbers: the configuration and its win tables' hashes.

    Equal identities give equal tables; a checkpoint resumes only a run of its identity, and
    a results folder is recorded with it (``provenance.json``, key ``run``).
    """
    return config.fingerprint() | {"win_tables_sha256": win_tables_hashes(config)}


def provenance(config: SimulationConfig) -> dict[str, Any]:
    """Where a result comes from: version, commit, variants (key, file hash), seed, size, and
    the run's identity (:func:`run_identity`: configuration and win tables' hashes)."""
    import simkit

    identity = run_identity(config)
    return {
        "simkit_version": simkit.__version__,
        "git_commit": _git_commit(),
        "seed": config.seed,
        "n_games": config.n_games,
        "n_players": config.n_players,
        "strategy": config.strategy,
        "block_games": config.block_games,
        "banker_seat": 0,
        "variants": [
            {
                "name": v.name,
                "key": v.key,
                "title": v.title,
                "path": Path(v.path).name,
                "sha256": _file_hash(v.path),
                "banker": has_banker(v),
            }
            for v in config.variants
        ],
        "win_tables_sha256": identity["win_tables_sha256"],
        "run": identity,
    }


def _result(config: SimulationConfig, state: _State) -> SimulationResult:
    prov = provenance(config)
    tables = build_tables(state.summary, config.variants, config.n_players, state.trace)
    return SimulationResult(provenance=prov, tables=tables, summary=state.summary, config=config)
