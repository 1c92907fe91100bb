"""One counted fan of a score: the row every family's scores list (``Score.fans``).

Shared by the families (mahjong's :class:`~mahjong_core.families.mahjong.scoring.Score`, the
long-card :class:`~mahjong_core.families.longcard.result.Score`), so that neither imports the other.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Fan"]


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
