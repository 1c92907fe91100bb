# Included by _round.pyx.  The built-in bots in C (GreedyBot and RandomBot of
# mahjong_core.game.bots, move for move): they read the machine's state and its legal options and
# return an action index; RoundCore.play_out / bot_choice drive them.  They never change the state.

cdef int _bot_shanten(RoundCore r, const uint8_t* c) noexcept nogil:
    return hand_shanten(c, _sum34(c), r.special)

cdef int _bot_greedy(RoundCore r, int seat) except -2 nogil:
    """GreedyBot (see mahjong_core.game.bots): wins whenever allowed; discards to the lowest
    shanten, ties broken by the most live tiles that lower it (then the highest tile); claims
    only what lowers the shanten; kongs when they do not raise it; 报听 when ready with live waits."""
    cdef int n = _legal(r, seat), k, i, t, d, cur, best_s, best_acc
    cdef const uint8_t* legal = r.opts[seat]
    cdef uint8_t h[NK]
    cdef uint8_t hh[NK]
    cdef int vis[NK]
    cdef int unseen[NK]
    cdef int s1[NK]
    cdef int acc1[NK]
    cdef uint64_t dmask
    cdef bint has_discard = False
    if n == 0:
        return -1
    if _has(r, seat, A_WIN):
        return A_WIN
    if n == 1:
        return legal[0]
    memcpy(h, r.hands[seat], NK)
    if _has(r, seat, A_DECLARE_READY):
        return A_DECLARE_READY
    if _has(r, seat, A_PASS):  # claim window
        cur = _bot_shanten(r, h)
        t = r.claim_tile
        if _has(r, seat, A_KONG_CLAIM):
            memcpy(hh, h, NK)
            hh[t] -= 3
            if _bot_shanten(r, hh) <= cur:
                return A_KONG_CLAIM
        return _bot_claim_choice(r, seat, h, t, cur)
    # own turn: discard choice (shanten after each discard, live improving tiles of the best)
    _visible(r, vis)
    for k in range(NK):
        unseen[k] = 4 - h[k] - vis[k]
    dmask = 0
    for k in range(n):
        i = legal[k]
        if i < A_DISCARD_READY:
            dmask |= (<uint64_t> 1) << i
    has_discard = dmask != 0
    best_s = hand_discard_eval(h, _sum34(h), r.special, r.kinds_mask, dmask, unseen, s1, acc1)
    best_acc = -1
    d = -1
    for i in range(NK):
        # most live improving tiles, then the highest tile
        if (dmask >> i) & 1 and acc1[i] >= 0 and acc1[i] >= best_acc:
            best_acc = acc1[i]
            d = i
    for k in range(n):
        i = legal[k]
        if A_KONG_SELF <= i < A_CHI_LOW:
            t = i - A_KONG_SELF
            memcpy(hh, h, NK)
            hh[t] -= 4 if hh[t] == 4 else 1
            if not has_discard or _bot_shanten(r, hh) <= best_s:
                return i
    if d < 0:
        return legal[0]
    if best_s == 0 and best_acc > 0 and _has(r, seat, A_DISCARD_READY + d):
        return A_DISCARD_READY + d
    return d

cdef int _bot_claim_choice(RoundCore r, int seat, const uint8_t* h, int t, int cur) except -2 nogil:
    """Pung first, then the chows (ascending): the first claim that strictly lowers the
    shanten below the best so far; else pass."""
    cdef uint8_t hh[NK]
    cdef int k, i, s, low, x, b = A_PASS, bs = cur, n = r.n_opts[seat]
    cdef const uint8_t* legal = r.opts[seat]
    if _has(r, seat, A_PON):
        memcpy(hh, h, NK)
        hh[t] -= 2
        s = _bot_shanten(r, hh)
        if s < bs:
            b = A_PON
            bs = s
    for k in range(n):
        i = legal[k]
        if not (A_CHI_LOW <= i <= A_CHI_HIGH):
            continue
        memcpy(hh, h, NK)
        low = t - (i - A_CHI_LOW)
        for x in range(low, low + 3):
            if x != t:
                hh[x] -= 1
        s = _bot_shanten(r, hh)
        if s < bs:
            b = i
            bs = s
    return b

cdef int _bot_random(RoundCore r, int seat, mj_bitgen_t* bg) except -2 nogil:
    """RandomBot: ``legal[Generator.integers(len(legal))]`` with NumPy's exact bounded-integer
    algorithm (Lemire's method on 32-bit draws), so it equals the Python call on the same
    bit generator."""
    cdef int n = _legal(r, seat)
    if n == 0:
        return -1
    return r.opts[seat][<int> _bounded(bg, <uint32_t> (n - 1))]
