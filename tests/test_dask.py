"""The same simulation on a Dask cluster (joblib's dask backend) gives the local tables."""

from __future__ import annotations

import socket
import threading
import time

import pytest
from polars.testing import assert_frame_equal

from simkit import parallel
from simkit.simulate import BLOCK_GAMES, simulate

distributed = pytest.importorskip("dask.distributed")

N_GAMES = BLOCK_GAMES + 300  # two blocks, two tasks


@pytest.mark.slow
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


def _loopback_cluster(n_workers: int) -> distributed.LocalCluster:
    return distributed.LocalCluster(
        n_workers=n_workers,
        threads_per_worker=1,
        processes=False,
        protocol="tcp",
        host="127.0.0.1",
        dashboard_address=None,
    )


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def test_unreachable_scheduler_fails_within_seconds_and_says_what_to_do(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(parallel, "DASK_CONNECT_TIMEOUT_S", 1.0)
    address = f"tcp://127.0.0.1:{_free_port()}"  # nothing listens there
    start = time.monotonic()
    with pytest.raises(ValueError, match=r"cannot reach a Dask scheduler at .*dask scheduler"):
        simulate(["western-2-4"], 10, seed=1, backend="dask", scheduler=address)
    assert time.monotonic() - start < parallel.DASK_CONNECT_TIMEOUT_S + 5


@pytest.mark.slow
def test_cluster_without_workers_fails_instead_of_hanging(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(parallel, "DASK_STALL_TIMEOUT_S", 1.0)
    outcome: dict[str, BaseException | None] = {}

    def run(address: str) -> None:
        try:
            simulate(["western-2-4"], 10, seed=1, backend="dask", scheduler=address)
            outcome["error"] = None
        except BaseException as exc:  # handed to the test thread
            outcome["error"] = exc

    with _loopback_cluster(n_workers=0) as cluster:
        worker = threading.Thread(target=run, args=(cluster.scheduler_address,), daemon=True)
        worker.start()
        worker.join(timeout=20)
    assert not worker.is_alive(), "the run hung on a cluster without workers"
    error = outcome["error"]
    assert isinstance(error, parallel.ClusterError)
    assert "no workers" in str(error) and "dask worker" in str(error)
