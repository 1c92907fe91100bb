"""Monte Carlo simulation with bots, locally or on a Dask cluster (statistics, JSON/CSV, plots)."""

from .runner import BOT_NAMES, MAX_BATCHES, MAX_ROUNDS, MAX_WORKERS, SimulationError, run_batch, simulate
from .stats import METHODS, SimulationResult, check_output

__all__ = ["simulate", "run_batch", "SimulationResult", "SimulationError", "BOT_NAMES", "METHODS",
           "MAX_ROUNDS", "MAX_BATCHES", "MAX_WORKERS", "check_output"]
