"""A run's configuration: :class:`SimulationConfig`, validated by :func:`make_config`."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from simkit.arrange import (
    DEFAULT_STRATEGY,
    ExpectedScore,
    Strategy,
    WinTables,
    default_fine_tables,
    default_tables,
    strategy_from_name,
)
from simkit.deal import check_players
from simkit.errors import SimkitError
from simkit.statistics import SCHEMA_VERSION
from simkit.variants import Variant, resolve_variant, resolve_variants

#: Games per block, the unit of randomness.  Changing it changes every result; it is recorded
#: in the provenance of each run.
BLOCK_GAMES = 2048


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
        """The variant whose win tables variant ``v`` (its index in :attr:`variants`) plays
        with; ``""``: its own."""
        return self.win_tables[v] if self.win_tables else ""

    @property
    def n_blocks(self) -> int:
        """Blocks of :attr:`block_games` games the run is cut into (the last may be short)."""
        return -(-self.n_games // self.block_games)

    def block_size(self, block: int) -> int:
        """Games in block ``block`` (``0 <= block < n_blocks``): :attr:`block_games`, or
        what is left for the last."""
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


def check_int(value: Any, what: str, minimum: int) -> int:
    """``value`` as an ``int``.  Raises :class:`~simkit.errors.SimkitError`, naming it
    ``what``, unless it is an integer (a bool is not) at least ``minimum``."""
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
    n_games = check_int(n_games, "n_games", 1)
    check_players(n_players)
    run_strategy(strategy)
    if isinstance(seed, np.random.SeedSequence):
        raise TypeError("seed must be a non-negative integer (it is recorded with the results)")
    seed = check_int(seed, "seed", 0)
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


def run_strategy(strategy: Any) -> Strategy:
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


def strategy_tables(strategy: str, variant: Variant, n_players: int) -> WinTables:
    """The shipped win tables ``strategy`` plays ``variant`` with (expected-score and its
    kin: the fine-class ones, where they ship)."""
    if isinstance(run_strategy(strategy), ExpectedScore):
        return default_fine_tables(variant, n_players)
    return default_tables(variant, n_players)
