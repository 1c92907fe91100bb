# Included by _round.pyx.  Metropolis-Hastings over the two-player opponent's history, for the
# search bot's worlds (_round_search.pxi, the opponent model "mcmc").
#
# Why not the particle filter (_round_particles.pxi): a blind initial deal is rarely right and a
# particle that was dealt without the tiles he kept never acquires them, so its population
# collapses.  Here the latent is his whole history, and a chain moves it where his discards point:
# the tiles he ever held, in order -- ``n`` tiles dealt, then one drawn before each of his ``T``
# discards (known, in his pool) -- so that his hand before each discard is known from it, and his
# hand now is what is left.  Its prior is the shuffle's (uniform over the copies the seat has not
# seen); its likelihood, the product over his discards of how likely a greedy player holding that
# hand was to make it (_pf_likelihood: FILTER_WEIGHTS, 1 for the greedy bot's own choice), of a
# pass on the seat's discard that a pung would have improved, of a ready hand not declared where
# it could have been, and of his 报听 (a declared hand is ready from then on and throws what it
# draws).  Moves: one tile of the sequence replaced by a kind the seat has not seen (drawn in
# proportion to its copies left, which cancels the prior in the acceptance ratio), or two tiles of
# the sequence swapped (which tile was dealt, which drawn when); each is accepted by the
# likelihood ratio.  Chains start where "history" would deal him (its improved hand, as if he had
# thrown each tile he drew), a good proposal.  What it reads is public or the seat's own: the
# no-cheating test swaps the rest.

from libc.math cimport log
from libc.string cimport memcmp

cdef enum:
    MAX_CHAINS = 4096
    MAX_MOVES = 100000
    MC_SEQ = 14 + MAX_POOL     # dealt tiles and draws of one chain, at most


cdef struct McChain:
    uint8_t seq[MC_SEQ]            # kinds: the n dealt, then the draw before each discard
    uint8_t prev[MAX_POOL][NK]     # his hand before the draw of each turn
    double lt[MAX_POOL]            # log-likelihood of each turn's discard and pass
    uint8_t rd[MAX_POOL]           # whether his hand was ready after that discard
    uint8_t now[NK]                # his hand now
    double ll                      # the whole log-likelihood


cdef double MC_NEVER = -20.7      # log(1e-9): PF_NEVER (a chain in an impossible history moves out)


cdef bint _mc_hands(const uint8_t* seq, int n, int T, const uint8_t* disc, uint8_t* prev, uint8_t* now) noexcept nogil:
    """His hands along ``seq`` into ``prev`` (T rows of NK: before each turn's draw) and ``now``;
    False where a discard is of a tile the hand does not hold then (no such history)."""
    cdef uint8_t c[NK]
    cdef int i, t
    memset(c, 0, NK)
    for i in range(n):
        c[seq[i]] += 1
    for t in range(T):
        memcpy(prev + t * NK, c, NK)
        c[seq[n + t]] += 1
        if c[disc[t]] == 0:
            return False
        c[disc[t]] -= 1
    memcpy(now, c, NK)
    return True


cdef int _mc_turn(RoundCore src, const uint8_t* prev, int x, int d, int e, int n, const int* vis,
                  const double* lw, double win_weight, double* lt, uint8_t* rd) noexcept nogil:
    """The log-likelihood of one turn into ``lt`` and whether he was ready after it into ``rd``:
    holding ``prev`` (``n`` tiles) he passed on the seat's discard ``e`` (-1: none known), drew ``x``
    and threw ``d``.  Returns the greedy evaluations made (the cost in steps)."""
    cdef uint8_t c[NK]
    cdef double w = 0.0
    cdef bint ready
    cdef int cost = 1, f
    cdef uint64_t waits
    memcpy(c, prev, NK)
    if win_weight < 1.0:
        # a greedy player wins whenever he may: a tile his hand waited on, passed or drawn and
        # thrown, is a win he was not allowed (too few fan), or no wait of his
        cost += 1
        waits = hand_waits(c, n, src.special, src.kinds_mask)
        if e >= 0 and (waits >> e) & 1:
            w += log(win_weight)
        if (waits >> x) & 1:
            w += log(win_weight)
    if e >= 0 and c[e] >= 2:
        f = hand_shanten(c, n, src.special)
        c[e] -= 2
        if hand_shanten(c, n - 2, src.special) < f:
            w += log(lw[PF_PASS])
        c[e] += 2
        cost += 1
    c[x] += 1
    w += log(_pf_likelihood(src, c, n, d, vis, lw, &ready))
    lt[0] = w
    rd[0] = ready
    return cost


cdef double _mc_total(RoundCore src, McChain* ch, int n, int T, const uint8_t* disc, bint declared,
                      bint heavenly, bint opp_dealer, const double* lw) noexcept nogil:
    """The whole log-likelihood of a chain from its turns' terms and what his 报听 says."""
    cdef int t, lock = -1
    cdef double w = 0.0
    cdef bint ready0 = False
    cdef const uint8_t* dealt = &ch.prev[0][0] if T > 0 else &ch.now[0]
    if heavenly and not opp_dealer:
        ready0 = hand_shanten(dealt, n, src.special) == 0
    if declared:
        if heavenly:
            # 天听: a non-dealer declares before his first discard (his dealt hand ready), the
            # dealer with it
            if not opp_dealer:
                if not ready0:
                    return MC_NEVER * (T + 1)
                lock = -1
            elif T == 0 or not ch.rd[0]:
                return MC_NEVER * (T + 1)
            else:
                lock = 0
        else:
            for t in range(T):
                if ch.rd[t]:
                    lock = t
                    break
            if lock < 0:
                return MC_NEVER * (T + 1)
        # from the declaration on his hand is locked: he throws the tile he draws
        for t in range(T):
            if t <= lock:
                w += ch.lt[t]
            elif ch.seq[n + t] != disc[t]:
                w += MC_NEVER
        return w
    for t in range(T):
        w += ch.lt[t]
        if ch.rd[t] and src.ready_mode == READY_ANY_DISCARD:
            w += log(lw[PF_READY])
    if heavenly and ((not opp_dealer and ready0) or (opp_dealer and T > 0 and ch.rd[0])):
        w += log(lw[PF_READY])
    return w


cdef Py_ssize_t _mcmc_hands(RoundCore src, int seat, int n_chains, int n_moves, mj_bitgen_t* bg, const double* lw,
                            double ready_weight, double last_weight, double win_weight, uint8_t* out,
                            McChain* cur, McChain* nxt) except -2:
    """His hand now in ``n_chains`` chains of ``n_moves`` moves each (the file's comment), into
    ``out`` (``n_chains`` rows of NK counts), for ``seat`` of a two-player ``src``; ``lw``: the PF_*
    weights; ``ready_weight``, ``last_weight``: those of the "history" deal the chains start from;
    ``cur``, ``nxt``: work space.  Returns what it cost in engine steps (a greedy evaluation each,
    and each start's deal as a world's), or -1 where it does not apply: an opponent with a meld or
    on his turn, a claimed discard (his turns are then not his pool's), a concealed kong; -3 - the
    cost where no chain explains his 报听."""
    cdef int s = 1 - seat, n = src.n_hand[s], T = src.n_pool[s], L, i, j, k, t, m, a, b, e, A
    cdef int unseen[42]
    cdef int vis[NK]
    cdef int avail[NK]
    cdef uint8_t disc[MAX_POOL]
    cdef int passed[MAX_POOL]
    cdef bint declared = src.ready[s] != 0
    cdef bint heavenly = src.ready_mode == READY_HEAVENLY_ONLY
    cdef bint opp_dealer = s == src.dealer
    cdef bint ok
    cdef Py_ssize_t steps = 0
    cdef McChain* sw
    cdef uint8_t x
    cdef int n_good = 0
    cdef uint8_t good[MAX_CHAINS]
    if src.P != 2 or n % 3 != 1 or src.n_melds[s] != 0 or not _pf_simple_timeline(src):
        return -1
    if _unseen_tiles(src, seat, unseen) > 0:
        return -1
    for t in range(T):
        if src.pool[s][t] >= NK:
            return -1
        disc[t] = src.pool[s][t]
        # the seat's discard he passed on just before this one of his (the discards alternate)
        j = t - 1 if opp_dealer else t
        passed[t] = src.pool[seat][j] if 0 <= j < src.n_pool[seat] and src.pool[seat][j] < NK else -1
    for k in range(NK):
        vis[k] = (4 if (src.kinds_mask >> k) & 1 else 0) - unseen[k] - src.hands[seat][k]
    L = n + T
    cdef RoundCore world = RoundCore.__new__(RoundCore)
    for i in range(n_chains):
        # the start: his hand as "history" deals it, as if he had thrown each tile he drew
        steps += 5 + min(T, MAX_HISTORY) + _determinize(world, src, seat, bg, True, NULL, ready_weight, last_weight)
        j = 0
        for k in range(NK):
            for m in range(world.hands[s][k]):
                cur.seq[j] = k
                j += 1
        for t in range(T):
            cur.seq[n + t] = disc[t]
        _mc_hands(cur.seq, n, T, disc, &cur.prev[0][0], cur.now)
        for t in range(T):
            steps += _mc_turn(src, cur.prev[t], cur.seq[n + t], disc[t], passed[t], n, vis, lw, win_weight,
                              &cur.lt[t], &cur.rd[t])
        cur.ll = _mc_total(src, cur, n, T, disc, declared, heavenly, opp_dealer, lw)
        for m in range(n_moves):
            memcpy(nxt.seq, cur.seq, L)
            if T == 0 or bg.next_uint32(bg.state) & 1:
                # one tile replaced by a kind drawn from the copies the seat has not seen and his
                # hand does not hold (its prior and this proposal cancel in the ratio)
                a = <int> _interval(bg, <uint64_t> (L - 1))
                A = 0
                for k in range(NK):
                    avail[k] = unseen[k] - cur.now[k]
                    A += avail[k]
                if A <= 0:
                    continue
                b = _pf_pick(avail, A, bg)
                if b == cur.seq[a]:
                    continue
                nxt.seq[a] = b
            else:
                # which tile was dealt, which drawn when: two places swapped
                a = <int> _interval(bg, <uint64_t> (L - 1))
                b = <int> _interval(bg, <uint64_t> (L - 1))
                if cur.seq[a] == cur.seq[b] or (a < n and b < n):
                    continue
                x = nxt.seq[a]
                nxt.seq[a] = nxt.seq[b]
                nxt.seq[b] = x
            if not _mc_hands(nxt.seq, n, T, disc, &nxt.prev[0][0], nxt.now):
                continue
            ok = True
            for k in range(NK):
                if nxt.now[k] > unseen[k]:
                    ok = False
            if not ok:
                continue
            for t in range(T):
                if nxt.seq[n + t] == cur.seq[n + t] and memcmp(nxt.prev[t], cur.prev[t], NK) == 0:
                    nxt.lt[t] = cur.lt[t]
                    nxt.rd[t] = cur.rd[t]
                else:
                    steps += _mc_turn(src, nxt.prev[t], nxt.seq[n + t], disc[t], passed[t], n, vis, lw,
                                      win_weight, &nxt.lt[t], &nxt.rd[t])
            nxt.ll = _mc_total(src, nxt, n, T, disc, declared, heavenly, opp_dealer, lw)
            if nxt.ll >= cur.ll or log((bg.next_uint32(bg.state) + 0.5) * (1.0 / 4294967296.0)) < nxt.ll - cur.ll:
                sw = cur
                cur = nxt
                nxt = sw
        memcpy(out + i * NK, cur.now, NK)
        # a chain that found no history with his 报听 (his hand never ready where he declared) is
        # no sample of his hand: it is replaced by one that did
        good[i] = not declared or (cur.ll > MC_NEVER * 0.5 and hand_waits(cur.now, n, src.special, src.kinds_mask) != 0)
        n_good += good[i]
    if n_good == 0:
        return -3 - steps
    j = 0
    for i in range(n_chains):
        if not good[i]:
            while not good[j]:
                j = (j + 1) % n_chains
            memcpy(out + i * NK, out + j * NK, NK)
            j = (j + 1) % n_chains
    return steps


def opponent_mcmc(core, int seat, int n_chains, int n_moves, bit_generator, weights, double ready_weight=1.0,
                  double last_weight=1.0, double win_weight=1.0):
    """The opponent's concealed hand in ``n_chains`` hands, each the end of a Metropolis-Hastings
    chain of ``n_moves`` moves over his history (the file's comment), for ``seat`` of a two-player
    round ``core``: ``(hands, steps)``, an int8 array (n_chains, 34) of tile counts and what it
    cost in engine steps (the greedy evaluations made, and each chain's start dealt as a world of
    the "history" model), or ``(None, 0)`` where it does not apply (not two players, an opponent
    with a meld or on his turn, a claimed discard, a concealed kong), ``(None, steps)`` where no
    chain explains his 报听 (none found a ready hand).  ``weights``: the four
    likelihoods of :func:`opponent_particles`; ``ready_weight``, ``last_weight``: those of
    :func:`search_outcomes`, for the chains' starting hands."""
    cdef RoundCore src = <RoundCore?> core
    cdef double lw[PF_N]
    cdef int k
    if not 0 <= seat < src.P:
        raise ValueError(f"seat must be 0-{src.P - 1}, got {seat}")
    if not 1 <= n_chains <= MAX_CHAINS:
        raise ValueError(f"n_chains must be 1-{MAX_CHAINS}, got {n_chains}")
    if not 0 <= n_moves <= MAX_MOVES:
        raise ValueError(f"n_moves must be 0-{MAX_MOVES}, got {n_moves}")
    if len(weights) != PF_N or not all(0.0 < float(x) <= 1.0 for x in weights):
        raise ValueError(f"weights must be {PF_N} numbers in (0, 1], got {weights!r}")
    if not 0.0 <= ready_weight <= 1.0:
        raise ValueError(f"ready_weight must be a number in [0, 1], got {ready_weight!r}")
    if not 0.0 <= last_weight <= 1.0:
        raise ValueError(f"last_weight must be a number in [0, 1], got {last_weight!r}")
    if not 0.0 < win_weight <= 1.0:
        raise ValueError(f"win_weight must be a number in (0, 1], got {win_weight!r}")
    for k in range(PF_N):
        lw[k] = float(weights[k])
    cdef mj_bitgen_t* bg = <mj_bitgen_t*> PyCapsule_GetPointer(bit_generator.capsule, "BitGenerator")
    hands = np.zeros((n_chains, NK), dtype=np.uint8)
    work = np.zeros(2 * sizeof(McChain), dtype=np.uint8)
    cdef uint8_t[:, ::1] hv = hands
    cdef uint8_t[::1] wv = work
    cdef McChain* chains = <McChain*> &wv[0]
    cdef Py_ssize_t steps = _mcmc_hands(src, seat, n_chains, n_moves, bg, lw, ready_weight, last_weight, win_weight, &hv[0, 0],
                                        &chains[0], &chains[1])
    if steps == -1:
        return None, 0
    if steps < 0:
        return None, -3 - steps
    return hands.view(np.int8), steps


def _mcmc_loglik(core, int seat, seq, weights, double win_weight=1.0):
    """For studies of the chains: ``(the log-likelihood, each turn's term)`` of one history ``seq``
    of the opponent of ``seat`` (his ``n`` dealt tiles, then the tile drawn before each of his
    discards) as the chains score it, or None where ``seq`` is no history of his."""
    cdef RoundCore src = <RoundCore?> core
    cdef int s = 1 - seat, n = src.n_hand[s], T = src.n_pool[s], t, j, k
    cdef double lw[PF_N]
    cdef int unseen[42]
    cdef int vis[NK]
    cdef uint8_t disc[MAX_POOL]
    cdef int passed[MAX_POOL]
    for k in range(PF_N):
        lw[k] = float(weights[k])
    _unseen_tiles(src, seat, unseen)
    for k in range(NK):
        vis[k] = (4 if (src.kinds_mask >> k) & 1 else 0) - unseen[k] - src.hands[seat][k]
    for t in range(T):
        disc[t] = src.pool[s][t]
        j = t - 1 if s == src.dealer else t
        passed[t] = src.pool[seat][j] if 0 <= j < src.n_pool[seat] and src.pool[seat][j] < NK else -1
    work = np.zeros(sizeof(McChain), dtype=np.uint8)
    cdef uint8_t[::1] wv = work
    cdef McChain* ch = <McChain*> &wv[0]
    for k in range(n + T):
        ch.seq[k] = seq[k]
    if not _mc_hands(ch.seq, n, T, disc, &ch.prev[0][0], ch.now):
        return None
    for t in range(T):
        _mc_turn(src, ch.prev[t], ch.seq[n + t], disc[t], passed[t], n, vis, lw, win_weight, &ch.lt[t], &ch.rd[t])
    return _mc_total(src, ch, n, T, disc, src.ready[s] != 0, src.ready_mode == READY_HEAVENLY_ONLY,
                     s == src.dealer, lw), [ch.lt[t] for t in range(T)]
