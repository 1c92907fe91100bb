"""The server's one JSON encoding: compact, UTF-8 text as it is (what the engine's ``to_json`` writes).

One encoder is built once and reused: ``json.dumps`` with arguments builds a new
``JSONEncoder`` at every call, a cost the server would pay a dozen times per action.  With
``orjson`` installed (the ``server`` extra installs it) the text is orjson's, the same text
ten times faster (a view: 16 us with json's C encoder, 1.6 us with orjson, on the development
machine): for what the server encodes (str keys, ints within 64 bits, strings, lists, no NaN)
the two write the same bytes, which tests/server/test_server_encoding.py checks on every kind
of frame; a value orjson refuses (a non-str key, a larger int) goes to json.
"""

from __future__ import annotations

import importlib
import json
from typing import Any

__all__ = ["dumps", "dumps_utf8", "fast_utf8"]

_ENCODER = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"))


def _optional(name: str) -> Any:
    try:
        return importlib.import_module(name)
    except ImportError:   # pragma: no cover - the server extra installs it
        return None


_orjson: Any = _optional("orjson")

fast_utf8: Any = None if _orjson is None else _orjson.dumps
"""orjson's ``dumps`` itself when it is installed (else None): the UTF-8 of :func:`dumps`'s text
for every value it takes, a ``TypeError`` for the others (then :func:`dumps`); for compiled
callers (``mahjong_core._streams``), which call it without :func:`dumps_utf8`'s Python frame."""


def dumps(value: Any) -> str:
    """``json.dumps(value, ensure_ascii=False, separators=(",", ":"))``, the same text."""
    if _orjson is not None:
        try:
            text: str = _orjson.dumps(value).decode()
            return text
        except TypeError:     # a value orjson does not take: json's, the same text otherwise
            pass
    return _ENCODER.encode(value)


def dumps_utf8(value: Any) -> bytes:
    """:func:`dumps` as UTF-8 bytes (orjson's own output, not decoded and encoded again)."""
    if _orjson is not None:
        try:
            data: bytes = _orjson.dumps(value)
            return data
        except TypeError:
            pass
    return _ENCODER.encode(value).encode()
