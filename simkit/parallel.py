"""Running independent tasks on local cores or on a Dask cluster, results in task order.

The only module that imports joblib (and, on demand, dask.distributed): the rest of simkit hands
it a function and a list of argument tuples.  Results come back as a generator *in task order*,
at most a few tasks ahead of the consumer, so the caller can merge them as they arrive and
memory stays flat however many tasks there are.

Failure modes handled here, so that a run never outlives its user nor waits forever:

- Local workers (loky) watch their parent and exit within :data:`PARENT_POLL_S` once it is gone,
  however it ended (SIGKILL included); they ignore SIGINT, so Ctrl-C reaches the parent only
  and is reported once.
- A Dask scheduler that cannot be reached fails within :data:`DASK_CONNECT_TIMEOUT_S`; a cluster
  with no workers for :data:`DASK_STALL_TIMEOUT_S` fails instead of waiting silently.
"""

from __future__ import annotations

import ctypes
import os
import signal
import sys
import threading
import time
import warnings
from collections import deque
from collections.abc import Callable, Generator, Iterable, Iterator
from contextlib import ExitStack
from typing import Any

from simkit.errors import SimkitError

BACKENDS = ("loky", "threading", "dask")
#: How often a local worker checks that its parent is still alive (seconds).
PARENT_POLL_S = 0.5
PR_SET_PDEATHSIG = 1  # from <linux/prctl.h>
#: How long to try to reach a Dask scheduler before giving up (seconds).
DASK_CONNECT_TIMEOUT_S = 5.0
#: How long a Dask cluster may have no worker at all before the run gives up (seconds).
DASK_STALL_TIMEOUT_S = 60.0
#: The start of loky's warning when it replaces a worker that exited while work was queued
#: (its memory-growth check, or an idle timeout).  The executor starts a replacement and the
#: work goes on with the same results, so the warning says nothing a user can act on.
LOKY_WORKER_STOPPED = "A worker stopped while some jobs were given to the executor"


class ClusterError(ConnectionError):
    """The Dask cluster cannot run the tasks (no workers, workers dying)."""


def effective_jobs(n_jobs: int) -> int:
    """``n_jobs`` as a count of local workers: -1 is every core, -2 all but one, and so on."""
    if isinstance(n_jobs, bool) or not isinstance(n_jobs, int) or n_jobs == 0:
        raise SimkitError(f"n_jobs must be a non-zero integer (-1 for every core), got {n_jobs!r}")
    cores = os.cpu_count() or 1
    return n_jobs if n_jobs > 0 else max(1, cores + 1 + n_jobs)


def check_backend(backend: str | None, scheduler: str | None = None) -> None:
    """Raise ``ValueError`` for an unknown backend or a scheduler given without ``dask``."""
    if backend is not None and backend not in BACKENDS:
        raise SimkitError(f"unknown backend {backend!r}; choose one of {', '.join(BACKENDS)}")
    if scheduler is not None:
        if backend != "dask":
            raise SimkitError("a scheduler address needs backend='dask'")
        if not isinstance(scheduler, str) or "://" not in scheduler:
            raise SimkitError(
                f"scheduler must be an address like 'tcp://host:8786', got {scheduler!r}"
            )


def run_ordered(
    func: Callable[..., Any],
    tasks: Iterable[tuple[Any, ...]],
    *,
    n_jobs: int = 1,
    backend: str | None = None,
    scheduler: str | None = None,
    parent_plays: bool = False,
) -> Generator[Any, None, None]:
    """``func(*task)`` for every task, yielded in task order.

    ``n_jobs=1`` without a backend runs in this process.  ``parent_plays`` (local processes
    only): this process is one of the ``n_jobs``, with ``n_jobs - 1`` workers beside it
    (:func:`_run_shared`), for tasks that cost far more than the consumer's work on a result.
    ``backend="dask"`` submits the tasks to the Dask cluster at ``scheduler`` (an address
    such as ``tcp://host:8786``), or through the Dask client already active in this process,
    two tasks in flight per worker thread (``n_jobs`` does not apply there).
    """
    check_backend(backend, scheduler)
    jobs = effective_jobs(n_jobs)
    if backend is None and jobs == 1:
        for task in tasks:
            yield func(*task)
        return

    if backend == "dask":
        with ExitStack() as stack:
            client = _enter_dask(stack, scheduler)
            yield from _run_on_dask(client, func, tasks, address=scheduler)
        return

    if parent_plays and backend is None:
        # the warning is issued by loky's manager thread (see below)
        warnings.filterwarnings("ignore", message=LOKY_WORKER_STOPPED, category=UserWarning)
        yield from _run_shared(func, tasks, jobs - 1)
        return

    import joblib

    # the warning is issued by loky's manager thread, so a filter scoped to this generator
    # (warnings.catch_warnings, not thread-safe) cannot catch it; this one matches that
    # message only, and adding it again replaces it
    warnings.filterwarnings("ignore", message=LOKY_WORKER_STOPPED, category=UserWarning)
    with ExitStack() as stack:
        if (backend or "loky") == "loky":
            # One pool for the whole run (this Parallel call); workers die with this
            # process, even when it is killed (see _watch_parent).
            stack.enter_context(
                joblib.parallel_config(
                    backend="loky", initializer=_watch_parent, initargs=(os.getpid(),)
                )
            )
        else:
            stack.enter_context(joblib.parallel_config(backend=backend))
        parallel = joblib.Parallel(n_jobs=jobs, return_as="generator", pre_dispatch="2*n_jobs")
        yield from parallel(joblib.delayed(func)(*task) for task in tasks)


#: Tasks a worker has queued at most while this process plays others (:func:`_run_shared`).
TASKS_AHEAD = 2


def _run_shared(
    func: Callable[..., Any], tasks: Iterable[tuple[Any, ...]], workers: int
) -> Iterator[Any]:
    """``func(*task)`` for every task, yielded in task order, played by ``workers`` loky
    workers and by this process.

    This process plays the first task while the workers start on the next ones; each worker
    has at most :data:`TASKS_AHEAD` tasks queued; whenever the next result in order is not in
    yet, this process plays the next task not handed out yet itself instead of waiting.  So
    this process is never idle while there is work (on ``n`` cores, ``n - 1`` workers and this
    process keep every core busy), and the workers' start (their imports, their setup)
    overlaps with the work this process does meanwhile.  On an error or when
    the consumer stops, the tasks not started are cancelled."""
    from joblib.executor import get_memmapping_executor

    todo = iter(tasks)
    first = next(todo, None)  # played here while the workers start (a run of one task: alone)
    pending: deque[tuple[bool, Any]] = deque()  # (a worker's?, its future, or the result)
    queued = 0  # tasks handed to the workers whose results are not yielded yet
    executor = None
    try:
        while True:
            while queued < TASKS_AHEAD * workers and (task := next(todo, None)) is not None:
                if executor is None:
                    # joblib's loky pool (one pool per process, shared with run_ordered's
                    # joblib.Parallel), with the same initializer
                    executor = get_memmapping_executor(
                        workers, initializer=_watch_parent, initargs=(os.getpid(),)
                    )
                pending.append((True, executor.submit(func, *task)))
                queued += 1
            if first is not None:
                pending.appendleft((False, func(*first)))
                first = None
            if pending and (not pending[0][0] or pending[0][1].done()):
                remote, item = pending.popleft()
                queued -= remote
                yield item.result() if remote else item
                continue
            task = next(todo, None)
            if task is not None:  # played here while the workers play theirs
                pending.append((False, func(*task)))
                continue
            if not pending:
                return
            _, future = pending.popleft()  # a worker's (this process's are yielded above)
            queued -= 1
            yield future.result()
    finally:
        for remote, item in pending:
            if remote:
                item.cancel()


def _watch_parent(parent_pid: int) -> None:
    """Worker initializer: ignore Ctrl-C (the parent handles it), exit when the parent is gone.

    On Linux the kernel kills the worker when its parent ends, however it ends (SIGKILL too):
    ``prctl(PR_SET_PDEATHSIG, SIGKILL)``; that works even while the worker is inside a numba
    kernel, which holds the GIL for seconds.  The signal comes when the parent's *thread* that
    started the worker ends; loky starts workers from the thread that submits work or from its
    manager thread, both alive as long as the pool is.  Elsewhere (and as a fallback) a thread
    polls the parent pid and exits once the worker has been re-parented.
    """
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if sys.platform.startswith("linux"):
        try:
            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
        except (OSError, AttributeError):
            pass
    if os.getppid() != parent_pid:  # the parent died before the line above
        os._exit(1)

    def watch() -> None:
        while os.getppid() == parent_pid:
            time.sleep(PARENT_POLL_S)
        os._exit(1)

    threading.Thread(target=watch, name="simkit-parent-watch", daemon=True).start()


def _run_on_dask(
    client: Any,
    func: Callable[..., Any],
    tasks: Iterable[tuple[Any, ...]],
    *,
    address: str | None,
) -> Iterator[Any]:
    """Submit tasks a few at a time, yield results in task order; fail when workers are gone."""
    where = address or "the active Dask client's cluster"
    todo = iter(tasks)
    pending: deque[Any] = deque()
    no_workers_since: float | None = None

    def fill() -> None:
        workers = client.scheduler_info().get("workers", {}).values()
        target = 2 * max(1, sum(w.get("nthreads", 1) for w in workers))
        while len(pending) < target:
            task = next(todo, None)
            if task is None:
                return
            pending.append(client.submit(func, *task, pure=False))

    try:
        fill()
        while pending:
            future = pending[0]
            try:
                result = future.result(timeout=1.0)
            except TimeoutError:
                if client.scheduler_info().get("workers"):
                    no_workers_since = None
                    continue
                now = time.monotonic()
                no_workers_since = no_workers_since or now
                if now - no_workers_since >= DASK_STALL_TIMEOUT_S:
                    raise ClusterError(
                        f"the Dask cluster at {where} has had no workers for "
                        f"{DASK_STALL_TIMEOUT_S:.0f} s, so the run cannot go on; start workers "
                        f"(dask worker {address or 'ADDRESS'}) and run the same command again "
                        "(with --checkpoint it resumes), or run without --scheduler"
                    ) from None
                continue
            except Exception as exc:
                if type(exc).__name__ == "KilledWorker":
                    raise ClusterError(
                        f"Dask workers at {where} died while running a task ({exc}); check "
                        "their memory and logs, then run the same command again"
                    ) from exc
                raise
            pending.popleft()
            fill()
            yield result
    finally:
        for future in pending:
            future.cancel()


def _enter_dask(stack: ExitStack, scheduler: str | None) -> Any:
    try:
        from dask.distributed import Client, default_client
    except ImportError as exc:  # pragma: no cover - dask is an optional extra
        raise SimkitError(
            "backend='dask' needs dask.distributed: pip install 'simkit[dask]'"
        ) from exc
    if scheduler is not None:
        try:
            client = Client(scheduler, set_as_default=True, timeout=DASK_CONNECT_TIMEOUT_S)
        except (OSError, TimeoutError) as exc:
            raise SimkitError(
                f"cannot reach a Dask scheduler at {scheduler} within "
                f"{DASK_CONNECT_TIMEOUT_S:.0f} s ({exc.__class__.__name__}); check the address "
                "and that `dask scheduler` is running there, or run without --scheduler"
            ) from None
        return stack.enter_context(client)
    try:
        return default_client()
    except ValueError as exc:
        raise SimkitError(
            "backend='dask' needs a scheduler address (scheduler='tcp://host:port') or a "
            "dask.distributed Client created beforehand in this process"
        ) from exc
