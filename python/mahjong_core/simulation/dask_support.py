"""Dask execution (the optional ``mahjong-core[distributed]`` extra).

A ``distributed.Client`` has the ``concurrent.futures``-style ``submit`` and
its futures work with ``distributed.as_completed``; :func:`simulate` uses it as
any executor.  :func:`connect` reaches a scheduler (``tcp://host:port``) with a
bounded timeout and a clear error.
"""

from __future__ import annotations

from ..errors import MahjongError

__all__ = ["connect", "local_client"]


def _distributed():
    try:
        import distributed
    except ImportError:  # pragma: no cover - depends on the environment
        raise MahjongError(
            "Dask is not installed: pip install 'mahjong-core[distributed]'") from None
    return distributed


def connect(address: str, timeout: float = 10.0):
    """A Client connected to the scheduler at ``address``; MahjongError if unreachable."""
    distributed = _distributed()
    try:
        return distributed.Client(address, timeout=timeout)
    except (OSError, TimeoutError) as exc:
        raise MahjongError(f"cannot reach the Dask scheduler at {address}: {exc}") from None


def local_client(workers: int | None = None):
    """(cluster, client) of a local Dask cluster with ``workers`` single-threaded worker processes."""
    distributed = _distributed()
    cluster = distributed.LocalCluster(n_workers=workers or 2, threads_per_worker=1, processes=True,
                                       dashboard_address=None)
    return cluster, distributed.Client(cluster)
