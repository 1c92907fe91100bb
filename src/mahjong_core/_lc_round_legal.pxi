# What a seat may do now in the long-card RoundCore (``include``d by _lc_round.pyx): the claim
# options of a window, the 吃 bans, mandatory actions, and the decision of the seat to act (the action
# ids offered with their 包子 causes, spec 3.13).  Functions of the state (_lc_round.pxd).

@cython.nonecheck(False)
cdef int _claim_options(RoundCore self, int p) except -1:
    """Fill p's claims on the card on offer (action id, priority; before mandatory filtering)."""
    cdef int c = self.offer, src = self.offer_from, n = 0, k, npairs, a, b, i
    cdef const uint8_t* h = self.hands[p]
    cdef bint chi_seat, as_peng
    cdef uint8_t pairs[MAX_CHI_WITH][2]
    self.ncopt[p] = 0
    if self.folded[p] or (self.offer_kind == OK_DISCARD and p == src):
        return 0
    if _wins_with(self, p, c):
        self.copt_id[p][n] = HU
        self.copt_rank[p][n] = 6
        n += 1
    for i in range(self.ng[p]):
        if self.gkind[p][i] == K_WEIXIANG and self.gcards[p][i][0] == c:
            self.copt_id[p][n] = XIANG
            self.copt_rank[p][n] = 5
            n += 1
            break
    if h[c] == 3:
        self.copt_id[p][n] = SHA
        self.copt_rank[p][n] = 4
        n += 1
    if h[c] == 2 and not self.peng_barred[p][c] and not _last_mao_block(self, p, c, c) \
            and _keeps_discard(self, p, c, c, -1):
        self.copt_id[p][n] = PENG
        self.copt_rank[p][n] = 3
        n += 1
    if self.offer_kind == OK_TURN:            # T first, then next_active(T) (CP-20)
        chi_seat = p == src or p == _next_active(self, src)
    elif self.chi_skips_folded:
        chi_seat = p == _next_active(self, src)
    else:
        chi_seat = p == _mod3(src + self.dirn)
    if not chi_seat and not (self.seven_peng and IS_SEVEN[c]):
        npairs = 0               # no pair may claim (the test below): not looked for
    else:
        npairs = _chi_pairs(self, p, c, pairs)
    for k in range(npairs):
        a = pairs[k][0]
        b = pairs[k][1]
        as_peng = self.seven_peng and a != b and a != c and b != c and IS_SEVEN[c]    # CP-21
        if (chi_seat or as_peng) and not _last_mao_block(self, p, a, b) \
                and _keeps_discard(self, p, a, b, _chi_ban(self, a, b, c)):
            self.copt_id[p][n] = CHI_ID[a][b]
            self.copt_rank[p][n] = 3 if as_peng else 1
            n += 1
    self.ncopt[p] = n
    return 0


@cython.nonecheck(False)
cdef inline int _chi_ban(RoundCore self, int a, int b, int c) noexcept nogil:
    """The face not to discard after a 吃 of ``c`` with the held pair (a, b) (3.5, CP-22), or -1."""
    if self.chi_ban == BAN_ALL or (self.chi_ban == BAN_SEVEN and a != b and a != c and b != c and IS_SEVEN[c]):
        return c
    return -1


@cython.nonecheck(False)
cdef bint _keeps_discard(RoundCore self, int p, int a, int b, int ban) noexcept nogil:
    """3.5: a 吃 or 碰 is offered only when the claimant keeps a concealed card he may discard after
    it (not of the face ``ban``)."""
    cdef const uint8_t* h = self.hands[p]
    cdef int f
    for f in range(N_FACES):
        if f != ban and h[f] - (f == a) - (f == b) > 0:
            return True
    return False


@cython.nonecheck(False)
cdef inline int _opt_rank(RoundCore self, int p, int a) noexcept nogil:
    cdef int k
    for k in range(self.ncopt[p]):
        if self.copt_id[p][k] == a:
            return self.copt_rank[p][k]
    return -1


@cython.nonecheck(False)
cdef inline int _best_rank(RoundCore self, int p) noexcept nogil:
    cdef int k, r = 0
    for k in range(self.ncopt[p]):
        if self.copt_rank[p][k] > r:
            r = self.copt_rank[p][k]
    return r


@cython.nonecheck(False)
cdef bint _chusi(RoundCore self, int p) noexcept nogil:
    """杵死 (3.11, 必碰 only): loose cards are one pair X X, X is offered, and the completed hand misses 陀."""
    cdef int c = self.offer
    cdef SeatCards s
    cdef bint whole
    if not self.bi_peng or self.folded[p] or self.hands[p][c] != 2:
        return False
    if self.offer_kind == OK_DISCARD and p == self.offer_from:
        return False
    _seat(self, p, &s)
    s.c[c] -= 2
    lc_group_count(s.c, &whole)
    if not whole:
        return False
    s.c[c] += 3
    return not _is_win_cards(self, p, &s)


@cython.nonecheck(False)
cdef int _mandatory(RoundCore self, int p) noexcept nogil:
    """The claim that 有杀必杀 / 有吐火必吐火 / 必碰 force (3.7), or -1."""
    if _opt_rank(self, p, XIANG) >= 0:
        return XIANG
    if _opt_rank(self, p, SHA) >= 0:
        return SHA
    if self.bi_peng and _opt_rank(self, p, PENG) >= 0:
        return PENG
    return -1


# ------------------------------------------------------------------ decisions and 包子 flags
@cython.nonecheck(False)
cdef int _decide(RoundCore self, int p) except -1:
    """Fill ``dec``: the 包子 cause of every action offered to p now (_ref.round._decision, then
    the ``baozi_actions_allowed`` filter of _offered)."""
    cdef int8_t* out = self.dec
    cdef bint q
    cdef int b1, fold_cause, f, k, a, mand, cause, free
    cdef bint any_ready
    cdef int8_t ready[MAX_OPTS]
    cdef int16_t claim_ids[MAX_OPTS]
    cdef int nclaims = 0
    memset(out, -1, _MASK_BYTES)       # a variable size: the C library's loop (see _lc_round_obs.pxi)
    self.dec_log = self.nlog
    if self.phase == PH_END or p != self.actor:
        return 0
    q = _qualified(self, p)
    self.dec_q = q
    if self.phase == PH_QI:
        if q and _f_theo(self, p) >= 1:
            out[QI] = 0
        if self.qi_pass or not q:
            out[PASS] = 0 if q else 1
        out[FOLD] = 0
    elif self.phase == PH_STAY:
        out[PASS] = 0 if q else 1
        out[FOLD] = 0
    else:
        b1 = 0 if q else 1
        fold_cause = 2 if q and self.bi_jin_bi_da else 0
        if self.phase == PH_TURN:
            out[PASS] = b1
            out[FOLD] = fold_cause
        elif self.phase == PH_DISCARD:
            free = 0
            for f in range(N_FACES):
                if self.hands[p][f] and f != self.discard_ban:
                    out[f] = 5 if _is_tiao(self, p, f) else 0
                    free += out[f] == 0
            if free == 0:       # gap (g): every card he could discard is a 跳牌: the restriction yields
                for f in range(N_FACES):
                    if out[f] == 5:
                        out[f] = 0
            if _self_win(self, p):
                out[HU] = 0
            out[FOLD] = fold_cause
        else:                                   # the claim window
            mand = _mandatory(self, p)
            for k in range(self.ncopt[p]):
                a = self.copt_id[p][k]
                if mand >= 0 and a != mand and a != HU:
                    continue
                if a == HU and mand >= 0 and not self.hu_over:
                    continue
                out[a] = b1
                if CHI_BASE <= a < PENG and b1 == 0 and _is_tiao(self, p, a):
                    out[a] = 5
            if b1 == 0 and _chusi(self, p):
                # 杵死 (3.11, 3.13 B6): every choice but the fold is B6; the fold is free
                for a in range(N_ACTIONS):
                    if out[a] >= 0:
                        out[a] = 6
                if mand < 0:
                    out[PASS] = 6
                out[FOLD] = 0
            elif mand < 0:
                cause = b1
                # claims that make p ready (3.7; see _ref.round._decision for the reading)
                for k in range(self.ncopt[p]):
                    a = self.copt_id[p][k]
                    if CHI_BASE <= a < PENG and out[a] == 0:
                        claim_ids[nclaims] = a
                        nclaims += 1
                if _opt_rank(self, p, PENG) >= 0:
                    claim_ids[nclaims] = PENG
                    nclaims += 1
                if cause == 0 and nclaims and (self.liang_mao or self.wei_zhang):
                    any_ready = False
                    for k in range(nclaims):
                        a = claim_ids[k]
                        if a == PENG:
                            ready[k] = _ready_after_claim(self, p, self.offer, self.offer, self.offer)
                        else:
                            ready[k] = _ready_after_claim(self, p, CHI_A[a], CHI_B[a], self.offer)
                        any_ready = any_ready or ready[k]
                    if any_ready and self.liang_mao and _two_mao(self, p):
                        cause = 3
                    elif any_ready and self.wei_zhang and _last_card(self, p, self.offer):
                        cause = 4
                    if cause:                  # "MUST take such a claim": the others miss it too
                        for k in range(nclaims):
                            if not ready[k]:
                                out[claim_ids[k]] = cause
                out[PASS] = cause
                out[FOLD] = fold_cause
            else:
                out[FOLD] = fold_cause
    if not self.baozi_allowed:                  # CP-49: a fully enforced table
        for a in range(N_ACTIONS):
            if out[a] > 0:
                out[a] = -1
    return 0


@cython.nonecheck(False)
cdef int _offered(RoundCore self, int p) except -1:
    if self.dec_log != self.nlog or p != self.actor:
        _decide(self, p)
    return 0
