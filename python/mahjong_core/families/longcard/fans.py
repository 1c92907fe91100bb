"""The fan (番) of a 长牌 win (spec changpai.md, 4.4-4.6, 5.1): sources as data, 五门将 weights, the
breakdown of one decomposition, the cap and the settlement points.

The compiled evaluator (``mahjong_core._lc_hand``) computes the same totals in C to choose the best
decomposition; :func:`fan_breakdown` is the readable form of the rule, used for the :class:`Score`
fan list and by the pure-Python reference, and the parity tests hold the two together.

>>> face_weights(jiang=(15, 15))[15], face_weights(jiang=(15, 15))[0], face_weights(jiang=(14, 9))[14]
(4, 1, 1)
>>> settlement_points(4), settlement_points(4, "fan_cheng_fan")
(5, 16)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from ..._validate import is_int, short_repr
from ...errors import RulesetError, TileParseError
from ...fan import Fan
from .cards import CAISHEN, N_FACES, YDR, face_name, parse_cards
from .groups import Group

__all__ = [
    "FAN_SOURCES",
    "Fan",
    "FanSource",
    "face_weights",
    "fan_breakdown",
    "gaohu",
    "parse_jiang",
    "settlement_points",
    "threshold",
]

BANKER_THRESHOLD = 34
OTHER_THRESHOLD = 33
"""陀 needed to win (and qualify): banker 34, every other player 33 (spec 2.8, 4.1)."""


@dataclass(frozen=True)
class FanSource:
    id: str
    zh: str
    en: str
    per: str
    """What one instance is: a group, a 10-陀 step, a card ..."""


FAN_SOURCES: tuple[FanSource, ...] = (
    FanSource("peng", "碰", "pung or concealed triple of a fan face", "group: w(F) x 1"),
    FanSource("sha", "杀", "sha or unrevealed fire (吐火未响) of a fan face", "group: w(F) x 2"),
    FanSource("xiang", "吐火响", "revealed fire (5 of a kind) of a fan face", "group: w(F) x 3"),
    FanSource("xiang_bonus", "吐火响加番", "revealed fire of another face", "group: 1"),
    FanSource("gaohu", "高胡", "high win: 10 陀 above the threshold", "step: 1"),
    FanSource("duidui", "对对胡", "no 吃 group", "hand: 1"),
    FanSource("caishen", "财神", "caishen card laid out", "card: 1"),
)
"""Every fan source of spec 4.4 (the seed's list of named hands is lost; CP-46)."""
_SOURCE = {s.id: s for s in FAN_SOURCES}
_FACE_FAN = {"peng": ("peng", 1), "kan": ("peng", 1), "sha": ("sha", 2), "tuhuo_weixiang": ("sha", 2),
             "tuhuo_xiang": ("xiang", 3)}
"""Group kind -> (fan source, multiple of w(F))."""


def threshold(banker: bool) -> int:
    return BANKER_THRESHOLD if banker else OTHER_THRESHOLD


def gaohu(tuo: int, banker: bool) -> int:
    """高胡: one fan per full 10 陀 above the threshold (banker 44 -> 1, others 43 -> 1; spec 4.4)."""
    return max(0, (tuo - threshold(banker)) // 10)


def _jiang_face(card: Any, what: str) -> int:
    if isinstance(card, str):
        cards = parse_cards(card)
        if len(cards) != 1:
            raise TileParseError(f"{what} must be one card, got {short_repr(card)}")
        card = cards[0]
    if not is_int(card) or not 0 <= card <= CAISHEN:
        raise TileParseError(f"{what} must be a face 0-20, 21 (财神) or a card string, got {short_repr(card)}")
    return int(card)


def parse_jiang(jiang: Any) -> tuple[int, int] | None:
    """``(J1, J2)`` as the faces they count as (spec 4.5): a 财神 J2 counts as 幺四, a 财神 J1 as J2's
    face (after that substitution).  ``None`` (the 将 cards are not known) stays ``None``."""
    if jiang is None:
        return None
    if isinstance(jiang, str):
        jiang = parse_cards(jiang)
    try:
        j1, j2 = jiang
    except (TypeError, ValueError):
        raise TileParseError(f"jiang must be a pair (J1, J2) of cards, got {short_repr(jiang)}") from None
    j1, j2 = _jiang_face(j1, "J1"), _jiang_face(j2, "J2")
    if j2 == CAISHEN:
        j2 = 3          # "如果底牌为财神，则这个财神相当于幺四"
    if j1 == CAISHEN:
        j1 = j2         # "如果底牌不是财神，起牌为财神则起牌的财神也为底牌" (CP-41)
    return j1, j2


def face_weights(jiang: Any = None, *, wumenjiang: bool = True, wumenjiang_weight: str = "power_of_two") -> list[int]:
    """``w(F)`` of every face (spec 4.5): with 五门将, k = [幺地人] + [= J1] + [= J2] and w = 2^(k-1)
    (0 when k = 0); ``no_upgrade`` keeps w = 1 for a 幺地人 face equal to one 将 card (CP-39).
    Without 五门将 (or with unknown 将 cards) w is 1 for 幺地人 faces, else 0."""
    j = parse_jiang(jiang) if wumenjiang else None
    out = []
    for f in range(N_FACES):
        ydr = f in YDR
        k = int(ydr) + (0 if j is None else int(f == j[0]) + int(f == j[1]))
        w = 0 if k == 0 else 1 << (k - 1)
        if wumenjiang_weight == "no_upgrade" and ydr and k == 2:
            w = 1
        out.append(w)
    return out


def fan_breakdown(groups: Iterable[Group], weights: Sequence[int], tuo: int, banker: bool, caishen: int = 0, *,
                  kan_as_peng: bool = True, xiang_bonus_on_fan_faces: bool = False) -> list[Fan]:
    """The fans of one decomposition (declared and concealed groups together), spec 4.4, before the
    cap: face fan per same-face group, 吐火响 bonus, 高胡 from ``tuo``, 对对胡, 财神."""
    groups = list(groups)
    face: dict[tuple[str, int], int] = {}
    bonus = 0
    for g in groups:
        if g.kind == "chi" or (g.kind == "kan" and not kan_as_peng):
            continue
        src, _ = _FACE_FAN[g.kind]
        w = weights[g.face]
        if w:
            face[(src, g.face)] = face.get((src, g.face), 0) + 1
        if g.kind == "tuhuo_xiang" and (w == 0 or xiang_bonus_on_fan_faces):
            bonus += 1
    out = []
    for (src, f), n in sorted(face.items(), key=lambda kv: (-_FACE_FAN_MULT[kv[0][0]], kv[0][1])):
        s = _SOURCE[src]
        out.append(Fan(src, f"{s.zh}{face_name(f, 'zh')}", f"{s.en}: {face_name(f, 'pips')}",
                       weights[f] * _FACE_FAN_MULT[src], n))
    extra = ((("xiang_bonus", bonus), ("gaohu", gaohu(tuo, banker)),
              ("duidui", int(bool(groups) and all(g.kind != "chi" for g in groups))), ("caishen", caishen)))
    for src, n in extra:
        if n:
            s = _SOURCE[src]
            out.append(Fan(src, s.zh, s.en, 1, n))
    return out


_FACE_FAN_MULT = {"peng": 1, "sha": 2, "xiang": 3}


def settlement_points(fan: int, mode: str = "tikan", base: float = 1) -> int | float:
    """What each other player pays for ``fan`` (capped) fan (spec 5.1): 梯坎番 N + 1, 番乘番 2^N, times ``base``."""
    if not is_int(fan) or not 0 <= fan <= 10_000:
        raise RulesetError(f"fan must be an integer 0-10000, got {short_repr(fan)}")
    if mode == "tikan":
        pts = fan + 1
    elif mode == "fan_cheng_fan":
        pts = 2 ** fan
    else:
        raise RulesetError(f"settlement_mode must be 'tikan' or 'fan_cheng_fan', got {short_repr(mode)}")
    return pts * base if base != 1 else pts
