"""``Family.hidden_worlds`` of mahjong: the same round as one seat saw it, on another deal.

The other world keeps every tile the seat saw where it was (its own tiles, every tile shown:
discards, melds, flowers) and permutes the rest among their wall positions: the wall left and
the opponents' concealed tiles.  The same public history is then replayed there in lockstep with
the original.  A seat's view, observation and legal actions must be the same in both worlds
(the conformance suite's ``hidden_information`` check, tests/rl/test_encoding.py); a world that
cannot produce the history the seat saw (its events ``log_for(seat)`` and the public turn: phase and
seats to act) is None: an opponent's claim, 报听 or win needs the tiles he had, or a claim window
opens in one world only.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .actions import PASS
from .constants import PH_CLAIM, PH_ROB
from .wall import Wall, deal_order

__all__ = ["hidden_world", "received_positions", "hidden_positions", "replay_on_wall"]

_WINDOWS = (PH_CLAIM, PH_ROB)
"""The phases where several seats may be asked to answer the same discard (or kong)."""


def received_positions(r: Any, wall: list[int]) -> dict[int, list[int]]:
    """The wall positions of every tile each seat received, in order (deal, then draws): the
    logical wall of the engine (:class:`~.wall.Wall`) with each tile replaced by its position."""
    positions = Wall(list(range(len(wall))))
    got: dict[int, list[int]] = {s: [] for s in range(r.players)}
    for seat in deal_order(r.players, r.dealer):
        got[seat].append(positions.draw_head())
    for ev in r.log:
        if ev["type"] != "draw":
            continue
        src = ev["from"]
        pos = (positions.draw_head() if src == "head" else positions.draw_tail() if src == "tail"
               else positions.draw_die(ev["die"]))
        if wall[pos] != ev["tile"]:
            raise AssertionError("the position replay lost track of a draw")
        got[ev["seat"]].append(pos)
    return got


def hidden_positions(r: Any, observer: int, wall: list[int], state: Any) -> list[int]:
    """Positions of the tiles ``observer`` cannot see now: the untaken wall (flowers excluded:
    they are shown as soon as drawn) and, for each opponent, the copies of each kind still
    concealed -- the last ones received (earlier copies were the ones shown, first in first out)."""
    hidden = [i for i, c in enumerate(state["wall"]["taken"]) if c == "0" and wall[i] < 34]
    got = received_positions(r, wall)
    for o in range(r.players):
        if o == observer:
            continue
        hand = r.hand_counts(o)
        for t in range(34):
            if hand[t]:
                mine = [p for p in got[o] if wall[p] == t]
                hidden += mine[len(mine) - int(hand[t]):]
    return hidden


def replay_on_wall(r: Any, wall: list[int], state: Any, observer: int) -> Any:
    """The same public history on another wall (a round of ``r``'s engine): the original actions
    in order, replayed in lockstep with the original (``ra``); an opponent asked to answer a claim
    only in the other world passes, his pass asked only in the original is dropped.  None when the
    other world cannot produce the history."""
    # both rounds from r's header (seed, dice, options ...) with a scripted wall: the header a seat
    # sees (the wall redacted) is r's
    cls = type(r)
    ra = cls._new_from_header({**r.header, "wall": list(state["wall"]["tiles"])})
    r2 = cls._new_from_header({**r.header, "wall": list(wall)})

    def pass_extras(final: bool) -> bool:
        """Opponents asked in r2's claim window but not in ra's pass: all of them once ra has
        left the window (or at the end), else they may still answer later."""
        while r2.phase in _WINDOWS:
            same = ra.phase == r2.phase
            extras = [s for s in r2.seats_to_act() if not same or s not in ra.seats_to_act()]
            if not extras or (same and not final):
                return True
            if extras[0] == observer or PASS not in r2.legal_indices(extras[0]):
                return False
            r2.step(extras[0], PASS)
        return True

    # the actions as (seat, mask index) in order, read from the log (every engine logs them), the
    # index worked out in the original's replay ``ra`` at the time the action was taken
    for ev in r.log:
        if ev["type"] != "action":
            continue
        seat, i = ev["seat"], ra.action_index(ev["seat"], ev["action"])
        if not pass_extras(False):
            return None
        if seat not in r2.seats_to_act() and seat != observer and i == PASS:
            ra.step(seat, i)
            continue
        if i not in r2.legal_indices(seat):
            return None
        r2.step(seat, i)
        ra.step(seat, i)
    return r2 if pass_extras(True) else None


def hidden_world(r: Any, seat: int, rng: np.random.Generator) -> Any:
    """``Family.hidden_worlds``: ``r`` replayed on a wall where the tiles ``seat`` cannot see now
    are permuted by ``rng`` (a round of the same engine), or None when the other world cannot
    produce the history ``seat`` saw (its events and the public turn)."""
    state = r.to_dict()
    wall = [int(t) for t in state["wall"]["tiles"]]
    hidden = hidden_positions(r, seat, wall, state)
    other = list(wall)
    for p, t in zip(hidden, rng.permutation([wall[p] for p in hidden])):
        other[p] = int(t)
    r2 = replay_on_wall(r, other, state, seat)
    # a world the seat tells apart is no world of its: an opponent may claim there and not here
    # (the claim window the seat sees open or shut), or the other way round
    if r2 is None or r2.log_for(seat) != r.log_for(seat) or \
            (r2.phase, r2.seats_to_act()) != (r.phase, r.seats_to_act()):
        return None
    return r2
