# Included by _round.pyx.  The engine side of the search bot
# (mahjong_core.families.mahjong.search_bot): sampled worlds of one seat -- the round as that seat
# sees it, the tiles it cannot see dealt again at random -- and play-outs of candidate actions in
# them by the built-in greedy bot, all in C.
#
# A world is built from what the seat may know and nothing else: every field the engine keeps that
# the seat cannot see (the opponents' concealed tiles, the kinds of their concealed kongs, the
# untaken wall, the unused kong dice, the answers already given in a claim window, the deal record,
# the caches computed from hidden hands) is overwritten by a draw from the search's own generator,
# or cleared.  The sample gives the seat exactly what it sees (its own tiles and every shown tile
# where they are, each opponent's hand size, the wall's shape); it does not condition on the
# opponents' choices (a flat determinization), but may give each opponent a hand improved by as
# many greedy turns as he has taken (_deal_hidden_hand): a prior on how players play, from public
# counts only.  What an opponent's 报听 says is kept too: a declared hand is ready by shape (the
# rules' check), and where 报听 is allowed on any discard a hand that is ready and was not declared
# may be made rarer (``ready_weight``: a player who declares whenever he can, as the greedy bot does,
# is not ready until he declares).

from libc.stdint cimport int8_t, int16_t

cdef enum:
    MAX_HISTORY = 40      # greedy turns replayed at most per opponent hand (a round has fewer)
    MAX_TRIES = 16        # draws tried per tile of a weighted hidden hand before one is kept anyway
    MAX_DEALS = 16        # hands dealt per opponent to meet what his 报听 says before one is kept anyway
    MAX_POOL_DEPTH = 200  # the most of the seat's discards pass_depth may look back on (a round has fewer)
    REDEAL_STEPS = 5      # what dealing a hand again costs in engine steps, besides a step per greedy turn
                          # it replays (search_bot.WORLD_STEPS and TURN_STEPS)


cdef void _copy_core(RoundCore d, RoundCore s) noexcept:
    """Every C field of ``s`` into ``d`` except the event buffer (emptied: a play-out keeps no log)."""
    d.P, d.rs, d.special, d.min_fan, d.dealer, d.round_wind, d.stacks = s.P, s.rs, s.special, s.min_fan, s.dealer, s.round_wind, s.stacks
    d.chi_prev_only, d.kong_die, d.ready_mode, d.ready_locks = s.chi_prev_only, s.kong_die, s.ready_mode, s.ready_locks
    d.ready_window, d.first_turn, d.seat_winds = s.ready_window, s.first_turn, s.seat_winds
    d.dealer_on_draw_next, d.multiple_winners, d.rob_kong, d.fan_options, d.nf = (
        s.dealer_on_draw_next, s.multiple_winners, s.rob_kong, s.fan_options, s.nf)
    d.dealer_on_win_next = s.dealer_on_win_next
    d.kinds_mask = s.kinds_mask
    memcpy(d.tiles, s.tiles, sizeof(s.tiles))
    memcpy(d.taken, s.taken, sizeof(s.taken))
    d.n_tiles, d.head, d.tail, d.remaining, d.reserved = s.n_tiles, s.head, s.tail, s.remaining, s.reserved
    memcpy(d.dice, s.dice, sizeof(s.dice))
    memcpy(d.kong_dice, s.kong_dice, sizeof(s.kong_dice))
    d.kong_dice_used = s.kong_dice_used
    memcpy(d.hands, s.hands, sizeof(s.hands))
    memcpy(d.n_hand, s.n_hand, sizeof(s.n_hand))
    memcpy(d.melds, s.melds, sizeof(s.melds))
    memcpy(d.n_melds, s.n_melds, sizeof(s.n_melds))
    memcpy(d.pool, s.pool, sizeof(s.pool))
    memcpy(d.n_pool, s.n_pool, sizeof(s.n_pool))
    memcpy(d.obs_kept, s.obs_kept, sizeof(s.obs_kept))
    d.obs_D, d.kept_len = s.obs_D, s.kept_len
    memcpy(d.kept_meld_at, s.kept_meld_at, sizeof(s.kept_meld_at))
    memcpy(d.kept_pool_at, s.kept_pool_at, sizeof(s.kept_pool_at))
    memcpy(d.kept_flower_at, s.kept_flower_at, sizeof(s.kept_flower_at))
    memcpy(d.flowers, s.flowers, sizeof(s.flowers))
    memcpy(d.n_flowers, s.n_flowers, sizeof(s.n_flowers))
    memcpy(d.dealt, s.dealt, sizeof(s.dealt))
    memcpy(d.n_dealt, s.n_dealt, sizeof(s.n_dealt))
    d.phase, d.turn, d.drawn, d.drawn_src, d.must_discard = s.phase, s.turn, s.drawn, s.drawn_src, s.must_discard
    memcpy(d.ready, s.ready, sizeof(s.ready))
    memcpy(d.ready_concealed, s.ready_concealed, sizeof(s.ready_concealed))
    memcpy(d.heavenly_ready, s.heavenly_ready, sizeof(s.heavenly_ready))
    d.dealer_first, d.calls_made, d.earthly_seat = s.dealer_first, s.calls_made, s.earthly_seat
    memcpy(d.drew, s.drew, sizeof(s.drew))
    d.claim_tile, d.claim_from, d.claim_last, d.claim_humanly = s.claim_tile, s.claim_from, s.claim_last, s.claim_humanly
    memcpy(d.pending, s.pending, sizeof(s.pending))
    d.n_pending = s.n_pending
    memcpy(d.responses, s.responses, sizeof(s.responses))
    d.n_steps, d.n_discards = s.n_steps, s.n_discards
    memcpy(d.opts_valid, s.opts_valid, sizeof(s.opts_valid))
    memcpy(d.opts_set, s.opts_set, sizeof(s.opts_set))
    memcpy(d.opts_listed, s.opts_listed, sizeof(s.opts_listed))
    memcpy(d.opts, s.opts, sizeof(s.opts))
    memcpy(d.n_opts, s.n_opts, sizeof(s.n_opts))
    memcpy(d.win_valid, s.win_valid, sizeof(s.win_valid))
    memcpy(d.wins, s.wins, sizeof(s.wins))
    memcpy(d.waits_valid, s.waits_valid, sizeof(s.waits_valid))
    memcpy(d.waits, s.waits, sizeof(s.waits))
    d.res_draw, d.n_winners, d.res_loser, d.res_method = s.res_draw, s.n_winners, s.res_loser, s.res_method
    d.res_next_dealer, d.res_wall_remaining = s.res_next_dealer, s.res_wall_remaining
    memcpy(d.winners, s.winners, sizeof(s.winners))
    memcpy(d.res_wins, s.res_wins, sizeof(s.res_wins))
    d.ev_len = 0


cdef void _shuffle_ints(int* a, int n, mj_bitgen_t* bg) noexcept nogil:
    """Fisher-Yates on ``a[:n]`` (NumPy's permutation order of draws)."""
    cdef int i, j, x
    for i in range(n - 1, 0, -1):
        j = <int> _interval(bg, <uint64_t> i)
        x = a[i]
        a[i] = a[j]
        a[j] = x


cdef int _unseen_tiles(RoundCore r, int seat, int* unseen) except -1:
    """The tiles ``seat`` cannot see, as counts per tile id (42: 34 kinds, 8 flowers): the
    ruleset's tile set minus its own hand and melds, every discard still in a pool, every exposed
    meld and every flower shown.  The tiles of the opponents' concealed kongs are among them (their
    kinds are hidden); returns how many such kongs there are."""
    cdef int s, i, k, f, n_ckongs = 0
    for k in range(42):
        unseen[k] = (4 if (r.kinds_mask >> k) & 1 else 0) if k < NK else 1
    for k in range(NK):
        unseen[k] -= r.hands[seat][k]
    for s in range(r.P):
        for i in range(r.n_pool[s]):
            unseen[r.pool[s][i]] -= 1
        for i in range(r.n_flowers[s]):
            unseen[r.flowers[s][i]] -= 1
        for i in range(r.n_melds[s]):
            k = r.melds[s][i][0]
            f = r.melds[s][i][1]
            if k == M_CKONG and s != seat:
                n_ckongs += 1
            elif k == M_CHI:
                unseen[f] -= 1
                unseen[f + 1] -= 1
                unseen[f + 2] -= 1
            else:
                unseen[f] -= 3 if k == M_PON else 4
    for k in range(42):
        if unseen[k] < 0:  # pragma: no cover - a flow bug
            raise RuntimeError(f"internal error: tile {k} seen more often than the tile set holds it")
    return n_ckongs


cdef int _determinize(RoundCore w, RoundCore src, int seat, mj_bitgen_t* bg, bint history,
                      const double* dw=NULL, double ready_weight=1.0, double last_weight=1.0,
                      double past_weight=1.0, double pass_weight=1.0, int pass_depth=0,
                      const int8_t* given=NULL) except -1:
    """``w`` := a world of ``seat`` (see the file's comment): ``src`` with everything the seat
    cannot see drawn again from ``bg``; with ``history`` each opponent's hand has been improved
    by as many greedy turns as he has taken (:func:`_deal_hidden_hand`), else it is uniform.
    ``dw`` (NULL: none): the four parameters of :func:`_discard_weights`, by which each tile of
    an opponent's hand is drawn (the tiles of and next to his discards less often).  An
    opponent's hand is dealt again (up to MAX_DEALS times) until it agrees with his 报听
    (:func:`_ready_agrees`; ``ready_weight``: how likely an undeclared ready hand is kept) and
    with his last discard (:func:`_last_discard_agrees`, ``last_weight``) and with his earlier
    discards and passes (:func:`_history_agrees`: ``past_weight``, ``pass_weight`` and
    ``pass_depth``).  ``given`` (NULL: none; two players only): the opponent's hand, 34 counts,
    dealt as it is (the caller drew it from the seat's view: :func:`search_outcomes`'s
    ``opponent_hands``), the wall dealt from the rest.  Returns what the
    hands dealt again cost, in engine steps: REDEAL_STEPS each and a step per greedy turn replayed
    (counted by :func:`search_outcomes`)."""
    cdef int unseen[42]
    cdef int normal[MAX_TILES]
    cdef int backup[MAX_TILES]
    cdef int deal, redeals = 0
    cdef int rest[MAX_TILES]
    cdef int kinds[NK]
    cdef int s, i, k, c, n_kinds, n_normal = 0, n_rest = 0, n_hidden = 0, j
    cdef double weights[NK]
    _copy_core(w, src)
    _unseen_tiles(src, seat, unseen)
    # the opponents' concealed kongs: a kind of which the seat has seen no tile, uniformly
    for s in range(src.P):
        if s == seat:
            continue
        for i in range(src.n_melds[s]):
            if src.melds[s][i][0] != M_CKONG:
                continue
            n_kinds = 0
            for k in range(NK):
                # a kind his given hand holds is not his kong's (the world it came from had another)
                if unseen[k] == 4 and (given == NULL or given[k] == 0):
                    kinds[n_kinds] = k
                    n_kinds += 1
            if n_kinds == 0:  # pragma: no cover - a flow bug
                raise RuntimeError("internal error: no kind left for a concealed kong")
            k = kinds[<int> _interval(bg, <uint64_t> (n_kinds - 1))]
            w.melds[s][i][1] = k
            unseen[k] -= 4
    for k in range(NK):
        for i in range(unseen[k]):
            normal[n_normal] = k
            n_normal += 1
    for s in range(src.P):
        if s != seat:
            n_hidden += src.n_hand[s]
    if n_hidden > n_normal or n_normal - n_hidden + _flowers_unseen(unseen) != src.remaining:  # pragma: no cover
        raise RuntimeError("internal error: the unseen tiles do not fill the hidden hands and the wall")
    # the opponents' hands (never a flower: a flower is replaced as soon as it is received) ...
    for s in range(src.P):
        if s != seat and given != NULL:
            _deal_given_hand(w, s, src.n_hand[s], normal, n_normal, given)
            n_normal -= src.n_hand[s]
        elif s != seat:
            if dw != NULL:
                _discard_weights(src, s, dw, weights)
            memcpy(backup, normal, n_normal * sizeof(int))
            for deal in range(MAX_DEALS):
                if deal:
                    memcpy(normal, backup, n_normal * sizeof(int))
                    redeals += REDEAL_STEPS + (min(_turns_taken(src, s), MAX_HISTORY) if history else 0)
                _deal_hidden_hand(w, s, src.n_hand[s], normal, n_normal,
                                  min(_turns_taken(src, s), MAX_HISTORY) if history else 0, bg,
                                  weights if dw != NULL else NULL)
                if (_ready_agrees(w, src, s, ready_weight, bg) and _last_discard_agrees(w, src, seat, s, last_weight, bg)
                        and _history_agrees(w, src, seat, s, past_weight, pass_weight, pass_depth, bg)):
                    break
            n_normal -= src.n_hand[s]
    # ... and the untaken wall, in its positions (which positions are taken is public)
    for i in range(n_normal):
        rest[n_rest] = normal[i]
        n_rest += 1
    for k in range(NK, 42):
        if unseen[k]:
            rest[n_rest] = k
            n_rest += 1
    _shuffle_ints(rest, n_rest, bg)
    j = 0
    for i in range(src.n_tiles):
        if src.taken[i]:
            w.tiles[i] = 0      # a taken tile is never read again; what it was is not the seat's
        else:
            w.tiles[i] = rest[j]
            j += 1
    for i in range(src.kong_dice_used, N_KONG_DICE):
        w.kong_dice[i] = 1 + <int> _bounded(bg, 5)
    # what the engine keeps of the hidden tiles: the deal record, the observations of the other
    # seats, the caches of options, wins and waits (computed from the hands)
    memset(w.dealt, 0, sizeof(w.dealt))
    memset(w.n_dealt, 0, sizeof(w.n_dealt))
    memset(w.obs_kept, 0, sizeof(w.obs_kept))
    _touch(w)
    memset(w.waits_valid, 0, sizeof(w.waits_valid))
    if not (src.phase == PH_TURN and src.turn == seat):
        # the tile drawn is the seat's own only on its turn (elsewhere the engine keeps none: the
        # deal draws none, a discard or a kong clears it); never another seat's
        w.drawn = -1
        w.drawn_src = SRC_NONE
    if w.phase == PH_CLAIM or w.phase == PH_ROB:
        _reopen_window(w, src, seat)
    return redeals


cdef bint _ready_agrees(RoundCore w, RoundCore src, int s, double ready_weight, mj_bitgen_t* bg) noexcept nogil:
    """Whether opponent ``s``'s hand dealt in ``w`` agrees with his 报听 (public): a declared hand
    must be ready by shape (the rules' check of 报听, and his hand is locked since); where 报听 is
    allowed on any discard and he has discarded since the deal without declaring, a ready hand
    is kept with probability ``ready_weight`` (1: always; a player who declares as soon as he is
    ready, as the greedy bot does, is not ready before he declares)."""
    cdef int n = src.n_hand[s]
    cdef bint ready
    if n % 3 != 1:
        return True
    if not src.ready[s] and (ready_weight >= 1.0 or src.ready_mode != READY_ANY_DISCARD or _turns_taken(src, s) == 0):
        return True
    ready = hand_waits(w.hands[s], n, w.special, w.kinds_mask) != 0
    if src.ready[s]:
        return ready
    return not ready or bg.next_uint32(bg.state) * (1.0 / 4294967296.0) < ready_weight


cdef bint _last_discard_agrees(RoundCore w, RoundCore src, int seat, int s, double last_weight,
                               mj_bitgen_t* bg) noexcept nogil:
    """Whether opponent ``s``'s hand dealt in ``w`` agrees with the discard he has just made
    (public), in a two-player round where it is known to be his last action and his hand has not
    changed since: in the claim window on it, or on the seat's turn after drawing from the wall.
    A hand with which that discard was not one of those to the lowest shanten (the tile improved
    it, or completed it: the greedy bot would have kept it, or won) is kept with probability
    ``last_weight`` (1: always).  A declared (locked) hand discards what it draws: no check."""
    cdef int n = src.n_hand[s], t
    cdef uint8_t c[NK]
    if last_weight >= 1.0 or src.P != 2 or src.ready[s] or n % 3 != 1:
        return True
    if src.phase == PH_CLAIM and src.claim_from == s:
        t = src.claim_tile
    elif (src.phase == PH_TURN and src.turn == seat and src.n_pool[s] > 0
          and (src.drawn_src == SRC_HEAD or src.drawn_src == SRC_FLOWER)):
        t = src.pool[s][src.n_pool[s] - 1]
    else:
        return True
    if t < 0 or t >= NK:
        return True
    memcpy(c, w.hands[s], NK)
    if c[t] >= 4:
        return True
    c[t] += 1
    if hand_shanten(c, n + 1, w.special) >= hand_shanten(w.hands[s], n, w.special):
        return True
    return bg.next_uint32(bg.state) * (1.0 / 4294967296.0) < last_weight


cdef bint _history_agrees(RoundCore w, RoundCore src, int seat, int s, double past_weight, double pass_weight,
                          int pass_depth, mj_bitgen_t* bg) noexcept nogil:
    """Whether opponent ``s``'s hand H dealt in ``w`` agrees with what he did before his last
    discard (public), in a two-player round: it is kept with probability ``past_weight`` to the
    power of his earlier discards (all but the last in his pool) that would lower H's shanten (a
    greedy player throws what he does not need, and a tile he needed then he mostly needs still),
    times ``pass_weight`` to the power of the seat's last ``pass_depth`` discards still in its pool
    (he passed on each) that H waits on by shape (a greedy player wins whenever he may, and a ready
    greedy hand seldom changes: it throws the tiles it draws).  H is his hand now, not the one he
    held then, so these are soft weights (1: no check).  A declared (locked) hand: only the passes."""
    cdef int n = src.n_hand[s], i, t, k, base
    cdef double keep = 1.0
    cdef uint64_t waits
    cdef uint8_t c[NK]
    if src.P != 2 or n % 3 != 1 or (past_weight >= 1.0 and (pass_weight >= 1.0 or pass_depth <= 0)):
        return True
    if past_weight < 1.0 and not src.ready[s] and src.n_pool[s] > 1:
        memcpy(c, w.hands[s], NK)
        base = hand_shanten(c, n, w.special)
        for i in range(src.n_pool[s] - 1):
            t = src.pool[s][i]
            if t < 0 or t >= NK or c[t] >= 4:
                continue
            c[t] += 1
            if hand_shanten(c, n + 1, w.special) < base:
                keep *= past_weight
            c[t] -= 1
    if pass_weight < 1.0 and pass_depth > 0 and src.n_pool[seat] > 0:
        waits = hand_waits(w.hands[s], n, w.special, w.kinds_mask)
        if waits:
            k = 0
            i = src.n_pool[seat] - 1
            while i >= 0 and k < pass_depth:
                t = src.pool[seat][i]
                if 0 <= t < NK and (waits >> t) & 1:
                    keep *= pass_weight
                k += 1
                i -= 1
    if keep >= 1.0:
        return True
    return bg.next_uint32(bg.state) * (1.0 / 4294967296.0) < keep


cdef void _discard_weights(RoundCore r, int s, const double* p, double* w) noexcept nogil:
    """``w[k]``: how likely seat ``s`` is to hold a tile of kind ``k``, relative to a tile he has
    shown nothing about, from his discards still in his pool (public): the product over them of
    ``p[0]`` for the kind discarded, ``p[1]`` for a suited kind next to it, ``p[2]`` for one two
    apart, and at least ``p[3]``.  A player throws what he does not need: he seldom keeps
    another tile of the kind, or one that would have made a run with it."""
    cdef int i, k, d
    for k in range(NK):
        w[k] = 1.0
    for i in range(r.n_pool[s]):
        d = r.pool[s][i]
        if d >= NK:
            continue
        w[d] *= p[0]
        if d < 27:
            if d % 9 >= 1:
                w[d - 1] *= p[1]
            if d % 9 <= 7:
                w[d + 1] *= p[1]
            if d % 9 >= 2:
                w[d - 2] *= p[2]
            if d % 9 <= 6:
                w[d + 2] *= p[2]
    for k in range(NK):
        if w[k] < p[3]:
            w[k] = p[3]


cdef inline int _weighted_pick(mj_bitgen_t* bg, const int* pool, int hi, const double* wt) noexcept nogil:
    """An index of ``pool[0..hi]``: uniform, or (``wt``) a tile kept with probability its weight,
    drawn again up to MAX_TRIES times (then the last drawn is kept).  A weight of 1 draws nothing
    more (weights all 1 give the uniform draw, the same numbers)."""
    cdef int j = <int> _interval(bg, <uint64_t> hi), t
    if wt == NULL:
        return j
    for t in range(MAX_TRIES - 1):
        if wt[pool[j]] >= 1.0 or bg.next_uint32(bg.state) * (1.0 / 4294967296.0) < wt[pool[j]]:
            break
        j = <int> _interval(bg, <uint64_t> hi)
    return j


cdef void _deal_hidden_hand(RoundCore w, int s, int n, int* pool, int n_pool, int steps,
                            mj_bitgen_t* bg, const double* wt=NULL) noexcept:
    """Seat ``s``'s concealed hand := ``n`` tiles drawn at random from ``pool[:n_pool]``, which
    keeps the others in ``pool[:n_pool - n]``.  Then ``steps`` times, a tile drawn from the pool
    joins the hand and the greedy bot's discard of the n + 1 tiles goes back to the pool: an
    opponent who has played ``steps`` turns has kept his useful tiles and thrown the others, so a
    uniform hand is further from ready than his (a prior on how he plays, not what he showed).
    ``wt`` (NULL: uniform): each tile drawn is kept with probability its kind's weight
    (:func:`_weighted_pick`; :func:`_discard_weights`, what his discards say)."""
    cdef int i, j, x, d, best_acc
    cdef uint8_t c[NK]
    cdef int total[NK]
    cdef int s1[NK]
    cdef int acc1[NK]
    cdef uint64_t dmask
    memset(total, 0, sizeof(total))
    for i in range(n_pool):
        total[pool[i]] += 1
    # a partial Fisher-Yates: the last n places of the pool get a uniform draw of n tiles
    for i in range(n_pool - 1, n_pool - 1 - n, -1):
        j = _weighted_pick(bg, pool, i, wt)
        x = pool[i]
        pool[i] = pool[j]
        pool[j] = x
    memset(c, 0, NK)
    for i in range(n_pool - n, n_pool):
        c[pool[i]] += 1
    for _ in range(steps):
        if n_pool - n <= 0:
            break
        j = _weighted_pick(bg, pool, n_pool - n - 1, wt)
        x = pool[j]
        c[x] += 1
        dmask = 0
        for i in range(NK):
            if c[i]:
                dmask |= (<uint64_t> 1) << i
        # the greedy bot's discard (_bot_greedy): lowest shanten, most live improving tiles, highest
        hand_discard_eval(c, n + 1, w.special, w.kinds_mask, dmask, total, s1, acc1)
        best_acc = -1
        d = x
        for i in range(NK):
            if (dmask >> i) & 1 and acc1[i] >= 0 and acc1[i] >= best_acc:
                best_acc = acc1[i]
                d = i
        c[d] -= 1
        pool[j] = d
    memcpy(w.hands[s], c, NK)
    # the pool keeps every other tile in its first n_pool - n places
    j = 0
    for i in range(NK):
        for x in range(total[i] - c[i]):
            pool[j] = i
            j += 1


cdef int _deal_given_hand(RoundCore w, int s, int n, int* pool, int n_pool, const int8_t* given) except -1:
    """Seat ``s``'s concealed hand := ``given`` (34 counts of ``n`` tiles, each kind within what
    ``pool[:n_pool]`` holds; else a ValueError), the other tiles kept in ``pool[:n_pool - n]``."""
    cdef int i, j = 0, x, got = 0
    cdef int total[NK]
    memset(total, 0, sizeof(total))
    for i in range(n_pool):
        total[pool[i]] += 1
    for i in range(NK):
        if given[i] < 0 or given[i] > total[i]:
            raise ValueError(f"opponent_hands: {given[i]} tiles of kind {i}, of which the seat has not seen {total[i]}")
        got += given[i]
    if got != n:
        raise ValueError(f"opponent_hands: a hand of {got} tiles, his concealed hand holds {n}")
    for i in range(NK):
        w.hands[s][i] = <uint8_t> given[i]
        for x in range(total[i] - given[i]):
            pool[j] = i
            j += 1
    return 0


cdef int _turns_taken(RoundCore r, int s) noexcept nogil:
    """How many discards seat ``s`` has made (those still in its pool and those claimed from it):
    public."""
    cdef int k, i, n = r.n_pool[s]
    for k in range(r.P):
        if k == s:
            continue
        for i in range(r.n_melds[k]):
            if r.melds[k][i][0] != M_CKONG and r.melds[k][i][2] == s:
                n += 1
    return n


cdef inline int _flowers_unseen(const int* unseen) noexcept nogil:
    cdef int k, n = 0
    for k in range(NK, 42):
        n += unseen[k]
    return n


cdef int _reopen_window(RoundCore w, RoundCore src, int seat) except -1:
    """In a claim window, who is still to answer is public, but not what an opponent has already
    answered: every opponent who was asked answers again in this world (if his sampled hand
    gives him a claim; else he has passed).  The seat keeps its place among the seats to act."""
    cdef int k, c, n = 0
    cdef bint asked
    cdef int was_pending[MAXP]
    memset(was_pending, 0, sizeof(was_pending))
    for k in range(src.n_pending):
        was_pending[src.pending[k]] = 1
    for k in range(1, w.P):
        c = _seat_after(w, w.claim_from, k)
        asked = was_pending[c] or src.responses[c] != -1
        if c == seat:
            if was_pending[c]:
                w.pending[n] = c
                n += 1
            continue
        if not asked:
            continue
        w.responses[c] = -1
        if _fill(w, c):
            w.pending[n] = c
            n += 1
        else:
            w.responses[c] = A_PASS
    w.n_pending = n
    return 0


cdef Py_ssize_t _greedy_play_out(RoundCore r, Py_ssize_t max_steps) except -1:
    """Every seat plays the built-in greedy bot to the end of the round; returns the steps."""
    cdef int seat, i
    cdef Py_ssize_t steps = 0
    while r.phase != PH_OVER:
        seat = _first_to_act(r)
        i = _bot_greedy(r, seat)
        if i < 0 or not _has(r, seat, i):  # pragma: no cover - a flow bug
            raise RuntimeError(f"bot chose an illegal action {i} for seat {seat}")
        _step(r, seat, i)
        steps += 1
        if steps > max_steps:  # pragma: no cover - a flow bug
            raise RuntimeError("round did not finish")
    return steps


# the outcome of a play-out for the searching seat
cdef enum:
    OUT_DRAW = 0        # exhaustive draw
    OUT_WON = 1         # the seat won (alone or with others)
    OUT_PAID = 2        # an opponent won from the seat's discard or kong, or by self-draw
    OUT_OTHER = 3       # an opponent won from another opponent


cdef int _outcome(RoundCore r, int seat) noexcept nogil:
    cdef int k
    if r.res_draw:
        return OUT_DRAW
    for k in range(r.n_winners):
        if r.winners[k] == seat:
            return OUT_WON
    if r.res_loser == seat or r.res_loser < 0:
        return OUT_PAID
    return OUT_OTHER


cdef int _check_history_weights(double past_weight, double pass_weight, int pass_depth) except -1:
    if not 0.0 <= past_weight <= 1.0:
        raise ValueError(f"past_weight must be a number in [0, 1], got {past_weight!r}")
    if not 0.0 <= pass_weight <= 1.0:
        raise ValueError(f"pass_weight must be a number in [0, 1], got {pass_weight!r}")
    if not 0 <= pass_depth <= MAX_POOL_DEPTH:
        raise ValueError(f"pass_depth must be 0-{MAX_POOL_DEPTH}, got {pass_depth}")
    return 0


def search_outcomes(core, int seat, candidates, int n_worlds, bit_generator, bint history=True,
                    Py_ssize_t max_steps=100000, discard_weights=None, double ready_weight=1.0,
                    double last_weight=1.0, double past_weight=1.0, double pass_weight=1.0, int pass_depth=0,
                    opponent_hands=None):
    """Play each candidate action of ``seat`` in ``n_worlds`` sampled worlds of that seat (the
    same worlds for every candidate: common random numbers), then every seat by the greedy bot
    to the end.  ``core``: a :class:`RoundCore` where ``seat`` is to act; ``candidates``: legal
    action indices of ``seat``; ``bit_generator``: a NumPy BitGenerator the worlds are drawn from;
    ``history``: each opponent's hand improved by as many greedy turns as he has taken (False:
    uniform over the unseen tiles); ``discard_weights`` (None: none): four numbers in (0, 1], the
    weight of a tile of the kind of each of the opponent's discards, of a suited kind next to it,
    of one two apart, and the least weight: each tile of his hand is drawn in proportion to the
    product of these (a player seldom keeps what goes with what he threw); ``ready_weight`` in
    [0, 1]: where 报听 may be declared on any discard, how likely an opponent's hand that is ready
    and was not declared is kept (1: as likely as any; a declared hand is always ready);
    ``last_weight`` in [0, 1]: in a two-player round, how likely an opponent's hand is kept with
    which the discard he has just made did not lower his shanten the most (1: as likely as any);
    ``past_weight`` and ``pass_weight`` in [0, 1], ``pass_depth`` from 0: in a two-player round, an
    opponent's hand is kept with probability ``past_weight`` per earlier discard of his that would
    lower its shanten, times ``pass_weight`` per one of the seat's last ``pass_depth`` discards
    (which he passed on) it waits on (1 or 0: no such weight).  ``opponent_hands`` (None: none; two
    players only): an int8 array (n_worlds, 34), the opponent's hand in each world, dealt as it is
    (the other arguments of his hand then unused; the wall dealt from the rest): a hand the caller
    drew from the seat's view only (a ValueError where a kind is not among the unseen tiles).
    Returns ``(outcomes, fans, steps)``: (len(candidates), n_worlds) arrays, int8 outcome codes
    for the seat (0 draw, 1 won, 2 an opponent won and the seat paid: its discard or kong, or a
    self-draw, 3 an opponent won from another) and int16 the seat's fan total when it won (else
    0), and the engine steps the play-outs took (what their CPU time is in proportion to), with
    REDEAL_STEPS (5) and a step per greedy turn replayed for each opponent hand dealt again to
    agree with his 报听 or last discard."""
    cdef RoundCore src = <RoundCore?> core
    cdef int n_c = len(candidates), c, k, a
    cdef Py_ssize_t steps = 0
    cdef int cand[A_SIZE]
    cdef double dw[4]
    cdef bint weighted = discard_weights is not None
    if weighted:
        if len(discard_weights) != 4 or not all(0.0 < float(x) <= 1.0 for x in discard_weights):
            raise ValueError(f"discard_weights must be four numbers in (0, 1], got {discard_weights!r}")
        for k in range(4):
            dw[k] = float(discard_weights[k])
    if not 0 <= seat < src.P:
        raise ValueError(f"seat must be 0-{src.P - 1}, got {seat}")
    if n_worlds < 0:
        raise ValueError(f"n_worlds must be at least 0, got {n_worlds}")
    if not 0.0 <= ready_weight <= 1.0:
        raise ValueError(f"ready_weight must be a number in [0, 1], got {ready_weight!r}")
    if not 0.0 <= last_weight <= 1.0:
        raise ValueError(f"last_weight must be a number in [0, 1], got {last_weight!r}")
    _check_history_weights(past_weight, pass_weight, pass_depth)
    if not 1 <= n_c <= A_SIZE:
        raise ValueError(f"1-{A_SIZE} candidates needed, got {n_c}")
    for c in range(n_c):
        a = candidates[c]
        if not _legal_now(src, seat, a):
            raise IllegalActionError(f"candidate {a} is not a legal action of seat {seat} now")
        cand[c] = a
    cdef const int8_t[:, ::1] given
    cdef bint forced = opponent_hands is not None
    if forced:
        if src.P != 2:
            raise ValueError(f"opponent_hands: for two players only, this round has {src.P}")
        given = np.ascontiguousarray(opponent_hands, dtype=np.int8)
        if given.shape[0] != n_worlds or given.shape[1] != NK:
            raise ValueError(f"opponent_hands: expected shape ({n_worlds}, {NK}), got {tuple(np.shape(opponent_hands))}")
    cdef mj_bitgen_t* bg = <mj_bitgen_t*> PyCapsule_GetPointer(bit_generator.capsule, "BitGenerator")
    outcomes = np.zeros((n_c, n_worlds), dtype=np.int8)
    fans = np.zeros((n_c, n_worlds), dtype=np.int16)
    cdef int8_t[:, ::1] out = outcomes
    cdef int16_t[:, ::1] fan = fans
    cdef RoundCore world = RoundCore.__new__(RoundCore)
    cdef RoundCore r = RoundCore.__new__(RoundCore)
    for k in range(n_worlds):
        steps += _determinize(world, src, seat, bg, history, dw if weighted else NULL, ready_weight, last_weight,
                              past_weight, pass_weight, pass_depth, &given[k, 0] if forced else NULL)
        for c in range(n_c):
            _copy_core(r, world)
            _touch(r)
            if not _legal_now(r, seat, cand[c]):  # pragma: no cover - the seat's options are its own
                raise RuntimeError(f"candidate {cand[c]} is not legal in a sampled world")
            _step(r, seat, cand[c])
            steps += 1 + _greedy_play_out(r, max_steps)
            out[c, k] = _outcome(r, seat)
            if out[c, k] == OUT_WON:
                for a in range(r.n_winners):
                    if r.winners[a] == seat:
                        fan[c, k] = r.res_wins[a].total
    return outcomes, fans, steps


def sample_hidden_hands(core, int seat, int n_worlds, bit_generator, bint history=True, discard_weights=None,
                        double ready_weight=1.0, double last_weight=1.0, double past_weight=1.0,
                        double pass_weight=1.0, int pass_depth=0):
    """The opponents' concealed hands in ``n_worlds`` worlds of ``seat`` sampled as
    :func:`search_outcomes` samples them (same arguments, same draws from ``bit_generator``): an
    int8 array (n_worlds, players, 34) of tile counts, the seat's own row zero.  For tests and
    studies of the sampler; nothing is played."""
    cdef RoundCore src = <RoundCore?> core
    cdef double dw[4]
    cdef int k, s, t
    cdef bint weighted = discard_weights is not None
    if not 0 <= seat < src.P:
        raise ValueError(f"seat must be 0-{src.P - 1}, got {seat}")
    if n_worlds < 0:
        raise ValueError(f"n_worlds must be at least 0, got {n_worlds}")
    if not 0.0 <= ready_weight <= 1.0:
        raise ValueError(f"ready_weight must be a number in [0, 1], got {ready_weight!r}")
    if not 0.0 <= last_weight <= 1.0:
        raise ValueError(f"last_weight must be a number in [0, 1], got {last_weight!r}")
    _check_history_weights(past_weight, pass_weight, pass_depth)
    if weighted:
        if len(discard_weights) != 4 or not all(0.0 < float(x) <= 1.0 for x in discard_weights):
            raise ValueError(f"discard_weights must be four numbers in (0, 1], got {discard_weights!r}")
        for k in range(4):
            dw[k] = float(discard_weights[k])
    cdef mj_bitgen_t* bg = <mj_bitgen_t*> PyCapsule_GetPointer(bit_generator.capsule, "BitGenerator")
    hands = np.zeros((n_worlds, src.P, NK), dtype=np.int8)
    cdef int8_t[:, :, ::1] h = hands
    cdef RoundCore world = RoundCore.__new__(RoundCore)
    for k in range(n_worlds):
        _determinize(world, src, seat, bg, history, dw if weighted else NULL, ready_weight, last_weight,
                     past_weight, pass_weight, pass_depth)
        for s in range(src.P):
            if s != seat:
                for t in range(NK):
                    h[k, s, t] = world.hands[s][t]
    return hands
