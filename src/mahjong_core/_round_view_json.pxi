# Included by _round.pyx, after _round_views.pxi.  The per-seat view written straight to its JSON
# (the server's update frames): the bytes a compact JSON encoder writes for _view's dict (keys in
# VIEW_KEYS order, no spaces, true/false/null), without building the dict, its lists and their
# boxed ints first -- what the server did twice per step (one view per seat) before encoding them.
# Anything this writer does not know how to write exactly (a finished round's result, a head value
# that is not an int, None or a plain ASCII str) makes it hand the dict to the caller's encoder.
from libc.string cimport memcpy, strlen
from json import dumps as _json_dumps
from cpython.bytes cimport PyBytes_FromStringAndSize, PyBytes_AS_STRING, PyBytes_GET_SIZE

cdef enum:
    JSON_CAP = 16384      # a view is a few KiB at most (a long round's discards, a dozen actions)


ctypedef struct _JBuf:
    char* p
    Py_ssize_t n
    Py_ssize_t cap


cdef inline int _jraw(_JBuf* b, const char* s, Py_ssize_t n) noexcept nogil:
    if b.n + n > b.cap:
        return -1
    memcpy(b.p + b.n, s, n)
    b.n += n
    return 0


cdef inline int _jlit(_JBuf* b, const char* s) noexcept nogil:
    return _jraw(b, s, strlen(s))


cdef inline int _jbytes(_JBuf* b, bytes s) noexcept:
    return _jraw(b, PyBytes_AS_STRING(s), PyBytes_GET_SIZE(s))


cdef int _jint(_JBuf* b, long v) noexcept nogil:
    """``v`` in decimal."""
    cdef char tmp[24]
    cdef int i = 24
    cdef unsigned long u = <unsigned long> (-v) if v < 0 else <unsigned long> v
    while True:
        i -= 1
        tmp[i] = <char> (48 + u % 10)
        u //= 10
        if u == 0:
            break
    if v < 0:
        i -= 1
        tmp[i] = 45   # '-'
    return _jraw(b, tmp + i, 24 - i)


cdef int _jint_list(_JBuf* b, const uint8_t* p, Py_ssize_t n) noexcept nogil:
    """The n bytes at p as a JSON array of ints, written in place: at most 3 digits and a comma
    each, the room checked once (a list is a call of _jlit and _jint per value otherwise, and the
    views' tile lists are most of what a view holds)."""
    cdef Py_ssize_t i
    cdef unsigned int v
    cdef char* out
    if b.n + 4 * n + 2 > b.cap:
        return -1
    out = b.p + b.n
    out[0] = 91       # '['
    out += 1
    for i in range(n):
        if i:
            out[0] = 44   # ','
            out += 1
        v = p[i]
        if v >= 100:
            out[0] = <char> (48 + v // 100)
            out[1] = <char> (48 + v // 10 % 10)
            out[2] = <char> (48 + v % 10)
            out += 3
        elif v >= 10:
            out[0] = <char> (48 + v // 10)
            out[1] = <char> (48 + v % 10)
            out += 2
        else:
            out[0] = <char> (48 + v)
            out += 1
    out[0] = 93       # ']'
    b.n = out + 1 - b.p
    return 0


cdef int _jbool(_JBuf* b, bint v) noexcept nogil:
    return _jlit(b, b"true") if v else _jlit(b, b"false")


cdef int _jplain(_JBuf* b, object o) noexcept:
    """An int, None, a bool or a str needing no escape (printable ASCII but quote and backslash)
    as JSON; -1 for anything else (the caller's encoder writes it)."""
    cdef Py_ssize_t i, n
    cdef const char* s
    cdef unsigned char c
    if o is None:
        return _jlit(b, b"null")
    if o is True or o is False:
        return _jbool(b, o is True)
    if type(o) is int:
        if not -2147483647 <= o <= 2147483647:
            return -1
        return _jint(b, <long> o)
    if type(o) is str:
        if not (<str> o).isascii():
            return -1
        data = (<str> o).encode("ascii")
        s = PyBytes_AS_STRING(data)
        n = PyBytes_GET_SIZE(data)
        for i in range(n):
            c = <unsigned char> s[i]
            if c < 32 or c == 34 or c == 92 or c == 127:
                return -1
        if _jlit(b, b"\"") < 0 or _jraw(b, s, n) < 0:
            return -1
        return _jlit(b, b"\"")
    return -1


def _json_text(d):
    """A template's compact JSON (UTF-8 as it is), made once while the module is imported."""
    return _json_dumps(d, ensure_ascii=False, separators=(",", ":")).encode()


cdef tuple _J_PHASES = tuple(('"%s"' % name).encode() for name in PHASE_NAMES)
cdef tuple _J_MELD_KINDS = tuple(('{"kind":"%s","tiles":' % name).encode() for name in _MELD_NAMES)
# the non-chi action dicts of _action_dict, as JSON: per mask index (kongs of one's own: concealed),
# the added kongs and the claimed kongs per tile
cdef tuple _J_ACTIONS = tuple(_json_text(d) for d in _ACTION_TEMPLATES)
cdef tuple _J_ADDED_KONGS = tuple(_json_text(d) for d in _ADDED_KONG_TEMPLATES)
cdef tuple _J_CLAIMED_KONGS = tuple(_json_text(d) for d in _CLAIMED_KONG_TEMPLATES)


cdef int _jmeld(_JBuf* b, const int* m, int owner, int seat) noexcept:
    """_meld_view's dict as JSON."""
    cdef int kind = m[0], first = m[1], k, n
    if kind == 3:
        if _jlit(b, b'{"kind":"ckong","tiles":') < 0:
            return -1
        if owner != seat:
            return _jlit(b, b'null,"from":null}')
        if _jlit(b, b"[") < 0:
            return -1
        for k in range(4):
            if (k and _jlit(b, b",") < 0) or _jint(b, first) < 0:
                return -1
        return _jlit(b, b'],"from":null}')
    if _jbytes(b, <object> PyTuple_GET_ITEM(_J_MELD_KINDS, kind)) < 0:
        return -1
    n = 3 if kind <= 1 else 4
    if _jlit(b, b"[") < 0:
        return -1
    for k in range(n):
        if (k and _jlit(b, b",") < 0) or _jint(b, first + k if kind == 0 else first) < 0:
            return -1
    if _jlit(b, b'],"from":') < 0 or _jint(b, m[2]) < 0 or _jlit(b, b',"claimed":') < 0 or _jint(b, m[3]) < 0:
        return -1
    if kind == 2 and (_jlit(b, b',"added":') < 0 or _jbool(b, m[4] != 0) < 0):
        return -1
    return _jlit(b, b"}")


cdef int _jaction(_JBuf* b, RoundCore r, int seat, int i) noexcept:
    """_legal_dicts' dict of option ``i`` of ``seat`` as JSON."""
    cdef int aux
    if A_CHI_LOW <= i <= A_CHI_HIGH:
        aux = r.claim_tile - (i - A_CHI_LOW)
        if (_jlit(b, b'{"type":"chi","tiles":[') < 0 or _jint(b, aux) < 0 or _jlit(b, b",") < 0
                or _jint(b, aux + 1) < 0 or _jlit(b, b",") < 0 or _jint(b, aux + 2) < 0):
            return -1
        return _jlit(b, b"]}")
    if i == A_KONG_CLAIM:
        return _jbytes(b, <object> PyTuple_GET_ITEM(_J_CLAIMED_KONGS, r.claim_tile))
    if A_KONG_SELF <= i < A_CHI_LOW and _pon_of(r, seat, i - A_KONG_SELF) >= 0:
        return _jbytes(b, <object> PyTuple_GET_ITEM(_J_ADDED_KONGS, i - A_KONG_SELF))
    return _jbytes(b, <object> PyTuple_GET_ITEM(_J_ACTIONS, i))


cdef int _jhead(_JBuf* b, dict head, str key, const char* name) noexcept:
    """``name`` (the key's ``,"key":``) and the head's value of ``key``."""
    if _jlit(b, name) < 0:
        return -1
    return _jplain(b, head.get(key))


cdef object _jhead_texts(dict head):
    """The JSON of a view head's members before ``seat_winds`` (the object opened) and of its
    ``min_fan`` member; None if it holds a value this writer does not write."""
    cdef char buf[1024]
    cdef _JBuf b
    b.p, b.n, b.cap = buf, 0, 1024
    if (_jhead(&b, head, "schema_version", b'{"schema_version":') < 0
            or _jhead(&b, head, "ruleset", b',"ruleset":') < 0
            or _jhead(&b, head, "seat", b',"seat":') < 0
            or _jhead(&b, head, "players", b',"players":') < 0
            or _jhead(&b, head, "dealer", b',"dealer":') < 0
            or _jhead(&b, head, "round_wind", b',"round_wind":') < 0):
        return None
    first = PyBytes_FromStringAndSize(buf, b.n)
    b.n = 0
    if _jhead(&b, head, "min_fan", b',"min_fan":') < 0:
        return None
    return (first, PyBytes_FromStringAndSize(buf, b.n))


cdef object _jhead_for(rnd, RoundCore core, int seat):
    """_jhead_texts of the view head of ``seat`` (_view_head_for), kept with the round's heads."""
    cdef dict head = _view_head_for(rnd, core, seat)
    cdef list heads = rnd._view_heads
    cached = rnd._view_json_heads
    if cached is None or (<tuple> cached)[0] is not heads:
        cached = rnd._view_json_heads = (heads, [_jhead_texts(h) for h in heads])
    return (<list> (<tuple> cached)[1])[seat]


cdef int _jview(_JBuf* b, RoundCore r, int seat, tuple head) noexcept:
    """_view(r, seat, ..., None) as JSON, ``head`` the _jhead_texts of the seat's view head;
    -1: not written (too long)."""
    cdef int P = r.P, ph = r.phase, k, i, j, n, claim = 0
    n = _legal(r, seat)
    if ph == PH_CLAIM or ph == PH_ROB:
        claim = 1
    if _jbytes(b, head[0]) < 0 or _jlit(b, b',"seat_winds":') < 0:
        return -1
    if r.seat_winds:
        if _jlit(b, b"[") < 0:
            return -1
        for k in range(P):
            if (k and _jlit(b, b",") < 0) or _jint(b, 27 + (k - r.dealer + P) % P) < 0:
                return -1
        if _jlit(b, b"]") < 0:
            return -1
    elif _jlit(b, b"null") < 0:
        return -1
    if _jlit(b, b',"phase":') < 0 or _jbytes(b, <object> PyTuple_GET_ITEM(_J_PHASES, ph)) < 0:
        return -1
    if _jlit(b, b',"turn":') < 0:
        return -1
    if ph == PH_TURN:
        if _jint(b, r.turn) < 0:
            return -1
    elif claim:
        if _jint(b, r.claim_from) < 0:
            return -1
    elif _jlit(b, b"null") < 0:
        return -1
    if (_jlit(b, b',"to_act":') < 0 or _jbool(b, n > 0) < 0 or _jlit(b, b',"hand":[') < 0):
        return -1
    i = 0
    for k in range(NK):
        for j in range(r.hands[seat][k]):
            if (i and _jlit(b, b",") < 0) or _jint(b, k) < 0:
                return -1
            i += 1
    if _jlit(b, b'],"drawn":') < 0:
        return -1
    if ph == PH_TURN and r.turn == seat and r.drawn >= 0:
        if _jint(b, r.drawn) < 0:
            return -1
    elif _jlit(b, b"null") < 0:
        return -1
    if _jlit(b, b',"hand_sizes":[') < 0:
        return -1
    for k in range(P):
        if (k and _jlit(b, b",") < 0) or _jint(b, _sum34(r.hands[k])) < 0:
            return -1
    if _jlit(b, b'],"melds":[') < 0:
        return -1
    for k in range(P):
        if (k and _jlit(b, b",") < 0) or _jlit(b, b"[") < 0:
            return -1
        for i in range(r.n_melds[k]):
            if (i and _jlit(b, b",") < 0) or _jmeld(b, r.melds[k][i], k, seat) < 0:
                return -1
        if _jlit(b, b"]") < 0:
            return -1
    if _jlit(b, b'],"discards":[') < 0:
        return -1
    for k in range(P):
        if (k and _jlit(b, b",") < 0) or _jint_list(b, r.pool[k], r.n_pool[k]) < 0:
            return -1
    if _jlit(b, b'],"flowers":[') < 0:
        return -1
    for k in range(P):
        if (k and _jlit(b, b",") < 0) or _jint_list(b, r.flowers[k], r.n_flowers[k]) < 0:
            return -1
    if _jlit(b, b'],"ready":') < 0:
        return -1
    if r.ready_mode != 0:
        if _jlit(b, b"[") < 0:
            return -1
        for k in range(P):
            if (k and _jlit(b, b",") < 0) or _jbool(b, r.ready[k] != 0) < 0:
                return -1
        if _jlit(b, b"]") < 0:
            return -1
    elif _jlit(b, b"null") < 0:
        return -1
    if (_jlit(b, b',"wall_remaining":') < 0 or _jint(b, r.remaining) < 0
            or _jlit(b, b',"live_remaining":') < 0 or _jint(b, r.remaining - r.reserved) < 0
            or _jlit(b, b',"dice":[') < 0 or _jint(b, r.dice[0]) < 0 or _jlit(b, b",") < 0
            or _jint(b, r.dice[1]) < 0 or _jlit(b, b'],"claim":') < 0):
        return -1
    if claim:
        if (_jlit(b, b'{"tile":') < 0 or _jint(b, r.claim_tile) < 0 or _jlit(b, b',"from":') < 0
                or _jint(b, r.claim_from) < 0):
            return -1
        if ph == PH_ROB:
            if _jlit(b, b',"kind":"added_kong","last":') < 0:
                return -1
        elif _jlit(b, b',"kind":"discard","last":') < 0:
            return -1
        if _jbool(b, r.claim_last != 0) < 0 or _jlit(b, b"}") < 0:
            return -1
    elif _jlit(b, b"null") < 0:
        return -1
    if _jlit(b, b',"legal_actions":[') < 0:
        return -1
    for k in range(n):
        if (k and _jlit(b, b",") < 0) or _jaction(b, r, seat, r.opts[seat][k]) < 0:
            return -1
    if (_jlit(b, b'],"legal_indices":') < 0 or _jint_list(b, r.opts[seat], n) < 0
            or _jlit(b, b',"result":null') < 0):
        return -1
    if _jbytes(b, head[1]) < 0:
        return -1
    return _jlit(b, b"}")


def round_view_json(self, seat, encode):
    """:meth:`view` of ``seat`` as compact JSON (UTF-8 bytes): the bytes ``encode(view(seat))``
    gives for a compact encoder writing UTF-8 as it is (the server's), written from the core's
    state without building the view; a view this writer does not write (a finished round's,
    with its result) is ``encode(view(seat))`` itself.  Same seat checks and errors as
    :meth:`view`."""
    cdef RoundCore core = self._core
    cdef int s = _view_seat(self, core, seat)
    cdef object result = _view_result(self, core)
    cdef object head
    cdef char buf[JSON_CAP]
    cdef _JBuf b
    if result is None:
        head = _jhead_for(self, core, s)
        if head is not None:
            b.p, b.n, b.cap = buf, 0, JSON_CAP
            if _jview(&b, core, s, <tuple> head) == 0:
                return PyBytes_FromStringAndSize(buf, b.n)
    return encode(_view(core, s, _view_head_for(self, core, s), result))
