"""What every section of the report reads: the run's result and the folder of study files."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import polars as pl

from simkit.simulate import SimulationResult
from simkit.variants import DEFAULT_VARIANT

#: The study results the report quotes, shipped with the package (their provenance in
#: ``README.md`` there): ``regret.json``, ``regret-4p-2000-default.json``, ``matters.json``,
#: ``phases/*.json``, ``decks/exact-<deck>.csv``, ``decks/volatility.json``, ``skill.json`` and
#: ``rules/worth.json``.
STUDIES_DIR = Path(__file__).resolve().parent.parent / "data" / "studies"


@dataclass(frozen=True)
class Page:
    """The run a report page shows (``result``) and the study files it quotes (``studies``, a
    folder laid out as :data:`STUDIES_DIR`)."""

    result: SimulationResult
    studies: Path = field(default=STUDIES_DIR)

    @property
    def tables(self) -> dict[str, pl.DataFrame]:
        """The run's tables by name (the result's, not a copy)."""
        return self.result.tables

    @property
    def provenance(self) -> dict[str, Any]:
        """The run's provenance (seed, strategy, players, variants, version)."""
        return self.result.provenance

    @property
    def names(self) -> list[str]:
        """The variants of the run, in its order."""
        return self.result.variant_names

    @property
    def base(self) -> str:
        """The variant the paired differences and the per-special tables are shown for."""
        return DEFAULT_VARIANT if DEFAULT_VARIANT in self.names else self.names[0]

    @property
    def compares(self) -> bool:
        """Whether the run holds more than one variant (paired comparisons exist)."""
        return len(self.names) > 1

    def table(self, name: str) -> pl.DataFrame:
        """The run's table ``name``, empty if the run has none of that name."""
        return self.tables.get(name, pl.DataFrame())
