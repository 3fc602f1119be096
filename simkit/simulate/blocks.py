"""Playing blocks: a block's deals under every variant (deal, phases, arrangement, score,
statistics), a chunk of consecutive blocks, and a worker's task."""

from __future__ import annotations

import hashlib
import pickle

import numpy as np

import simkit.objective  # registers the fitters of built tables' extras
import simkit.tables_cache  # noqa: F401  (registers the builder of missing win tables)
from simkit.arrange import arrangements
from simkit.deal import deal
from simkit.kept import kept_arrays
from simkit.phases import add_payments, before_setting
from simkit.phases.settle import settle_payments
from simkit.score import score
from simkit.simulate.config import SimulationConfig, strategy_tables
from simkit.statistics import Key, record_block
from simkit.summary import BlockOutput, Summary
from simkit.variants import resolve_variant


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
        strategy_tables(config.strategy, resolve_variant(source), p)
        if (source := config.tables_of(v))
        else None
        for v in range(len(config.variants))
    ]
    # --- phases before setting (simkit.phases.passing, simkit.phases.exchange)
    before = [
        before_setting(dealt, variant, tables_of[v], phase_seq, config.strategy)
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
#: (:func:`run_key`).  Every task of a run carries the configuration, and a worker unpickles
#: it afresh each time; the strategies keep their built state (bucket solvers, pools, removal
#: models, tens of MB and seconds to build) keyed by the identity of the variant objects, so
#: a new copy per task rebuilt all of it for every task, grew the worker's memory until loky
#: replaced the worker, and made small tasks (checkpoints, ``--chunk-size``) slow.  Playing
#: every task of a run with the first copy a process received builds that state once per
#: process.
_RUN_CONFIGS: dict[str, SimulationConfig] = {}
#: How many times this process took up a run's configuration (its per-process setup).
setups_in_process = 0


def run_key(config: SimulationConfig) -> str:
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
