"""The JSON shape of saved game data (round states, log events, results, match states) and the two
structural checks the state boundary uses: :func:`check` (a value against a shape) and
:func:`first_difference` (a document against the one the engine rebuilt).

Both raise or report a :class:`~mahjong_core.errors.StateError` message that starts with the field
path (``hands[1][5]``, ``log[12].action``, ``claim.tile``).  Both are strict about JSON types:
``true`` is not ``1``, ``1.0`` is not ``1``, and a Python integer of any size is compared as a
number before anything could reach the compiled core.  Neither recurses deeper than the shape (or
the rebuilt document) it is given, so a deeply nested document cannot exhaust the stack.
"""

from __future__ import annotations

import json
from typing import Any, Iterable, Sequence

from .. import limits
from .._validate import counted, short_repr
from ..errors import StateError

__all__ = [
    "check", "first_difference", "same_json", "join", "describe", "short_repr", "Int", "Flag", "Bool", "Str",
    "List", "Tuple", "Obj", "Either", "Tagged", "NONE", "ANY_OBJ", "MAX_SEATS", "MAX_SEED", "MAX_SPAWN_KEY",
    "MAX_SPAWN_VALUE",
]

MAX_SEATS = 4
"""The most seats at the table of any family (mahjong 2-4, long card 3)."""
MAX_SPAWN_KEY = 16
"""At most this many entries in a round's ``spawn_key``."""
MAX_SEED = limits.MAX_SEED
"""Largest seed of a round or match (:data:`mahjong_core.limits.MAX_SEED`)."""
MAX_SPAWN_VALUE = 2 ** 64 - 1
"""Largest entry of a round's ``spawn_key``."""


# ---------------------------------------------------------------------------- paths and messages
def join(path: str, key: Any) -> str:
    """``path.key`` (``key`` alone at the top), or ``path[i]`` for an integer index."""
    if isinstance(key, int) and not isinstance(key, bool):
        return f"{path}[{key}]"
    key = key if isinstance(key, str) and len(key) <= 40 else short_repr(key)
    return f"{path}.{key}" if path else key


def describe(value: Any) -> str:
    """A short, safe description of a value for an error message (containers by size only, so
    that a huge or deeply nested value costs nothing to describe)."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        text = str(value) if value.bit_length() <= 64 else f"an integer of {value.bit_length()} bits"
        return text
    if isinstance(value, float):
        return f"the number {value!r}"
    if isinstance(value, str):
        return repr(value) if len(value) <= 40 else repr(value[:40]) + f"... ({len(value)} characters)"
    if isinstance(value, dict):
        return f"an object of {counted(len(value), 'key')}"
    if isinstance(value, (list, tuple)):
        return f"a list of {counted(len(value), 'entry', 'entries')}"
    return f"a {type(value).__name__}"


def _json_kind(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int):
        return "an integer"
    if isinstance(value, float):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, dict):
        return "an object"
    if isinstance(value, (list, tuple)):
        return "a list"
    return f"a {type(value).__name__}"


# ---------------------------------------------------------------------------- shapes
class Shape:
    """A JSON shape: ``check(value, path)`` raises :class:`StateError` naming the path;
    ``fits(value)`` is a quick test that may answer False for a value that fits (then ``check``
    decides), used so that paths are only built for the values that need a closer look."""

    def check(self, value: Any, path: str) -> None:  # pragma: no cover - abstract
        raise NotImplementedError

    def fits(self, value: Any) -> bool:
        return False

    def fail(self, path: str, value: Any) -> "StateError":
        return StateError(f"{path or 'the document'}: expected {self.expect()}, got {describe(value)}")

    def expect(self) -> str:  # pragma: no cover - abstract
        raise NotImplementedError


class Int(Shape):
    """An integer (not a boolean) in ``[lo, hi]``."""

    def __init__(self, lo: int, hi: int) -> None:
        self.lo, self.hi = lo, hi

    def check(self, value: Any, path: str) -> None:
        if not (type(value) is int and self.lo <= value <= self.hi):
            raise self.fail(path, value)

    def fits(self, value: Any) -> bool:
        return type(value) is int and self.lo <= value <= self.hi

    def expect(self) -> str:
        return f"an integer {self.lo}-{self.hi}"


def Flag() -> Int:
    """A state flag: the integer 0 or 1 (the engines store flags as ints)."""
    return Int(0, 1)


class Bool(Shape):
    def check(self, value: Any, path: str) -> None:
        if not isinstance(value, bool):
            raise self.fail(path, value)

    def fits(self, value: Any) -> bool:
        return value is True or value is False

    def expect(self) -> str:
        return "true or false"


class Str(Shape):
    """A string, one of ``choices`` when given."""

    def __init__(self, choices: "Sequence[str] | None" = None, max_len: int = 64) -> None:
        self.choices = tuple(choices) if choices is not None else None
        self.max_len = max_len

    def check(self, value: Any, path: str) -> None:
        if not isinstance(value, str) or len(value) > self.max_len:
            raise self.fail(path, value)
        if self.choices is not None and value not in self.choices:
            raise self.fail(path, value)

    def fits(self, value: Any) -> bool:
        return isinstance(value, str) and len(value) <= self.max_len and (
            self.choices is None or value in self.choices)

    def expect(self) -> str:
        if self.choices is not None:
            return "one of " + ", ".join(repr(c) for c in self.choices)
        return f"a string of at most {self.max_len} characters"


class Const(Shape):
    def __init__(self, value: Any) -> None:
        self.value = value

    def check(self, value: Any, path: str) -> None:
        if not self.fits(value):
            raise self.fail(path, value)

    def fits(self, value: Any) -> bool:
        return value is self.value or (type(value) is type(self.value) and value == self.value)

    def expect(self) -> str:
        return describe(self.value)


NONE = Const(None)


class List(Shape):
    """A list of ``item`` with exactly ``n`` entries, or ``lo``-``hi`` entries."""

    def __init__(self, item: Shape, n: "int | None" = None, lo: int = 0, hi: int = 10 ** 6) -> None:
        self.item = item
        self.lo, self.hi = (n, n) if n is not None else (lo, hi)

    def check(self, value: Any, path: str) -> None:
        if not isinstance(value, list):
            raise self.fail(path, value)
        if not self.lo <= len(value) <= self.hi:
            want = counted(self.lo, "entry", "entries") if self.lo == self.hi else f"{self.lo}-{self.hi} entries"
            raise StateError(f"{path}: expected a list of {want}, got {len(value)}")
        if self._items_fit(value):
            return
        item = self.item
        for i, v in enumerate(value):
            if not item.fits(v):
                item.check(v, f"{path}[{i}]")

    def fits(self, value: Any) -> bool:
        return type(value) is list and self.lo <= len(value) <= self.hi and self._items_fit(value)

    def _items_fit(self, value: list[Any]) -> bool:
        """Quick test of the common cases (lists of bounded ints, lists of objects) in C loops."""
        if not value:
            return True
        item = self.item
        if isinstance(item, Int):
            return set(map(type, value)) == _INT_ONLY and item.lo <= min(value) and max(value) <= item.hi
        if item is ANY_OBJ:
            return set(map(type, value)) == _DICT_ONLY
        return False

    def expect(self) -> str:
        return "a list"


_INT_ONLY = {int}
_DICT_ONLY = {dict}


class Tuple(Shape):
    """A list of fixed length whose entries have their own shapes."""

    def __init__(self, *items: Shape) -> None:
        self.items = items

    def check(self, value: Any, path: str) -> None:
        if not isinstance(value, list) or len(value) != len(self.items):
            raise self.fail(path, value)
        for i, (shape, v) in enumerate(zip(self.items, value)):
            shape.check(v, f"{path}[{i}]")

    def expect(self) -> str:
        return f"a list of {counted(len(self.items), 'entry', 'entries')}"


class Obj(Shape):
    """A JSON object with the ``required`` keys and any of the ``optional`` ones (no others,
    unless ``open``)."""

    def __init__(self, required: "dict[str, Shape]", optional: "dict[str, Shape] | None" = None,
                 open: bool = False) -> None:
        self.required = required
        self.optional = optional or {}
        self.open = open

    def check(self, value: Any, path: str) -> None:
        if not isinstance(value, dict):
            raise self.fail(path, value)
        for k, shape in self.required.items():
            if k not in value:
                raise StateError(f"{join(path, k)}: missing")
            v = value[k]
            if not shape.fits(v):
                shape.check(v, join(path, k))
        if len(value) > len(self.required):
            for k, v in value.items():
                if k in self.required:
                    continue
                extra = self.optional.get(k) if isinstance(k, str) else None
                if extra is None:
                    if self.open:
                        continue
                    raise StateError(f"{join(path, k)}: unknown key")
                if not extra.fits(v):
                    shape.check(v, join(path, k))

    def expect(self) -> str:
        return "an object"


class AnyObj(Shape):
    """Any JSON object (its content is checked elsewhere)."""

    def fits(self, value: Any) -> bool:
        return isinstance(value, dict)

    def check(self, value: Any, path: str) -> None:
        if not isinstance(value, dict):
            raise self.fail(path, value)

    def expect(self) -> str:
        return "an object"


ANY_OBJ = AnyObj()


class Either(Shape):
    def __init__(self, *options: Shape) -> None:
        self.options = options

    def fits(self, value: Any) -> bool:
        return any(o.fits(value) for o in self.options)

    def check(self, value: Any, path: str) -> None:
        errors = []
        for o in self.options:
            try:
                o.check(value, path)
                return
            except StateError as exc:
                errors.append(exc)
        if len(errors) == 1:
            raise errors[0]
        # the option of the value's own JSON kind explains best (an object for an object ...)
        for o, err in zip(self.options, errors):
            if not str(err).startswith(f"{path or 'the document'}: expected"):
                raise err
        raise StateError(f"{path}: expected {' or '.join(o.expect() for o in self.options)}, got {describe(value)}")

    def expect(self) -> str:
        return " or ".join(o.expect() for o in self.options)


class Tagged(Shape):
    """An object whose ``type`` key selects its shape (log events, actions)."""

    def __init__(self, shapes: "dict[str, Obj]", what: str) -> None:
        self.shapes = shapes
        self.what = what

    def check(self, value: Any, path: str) -> None:
        if not isinstance(value, dict):
            raise StateError(f"{path}: {self.what} must be an object, got {describe(value)}")
        t = value.get("type")
        shape = self.shapes.get(t) if isinstance(t, str) else None
        if shape is None:
            if "type" not in value:
                raise StateError(f"{join(path, 'type')}: missing")
            raise StateError(f"{join(path, 'type')}: unknown {self.what} type {describe(t)}; expected one of "
                             + ", ".join(repr(k) for k in self.shapes))
        shape.check(value, path)

    def expect(self) -> str:
        return f"{self.what} object"


def check(shape: Shape, value: Any, path: str = "") -> None:
    """Raise :class:`StateError` (naming the path) unless ``value`` has ``shape``."""
    shape.check(value, path)


# ---------------------------------------------------------------------------- comparison
def same_json(a: Any, b: Any) -> bool:
    """True when ``a`` and ``b`` serialise to the same JSON text: the fast path of the strict
    comparison (``true`` and ``1`` differ as text); False also when ``b`` cannot be serialised
    (not JSON data, nested too deeply).  Tuples count as lists: the document is only compared,
    never used, so that is the same state."""
    try:
        return _DUMPS(a) == _DUMPS(b)
    except (TypeError, ValueError, RecursionError):
        return False


_DUMPS = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"), check_circular=True,
                          allow_nan=False).encode


def first_difference(expected: Any, given: Any, path: str = "", *, skip: Iterable[str] = (),
                     against: str = "the rebuilt round") -> "str | None":
    """The first place where ``given`` differs from ``expected`` (plain JSON data the engine
    rebuilt), as ``"path: what differs"``; ``None`` when they are identical.  Types are compared
    strictly (``true`` is not ``1``, ``1.0`` is not ``1``), keys in ``expected``'s order, then any
    key ``given`` has in excess; top-level keys in ``skip`` must be present but are not compared.
    ``against`` names the expected side in the message."""
    if skip and isinstance(given, dict) and isinstance(expected, dict):
        kept = {k: v for k, v in expected.items() if k not in skip}
        if given.keys() == expected.keys() and same_json(kept, {k: given[k] for k in kept}):
            return None
    elif same_json(expected, given):
        return None
    if skip:
        if not isinstance(given, dict):
            return f"{path or 'the document'}: expected an object, got {describe(given)}"
        for k, v in expected.items():
            if k not in given:
                return f"{join(path, k)}: missing"
            if k not in skip:
                d = _diff(v, given[k], join(path, k), against)
                if d is not None:
                    return d
        return _extra_key(expected, given, path)
    return _diff(expected, given, path, against)


def _extra_key(expected: dict[str, Any], given: dict[str, Any], path: str) -> "str | None":
    if len(given) != len(expected):
        for k in given:
            if k not in expected:
                return f"{join(path, k)}: unknown key"
    return None


def _diff(exp: Any, got: Any, path: str, against: str) -> "str | None":
    if isinstance(exp, dict):
        if not isinstance(got, dict):
            return f"{path}: expected an object, got {describe(got)}"
        for k, v in exp.items():
            if k not in got:
                return f"{join(path, k)}: missing"
            d = _diff(v, got[k], join(path, k), against)
            if d is not None:
                return d
        return _extra_key(exp, got, path)
    if isinstance(exp, (list, tuple)):
        if not isinstance(got, (list, tuple)):
            return f"{path}: expected a list, got {describe(got)}"
        if len(got) != len(exp):
            return f"{path}: a list of {counted(len(got), 'entry', 'entries')}, where {against} has {len(exp)}"
        if _same_scalars(exp, got):
            return None
        for i, (e, g) in enumerate(zip(exp, got)):
            d = _diff(e, g, f"{path}[{i}]", against)
            if d is not None:
                return d
        return None
    if type(got) is not type(exp):
        return f"{path}: expected {_json_kind(exp)}, got {describe(got)}"
    if got != exp:
        return f"{path}: {describe(got)} differs from {against}"
    return None


def _same_scalars(exp: Sequence[Any], got: Sequence[Any]) -> bool:
    """A fast path for the long lists of a state (wall, hands, pools): True when both are equal
    lists of scalars that also agree in every entry's type (``[1] == [True]`` in Python); False
    otherwise (then they are compared entry by entry)."""
    if exp != got:
        return False
    for e, g in zip(exp, got):
        if type(e) is not type(g) or isinstance(e, (dict, list, tuple)):
            return False
    return True

