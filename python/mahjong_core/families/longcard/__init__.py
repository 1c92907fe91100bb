"""The long-card game 长牌 / 川牌, variant 幺地人 (ruleset ``changpai-ydr``): the hand layer.

Rules: ``docs/rules/changpai-ydr.md``.  21 faces (pip pairs 11 … 66) × 5 copies; a hand wins with 7
groups (坎, X X Y / X Y Y with 14-point partners, three 7s; declared 碰 杀 吐火) and 陀 ≥ 34 (banker)
or 33 (others).  Count arrays are length-21 ``uint8``; 财神 are a separate counter.

The win check, waits and fan run in the compiled core (``mahjong_core._lc_hand``); the pure-Python
reference :mod:`._ref` is the test oracle, and :mod:`.counting` counts 卯 and 陀 for qualification.

>>> from mahjong_core.families import longcard as lc
>>> hand = "46 46 13 16 34 25 14 14 55 55 55"
>>> declared = ["peng 11 11 11", "sha 44×4", "sha 66×4"]
>>> lc.waits(hand, declared=declared)
[3, 14, 16]
>>> s = lc.score(hand, "36", declared=declared, jiang="36 25")
>>> s.total, s.tuo, s.points(), s.points("fan_cheng_fan")
(4, 43, 5, 16)
>>> [(f.name, f.total) for f in s.fans]
[('杀人牌', 2), ('碰地牌', 1), ('高胡', 1)]
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .cards import (
    CAISHEN,
    COPIES,
    FACE_NAMES,
    IS_RED,
    N_FACES,
    PARTNERS,
    PIPS,
    POINTS,
    SEVENS,
    YDR,
    face_glyph,
    face_name,
    format_cards,
    parse_card,
    parse_cards,
    to_counts,
)
from .fans import (
    FAN_SOURCES,
    face_weights,
    gaohu,
    parse_jiang,
    settlement_points,
    threshold,
)
from .groups import KINDS, Group, group_tuo, parse_declared, parse_group
from .options import DEFAULTS, HAND_OPTIONS, OPTIONS, RULESET, check_options
from .result import Score
from .ruleset import CHANGPAI_YDR

# isort: split
from . import family as _family  # noqa: F401 - registers changpai-ydr and the family's callables

if TYPE_CHECKING:   # bound on first use at run time (__getattr__ below)
    from ..._lc_hand import (
        is_win,
        is_win_batch,
        score,
        score_batch,
        wait_scores,
        waits,
        waits_batch,
    )

_COMPILED = ("is_win", "waits", "wait_scores", "score", "is_win_batch", "waits_batch", "score_batch")


def __getattr__(name: str) -> Any:
    """The compiled functions, bound on first use: ``mahjong_core._lc_hand`` imports this package's
    data modules at its own import, so this package must not import it at module level."""
    if name in _COMPILED:
        from ... import _lc_hand
        for n in _COMPILED:
            globals()[n] = getattr(_lc_hand, n)
        return globals()[name]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

__all__ = [
    "CAISHEN",
    "CHANGPAI_YDR",
    "COPIES",
    "DEFAULTS",
    "FACE_NAMES",
    "FAN_SOURCES",
    "HAND_OPTIONS",
    "IS_RED",
    "KINDS",
    "N_FACES",
    "OPTIONS",
    "PARTNERS",
    "PIPS",
    "POINTS",
    "RULESET",
    "SEVENS",
    "YDR",
    "Group",
    "Score",
    "check_options",
    "face_glyph",
    "face_name",
    "face_weights",
    "format_cards",
    "gaohu",
    "group_tuo",
    "is_win",
    "is_win_batch",
    "parse_card",
    "parse_cards",
    "parse_declared",
    "parse_group",
    "parse_jiang",
    "score",
    "score_batch",
    "settlement_points",
    "threshold",
    "to_counts",
    "wait_scores",
    "waits",
    "waits_batch",
]
