# Included by _fan.pyx.  Stage 3 of the evaluator, exclusion and maximisation: the maximal
# valid selections of combination instances (4.2 step 3), the single generic exclusion pass
# (4.3), the choice of the best reading (4.2 steps 4-5) and the flower-derived fans (step 8).

# ---------------------------------------------------------------------------
# Exclusion pass (4.3) and the choice of the best reading (4.2 steps 4-5)
# ---------------------------------------------------------------------------
cdef inline bint _tie_better(Ctx* x, const uint64_t* w) noexcept nogil:
    """4.2 step 5: the fan list sorted by (points desc, id asc), one entry per
    count, lexicographically before the best one's (equal totals)."""
    cdef const uint8_t* order
    cdef int k, j, f, a, b
    cdef uint64_t t0, t1
    if w[0] == x.best_pres[0] and w[1] == x.best_pres[1]:
        # same fans: only the counts of repeatable fans can differ
        t0 = w[0] & x.rep_mask[0]
        t1 = w[1] & x.rep_mask[1]
        while t0 | t1:
            f = mj_pop_lowest2(&t0, &t1)
            if x.cnt[f] != x.best_mult[f]:
                break
        else:
            return False
    order = FAN_TIE_ORDER[x.rs]
    for k in range(x.nf):
        f = order[k]
        a = _mult_of(x, w, x.cnt, f)
        b = _mult_of(x, x.best_pres, x.best_mult, f)
        if a != b:
            # the shorter run ends where the other list still has f; the other
            # list continues with a later fan or ends (it is then a prefix)
            for j in range(k + 1, x.nf):
                f = order[j]
                if a > b:
                    if (x.best_pres[f >> 6] >> (f & 63)) & 1:
                        return True
                else:
                    if (w[f >> 6] >> (f & 63)) & 1:
                        return False
            return a < b
    return False


cdef uint8_t DIV_RANK[34]    # a group's lowest tile in PyMahjongGB's tile order (万 条 饼, honours), doubled
DIV_RANK[:] = [2 * (t + 9 if 9 <= t < 18 else (t - 9 if 18 <= t < 27 else t)) for t in range(34)]


cdef inline void _min_max(uint32_t* a, uint32_t* b) noexcept nogil:
    """(a, b) = (min, max): selects, no branch (the order of two groups is the data)."""
    cdef uint32_t d = (a[0] ^ b[0]) & -(<uint32_t> (a[0] > b[0]))    # a mask, not a conditional:
    cdef uint32_t lo = a[0] ^ d                                         # GCC made that a branch
    cdef uint32_t hi = b[0] ^ d
    a[0] = lo
    b[0] = hi


cdef uint32_t _division_key(const Grp* g, int n_melds) noexcept nogil:
    """The concealed groups g[n_melds..3] of a standard reading in the order PyMahjongGB's
    division search meets them (its tile order 万 条 饼 then honours, lowest tile first, a pung
    before a chow on the same tile), one byte each, first in the highest byte: of two readings of
    one hand (same number of concealed groups) the smaller key is the one that search finds first.
    The four bytes by a sorting network of selects (an insertion sort's tests mispredicted), the
    declared groups as 255, sorted last and shifted out."""
    cdef uint32_t v[4]
    cdef int i
    for i in range(4):
        v[i] = (DIV_RANK[g[i].first] + (g[i].shape == SH_CHOW)) | (<uint32_t> (i < n_melds) * 255u)
    _min_max(&v[0], &v[1])
    _min_max(&v[2], &v[3])
    _min_max(&v[0], &v[2])
    _min_max(&v[1], &v[3])
    _min_max(&v[1], &v[2])
    return <uint32_t> (((<uint64_t> v[0] << 24 | v[1] << 16 | v[2] << 8 | v[3]) >> (8 * n_melds)))


cdef uint8_t POP4[16]     # set bits of a 4-bit value (a bit set over the groups)
POP4[:] = [0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4]


cdef void _consider(Ctx* x, uint64_t p0, uint64_t p1, uint32_t yj) noexcept nogil:
    """Apply the exclusions to one reading (4.3) and keep it if it beats the best.

    The generator guarantees every exclusion bit lies above its fan's own bit, so
    a fan reached by the walk is final and its points are added at once; 幺九刻 is
    added at the end (every fan that can clear its instances comes before it)."""
    cdef uint64_t w[2]
    cdef uint64_t t0 = p0, t1 = p1
    cdef int f, total = 0, fl, mode, fy = x.f_yj, n_yj
    cdef const uint64_t* ex
    cdef const uint8_t* pts_once = FAN_POINTS_ONCE[x.rs]
    cdef const uint8_t* pts_each = FAN_POINTS_EACH[x.rs]
    w[0] = p0
    w[1] = p1
    while t0 | t1:
        f = mj_pop_lowest2(&t0, &t1)
        fl = x.fflags[f]
        # the points by arithmetic, not by a test on the fan's kind (which fans a reading holds is
        # the data: such a test mispredicted, and GCC kept it a branch): a repeatable fan counts its
        # instances, every other fan once, 幺九刻 none here (added at the end; it is repeatable);
        # the two tables hold each fan's points in the one column that applies, 0 in the other
        total += pts_once[f] + pts_each[f] * x.cnt[f]
        # its exclusions always (a fan without any has rows of zeros); only the 幺九刻 work behind a test
        ex = x.excl + FAN_WORDS * f
        w[0] &= ~ex[0]
        w[1] &= ~ex[1]
        t0 &= ~ex[0]
        t1 &= ~ex[1]
        if fl & FF_YJ_WORK:
            if fl & FF_D14_OWN:
                yj &= ~(<uint32_t> x.own[f])       # D14: this fan's own pungs score no 幺九刻
            mode = x.yjmode[f]
            if mode != YJ_NONE:
                if mode == YJ_OWN:
                    yj &= ~(<uint32_t> x.own[f])
                elif mode == YJ_ALL:
                    yj = 0
                else:
                    yj &= yj - 1               # exactly one instance
    n_yj = POP4[yj & 15]        # yj: a bit set over the four groups
    if yj == 0:
        w[fy >> 6] &= ~((<uint64_t> 1) << (fy & 63))
    else:
        total += x.points[fy] * n_yj
    x.cnt[fy] = n_yj
    cdef uint32_t div = 0
    cdef bint fav, div_known = False
    cdef bint by_division = (x.quirks & RQ_TIE_DIVISION_ORDER) != 0 and x.form == FORM_STANDARD
    if x.have_best:
        if total < x.best_total:
            return
        if total == x.best_total:
            # the division keys are read only on a tie of two standard readings (computed then: most hands
            # have no tie, and the key costs as much as the rest of this function)
            if by_division and x.best_form == FORM_STANDARD:
                div = _division_key(x.g, x.n_melds)
                div_known = True
                if not x.best_div_known:
                    x.best_div = _division_key(x.best_g, x.n_melds)
                    x.best_div_known = True
            if by_division and x.best_form == FORM_STANDARD and div != x.best_div:
                # PyMahjongGB keeps the first reading it meets, unless a later one has a
                # favoured fan (then the last such): Ruleset.tie_division_favoured
                fav = ((w[0] & x.fav_mask[0]) | (w[1] & x.fav_mask[1])) != 0
                if fav != x.best_fav:
                    if not fav:
                        return
                elif (div < x.best_div) == fav:
                    return
            elif not _tie_better(x, w):
                return
    if by_division and not div_known:
        memcpy(x.best_g, x.g, sizeof(Grp) * 4)   # the key from these if a tie comes
    x.have_best = True
    x.best_total = total
    x.best_form = x.form
    x.best_div = div
    x.best_div_known = div_known or not by_division   # not by_division: never read
    x.best_fav = ((w[0] & x.fav_mask[0]) | (w[1] & x.fav_mask[1])) != 0
    x.best_pres[0] = w[0]
    x.best_pres[1] = w[1]
    t0 = w[0] & x.rep_mask[0]
    t1 = w[1] & x.rep_mask[1]
    while t0 | t1:
        f = mj_pop_lowest2(&t0, &t1)
        x.best_mult[f] = x.cnt[f]


cdef bint _ao(const Combos* cb, uint32_t rest, uint8_t used, int bound, bint first) noexcept nogil:
    """(AO, P5): an order of `rest`, points non-increasing, each instance adding a new group."""
    cdef int k
    cdef uint32_t t = rest
    if rest == 0:
        return True
    while t:
        k = mj_ctz64(t)
        t &= t - 1
        if cb.pts[k] > bound:
            continue
        if not first and (cb.m[k] & ~used) == 0:
            continue
        if _ao(cb, rest & ~((<uint32_t> 1) << k), used | cb.m[k], cb.pts[k], False):
            return True
    return False


cdef inline bint _valid_with(const Combos* cb, uint32_t s, int k) noexcept nogil:
    """Selection s (valid) plus instance k is valid (NI, NS pairwise; AO)."""
    cdef uint32_t t, u
    if (cb.compat[k] & s) != s:
        return False
    t = s | ((<uint32_t> 1) << k)
    u = t & (t - 1)     # t without its lowest instance: at most one left is at most two in t
    if (u & (u - 1)) == 0:
        return True     # with NS, two instances can always be ordered (AO); no bit count (no POPCNT in a baseline build)
    return _ao(cb, t, 0, 1000, True)


cdef uint64_t CONCEALED_FAMILY[N_RULESETS][6][FAN_WORDS]   # [rs][concealed pungs + 1]: the fan's bit


cdef _build_concealed_family():
    """CONCEALED_FAMILY: 双暗刻, 三暗刻 or 四暗刻 for 2-4 concealed pungs, nothing for -1 .. 1."""
    cdef int rs, n
    cdef int keys[6]
    keys[:] = [-1, -1, -1, K_TWO_CONCEALED_PUNGS, K_THREE_CONCEALED_PUNGS, K_FOUR_CONCEALED_PUNGS]
    for rs in range(N_RULESETS):
        for n in range(6):
            CONCEALED_FAMILY[rs][n][0] = 0
            CONCEALED_FAMILY[rs][n][1] = 0
            if keys[n] >= 0:
                _set(CONCEALED_FAMILY[rs][n], FAN_OF_KEY[rs][keys[n]])


cdef inline void _concealed_family(Ctx* x, uint64_t* q, int n) noexcept nogil:
    """D13 concealed-pung family, n = concealed pungs per D6 (concealed kongs included; -1 when a
    discard completes the only one).  A table of fan bits, not a chain of tests on n (they
    mispredicted)."""
    cdef const uint64_t* m = CONCEALED_FAMILY[x.rs][n + 1]
    q[0] |= m[0]
    q[1] |= m[1]


cdef void _selections(Ctx* x, const Combos* cb, uint32_t s, int start, const uint64_t* p,
                      uint32_t yj, uint64_t (*qs)[2], int n_place) noexcept nogil:
    """Depth-first over the valid selections Σ (hereditary, so growing reaches all);
    each maximal one (MAX) is scored with every placement."""
    cdef uint32_t ext = 0, t
    cdef int k, f, i
    cdef uint64_t sp[2]
    for k in range(cb.n):
        if not (s >> k) & 1 and _valid_with(cb, s, k):
            ext |= (<uint32_t> 1) << k
    if ext == 0:
        sp[0] = p[0]
        sp[1] = p[1]
        t = s
        while t:
            k = mj_ctz64(t)
            t &= t - 1
            f = cb.f[k]
            x.cnt[f] = 0
            x.own[f] = 0
        t = s
        while t:
            k = mj_ctz64(t)
            t &= t - 1
            f = cb.f[k]
            sp[f >> 6] |= (<uint64_t> 1) << (f & 63)
            x.cnt[f] += 1
            x.own[f] |= cb.m[k]
        for i in range(n_place):
            _consider(x, sp[0] | qs[i][0], sp[1] | qs[i][1], yj)
        return
    t = ext >> start << start
    while t:
        k = mj_ctz64(t)
        t &= t - 1
        _selections(x, cb, s | ((<uint32_t> 1) << k), k + 1, p, yj, qs, n_place)


cdef int _flower_fans(Ctx* x, uint32_t flowers, uint16_t* out) noexcept nogil:
    """D16 / 4.2 step 8: 花牌 per flower, and (two-player-bamboo) 八仙过海, 梅兰竹菊, 春夏秋冬,
    with their own exclusion pass (八仙过海 keeps 花牌, OP-31)."""
    cdef uint64_t w[2]
    cdef uint64_t t0, t1
    cdef int f, k, n = mj_popcount64(flowers & 0xFF), total = 0
    cdef const uint64_t* ex
    if n == 0:
        return 0
    w[0] = 0
    w[1] = 0
    f = x.fk[K_FLOWER_TILES]
    _set(w, f)
    x.cnt[f] = n
    if (flowers & 0xFF) == 0xFF:
        _set(w, x.fk[K_EIGHT_IMMORTALS])
    if (flowers & 0x0F) == 0x0F:
        _set(w, x.fk[K_FOUR_SEASONS])
    if (flowers & 0xF0) == 0xF0:
        _set(w, x.fk[K_FOUR_PLANTS])
    t0 = w[0]
    t1 = w[1]
    while t0 | t1:
        f = mj_pop_lowest2(&t0, &t1)
        ex = x.excl + FAN_WORDS * f
        w[0] &= ~ex[0]
        w[1] &= ~ex[1]
        t0 &= ~ex[0]
        t1 &= ~ex[1]
    t0 = w[0]
    t1 = w[1]
    while t0 | t1:
        f = mj_pop_lowest2(&t0, &t1)
        k = x.cnt[f] if x.fflags[f] & FF_REPEATABLE else 1
        out[FAN_TABLE_POS[x.rs][f]] = k
        total += x.points[f] * k
    return total


cdef inline void _write_counts(Ctx* x, uint16_t* out) noexcept nogil:
    cdef uint64_t t0 = x.best_pres[0], t1 = x.best_pres[1]
    cdef int f
    cdef const uint8_t* pos = FAN_TABLE_POS[x.rs]
    cdef int rep
    while t0 | t1:
        f = mj_pop_lowest2(&t0, &t1)
        rep = (x.fflags[f] >> FF_REPEATABLE_BIT) & 1     # arithmetic, not a branch (see _consider)
        out[pos[f]] = <uint16_t> (rep * x.best_mult[f] + 1 - rep)


cdef inline void _compat(Ctx* x, Combos* cb) noexcept nogil:
    cdef int i, j
    for i in range(cb.n):
        cb.compat[i] = 0
    for i in range(cb.n):
        for j in range(i + 1, cb.n):
            if cb.f[i] == cb.f[j] and ((cb.m[i] & cb.m[j]) or not (x.fflags[cb.f[i]] & FF_REPEATABLE)):
                continue
            if (cb.m[i] & ~cb.m[j]) == 0 or (cb.m[j] & ~cb.m[i]) == 0:
                continue
            cb.compat[i] |= (<uint32_t> 1) << j
            cb.compat[j] |= (<uint32_t> 1) << i


cdef inline int _mult_of(Ctx* x, const uint64_t* w, const uint8_t* counts, int f) noexcept nogil:
    if not (w[f >> 6] >> (f & 63)) & 1:
        return 0
    return counts[f] if x.fflags[f] & FF_REPEATABLE else 1
