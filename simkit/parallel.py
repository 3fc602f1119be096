"""Running independent tasks on local cores or on a Dask cluster, results in task order.

The only module that imports joblib (and, on demand, dask.distributed): the rest of simkit hands
it a function and a list of argument tuples.  Results come back as a generator *in task order*,
at most a few tasks ahead of the consumer, so the caller can merge them as they arrive and
memory stays flat however many tasks there are.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Iterator
from contextlib import ExitStack
from typing import Any

BACKENDS = ("loky", "threading", "dask")


def effective_jobs(n_jobs: int) -> int:
    """``n_jobs`` as a count of local workers: -1 is every core, -2 all but one, and so on."""
    if isinstance(n_jobs, bool) or not isinstance(n_jobs, int) or n_jobs == 0:
        raise ValueError(f"n_jobs must be a non-zero integer (-1 for every core), got {n_jobs!r}")
    cores = os.cpu_count() or 1
    return n_jobs if n_jobs > 0 else max(1, cores + 1 + n_jobs)


def check_backend(backend: str | None, scheduler: str | None = None) -> None:
    """Raise ``ValueError`` for an unknown backend or a scheduler given without ``dask``."""
    if backend is not None and backend not in BACKENDS:
        raise ValueError(f"unknown backend {backend!r}; choose one of {', '.join(BACKENDS)}")
    if scheduler is not None:
        if backend != "dask":
            raise ValueError("a scheduler address needs backend='dask'")
        if not isinstance(scheduler, str) or "://" not in scheduler:
            raise ValueError(
                f"scheduler must be an address like 'tcp://host:8786', got {scheduler!r}"
            )


def run_ordered(
    func: Callable[..., Any],
    tasks: Iterable[tuple[Any, ...]],
    *,
    n_jobs: int = 1,
    backend: str | None = None,
    scheduler: str | None = None,
) -> Iterator[Any]:
    """``func(*task)`` for every task, yielded in task order.

    ``n_jobs=1`` without a backend runs in this process.  ``backend="dask"`` runs through
    joblib's Dask backend on the cluster at ``scheduler`` (an address such as
    ``tcp://host:8786``), or on the Dask client already active in this process.
    """
    check_backend(backend, scheduler)
    jobs = effective_jobs(n_jobs)
    if backend is None and jobs == 1:
        for task in tasks:
            yield func(*task)
        return

    import joblib

    with ExitStack() as stack:
        if backend == "dask":
            _enter_dask(stack, scheduler)
            stack.enter_context(joblib.parallel_config(backend="dask"))
            parallel = joblib.Parallel(n_jobs=n_jobs, return_as="generator")
        else:
            parallel = joblib.Parallel(
                n_jobs=jobs,
                backend=backend or "loky",
                return_as="generator",
                pre_dispatch="2*n_jobs",
            )
        yield from parallel(joblib.delayed(func)(*task) for task in tasks)


def _enter_dask(stack: ExitStack, scheduler: str | None) -> None:
    try:
        from dask.distributed import Client, default_client
    except ImportError as exc:  # pragma: no cover - dask is an optional extra
        raise ValueError(
            "backend='dask' needs dask.distributed: pip install 'simkit[dask]'"
        ) from exc
    if scheduler is not None:
        stack.enter_context(Client(scheduler, set_as_default=True))
        return
    try:
        default_client()
    except ValueError as exc:
        raise ValueError(
            "backend='dask' needs a scheduler address (scheduler='tcp://host:port') or a "
            "dask.distributed Client created beforehand in this process"
        ) from exc
