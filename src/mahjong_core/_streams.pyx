# cython: language_level=3
"""Compiled inner loops of the server's table path (:mod:`mahjong_core.server.table`, issue 26, item 12).

Private module.  Per action the table appended each new log event to every seat's stream as the
seat may see it (a redaction call, the event's text, the running digest, the pending row: about
a dozen interpreter calls per seat and event) and wrote each seat's update frame (its events, the
digest, the state); both ran in the interpreter, which was about three fifths of the server's CPU.
They are here, the same texts and bytes as the Python they replace (``tests/server`` holds
:func:`append_events` and :func:`update_frame` against that Python on seeded games).

The caller is the table: its arguments are its own lists and texts, not a client's.  The sizes
that index anything (``start``) are checked here all the same, as every compiled entry point's are.
"""

from cpython.bytes cimport PyBytes_AS_STRING, PyBytes_FromStringAndSize, PyBytes_GET_SIZE
from cpython.list cimport PyList_GET_ITEM, PyList_GET_SIZE
from libc.string cimport memcpy

cdef extern from "Python.h":
    const char* PyUnicode_AsUTF8AndSize(object text, Py_ssize_t* size) except NULL


cdef inline tuple _encoded(object value, object dumps, object encode_utf8):
    """``(text, UTF-8)`` of ``value``: ``encode_utf8``'s bytes when it is given and takes the value
    (orjson's ``dumps``: its bytes are the UTF-8 of ``dumps``'s text, which has no surrogate),
    else ``dumps``'s text and its UTF-8 (``surrogatepass``, as the digests always took it)."""
    cdef object text, utf8
    if encode_utf8 is not None:
        try:
            utf8 = encode_utf8(value)
        except TypeError:   # a value it does not take: the caller's encoder, the same text otherwise
            pass
        else:
            return utf8.decode(), utf8
    text = dumps(value)
    return text, text.encode("utf-8", "surrogatepass")


def append_events(list events not None, dict known not None, object redact, list seats not None,
                  list pending not None, object dumps, object extend, object round_start=None,
                  object encode_utf8=None):
    """Append the round's new log ``events`` to every seat's stream as the seat may see it
    (``redact(ev, seat)``: the event itself, a redacted copy, or None), each seat's running
    digest extended (``extend(utf8, digest)``: :func:`.stream_digest.extend_digest`, the
    digest's one definition) and each appended text recorded in ``pending``
    as ``(seat, its id, text)``; at a round's start (``round_start``: the table's ``round_start``
    event's JSON) that event first in every stream.

    Each event is encoded once by ``dumps`` and kept in ``known`` under its ``id`` as ``(event,
    text, UTF-8)`` (the texts the stored log reuses).  A seat sees that text when it is given the
    event itself, or, for a step's events, a copy equal to it; a round's first events seen as
    copies are encoded again (in the copy's own key order, as these streams always were).
    ``encode_utf8``: the bytes encoder whose UTF-8 ``dumps`` decodes, when there is one (see
    :mod:`mahjong_core.server.encoding`), used first (a ``TypeError`` from it: ``dumps``)."""
    cdef Py_ssize_t n = PyList_GET_SIZE(events), i, s, count
    cdef list texts = [None] * n, utf8s = [None] * n, stream
    cdef object ev, text, utf8, seen, seat, h
    cdef bint starting = round_start is not None
    cdef object start_utf8 = round_start.encode("utf-8", "surrogatepass") if starting else None
    for i in range(n):
        ev = <object> PyList_GET_ITEM(events, i)
        text, utf8 = _encoded(ev, dumps, encode_utf8)
        known[id(ev)] = (ev, text, utf8)
        texts[i] = text
        utf8s[i] = utf8
    for s in range(PyList_GET_SIZE(seats)):
        seat = <object> PyList_GET_ITEM(seats, s)
        stream = seat.stream
        h = seat.history
        count = PyList_GET_SIZE(stream)
        try:
            if starting:
                stream.append(round_start)
                count += 1
                h = extend(start_utf8, h)
                pending.append((s, count, round_start))
            for i in range(n):
                ev = <object> PyList_GET_ITEM(events, i)
                seen = redact(ev, s)
                if seen is None:
                    continue
                if seen is ev or (not starting and seen == ev):
                    text = <object> PyList_GET_ITEM(texts, i)
                    utf8 = <object> PyList_GET_ITEM(utf8s, i)
                else:
                    text, utf8 = _encoded(seen, dumps, encode_utf8)
                stream.append(text)
                count += 1
                h = extend(utf8, h)
                pending.append((s, count, text))
        finally:   # the digest always that of the stream as it is (an error midway included)
            seat.history = h


def log_texts(list log not None, Py_ssize_t start, dict known not None, object dumps):
    """The JSON texts of ``log[start:]`` (the round's log events not yet stored): each event's
    text kept in ``known`` by :func:`append_events` when it is that event, else ``dumps``'s."""
    cdef Py_ssize_t n = PyList_GET_SIZE(log), i
    cdef list out = []
    cdef object ev, pair
    if start < 0:
        raise ValueError(f"log_texts: start {start} is negative")
    for i in range(start, n):
        ev = <object> PyList_GET_ITEM(log, i)
        pair = known.get(id(ev))
        out.append((<tuple> pair)[1] if pair is not None and (<tuple> pair)[0] is ev else dumps(ev))
    return out


cdef const char* _HEX = b"0123456789abcdef"

cdef bytes _FRAME_HEAD = b'{"type":"update","events":['
cdef bytes _EVENT_HEAD = b'{"id":'
cdef bytes _EVENT_MID = b',"event":'
cdef bytes _STATE_HEAD = b'],"state":{"last_id":'
cdef bytes _HISTORY_HEAD = b',"history":"'
cdef bytes _PLAYERS_HEAD = b',"players":'
cdef bytes _VIEW_HEAD = b',"view":'


cdef inline char* _put(char* out, bytes b) noexcept:
    cdef Py_ssize_t k = PyBytes_GET_SIZE(b)
    memcpy(out, PyBytes_AS_STRING(b), k)
    return out + k


cdef inline int _digits(Py_ssize_t v) noexcept nogil:
    cdef int d = 1
    while v >= 10:
        v //= 10
        d += 1
    return d


cdef inline char* _put_int(char* out, Py_ssize_t v, int d) noexcept nogil:
    """``v`` (>= 0, ``d`` digits) in decimal."""
    cdef int j
    for j in range(d - 1, -1, -1):
        out[j] = <char> (48 + v % 10)
        v //= 10
    return out + d


def update_frame(list stream not None, Py_ssize_t start, unsigned long long history,
                 bytes tail not None, bytes players not None, bytes view not None):
    """An ``update`` frame's UTF-8 bytes: the events ``stream[start:]`` (their ids from
    ``start + 1``), then the state: ``last_id`` (the stream's length), ``history`` (the running
    digest, 8 hex digits), ``tail`` (the table's own members, without braces), ``players`` and
    ``view`` (JSON) -- the bytes the table's Python joined before.  The history is written as
    :func:`.stream_digest.digest_text` writes it (``tests/server`` holds the two equal).  The texts are encoded
    strictly, as ``str.encode()`` does (an unpaired surrogate is a ``UnicodeEncodeError``)."""
    cdef Py_ssize_t n = PyList_GET_SIZE(stream), i, size, k
    cdef const char* src
    cdef char* out
    cdef object text
    cdef bytes frame
    cdef int j
    if start < 0 or start > n:
        raise ValueError(f"update_frame: start {start} is not within the stream's {n} events")
    if history > 0xFFFFFFFF:
        raise ValueError(f"update_frame: history {history} is not a 32-bit digest")
    size = PyBytes_GET_SIZE(_FRAME_HEAD) + PyBytes_GET_SIZE(_STATE_HEAD) + _digits(n) \
        + PyBytes_GET_SIZE(_HISTORY_HEAD) + 8 + 2 + PyBytes_GET_SIZE(tail) \
        + PyBytes_GET_SIZE(_PLAYERS_HEAD) + PyBytes_GET_SIZE(players) \
        + PyBytes_GET_SIZE(_VIEW_HEAD) + PyBytes_GET_SIZE(view) + 2
    for i in range(start, n):
        text = <object> PyList_GET_ITEM(stream, i)
        if type(text) is not str:
            raise ValueError(f"update_frame: stream[{i}] is not a str")
        PyUnicode_AsUTF8AndSize(text, &k)
        # '{"id":' digits ',"event":' text '}' and the comma before all but the first
        size += PyBytes_GET_SIZE(_EVENT_HEAD) + _digits(i + 1) + PyBytes_GET_SIZE(_EVENT_MID) + k + 1 \
            + (i > start)
    frame = PyBytes_FromStringAndSize(NULL, size)
    out = PyBytes_AS_STRING(frame)
    out = _put(out, _FRAME_HEAD)
    for i in range(start, n):
        if i > start:
            out[0] = 44   # ','
            out += 1
        out = _put(out, _EVENT_HEAD)
        out = _put_int(out, i + 1, _digits(i + 1))
        out = _put(out, _EVENT_MID)
        src = PyUnicode_AsUTF8AndSize(<object> PyList_GET_ITEM(stream, i), &k)   # cached by the first pass
        memcpy(out, src, k)
        out += k
        out[0] = 125   # '}'
        out += 1
    out = _put(out, _STATE_HEAD)
    out = _put_int(out, n, _digits(n))
    out = _put(out, _HISTORY_HEAD)
    for j in range(8):
        out[j] = _HEX[(history >> (28 - 4 * j)) & 15]
    out += 8
    out[0] = 34   # '"'
    out[1] = 44   # ','
    out += 2
    out = _put(out, tail)
    out = _put(out, _PLAYERS_HEAD)
    out = _put(out, players)
    out = _put(out, _VIEW_HEAD)
    out = _put(out, view)
    out[0] = 125
    out[1] = 125
    return frame


def text_frame(bytes data not None, Py_ssize_t limit):
    """The text of ``data`` when it is exactly one whole client text frame (FIN, no reserved bit,
    masked, its payload at most ``limit`` bytes) whose payload is UTF-8, else None: the frame
    the server's WebSocket protocol reads on nearly every packet (a seated client's act),
    unmasked and decoded here; anything else (a partial frame, two frames, a control frame, a
    fragment, a frame too large, bad UTF-8) goes to its general reader, which this one leaves
    untouched."""
    cdef Py_ssize_t size = PyBytes_GET_SIZE(data), n, at, i
    cdef const unsigned char* p = <const unsigned char*> PyBytes_AS_STRING(data)
    cdef unsigned char* out
    cdef bytes payload
    if size < 6 or p[0] != 0x81 or not (p[1] & 0x80):
        return None
    n = p[1] & 0x7F
    at = 2
    if n == 126:
        if size < 8:
            return None
        n = (p[2] << 8) | p[3]
        at = 4
    elif n == 127:   # 64 KiB and more: not a table's message
        return None
    if n > limit or at + 4 + n != size:
        return None
    payload = PyBytes_FromStringAndSize(NULL, n)
    out = <unsigned char*> PyBytes_AS_STRING(payload)
    for i in range(n):
        out[i] = p[at + 4 + i] ^ p[at + (i & 3)]
    try:
        return payload.decode()
    except UnicodeDecodeError:
        return None
