"""One counted fan of a score (:class:`Fan`), the row every family's scores list, and what every
family's score offers (:class:`ScoreLike`).

Shared by the families (mahjong's :class:`~mahjong_core.families.mahjong.scoring.Score`, the
long-card :class:`~mahjong_core.families.longcard.result.Score`), so that neither imports the other.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

__all__ = ["Fan", "ScoreLike"]


@dataclass(frozen=True)
class Fan:
    """One counted fan of a :class:`Score`."""

    id: str
    """The spec's snake_case id, e.g. ``"pure_straight"``."""
    zh: str
    """Chinese name, e.g. ``"清龙"`` (the field names of :class:`~mahjong_core.FanDef`)."""
    en: str
    """English name, e.g. ``"Pure Straight"``."""
    points: int
    """Points of one instance."""
    count: int
    """How many times it counts (``per`` fans: 幺九刻, 四归一, 花牌, 一般高 ...)."""

    @property
    def total(self) -> int:
        return self.points * self.count

    @property
    def name(self) -> str:
        """Old name of :attr:`zh` (also the key of the Chinese name in ``to_dict`` and CSV output)."""
        return self.zh

    @property
    def name_en(self) -> str:
        """Old name of :attr:`en` (also the key of the English name in ``to_dict`` and CSV output)."""
        return self.en


class ScoreLike(Protocol):
    """What the score of a winning hand offers in every family (``mj.score``'s result for a ruleset
    named only as a ``str``): its total, its counted fans and a JSON-ready dict."""

    @property
    def total(self) -> int: ...
    @property
    def fans(self) -> list[Fan]: ...
    def to_dict(self) -> dict[str, Any]: ...
