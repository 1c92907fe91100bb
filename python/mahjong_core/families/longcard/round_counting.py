"""The counting seam of the long-card hand engine: the compiled backend (the default) and the reference.

The engine (:mod:`.round_rules`) and :class:`.round_bots.RuleBot` ask counting three questions: the
*plan* of a seat's cards (卯, T_max and qualification Q, spec 2.6-2.8), F_theo (2.8) and the *group
count* (most disjoint complete groups among the concealed cards and whether every card is in one: the
two-卯 state of 4.7 and the last-卯 rule of 3.5).  ``impl="compiled"`` answers with
``_lc_hand.counting`` / ``theoretical_fan`` / ``group_count``; ``impl="reference"`` with the
pure-Python :func:`.counting.counting_summary` / :func:`.counting.theoretical_fan` and the brute-force
:func:`groups_max` below: the oracle that the lockstep parity test (tests/longcard) holds the compiled
engine against, event for event.

>>> from .round_settings import RoundSettings
>>> hand = [0] * 21; hand[3] = 3
>>> [counting_backend(i).group_count(hand) for i in IMPLS]
[(1, True), (1, True)]
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Any, NamedTuple

import numpy as np

from ... import _lc_hand
from ..._validate import short_repr
from ...errors import MahjongError
from . import counting
from .cards import N_FACES
from .fans import threshold
from .groups import Group, is_chi_group

__all__ = ["IMPLS", "CompiledCounting", "Plan", "ReferenceCounting", "counting_backend", "groups_max"]

IMPLS = ("compiled", "reference")
"""Backends of the engine's counting, the default first."""


class Plan(NamedTuple):
    """The counting of one seat's cards (spec 2.6-2.8)."""
    mao: int
    t_max: int
    qualified: bool


_ALL_TRIPLES = tuple((a, b, c) for a in range(N_FACES) for b in range(a, N_FACES) for c in range(b, N_FACES)
                     if a == c or is_chi_group((a, b, c)))


@lru_cache(maxsize=1 << 16)
def groups_max(counts: tuple[int, ...]) -> tuple[int, bool]:
    """(largest number of disjoint complete 3-card groups, whether every card is in one) of concealed
    counts: the reference of ``_lc_hand.group_count``, by brute force over every 3-card group."""
    low = next((f for f in range(N_FACES) if counts[f]), None)
    if low is None:
        return 0, True
    c = list(counts)
    c[low] -= 1
    best, whole = groups_max(tuple(c))[0], False      # the lowest card left out of every group
    c[low] += 1
    for t in _ALL_TRIPLES:
        if t[0] != low or any(c[f] < t.count(f) for f in set(t)):
            continue
        for f in t:
            c[f] -= 1
        n, w = groups_max(tuple(c))
        for f in t:
            c[f] += 1
        best, whole = max(best, n + 1), whole or w
    return best, whole


def _plan_options(s: Any) -> tuple[tuple[str, Any], ...]:
    """The options the plan reads (spec 6: CP-14, CP-15, CP-23)."""
    return (("mao_bonus", s.mao_bonus), ("tmax_quad_value", s.tmax_quad_value), ("chi_may_use_kan", s.chi_may_use_kan))


@lru_cache(maxsize=1 << 12)
def _reference_plan(hand: tuple[int, ...], groups: tuple[Group, ...], dead: tuple[int, ...], banker: bool,
                    opts: tuple[tuple[str, Any], ...]) -> Plan:
    """:func:`counting.counting_summary` memoised: the engine (qualification at every decision point)
    and the bots ask the same question about the same hand many times."""
    c = counting.counting_summary(np.array(hand, np.uint8), groups, list(dead), banker=banker, **dict(opts))
    return Plan(c.mao, c.t_max, c.qualified)


def _fan_options(s: Any) -> dict[str, Any]:
    """The options F_theo reads (spec 4.4-4.5: CP-12, CP-13, CP-39, the 财神 count)."""
    return {"wumenjiang": s.wumenjiang, "wumenjiang_weight": s.wumenjiang_weight, "kan_as_peng": s.kan_as_peng,
            "xiang_bonus_on_fan_faces": s.xiang_bonus_on_fan_faces, "caishen_count": s.caishen_count}


class ReferenceCounting:
    """The pure-Python oracle: :mod:`.counting` and :func:`groups_max`."""

    name = "reference"

    def plan(self, hand: Sequence[int], groups: Sequence[Group], dead: Sequence[int], banker: bool, s: Any) -> Plan:
        return _reference_plan(tuple(hand), tuple(groups), tuple(dead), banker, _plan_options(s))

    def theoretical_fan(self, hand: Sequence[int], groups: Sequence[Group], dead: Sequence[int], jiang: Any,
                        caishen: int, s: Any) -> int:
        """F_theo of spec 2.8 (CP-42)."""
        return counting.theoretical_fan(np.array(hand, np.uint8), groups, list(dead), jiang=jiang, caishen=caishen,
                                        **_fan_options(s))

    def group_count(self, hand: Sequence[int]) -> tuple[int, bool]:
        return groups_max(tuple(hand))


class CompiledCounting:
    """The compiled hand layer: ``_lc_hand.counting`` and ``_lc_hand.group_count`` over count arrays."""

    name = "compiled"
    _THRESHOLD = (threshold(False), threshold(True))

    def plan(self, hand: Sequence[int], groups: Sequence[Group], dead: Sequence[int], banker: bool, s: Any) -> Plan:
        m, t = _lc_hand.counting(bytes(hand), groups, bytes(dead), mao_bonus=s.mao_bonus,
                                 tmax_quad_value=s.tmax_quad_value, chi_may_use_kan=s.chi_may_use_kan)
        return Plan(m, t, m >= 7 and t >= self._THRESHOLD[banker])

    def group_count(self, hand: Sequence[int]) -> tuple[int, bool]:
        return _lc_hand.group_count(bytes(hand))

    def theoretical_fan(self, hand: Sequence[int], groups: Sequence[Group], dead: Sequence[int], jiang: Any,
                        caishen: int, s: Any) -> int:
        return _lc_hand.theoretical_fan(bytes(hand), groups, bytes(dead), jiang=jiang, caishen=caishen,
                                        **_fan_options(s))


_BACKENDS: dict[str, CompiledCounting | ReferenceCounting] = {"compiled": CompiledCounting(),
                                                                "reference": ReferenceCounting()}


def counting_backend(impl: Any) -> CompiledCounting | ReferenceCounting:
    """The backend named ``impl`` (one of :data:`IMPLS`)."""
    found = _BACKENDS.get(impl) if isinstance(impl, str) else None
    if found is None:
        raise MahjongError(f"impl must be one of {', '.join(IMPLS)}, got {short_repr(impl)}")
    return found
