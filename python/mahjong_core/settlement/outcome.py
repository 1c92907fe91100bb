"""What settlement needs to know about a finished (or aborted) hand."""

from __future__ import annotations

from dataclasses import dataclass

from ..errors import MahjongError

__all__ = ["HandOutcome", "WIN_METHODS"]

WIN_METHODS = ("self_drawn", "discard", "robbing")


@dataclass(frozen=True)
class HandOutcome:
    """The result of one hand, by seat.

    ``winner``/``loser`` are seats; ``loser`` is the discarder (or the player whose
    added kong was robbed), None on a self-drawn win.  ``hand_value`` is F, flowers
    included; ``non_flower_total`` is what the minimum (起和) is checked against.
    An escaped hand has ``escaped`` set and no winner (spec 5.1: no fan settlement).
    """

    players: tuple[str, ...]
    winner: int | None = None
    loser: int | None = None
    method: str | None = None
    hand_value: int = 0
    non_flower_total: int = 0
    escaped: int | None = None
    round: int | None = None

    def __post_init__(self) -> None:
        n = len(self.players)
        if n < 2 or len(set(self.players)) != n:
            raise MahjongError(f"players must be 2 or more distinct account names, got {self.players!r}")
        for name in ("winner", "loser", "escaped"):
            seat = getattr(self, name)
            if seat is not None and not (isinstance(seat, int) and 0 <= seat < n):
                raise MahjongError(f"{name} must be a seat 0-{n - 1}, got {seat!r}")
        if self.escaped is not None:
            if self.winner is not None:
                raise MahjongError("an escaped hand has no winner (it is aborted without fan settlement)")
            return
        if self.winner is None:
            if self.loser is not None or self.method is not None or self.hand_value:
                raise MahjongError("a drawn hand has no loser, method or hand value")
            return
        if self.method not in WIN_METHODS:
            raise MahjongError(f"method must be one of {', '.join(WIN_METHODS)}, got {self.method!r}")
        if self.method == "self_drawn":
            if self.loser is not None:
                raise MahjongError("a self-drawn win has no loser")
        elif self.loser is None or self.loser == self.winner:
            raise MahjongError(f"a {self.method} win needs a loser other than the winner")
        if self.hand_value < self.non_flower_total or self.non_flower_total < 0:
            raise MahjongError("hand_value (F, flowers included) must be >= non_flower_total >= 0")

    @property
    def is_draw(self) -> bool:
        return self.winner is None and self.escaped is None
