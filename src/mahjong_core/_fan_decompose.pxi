# Included by _fan.pyx.  Stage 1 of the evaluator, the candidates (D3, D4): every reading of
# the hand, form by form in the reference's order (standard, seven pairs, thirteen orphans,
# 全不靠, knitted straight); the standard form from the table of suit splits
# (_fan_suit_splits.pxi), the knitted form's rest by a lowest-kind-first split of the counts.  Each
# reading goes to the detectors (_fan_detect.pxi) as soon as it is found.

cdef void _split(Ctx* x, uint8_t* c, int i, int depth) noexcept nogil:
    """Every split of the counts left beside the knitted tiles into groups, lowest kind first."""
    while i < N_KINDS and c[i] == 0:
        i += 1
    if i == N_KINDS:
        if depth == x.split_target:
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


cdef inline int _put_suit_split(Ctx* x, const SuitSplit* sp, int base, int depth) noexcept nogil:
    """Write a suit's groups to x.g from `depth` (and its pair, if any); returns the next depth.
    Without a branch on the split's size (a loop of 0-4 rounds mispredicts): all four slots are
    copied, 12 bytes, past the groups into the spare slots of x.g or onto the slots the next suit
    writes, and `base` is added to the first tiles (bytes 1, 4, 7, 10; a rank + 18 never carries)."""
    cdef const uint8_t* src = <const uint8_t*> sp.g
    cdef uint8_t* dst = <uint8_t*> &x.g[depth]
    cdef uint32_t tail
    cdef int keep
    _store8(dst, _load8(src) + <uint64_t> base * 0x0100000100000100ULL)
    memcpy(&tail, src + 8, 4)
    tail += <uint32_t> base << 16
    memcpy(dst + 8, &tail, 4)
    # the pair's kind when the split has one, by a mask (GCC made the select a branch, which
    # mispredicted: whether a suit holds the pair is the data)
    keep = -(<int> (sp.pair == SPLIT_NO_PAIR))
    x.pair = (x.pair & keep) | ((base + sp.pair) & ~keep)
    return depth + sp.n


cdef inline void _three_melds_form(Ctx* x) noexcept nogil:
    """_standard_form with three declared groups: the concealed 14 are five tiles, a group and a
    pair, read off their kinds without the suit splits.  Two kinds: a pung (3) and a pair (2); three
    consecutive kinds of a suit: a chow and a pair on the kind held three times (1 + 3 + 1 is
    123 + 22); four kinds: a pair (2) and a chow of the other three.  One reading at most, the one
    the split below finds."""
    cdef uint64_t pm = x.pm14, bits
    cdef int lo = mj_ctz64(pm), kinds = mj_popcount64(pm), hi
    if kinds == 2:
        hi = 63 - mj_clz64(pm)
        if x.c14[lo] == 3 and x.c14[hi] == 2:
            x.g[3].first = <uint8_t> lo
            x.pair = hi
        elif x.c14[lo] == 2 and x.c14[hi] == 3:
            x.g[3].first = <uint8_t> hi
            x.pair = lo
        else:
            return
        x.g[3].shape = SH_PUNG
    elif kinds == 3 and pm == (<uint64_t> 7) << lo and lo < 27 and lo % 9 <= 6:
        if x.c14[lo] >= 2:
            x.pair = lo
        elif x.c14[lo + 1] >= 2:
            x.pair = lo + 1
        else:
            x.pair = lo + 2
        if x.c14[x.pair] != 3:
            return      # 2 + 2 + 1 leaves no chow beside either pair
        x.g[3].shape = SH_CHOW
        x.g[3].first = <uint8_t> lo
    elif kinds == 4:
        bits = pm
        while bits:
            x.pair = mj_ctz64(bits)
            bits &= bits - 1
            if x.c14[x.pair] == 2:
                break
        else:
            return
        pm &= ~((<uint64_t> 1) << x.pair)
        lo = mj_ctz64(pm)
        if not (pm == (<uint64_t> 7) << lo and lo < 27 and lo % 9 <= 6):
            return
        x.g[3].shape = SH_CHOW
        x.g[3].first = <uint8_t> lo
    else:
        return
    x.g[3].exposed = 0
    x.form = FORM_STANDARD
    memcpy(x.g, x.melds, sizeof(Grp) * 3)
    _score_groups(x)


cdef uint8_t MOD3[15]      # n % 3 for a component's concealed tiles, 0-14
MOD3[:] = [0, 1, 2, 0, 1, 2, 0, 1, 2, 0, 1, 2, 0, 1, 2]


cdef void _standard_form(Ctx* x) noexcept nogil:
    """Every standard reading (D4): the product of the suits' split lists (_fan_suit_splits.pxi)
    and the honors' one reading (pungs + at most one pair), groups lowest kind first."""
    cdef int first[3]
    cdef int count[3]
    cdef int k, i, d0, d1, d2, depth, res, pair_comp
    cdef uint32_t ones = 0, pair_comps = 0
    cdef uint64_t w, b0, b1, b2, pungs, pairs
    cdef Grp hon[4]
    cdef const uint8_t* c = x.c14
    cdef int n_hon = 0
    cdef GroupFacts base, gf
    cdef const SuitSplit* s0
    cdef const SuitSplit* s1
    cdef const SuitSplit* s2
    if x.n_melds == 3:
        _three_melds_form(x)
        return
    if x.n_melds == 4:
        # four declared groups: the concealed 14 are two tiles, one reading when they are a pair
        # (what the split below finds, without the splits)
        if mj_popcount64(x.pm14) != 1:
            return
        x.pair = mj_ctz64(x.pm14)
        x.form = FORM_STANDARD
        memcpy(x.g, x.melds, sizeof(Grp) * 4)
        _score_groups(x)
        return
    # which component holds the pair, from the sizes mod 3 as bit sets (a test per component on
    # which one it is mispredicted): none of size 1 mod 3, exactly one of size 2 mod 3
    for k in range(4):
        res = MOD3[x.sum14[k]]    # a table: four divisions by 3 cost 40 instructions a hand
        ones |= res == 1
        pair_comps |= (<uint32_t> (res == 2)) << k
    if ones or pair_comps == 0 or (pair_comps & (pair_comps - 1)):
        return
    pair_comp = mj_ctz64(pair_comps)
    # the honors' one reading from their counts (0-4) as bit sets of c[27..33], one bit a kind: a
    # pung is a 3 (bits 0 and 1), a pair a 2 (bit 1 alone); a 1 or a 4 leaves no reading
    w = _load8(c + 26) >> 8
    b0 = mj_gather_low_bits(w & 0x0101010101010101ULL)
    b1 = mj_gather_low_bits((w >> 1) & 0x0101010101010101ULL)
    b2 = mj_gather_low_bits((w >> 2) & 0x0101010101010101ULL)
    if (b0 & ~b1) | b2:
        return
    pungs = b0 & b1
    pairs = b1 & ~b0
    # one honor pair exactly when the honors hold the pair (none otherwise)
    if (pairs & (pairs - 1)) or (pairs != 0) != (pair_comp == 3):
        return
    if pairs:
        x.pair = 27 + mj_ctz64(pairs)
    # the honor pungs as four groups, lowest first (the slots past the last one hold tile 34, never
    # read: 14 tiles hold at most four pungs), copied whole into every reading below
    for i in range(4):
        n_hon += pungs != 0
        hon[i].shape = SH_PUNG
        hon[i].first = <uint8_t> (27 + mj_ctz64(pungs | 0x80))
        hon[i].exposed = 0
        pungs &= pungs - 1
    for k in range(3):
        if x.sum14[k] == 0:
            first[k] = 0        # the empty suit's one split (key 0, rank 0): no group
            count[k] = 1
            continue
        count[k] = _suit_splits(_b5(c + 9 * k), &first[k])
        if count[k] == 0:
            return
    x.form = FORM_STANDARD
    memcpy(x.g, x.melds, sizeof(Grp) * 4)
    # the facts of the groups every reading shares (the declared ones, first, and the honor pungs,
    # last: the suits' groups between them are as many in every reading); a suit split's own are
    # in its table entry (a loop over the four groups of each reading cost about 90 instructions)
    _no_group_facts(&base)
    _group_facts(x, x.melds, x.n_melds, 0, &base)
    _group_facts(x, hon, n_hon, 4 - n_hon, &base)
    gf.dragons = base.dragons
    gf.prevalent = base.prevalent
    gf.seat = base.seat
    for d0 in range(first[0], first[0] + count[0]):
        s0 = &SPLITS[d0]
        for d1 in range(first[1], first[1] + count[1]):
            s1 = &SPLITS[d1]
            for d2 in range(first[2], first[2] + count[2]):
                s2 = &SPLITS[d2]
                depth = _put_suit_split(x, s0, 0, x.n_melds)
                gf.yj = base.yj | (<uint32_t> s0.yj << x.n_melds) | (<uint32_t> s1.yj << depth)
                depth = _put_suit_split(x, s1, 9, depth)
                gf.yj |= <uint32_t> s2.yj << depth
                depth = _put_suit_split(x, s2, 18, depth)
                # the honor pungs: all four slots copied (depth + 4 <= 8, x.g's spare slots), no
                # loop over their number
                memcpy(&x.g[depth], hon, sizeof(Grp) * 4)
                gf.props = base.props & s0.props & s1.props & s2.props
                gf.n_conc = base.n_conc + s0.pungs + s1.pungs + s2.pungs
                _score_decomposition(x, &gf)


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
    if _any_above(x.c14, 1):
        return      # 全不靠: 14 distinct kinds
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
    if x.n_melds > 1 or mj_popcount64(x.pm14 & ~M_HONOR) < 9:
        return      # a knitted pattern is 9 distinct suit kinds
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
