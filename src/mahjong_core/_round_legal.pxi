# What a seat may do now in the mahjong RoundCore (``include``d by _round.pyx): waits and locks,
# win evaluation (the fan evaluator's calling convention), the turn and claim options, the legal set and
# its cache.  Functions of the state (_round.pxd).

@cython.nonecheck(False)
cdef inline uint64_t _waits_of(RoundCore self, int seat) noexcept nogil:
    """Waits of the seat's concealed hand of 3k+1 tiles -- after a draw in its turn, of the
    hand without the drawn tile (the seat must then have drawn one) --, from the cache."""
    if self.waits_valid[seat]:
        return self.waits[seat]
    return _waits_compute(self, seat)


@cython.nonecheck(False)
cdef uint64_t _waits_compute(RoundCore self, int seat) noexcept nogil:
    """_waits_of when the cache is not valid: computed and cached."""
    cdef uint8_t tmp[NK]
    cdef const uint8_t* h = self.hands[seat]
    cdef int n = self.n_hand[seat]
    # (a 3k+2 hand without a drawn tile in it -- never in play, only in a forged state -- is
    # asked as it is, as before the cache: never an index -1 or a count below 0)
    if n % 3 == 2 and self.drawn >= 0 and h[self.drawn] > 0:
        memcpy(tmp, h, NK)
        tmp[self.drawn] -= 1
        self.waits[seat] = hand_waits(tmp, n - 1, self.special, self.kinds_mask)
    else:
        self.waits[seat] = hand_waits(h, n, self.special, self.kinds_mask)
    self.waits_valid[seat] = 1
    return self.waits[seat]


# ------------------------------------------------------------------ small queries
@cython.nonecheck(False)
cdef inline int _pon_of(RoundCore self, int seat, int t) noexcept nogil:
    cdef int i
    for i in range(self.n_melds[seat]):
        if self.melds[seat][i][0] == M_PON and self.melds[seat][i][1] == t:
            return i
    return -1


@cython.nonecheck(False)
cdef inline bint _locked(RoundCore self, int seat) noexcept nogil:
    return self.ready[seat] and self.ready_locks


@cython.nonecheck(False)
cdef inline bint _ready_allowed(RoundCore self, int seat) noexcept nogil:
    if self.ready_mode == READY_NONE or self.ready[seat]:
        return False
    if self.ready_mode == READY_HEAVENLY_ONLY:
        return seat == self.dealer and self.dealer_first
    return True


@cython.nonecheck(False)
cdef void _visible(RoundCore self, int* v) noexcept nogil:
    """D10: every discard pool and every exposed meld (concealed kongs are face down)."""
    cdef int s, i, k, f
    for i in range(NK):
        v[i] = 0
    for s in range(self.P):
        for i in range(self.n_pool[s]):
            v[self.pool[s][i]] += 1
        for i in range(self.n_melds[s]):
            k = self.melds[s][i][0]
            f = self.melds[s][i][1]
            if k == M_CKONG:
                continue
            if k == M_CHI:
                v[f] += 1
                v[f + 1] += 1
                v[f + 2] += 1
            else:
                v[f] += 3 if k == M_PON else 4


@cython.nonecheck(False)
cdef inline int _check_seat(RoundCore self, int seat) except -1:
    if not 0 <= seat < self.P:
        raise MahjongError(f"seat must be 0-{self.P - 1}, got {seat}")
    return 0


@cython.nonecheck(False)
cdef inline int _seat_after(RoundCore self, int s, int k) noexcept nogil:
    """The seat ``k`` places after seat ``s`` (0 <= k <= P): ``(s + k) % P`` without the
    division, which the stepping loop would pay several times a step."""
    return s + k - (self.P if s + k >= self.P else 0)


@cython.nonecheck(False)
cdef inline int _seat_wind(RoundCore self, int seat) noexcept nogil:
    return 27 + _seat_after(self, seat, self.P - self.dealer)


# ------------------------------------------------------------------ evaluation
@cython.nonecheck(False)
cdef int _eval(RoundCore self, int seat, WinEval* w) except -1 nogil:
    """Evaluate w (concealed, win_tile, flags filled) with the seat's melds and flowers."""
    cdef uint8_t mrows[8]
    cdef int i, code, sw = 27, rw = 27
    cdef uint32_t fl = 0
    cdef int totals[3]
    for i in range(self.n_melds[seat]):
        mrows[2 * i] = <uint8_t> self.melds[seat][i][0]
        mrows[2 * i + 1] = <uint8_t> self.melds[seat][i][1]
    for i in range(self.n_flowers[seat]):
        fl |= (<uint32_t> 1) << (self.flowers[seat][i] - 34)
    if self.seat_winds:
        sw = _seat_wind(self, seat)
        rw = self.round_wind
    code = fan_evaluate(self.rs, w.concealed, w.win_tile, mrows, self.n_melds[seat], w.flags, fl,
                        sw, rw, self.fan_options, w.counts, totals)
    if code != 0:
        raise RuntimeError(f"internal error: the fan evaluator refused an engine hand (code {code})")
    w.total = totals[0]
    w.non_flower = totals[1]
    w.form = totals[2]
    return 0


@cython.nonecheck(False)
cdef inline uint32_t _base_flags(RoundCore self, int seat) noexcept nogil:
    cdef uint32_t f = 0
    if self.ready_mode != READY_NONE and self.ready[seat]:
        f |= F_READY_DECLARED
        if self.ready_concealed[seat]:
            f |= F_READY_CONCEALED
    if self.first_turn and self.heavenly_ready[seat]:
        f |= F_HEAVENLY_READY
    return f


@cython.nonecheck(False)
cdef inline void _check_min(RoundCore self, WinEval* w) noexcept nogil:
    w.why = WHY_OK if w.non_flower >= self.min_fan else WHY_BELOW_MIN


@cython.nonecheck(False)
cdef WinEval* _self_win(RoundCore self, int seat) except NULL nogil:
    """Self-drawn win of the player on turn (cached until the state changes)."""
    cdef WinEval* w = &self.wins[seat]
    cdef WinEval tmp
    cdef const uint8_t* h = self.hands[seat]
    cdef int vis[NK]
    cdef int t, n, best_nf = -1, best_total = -1, best_t = -1
    cdef uint32_t base
    cdef bint win
    if self.win_valid[seat]:
        return w
    self.win_valid[seat] = 1
    n = self.n_hand[seat]
    if self.must_discard:
        w.why = WHY_MUST_DISCARD
        return w
    # a drawn tile completes the hand if it is one of the waits of the hand before the draw
    if self.drawn >= 0:
        win = (_waits_of(self, seat) >> self.drawn) & 1
    else:
        win = hand_is_win(h, n, self.special)
    if not win:
        w.why = WHY_NOT_WIN
        return w
    base = _base_flags(self, seat)
    _visible(self, vis)
    if self.first_turn and seat == self.dealer and self.dealer_first:
        w.kind = 0
        memcpy(w.concealed, h, NK)
        w.win_tile = -1
        w.flags = base | F_HEAVENLY | F_SELF_DRAWN
    elif self.drawn < 0:
        # the dealer's initial 14 tiles without first-turn fans: no tile was drawn, the best
        # reading over every choice of the winning tile is taken
        for t in range(NK):
            if h[t]:
                memcpy(tmp.concealed, h, NK)
                tmp.concealed[t] -= 1
                tmp.win_tile = t
                tmp.flags = base | F_SELF_DRAWN | (F_LAST_OF_KIND if vis[t] == 3 else 0)
                _eval(self, seat, &tmp)
                if tmp.non_flower > best_nf or (tmp.non_flower == best_nf and tmp.total > best_total):
                    best_nf = tmp.non_flower
                    best_total = tmp.total
                    best_t = t
        w.kind = 1
        memcpy(w.concealed, h, NK)
        w.concealed[best_t] -= 1
        w.win_tile = best_t
        w.flags = base | F_SELF_DRAWN | (F_LAST_OF_KIND if vis[best_t] == 3 else 0)
    else:
        t = self.drawn
        w.kind = 2
        memcpy(w.concealed, h, NK)
        w.concealed[t] -= 1
        w.win_tile = t
        w.flags = base | F_SELF_DRAWN
        if _live(self) == 0:
            w.flags |= F_LAST_TILE
        if self.drawn_src == SRC_KONG:
            w.flags |= F_KONG_REPLACEMENT
        elif self.drawn_src == SRC_FLOWER:
            w.flags |= F_FLOWER_REPLACEMENT
        if vis[t] == 3:
            w.flags |= F_LAST_OF_KIND
        if self.earthly_seat == seat:
            w.flags |= F_EARTHLY
    _eval(self, seat, w)
    _check_min(self, w)
    return w


@cython.nonecheck(False)
cdef WinEval* _claim_win(RoundCore self, int seat) except NULL nogil:
    """Win on the claimed tile (a discard or a robbed added kong)."""
    cdef WinEval* w = &self.wins[seat]
    cdef uint8_t* h = self.hands[seat]
    cdef int vis[NK]
    cdef int t = self.claim_tile, v
    cdef bint robbing
    if self.win_valid[seat]:
        return w
    self.win_valid[seat] = 1
    if not (_waits_of(self, seat) >> t) & 1:
        w.why = WHY_NOT_WIN
        return w
    robbing = self.phase == PH_ROB
    _visible(self, vis)
    v = vis[t] - (0 if robbing else 1)
    w.kind = 3
    memcpy(w.concealed, h, NK)
    w.win_tile = t
    w.flags = _base_flags(self, seat)
    if self.claim_last:
        w.flags |= F_LAST_TILE
    if robbing:
        w.flags |= F_ROBBING_KONG
    if v == 3:
        w.flags |= F_LAST_OF_KIND
    if self.claim_humanly and seat != self.dealer:
        w.flags |= F_HUMANLY
    _eval(self, seat, w)
    _check_min(self, w)
    return w


# ------------------------------------------------------------------ legal options
@cython.nonecheck(False)
cdef int _turn_options(RoundCore self, int seat, uint64_t* bits) except -1 nogil:
    cdef uint8_t* h = self.hands[seat]
    cdef int live = _live(self), d, i
    cdef uint64_t held = 0, fours = 0, pons = 0
    mj_held_fours34(h, &held, &fours)
    if not self.must_discard:
        # a drawn tile outside the waits is no win: the bit test first (_self_win tests it too)
        if ((self.drawn < 0 or (_waits_of(self, seat) >> self.drawn) & 1)
                and _self_win(self, seat).why == WHY_OK):
            _set_action(bits, A_WIN)
        if _locked(self, seat) and self.drawn >= 0:
            d = self.drawn
            if live > 0 and _pon_of(self, seat, d) >= 0:
                _set_action(bits, A_KONG_SELF + d)
            _set_action(bits, A_DISCARD + d)
            return 0
        if live > 0:
            for i in range(self.n_melds[seat]):
                if self.melds[seat][i][0] == M_PON:
                    pons |= (<uint64_t> 1) << self.melds[seat][i][1]
            _set_kinds(bits, A_KONG_SELF, fours | (held & pons))
    _set_kinds(bits, A_DISCARD, held)
    if _ready_allowed(self, seat):
        _set_kinds(bits, A_DISCARD_READY, hand_ready_discards(h, self.n_hand[seat], self.special, self.kinds_mask))
    return 0


@cython.nonecheck(False)
cdef inline int _claim_options(RoundCore self, int seat, uint64_t* bits) except -1 nogil:
    cdef uint8_t* h
    cdef int t, n, r
    cdef bint any_ = False
    # the bit test first: most seats do not wait on the tile (_claim_win tests it too)
    if (_waits_of(self, seat) >> self.claim_tile) & 1 and _claim_win(self, seat).why == WHY_OK:
        _set_action(bits, A_WIN)
        any_ = True
    if self.phase == PH_CLAIM and not self.claim_last and not _locked(self, seat):
        t = self.claim_tile
        h = self.hands[seat]
        n = h[t]
        if n >= 2:
            _set_action(bits, A_PON)
            any_ = True
            if n >= 3:
                _set_action(bits, A_KONG_CLAIM)
        if t < 27 and (not self.chi_prev_only or seat == _seat_after(self, self.claim_from, 1)):
            r = t % 9
            if r <= 6 and h[t + 1] and h[t + 2]:
                _set_action(bits, A_CHI_LOW)
                any_ = True
            if 1 <= r <= 7 and h[t - 1] and h[t + 1]:
                _set_action(bits, A_CHI_MID)
                any_ = True
            if r >= 2 and h[t - 2] and h[t - 1]:
                _set_action(bits, A_CHI_HIGH)
                any_ = True
    if any_:
        _set_action(bits, A_PASS)
    return 0


@cython.nonecheck(False)
cdef inline bint _is_pending(RoundCore self, int seat) noexcept nogil:
    cdef int k
    for k in range(self.n_pending):
        if self.pending[k] == seat:
            return True
    return False


@cython.nonecheck(False)
cdef inline int _options(RoundCore self, int seat) except -1 nogil:
    """Fill the option set of ``seat`` if it is to act now; returns 1 if it has a legal
    action, else 0 (the ascending list is not written: see :meth:`_legal`)."""
    cdef int ph = self.phase
    if ph == PH_OVER:
        return 0
    if ph == PH_TURN:
        if seat != self.turn:
            return 0
    elif not _is_pending(self, seat):
        return 0
    if not self.opts_valid[seat]:
        _fill(self, seat)
    return (self.opts_set[seat][0] | self.opts_set[seat][1]) != 0


@cython.nonecheck(False)
cdef int _legal(RoundCore self, int seat) except -1 nogil:
    """Fill the option cache of ``seat``, the ascending list included; returns the number of
    legal actions."""
    cdef uint64_t w
    cdef int n = 0, k
    if not _options(self, seat):
        return 0
    if not self.opts_listed[seat]:
        for k in range(2):
            w = self.opts_set[seat][k]
            while w:
                self.opts[seat][n] = <uint8_t> (64 * k + mj_ctz64(w))
                n += 1
                w &= w - 1
        self.n_opts[seat] = n
        self.opts_listed[seat] = 1
    return self.n_opts[seat]


@cython.nonecheck(False)
cdef inline int _fill(RoundCore self, int seat) except -1 nogil:
    """Compute and cache the option set of ``seat`` in the current phase; returns 1 if it
    has a legal action, else 0."""
    cdef uint64_t bits[2]
    cdef int ph = self.phase
    bits[0] = 0
    bits[1] = 0
    if ph == PH_TURN:
        _turn_options(self, seat, bits)
    elif ph == PH_READY_WINDOW:
        _set_action(bits, A_PASS)
        if not self.ready[seat] and _waits_of(self, seat):
            _set_action(bits, A_DECLARE_READY)
    else:
        _claim_options(self, seat, bits)
    self.opts_set[seat][0] = bits[0]
    self.opts_set[seat][1] = bits[1]
    self.opts_listed[seat] = 0
    self.opts_valid[seat] = 1
    return (bits[0] | bits[1]) != 0


@cython.nonecheck(False)
cdef inline bint _has(RoundCore self, int seat, int i) noexcept nogil:
    """Is action ``i`` (any int) in the seat's option set (filled by _options or _legal)?"""
    if not 0 <= i < A_SIZE:
        return False
    return (self.opts_set[seat][i >> 6] >> (i & 63)) & 1


@cython.nonecheck(False)
cdef inline int _legal_now(RoundCore self, int seat, int i) except -1 nogil:
    """Is action ``i`` (any int) legal for ``seat`` (a seat) now?  The one test of every way in
    (is_legal, the server loop's step, the vectorised step): the option cache of a seat that is
    not to act may be stale, so it is asked only when he acts."""
    return _options(self, seat) and _has(self, seat, i)


@cython.nonecheck(False)
cdef inline int _first_to_act(RoundCore self) noexcept nogil:
    if self.phase == PH_TURN:
        return self.turn
    if self.phase == PH_OVER or self.n_pending == 0:
        return -1
    return self.pending[0]
