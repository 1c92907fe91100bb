"""Groups of 长牌 and their 陀 (spec changpai.md, 2.1-2.2, 8.1), and declared-group notation.

A group is three cards that complete a 卯 (``X X X`` 坎/碰, ``X X Y`` / ``X Y Y`` with Y a 14-point
partner of X, any three 7s), or the 4- and 5-card groups 杀, 吐火未响, 吐火响.  Declared groups are
written ``"peng 66 66 66"``, ``"sha 44×4"``, ``"chi 46 46 13"``, ``"tuhuo_xiang 56×5"`` (kinds of spec
8.1; the Chinese kind names 碰 坎 吃 杀 吐火未响 吐火响 are read too) or as ``(kind, cards)`` pairs.

>>> parse_group("peng 66 66 66")
Group(kind='peng', cards=(20, 20, 20))
>>> group_tuo("chi", (18, 18, 2)), group_tuo("sha", (15,) * 4), group_tuo("tuhuo_xiang", (19,) * 5)
(1, 12, 8)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..._validate import bounded_items, short_repr
from ...errors import TileCountError, TileParseError
from .cards import (
    CAISHEN,
    COPIES,
    IS_RED,
    N_FACES,
    PARTNERS,
    SEVENS,
    face_name,
    parse_cards,
)

__all__ = [
    "KINDS",
    "KIND_CODES",
    "MAX_DECLARED",
    "Group",
    "group_tuo",
    "is_chi_group",
    "parse_declared",
    "parse_group",
]

KINDS = ("peng", "kan", "chi", "sha", "tuhuo_weixiang", "tuhuo_xiang")
"""Group kinds of spec 8.1, in the order of their codes."""
KIND_CODES = {k: i for i, k in enumerate(KINDS)}
_KIND_ALIASES = {"碰": "peng", "坎": "kan", "吃": "chi", "杀": "sha", "吐火未响": "tuhuo_weixiang",
                 "未响": "tuhuo_weixiang", "吐火响": "tuhuo_xiang", "响": "tuhuo_xiang",
                 "weixiang": "tuhuo_weixiang", "xiang": "tuhuo_xiang"}
_SIZE = {"peng": 3, "kan": 3, "chi": 3, "sha": 4, "tuhuo_weixiang": 4, "tuhuo_xiang": 5}
_SAME_FACE_TUO = {3: 4, 4: 6, 5: 8}
"""陀 of a black 碰/坎 (3), 杀/吐火未响 (4), 吐火响 (5); a red face doubles it (spec 2.2)."""
MAX_DECLARED = 7
"""A winning hand has 7 groups, so at most 7 are declared."""


@dataclass(frozen=True)
class Group:
    kind: str
    """One of :data:`KINDS`."""
    cards: tuple[int, ...]
    """Face ids, sorted."""

    @property
    def face(self) -> int:
        """The face of a same-face group (every kind but ``chi``)."""
        return self.cards[0]

    @property
    def tuo(self) -> int:
        return group_tuo(self.kind, self.cards)

    def __str__(self) -> str:
        return f"{self.kind} {' '.join(face_name(c, 'pips') for c in self.cards)}"


def is_chi_group(cards: Sequence[int]) -> bool:
    """Three sorted faces forming a 吃 group: X X Y / X Y Y with Y a partner of X, or three 7s."""
    if len(cards) != 3:
        return False
    a, b, c = cards
    if a == b == c:
        return False
    if a == b:
        return c in PARTNERS[a]
    if b == c:
        return a in PARTNERS[b]
    return a in SEVENS and b in SEVENS and c in SEVENS


def group_tuo(kind: str, cards: Sequence[int]) -> int:
    """陀 of a group (spec 2.2): 碰/坎 4 / 8, 杀/吐火未响 6 / 12, 吐火响 8 / 16 (black / red face);
    a 吃 group 1 per red card."""
    if kind == "chi":
        return sum(IS_RED[c] for c in cards)
    return _SAME_FACE_TUO[_SIZE[kind]] * (1 + IS_RED[cards[0]])


_VALID: dict[Group, Group] = {}
"""Every :class:`Group` that :func:`parse_group` accepted, by itself: the engine passes the same groups
again and again.  Only valid groups enter, and there are a few hundred, so it stays small."""


def parse_group(group: Any) -> Group:
    """One declared group from ``"kind cards"`` or ``(kind, cards)``; the cards must form the kind."""
    if type(group) is Group and type(group.cards) is tuple:      # a list of cards would not hash
        found = _VALID.get(group)
        if found is not None:
            return found
    if isinstance(group, Group):
        kind, cards = group.kind, list(group.cards)
    elif isinstance(group, str):
        kind, _, rest = group.strip().partition(" ")
        cards = parse_cards(rest)
    else:
        try:
            kind, raw = group
        except (TypeError, ValueError):
            raise TileParseError(f"a declared group is a string like 'peng 66 66 66' or a (kind, cards) pair, "
                                 f"got {short_repr(group)}") from None
        cards = parse_cards(raw)
    if not isinstance(kind, str):
        raise TileParseError(f"group kind must be a string, got {short_repr(kind)}")
    kind = _KIND_ALIASES.get(kind, kind).lower()
    kind = _KIND_ALIASES.get(kind, kind)
    if kind not in _SIZE:
        raise TileParseError(f"unknown group kind {short_repr(kind)} in {short_repr(group)}; "
                             f"expected one of {', '.join(KINDS)}")
    if CAISHEN in cards:
        raise TileParseError(f"a 财神 is never part of a group: {short_repr(group)}")
    cards = sorted(cards)
    size = _SIZE[kind]
    if len(cards) != size:
        raise TileParseError(f"{kind} {short_repr(group)} must have {size} cards, got {len(cards)}")
    if kind == "chi":
        if not is_chi_group(cards):
            raise TileParseError(f"chi {short_repr(group)} is not a 吃 group (X X Y or X Y Y with Y a 14-point "
                                 "partner of X, or three 7s)")
    elif len(set(cards)) != 1:
        raise TileParseError(f"{kind} {short_repr(group)} must be {size} cards of one face")
    out = Group(kind, tuple(cards))
    _VALID[out] = out
    return out


def parse_declared(declared: Any) -> tuple[Group, ...]:
    """Every declared group; refuses a bare string, an 8th group and more than 5 copies of a face."""
    if declared is None:
        return ()
    out = bounded_items(declared, MAX_DECLARED, parse_group, error=TileParseError, too_many_error=TileCountError,
                        string="declared must be a list of groups such as ['peng 66 66 66'], got {}",
                        not_a_list="declared must be a list of groups, got {}",
                        too_many=f"more than {MAX_DECLARED} declared groups in {{}}")
    counts = [0] * N_FACES
    for g in out:
        for c in g.cards:
            counts[c] += 1
    for f, n in enumerate(counts):
        if n > COPIES:
            raise TileCountError(f"the declared groups hold {n} copies of {face_name(f, 'pips')}; the deck holds 5")
    return tuple(out)
