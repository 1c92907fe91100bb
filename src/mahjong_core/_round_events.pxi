# Included by _round.pyx.  Decoding of the event buffer: the machine writes fixed records of EV_W
# ints (RoundCore._ev); these functions turn them into the documented log dicts on demand.
from cpython.dict cimport PyDict_Copy
from cpython.list cimport PyList_GET_ITEM

cdef list _decode_events(RoundCore r, Py_ssize_t start):
    """Event dicts from record ``start`` on (the documented log format, header excluded)."""
    cdef Py_ssize_t k, end = r.ev_len // EV_W
    cdef int32_t* p
    cdef list out = []
    cdef int t, seat, i
    cdef dict d
    if start < 0:
        start = 0
    for k in range(start, end):
        p = r.ev + k * EV_W
        t = p[0]
        if t == EV_DRAW:
            if p[3] == FROM_DIE:
                out.append({"type": "draw", "seat": p[1], "tile": p[2], "from": "die", "die": p[4]})
            elif p[2] < NK:
                out.append(PyDict_Copy(<object> PyList_GET_ITEM(_DRAW_TEMPLATES, (2 * p[1] + p[3]) * NK + p[2])))
            else:  # a flower
                out.append({"type": "draw", "seat": p[1], "tile": p[2], "from": _FROM_NAMES[p[3]]})
        elif t == EV_ACTION:
            d = PyDict_Copy(<object> PyList_GET_ITEM(_ACTION_EVENT_TEMPLATES, p[1]))
            d["action"] = _action_dict(p[2], p[3])
            out.append(d)
        elif t == EV_DISCARD:
            if p[3]:
                out.append({"type": "discard", "seat": p[1], "tile": p[2], "ready": True,
                            "heavenly": bool(p[4])})
            else:
                out.append(PyDict_Copy(<object> PyList_GET_ITEM(_DISCARD_TEMPLATES, p[1] * NK + p[2])))
        elif t == EV_FLOWER:
            out.append({"type": "flower", "seat": p[1], "tile": p[2]})
        elif t == EV_KONG:
            if p[2] == 2:
                out.append({"type": "kong", "seat": p[1], "kind": "exposed", "tile": p[3], "from": p[4]})
            else:
                out.append({"type": "kong", "seat": p[1], "kind": _KONG_KINDS[p[2]], "tile": p[3]})
        elif t == EV_PON:
            out.append({"type": "pon", "seat": p[1], "tile": p[2], "from": p[3]})
        elif t == EV_CHI:
            out.append({"type": "chi", "seat": p[1], "tiles": [p[2], p[2] + 1, p[2] + 2], "tile": p[3],
                        "from": p[4]})
        elif t == EV_READY:
            out.append({"type": "ready", "seat": p[1], "heavenly": bool(p[2])})
        elif t == EV_DICE:
            out.append({"type": "dice", "dice": [p[1], p[2]], "sum": p[1] + p[2], "opened_wall": p[3],
                        "first_stack": p[4]})
        elif t == EV_DEAL:
            seat = p[1]
            out.append({"type": "deal", "seat": seat,
                        "tiles": [r.dealt[seat][i] for i in range(r.n_dealt[seat])]})
        elif t == EV_EXHAUSTIVE:
            out.append({"type": "exhaustive_draw", "wall_remaining": p[1]})
        elif t == EV_ROUND_END:
            out.append({"type": "round_end", "draw": bool(p[1]),
                        "winners": [r.winners[i] for i in range(r.n_winners)], "next_dealer": p[2]})
        elif t == EV_WIN:
            out.append({"type": "win", "winner_index": p[1]})  # completed by the Python layer
    return out


cdef dict _new_action_dict(int i, int aux):
    """The action dict (Action.to_dict()) of mask index ``i``; ``aux``: an added kong (kong
    indices), the lowest tile (chi) or the claimed tile (exposed kong)."""
    if i < A_DISCARD_READY:
        return {"type": "discard", "tile": i, "ready": False}
    if i < A_KONG_SELF:
        return {"type": "discard", "tile": i - A_DISCARD_READY, "ready": True}
    if i < A_CHI_LOW:
        return {"type": "kong", "tile": i - A_KONG_SELF, "kind": "added" if aux else "concealed"}
    if i <= A_CHI_HIGH:
        return {"type": "chi", "tiles": [aux, aux + 1, aux + 2]}
    if i == A_PON:
        return {"type": "pon"}
    if i == A_KONG_CLAIM:
        return {"type": "kong", "tile": aux, "kind": "exposed"}
    if i == A_WIN:
        return {"type": "win"}
    if i == A_DECLARE_READY:
        return {"type": "declare_ready"}
    return {"type": "pass"}


# Every action dict but a chi's holds only immutable values, so a fresh one is a copy of a
# template made once (a dict copy is cheaper than building the dict key by key: views list about
# a dozen of them per step).
cdef list _ACTION_TEMPLATES = [_new_action_dict(i, 0) for i in range(A_SIZE)]
# the same for the three most frequent events: actions (their action dict set), draws from the head
# or the tail and plain discards
cdef list _DRAW_TEMPLATES = [{"type": "draw", "seat": seat, "tile": t, "from": _FROM_NAMES[src]}
                             for seat in range(MAXP) for src in (FROM_HEAD, FROM_TAIL) for t in range(NK)]
cdef list _ACTION_EVENT_TEMPLATES = [{"type": "action", "seat": seat, "action": None} for seat in range(MAXP)]
cdef list _DISCARD_TEMPLATES = [{"type": "discard", "seat": seat, "tile": t}
                                for seat in range(MAXP) for t in range(NK)]
cdef list _ADDED_KONG_TEMPLATES = [_new_action_dict(A_KONG_SELF + t, 1) for t in range(NK)]
cdef list _CLAIMED_KONG_TEMPLATES = [_new_action_dict(A_KONG_CLAIM, t) for t in range(NK)]


cdef dict _action_dict(int i, int aux):
    if A_CHI_LOW <= i <= A_CHI_HIGH:
        return _new_action_dict(i, aux)
    if i == A_KONG_CLAIM:
        return PyDict_Copy(<object> PyList_GET_ITEM(_CLAIMED_KONG_TEMPLATES, aux))
    if aux and A_KONG_SELF <= i < A_CHI_LOW:
        return PyDict_Copy(<object> PyList_GET_ITEM(_ADDED_KONG_TEMPLATES, i - A_KONG_SELF))
    return PyDict_Copy(<object> PyList_GET_ITEM(_ACTION_TEMPLATES, i))


# ------------------------------------------------------------------ events
@cython.nonecheck(False)
cdef inline int _ev(RoundCore self, int t, int a, int b, int c, int d, int e) except -1 nogil:
    cdef int32_t* p
    if self.ev_len + EV_W > self.ev_cap:
        p = <int32_t*> realloc(self.ev, 2 * self.ev_cap * sizeof(int32_t))
        if p == NULL:  # pragma: no cover - out of memory
            raise MemoryError("event log")
        self.ev = p
        self.ev_cap *= 2
    p = self.ev + self.ev_len
    p[0] = t
    p[1] = a
    p[2] = b
    p[3] = c
    p[4] = d
    p[5] = e
    self.ev_len += EV_W
    return 0


# ------------------------------------------------------------------ redaction (the server's streams)
cdef frozenset _HEADER_HIDDEN = frozenset(("wall", "kong_dice", "seed", "spawn_key"))
cdef frozenset _SHOWN_BY_OWN_EVENT = frozenset(("discard", "win", "declare_ready"))
cdef frozenset _CLAIM_ANSWERS = frozenset(("pass", "pon", "chi"))


def round_redact_shared(dict ev not None, seat):
    """``families.mahjong.round_views.redact_shared`` compiled, the same rules and the same values:
    the event as ``seat`` may see it, the event itself when he sees it as it is, None if he sees
    nothing of it (called per event and seat of every step by the server's streams).  ``ev`` is an
    event of a round's own log (well formed): a missing key is the KeyError the Python raises."""
    cdef dict out, action
    cdef object t = ev.get("type"), owner, a, tiles, x
    if t == "header":
        return {k: v for k, v in ev.items() if k not in _HEADER_HIDDEN}
    owner = ev.get("seat")
    if owner == seat or owner is None:
        return ev
    if t == "deal":
        tiles = ev["tiles"]
        return {"type": "deal", "seat": owner, "n": len(tiles), "flowers": [x for x in tiles if x >= 34]}
    if t == "draw":
        out = {k: v for k, v in ev.items() if k != "tile"}
        if ev["tile"] >= 34:
            out["tile"] = ev["tile"]   # a drawn flower is exposed at once
        return out
    if t == "kong" and ev.get("kind") == "concealed":
        return {"type": "kong", "seat": owner, "kind": "concealed", "tile": None}
    if t == "action":
        action = ev["action"]
        a = action["type"]
        if a in _SHOWN_BY_OWN_EVENT:
            return None
        if a == "kong" and action.get("kind") == "concealed":
            return None
        if a in _CLAIM_ANSWERS or (a == "kong" and action.get("kind") == "exposed"):
            return None   # claim answers stay private; the resolution shows in later events
    return ev
