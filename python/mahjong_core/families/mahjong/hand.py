"""Win check, waiting tiles and shanten: the public API over the compiled core.

Every function takes a hand either as a tile string (``"1112345678999m"``,
see :mod:`mahjong_core.tiles`) or as a count array (length-34 ``uint8``; any
integer array or sequence of 34 counts is converted), plus the ``ruleset=``
keyword (``"two-player"`` by default, ``"two-player-bamboo"`` or ``"public"``).

The hand is the *concealed* part only.  Declared groups are not passed: a
concealed part of 3k+2 tiles is asked "is it complete?" (4 - k groups are
already declared), one of 3k+1 tiles "what does it wait on?".  Shanten follows
the usual convention: -1 complete, 0 ready (听牌), 1 one tile from ready, ...

Forms: the standard form (groups + one pair) in every ruleset; seven pairs
(13/14 concealed tiles, a quad counts as two pairs) in every ruleset; and in
``public`` also thirteen orphans, 全不靠/七星不靠 (honors and knitted tiles) and
the knitted-straight form (组合龙 + one group + one pair).

``is_win``, ``waits``, ``waits_mask`` and ``shanten`` are compiled functions
(input dispatch included); :class:`Hand` holds a hand inside the compiled core
and answers the same questions with no conversion at all.

Batch forms take an ``(N, 34)`` array and return numpy arrays; their loops run
without the GIL, so threads can share the work.  A ruleset of another family goes to
that family's batch calls (``Family.hand_layer``: the long-card game's take ``(N, 21)``
count arrays and its options, e.g. ``banker=True``), or is refused with the
:class:`~mahjong_core.errors.UnsupportedError` naming the family.

>>> is_win("11123456789999m")
True
>>> waits("1112345678999m")
[0, 1, 2, 3, 4, 5, 6, 7, 8]
>>> shanten("123m456m789mEESS", ruleset="two-player")
0
>>> waits("19m19p19sESWNCFP", ruleset="public")  # thirteen orphans, 13-sided
[0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33]
>>> shanten("147m258p369sESWN", ruleset="public")  # 全不靠, one tile short
0
>>> is_win("1133557799mEECCF")   # 15 tiles
Traceback (most recent call last):
...
mahjong_core.errors.HandSizeError: 15 tiles: a complete hand needs 3k+2 concealed tiles (2, 5, 8, 11 or 14)
"""

from __future__ import annotations

import functools
from typing import Any

import numpy as np

from ... import _hand
from ..._hand import Hand as _MahjongHand, is_win, shanten, waits, waits_mask
from ..._types import HandLike, HandsLike
from ..._validate import as_int
from ...errors import ArrayShapeError, MahjongError, RulesetError, TileCountError
from .rulesets import DEFAULT_RULESET, RULESETS, Ruleset, get_ruleset
from .. import registry
from .constants import FAMILY_NAME
from ..._validate import short_repr as _short_repr
from ._constants import FORM_NAMES, FORM_THIRTEEN_ORPHANS
from .tiles import parse_hand, tile_short, to_counts

__all__ = [
    "FORMS",
    "Hand",
    "is_win",
    "waits",
    "waits_mask",
    "live_waits",
    "shanten",
    "form_shanten",
    "form_is_win",
    "is_win_batch",
    "waits_batch",
    "shanten_batch",
    "mask_to_tiles",
]

FORMS: dict[str, int] = {name: code for code, name in enumerate(FORM_NAMES)}
"""Hand forms by name, with the number the compiled core uses."""

_SPECIAL_ONLY = frozenset(FORM_NAMES[FORM_THIRTEEN_ORPHANS:])   # the special forms come last

# name -> (kind mask, special forms) for the hot path: one dict lookup per call
_RS_ARGS: dict[str, tuple[int, bool]] = {
    name: (rs.kind_mask, rs.special_forms) for name, rs in RULESETS.items()
}
_U8 = np.dtype(np.uint8)


def _rs_args(ruleset: "str | Ruleset", capability: str) -> tuple[int, bool]:
    try:
        return _RS_ARGS[ruleset]  # type: ignore[index]
    except (KeyError, TypeError):
        rs = get_ruleset(ruleset, capability)
        return rs.kind_mask, rs.special_forms


def _counts(hand: Any) -> np.ndarray:
    """The hand as a validated-shape uint8 count array (values are checked by the core)."""
    if type(hand) is np.ndarray and hand.dtype is _U8 and hand.ndim == 1 and hand.flags.c_contiguous:
        return hand
    if isinstance(hand, str):
        return parse_hand(hand)
    return to_counts(hand)





class _HandFace(type):
    """The metaclass of :class:`Hand`: ``Hand(tiles, ruleset=...)`` builds the compiled mahjong hand
    for a mahjong ruleset and the hand object of another family's ruleset (its
    ``Family.hand_layer.hand``), or refuses that ruleset with the UnsupportedError naming the family;
    ``isinstance`` holds for every family's hand objects."""

    def __call__(cls, *args: Any, **kwargs: Any) -> Any:
        ruleset = kwargs.get("ruleset", DEFAULT_RULESET)
        if not (type(ruleset) is str and ruleset in _RS_ARGS):
            other = registry.hand_hook(ruleset, FAMILY_NAME, "hand", "mj.Hand")
            if other is not None:
                return other(*args, **kwargs)
        return _MahjongHand(*args, **kwargs)

    def __instancecheck__(cls, obj: Any) -> bool:
        if isinstance(obj, _MahjongHand):
            return True
        return any(isinstance(layer.hand, type) and isinstance(obj, layer.hand)
                   for layer in (f.hand_layer for f in registry.families()) if layer is not None)


class Hand(_MahjongHand, metaclass=_HandFace):
    __doc__ = (_MahjongHand.__doc__ or "") + """
    A ruleset of another family builds that family's hand object (``Family.hand_layer``): the
    long-card game's :class:`mahjong_core.families.longcard.hand_layer.LongcardHand` (``declared=``,
    ``banker=`` and its win options as keywords); ``isinstance(h, Hand)`` holds for both.
    """
    __slots__ = ()


def live_waits(
    hand: HandLike, visible: HandLike, *, ruleset: "str | Ruleset" = DEFAULT_RULESET
) -> dict[int, int]:
    """Waits with the number of copies of each still unseen.

    ``visible`` counts the tiles the player can see outside his concealed hand
    (discards, every exposed group, his own declared kongs ...), as a tile
    string or count array.  The result maps each waiting kind to
    ``4 - in_hand - visible``; a wait whose four copies are all accounted for
    maps to 0 (the hand is ready by shape but cannot win on it).

    >>> live_waits("1112345678999m", "5m5m9m")
    {0: 1, 1: 3, 2: 3, 3: 3, 4: 1, 5: 3, 6: 3, 7: 3, 8: 0}

    A visible tile the ruleset does not play raises :class:`RulesetError`, more than
    four copies in hand and visible together :class:`TileCountError`.
    """
    rs = get_ruleset(ruleset, "mj.live_waits")
    counts = _counts(hand)
    seen = _counts(visible)
    outside = [k for k in np.flatnonzero(seen) if not (rs.kind_mask >> int(k)) & 1]
    if outside:
        raise RulesetError(f"visible tile {tile_short(int(outside[0]))} is not played in ruleset {rs.name!r}")
    total = counts.astype(np.int16) + seen
    over = np.flatnonzero(total > 4)
    if over.size:
        k = int(over[0])
        raise TileCountError(
            f"{int(counts[k])} in hand + {int(seen[k])} visible copies of {tile_short(k)}; a tile has only 4"
        )
    return {t: int(4 - total[t]) for t in waits(counts, ruleset=rs.name)}



def _form_code(form: str, ruleset: "str | Ruleset", capability: str) -> tuple[int, int]:
    code = FORMS.get(form) if isinstance(form, str) else None
    if code is None:
        raise MahjongError(f"unknown form {_short_repr(form)}; expected one of {', '.join(FORMS)}")
    rs = get_ruleset(ruleset, capability)
    if form in _SPECIAL_ONLY and not rs.special_forms:
        raise MahjongError(f"form {form!r} does not exist in ruleset {rs.name!r}")
    return code, rs.kind_mask


def form_shanten(hand: HandLike, form: str, *, ruleset: "str | Ruleset" = DEFAULT_RULESET) -> int:
    """Shanten of one form (``"standard"``, ``"seven_pairs"``, ``"thirteen_orphans"``,
    ``"honors_knitted"``, ``"knitted_straight"``).

    >>> form_shanten("1199m1199p1199sEE", "seven_pairs", ruleset="public")
    -1
    """
    code, mask = _form_code(form, ruleset, "mj.form_shanten")
    return _hand.form_shanten(_counts(hand), mask, code)


_form_shanten_checked = form_shanten
"""The Python path of :func:`form_shanten`: every check and every error message.  The public
``form_shanten`` is the compiled front (``_hand.form_shanten_front``, same signature and
documentation), which answers a call with a form and a ruleset by name and a uint8 count array or
a tile string, and hands every other call to this function."""
# as scoring.score: the compiled front takes the def's parameters exactly, so the name keeps the
# def's type (tests/hand/test_form_shanten_front.py checks the signature and the two paths)
form_shanten = functools.update_wrapper(_hand.form_shanten_front, _form_shanten_checked)


def form_is_win(hand: HandLike, form: str, *, ruleset: "str | Ruleset" = DEFAULT_RULESET) -> bool:
    """Win check of one form (names as in :func:`form_shanten`)."""
    code, mask = _form_code(form, ruleset, "mj.form_is_win")
    return _hand.form_is_win(_counts(hand), mask, code)


def counts_2d(hands: Any) -> np.ndarray:
    """An (N, 34) C-contiguous uint8 count array from any integer array or nested list; a count of
    another dtype is checked (0-4) before the cast, so no value wraps around.  Ragged lists, strings,
    floats, booleans and object arrays are refused with ArrayShapeError."""
    try:
        arr = hands if isinstance(hands, np.ndarray) else np.asarray(hands)
    except (ValueError, TypeError, OverflowError) as exc:   # ragged nested lists, odd objects
        raise ArrayShapeError(f"expected an (N, 34) array of tile counts ({exc})") from None
    if arr.ndim != 2 or arr.shape[1] != 34:
        raise ArrayShapeError(f"expected an (N, 34) array of tile counts, got shape {arr.shape}")
    if arr.dtype != _U8:
        if arr.dtype.kind not in "iu":
            raise ArrayShapeError(f"tile counts must be integers (uint8), got dtype {arr.dtype}")
        bad = np.argwhere((arr < 0) | (arr > 4))
        if bad.size:
            r, k = (int(v) for v in bad[0])
            raise TileCountError(f"row {r}: {int(arr[r, k])} copies of {tile_short(k)}; a tile has only 4")
    # uint8 counts above 4 are refused row by row by the compiled validators
    return np.ascontiguousarray(arr, dtype=_U8)


def _other_family(ruleset: Any, name: str, options: dict[str, Any]) -> Any:
    """The batch call ``name`` of the family of a non-mahjong ruleset (``Family.hand_layer``), or
    None for a mahjong one, which takes no options."""
    if not (type(ruleset) is str and ruleset in _RS_ARGS):
        other = registry.hand_hook(ruleset, FAMILY_NAME, name, f"mj.{name}")
        if other is not None:
            return other
    if options:
        raise MahjongError(f"mj.{name}: {sorted(options)[0]} is not an option of a mahjong ruleset")
    return None


def is_win_batch(hands: HandsLike, *, ruleset: "str | Ruleset" = DEFAULT_RULESET, **options: Any) -> np.ndarray:
    """:func:`is_win` for every row of an ``(N, 34)`` count array -> bool array (N,)."""
    other = _other_family(ruleset, "is_win_batch", options)
    if other is not None:
        return other(hands, ruleset=ruleset, **options)   # type: ignore[no-any-return]
    mask, special = _rs_args(ruleset, "mj.is_win_batch")
    return _hand.is_win_batch(counts_2d(hands), mask, special)


def waits_batch(hands: HandsLike, *, ruleset: "str | Ruleset" = DEFAULT_RULESET, **options: Any) -> np.ndarray:
    """Waiting tiles of every row -> uint64 array (N,), bit i set when kind i is a wait."""
    other = _other_family(ruleset, "waits_batch", options)
    if other is not None:
        return other(hands, ruleset=ruleset, **options)   # type: ignore[no-any-return]
    mask, special = _rs_args(ruleset, "mj.waits_batch")
    return _hand.waits_batch(counts_2d(hands), mask, special)


def shanten_batch(hands: HandsLike, *, ruleset: "str | Ruleset" = DEFAULT_RULESET, **options: Any) -> np.ndarray:
    """:func:`shanten` of every row -> int8 array (N,)."""
    other = _other_family(ruleset, "shanten_batch", options)
    if other is not None:
        return other(hands, ruleset=ruleset, **options)   # type: ignore[no-any-return]
    mask, special = _rs_args(ruleset, "mj.shanten_batch")
    return _hand.shanten_batch(counts_2d(hands), mask, special)


def mask_to_tiles(mask: int) -> list[int]:
    """Tile kinds of a wait bitmask (as returned by :func:`waits_batch`).

    >>> mask_to_tiles(0b101)
    [0, 2]
    """
    mask = as_int(mask, "mask", 0, (1 << 34) - 1)
    return [i for i in range(34) if mask >> i & 1]
