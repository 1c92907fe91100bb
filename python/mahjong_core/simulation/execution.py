"""Where the jobs of a run execute: in this process, on a local process pool, on a local Dask
cluster or on any executor the caller gives (:func:`run_jobs`).

:func:`mahjong_core.simulate` (its batches of rounds) and :func:`mahjong_core.tournament` (its
batches of duplicate deals) both run here, so the rules are one: by default nothing is spawned;
``workers=N`` (N > 1) asks for a local process pool; ``executor`` takes a
``concurrent.futures.Executor``, a ``distributed.Client`` or ``"dask"`` (a local cluster of
``workers`` workers).  Results come back in job order whatever finished first, so a run's result
does not depend on where it ran.
"""

from __future__ import annotations

from concurrent.futures import Executor, ProcessPoolExecutor, as_completed
from typing import TYPE_CHECKING, Any, Callable, Iterator, Sequence

from ..errors import SimulationError

if TYPE_CHECKING:
    from distributed import Client

__all__ = ["check_executor", "run_jobs"]


def check_executor(executor: Any) -> None:
    """Refuse (SimulationError) an executor that is not None, ``"dask"`` or an object with ``submit``."""
    if executor is None:
        return
    if isinstance(executor, str):
        if executor != "dask":
            raise SimulationError(f"executor must be None, 'dask', an Executor or a distributed.Client, got {executor!r}")
        return
    if not callable(getattr(executor, "submit", None)):
        raise SimulationError(f"executor must have a submit() method (a concurrent.futures Executor or a "
                              f"distributed.Client), got {type(executor).__name__}")


def run_jobs(fn: Callable[..., Any], jobs: Sequence[tuple[Any, ...]], *,
             executor: "Executor | Client | str | None" = None, workers: "int | None" = None,
             done: Callable[[int], object] = lambda i: None) -> list[Any]:
    """``[fn(*job) for job in jobs]``, run where the module docstring says (``executor``,
    ``workers``: checked by the caller); ``done(i)`` is called as job ``i`` finishes (a progress
    bar's tick).  A pool or cluster started here is shut down before returning, also on error."""
    out: list[Any] = [None] * len(jobs)
    if executor is None and (workers or 1) == 1:
        for i, job in enumerate(jobs):
            out[i] = fn(*job)
            done(i)
        return out
    own_executor = None
    cluster = client = None
    try:
        pool: Any   # an Executor, or a Dask Client (its submit() is the same, it is not one)
        if executor == "dask":
            from .dask_support import local_client

            cluster, client = local_client(workers)
            pool = client
        elif executor is None:
            own_executor = pool = ProcessPoolExecutor(max_workers=workers)
        else:
            pool = executor
        futures = {pool.submit(fn, *job): i for i, job in enumerate(jobs)}
        completed: Callable[[list[Any]], Iterator[Any]] = as_completed
        if type(pool).__module__.split(".")[0] == "distributed":
            from distributed import as_completed as dask_completed   # Dask futures are not stdlib ones

            completed = dask_completed
        for fut in completed(list(futures)):
            i = futures[fut]
            out[i] = fut.result()
            done(i)
    finally:
        if own_executor is not None:
            own_executor.shutdown()
        if client is not None:
            client.close()
        if cluster is not None:
            cluster.close()
    return out
