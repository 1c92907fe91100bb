"""Levels (等级) of seed 004 by a player's 积分, and how 积分 accrues (OP-6)."""

from __future__ import annotations

from dataclasses import dataclass

from .._validate import as_flag, is_int
from ..errors import MahjongError

__all__ = ["Level", "LEVELS", "level_of", "update_score"]


@dataclass(frozen=True)
class Level:
    number: int
    zh: str
    en: str
    threshold: int
    """积分 from which the level holds."""


LEVELS: tuple[Level, ...] = (
    Level(1, "菜鸟", "Rookie", 0),
    Level(2, "生手", "Novice", 100),
    Level(3, "赌客", "Gambler", 200),
    Level(4, "赌棍", "Hustler", 400),
    Level(5, "赌鬼", "Addict", 600),
    Level(6, "老手", "Veteran", 800),
    Level(7, "高人", "Expert", 1_000),
    Level(8, "老千", "Sharper", 2_000),
    Level(9, "千王", "King of Sharpers", 4_000),
    Level(10, "赌王", "King of Gamblers", 6_000),
    Level(11, "赌神", "God of Gamblers", 10_000),
    Level(12, "赌圣", "Saint of Gamblers", 20_000),
    Level(13, "赌仙", "Immortal of Gamblers", 50_000),
    Level(14, "万赌之王", "King of All Gamblers", 100_000),
)


def _points(value: object, what: str) -> int:
    if not is_int(value) or value < 0:
        raise MahjongError(f"{what} must be a non-negative integer, got {value!r}")
    return int(value)


def level_of(points: int) -> Level:
    """The highest level whose threshold is <= ``points`` (spec 5.2).

    >>> level_of(99).zh, level_of(100).zh, level_of(100_000).zh
    ('菜鸟', '生手', '万赌之王')
    """
    points = _points(points, "积分")
    best = LEVELS[0]
    for level in LEVELS:
        if level.threshold <= points:
            best = level
    return best


def update_score(points: int, hand_value: int, won: bool) -> int:
    """OP-6: +F for a win, -F for a loss, never below 0."""
    points = _points(points, "积分")
    hand_value = _points(hand_value, "hand_value")
    won = as_flag(won, "won")
    return points + hand_value if won else max(0, points - hand_value)
