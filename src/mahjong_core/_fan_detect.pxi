# Included by _fan.pyx.  Stage 2 of the evaluator, the detectors: what each fan definition
# says about a reading -- structure fans, per-group pung fans (幺九刻 as a bit set over groups,
# D14), the meld-combination instances (D15) and the hand-level fans (tile content D12, 四归一,
# kong family D13, win conditions, first-turn flags), keyed by the K_* enum of _fan_tables.pxi.

# ---------------------------------------------------------------------------
# Meld-combination instances (D15)
# ---------------------------------------------------------------------------
cdef inline void _inst(Ctx* x, Combos* cb, int key, uint8_t members) noexcept nogil:
    cdef int f = x.fk[key]
    if f != NO_FAN and cb.n < MAX_INSTANCES:
        cb.f[cb.n] = f
        cb.m[cb.n] = members
        cb.pts[cb.n] = x.points[f]
        cb.n += 1


cdef inline void _inst_fan(Ctx* x, Combos* cb, int f, uint8_t members) noexcept nogil:
    """_inst of an internal fan index without a branch: the entry is written, and kept (counted)
    unless f is NO_FAN.  Safe at any count: a reading has at most 22 instances, the lists 32."""
    cb.f[cb.n] = <uint8_t> f
    cb.m[cb.n] = members
    cb.pts[cb.n] = x.points[f & (MAX_FANS - 1)]
    cb.n += f != NO_FAN


cdef uint8_t CHOW_PAIR_FAN[N_RULESETS][27 * 27]   # [rs][first * 27 + first']: two chows' fan, or NO_FAN


cdef _build_chow_pairs():
    """CHOW_PAIR_FAN: 一般高 (same chow), 连六 (3 apart), 老少副 (123 + 789) in one suit, 喜相逢
    (same ranks, two suits); a chow's first tile has rank 1-7 (the other entries are never read)."""
    cdef int rs, a, b, key
    for rs in range(N_RULESETS):
        for a in range(27):
            for b in range(27):
                key = -1
                if a == b:
                    key = K_PURE_DOUBLE_CHOW
                elif a // 9 == b // 9:
                    if abs(a - b) == 3:
                        key = K_SHORT_STRAIGHT
                    elif abs(a - b) == 6:
                        key = K_TWO_TERMINAL_CHOWS
                elif a % 9 == b % 9:
                    key = K_MIXED_DOUBLE_CHOW
                CHOW_PAIR_FAN[rs][a * 27 + b] = NO_FAN if key < 0 else FAN_OF_KEY[rs][key]


cdef inline bint _steps(int a, int b, int c, bint allow2) noexcept nogil:
    """Sorted ranks a <= b <= c rise by 1 each (or by 2 each when allow2)."""
    cdef int d = b - a
    return (d == 1 or (allow2 and d == 2)) and c - b == d


cdef void _sort3(int* v) noexcept nogil:
    cdef int t
    if v[0] > v[1]:
        t = v[0]; v[0] = v[1]; v[1] = t
    if v[1] > v[2]:
        t = v[1]; v[1] = v[2]; v[2] = t
    if v[0] > v[1]:
        t = v[0]; v[0] = v[1]; v[1] = t


cdef void _detect_combinations(Ctx* x, Combos* cb) noexcept nogil:
    """Every instance of every set-C fan of the ruleset over the 4 groups (+ pair),
    then the pairwise compatibility masks (NI with D17, NS)."""
    cdef Grp* g = x.g
    cdef int p = x.pair
    cdef int i, j, k, a, b, c, n_chow = 0, n_pung = 0, s
    cdef int ch[4]
    cdef int pu[4]
    cdef int r[4]
    cdef int v[3]
    cdef uint8_t m
    cdef const uint8_t* chow_pairs = &CHOW_PAIR_FAN[x.rs][0]
    cb.n = 0
    for i in range(4):
        # both lists written, the group's own one advanced (no branch on the shape; an index is at
        # most i, so within the lists)
        s = g[i].shape != SH_CHOW
        ch[n_chow] = i
        pu[n_pung] = i
        n_chow += 1 - s
        n_pung += s
    # --- chows
    if n_chow >= 2:
        for a in range(n_chow):
            i = ch[a]
            for b in range(a + 1, n_chow):
                j = ch[b]
                # the pair's fan from a table of the two first tiles (the chain of tests on their
                # distance and suits mispredicted), added without a branch
                _inst_fan(x, cb, chow_pairs[g[i].first * 27 + g[j].first], (1 << i) | (1 << j))
        if n_chow >= 3:
            for c in range(n_chow):            # the chow left out (none when n_chow == 3)
                if n_chow == 3 and c > 0:
                    break
                k = 0
                for a in range(n_chow):
                    if n_chow == 4 and a == c:
                        continue
                    v[k] = ch[a]
                    k += 1
                _chow_triple(x, cb, v[0], v[1], v[2])
            if n_chow == 4:
                _chow_quad(x, cb, p)
    # --- pungs (and kongs, D2)
    if n_pung >= 2:
        for a in range(n_pung):
            i = pu[a]
            for b in range(a + 1, n_pung):
                j = pu[b]
                m = (1 << i) | (1 << j)
                if g[i].first < 27 and g[j].first < 27:
                    s = g[i].first - g[j].first
                    if s != 0 and s % 9 == 0:
                        _inst(x, cb, K_DOUBLE_PUNG, m)
                elif g[i].first >= 31 and g[j].first >= 31:
                    _inst(x, cb, K_TWO_DRAGON_PUNGS, m)
                    if p >= 31 and p != g[i].first and p != g[j].first:
                        _inst(x, cb, K_LITTLE_THREE_DRAGONS, m | (1 << PAIR_SLOT))
        if n_pung >= 3:
            for c in range(n_pung):
                if n_pung == 3 and c > 0:
                    break
                k = 0
                for a in range(n_pung):
                    if n_pung == 4 and a == c:
                        continue
                    v[k] = pu[a]
                    k += 1
                _pung_triple(x, cb, v[0], v[1], v[2], p)
            if n_pung == 4:
                _pung_quad(x, cb)
    if cb.n > 1:
        _compat(x, cb)
    elif cb.n == 1:
        cb.compat[0] = 0


cdef void _sort4(int* v) noexcept nogil:
    cdef int i, j, t
    for i in range(1, 4):
        t = v[i]
        j = i - 1
        while j >= 0 and v[j] > t:
            v[j + 1] = v[j]
            j -= 1
        v[j + 1] = t


cdef bint _three_suited_terminal(const Grp* g, int pair_suit) noexcept nogil:
    """三色双龙会: chows 123 + 789 in each of two suits, none in the pair's suit."""
    cdef int s, i, n1, n7, suits = 0
    for s in range(3):
        n1 = 0
        n7 = 0
        for i in range(4):
            if g[i].first // 9 == s:
                if g[i].first % 9 == 0:
                    n1 += 1
                elif g[i].first % 9 == 6:
                    n7 += 1
                else:
                    return False
        if n1 + n7 == 0:
            continue
        if n1 != 1 or n7 != 1 or s == pair_suit:
            return False
        suits += 1
    return suits == 2


# ---------------------------------------------------------------------------
# Structure properties of a group and of the pair, and the fans they make (built at import)
# ---------------------------------------------------------------------------
cdef enum:
    GP_PUNG = 1         # every group a pung or kong (碰碰和)
    GP_CHOW = 2         # every group a chow, the pair not honors (平和)
    GP_OUTSIDE = 4      # every group and the pair hold a terminal or honor (全带幺)
    GP_FIVES = 8        # every group and the pair hold a 5 (全带五)
    GP_EVEN = 16        # every group a pung of 2, 4, 6 or 8 and the pair too (全双刻)
    GP_PAIR_258 = 32    # the pair of rank 2, 5 or 8 (将: the groups' entry always has it)
    GP_PAIR_TERMINAL = 64   # the pair of rank 1 or 9
    GP_STRUCT = 127     # the bits that index STRUCT_FANS
    GP_YJ = 128         # a pung of terminals or winds (幺九刻; dragons never, D14)
    GP_DRAGON = 256     # a dragon pung
    GP_YJ_BIT = 7       # the bit numbers of GP_YJ and GP_DRAGON
    GP_DRAGON_BIT = 8
    GP_ALL = 511

cdef uint8_t GROUP_SPAN[3]         # [SH_CHOW / SH_PUNG / SH_KONG]: the kinds of a group from its lowest
GROUP_SPAN[:] = [7, 1, 1]
cdef uint16_t GROUP_PROPS[3][34]    # [SH_CHOW / SH_PUNG / SH_KONG][lowest tile]
cdef uint16_t PAIR_PROPS[34]
cdef uint64_t STRUCT_FANS[N_RULESETS][GP_STRUCT + 1][FAN_WORDS]


cdef _build_struct_tables():
    cdef int t, rk, sh, rs, b
    cdef uint16_t pung
    cdef uint64_t* q
    for t in range(N_KINDS):
        rk = t % 9
        GROUP_PROPS[SH_CHOW][t] = 0
        if t < 27 and rk <= 6:
            GROUP_PROPS[SH_CHOW][t] = (GP_CHOW | GP_PAIR_258 | GP_PAIR_TERMINAL
                                       | (GP_OUTSIDE if rk == 0 or rk == 6 else 0)
                                       | (GP_FIVES if 2 <= rk <= 4 else 0))
        pung = (GP_PUNG | GP_PAIR_258 | GP_PAIR_TERMINAL
                | (GP_OUTSIDE if t >= 27 or rk == 0 or rk == 8 else 0)
                | (GP_FIVES if t < 27 and rk == 4 else 0)
                | (GP_EVEN if t < 27 and rk % 2 == 1 else 0)
                | (GP_YJ if _is_terminal(t) or _is_wind(t) else 0)
                | (GP_DRAGON if _is_dragon(t) else 0))
        GROUP_PROPS[SH_PUNG][t] = pung
        GROUP_PROPS[SH_KONG][t] = pung
        PAIR_PROPS[t] = (GP_PUNG
                         | (GP_CHOW if t < 27 else 0)
                         | (GP_OUTSIDE if t >= 27 or rk == 0 or rk == 8 else 0)
                         | (GP_FIVES if t < 27 and rk == 4 else 0)
                         | (GP_EVEN if t < 27 and rk % 2 == 1 else 0)
                         | (GP_PAIR_258 if t < 27 and (rk == 1 or rk == 4 or rk == 7) else 0)
                         | (GP_PAIR_TERMINAL if t < 27 and (rk == 0 or rk == 8) else 0))
    for rs in range(N_RULESETS):
        for b in range(GP_STRUCT + 1):
            q = STRUCT_FANS[rs][b]
            q[0] = 0
            q[1] = 0
            if b & GP_PUNG:
                _set(q, FAN_OF_KEY[rs][K_ALL_PUNGS])
            if b & GP_CHOW:
                _set(q, FAN_OF_KEY[rs][K_ALL_CHOWS])
            if b & GP_OUTSIDE:
                _set(q, FAN_OF_KEY[rs][K_OUTSIDE_HAND])
            if b & GP_FIVES:
                _set(q, FAN_OF_KEY[rs][K_ALL_FIVES])
            if b & GP_EVEN:
                _set(q, FAN_OF_KEY[rs][K_ALL_EVEN_PUNGS])
            if b & GP_PAIR_258:
                _set(q, FAN_OF_KEY[rs][K_PAIR_258])
            if b & GP_PAIR_TERMINAL:
                _set(q, FAN_OF_KEY[rs][K_PAIR_TERMINAL])


# ---------------------------------------------------------------------------
# One decomposition: structure fans, pung fans, instances, then the placements (detect + select)
# ---------------------------------------------------------------------------
cdef inline void _group_facts(const Ctx* x, const Grp* g, int n, int slot, GroupFacts* gf) noexcept nogil:
    """Add groups g[0..n-1], the reading's slots slot .. slot + n - 1, to gf (per-group fans, 4.2
    step 2; D14: dragons never score 幺九刻), without a branch on a group's shape: a chow's
    properties have no GP_DRAGON / GP_YJ, and its first tile is a suit tile, never a wind."""
    cdef int i, t
    cdef uint32_t gp
    for i in range(n):
        t = g[i].first
        gp = GROUP_PROPS[g[i].shape][t]
        gf.props &= gp
        gf.dragons |= ((gp >> GP_DRAGON_BIT) & 1) << (slot + i)
        gf.yj |= ((gp >> GP_YJ_BIT) & 1) << (slot + i)
        gf.prevalent |= (<uint32_t> (t == x.rnd)) << (slot + i)
        gf.seat |= (<uint32_t> (t == x.seat)) << (slot + i)
        gf.n_conc += (g[i].shape != SH_CHOW) & (not g[i].exposed)


cdef inline void _no_group_facts(GroupFacts* gf) noexcept nogil:
    gf.props = GP_ALL
    gf.yj = 0
    gf.dragons = 0
    gf.prevalent = 0
    gf.seat = 0
    gf.n_conc = 0


cdef inline void _score_groups(Ctx* x) noexcept nogil:
    """_score_decomposition of x.g[0..3] with the groups' facts read off x.g."""
    cdef GroupFacts gf
    _no_group_facts(&gf)
    _group_facts(x, x.g, 4, 0, &gf)
    _score_decomposition(x, &gf)


cdef void _score_decomposition(Ctx* x, const GroupFacts* gf) noexcept nogil:
    """One standard decomposition (x.g[0..3] + x.pair, the groups' facts gf): every Σ x every
    placement."""
    cdef Grp* g = x.g
    cdef int pair = x.pair
    cdef int i, j, k, f, n_conc = gf.n_conc, n_place = 0, w = x.win
    cdef uint64_t p[2]
    cdef uint64_t qs[5][2]
    cdef uint32_t yj = gf.yj, props = gf.props
    cdef const uint64_t* sf
    cdef int t
    cdef Combos cb
    cdef uint32_t dragons = gf.dragons, prevalent = gf.prevalent, seat = gf.seat, hold, h, earlier
    cdef bint same
    p[0] = x.std_base[0]
    p[1] = x.std_base[1]
    # own[] of a fan the ruleset lacks is the scratch entry NO_FAN
    x.own[x.f_dragon] = dragons
    x.own[x.f_prev] = prevalent
    x.own[x.f_seat] = seat
    if dragons:
        _set(p, x.f_dragon)
    if prevalent:
        _set(p, x.f_prev)
    if seat:
        _set(p, x.f_seat)
    if yj:
        _set(p, x.f_yj)
    # structure fans of the groups and the pair (all pungs, all chows, outside hand, ...)
    sf = STRUCT_FANS[x.rs][props & PAIR_PROPS[pair] & GP_STRUCT]
    p[0] |= sf[0]
    p[1] |= sf[1]
    # placements of the winning tile (D4), with D6 and the wait fans (D9)
    if w < 0:
        qs[0][0] = 0
        qs[0][1] = 0
        _concealed_family(x, qs[0], n_conc)
        n_place = 1
    else:
        # the concealed groups holding the winning tile, as a bit set (a loop of tests on each
        # group's shape and tiles mispredicts), then the placements in group order, the pair last
        hold = 0
        for i in range(x.n_melds, 4):
            hold |= <uint32_t> ((((<uint64_t> GROUP_SPAN[g[i].shape]) << g[i].first) >> w) & 1) << i
        # the placements in the holding groups, a walk over the set (a test of every slot
        # mispredicted); a group equal to an earlier one (it holds the tile too) is the same placement
        h = hold
        while h:
            i = mj_ctz64(h)
            h &= h - 1
            same = False
            earlier = hold & ((1u << i) - 1)
            while earlier:
                j = mj_ctz64(earlier)
                earlier &= earlier - 1
                same = same or (g[j].shape == g[i].shape and g[j].first == g[i].first)
            if same:
                continue
            qs[n_place][0] = 0
            qs[n_place][1] = 0
            if g[i].shape == SH_CHOW:
                t = g[i].first
                if w == t + 1:
                    if _unique_wait(x):
                        _set(qs[n_place], x.fk[K_CLOSED_WAIT])
                elif (t % 9 == 0 and w == t + 2) or (t % 9 == 6 and w == t):
                    if _unique_wait(x):
                        _set(qs[n_place], x.fk[K_EDGE_WAIT])
                _concealed_family(x, qs[n_place], n_conc)
            else:
                # a pung completed by a discard (or robbed) tile is exposed (D6)
                _concealed_family(x, qs[n_place], n_conc - (0 if x.self_drawn else 1))
            n_place += 1
        # the pair last
        if pair == w:
            qs[n_place][0] = 0
            qs[n_place][1] = 0
            if _unique_wait(x):
                _set(qs[n_place], x.fk[K_SINGLE_WAIT])
            if x.n_melds == 4 and not x.has_ckong and not x.self_drawn:
                _set(qs[n_place], x.fk[K_MELDED_HAND])
            _concealed_family(x, qs[n_place], n_conc)
            n_place += 1
    _detect_combinations(x, &cb)
    _selections(x, &cb, 0, 0, p, yj, qs, n_place)


cdef void _score_knitted(Ctx* x) noexcept nogil:
    """One decomposition of the knitted form: the real group is x.g[0] (declared or
    concealed), the pair x.pair; the 9 knitted tiles count as chows for 平和 only."""
    cdef uint64_t p[2]
    cdef uint64_t q[2]
    cdef Grp* g = x.g
    cdef int t = g[0].first, w = x.win, pair = x.pair
    cdef uint32_t yj = 0
    cdef bint concealed_group = x.n_melds == 0
    p[0] = x.common[0]
    p[1] = x.common[1]
    _set(p, x.fk[K_KNITTED_STRAIGHT])
    x.own[x.f_dragon] = 0
    x.own[x.f_prev] = 0
    x.own[x.f_seat] = 0
    if g[0].shape == SH_CHOW:
        if pair < 27:
            _set(p, x.fk[K_ALL_CHOWS])
    else:
        if t >= 31:
            _set(p, x.f_dragon)
            x.own[x.f_dragon] = 1
        if t == x.rnd:
            _set(p, x.f_prev)
            x.own[x.f_prev] = 1
        if t == x.seat:
            _set(p, x.f_seat)
            x.own[x.f_seat] = 1
        if _is_terminal(t) or _is_wind(t):
            yj = 1
            _set(p, x.f_yj)
    x.form = FORM_KNITTED_STRAIGHT
    if w < 0:
        _consider(x, p[0], p[1], yj)
        return
    if (x.knit_mask >> w) & 1:
        _consider(x, p[0], p[1], yj)     # winning tile among the knitted tiles: no wait fan (D9)
    if concealed_group:
        if (g[0].shape == SH_CHOW and g[0].first <= w <= g[0].first + 2) or (g[0].shape != SH_CHOW and t == w):
            q[0] = p[0]
            q[1] = p[1]
            if g[0].shape == SH_CHOW:
                if w == t + 1:
                    if _unique_wait(x):
                        _set(q, x.fk[K_CLOSED_WAIT])
                elif (t % 9 == 0 and w == t + 2) or (t % 9 == 6 and w == t):
                    if _unique_wait(x):
                        _set(q, x.fk[K_EDGE_WAIT])
            _consider(x, q[0], q[1], yj)
    if pair == w:
        q[0] = p[0]
        q[1] = p[1]
        if _unique_wait(x):
            _set(q, x.fk[K_SINGLE_WAIT])
        _consider(x, q[0], q[1], yj)


# ---------------------------------------------------------------------------
# Hand-level fans
# ---------------------------------------------------------------------------
cdef inline void _terminal_honor_fans(Ctx* x, uint64_t* p, bint allowed_form) noexcept nogil:
    """绿一色 (standard / seven pairs) and 字一色, 清幺九, 混幺九 (D12, OP-35) when allowed_form."""
    cdef uint64_t pm = x.pm
    if (pm & ~M_GREEN) == 0:
        _set(p, x.fk[K_ALL_GREEN])
    if not allowed_form:
        return
    if (pm & ~M_HONOR) == 0:
        _set(p, x.fk[K_ALL_HONORS])
    if (pm & ~M_TERMINAL) == 0:
        _set(p, x.fk[K_ALL_TERMINALS])
    if (pm & ~(M_TERMINAL | M_HONOR)) == 0 and (pm & M_TERMINAL) and (pm & M_HONOR):
        _set(p, x.fk[K_ALL_TERMINALS_AND_HONORS])


cdef void _common_fans(Ctx* x) noexcept nogil:
    """Fans that do not depend on the reading: tile content (D12), 四归一, kong family
    (D13), win conditions (D7, D10, D11), first-turn flags, 立直, 无财神."""
    cdef uint64_t* p = x.common
    cdef uint64_t pm = x.pm, honors = pm & M_HONOR
    cdef int n_suits, hog, k_e, k_c, f
    cdef uint32_t fl = x.flags
    cdef bint bloom
    p[0] = 0
    p[1] = 0
    n_suits = ((pm & M_SUIT[0]) != 0) + ((pm & M_SUIT[1]) != 0) + ((pm & M_SUIT[2]) != 0)
    if n_suits == 1:
        _set(p, x.fk[K_HALF_FLUSH] if honors else x.fk[K_FULL_FLUSH])
    if (pm & (M_TERMINAL | M_HONOR)) == 0:
        _set(p, x.fk[K_ALL_SIMPLES])
    if not honors:
        _set(p, x.fk[K_NO_HONORS])
        if (pm & ~M_RANKS_6_9) == 0:
            _set(p, x.fk[K_UPPER_FOUR])
        if (pm & ~M_RANKS_1_4) == 0:
            _set(p, x.fk[K_LOWER_FOUR])
        if (pm & ~M_RANKS_7_9) == 0:
            _set(p, x.fk[K_UPPER_TILES])
        if (pm & ~M_RANKS_4_6) == 0:
            _set(p, x.fk[K_MIDDLE_TILES])
        if (pm & ~M_RANKS_1_3) == 0:
            _set(p, x.fk[K_LOWER_TILES])
    if n_suits == 3 and (pm & M_WIND) and (pm & M_DRAGON):
        _set(p, x.fk[K_ALL_TYPES])
    if n_suits == 2:
        _set(p, x.fk[K_ONE_VOIDED_SUIT])
    if (pm & ~M_REVERSIBLE) == 0:
        _set(p, x.fk[K_REVERSIBLE_TILES])
    # 四归一: per kind with all four copies in H, not a declared kong
    k_e = x.n_exposed_kongs
    k_c = x.n_concealed_kongs
    hog = mj_popcount64(x.pm4 & ~x.kong_kinds)
    if hog:
        f = x.fk[K_TILE_HOG]
        _set(p, f)
        x.cnt[f] = hog
    # D13 kong family
    if k_e + k_c:
        if k_e + k_c == 4:
            _set(p, x.fk[K_FOUR_KONGS])
        elif k_e + k_c == 3:
            _set(p, x.fk[K_THREE_KONGS])
        else:
            if k_e == 1:
                _set(p, x.fk[K_MELDED_KONG])
            if k_e == 2:
                _set(p, x.fk[K_TWO_MELDED_KONGS])
            if k_c == 1:
                _set(p, x.fk[K_CONCEALED_KONG])
            if k_c == 2:
                _set(p, x.fk[K_TWO_CONCEALED_KONGS])
            if k_e == 1 and k_c == 1:
                # 明暗杠 (`mcr`); its row excludes 明杠 and 暗杠, a ruleset without it keeps both
                _set(p, x.fk[K_CONCEALED_KONG_AND_MELDED_KONG])
    # win conditions (D7, D10, D11)
    if x.self_drawn:
        _set(p, x.fk[K_SELF_DRAWN])
        if not x.has_exposed:
            _set(p, x.fk[K_FULLY_CONCEALED_HAND])
    elif not x.has_exposed:
        _set(p, x.fk[K_CONCEALED_HAND])
    if fl & ~(<uint32_t> F_SELF_DRAWN):
        if (fl & F_LAST_OF_KIND) and x.win >= 0:
            _set(p, x.fk[K_LAST_TILE])
        if fl & F_LAST_TILE:
            _set(p, x.fk[K_LAST_TILE_DRAW] if x.self_drawn else x.fk[K_LAST_TILE_CLAIM])
        if x.self_drawn:
            # 杠上开花: a kong replacement, never a flower replacement, except where the
            # ruleset says so (two-player-bamboo, OP-28, option replacement_bloom)
            if not (x.quirks & RQ_FLOWER_REPLACEMENT_BLOOM):
                bloom = (fl & F_KONG_REPLACEMENT) and not (fl & F_FLOWER_REPLACEMENT)
            elif (fl & F_KONG_REPLACEMENT) and not (fl & F_FLOWER_REPLACEMENT):
                bloom = True
            elif fl & F_FLOWER_REPLACEMENT:
                if x.options & O_BLOOM_LAST_TILE:
                    bloom = (fl & F_LAST_TILE) != 0
                else:
                    bloom = not (x.options & O_BLOOM_KONGS_ONLY)
            else:
                bloom = False
            if bloom:
                _set(p, x.fk[K_OUT_WITH_REPLACEMENT_TILE])
        if fl & F_ROBBING_KONG:
            _set(p, x.fk[K_ROBBING_THE_KONG])
        # 2.11 first-turn fans and 2.7 立直, from the caller's flags
        if fl & F_HEAVENLY:
            _set(p, x.fk[K_HEAVENLY_HAND])
        if fl & F_EARTHLY:
            _set(p, x.fk[K_EARTHLY_HAND])
        if fl & F_HUMANLY:
            _set(p, x.fk[K_HUMANLY_HAND])
        if fl & F_HEAVENLY_READY:
            _set(p, x.fk[K_HEAVENLY_READY])
        if fl & F_READY_CONCEALED:
            _set(p, x.fk[K_RIICHI])
    # 无财神 (OP-18)
    if (x.options & O_CAISHEN_ENABLED) and not (x.options & O_CAISHEN_USED_AS_WILD):
        _set(p, x.fk[K_NO_CAISHEN])


cdef bint _nine_gates(Ctx* x) noexcept nogil:
    """九莲宝灯: no declared group; the 13 tiles before the winning tile are 1112345678999
    of one suit and the winning tile is of that suit (天胡: some tile removable, OP-24)."""
    cdef uint8_t c[34]
    cdef int t, s, lo, hi
    if x.n_melds:
        return False
    if x.win >= 0:
        lo = t = x.win
        if t >= 27:
            return False
        return _nine_gates_shape(x.c13, t // 9)
    for t in range(27):
        if x.hand[t]:
            memcpy(c, x.hand, N_KINDS)
            c[t] -= 1
            if _nine_gates_shape(c, t // 9):
                return True
    return False


cdef inline bint _nine_gates_shape(const uint8_t* c, int s) noexcept nogil:
    cdef int i, n = 0
    for i in range(N_KINDS):
        n += c[i]
    if n != 13:
        return False
    c = c + 9 * s
    return (c[0] == 3 and c[1] == 1 and c[2] == 1 and c[3] == 1 and c[4] == 1 and c[5] == 1
            and c[6] == 1 and c[7] == 1 and c[8] == 3)


cdef inline void _chow_triple(Ctx* x, Combos* cb, int a, int b, int c) noexcept nogil:
    cdef Grp* g = x.g
    cdef int v[3]
    cdef int sa = g[a].first // 9, sb = g[b].first // 9, sc = g[c].first // 9
    cdef uint8_t m = (1 << a) | (1 << b) | (1 << c)
    v[0] = g[a].first % 9
    v[1] = g[b].first % 9
    v[2] = g[c].first % 9
    _sort3(v)
    if sa == sb and sb == sc:
        if v[0] == v[2]:
            _inst(x, cb, K_PURE_TRIPLE_CHOW, m)
        elif _steps(v[0], v[1], v[2], True):
            _inst(x, cb, K_PURE_SHIFTED_CHOWS, m)
        elif v[0] == 0 and v[1] == 3 and v[2] == 6:
            _inst(x, cb, K_PURE_STRAIGHT, m)
    elif sa != sb and sb != sc and sa != sc:
        if v[0] == v[2]:
            _inst(x, cb, K_MIXED_TRIPLE_CHOW, m)
        elif _steps(v[0], v[1], v[2], False):
            _inst(x, cb, K_MIXED_SHIFTED_CHOWS, m)
        elif v[0] == 0 and v[1] == 3 and v[2] == 6:
            _inst(x, cb, K_MIXED_STRAIGHT, m)


cdef inline void _pung_triple(Ctx* x, Combos* cb, int a, int b, int c, int p) noexcept nogil:
    cdef Grp* g = x.g
    cdef int v[3]
    cdef int ta = g[a].first, tb = g[b].first, tc = g[c].first
    cdef int sa, sb, sc
    cdef uint8_t m = (1 << a) | (1 << b) | (1 << c)
    if ta < 27 and tb < 27 and tc < 27:
        sa = ta // 9
        sb = tb // 9
        sc = tc // 9
        v[0] = ta % 9
        v[1] = tb % 9
        v[2] = tc % 9
        _sort3(v)
        if sa == sb and sb == sc:
            if _steps(v[0], v[1], v[2], False):
                _inst(x, cb, K_PURE_SHIFTED_PUNGS, m)
        elif sa != sb and sb != sc and sa != sc:
            if v[0] == v[2]:
                _inst(x, cb, K_TRIPLE_PUNG, m)
            elif _steps(v[0], v[1], v[2], False):
                _inst(x, cb, K_MIXED_SHIFTED_PUNGS, m)
    elif ta >= 31 and tb >= 31 and tc >= 31:
        _inst(x, cb, K_BIG_THREE_DRAGONS, m)
    elif _is_wind(ta) and _is_wind(tb) and _is_wind(tc):
        _inst(x, cb, K_BIG_THREE_WINDS, m)
        if _is_wind(p) and p != ta and p != tb and p != tc:
            _inst(x, cb, K_LITTLE_FOUR_WINDS, m | (1 << PAIR_SLOT))


cdef inline void _chow_quad(Ctx* x, Combos* cb, int p) noexcept nogil:
    cdef Grp* g = x.g
    cdef int r[4]
    cdef int i, s, su = g[0].first // 9
    cdef bint one_suit = True
    for i in range(4):
        r[i] = g[i].first % 9
        one_suit = one_suit and g[i].first // 9 == su
    if one_suit:
        if g[0].first == g[1].first and g[1].first == g[2].first and g[2].first == g[3].first:
            _inst(x, cb, K_QUADRUPLE_CHOW, 15)
            return
        _sort4(r)
        s = r[1] - r[0]
        if (s == 1 or s == 2) and r[2] - r[1] == s and r[3] - r[2] == s:
            _inst(x, cb, K_FOUR_PURE_SHIFTED_CHOWS, 15)
        elif (p < 27 and p // 9 == su and p % 9 == 4
                and r[0] == 0 and r[1] == 0 and r[2] == 6 and r[3] == 6):
            _inst(x, cb, K_PURE_TERMINAL_CHOWS, 15 | (1 << PAIR_SLOT))
    elif p < 27 and p % 9 == 4 and _three_suited_terminal(g, p // 9):
        _inst(x, cb, K_THREE_SUITED_TERMINAL_CHOWS, 15 | (1 << PAIR_SLOT))


cdef inline void _pung_quad(Ctx* x, Combos* cb) noexcept nogil:
    cdef Grp* g = x.g
    cdef int r[4]
    cdef int i, su
    if g[0].first < 27 and g[1].first < 27 and g[2].first < 27 and g[3].first < 27:
        su = g[0].first // 9
        for i in range(4):
            if g[i].first // 9 != su:
                return
            r[i] = g[i].first % 9
        _sort4(r)
        if r[1] - r[0] == 1 and r[2] - r[1] == 1 and r[3] - r[2] == 1:
            _inst(x, cb, K_FOUR_PURE_SHIFTED_PUNGS, 15)
    elif _is_wind(g[0].first) and _is_wind(g[1].first) and _is_wind(g[2].first) and _is_wind(g[3].first):
        _inst(x, cb, K_BIG_FOUR_WINDS, 15)
