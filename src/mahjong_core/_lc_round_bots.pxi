# The built-in bots of the long-card hand (spec 8.5) in C, ``include``d by _lc_round.pyx: the ports of
# round_bots.RandomBot (uniform over the unpenalised offered actions, NumPy Generator ``integers``,
# which is what ``Generator.choice`` draws) and round_bots.RuleBot (the greedy bot: key (ready, 卯,
# T_max, F_theo) of every discard / claim, ties to the lowest id).  A bot sees what the seat's view
# shows: its own cards, every declared group and 堂子, the 将 cards.

cdef enum:
    BOT_RANDOM = 0
    BOT_RULE = 1

BOT_KINDS = ("random", "rule")
_RULE_SEATS = ("rule", "rule", "rule")          # RoundCore.playout


cdef struct BotKey:
    int ready
    int mao
    int tmax
    int ft


cdef inline bint _key_gt(const BotKey* x, const BotKey* y) noexcept nogil:
    if x.ready != y.ready:
        return x.ready > y.ready
    if x.mao != y.mao:
        return x.mao > y.mao
    if x.tmax != y.tmax:
        return x.tmax > y.tmax
    return x.ft > y.ft


@cython.nonecheck(False)
cdef bint _bot_ready(RoundCore h, int p, SeatCards* s) noexcept nogil:
    """round_bots.RuleBot._ready: waits now (20 effective cards), or after some discard (21)."""
    cdef int d, n = 3 * s.n
    for d in range(N_FACES):
        n += s.c[d]
    if n % 3 == 2:
        return _waits(h, p, s, False) != 0
    for d in range(N_FACES):
        if s.c[d]:
            s.c[d] -= 1
            if _waits(h, p, s, False):
                s.c[d] += 1
                return True
            s.c[d] += 1
    return False


@cython.nonecheck(False)
cdef void _bot_key(RoundCore h, int p, SeatCards* s, const uint8_t* dead, LcPlanPart* parts, int comp,
                   BotKey* k) noexcept nogil:
    """The key of the cards ``s``; ``parts``: the plan parts of the seat's cards before the change,
    whose cards changed in the point class ``comp`` only (that part is recomputed)."""
    cdef uint8_t live[N_FACES]
    cdef int f
    for f in range(N_FACES):
        live[f] = COPIES - s.c[f] - s.own[f] - dead[f]
    k.ready = _bot_ready(h, p, s)
    _parts(h, s.c, live, comp, parts)
    lc_plan_combine(parts, live, s.n, s.kinds, s.faces, s.tuo, h.mao_bonus, h.quad_xiang, h.chi_kan,
                    &k.mao, &k.tmax)
    k.ft = lc_theoretical_fan(s.c, live, s.n, s.kinds, s.faces, h.w, h.caishen[p], h.kan_as_peng, h.xiang_bonus)


@cython.nonecheck(False)
cdef int _rule_choice(RoundCore h, int p) noexcept nogil:
    """round_bots.RuleBot.choose on the offered actions of p (``h.dec``)."""
    cdef const int8_t* dec = h.dec
    cdef int a, first_ok = -1, first_legal = -1, best = -1, x, y, first_claim = -1
    cdef SeatCards base, s
    cdef uint8_t dead[N_FACES]
    cdef uint8_t g[3]
    cdef BotKey key, best_key
    cdef uint8_t live[N_FACES]
    cdef LcPlanPart base_parts[LC_N_COMP]
    cdef LcPlanPart parts[LC_N_COMP]
    for a in range(N_ACTIONS):
        if dec[a] >= 0 and first_legal < 0:
            first_legal = a
        if dec[a] == 0:
            first_ok = a
            break
    if first_ok < 0:
        return first_legal
    if dec[FOLD] == 0 and not h.dec_q:          # Q(p), worked out with the offered actions
        return FOLD
    if dec[QI] == 0:
        return QI
    if dec[HU] == 0:
        return HU
    _seat(h, p, &base)
    _dead_for(h, p, dead)
    for x in range(N_FACES):
        live[x] = COPIES - base.c[x] - base.own[x] - dead[x]
    _parts(h, base.c, live, -1, base_parts)
    if h.phase == PH_DISCARD:
        for a in range(N_FACES):
            if dec[a] == 0:
                s = base
                s.c[a] -= 1
                memcpy(parts, base_parts, sizeof(parts))
                _bot_key(h, p, &s, dead, parts, lc_face_comp(a), &key)
                if best < 0 or _key_gt(&key, &best_key):
                    best = a
                    best_key = key
        return first_ok if best < 0 else best
    for a in range(CHI_BASE, XIANG + 1):           # 吃, 碰, 杀, 吐火响
        if dec[a] == 0:
            first_claim = a
            break
    if dec[PASS] != 0:
        return first_ok if first_claim < 0 else first_claim      # a mandatory claim (3.7)
    if first_claim < 0:
        return PASS
    for a in range(first_claim, PENG + 1):         # PASS is offered: no 杀 / 吐火响 (they are mandatory)
        if dec[a] != 0:
            continue
        if a == PENG:
            x = y = h.offer
        else:
            x = CHI_A[a]
            y = CHI_B[a]
        s = base
        s.c[x] -= 1
        s.c[y] -= 1
        _sort3(x, y, h.offer, g)
        _seat_add(&s, K_PENG if g[0] == g[2] else K_CHI, g)
        memcpy(parts, base_parts, sizeof(parts))
        _bot_key(h, p, &s, dead, parts, lc_face_comp(h.offer), &key)    # a group joins one point class
        if best < 0 or _key_gt(&key, &best_key):
            best = a
            best_key = key
    return best


@cython.nonecheck(False)
cdef int _random_choice(RoundCore h, object rng) except -1:
    """round_bots.RandomBot.choose: ``ok[rng.integers(len(ok))]`` over the unpenalised actions (all
    offered ones when every one is penalised)."""
    cdef int a, n = 0
    cdef int16_t ok[N_ACTIONS]
    for a in range(N_ACTIONS):
        if h.dec[a] == 0:
            ok[n] = a
            n += 1
    if n == 0:
        for a in range(N_ACTIONS):
            if h.dec[a] > 0:
                ok[n] = a
                n += 1
    if n == 0:
        return -1                  # nothing offered (the callers refuse it: no engine state has it)
    k = rng.integers(n)
    return ok[<int> k]


def _check_bots(bots, rngs):
    if len(bots) != PLAYERS or any(type(b) is not str or b not in BOT_KINDS for b in bots):
        raise MahjongError(f"bots: three of {', '.join(BOT_KINDS)}, got {bots!r}")
    if len(rngs) != PLAYERS or any(b == "random" and not isinstance(r, _Generator) for b, r in zip(bots, rngs)):
        raise MahjongError("rngs: a NumPy Generator for every random bot")


@cython.nonecheck(False)
cdef int _play(RoundCore h, tuple bots, list rngs, int max_steps) except -1:
    """Play ``h`` to its end with the built-in ``bots``; the number of actions applied (the search
    bot counts its budget in them: a count, where a clock would make its decisions depend on the load)."""
    cdef int kinds[PLAYERS]
    cdef int p, a, steps = 0
    for p in range(PLAYERS):
        kinds[p] = BOT_KINDS.index(bots[p])
    while h.phase != PH_END:
        if steps == max_steps:
            raise MahjongError(f"hand not finished after {max_steps} steps")
        steps += 1
        p = h.actor
        _offered(h, p)
        if kinds[p] == BOT_RULE:
            a = _rule_choice(h, p)
        else:
            a = _random_choice(h, rngs[p])
        if a < 0:           # every seat to act has a legal move (spec 3.5, 3.11); never index dec with -1
            raise MahjongError(f"seat {p} has no legal action in phase {PHASE_NAMES[h.phase]}")   # pragma: no cover
        _apply(h, p, a)
    return steps
