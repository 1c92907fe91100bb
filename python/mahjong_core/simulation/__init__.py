"""Monte Carlo simulation with bots, locally or on a Dask cluster (statistics, JSON/CSV, plots)."""

from .runner import BOT_NAMES, SimulationError, run_batch, simulate
from .stats import METHODS, SimulationResult

__all__ = ["simulate", "run_batch", "SimulationResult", "SimulationError", "BOT_NAMES", "METHODS"]
