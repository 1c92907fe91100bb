# The transitions of the mahjong RoundCore (``include``d by _round.pyx): the wall (taking from
# its ends, the kong die), the deal and flowers, a step and its moves (discard, kongs, melds), the claim
# window and its resolution, replacements, the end of the round.  Functions of the state (_round.pxd).

@cython.nonecheck(False)
cdef int _start(RoundCore self, int dealer, int round_wind, const uint8_t* tiles, int n_tiles, const int* dice,
                const int* kong_dice) except -1:
    """Deal a round on the settings already set: the wall ``tiles`` (n_tiles, the ruleset's
    tile set), ``dice`` (2) and ``kong_dice`` (N_KONG_DICE), all checked by the caller
    (``__init__``, or ``RoundBatch``'s dealer, which shuffles the tile set itself)."""
    cdef int i
    self.dealer = dealer
    self.round_wind = round_wind
    self.n_tiles = n_tiles
    for i in range(self.n_tiles):
        self.tiles[i] = tiles[i]
    memset(self.taken, 0, MAX_TILES)
    self.head = 0
    self.tail = self.n_tiles // 2 - 1
    self.remaining = self.n_tiles
    self.dice[0] = dice[0]
    self.dice[1] = dice[1]
    for i in range(N_KONG_DICE):
        self.kong_dice[i] = kong_dice[i]
    self.kong_dice_used = 0
    memset(self.hands, 0, sizeof(self.hands))
    memset(self.n_hand, 0, sizeof(self.n_hand))
    memset(self.n_melds, 0, sizeof(self.n_melds))
    memset(self.n_pool, 0, sizeof(self.n_pool))
    memset(self.n_flowers, 0, sizeof(self.n_flowers))
    memset(self.n_dealt, 0, sizeof(self.n_dealt))
    memset(self.ready, 0, sizeof(self.ready))
    memset(self.ready_concealed, 0, sizeof(self.ready_concealed))
    memset(self.heavenly_ready, 0, sizeof(self.heavenly_ready))
    memset(self.drew, 0, sizeof(self.drew))
    self.phase = PH_TURN
    self.turn = dealer
    self.drawn = -1
    self.drawn_src = SRC_NONE
    self.must_discard = 0
    self.dealer_first = 1
    self.calls_made = 0
    self.earthly_seat = -1
    _clear_claim(self)
    self.n_steps = 0
    self.n_discards = 0
    self.n_winners = 0
    self.res_draw = 0
    self.ev_len = 0
    _touch(self)
    memset(self.waits_valid, 0, sizeof(self.waits_valid))
    _kept_start(self)
    _setup(self)


# ------------------------------------------------------------------ wall
@cython.nonecheck(False)
cdef inline bint _stack_empty(RoundCore self, int j) noexcept nogil:
    return self.taken[2 * j] and self.taken[2 * j + 1]


@cython.nonecheck(False)
cdef inline int _take(RoundCore self, int j) except -1 nogil:
    cdef int i
    if self.remaining <= 0 or not 0 <= j < self.stacks:  # pragma: no cover - a flow bug
        raise RuntimeError(f"internal error: draw from stack {j} of a wall with {self.remaining} tiles left")
    i = 2 * j if not self.taken[2 * j] else 2 * j + 1
    self.taken[i] = 1
    self.remaining -= 1
    if self.taken[2 * j] and self.taken[2 * j + 1]:
        _trim_ends(self, self.head, self.tail)
    return self.tiles[i]


@cython.nonecheck(False)
cdef void _trim_ends(RoundCore self, int h, int t) noexcept nogil:
    """head / tail := the first / last non-empty stack within [h, t]."""
    while h <= t and _stack_empty(self, h):
        h += 1
    while t >= h and _stack_empty(self, t):
        t -= 1
    self.head = h
    self.tail = t


@cython.nonecheck(False)
cdef int _die_stack(RoundCore self, int d) noexcept nogil:
    cdef int j = self.tail, c = 1, k
    while c < d:
        k = j - 1
        while k >= self.head and _stack_empty(self, k):
            k -= 1
        if k < self.head:
            break
        j = k
        c += 1
    return j


@cython.nonecheck(False)
cdef inline int _live(RoundCore self) noexcept nogil:
    return self.remaining - self.reserved


# ------------------------------------------------------------------ caches
@cython.nonecheck(False)
cdef inline void _touch(RoundCore self) noexcept nogil:
    cdef int s
    for s in range(MAXP):
        self.opts_valid[s] = 0
        self.win_valid[s] = 0


@cython.nonecheck(False)
cdef inline void _hand_changed(RoundCore self, int seat) noexcept nogil:
    """The seat's concealed hand changed (not by a draw): its waits are computed again when asked."""
    self.waits_valid[seat] = 0


# ------------------------------------------------------------------ start of the hand
@cython.nonecheck(False)
cdef int _setup(RoundCore self) except -1:
    cdef int P = self.P, k, seat, t, d, r, dsum, opened, g, spw, n_todo, n_nxt, i
    cdef int todo[8]
    cdef int nxt[8]
    cdef int pend[MAXP][8]
    cdef int n_pend[MAXP]
    # display only (2.2 step 3): the S-th player's wall is opened after its S-th stack
    dsum = self.dice[0] + self.dice[1]
    spw = self.stacks // P
    opened = (self.dealer + dsum - 1) % P
    g = dsum
    _ev(self, EV_DICE, self.dice[0], self.dice[1], (opened - (g // spw) % P + P) % P, g % spw, 0)
    memset(n_pend, 0, sizeof(n_pend))
    # 2.2 step 4: three rounds of four tiles (dealer first), then two for the dealer, one each
    for r in range(3):
        for k in range(P):
            seat = (self.dealer + k) % P
            for i in range(4):
                _deal_one(self, seat, pend[seat], n_pend)
    _deal_one(self, self.dealer, pend[self.dealer], n_pend)
    _deal_one(self, self.dealer, pend[self.dealer], n_pend)
    for k in range(1, P):
        seat = (self.dealer + k) % P
        _deal_one(self, seat, pend[seat], n_pend)
    for k in range(P):
        _ev(self, EV_DEAL, (self.dealer + k) % P, 0, 0, 0, 0)
    # 2.2 step 5: initial flower replacement, dealer first, repeated while replacements are flowers
    for k in range(P):
        seat = (self.dealer + k) % P
        n_todo = n_pend[seat]
        for i in range(n_todo):
            todo[i] = pend[seat][i]
        while n_todo:
            n_nxt = 0
            for i in range(n_todo):
                _add_flower(self, seat, todo[i])
            for i in range(n_todo):
                t = _take(self, self.tail)
                _ev(self, EV_DRAW, seat, t, FROM_TAIL, 0, 0)
                if t >= 34:
                    nxt[n_nxt] = t
                    n_nxt += 1
                else:
                    self.hands[seat][t] += 1
                    self.n_hand[seat] += 1
            for i in range(n_nxt):
                todo[i] = nxt[i]
            n_todo = n_nxt
    if self.ready_window:
        self.phase = PH_READY_WINDOW
        self.n_pending = 0
        for k in range(1, P):
            self.pending[self.n_pending] = (self.dealer + k) % P
            self.n_pending += 1
    else:
        self.phase = PH_TURN
        self.turn = self.dealer
    return 0


@cython.nonecheck(False)
cdef inline int _deal_one(RoundCore self, int seat, int* pend, int* n_pend) except -1:
    cdef int t = _take(self, self.head)
    if self.n_dealt[seat] >= 16 or n_pend[seat] >= 8:  # pragma: no cover - a flow bug
        raise RuntimeError("internal error: more than 16 tiles or 8 flowers dealt to one seat")
    self.dealt[seat][self.n_dealt[seat]] = t
    self.n_dealt[seat] += 1
    if t >= 34:
        pend[n_pend[seat]] = t
        n_pend[seat] += 1
    else:
        self.hands[seat][t] += 1
        self.n_hand[seat] += 1
    return 0


@cython.nonecheck(False)
cdef inline int _add_flower(RoundCore self, int seat, int t) except -1 nogil:
    """Set a flower aside (it also goes to the event log)."""
    if self.n_flowers[seat] >= 8:  # pragma: no cover - a flow bug
        raise RuntimeError("internal error: a ninth flower")
    self.flowers[seat][self.n_flowers[seat]] = t
    self.n_flowers[seat] += 1
    _kept_flower(self, self.obs_kept, seat, t)
    return _ev(self, EV_FLOWER, seat, t, 0, 0, 0)


# ------------------------------------------------------------------ step
@cython.nonecheck(False)
cdef int _step(RoundCore self, int seat, int i) except -1 nogil:
    """Apply the legal action ``i`` of ``seat`` (the caller checked legality)."""
    cdef int ph = self.phase, aux = 0, k
    if A_KONG_SELF <= i < A_CHI_LOW:
        aux = 1 if _pon_of(self, seat, i - A_KONG_SELF) >= 0 else 0
    elif A_CHI_LOW <= i <= A_CHI_HIGH:
        aux = self.claim_tile - (i - A_CHI_LOW)
    elif i == A_KONG_CLAIM:
        aux = self.claim_tile
    _ev(self, EV_ACTION, seat, i, aux, 0, 0)
    self.n_steps += 1
    if ph == PH_CLAIM or ph == PH_ROB:
        self.responses[seat] = i
        _remove_pending(self, seat)
        if not self.n_pending:
            _resolve(self)
    elif ph == PH_TURN:
        if i == A_WIN:
            self.winners[0] = seat
            _finish_win(self, 1, -1, METHOD_SELF_DRAWN, self.drawn)
        else:
            _touch(self)
            if i < A_DISCARD_READY:
                _discard(self, seat, i, False)
            elif i < A_KONG_SELF:
                _discard(self, seat, i - A_DISCARD_READY, True)
            else:
                _self_kong(self, seat, i - A_KONG_SELF)
    else:  # ready window
        _touch(self)
        if i == A_DECLARE_READY:
            self.ready[seat] = 1
            self.ready_concealed[seat] = 1
            if self.first_turn:
                self.heavenly_ready[seat] = 1
            _ev(self, EV_READY, seat, self.heavenly_ready[seat], 0, 0, 0)
        _remove_pending(self, seat)
        if not self.n_pending:
            self.phase = PH_TURN
            self.turn = self.dealer
    return 0


@cython.nonecheck(False)
cdef inline void _remove_pending(RoundCore self, int seat) noexcept nogil:
    cdef int k, j = 0
    for k in range(self.n_pending):
        if self.pending[k] != seat:
            self.pending[j] = self.pending[k]
            j += 1
    self.n_pending = j


# ------------------------------------------------------------------ transitions
@cython.nonecheck(False)
cdef int _discard(RoundCore self, int seat, int t, bint ready) except -1 nogil:
    cdef int humanly = 0, i
    cdef bint concealed
    if self.n_pool[seat] >= MAX_POOL:  # pragma: no cover - a flow bug
        raise RuntimeError("internal error: discard pool full")
    self.hands[seat][t] -= 1
    self.n_hand[seat] -= 1
    if t != self.drawn:      # a discard of the drawn tile leaves the hand whose waits are cached
        _hand_changed(self, seat)
    self.pool[seat][self.n_pool[seat]] = t
    _kept_pool(self, self.obs_kept, seat, self.n_pool[seat], t + 1)
    self.n_pool[seat] += 1
    self.n_discards += 1
    if seat == self.dealer:
        humanly = 1 if (self.first_turn and self.dealer_first) else 0
    if ready:
        self.ready[seat] = 1
        concealed = True
        for i in range(self.n_melds[seat]):
            if self.melds[seat][i][0] != M_CKONG:
                concealed = False
        self.ready_concealed[seat] = 1 if concealed else 0
        if self.first_turn and seat == self.dealer and self.dealer_first:
            self.heavenly_ready[seat] = 1
    _leave_turn(self, seat)
    self.must_discard = 0
    _ev(self, EV_DISCARD, seat, t, 1 if ready else 0, self.heavenly_ready[seat] if ready else 0, 0)
    return _open_window(self, seat, t, humanly, False)


@cython.nonecheck(False)
cdef inline void _leave_turn(RoundCore self, int seat) noexcept nogil:
    """The player on turn discards or kongs: his first turn (天胡 / 地胡 chances) is over and
    the drawn tile is no longer the last thing he received."""
    if seat == self.dealer:
        self.dealer_first = 0
    if self.earthly_seat == seat:
        self.earthly_seat = -1
    self.drawn = -1
    self.drawn_src = SRC_NONE


@cython.nonecheck(False)
cdef int _self_kong(RoundCore self, int seat, int t) except -1 nogil:
    cdef int m
    self.calls_made = 1
    _leave_turn(self, seat)
    _hand_changed(self, seat)
    m = _pon_of(self, seat, t)
    if m >= 0:
        self.hands[seat][t] -= 1
        self.n_hand[seat] -= 1
        _ev(self, EV_KONG, seat, 1, t, -1, 0)
        if self.rob_kong:
            return _open_window(self, seat, t, 0, True)
        return _complete_added_kong(self, seat, t)
    self.hands[seat][t] -= 4
    self.n_hand[seat] -= 4
    _add_meld(self, seat, M_CKONG, t, -1, -1)
    _ev(self, EV_KONG, seat, 0, t, -1, 0)
    return _replacement(self, seat)


@cython.nonecheck(False)
cdef inline int _add_meld(RoundCore self, int seat, int kind, int first, int frm, int claimed) except -1 nogil:
    cdef int* m
    if self.n_melds[seat] >= 4:  # pragma: no cover - a flow bug
        raise RuntimeError("internal error: a fifth meld")
    m = self.melds[seat][self.n_melds[seat]]
    m[0] = kind
    m[1] = first
    m[2] = frm
    m[3] = claimed
    m[4] = 0
    _kept_meld(self, self.obs_kept, seat, self.n_melds[seat])
    self.n_melds[seat] += 1
    return 0


@cython.nonecheck(False)
cdef int _complete_added_kong(RoundCore self, int seat, int t) except -1 nogil:
    cdef int i = _pon_of(self, seat, t)
    cdef int* m = self.melds[seat][i]
    m[0] = M_KONG
    m[4] = 1
    _kept_meld(self, self.obs_kept, seat, i)
    return _replacement(self, seat)


@cython.nonecheck(False)
cdef int _open_window(RoundCore self, int seat, int t, int humanly, bint rob) except -1 nogil:
    cdef int P = self.P, k, c
    self.claim_tile = t
    self.claim_from = seat
    self.claim_last = 0 if rob else (1 if _live(self) == 0 else 0)
    self.claim_humanly = humanly
    self.phase = PH_ROB if rob else PH_CLAIM
    for k in range(MAXP):
        self.responses[k] = -1
    self.n_pending = 0
    for k in range(1, P):
        c = _seat_after(self, seat, k)
        if _fill(self, c):
            self.pending[self.n_pending] = c
            self.n_pending += 1
    if not self.n_pending:
        return _close_window_unclaimed(self)
    return 0


@cython.nonecheck(False)
cdef inline void _clear_claim(RoundCore self) noexcept nogil:
    cdef int k
    self.claim_tile = -1
    self.claim_from = -1
    self.claim_last = 0
    self.claim_humanly = 0
    self.n_pending = 0
    for k in range(MAXP):
        self.responses[k] = -1


@cython.nonecheck(False)
cdef inline int _close_window_unclaimed(RoundCore self) except -1 nogil:
    cdef int seat = self.claim_from, t = self.claim_tile, last = self.claim_last
    cdef bint rob = self.phase == PH_ROB
    _clear_claim(self)
    _touch(self)
    if rob:
        return _complete_added_kong(self, seat, t)
    if last:
        return _exhaustive(self)
    return _start_turn(self, _seat_after(self, seat, 1))


@cython.nonecheck(False)
cdef int _resolve(RoundCore self) except -1 nogil:
    cdef int P = self.P, s = self.claim_from, t = self.claim_tile, k, c, r, n = 0
    for k in range(1, P):
        c = _seat_after(self, s, k)
        if self.responses[c] == A_WIN:
            self.winners[n] = c
            n += 1
    if n:
        if not self.multiple_winners:
            n = 1
        return _finish_win(self, n, s, METHOD_ROBBING if self.phase == PH_ROB else METHOD_DISCARD, t)
    if self.phase == PH_CLAIM:
        for k in range(1, P):
            c = _seat_after(self, s, k)
            r = self.responses[c]
            if r == A_PON or r == A_KONG_CLAIM:
                _clear_claim(self)
                _touch(self)
                return _claim_group(self, c, s, t, r)
        for k in range(1, P):
            c = _seat_after(self, s, k)
            r = self.responses[c]
            if A_CHI_LOW <= r <= A_CHI_HIGH:
                _clear_claim(self)
                _touch(self)
                return _claim_group(self, c, s, t, r)
    return _close_window_unclaimed(self)


@cython.nonecheck(False)
cdef int _claim_group(RoundCore self, int c, int s, int t, int r) except -1 nogil:
    cdef uint8_t* h = self.hands[c]
    cdef int low, x
    self.n_pool[s] -= 1  # the claimed discard is the discarder's last one
    _kept_pool(self, self.obs_kept, s, self.n_pool[s], 0)
    _hand_changed(self, c)
    self.calls_made = 1
    self.earthly_seat = -1
    self.turn = c
    self.phase = PH_TURN
    self.drawn = -1
    self.drawn_src = SRC_NONE
    if r == A_KONG_CLAIM:
        h[t] -= 3
        self.n_hand[c] -= 3
        _add_meld(self, c, M_KONG, t, s, t)
        _ev(self, EV_KONG, c, 2, t, s, 0)
        return _replacement(self, c)
    if r == A_PON:
        h[t] -= 2
        self.n_hand[c] -= 2
        _add_meld(self, c, M_PON, t, s, t)
        _ev(self, EV_PON, c, t, s, 0, 0)
    else:
        low = t - (r - A_CHI_LOW)
        for x in range(low, low + 3):
            if x != t:
                h[x] -= 1
                self.n_hand[c] -= 1
        _add_meld(self, c, M_CHI, low, s, t)
        _ev(self, EV_CHI, c, low, t, s, 0)
    self.must_discard = 1
    return 0


@cython.nonecheck(False)
cdef inline int _start_turn(RoundCore self, int seat) except -1 nogil:
    cdef int t = _take(self, self.head)
    if self.first_turn and not self.calls_made and seat != self.dealer and not self.drew[seat]:
        self.earthly_seat = seat
    self.drew[seat] = 1
    _ev(self, EV_DRAW, seat, t, FROM_HEAD, 0, 0)
    return _receive(self, seat, t, SRC_HEAD)


@cython.nonecheck(False)
cdef int _replacement(RoundCore self, int seat) except -1 nogil:
    cdef int d, t
    if self.kong_die:
        d = self.kong_dice[self.kong_dice_used]
        self.kong_dice_used += 1
        t = _take(self, _die_stack(self, d))
        _ev(self, EV_DRAW, seat, t, FROM_DIE, d, 0)
    else:
        t = _take(self, self.tail)
        _ev(self, EV_DRAW, seat, t, FROM_TAIL, 0, 0)
    return _receive(self, seat, t, SRC_KONG)


@cython.nonecheck(False)
cdef inline int _receive(RoundCore self, int seat, int t, int src) except -1 nogil:
    while t >= 34:
        _add_flower(self, seat, t)
        if _live(self) <= 0:
            self.turn = seat
            return _exhaustive(self)
        t = _take(self, self.tail)
        src = SRC_FLOWER
        _ev(self, EV_DRAW, seat, t, FROM_TAIL, 0, 0)
    self.hands[seat][t] += 1
    self.n_hand[seat] += 1
    self.drawn = t
    self.drawn_src = src
    self.turn = seat
    self.phase = PH_TURN
    self.must_discard = 0
    return 0


@cython.nonecheck(False)
cdef int _next_dealer(RoundCore self, int n) noexcept nogil:
    cdef int k
    if n == 0:
        return (self.dealer + 1) % self.P if self.dealer_on_draw_next else self.dealer
    if self.dealer_on_win_next:
        return (self.dealer + 1) % self.P
    for k in range(n):
        if self.winners[k] == self.dealer:
            return self.dealer
    return self.winners[0]


@cython.nonecheck(False)
cdef int _exhaustive(RoundCore self) except -1 nogil:
    _clear_claim(self)
    _touch(self)
    self.phase = PH_OVER
    self.res_draw = 1
    self.n_winners = 0
    self.res_loser = -1
    self.res_method = -1
    self.res_next_dealer = _next_dealer(self, 0)
    self.res_wall_remaining = self.remaining
    _ev(self, EV_EXHAUSTIVE, self.remaining, 0, 0, 0, 0)
    _ev(self, EV_ROUND_END, 1, self.res_next_dealer, 0, 0, 0)
    return 0


@cython.nonecheck(False)
cdef int _finish_win(RoundCore self, int n, int loser, int method, int t) except -1 nogil:
    cdef int k, c
    for k in range(n):
        c = self.winners[k]
        if method == METHOD_SELF_DRAWN:
            memcpy(&self.res_wins[k], _self_win(self, c), sizeof(WinEval))
        else:
            memcpy(&self.res_wins[k], _claim_win(self, c), sizeof(WinEval))
    _touch(self)
    if method == METHOD_DISCARD:
        self.n_pool[loser] -= 1
        _kept_pool(self, self.obs_kept, loser, self.n_pool[loser], 0)
    if method != METHOD_SELF_DRAWN:
        self.hands[self.winners[0]][t] += 1
        self.n_hand[self.winners[0]] += 1
    _hand_changed(self, self.winners[0])      # the round is over: no wait is asked again
    _clear_claim(self)
    self.phase = PH_OVER
    self.res_draw = 0
    self.n_winners = n
    self.res_loser = loser
    self.res_method = method
    self.res_next_dealer = _next_dealer(self, n)
    self.res_wall_remaining = self.remaining
    for k in range(n):
        _ev(self, EV_WIN, k, 0, 0, 0, 0)
    _ev(self, EV_ROUND_END, 0, self.res_next_dealer, 0, 0, 0)
    return 0
