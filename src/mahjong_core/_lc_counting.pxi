# Counting for qualification (spec changpai.md 2.4-2.8: 卯, T_max, F_theo) and the group count of the
# two-卯 / last-卯 states (4.7, 3.5), ``include``d by _lc_hand.pyx.  The pure-Python oracles are
# ``families.longcard.counting`` (counting_summary, theoretical_fan) and
# ``families.longcard.round_counting.groups_max``.
#
# Why per component: every unit of the counting (吃 group, 坎, effective pair) joins faces of one point
# class (the components of the win tables), so the search over the *pool* (the non-fixed cards) splits
# into six independent searches whose 卯 add up and whose "best 陀 with at most k units" combine by a
# max-plus convolution over k.  A component's pool holds at most 2 copies of a face (3 with
# ``chi_may_use_kan``), so each search is a dynamic programme over at most 4^6 sub-states in mixed-radix
# order (removing cards lowers the index: every sub-state it reads is already filled).  The unit values
# depend on the live copies only through "is a copy live" (a 坎 scores as 杀 or a pair is effective
# when one is), so the search is tabled (POOL_TAB): one programme per component and live pattern of
# its faces over the full pool fills the answer of every smaller pool at once (each state of the
# programme is the answer for its own pool), and a question is then one table read per component.

cdef enum:
    MAX_UNITS = LC_MAX_UNITS     # a plan holds at most 7 groups (spec 2.7)
    POOL_STATES = 4096      # 4^6: six faces of a component, 0-3 pool copies each
    BONUS_LIVE = 0
    BONUS_ANY = 1
    BONUS_S1 = 2
    BONUS_OFF = 3
    POOL_KINDS = 5          # tables of pool answers: 0 without chi_may_use_kan, 1 + mao_bonus with it
    POOL_ENTRY = 8          # bytes of an answer: 卯, then the best 陀 with at most 1..7 units (0 units: 0)

cdef int SAME_TUO[N_FACES][6]            # 陀 of a same-face group of 3 (碰), 4 (杀), 5 (吐火响) cards
cdef int8_t* MAX_GROUPS[N_COMP]          # most disjoint 3-card groups of a component state
# POOL_TAB[kind][comp]: the pool search's answer for every pool of the component (index: pool counts in
# base 3 without chi_may_use_kan, where a pool holds at most 2 copies of a face, base 4 with it) and
# every live pattern of its faces (bit k: a copy of the component's face k is live), at
# (pattern * POOL_SIZE[radix][comp] + index) * POOL_ENTRY.  Kind 0 is built at import; the others (the
# bonus 卯 of a 坎 kept in the pool depends on mao_bonus) on the first use of chi_may_use_kan
# (lc_plan_ready), under the GIL, and only read after.  NULL: not built (the search runs).
cdef int8_t* POOL_TAB[POOL_KINDS][N_COMP]
cdef int32_t POOL_MULT[2][N_FACES]      # weight of a face in the pool index, base 3 and base 4
cdef int POOL_BIT[N_FACES]              # bit of a face in its component's live pattern
cdef int32_t POOL_SIZE[2][N_COMP]


cdef struct CountOpts:
    int mao_bonus
    bint quad_xiang          # tmax_quad_value = "xiang": a held 4 of a kind with a live copy counts as 吐火响
    bint chi_kan             # chi_may_use_kan: a held triple stays in the pool


cdef struct Unit:            # a 坎 / 4 or 5 of a kind / declared 吐火未响 taken or left whole
    int mao
    int value


cdef inline int _bonus(int size, int live_f, int mode) noexcept nogil:
    """Bonus 卯 of a 坎 (3) or 吐火未响 (4) unit (CP-15); a 5 never gets one."""
    if mode == BONUS_OFF or size == 5:
        return 0
    if mode == BONUS_S1:
        return 1 if size == 3 else 2
    if mode == BONUS_ANY:
        return 1
    return live_f >= 1


cdef inline Unit _whole_unit(int f, int size, const uint8_t* live, CountOpts* o) noexcept nogil:
    cdef Unit u
    cdef int lv = live[f]
    if size == 5:
        u.value = SAME_TUO[f][5]
    elif size == 4:
        u.value = SAME_TUO[f][5 if lv >= 1 and o.quad_xiang else 4]
    else:
        u.value = SAME_TUO[f][4 if lv >= 1 else 3]
    u.mao = 1 + _bonus(size, lv, o.mao_bonus)
    return u


cdef inline int _pair_value(int a, int b, const uint8_t* live) noexcept nogil:
    """Theoretical 陀 of the 2-card 卯 (a, b), a <= b, or -1 when it is not effective (spec 2.5, 2.7)."""
    cdef int k, y, best = -1
    if a == b:
        if live[a] >= 1:
            return SAME_TUO[a][3]
        for k in range(NPART[a]):
            y = PART[a][k]
            if live[y] >= 1 and 2 * RED[a] + RED[y] > best:
                best = 2 * RED[a] + RED[y]
        return best
    if live[a] >= 1:
        best = RED[a]
    if live[b] >= 1 and RED[b] > best:
        best = RED[b]
    if COMP[a] == COMP[FACE_7A] and a != b:          # two different 7s: the third 7 completes them too
        y = FACE_7A + FACE_7B + FACE_7C - a - b
        if live[y] >= 1 and RED[y] > best:
            best = RED[y]
    return -1 if best < 0 else RED[a] + RED[b] + best


cdef void _pool_component(int comp, const uint8_t* pool, const uint8_t* live, CountOpts* o,
                          int8_t (*pair)[N_FACES], int* out_mao, int* out_val) noexcept nogil:
    """Best 卯 and best 陀 with at most k units (k = 0..7) over the pool cards of one component."""
    cdef int8_t mao[POOL_STATES]
    cdef int8_t val[POOL_STATES][MAX_UNITS + 1]
    cdef int k, size = _pool_dp(comp, pool, live, o, pair, mao, val)
    out_mao[0] = mao[size - 1]
    for k in range(MAX_UNITS + 1):
        out_val[k] = val[size - 1][k]


cdef int _pool_dp(int comp, const uint8_t* pool, const uint8_t* live, CountOpts* o, int8_t (*pair)[N_FACES],
                  int8_t* mao, int8_t (*val)[MAX_UNITS + 1]) noexcept nogil:
    """The search over every sub-pool of ``pool`` (mixed-radix index, the pool's own state last):
    ``mao[i]``, ``val[i][k]`` its best 卯 and best 陀 with at most k units.  Returns the number of states."""
    cdef int nf = COMP_NF[comp], k, f, i, j, n, sub, m, v, low, size = 1, rest
    cdef int stride[N_FACES]
    cdef uint8_t cc[N_FACES]
    cdef uint8_t at[MAX_AT][3]
    for k in range(nf):
        f = COMP_FACES[comp][k]
        stride[f] = size
        size *= pool[f] + 1
    memset(cc, 0, N_FACES)
    for i in range(size):
        rest = i
        low = -1
        for k in range(nf):
            f = COMP_FACES[comp][k]
            cc[f] = rest % (pool[f] + 1)
            rest = rest // (pool[f] + 1)
            if low < 0 and cc[f]:
                low = f
        if low < 0:
            mao[i] = 0
            memset(val[i], 0, MAX_UNITS + 1)
            continue
        sub = i - stride[low]                        # this card of the lowest face stays single
        mao[i] = mao[sub]
        memcpy(val[i], val[sub], MAX_UNITS + 1)
        n = _groups_at(cc, low, at)                  # 坎 (only with chi_may_use_kan) and 吃 groups
        for j in range(n + NPART[low] + 1):
            if j < n:
                sub = i - stride[at[j][0]] - stride[at[j][1]] - stride[at[j][2]]
                if at[j][0] == at[j][2]:
                    m = 1 + _bonus(3, live[low], o.mao_bonus)
                    v = SAME_TUO[low][4 if live[low] else 3]
                else:
                    m = 1
                    v = _group_tuo(at[j])
            else:                                    # effective pairs (low, low) and (low, partner)
                f = low if j == n else PART[low][j - n - 1]
                if cc[f] < (2 if f == low else 1) or pair[low][f] < 0:
                    continue
                sub = i - stride[low] - stride[f]
                m = 1
                v = pair[low][f]
            if m + mao[sub] > mao[i]:
                mao[i] = m + mao[sub]
            for k in range(1, MAX_UNITS + 1):
                if v + val[sub][k - 1] > val[i][k]:
                    val[i][k] = v + val[sub][k - 1]
    return size


cdef void _pair_values(int comp, const uint8_t* pool, const uint8_t* live, int8_t (*pair)[N_FACES]) noexcept nogil:
    """The values of the effective pairs (f, f) and (f, partner) of the pool's faces (-1: not effective)."""
    cdef int i, k, f, y
    for i in range(COMP_NF[comp]):
        f = COMP_FACES[comp][i]
        if pool[f]:
            pair[f][f] = _pair_value(f, f, live) if pool[f] >= 2 else -1
            for k in range(NPART[f]):
                y = PART[f][k]
                pair[f][y] = _pair_value(f, y, live) if y > f else -1


cdef int _build_pool_table(int kind) except -1:
    """POOL_TAB[kind] of every component: one search per live pattern over the full pool."""
    cdef int radix = 3 if kind == 0 else 4, comp, nf, lm, k, f, i, size
    cdef CountOpts o
    cdef uint8_t pool[N_FACES]
    cdef uint8_t live[N_FACES]
    cdef int8_t pair[N_FACES][N_FACES]
    cdef int8_t mao[POOL_STATES]
    cdef int8_t val[POOL_STATES][MAX_UNITS + 1]
    cdef int8_t* tab
    cdef int8_t* e
    o.mao_bonus = BONUS_LIVE if kind == 0 else kind - 1    # without chi_may_use_kan no 坎 is in a pool
    o.quad_xiang = False                                    # whole units only: not read by the search
    o.chi_kan = kind != 0
    for comp in range(N_COMP):
        if POOL_TAB[kind][comp] != NULL:
            continue
        nf = COMP_NF[comp]
        size = POOL_SIZE[radix - 3][comp]
        tab = <int8_t*> malloc((<size_t> size << nf) * POOL_ENTRY)
        if tab == NULL:
            raise MemoryError()
        with nogil:
            memset(pool, 0, N_FACES)
            memset(live, 0, N_FACES)
            for k in range(nf):
                pool[COMP_FACES[comp][k]] = radix - 1
            for lm in range(1 << nf):
                for k in range(nf):
                    live[COMP_FACES[comp][k]] = (lm >> k) & 1
                _pair_values(comp, pool, live, pair)
                _pool_dp(comp, pool, live, &o, pair, mao, val)      # size states, the full pool's last
                for i in range(size):
                    e = tab + (<size_t> lm * size + i) * POOL_ENTRY
                    e[0] = mao[i]
                    for k in range(1, MAX_UNITS + 1):
                        e[k] = val[i][k]
        POOL_TAB[kind][comp] = tab
    return 0


cdef int lc_plan_ready(int mao_bonus, bint chi_kan) except -1:
    if chi_kan and POOL_TAB[1 + mao_bonus][0] == NULL:
        _build_pool_table(1 + mao_bonus)
    return 0


cdef void _plan_part(int comp, const uint8_t* c, const uint8_t* live, CountOpts* o, LcPlanPart* out) noexcept nogil:
    """The part of the plan that the faces of one component decide: their whole units (a 坎 without
    ``chi_may_use_kan``, 4 or 5 of a kind) and the search over their pool cards (a table read)."""
    cdef uint8_t pool[N_FACES]
    cdef int8_t pair[N_FACES][N_FACES]
    cdef int i, f, k, j, n, r = 1 if o.chi_kan else 0, lm = 0
    cdef int32_t idx = 0
    cdef const int8_t* tab = POOL_TAB[1 + o.mao_bonus if o.chi_kan else 0][comp]
    cdef const int8_t* e
    cdef Unit u
    out.mao = 0
    out.nwhole = 0
    for i in range(COMP_NF[comp]):
        f = COMP_FACES[comp][i]
        n = c[f]
        if n >= 4 or (n == 3 and not o.chi_kan):
            u = _whole_unit(f, n, live, o)
            out.mao += u.mao
            j = out.nwhole                           # insertion: values sorted largest first
            while j > 0 and out.whole[j - 1] < u.value:
                out.whole[j] = out.whole[j - 1]
                j -= 1
            out.whole[j] = u.value
            out.nwhole += 1
            n = 0
        pool[f] = n
        idx += n * POOL_MULT[r][f]
        lm |= (live[f] != 0) << i
    if tab != NULL:
        e = tab + (<size_t> lm * POOL_SIZE[r][comp] + idx) * POOL_ENTRY
        out.mao += e[0]
        out.val[0] = 0
        for k in range(1, MAX_UNITS + 1):
            out.val[k] = e[k]
        return
    _pair_values(comp, pool, live, pair)
    _pool_component(comp, pool, live, o, pair, &j, out.val)
    out.mao += j


cdef void _combine_parts(const LcPlanPart* parts, const uint8_t* live, int n_laid, int laid_tuo, int n_forced,
                         const uint8_t* forced, CountOpts* o, int* out_mao, int* out_tmax) noexcept nogil:
    """(卯, T_max) of spec 2.6-2.7 from the six component parts: declared groups, forced units (declared
    吐火未响), the whole units largest first, and the pools combined by a max-plus convolution.

    A part's "best 陀 with at most k units" grows with k up to some n_j and then stays (val[0] = 0),
    and so does the running combination (up to the sum of the n_j): the convolution only runs over
    t <= n_j and k <= min(sum, room), the entries T_max reads."""
    cdef int values[N_FACES]
    cdef int pool_val[MAX_UNITS + 1]
    cdef int k, j, i, t, nwhole = 0, mao = n_laid, room, best, acc, v, nj, top, pool_n = 0, m
    cdef int total_n = 0, total_v = 0
    cdef int ns[N_COMP]
    cdef const int* val
    cdef Unit u
    for k in range(n_forced):
        u = _whole_unit(forced[k], 4, live, o)
        mao += u.mao
        laid_tuo += u.value
    room = MAX_UNITS - n_laid - n_forced
    if room < 0:
        room = 0
    for j in range(N_COMP):
        mao += parts[j].mao
        for i in range(parts[j].nwhole):             # insertion: values sorted largest first
            v = parts[j].whole[i]
            k = nwhole
            while k > 0 and values[k - 1] < v:
                values[k] = values[k - 1]
                k -= 1
            values[k] = v
            nwhole += 1
        val = <const int*> parts[j].val
        nj = MAX_UNITS
        while nj > 0 and val[nj] == val[nj - 1]:
            nj -= 1
        ns[j] = nj
        total_n += nj
        total_v += val[MAX_UNITS]
    out_mao[0] = mao
    m = room if room < nwhole else nwhole
    if total_n <= room - m:
        # every entry read below (units room - m .. room) is the pools' best without a limit
        acc = total_v
        for j in range(m):
            acc += values[j]                         # whole units add 陀 (>= 0): take the m largest
        out_tmax[0] = laid_tuo + acc
        return
    memset(pool_val, 0, sizeof(pool_val))
    for j in range(N_COMP):
        val = <const int*> parts[j].val
        nj = ns[j]
        if nj == 0:
            continue
        top = pool_n + nj
        if top > room:
            top = room
        for k in range(top, -1, -1):                 # max-plus convolution, in place from the top
            best = pool_val[k]
            for t in range(1, (k if k < nj else nj) + 1):
                v = pool_val[k - t] + val[t]
                if v > best:
                    best = v
            pool_val[k] = best
        for k in range(top + 1, room + 1):
            pool_val[k] = pool_val[top]
        pool_n = top
    best = pool_val[room]
    acc = 0
    for j in range(m):
        acc += values[j]
        if acc + pool_val[room - j - 1] > best:
            best = acc + pool_val[room - j - 1]
    out_tmax[0] = laid_tuo + best


cdef int _bonus_mode(object mode) except -1:
    if mode == "live":
        return BONUS_LIVE
    if mode == "any":
        return BONUS_ANY
    if mode == "s1":
        return BONUS_S1
    if mode == "off":
        return BONUS_OFF
    _options.check_value("mao_bonus", mode)          # raises, naming the allowed values
    raise RulesetError(f"option mao_bonus: unknown value {_short(mode)}")   # pragma: no cover


cdef int _load_dead(object dead, uint8_t* out) except -1:
    """Dead copies: None, a uint8 buffer of 21 counts, or what ``counting`` reads (card string, counts)."""
    cdef int f
    if dead is None:
        memset(out, 0, N_FACES)
    elif not _load_buffer(dead, out):
        from mahjong_core.families.longcard.counting import _dead_counts
        _load_buffer(bytes(_dead_counts(dead)), out)
    for f in range(N_FACES):
        if out[f] > COPIES:
            raise TileCountError(f"dead: {out[f]} copies of {_cards.face_name(f, 'pips')}; each face has 0-5")
    return 0


cdef int _load_live(object hand, object declared, object dead, uint8_t* c, uint8_t* live,
                    Declared* d) except -1:
    """Concealed counts, declared groups (into ``d``) and live copies (spec 2.4), checked against
    the deck."""
    cdef uint8_t dd[N_FACES]
    cdef int f, lv
    _load(hand, c)
    _declared(declared, d, False)
    _load_dead(dead, dd)
    for f in range(N_FACES):
        lv = COPIES - c[f] - d.own[f] - dd[f]
        if lv < 0:
            raise TileCountError(f"{_cards.face_name(f, 'pips')}: {c[f]} concealed + {d.own[f]} declared + "
                                 f"{dd[f]} dead copies; the deck holds 5")
        live[f] = lv
    return 0


def theoretical_fan(hand, declared=None, dead=None, *, jiang=None, caishen=0, wumenjiang=True,
                    wumenjiang_weight="power_of_two", xiang_bonus_on_fan_faces=False, kan_as_peng=True,
                    caishen_count=5):
    """``F_theo`` (spec 2.8, CP-42): the face fan of the optimistic completion (a weighted pair with a
    live copy 碰, a 坎 杀 or kept, 4 of a kind 响 or not, a declared 吐火未响 响 when a copy is live),
    no 高胡 or 对对胡, plus 财神.  The compiled
    :func:`mahjong_core.families.longcard.counting.theoretical_fan`."""
    cdef uint8_t c[N_FACES]
    cdef uint8_t live[N_FACES]
    cdef Declared d
    _load_live(hand, declared, dead, c, live, &d)
    cdef _FanArgs a = _fan_args(jiang, caishen, wumenjiang, wumenjiang_weight, xiang_bonus_on_fan_faces, 0,
                                kan_as_peng, True, False, caishen_count)
    return lc_theoretical_fan(c, live, d.n, d.kinds, d.faces, a.weights.w, a.caishen, a.kan_as_peng, a.xiang_bonus)


cdef int lc_theoretical_fan(const uint8_t* c, const uint8_t* live, int n_decl, const uint8_t* kinds,
                            const uint8_t* faces, const int* w, int caishen, bint kan_as_peng,
                            bint xiang_bonus) noexcept nogil:
    cdef int fan = caishen, i, f, n, kind, j
    cdef uint64_t x
    for i in range(n_decl):
        kind = kinds[i]
        f = faces[i]
        if kind == K_WEIXIANG and live[f] >= 1:
            kind = K_XIANG
        fan += _kind_fan_of(kind, w[f], kan_as_peng, xiang_bonus)
    for f in range(0, N_FACES, 8):
        # only the faces held 2 or more times add fan: found a word at a time (a count is 0-5, and
        # + 0x7e sets its byte's top bit, without a carry, exactly when it is 2 or more)
        x = 0
        memcpy(&x, c + f, 8 if f + 8 <= N_FACES else N_FACES - f)
        x = (x + <uint64_t> 0x7e7e7e7e7e7e7e7eULL) & <uint64_t> 0x8080808080808080ULL
        while x:
            j = f + (mj_ctz64(x) >> 3)
            x &= x - 1
            fan += _face_fan(j, c[j], w, live, kan_as_peng, xiang_bonus)
    return fan


cdef inline int _face_fan(int f, int n, const int* w, const uint8_t* live, bint kan_as_peng,
                          bint xiang_bonus) noexcept nogil:
    """What the held copies of face f add to F_theo (lc_theoretical_fan)."""
    cdef int kind
    if n == 2 and w[f] and live[f] >= 1:
        kind = K_PENG
    elif n == 3:
        kind = K_SHA if live[f] >= 1 else K_KAN
    elif n == 4:
        kind = K_XIANG if live[f] >= 1 else K_WEIXIANG
    elif n == 5:
        kind = K_XIANG
    else:
        return 0
    return _kind_fan_of(kind, w[f], kan_as_peng, xiang_bonus)


def counting(hand, declared=None, dead=None, *, mao_bonus="live", tmax_quad_value="xiang",
             chi_may_use_kan=False):
    """``(卯, T_max)`` of the concealed cards and declared groups (spec 2.6-2.7), ``dead`` = copies
    dead outside the player's own declared groups (every 堂子, the others' groups; spec 2.4).  The
    compiled :func:`mahjong_core.families.longcard.counting.counting_summary`; the requirement of
    qualification is ``卯 >= 7`` and ``T_max >=`` the threshold (2.8)."""
    cdef uint8_t c[N_FACES]
    cdef uint8_t live[N_FACES]
    cdef int mao, tmax
    cdef Declared d
    _load_live(hand, declared, dead, c, live, &d)
    cdef int mode = _bonus_mode(mao_bonus)
    if tmax_quad_value != "xiang" and tmax_quad_value != "weixiang":
        _options.check_value("tmax_quad_value", tmax_quad_value)
    cdef bint quad_xiang = tmax_quad_value == "xiang"
    cdef bint chi_kan = _flag(chi_may_use_kan, "chi_may_use_kan")
    lc_plan_ready(mode, chi_kan)
    with nogil:
        lc_count_plan(c, live, d.n, d.kinds, d.faces, d.tuo, mode, quad_xiang, chi_kan, &mao, &tmax)
    return mao, tmax


cdef inline void _count_opts(CountOpts* o, int mao_bonus, bint quad_xiang, bint chi_kan) noexcept nogil:
    o.mao_bonus = mao_bonus
    o.quad_xiang = quad_xiang
    o.chi_kan = chi_kan


cdef void _plan_parts_all(const uint8_t* c, const uint8_t* live, CountOpts* o, int8_t** tabs,
                          LcPlanPart* parts) noexcept nogil:
    """_plan_part of every component from its table in one pass over the faces (each component's
    faces in the same order as _plan_part takes them)."""
    cdef int32_t idx[N_COMP]
    cdef int lm[N_COMP]
    cdef int f, j, k, n, r = 1 if o.chi_kan else 0
    cdef const int8_t* e
    cdef LcPlanPart* out
    cdef Unit u
    for j in range(N_COMP):
        idx[j] = 0
        lm[j] = 0
        parts[j].mao = 0
        parts[j].nwhole = 0
    for f in range(N_FACES):
        j = COMP[f]
        n = c[f]
        if n >= 4 or (n == 3 and not o.chi_kan):
            out = &parts[j]
            u = _whole_unit(f, n, live, o)
            out.mao += u.mao
            k = out.nwhole                           # insertion: values sorted largest first
            while k > 0 and out.whole[k - 1] < u.value:
                out.whole[k] = out.whole[k - 1]
                k -= 1
            out.whole[k] = u.value
            out.nwhole += 1
            n = 0
        idx[j] += n * POOL_MULT[r][f]
        if live[f]:
            lm[j] |= POOL_BIT[f]
    for j in range(N_COMP):
        e = tabs[j] + (<size_t> lm[j] * POOL_SIZE[r][j] + idx[j]) * POOL_ENTRY
        out = &parts[j]
        out.mao += e[0]
        out.val[0] = 0
        for k in range(1, MAX_UNITS + 1):
            out.val[k] = e[k]


cdef void lc_plan_parts(const uint8_t* c, const uint8_t* live, int mao_bonus, bint quad_xiang, bint chi_kan,
                        int comp, LcPlanPart* parts) noexcept nogil:
    cdef CountOpts o
    cdef int j, kind = 1 + mao_bonus if chi_kan else 0
    _count_opts(&o, mao_bonus, quad_xiang, chi_kan)
    if comp < 0 and POOL_TAB[kind][N_COMP - 1] != NULL:     # the tables are built (the last one last)
        _plan_parts_all(c, live, &o, POOL_TAB[kind], parts)
        return
    for j in range(N_COMP):
        if comp < 0 or j == comp:
            _plan_part(j, c, live, &o, &parts[j])


cdef void lc_plan_combine(const LcPlanPart* parts, const uint8_t* live, int n_decl, const uint8_t* kinds,
                          const uint8_t* faces, int decl_tuo, int mao_bonus, bint quad_xiang, bint chi_kan,
                          int* out_mao, int* out_tmax) noexcept nogil:
    cdef uint8_t forced[MAX_UNITS]
    cdef CountOpts o
    cdef int i, n_forced = 0, n_laid = 0, laid_tuo = decl_tuo
    _count_opts(&o, mao_bonus, quad_xiang, chi_kan)
    for i in range(n_decl):
        if kinds[i] == K_WEIXIANG:             # valued as a whole unit that may still grow
            forced[n_forced] = faces[i]
            n_forced += 1
            laid_tuo -= SAME_TUO[faces[i]][4]
        else:
            n_laid += 1
    _combine_parts(parts, live, n_laid, laid_tuo, n_forced, forced, &o, out_mao, out_tmax)


cdef void lc_count_plan(const uint8_t* c, const uint8_t* live, int n_decl, const uint8_t* kinds,
                        const uint8_t* faces, int decl_tuo, int mao_bonus, bint quad_xiang, bint chi_kan,
                        int* out_mao, int* out_tmax) noexcept nogil:
    cdef LcPlanPart parts[N_COMP]
    lc_plan_parts(c, live, mao_bonus, quad_xiang, chi_kan, -1, parts)
    lc_plan_combine(parts, live, n_decl, kinds, faces, decl_tuo, mao_bonus, quad_xiang, chi_kan, out_mao, out_tmax)


cdef int lc_face_comp(int f) noexcept nogil:
    return COMP[f]


def group_count(hand):
    """``(n, whole)``: the largest number of disjoint complete 3-card groups among the concealed
    cards, and whether every card is in one (spec 4.7 two-卯 state, 3.5 last-卯 rule)."""
    cdef uint8_t c[N_FACES]
    cdef int n = _load(hand, c)
    if n > MAX_CARDS:
        raise HandSizeError(f"{n} concealed cards; a hand holds at most {MAX_CARDS}")
    cdef bint whole
    cdef int total = lc_group_count(c, &whole)
    return total, whole


cdef int lc_group_count(const uint8_t* c, bint* whole) noexcept nogil:
    cdef int32_t idx[N_COMP]
    cdef int f, comp, total = 0
    memset(idx, 0, sizeof(idx))
    for f in range(N_FACES):
        idx[COMP[f]] += c[f] * MULT[f]
    for comp in range(N_COMP):
        total += MAX_GROUPS[comp][idx[comp]]
    whole[0] = _table_sum(idx, False) >= 0
    return total


cdef void _build_max_groups(int comp) noexcept nogil:
    """MAX_GROUPS of every state of a component, in index order (the lowest card is left single or
    put in a group that holds it)."""
    cdef int32_t size = COMP_SIZE[comp], idx, rest, delta
    cdef int nf = COMP_NF[comp], k, f, n, i, low, best
    cdef uint8_t c[N_FACES]
    cdef uint8_t at[MAX_AT][3]
    cdef int8_t* table = MAX_GROUPS[comp]
    for idx in range(size):
        memset(c, 0, N_FACES)
        rest = idx
        low = -1
        for k in range(nf):
            f = COMP_FACES[comp][k]
            c[f] = rest % 6
            rest = rest // 6
            if low < 0 and c[f]:
                low = f
        if low < 0:
            table[idx] = 0
            continue
        best = table[idx - MULT[low]]
        n = _groups_at(c, low, at)
        for i in range(n):
            delta = MULT[at[i][0]] + MULT[at[i][1]] + MULT[at[i][2]]
            if 1 + table[idx - delta] > best:
                best = 1 + table[idx - delta]
        table[idx] = best


def _init_counting():
    cdef int f, comp, k, r
    for f in range(N_FACES):
        SAME_TUO[f][3] = _groups.group_tuo("peng", (f,) * 3)
        SAME_TUO[f][4] = _groups.group_tuo("sha", (f,) * 4)
        SAME_TUO[f][5] = _groups.group_tuo("tuhuo_xiang", (f,) * 5)
    for comp in range(N_COMP):
        MAX_GROUPS[comp] = <int8_t*> malloc(COMP_SIZE[comp])
        if MAX_GROUPS[comp] == NULL:
            raise MemoryError()
        with nogil:
            _build_max_groups(comp)
    for r in range(2):
        for comp in range(N_COMP):
            POOL_SIZE[r][comp] = 1
            for k in range(COMP_NF[comp]):
                f = COMP_FACES[comp][k]
                POOL_BIT[f] = 1 << k
                POOL_MULT[r][f] = POOL_SIZE[r][comp]
                POOL_SIZE[r][comp] *= 3 + r
    _build_pool_table(0)


_init_counting()


def _pool_tables_built():
    """Which pool tables exist (kind 0: without chi_may_use_kan; 1-4: with it, by mao_bonus)."""
    return [POOL_TAB[k][0] != NULL for k in range(POOL_KINDS)]
