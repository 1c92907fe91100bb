# Copies of a long-card RoundCore for search (``include``d by _lc_round.pyx): ``copy`` (the same hand, to
# play on without touching the original) and ``world`` (the same hand as one seat sees it, with the
# cards that seat cannot see given by the caller: the search bot's determinizations,
# mahjong_core.families.longcard.search_bot).  Functions of the state (_lc_round.pxd).

@cython.nonecheck(False)
cdef int _copy_state(RoundCore dst, RoundCore src) except -1:
    """Every field of ``src`` into the fresh core ``dst`` (built by __new__: no buffers yet), except the
    action log and the events, which start empty in ``dst``: no rule reads them (a copy is played on,
    not replayed or shown).  Keep in step with _lc_round.pxd (tests/bots/test_lc_world.py plays a copy
    and its original to the same end under every bot)."""
    _copy_settings(dst, src)
    memcpy(dst.w, src.w, sizeof(src.w))
    dst.jiang = src.jiang
    dst._result = _result_of(src)
    dst.end_kind = src.end_kind
    dst.end_data = src.end_data
    memcpy(dst.stock, src.stock, sizeof(src.stock))
    dst.nstock = src.nstock
    dst.pos = src.pos
    dst.banker = src.banker
    memcpy(dst.hands, src.hands, sizeof(src.hands))
    memcpy(dst.caishen, src.caishen, sizeof(src.caishen))
    memcpy(dst.ng, src.ng, sizeof(src.ng))
    memcpy(dst.gkind, src.gkind, sizeof(src.gkind))
    memcpy(dst.gcards, src.gcards, sizeof(src.gcards))
    memcpy(dst.gfrom, src.gfrom, sizeof(src.gfrom))
    memcpy(dst.tangzi, src.tangzi, sizeof(src.tangzi))
    memcpy(dst.ntangzi, src.ntangzi, sizeof(src.ntangzi))
    memcpy(dst.folded, src.folded, sizeof(src.folded))
    memcpy(dst.asked, src.asked, sizeof(src.asked))
    dst.qi_player = src.qi_player
    memcpy(dst.qi_faces, src.qi_faces, sizeof(src.qi_faces))
    memcpy(dst.dang, src.dang, sizeof(src.dang))
    memcpy(dst.peng_barred, src.peng_barred, sizeof(src.peng_barred))
    memcpy(dst.guohu, src.guohu, sizeof(src.guohu))
    memcpy(dst.chi_faces, src.chi_faces, sizeof(src.chi_faces))
    dst.started = src.started
    dst.phase = src.phase
    dst.actor = src.actor
    dst.offer = src.offer
    dst.offer_from = src.offer_from
    dst.offer_kind = src.offer_kind
    memcpy(dst.queue, src.queue, sizeof(src.queue))
    dst.nqueue = src.nqueue
    memcpy(dst.answered, src.answered, sizeof(src.answered))
    memcpy(dst.copt_id, src.copt_id, sizeof(src.copt_id))
    memcpy(dst.copt_rank, src.copt_rank, sizeof(src.copt_rank))
    memcpy(dst.ncopt, src.ncopt, sizeof(src.ncopt))
    dst.has_best = src.has_best
    dst.best_r = src.best_r
    dst.best_d = src.best_d
    dst.best_seat = src.best_seat
    dst.best_a = src.best_a
    dst.discard_ban = src.discard_ban
    dst.self_win_ok = src.self_win_ok
    dst.drawn = src.drawn
    memcpy(dst.tou, src.tou, sizeof(src.tou))
    dst.ntou = src.ntou
    memcpy(dst.pub, src.pub, sizeof(src.pub))
    memcpy(dst.gown, src.gown, sizeof(src.gown))
    memcpy(dst.gtuo, src.gtuo, sizeof(src.gtuo))
    memcpy(dst.gred, src.gred, sizeof(src.gred))
    memcpy(dst.gver, src.gver, sizeof(src.gver))
    memcpy(dst.obs_img, src.obs_img, sizeof(src.obs_img))
    # the caches start empty: the decision is worked out again on first use, the plans as asked
    memset(dst.qc_ok, 0, sizeof(dst.qc_ok))
    dst.dec_log = -1
    dst.cap_log = 64
    dst.log = <int16_t*> malloc(2 * dst.cap_log * sizeof(int16_t))
    dst.cap_ev = 128
    dst.ev = <int16_t*> malloc(EV_FIELDS * dst.cap_ev * sizeof(int16_t))
    if dst.log == NULL or dst.ev == NULL:
        raise MemoryError()
    dst.nlog = 0
    dst.nev = 0
    return 0


@cython.nonecheck(False)
cdef RoundCore _core_copy(RoundCore src):
    cdef RoundCore c = RoundCore.__new__(RoundCore)
    _copy_state(c, src)
    return c


@cython.nonecheck(False)
cdef RoundCore _core_world(RoundCore src, int seat, object hands, object tail):
    """``src`` with the other seats' concealed cards ``hands[q]`` (21 counts each; ``hands[seat]`` is
    ignored) and the undrawn stock ``tail`` (``stock_left`` card ids, front first), and what only the
    other seats know reset: their 碰 bars and 过胡 marks (none), and the 起 player's faces S (3.8)
    worked out from his cards in the world when he is another seat.  In a claim window (``seat`` is
    the seat asked) the window is queued again on the world's cards (_requeue_for).  Refused
    (MahjongError, nothing built) in a claim window where another seat is asked, when a hand's size
    changes, or when the world's cards are not the hand's (a card census)."""
    cdef int q, f, k, n, held
    cdef int census[N_FACES + 1]
    cdef uint8_t new_hands[PLAYERS][N_FACES]
    cdef uint8_t new_tail[MAX_STOCK]
    if src.phase == PH_END:
        raise MahjongError("the hand is over")
    if src.phase == PH_CLAIM and src.actor != seat:
        raise MahjongError("a world in a claim window is built for the seat asked now")
    n = _stock_left(src)
    if type(tail) is not list or len(tail) != n:
        raise MahjongError(f"tail must be a list of the {n} undrawn card ids")
    if len(hands) != PLAYERS:
        raise MahjongError("hands: one row of 21 counts per seat")
    memset(census, 0, sizeof(census))
    memcpy(new_hands, src.hands, sizeof(new_hands))
    for q in range(PLAYERS):
        if q == seat:
            continue
        row = hands[q]
        if len(row) != N_FACES:
            raise MahjongError(f"hands[{q}]: 21 counts")
        k = 0
        held = 0
        for f in range(N_FACES):
            held += src.hands[q][f]
            x = int(row[f])
            if not 0 <= x <= COPIES:
                raise MahjongError(f"hands[{q}][{f}]: a count 0-{COPIES}, got {x}")
            new_hands[q][f] = x
            census[f] += x - src.hands[q][f]
            k += x - src.hands[q][f]
        if k != 0:
            raise MahjongError(f"hands[{q}]: seat {q} holds {held} concealed cards")
    for k in range(n):
        x = tail[k]
        if type(x) is not int or not 0 <= x <= CAISHEN:
            raise MahjongError(f"tail[{k}]: a card id 0-21, got {x!r}")
        new_tail[k] = x
        census[<int> x] += 1
        census[src.stock[src.pos + k]] -= 1
    for f in range(N_FACES + 1):
        if census[f] != 0:
            raise MahjongError("the world's cards are not the hand's (other seats' concealed cards and the stock)")
    cdef RoundCore w = _core_copy(src)
    memcpy(w.hands, new_hands, sizeof(new_hands))
    memcpy(w.stock + w.pos, new_tail, n)
    _img_static(w)                      # the 将 cards the observation reads from the stock
    for q in range(PLAYERS):
        if q == seat:
            continue
        memset(w.peng_barred[q], 0, N_FACES)
        for f in range(N_FACES):
            w.guohu[q][f] = -1
    if w.phase == PH_CLAIM:
        _requeue_for(w, seat)
    if w.qi_player >= 0 and w.qi_player != seat:
        q = w.qi_player
        for f in range(N_FACES):                               # as _do_qi (CP-24), on the world's cards
            w.qi_faces[f] = (w.w[f] >= 1 and w.hands[q][f] >= 2) or w.hands[q][f] >= 4
    return w


@cython.nonecheck(False)
cdef int _requeue_for(RoundCore w, int seat) except -1:
    """The claim window of the world ``w`` as ``seat``, the seat asked now, can know it: every other
    seat's options and place in the order of 8.2 are worked out again from the world's cards; the
    seats ahead of ``seat`` have answered without a claim that stops the window (they passed: being
    asked tells ``seat`` no more), the ones after it are still to be asked, and no claim is held."""
    cdef int q, i, k, n
    for q in range(PLAYERS):
        w.answered[q] = False
    w.has_best = False
    _queue_claimants(w)
    k = -1
    for i in range(w.nqueue):
        if w.queue[i] == seat:
            k = i
            break
    if k < 0:
        raise MahjongError(f"seat {seat} has no claim on the card in this world")   # pragma: no cover - its options are its own
    for i in range(k):
        w.answered[w.queue[i]] = True
    n = w.nqueue - k
    for i in range(n):
        w.queue[i] = w.queue[i + k]
    w.nqueue = n
    w.actor = seat
    w.dec_log = -1
    return 0
