# Included by _round.pyx.  The per-seat view and the legal options built straight from the C state
# (the server loop's hot path): the same data as the Python view of
# mahjong_core.families.mahjong.round_views.view_fields + game.views.make_view, with the same
# redaction -- opponents' concealed tiles and the tiles of their face-down kongs never leave here.
# A view is built per step, so every list is made at its final size and filled in place, ints come
# from the boxed-int table (_round_boxes.pxi) and meld dicts are copies of per-kind templates.
from cpython.dict cimport PyDict_Copy
from cpython.list cimport PyList_GET_ITEM
from cpython.tuple cimport PyTuple_GET_ITEM

cdef tuple _PHASE_NAMES = tuple(PHASE_NAMES)   # read per view without a global lookup


cdef list _hand_list(const uint8_t* h, Py_ssize_t n):
    """The n tiles of the counts h, ascending."""
    cdef list out = PyList_New(n)
    cdef Py_ssize_t i = 0
    cdef int k, j
    for k in range(NK):
        for j in range(h[k]):
            _list_set(out, i, _int_ref(k))
            i += 1
    return out


cdef list _legal_dicts(RoundCore r, int seat, int n):
    """The action dicts (Action.to_dict()) of the first ``n`` cached options of ``seat``."""
    cdef int k, i, aux
    cdef list out = PyList_New(n)
    cdef object d
    for k in range(n):
        i = r.opts[seat][k]
        aux = 0
        if A_KONG_SELF <= i < A_CHI_LOW:
            aux = _pon_of(r, seat, i - A_KONG_SELF) >= 0
        elif A_CHI_LOW <= i <= A_CHI_HIGH:
            aux = r.claim_tile - (i - A_CHI_LOW)
        elif i == A_KONG_CLAIM:
            aux = r.claim_tile
        d = _action_dict(i, aux)
        _incref(<PyObject*> d)
        _list_set(out, k, <PyObject*> d)
    return out


# the meld dicts of a view before their tiles, "from" and "claimed" are set: chi, pon, exposed kong,
# added kong (kind + 1 for an added kong), and a concealed kong (tiles only for its owner)
cdef list _MELD_TEMPLATES = [{"kind": _MELD_NAMES[kind], "tiles": None, "from": None, "claimed": None}
                             for kind in range(3)]
_MELD_TEMPLATES.append(dict(_MELD_TEMPLATES[2], added=True))
_MELD_TEMPLATES[2]["added"] = False
# the claim of a view before its tile and discarder are set: a discard's, a robbable added kong's
cdef list _CLAIM_TEMPLATES = [{"tile": None, "from": None, "kind": kind, "last": False}
                              for kind in ("discard", "added_kong")]
cdef dict _CKONG_TEMPLATE = {"kind": "ckong", "tiles": None, "from": None}


cdef list _meld_tiles(int kind, int first):
    cdef int n = 3 if kind <= 1 else 4, k
    cdef list out = PyList_New(n)
    for k in range(n):
        _list_set(out, k, _int_ref(first + k if kind == 0 else first))
    return out


cdef dict _meld_view(const int* m, int owner, int seat):
    cdef int kind = m[0], first = m[1]
    cdef dict d
    if kind == 3:
        d = PyDict_Copy(_CKONG_TEMPLATE)
        if owner == seat:
            d["tiles"] = _meld_tiles(kind, first)
        return d
    d = PyDict_Copy(<object> PyList_GET_ITEM(_MELD_TEMPLATES, kind + (kind == 2 and m[4] != 0)))
    d["tiles"] = _meld_tiles(kind, first)
    d["from"] = _int(m[2])
    d["claimed"] = _int(m[3])
    return d


cdef list _melds_view(RoundCore r, int seat):
    """Per seat, the view of its melds."""
    cdef list out = PyList_New(r.P), row
    cdef dict d
    cdef int k, i
    for k in range(r.P):
        row = PyList_New(r.n_melds[k])
        for i in range(r.n_melds[k]):
            d = _meld_view(r.melds[k][i], k, seat)
            _incref(<PyObject*> d)
            _list_set(row, i, <PyObject*> d)
        _incref(<PyObject*> row)
        _list_set(out, k, <PyObject*> row)
    return out


cdef list _per_seat_u8(RoundCore r, int which):
    """Per seat, its discards (``which`` 0) or its flowers (1) as lists."""
    cdef list out = PyList_New(r.P), row
    cdef int k
    for k in range(r.P):
        row = _u8_list(r.pool[k], r.n_pool[k]) if which == 0 else _u8_list(r.flowers[k], r.n_flowers[k])
        _incref(<PyObject*> row)
        _list_set(out, k, <PyObject*> row)
    return out


# the keys of a view (round_views.VIEW_KEYS, in order), every value None: a view is a copy of it
# with its values set (a copy keeps the compact str-keyed table; setting a present key is a replace)
from mahjong_core.families.mahjong.round_views import VIEW_KEYS as _VIEW_KEYS
cdef dict _VIEW_TEMPLATE = dict.fromkeys(_VIEW_KEYS)


cdef dict _view_head(RoundCore r, int seat, int schema_version, str ruleset):
    """The template of the views of ``seat``: every key, the values that stay for the round set."""
    cdef dict d = PyDict_Copy(_VIEW_TEMPLATE)
    d["schema_version"] = schema_version
    d["ruleset"] = ruleset
    d["seat"] = seat
    d["players"] = r.P
    d["dealer"] = r.dealer
    if r.seat_winds:
        d["round_wind"] = r.round_wind
    d["min_fan"] = r.min_fan
    return d


cdef dict _view(RoundCore r, int seat, dict head, object result):
    """The view of ``seat`` (a checked seat): a copy of its ``head`` (_view_head) with the
    values of the moment set."""
    cdef int P = r.P, ph = r.phase, k, n
    cdef list legal, winds = None, ready = None, sizes
    cdef dict claim = None, d
    cdef object o
    n = _legal(r, seat)
    legal = _u8_list(r.opts[seat], n)
    if ph == PH_CLAIM or ph == PH_ROB:
        claim = PyDict_Copy(<object> PyList_GET_ITEM(_CLAIM_TEMPLATES, ph == PH_ROB))
        claim["tile"] = _int(r.claim_tile)
        claim["from"] = _int(r.claim_from)
        if r.claim_last:
            claim["last"] = True
    if r.seat_winds:
        winds = PyList_New(P)
        for k in range(P):
            _list_set(winds, k, _int_ref(27 + (k - r.dealer + P) % P))
    if r.ready_mode != 0:
        ready = PyList_New(P)
        for k in range(P):
            o = r.ready[k] != 0
            _incref(<PyObject*> o)
            _list_set(ready, k, <PyObject*> o)
    sizes = PyList_New(P)
    for k in range(P):
        _list_set(sizes, k, _int_ref(_sum34(r.hands[k])))
    d = PyDict_Copy(head)
    if r.seat_winds:
        d["seat_winds"] = winds
    d["phase"] = <object> PyTuple_GET_ITEM(_PHASE_NAMES, ph)
    if ph == PH_TURN:
        d["turn"] = _int(r.turn)
    elif claim is not None:
        d["turn"] = _int(r.claim_from)
    d["to_act"] = n > 0
    d["hand"] = _hand_list(r.hands[seat], _sum34(r.hands[seat]))
    if ph == PH_TURN and r.turn == seat and r.drawn >= 0:
        d["drawn"] = _int(r.drawn)
    d["hand_sizes"] = sizes
    d["melds"] = _melds_view(r, seat)
    d["discards"] = _per_seat_u8(r, 0)
    d["flowers"] = _per_seat_u8(r, 1)
    if ready is not None:
        d["ready"] = ready
    d["wall_remaining"] = _int(r.remaining)
    d["live_remaining"] = _int(r.remaining - r.reserved)
    d["dice"] = [_int(r.dice[0]), _int(r.dice[1])]
    if claim is not None:
        d["claim"] = claim
    d["legal_actions"] = _legal_dicts(r, seat, n)
    d["legal_indices"] = legal
    if result is not None:
        d["result"] = result
    return d
