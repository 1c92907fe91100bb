# Included by _round.pyx.  The per-seat view and the legal options built straight from the C state
# (the server loop's hot path): the same data as the Python view of
# mahjong_core.families.mahjong.round_views.view_fields + game.views.make_view, with the same
# redaction -- opponents' concealed tiles and the tiles of their face-down kongs never leave here.
# Lists are made at their final size (PyList_New) and filled in place: a view is built per step.
from cpython.list cimport PyList_New, PyList_SET_ITEM
from cpython.ref cimport Py_INCREF


cdef inline void _set_int(list out, Py_ssize_t i, long v):
    cdef object o = v
    Py_INCREF(o)
    PyList_SET_ITEM(out, i, o)


cdef list _u8_list(const uint8_t* p, Py_ssize_t n):
    cdef list out = PyList_New(n)
    cdef Py_ssize_t i
    for i in range(n):
        _set_int(out, i, p[i])
    return out


cdef list _hand_list(const uint8_t* h, Py_ssize_t n):
    """The n tiles of the counts h, ascending."""
    cdef list out = PyList_New(n)
    cdef Py_ssize_t i = 0
    cdef int k, j
    for k in range(NK):
        for j in range(h[k]):
            _set_int(out, i, k)
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
            aux = r._pon_of(seat, i - A_KONG_SELF) >= 0
        elif A_CHI_LOW <= i <= A_CHI_HIGH:
            aux = r.claim_tile - (i - A_CHI_LOW)
        elif i == A_KONG_CLAIM:
            aux = r.claim_tile
        d = _action_dict(i, aux)
        Py_INCREF(d)
        PyList_SET_ITEM(out, k, d)
    return out


cdef dict _meld_view(const int* m, int owner, int seat):
    cdef int kind = m[0], first = m[1]
    cdef dict d
    if kind == 3:
        return {"kind": "ckong", "tiles": [first, first, first, first] if owner == seat else None, "from": None}
    if kind == 0:
        tiles = [first, first + 1, first + 2]
    elif kind == 1:
        tiles = [first, first, first]
    else:
        tiles = [first, first, first, first]
    d = {"kind": _MELD_NAMES[kind], "tiles": tiles, "from": m[2], "claimed": m[3]}
    if kind == 2:
        d["added"] = bool(m[4])
    return d


cdef dict _view(RoundCore r, int seat, int schema_version, str ruleset, object result):
    """The view of ``seat`` (a checked seat), keys in the order of round_views.VIEW_KEYS."""
    cdef int P = r.P, ph = r.phase, k, i, n
    cdef list legal, winds = None, ready = None
    cdef dict claim = None
    n = r._legal(seat)
    legal = _u8_list(r.opts[seat], n)
    if ph == PH_CLAIM or ph == PH_ROB:
        claim = {"tile": r.claim_tile, "from": r.claim_from, "kind": "discard" if ph == PH_CLAIM else "added_kong",
                 "last": bool(r.claim_last)}
    if r.seat_winds:
        winds = [27 + (k - r.dealer + P) % P for k in range(P)]
    if r.ready_mode != 0:
        ready = [bool(r.ready[k]) for k in range(P)]
    return {
        "schema_version": schema_version,
        "ruleset": ruleset,
        "seat": seat,
        "players": P,
        "dealer": r.dealer,
        "round_wind": r.round_wind if r.seat_winds else None,
        "seat_winds": winds,
        "phase": PHASE_NAMES[ph],
        "turn": r.turn if ph == PH_TURN else (r.claim_from if claim is not None else None),
        "to_act": n > 0,
        "hand": _hand_list(r.hands[seat], _sum34(r.hands[seat])),
        "drawn": r.drawn if (ph == PH_TURN and r.turn == seat and r.drawn >= 0) else None,
        "hand_sizes": [_sum34(r.hands[k]) for k in range(P)],
        "melds": [[_meld_view(r.melds[k][i], k, seat) for i in range(r.n_melds[k])] for k in range(P)],
        "discards": [_u8_list(r.pool[k], r.n_pool[k]) for k in range(P)],
        "flowers": [_u8_list(r.flowers[k], r.n_flowers[k]) for k in range(P)],
        "ready": ready,
        "wall_remaining": r.remaining,
        "live_remaining": r.remaining - r.reserved,
        "dice": [r.dice[0], r.dice[1]],
        "claim": claim,
        "legal_actions": _legal_dicts(r, seat, n),
        "legal_indices": legal,
        "result": result,
        "min_fan": r.min_fan,
    }
