# Included by _fan.pyx.  Shape questions of the fan evaluator: completeness by shape with
# counts up to 5 (a fifth copy is a legal question for the wait set, D8), on _hand's 5**9 suit
# bitset, and the unique-wait test of D8 on _hand's waits (hand_waits, _hand.pxd).

cdef inline bint _suit_bit(uint32_t x) noexcept nogil:
    return (SUIT_BITS[x >> 3] >> (x & 7)) & 1


# ---------------------------------------------------------------------------
# Completeness (shape only; counts up to 5 allowed, for the wait set D8)
# ---------------------------------------------------------------------------
cdef inline uint32_t _b5(const uint8_t* c) noexcept nogil:
    """The base-5 value of 9 counts, c[0] lowest (counts 0-4 give the keys of the suit tables);
    the digits are paired up in SWAR lanes: 2 per 16 bits, 4 per 32, then 8 and the ninth."""
    cdef uint64_t w = _load8(c)
    w = (w & 0x00FF00FF00FF00FFULL) + ((w >> 8) & 0x00FF00FF00FF00FFULL) * 5u
    w = (w & 0x0000FFFF0000FFFFULL) + ((w >> 16) & 0x0000FFFF0000FFFFULL) * 25u
    return <uint32_t> ((w & 0xFFFFFFFFULL) + (w >> 32) * 625u + c[8] * 390625u)


cdef bint _suit_split(uint8_t* c, int i, bint need_pair) noexcept nogil:
    """Slow path (a count of 5): can suit counts c[i:9] split into groups (+ the pair)?"""
    cdef bint ok
    while i < 9 and c[i] == 0:
        i += 1
    if i == 9:
        return not need_pair
    if need_pair and c[i] >= 2:
        c[i] -= 2
        ok = _suit_split(c, i, False)
        c[i] += 2
        if ok:
            return True
    if c[i] >= 3:
        c[i] -= 3
        ok = _suit_split(c, i, need_pair)
        c[i] += 3
        if ok:
            return True
    if i <= 6 and c[i + 1] and c[i + 2]:
        c[i] -= 1
        c[i + 1] -= 1
        c[i + 2] -= 1
        ok = _suit_split(c, i, need_pair)
        c[i] += 1
        c[i + 1] += 1
        c[i + 2] += 1
        if ok:
            return True
    return False


cdef inline bint _comp_complete(const uint8_t* c, int k) noexcept nogil:
    """Component k (suits 0-2, honors 3) splits into groups and, if its size is
    2 mod 3, one pair.  Counts may be up to 5."""
    cdef int i, n = 0
    if k < 3:
        for i in range(9):
            n += c[9 * k + i]
        if n % 3 == 1:
            return False
        return _suit_complete(c + 9 * k, n)
    for i in range(27, 34):
        n += c[i]
    if n % 3 == 1:
        return False
    return _honors_complete(c + 27, n)


cdef inline bint _standard_complete(const uint8_t* c) noexcept nogil:
    """Standard form over all components: exactly one component holds the pair."""
    cdef int sums[4]
    _component_sums(c, sums)
    return _standard_complete_sums(c, sums)


cdef inline bint _knitted_complete(const uint8_t* c) noexcept nogil:
    """Knitted-straight form (D3): one pattern's 9 tiles + a standard rest."""
    cdef uint8_t rest[34]
    cdef int k, i
    for k in range(6):
        for i in range(9):
            if c[KNITTED_PATTERNS[k][i]] == 0:
                break
        else:
            memcpy(rest, c, N_KINDS)
            for i in range(9):
                rest[KNITTED_PATTERNS[k][i]] -= 1
            if _standard_complete(rest):
                return True
    return False


cdef inline bint _unique_wait(Ctx* x) noexcept nogil:
    if x.unique_wait < 0:
        x.unique_wait = not _other_wait(x)
    return x.unique_wait


cdef inline uint64_t _load8(const uint8_t* p) noexcept nogil:
    cdef uint64_t w
    memcpy(&w, p, 8)
    return w


# The kinds held and "some count above v" of 34 counts: two 16-byte compares and their byte masks
# where SSE2 is there (every x86-64), a third of the instructions of the 8-byte SWAR words below,
# which stay the portable fallback.  Both read c[0..33] only.
cdef extern from *:
    """
    #include "bits.h"
    static inline uint64_t mjf_nz8(uint64_t w)
    {
        uint64_t h = (w | ((w & 0x7F7F7F7F7F7F7F7FULL) + 0x7F7F7F7F7F7F7F7FULL)) & 0x8080808080808080ULL;
        return ((h >> 7) * 0x0102040810204080ULL) >> 56;
    }
    MJ_INLINE uint64_t mjf_nonzero34(const uint8_t *c)
    {
    #ifdef MJ_SSE2
        const __m128i z = _mm_setzero_si128();
        uint32_t none = (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)c), z))
                      | (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)(c + 16)), z)) << 16;
        return (uint64_t)(uint32_t)~none | (uint64_t)(c[32] != 0) << 32 | (uint64_t)(c[33] != 0) << 33;
    #else
        return mjf_nz8(mj_load8(c)) | mjf_nz8(mj_load8(c + 8)) << 8 | mjf_nz8(mj_load8(c + 16)) << 16
             | mjf_nz8(mj_load8(c + 24)) << 24 | (uint64_t)(c[32] != 0) << 32 | (uint64_t)(c[33] != 0) << 33;
    #endif
    }
    MJ_INLINE int mjf_any_above34(const uint8_t *c, uint8_t v)
    {
    #ifdef MJ_SSE2
        /* a byte above v is one whose saturating difference with v is not 0 */
        const __m128i t = _mm_set1_epi8((char)v);
        __m128i d = _mm_or_si128(_mm_subs_epu8(_mm_loadu_si128((const __m128i *)c), t),
                                 _mm_subs_epu8(_mm_loadu_si128((const __m128i *)(c + 16)), t));
        return _mm_movemask_epi8(_mm_cmpeq_epi8(d, _mm_setzero_si128())) != 0xFFFF || c[32] > v || c[33] > v;
    #else
        /* (v < 128) a byte's low 7 bits + (127 - v) reach bit 7 without a carry into the next byte,
           and bit 7 itself is a count of 128 or more */
        uint64_t rep = 0x0101010101010101ULL * (uint64_t)(127 - v), lo = 0x7F7F7F7F7F7F7F7FULL, a = 0, w;
        int i;
        for (i = 0; i < 32; i += 8) {
            w = mj_load8(c + i);
            a |= w | ((w & lo) + rep);
        }
        return (a & 0x8080808080808080ULL) != 0 || c[32] > v || c[33] > v;
    #endif
    }
    """
    uint64_t mjf_nonzero34(const uint8_t* c) noexcept nogil
    bint mjf_any_above34(const uint8_t* c, uint8_t v) noexcept nogil


cdef inline uint64_t _nonzero_mask(const uint8_t* c) noexcept nogil:
    """Bit i set when c[i] != 0 (i < 34)."""
    return mjf_nonzero34(c)


cdef inline uint64_t _four_mask(const uint8_t* c) noexcept nogil:
    """Bit i set when c[i] == 4 (i < 34), for counts 0-4 only: 4 is the one with bit 2 set."""
    return ((((_load8(c) >> 2) & 0x0101010101010101ULL) * 0x0102040810204080ULL) >> 56
            | (((((_load8(c + 8) >> 2) & 0x0101010101010101ULL) * 0x0102040810204080ULL) >> 56) << 8)
            | (((((_load8(c + 16) >> 2) & 0x0101010101010101ULL) * 0x0102040810204080ULL) >> 56) << 16)
            | (((((_load8(c + 24) >> 2) & 0x0101010101010101ULL) * 0x0102040810204080ULL) >> 56) << 24)
            | ((<uint64_t> (c[32] >> 2)) << 32) | ((<uint64_t> (c[33] >> 2)) << 33))


cdef inline bint _standard_complete_sums(const uint8_t* c, const int* sums) noexcept nogil:
    """Standard form with the component sizes known: exactly one component holds the pair."""
    cdef int k, pairs = 0
    for k in range(4):
        if sums[k] % 3 == 1:
            return False
        pairs += sums[k] % 3 == 2
    if pairs != 1:
        return False
    for k in range(3):
        if not _suit_complete(c + 9 * k, sums[k]):
            return False
    return _honors_complete(c + 27, sums[3])


cdef inline bint _suit_complete(const uint8_t* c, int n) noexcept nogil:
    """9 suit counts (each <= 5) of size n split into groups (+ one pair if n = 2 mod 3)."""
    cdef uint8_t tmp[9]
    cdef int i
    if not (((_load8(c) + 0x0303030303030303ULL) & 0x0808080808080808ULL) | (c[8] > 4)):
        return _suit_bit(_b5(c))      # every count <= 4 (counts never exceed 5 here)
    memcpy(tmp, c, 9)
    return _suit_split(tmp, 0, n % 3 == 2)


cdef inline bint _honors_complete(const uint8_t* c, int n) noexcept nogil:
    """7 honor counts (each <= 5): pungs only, plus one pair (or pair + pung = 5) if n = 2 mod 3."""
    cdef int i, v, pairs = 0
    for i in range(7):
        v = c[i]
        if v == 2 or v == 5:
            pairs += 1
        elif v != 0 and v != 3:
            return False
    return pairs == (1 if n % 3 == 2 else 0)


cdef inline uint32_t _byte_sum(uint64_t w) noexcept nogil:
    """Sum of the 8 bytes of w (exact: summed in 16-bit lanes)."""
    w = (w & 0x00FF00FF00FF00FFULL) + ((w >> 8) & 0x00FF00FF00FF00FFULL)
    return <uint32_t> ((w * 0x0001000100010001ULL) >> 48)


cdef inline void _component_sums(const uint8_t* c, int* sums) noexcept nogil:
    sums[0] = <int> (_byte_sum(_load8(c)) + c[8])
    sums[1] = <int> (_byte_sum(_load8(c + 9)) + c[17])
    sums[2] = <int> (_byte_sum(_load8(c + 18)) + c[26])
    sums[3] = <int> _byte_sum(_load8(c + 26) & ~(<uint64_t> 0xFF))     # c[27..33]


cdef inline bint _any_above(const uint8_t* c, uint8_t v) noexcept nogil:
    """Some c[i] > v (i < 34; v < 128)."""
    return mjf_any_above34(c, v)


cdef inline bint _special_wait_possible(const Ctx* x) noexcept nogil:
    """Can one tile complete c13 to a special form of `public`?  Necessary tests, so that the wait
    search skips those forms when they fail: 十三幺 takes orphans only; 全不靠 13 distinct tiles of
    one knitted pattern and the honors; the knitted straight 8 of a pattern's 9 kinds already."""
    cdef uint64_t pm13, miss
    cdef int k
    cdef bint near = False
    if x.n_melds > 1:
        return False    # before the mask: most calls with declared groups stop here
    pm13 = _nonzero_mask(x.c13)
    for k in range(6):
        # 8 of the pattern's 9 kinds held: at most one of them missing (a test of the missing set,
        # not a bit count: a baseline x86-64 build has no POPCNT), all six patterns without a branch
        miss = KNITTED_PATTERN_MASKS[k] & ~pm13
        near |= (miss & (miss - 1)) == 0
    if near:
        return True
    if x.n_melds:
        return False
    if (pm13 & ~ORPHAN_MASK) == 0:
        return True
    if _any_above(x.c13, 1):
        return False
    for k in range(6):
        if (pm13 & ~M_HONOR & ~KNITTED_PATTERN_MASKS[k]) == 0:
            return True
    return False


cdef bint _other_wait(Ctx* x) noexcept nogil:
    """D8: does some kind t other than the winning tile complete c13 to a winning form
    (by shape only: a kind held four times still counts)?  The winning tile itself
    always does, so the wait is unique iff this is False.  The hand kernels' waits
    (_hand.pxd) answer for every kind held at most three times; a fifth copy of a kind
    held four times is tried here, on the count-5 completeness checks."""
    cdef uint64_t other = x.allowed & ~((<uint64_t> 1) << x.win)
    cdef uint64_t four
    cdef uint8_t tmp[34]
    cdef int t
    if x.n13 == 1:
        return False      # four declared groups: one tile waits for its pair, nothing else
    if hand_waits(x.c13, x.n13, x.special and _special_wait_possible(x), other):
        return True
    # a kind held four times is one of H's (x.pm4), and c13 holds at most four of a kind
    four = _four_mask(x.c13) & other if x.pm4 & other else 0
    while four:
        t = mj_ctz64(four)
        four &= four - 1
        memcpy(tmp, x.c13, N_KINDS)
        tmp[t] += 1
        if _standard_complete(tmp) or (x.special and x.n_melds <= 1 and _knitted_complete(tmp)):
            return True
    return False
