"""Per-dun win tables: ``max-ev``'s by coarse class and ``expected-score``'s by fine class,
the trained ones shipped in ``simkit/data`` (both kinds for every shipped variant at 2 to 8
players and every deck option at the table sizes its pack serves; ``simkit/data/README.md``
lists them), the nearest shipped ones when none fit, and untrained (uniform) ones.

Tables are found by the rules, not by a name: each shipped file records the key of the rules it
was trained on (``meta["variant_key"]``, :attr:`~simkit.variants.Variant.key`), and a variant
reads the file whose key has its rules' digest (the part after ``@``), whatever the variant is
called.  A file of one's own that ``extends = "guangxi"`` and changes nothing therefore plays
exactly as guangxi.  Where no shipped file has the digest, the expected-score default reads
fine tables built for those rules and cached on disk by the digest
(:func:`cached_table_path`; :mod:`simkit.tables_cache` builds them), as ``SIMKIT_TABLES``
says (:data:`TABLES_ENV`)."""

from __future__ import annotations

import json
import os
import warnings
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np

from simkit.arrange.classes import N_CLASSES, N_DUNS
from simkit.errors import SimkitError
from simkit.files import user_cache_dir
from simkit.variants import DEFAULT_VARIANT, Variant, resolve_variant, variant_key


@dataclass(frozen=True)
class WinTables:
    """Per-dun win tables of one variant and player count.

    ``win``, ``tie``, ``lose_pay``: ``float64 (3, N_CLASSES)`` by dun (front, middle, back) and
    :func:`dun_class` of my dun (max-ev's coarse tables), or ``(3, N_FINE)`` by its fine class
    (:func:`~simkit.arrange.classes.fine_classes`; expected-score's): the chance I win it
    against one opponent, the chance we tie, and the points I pay on it when I lose.
    ``count``: how many comparisons each class saw in training.  ``scoop_rate``: the chance a
    player scoops a given opponent.  ``meta``: how the tables were made (command, seed, games,
    iterations, change per iteration).  ``copula``: ``(G, G, G)`` counts of the opponents'
    duns on the copula grid (:mod:`simkit.arrange.joint`; expected-score's), None where the
    tables hold none.  ``removal``: ``(buckets, 3, N_FINE)`` shifts of the win chance by the
    hand's removal bucket (:mod:`simkit.arrange.removal`; expected-score's, measured after
    training), None where the tables hold none.
    """

    win: np.ndarray
    tie: np.ndarray
    lose_pay: np.ndarray
    count: np.ndarray
    scoop_rate: float = 0.0
    meta: dict[str, Any] = field(default_factory=dict)
    copula: np.ndarray | None = None
    removal: np.ndarray | None = None

    def __post_init__(self) -> None:
        if self.removal is not None and (
            self.removal.ndim != 3 or self.removal.shape[1:] != self.win.shape
        ):
            raise ValueError(
                f"removal shifts must be (buckets, {self.win.shape[0]}, {self.win.shape[1]}), "
                f"got {self.removal.shape}"
            )

    def save(self, path: str | Path) -> None:
        """Write the tables to ``path`` as a compressed ``.npz``: ``win``, ``tie`` and
        ``lose_pay`` as float32, ``count`` as int64, ``removal`` (if any) as float16, ``copula``
        (if any) as float64 and ``meta`` as JSON.  :meth:`load` reads it back."""
        import json

        arrays: dict[str, Any] = {
            "win": self.win.astype(np.float32),
            "tie": self.tie.astype(np.float32),
            "lose_pay": self.lose_pay.astype(np.float32),
            "count": self.count.astype(np.int64),
            "scoop_rate": np.float64(self.scoop_rate),
            "meta": np.array(json.dumps(self.meta, ensure_ascii=False)),
        }
        if self.copula is not None:
            arrays["copula"] = self.copula.astype(np.float64)
        if self.removal is not None:
            # float16: 4e-4 relative, far inside the shifts' sampling error; a third the size
            arrays["removal"] = self.removal.astype(np.float16)
        np.savez_compressed(path, **arrays)

    @classmethod
    def load(cls, path: str | Path) -> WinTables:
        """The tables :meth:`save` wrote to ``path``, the chances and shifts as float64.
        ``copula`` and ``removal`` are None where the file has none.  Raises ``OSError`` for a
        missing file, ``KeyError`` for a file without one of the required arrays."""
        import json

        with np.load(path, allow_pickle=False) as z:
            return cls(
                win=z["win"].astype(np.float64),
                tie=z["tie"].astype(np.float64),
                lose_pay=z["lose_pay"].astype(np.float64),
                count=z["count"],
                scoop_rate=float(z["scoop_rate"]),
                meta=json.loads(str(z["meta"])),
                copula=z["copula"] if "copula" in z.files else None,
                removal=z["removal"].astype(np.float64) if "removal" in z.files else None,
            )


#: The suffix of the file names of fine-class tables (``expected-score``'s).
FINE_SUFFIX = "-fine"


def table_name(variant_name: str, n_players: int, *, fine: bool = False) -> str:
    """File name of a shipped table: ``<variant>-<players>p.npz`` (max-ev's coarse tables)
    or ``<variant>-<players>p-fine.npz`` (expected-score's fine ones)."""
    return f"{variant_name}-{n_players}p{FINE_SUFFIX if fine else ''}.npz"


def shipped_table_path(variant_name: str, n_players: int, *, fine: bool = False) -> Path:
    """Where a shipped table of :func:`table_name` lies in the installed package's ``data``
    folder; the file need not exist."""
    return (
        Path(str(resources.files("simkit")))
        / "data"
        / table_name(variant_name, n_players, fine=fine)
    )


@lru_cache(maxsize=512)  # both kinds of every shipped file, and the lookups that miss
def _load_shipped(variant_name: str, n_players: int, fine: bool = False) -> WinTables | None:
    path = shipped_table_path(variant_name, n_players, fine=fine)
    if not path.exists():
        return None
    return WinTables.load(path)


def rules_digest(key: str) -> str:
    """The digest of a variant key ``name@digest`` (:func:`~simkit.variants.variant_key`): what
    identifies the rules, whatever the variant is called.  Raises
    :class:`~simkit.errors.SimkitError` for a string that is not a key."""
    _name, at, digest = key.partition("@")
    if not at or not digest:
        raise SimkitError(f"a variant key is 'name@digest', got {key!r}")
    return digest


def tables_digest(variant: Variant) -> str:
    """The digest of the rules that win tables model: :func:`~simkit.variants.variant_key`'s
    hash of the deck, ranking, deal, specials and scoring, without the phases played after the
    deal (抢庄 bidding, negotiation, surrender).  Training deals and sets hands with none of
    those phases, so two variants that differ only there train the same tables; they share
    them (and the objective weights stored with them, fitted with the shipped variant's
    phases)."""
    key = variant_key(
        variant.name,
        variant.ranking,
        variant.specials,
        variant.scoring,
        variant.deal,
        None,
        variant.deck,
    )
    return rules_digest(key)


@lru_cache(maxsize=1)
def _shipped_by_digest() -> dict[tuple[str, int, bool], str]:
    """``(tables digest, players, fine) → shipped variant name`` of every table file in
    ``simkit/data`` whose recorded rules (``meta["variant_key"]``; only that member is
    decompressed) are those of the shipped variant it is named after; a stale file is left
    out, so its rules' tables are built rather than read."""
    index: dict[tuple[str, int, bool], str] = {}
    for path in sorted((Path(str(resources.files("simkit"))) / "data").glob("*.npz")):
        with np.load(path, allow_pickle=False) as z:
            if "meta" not in z.files:  # a removal model, not a table
                continue
            meta = json.loads(str(z["meta"]))
        key, players = meta.get("variant_key"), meta.get("n_players")
        if key is None or players is None:
            continue
        fine = path.name.endswith(f"{FINE_SUFFIX}.npz")
        name = path.name.removesuffix(".npz").removesuffix(FINE_SUFFIX if fine else "")
        name = name.removesuffix(f"-{players}p")
        try:
            shipped = resolve_variant(name)
        except SimkitError:  # a table of no shipped variant (an experiment's)
            continue
        if rules_digest(shipped.key) != rules_digest(key):
            continue
        # two shipped variants with one set of tabled rules: the first file is kept
        index.setdefault((tables_digest(shipped), int(players), fine), name)
    return index


def shipped_name_for(variant: Variant, n_players: int, *, fine: bool = False) -> str | None:
    """The name of the shipped tables trained on ``variant``'s rules at ``n_players`` (found
    by :func:`tables_digest`, not by the variant's name), None where none ship."""
    return _shipped_by_digest().get((tables_digest(variant), n_players, fine))


def _shipped_for(variant: Variant, n_players: int, fine: bool) -> WinTables | None:
    name = shipped_name_for(variant, n_players, fine=fine)
    return None if name is None else _load_shipped(name, n_players, fine)


#: The environment variable that says what the default does for a variant whose rules no
#: shipped tables were trained on: ``build`` (the default: build its fine tables once, with
#: progress lines, and cache them on disk), ``fallback`` (another variant's tables, with a
#: warning that says so) or ``error`` (a :class:`~simkit.errors.SimkitError` that says how to
#: train them).
TABLES_ENV = "SIMKIT_TABLES"
TABLES_MODES = ("build", "fallback", "error")
#: The format of the cached tables; a change of it leaves old files unread (2: the fitted
#: extras of :mod:`simkit.tables_cache` are built with them).
CACHE_FORMAT = 2
#: The key of a built table file's ``meta`` that holds its :func:`tables_digest`.
TABLES_DIGEST_KEY = "tables_digest"

#: Builds fine tables for (variant, players) and returns them; registered by
#: :mod:`simkit.tables_cache` (a later stage, so this module cannot import it).
TableBuilder = Callable[[Variant, int], WinTables]
_builders: list[TableBuilder] = []
_coarse_builders: list[TableBuilder] = []
#: The key of a built table file's ``meta`` that lists the fitted extras still to be fitted
#: (:mod:`simkit.tables_cache`): such a file is handed to the builder again to finish them.
PENDING_KEY = "extras_pending"


def set_table_builder(builder: TableBuilder, coarse: TableBuilder | None = None) -> None:
    """Register what builds missing fine tables and (``coarse``) missing coarse ones
    (:mod:`simkit.tables_cache` registers its builders when it is imported; ``simulate``,
    ``regret`` and the command line import it)."""
    _builders[:] = [builder]
    _coarse_builders[:] = [] if coarse is None else [coarse]


def tables_mode() -> str:
    """``$SIMKIT_TABLES`` (:data:`TABLES_ENV`), ``build`` when unset; raises
    :class:`~simkit.errors.SimkitError` naming the valid values for any other."""
    mode = os.environ.get(TABLES_ENV, "build").strip().lower() or "build"
    if mode not in TABLES_MODES:
        raise SimkitError(f"${TABLES_ENV} must be one of {', '.join(TABLES_MODES)}, got {mode!r}")
    return mode


def tables_cache_dir() -> Path:
    """Where built tables are cached: ``tables/`` in the user cache folder
    (:func:`simkit.files.user_cache_dir`)."""
    return user_cache_dir() / "tables"


def cached_table_path(variant: Variant, n_players: int, *, fine: bool = True) -> Path:
    """The cache file of ``variant``'s built fine (``fine=False``: coarse) tables at
    ``n_players``: named by the rules' digest, so every file with those rules shares it."""
    digest = tables_digest(variant)
    suffix = FINE_SUFFIX if fine else ""
    return tables_cache_dir() / f"{digest}-{n_players}p{suffix}-v{CACHE_FORMAT}.npz"


def load_cached_tables(variant: Variant, n_players: int, *, fine: bool = True) -> WinTables | None:
    """The cached built fine (``fine=False``: coarse) tables of ``variant`` at ``n_players``,
    None where there are none.

    A cache file that cannot be read, or that holds tables of other rules, is removed with a
    warning that names it (None is returned, so it is built again)."""
    path = cached_table_path(variant, n_players, fine=fine)
    if not path.exists():
        return None
    try:
        tables = WinTables.load(path)
        held = (tables.meta.get(TABLES_DIGEST_KEY), tables.meta.get("n_players"))
        if held != (tables_digest(variant), n_players):
            raise ValueError(f"it holds tables of other rules or players: {held}")
        if tables.win.shape != tables.tie.shape or not np.isfinite(tables.win).all():
            raise ValueError("its win chances are not finite")
    except Exception as exc:  # a damaged file of the cache: rebuilt, never read
        warnings.warn(
            f"the cached win tables {path} are damaged ({exc}); removing them to build them again",
            stacklevel=2,
        )
        path.unlink(missing_ok=True)
        return None
    return tables


def _fallback_fine(variant: Variant, n_players: int, why: str) -> WinTables:
    """The old nearest-tables fallback, labelled: a derived variant's origin's fine tables,
    else :func:`default_tables`'s nearest coarse ones (each with its warning)."""
    if variant.origin != variant.name:  # a derived variant: its origin's, as default_tables
        tables = _load_shipped(variant.origin, n_players, True)
        if tables is not None:
            warnings.warn(
                f"no trained win tables for {variant.name!r} at {n_players} players ({why}); "
                f"FALLBACK: using {variant.origin}'s at {n_players} players (fine classes), "
                "which were trained on other rules",
                stacklevel=4,
            )
            return tables
    return default_tables(variant, n_players)


def default_fine_tables(variant: Variant, n_players: int) -> WinTables:
    """The fine-class tables of ``variant``'s rules at ``n_players`` (``expected-score``'s).

    Found by the rules' digest (module docstring): the shipped ones trained on these rules
    (every shipped variant at 2 to 8 players, every deck option at the table sizes its pack
    serves), else the ones built for them and cached on disk (:func:`cached_table_path`).
    Where neither exists, ``$SIMKIT_TABLES`` (:data:`TABLES_ENV`) says what happens:
    ``build`` (default) builds them (:mod:`simkit.tables_cache`, with progress lines, about a
    minute) and caches them; ``fallback`` takes the nearest trained tables with a warning that
    says they are another variant's; ``error`` raises :class:`~simkit.errors.SimkitError`
    naming the variant and how to train its tables."""
    tables = _shipped_for(variant, n_players, True)
    if tables is not None:
        return tables
    tables = load_cached_tables(variant, n_players)
    if tables is not None:
        if tables.meta.get(PENDING_KEY) and _builders and tables_mode() == "build":
            return _builders[0](variant, n_players)  # finishes the extras, or is fitting them
        return tables
    mode = tables_mode()
    if mode == "error":
        raise SimkitError(
            f"no trained win tables for the rules of {variant.name!r} ({variant.key}) at "
            f"{n_players} players: set ${TABLES_ENV}=build to build them, or train them with "
            f"`simkit train --variant FILE --players {n_players} --strategy expected-score` "
            "and pass them with --win-tables"
        )
    if mode == "build" and _builders:
        return _builders[0](variant, n_players)
    why = f"${TABLES_ENV}={mode}" if mode != "build" else "no table builder loaded"
    return _fallback_fine(variant, n_players, why)


#: The key of a fine table file's ``meta`` that holds expected-score's fitted objective weights.
WEIGHTS_KEY = "objective_weights"
#: The key that holds expected-score's place model of the t-formula
#: (:class:`~simkit.arrange.value.PlaceModel`, :func:`simkit.objective.fit_place_model`).
PLACE_KEY = "place_model"
#: The key that holds a fitted home rate and the weights fitted with it
#: (:func:`simkit.objective.fit_home_rate`).
HOME_RATE_KEY = "home_rate"


def objective_weights(tables: WinTables) -> tuple[float, float]:
    """The (scoop, home run) weights of expected-score's value with ``tables``: those fitted to
    rollouts of the full rules and stored with the tables (``meta["objective_weights"]``,
    :mod:`simkit.objective`), else ``(1.0, 1.0)``, the model as priced."""
    entry = tables.meta.get(WEIGHTS_KEY)
    if entry is None:
        return 1.0, 1.0
    return float(entry["scoop"]), float(entry["home_run"])


def home_rate_entry(tables: WinTables) -> tuple[float, float, float] | None:
    """``(rate, scoop weight, home-run weight)`` stored with ``tables``
    (``meta["home_rate"]``, :func:`simkit.objective.fit_home_rate`), None where the tables hold
    none.  No strategy reads it: the retired expected-score-home played it."""
    entry = tables.meta.get(HOME_RATE_KEY)
    if entry is None:
        return None
    return float(entry["rate"]), float(entry["scoop"]), float(entry["home_run"])


def place_entry(tables: WinTables) -> dict[str, Any] | None:
    """The place model of the t-formula stored with ``tables`` (``meta["place_model"]``), None
    where the tables hold none (expected-score then prices the duns' points as paid)."""
    entry = tables.meta.get(PLACE_KEY)
    return None if entry is None else dict(entry)


#: The player counts tables ship for: 2 to 4 players (one deck) and 5 to 8 (two decks).
SHIPPED_PLAYERS = tuple(range(2, 9))


def _decks(n_players: int) -> int:
    return 1 if n_players <= 4 else 2


def fallback_candidates(variant_name: str, n_players: int) -> list[tuple[str, int]]:
    """Where :func:`default_tables` looks when ``variant_name`` ships no tables at
    ``n_players``, in order: the same variant at the other player counts dealt as many decks
    (nearest first, the smaller count on a tie), then at the other deck count, then
    ``guangxi`` at ``n_players``.  Tables of a two-deck game know five of a kind and paired
    identical cards; a one-deck game's do not, so the deck count is matched first."""
    others = [k for k in SHIPPED_PLAYERS if k != n_players]
    others.sort(key=lambda k: (_decks(k) != _decks(n_players), abs(k - n_players), k))
    out = [(variant_name, k) for k in others]
    if variant_name != DEFAULT_VARIANT:
        out.append((DEFAULT_VARIANT, n_players))
    return out


def default_tables(variant: Variant, n_players: int) -> WinTables:
    """The shipped tables of ``variant``'s rules at ``n_players`` (found by the rules' digest,
    module docstring).

    Tables ship for every shipped variant at 2 to 8 players.  Otherwise (a variant file of
    one's own, a derived variant) the ones built for these rules and cached on disk are read,
    or built where ``$SIMKIT_TABLES`` is ``build`` (:mod:`simkit.tables_cache`).  With
    ``fallback`` or no builder loaded, this warns and takes the nearest (a derived variant's origin
    at this count, then :func:`fallback_candidates`: the same variant at another player count,
    then ``guangxi`` at this count), then untrained tables.
    """
    tables = _shipped_for(variant, n_players, False)
    if tables is not None:
        return tables
    tables = load_cached_tables(variant, n_players, fine=False)
    if tables is not None:
        return tables
    if _coarse_builders and tables_mode() == "build":
        return _coarse_builders[0](variant, n_players)
    # a variant derived from a shipped one by a rule transform (``origin+label``) is nearest
    # to its origin's tables at this table size
    derived = [(variant.origin, n_players)] if variant.origin != variant.name else []
    for name, players in derived + fallback_candidates(variant.name, n_players):
        tables = _load_shipped(name, players)
        if tables is not None:
            warnings.warn(
                f"no trained win tables for the rules of {variant.name!r} ({variant.key}) at "
                f"{n_players} players; FALLBACK: using "
                f"{table_name(name, players)} (train one with `simkit train`)",
                stacklevel=3,
            )
            return tables
    warnings.warn(
        f"no trained win tables for {variant.name!r}; max-ev plays untrained tables",
        stacklevel=3,
    )
    return uniform_tables()


def uniform_tables() -> WinTables:
    """Untrained tables: a dun wins as often as its rank's position in the class order says."""
    frac = (np.arange(N_CLASSES, dtype=np.float64) + 0.5) / N_CLASSES
    win = np.broadcast_to(frac, (N_DUNS, N_CLASSES)).copy()
    return WinTables(
        win=win,
        tie=np.zeros_like(win),
        lose_pay=np.ones_like(win),
        count=np.zeros((N_DUNS, N_CLASSES), dtype=np.int64),
        meta={"made": "uniform prior"},
    )
