"""The same simulation on a Dask cluster (joblib's dask backend) gives the local tables."""

from __future__ import annotations

import pytest
from polars.testing import assert_frame_equal

from simkit.simulate import BLOCK_GAMES, simulate

distributed = pytest.importorskip("dask.distributed")

N_GAMES = BLOCK_GAMES + 300  # two blocks, two tasks


def test_dask_cluster_tables_equal_the_local_run() -> None:
    local = simulate(["western-2-4", "taiwan"], N_GAMES, seed=42, n_jobs=1)
    with distributed.LocalCluster(
        n_workers=1,
        threads_per_worker=2,
        processes=False,
        protocol="tcp",
        host="127.0.0.1",
        dashboard_address=None,
    ) as cluster:
        address = cluster.scheduler_address
        assert address.startswith("tcp://127.0.0.1:")
        remote = simulate(
            ["western-2-4", "taiwan"],
            N_GAMES,
            seed=42,
            n_jobs=2,
            chunk_size=BLOCK_GAMES,
            backend="dask",
            scheduler=address,
        )
    assert local.summary is not None and remote.summary is not None
    assert local.summary.equals(remote.summary)
    for name, table in local.tables.items():
        assert_frame_equal(remote[name], table, check_exact=True)


def test_dask_without_a_cluster_is_a_clear_error() -> None:
    with pytest.raises(ValueError, match=r"scheduler address \(scheduler='tcp://host:port'\)"):
        simulate(["western-2-4"], 10, seed=1, backend="dask")
