"""Per-dun win tables: ``max-ev``'s by coarse class and ``expected-score``'s by fine class,
the trained ones shipped in ``simkit/data`` (both kinds for every shipped variant at 2 to 8
players and every deck option at the table sizes its pack serves; ``simkit/data/README.md``
lists them), the nearest shipped ones when none fit, and untrained (uniform) ones."""

from __future__ import annotations

import warnings
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np

from simkit.arrange.classes import N_CLASSES, N_DUNS
from simkit.variants import DEFAULT_VARIANT, Variant


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


def default_fine_tables(variant: Variant, n_players: int) -> WinTables:
    """The shipped fine-class tables of ``variant`` at ``n_players`` (``expected-score``'s).

    They ship wherever max-ev's do: every shipped variant at 2 to 8 players, every deck
    option at the table sizes its pack serves.  Where none ship (a variant of one's own, a
    file not trained yet), a derived variant reads its origin's fine tables with a warning;
    otherwise the coarse ones of :func:`default_tables` are read on fine classes (through
    :func:`~simkit.arrange.classes.coarse_of_fine`), with its warnings."""
    tables = _load_shipped(variant.name, n_players, True)
    if tables is not None:
        return tables
    if variant.origin != variant.name:  # a derived variant: its origin's, as default_tables
        tables = _load_shipped(variant.origin, n_players, True)
        if tables is not None:
            warnings.warn(
                f"no trained win tables for {variant.name!r} at {n_players} players; using "
                f"{variant.origin}'s at {n_players} players (fine classes)",
                stacklevel=3,
            )
            return tables
    return default_tables(variant, n_players)


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
    """The shipped tables of ``variant`` at ``n_players``.

    Tables ship for every shipped variant at 2 to 8 players.  Otherwise (a variant file of
    one's own, a derived variant) this warns and takes the nearest (a derived variant's origin
    at this count, then :func:`fallback_candidates`: the same variant at another player count,
    then ``guangxi`` at this count), then untrained tables.
    """
    tables = _load_shipped(variant.name, n_players)
    if tables is not None:
        return tables
    # a variant derived from a shipped one by a rule transform (``origin+label``) is nearest
    # to its origin's tables at this table size
    derived = [(variant.origin, n_players)] if variant.origin != variant.name else []
    for name, players in derived + fallback_candidates(variant.name, n_players):
        tables = _load_shipped(name, players)
        if tables is not None:
            warnings.warn(
                f"no trained win tables for {variant.name!r} at {n_players} players; using "
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
