# Included by _round.pyx.  A particle filter over the opponent's concealed hand in a two-player
# round, for the search bot's worlds (_round_search.pxi, the opponent model "filter").
#
# The other samplers deal the opponent a hand and improve it by greedy turns of their own, then
# keep or redeal it by how it agrees with what he did last; none replays what he actually did.
# Here a population of hands is carried through his turns in order: each particle starts from a
# deal of his hand size, and at each of his discards draws a tile (from what the seat has not seen,
# plus what he threw later), is weighted by how likely a greedy player holding it was to make
# the discard he made (and to pass on the seat's discard before it, and to declare 报听 or not
# where he did), then throws that tile.  The population is resampled when its weights grow uneven.
# What it reads is public (his discards in order, the seat's, his 报听, the hand sizes and the
# shown tiles) or the seat's own (its hand): the no-cheating test swaps the rest.

cdef enum:
    MAX_PARTICLES = 4096
    PF_TIE = 0        # the likelihood weights of one of his discards: one among the lowest shanten
    PF_BAD = 1        #   but not the greedy bot's choice; one that raised his shanten
    PF_READY = 2      # a hand ready after his discard that he did not declare, where he could have
    PF_PASS = 3       # a pass on the seat's discard that a pung of it would have brought nearer a win
    PF_N = 4
    MAX_TRIES_PF = 64  # draws tried per particle and turn at most

cdef double PF_NEVER = 1e-9  # the weight of what a greedy player never does (not 0: the population
                             # stays valid hands, and keeps its weights when no hand explains him)


cdef inline int _pf_draw(int* rest, int total, mj_bitgen_t* bg) noexcept nogil:
    """A kind drawn from the counts ``rest[:NK]`` (``total`` tiles in all), removed from them."""
    cdef int r = <int> _interval(bg, <uint64_t> (total - 1)), k = 0
    while r >= rest[k]:
        r -= rest[k]
        k += 1
    rest[k] -= 1
    return k


cdef bint _pf_simple_timeline(RoundCore src) noexcept nogil:
    """Whether the two seats' discards alternated from the dealer's first (no claimed meld on
    either side), so that which of the seat's discards the opponent passed on before each of his
    own is known from the pools alone."""
    cdef int s, i
    for s in range(src.P):
        for i in range(src.n_melds[s]):
            if src.melds[s][i][0] != M_CKONG:
                return False
    return True


cdef void _pf_resample(int n_part, const double* wt, uint8_t* h, uint8_t* h2, int* rest, int* rest2,
                       uint8_t* lock, uint8_t* lock2, mj_bitgen_t* bg) noexcept nogil:
    """Systematic resampling of the particles (``wt`` sums to 1) from ``h``, ``rest``, ``lock``
    into ``h2``, ``rest2``, ``lock2``."""
    cdef double u = (bg.next_uint32(bg.state) * (1.0 / 4294967296.0)) / n_part, c = wt[0]
    cdef int i, j = 0
    for i in range(n_part):
        while u > c and j < n_part - 1:
            j += 1
            c += wt[j]
        memcpy(h2 + i * NK, h + j * NK, NK)
        memcpy(rest2 + i * NK, rest + j * NK, NK * sizeof(int))
        lock2[i] = lock[j]
        u += 1.0 / n_part


cdef inline int _pf_pick(const int* rest, int total, mj_bitgen_t* bg) noexcept nogil:
    """A kind drawn from the counts ``rest[:NK]`` (``total`` tiles in all), left in them."""
    cdef int r = <int> _interval(bg, <uint64_t> (total - 1)), k = 0
    while r >= rest[k]:
        r -= rest[k]
        k += 1
    return k


cdef double _pf_likelihood(RoundCore src, uint8_t* c, int n, int d, const int* vis, const double* lw,
                           bint* ready) noexcept nogil:
    """How likely a greedy player holding ``c`` (``n`` + 1 tiles) is to discard ``d``: 1 for the
    greedy bot's own choice (lowest shanten, most live tiles that lower it, highest), PF_TIE for
    another to the lowest shanten, PF_BAD for one that is not; ``ready``: whether ``c`` less ``d``
    is ready.  His live tiles are counted from what is shown now (not what was then)."""
    cdef int k, x, best_s, best_acc = -1, dstar = -1
    cdef int live[NK]
    cdef int s1[NK]
    cdef int acc1[NK]
    cdef uint64_t dmask = 0
    for k in range(NK):
        if c[k]:
            dmask |= (<uint64_t> 1) << k
        x = 4 - c[k] - vis[k]
        live[k] = x if x > 0 and (src.kinds_mask >> k) & 1 else 0
    best_s = hand_discard_eval(c, n + 1, src.special, src.kinds_mask, dmask, live, s1, acc1)
    for k in range(NK):
        if (dmask >> k) & 1 and acc1[k] >= 0 and acc1[k] >= best_acc:
            best_acc = acc1[k]
            dstar = k
    ready[0] = s1[d] == 0
    if d == dstar:
        return 1.0
    return lw[PF_TIE] if s1[d] == best_s else lw[PF_BAD]


cdef Py_ssize_t _filter_hands(RoundCore src, int seat, int n_part, int tries, mj_bitgen_t* bg, const double* lw,
                              uint8_t* h, uint8_t* h2, int* rest, int* rest2, double* wt,
                              uint8_t* lock, uint8_t* lock2, bint* explained) except -2:
    """The opponent's hand in ``n_part`` equally weighted particles, into ``h`` (``n_part`` rows of
    NK counts), for ``seat`` of a two-player ``src``; ``lw``: the PF_* weights.  ``h2``, ``rest``,
    ``rest2``, ``wt``, ``lock``, ``lock2``: work space of as many rows.  Returns the greedy turns
    evaluated (one per particle per discard of his, and one per particle for the deal: what the
    filter costs in engine steps), or -1 where it does not apply (an opponent's concealed kong,
    whose kind is dealt apart, or an opponent on his turn); ``explained`` := False where no
    particle explains his 报听 (none became ready: ``h`` is then no sample of his hand)."""
    cdef int s = 1 - seat, n = src.n_hand[s], T = src.n_pool[s], i, t, k, d, e, j, x
    cdef int unseen[42]
    cdef int total[NK]
    cdef int vis[NK]
    cdef uint8_t* c
    cdef int* r
    cdef int n_rest
    cdef double sw, sw2, f
    cdef bint passes = _pf_simple_timeline(src), declared = src.ready[s] != 0
    cdef bint heavenly = src.ready_mode == READY_HEAVENLY_ONLY
    cdef bint opp_dealer = s == src.dealer
    cdef bint ready
    cdef bint rdy[MAX_TRIES_PF]
    cdef int cand[MAX_TRIES_PF]
    cdef double lik[MAX_TRIES_PF]
    cdef double u
    if src.P != 2 or n % 3 != 1:
        return -1
    if _unseen_tiles(src, seat, unseen) > 0:
        return -1
    # what his hand and draws were made of: what the seat has not seen, and what he threw since
    for k in range(NK):
        total[k] = unseen[k]
        vis[k] = (4 if (src.kinds_mask >> k) & 1 else 0) - unseen[k] - src.hands[seat][k]
    for i in range(T):
        if src.pool[s][i] < NK:
            total[src.pool[s][i]] += 1
    n_rest = 0
    for k in range(NK):
        n_rest += total[k]
    n_rest -= n
    for i in range(n_part):
        c = h + i * NK
        r = rest + i * NK
        memset(c, 0, NK)
        memcpy(r, total, NK * sizeof(int))
        for j in range(n):
            c[_pf_draw(r, n_rest + n - j, bg)] += 1
        wt[i] = 1.0 / n_part
        lock[i] = 0
        if declared and heavenly and not opp_dealer:
            # a non-dealer declares in the window before the first discard: ready as dealt
            if hand_shanten(c, n, src.special) == 0:
                lock[i] = 1
            else:
                wt[i] *= PF_NEVER
    for t in range(T):
        d = src.pool[s][t]
        if d >= NK:
            continue
        # the seat's discard he passed on just before this one of his
        e = -1
        j = t - 1 if opp_dealer else t
        if passes and 0 <= j < src.n_pool[seat] and src.pool[seat][j] < NK:
            e = src.pool[seat][j]
        sw = 0.0
        for i in range(n_part):
            # every particle moves on, however unlikely: a hand that skipped a turn would keep a
            # tile he has since thrown (each row must stay among the tiles the seat has not seen)
            c = h + i * NK
            r = rest + i * NK
            if lock[i] and r[d] > 0:
                # a declared hand throws what it draws
                wt[i] *= r[d] / <double> n_rest
                r[d] -= 1
                sw += wt[i]
                continue
            if lock[i]:
                # it cannot have drawn his discard: it throws its own copy and draws another
                wt[i] *= PF_NEVER
                c[_pf_draw(r, n_rest, bg)] += 1
                c[d] -= 1
                sw += wt[i]
                continue
            if e >= 0 and c[e] >= 2 and not lock[i]:
                f = hand_shanten(c, n, src.special)
                c[e] -= 2
                if hand_shanten(c, n - 2, src.special) < f:
                    wt[i] *= lw[PF_PASS]
                c[e] += 2
            if c[d] == 0:
                # he threw a tile the hand does not hold: it was the tile drawn (one is left: the
                # hand and the tiles left hold every copy he has not thrown yet)
                wt[i] *= r[d] / <double> n_rest
                r[d] -= 1
                c[d] += 1
                wt[i] *= _pf_likelihood(src, c, n, d, vis, lw, &ready)
            else:
                # ``tries`` draws, one kept in proportion to how well it explains his discard (the
                # weight: their mean), so that fewer particles die on a draw that made it unlikely
                f = 0.0
                for j in range(tries):
                    x = _pf_pick(r, n_rest, bg)
                    c[x] += 1
                    cand[j] = x
                    lik[j] = _pf_likelihood(src, c, n, d, vis, lw, &rdy[j])
                    f += lik[j]
                    c[x] -= 1
                u = (bg.next_uint32(bg.state) * (1.0 / 4294967296.0)) * f
                j = 0
                while j < tries - 1 and u >= lik[j]:
                    u -= lik[j]
                    j += 1
                c[cand[j]] += 1
                r[cand[j]] -= 1
                ready = rdy[j]
                wt[i] *= f / tries
            c[d] -= 1
            if ready:
                if declared and (not heavenly or t == 0):
                    lock[i] = 1
                elif src.ready_mode == READY_ANY_DISCARD:
                    wt[i] *= lw[PF_READY]
            if declared and heavenly and t == 0 and not lock[i]:
                wt[i] *= PF_NEVER
            sw += wt[i]
        n_rest -= 1
        _pf_normalise(n_part, wt, sw)
        sw2 = 0.0
        for i in range(n_part):
            sw2 += wt[i] * wt[i]
        if sw2 * n_part > 2.0:       # effective size below half the population
            _pf_resample(n_part, wt, h, h2, rest, rest2, lock, lock2, bg)
            memcpy(h, h2, n_part * NK)
            memcpy(rest, rest2, n_part * NK * sizeof(int))
            memcpy(lock, lock2, n_part)
            for i in range(n_part):
                wt[i] = 1.0 / n_part
    if declared:
        # he declared: only the hands that became ready (and locked) explain it, however unlikely
        # the draws they have thrown since (a locked hand throws only what it draws)
        sw = 0.0
        for i in range(n_part):
            if lock[i]:
                sw += wt[i]
        if sw == 0.0:
            explained[0] = False
            return <Py_ssize_t> n_part * (tries * T + 1)
        for i in range(n_part):
            if not lock[i]:
                wt[i] = 0.0
        _pf_normalise(n_part, wt, sw)
    _pf_resample(n_part, wt, h, h2, rest, rest2, lock, lock2, bg)
    memcpy(h, h2, n_part * NK)
    return <Py_ssize_t> n_part * (tries * T + 1)


cdef inline void _pf_normalise(int n_part, double* wt, double sw) noexcept nogil:
    """Weights to sum 1; all zero (what he did is impossible under the model for every particle:
    that turn is ignored) become equal."""
    cdef int i
    for i in range(n_part):
        wt[i] = wt[i] / sw if sw > 0.0 else 1.0 / n_part


def opponent_particles(core, int seat, int n_particles, bit_generator, weights, int tries=1):
    """The opponent's concealed hand in ``n_particles`` hands drawn from a particle filter over his
    turns (the file's comment), for ``seat`` of a two-player round ``core``: ``(hands, steps)``, an
    int8 array (n_particles, 34) of tile counts and the greedy turns evaluated (the filter's cost
    in engine steps), or ``(None, 0)`` where it does not apply (not two players, an opponent with a
    concealed kong or on his turn), ``(None, steps)`` where no hand of the population explains his
    报听 (none became ready).  ``weights``: four numbers in [0, 1], the likelihood of one of
    his discards that is among the lowest shanten but not the greedy bot's choice, of one that
    raised his shanten, of a ready hand he did not declare where he could, and of a pass on a
    discard that a pung would have brought nearer a win; ``tries``: draws tried per particle and
    turn, one kept in proportion to its likelihood (each counts a greedy turn)."""
    cdef RoundCore src = <RoundCore?> core
    cdef double lw[PF_N]
    cdef int k
    if not 0 <= seat < src.P:
        raise ValueError(f"seat must be 0-{src.P - 1}, got {seat}")
    if not 1 <= n_particles <= MAX_PARTICLES:
        raise ValueError(f"n_particles must be 1-{MAX_PARTICLES}, got {n_particles}")
    if len(weights) != PF_N or not all(0.0 <= float(x) <= 1.0 for x in weights):
        raise ValueError(f"weights must be {PF_N} numbers in [0, 1], got {weights!r}")
    if not 1 <= tries <= MAX_TRIES_PF:
        raise ValueError(f"tries must be 1-{MAX_TRIES_PF}, got {tries}")
    for k in range(PF_N):
        lw[k] = float(weights[k])
    cdef mj_bitgen_t* bg = <mj_bitgen_t*> PyCapsule_GetPointer(bit_generator.capsule, "BitGenerator")
    hands = np.zeros((n_particles, NK), dtype=np.uint8)
    h2 = np.zeros((n_particles, NK), dtype=np.uint8)
    rest = np.zeros((n_particles, NK), dtype=np.intc)
    rest2 = np.zeros((n_particles, NK), dtype=np.intc)
    wt = np.zeros(n_particles, dtype=np.float64)
    lock = np.zeros(n_particles, dtype=np.uint8)
    lock2 = np.zeros(n_particles, dtype=np.uint8)
    cdef uint8_t[:, ::1] hv = hands, h2v = h2
    cdef int[:, ::1] rv = rest, r2v = rest2
    cdef double[::1] wv = wt
    cdef uint8_t[::1] lv = lock, l2v = lock2
    cdef bint explained = True
    cdef Py_ssize_t steps = _filter_hands(src, seat, n_particles, tries, bg, lw, &hv[0, 0], &h2v[0, 0], &rv[0, 0],
                                          &r2v[0, 0], &wv[0], &lv[0], &l2v[0], &explained)
    if steps < 0:
        return None, 0
    if not explained:
        return None, steps
    return hands.view(np.int8), steps
