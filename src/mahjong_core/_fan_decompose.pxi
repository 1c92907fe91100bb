# Included by _fan.pyx.  Stage 1 of the evaluator, the candidates (D3, D4): every reading of
# the hand, form by form in the reference's order (standard, seven pairs, thirteen orphans,
# 全不靠, knitted straight); the standard form by a lowest-kind-first split of the counts.  Each
# reading goes to the detectors (_fan_detect.pxi) as soon as it is found.

cdef void _split(Ctx* x, uint8_t* c, int i, int depth) noexcept nogil:
    """Every split of the concealed counts into groups, lowest kind first (D4)."""
    while i < N_KINDS and c[i] == 0:
        i += 1
    if i == N_KINDS:
        if depth == x.split_target:
            if x.form == FORM_STANDARD:
                _score_decomposition(x)
            else:
                _score_knitted(x)
        return
    if depth == x.split_target:
        return
    if c[i] >= 3:
        c[i] -= 3
        x.g[depth].shape = SH_PUNG
        x.g[depth].first = i
        x.g[depth].exposed = 0
        _split(x, c, i, depth + 1)
        c[i] += 3
    if i < 27 and i % 9 <= 6 and c[i + 1] and c[i + 2]:
        c[i] -= 1
        c[i + 1] -= 1
        c[i + 2] -= 1
        x.g[depth].shape = SH_CHOW
        x.g[depth].first = i
        x.g[depth].exposed = 0
        _split(x, c, i, depth + 1)
        c[i] += 1
        c[i + 1] += 1
        c[i + 2] += 1


cdef void _standard_form(Ctx* x) noexcept nogil:
    cdef uint8_t c[34]
    cdef int p, k, lo, hi
    if not _standard_complete_sums(x.c14, x.sum14):
        return
    memcpy(c, x.c14, N_KINDS)
    memcpy(x.g, x.melds, sizeof(Grp) * 4)
    x.form = FORM_STANDARD
    x.split_target = 4
    for k in range(4):
        if x.sum14[k] % 3 == 2:
            break
    lo = 9 * k
    hi = 34 if k == 3 else lo + 9
    for p in range(lo, hi):
        if c[p] >= 2:
            c[p] -= 2
            if (_suit_complete(c + lo, x.sum14[k] - 2) if k < 3 else _honors_complete(c + 27, x.sum14[k] - 2)):
                x.pair = p
                _split(x, c, 0, x.n_melds)
            c[p] += 2


# ---------------------------------------------------------------------------
# Other forms
# ---------------------------------------------------------------------------
cdef void _seven_pairs_form(Ctx* x) noexcept nogil:
    cdef uint64_t p[2]
    cdef uint64_t odd
    cdef int lo, hi, kinds
    if x.n_melds:
        return
    odd = (_load8(x.c14) | _load8(x.c14 + 8) | _load8(x.c14 + 16) | _load8(x.c14 + 24)
           | x.c14[32] | x.c14[33]) & 0x0101010101010101ULL
    if odd:
        return
    p[0] = x.common[0]
    p[1] = x.common[1]
    if (x.quirks & RQ_SEVEN_PAIRS_ALL_HONORS) and (x.pm14 & ~M_HONOR) == 0:
        _set(p, x.fk[K_SEVEN_PAIRS_ALL_HONORS])
    else:
        _set(p, x.fk[K_SEVEN_PAIRS])
    kinds = mj_popcount64(x.pm14)
    lo = mj_ctz64(x.pm14)
    hi = 63 - mj_clz64(x.pm14)
    if kinds == 7 and hi < 27 and lo // 9 == hi // 9 and hi - lo == 6:
        _set(p, x.fk[K_SEVEN_SHIFTED_PAIRS])
    _terminal_honor_fans(x, p, (x.quirks & RQ_TERMINAL_HONOR_IN_SEVEN_PAIRS) != 0)
    if x.win >= 0 and _unique_wait(x):
        _set(p, x.fk[K_SINGLE_WAIT])
    x.form = FORM_SEVEN_PAIRS
    _consider(x, p[0], p[1], 0)


cdef void _special_forms(Ctx* x) noexcept nogil:
    """public: 十三幺 and 全不靠 / 七星不靠 (no declared group, 14 concealed tiles)."""
    cdef uint64_t p[2]
    cdef int k
    cdef uint64_t present = x.pm14
    if x.n_melds:
        return
    if (present & ORPHAN_MASK) == ORPHAN_MASK and (present & ~ORPHAN_MASK) == 0:
        p[0] = x.common[0]
        p[1] = x.common[1]
        _set(p, x.fk[K_THIRTEEN_ORPHANS])
        x.form = FORM_THIRTEEN_ORPHANS
        _consider(x, p[0], p[1], 0)
    if x.mx14 > 1:
        return
    for k in range(6):
        if (present & ~M_HONOR & ~KNITTED_PATTERN_MASKS[k]) == 0:
            break
    else:
        return
    p[0] = x.common[0]
    p[1] = x.common[1]
    _set(p, x.fk[K_LESSER_HONORS_AND_KNITTED_TILES])
    if (present & M_HONOR) == M_HONOR:
        _set(p, x.fk[K_GREATER_HONORS_AND_KNITTED_TILES])
    for k in range(6):
        if (present & KNITTED_PATTERN_MASKS[k]) == KNITTED_PATTERN_MASKS[k]:
            _set(p, x.fk[K_KNITTED_STRAIGHT])
            break
    x.form = FORM_HONORS_KNITTED
    _consider(x, p[0], p[1], 0)


cdef void _knitted_form(Ctx* x) noexcept nogil:
    """public knitted-straight form (D3): 9 tiles of one pattern + 1 group (may be
    declared) + 1 pair."""
    cdef uint8_t c[34]
    cdef int k, i, p
    if x.n_melds > 1:
        return
    x.form = FORM_KNITTED_STRAIGHT
    x.split_target = 1
    for k in range(6):
        if (x.pm14 & KNITTED_PATTERN_MASKS[k]) != KNITTED_PATTERN_MASKS[k]:
            continue
        memcpy(c, x.c14, N_KINDS)
        for i in range(9):
            c[KNITTED_PATTERNS[k][i]] -= 1
        if not _standard_complete(c):
            continue
        x.knit_mask = KNITTED_PATTERN_MASKS[k]
        memcpy(x.g, x.melds, sizeof(Grp) * 4)
        for p in range(N_KINDS):
            if c[p] >= 2:
                c[p] -= 2
                if _comp_complete(c, p // 9 if p < 27 else 3):
                    x.pair = p
                    _split(x, c, 0, x.n_melds)
                c[p] += 2
