"""A run's numbers, as digests: the summary (every count and sum, bit for bit) of a small run
under each shipped variant that plays no phases, with the default strategy.

The digests were taken on main at f09ea0c, before :mod:`simkit.simulate` was split into a
package and before this process played chunks beside its workers (issue 54): the same seed
gives the same tables, for any ``n_jobs`` and ``chunk_size`` (the runs below use 1 job; the
tests of :mod:`tests.test_simulate` compare job counts and chunk sizes).  A change meant to
move numbers (the rules, the strategy, the scoring) prints the new digests with
``SIMKIT_PRINT_DIGESTS=1 pytest tests/test_simulate_digest.py -s``.
"""

from __future__ import annotations

import hashlib
import os

import numpy as np
import pytest

from simkit.simulate import simulate
from simkit.summary import Summary
from simkit.variants import load_variant, variant_names

GAMES, SEED = 300, 20261207

#: Per variant without phases, the sha256 (first 16 hex digits) of :func:`summary_digest`.
DIGESTS = {
    "fujian": "16a56ba5a099e079",
    "guangxi": "4e0b60808cff43e0",
    "guangxi-regional": "8cecd6487be0bed4",
    "hongkong": "bdb1af8e18080a3a",
    "taiwan": "34c07b03786868ad",
    "western-2-4": "dace78ca3e3f76b5",
    "wiki-points": "5a464b1ef6a63dce",
}


def _no_phases(name: str) -> bool:
    v = load_variant(name)
    return not v.deal.changes_hands and not v.phases.any_enabled


def summary_digest(summary: Summary) -> str:
    """The sha256 (first 16 hex digits) of a summary's coverage and arrays, keys in order."""
    h = hashlib.sha256(f"{summary.n_games} {summary.n_blocks}".encode())
    for kind, table in (("counts", summary.counts), ("sums", summary.sums)):
        for key in sorted(table, key=repr):
            h.update(f"{kind} {key!r}".encode())
            h.update(np.ascontiguousarray(table[key]).tobytes())
    return h.hexdigest()[:16]


@pytest.mark.parametrize("name", [n for n in variant_names() if _no_phases(n)])
def test_a_run_gives_the_numbers_it_gave_before(name: str) -> None:
    result = simulate(name, GAMES, seed=SEED, n_jobs=1, progress=False)
    assert result.summary is not None
    found = summary_digest(result.summary)
    if os.environ.get("SIMKIT_PRINT_DIGESTS"):
        print(f'    "{name}": "{found}",')
    assert found == DIGESTS.get(name), f"{name}: the run's numbers moved"


def test_the_digests_cover_every_variant_without_phases() -> None:
    assert sorted(DIGESTS) == sorted(n for n in variant_names() if _no_phases(n))


@pytest.mark.parametrize("name", ["qiantang", "philippines"])
def test_a_variant_with_phases_plays_alike_with_any_jobs_and_chunks(name: str) -> None:
    """The phases draw from each block's own stream: 2 jobs (this process and a worker
    playing blocks in turn) and one block a task give the tables of 1 job in one task."""
    from simkit.simulate import BLOCK_GAMES

    games = 2 * BLOCK_GAMES + 100  # three blocks, the last a short one
    one = simulate(name, games, seed=SEED, n_jobs=1, progress=False)
    two = simulate(name, games, seed=SEED, n_jobs=2, chunk_size=BLOCK_GAMES, progress=False)
    assert one.summary is not None and two.summary is not None
    assert one.summary.equals(two.summary)
