"""Tile indices, tile notation, parsing and formatting.

Index scheme (spec section 1.1, normative for all code)
-------------------------------------------------------

=======  ===================  =====================================================
index    tiles                Chinese
=======  ===================  =====================================================
0-8      1m-9m                一万…九万 (characters, suit 0)
9-17     1p-9p                一饼…九饼 / 一筒…九筒 (dots, suit 1)
18-26    1s-9s                一条…九条 / 一索…九索 (bamboo, suit 2)
27-30    E S W N              东 南 西 北 (winds)
31-33    C F P                中 (Red) 发 (Green) 白 (White) (dragons)
34-41    1f-8f                春 夏 秋 冬 梅 兰 竹 菊 (flowers, one copy each)
=======  ===================  =====================================================

A *count array* is a numpy array of shape ``(34,)`` and dtype ``uint8``; entry
``i`` is the number of copies (0-4) of tile ``i``.  Flowers never appear in a
count array.

Notation accepted by :func:`parse_tiles`
----------------------------------------

All forms may be mixed freely in one string; whitespace is ignored everywhere.

* Digit runs followed by a lower-case suit letter: ``123m456p789s``.
  ``m`` characters, ``p`` dots, ``s`` bamboo, ``z`` honors in tenhou order
  (``1z`` E, ``2z`` S, ``3z`` W, ``4z`` N, ``5z`` 白 P, ``6z`` 发 F, ``7z`` 中 C)
  and ``f`` flowers (``1f`` 春 … ``8f`` 菊).  ``0`` is not a tile.
* Honors as upper-case letters ``E S W N C F P`` (C = 中 Red, F = 发 Green,
  P = 白 White).  Lower-case ``s``, ``p``, ``f`` are suit letters, so honors
  must be written in upper case.
* Chinese names: ``一万`` … ``九万`` (also ``萬``), ``一饼`` … (also ``餅``,
  ``筒``), ``一条`` … (also ``條``, ``索``), ``东 南 西 北`` (also ``東``),
  ``中 发 白`` (also ``發``), ``春 夏 秋 冬 梅 兰 竹 菊`` (also ``蘭``).  Arabic digits
  work with Chinese suits too (``1万``, ``5饼``, ``789条``).  The common
  two-character names ``红中``/``紅中``, ``发财``/``發財``, ``白板`` and
  ``东风``/``東風`` … ``北风``/``北風`` are accepted as well.
* Unicode mahjong glyphs U+1F000-U+1F029 (``🀇`` 1m, ``🀙`` 1p, ``🀐`` 1s,
  ``🀀`` E, ``🀄`` 中 …).  A variation selector U+FE0E/U+FE0F directly after
  a glyph is ignored.  The joker (U+1F02A) and tile back (U+1F02B) are not tiles.

Error messages quote the offending character or substring and its position;
positions in messages count characters from 1 (``'12x'``: ``x`` is at
position 3).

Output styles of :func:`format_tiles`
-------------------------------------

``"compact"`` (``123m456p789sEEC12f``), ``"z"`` (``123m1157z``), ``"zh"``
(``一万 二万 东 中 春``) and ``"glyph"`` (``🀇🀈🀀🀄🀦``).  Every style parses
back with :func:`parse_tiles`.

>>> parse_tiles("123m EE 5z 1f")
[0, 1, 2, 27, 27, 33, 34]
>>> format_tiles([0, 1, 2, 27, 27, 31, 34])
'123mEEC1f'
>>> format_tiles([0, 1, 2, 27, 27, 31, 33], style="z")
'123m1157z'
>>> format_tiles([0, 1, 27, 31, 34], style="zh")
'一万 二万 东 中 春'
"""

from __future__ import annotations

import functools
import itertools
import operator
from collections.abc import Iterable
from typing import Any

import numpy as np

from ...errors import ArrayShapeError, MahjongError, TileCountError, TileParseError
from ..._validate import short_repr as _short_repr  # noqa: F401 - re-used by messages below
from ._constants import TILE_SHORT_NAMES
from .constants import WIND_NAMES

__all__ = [
    "N_KINDS",
    "N_FLOWERS",
    "FLOWER_BASE",
    "N_TILE_IDS",
    "HONOR_LETTERS",
    "GREEN_TILES",
    "REVERSIBLE_TILES",
    "TERMINALS_AND_HONORS",
    "KNITTED_PATTERNS",
    "parse_tiles",
    "parse_hand",
    "parse_flowers",
    "tile_kind",
    "to_counts",
    "counts_to_indices",
    "indices_to_counts",
    "format_tiles",
    "format_counts",
    "tile_name",
    "tile_short",
    "tile_glyph",
    "is_number",
    "is_honor",
    "is_wind",
    "is_dragon",
    "is_terminal",
    "is_simple",
    "is_terminal_or_honor",
    "is_flower",
    "suit",
    "rank",
]

# ---------------------------------------------------------------------------
# Constants
# ---------------------------------------------------------------------------

N_KINDS = 34
"""Number of tile kinds that can be in a hand (indices 0-33)."""
N_FLOWERS = 8
"""Number of flower tiles (one copy each)."""
FLOWER_BASE = 34
"""Index of the first flower (春 Spring)."""
N_TILE_IDS = 42
"""Number of tile indices including flowers (0-41)."""
HONOR_LETTERS = "ESWNCFP"
"""Letter of honor ``27 + i`` is ``HONOR_LETTERS[i]``."""

GREEN_TILES = frozenset({19, 20, 21, 23, 25, 32})
"""绿一色 tiles: 2s 3s 4s 6s 8s and F (发)."""

REVERSIBLE_TILES = frozenset({9, 10, 11, 12, 13, 16, 17, 19, 21, 22, 23, 25, 26, 33})
"""推不倒 tiles: 1p 2p 3p 4p 5p 8p 9p, 2s 4s 5s 6s 8s 9s and P (白)."""

TERMINALS_AND_HONORS = frozenset({0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33})
"""幺九牌: the six terminals (1 and 9 of each suit) and the seven honors."""


def _knitted(a: int, b: int, c: int) -> tuple[int, ...]:
    return tuple(sorted([a * 9 + r for r in (0, 3, 6)]
                        + [b * 9 + r for r in (1, 4, 7)]
                        + [c * 9 + r for r in (2, 5, 8)]))


KNITTED_PATTERNS: tuple[tuple[int, ...], ...] = tuple(
    _knitted(*perm) for perm in itertools.permutations((0, 1, 2))
)
"""The 6 knitted patterns (组合龙).

Pattern ``k`` belongs to the ``k``-th permutation ``(a, b, c)`` of the suits
in ``itertools.permutations((0, 1, 2))`` order, i.e. (0,1,2), (0,2,1), (1,0,2),
(1,2,0), (2,0,1), (2,1,0): ranks 1,4,7 of suit a, ranks 2,5,8 of suit b and
ranks 3,6,9 of suit c.  Each pattern is a tuple of 9 indices sorted ascending.

>>> format_tiles(KNITTED_PATTERNS[0])
'147m258p369s'
>>> format_tiles(KNITTED_PATTERNS[5])
'369m258p147s'
"""

# ---------------------------------------------------------------------------
# Name tables (index -> text)
# ---------------------------------------------------------------------------

_ZH_NUMERALS = "一二三四五六七八九"
_SUIT_LETTERS = "mps"
_ZH_SUIT_NAMES = "万饼条"
_HONOR_EN = ("East", "South", "West", "North", "Red", "Green", "White")
_HONOR_ZH = "东南西北中发白"
_FLOWER_EN = ("Spring", "Summer", "Autumn", "Winter", "Plum", "Orchid", "Bamboo", "Chrysanthemum")
_FLOWER_ZH = "春夏秋冬梅兰竹菊"
# tenhou z digit of honor 27+i (E S W N C F P -> 1 2 3 4 7 6 5)
_Z_DIGIT = (1, 2, 3, 4, 7, 6, 5)

_SHORT: tuple[str, ...] = TILE_SHORT_NAMES
_NAME_EN: tuple[str, ...] = _SHORT[:27] + _HONOR_EN + _FLOWER_EN
_NAME_ZH: tuple[str, ...] = tuple(
    [n + s for s in _ZH_SUIT_NAMES for n in _ZH_NUMERALS] + list(_HONOR_ZH) + list(_FLOWER_ZH)
)
_GLYPH_CP: tuple[int, ...] = (
    tuple(range(0x1F007, 0x1F010))      # 1m-9m: ... OF CHARACTERS
    + tuple(range(0x1F019, 0x1F022))    # 1p-9p: ... OF CIRCLES
    + tuple(range(0x1F010, 0x1F019))    # 1s-9s: ... OF BAMBOOS
    + (0x1F000, 0x1F001, 0x1F002, 0x1F003)  # E S W N
    + (0x1F004, 0x1F005, 0x1F006)           # red, green, white dragon
    + (0x1F026, 0x1F027, 0x1F028, 0x1F029)  # spring summer autumn winter
    + (0x1F022, 0x1F023, 0x1F024, 0x1F025)  # plum orchid bamboo chrysanthemum
)
_GLYPH: tuple[str, ...] = tuple(chr(cp) for cp in _GLYPH_CP)

# ---------------------------------------------------------------------------
# Parser tables (text -> index), built once at import
# ---------------------------------------------------------------------------

_K_DIGIT, _K_SUIT, _K_TILE, _K_ZHNUM, _K_SPACE, _K_VS, _K_WORD = range(7)


def _suit_table(base: int, n: int) -> tuple[int | None, ...]:
    # position d (digit value 0-9) -> tile index or None
    return (None,) + tuple(range(base, base + n)) + (None,) * (9 - n)


_TABLE_Z = (None,) + tuple(27 + _Z_DIGIT.index(d) for d in range(1, 8)) + (None, None)
# suit character -> (digit table, description of valid ranks)
_SUITS: dict[str, tuple[tuple[int | None, ...], str]] = {
    "m": (_suit_table(0, 9), "number tiles are 1-9"),
    "p": (_suit_table(9, 9), "number tiles are 1-9"),
    "s": (_suit_table(18, 9), "number tiles are 1-9"),
    "z": (_TABLE_Z, "honors are 1z-7z"),
    "f": (_suit_table(FLOWER_BASE, 8), "flowers are 1f-8f"),
}
_ZH_SUITS: dict[str, int] = {
    "万": 0, "萬": 0,
    "饼": 9, "餅": 9, "筒": 9,
    "条": 18, "條": 18, "索": 18,
}
for _ch, _base in _ZH_SUITS.items():
    _SUITS[_ch] = (_suit_table(_base, 9), "number tiles are 1-9")

_ZH_SINGLE: dict[str, int] = {
    "东": 27, "東": 27, "南": 28, "西": 29, "北": 30,
    "中": 31, "发": 32, "發": 32, "白": 33,
    "春": 34, "夏": 35, "秋": 36, "冬": 37, "梅": 38, "兰": 39, "蘭": 39, "竹": 40, "菊": 41,
}
_ZH_WORDS: dict[str, int] = {
    "红中": 31, "紅中": 31, "发财": 32, "發財": 32, "白板": 33,
    "东风": 27, "東風": 27, "南风": 28, "南風": 28,
    "西风": 29, "西風": 29, "北风": 30, "北風": 30,
}
_VARIATION_SELECTORS = "\ufe0e\ufe0f"

_TOKENS: dict[str, tuple[int, Any]] = {}   # (kind, value): the value's type depends on the kind
for _d in range(10):
    _TOKENS[str(_d)] = (_K_DIGIT, _d)
for _ch, _entry in _SUITS.items():
    _TOKENS[_ch] = (_K_SUIT, _entry)
for _i, _ch in enumerate(HONOR_LETTERS):
    _TOKENS[_ch] = (_K_TILE, 27 + _i)
for _ch, _t in _ZH_SINGLE.items():
    _TOKENS[_ch] = (_K_TILE, _t)
for _w in _ZH_WORDS:
    if _w[0] not in _TOKENS:       # 红 / 紅: only valid as the start of a word
        _TOKENS[_w[0]] = (_K_WORD, None)
for _r, _ch in enumerate(_ZH_NUMERALS, start=1):
    _TOKENS[_ch] = (_K_ZHNUM, _r)
for _t, _ch in enumerate(_GLYPH):
    _TOKENS[_ch] = (_K_TILE, _t)
for _ch in " \t\n\r\v\f\u3000\u00a0":
    _TOKENS[_ch] = (_K_SPACE, None)
for _ch in _VARIATION_SELECTORS:
    _TOKENS[_ch] = (_K_VS, None)
_WORD_STARTS = frozenset(w[0] for w in _ZH_WORDS)
_GLYPHS_AND_VS = frozenset(_GLYPH) | frozenset(_VARIATION_SELECTORS)
del _d, _ch, _entry, _i, _t, _w, _r, _base

# hints for letters that are not tiles in the given case
_LOWER_HONOR_HINT = {
    "e": "E", "w": "W", "n": "N", "c": "C",
}
_SUIT_LETTER_HINT = {
    "s": "for South write upper-case 'S'",
    "p": "for White (白) write upper-case 'P'",
    "f": "for Green (发) write upper-case 'F'; flowers are 1f-8f",
}

# ---------------------------------------------------------------------------
# Parsing
# ---------------------------------------------------------------------------


def _quote(text: str) -> str:
    if len(text) > 60:
        text = text[:57] + "..."
    return repr(text)


def _dangling(text: str, pend: list[int], at: int | None) -> TileParseError:
    digits = "".join(text[p] for p in pend)
    if len(pend) == 1:
        msg = f"digit {_quote(digits)} at position {pend[0] + 1} has no suit letter (m, p, s, z or f)"
    else:
        msg = f"digits {_quote(digits)} at position {pend[0] + 1} have no suit letter (m, p, s, z or f)"
    if at is not None:
        ch = text[at]
        msg += f" before {ch!r} at position {at + 1}"
        lower = ch.lower()
        if ch.isupper() and lower in _SUITS:
            msg += f" (suit letters are lower case: write '{lower}'; upper-case {ch!r} is an honor)"
    return TileParseError(f"{msg} in {_quote(text)}")


def _unknown(text: str, i: int) -> TileParseError:
    ch = text[i]
    where = f"at position {i + 1} in {_quote(text)}"
    cp = ord(ch)
    if cp in (0x1F02A, 0x1F02B):
        kind = "joker" if cp == 0x1F02A else "tile back"
        return TileParseError(f"mahjong {kind} glyph {ch!r} (U+{cp:04X}) {where} is not a tile")
    if ch in _VARIATION_SELECTORS:
        return TileParseError(
            f"variation selector U+{cp:04X} {where} does not follow a tile glyph")
    if ch in _LOWER_HONOR_HINT:
        return TileParseError(
            f"unknown tile letter {ch!r} {where}; honors are written in upper case "
            f"(E S W N C F P), e.g. {_LOWER_HONOR_HINT[ch]!r}")
    if ch in "MZ":
        return TileParseError(
            f"unknown tile letter {ch!r} {where}; suit letters are lower case (m, p, s, z, f)")
    if ch.isalpha():
        return TileParseError(f"unknown tile letter {ch!r} {where}")
    return TileParseError(f"unexpected character {ch!r} {where}")


def _scan(text: str) -> tuple[int, ...]:
    """Single left-to-right scan of *text*; see :func:`parse_tiles`."""
    out: list[int] = []
    append = out.append
    pend: list[int] = []          # positions of pending Arabic digits
    tokens = _TOKENS
    n = len(text)
    i = 0
    while i < n:
        ch = text[i]
        tok = tokens.get(ch)
        if tok is None:
            if ch.isspace():
                i += 1
                continue
            raise _unknown(text, i)
        kind, val = tok
        if kind == _K_DIGIT:
            pend.append(i)
        elif kind == _K_SUIT:
            if not pend:
                if ch in _ZH_SUITS:
                    raise TileParseError(
                        f"suit {ch!r} at position {i + 1} in {_quote(text)} has no number before it")
                hint = _SUIT_LETTER_HINT.get(ch)
                raise TileParseError(
                    f"suit letter {ch!r} at position {i + 1} in {_quote(text)} has no digits "
                    f"before it" + (f" ({hint})" if hint else ""))
            table, ranks = val
            for p in pend:
                t = table[ord(text[p]) - 48]
                if t is None:
                    raise TileParseError(
                        f"no tile '{text[p]}{ch}' (digit {text[p]!r} at position {p + 1} "
                        f"in {_quote(text)}); {ranks}")
                append(t)
            pend.clear()
        elif kind == _K_TILE:
            if pend:
                raise _dangling(text, pend, i)
            if ch in _WORD_STARTS:
                w = _ZH_WORDS.get(text[i:i + 2])
                if w is not None:
                    append(w)
                    i += 2
                    continue
            append(val)
        elif kind == _K_SPACE:
            pass
        elif kind == _K_ZHNUM:
            if pend:
                raise _dangling(text, pend, i)
            base = _ZH_SUITS.get(text[i + 1:i + 2])
            if base is None:
                nxt = f"{text[i + 1]!r}" if i + 1 < n else "the end of the string"
                raise TileParseError(
                    f"Chinese numeral {ch!r} at position {i + 1} in {_quote(text)} must be "
                    f"followed by a suit (万, 饼/筒 or 条/索), not {nxt}")
            append(base + val - 1)
            i += 2
            continue
        elif kind == _K_VS:
            if i == 0 or text[i - 1] not in _GLYPHS_AND_VS:
                raise _unknown(text, i)
        else:  # _K_WORD: a character that only starts a two-character name
            if pend:
                raise _dangling(text, pend, i)
            w = _ZH_WORDS.get(text[i:i + 2])
            if w is None:
                raise TileParseError(
                    f"unknown tile character {ch!r} at position {i + 1} in {_quote(text)} "
                    f"(did you mean {ch + '中'!r}?)")
            append(w)
            i += 2
            continue
        i += 1
    if pend:
        raise _dangling(text, pend, None)
    return tuple(out)


_scan_cached = functools.lru_cache(maxsize=4096)(_scan)


def parse_tiles(text: str) -> list[int]:
    """Parse a tile string into tile indices, in the order written.

    Duplicates are kept and no count limit is checked (see :func:`parse_hand`).
    Flowers (34-41) are returned like any other tile.  The empty string gives
    ``[]``.  Raises :class:`TileParseError` naming the offending character and
    its position (counted from 1).

    >>> parse_tiles("123m456p789s")
    [0, 1, 2, 12, 13, 14, 24, 25, 26]
    >>> parse_tiles("EESWCC")
    [27, 27, 28, 29, 31, 31]
    >>> parse_tiles("1z 5z 6z 7z")
    [27, 33, 32, 31]
    >>> parse_tiles("一万 九筒 5条 东 發 白 春")
    [0, 17, 22, 27, 32, 33, 34]
    >>> parse_tiles("\\U0001F007\\U0001F004\\ufe0f")
    [0, 31]
    >>> parse_tiles("12x")
    Traceback (most recent call last):
    ...
    mahjong_core.errors.TileParseError: unknown tile letter 'x' at position 3 in '12x'
    """
    if not isinstance(text, str):
        raise TileParseError(f"expected a tile string, got {type(text).__name__}")
    # only short strings are cached: a hostile megabyte string must not stay in memory
    return list(_scan_cached(text) if len(text) <= _CACHED_LEN else _scan(text))


_CACHED_LEN = 256
"""Longest tile string kept in the parse caches (hands and meld strings are far shorter)."""


def tile_kind(value: object, what: str = "tile") -> int:
    """One tile kind 0-33 (a tile a hand can hold) from an index or a one-tile string.

    Accepts a Python or NumPy integer 0-33 and a string naming exactly one tile
    (``"5m"``, ``"E"``, ``"东"``); refuses everything else with :class:`TileParseError`
    naming ``what``: booleans, floats (``4.7`` is not a tile), other types, several
    tiles, a flower, an index outside 0-33.

    >>> tile_kind("5m"), tile_kind(27), tile_kind("中")
    (4, 27, 31)
    >>> tile_kind(4.7)
    Traceback (most recent call last):
    ...
    mahjong_core.errors.TileParseError: tile must be a tile string or an index 0-33, got 4.7
    """
    if isinstance(value, str):
        tiles = parse_tiles(value)
        if len(tiles) != 1:
            raise TileParseError(f"{what} must be one tile, got {_quote(value)} ({len(tiles)} tiles)")
        value = tiles[0]
        if value >= FLOWER_BASE:
            raise TileParseError(f"{what} {_describe(value)} is a flower; a hand holds tiles 0-33")
        return value
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)):
        raise TileParseError(f"{what} must be a tile string or an index 0-33, got {_short_repr(value)}")
    if not 0 <= value <= 33:
        raise TileParseError(f"{what} {_short_repr(value)} is not a tile of a hand (0-33)")
    return int(value)


# ---------------------------------------------------------------------------
# Index validation and count arrays
# ---------------------------------------------------------------------------


def _index(x: Any) -> int:
    """Return *x* as a tile index 0-41 or raise TileParseError."""
    if isinstance(x, (bool, np.bool_)):
        raise TileParseError(f"tile index must be an integer, got bool {x!r}")
    try:
        i = operator.index(x)
    except TypeError:
        raise TileParseError(
            f"tile index must be an integer, got {type(x).__name__} {_short_repr(x)}") from None
    if not 0 <= i < N_TILE_IDS:
        raise TileParseError(f"tile index {_short_repr(i)} out of range 0-{N_TILE_IDS - 1}")
    return i


def _describe(i: int) -> str:
    """'1f (Spring, 春)' / '3m' - a tile named for error messages."""
    if i >= 27:
        return f"{_SHORT[i]} ({_NAME_EN[i]}, {_NAME_ZH[i]})"
    return _SHORT[i]


def indices_to_counts(indices: Iterable[int]) -> np.ndarray:
    """Count array (34,) uint8 from an iterable of tile indices.

    Flowers are rejected (:class:`TileParseError`), and so is a fifth copy of a
    tile (:class:`TileCountError`).

    >>> indices_to_counts([0, 0, 27])[[0, 27]].tolist()
    [2, 1]
    >>> indices_to_counts([2] * 5)
    Traceback (most recent call last):
    ...
    mahjong_core.errors.TileCountError: 5 copies of 3m; a tile has only 4
    """
    if isinstance(indices, (str, bytes)):
        raise TileParseError(
            "expected tile indices, got a string; use parse_hand() to parse tile strings")
    try:
        it = iter(indices)
    except TypeError:
        raise TileParseError(
            f"expected an iterable of tile indices, got {type(indices).__name__}") from None
    counts = [0] * N_KINDS
    for x in it:
        i = _index(x)
        if i >= FLOWER_BASE:
            raise TileParseError(
                f"flower {_describe(i)} cannot be part of a hand; use parse_flowers() for flowers")
        counts[i] += 1
    for i, c in enumerate(counts):
        if c > 4:
            raise TileCountError(f"{c} copies of {_SHORT[i]}; a tile has only 4")
    return np.array(counts, dtype=np.uint8)


def parse_hand(text_or_indices: str | Iterable[int]) -> np.ndarray:
    """Count array (34,) uint8 from a tile string or an iterable of tile indices.

    Flowers are not allowed (:class:`TileParseError`); more than 4 copies of a
    tile raise :class:`TileCountError`.  Note that an iterable is read as tile
    *indices*; to validate an existing count array use :func:`to_counts`.

    >>> h = parse_hand("11m EEE")
    >>> int(h.sum()), int(h[0]), int(h[27])
    (5, 2, 3)
    >>> parse_hand("33333m")
    Traceback (most recent call last):
    ...
    mahjong_core.errors.TileCountError: 5 copies of 3m; a tile has only 4
    """
    if isinstance(text_or_indices, str):
        if len(text_or_indices) > _CACHED_LEN:
            return indices_to_counts(parse_tiles(text_or_indices))
        return np.frombuffer(_hand_bytes(text_or_indices), dtype=np.uint8).copy()
    return indices_to_counts(text_or_indices)


@functools.lru_cache(maxsize=4096)
def _hand_bytes(text: str) -> bytes:
    """Counts of a hand string as 34 bytes; cached, since servers parse the same strings often
    (errors are raised, never cached)."""
    return indices_to_counts(parse_tiles(text)).tobytes()


def parse_flowers(text: str | Iterable[int]) -> list[int]:
    """Flower indices (34-41) from a string (or an iterable of indices), in the order given.

    Any non-flower tile raises :class:`TileParseError`; a flower given twice
    raises :class:`TileCountError` (each flower exists once).

    >>> parse_flowers("春 梅 8f")
    [34, 38, 41]
    >>> parse_flowers("1f1f")
    Traceback (most recent call last):
    ...
    mahjong_core.errors.TileCountError: 2 copies of flower 1f (Spring, 春); each flower exists once
    """
    if isinstance(text, str):
        items = parse_tiles(text)
    else:
        if isinstance(text, bytes):
            raise TileParseError("expected a tile string or flower indices, got bytes")
        try:
            items = [_index(x) for x in text]
        except TypeError:
            raise TileParseError(
                f"expected a tile string or flower indices, got {type(text).__name__}") from None
    seen = [0] * N_FLOWERS
    for i in items:
        if i < FLOWER_BASE:
            raise TileParseError(f"{_describe(i)} is not a flower; flowers are 1f-8f")
        seen[i - FLOWER_BASE] += 1
    for k, c in enumerate(seen):
        if c > 1:
            raise TileCountError(
                f"{c} copies of flower {_describe(FLOWER_BASE + k)}; each flower exists once")
    return items


def to_counts(hand: object) -> np.ndarray:
    """Validated count array (34,) uint8 from any accepted hand representation.

    Accepted:

    * ``str``: parsed with :func:`parse_hand`;
    * a numpy array of shape ``(34,)`` with an integer dtype (not bool): a
      validated ``uint8`` copy; a C-contiguous ``uint8`` array is validated and
      returned as is (no copy);
    * a list or tuple of 34 integer **counts** (not indices).

    Wrong shape, non-integer dtype or any other type raise
    :class:`ArrayShapeError`; a count below 0 or above 4 raises
    :class:`TileCountError`.

    >>> to_counts("19m").nonzero()[0].tolist()
    [0, 8]
    >>> to_counts([1] + [0] * 33)[0]
    np.uint8(1)
    >>> to_counts(np.zeros(33, dtype=np.int64))
    Traceback (most recent call last):
    ...
    mahjong_core.errors.ArrayShapeError: expected 34 tile counts, got shape (33,)
    """
    if isinstance(hand, str):
        return parse_hand(hand)
    if isinstance(hand, np.ndarray):
        arr = hand
    elif isinstance(hand, (list, tuple)):
        if len(hand) != N_KINDS:
            raise ArrayShapeError(
                f"expected 34 tile counts, got a {type(hand).__name__} of {len(hand)} items "
                f"(to build counts from tile indices use parse_hand())")
        try:
            arr = np.asarray(hand)
        except (ValueError, TypeError) as e:
            raise ArrayShapeError(f"cannot read 34 tile counts from {type(hand).__name__}: {e}") from None
    else:
        raise ArrayShapeError(
            "expected a tile string, a numpy array of shape (34,) or a list/tuple of 34 counts, "
            f"got {type(hand).__name__}")
    if arr.shape != (N_KINDS,):
        raise ArrayShapeError(f"expected 34 tile counts, got shape {arr.shape}")
    if arr.dtype.kind not in "iu":
        raise ArrayShapeError(
            f"tile counts must have an integer dtype, got dtype {arr.dtype} "
            f"(use an integer dtype such as uint8)")
    if arr.dtype == np.uint8:
        bad = np.flatnonzero(arr > 4)
    else:
        bad = np.flatnonzero((arr < 0) | (arr > 4))
    if bad.size:
        i = int(bad[0])
        raise TileCountError(f"count {int(arr[i])} for {_SHORT[i]} (index {i}) is out of range 0-4")
    if arr.dtype == np.uint8 and arr.flags.c_contiguous:
        return arr
    return np.ascontiguousarray(arr, dtype=np.uint8)


def counts_to_indices(counts: object) -> list[int]:
    """Sorted tile indices of a count array (anything :func:`to_counts` accepts).

    >>> counts_to_indices(parse_hand("E11m"))
    [0, 0, 27]
    """
    out: list[int] = []
    for i, c in enumerate(to_counts(counts).tolist()):
        if c:
            out.extend([i] * c)
    return out


# ---------------------------------------------------------------------------
# Formatting
# ---------------------------------------------------------------------------

_STYLES = ("compact", "z", "zh", "glyph")
# sort key for the "z" style: honors ordered by their z digit (tenhou order)
_Z_SORT_KEY = tuple(
    list(range(27)) + [26 + d for d in _Z_DIGIT] + list(range(34, 42))
)


def _format_grouped(seq: list[int], z_honors: bool) -> str:
    parts: list[str] = []
    digits: list[str] = []
    cur = ""
    for i in seq:
        if i < 27:
            s, d = _SUIT_LETTERS[i // 9], i % 9 + 1
        elif i < FLOWER_BASE:
            if not z_honors:
                if digits:
                    parts.append("".join(digits) + cur)
                    digits = []
                    cur = ""
                parts.append(HONOR_LETTERS[i - 27])
                continue
            s, d = "z", _Z_DIGIT[i - 27]
        else:
            s, d = "f", i - FLOWER_BASE + 1
        if s != cur:
            if digits:
                parts.append("".join(digits) + cur)
                digits = []
            cur = s
        digits.append(str(d))
    if digits:
        parts.append("".join(digits) + cur)
    return "".join(parts)


def format_tiles(indices: Iterable[int], *, style: str = "compact", sort: bool = True) -> str:
    """Format tile indices (flowers allowed) as a string that :func:`parse_tiles` reads back.

    Styles:

    * ``"compact"``: digit runs with suit letters, honors as letters
      ``ESWNCFP``, flowers as ``1f``-``8f`` digits; sorted by index.
    * ``"z"``: like compact, but honors form one tenhou ``z`` group
      (E=1z S=2z W=3z N=4z 白=5z 发=6z 中=7z), sorted by z digit.
    * ``"zh"``: simplified Chinese names separated by spaces.
    * ``"glyph"``: Unicode mahjong glyphs, concatenated.

    With ``sort=False`` the given order is kept, and consecutive tiles of the
    same suit share one digit run.  No count limit is checked here.

    >>> format_tiles([27, 0, 1], sort=False)
    'E12m'
    >>> format_tiles([34, 33, 9, 18])
    '1p1sP1f'
    >>> format_tiles([27, 27, 31, 33, 0], style="z")
    '1m1157z'
    >>> format_tiles([0, 9, 18, 30, 32], style="zh")
    '一万 一饼 一条 北 发'
    >>> format_tiles([0, 27], style="glyph") == "\\U0001F007\\U0001F000"
    True
    """
    if isinstance(indices, (str, bytes)):
        raise TileParseError("format_tiles expects tile indices, got a string")
    try:
        seq = [_index(x) for x in indices]
    except TypeError:
        raise TileParseError(
            f"expected an iterable of tile indices, got {type(indices).__name__}") from None
    if style == "compact":
        if sort:
            seq.sort()
        return _format_grouped(seq, False)
    if style == "z":
        if sort:
            seq.sort(key=_Z_SORT_KEY.__getitem__)
        return _format_grouped(seq, True)
    if sort:
        seq.sort()
    if style == "zh":
        return " ".join([_NAME_ZH[i] for i in seq])
    if style == "glyph":
        return "".join([_GLYPH[i] for i in seq])
    raise MahjongError(f"unknown style {_short_repr(style)}; expected one of {', '.join(_STYLES)}")


def format_counts(counts: object, *, style: str = "compact") -> str:
    """Format a count array (anything :func:`to_counts` accepts); see :func:`format_tiles`.

    >>> format_counts(parse_hand("EC 11m 9s"))
    '11m9sEC'
    >>> format_counts(parse_hand("EC 11m 9s"), style="z")
    '11m9s17z'
    """
    return format_tiles(counts_to_indices(counts), style=style)


# ---------------------------------------------------------------------------
# Single tiles
# ---------------------------------------------------------------------------


def tile_name(index: int, lang: str = "en") -> str:
    """Name of one tile: ``lang="en"`` or ``"zh"`` (simplified Chinese).

    >>> [tile_name(i) for i in (0, 27, 31, 32, 33, 34)]
    ['1m', 'East', 'Red', 'Green', 'White', 'Spring']
    >>> [tile_name(i, "zh") for i in (0, 9, 27, 31, 32, 33, 34)]
    ['一万', '一饼', '东', '中', '发', '白', '春']
    >>> tile_name(42)
    Traceback (most recent call last):
    ...
    mahjong_core.errors.TileParseError: tile index 42 out of range 0-41
    """
    i = _index(index)
    if lang == "en":
        return _NAME_EN[i]
    if lang == "zh":
        return _NAME_ZH[i]
    raise MahjongError(f"unknown language {_short_repr(lang)}; expected 'en' or 'zh'")


def tile_short(index: int) -> str:
    """Compact single-tile form, as used by the ``"compact"`` style.

    >>> [tile_short(i) for i in (0, 17, 27, 31, 34)]
    ['1m', '9p', 'E', 'C', '1f']
    """
    return _SHORT[_index(index)]


SHORT_NAMES: tuple[str, ...] = _SHORT
"""``SHORT_NAMES[i] == tile_short(i)`` for every tile index 0-41 (for messages on hot paths)."""


def meld_tiles(kind: int, first: int) -> list[int]:
    """The tiles of a meld given its code (0 chi, 1 pon, 2 kong, 3 ckong) and its first tile.

    >>> meld_tiles(0, 4), meld_tiles(3, 27)
    ([4, 5, 6], [27, 27, 27, 27])
    """
    if kind == 0:
        return [first, first + 1, first + 2]
    return [first] * (3 if kind == 1 else 4)


def parse_wind(value: object, what: str) -> int:
    """A wind as its tile kind 27-30: ``"E"``/``"S"``/``"W"``/``"N"``, ``东 南 西 北`` or the kind
    itself; :class:`~mahjong_core.errors.MahjongError` naming ``what`` otherwise.

    >>> parse_wind("S", "seat_wind"), parse_wind("北", "seat_wind"), parse_wind(29, "seat_wind")
    (28, 30, 29)
    """
    if isinstance(value, str) and value in WIND_NAMES:
        return WIND_NAMES[value]
    if isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_)) and 27 <= value <= 30:
        return int(value)
    raise MahjongError(f"{what} must be E, S, W or N (or 27-30), got {_short_repr(value)}")


def tile_glyph(index: int) -> str:
    """Unicode mahjong glyph of one tile (U+1F000 block).

    >>> tile_glyph(31) == "\\U0001F004"
    True
    """
    return _GLYPH[_index(index)]


# ---------------------------------------------------------------------------
# Predicates (an out-of-range index raises TileParseError)
# ---------------------------------------------------------------------------


def is_number(i: int) -> bool:
    """Number (suited) tile, 0-26.

    >>> is_number(26), is_number(27)
    (True, False)
    """
    return _index(i) <= 26


def is_honor(i: int) -> bool:
    """Honor (字牌), 27-33.

    >>> is_honor(27), is_honor(33), is_honor(34)
    (True, True, False)
    """
    return 27 <= _index(i) <= 33


def is_wind(i: int) -> bool:
    """Wind, 27-30 (E S W N).

    >>> is_wind(30), is_wind(31)
    (True, False)
    """
    return 27 <= _index(i) <= 30


def is_dragon(i: int) -> bool:
    """Dragon, 31-33 (C F P).

    >>> is_dragon(31), is_dragon(30)
    (True, False)
    """
    return 31 <= _index(i) <= 33


def is_terminal(i: int) -> bool:
    """Terminal (老头牌): number tile of rank 1 or 9.

    >>> is_terminal(0), is_terminal(8), is_terminal(1), is_terminal(27)
    (True, True, False, False)
    """
    i = _index(i)
    return i <= 26 and i % 9 in (0, 8)


def is_simple(i: int) -> bool:
    """Simple (中张): number tile of rank 2-8.

    >>> is_simple(1), is_simple(0), is_simple(27)
    (True, False, False)
    """
    i = _index(i)
    return i <= 26 and i % 9 not in (0, 8)


def is_terminal_or_honor(i: int) -> bool:
    """幺九牌: terminal or honor (spec 1.1, [004] definition).

    >>> is_terminal_or_honor(9), is_terminal_or_honor(33), is_terminal_or_honor(4)
    (True, True, False)
    """
    return _index(i) in TERMINALS_AND_HONORS


def is_flower(i: int) -> bool:
    """Flower, 34-41.

    >>> is_flower(34), is_flower(33)
    (True, False)
    """
    return _index(i) >= FLOWER_BASE


def suit(i: int) -> int | None:
    """Suit of a number tile (0 characters, 1 dots, 2 bamboo); ``None`` otherwise.

    >>> suit(0), suit(9), suit(26), suit(27)
    (0, 1, 2, None)
    """
    i = _index(i)
    return i // 9 if i <= 26 else None


def rank(i: int) -> int | None:
    """Rank 1-9 of a number tile; ``None`` otherwise.

    >>> rank(0), rank(13), rank(26), rank(31)
    (1, 5, 9, None)
    """
    i = _index(i)
    return i % 9 + 1 if i <= 26 else None
