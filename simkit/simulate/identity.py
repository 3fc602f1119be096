"""Where a result comes from: the run's identity (configuration and win tables' hashes) and
its provenance (version, commit, variant files)."""

from __future__ import annotations

import hashlib
import subprocess
import warnings
from pathlib import Path
from typing import Any

import numpy as np

from simkit.arrange import MaxEV
from simkit.simulate.config import SimulationConfig, run_strategy, strategy_tables
from simkit.variants import has_banker, resolve_variant

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
    if not isinstance(run_strategy(config.strategy), MaxEV):
        return {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # a fallback is warned about when the run plays it
        return {
            variant.name: _tables_hash(
                strategy_tables(
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


def kept_provenance(prov: dict[str, Any], config: SimulationConfig) -> dict[str, Any]:
    """The run's provenance with each variant's file as a full path, so that the kept games
    can be re-scored under the very rules they were played by (:mod:`simkit.rescore`)."""
    variants = [
        entry | {"file": str(Path(v.path).resolve())}
        for entry, v in zip(prov["variants"], config.variants, strict=True)
    ]
    return prov | {"variants": variants}
