"""Dask execution (the optional ``mahjong-core[distributed]`` extra).

A ``distributed.Client`` has the ``concurrent.futures``-style ``submit`` and
its futures work with ``distributed.as_completed``; :func:`simulate` uses it as
any executor.  :func:`connect` reaches a scheduler (``tcp://host:port``) with a
bounded timeout and a clear error.
"""

from __future__ import annotations

import math
from types import ModuleType
from typing import TYPE_CHECKING

from .._validate import as_int
from ..limits import MAX_WORKERS   # the bound the runner checks too (one home: limits)
from ..errors import MahjongError, SimulationError

if TYPE_CHECKING:
    from distributed import Client, LocalCluster

__all__ = ["check_address", "connect", "local_client"]


def _distributed() -> ModuleType:
    try:
        import distributed
    except ImportError:  # pragma: no cover - depends on the environment
        raise MahjongError(
            "Dask is not installed: pip install 'mahjong-core[distributed]'") from None
    return distributed


def check_address(address: str) -> None:
    """Refuse a malformed scheduler address (not a string, unknown scheme, no port) with a
    SimulationError, without connecting: a usage error, unlike an unreachable scheduler."""
    if not isinstance(address, str) or not address:
        raise SimulationError(f"the Dask scheduler address must be a string like tcp://host:port, got {address!r}")
    from distributed.comm.addressing import get_address_host_port

    _distributed()
    try:
        get_address_host_port(address)
    except ValueError as exc:   # "unknown address scheme", "missing port number"
        raise SimulationError(f"the Dask scheduler address {address!r} is malformed: {exc}") from None


def connect(address: str, timeout: float = 10.0) -> Client:
    """A Client connected to the scheduler at ``address``; SimulationError (a MahjongError) if the
    address is malformed (unknown scheme, no port; see :func:`check_address`) or the scheduler is
    unreachable."""
    check_address(address)
    if isinstance(timeout, bool) or not isinstance(timeout, (int, float)) or not math.isfinite(timeout) \
            or not 0 < timeout <= 3600:
        raise SimulationError(f"the scheduler timeout must be 0-3600 seconds, got {timeout!r}")
    _distributed()
    from distributed import Client

    try:
        return Client(address, timeout=timeout)
    except (OSError, TimeoutError, ValueError) as exc:
        raise SimulationError(f"cannot reach the Dask scheduler at {address}: {exc}") from None


def local_client(workers: int | None = None) -> tuple[LocalCluster, Client]:
    """(cluster, client) of a local Dask cluster with ``workers`` single-threaded worker processes."""
    if workers is not None:
        workers = as_int(workers, "workers", 1, MAX_WORKERS, error=SimulationError)
    distributed = _distributed()
    cluster = distributed.LocalCluster(n_workers=workers or 2, threads_per_worker=1, processes=True,
                                       dashboard_address=None)
    return cluster, distributed.Client(cluster)
