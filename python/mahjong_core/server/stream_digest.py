"""The ``history`` of a seat's stream: the digest of its events 1..``last_id`` that every update
frame carries and that a client sends back in its ``hello`` (:mod:`.protocol`), so that the
server tells a history it no longer holds (commits lost with a WAL) from its own.

The digest is CRC-32 (``zlib.crc32``) of the events' JSON texts in UTF-8, in order, written as
8 lowercase hex digits; a seat keeps it as a running int (:attr:`.table.Seat.history`), extended
by each event it is given, so that an update frame only formats it.  It was BLAKE2b-128 (32 hex
digits) until issue 26's item 12: the ``hexdigest`` of every update frame (a copy of the hash's
state and one more compression) cost about 3,300 instructions, two frames an action, and its
update about 14 instructions per byte against CRC-32's 8.  The digest is neither a secret nor a
defence: a client that sends a wrong one is sent its own stream again from the start; what it
detects is an accidental divergence, which 32 bits miss once in four billion resumes.  A client
that still holds a digest of the old form (a page left open across the upgrade) sends 32 hex
digits, which are checked as BLAKE2b was: it resumes without a reset.
"""

from __future__ import annotations

import hashlib
import zlib
from collections.abc import Iterable

__all__ = ["digest_text", "extend_digest", "running_digest", "same_history", "stream_digest"]

OLD_LENGTH = 32
"""The length of a digest of the old form (BLAKE2b-128's hex digits); the current one has 8."""


extend_digest = zlib.crc32
"""``extend_digest(utf8, value)``: the running digest ``value`` extended by one event's UTF-8 (the
table's hot path calls it per event and seat, so it is the C function itself, not a wrapper)."""


def running_digest(texts: Iterable[str], value: int = 0) -> int:
    """``value`` (the running digest of a stream) extended by ``texts``."""
    for text in texts:
        value = extend_digest(text.encode("utf-8", "surrogatepass"), value)
    return value


def digest_text(value: int) -> str:
    """The ``history`` text of a running digest."""
    return f"{value:08x}"


def stream_digest(texts: Iterable[str]) -> str:
    """The ``history`` of a stream prefix (its events' JSON texts, in order)."""
    return digest_text(running_digest(texts))


def _old_digest(texts: Iterable[str]) -> str:
    """The ``history`` of the old form: BLAKE2b-128 of the texts, in hex."""
    h = hashlib.blake2b(digest_size=16)
    for text in texts:
        h.update(text.encode("utf-8", "surrogatepass"))
    return h.hexdigest()


def same_history(stream: list[str], last_id: int, running: int, history: str) -> bool:
    """Whether a client's ``history`` of events 1..``last_id`` is the digest of ``stream``'s
    first ``last_id`` events (``running``: the running digest of the whole stream), in the
    current form or the old one."""
    if len(history) == OLD_LENGTH:
        return _old_digest(stream[:last_id]) == history
    value = running if last_id == len(stream) else running_digest(stream[:last_id])
    return digest_text(value) == history
