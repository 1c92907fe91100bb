# Included by _round.pyx.  The server loop's calls on the Python round class
# (mahjong_core.families.mahjong.round.Round), compiled: that class binds these functions as its
# methods ``view``, ``step``, ``legal_mask``, ``seats_to_act`` and the getter of ``is_over``, and
# GreedyBot binds ``greedy_act_index`` as ``act_index``.  A server calls them once per step each,
# so they read the core's C state directly: no Python frame, no second call into the core.  Each
# keeps the contract its docstring states; whatever is not the plain case (a seat or an action that
# is not a plain int, an illegal action, an error) goes on to the Python method the comment names,
# which checks it and words the error exactly as before.


cdef list _seats_to_act(RoundCore r):
    if r.phase == PH_TURN:
        return [r.turn]
    if r.phase == PH_OVER:
        return []
    cdef list out = PyList_New(r.n_pending)
    cdef int k
    for k in range(r.n_pending):
        _list_set(out, k, _int_ref(r.pending[k]))
    return out


cdef cnp.ndarray _legal_mask(RoundCore r, int seat):
    """The legal mask of ``seat`` (all False for a seat that is not a seat or not to act)."""
    cdef cnp.npy_intp size = A_SIZE
    cdef cnp.ndarray out = cnp.PyArray_ZEROS(1, &size, cnp.NPY_BOOL, 0)
    if not 0 <= seat < r.P:
        return out
    cdef uint8_t* v = <uint8_t*> cnp.PyArray_DATA(out)
    cdef int n = _legal(r, seat), k
    for k in range(n):
        v[r.opts[seat][k]] = 1
    return out


def round_seats_to_act(self):
    """Seats that must choose an action now (several during a claim window)."""
    return _seats_to_act(self._core)


def round_is_over(self):
    """True once the round has ended (a win or an exhaustive draw)."""
    return (<RoundCore?> self._core).phase == PH_OVER


def round_legal_mask(self, seat):
    """Boolean mask of size ``ACTION_SIZE`` of the legal actions of ``seat`` (built by the core
    from its option cache: no second computation of the options in :meth:`step`)."""
    cdef RoundCore core = self._core
    if type(seat) is int and 0 <= seat < core.P:
        return _legal_mask(core, seat)
    # anything else, an int out of range too (of any size): RoundBase.legal_mask raises its SeatError
    return self._legal_mask_checked(seat)


cdef int _view_seat(rnd, RoundCore core, seat) except -1:
    """``seat`` of a view, checked (Round._seat raises the SeatError of anything else)."""
    if type(seat) is not int or not 0 <= seat < core.P:
        seat = rnd._seat(seat)
    return seat


cdef dict _view_head_for(rnd, RoundCore core, int seat):
    """The template of the views of ``seat`` (_view_head), built once a round."""
    cdef list heads = rnd._view_heads
    if heads is None or len(heads) != core.P:
        heads = rnd._view_heads = rnd._new_view_heads()    # Round._new_view_heads
    return heads[seat]


cdef object _view_result(rnd, RoundCore core):
    """The result dict a view shows: None until the round is over."""
    result = rnd._result_d
    if result is None and core.phase == PH_OVER:
        result = rnd._result
    return result


def round_view(self, seat):
    """What ``seat`` may see, as plain JSON-able data (never what the rules hide from him).
    Built by the core straight from its state, with the redaction of
    :mod:`~mahjong_core.families.mahjong.round_views` (held equal to the reference's view by the
    parity tests)."""
    cdef RoundCore core = self._core
    cdef int s = _view_seat(self, core, seat)
    return _view(core, s, _view_head_for(self, core, s), _view_result(self, core))


def round_step(self, seat, action):
    """Apply one action of ``seat`` and return the events it caused (the action first).

    ``action``: an action object (:class:`Discard`, :class:`Chi`, ...), its dict, or a mask
    index.  An illegal action raises :class:`~mahjong_core.errors.IllegalActionError` with the
    reason and leaves the state exactly as it was.

    Fast path for servers: a plain ``int`` seat and a plain ``int`` mask index (one of
    :meth:`legal_indices`, or a true entry of :meth:`legal_mask`) that is legal go straight
    to the core, which answers from the options it cached for the mask; anything else
    (objects, dicts, refusals) takes the checked path with its reasons.
    """
    cdef RoundCore core
    cdef list out, log
    cdef Py_ssize_t start
    cdef int s, a
    if type(action) is int and type(seat) is int:
        core = self._core
        if 0 <= seat < core.P and 0 <= action < A_SIZE:
            s = seat
            a = action
            if _legal_now(core, s, a):
                if core.ev_len // EV_W != self._decoded:
                    self._sync()                 # the log first takes the events before this step
                start = core.ev_len // EV_W
                _step(core, s, a)
                out = _decode_events(core, start)
                self._decoded = core.ev_len // EV_W
                if core.phase == PH_OVER:        # a win's record is completed by the Python layer
                    out = [self._win_event(e["winner_index"]) if e["type"] == "win" else e for e in out]
                log = self._log
                log.extend(out)
                return out
    return self._step_checked(seat, action)      # Round._step_checked: checks, reasons, then steps


def greedy_act_index(self, rnd, seat):
    """The mask index of the action the greedy bot chooses for ``seat`` now (the compiled bot of
    the engine: ``rnd.builtin_bot_choice(seat, 0)``); :class:`IllegalActionError` if ``seat`` is
    not to act."""
    core = getattr(rnd, "_core", None)
    cdef int i
    if type(core) is RoundCore and type(seat) is int and 0 <= seat < (<RoundCore> core).P:
        i = _bot_greedy(core, seat)
        if i >= 0:
            return i
    return self._act_index_checked(rnd, seat)    # GreedyBot._act_index_checked: the seat checked


# ---------------------------------------------------------------------- frozen views
cdef RoundCore _view_state_copy(RoundCore r, int seat):
    """A RoundCore holding a copy of what _view reads for ``seat`` (and nothing that could be
    stepped): the sizes, phase, claim, winds, 报听 flags, hands (only their sizes leave _view for
    other seats), melds, discards, flowers, wall counts, dice, the seats to act and the option
    cache of ``seat`` (filled first, so the copy answers from it and never recomputes)."""
    cdef RoundCore c = RoundCore.__new__(RoundCore)
    _legal(r, seat)
    c.P = r.P
    c.phase = r.phase
    c.turn = r.turn
    c.drawn = r.drawn
    c.claim_tile = r.claim_tile
    c.claim_from = r.claim_from
    c.claim_last = r.claim_last
    c.seat_winds = r.seat_winds
    c.dealer = r.dealer
    c.round_wind = r.round_wind
    c.min_fan = r.min_fan
    c.ready_mode = r.ready_mode
    c.remaining = r.remaining
    c.reserved = r.reserved
    c.n_pending = r.n_pending
    memcpy(c.pending, r.pending, sizeof(r.pending))
    memcpy(c.ready, r.ready, sizeof(r.ready))
    memcpy(c.dice, r.dice, sizeof(r.dice))
    memcpy(c.hands, r.hands, sizeof(r.hands))
    memcpy(c.melds, r.melds, sizeof(r.melds))
    memcpy(c.n_melds, r.n_melds, sizeof(r.n_melds))
    memcpy(c.pool, r.pool, sizeof(r.pool))
    memcpy(c.n_pool, r.n_pool, sizeof(r.n_pool))
    memcpy(c.flowers, r.flowers, sizeof(r.flowers))
    memcpy(c.n_flowers, r.n_flowers, sizeof(r.n_flowers))
    c.opts_valid[seat] = r.opts_valid[seat]
    memcpy(c.opts_set[seat], r.opts_set[seat], sizeof(r.opts_set[seat]))   # the set _legal answers from
    c.opts_listed[seat] = r.opts_listed[seat]
    c.n_opts[seat] = r.n_opts[seat]
    memcpy(c.opts[seat], r.opts[seat], A_SIZE)
    return c


@cython.final
cdef class RoundView:
    """The view of one seat frozen at the moment :meth:`Round.view_snapshot` took it: a copy of
    the state a view reads, kept in C.  ``to_dict()`` builds the plain view, equal to what
    ``Round.view(seat)`` returned at that moment (a new dict each call); ``seat`` is the seat.
    A server that sends a view only when a client asks pays for the dict only then."""
    cdef RoundCore _state
    cdef readonly int seat
    cdef dict _head
    cdef object _result

    def to_dict(self):
        """The view as plain JSON-able data (``Round.view(seat)`` at the snapshot's moment)."""
        return _view(self._state, self.seat, self._head, self._result)

    def __reduce__(self):
        raise TypeError("a RoundView is not picklable; pickle its to_dict()")

    def __repr__(self):
        return f"RoundView(seat={self.seat}, phase={PHASE_NAMES[self._state.phase]!r})"


def round_view_snapshot(self, seat):
    """The view of ``seat`` as a :class:`RoundView` frozen now: ``view_snapshot(seat).to_dict() ==
    view(seat)``, but the dict is built only when ``to_dict()`` is called (the snapshot itself is a
    copy of a few hundred bytes of C state).  Same seat checks and errors as :meth:`view`."""
    cdef RoundCore core = self._core
    cdef int s = _view_seat(self, core, seat)
    cdef RoundView v = RoundView.__new__(RoundView)
    v._head = _view_head_for(self, core, s)
    v._result = _view_result(self, core)
    v._state = _view_state_copy(core, s)
    v.seat = s
    return v
