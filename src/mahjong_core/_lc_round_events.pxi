# The event records of RoundCore decoded to the reference's dicts (_ref.round._event: type, seat, to and
# the data of the type), ``include``d by _lc_round.pyx.  A record is 6 ints: type, seat, to (-1 =
# everyone), a, b, c.

# _EVENT_NAMES and _DRAW_WHY: the generated constants (tools/constants/longcard.py)


@cython.nonecheck(False)
cdef dict _event_dict(RoundCore h, const int16_t* e):
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


cdef list _events(RoundCore h, int start):
    return [_event_dict(h, h.ev + EV_FIELDS * k) for k in range(start, h.nev)]


# ------------------------------------------------------------------ log and events
@cython.nonecheck(False)
cdef int _event(RoundCore self, int etype, int seat, int to, int a, int b, int c) except -1:
    cdef int16_t* e
    if self.nev == self.cap_ev:
        e = <int16_t*> realloc(self.ev, 2 * EV_FIELDS * self.cap_ev * sizeof(int16_t))
        if e == NULL:
            raise MemoryError()
        self.ev = e
        self.cap_ev *= 2
    e = self.ev + EV_FIELDS * self.nev
    e[0] = etype
    e[1] = seat
    e[2] = to
    e[3] = a
    e[4] = b
    e[5] = c
    self.nev += 1
    return 0


@cython.nonecheck(False)
cdef int _log_action(RoundCore self, int p, int a) except -1:
    cdef int16_t* g
    if self.nlog == self.cap_log:
        g = <int16_t*> realloc(self.log, 4 * self.cap_log * sizeof(int16_t))
        if g == NULL:
            raise MemoryError()
        self.log = g
        self.cap_log *= 2
    self.log[2 * self.nlog] = p
    self.log[2 * self.nlog + 1] = a
    self.nlog += 1
    return 0


@cython.nonecheck(False)
cdef list _py_hands(RoundCore self):
    cdef int p
    return [_u8list(self.hands[p], N_FACES) for p in range(PLAYERS)]


@cython.nonecheck(False)
cdef list _py_groups(RoundCore self):
    cdef int p, i
    out = []
    for p in range(PLAYERS):
        out.append([_Group(_KINDS[self.gkind[p][i]], tuple(_u8list(self.gcards[p][i], _group_size(self.gkind[p][i]))))
                    for i in range(self.ng[p])])
    return out
