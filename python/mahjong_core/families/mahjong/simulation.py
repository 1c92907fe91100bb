"""The mahjong family's simulation hooks (``Family.simulation``): one batch of rounds between bots
played into a :class:`~mahjong_core.simulation.stats.SimulationResult` (the fan-table statistics),
each won round's points settled under the ruleset's payment rules at one point per fan.

:func:`mahjong_core.simulate` draws the batch's seeds and merges the batches
(:mod:`mahjong_core.simulation.runner`); this module plays one."""

from __future__ import annotations

from typing import Any, Sequence

import numpy as np

from ...errors import SimulationError
from ...game.bots import play_round
from ...settlement.outcome import HandOutcome
from ...settlement.rooms import Room
from ...settlement.settle import hand_payments
from .settlement import unit_room
from ...simulation.stats import SimulationResult
from .match import Match
from .rulesets import get_ruleset

__all__ = ["play_batch"]


def _points(room: Room, players: tuple[str, ...], res: Any, memo: "dict[HandOutcome, np.ndarray] | None" = None) -> np.ndarray:
    """Net points of the round per seat under ``room``'s payment rules (``memo``: a cache for
    one room; the payments depend only on the outcome)."""
    pts = np.zeros(len(players), np.int64)
    if res.draw:
        return pts
    outcome = HandOutcome.from_result(res, players)
    hit = memo.get(outcome) if memo is not None else None
    if hit is not None:
        return hit.copy()
    for payer, payee, amount, _ in hand_payments(room, outcome):
        pts[int(payer)] -= amount
        pts[int(payee)] += amount
    if memo is not None:
        memo[outcome] = pts.copy()
    return pts


def play_batch(ruleset: str, bots: Sequence[Any], match_seed: int, rounds: int, min_fan: int | None,
               record_wins: bool, out: SimulationResult) -> None:
    """Play ``rounds`` rounds as one match from ``match_seed`` (the ruleset's dealer rules) between
    ``bots`` (one object per seat) into ``out``."""
    players = get_ruleset(ruleset).players
    seat_names = tuple(str(s) for s in range(players))
    n_fans = len(get_ruleset(ruleset).fans)
    match = Match(ruleset=ruleset, seed=match_seed, rounds=rounds, min_fan=min_fan)
    room = unit_room(ruleset)
    memo: dict[HandOutcome, np.ndarray] = {}
    while not match.is_over:
        rnd = match.round
        res = play_round(rnd, bots)
        length = rnd.n_discards
        if res.draw:
            out.add_round(winner=None, dealer=res.dealer, method="draw", total=0, fan_counts=None,
                          length=length, points=np.zeros(players, np.int64))
        else:
            if res.score is None or res.method is None:   # pragma: no cover - a won round has both
                raise SimulationError(f"round {match.round_index}: a win without its score")
            counts = np.asarray(res.score.counts, np.int64)
            assert counts.shape == (n_fans,)
            out.add_round(winner=res.winner, dealer=res.dealer, method=res.method, total=res.total,
                          fan_counts=counts, length=length, points=_points(room, seat_names, res, memo))
            if record_wins:
                out.winning_hands.append(res.winners[0]["score_args"])
        match.next_round()
