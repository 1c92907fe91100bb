"""Argument checks shared by every public entry point.

The compiled core runs without bounds checks, so every integer that reaches it
must already be an exact integer in range.  These helpers are the one place
that decides what counts as "an integer" or "a flag" at the API boundary:
``True``/``False`` are not seats or tile indices, ``4.7`` is not a tile, ``"1"``
is not a flag, and a Python integer of any size is compared before it could
overflow a C type.  Each refusal is a :class:`~mahjong_core.errors.MahjongError`
(or the subclass the caller names) whose message says what was expected.
"""

from __future__ import annotations

import math
import reprlib
from typing import Any, Callable, Literal, Sequence, TypeGuard, TypeVar, overload

import numpy as np

from .errors import MahjongError, SeatError

__all__ = ["as_int", "as_flag", "is_int", "short_repr", "bounded_items", "counted"]

_T = TypeVar("_T")

_REPR = reprlib.Repr()
_REPR.maxlevel, _REPR.maxdict, _REPR.maxlist, _REPR.maxtuple = 3, 4, 6, 6
_REPR.maxstring, _REPR.maxother, _REPR.maxlong = 40, 40, 40


def short_repr(value: Any) -> str:
    """``repr(value)`` cut short (nesting, length, digits): safe to put any client value into an
    error message, however large or deeply nested it is (a plain ``repr`` of a list nested ten
    thousand deep raises RecursionError, and one of a 10**5-digit int a ValueError)."""
    if isinstance(value, int) and not -10**30 < value < 10**30:
        return f"<integer of {value.bit_length()} bits>"   # Python refuses to print > 4300 digits
    try:
        return _REPR.repr(value)
    except Exception:  # noqa: BLE001 - a hostile __repr__ must not replace the real error
        return f"<{type(value).__name__} object>"


def counted(n: int, singular: str, plural: "str | None" = None) -> str:
    """``n`` with the noun in agreement, for messages and output: ``counted(1, "round")`` is
    ``"1 round"``, ``counted(3, "entry", "entries")`` is ``"3 entries"`` (default plural: ``+ "s"``)."""
    return f"{n} {singular if n == 1 else plural or singular + 's'}"


def as_seat(value: Any, players: int, what: str = "seat") -> int:
    """``value`` as a seat 0..players-1 (a Python ``int``); :class:`SeatError` otherwise, the one
    error of a bad seat anywhere in the API."""
    if type(value) is int and 0 <= value < players:  # the common case, first
        return value
    if not is_int(value) or not 0 <= value < players:
        raise SeatError(f"{what} must be 0-{players - 1}, got {short_repr(value)}")
    return int(value)


def is_int(value: Any) -> TypeGuard[int | np.integer[Any]]:
    """True for a Python or NumPy integer that is not a boolean."""
    return isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_))


def as_int(value: Any, what: str, lo: "int | None" = None, hi: "int | None" = None,
           error: type[MahjongError] = MahjongError) -> int:
    """``value`` as a Python ``int`` in ``[lo, hi]`` (either bound may be open).

    Refuses booleans, floats (even ``5.0``), strings and anything else that is not an
    integer, with ``error(message)`` naming ``what`` and the accepted range.
    """
    if not is_int(value):
        raise error(f"{what} must be an integer{_range(lo, hi)}, got {short_repr(value)}")
    v = int(value)
    if (lo is not None and v < lo) or (hi is not None and v > hi):
        raise error(f"{what} must be an integer{_range(lo, hi)}, got {short_repr(v)}")
    return v


@overload
def as_choice(value: Any, what: str, choices: "Sequence[str]", *, none: Literal[False] = False,
              error: type[MahjongError] = MahjongError) -> str: ...
@overload
def as_choice(value: Any, what: str, choices: "Sequence[str]", *, none: bool,
              error: type[MahjongError] = MahjongError) -> "str | None": ...
def as_choice(value: Any, what: str, choices: "Sequence[str]", *, none: bool = False,
              error: type[MahjongError] = MahjongError) -> "str | None":
    """``value``, one of the strings ``choices`` (or None when ``none``); anything else is an
    ``error`` naming ``what`` and the choices."""
    if (value is None and none) or (isinstance(value, str) and value in choices):
        return value
    allowed = ", ".join(choices)
    raise error(f"{what} must be {'None or ' if none else ''}one of {allowed}, got {short_repr(value)}")


def as_cap_ms(value: Any, what: str = "max_ms", hi: float = 3_600_000,
              error: type[MahjongError] = MahjongError) -> "float | None":
    """A cap in milliseconds: None (no cap) or a finite number above 0 and at most ``hi``, as a
    float; booleans, strings, NaN and infinities are refused."""
    if value is None:
        return None
    if isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value) and 0 < value <= hi:
        return float(value)
    raise error(f"{what} must be None or a number of milliseconds above 0 (at most {hi:g}), got {short_repr(value)}")


def as_flag(value: Any, what: str, error: type[MahjongError] = MahjongError) -> bool:
    """``value`` as a ``bool``: accepts ``True``/``False`` (Python or NumPy) and the integers
    0 and 1; refuses strings, ``None`` and every other value (``"no"`` is truthy, so a
    string flag would silently mean True)."""
    if isinstance(value, (bool, np.bool_)):
        return bool(value)
    if is_int(value) and int(value) in (0, 1):
        return bool(value)
    raise error(f"{what} must be True or False, got {short_repr(value)}")


def bounded_items(value: Any, max_len: int, item: "Callable[[Any], _T]", *, not_a_list: str, too_many: str,
                  error: type[MahjongError] = MahjongError, too_many_error: "type[MahjongError] | None" = None,
                  string: "str | None" = None, subject: Any = None) -> "list[_T]":
    """``[item(x) for x in value]`` of a client's iterable of at most ``max_len`` entries, reading
    at most one entry past the bound, so a huge or endless iterable costs nothing.

    Refusals, each an ``error`` whose message is a template with ``{}`` for
    :func:`short_repr` of ``subject`` (default ``value``): ``not_a_list`` when ``value`` is not
    iterable, ``string`` (if given) when it is a ``str`` or ``bytes``, ``too_many`` (raised as
    ``too_many_error``, default ``error``) at entry ``max_len + 1``.  ``item`` checks each entry.
    """
    if string is not None and isinstance(value, (str, bytes)):
        raise error(string.format(short_repr(value if subject is None else subject)))
    try:
        it = iter(value)
    except TypeError:
        raise error(not_a_list.format(short_repr(value if subject is None else subject))) from None
    out: "list[_T]" = []
    for x in it:
        if len(out) == max_len:
            raise (too_many_error or error)(too_many.format(short_repr(value if subject is None else subject)))
        out.append(item(x))
    return out


def _range(lo: "int | None", hi: "int | None") -> str:
    if hi is not None and hi >= 2 ** 64 and (hi + 1) & hi == 0:   # 2**k - 1: "below 2**k", not 20+ digits
        below = f"below 2**{(hi + 1).bit_length() - 1}"
        return f" >= {lo} and {below}" if lo is not None else f" {below}"
    if lo is not None and hi is not None:
        return f" {lo}-{hi}" if hi - lo < 1000 else f" from {lo} to {hi:,}"
    if lo is not None:
        return " >= 0" if lo == 0 else f" >= {lo}"
    if hi is not None:
        return f" <= {hi}"
    return ""
