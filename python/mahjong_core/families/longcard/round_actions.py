"""Actions of a 长牌 hand and their fixed ids (spec changpai.md 8.2, CP-59): mask length 259.

=========  ==========================================================================
ids        action
=========  ==========================================================================
0-20       DISCARD(face)
21-251     CHI(a, b): the two held faces a <= b that join the offered card;
           id = 21 + 21a - a(a - 1)/2 + (b - a)
252-258    PENG, SHA, XIANG (吐火响), HU, PASS, QI, FOLD
=========  ==========================================================================

>>> chi_id(0, 0), chi_id(0, 20), chi_id(20, 20), Action.from_id(chi_id(5, 12))
(21, 41, 251, Action(kind='chi', face=None, pair=(5, 12)))
>>> Action.from_id(255).id, str(Action("discard", face=3))
(255, 'discard 14')
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..._validate import is_int, short_repr
from ...errors import IllegalActionError
from . import _constants as _C
from .cards import N_FACES, face_name

__all__ = [
    "ACTION_SIZE", "CHI_BASE", "FOLD", "HU", "KINDS", "PASS", "PENG", "QI", "SHA", "XIANG",
    "Action", "chi_id", "chi_pair",
]

# the action ids of the generated constants (tools/constants/longcard.py), shared with the compiled engine
CHI_BASE = _C.CHI_BASE
PENG, SHA, XIANG, HU, PASS, QI, FOLD = _C.PENG, _C.SHA, _C.XIANG, _C.HU, _C.PASS, _C.QI, _C.FOLD
ACTION_SIZE = _C.N_ACTIONS
_SINGLE = {PENG: "peng", SHA: "sha", XIANG: "xiang", HU: "hu", PASS: "pass", QI: "qi", FOLD: "fold"}
_SINGLE_ID = {v: k for k, v in _SINGLE.items()}
KINDS = ("discard", "chi", *_SINGLE.values())


def chi_id(a: int, b: int) -> int:
    """Action id of CHI with held faces a <= b (spec 8.2)."""
    return CHI_BASE + 21 * a - a * (a - 1) // 2 + (b - a)


_CHI_PAIRS = [(a, b) for a in range(N_FACES) for b in range(a, N_FACES)]
assert [chi_id(a, b) for a, b in _CHI_PAIRS] == list(range(CHI_BASE, PENG))


def chi_pair(i: int) -> tuple[int, int]:
    """The held faces (a, b) of CHI action id ``i``."""
    return _CHI_PAIRS[i - CHI_BASE]


@dataclass(frozen=True)
class Action:
    """One decision: ``kind`` in :data:`KINDS`; ``face`` for a discard, ``pair`` (a <= b) for a 吃."""

    kind: str
    face: int | None = None
    pair: tuple[int, int] | None = None

    @property
    def id(self) -> int:
        if self.kind == "discard":
            return int(self.face)  # type: ignore[arg-type]  # a discard carries a face (from_id builds it; coerce checks _valid first)
        if self.kind == "chi":
            return chi_id(*self.pair)  # type: ignore[misc]  # a chi carries a pair (from_id builds it; coerce checks _valid first)
        return _SINGLE_ID[self.kind]

    @classmethod
    def from_id(cls, i: Any) -> Action:
        """The action of id ``i`` (0-258); anything else is an :class:`IllegalActionError`."""
        if not is_int(i) or not 0 <= i < ACTION_SIZE:
            raise IllegalActionError(f"an action id is an integer 0-{ACTION_SIZE - 1}, got {short_repr(i)}")
        i = int(i)
        if i < CHI_BASE:
            return cls("discard", face=i)
        if i < PENG:
            return cls("chi", pair=chi_pair(i))
        return cls(_SINGLE[i])

    @classmethod
    def coerce(cls, action: Any) -> Action:
        """An :class:`Action` from an Action, its :meth:`to_dict` or an action id."""
        if isinstance(action, dict):
            a = cls.from_id(action.get("id"))
            return a if a.to_dict() == action else _bad(action)
        if isinstance(action, Action):
            return cls.from_id(action.id) if _valid(action) else _bad(action)
        return cls.from_id(action)

    def to_dict(self) -> dict[str, Any]:
        """The action as plain data (the shared views' ``legal_actions``): ``type``, ``id`` and the
        face or the 吃 pair."""
        d: dict[str, Any] = {"type": self.kind, "id": self.id}
        if self.kind == "discard":
            d["face"] = self.face
        elif self.kind == "chi":
            d["pair"] = list(self.pair)  # type: ignore[arg-type]
        return d

    def __str__(self) -> str:
        if self.kind == "discard":
            return f"discard {face_name(self.face, 'pips')}"  # type: ignore[arg-type]  # valid discard has a face
        if self.kind == "chi":
            return f"chi {face_name(self.pair[0], 'pips')} {face_name(self.pair[1], 'pips')}"  # type: ignore[index]  # valid chi has a pair
        return self.kind


def _valid(a: Action) -> bool:
    if a.kind == "discard":
        f = a.face
        return bool(f is not None and is_int(f) and 0 <= f < N_FACES and a.pair is None)
    if a.kind == "chi":
        p = a.pair
        return (a.face is None and isinstance(p, tuple) and len(p) == 2 and all(is_int(x) and 0 <= x < N_FACES for x in p)
                and p[0] <= p[1])
    return a.kind in _SINGLE_ID and a.face is None and a.pair is None


def _bad(a: Any) -> Action:
    raise IllegalActionError(f"not a well-formed long-card action: {short_repr(a)}")
