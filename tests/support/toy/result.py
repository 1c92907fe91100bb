"""The race's finished round: the common fields of :class:`mahjong_core.game.contract.Result`."""

from __future__ import annotations

from typing import Any

from mahjong_core.game import contract

__all__ = ["RaceResult"]


class RaceResult(contract.Result):
    """A race always ends with one winner (``end`` is ``"win"``), who deals next; ``deltas``: the
    winner takes one point from every other seat.  Built from its dict (``RESULT_TYPE(d)``)."""

    __slots__ = ("_d",)

    def __init__(self, d: dict[str, Any]) -> None:
        self._d = d

    def to_dict(self) -> dict[str, Any]:
        return self._d

    @property
    def end(self) -> str:
        return "win"

    @property
    def winners(self) -> list[dict[str, Any]]:
        return [{"seat": self._d["winner"], "total": 1}]

    @property
    def deltas(self) -> list[int]:
        return list(self._d["deltas"])

    @property
    def dealer(self) -> int:
        return int(self._d["dealer"])

    @property
    def next_dealer(self) -> int:
        return int(self._d["next_dealer"])
