"""Monte Carlo simulation: rounds between bots, in batches, on any executor.

Reproducibility: batch ``b`` of a run with root seed ``s`` plays a match whose
seed is drawn from ``SeedSequence(s, spawn_key=(b,))``; batches are fixed by
``rounds`` and ``batch_size`` alone, and their counters are added in batch
order.  So the same seed gives the same result with 1 worker or 20, with the
local process pool, a thread pool or a Dask cluster.
"""

from __future__ import annotations

import os
from concurrent.futures import Executor, ProcessPoolExecutor, as_completed
from typing import Any, Callable, Sequence

import numpy as np

from ..errors import SimulationError
from ..fan_tables import fan_table
from ..rulesets import get_ruleset
from ..settlement.outcome import HandOutcome
from ..settlement.rooms import Room
from ..settlement.settle import hand_payments
from .stats import SimulationResult

__all__ = ["simulate", "run_batch", "BOT_NAMES", "SimulationError"]

BOT_NAMES = ("greedy", "random")


def _make_bots(names: Sequence[str], seed_seq: np.random.SeedSequence) -> list:
    from ..game import GreedyBot, RandomBot

    bots = []
    for seat, name in enumerate(names):
        if name == "greedy":
            bots.append(GreedyBot())
        else:
            bots.append(RandomBot(int(seed_seq.spawn(1)[0].generate_state(1, np.uint64)[0]) + seat))
    return bots


def _unit_room(ruleset: str) -> Room:
    """1 point per fan with the ruleset's payment rules (built once per batch)."""
    profile = "public_mcr" if ruleset == "public" else "coins_000"
    return Room("unit", ruleset, profile, value_per_fan=1, min_fan=0)


def _points(room: Room, players: int, res: Any, memo: "dict | None" = None) -> np.ndarray:
    """Net points of the round per seat under ``room``'s payment rules (``memo``: a cache for
    one room; the payments depend only on winner, loser, method and the two totals)."""
    pts = np.zeros(players, np.int64)
    if res.draw:
        return pts
    key = None
    if memo is not None:
        key = (res.winner, res.loser, res.method, res.total, res.score.non_flower_total)
        hit = memo.get(key)
        if hit is not None:
            return hit.copy()
    names = tuple(str(s) for s in range(players))
    outcome = HandOutcome(names, winner=res.winner, loser=res.loser, method=res.method,
                          hand_value=res.total, non_flower_total=res.score.non_flower_total)
    for payer, payee, amount, _ in hand_payments(room, outcome):
        pts[int(payer)] -= amount
        pts[int(payee)] += amount
    if key is not None:
        memo[key] = pts.copy()
    return pts


def run_batch(ruleset: str, bots: Sequence[str], seed: int, batch: int, rounds: int,
              min_fan: int | None = None, record_wins: bool = False) -> SimulationResult:
    """Play ``rounds`` rounds (one match, the ruleset's dealer rules) for batch ``batch`` of a run."""
    from ..game import Match, play_round

    seq = np.random.SeedSequence(seed, spawn_key=(batch,))
    match_seed = int(seq.generate_state(1, np.uint64)[0])
    players = get_ruleset(ruleset).players
    bot_objs = _make_bots(bots, seq)
    out = SimulationResult(ruleset, tuple(bots))
    n_fans = len(fan_table(ruleset))
    match = Match(ruleset, match_seed, rounds=rounds, min_fan=min_fan)
    room = _unit_room(ruleset)
    memo: dict = {}
    while not match.is_over:
        rnd = match.round
        res = play_round(rnd, bot_objs)
        length = rnd.n_discards
        if res.draw:
            out.add_round(winner=None, dealer=res.dealer, method="draw", total=0, fan_counts=None,
                          length=length, points=np.zeros(players, np.int64))
        else:
            counts = np.asarray(res.score._counts, np.int64)
            assert counts.shape == (n_fans,)
            out.add_round(winner=res.winner, dealer=res.dealer, method=res.method, total=res.total,
                          fan_counts=counts, length=length, points=_points(room, players, res, memo))
            if record_wins:
                out.winning_hands.append(res.winners[0]["score_args"])
        match.next_round()
    return out


def _check(ruleset: str, rounds: int, bots: Sequence[str], batch_size: int) -> tuple[str, tuple[str, ...]]:
    rs = get_ruleset(ruleset)
    if isinstance(rounds, bool) or not isinstance(rounds, (int, np.integer)) or rounds <= 0:
        raise SimulationError(f"rounds must be a positive integer, got {rounds!r}")
    if isinstance(batch_size, bool) or not isinstance(batch_size, (int, np.integer)) or batch_size <= 0:
        raise SimulationError(f"batch_size must be a positive integer, got {batch_size!r}")
    bots = tuple(bots)
    if len(bots) == 1:
        bots = bots * rs.players
    if len(bots) != rs.players:
        raise SimulationError(f"{rs.name} has {rs.players} players; got {len(bots)} bots ({', '.join(bots)})")
    unknown = [b for b in bots if b not in BOT_NAMES]
    if unknown:
        raise SimulationError(f"unknown bot {unknown[0]!r}; expected one of {', '.join(BOT_NAMES)}")
    return rs.name, bots


def simulate(
    ruleset: str = "two-player",
    rounds: int = 1000,
    bots: Sequence[str] = ("greedy",),
    seed: int = 0,
    executor: "Executor | str | None" = None,
    batch_size: int = 500,
    workers: int | None = None,
    progress: bool | Callable[[int], None] = False,
    min_fan: int | None = None,
    record_wins: bool = False,
) -> SimulationResult:
    """Play ``rounds`` rounds between ``bots`` (one name per seat, or one for all) and return
    the merged statistics.

    ``executor``: None for a local process pool of ``workers`` processes (default: the
    machine's cores; 1 runs in this process), any ``concurrent.futures.Executor``, a
    ``distributed.Client``, or ``"dask"`` for a local Dask cluster (needs the
    ``mahjong-core[distributed]`` extra).  ``progress=True`` shows a tqdm bar.
    ``record_wins=True`` keeps the score arguments of every winning hand
    (``result.winning_hands``), e.g. to re-score them one by one.
    """
    ruleset, bots = _check(ruleset, rounds, bots, batch_size)
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0:
        raise SimulationError(f"seed must be a non-negative integer, got {seed!r}")
    sizes = [batch_size] * (rounds // batch_size) + ([rounds % batch_size] if rounds % batch_size else [])
    jobs = [(ruleset, bots, int(seed), b, n, min_fan, record_wins) for b, n in enumerate(sizes)]
    bar = None
    if progress is True:
        from tqdm import tqdm

        bar = tqdm(total=rounds, unit="round", smoothing=0.1)
        tick = bar.update
    elif callable(progress):
        tick = progress
    else:
        tick = lambda n: None  # noqa: E731
    parts: list[SimulationResult | None] = [None] * len(jobs)
    own_executor = None
    cluster = None
    try:
        if executor is None and (workers or os.cpu_count() or 1) == 1:
            for i, job in enumerate(jobs):
                parts[i] = run_batch(*job)
                tick(job[4])
        else:
            if executor == "dask":
                from .dask_support import local_client

                cluster, executor = local_client(workers)
            if executor is None:
                own_executor = executor = ProcessPoolExecutor(max_workers=workers or os.cpu_count())
            futures = {executor.submit(run_batch, *job): i for i, job in enumerate(jobs)}
            if type(executor).__module__.split(".")[0] == "distributed":
                from distributed import as_completed as completed   # Dask futures are not stdlib ones
            else:
                completed = as_completed
            for fut in completed(list(futures)):
                i = futures[fut]
                parts[i] = fut.result()
                tick(jobs[i][4])
    finally:
        if bar is not None:
            bar.close()
        if own_executor is not None:
            own_executor.shutdown()
        if cluster is not None:
            executor.close()
            cluster.close()
    result = SimulationResult(ruleset, bots)
    for part in parts:
        result.merge(part)
    return result
