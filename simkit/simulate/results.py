"""A run's result: :class:`SimulationResult` (polars tables and provenance), saved and loaded."""

from __future__ import annotations

import json
import os
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import polars as pl

from simkit.errors import SimkitError
from simkit.files import STAGING_PREFIX, check_output_dir
from simkit.simulate.config import SimulationConfig
from simkit.summary import Summary


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
        """The run's variants' names, in the order they were played (its provenance's)."""
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
