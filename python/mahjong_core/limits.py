"""The bounds the library and the command line share: one home for each.

Every entry point that takes one of these numbers (``mj.simulate``, ``mj.Match``, ``mj.Round``,
``run_batch``, the Dask helpers) and the command-line option that passes it on (``simulate
--rounds/--batch-size/--workers/--seed/--min-fan``, ``match --rounds/--seed``) check it against the
same constant here, so a value the command line accepts is one the library accepts, and the help
and the error say the same range.
"""

from __future__ import annotations

__all__ = ["MAX_ROUNDS", "MAX_BATCH_SIZE", "MAX_BATCHES", "MAX_WORKERS", "MAX_SEED", "MAX_MIN_FAN"]

MAX_ROUNDS = 10 ** 9
"""Most rounds (long-card hands) of one simulation or one match: days of computing on a large
machine, far beyond any statistic's need."""

MAX_BATCH_SIZE = 10 ** 6
"""Most rounds of one simulation batch (one task of a worker: its statistics are merged when the
whole batch is done)."""

MAX_BATCHES = 100_000
"""Most batches of one simulation (one task and one future each, all created before the run):
more would only fill memory with futures.  ``rounds / batch_size`` above it is refused, naming the
batch size that would do."""

MAX_WORKERS = 1_024
"""Most local worker processes (a process pool forks all of its workers at once)."""

MAX_SEED = 2 ** 256 - 1
"""Largest seed of a round, match or simulation ("below 2**256"): far beyond any entropy a seed
needs, and small enough that a forged saved state cannot make seeding expensive."""

MAX_MIN_FAN = 1000
"""Largest minimum (起和) anywhere in the API.  No hand of any ruleset reaches it (the largest totals
are a few hundred), so a larger value can only be a mistake, and bounding it keeps every minimum
inside the compiled core's ``int``."""
