# cython: language_level=3
"""Compiled core: win check, waiting tiles and shanten over tile-count arrays.

Private module; the public, documented API is :mod:`mahjong_core.hand`.

Tables (built once at import by :func:`_build_tables`, read-only afterwards)
--------------------------------------------------------------------------
The standard form (groups + one pair) splits into four independent
*components*: the three suits (9 kinds each) and the honors (7 kinds).  For a
component vector ``h`` and a target of ``m`` groups and ``p`` pairs (m 0-4,
p 0-1) the *distance* is the fewest tiles that must come in from outside so
that the component contains such a target::

    dist(h, m, p) = min over targets T of  sum_i max(0, T[i] - h[i])

with every target count ``T[i] <= 4`` (no fifth copy is ever assumed).  The
whole hand's distance to ``M`` groups + 1 pair is the min-plus convolution of
the four components' rows, and ``shanten = distance - 1`` (this is the
"number of tiles to exchange" formulation of tomohxx/shanten-number, with the
tables computed here instead of shipped).

* Suit vectors are indexed by their *rank* among the 405 350 vectors with
  entries 0-4 and sum <= 14, in increasing base-5 order
  (``x = sum c[i] * 5**i``).  ``SUIT_DIST[rank*10 + 2*m + p]`` holds the
  distance, ``SUIT_INFO[rank]`` bit 0 = the vector is complete (splits into
  groups and at most one pair, as its size mod 3 demands), bits 1-9 = the
  kinds ``t`` with ``c[t] < 4`` such that ``c + t`` is complete (its waits),
  bits 10-18 = the kinds ``t`` held such that ``c - t`` is complete, bits 19-27
  = the kinds ``t`` held such that ``c - t`` has a wait.  The last two answer
  the 报听 discards of a component with one lookup instead of a rank and a
  lookup per held kind.
* Honor vectors (no chows) are indexed directly by base 5 (78 125 rows) in
  ``HONOR_DIST`` / ``HONOR_INFO`` with the same layout (7 bits per field).
* ``SUIT_LOWER[rank*10 + 2*m + p]`` (bits 0-8) and ``HONOR_LOWER[index*10 + 2*m + p]``
  (bits 0-6): the kinds ``t`` with ``c[t] < 4`` whose addition lowers that distance (the
  discard evaluation reads off the tiles that improve a hand from them).
* ``SUIT_WIN_BITS`` is a bitset over all 5**9 base-5 suit indices: bit x set
  when vector x is complete.  It makes the batch win check a few arithmetic
  operations and three bit tests per hand.

How they are computed: for each (m, p) every exact target is enumerated and
marked; the marks are closed downwards (``sub[x]``: x is contained in some
target); then ``g[x] = |x|`` if ``sub[x]`` else ``max_i g[x - e_i]`` is the
largest overlap of x with a target, and ``dist = 3m + 2p - g``.
"""

from libc.stdint cimport uint8_t, uint16_t, uint32_t, uint64_t, int8_t
from libc.stdlib cimport malloc, calloc, free
from libc.string cimport memset, memcpy, memcmp
from mahjong_core._bits cimport (
    mj_ctz64, mj_popcount64, mj_byte_bits8, mj_byte_sum8, mj_byte_nonzero8, mj_byte_halves_sum8,
)
from mahjong_core._mahjong_constants cimport (
    N_KINDS, ORPHAN_KINDS, ORPHAN_MASK, KNITTED_PATTERNS, KNITTED_PATTERN_MASKS, FORM_THIRTEEN_ORPHANS,
)
from cpython.long cimport PyLong_AsLongLongAndOverflow
from mahjong_core._count_buffer cimport load_counts
cimport numpy as cnp

import numpy as np

cnp.import_array()

from mahjong_core._validate import as_flag as _as_flag, as_int as _as_int
from mahjong_core.families.mahjong._constants import TILE_SHORT_NAMES as _SHORT
from mahjong_core.families.mahjong.constants import FAMILY_NAME as _FAMILY
from mahjong_core.errors import (
    ArrayShapeError,
    HandSizeError,
    MahjongError,
    RulesetError,
    TileCountError,
    TileParseError,
)
from mahjong_core.rulesets import RULESETS as _RULESETS, get_ruleset as _get_ruleset
from mahjong_core.rulesets import DEFAULT_RULESET as _DEFAULT_RULESET
from sys import intern as _intern
from mahjong_core.families.mahjong._constants import FORM_NAMES as _FORM_NAMES
from mahjong_core.families import registry as _registry
from mahjong_core.tiles import (
    _short_repr,
    format_counts as _format_counts,
    parse_hand as _parse_hand,
    tile_kind as _tile_kind,
    to_counts as _to_counts,
)

cdef enum:
    SUIT_DIGITS = 9
    HONOR_DIGITS = 7
    SUIT_SPACE = 1953125      # 5 ** 9
    HONOR_SPACE = 78125       # 5 ** 7
    SUIT_RANKED = 405350      # suit vectors with entries 0-4 and sum <= 14
    MAX_TILES = 14
    MAX_GROUPS = 4
    DIST_ROW = 10             # [2*m + p], m = 0..4 groups, p = 0..1 pairs
    N_PATTERNS = 6            # knitted patterns
    BIG = 99
    SUIT_WIN_BYTES = 244141   # ceil(5 ** 9 / 8)

# fields of an info word (SUIT_INFO / HONOR_INFO): bit 0 complete, then three kind sets at these
# shifts (9 bits for a suit, 7 for the honors)
cdef enum:
    INFO_WAITS = 1            # the kinds whose addition completes the component
    INFO_REM_COMPLETE = 10    # the held kinds whose removal leaves it complete
    INFO_REM_WAIT = 19        # the held kinds whose removal leaves it with a wait
    INFO_FIELD = 0x1FF
    INFO_EMPTY = 1            # the empty component: complete, nothing to add or remove
    INFO_UNREAD = 0x7FFFFFFF  # no info word has it (bits 28-31 are clear): "not looked up yet"

# error codes of the nogil validators
cdef enum:
    OK = 0
    ERR_COUNT = 1             # a count above 4
    ERR_RULESET = 2           # a tile the ruleset does not play with
    ERR_SIZE = 3              # wrong number of tiles for the question

# question kinds (what hand size is legal)
cdef enum:
    Q_WIN = 0                 # 3k+2 tiles
    Q_WAIT = 1                # 3k+1 tiles
    Q_SHANTEN = 2             # 3k+1 or 3k+2 tiles
    Q_READY = 3               # 3k+2 tiles (the discards that leave a waiting hand)

# ---------------------------------------------------------------------------
# Tables (written only by _build_tables at import time)
# ---------------------------------------------------------------------------
cdef uint32_t RANK_T[9][15][5]
# RANK_T2[p][s][5 * c[2p+1] + c[2p]]: the rank terms of digits 2p+1 and 2p together (s: the sum
# of the digits above them), so that a rank takes five lookups instead of nine
cdef uint32_t RANK_T2[4][15][25]
# KNIT_CLASS_MAX[m]: for the held kinds m (9 bits) of a suit, the most kinds of one rank class
# (1-4-7, 2-5-8, 3-6-9) held: a knitted pattern takes one class of each suit, so the three suits'
# maxima bound the pattern tiles held
cdef uint8_t KNIT_CLASS_MAX[512]
cdef uint8_t SUIT_DIST[SUIT_RANKED * DIST_ROW]
cdef uint32_t SUIT_INFO[SUIT_RANKED]
cdef uint8_t SUIT_WIN_BITS[SUIT_WIN_BYTES]
cdef uint8_t HONOR_DIST[HONOR_SPACE * DIST_ROW]
cdef uint32_t HONOR_INFO[HONOR_SPACE]
cdef uint16_t SUIT_LOWER[SUIT_RANKED * DIST_ROW]
cdef uint8_t HONOR_LOWER[HONOR_SPACE * DIST_ROW]

cdef uint32_t POW5[10]
cdef int POW3[4]
# MOD3[x] = x % 3 for a component size (0-14, and 2 more for a residue shifted by 2): a load
# where the compiler would vectorise four divisions with shuffles in and out
cdef uint8_t MOD3[17]
# WAIT_PATTERN[r0 + 3*r1 + 9*r2 + 27*r3], r_k the size mod 3 of component k of a 3k+1 hand: 0 when
# the sizes allow no standard wait; else pattern | a << 2 | b << 4 -- pattern 1: one 1 and the
# rest 0, a = b = that component (it takes the tile and makes the pair); pattern 2: two 2s and the
# rest 0, a < b those two (one is completed by the tile, the other keeps the pair)
cdef uint8_t WAIT_PATTERN[81]
cdef uint64_t HONOR_MASK = (<uint64_t> 0x7F) << 27   # kinds 27-33


cdef void _mark_targets(uint8_t* mark, uint8_t* vec, int digits, bint chows,
                        int groups_left, int first_group, bint pair,
                        uint8_t* complete) noexcept nogil:
    """Mark every target with `groups_left` more groups (index >= first_group,
    so each multiset once) and `pair` pairs.  Groups 0..digits-1 are pungs,
    digits.. are chows starting at (group - digits)."""
    cdef int g, k, i, n_groups
    cdef uint32_t x
    if groups_left == 0:
        if pair:
            for k in range(digits):
                if vec[k] + 2 <= 4:
                    vec[k] += 2
                    _mark_targets(mark, vec, digits, chows, 0, 0, False, complete)
                    vec[k] -= 2
            return
        x = 0
        for i in range(digits - 1, -1, -1):
            x = x * 5 + vec[i]
        mark[x] = 1
        complete[x] = 1
        return
    n_groups = digits + (digits - 2 if chows else 0)
    for g in range(first_group, n_groups):
        if g < digits:
            if vec[g] + 3 <= 4:
                vec[g] += 3
                _mark_targets(mark, vec, digits, chows, groups_left - 1, g, pair, complete)
                vec[g] -= 3
        else:
            k = g - digits
            if vec[k] < 4 and vec[k + 1] < 4 and vec[k + 2] < 4:
                vec[k] += 1
                vec[k + 1] += 1
                vec[k + 2] += 1
                _mark_targets(mark, vec, digits, chows, groups_left - 1, g, pair, complete)
                vec[k] -= 1
                vec[k + 1] -= 1
                vec[k + 2] -= 1


cdef inline void _odometer_inc(uint8_t* d, int digits) noexcept nogil:
    cdef int i = 0
    while i < digits:
        if d[i] < 4:
            d[i] += 1
            return
        d[i] = 0
        i += 1


cdef inline void _odometer_dec(uint8_t* d, int digits) noexcept nogil:
    cdef int i = 0
    while i < digits:
        if d[i] > 0:
            d[i] -= 1
            return
        d[i] = 4
        i += 1


cdef inline uint32_t _suit_rank(const uint8_t* c) noexcept nogil:
    """Rank of a suit vector (sum <= 14) among all such vectors in base-5 order."""
    cdef uint32_t r = RANK_T[8][0][c[8]]
    cdef int s = c[8]
    cdef int p
    for p in range(3, -1, -1):
        r += RANK_T2[p][s][5 * c[2 * p + 1] + c[2 * p]]
        s += c[2 * p + 1] + c[2 * p]
    return r


cdef int _build_space(int digits, bint chows, uint8_t* dist_out, uint32_t* info_out,
                      uint8_t* winbits_out, bint ranked, uint16_t* lower16, uint8_t* lower8) noexcept nogil:
    """Fill the distance, info and lowering tables of one component kind (the lowering masks
    go to lower16 or to lower8).  Returns the number of rows written (vectors with sum <= 14),
    or -1 on allocation failure."""
    cdef uint32_t S = POW5[digits]
    cdef uint8_t* tsum = <uint8_t*> malloc(S)
    cdef uint8_t* sub = <uint8_t*> malloc(S)
    cdef uint8_t* g = <uint8_t*> malloc(S)
    cdef uint8_t* complete = <uint8_t*> calloc(S, 1)
    cdef uint32_t* row_of = <uint32_t*> malloc(S * sizeof(uint32_t))
    cdef uint8_t d[9]
    cdef uint8_t vec[9]
    cdef uint32_t x, rows = 0
    cdef int m, p, L, i, best, t
    cdef uint32_t info
    cdef uint16_t low[DIST_ROW]
    cdef uint32_t row, row2, e
    if tsum == NULL or sub == NULL or g == NULL or complete == NULL or row_of == NULL:
        free(tsum); free(sub); free(g); free(complete); free(row_of)
        return -1
    memset(d, 0, 9)
    for x in range(S):
        L = 0
        for i in range(digits):
            L += d[i]
        tsum[x] = <uint8_t> L
        if L <= MAX_TILES:
            row_of[x] = rows
            rows += 1
        else:
            row_of[x] = 0xFFFFFFFF
        _odometer_inc(d, digits)

    for m in range(MAX_GROUPS + 1):
        for p in range(2):
            L = 3 * m + 2 * p
            memset(sub, 0, S)
            memset(vec, 0, 9)
            _mark_targets(sub, vec, digits, chows, m, 0, p == 1, complete)
            # close downwards: x is inside a target if some x + e_i is
            for i in range(digits):
                d[i] = 4
            x = S
            while x > 0:
                x -= 1
                if tsum[x] < L and not sub[x]:
                    for i in range(digits):
                        if d[i] < 4 and sub[x + POW5[i]]:
                            sub[x] = 1
                            break
                _odometer_dec(d, digits)
            # g[x] = largest overlap of x with a target
            memset(d, 0, 9)
            for x in range(S):
                if tsum[x] <= MAX_TILES:
                    if sub[x]:
                        g[x] = tsum[x]
                    else:
                        best = 0
                        for i in range(digits):
                            if d[i] > 0 and g[x - POW5[i]] > best:
                                best = g[x - POW5[i]]
                        g[x] = <uint8_t> best
                    dist_out[(row_of[x] if ranked else x) * DIST_ROW + 2 * m + p] = <uint8_t> (L - g[x])
                _odometer_inc(d, digits)

    # info: complete bit, the wait mask and the removal masks; the win bitset.  In increasing x
    # every x - e_t comes before x, so its info word (its waits) is already written.
    memset(d, 0, 9)
    for x in range(S):
        if complete[x] and winbits_out != NULL:
            winbits_out[x >> 3] |= <uint8_t> (1 << (x & 7))
        if tsum[x] <= MAX_TILES:
            info = 1 if complete[x] else 0
            if tsum[x] < MAX_TILES:
                for t in range(digits):
                    if d[t] < 4 and complete[x + POW5[t]]:
                        info |= (<uint32_t> 1) << (INFO_WAITS + t)
            for t in range(digits):
                if d[t] > 0:
                    row2 = row_of[x - POW5[t]] if ranked else x - POW5[t]
                    if complete[x - POW5[t]]:
                        info |= (<uint32_t> 1) << (INFO_REM_COMPLETE + t)
                    if (info_out[row2] >> INFO_WAITS) & INFO_FIELD:
                        info |= (<uint32_t> 1) << (INFO_REM_WAIT + t)
            info_out[row_of[x] if ranked else x] = info
            # lowering masks: the kinds t (below 4 copies, room for a tile) with dist(x + t) < dist(x)
            row = row_of[x] if ranked else x
            memset(low, 0, sizeof(low))
            if tsum[x] < MAX_TILES:
                for t in range(digits):
                    if d[t] < 4:
                        row2 = row_of[x + POW5[t]] if ranked else x + POW5[t]
                        for e in range(DIST_ROW):
                            if dist_out[row2 * DIST_ROW + e] < dist_out[row * DIST_ROW + e]:
                                low[e] |= <uint16_t> (1 << t)
            for e in range(DIST_ROW):
                if lower16 != NULL:
                    lower16[row * DIST_ROW + e] = low[e]
                else:
                    lower8[row * DIST_ROW + e] = <uint8_t> low[e]
        _odometer_inc(d, digits)

    free(tsum); free(sub); free(g); free(complete); free(row_of)
    return <int> rows


cdef void _build_wait_patterns() noexcept nogil:
    cdef int code, k, r, n1, n2, a, b
    for k in range(4):
        POW3[k] = 1 if k == 0 else POW3[k - 1] * 3
    for k in range(17):
        MOD3[k] = <uint8_t> (k % 3)
    for code in range(81):
        n1 = 0
        n2 = 0
        a = -1
        b = -1
        for k in range(4):
            r = (code // POW3[k]) % 3
            if r == 1:
                n1 += 1
                a = k
                b = k
            elif r == 2:
                n2 += 1
                if a < 0:
                    a = k
                else:
                    b = k
        if n1 == 1 and n2 == 0:
            WAIT_PATTERN[code] = <uint8_t> (1 | a << 2 | b << 4)
        elif n1 == 0 and n2 == 2:
            WAIT_PATTERN[code] = <uint8_t> (2 | a << 2 | b << 4)
        else:
            WAIT_PATTERN[code] = 0


cdef _build_tables():
    """Compute every lookup table.  Called once at import; asserts their sizes."""
    cdef int i, s, c, v, k, rows, p, hi, lo, m
    cdef uint32_t N[10][15]     # N[k][s]: k-digit vectors (0-4) with sum <= s
    cdef uint32_t acc
    cdef uint8_t d[9]
    cdef uint32_t x, r
    POW5[0] = 1
    for i in range(1, 10):
        POW5[i] = POW5[i - 1] * 5
    assert POW5[9] == SUIT_SPACE and POW5[7] == HONOR_SPACE
    # N[k][s] by the recurrence N[k][s] = sum_v N[k-1][s-v]
    for s in range(15):
        N[0][s] = 1
    for k in range(1, 10):
        for s in range(15):
            acc = 0
            for v in range(5):
                if s - v >= 0:
                    acc += N[k - 1][s - v]
            N[k][s] = acc
    assert N[9][14] == SUIT_RANKED, N[9][14]
    for i in range(9):
        for s in range(15):
            acc = 0
            for c in range(5):
                RANK_T[i][s][c] = acc
                if 14 - s - c >= 0:
                    acc += N[i][14 - s - c]
    for p in range(4):
        for s in range(15):
            for hi in range(5):
                for lo in range(5):
                    # a pair past the sum of 14 never occurs in a ranked vector
                    RANK_T2[p][s][5 * hi + lo] = (RANK_T[2 * p + 1][s][hi] + RANK_T[2 * p][s + hi][lo]
                                                  if s + hi <= 14 else 0)
    for m in range(512):
        KNIT_CLASS_MAX[m] = 0
        for c in range(3):
            v = ((m >> c) & 1) + ((m >> (c + 3)) & 1) + ((m >> (c + 6)) & 1)
            if v > KNIT_CLASS_MAX[m]:
                KNIT_CLASS_MAX[m] = v
    _build_wait_patterns()
    memset(SUIT_WIN_BITS, 0, sizeof(SUIT_WIN_BITS))
    with nogil:
        rows = _build_space(SUIT_DIGITS, True, SUIT_DIST, SUIT_INFO, SUIT_WIN_BITS, True,
                            SUIT_LOWER, NULL)
    assert rows == SUIT_RANKED, rows
    with nogil:
        rows = _build_space(HONOR_DIGITS, False, HONOR_DIST, HONOR_INFO, NULL, False,
                            NULL, HONOR_LOWER)
    assert rows == 43130, rows   # honor vectors with sum <= 14
    # the arithmetic rank agrees with the enumeration order
    memset(d, 0, 9)
    r = 0
    for x in range(SUIT_SPACE):
        s = 0
        for i in range(9):
            s += d[i]
        if s <= MAX_TILES:
            assert _suit_rank(d) == r
            r += 1
        _odometer_inc(d, 9)
    # spot checks of the definitions
    assert SUIT_DIST[0 * DIST_ROW + 2 * 4 + 1] == 14     # empty suit: 4 groups + pair = 14 tiles
    assert SUIT_INFO[0] == INFO_EMPTY and HONOR_INFO[0] == INFO_EMPTY
    # the arithmetic pattern test agrees with the pattern table
    cdef uint8_t probe[34]
    for k in range(N_PATTERNS):
        memset(probe, 0, 34)
        for i in range(9):
            probe[KNITTED_PATTERNS[k][i]] = 1
        assert _knitted_present(probe) == 1 << k, (k, _knitted_present(probe))


_build_tables()


def table_info():
    """Sizes of the lookup tables in bytes (for docs and the memory benchmark)."""
    return {
        "suit_rows": SUIT_RANKED,
        "suit_dist_bytes": sizeof(SUIT_DIST),
        "suit_info_bytes": sizeof(SUIT_INFO),
        "suit_win_bits_bytes": sizeof(SUIT_WIN_BITS),
        "honor_rows": HONOR_SPACE,
        "honor_dist_bytes": sizeof(HONOR_DIST),
        "honor_info_bytes": sizeof(HONOR_INFO),
        "suit_lower_bytes": sizeof(SUIT_LOWER),
        "honor_lower_bytes": sizeof(HONOR_LOWER),
        "total_bytes": sizeof(SUIT_DIST) + sizeof(SUIT_INFO) + sizeof(SUIT_WIN_BITS)
                       + sizeof(HONOR_DIST) + sizeof(HONOR_INFO) + sizeof(RANK_T) + sizeof(RANK_T2)
                       + sizeof(SUIT_LOWER) + sizeof(HONOR_LOWER) + sizeof(WAIT_PATTERN)
                       + sizeof(KNIT_CLASS_MAX),
    }


# ---------------------------------------------------------------------------
# Kernels (noexcept nogil, pointer to 34 counts)
# ---------------------------------------------------------------------------
cdef inline uint32_t _b5_suit(const uint8_t* c) noexcept nogil:
    return ((((((((c[8] * 5u + c[7]) * 5u + c[6]) * 5u + c[5]) * 5u + c[4]) * 5u
              + c[3]) * 5u + c[2]) * 5u + c[1]) * 5u + c[0])


cdef inline uint32_t _b5_honor(const uint8_t* c) noexcept nogil:
    return (((((c[6] * 5u + c[5]) * 5u + c[4]) * 5u + c[3]) * 5u + c[2]) * 5u + c[1]) * 5u + c[0]


cdef inline int _sum(const uint8_t* c, int n) noexcept nogil:
    cdef int s = 0, i
    for i in range(n):
        s += c[i]
    return s


cdef inline bint _residues_ok(int s0, int s1, int s2, int s3) noexcept nogil:
    """Component sizes allow groups + exactly one pair: every size 0 or 2 mod 3, one of them 2.
    One combined test instead of a branch per component (random hands mispredict those)."""
    cdef int r0 = s0 % 3, r1 = s1 % 3, r2 = s2 % 3, r3 = s3 % 3
    return not ((r0 == 1) | (r1 == 1) | (r2 == 1) | (r3 == 1)
                | (((r0 == 2) + (r1 == 2) + (r2 == 2) + (r3 == 2)) != 1))


cdef inline bint _components_complete(const uint8_t* c) noexcept nogil:
    """Every component splits into groups (and its pair) -- the table lookups."""
    cdef uint32_t x = _b5_suit(c)
    if not (SUIT_WIN_BITS[x >> 3] >> (x & 7)) & 1:
        return False
    x = _b5_suit(c + 9)
    if not (SUIT_WIN_BITS[x >> 3] >> (x & 7)) & 1:
        return False
    x = _b5_suit(c + 18)
    if not (SUIT_WIN_BITS[x >> 3] >> (x & 7)) & 1:
        return False
    return HONOR_INFO[_b5_honor(c + 27)] & 1


cdef inline bint _standard_complete(const uint8_t* c) noexcept nogil:
    """Groups + exactly one pair over all four components (3k+2 tiles)."""
    return (_residues_ok(_sum(c, 9), _sum(c + 9, 9), _sum(c + 18, 9), _sum(c + 27, 7))
            and _components_complete(c))


cdef inline bint _seven_pairs_complete(const uint8_t* c, int n) noexcept nogil:
    cdef int i
    cdef uint8_t odd = 0
    if n != 14:
        return False
    for i in range(N_KINDS):        # branchless: random hands would mispredict an early exit
        odd |= c[i]
    return not (odd & 1)


cdef inline bint _thirteen_orphans_complete(const uint8_t* c, int n) noexcept nogil:
    cdef int i, distinct = 0, inside = 0
    if n != 14:
        return False
    for i in range(13):
        distinct += c[ORPHAN_KINDS[i]] != 0
        inside += c[ORPHAN_KINDS[i]]
    return distinct == 13 and inside == 14


cdef inline int _knitted_distinct(const uint8_t* c, int k) noexcept nogil:
    """Distinct kinds of pattern k plus honors held (each counted once)."""
    cdef int i, distinct = 0
    for i in range(9):
        distinct += c[KNITTED_PATTERNS[k][i]] > 0
    for i in range(27, 34):
        distinct += c[i] > 0
    return distinct


cdef inline bint _honors_knitted_complete(const uint8_t* c, int n) noexcept nogil:
    cdef int i, k
    cdef uint8_t dup = 0
    if n != 14:
        return False
    for i in range(N_KINDS):
        dup |= c[i] >> 1
    if dup:
        return False
    for k in range(N_PATTERNS):
        if _knitted_distinct(c, k) == 14:
            return True
    return False


cdef inline int _knitted_classes(const uint8_t* c) noexcept nogil:
    """3-bit mask of the rank classes (1-4-7, 2-5-8, 3-6-9) held complete in one suit."""
    return ((c[0] != 0) & (c[3] != 0) & (c[6] != 0)) | (((c[1] != 0) & (c[4] != 0) & (c[7] != 0)) << 1) \
        | (((c[2] != 0) & (c[5] != 0) & (c[8] != 0)) << 2)


cdef inline int _knitted_present(const uint8_t* c) noexcept nogil:
    """6-bit mask of the knitted patterns whose 9 tiles are all held: pattern k takes class 0
    in suit perm[k][0], class 1 in perm[k][1], class 2 in perm[k][2] (KNITTED_PATTERNS order)."""
    cdef int m0 = _knitted_classes(c), m1 = _knitted_classes(c + 9), m2 = _knitted_classes(c + 18)
    if not (m0 and m1 and m2):
        return 0
    # bit k: class 0 in suit perm[k][0], class 1 in perm[k][1], class 2 in perm[k][2]
    cdef int a0 = m0 & 1, a1 = m1 & 1, a2 = m2 & 1
    cdef int b0 = (m0 >> 1) & 1, b1 = (m1 >> 1) & 1, b2 = (m2 >> 1) & 1
    cdef int c0 = (m0 >> 2) & 1, c1 = (m1 >> 2) & 1, c2 = (m2 >> 2) & 1
    return ((a0 & b1 & c2) | ((a0 & b2 & c1) << 1) | ((a1 & b0 & c2) << 2)
            | ((a1 & b2 & c0) << 3) | ((a2 & b0 & c1) << 4) | ((a2 & b1 & c0) << 5))


cdef inline bint _knitted_straight_complete(const uint8_t* c, int n) noexcept nogil:
    cdef uint8_t rest[34]
    cdef int i, k
    cdef int present
    if n != 11 and n != 14:
        return False
    present = _knitted_present(c)
    for k in range(N_PATTERNS):
        if not (present >> k) & 1:
            continue
        memcpy(rest, c, N_KINDS)
        for i in range(9):
            rest[KNITTED_PATTERNS[k][i]] -= 1
        if _standard_complete(rest):
            return True
    return False


cdef inline bint _is_win(const uint8_t* c, int n, bint special) noexcept nogil:
    cdef int s0, s1, s2
    cdef bint residues
    if not special:
        return _standard_complete(c) or _seven_pairs_complete(c, n)
    s0 = _sum(c, 9)
    s1 = _sum(c + 9, 9)
    s2 = _sum(c + 18, 9)
    residues = _residues_ok(s0, s1, s2, n - s0 - s1 - s2)
    if (residues and _components_complete(c)) or _seven_pairs_complete(c, n):
        return True
    # Necessary conditions on the suit sizes skip most hands cheaply: thirteen orphans and
    # 全不靠 hold at most 3 tiles of each suit (2 orphans + a duplicate / 3 knitted tiles),
    # the knitted straight at least 3 (the pattern's 3 tiles of each suit).  Removing the
    # knitted pattern takes 3 tiles from each suit, so its rest has the hand's residues.
    if (s0 <= 3 and s1 <= 3 and s2 <= 3
            and (_thirteen_orphans_complete(c, n) or _honors_knitted_complete(c, n))):
        return True
    return residues and s0 >= 3 and s1 >= 3 and s2 >= 3 and _knitted_straight_complete(c, n)


cdef inline void _merge_upto(uint8_t* acc, const uint8_t* row, int groups) noexcept nogil:
    cdef uint8_t out[DIST_ROW]
    cdef int m, m1, b0, b1, v
    for m in range(groups + 1):
        b0 = BIG
        b1 = BIG
        for m1 in range(m + 1):
            v = acc[2 * m1] + row[2 * (m - m1)]
            b0 = v if v < b0 else b0
            v = acc[2 * m1] + row[2 * (m - m1) + 1]
            b1 = v if v < b1 else b1
            v = acc[2 * m1 + 1] + row[2 * (m - m1)]
            b1 = v if v < b1 else b1
        out[2 * m] = <uint8_t> b0
        out[2 * m + 1] = <uint8_t> b1
    memcpy(acc, out, 2 * groups + 2)


cdef inline void _merge(uint8_t* acc, const uint8_t* row, int groups) noexcept nogil:
    """acc := min-plus convolution of acc and row over (groups, pairs), for the entries of at
    most `groups` groups: an entry depends only on entries with no more groups, and no caller
    reads past its target, so the higher ones are left as they were.  (Each group count is its
    own call so that the compiler unrolls the loops: the discard evaluation merges often.)"""
    if groups == 4:
        _merge_upto(acc, row, 4)
    elif groups == 3:
        _merge_upto(acc, row, 3)
    elif groups == 2:
        _merge_upto(acc, row, 2)
    elif groups == 1:
        _merge_upto(acc, row, 1)
    else:
        _merge_upto(acc, row, 0)


cdef inline int _standard_distance(const uint8_t* c, int groups) noexcept nogil:
    cdef uint8_t acc[DIST_ROW]
    memcpy(acc, &SUIT_DIST[_suit_rank(c) * DIST_ROW], DIST_ROW)
    _merge(acc, &SUIT_DIST[_suit_rank(c + 9) * DIST_ROW], groups)
    _merge(acc, &SUIT_DIST[_suit_rank(c + 18) * DIST_ROW], groups)
    _merge(acc, &HONOR_DIST[_b5_honor(c + 27) * DIST_ROW], groups)
    return acc[2 * groups + 1]


cdef inline int _standard_shanten(const uint8_t* c, int n) noexcept nogil:
    if n == 1:
        return 0    # four groups declared: the one tile waits for its pair
    return _standard_distance(c, n // 3) - 1


cdef inline int _seven_pairs_shanten(const uint8_t* c) noexcept nogil:
    # four of a kind counts as two pairs, so pairs = sum(c // 2)
    cdef int i, pairs = 0
    for i in range(N_KINDS):
        pairs += c[i] >> 1
    if pairs > 7:
        pairs = 7
    return 6 - pairs


cdef struct SpecialCounts:
    # what the `public` special forms' shanten needs of a hand, kept up to date tile by tile
    # (the discard evaluation changes one or two tiles of one hand many times)
    int orphans             # orphan kinds held
    int orphan_pairs        # orphan kinds held twice or more
    int knitted[6]          # _knitted_distinct: kinds of knitted pattern k plus honors held
    int missing[6]          # kinds of knitted pattern k not held


cdef inline void _special_counts(const uint8_t* c, SpecialCounts* sc) noexcept nogil:
    cdef int i, k, honors = 0, held
    sc.orphans = 0
    sc.orphan_pairs = 0
    for i in range(13):
        sc.orphans += c[ORPHAN_KINDS[i]] != 0
        sc.orphan_pairs += c[ORPHAN_KINDS[i]] >= 2
    for i in range(27, 34):
        honors += c[i] != 0
    for k in range(N_PATTERNS):
        held = 0
        for i in range(9):
            held += c[KNITTED_PATTERNS[k][i]] != 0
        sc.knitted[k] = held + honors
        sc.missing[k] = 9 - held


cdef inline void _special_counts_change(SpecialCounts* sc, int t, int before, int after) noexcept nogil:
    """Kind t's count goes from `before` to `after`."""
    cdef int k
    cdef int held = (after != 0) - (before != 0)
    if (ORPHAN_MASK >> t) & 1:
        sc.orphans += held
        sc.orphan_pairs += (after >= 2) - (before >= 2)
    if held == 0:
        return
    if t >= 27:
        for k in range(N_PATTERNS):
            sc.knitted[k] += held
        return
    for k in range(N_PATTERNS):
        if (KNITTED_PATTERN_MASKS[k] >> t) & 1:
            sc.knitted[k] += held
            sc.missing[k] -= held


cdef inline int _thirteen_orphans_shanten(const SpecialCounts* sc) noexcept nogil:
    return 13 - sc.orphans - (sc.orphan_pairs != 0)


cdef inline int _honors_knitted_shanten(const SpecialCounts* sc) noexcept nogil:
    cdef int k, most = 0
    for k in range(N_PATTERNS):
        if sc.knitted[k] > most:
            most = sc.knitted[k]
    return 13 - most


cdef inline int _knitted_straight_shanten(const uint8_t* c, int n, int bound, const int* missing) noexcept nogil:
    """min over patterns: missing pattern tiles + distance of the rest to
    (groups - 3) groups + pair, minus one.  Patterns whose missing tiles alone
    reach `bound` + 1 cannot beat `bound` and are skipped (the result is then
    >= bound, which is all the caller needs).  missing[k]: pattern k's kinds not held."""
    cdef uint8_t rest[34]
    cdef int i, k, v, best = BIG
    for k in range(N_PATTERNS):
        if missing[k] - 1 >= bound or missing[k] >= best:
            continue
        memcpy(rest, c, N_KINDS)
        for i in range(9):
            if rest[KNITTED_PATTERNS[k][i]]:
                rest[KNITTED_PATTERNS[k][i]] -= 1
        v = missing[k] + _standard_distance(rest, n // 3 - 3)
        if v < best:
            best = v
    return best - 1


cdef inline int _special_min_counted(const uint8_t* c, int n, int v, const SpecialCounts* sc) noexcept nogil:
    """min(v, the `public` special forms' shanten of c), sc = _special_counts(c); exact when
    below v (the knitted straight skips the patterns that cannot beat v)."""
    cdef int x
    if n >= 13:
        x = _thirteen_orphans_shanten(sc)
        if x < v:
            v = x
        x = _honors_knitted_shanten(sc)
        if x < v:
            v = x
    if n >= 10:
        x = _knitted_straight_shanten(c, n, v, sc.missing)
        if x < v:
            v = x
    return v


cdef inline int _special_min(const uint8_t* c, int n, int v) noexcept nogil:
    """min(v, the `public` special forms' shanten of c); exact when below v."""
    cdef SpecialCounts sc
    _special_counts(c, &sc)
    return _special_min_counted(c, n, v, &sc)


cdef inline int _shanten(const uint8_t* c, int n, bint special) noexcept nogil:
    cdef int best = _standard_shanten(c, n), v
    if n >= 13:
        v = _seven_pairs_shanten(c)
        if v < best:
            best = v
    if special:
        best = _special_min(c, n, best)
    return best


cdef inline uint64_t _held(const uint8_t* c) noexcept nogil:
    """The kinds held, as a 34-bit set (five 8-byte words; the last overlaps the fourth)."""
    return (mj_byte_nonzero8(c) | (mj_byte_nonzero8(c + 8) << 8) | (mj_byte_nonzero8(c + 16) << 16)
            | (mj_byte_nonzero8(c + 24) << 24) | (mj_byte_nonzero8(c + 26) << 26))


cdef inline void _sizes(const uint8_t* c, int* s) noexcept nogil:
    """Tile counts of the four components (suits of 9 kinds: a word and the ninth byte; the
    honors: the word ending at kind 33 less kind 26)."""
    s[0] = mj_byte_sum8(c) + c[8]
    s[1] = mj_byte_sum8(c + 9) + c[17]
    s[2] = mj_byte_sum8(c + 18) + c[26]
    s[3] = mj_byte_sum8(c + 26) - c[26]


cdef inline int _pairs(const uint8_t* c) noexcept nogil:
    """sum(c[i] // 2) over the 34 kinds (a four is two pairs)."""
    return (mj_byte_halves_sum8(c) + mj_byte_halves_sum8(c + 8) + mj_byte_halves_sum8(c + 16)
            + mj_byte_halves_sum8(c + 24) + (c[32] >> 1) + (c[33] >> 1))


cdef inline uint64_t _odd(const uint8_t* c) noexcept nogil:
    """The kinds held an odd number of times, as a 34-bit set."""
    return (mj_byte_bits8(c, 0) | (mj_byte_bits8(c + 8, 0) << 8) | (mj_byte_bits8(c + 16, 0) << 16)
            | (mj_byte_bits8(c + 24, 0) << 24) | (mj_byte_bits8(c + 26, 0) << 26))


cdef inline uint32_t _info(const uint8_t* c, int k, int size) noexcept nogil:
    """The info word of component k of size `size` (an empty one without a lookup)."""
    if size == 0:
        return INFO_EMPTY
    if k < 3:
        return SUIT_INFO[_suit_rank(c + 9 * k)]
    return HONOR_INFO[_b5_honor(c + 27)]


cdef inline uint64_t _info_field(uint32_t info, int shift, int k) noexcept nogil:
    """A kind-set field of component k's info word, as a 34-bit set."""
    return (<uint64_t> ((info >> shift) & INFO_FIELD)) << (9 * k)


cdef inline bint _component_complete(const uint8_t* c, int k, int size) noexcept nogil:
    """Component k (of size `size`) splits into groups and at most one pair: the win bitset,
    smaller than the info table (an empty component without a lookup)."""
    cdef uint32_t x
    if size == 0:
        return True
    if k < 3:
        x = _b5_suit(c + 9 * k)
        return (SUIT_WIN_BITS[x >> 3] >> (x & 7)) & 1
    return HONOR_INFO[_b5_honor(c + 27)] & 1


cdef inline int _residue_code(const int* s) noexcept nogil:
    """The component sizes mod 3 as one base-3 number: the index of WAIT_PATTERN."""
    return MOD3[s[0]] + 3 * MOD3[s[1]] + 9 * MOD3[s[2]] + 27 * MOD3[s[3]]


cdef inline bint _complete_of(const uint8_t* c, int k, const int* s, int8_t* known) noexcept nogil:
    """_component_complete of component k, looked up once per hand (known[k] < 0: not yet)."""
    if known[k] < 0:
        known[k] = _component_complete(c, k, s[k])
    return known[k]


cdef inline uint32_t _info_of(const uint8_t* c, int k, const int* s, uint32_t* known) noexcept nogil:
    """_info of component k, looked up once per hand (known[k] == INFO_UNREAD: not yet)."""
    if known[k] == INFO_UNREAD:
        known[k] = _info(c, k, s[k])
    return known[k]


cdef inline uint64_t _standard_waits_coded(const uint8_t* c, const int* s, int pat) noexcept nogil:
    """_standard_waits of a hand whose WAIT_PATTERN entry is `pat`."""
    cdef int k, a, b
    cdef uint64_t mask = 0
    if not pat:
        return 0
    a = (pat >> 2) & 3
    b = pat >> 4
    # the win bitset first (small, cache-friendly): the info table is read only for a
    # component whose waits can count
    for k in range(4):
        if k != a and k != b and not _component_complete(c, k, s[k]):
            return 0
    if pat & 3 == 1:     # the tile joins component a and makes its pair
        return _info_field(_info(c, a, s[a]), INFO_WAITS, a)
    # two components of size 2 mod 3: the tile completes one, the other keeps the pair
    if _component_complete(c, b, s[b]):
        mask |= _info_field(_info(c, a, s[a]), INFO_WAITS, a)
    if _component_complete(c, a, s[a]):
        mask |= _info_field(_info(c, b, s[b]), INFO_WAITS, b)
    return mask


cdef inline uint64_t _standard_waits(const uint8_t* c, const int* s) noexcept nogil:
    """Waits of the standard form for 3k+1 tiles with component sizes s, from the component
    tables.  The tile must land in a component of size 1 mod 3 (which then takes the pair) or
    2 mod 3 (which then has no pair, while another 2 mod 3 component keeps its pair); every
    other component must already be complete.  So the sizes mod 3 must be one 1 and the rest
    0, or two 2s and the rest 0 (WAIT_PATTERN): any other hand (most random ones) has no
    standard wait, without a table lookup."""
    return _standard_waits_coded(c, s, WAIT_PATTERN[_residue_code(s)])


cdef inline int _knitted_missing_min(uint64_t held) noexcept nogil:
    """Fewest tiles of any knitted pattern that the hand (its held kinds) lacks."""
    cdef int k, missing, best = 9
    for k in range(N_PATTERNS):
        missing = mj_popcount64(KNITTED_PATTERN_MASKS[k] & ~held)
        if missing < best:
            best = missing
    return best


cdef inline uint64_t _waits(const uint8_t* c, int n, bint special, uint64_t allowed) noexcept nogil:
    cdef int s[4]
    cdef int i, k, pairs, distinct
    cdef uint8_t tmp[34]
    cdef uint64_t held
    _sizes(c, s)
    cdef uint64_t mask = _standard_waits(c, s)
    if n == 13:
        # seven pairs: six pairs (a quad is two) and one odd kind, which is the wait
        if _pairs(c) == 6:
            mask |= _odd(c)
        # thirteen orphans and 全不靠 waiting: every tile an orphan (at most 1, 9 and a duplicate
        # in a suit) or 13 distinct tiles of a knitted pattern and honors (3 in a suit)
        if special and s[0] <= 3 and s[1] <= 3 and s[2] <= 3:
            distinct = 0
            pairs = 0
            for i in range(13):
                if c[ORPHAN_KINDS[i]]:
                    distinct += 1
                    pairs += c[ORPHAN_KINDS[i]] - 1
            if distinct + pairs == 13:      # every tile an orphan, at most one duplicate
                if distinct == 13:
                    for i in range(13):
                        mask |= (<uint64_t> 1) << ORPHAN_KINDS[i]
                elif distinct == 12 and pairs == 1:
                    for i in range(13):
                        if c[ORPHAN_KINDS[i]] == 0:
                            mask |= (<uint64_t> 1) << ORPHAN_KINDS[i]
            for k in range(N_PATTERNS):
                if _knitted_distinct(c, k) == 13:
                    # 13 distinct tiles inside pattern + honors: wait on the other three
                    for i in range(9):
                        if c[KNITTED_PATTERNS[k][i]] == 0:
                            mask |= (<uint64_t> 1) << KNITTED_PATTERNS[k][i]
                    for i in range(27, 34):
                        if c[i] == 0:
                            mask |= (<uint64_t> 1) << i
    if special and (n == 10 or n == 13) and s[0] >= 2 and s[1] >= 2 and s[2] >= 2:
        held = _held(c)
        # one drawn tile can complete the knitted form only if a pattern lacks at most one tile:
        # 8 of its 9 kinds held, so the suits' most-held classes sum to 8 or more
        if (KNIT_CLASS_MAX[held & 0x1FF] + KNIT_CLASS_MAX[(held >> 9) & 0x1FF]
                + KNIT_CLASS_MAX[(held >> 18) & 0x1FF] < 8 or _knitted_missing_min(held) > 1):
            return mask & allowed
        memcpy(tmp, c, N_KINDS)
        for i in range(N_KINDS):
            if tmp[i] < 4 and not (mask >> i) & 1:
                tmp[i] += 1
                if _knitted_straight_complete(tmp, n + 1):
                    mask |= (<uint64_t> 1) << i
                tmp[i] -= 1
    return mask & allowed


cdef uint64_t _ready_discards(const uint8_t* c, int n, bint special, uint64_t allowed) noexcept nogil:
    """The held kinds t of a 3k+2 hand whose discard leaves a hand with a wait
    (``_waits(c - t) != 0``): the 报听 discards, in one pass.  A discard from component k
    changes only k's size, so the size pattern (WAIT_PATTERN) is read once per component; then
    k's info word answers every discard of k at once (its removal masks: the discards that
    leave k complete or with a wait), and the other components are looked up once per hand.
    Seven pairs need six pairs after the discard."""
    cdef uint8_t tmp[34]
    cdef int s[4]
    cdef int res[4]
    cdef int after[4]
    cdef int8_t complete[4]
    cdef uint32_t info[4]
    cdef int k, j, t, a, b, pat, code, pairs
    cdef uint32_t ik
    cdef uint64_t out = 0, rest, bit, fixed, odd, field
    if special:          # the special forms: a waits computation per discard
        memcpy(tmp, c, N_KINDS)
        rest = _held(c)
        while rest:
            t = mj_ctz64(rest)
            rest &= rest - 1
            tmp[t] -= 1
            if _waits(tmp, n - 1, special, allowed):
                out |= (<uint64_t> 1) << t
            tmp[t] += 1
        return out
    _sizes(c, s)
    for k in range(4):
        res[k] = MOD3[s[k]]
        complete[k] = -1
        info[k] = INFO_UNREAD
    code = res[0] + 3 * res[1] + 9 * res[2] + 27 * res[3]
    for k in range(4):
        if s[k] == 0:
            continue
        # the pattern of c - t for t in k: k's residue goes down by one
        pat = WAIT_PATTERN[code + POW3[k] * (MOD3[res[k] + 2] - res[k])]
        if not pat:
            continue
        a = (pat >> 2) & 3
        b = pat >> 4
        for j in range(4):   # every component but k and the one or two the tile joins is complete
            if j != k and j != a and j != b and not _complete_of(c, j, s, complete):
                pat = 0
                break
        if not pat:
            continue
        field = (<uint64_t> INFO_FIELD) << (9 * k) if k < 3 else HONOR_MASK
        if k != a and k != b:
            # k must be complete after the discard; the tile joins a (and b) as in c
            ik = _info_of(c, k, s, info)
            if not (ik >> INFO_REM_COMPLETE) & INFO_FIELD:
                continue
            if pat & 3 == 1:
                fixed = _info_field(_info_of(c, a, s, info), INFO_WAITS, a)
            else:
                fixed = ((_info_field(_info_of(c, a, s, info), INFO_WAITS, a)
                          if _complete_of(c, b, s, complete) else 0)
                         | (_info_field(_info_of(c, b, s, info), INFO_WAITS, b)
                            if _complete_of(c, a, s, complete) else 0))
            if fixed & allowed:
                out |= _info_field(ik, INFO_REM_COMPLETE, k)
        elif allowed & field == field:
            # every kind of k may come, so "a wait of k" is "an allowed wait of k"
            ik = _info_of(c, k, s, info)
            if pat & 3 == 1:     # the tile joins k itself and makes its pair
                out |= _info_field(ik, INFO_REM_WAIT, k)
            else:                # k and another of size 2 mod 3: one is completed, the other keeps the pair
                j = b if k == a else a
                if _complete_of(c, j, s, complete):
                    out |= _info_field(ik, INFO_REM_WAIT, k)
                if ((ik >> INFO_REM_COMPLETE) & INFO_FIELD
                        and _info_field(_info_of(c, j, s, info), INFO_WAITS, j) & allowed):
                    out |= _info_field(ik, INFO_REM_COMPLETE, k)
        else:
            # some kinds of k not played (a caller's own mask): the waits of each c - t
            memcpy(tmp, c, N_KINDS)
            memcpy(after, s, sizeof(s))
            after[k] -= 1            # the sizes of c - t
            rest = _held(c) & field
            while rest:
                t = mj_ctz64(rest)
                rest &= rest - 1
                tmp[t] -= 1
                if _standard_waits_coded(tmp, after, pat) & allowed:
                    out |= (<uint64_t> 1) << t
                tmp[t] += 1
    if n == 14:
        pairs = _pairs(c)
        if pairs >= 6:
            odd = _odd(c)
            rest = _held(c) & ~out
            while rest:          # six pairs and the odd tile (its wait) left after the discard
                t = mj_ctz64(rest)
                rest &= rest - 1
                bit = (<uint64_t> 1) << t
                if pairs - (1 - (c[t] & 1)) == 6 and (odd ^ bit) & allowed:
                    out |= bit
    return out


# ---------------------------------------------------------------------------
# Discard evaluation: shanten after each discard and the live tiles that then lower it
# ---------------------------------------------------------------------------
cdef inline uint32_t _row_index(const uint8_t* c, int j) noexcept nogil:
    """Table row of component j (0-2 suits: the rank, 3 honors: the base-5 index) of the 34
    counts c."""
    if j < 3:
        return _suit_rank(c + 9 * j)
    return _b5_honor(c + 27)


cdef inline const uint8_t* _dist_row(int j, uint32_t i) noexcept nogil:
    if j < 3:
        return &SUIT_DIST[i * DIST_ROW]
    return &HONOR_DIST[i * DIST_ROW]


cdef inline int _single(const uint8_t* a, const uint8_t* b, int groups) noexcept nogil:
    """(a merged with b)[groups, pair]: the one entry the standard distance needs."""
    cdef int m1, v, best = BIG
    for m1 in range(groups + 1):
        v = a[2 * m1] + b[2 * (groups - m1) + 1]
        if v < best:
            best = v
        v = a[2 * m1 + 1] + b[2 * (groups - m1)]
        if v < best:
            best = v
    return best


cdef inline uint64_t _lowering(const uint8_t* oth, int j, uint32_t i, int groups) noexcept nogil:
    """The kinds of component j (as a 34-kind mask) whose addition lowers the distance to
    `groups` groups + pair of the hand made of component j (table row i) and the rest (merged
    row oth).  A tile lowers one component's distance by at most one, so it lowers the hand's
    exactly when it lowers component j's entry in a split that reaches the distance: the union
    of those entries' lowering masks."""
    cdef const uint8_t* r = _dist_row(j, i)
    cdef int m1, p1, e, v, best = BIG
    cdef uint64_t mask = 0, low
    for m1 in range(groups + 1):
        for p1 in range(2):
            e = 2 * m1 + p1
            v = oth[2 * (groups - m1) + 1 - p1] + r[e]
            if v > best:
                continue
            low = SUIT_LOWER[i * DIST_ROW + e] if j < 3 else HONOR_LOWER[i * DIST_ROW + e]
            if v < best:
                best = v
                mask = low
            else:
                mask |= low
    return mask << (9 * j)


cdef inline uint64_t _any_lowering(int j, uint32_t i) noexcept nogil:
    """Every kind of component j (as a 34-kind mask) that lowers some entry of its table row i:
    a bound on what _lowering can give for that component."""
    cdef uint64_t mask = 0
    cdef int e
    for e in range(DIST_ROW):
        mask |= SUIT_LOWER[i * DIST_ROW + e] if j < 3 else HONOR_LOWER[i * DIST_ROW + e]
    return mask << (9 * j)


cdef inline void _pair_merge(const uint8_t** rows, int a, int b, int groups, uint8_t* out) noexcept nogil:
    memcpy(out, rows[a], DIST_ROW)
    _merge(out, rows[b], groups)


cdef inline int _comp(int t) noexcept nogil:
    return t // 9 if t < 27 else 3


cdef uint64_t _special_lowering(const uint8_t* h, int n, int best, const SpecialCounts* sc,
                                uint64_t held) noexcept nogil:
    """The kinds k whose addition brings a `public` special form of h (n tiles, counts sc, kinds
    held: held) below `best`, given that none of them is below `best`: a tile lowers a form's
    shanten by at most one, so only the forms at `best` count, each with the tiles that lower it."""
    cdef uint64_t mask = 0
    cdef uint8_t rest[34]
    cdef const uint8_t* rows[4]
    cdef uint32_t idx[4]
    cdef uint8_t p01[DIST_ROW]
    cdef uint8_t p23[DIST_ROW]
    cdef uint8_t oth[DIST_ROW]
    cdef int i, k, j, most, groups, v
    if n + 1 >= 13:
        if _thirteen_orphans_shanten(sc) == best:
            # a missing orphan, or (no orphan pair yet) a second copy of a held one
            mask |= ORPHAN_MASK & ~held
            if sc.orphan_pairs == 0:
                for i in range(13):
                    if h[ORPHAN_KINDS[i]] == 1:
                        mask |= (<uint64_t> 1) << ORPHAN_KINDS[i]
        if _honors_knitted_shanten(sc) == best:
            # a kind not held of a pattern (or the honors) that has the most kinds held
            most = 13 - best
            for k in range(N_PATTERNS):
                if sc.knitted[k] == most:
                    mask |= (KNITTED_PATTERN_MASKS[k] | HONOR_MASK) & ~held
    if n + 1 >= 10:
        groups = n // 3 - 3
        for k in range(N_PATTERNS):
            if sc.missing[k] - 1 > best:
                continue
            memcpy(rest, h, N_KINDS)
            for i in range(9):
                if rest[KNITTED_PATTERNS[k][i]]:
                    rest[KNITTED_PATTERNS[k][i]] -= 1
            for j in range(4):
                idx[j] = _row_index(rest, j)
                rows[j] = _dist_row(j, idx[j])
            _pair_merge(rows, 0, 1, groups, p01)
            _pair_merge(rows, 2, 3, groups, p23)
            memcpy(oth, p01, DIST_ROW)
            _merge(oth, rows[2], groups)
            v = sc.missing[k] + _single(oth, rows[3], groups) - 1
            if v != best:
                continue
            # a missing pattern kind, or a tile that lowers the rest's distance
            mask |= KNITTED_PATTERN_MASKS[k] & ~held
            mask |= _lowering(oth, 3, idx[3], groups)
            memcpy(oth, p01, DIST_ROW)
            _merge(oth, rows[3], groups)
            mask |= _lowering(oth, 2, idx[2], groups)
            memcpy(oth, p23, DIST_ROW)
            _merge(oth, rows[1], groups)
            mask |= _lowering(oth, 0, idx[0], groups)
            memcpy(oth, p23, DIST_ROW)
            _merge(oth, rows[0], groups)
            mask |= _lowering(oth, 1, idx[1], groups)
    return mask


cdef int _discard_eval(const uint8_t* c, int n, bint special, uint64_t allowed, uint64_t discards,
                       const int* unseen, int* sh_out, int* acc_out) noexcept nogil:
    """For each kind d in `discards` (held): sh_out[d] = shanten of c - d.  For the d reaching the
    lowest of these: acc_out[d] = sum of unseen[k] over the kinds k in `allowed` with
    (c - d)[k] < 4 and unseen[k] > 0 whose addition lowers that shanten; acc_out[d] = -1 for the
    others.  Returns the lowest shanten (99 if `discards` is empty).  `n` = sum(c), 3k+2.

    The standard form is computed incrementally: the component rows of c are looked up once,
    a discard changes one component, and only the (groups, pair) entry of the final merge is
    evaluated (the merges of two of c's rows are shared by all the discards).  The tiles that
    lower the shanten of c - d come from the lowering tables: only the forms whose shanten is
    `best` can go below it, each by one tile (see _lowering and _special_lowering).  The
    `public` special forms are kept as counts that a discard updates in a few steps.  Equal to
    calling _shanten on every hand (the tests check it)."""
    cdef uint8_t tmp[34]
    cdef uint32_t idx[4]
    cdef const uint8_t* rows[4]
    cdef uint32_t ix
    cdef const uint8_t* rx
    cdef uint8_t pm[16][DIST_ROW]       # pm[4a + b]: rows a and b of c merged (a < b)
    cdef bint pm_ok[16]
    cdef uint8_t oth[4][DIST_ROW]       # every row of c but j merged
    cdef bint oth_ok[4]
    cdef uint8_t oth2[DIST_ROW]         # every row of c - d but y merged (y != d's component)
    cdef int std[34]                    # standard-form shanten of c - d
    cdef int d, k, j, x, y, a, b, g, pairs, p1, v, sp, best = 99, acc
    cdef uint64_t lower, rel, relevant = 0, held = 0
    cdef uint64_t any_low[4]            # _any_lowering of c's components
    cdef bint any_ok[4]
    cdef SpecialCounts sc0, sc1
    memcpy(tmp, c, N_KINDS)
    g = (n - 1) // 3
    pairs = 0
    for k in range(N_KINDS):
        pairs += c[k] >> 1
        relevant |= (<uint64_t> (unseen[k] > 0 and c[k] < 4)) << k
    relevant &= allowed
    for j in range(16):
        pm_ok[j] = False
    for j in range(4):
        idx[j] = _row_index(c, j)
        rows[j] = _dist_row(j, idx[j])
        oth_ok[j] = False
        any_ok[j] = False
    if special:
        _special_counts(c, &sc0)
        held = _held(c)
    for d in range(N_KINDS):
        if not (discards >> d) & 1:
            continue
        x = _comp(d)
        if not oth_ok[x]:
            # the three other rows: a merged pair of them, then the third
            a = 1 if x == 0 else 0
            b = a + 1 if a + 1 != x else a + 2
            y = b + 1 if b + 1 != x else b + 2
            if not pm_ok[4 * a + b]:
                _pair_merge(rows, a, b, g, pm[4 * a + b])
                pm_ok[4 * a + b] = True
            memcpy(oth[x], pm[4 * a + b], DIST_ROW)
            _merge(oth[x], rows[y], g)
            oth_ok[x] = True
        tmp[d] -= 1
        v = _single(oth[x], _dist_row(x, _row_index(tmp, x)), g) - 1
        std[d] = v
        if n - 1 >= 13:
            p1 = pairs - (c[d] >> 1) + (tmp[d] >> 1)
            sp = 6 - (p1 if p1 < 7 else 7)
            if sp < v:
                v = sp
        if special:
            sc1 = sc0
            _special_counts_change(&sc1, d, c[d], tmp[d])
            v = _special_min_counted(tmp, n - 1, v, &sc1)
        tmp[d] += 1
        sh_out[d] = v
        if v < best:
            best = v
    for d in range(N_KINDS):
        if not (discards >> d) & 1:
            continue
        if sh_out[d] != best:
            acc_out[d] = -1
            continue
        x = _comp(d)
        tmp[d] -= 1
        # the kinds that count: in the ruleset, unseen, and below four copies in c - d
        rel = relevant | ((<uint64_t> (unseen[d] > 0)) << d & allowed)
        lower = 0
        if n >= 13:
            p1 = pairs - (c[d] >> 1) + (tmp[d] >> 1)
            if 6 - (p1 if p1 < 7 else 7) == best:
                # seven pairs: a second copy of a kind held once (or a fourth of one held three times)
                for k in range(N_KINDS):
                    lower |= (<uint64_t> (tmp[k] & 1)) << k
        if special:
            sc1 = sc0
            _special_counts_change(&sc1, d, c[d], tmp[d])
            lower |= _special_lowering(tmp, n - 1, best, &sc1,
                                       held & ~((<uint64_t> (tmp[d] == 0)) << d))
        if std[d] == best:
            ix = _row_index(tmp, x)
            lower |= _lowering(oth[x], x, ix, g)
            rx = _dist_row(x, ix)
            for y in range(4):
                if y == x:
                    continue
                # skip a component none of whose tiles that count can lower any of its entries
                if not any_ok[y]:
                    any_low[y] = _any_lowering(y, idx[y])
                    any_ok[y] = True
                if not (any_low[y] & rel & ~lower):
                    continue
                # c - d without component y: the pair of rows other than x and y, then rx
                a = 0
                while a == x or a == y:
                    a += 1
                b = a + 1
                while b == x or b == y:
                    b += 1
                if not pm_ok[4 * a + b]:
                    _pair_merge(rows, a, b, g, pm[4 * a + b])
                    pm_ok[4 * a + b] = True
                memcpy(oth2, pm[4 * a + b], DIST_ROW)
                _merge(oth2, rx, g)
                lower |= _lowering(oth2, y, idx[y], g)
        lower &= rel
        acc = 0
        while lower:
            k = mj_ctz64(lower)
            lower &= lower - 1
            acc += unseen[k]
        tmp[d] += 1
        acc_out[d] = acc
    return best


def discard_eval(counts, allowed, special, discards, unseen):
    """Python entry of the discard evaluation (for tests and analysis tools): returns
    ``(best, shanten_after (34,), accept (34,))`` with -9 for kinds not in ``discards``.

    ``counts``: a hand of 3k+2 tiles (at most 14, kinds of ``allowed`` only); ``allowed`` and
    ``discards``: tile bitmasks (bits 0-33; a discard must be held); ``special``: the `public`
    special forms; ``unseen``: 34 counts -4..4.  Everything is checked before the kernel runs."""
    cdef uint8_t c[34]
    cdef int u[34]
    cdef int sh[34]
    cdef int ac[34]
    cdef int i, n, best
    cdef uint64_t allowed_c = _tile_mask(allowed, "allowed")
    cdef uint64_t discards_c = _tile_mask(discards, "discards")
    cdef bint special_c = _as_flag(special, "special")
    _load(counts, c)
    try:
        unseen_list = list(unseen)
    except TypeError:
        raise ArrayShapeError(f"unseen must be 34 counts, got {_short_repr(unseen)}") from None
    if len(unseen_list) != N_KINDS:
        raise ArrayShapeError("counts and unseen must have 34 entries")
    n = _checked(c, allowed_c, Q_WIN)
    for i in range(N_KINDS):
        u[i] = _as_int(unseen_list[i], f"unseen[{i}]", -4, 4)
        sh[i] = -9
        ac[i] = -9
        if (discards_c >> i) & 1 and not c[i]:
            raise TileCountError(f"discard candidate {i} is not in the hand")
    best = _discard_eval(c, n, special_c, allowed_c, discards_c, u, sh, ac)
    return best, [sh[i] for i in range(N_KINDS)], [ac[i] for i in range(N_KINDS)]


_ALL_KINDS = (1 << 34) - 1


cdef inline uint64_t _tile_mask(object mask, str what) except? 0:
    """A bitmask over the 34 tile kinds, checked (a Python int of any size is compared first)."""
    return <uint64_t> _as_int(mask, what, 0, _ALL_KINDS)


# ---------------------------------------------------------------------------
# Exported C entry points (declared in _hand.pxd; used by the round engine)
# ---------------------------------------------------------------------------
cdef const uint8_t* hand_suit_win_bits() noexcept nogil:
    return SUIT_WIN_BITS


cdef bint hand_is_win(const uint8_t* c, int n, bint special) noexcept nogil:
    return _is_win(c, n, special)


cdef int hand_shanten(const uint8_t* c, int n, bint special) noexcept nogil:
    return _shanten(c, n, special)


cdef int hand_discard_eval(const uint8_t* c, int n, bint special, uint64_t allowed, uint64_t discards,
                           const int* unseen, int* sh_out, int* acc_out) noexcept nogil:
    return _discard_eval(c, n, special, allowed, discards, unseen, sh_out, acc_out)


cdef uint64_t hand_waits(const uint8_t* c, int n, bint special, uint64_t allowed) noexcept nogil:
    return _waits(c, n, special, allowed)


cdef uint64_t hand_ready_discards(const uint8_t* c, int n, bint special, uint64_t allowed) noexcept nogil:
    return _ready_discards(c, n, special, allowed)


# ---------------------------------------------------------------------------
# Validation and errors
# ---------------------------------------------------------------------------
cdef inline void _outside_mask(uint64_t allowed, uint8_t* out) noexcept nogil:
    """out[i] = 0xFF for a kind the ruleset does not play, else 0."""
    cdef int i
    for i in range(N_KINDS):
        out[i] = 0 if (allowed >> i) & 1 else 0xFF


cdef inline int _validate(const uint8_t* c, const uint8_t* outside_mask, uint64_t allowed, int question,
                          int* n_out, int* bad_kind) noexcept nogil:
    cdef int i, n = 0
    cdef uint8_t v, mx = 0, outside = 0
    # branchless, vectorisable scan (per-tile branches mispredict on random hands);
    # the culprit is looked for only on error
    for i in range(N_KINDS):
        v = c[i]
        n += v
        mx = v if v > mx else mx
        outside |= v & outside_mask[i]
    if mx > 4 or outside:
        for i in range(N_KINDS):
            if c[i] > 4:
                bad_kind[0] = i
                return ERR_COUNT
            if c[i] and not (allowed >> i) & 1:
                bad_kind[0] = i
                return ERR_RULESET
    n_out[0] = n
    if n < 1 or n > MAX_TILES:
        return ERR_SIZE
    if question == Q_WIN or question == Q_READY:
        return OK if n % 3 == 2 else ERR_SIZE
    if question == Q_WAIT:
        return OK if n % 3 == 1 else ERR_SIZE
    return OK if n % 3 != 0 else ERR_SIZE


_QUESTION = {
    Q_WIN: "a complete hand needs 3k+2 concealed tiles (2, 5, 8, 11 or 14)",
    Q_WAIT: "waiting tiles need 3k+1 concealed tiles (1, 4, 7, 10 or 13)",
    Q_SHANTEN: "shanten needs 3k+1 or 3k+2 concealed tiles (1 to 14, not a multiple of 3)",
    Q_READY: "ready discards need 3k+2 concealed tiles (2, 5, 8, 11 or 14)",
}


cdef inline str _tiles(int n):
    """``n`` tiles with the noun in agreement (``1 tile``)."""
    return "1 tile" if n == 1 else f"{n} tiles"


cdef object _raise(int code, int kind, int n, int question, const uint8_t* c, Py_ssize_t row):
    where = f"row {row}: " if row >= 0 else ""
    if code == ERR_COUNT:
        raise TileCountError(f"{where}{c[kind]} copies of {_SHORT[kind]}; a tile has only 4")
    if code == ERR_RULESET:
        raise RulesetError(f"{where}tile {_SHORT[kind]} is not played in this ruleset")
    raise HandSizeError(f"{where}{_tiles(n)}: {_QUESTION[question]}")


cdef inline int _checked(const uint8_t* c, uint64_t allowed, int question) except -1:
    cdef int n = 0, kind = 0
    cdef uint8_t outside[34]
    _outside_mask(allowed, outside)
    cdef int code = _validate(c, outside, allowed, question, &n, &kind)
    if code != OK:
        _raise(code, kind, n, question, c, -1)
    return n


cdef inline int _checked_rs(const uint8_t* c, _RulesetArgs rs, int question) except -1:
    """_checked with the ruleset's precomputed mask of the kinds it does not play."""
    cdef int n = 0, kind = 0
    cdef int code = _validate(c, rs.outside, rs.allowed, question, &n, &kind)
    if code != OK:
        _raise(code, kind, n, question, c, -1)
    return n


# ---------------------------------------------------------------------------
# Getting 34 counts out of whatever the caller passed
# ---------------------------------------------------------------------------
cdef class _RulesetArgs:
    cdef uint64_t allowed
    cdef bint special
    cdef uint8_t outside[34]    # _outside_mask(allowed), made once


cdef dict _ruleset_table():
    """Ruleset name -> compiled arguments, from the data in mahjong_core.rulesets."""
    cdef dict table = {}
    cdef _RulesetArgs args
    for name, rs in _RULESETS.items():
        args = _RulesetArgs()
        args.allowed = rs.kind_mask
        args.special = rs.special_forms
        _outside_mask(args.allowed, args.outside)
        table[_intern(name)] = args
    return table


cdef dict _RS = _ruleset_table()
# The table's names and arguments, for a lookup by identity first: a name written in the caller's
# code is interned, and so are the table's keys (set once at import, then only read).
cdef tuple _RS_NAMES = tuple(_RS)
cdef tuple _RS_VALUES = tuple(_RS.values())


cdef inline _RulesetArgs _ruleset_args(object ruleset):
    """The compiled arguments of a mahjong ruleset; None for a ruleset of another family (the
    public functions then hand the call to that family through the registry)."""
    cdef Py_ssize_t i
    for i in range(len(_RS_NAMES)):
        if (<tuple> _RS_NAMES)[i] is ruleset:
            return <_RulesetArgs> (<tuple> _RS_VALUES)[i]
    cdef object found = _RS.get(ruleset) if type(ruleset) is str else None
    if found is None:
        try:
            found = _RS[_get_ruleset(ruleset).name]
        except RulesetError as exc:
            try:
                record = _registry.get_ruleset(ruleset)
            except RulesetError:
                raise exc from None          # unknown to every family: mahjong's message
            if record.family != _FAMILY:
                return None
            raise
    return <_RulesetArgs> found


cdef inline bint _load_buffer(object obj, uint8_t* out) except -1:
    """Copy 34 counts from a 1-d C-contiguous uint8 buffer; False if obj is not one."""
    return load_counts(obj, out, N_KINDS)


cdef type _NDARRAY = np.ndarray   # a C global: no module-dict lookup per call


cdef inline int _load(object hand, uint8_t* out) except -1:
    """Copy the 34 counts of `hand` (Hand, uint8 array, string, other array-like) into `out`."""
    cdef cnp.ndarray a
    if type(hand) is _NDARRAY:
        # an exact C-contiguous uint8 (34,) array, read through the NumPy C API: the buffer
        # protocol builds and parses a format string on every call
        a = <cnp.ndarray> hand
        if (cnp.PyArray_NDIM(a) == 1 and cnp.PyArray_TYPE(a) == cnp.NPY_UINT8
                and cnp.PyArray_DIM(a, 0) == N_KINDS and cnp.PyArray_IS_C_CONTIGUOUS(a)):
            memcpy(out, cnp.PyArray_DATA(a), N_KINDS)
            return 0
    elif type(hand) is Hand:
        memcpy(out, (<Hand> hand).c, N_KINDS)
        return 0
    if type(hand) is not str and _load_buffer(hand, out):
        return 0
    converted = _parse_hand(hand) if isinstance(hand, str) else _to_counts(hand)
    if not _load_buffer(converted, out):   # pragma: no cover - the converters return uint8 (34,)
        raise ArrayShapeError("could not read 34 tile counts")
    return 0


# ---------------------------------------------------------------------------
# Python-visible single-hand functions (validated)
# ---------------------------------------------------------------------------
def is_win(hand, *, ruleset="two-player"):
    """True if the concealed hand (3k+2 tiles) is complete in some form of the ruleset."""
    cdef uint8_t c[34]
    cdef _RulesetArgs rs = _ruleset_args(ruleset)
    if rs is None:
        return _registry.family_of(ruleset).is_win(hand, ruleset=ruleset)
    _load(hand, c)
    cdef int n = _checked_rs(c, rs, Q_WIN)
    return _is_win(c, n, rs.special)


def waits_mask(hand, *, ruleset="two-player"):
    """The waiting tiles of a 3k+1 hand as a bitmask (bit i = tile kind i)."""
    cdef uint8_t c[34]
    cdef _RulesetArgs rs = _ruleset_args(ruleset)
    if rs is None:
        _registry.require_family(ruleset, _FAMILY, "mj.waits_mask")   # raises UnsupportedError: use waits
    _load(hand, c)
    cdef int n = _checked_rs(c, rs, Q_WAIT)
    return _waits(c, n, rs.special, rs.allowed)


cdef list _mask_list(uint64_t mask):
    cdef list out = []
    cdef int i
    while mask:
        out.append(mj_ctz64(mask))
        mask &= mask - 1
    return out


def waits(hand, *, ruleset="two-player"):
    """Sorted tile kinds that complete the 3k+1 concealed tiles (a kind held four times never does)."""
    cdef uint8_t c[34]
    cdef _RulesetArgs rs = _ruleset_args(ruleset)
    if rs is None:
        return _registry.family_of(ruleset).waits(hand, ruleset=ruleset)
    _load(hand, c)
    cdef int n = _checked_rs(c, rs, Q_WAIT)
    return _mask_list(_waits(c, n, rs.special, rs.allowed))


def shanten(hand, *, ruleset="two-player"):
    """Shanten over every form of the ruleset: -1 complete, 0 ready, ..."""
    cdef uint8_t c[34]
    cdef _RulesetArgs rs = _ruleset_args(ruleset)
    if rs is None:
        return _registry.family_of(ruleset).shanten(hand, ruleset=ruleset)
    _load(hand, c)
    cdef int n = _checked_rs(c, rs, Q_SHANTEN)
    return _shanten(c, n, rs.special)


# ---------------------------------------------------------------------------
# Hand: a mutable concealed hand for servers and simulations
# ---------------------------------------------------------------------------
cdef class Hand:
    """A concealed hand of one ruleset, held as 34 counts inside a compiled object.

    Built once from a tile string or count array, then updated in place with
    :meth:`add` / :meth:`remove` as tiles are drawn and discarded; the
    questions (:meth:`is_win`, :meth:`waits`, :meth:`shanten`) cost no
    conversion at all, which makes this the fastest way to ask them one hand
    at a time.

    >>> h = Hand("1112345678999m")
    >>> h.waits()
    [0, 1, 2, 3, 4, 5, 6, 7, 8]
    >>> h.add(4); h.is_win()
    True
    """

    cdef uint8_t c[34]
    cdef int n
    cdef _RulesetArgs rs
    cdef readonly str ruleset

    def __init__(self, tiles="", *, ruleset="two-player"):
        self.rs = _ruleset_args(ruleset)
        if self.rs is None:   # a ruleset of another family: UnsupportedError naming it
            _registry.require_family(ruleset, _FAMILY, "mj.Hand")
        self.ruleset = _get_ruleset(ruleset, "mj.Hand").name
        _load(tiles, self.c)
        cdef int kind = 0
        cdef uint8_t outside[34]
        _outside_mask(self.rs.allowed, outside)
        cdef int code = _validate(self.c, outside, self.rs.allowed, Q_SHANTEN, &self.n, &kind)
        if code == ERR_COUNT or code == ERR_RULESET:
            _raise(code, kind, self.n, Q_SHANTEN, self.c, -1)
        if self.n > MAX_TILES:
            raise HandSizeError(f"{self.n} tiles: a concealed hand holds at most 14")

    @property
    def counts(self):
        """A copy of the 34 counts as a uint8 numpy array."""
        return np.frombuffer(bytes((<char*> self.c)[:N_KINDS]), dtype=np.uint8).copy()

    def __len__(self):
        return self.n

    def __getitem__(self, kind):
        """Copies of one kind: ``h[4]`` or ``h["5m"]``.  An integer outside 0-33 raises
        IndexError (the sequence protocol: ``list(h)`` stops there)."""
        if _is_index(kind) and not 0 <= kind < N_KINDS:
            raise IndexError(f"tile kind {_short_repr(kind)} out of range 0-33")
        return self.c[_kind_arg(kind)]

    def __eq__(self, other):
        if type(other) is not Hand:
            return NotImplemented
        return (self.ruleset == (<Hand> other).ruleset
                and memcmp(self.c, (<Hand> other).c, N_KINDS) == 0)

    __hash__ = None

    def __repr__(self):
        return f"Hand({_format_counts(self.counts)!r}, ruleset={self.ruleset!r})"

    def __reduce__(self):
        return (_hand_from_state, (bytes((<char*> self.c)[:N_KINDS]), self.ruleset))

    def copy(self):
        """An independent copy."""
        cdef Hand h = Hand.__new__(Hand)
        memcpy(h.c, self.c, N_KINDS)
        h.n = self.n
        h.rs = self.rs
        h.ruleset = self.ruleset
        return h

    def add(self, tile):
        """Add one tile: a kind 0-33 or a one-tile string (``h.add(4)`` or ``h.add("5m")``).
        Refuses a fifth copy (TileCountError), a 15th tile (HandSizeError), a tile the ruleset
        does not play (RulesetError) and anything that is not one tile of a hand (TileParseError:
        an index outside 0-33 such as a flower's 34-41, ``4.7``, ``True``, ``"55m"``, ``"1f"``);
        the hand is unchanged after a refusal."""
        cdef int kind = _kind_arg(tile)
        if not (self.rs.allowed >> kind) & 1:
            raise RulesetError(f"tile {_SHORT[kind]} is not played in ruleset {self.ruleset!r}")
        if self.c[kind] >= 4:
            raise TileCountError(f"the hand already holds four {_SHORT[kind]}; a tile has only 4")
        if self.n >= MAX_TILES:
            raise HandSizeError("the hand already holds 14 tiles")
        self.c[kind] += 1
        self.n += 1

    def remove(self, tile):
        """Remove one tile (a kind or a one-tile string, as in :meth:`add`); refuses a tile the
        hand does not hold."""
        cdef int kind = _kind_arg(tile)
        if self.c[kind] == 0:
            raise TileCountError(f"the hand holds no {_SHORT[kind]}")
        self.c[kind] -= 1
        self.n -= 1

    def is_win(self):
        """True if the hand (3k+2 tiles) is complete in some form of its ruleset."""
        if self.n % 3 != 2:
            raise HandSizeError(f"{_tiles(self.n)}: {_QUESTION[Q_WIN]}")
        return _is_win(self.c, self.n, self.rs.special)

    def waits(self):
        """Sorted tile kinds that complete the hand (3k+1 tiles)."""
        if self.n % 3 != 1:
            raise HandSizeError(f"{_tiles(self.n)}: {_QUESTION[Q_WAIT]}")
        return _mask_list(_waits(self.c, self.n, self.rs.special, self.rs.allowed))

    def waits_mask(self):
        """Waiting tiles as a bitmask (bit i = kind i)."""
        if self.n % 3 != 1:
            raise HandSizeError(f"{_tiles(self.n)}: {_QUESTION[Q_WAIT]}")
        return _waits(self.c, self.n, self.rs.special, self.rs.allowed)

    def shanten(self):
        """Shanten over every form of the ruleset (-1 complete, 0 ready)."""
        if self.n % 3 == 0:
            raise HandSizeError(f"{_tiles(self.n)}: {_QUESTION[Q_SHANTEN]}")
        return _shanten(self.c, self.n, self.rs.special)


cdef type _NP_INTEGER = np.integer
cdef type _NP_BOOL = np.bool_


cdef inline bint _is_index(object v):
    """A Python or NumPy integer, not a boolean."""
    if type(v) is int:
        return True
    return isinstance(v, (int, _NP_INTEGER)) and not isinstance(v, (bool, _NP_BOOL))


cdef inline int _kind_arg(object tile) except -1:
    """A tile kind 0-33 for Hand.add / remove / []: an integer or what tiles.tile_kind accepts (a
    one-tile string).  An integer outside 0-33 (a flower 34-41, 99, -1) is not a tile of a hand in
    any ruleset: TileParseError, as tiles.tile_kind says of it and of "1f"."""
    cdef int overflow = 0
    cdef long long k
    if type(tile) is int:           # the common case, without a Python-level comparison
        k = PyLong_AsLongLongAndOverflow(tile, &overflow)
        if not overflow and 0 <= k < N_KINDS:
            return <int> k
    if _is_index(tile):
        if 0 <= tile < N_KINDS:     # Python comparison first: an integer of any size
            return <int> tile
        raise TileParseError(f"tile {_short_repr(tile)} is not a tile of a hand (0-33)")
    return _tile_kind(tile, "tile")


def _hand_from_state(bytes state, str ruleset):
    return Hand(np.frombuffer(state, dtype=np.uint8), ruleset=ruleset)


def form_shanten(counts, allowed, form):
    """Shanten of one form: 0 standard, 1 seven pairs, 2 thirteen orphans,
    3 honors and knitted (全不靠/七星不靠), 4 knitted straight (组合龙 + group + pair).
    ``counts``: any hand :func:`is_win` accepts; ``allowed``: the ruleset's tile bitmask."""
    cdef uint8_t c[34]
    cdef uint64_t mask = _tile_mask(allowed, "allowed")
    form = _as_int(form, "form", 0, 4)
    _load(counts, c)
    cdef int n = _checked(c, mask, Q_SHANTEN)
    return _form_shanten(c, n, form)


cdef int _form_shanten(const uint8_t* c, int n, int form) except? -99:
    """form_shanten of validated counts (n tiles, a shanten question's size): the size refusals
    of the special forms are raised here."""
    cdef SpecialCounts sc
    _special_counts(c, &sc)
    if form == 0:
        return _standard_shanten(c, n)
    if form in (1, 2, 3):
        if n < 13:
            raise HandSizeError(f"{_tiles(n)}: this form needs 13 or 14 concealed tiles")
        if form == 1:
            return _seven_pairs_shanten(c)
        if form == 2:
            return _thirteen_orphans_shanten(&sc)
        return _honors_knitted_shanten(&sc)
    if form == 4:
        if n < 10:
            raise HandSizeError(f"{_tiles(n)}: the knitted-straight form needs 10, 11, 13 or 14 concealed tiles")
    return _knitted_straight_shanten(c, n, BIG, sc.missing)


# The per-call front of mahjong_core.form_shanten (hand.py wraps it with functools.update_wrapper):
# a plain call -- a form and a ruleset given by name, the hand an exact uint8 count array or a tile
# string -- is answered here; every other call goes to the Python function, whose checks decide
# its errors.  Both read the hand with _load and validate it with the same messages.
cdef dict _FORM_CODE = {name: code for code, name in enumerate(_FORM_NAMES)}
cdef object _FORM_SHANTEN_CHECKED = None    # hand._form_shanten_checked, bound on first use


def form_shanten_front(hand, form, *, ruleset=_DEFAULT_RULESET):
    cdef uint8_t c[34]
    cdef cnp.ndarray a
    cdef object code, found
    global _FORM_SHANTEN_CHECKED
    if type(form) is str and type(ruleset) is str:
        code = _FORM_CODE.get(form)
        found = _RS.get(ruleset)
        if code is not None and found is not None and (<int> code < FORM_THIRTEEN_ORPHANS
                                                       or (<_RulesetArgs> found).special):
            if type(hand) is _NDARRAY:
                a = <cnp.ndarray> hand
                plain = (cnp.PyArray_TYPE(a) == cnp.NPY_UINT8 and cnp.PyArray_NDIM(a) == 1
                         and cnp.PyArray_IS_C_CONTIGUOUS(a))
            else:
                plain = type(hand) is str
            if plain:
                _load(hand, c)
                return _form_shanten(c, _checked_rs(c, <_RulesetArgs> found, Q_SHANTEN), <int> code)
    if _FORM_SHANTEN_CHECKED is None:
        from mahjong_core.families.mahjong.hand import _form_shanten_checked
        _FORM_SHANTEN_CHECKED = _form_shanten_checked
    return _FORM_SHANTEN_CHECKED(hand, form, ruleset=ruleset)


def form_is_win(counts, allowed, form):
    """Win check of one form (arguments as in :func:`form_shanten`)."""
    cdef uint8_t c[34]
    cdef uint64_t mask = _tile_mask(allowed, "allowed")
    form = _as_int(form, "form", 0, 4)
    _load(counts, c)
    cdef int n = _checked(c, mask, Q_WIN)
    if form == 0:
        return _standard_complete(c)
    if form == 1:
        return _seven_pairs_complete(c, n)
    if form == 2:
        return _thirteen_orphans_complete(c, n)
    if form == 3:
        return _honors_knitted_complete(c, n)
    return _knitted_straight_complete(c, n)


# ---------------------------------------------------------------------------
# Batch functions: (N, 34) uint8 in, numpy array out, loops without the GIL
# ---------------------------------------------------------------------------
cdef object _batch_view(object counts2d):
    """A C-contiguous (N, 34) uint8 view of the batch argument (ArrayShapeError otherwise)."""
    cdef const uint8_t[:, ::1] view
    if counts2d is None:   # a None memoryview would be accepted and read (.shape) as garbage
        raise ArrayShapeError("expected a C-contiguous (N, 34) uint8 array of tile counts, got None")
    try:
        view = counts2d
    except (ValueError, TypeError, BufferError) as exc:
        raise ArrayShapeError(f"expected a C-contiguous (N, 34) uint8 array of tile counts ({exc})") from None
    if view.shape[1] != N_KINDS:
        raise ArrayShapeError(
            f"expected an (N, 34) array of tile counts, got shape ({view.shape[0]}, {view.shape[1]})")
    return view


cdef object _batch(object counts_arg, object allowed_arg, object special_arg, int question):
    """The batch driver: validate and answer `question` (Q_WIN, Q_WAIT, Q_SHANTEN or Q_READY) for every row,
    without the GIL; the first bad row raises (its index in the message)."""
    cdef const uint8_t[:, ::1] counts2d = _batch_view(counts_arg)
    cdef uint64_t allowed = _tile_mask(allowed_arg, "allowed")
    cdef bint special = _as_flag(special_arg, "special")
    cdef Py_ssize_t rows = counts2d.shape[0], i
    if question == Q_WIN:
        out = np.empty(rows, dtype=np.bool_)
    elif question == Q_WAIT or question == Q_READY:
        out = np.empty(rows, dtype=np.uint64)
    else:
        out = np.empty(rows, dtype=np.int8)
    cdef uint8_t[::1] res_win        # only the view of the question is set (and used)
    cdef uint64_t[::1] res_wait
    cdef int8_t[::1] res_shanten
    if question == Q_WIN:
        res_win = out.view(np.uint8)
    elif question == Q_WAIT or question == Q_READY:
        res_wait = out
    else:
        res_shanten = out
    cdef int n = 0, kind = 0, code = OK
    cdef Py_ssize_t bad = -1
    cdef const uint8_t* c
    cdef uint8_t outside[34]
    _outside_mask(allowed, outside)
    with nogil:
        for i in range(rows):
            c = &counts2d[i, 0]
            code = _validate(c, outside, allowed, question, &n, &kind)
            if code != OK:
                bad = i
                break
            if question == Q_WIN:
                res_win[i] = _is_win(c, n, special)
            elif question == Q_WAIT:
                res_wait[i] = _waits(c, n, special, allowed)
            elif question == Q_READY:
                res_wait[i] = _ready_discards(c, n, special, allowed)
            else:
                res_shanten[i] = <int8_t> _shanten(c, n, special)
    if bad >= 0:
        _raise(code, kind, n, question, &counts2d[bad, 0], bad)
    return out


def is_win_batch(counts_arg, allowed_arg, special_arg):
    """Win check of every row of a C-contiguous (N, 34) uint8 array (rows validated one by one)."""
    return _batch(counts_arg, allowed_arg, special_arg, Q_WIN)


def waits_batch(counts_arg, allowed_arg, special_arg):
    """Wait bitmask of every row (arguments as in :func:`is_win_batch`)."""
    return _batch(counts_arg, allowed_arg, special_arg, Q_WAIT)


def shanten_batch(counts_arg, allowed_arg, special_arg):
    """Shanten of every row (arguments as in :func:`is_win_batch`)."""
    return _batch(counts_arg, allowed_arg, special_arg, Q_SHANTEN)


def ready_discards_batch(counts_arg, allowed_arg, special_arg):
    """Of every row (3k+2 tiles), the bitmask of the held kinds whose discard leaves a hand with a
    wait -- the 报听 discards the round engine offers (arguments as in :func:`is_win_batch`)."""
    return _batch(counts_arg, allowed_arg, special_arg, Q_READY)
