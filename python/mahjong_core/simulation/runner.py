"""Monte Carlo simulation: rounds between bots, in batches, on any executor.

Reproducibility: batch ``b`` of a run with root seed ``s`` plays a match whose
seed is drawn from ``SeedSequence(s, spawn_key=(b,))``; batches are fixed by
``rounds`` and ``batch_size`` alone, and their counters are added in batch
order.  So the same seed gives the same result with 1 worker or 20, with the
local process pool, a thread pool or a Dask cluster.
"""

from __future__ import annotations

import copy
from concurrent.futures import Executor
from typing import TYPE_CHECKING, Any, Callable, Sequence, overload

import numpy as np

from .. import limits
from .._types import Int, MahjongRulesetName
from .._validate import as_flag, as_int
from ..errors import SimulationError, UnsupportedError
from ..families.registry import DEFAULT_RULESET, MAX_MIN_FAN, Family, family_of, get_ruleset, ruleset_names
from ..game.bots import Bot
from .execution import check_executor, run_jobs
from .stats import RunSummary, SimulationResult

if TYPE_CHECKING:
    from distributed import Client

    from ..families.mahjong.rulesetdef import Ruleset

__all__ = ["simulate", "run_batch", "simulation_hooks", "BOT_NAMES", "SimulationError", "MAX_ROUNDS", "MAX_BATCHES", "MAX_WORKERS"]

BOT_NAMES = ("greedy", "random")
"""The built-in bots' names (each family's :attr:`~mahjong_core.families.registry.Family.bots`)."""
# the bounds of simulate and run_batch, shared with the command line (mahjong_core.limits)
MAX_ROUNDS = limits.MAX_ROUNDS
MAX_BATCHES = limits.MAX_BATCHES
MAX_WORKERS = limits.MAX_WORKERS


def _make_bots(ruleset: str, bots: "Sequence[str | Bot]", seed_seq: np.random.SeedSequence) -> list[Bot]:
    """The batch's bot objects: a name is made by its family's factory with a seed spawned from
    the batch's seed sequence; a bot object is copied, so that no two batches share its state."""
    factories = family_of(ruleset).bots
    seed = int(seed_seq.spawn(1)[0].generate_state(1, np.uint64)[0])
    return [factories[b](seed + seat) if isinstance(b, str) else copy.deepcopy(b)
            for seat, b in enumerate(bots)]


def simulation_hooks(ruleset: Any) -> Any:
    """The simulation hooks (``Family.simulation``) of the family of ``ruleset``; a family without
    them does not offer :func:`simulate` (an :class:`~mahjong_core.errors.UnsupportedError` naming it)."""
    return _hooks(family_of(ruleset))


def _hooks(family: Family) -> Any:
    if family.simulation is None:
        raise UnsupportedError(f"simulate: the {family.name} family ({', '.join(ruleset_names(family.name))}) "
                               "does not offer simulate (it registers no simulation hooks)")
    return family.simulation


def progress_bar(rounds: int, unit: str = "round") -> Any:
    """The tqdm bar of a run of ``rounds`` rounds (``progress=True``; the CLI draws the same bar
    when it ticks the run itself); ``unit``: what it counts (a tournament counts deals)."""
    try:
        from tqdm import tqdm
    except ImportError:  # pragma: no cover - tqdm is a dependency
        raise SimulationError("progress=True needs tqdm: pip install tqdm") from None
    return tqdm(total=rounds, unit=unit, smoothing=0.1)


def run_batch(ruleset: str, bots: "Sequence[str | Bot]", seed: int, batch: int, rounds: int,
              min_fan: int | None = None, record_wins: bool = False
              ) -> RunSummary:
    """Play ``rounds`` rounds (one match, the ruleset's dealer rules) for batch ``batch`` of a run:
    the ruleset's family plays them (``Family.simulation.play_batch``) into its statistics."""
    ruleset, bots, seed, min_fan, record_wins = _check_common(ruleset, bots, seed, min_fan, record_wins)
    batch = as_int(batch, "batch", 0, MAX_BATCHES - 1, error=SimulationError)
    rounds = as_int(rounds, "rounds", 1, MAX_ROUNDS, error=SimulationError)

    seq = np.random.SeedSequence(seed, spawn_key=(batch,))
    match_seed = int(seq.generate_state(1, np.uint64)[0])
    bot_objs = _make_bots(ruleset, bots, seq)
    hooks = _hooks(family_of(ruleset))   # each family plays its own rounds into its own statistics
    part: RunSummary = hooks.result_type(ruleset, _bot_labels(bots))
    hooks.play_batch(ruleset, bot_objs, match_seed, rounds, min_fan, record_wins, part)
    return part


def _bot_labels(bots: "Sequence[str | Bot]") -> tuple[str, ...]:
    """The bots as the result names them: a name, or a bot object's class name."""
    return tuple(b if isinstance(b, str) else type(b).__name__ for b in bots)


def _check_bots(bots: Any, players: int, ruleset: str) -> "tuple[str | Bot, ...]":
    """One bot per seat, each a name of the ruleset's family or a :class:`Bot` object; a single
    bot (or a one-bot list) plays every seat.  A built-in bot object becomes its name, so its
    seed is spawned from the run's seed like every named bot's (the result stays the same for
    any number of workers)."""
    names = tuple(family_of(ruleset).bots)
    if isinstance(bots, str) or isinstance(bots, Bot):
        bots = (bots,)
    if not isinstance(bots, (tuple, list)):
        raise SimulationError(f"bots must be a bot, a bot name or a list of them (one per seat), got {bots!r}")
    checked: list[str | Bot] = []
    for b in bots:
        name = b if isinstance(b, str) else getattr(type(b), "name", None)
        if isinstance(name, str) and name in names:
            checked.append(name)
        elif not isinstance(b, str) and isinstance(b, Bot):
            checked.append(b)
        else:
            raise SimulationError(f"unknown bot {b!r}; expected one of {', '.join(names)} or a Bot object")
    out = tuple(checked)
    if len(out) == 1:
        out = out * players
    if len(out) != players:
        raise SimulationError(f"{ruleset} has {players} players; got {len(out)} bots "
                              f"({', '.join(_bot_labels(out)) or 'none'})")
    return out


_check_executor = check_executor   # the name this module used before execution.py held it


def _check_common(ruleset: Any, bots: Any, seed: Any, min_fan: Any, record_wins: Any
                  ) -> "tuple[str, tuple[str | Bot, ...], int, int | None, bool]":
    """The arguments ``simulate`` and ``run_batch`` share, checked and normalised."""
    rs = get_ruleset(ruleset)
    bots = _check_bots(bots, rs.players, rs.name)
    if seed is None:
        seed = np.random.SeedSequence().entropy   # fresh entropy: an int (checked below)
    seed = as_int(seed, "seed", 0, limits.MAX_SEED, error=SimulationError)
    if min_fan is not None:
        min_fan = as_int(min_fan, "min_fan", 0, MAX_MIN_FAN, error=SimulationError)
    record_wins = as_flag(record_wins, "record_wins", error=SimulationError)
    return rs.name, bots, seed, min_fan, record_wins


def _batch_sizes(rounds: Any, batch_size: Any) -> list[int]:
    rounds = as_int(rounds, "rounds", 1, MAX_ROUNDS, error=SimulationError)
    batch_size = as_int(batch_size, "batch_size", 1, limits.MAX_BATCH_SIZE, error=SimulationError)
    batches = -(-rounds // batch_size)
    if batches > MAX_BATCHES:
        raise SimulationError(f"{rounds:,} rounds in batches of {batch_size:,} make {batches:,} batches; at most "
                              f"{MAX_BATCHES:,} are allowed: raise batch_size to {-(-rounds // MAX_BATCHES):,} or more")
    return [batch_size] * (rounds // batch_size) + ([rounds % batch_size] if rounds % batch_size else [])


# the result's type follows the ruleset: each family's statistics are its own (a RunSummary)
@overload
def simulate(ruleset: "MahjongRulesetName | Ruleset" = ..., rounds: Int = 1000, bots: "Sequence[str | Bot] | str | Bot" = ("greedy",),
             seed: Int | None = None, executor: "Executor | Client | str | None" = None, batch_size: Int = 500,
             workers: Int | None = None, progress: "bool | np.bool_ | Callable[[int], object]" = False, min_fan: Int | None = None,
             record_wins: bool = False, n: Int | None = None) -> SimulationResult: ...
@overload
def simulate(ruleset: str, rounds: Int = 1000, bots: "Sequence[str | Bot] | str | Bot" = ("greedy",), seed: Int | None = None,
             executor: "Executor | Client | str | None" = None, batch_size: Int = 500, workers: Int | None = None,
             progress: "bool | np.bool_ | Callable[[int], object]" = False, min_fan: Int | None = None, record_wins: bool = False,
             n: Int | None = None) -> RunSummary: ...
def simulate(
    ruleset: "str | Ruleset" = DEFAULT_RULESET,
    rounds: Int = 1000,
    bots: "Sequence[str | Bot] | str | Bot" = ("greedy",),
    seed: "Int | None" = None,
    executor: "Executor | Client | str | None" = None,
    batch_size: Int = 500,
    workers: Int | None = None,
    progress: bool | np.bool_ | Callable[[int], object] = False,
    min_fan: Int | None = None,
    record_wins: bool = False,
    n: Int | None = None,
) -> RunSummary:
    """Play ``rounds`` rounds between ``bots`` (one per seat, or one for all: bot names such as
    ``"greedy"``, or bot objects) and return the merged statistics.

    ``seed``: ``None`` (default) draws fresh entropy, an int makes the run reproducible; the
    root seed used is ``result.seed`` either way.

    ``workers`` and ``executor``: by default (``workers=None``, ``executor=None``) the run stays
    in this process and starts no pool.  That default is deliberate: a library call must not
    spawn processes behind its caller's back (an embedding server would get surprise
    subprocesses), and under the ``spawn`` start method (macOS, Windows, Linux from Python 3.14)
    a process pool re-imports the caller's ``__main__``, so a script pasted without an
    ``if __name__ == "__main__":`` guard would fail.  ``workers=N`` (N > 1) asks for a local
    process pool of N processes (then the calling script needs that guard); ``workers=1`` is the
    default's in-process run.  ``executor`` takes any ``concurrent.futures.Executor``, a
    ``distributed.Client``, or ``"dask"`` for a local Dask cluster of ``workers`` workers (needs
    the ``mahjong-core[distributed]`` extra).  The result is the same whichever runs it.

    ``n`` is another name of ``rounds`` (give one of them).  The ruleset's family plays the rounds
    and keeps the statistics (its ``Family.simulation`` hooks): a mahjong ruleset gives a
    :class:`~mahjong_core.simulation.stats.SimulationResult`, another family its own
    :class:`~mahjong_core.simulation.stats.RunSummary`, made under the same conventions; a family
    without simulation hooks raises :class:`~mahjong_core.errors.UnsupportedError`.

    ``progress=True`` shows a tqdm bar.  ``record_wins=True`` keeps the score arguments of
    every winning hand (``result.winning_hands``), e.g. to re-score them one by one.  The result
    records how it was made (``result.provenance``: package version, seed, batch size, minimum
    fan, ruleset, bots, workers).
    """
    # every argument is checked before any work starts (no pool, no cluster, no bar yet)
    if n is not None:
        if rounds != 1000 and rounds != n:
            raise SimulationError(f"give rounds or n, not both (rounds={rounds!r}, n={n!r})")
        rounds = n
    hooks = _hooks(family_of(ruleset))   # a family that offers no simulation: refused first, by name
    ruleset, bots, seed, min_fan, record_wins = _check_common(ruleset, bots, seed, min_fan, record_wins)
    sizes = _batch_sizes(rounds, batch_size)
    rounds = sum(sizes)
    batch_size = as_int(batch_size, "batch_size", 1, limits.MAX_BATCH_SIZE, error=SimulationError)
    if workers is not None:
        workers = as_int(workers, "workers", 1, MAX_WORKERS, error=SimulationError)
    _check_executor(executor)
    if not (isinstance(progress, (bool, np.bool_)) or callable(progress)):
        raise SimulationError(f"progress must be True, False or a callable taking a number of rounds, got {progress!r}")
    jobs = [(ruleset, bots, seed, b, n, min_fan, record_wins) for b, n in enumerate(sizes)]
    bar = None
    if progress is True or progress is np.True_:
        bar = progress_bar(rounds)
        tick: Callable[[int], object] = bar.update
    elif callable(progress):
        tick = progress
    else:
        tick = lambda n: None  # noqa: E731
    try:
        parts: "list[RunSummary | None]" = run_jobs(run_batch, jobs, executor=executor, workers=workers,
                                                    done=lambda i: tick(jobs[i][4]))
    finally:
        if bar is not None:
            bar.close()
    result: RunSummary = hooks.result_type(ruleset, _bot_labels(bots), seed=seed, batch_size=batch_size,   # the parts' type
                  min_fan=min_fan, workers=workers)
    for part in parts:
        if part is None:   # pragma: no cover - every batch fills its slot or raises
            raise SimulationError("a batch returned no result")
        result.merge(part)
    return result
