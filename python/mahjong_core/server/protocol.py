"""The client messages a connection may send, checked before anything reads them, and the
flood limit.  Pure Python (no web framework), so that the checks are tested on their own.

Client → server, one JSON object per text frame:

* ``{"type": "hello", "table": "t1", "seat": 0, "token": "...", "last_event_id": 0,
  "history": "..."}`` — first, and only once: the seat's token from the join; the server answers
  ``welcome`` and an ``update`` holding the stream's events after ``last_event_id`` (resume).
  ``history`` (optional) is the ``state.history`` of the last update the client applied: if it
  is not the digest of the server's first ``last_event_id`` events (the server lost its last
  commits, e.g. with its WAL file), or ``last_event_id`` is beyond the server's stream, the
  welcome says ``"reset": true`` and the update starts again from event 1.
* ``{"type": "act", "index": 12}`` — the action of that mask index (one of the view's
  ``legal_indices``).
* ``{"type": "quit"}`` — leave during a hand (强退: an escape).
* ``{"type": "ping"}`` — answered with ``pong``.

Server → client: ``welcome`` (``table``, ``seat``, ``room``, ``ruleset``, ``players``,
``last_id``: the stream's length the seat may know of, ``resume_from``: the id after which the
next update's events start, ``reset``: true when the client must drop the events it holds),
``update`` (``events``: ``[{"id", "event"}]`` in id order, and ``state``: the seat's view,
deadline, players, balances, ``last_id`` and ``history``: the digest of events 1..last_id),
``error`` (``message``; nothing was changed) and ``pong``.

Text is checked as Unicode text: a string holding a lone surrogate (``"\ud800"``: valid JSON,
not valid UTF-8) is refused like any malformed message.
"""

from __future__ import annotations

import json
import re
from typing import Any

__all__ = ["MESSAGE_KEYS", "ProtocolError", "RateLimit", "act_index", "parse_message"]

MESSAGE_KEYS: dict[str, dict[str, tuple[type, bool]]] = {
    # type -> key -> (JSON type, required)
    "hello": {"table": (str, True), "seat": (int, True), "token": (str, True), "last_event_id": (int, False),
              "history": (str, False)},
    "act": {"index": (int, True)},
    "quit": {},
    "ping": {},
}
MAX_INT = 1 << 31
MAX_STR = 256


class ProtocolError(ValueError):
    """A message that is not one of the protocol's: the connection gets an error frame."""


def _no_constant(name: str) -> Any:
    raise ProtocolError(f"not a JSON number: {name}")


_DECODER = json.JSONDecoder(parse_constant=_no_constant)
"""Built once: ``json.loads`` with an argument builds a new decoder at every message."""


_ACT = re.compile(r'\{[ \t\n\r]*"type"[ \t\n\r]*:[ \t\n\r]*"act"[ \t\n\r]*,[ \t\n\r]*"index"[ \t\n\r]*:'
                  r'[ \t\n\r]*(0|[1-9][0-9]{0,9})[ \t\n\r]*\}[ \t\n\r]*')
"""An act message as clients write it (the type first, JSON's own whitespace): the message of
most frames, read without the decoder (a tenth of the server's CPU for a message went to it);
any other text, an act with its keys the other way round too, goes through the decoder."""


def act_index(text: str) -> int | None:
    """The index of an act message as clients write it (:data:`_ACT`, the index in range), else
    None (any other text: :func:`parse_message` reads it).  The session's path for a seated
    connection's act, without the message's dict."""
    act = _ACT.fullmatch(text)
    if act is not None:
        index = int(act[1])
        if index < MAX_INT:
            return index
    return None


def parse_message(text: str) -> dict[str, Any]:
    """The checked message of a text frame: an object with a known ``type`` and exactly its keys,
    ints in range (never bool, float or NaN), short strings; else :class:`ProtocolError`."""
    index = act_index(text)
    if index is not None:
        return {"type": "act", "index": index}
    try:
        msg = _DECODER.decode(text)
    except (ValueError, RecursionError) as exc:
        raise ProtocolError(f"not valid JSON ({type(exc).__name__})") from None
    if not isinstance(msg, dict):
        raise ProtocolError("a message must be a JSON object")
    kind = msg.get("type")
    if not isinstance(kind, str) or kind not in MESSAGE_KEYS:
        raise ProtocolError(f"unknown message type; expected one of {', '.join(MESSAGE_KEYS)}")
    keys = MESSAGE_KEYS[kind]
    for key in msg:
        if key != "type" and key not in keys:
            raise ProtocolError(f"{kind}: unknown key {key[:40]!r}")
    for key, (typ, required) in keys.items():
        if key not in msg:
            if required:
                raise ProtocolError(f"{kind}: missing key {key!r}")
            continue
        value = msg[key]
        if typ is int:
            if type(value) is not int or not 0 <= value < MAX_INT:
                raise ProtocolError(f"{kind}: {key} must be an integer 0-{MAX_INT - 1}")
        elif not isinstance(value, str) or not 0 < len(value) <= MAX_STR:
            raise ProtocolError(f"{kind}: {key} must be a string of 1-{MAX_STR} characters")
        elif not _is_text(value):
            raise ProtocolError(f"{kind}: {key} is not valid Unicode text (a lone surrogate)")
    return msg


def _is_text(value: str) -> bool:
    """No lone surrogate (JSON's ``\\ud800`` escapes decode to one; UTF-8 cannot encode it)."""
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


class RateLimit:
    """A token bucket: ``rate`` messages per second on average, ``burst`` at once."""

    def __init__(self, rate: float, burst: int, now: float) -> None:
        self.rate = rate
        self.burst = float(burst)
        self.tokens = float(burst)
        self.last = now

    def allow(self, now: float) -> bool:
        tokens = self.tokens + (now - self.last) * self.rate
        self.tokens = tokens if tokens < self.burst else self.burst    # min() without its call (every message)
        self.last = now
        if self.tokens < 1.0:
            return False
        self.tokens -= 1.0
        return True
