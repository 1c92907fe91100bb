"""A tournament of duplicate deals between bots, for any registered ruleset (:func:`tournament`).

Duplicate deals: every deal is played once per seat, with the dealer rotated through the seats
while the bots keep theirs.  A deal is the same relative to the dealer (the family's match with
``duplicate=True``, :class:`mahjong_core.game.match.Match`), so over a deal each bot plays each
hand of the wall once: the luck of the deal cancels out of the comparison.  With as many bots as
seats these are all the rotations of the seating (for two players both seatings); a four-player
ruleset also takes two bots, seated alternately (a, b, a, b), each then playing each hand twice.

Reproducibility: as :func:`mahjong_core.simulate`, the deals are cut into batches of ``batch_size``;
batch ``b`` plays one duplicate match from ``SeedSequence(seed, spawn_key=(b,))`` (its deal ``g``
the match's wall ``g + 1``) with bots made from the same sequence, so a seed gives the same result
with one worker or many, in this process, a process pool or a Dask cluster
(:func:`mahjong_core.simulation.execution.run_jobs`).
"""

from __future__ import annotations

import copy
from concurrent.futures import Executor
from typing import TYPE_CHECKING, Any, Callable, Sequence

import numpy as np

from .. import limits
from .._types import Int
from .._validate import as_flag, as_int
from ..errors import SimulationError
from ..families.registry import family_of, get_ruleset
from ..game.bots import Bot, play_round
from ..simulation.execution import check_executor, run_jobs
from .stats import TournamentResult

if TYPE_CHECKING:
    from distributed import Client

__all__ = ["tournament", "play_deals", "seating", "MAX_DEALS", "MAX_BOOTSTRAP"]

MAX_DEALS = limits.MAX_ROUNDS // 4
"""Upper bound of a tournament's deals (each plays one round per seat: up to four)."""
MAX_BOOTSTRAP = 10_000
"""Upper bound of the bootstrap resamples of the rating's interval."""


def seating(players: int, entries: int, ruleset: str) -> tuple[int, ...]:
    """The bot (an index into the bots) at each seat: as many bots as seats, one per seat; fewer,
    when their number divides the seats (two bots at a four-player table), seated alternately.
    Anything else is a :class:`~mahjong_core.errors.SimulationError` naming the numbers."""
    if entries < 2 or players % entries:
        counts = [n for n in range(2, players + 1) if players % n == 0]
        raise SimulationError(f"{ruleset} has {players} players: a tournament needs "
                              f"{' or '.join(map(str, counts))} bots, got {entries}")
    return tuple(s % entries for s in range(players))


def _label(bot: "str | Bot") -> str:
    name = bot if isinstance(bot, str) else getattr(type(bot), "name", None)
    return name if isinstance(name, str) else type(bot).__name__


def _labels(bots: Sequence["str | Bot"]) -> tuple[str, ...]:
    """The bots' names in the result: a name, or a bot object's ``name`` (else its class name); a
    name given twice is told apart by ``#2``, ``#3`` ..."""
    out: list[str] = []
    for b in bots:
        base = _label(b)
        label, n = base, 1
        while label in out:
            n += 1
            label = f"{base}#{n}"
        out.append(label)
    return tuple(out)


def _check_bots(bots: Any, ruleset: str) -> "tuple[str | Bot, ...]":
    names = tuple(family_of(ruleset).bots)
    if isinstance(bots, (str, Bot)) or not isinstance(bots, (list, tuple)):
        raise SimulationError(f"bots must be a list of bot names or Bot objects (at least two), got {bots!r}")
    for b in bots:
        if isinstance(b, str):
            if b not in names:
                raise SimulationError(f"unknown bot {b!r} for {ruleset}; expected one of {', '.join(names)} "
                                      "or a Bot object")
        elif not isinstance(b, Bot):
            raise SimulationError(f"unknown bot {b!r}; expected one of {', '.join(names)} or a Bot object")
    return tuple(bots)


def _seat_bots(ruleset: str, bots: "Sequence[str | Bot]", seats: Sequence[int],
               seq: np.random.SeedSequence) -> list[Any]:
    """One bot object per seat: a name made by its family's factory with a seed spawned from the
    batch's sequence (a seat of its own each), an object copied so that no two seats or batches
    share its state."""
    factories = family_of(ruleset).bots
    root = int(seq.spawn(1)[0].generate_state(1, np.uint64)[0])
    out = []
    for s, e in enumerate(seats):
        b = bots[e]
        out.append(factories[b]((root + s) % (limits.MAX_SEED + 1)) if isinstance(b, str) else copy.deepcopy(b))
    return out


def play_deals(ruleset: str, bots: "Sequence[str | Bot]", seats: Sequence[int], seed: int, batch: int,
               first_deal: int, deals: int, record_games: bool = False) -> TournamentResult:
    """Batch ``batch`` of a tournament: ``deals`` duplicate deals (numbered from ``first_deal``), each
    played once per seat with the dealer rotated (the module docstring); ``record_games``: keep a
    record of every round."""
    rs = get_ruleset(ruleset)
    family = family_of(rs)
    players = rs.players
    seq = np.random.SeedSequence(seed, spawn_key=(batch,))
    match_seed = int(seq.generate_state(1, np.uint64)[0])
    seat_bots = _seat_bots(rs.name, bots, seats, seq)
    k = len(bots)
    points = np.zeros((deals, k), np.int64)
    wins = np.zeros((deals, k), np.int64)
    games: list[dict[str, Any]] = []
    # round j of a duplicate match deals the wall of group j // players with dealer j % players
    # (first_dealer 0), whatever the results: unbounded (rounds=None), it never stops early
    match = family.match_type()(rs.name, match_seed, rounds=None, first_dealer=0, duplicate=True)
    for g in range(deals):
        for r in range(players):
            rnd = match.round
            if rnd.dealer != r:   # pragma: no cover - the duplicate match's rule
                raise SimulationError(f"deal {first_deal + g}: rotation {r} dealt by seat {rnd.dealer}")
            res = play_round(rnd, seat_bots)
            deltas = [int(x) for x in (res.deltas or [0] * players)]
            winners = sorted({int(w["seat"]) for w in res.winners})
            for s, e in enumerate(seats):
                points[g, e] += deltas[s]
            for e in {seats[w] for w in winners}:
                wins[g, e] += 1
            if record_games:
                games.append({"deal": first_deal + g, "dealer": r, "end": str(res.end), "winners": winners,
                              "deltas": deltas})
            if g < deals - 1 or r < players - 1:
                match.next_round()
    return TournamentResult(rs.name, _labels(bots), tuple(seats), points, wins, games)


def tournament(
    ruleset: str,
    bots: "Sequence[str | Bot]",
    deals: Int = 100,
    *,
    seed: "Int | None" = None,
    workers: "Int | None" = None,
    executor: "Executor | Client | str | None" = None,
    batch_size: Int = 50,
    bootstrap: Int = 200,
    progress: "bool | np.bool_ | Callable[[int], object]" = False,
    record_games: bool = False,
) -> TournamentResult:
    """Play ``deals`` duplicate deals of ``ruleset`` between ``bots`` and measure them.

    ``bots``: names of the ruleset's family's bots (``"random"``, ``"greedy"``, any name its
    ``Family.bots`` registers) or :class:`~mahjong_core.game.bots.Bot` objects; as many as the
    ruleset's seats, or two at a four-player table (seated alternately).  Each deal is played once
    per seat with the dealer rotated through the seats (module docstring), so every bot plays every
    hand of every wall.

    ``seed`` (None: fresh entropy, recorded in the result), ``workers``, ``executor``,
    ``batch_size`` (deals per batch) and ``progress`` (True: a bar of deals; a callable: called
    with the deals of each finished batch) are those of :func:`mahjong_core.simulate`: by default
    the run stays in this process; the result is the same wherever it runs.  ``bootstrap``: the
    resamples of the rating's interval (0: none; each costs one OpenSkill update per deal, some
    40 µs).  ``record_games=True`` keeps a record of every round in ``result.games`` (its deal,
    dealer, end, winners and points per seat; off by default, so that a long run's memory does not
    grow with its rounds).

    Returns a :class:`~mahjong_core.tournament.stats.TournamentResult`: per bot its rounds, win
    rate, points per round and OpenSkill rating with 95 % intervals, the pairwise differences with
    theirs (its docstring says how each interval is computed), as JSON, CSV and a chart
    (:func:`mahjong_core.tournament.plots.plot_tournament`).  Bad arguments (an unknown bot, the
    wrong number of bots, ``deals`` < 1) are a :class:`~mahjong_core.errors.SimulationError` raised
    before any deal is played.
    """
    rs = get_ruleset(ruleset)
    checked = _check_bots(bots, rs.name)
    seats = seating(rs.players, len(checked), rs.name)
    deals = as_int(deals, "deals", 1, MAX_DEALS, error=SimulationError)
    # no seed: fresh entropy, an int (checked as any seed)
    root: Any = np.random.SeedSequence().entropy if seed is None else seed
    root = as_int(root, "seed", 0, limits.MAX_SEED, error=SimulationError)
    if workers is not None:
        workers = as_int(workers, "workers", 1, limits.MAX_WORKERS, error=SimulationError)
    batch_size = as_int(batch_size, "batch_size", 1, limits.MAX_BATCH_SIZE, error=SimulationError)
    bootstrap = as_int(bootstrap, "bootstrap", 0, MAX_BOOTSTRAP, error=SimulationError)
    check_executor(executor)
    record_games = as_flag(record_games, "record_games", error=SimulationError)
    if not (isinstance(progress, (bool, np.bool_)) or callable(progress)):
        raise SimulationError(f"progress must be True, False or a callable taking a number of deals, got {progress!r}")
    if -(-deals // batch_size) > limits.MAX_BATCHES:
        raise SimulationError(f"{deals:,} deals in batches of {batch_size:,} make too many batches (at most "
                              f"{limits.MAX_BATCHES:,}): raise batch_size")
    from .stats import _model
    _model()   # the rating's library is there (else: the extra to install), before any deal
    jobs = [(rs.name, checked, seats, root, b, first, min(batch_size, deals - first), record_games)
            for b, first in enumerate(range(0, deals, batch_size))]
    bar = None
    tick: Callable[[int], object] = lambda n: None  # noqa: E731
    if progress is True or progress is np.True_:
        from ..simulation.runner import progress_bar
        bar = progress_bar(deals, unit="deal")
        tick = bar.update
    elif callable(progress):
        tick = progress
    try:
        parts: list[TournamentResult] = run_jobs(play_deals, jobs, executor=executor, workers=workers,
                                                 done=lambda i: tick(jobs[i][6]))
    finally:
        if bar is not None:
            bar.close()
    result = parts[0]
    for part in parts[1:]:
        result.merge(part)
    result.seed, result.batch_size, result.workers, result.bootstrap = root, batch_size, workers, bootstrap
    return result
