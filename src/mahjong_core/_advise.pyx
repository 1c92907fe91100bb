# cython: language_level=3
"""Compiled inner loops of the fan-aware shanten search (:mod:`mahjong_core.families.mahjong.fan_shanten`).

Private module.  The Python search enumerates complete hands ``W`` near a base hand, scores them
with the compiled fan evaluator and keeps, per candidate hand, the qualifying rows needing the
fewest draws.  Profiling ``advise`` on random ``public`` hands put four fifths of its time in the
Python parts of that loop (the group recursion, the seven-pairs recursion and the per-candidate
numpy passes); they are here, word for word the same rules as the Python versions they replace
(``_fill``, ``_seven_pairs``, ``draws_needed`` and ``best_rows``), which stay in
``fan_shanten`` as the path the tests hold this one against.

The callers pass C-contiguous arrays of the documented dtypes (``fan_shanten`` builds them); no
argument here comes from a user, and nothing checks bounds.
"""

import numpy as np

from libc.stdlib cimport malloc, realloc, free
from libc.string cimport memcpy, memset
from libc.stdint cimport uint8_t, int16_t, int32_t, int64_t

cdef enum:
    NK = 34


cdef struct Out:
    uint8_t* data
    Py_ssize_t n
    Py_ssize_t cap
    bint failed


cdef void _emit(Out* o, const uint8_t* w) noexcept nogil:
    cdef uint8_t* grown
    if o.failed:
        return
    if o.n == o.cap:
        grown = <uint8_t*>realloc(o.data, (2 * o.cap) * NK)
        if grown == NULL:
            o.failed = True
            return
        o.data = grown
        o.cap *= 2
    memcpy(o.data + o.n * NK, w, NK)
    o.n += 1


cdef object _take(Out* o):
    """The emitted rows as an (n, 34) uint8 array; frees the buffer."""
    if o.failed:
        free(o.data)
        raise MemoryError("fan-aware shanten: out of memory enumerating complete hands")
    arr = np.empty((o.n, NK), np.uint8)
    cdef uint8_t[:, ::1] view = arr
    if o.n:
        memcpy(&view[0, 0], o.data, o.n * NK)
    free(o.data)
    return arr


cdef int _start(Out* o) except -1:
    o.data = <uint8_t*>malloc(256 * NK)
    if o.data == NULL:
        raise MemoryError()
    o.n = 0
    o.cap = 256
    o.failed = False
    return 0


cdef struct Fill:
    uint8_t w[NK]
    int16_t base[NK]
    int16_t cap[NK]
    const int32_t* groups
    int n_groups
    const int32_t* pairs
    int n_pairs
    int budget


cdef void _fill(Fill* f, Out* o, int start, int left, int cost) noexcept nogil:
    cdef int g, a, b, c3, c, i, p
    if left == 0:
        for i in range(f.n_pairs):
            p = f.pairs[i]
            c = cost + (f.w[p] >= f.base[p]) + (f.w[p] + 1 >= f.base[p])
            if c <= f.budget and f.w[p] + 2 <= f.cap[p]:
                f.w[p] += 2
                _emit(o, f.w)
                f.w[p] -= 2
        return
    for g in range(start, f.n_groups):
        a = f.groups[3 * g]
        b = f.groups[3 * g + 1]
        c3 = f.groups[3 * g + 2]
        c = cost
        f.w[a] += 1
        c += f.w[a] > f.base[a]
        f.w[b] += 1
        c += f.w[b] > f.base[b]
        f.w[c3] += 1
        c += f.w[c3] > f.base[c3]
        if c <= f.budget and f.w[a] <= f.cap[a] and f.w[b] <= f.cap[b] and f.w[c3] <= f.cap[c3]:
            _fill(f, o, g, left - 1, c)
        f.w[a] -= 1
        f.w[b] -= 1
        f.w[c3] -= 1


def fill_groups(const uint8_t[:, ::1] seeds, const int32_t[::1] lefts, const int32_t[::1] costs,
                const int16_t[::1] base, const int16_t[::1] cap, const int32_t[:, ::1] groups,
                const int32_t[::1] pairs, int budget):
    """For each seed (a row of counts, ``costs`` its tiles not in ``base``): every way to add
    ``lefts`` groups (rows of ``groups``, indices non-decreasing) and then a pair (from
    ``pairs``) keeping the tiles not in ``base`` at most ``budget`` and every count within
    ``cap``; rows of 34 counts, a hand reached by two decompositions or seeds appearing twice."""
    cdef Fill f
    cdef Out o
    cdef int t
    cdef Py_ssize_t i
    for t in range(NK):
        f.base[t] = base[t]
        f.cap[t] = cap[t]
    f.groups = &groups[0, 0] if groups.shape[0] else NULL
    f.n_groups = <int>groups.shape[0]
    f.pairs = &pairs[0] if pairs.shape[0] else NULL
    f.n_pairs = <int>pairs.shape[0]
    f.budget = budget
    _start(&o)
    with nogil:
        for i in range(seeds.shape[0]):
            for t in range(NK):
                f.w[t] = seeds[i, t]
            _fill(&f, &o, 0, lefts[i], costs[i])
    return _take(&o)


cdef struct Pairs:
    uint8_t w[NK]
    int16_t base[NK]
    int16_t cap[NK]
    int kinds[NK]
    int free[NK + 1]
    int one[NK + 1]
    int n_kinds
    int budget


cdef void _pairs(Pairs* s, Out* o, int i, int left, int cost) noexcept nogil:
    cdef int short, j, t, m, c
    if left == 0:
        _emit(o, s.w)
        return
    short = left - s.free[i]
    if short > 0 and cost + min(short, s.one[i]) + 2 * max(0, short - s.one[i]) > s.budget:
        return
    for j in range(i, s.n_kinds):
        t = s.kinds[j]
        m = 2
        while m <= 4:
            if m // 2 > left or m > s.cap[t]:
                break
            c = cost + max(0, m - s.base[t])
            if c > s.budget:
                break
            s.w[t] = m
            _pairs(s, o, j + 1, left - m // 2, c)
            s.w[t] = 0
            m += 2


def seven_pairs(const int16_t[::1] base, const int16_t[::1] cap, const int32_t[::1] kinds, int budget):
    """Every seven-pairs hand (a kind twice = four copies) of ``kinds`` within ``budget`` tiles
    of ``base`` and within ``cap``; rows of 34 counts."""
    cdef Pairs s
    cdef Out o
    cdef int j, t, b
    memset(s.w, 0, NK)
    for t in range(NK):
        s.base[t] = base[t]
        s.cap[t] = cap[t]
    s.n_kinds = <int>kinds.shape[0]
    for j in range(s.n_kinds):
        s.kinds[j] = kinds[j]
    s.free[s.n_kinds] = 0
    s.one[s.n_kinds] = 0
    for j in range(s.n_kinds - 1, -1, -1):
        b = min(s.base[s.kinds[j]], s.cap[s.kinds[j]])
        s.free[j] = s.free[j + 1] + b // 2
        s.one[j] = s.one[j + 1] + b % 2
    s.budget = budget
    _start(&o)
    with nogil:
        _pairs(&s, &o, 0, 7, 0)
    return _take(&o)


ctypedef fused count_t:
    uint8_t
    int16_t


cdef inline int _missing(const count_t* w, const uint8_t* hand, const uint8_t* live) noexcept nogil:
    """Tiles of ``w`` not in ``hand``; -1 when the unseen copies ``live`` do not hold them."""
    cdef int t, x, d = 0
    for t in range(NK):
        x = w[t] - hand[t]
        if x > 0:
            if x > live[t]:
                return -1
            d += x
    return d


def reachable_wins(const uint8_t[:, ::1] ws, const uint8_t[:, ::1] hands, const uint8_t[::1] live,
                   int low, int budget):
    """The (row of ``ws``, winning kind) pairs, in row-major order, for which some hand of
    ``hands`` reaches ``ws[row]`` winning on that kind in ``low`` to ``budget`` draws the unseen
    copies ``live`` allow (the rule of ``draws_needed``: the winning tile must be drawn).  The
    search knows no other row can be its answer, so the others are not scored."""
    cdef Py_ssize_t m = ws.shape[0], k = hands.shape[0], r, h, n = 0
    cdef int t, d, x, i, held
    cdef uint8_t keep[NK]
    cdef int kinds_of[NK]
    out_rows = np.empty(m * NK, np.intp)
    out_kinds = np.empty(m * NK, np.int16)
    cdef Py_ssize_t[::1] rows_v = out_rows
    cdef int16_t[::1] kinds_v = out_kinds
    with nogil:
        for r in range(m):
            memset(keep, 0, NK)
            # the kinds the row holds (at most 14): only they count in the distance (the rule
            # of _missing), so each hand is checked over them, not over all 34
            held = 0
            for t in range(NK):
                if ws[r, t]:
                    kinds_of[held] = t
                    held += 1
            for h in range(k):
                d = 0
                for i in range(held):
                    t = kinds_of[i]
                    x = ws[r, t] - hands[h, t]
                    if x > 0:
                        if x > live[t]:
                            d = -1
                            break
                        d += x
                if d < 0 or d > budget:
                    continue
                for i in range(held):
                    t = kinds_of[i]
                    if not keep[t]:
                        if ws[r, t] > hands[h, t]:
                            keep[t] = d >= low
                        elif d + 1 <= budget and d + 1 >= low and live[t] >= 1:
                            keep[t] = 1
            for i in range(held):
                t = kinds_of[i]
                if keep[t]:
                    rows_v[n] = r
                    kinds_v[n] = t
                    n += 1
    return out_rows[:n].copy(), out_kinds[:n].copy()


def fewest_draws(const int16_t[:, ::1] ws, const int16_t[::1] wins, const uint8_t[::1] keep,
                 const uint8_t[:, ::1] hands, const uint8_t[::1] live):
    """For each hand of ``hands``, among the rows with ``keep`` set: the fewest draws to the
    complete hand ``ws[row]`` winning on ``wins[row]`` (the rule of ``draws_needed``: the tiles
    of ``ws[row]`` not in the hand, and one more copy of the winning tile when the hand holds
    them all, within the unseen copies ``live``), the rows needing exactly that many
    (ascending) and their drawn multisets; ``(-1, empty, empty)`` when no row is reachable."""
    cdef Py_ssize_t m = ws.shape[0], k = hands.shape[0], r, h, n, i
    cdef int t, x, d, best, w
    idx = np.empty(m, np.intp)
    cdef Py_ssize_t[::1] idx_v = idx
    cdef int16_t[:, ::1] need_v
    out = []
    for h in range(k):
        n = 0
        best = 1 << 30
        with nogil:
            for r in range(m):
                if not keep[r]:
                    continue
                d = _missing(&ws[r, 0], &hands[h, 0], &live[0])
                if d < 0:
                    continue
                w = wins[r]
                if ws[r, w] <= hands[h, w]:
                    if live[w] < 1:
                        continue
                    d += 1
                if d > best:
                    continue
                if d < best:
                    best = d
                    n = 0
                idx_v[n] = r
                n += 1
        need = np.zeros((n, NK), np.int16)
        need_v = need
        with nogil:
            for i in range(n):
                r = idx_v[i]
                for t in range(NK):
                    x = ws[r, t] - hands[h, t]
                    if x > 0:
                        need_v[i, t] = x
                w = wins[r]
                if need_v[i, w] == 0:
                    need_v[i, w] = 1
        out.append((best if n else -1, idx[:n].copy(), need))
    return out
