"""Counting for qualification (spec changpai.md 2.4-2.8) and the 包子 fan basis (5.3).

A player's concealed cards are split into *units* (spec 2.6: U5, U4, U3s 坎, U3c 吃 group, U2p pair,
U2c complement pair; 2-card units only when *effective*, 2.5).  ``mao`` is the largest number of
卯 over all plans (declared groups + units + the bonus for a 坎 / 吐火未响 that can still grow),
``t_max`` the largest theoretical 陀 of a plan of at most 7 groups (2.7).  Both come from one
memoised search over the non-fixed cards (faces held 4-5 times, and 3 times unless
``chi_may_use_kan``, are whole units that are only taken or left, CP-15, CP-23).

``dead`` is the number of copies of each face that are dead *outside the player's own declared
groups* (every 堂子, the other players' declared groups); the player's own declared groups are added
here, so ``live[f] = 5 - concealed[f] - own declared[f] - dead[f]`` (2.4).

This module is the plain-Python oracle of the plan: the round engine and its bots count through the
compiled ``_lc_hand.counting`` (by default, :mod:`.round_counting`), which the parity tests hold
against :func:`counting_summary`.

>>> c = counting_summary("44 44 44 14 14 55 55 16 34 56 12 23 26 35 46 11 25", declared=["peng 66×3"])
>>> c.mao, c.t_max, c.qualified
(7, 37, True)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

import numpy as np

from ..._validate import short_repr
from ...errors import ArrayShapeError, TileCountError
from .cards import COPIES, IS_RED, N_FACES, PARTNERS, SEVENS, face_name, to_counts
from .fans import face_weights, fan_breakdown, threshold
from .groups import Group, group_tuo, is_chi_group, parse_declared
from .options import check_value

__all__ = [
    "CountingSummary",
    "baozi_fan",
    "counting_summary",
    "held_fan",
    "is_effective",
    "live_counts",
    "mao",
    "qualified",
    "t_max",
    "theoretical_fan",
]

_MAX_GROUPS = 7
_FACE_FAN_IDS = ("peng", "sha", "xiang", "xiang_bonus")
_WAIT_KEYS = ("wumenjiang", "wumenjiang_weight", "xiang_bonus_on_fan_faces", "fan_cap", "kan_as_peng",
              "win_split_kan", "all_black_waives_tuo", "caishen_count")


def _hand_data(hand: Any, declared: Any, dead: Any) -> tuple[list[int], tuple[Group, ...], list[int]]:
    """Concealed counts, declared groups and live counts, checked against the deck."""
    counts = [int(v) for v in to_counts(hand)]
    groups = parse_declared(declared)
    dead_arr = [0] * N_FACES if dead is None else _dead_counts(dead)
    own = [0] * N_FACES
    for g in groups:
        for c in g.cards:
            own[c] += 1
    live = []
    for f in range(N_FACES):
        lv = COPIES - counts[f] - own[f] - dead_arr[f]
        if lv < 0:
            raise TileCountError(f"{face_name(f, 'pips')}: {counts[f]} concealed + {own[f]} declared + "
                                 f"{dead_arr[f]} dead copies; the deck holds 5")
        live.append(lv)
    return counts, groups, live


def _dead_counts(dead: Any) -> list[int]:
    """``dead`` as 21 counts: a card string, or a length-21 sequence / array of counts 0-5."""
    if isinstance(dead, str):
        return [int(v) for v in to_counts(dead, "dead")]
    try:
        arr = np.asarray(dead)
    except (TypeError, ValueError):
        arr = None
    if arr is None or arr.shape != (N_FACES,) or not np.issubdtype(arr.dtype, np.integer):
        raise ArrayShapeError(f"dead must be a card string or 21 integer counts, got {short_repr(dead)}")
    return [int(v) for v in to_counts(arr, "dead")]


def live_counts(hand: Any, declared: Any = None, dead: Any = None) -> list[int]:
    """``live[f]``: copies of each face the player may still obtain (spec 2.4)."""
    return _hand_data(hand, declared, dead)[2]


def is_effective(a: int, b: int, live: Sequence[int]) -> bool:
    """A 2-card 卯 (a, b) that can still be completed by 吃 or 碰 (spec 2.5)."""
    if a == b:
        return live[a] >= 1 or any(live[y] >= 1 for y in PARTNERS[a])
    if b not in PARTNERS[a]:
        return False
    if live[a] >= 1 or live[b] >= 1:
        return True
    return a in SEVENS and b in SEVENS and any(live[z] >= 1 for z in SEVENS if z not in (a, b))


def _same_face_value(f: int, size: int) -> int:
    return group_tuo({3: "peng", 4: "sha", 5: "tuhuo_xiang"}[size], (f,) * size)


def _pair_value(a: int, b: int, live: Sequence[int]) -> int:
    """Theoretical 陀 of an effective 2-card 卯 (spec 2.7)."""
    if a == b:
        if live[a] >= 1:
            return _same_face_value(a, 3)
        return max(2 * IS_RED[a] + IS_RED[y] for y in PARTNERS[a] if live[y] >= 1)
    completers = [a, b] + ([z for z in SEVENS if z not in (a, b)] if a in SEVENS and b in SEVENS else [])
    return IS_RED[a] + IS_RED[b] + max(IS_RED[z] for z in completers if live[z] >= 1)


_CHI_BY_LOW: tuple[tuple[tuple[int, int, int], ...], ...] = tuple(
    tuple((f, y, z) for y in range(f, N_FACES) for z in range(y, N_FACES) if is_chi_group((f, y, z)))
    for f in range(N_FACES))
"""Every 吃 group (sorted faces) by its lowest face: the search tries them in this order."""


@dataclass(frozen=True)
class _Unit:
    mao: int     # 卯 it adds: 1 + its bonus
    value: int   # its theoretical 陀


def _bonus(size: int, live_f: int, mode: str) -> int:
    """Bonus 卯 of a 坎 (size 3) or 吐火未响 (size 4) unit (CP-15); U5 units never give one."""
    if mode == "off" or size == 5:
        return 0
    if mode == "s1":
        return 1 if size == 3 else 2
    if mode == "any":
        return 1
    return int(live_f >= 1)


def _whole_unit(f: int, size: int, live: Sequence[int], o: dict[str, Any]) -> _Unit:
    """A 坎, held 4 or 5 of a kind, or a declared 吐火未响 (size 4), valued as in 2.7."""
    lv = live[f]
    if size == 5:
        value = _same_face_value(f, 5)
    elif size == 4:
        value = _same_face_value(f, 5 if lv >= 1 and o["tmax_quad_value"] == "xiang" else 4)
    else:
        value = _same_face_value(f, 4 if lv >= 1 else 3)
    return _Unit(1 + _bonus(size, lv, o["mao_bonus"]), value)


def _pool_search(pool: tuple[int, ...], live: tuple[int, ...], o_key: tuple[str, bool]) -> tuple[int, tuple[int, ...]]:
    """(best 卯, best 陀 with at most k units for k = 0..7) over the cards that may form any unit."""
    mao_bonus, _ = o_key

    @cache
    def rec(c: tuple[int, ...]) -> tuple[int, tuple[int, ...]]:
        f = next((i for i in range(N_FACES) if c[i]), None)
        if f is None:
            return 0, (0,) * (_MAX_GROUPS + 1)
        options: list[tuple[tuple[int, ...], int, int]] = []   # (cards used, mao, value)
        lst = list(c)
        if c[f] >= 3:   # only with chi_may_use_kan: a held triple inside the pool is still a 坎 unit
            options.append(((f, f, f), 1 + _bonus(3, live[f], mao_bonus), _same_face_value(f, 4 if live[f] else 3)))
        for t in _CHI_BY_LOW[f]:
            if all(lst[k] >= t.count(k) for k in set(t)):
                options.append((t, 1, group_tuo("chi", t)))
        for y in range(f, N_FACES):
            pair = (f, y)
            if (y == f and c[f] >= 2 or y != f and c[y] >= 1) and (y == f or y in PARTNERS[f]) \
                    and is_effective(f, y, live):
                options.append((pair, 1, _pair_value(f, y, live)))
        lst[f] -= 1
        best_mao, kept_val = rec(tuple(lst))            # this card of f stays single
        best_val = list(kept_val)
        lst[f] += 1
        for cards, m, v in options:
            for k in cards:
                lst[k] -= 1
            sub_mao, sub_val = rec(tuple(lst))
            for k in cards:
                lst[k] += 1
            best_mao = max(best_mao, m + sub_mao)
            for k in range(1, _MAX_GROUPS + 1):
                best_val[k] = max(best_val[k], v + sub_val[k - 1])
        return best_mao, tuple(best_val)

    return rec(pool)


def _plan(counts: list[int], groups: tuple[Group, ...], live: list[int], o: dict[str, Any]) -> tuple[int, int]:
    """(mao, t_max) of spec 2.6-2.7."""
    forced = [_whole_unit(g.face, 4, live, o) for g in groups if g.kind == "tuhuo_weixiang"]
    laid = [g for g in groups if g.kind != "tuhuo_weixiang"]
    whole, pool = [], list(counts)
    for f in range(N_FACES):
        if counts[f] >= 4 or (counts[f] == 3 and not o["chi_may_use_kan"]):
            whole.append(_whole_unit(f, counts[f], live, o))
            pool[f] = 0
    pool_mao, pool_val = _pool_search(tuple(pool), tuple(live), (o["mao_bonus"], o["chi_may_use_kan"]))
    mao = len(laid) + sum(u.mao for u in forced) + sum(u.mao for u in whole) + pool_mao
    room = max(0, _MAX_GROUPS - len(laid) - len(forced))
    best_pool = [max(pool_val[:k + 1]) for k in range(_MAX_GROUPS + 1)]
    values = sorted((u.value for u in whole), reverse=True)
    best = max(sum(values[:m]) + best_pool[room - m] for m in range(min(room, len(values)) + 1))
    t = sum(g.tuo for g in laid) + sum(u.value for u in forced) + best
    return mao, t


def _options(options: dict[str, Any]) -> dict[str, Any]:
    o = {"mao_bonus": "live", "tmax_quad_value": "xiang", "chi_may_use_kan": False, "kan_as_peng": True,
         "xiang_bonus_on_fan_faces": False, "held_fan_includes_kan": True, "wumenjiang": True,
         "wumenjiang_weight": "power_of_two", "fan_cap": 0, "caishen_count": 5, "win_split_kan": True,
         "all_black_waives_tuo": False}
    for k, v in options.items():
        if k not in o:
            check_value(k, v)      # a known key that counting does not read passes; an unknown one raises
            continue
        o[k] = check_value(k, v)
    return o


def mao(hand: Any, declared: Any = None, dead: Any = None, **options: Any) -> int:
    """The player's 卯 (spec 2.6): the requirement is ``mao >= 7``."""
    counts, groups, live = _hand_data(hand, declared, dead)
    return _plan(counts, groups, live, _options(options))[0]


def t_max(hand: Any, declared: Any = None, dead: Any = None, **options: Any) -> int:
    """The theoretical maximum 陀 (spec 2.7)."""
    counts, groups, live = _hand_data(hand, declared, dead)
    return _plan(counts, groups, live, _options(options))[1]


def qualified(hand: Any, declared: Any = None, dead: Any = None, *, banker: bool = False, **options: Any) -> bool:
    """``Q(p)``: 7 卯 and T_max >= 34 (banker) / 33 (spec 2.8)."""
    m, t = _plan(*_hand_data(hand, declared, dead), _options(options))
    return m >= 7 and t >= threshold(banker)


def _caishen(caishen: Any, o: dict[str, Any]) -> int:
    if isinstance(caishen, bool) or not isinstance(caishen, (int, np.integer)) or not 0 <= caishen <= o["caishen_count"]:
        raise TileCountError(f"caishen must be an integer 0-{o['caishen_count']}, got {short_repr(caishen)}")
    return int(caishen)


def _face_fan(groups: list[Group], weights: list[int], o: dict[str, Any]) -> int:
    fans = fan_breakdown(groups, weights, 0, False, 0, kan_as_peng=o["kan_as_peng"],
                         xiang_bonus_on_fan_faces=o["xiang_bonus_on_fan_faces"])
    return sum(f.total for f in fans if f.id in _FACE_FAN_IDS)


def theoretical_fan(hand: Any, declared: Any = None, dead: Any = None, *, jiang: Any = None, caishen: int = 0,
                    **options: Any) -> int:
    """``F_theo`` (spec 2.8, CP-42): the fan of the optimistic completion, without 高胡 and 对对胡."""
    counts, groups, live = _hand_data(hand, declared, dead)
    o = _options(options)
    w = face_weights(jiang, wumenjiang=o["wumenjiang"], wumenjiang_weight=o["wumenjiang_weight"])
    completed = []
    for g in groups:
        grows = g.kind == "tuhuo_weixiang" and live[g.face] >= 1
        completed.append(Group("tuhuo_xiang", (g.face,) * 5) if grows else g)
    for f in range(N_FACES):
        n, lv = counts[f], live[f]
        if n == 2 and w[f] and lv >= 1:
            completed.append(Group("peng", (f,) * 3))
        elif n == 3:
            completed.append(Group("sha", (f,) * 4) if lv >= 1 else Group("kan", (f,) * 3))
        elif n == 4:
            completed.append(Group("tuhuo_xiang", (f,) * 5) if lv >= 1 else Group("tuhuo_weixiang", (f,) * 4))
        elif n == 5:
            completed.append(Group("tuhuo_xiang", (f,) * 5))
    return _face_fan(completed, w, o) + _caishen(caishen, o)


def held_fan(hand: Any, declared: Any = None, *, jiang: Any = None, caishen: int = 0, **options: Any) -> int:
    """``H`` (spec 2.8, CP-34): face fan of the declared groups and of the concealed 坎 (a face held 3+
    times, with ``held_fan_includes_kan``), 吐火响 bonuses and 财神; no completion."""
    counts, groups, _ = _hand_data(hand, declared, None)
    o = _options(options)
    w = face_weights(jiang, wumenjiang=o["wumenjiang"], wumenjiang_weight=o["wumenjiang_weight"])
    held = list(groups)
    if o["held_fan_includes_kan"]:
        held += [Group("kan", (f,) * 3) for f in range(N_FACES) if counts[f] >= 3]
    return _face_fan(held, w, o) + _caishen(caishen, o)


def baozi_fan(hand: Any, declared: Any = None, *, banker: bool = False, jiang: Any = None, caishen: int = 0,
              **options: Any) -> int:
    """The fan a 包子 offender pays on (spec 5.3), after the cap: ``max(3, best_win)`` when ready
    (hand = 20 - 3 x declared concealed cards), else ``max(3, H)``."""
    from ... import _lc_hand
    o = _options(options)
    waits = _lc_hand.wait_scores(hand, declared=declared, banker=banker, jiang=jiang, caishen=caishen,
                                 **{k: o[k] for k in _WAIT_KEYS})
    basis = max(fan for fan, _ in waits.values()) if waits else held_fan(hand, declared, jiang=jiang,
                                                                          caishen=caishen, **options)
    n = max(3, basis)
    return min(n, o["fan_cap"]) if o["fan_cap"] else n


@dataclass(frozen=True)
class CountingSummary:
    mao: int
    t_max: int
    threshold: int
    qualified: bool
    live: tuple[int, ...]


def counting_summary(hand: Any, declared: Any = None, dead: Any = None, *, banker: bool = False,
                     **options: Any) -> CountingSummary:
    """卯, T_max, threshold, qualification and live counts in one pass."""
    counts, groups, live = _hand_data(hand, declared, dead)
    m, t = _plan(counts, groups, live, _options(options))
    thr = threshold(banker)
    return CountingSummary(m, t, thr, m >= 7 and t >= thr, tuple(live))
