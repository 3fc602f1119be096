"""Fine win tables built for rules that no shipped tables were trained on, cached on disk.

When the expected-score default plays a variant (a file of one's own, a transform, a designer's
candidate) whose rules' digest no shipped table file has, :func:`~simkit.arrange.wintables.
default_fine_tables` asks the builder this module registers on import: it trains the fine
tables by :func:`simkit.train.train`'s fictitious play on a short schedule
(:data:`AUTO_HANDS` hands per iteration, :data:`AUTO_ITERATIONS` iterations after the greedy
start, linearly averaged, seed :data:`AUTO_SEED`; about a minute on two cores), prints progress
lines on stderr and writes them to :func:`~simkit.arrange.wintables.cached_table_path` (the
user cache folder, named by the rules' digest), so a second run reads them at once.

The built tables carry no fitted objective weights, place model or removal shifts: those are
fitted to long rollouts (:mod:`simkit.objective`), far over the budget, so expected-score plays
them with its documented defaults (weights ``(1.0, 1.0)``, the duns' points as paid, no
removal shift).  ``simkit train`` with ``--strategy`` still trains tables of the full schedule
by hand (``--win-tables`` plays them).  ``SIMKIT_TABLES`` turns building off
(:data:`~simkit.arrange.wintables.TABLES_ENV`).
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

from simkit.arrange import DEFAULT_STRATEGY, WinTables
from simkit.arrange.wintables import (
    CACHE_FORMAT,
    TABLES_DIGEST_KEY,
    cached_table_path,
    load_cached_tables,
    set_table_builder,
    tables_digest,
)
from simkit.train import train
from simkit.variants import Variant

#: Hands dealt per iteration of the built tables (games = hands // players), and iterations
#: after the greedy start: two thirds of the shipped schedule's hands per iteration and 12 of
#: its 20 iterations (by then a shipped training's change per iteration is near 0.001), about
#: half a minute of expected-score play on a loaded two-core machine.
AUTO_HANDS = 40_000
AUTO_ITERATIONS = 12
AUTO_SEED = 0

#: How many times this process built tables (tests count builds to show a cache hit).
builds = 0


def _stderr(line: str) -> None:
    print(line, file=sys.stderr, flush=True)


def build_fine_tables(
    variant: Variant,
    n_players: int,
    *,
    progress: Callable[[str], None] | None = _stderr,
) -> WinTables:
    """``variant``'s fine tables at ``n_players``: the cached ones where the cache holds them
    (:func:`~simkit.arrange.wintables.load_cached_tables`, which drops a damaged file), else
    trained on the short schedule (module docstring), written to the cache and returned.
    Same rules and players → the same tables (the seed is fixed).  ``progress`` receives a
    line per iteration (None: silent)."""
    global builds
    cached = load_cached_tables(variant, n_players)
    if cached is not None:
        return cached
    path = cached_table_path(variant, n_players)
    say = progress or (lambda line: None)
    say(
        f"simkit: no trained win tables for the rules of {variant.name!r} at {n_players} "
        f"players; building them (a greedy start and {AUTO_ITERATIONS} iterations of "
        f"{AUTO_HANDS:,} hands, under a minute) into {path}"
    )
    started = time.perf_counter()
    tables = train(
        variant,
        n_players,
        seed=AUTO_SEED,
        n_games=max(AUTO_HANDS // n_players, 1),
        iterations=AUTO_ITERATIONS,
        strategy=DEFAULT_STRATEGY,
        progress=(lambda line: say(f"simkit: building win tables, {line}")) if progress else None,
    )
    builds += 1
    meta = dict(tables.meta, auto_built=True, cache_format=CACHE_FORMAT)
    meta[TABLES_DIGEST_KEY] = tables_digest(variant)
    tables = replace(tables, meta=meta)
    path.parent.mkdir(parents=True, exist_ok=True)
    _write(tables, path)
    say(f"simkit: win tables built in {time.perf_counter() - started:.0f} s and cached")
    return tables


def _write(tables: WinTables, path: Path) -> None:
    """Save ``tables`` under a temporary name beside ``path`` and rename it into place, so a
    reader (another process building the same tables) never sees half a file.  The temporary
    name ends in ``.npz`` because ``np.savez`` appends it to a name without it."""
    tmp = path.with_name(f".{path.stem}.{os.getpid()}.tmp.npz")
    try:
        tables.save(tmp)
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


set_table_builder(build_fine_tables)
