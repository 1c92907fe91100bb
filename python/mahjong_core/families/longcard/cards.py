"""Cards of the long-card game 长牌 (spec changpai.md, section 1): the 21 faces as data, and notation.

A face is an unordered pip pair (a, b), 1 <= a <= b <= 6, indexed in lexicographic order
(spec 1.1, CP-50): ``index(a, b) = (a - 1)(14 - a) / 2 + (b - a)``, so 0 = 11 地牌 ... 20 = 66 天牌.
Card kind 21 is a 财神, which is not a face and never enters a count array (spec 1.2).
A hand is a length-21 ``uint8`` count array indexed by face.

Notation (spec 0.3, 8.1): two pip digits, smaller first (``11 66 44 16``; the larger-first order is
read too), ``CS`` for a 财神, the Chinese face names of 1.1 (天牌 地牌 人牌 和牌 长三 高脚七 …, with the
nicknames in brackets there: 高脚 幺六 板凳 …), the Unicode domino glyphs (🁣 … 🂓), and ``×n`` after a
card for n copies (``55×3``).

>>> parse_cards("11 66 44×2 高脚七 CS")
[0, 20, 15, 15, 5, 21]
>>> format_cards([0, 20, 5]), format_cards([0, 20, 5], style="zh")
('11 66 16', '地牌 天牌 高脚七')
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any, cast

import numpy as np

from ..._validate import is_int, short_repr
from ...errors import TileCountError, TileParseError
from . import _constants as _C

__all__ = [
    "CAISHEN",
    "COPIES",
    "FACE_NAMES",
    "IS_RED",
    "N_FACES",
    "PARTNERS",
    "PIPS",
    "POINTS",
    "RED_PIPS",
    "SEVENS",
    "YDR",
    "face_glyph",
    "face_index",
    "face_name",
    "format_cards",
    "parse_card",
    "parse_cards",
    "to_counts",
]

N_FACES = _C.N_FACES
"""Number of faces; the length of a count array."""
COPIES = _C.COPIES
"""Copies of each face in the 105-card deck (spec 1.2)."""
CAISHEN = _C.CAISHEN
"""Card kind id of a 财神 (spec 8.1); never an index into a count array."""


def face_index(a: int, b: int) -> int:
    """Face index of the pip pair (a, b), either order (spec 1.1)."""
    a, b = min(a, b), max(a, b)
    return (a - 1) * (14 - a) // 2 + (b - a)


PIPS: tuple[tuple[int, int], ...] = tuple((a, b) for a in range(1, 7) for b in range(a, 7))
"""``PIPS[f]`` = the two pip halves of face f, smaller first."""
assert all(face_index(a, b) == f for f, (a, b) in enumerate(PIPS)) and len(PIPS) == N_FACES

POINTS: tuple[int, ...] = tuple(a + b for a, b in PIPS)
"""Points of each face = a + b (spec 1.1)."""
RED_PIPS: tuple[int, ...] = tuple(sum(p for p in (a, b) if p in (1, 4)) + (6 if (a, b) == (6, 6) else 0)
                                  for a, b in PIPS)
"""Red pips of each face (pips of value 1 and 4 are red; 天牌 carries 6 red): informational."""
IS_RED: tuple[int, ...] = tuple(int(r > 0) for r in RED_PIPS)
"""1 for a red face (at least one red pip), 0 for a black one (spec 1.1)."""
YDR: frozenset[int] = frozenset({3, 0, 15})
"""幺四, 地牌, 人牌: the base fan faces (spec 1.3)."""
SEVENS: tuple[int, ...] = (5, 9, 12)
"""The three 7-point faces 高脚 16, 二五 25, 三四 34: any three 7s form a group (spec 1.5)."""
PARTNERS: tuple[tuple[int, ...], ...] = tuple(
    tuple(j for j in range(N_FACES) if j != i and POINTS[i] + POINTS[j] == 14) for i in range(N_FACES))
"""``PARTNERS[f]``: the other faces whose points sum with f's to 14 (a 卯, spec 1.4)."""

# the spec's normative constants (1.5), checked against the derivation above
assert POINTS == (2, 3, 4, 5, 6, 7, 4, 5, 6, 7, 8, 6, 7, 8, 9, 8, 9, 10, 10, 11, 12)
assert IS_RED == (1, 1, 1, 1, 1, 1, 0, 0, 1, 0, 0, 0, 1, 0, 0, 1, 1, 1, 0, 0, 1)
assert tuple(f for f in range(N_FACES) if POINTS[f] == 7) == SEVENS

FACE_NAMES: tuple[tuple[str, ...], ...] = (
    ("地牌", "地"), ("丁丁", "幺二"), ("和牌", "和"), ("幺四",), ("猫猫", "幺五", "红锤六"),
    ("高脚七", "高脚", "幺六"), ("长二", "板凳"), ("拐子", "二三"), ("二四",), ("二五",), ("二六",), ("长三",),
    ("三四",), ("三五",), ("黑九", "三六"), ("人牌", "人"), ("红九", "四五"), ("红头十", "四六"),
    ("梅子", "梅"), ("斧头",), ("天牌", "天"),
)
"""Chinese names of each face: the display name first, then the nicknames of spec 1.1 (CP-50)."""

_GLYPH_V = 0x1F063   # DOMINO TILE VERTICAL-00-00; VERTICAL-a-b = base + 7a + b
_GLYPH_H = 0x1F031   # DOMINO TILE HORIZONTAL-00-00

_NAME_TO_FACE: dict[str, int] = {n: f for f, names in enumerate(FACE_NAMES) for n in names}
_NAME_TO_FACE.update({"财神": CAISHEN, "CS": CAISHEN, "cs": CAISHEN})
for _f, (_a, _b) in enumerate(PIPS):
    for _base in (_GLYPH_V, _GLYPH_H):
        _NAME_TO_FACE[chr(_base + 7 * _a + _b)] = _f
        _NAME_TO_FACE[chr(_base + 7 * _b + _a)] = _f
_NAME_TO_FACE.update({f"{a}{b}": face_index(a, b) for a in range(1, 7) for b in range(1, 7)})
_NAMES_LONGEST_FIRST = sorted(_NAME_TO_FACE, key=len, reverse=True)
_TOKEN = re.compile(r"[1-6]{2}|" + "|".join(re.escape(n) for n in _NAMES_LONGEST_FIRST))
_REPEAT = re.compile(r"\s*[×xX*]\s*(\d+)")
_SEPARATORS = re.compile(r"[\s,，、()\[\]]+")
_MAX_REPEAT = 10   # more copies than any question needs: 5 of a face, 10 财神


def _read_token(text: str, pos: int) -> tuple[int, int] | None:
    m = _TOKEN.match(text, pos)
    if m is None:
        return None
    tok = m.group()
    face = face_index(int(tok[0]), int(tok[1])) if tok[0].isdigit() else _NAME_TO_FACE[tok]
    return face, m.end()


def parse_cards(text: Any) -> list[int]:
    """Card kind ids (faces 0-20, 财神 21) of a card string, in order.

    Also accepts a sequence of card kind ids (returned as a list, checked).  Unknown notation
    raises :class:`~mahjong_core.errors.TileParseError` naming the unread part.
    """
    if not isinstance(text, str):
        return _card_list(text)
    fast = [_NAME_TO_FACE.get(tok) for tok in text.split()]   # the common case: spaced cards, no repeats
    if None not in fast:
        return cast("list[int]", fast)   # no None: every token was a face
    out: list[int] = []
    pos, n = 0, len(text)
    while pos < n:
        sep = _SEPARATORS.match(text, pos)
        if sep:
            pos = sep.end()
            continue
        got = _read_token(text, pos)
        if got is None:
            raise TileParseError(f"cannot read {short_repr(text[pos:pos + 12])} in card string {short_repr(text)}"
                                 " (cards are pip pairs 11-66, CS, Chinese face names or domino glyphs)")
        card, pos = got
        rep = _REPEAT.match(text, pos)
        times = 1
        if rep:
            times = int(rep.group(1)) if len(rep.group(1)) <= 3 else _MAX_REPEAT + 1
            if not 1 <= times <= _MAX_REPEAT:
                raise TileCountError(f"{rep.group().strip()} in {short_repr(text)}: a repeat is 1 to {_MAX_REPEAT}")
            pos = rep.end()
        out.extend([card] * times)
    return out


def _card_list(cards: Any) -> list[int]:
    if isinstance(cards, (bytes, bytearray)) or isinstance(cards, np.ndarray) and cards.ndim != 1:
        raise TileParseError(f"cards must be a card string or a list of card ids 0-21, got {short_repr(cards)}")
    try:
        it = iter(cards)
    except TypeError:
        raise TileParseError(f"cards must be a card string or a list of card ids 0-21, got {short_repr(cards)}") from None
    out = []
    for c in it:
        if not is_int(c) or not 0 <= c <= CAISHEN:
            raise TileParseError(f"card id {short_repr(c)} in {short_repr(cards)} is not 0-20 (a face) or 21 (财神)")
        out.append(int(c))
        if len(out) > 4 * N_FACES * COPIES:
            raise TileCountError(f"more cards than the deck holds in {short_repr(cards)}")
    return out


def parse_card(card: Any, what: str = "card") -> int:
    """One face id 0-20 from a face id or a one-card string (``"36"``, ``"黑九"``)."""
    if is_int(card) and 0 <= card < N_FACES:
        return int(card)
    cards = parse_cards(card) if isinstance(card, str) else None
    if cards is None or len(cards) != 1 or cards[0] == CAISHEN:
        raise TileParseError(f"{what} must be one face (0-20 or a card such as '36'), got {short_repr(card)}")
    return cards[0]


def to_counts(hand: Any, what: str = "hand") -> np.ndarray:
    """A length-21 ``uint8`` count array of a hand: a card string, a list of face ids, or a
    length-21 array of counts (copied).  A 6th copy of a face raises ``TileCountError``; a 财神
    raises ``TileParseError`` (财神 are a separate counter, spec 1.2)."""
    if isinstance(hand, np.ndarray) and hand.ndim == 1 and hand.shape[0] == N_FACES and hand.dtype != object:
        if not np.issubdtype(hand.dtype, np.integer):
            raise TileParseError(f"{what}: a count array must hold integers, got dtype {hand.dtype}")
        if hand.min() < 0 or hand.max() > COPIES:
            f = int(np.argmax((hand < 0) | (hand > COPIES)))
            raise TileCountError(f"{what}: {int(hand[f])} copies of {PIPS[f][0]}{PIPS[f][1]}; each face has 0-5")
        return hand.astype(np.uint8)
    cards = parse_cards(hand)
    counts = [0] * (N_FACES + 1)
    for c in cards:
        counts[c] += 1
    if counts[CAISHEN]:
        raise TileParseError(f"{what}: a 财神 is not part of a count array; pass caishen=n")
    for f in range(N_FACES):
        if counts[f] > COPIES:
            raise TileCountError(f"{what}: {counts[f]} copies of {face_name(f, 'pips')}; the deck holds 5")
    return np.array(counts[:N_FACES], np.uint8)


def face_name(card: int, style: str = "zh") -> str:
    """One card written in ``style``: ``"pips"`` (``16``), ``"zh"`` (高脚七) or ``"glyph"`` (🁺)."""
    if card == CAISHEN:
        return {"pips": "CS", "zh": "财神", "glyph": "CS"}[style]
    a, b = PIPS[card]
    if style == "pips":
        return f"{a}{b}"
    if style == "zh":
        return FACE_NAMES[card][0]
    if style == "glyph":
        return chr(_GLYPH_V + 7 * a + b)
    raise TileParseError(f"unknown card style {short_repr(style)}; expected pips, zh or glyph")


def face_glyph(card: int) -> str:
    """The vertical Unicode domino glyph of a face."""
    return face_name(card, "glyph")


def format_cards(cards: Iterable[int] | np.ndarray, style: str = "pips", *, counts: bool = False) -> str:
    """Cards written back, space-separated, in ``style`` (``pips``, ``zh`` or ``glyph``).
    With ``counts=True`` the argument is a length-21 count array."""
    if counts:
        arr = np.asarray(cards)
        cards = [f for f in range(N_FACES) for _ in range(int(arr[f]))]
    sep = "" if style == "glyph" else " "
    return sep.join(face_name(int(c), style) for c in cards)
