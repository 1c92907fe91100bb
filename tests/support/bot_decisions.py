"""Decision points of mahjong rounds for the search bots' tests (the flat search bot and ISMCTS):
where a seat has a real choice, where a win is offered, and a twin world of a seat that differs
only in what the seat cannot see."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np
from mahjong_core.families.mahjong._constants import A_WIN
from mahjong_core.families.mahjong.hidden_worlds import hidden_world

import mahjong_core as mj

from .scripts import load_script


def decision_points(ruleset: str, seed: int, every: int = 3) -> Iterator[tuple[Any, int]]:
    """(round, seat) at every ``every``-th decision of a seat with several choices and no win, in
    a round played by greedy bots (the same round object, stepped on after each point): the
    ``every``-th, the ``2 * every``-th, ... of the points bench/bench_decision_time.py walks."""
    points = load_script("bench/bench_decision_time.py").mahjong_points
    return ((rnd, seat) for k, rnd, seat in points(ruleset, seed, 1) if (k + 1) % every == 0)


def two_player_points(ruleset: str, seeds: Any, want: Any) -> Iterator[tuple[Any, int, int]]:
    """(round, seat, opponent) at each decision with a choice (no win offered) of two-player rounds
    of greedy bots where ``want(round, seat, opponent)`` holds (the round stepped on after each)."""
    for seed in seeds:
        rnd = mj.Round(ruleset=ruleset, seed=seed)
        greedy = mj.GreedyBot()
        while not rnd.is_over:
            seat = rnd.seats_to_act()[0]
            legal = rnd.legal_indices(seat)
            if len(legal) > 1 and A_WIN not in legal and want(rnd, seat, 1 - seat):
                yield rnd, seat, 1 - seat
            rnd.step(seat, greedy.act_index(rnd, seat))


def first_offered_win(ruleset: str = "two-player", seed: int = 1) -> tuple[Any, int] | None:
    """(round, seat) at the first decision of a round played by greedy bots where a win is legal,
    or None if the round offers none."""
    rnd = mj.Round(ruleset=ruleset, seed=seed)
    while not rnd.is_over:
        seat = rnd.seats_to_act()[0]
        if A_WIN in rnd.legal_indices(seat):
            return rnd, seat
        rnd.step(seat, mj.GreedyBot().act_index(rnd, seat))
    return None


def hidden_twin(rnd: Any, seat: int, rng: np.random.Generator, tries: int = 6) -> Any:
    """A round whose tiles hidden from ``seat`` are permuted (:func:`hidden_world`), or None when
    ``tries`` permutations all fail to reproduce the seat's history."""
    return next((w for w in (hidden_world(rnd, seat, rng) for _ in range(tries)) if w is not None), None)


def opponents_differ(rnd: Any, other: Any, seat: int) -> bool:
    """Whether some other seat's concealed tiles differ between the two rounds."""
    return any(list(rnd.hand_counts(s)) != list(other.hand_counts(s)) for s in range(rnd.players) if s != seat)
