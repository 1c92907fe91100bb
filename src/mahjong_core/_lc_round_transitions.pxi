# The transitions of the long-card RoundCore (``include``d by _lc_round.pyx): the deal, 起 and
# 偷, the turn and discard, the claim window and its resolution, replacements, announcements and the
# end of the hand.  Functions of the state (_lc_round.pxd).

# ------------------------------------------------------------------ the deal (3.2, 3.3)
@cython.nonecheck(False)
cdef int _deal(RoundCore self) except -1:
    cdef int k, p, i, c, n
    cdef int order[PLAYERS]
    _order_from(self, self.banker, order)
    self.qi_player = -1
    self.drawn = -1
    self.offer = self.offer_from = -1
    self.offer_kind = OK_NONE
    self.discard_ban = -1
    for p in range(PLAYERS):
        for k in range(N_FACES):
            self.guohu[p][k] = -1
    for k in range(PLAYERS):
        p = order[k]
        for i in range(DEAL * k, DEAL * k + DEAL):
            c = self.stock[i]
            if c == CAISHEN:
                self.caishen[p] += 1
            else:
                self.hands[p][c] += 1
        _event(self, EV_DEAL, p, p, k, self.caishen[p], 0)
    self.pos = DEAL * PLAYERS
    if self.settings_wumenjiang:
        self.jiang = (self.stock[self.pos], self.stock[self.nstock - 1])
        _event(self, EV_JIANG, -1, NO_TO, self.stock[self.pos], self.stock[self.nstock - 1], 0)
    else:
        self.jiang = None
    _img_static(self)
    for k in range(PLAYERS):
        p = order[k]
        n = self.caishen[p]
        if n:
            _event(self, EV_CAISHEN, p, NO_TO, n, 0, 0)
        while n:
            c = _draw(self)
            n -= 1
            if c == CAISHEN:
                self.caishen[p] += 1
                _event(self, EV_CAISHEN, p, NO_TO, 1, 0, 0)
                n += 1
            else:
                self.hands[p][c] += 1
                _event(self, EV_DRAW, p, p, c, 0, 0)
    self.phase = PH_QI
    self.actor = self.banker
    return 0


@cython.nonecheck(False)
cdef inline int _draw(RoundCore self) noexcept nogil:
    self.pos += 1
    return self.stock[self.pos - 1]


# ------------------------------------------------------------------ stepping
@cython.nonecheck(False)
cdef int _apply(RoundCore self, int p, int a) except -1:
    """Apply the decision ``a`` of the seat to act (offered: checked by the caller)."""
    cdef int cause = self.dec[a], ph = self.phase
    _log_action(self, p, a)
    self.dec_log = -1
    _event(self, EV_ACTION, p, p if ph == PH_CLAIM and a != FOLD else NO_TO, a, ph, 0)
    if cause > 0:
        _end_baozi(self, p, cause, a if a < N_FACES else -1)
    elif ph == PH_QI:
        _do_qi(self, p, a)
    elif ph == PH_STAY:
        _do_stay(self, p, a)
    elif ph == PH_TURN:
        _do_turn(self, p, a)
    elif ph == PH_DISCARD:
        _do_discard(self, p, a)
    else:
        _do_claim(self, p, a)
    return 0


@cython.nonecheck(False)
cdef bint _fold(RoundCore self, int p) except -1:
    """Fold p (3.11); True when the hand ended because every seat folded (CP-44)."""
    self.folded[p] = True
    if self.folded[0] and self.folded[1] and self.folded[2] and self.phase != PH_QI and self.all_folded_ends:
        _end(self, "huangzhuang", {"why": "all_folded"})
        return True
    return False


# 起 stage (3.3 step 3-4)
@cython.nonecheck(False)
cdef int _do_qi(RoundCore self, int p, int a) except -1:
    cdef int f, k
    cdef int order[PLAYERS]
    cdef const uint8_t* h = self.hands[p]
    self.asked[p] = True
    if a == QI:
        self.qi_player = p
        for f in range(N_FACES):
            self.qi_faces[f] = (self.w[f] >= 1 and h[f] >= 2) or h[f] >= 4     # CP-24
        _start_tou(self)
        return 0
    if a == FOLD:
        self.folded[p] = True
    _order_from(self, self.banker, order)
    k = 0
    while order[k] != p:
        k += 1
    if k == PLAYERS - 1:
        _end(self, "void", {"why": "no_qi"})            # 3.3 step 4
        return 0
    self.actor = order[k + 1]
    return 0


@cython.nonecheck(False)
cdef int _start_tou(RoundCore self) except -1:
    """3.3 steps 5-6: banker's extra card, then the 偷牌 stage from the banker."""
    cdef int b = self.banker, c
    if self.extra_card and not self.folded[b]:
        while True:
            c = _draw(self)
            if c != CAISHEN:
                break
            self.caishen[b] += 1
            _event(self, EV_CAISHEN, b, NO_TO, 1, 0, 0)
        self.hands[b][c] += 1
        _event(self, EV_DRAW, b, b, c, 1, 0)
    _order_from(self, b, self.tou)
    self.ntou = PLAYERS
    _advance_tou(self)
    return 0


@cython.nonecheck(False)
cdef inline void _pop_tou(RoundCore self) noexcept nogil:
    self.tou[0] = self.tou[1]
    self.tou[1] = self.tou[2]
    self.ntou -= 1


@cython.nonecheck(False)
cdef int _advance_tou(RoundCore self) except -1:
    cdef int p, f, owed
    while self.ntou:
        p = self.tou[0]
        if self.folded[p]:
            _pop_tou(self)
            continue
        if not self.asked[p]:
            self.phase = PH_STAY
            self.actor = p
            return 0
        _pop_tou(self)
        owed = 0
        for f in range(N_FACES):                   # 有吐火必吐火 (3.3 step 6)
            if self.hands[p][f] == 5:
                _lay(self, p, K_XIANG, f)
                owed += 2
            elif self.hands[p][f] == 4:
                _lay(self, p, K_WEIXIANG, f)
                owed += 1
        if owed and not _replacements(self, p, owed, -1):
            return 0
    _start_play(self)
    return 0


@cython.nonecheck(False)
cdef int _do_stay(RoundCore self, int p, int a) except -1:
    self.asked[p] = True
    if a == FOLD and _fold(self, p):
        return 0
    _advance_tou(self)
    return 0


@cython.nonecheck(False)
cdef int _add_group(RoundCore self, int p, int kind, const uint8_t* cards, int src) except -1:
    cdef int k = self.ng[p], i
    if k == MAX_DECLARED:
        raise MahjongError("more than 7 declared groups")   # pragma: no cover - 21 cards make 7 groups
    self.gkind[p][k] = kind
    memcpy(self.gcards[p][k], cards, 5)
    self.gfrom[p][k] = src
    self.ng[p] = k + 1
    for i in range(_group_size(kind)):
        self.gown[p][cards[i]] += 1
        self.pub[cards[i]] += 1
        if lc_red(cards[i]):
            self.gred[p] = True
    self.gtuo[p] += _group_tuo_of(kind, cards)
    self.gver[p] += 1
    _img_group(self, p, k)
    return 0


@cython.nonecheck(False)
cdef void _grow_xiang(RoundCore self, int p, int k) noexcept nogil:
    """p's declared group k (a 吐火未响 or a 杀: 4 cards of one face) becomes a 吐火响 with its 5th card."""
    cdef int f = self.gcards[p][k][0]
    self.gtuo[p] += lc_same_tuo(f, 5) - _group_tuo_of(self.gkind[p][k], self.gcards[p][k])
    self.gkind[p][k] = K_XIANG
    self.gver[p] += 1
    self.gown[p][f] += 1
    self.pub[f] += 1
    _img_group(self, p, k)


@cython.nonecheck(False)
cdef void _to_tangzi(RoundCore self, int p, int card) noexcept nogil:
    self.tangzi[p][self.ntangzi[p]] = card
    self.ntangzi[p] += 1
    self.pub[card] += 1
    _img_tangzi(self, p, self.ntangzi[p] - 1)


@cython.nonecheck(False)
cdef int _lay(RoundCore self, int p, int kind, int f) except -1:
    cdef uint8_t cards[5]
    cdef int n = _group_size(kind)
    memset(cards, f, 5)
    self.hands[p][f] -= n
    _add_group(self, p, kind, cards, -1)
    _event(self, EV_DECLARE, p, NO_TO, kind, f, 0)
    return 0


@cython.nonecheck(False)
cdef int _start_play(RoundCore self) except -1:
    """3.3 step 7 (CP-5)."""
    cdef int b = self.banker
    self.started = True
    if self.folded[b]:
        _turn_due(self, _next_active(self, b))
    elif self.extra_card:
        self.drawn = -1                           # 天胡 is not a win on a drawn card
        _discard_due(self, b, True, -1)            # 天胡 allowed (CP-45)
    else:
        _turn_due(self, b)
    return 0


@cython.nonecheck(False)
cdef int _turn_due(RoundCore self, int p) except -1:
    self.offer = self.offer_from = -1
    self.offer_kind = OK_NONE
    if _stock_left(self) == 0:                   # 3.4: a TURN due with an empty stock -> 黄庄
        self.phase = PH_TURN
        _end(self, "huangzhuang", {"why": "stock_empty"})
        return 0
    self.phase = PH_TURN
    self.actor = p
    return 0


@cython.nonecheck(False)
cdef void _discard_due(RoundCore self, int p, bint self_win, int ban) noexcept nogil:
    self.phase = PH_DISCARD
    self.actor = p
    self.self_win_ok = self_win
    self.discard_ban = ban
    if not self_win:
        self.drawn = -1
    self.offer = self.offer_from = -1
    self.offer_kind = OK_NONE


# the turn cycle (3.4)
@cython.nonecheck(False)
cdef int _do_turn(RoundCore self, int p, int a) except -1:
    cdef int c
    if a == FOLD:
        if not _fold(self, p):
            _turn_due(self, _next_active(self, p))
        return 0
    while True:
        if _stock_left(self) == 0:
            _end(self, "huangzhuang", {"why": "stock_empty"})
            return 0
        c = _draw(self)
        if c != CAISHEN:
            break
        self.caishen[p] += 1
        _event(self, EV_CAISHEN, p, NO_TO, 1, 0, 0)
    _event(self, EV_TURN, p, NO_TO, c, 0, 0)
    _open_window(self, c, p, OK_TURN)
    return 0


@cython.nonecheck(False)
cdef int _do_discard(RoundCore self, int p, int a) except -1:
    cdef int x
    if a == FOLD:
        if not _fold(self, p):
            _turn_due(self, _next_active(self, p))
        return 0
    if a == HU:
        _end_win(self, p, -1)
        return 0
    if self.drawn >= 0 and _self_win(self, p):      # 过胡 (3.9) of a self-drawn win on the drawn face
        x = _score_total(self, p, -1)
        if x > self.guohu[p][self.drawn]:
            self.guohu[p][self.drawn] = x
    self.hands[p][a] -= 1
    _event(self, EV_DISCARD, p, NO_TO, a, 0, 0)
    _open_window(self, a, p, OK_DISCARD)
    return 0


# claim windows (3.5, 8.2 protocol)
@cython.nonecheck(False)
cdef int _open_window(RoundCore self, int c, int src, int kind) except -1:
    self.offer = c
    self.offer_from = src
    self.offer_kind = kind
    self.answered[0] = self.answered[1] = self.answered[2] = False
    self.has_best = False
    self.phase = PH_CLAIM
    _queue_claimants(self)
    _advance_claim(self)
    return 0


@cython.nonecheck(False)
cdef int _queue_claimants(RoundCore self) except -1:
    """Every seat not yet asked with a claim (or a 杵死 fold) on the card, in the order of 8.2 (see
    _ref.round._queue_claimants)."""
    cdef bint todo[PLAYERS]
    cdef int p, q, i, j, n = 0, first
    for p in range(PLAYERS):
        todo[p] = not self.answered[p] and not self.folded[p]
        if todo[p]:
            _claim_options(self, p)
    for p in range(PLAYERS):                       # 杵死 seats first
        if todo[p] and self.ncopt[p] == 0 and _chusi(self, p):
            self.queue[n] = p
            n += 1
    first = n
    for p in range(PLAYERS):                       # then the claimants, by insertion
        if todo[p] and self.ncopt[p]:
            j = n
            while j > first and _before(self, p, self.queue[j - 1]):
                self.queue[j] = self.queue[j - 1]
                j -= 1
            self.queue[j] = p
            n += 1
    self.nqueue = n
    return 0


@cython.nonecheck(False)
cdef inline bint _before(RoundCore self, int p, int q) noexcept nogil:
    cdef int rp = _best_rank(self, p), rq = _best_rank(self, q)
    return rp > rq or (rp == rq and _distance(self, self.offer_from, p) < _distance(self, self.offer_from, q))


@cython.nonecheck(False)
cdef inline void _pop_queue(RoundCore self) noexcept nogil:
    self.queue[0] = self.queue[1]
    self.queue[1] = self.queue[2]
    self.nqueue -= 1


@cython.nonecheck(False)
cdef int _advance_claim(RoundCore self) except -1:
    cdef int k, q, r
    cdef bint done
    while True:
        if self.has_best:
            done = True
            for k in range(self.nqueue):
                q = self.queue[k]
                r = _best_rank(self, q)
                if not (r < self.best_r or (r == self.best_r and _distance(self, self.offer_from, q) > self.best_d)):
                    done = False
                    break
            if done:
                _execute_claim(self, self.best_seat, self.best_a)
                return 0
        if self.nqueue == 0:
            _no_claim(self)
            return 0
        q = self.queue[0]
        if self.folded[q]:
            _pop_queue(self)
            continue
        self.actor = q
        return 0


@cython.nonecheck(False)
cdef int _do_claim(RoundCore self, int p, int a) except -1:
    cdef int r, d, c = self.offer
    _pop_queue(self)
    self.answered[p] = True
    if a == FOLD:
        if _fold(self, p):
            return 0
        _queue_claimants(self)
    else:
        if _opt_rank(self, p, HU) >= 0 and a != HU:       # 过胡 (3.9)
            r = _score_total(self, p, c)
            if r > self.guohu[p][c]:
                self.guohu[p][c] = r
        if _opt_rank(self, p, PENG) >= 0 and a != PENG and self.peng_bar:   # 过碰 (3.9, CP-53)
            self.peng_barred[p][c] = 1
        if a != PASS:
            r = _opt_rank(self, p, a)
            d = _distance(self, self.offer_from, p)
            if not self.has_best or r > self.best_r or (r == self.best_r and d < self.best_d):
                self.has_best = True
                self.best_r = r
                self.best_d = d
                self.best_seat = p
                self.best_a = a
    _advance_claim(self)
    return 0


@cython.nonecheck(False)
cdef int _no_claim(RoundCore self) except -1:
    cdef int src = self.offer_from
    _to_tangzi(self, src, self.offer)
    _event(self, EV_TANGZI, src, NO_TO, self.offer, 0, 0)
    _turn_due(self, _next_active(self, src))
    return 0


@cython.nonecheck(False)
cdef int _execute_claim(RoundCore self, int q, int a) except -1:
    cdef int c = self.offer, x, y, k
    cdef uint8_t* h = self.hands[q]
    cdef uint8_t cards[5]
    self.phase = PH_EXECUTE          # the card is taken: no longer on offer if the hand ends here
    _event(self, EV_CLAIM, q, NO_TO, a, c, self.offer_from)
    if self.qi_player >= 0 and q != self.qi_player:
        self.dang[c] = 1                           # 挡 (3.8, CP-25)
    if a == HU or CHI_BASE <= a < PENG:
        _announce_gen(self, q, c)
    if a == HU:
        h[c] += 1
        _end_win(self, q, c)
        return 0
    memset(cards, c, 5)
    if a == PENG:
        h[c] -= 2
        _add_group(self, q, K_PENG, cards, self.offer_from)
        _discard_due(self, q, False, -1)
    elif a == SHA:
        h[c] -= 3
        _add_group(self, q, K_SHA, cards, self.offer_from)
        if _replacements(self, q, 1, c):
            _discard_due(self, q, True, -1)
    elif a == XIANG:
        k = 0
        while not (self.gkind[q][k] == K_WEIXIANG and self.gcards[q][k][0] == c):
            k += 1
        _grow_xiang(self, q, k)
        self.gfrom[q][k] = self.offer_from
        _img_group(self, q, k)
        if _replacements(self, q, 1, -1):
            _discard_due(self, q, True, -1)
    else:
        x = CHI_A[a]
        y = CHI_B[a]
        h[x] -= 1
        h[y] -= 1
        _sort3(x, y, c, cards)
        _add_group(self, q, K_CHI, cards, self.offer_from)
        self.chi_faces[q][c] = 1
        _discard_due(self, q, False, _chi_ban(self, x, y, c))     # 3.5, CP-22
    return 0


# replacement draws (3.6)
@cython.nonecheck(False)
cdef bint _replacements(RoundCore self, int p, int owed, int sha_face) except -1:
    """Draw ``owed`` replacement cards for p with the chain rules of 3.6; False when the hand ended."""
    cdef int c, k, i
    while owed:
        if _stock_left(self) == 0:
            _end(self, "huangzhuang", {"why": "stock_empty"})        # CP-43
            return False
        c = _draw(self)
        owed -= 1
        _event(self, EV_REPLACEMENT, p, NO_TO if self.show_repl else p, c, 0, 0)
        if c == CAISHEN:                                            # 1
            self.caishen[p] += 1
            _event(self, EV_CAISHEN, p, NO_TO, 1, 0, 0)
            owed += 1
            continue
        k = -1
        for i in range(self.ng[p]):
            if self.gcards[p][i][0] == c and (self.gkind[p][i] == K_WEIXIANG or
                                              (self.gkind[p][i] == K_SHA and c == sha_face)):
                k = i
                break
        if k >= 0:                                                  # 2 拖牌, 3 吐火到自己补到
            _grow_xiang(self, p, k)
            _event(self, EV_DECLARE, p, NO_TO, K_XIANG, c, 0)
            owed += 1
            continue
        self.hands[p][c] += 1
        if self.hands[p][c] == 4:                                   # 4 多打 (CP-16)
            _lay(self, p, K_WEIXIANG, c)
            owed += 1
            continue
        self.drawn = c
        _announce_draw(self, p, c, sha_face >= 0)                    # 5
    return True


# announcements (3.12)
@cython.nonecheck(False)
cdef int _announce(RoundCore self, int p, int name, int face) except -1:
    if self.announce:
        _event(self, EV_ANNOUNCE, p, NO_TO, name, face, 0)
    return 0


@cython.nonecheck(False)
cdef bint _owns_kind(RoundCore self, int p, int f, int kind) noexcept nogil:
    cdef int i
    for i in range(self.ng[p]):
        if self.gkind[p][i] == kind and self.gcards[p][i][0] == f:
            return True
    return False


@cython.nonecheck(False)
cdef int _announce_gen(RoundCore self, int p, int c) except -1:
    if _owns_kind(self, p, c, K_PENG):
        _announce(self, p, AN_SIGEN, c)
    if _owns_kind(self, p, c, K_SHA):
        _announce(self, p, AN_WUGEN, c)
    return 0


@cython.nonecheck(False)
cdef int _announce_draw(RoundCore self, int p, int c, bint after_sha) except -1:
    cdef int n, i, k, copies
    cdef uint8_t dead[N_FACES]
    if after_sha and _owns_kind(self, p, c, K_PENG):
        _announce(self, p, AN_SIGEN_UP, c)
    if after_sha and _owns_kind(self, p, c, K_SHA):
        _announce(self, p, AN_WUGEN_UP, c)
    if after_sha and self.bi_peng and self.chi_faces[p][c]:
        _announce(self, p, AN_XIANGUO, c)
    n = self.hands[p][c]
    if self.bi_peng and (n == 2 or n == 3):
        _dead_for(self, p, dead)
        copies = dead[c]
        for i in range(self.ng[p]):
            for k in range(_group_size(self.gkind[p][i])):
                copies += self.gcards[p][i][k] == c
        if copies >= 1:
            _announce(self, p, AN_ERGEN if n == 2 else AN_SANGEN, c)
    if n == 3 and self.peng_barred[p][c]:
        _announce(self, p, AN_WEIPENG, c)
    return 0


# ------------------------------------------------------------------ the end (3.13, 3.14)
@cython.nonecheck(False)
cdef int _end_win(RoundCore self, int q, int card) except -1:
    # the fan now (the rewards read it); the score's breakdown ("score", the last entry of the win's
    # data) when the result is first read (_result_of): the winner's cards no longer change
    _end(self, "win", {"winner": q, "card": None if card < 0 else card, "fan": _score_total(self, q, -1)})
    return 0


@cython.nonecheck(False)
cdef int _end_baozi(RoundCore self, int p, int cause, int discard) except -1:
    name = f"B{cause}"
    _end(self, "baozi", {"offender": p, "cause": name, "cause_name": _round_ref.BAOZI_CAUSES[name],
                        "fan": int(_RefView(self)._baozi_fan(p, discard))})
    return 0


@cython.nonecheck(False)
cdef int _end(RoundCore self, str kind, dict data) except -1:
    if self.phase == PH_CLAIM and kind != "win":      # the card on offer was never claimed
        _to_tangzi(self, self.offer_from, self.offer)
    self.end_kind = kind
    self.end_data = data
    self.phase = PH_END
    self.actor = -1
    _event(self, EV_END, -1, NO_TO, 0, 0, 0)
    return 0


@cython.nonecheck(False)
cdef object _result_of(RoundCore self):
    """The result of an ended hand (None before the end), built from what _end kept on its first
    reading: the settlement reads only the end, its data, the folded seats, the banker and the
    settings, none of which changes once the hand is over."""
    if self._result is None and self.end_kind is not None:
        kind = self.end_kind
        res = {"end": kind, **self.end_data}
        if kind == "win":         # the score of the win, kept out of _end_win (see there)
            q = res["winner"]
            res["score"] = _RefView(self)._score(q, _hand_list(self, q, -1)).to_dict()
        res.update(_settled(self, kind, res))
        self._result = _json_plain(res)
    return self._result


cdef inline bint _pays(RoundCore self) noexcept:
    """Did the hand end with payments (a win or a 包子)?"""
    return self.end_kind is not None and (<str> self.end_kind == "win" or <str> self.end_kind == "baozi")


# the settlement of a result by what it reads (round_settlement's functions are pure): the end, the
# seat and fan of a win or 包子, the folded seats and the banker, under one settings object (held in
# the entry and compared by identity); a run of hands settles the same few results over and over
cdef dict _SETTLED = {}


@cython.nonecheck(False)
cdef dict _settled(RoundCore self, str kind, dict res):
    """``payments``, ``deltas``, ``next_banker`` and ``counts`` of the result ``res`` (round_settlement)."""
    s = self.settings
    seat = res.get("winner", res.get("offender"))
    key = (id(s), kind, seat, res.get("fan"), self.folded[0], self.folded[1], self.folded[2], self.banker)
    hit = _SETTLED.get(key)
    if hit is not None and hit[0] is s:
        return hit[1]
    folded = [bool(self.folded[p]) for p in range(PLAYERS)]
    out = {"payments": [list(x) for x in hand_payments(res, s, folded)],
           "deltas": hand_deltas(res, s, folded),
           "next_banker": next_banker(res, s, self.banker),
           "counts": kind != "void" and (kind != "baozi" or s.baozi_hand_counts)}      # CP-8, CP-57
    if len(_SETTLED) >= 4096:
        _SETTLED.clear()
    _SETTLED[key] = (s, out)
    return out
