"""Escape (逃跑) detection: the engine is clock-free, the server reports events.

Events: ``"forced_quit"`` (强退 after the hand started; every ruleset),
``"away"`` with the seconds the player has been away, ``"closed_client"`` and
``"disconnect"``.  The room's ``escape_rules`` say which count (spec 5.2-5.5,
OP-7, OP-8): e.g. away longer than the room's limit (90 s), closing the
client, or 3 or more disconnects in one hand.
"""

from __future__ import annotations

from .._validate import as_int
from ..errors import MahjongError
from .rooms import Room, check_seconds, get_room

__all__ = ["EscapeTracker", "EVENTS"]

EVENTS = ("forced_quit", "away", "closed_client", "disconnect")


class EscapeTracker:
    """Per-hand disconnect counters of one table; :meth:`report` says whether an event is an escape.

    ``players`` defaults to the room's table size and must equal it when given.  Not
    thread-safe: one tracker per table, used by the thread that runs the table.
    """

    def __init__(self, room: "str | Room", players: "int | None" = None) -> None:
        self.room = get_room(room)
        seats = self.room.players
        if players is not None and as_int(players, "players", 2) != seats:
            raise MahjongError(f"room {self.room.name!r} plays {self.room.ruleset} with {seats} players, "
                               f"got players={players!r}")
        self.disconnects = [0] * seats

    def new_hand(self) -> None:
        """Disconnects count per hand ("当局游戏进行过程中")."""
        self.disconnects = [0] * len(self.disconnects)

    def report(self, event: str, seat: int, seconds: float = 0.0) -> bool:
        """Record an event for ``seat``; True when it makes that player an escaper."""
        if not isinstance(event, str) or event not in EVENTS:
            raise MahjongError(f"unknown event {event!r}; expected one of {', '.join(EVENTS)}")
        seat = as_int(seat, "seat", 0, len(self.disconnects) - 1)
        away = check_seconds(seconds, "away time")     # checked for every event: a bad value is a caller bug
        rules = self.room.escape_rules
        if event == "forced_quit":
            return "forced_quit" in rules
        if event == "away":
            return "away" in rules and away > self.room.away_limit_s
        if event == "closed_client":
            return "closed_client" in rules
        self.disconnects[seat] += 1
        return "disconnects" in rules and self.disconnects[seat] >= self.room.escape_disconnects
