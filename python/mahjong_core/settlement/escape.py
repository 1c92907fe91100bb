"""Escape (逃跑) detection: the engine is clock-free, the server reports events.

Events: ``"forced_quit"`` (强退 after the hand started; every ruleset),
``"away"`` with the seconds the player has been away, ``"closed_client"`` and
``"disconnect"``.  The room's ``escape_rules`` say which count (spec 5.2-5.5,
OP-7, OP-8): in ``two-player-bamboo`` away longer than 90 s, closing the
client, or 3 or more disconnects in one hand.
"""

from __future__ import annotations

from ..errors import MahjongError
from .rooms import Room, get_room

__all__ = ["EscapeTracker", "EVENTS"]

EVENTS = ("forced_quit", "away", "closed_client", "disconnect")


class EscapeTracker:
    """Per-hand disconnect counters; :meth:`report` says whether an event is an escape."""

    def __init__(self, room: "str | Room", players: int) -> None:
        self.room = get_room(room)
        if players < 2:
            raise MahjongError("a table has at least 2 players")
        self.disconnects = [0] * players

    def new_hand(self) -> None:
        """Disconnects count per hand ("当局游戏进行过程中")."""
        self.disconnects = [0] * len(self.disconnects)

    def report(self, event: str, seat: int, seconds: float = 0.0) -> bool:
        """Record an event for ``seat``; True when it makes that player an escaper."""
        if event not in EVENTS:
            raise MahjongError(f"unknown event {event!r}; expected one of {', '.join(EVENTS)}")
        if not (isinstance(seat, int) and 0 <= seat < len(self.disconnects)):
            raise MahjongError(f"seat must be 0-{len(self.disconnects) - 1}, got {seat!r}")
        rules = self.room.escape_rules
        if event == "forced_quit":
            return "forced_quit" in rules
        if event == "away":
            if seconds < 0:
                raise MahjongError(f"away time must be >= 0, got {seconds}")
            return "away" in rules and seconds > self.room.away_limit_s
        if event == "closed_client":
            return "closed_client" in rules
        self.disconnects[seat] += 1
        return "disconnects" in rules and self.disconnects[seat] >= self.room.escape_disconnects
