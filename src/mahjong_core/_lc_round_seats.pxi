# The questions about one seat's cards of the long-card RoundCore (``include``d by _lc_round.pyx):
# seat order, the seat's cards as the counting kernels read them, dead and live faces, 卯 / T_max plans,
# F_theo, wins and waits, 吃 pairs, 跳 and the last-卯 rules.  Functions of the state (_lc_round.pxd).

@cython.nonecheck(False)
cdef inline int _stock_left(RoundCore self) noexcept nogil:
    return self.nstock - self.pos


@cython.nonecheck(False)
cdef inline void _order_from(RoundCore self, int p, int* out) noexcept nogil:
    cdef int k
    for k in range(PLAYERS):
        out[k] = _mod3(p + self.dirn * k)


@cython.nonecheck(False)
cdef inline int _distance(RoundCore self, int src, int p) noexcept nogil:
    return _mod3((p - src) * self.dirn)


@cython.nonecheck(False)
cdef inline int _next_active(RoundCore self, int p) noexcept nogil:
    cdef int k, q
    for k in range(1, PLAYERS):
        q = _mod3(p + self.dirn * k)
        if not self.folded[q]:
            return q
    return p


# ------------------------------------------------------------------ a seat's cards (2.4)
@cython.nonecheck(False)
cdef void _seat(RoundCore self, int p, SeatCards* s) noexcept nogil:
    cdef int i
    memcpy(s.c, self.hands[p], N_FACES)
    memcpy(s.own, self.gown[p], N_FACES)
    s.n = self.ng[p]
    for i in range(s.n):
        s.kinds[i] = self.gkind[p][i]
        s.faces[i] = self.gcards[p][i][0]
    s.tuo = self.gtuo[p]
    s.red = self.gred[p]


@cython.nonecheck(False)
cdef void _dead_for(RoundCore self, int p, uint8_t* dead) noexcept nogil:
    """Copies dead outside p's own declared groups: every 堂子 and the other seats' groups."""
    cdef int f
    for f in range(N_FACES):
        dead[f] = self.pub[f] - self.gown[p][f]


@cython.nonecheck(False)
cdef void _live(RoundCore self, int p, uint8_t* live) noexcept nogil:
    cdef uint8_t dead[N_FACES]
    cdef SeatCards s
    cdef int f
    _dead_for(self, p, dead)
    _seat(self, p, &s)
    for f in range(N_FACES):
        live[f] = COPIES - s.c[f] - s.own[f] - dead[f]


@cython.nonecheck(False)
cdef inline void _parts(RoundCore self, const uint8_t* c, const uint8_t* live, int comp, LcPlanPart* parts) noexcept nogil:
    """lc_plan_parts of every class when comp < 0, else of that one (table reads: lc_plan_ready ran
    in the constructor)."""
    lc_plan_parts(c, live, self.mao_bonus, self.quad_xiang, self.chi_kan, comp, parts)


@cython.nonecheck(False)
cdef inline bint _same21(const uint8_t* a, const uint8_t* b) noexcept nogil:
    """Are the 21 bytes at ``a`` and ``b`` equal?  (Three word compares, not a call of memcmp.)"""
    cdef uint64_t a0, a1, a2 = 0, b0, b1, b2 = 0
    memcpy(&a0, a, 8)
    memcpy(&a1, a + 8, 8)
    memcpy(&a2, a + 16, N_FACES - 16)
    memcpy(&b0, b, 8)
    memcpy(&b1, b + 8, 8)
    memcpy(&b2, b + 16, N_FACES - 16)
    return ((a0 ^ b0) | (a1 ^ b1) | (a2 ^ b2)) == 0


@cython.nonecheck(False)
cdef inline int _decl_arrays(RoundCore self, int p, uint8_t* kinds, uint8_t* faces) noexcept nogil:
    """p's declared groups as the counting kernels read them (kind codes, first faces); their number."""
    cdef int i, n = self.ng[p]
    for i in range(n):
        kinds[i] = self.gkind[p][i]
        faces[i] = self.gcards[p][i][0]
    return n


@cython.nonecheck(False)
cdef void _plan_seat(RoundCore self, int p, int* mao, int* tmax) noexcept nogil:
    """(卯, T_max) of seat p's cards now (spec 2.6-2.7), reused when its concealed cards, declared groups,
    财神 and the faces with a live copy are those of p's last plan: the plan and F_theo read the live
    copies only as "is one live" (lc_plan_parts, lc_theoretical_fan), and a copy of face f is live for p
    when p's concealed copies and the dead ones (pub: every 堂子 and group, p's own groups included)
    are fewer than 5.  Otherwise only the parts of the point classes whose cards or live faces changed
    are worked out again (lc_plan_parts of one class), then combined.  The entry's F_theo is worked
    out when asked (_theo_seat)."""
    cdef uint8_t live[N_FACES + 3]
    cdef uint8_t kinds[MAX_DECLARED + 1]
    cdef uint8_t faces[MAX_DECLARED + 1]
    cdef const uint8_t* c = self.hands[p]
    cdef int j, n, b, changed = (1 << LC_N_COMP) - 1
    cdef uint64_t cw[3]
    cdef uint64_t pw[3]
    cdef uint64_t x, y, z
    memset(cw, 0, sizeof(cw))
    memset(pw, 0, sizeof(pw))
    memcpy(cw, c, N_FACES)
    memcpy(pw, self.pub, N_FACES)
    for j in range(3):
        # live: c + pub < 5, a word at a time: c + pub <= 10, and + 0x7b sets a byte's top bit (no
        # carry: 0x85 at most) exactly when it is 5 or more
        x = (~(cw[j] + pw[j] + <uint64_t> 0x7b7b7b7b7b7b7b7bULL) & <uint64_t> 0x8080808080808080ULL) >> 7
        memcpy(live + 8 * j, &x, 8)
    if self.qc_ok[p]:
        if (self.qc_gver[p] == self.gver[p] and self.qc_caishen[p] == self.caishen[p]
                and _same21(self.qc_c[p], c) and _same21(self.qc_live[p], live)):
            mao[0] = self.qc_mao[p]
            tmax[0] = self.qc_tmax[p]
            return
        changed = 0
        for j in range(3):                    # the faces whose count or live flag changed, by words
            memcpy(&x, self.qc_c[p] + 8 * j, 8 if j < 2 else N_FACES - 16)
            memcpy(&y, self.qc_live[p] + 8 * j, 8 if j < 2 else N_FACES - 16)
            memcpy(&z, live + 8 * j, 8)
            if j == 2:                        # faces 16-20: the bytes past them are not compared
                x &= <uint64_t> 0xffffffffffULL
                y &= <uint64_t> 0xffffffffffULL
                z &= <uint64_t> 0xffffffffffULL
            x = (x ^ cw[j]) | (y ^ z)
            while x:
                b = mj_ctz64(x) >> 3
                changed |= 1 << FACE_COMP[8 * j + b]
                x &= ~((<uint64_t> 0xff) << (8 * b))
    if changed == (1 << LC_N_COMP) - 1:
        _parts(self, c, live, -1, self.qc_parts[p])
    else:
        for j in range(LC_N_COMP):
            if (changed >> j) & 1:
                _parts(self, c, live, j, self.qc_parts[p])
    n = _decl_arrays(self, p, kinds, faces)
    lc_plan_combine(self.qc_parts[p], live, n, kinds, faces, self.gtuo[p], self.mao_bonus, self.quad_xiang,
                    self.chi_kan, mao, tmax)
    self.qc_ok[p] = True
    memcpy(self.qc_c[p], c, N_FACES)
    memcpy(self.qc_live[p], live, N_FACES)
    self.qc_gver[p] = self.gver[p]
    self.qc_caishen[p] = self.caishen[p]
    self.qc_theo[p] = -1
    self.qc_mao[p] = mao[0]
    self.qc_tmax[p] = tmax[0]


@cython.nonecheck(False)
cdef int _theo_seat(RoundCore self, int p) noexcept nogil:
    """F_theo of seat p's cards right after _plan_seat(p): its cache entry's (2.8, CP-42)."""
    cdef uint8_t kinds[MAX_DECLARED + 1]
    cdef uint8_t faces[MAX_DECLARED + 1]
    cdef int n
    if self.qc_theo[p] < 0:
        n = _decl_arrays(self, p, kinds, faces)
        self.qc_theo[p] = lc_theoretical_fan(self.hands[p], self.qc_live[p], n, kinds, faces, self.w,
                                             self.caishen[p], self.kan_as_peng, self.xiang_bonus)
    return self.qc_theo[p]


@cython.nonecheck(False)
cdef bint _qualified(RoundCore self, int p) noexcept nogil:
    """Q(p) of spec 2.8: 7 卯 and T_max >= threshold."""
    cdef int mao, tmax
    _plan_seat(self, p, &mao, &tmax)
    self.dec_mao = mao          # kept for the observation of the decision (_decide's one caller)
    self.dec_tmax = tmax
    return mao >= 7 and tmax >= self.thr[p == self.banker]


@cython.nonecheck(False)
cdef int _f_theo(RoundCore self, int p) noexcept nogil:
    """F_theo of spec 2.8 (CP-42); with ``qi_fan_measure = s1`` a 幺地人 pair or any 4 of a kind."""
    cdef int f, mao, tmax
    if self.qi_s1:
        for f in range(N_FACES):
            if self.hands[p][f] >= 4 or (self.hands[p][f] >= 2 and (f == 0 or f == 3 or f == 15)):
                return 1
        return 0
    _plan_seat(self, p, &mao, &tmax)
    return _theo_seat(self, p)


@cython.nonecheck(False)
cdef bint _is_win_cards(RoundCore self, int p, const SeatCards* s) noexcept nogil:
    cdef int t = lc_max_tuo(s.c, self.keep_kans)
    if t < 0:
        return False
    return t + s.tuo >= self.thr[p == self.banker] or (self.waive and not s.red and lc_all_black(s.c))


@cython.nonecheck(False)
cdef uint32_t _waits(RoundCore self, int p, SeatCards* s, bint engine) noexcept nogil:
    """Waits of the 20 effective cards ``s`` (4.7); ``engine``: with ``ready_requires_live``
    (the engine's question; the bots ask the hand layer's)."""
    cdef uint32_t m = lc_waits_mask(s.c, s.own, s.tuo, self.thr[p == self.banker], self.keep_kans,
                                    self.waive and not s.red)
    cdef uint8_t live[N_FACES]
    cdef int x
    if engine and self.ready_live and m:
        _live(self, p, live)
        for x in range(N_FACES):
            if live[x] < 1:
                m &= ~((<uint32_t> 1) << x)
    return m


# ------------------------------------------------------------------ rule queries (round_rules)
@cython.nonecheck(False)
cdef int _score_total(RoundCore self, int p, int extra) except? -1:
    """The fan (after the cap) of p's win on his cards now, plus the card ``extra`` if >= 0: the
    ``total`` of the reference's score (``_RefView._score``: ``_lc_hand.score``), by the hand layer's
    own search on the engine's C state (lc_score_total) -- no Python objects at a win or a 过胡 check."""
    cdef uint8_t c[N_FACES]
    cdef uint8_t kinds[MAX_DECLARED + 1]
    cdef uint8_t faces[MAX_DECLARED + 1]
    cdef int n, t
    memcpy(c, self.hands[p], N_FACES)
    if extra >= 0:
        c[extra] += 1
    n = _decl_arrays(self, p, kinds, faces)
    t = lc_score_total(c, n, kinds, faces, self.gtuo[p], self.gred[p], self.w, self.caishen[p],
                       self.thr[p == self.banker], self.kan_as_peng, self.xiang_bonus, self.keep_kans, self.waive,
                       self.fan_cap)
    if t < 0:  # pragma: no cover - asked of wins only; the reference's scorer says why it is none
        return int(_RefView(self)._score(p, _hand_list(self, p, extra)).total)
    return t


@cython.nonecheck(False)
cdef list _hand_list(RoundCore self, int p, int extra):
    h = _u8list(self.hands[p], N_FACES)
    if extra >= 0:
        h[extra] += 1
    return h


@cython.nonecheck(False)
cdef int _guohu_bar(RoundCore self, int p, int card) noexcept nogil:
    """Largest fan passed that a win on ``card`` must exceed (3.9, CP-52); -1 = none."""
    cdef int passed = -1, f
    if not self.guohu_hand:
        return self.guohu[p][card]
    for f in range(N_FACES):
        if self.guohu[p][f] > passed:
            passed = self.guohu[p][f]
    return passed


@cython.nonecheck(False)
cdef bint _wins_with(RoundCore self, int p, int card) except -1:
    cdef SeatCards s
    cdef int passed
    cdef uint8_t c[N_FACES]
    memcpy(c, self.hands[p], N_FACES)          # most cards on offer complete no split: asked first
    c[card] += 1
    if c[card] > COPIES or lc_max_tuo(c, self.keep_kans) < 0:
        return False
    _seat(self, p, &s)
    s.c[card] += 1
    if not _is_win_cards(self, p, &s):
        return False
    passed = _guohu_bar(self, p, card)
    return passed < 0 or _score_total(self, p, card) > passed


@cython.nonecheck(False)
cdef bint _self_win(RoundCore self, int p) except -1:
    """May p win on his own cards now (4.2: 天胡, or after his replacement draws)?  A self-drawn win
    on the drawn face X is subject to 过胡 (3.9) like a claimed one; 天胡 has no drawn card."""
    cdef SeatCards s
    cdef int passed
    if not self.self_win_ok:
        return False
    _seat(self, p, &s)
    if not _is_win_cards(self, p, &s):
        return False
    if self.drawn < 0:
        return True
    passed = _guohu_bar(self, p, self.drawn)
    return passed < 0 or _score_total(self, p, -1) > passed


@cython.nonecheck(False)
cdef bint _ready_after_claim(RoundCore self, int p, int a, int b, int card) noexcept nogil:
    """After claiming ``card`` with the held pair (a, b) (and a suitable discard), is p ready (3.7)?"""
    cdef SeatCards s
    cdef uint8_t g[3]
    cdef uint8_t live[N_FACES]
    cdef uint32_t allowed = ((<uint32_t> 1) << N_FACES) - 1
    cdef int x
    _seat(self, p, &s)
    s.c[a] -= 1
    s.c[b] -= 1
    _sort3(a, b, card, g)
    _seat_add(&s, K_PENG if g[0] == g[2] else K_CHI, g)
    if self.ready_live:                    # _waits(engine=True): waits on faces with a live copy
        _live(self, p, live)
        for x in range(N_FACES):
            if live[x] < 1:
                allowed &= ~((<uint32_t> 1) << x)
    # a discard after which _waits(engine=True) is not empty
    return lc_ready_after_discard(s.c, s.own, s.tuo, self.thr[p == self.banker], self.keep_kans,
                                  self.waive and not s.red, allowed)


@cython.nonecheck(False)
cdef int _chi_pairs(RoundCore self, int p, int card, uint8_t (*out)[2]) noexcept nogil:
    cdef const uint8_t* h = self.hands[p]
    cdef int k, a, b, n = 0
    for k in range(N_CHI_WITH[card]):
        a = CHI_WITH[card][k][0]
        b = CHI_WITH[card][k][1]
        if h[a] < (2 if a == b else 1) or h[b] < 1:
            continue
        if not self.chi_kan and (h[a] == 3 or h[b] == 3):
            continue
        out[n][0] = a
        out[n][1] = b
        n += 1
    return n


@cython.nonecheck(False)
cdef bint _two_mao(RoundCore self, int p) noexcept nogil:
    """Two-卯 state of 4.7: 7 - G = 2."""
    cdef bint whole
    return 7 - self.ng[p] - lc_group_count(self.hands[p], &whole) == 2


@cython.nonecheck(False)
cdef bint _last_card(RoundCore self, int p, int card) noexcept nogil:
    """尾张 of 4.7 (CP-30): no other live copy of any face whose claim makes p ready."""
    cdef uint8_t live[N_FACES]
    cdef uint8_t pairs[MAX_CHI_WITH][2]
    cdef int x, k, n
    _live(self, p, live)
    live[card] -= 1
    for x in range(N_FACES):
        if live[x] > 0:
            if self.hands[p][x] == 2 and not self.peng_barred[p][x] and _ready_after_claim(self, p, x, x, x):
                return False
            n = _chi_pairs(self, p, x, pairs)
            for k in range(n):
                if _ready_after_claim(self, p, pairs[k][0], pairs[k][1], x):
                    return False
    return True


@cython.nonecheck(False)
cdef int _held_fan(RoundCore self, int p):
    return int(_RefView(self).held_fan(p))


@cython.nonecheck(False)
cdef bint _tiao_free(RoundCore self, int f) except -1:
    cdef int p = self.qi_player, i, x, fan
    cdef uint8_t live[N_FACES]
    if not self.qi_faces[f]:
        return True
    for i in range(self.ng[p]):
        if self.gkind[p][i] != K_CHI and self.gcards[p][i][0] == f:
            return True       # his own 碰/杀/吐火 of the face secured its fan (3.15)
    if self.liang_fan_ke_tiao:
        fan = _f_theo(self, p) if self.liang_theo else _held_fan(self, p)
        if fan >= 2:
            return True
    _live(self, p, live)
    if self.dang_rule == DANG_ANY_FACE:
        for x in range(N_FACES):
            if self.qi_faces[x] and (self.dang[x] or live[x] == 0):
                return True
        return False
    return self.dang[f] or (self.dang_rule != DANG_TAKEN_ONLY and live[f] == 0)


@cython.nonecheck(False)
cdef bint _is_tiao(RoundCore self, int p, int aid) except -1:
    """Would the action break a 起 fan face (跳牌, CP-24)?"""
    cdef int a, b
    if p != self.qi_player:
        return False
    if aid < N_FACES:
        return self.tiao_discard and not _tiao_free(self, aid)
    a = CHI_A[aid]
    b = CHI_B[aid]
    if not _tiao_free(self, a) or (b != a and not _tiao_free(self, b)):
        return True
    return self.hands[p][self.offer] >= 2 and not _tiao_free(self, self.offer)


@cython.nonecheck(False)
cdef bint _last_mao_block(RoundCore self, int p, int a, int b) noexcept nogil:
    """CP-31: loose cards = one 卯 completed by this card -> the claim is a 胡 or nothing."""
    cdef uint8_t h[N_FACES]
    cdef bint whole
    if not self.last_mao_hu_only:
        return False
    memcpy(h, self.hands[p], N_FACES)
    h[a] -= 1
    h[b] -= 1
    lc_group_count(h, &whole)
    return whole
