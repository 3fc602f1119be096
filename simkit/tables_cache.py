"""Fine win tables built for rules that no shipped tables were trained on, cached on disk.

When the expected-score default plays a variant (a file of one's own, a transform, a designer's
candidate) whose rules' digest no shipped table file has, :func:`~simkit.arrange.wintables.
default_fine_tables` asks the builder this module registers on import: it trains the fine
tables by :func:`simkit.train.train`'s fictitious play on a short schedule
(:data:`AUTO_HANDS` hands per iteration, :data:`AUTO_ITERATIONS` iterations after the greedy
start, linearly averaged, seed :data:`AUTO_SEED`; about a minute on two cores), prints progress
lines on stderr and writes them to :func:`~simkit.arrange.wintables.cached_table_path` (the
user cache folder, named by the rules' digest), so a second run reads them at once.

The built tables then carry the fitted extras that the shipped fine tables of the file's
nearest shipped ancestor carry at that table size (:func:`model_base`: the variant it
``extends``, through any chain of files; a transform's origin), each by the public fitter of
the shipped one on a cheaper schedule, so a file of one's own plays as its base does:

* ``removal`` (card-removal shifts, fujian / qiantang / wiki-points at 4 players):
  :func:`simkit.train.removal_shifts` on :data:`AUTO_REMOVAL_GAMES` games (the shipped fit:
  240,000);
* ``objective_weights`` (guangxi and guangxi-regional at 3 and 4 players):
  :func:`simkit.objective.fit_weights` on :data:`AUTO_WEIGHT_HANDS` hands of
  :data:`AUTO_WEIGHT_ROLLOUTS` rollouts (the shipped fit: 4,000 of 100), stored only where its
  held-out gain is positive beyond its CI (:func:`simkit.objective.worth_shipping`), as the
  shipped ones are;
* ``place_model`` (guangxi and guangxi-regional at 4 players):
  :func:`simkit.objective.fit_place_model` on :data:`AUTO_PLACE_GAMES` games (the shipped fit:
  40,000), without weights fitted over it (expected-score then reads the objective weights).

Not built: the hand's own card-removal model (:class:`~simkit.arrange.removal.RemovalModel`,
shipped for guangxi and guangxi-regional at 4 players; half a million hands set, well over the
budget): a file built on those rows plays expected-score's plain search on its own tables.
Tables whose extras are still being fitted are cached with ``meta["extras_pending"]`` (the
fitters read them) and finished by the next build if the process stopped.

The coarse tables max-ev reads (:func:`~simkit.arrange.wintables.default_tables`) are built
the same way on first use (:func:`build_coarse_tables`, max-ev's fictitious play on
:data:`AUTO_COARSE_HANDS` hands for :data:`AUTO_COARSE_ITERATIONS` iterations).
``simkit train`` with ``--strategy`` still trains tables of the full schedule by hand
(``--win-tables`` plays them).  ``SIMKIT_TABLES`` turns building off
(:data:`~simkit.arrange.wintables.TABLES_ENV`).
"""

from __future__ import annotations

import os
import sys
import time
import tomllib
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

from simkit.arrange import DEFAULT_STRATEGY, WinTables, plays_t_formula
from simkit.arrange.wintables import (
    CACHE_FORMAT,
    PENDING_KEY,
    PLACE_KEY,
    TABLES_DIGEST_KEY,
    WEIGHTS_KEY,
    cached_table_path,
    load_cached_tables,
    set_table_builder,
    shipped_table_path,
    tables_digest,
)
from simkit.train import removal_shifts, train
from simkit.variants import Variant, variant_names

#: Hands dealt per iteration of the built tables (games = hands // players), and iterations
#: after the greedy start: two thirds of the shipped schedule's hands per iteration and 12 of
#: its 20 iterations (by then a shipped training's change per iteration is near 0.001), about
#: half a minute of expected-score play on a loaded two-core machine.
AUTO_HANDS = 40_000
AUTO_ITERATIONS = 12
AUTO_SEED = 0
#: The cheaper schedules of the fitted extras (module docstring), each a quarter or less of
#: the shipped fit's.
AUTO_REMOVAL_GAMES = 60_000
AUTO_WEIGHT_HANDS = 800
AUTO_WEIGHT_ROLLOUTS = 50
AUTO_PLACE_GAMES = 10_000
#: The coarse tables' schedule (max-ev's fictitious play, its default blend).
AUTO_COARSE_HANDS = 40_000
AUTO_COARSE_ITERATIONS = 12
#: The extras this module can build, in the order they are fitted.
EXTRAS = ("removal", WEIGHTS_KEY, PLACE_KEY)

#: How many times this process built tables (tests count builds to show a cache hit).
builds = 0
#: Cache files whose extras this process is fitting now (their fitters read them as they are).
_fitting: set[Path] = set()


def _stderr(line: str) -> None:
    print(line, file=sys.stderr, flush=True)


def model_base(variant: Variant) -> str | None:
    """The shipped variant nearest to ``variant`` whose fitted extras a build copies: the
    variant itself where it is shipped, a transform's origin, else the first shipped name on
    its file's chain of ``[variant].extends`` (names or paths relative to each file); None
    where the chain reaches no shipped variant (a file written from scratch)."""
    shipped = set(variant_names())
    if not variant.path or not Path(variant.path).is_file():
        return variant.origin if variant.origin in shipped else None
    path, seen = Path(variant.path), set()
    if variant.origin in shipped and path.parent.name == "variants":
        return variant.origin  # a shipped file, transformed or not
    while path not in seen:
        seen.add(path)
        try:
            header = tomllib.loads(path.read_text(encoding="utf-8")).get("variant", {})
        except (OSError, tomllib.TOMLDecodeError):
            return None
        base = header.get("extends") if isinstance(header, dict) else None
        if not isinstance(base, str):
            return None
        if base in shipped:
            return base
        path = (path.parent / base).resolve()
    return None


def extras_to_build(variant: Variant, n_players: int) -> tuple[str, ...]:
    """The fitted extras (of :data:`EXTRAS`) that :func:`model_base`'s shipped fine tables
    carry at ``n_players``, those that apply to ``variant``'s rules: removal shifts need one
    plain deck, a place model the t-formula at this table size."""
    base = model_base(variant)
    if base is None:
        return ()
    path = shipped_table_path(base, n_players, fine=True)
    if not path.exists():
        return ()
    shipped = WinTables.load(path)
    out = []
    if shipped.removal is not None and variant.deck_for(n_players).is_one_deck:
        out.append("removal")
    if WEIGHTS_KEY in shipped.meta and n_players <= 4:
        out.append(WEIGHTS_KEY)
    if PLACE_KEY in shipped.meta and plays_t_formula(variant, n_players):
        out.append(PLACE_KEY)
    return tuple(out)


def build_fine_tables(
    variant: Variant,
    n_players: int,
    *,
    progress: Callable[[str], None] | None = _stderr,
) -> WinTables:
    """``variant``'s fine tables at ``n_players``: the cached ones where the cache holds them
    complete (:func:`~simkit.arrange.wintables.load_cached_tables`, which drops a damaged
    file), else trained on the short schedule and given the fitted extras of
    :func:`extras_to_build` (module docstring), written to the cache and returned.  Tables
    cached with extras still pending are finished (or, while this process fits them, returned
    as they are).  Same rules and players → the same tables (the seeds are fixed).
    ``progress`` receives a line per step (None: silent)."""
    global builds
    path = cached_table_path(variant, n_players)
    say = progress or (lambda line: None)
    tables = load_cached_tables(variant, n_players)
    if tables is not None:
        pending = tables.meta.get(PENDING_KEY) or []
        if path in _fitting or not any(e in _extra_fitters for e in pending):
            return tables  # complete, being fitted here, or waiting for fitters not loaded
    started = time.perf_counter()
    if tables is None:
        extras = extras_to_build(variant, n_players)
        tables = _train_fine(variant, n_players, extras, path, say)
    builds += 1
    tables = _fit_extras(variant, n_players, tables, path, say)
    say(f"simkit: win tables built in {time.perf_counter() - started:.0f} s and cached")
    return tables


def _train_fine(
    variant: Variant,
    n_players: int,
    extras: tuple[str, ...],
    path: Path,
    say: Callable[[str], None],
) -> WinTables:
    """The fine tables of the short schedule, their removal shifts measured where ``extras``
    asks, cached with the other extras pending."""
    fitted = f", then fitting {', '.join(extras)}" if extras else ""
    say(
        f"simkit: no trained win tables for the rules of {variant.name!r} at {n_players} "
        f"players; building them (a greedy start and {AUTO_ITERATIONS} iterations of "
        f"{AUTO_HANDS:,} hands{fitted}; a minute or a few) into {path}"
    )
    tables = train(
        variant,
        n_players,
        seed=AUTO_SEED,
        n_games=max(AUTO_HANDS // n_players, 1),
        iterations=AUTO_ITERATIONS,
        strategy=DEFAULT_STRATEGY,
        progress=lambda line: say(f"simkit: building win tables, {line}"),
    )
    meta: dict[str, Any] = dict(tables.meta, auto_built=True, cache_format=CACHE_FORMAT)
    meta[TABLES_DIGEST_KEY] = tables_digest(variant)
    meta[PENDING_KEY] = list(extras)
    tables = replace(tables, meta=meta)
    path.parent.mkdir(parents=True, exist_ok=True)
    _write(tables, path)
    return tables


def _fit_extras(
    variant: Variant,
    n_players: int,
    tables: WinTables,
    path: Path,
    say: Callable[[str], None],
) -> WinTables:
    """Fit ``tables``' pending extras one by one (each written to the cache as it is done, so
    a stopped build resumes there) and return the finished tables."""
    pending = list(tables.meta.get(PENDING_KEY) or [])
    missing = [e for e in pending if e not in _extra_fitters]
    if missing:  # fitted by the next process that loads their fitters (simkit.objective)
        say(f"simkit: no fitter loaded for {', '.join(missing)}; left pending in the cache")
        pending = [e for e in pending if e in _extra_fitters]
    _fitting.add(path)
    try:
        while pending:
            extra = pending[0]
            say(f"simkit: fitting the built tables' {extra} (cheaper than the shipped fit)")
            tables = _with_extra(variant, n_players, tables, extra)
            pending.pop(0)
            left = pending + missing
            tables = replace(tables, meta=dict(tables.meta, **{PENDING_KEY: left}))
            _write(tables, path)
    finally:
        _fitting.discard(path)
    if not missing:
        meta = {k: v for k, v in tables.meta.items() if k != PENDING_KEY}
        tables = replace(tables, meta=meta)
        _write(tables, path)
    return tables


#: Fits one extra: ``(variant, players, tables) → tables`` with it added (its ``meta`` saying
#: how).  :data:`EXTRAS`' fitters: ``removal`` here, the others registered by
#: :mod:`simkit.objective` when it is imported (a later stage; ``simulate`` and the command
#: line import it).
ExtraFitter = Callable[[Variant, int, WinTables], WinTables]
_extra_fitters: dict[str, ExtraFitter] = {}


def register_extra_fitter(name: str, fitter: ExtraFitter) -> None:
    """Register the fitter of the extra ``name`` (one of :data:`EXTRAS`)."""
    if name not in EXTRAS:
        raise ValueError(f"unknown extra {name!r}; known: {', '.join(EXTRAS)}")
    _extra_fitters[name] = fitter


def _with_extra(variant: Variant, n_players: int, tables: WinTables, extra: str) -> WinTables:
    """``tables`` with one fitted extra of :data:`EXTRAS` added by its registered fitter."""
    return _extra_fitters[extra](variant, n_players, tables)


def _removal_fitter(variant: Variant, n_players: int, tables: WinTables) -> WinTables:
    """The removal shifts of ``tables`` on :data:`AUTO_REMOVAL_GAMES` games."""
    shifts = removal_shifts(variant, n_players, tables, n_games=AUTO_REMOVAL_GAMES)
    meta = dict(tables.meta, removal={"games": AUTO_REMOVAL_GAMES, "auto_built": True})
    return replace(tables, removal=shifts, meta=meta)


register_extra_fitter("removal", _removal_fitter)


def build_coarse_tables(
    variant: Variant,
    n_players: int,
    *,
    progress: Callable[[str], None] | None = _stderr,
) -> WinTables:
    """``variant``'s coarse tables at ``n_players`` (max-ev's): the cached ones, else trained
    by max-ev's fictitious play on :data:`AUTO_COARSE_HANDS` hands for
    :data:`AUTO_COARSE_ITERATIONS` iterations (seed :data:`AUTO_SEED`), cached and returned."""
    global builds
    cached = load_cached_tables(variant, n_players, fine=False)
    if cached is not None:
        return cached
    path = cached_table_path(variant, n_players, fine=False)
    say = progress or (lambda line: None)
    say(
        f"simkit: no trained max-ev tables for the rules of {variant.name!r} at {n_players} "
        f"players; building them ({AUTO_COARSE_ITERATIONS} iterations of "
        f"{AUTO_COARSE_HANDS:,} hands) into {path}"
    )
    started = time.perf_counter()
    tables = train(
        variant,
        n_players,
        seed=AUTO_SEED,
        n_games=max(AUTO_COARSE_HANDS // n_players, 1),
        iterations=AUTO_COARSE_ITERATIONS,
        strategy="max-ev",
        progress=lambda line: say(f"simkit: building max-ev tables, {line}"),
    )
    builds += 1
    meta = dict(tables.meta, auto_built=True, cache_format=CACHE_FORMAT)
    meta[TABLES_DIGEST_KEY] = tables_digest(variant)
    tables = replace(tables, meta=meta)
    path.parent.mkdir(parents=True, exist_ok=True)
    _write(tables, path)
    say(f"simkit: max-ev tables built in {time.perf_counter() - started:.0f} s and cached")
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


set_table_builder(build_fine_tables, build_coarse_tables)
