# Included by _fan.pyx.  The splits of every complete suit vector into groups (+ the pair), built
# once at import: the standard form (D4) of a hand is then the product of its three suits' lists
# and the honors' one reading, read off a table instead of searched for on every call.
#
# A suit vector (9 counts 0-4) is keyed by its base-5 value (_b5).  SPLIT_WORD holds _hand's
# completeness bitset as 64-bit words, each beside the number of complete vectors below it (one
# cache line for both), so a complete key's dense rank is one popcount; SPLIT_FIRST[rank] ..
# SPLIT_FIRST[rank + 1] are its splits in SPLITS, in the order of a lowest-kind-first search (pair
# kind ascending, then pung before chow at each kind), each group stored as the Grp it becomes.  21 743 complete vectors have 28 375 splits in all (at most 5 each);
# the import asserts both numbers.

cdef enum:
    SPLIT_KEYS = 1953125            # 5 ** 9 suit vectors
    SPLIT_WORDS = 30518             # ceil(5 ** 9 / 64)
    N_COMPLETE_SUITS = 21743        # complete suit vectors (groups + at most one pair, counts 0-4)
    N_SUIT_SPLITS = 28375           # their splits
    SPLIT_NO_PAIR = 255

ctypedef struct SuitSplit:
    uint8_t pair                    # rank of the pair, or SPLIT_NO_PAIR
    uint8_t n                       # groups
    Grp g[4]                        # concealed groups; `first` is the rank (0-8) of the lowest tile
    # the groups' facts for _score_decomposition (GroupFacts), the same in every suit (a suit
    # tile's properties are its rank's): the AND of their GP_* properties (GP_ALL for none), the
    # 幺九刻 among them as a bit set from the split's first group, its pungs (all concealed)
    uint16_t props
    uint8_t yj
    uint8_t pungs

ctypedef struct SplitWord:
    uint64_t bits                   # bit i: key 64 * word + i is complete
    uint64_t below                  # complete keys below the word

cdef SplitWord SPLIT_WORD[SPLIT_WORDS]
cdef uint16_t SPLIT_FIRST[N_COMPLETE_SUITS + 1]
cdef SuitSplit SPLITS[N_SUIT_SPLITS]


cdef inline int _suit_splits(uint32_t key, int* first) noexcept nogil:
    """Number of splits of the suit vector `key` (0: not complete); the first at SPLITS[first[0]]."""
    cdef const SplitWord* sw = &SPLIT_WORD[key >> 6]
    cdef uint64_t w = sw.bits
    cdef uint32_t r
    if not (w >> (key & 63)) & 1:
        return 0
    r = <uint32_t> sw.below + <uint32_t> mj_popcount64(w & ((((<uint64_t> 1) << (key & 63))) - 1))
    first[0] = SPLIT_FIRST[r]
    return SPLIT_FIRST[r + 1] - SPLIT_FIRST[r]


cdef void _split_facts(SuitSplit* sp) noexcept nogil:
    """The facts of the split's groups (the fields after g), from GROUP_PROPS of suit 0's tiles."""
    cdef int i
    cdef uint32_t gp
    sp.props = GP_ALL
    sp.yj = 0
    sp.pungs = 0
    for i in range(sp.n):
        gp = GROUP_PROPS[sp.g[i].shape][sp.g[i].first]
        sp.props &= gp
        sp.yj |= ((gp >> GP_YJ_BIT) & 1) << i
        sp.pungs += sp.g[i].shape != SH_CHOW


cdef int _collect_splits(uint8_t* c, int i, SuitSplit* cur, int n) noexcept nogil:
    """Append every split of suit counts c[i:9] (groups only, lowest kind first, pung before chow)
    that extends `cur` to SPLITS[n:]; returns the new n (-1 past the table's end)."""
    while i < 9 and c[i] == 0:
        i += 1
    if i == 9:
        if n >= N_SUIT_SPLITS:
            return -1
        SPLITS[n] = cur[0]
        _split_facts(&SPLITS[n])
        return n + 1
    if cur.n == 4:
        return n
    if c[i] >= 3:
        c[i] -= 3
        cur.g[cur.n].shape = SH_PUNG
        cur.g[cur.n].first = <uint8_t> i
        cur.g[cur.n].exposed = 0
        cur.n += 1
        n = _collect_splits(c, i, cur, n)
        cur.n -= 1
        c[i] += 3
        if n < 0:
            return n
    if i <= 6 and c[i + 1] and c[i + 2]:
        c[i] -= 1
        c[i + 1] -= 1
        c[i + 2] -= 1
        cur.g[cur.n].shape = SH_CHOW
        cur.g[cur.n].first = <uint8_t> i
        cur.g[cur.n].exposed = 0
        cur.n += 1
        n = _collect_splits(c, i, cur, n)
        cur.n -= 1
        c[i] += 1
        c[i + 1] += 1
        c[i + 2] += 1
    return n


cdef _build_suit_splits(const uint8_t* win_bits):
    """Fill the split tables from _hand's completeness bitset (bit x: suit vector x complete)."""
    cdef uint32_t key, k, word, rank = 0
    cdef int i, p, n = 0, total
    cdef uint8_t c[9]
    cdef SuitSplit cur
    memset(&cur, 0, sizeof(cur))
    memset(SPLIT_WORD, 0, sizeof(SPLIT_WORD))
    for key in range(SPLIT_KEYS):
        if (win_bits[key >> 3] >> (key & 7)) & 1:
            SPLIT_WORD[key >> 6].bits |= (<uint64_t> 1) << (key & 63)
    for word in range(SPLIT_WORDS):
        SPLIT_WORD[word].below = rank
        rank += <uint32_t> mj_popcount64(SPLIT_WORD[word].bits)
    assert rank == N_COMPLETE_SUITS, rank
    rank = 0
    for key in range(SPLIT_KEYS):
        if not (SPLIT_WORD[key >> 6].bits >> (key & 63)) & 1:
            continue
        SPLIT_FIRST[rank] = <uint16_t> n
        rank += 1
        k = key
        total = 0
        for i in range(9):
            c[i] = <uint8_t> (k % 5)
            k //= 5
            total += c[i]
        cur.n = 0
        if total % 3 == 2:
            for p in range(9):
                if c[p] >= 2:
                    c[p] -= 2
                    cur.pair = <uint8_t> p
                    n = _collect_splits(c, 0, &cur, n)
                    c[p] += 2
                    assert n >= 0
        else:
            cur.pair = SPLIT_NO_PAIR
            n = _collect_splits(c, 0, &cur, n)
            assert n >= 0
        assert <int> SPLIT_FIRST[rank - 1] < n, key     # a complete vector has a split
    SPLIT_FIRST[rank] = <uint16_t> n
    assert n == N_SUIT_SPLITS, n
    # spot checks: the empty suit (one split, no group), 11123455678999 (the nine gates + 5)
    assert _suit_splits(0, &i) == 1 and SPLITS[i].n == 0 and SPLITS[i].pair == SPLIT_NO_PAIR
    c[:] = [3, 1, 1, 1, 2, 1, 1, 1, 3]
    assert _suit_splits(_b5(c), &i) >= 1
