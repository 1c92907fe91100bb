# The event records of HandCore decoded to the reference's dicts (round_ref._event: type, seat, to and
# the data of the type), ``include``d by _lc_round.pyx.  A record is 6 ints: type, seat, to (-1 =
# everyone), a, b, c.

# _EVENT_NAMES and _DRAW_WHY: the generated constants (tools/constants/longcard.py)


@cython.nonecheck(False)
cdef dict _event_dict(HandCore h, const int16_t* e):
    cdef int t = e[0], k, i, f
    d = {"type": _EVENT_NAMES[t], "seat": e[1], "to": None if e[2] == NO_TO else e[2]}
    if t == EV_DEAL:
        k = e[3]
        hand = [0] * N_FACES
        for i in range(DEAL * k, DEAL * k + DEAL):
            f = h.stock[i]
            if f != CAISHEN:
                hand[f] += 1
        d["hand"] = hand
        d["caishen"] = e[4]
    elif t == EV_JIANG:
        d["cards"] = [e[3], e[4]]
    elif t == EV_CAISHEN:
        d["count"] = e[3]
    elif t == EV_DRAW:
        d["card"] = e[3]
        d["why"] = _DRAW_WHY[e[4]]
    elif t == EV_ACTION:
        d["action"] = e[3]
        d["phase"] = PHASE_NAMES[e[4]]
    elif t == EV_DECLARE:
        d["kind"] = _KINDS[e[3]]
        d["face"] = e[4]
    elif t == EV_TURN or t == EV_DISCARD or t == EV_TANGZI or t == EV_REPLACEMENT:
        d["card"] = e[3]
    elif t == EV_CLAIM:
        d["action"] = e[3]
        d["card"] = e[4]
        d["source"] = e[5]
    elif t == EV_ANNOUNCE:
        d["name"] = ANNOUNCE_NAMES[e[3]]
        d["face"] = e[4]
    else:
        d["result"] = h.result
    return d


cdef list _events(HandCore h, int start):
    return [_event_dict(h, h.ev + EV_FIELDS * k) for k in range(start, h.nev)]
