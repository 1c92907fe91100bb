"""Compiled hand layer of the long-card game 长牌 幺地人 (spec changpai.md 4.1-4.7).

Count arrays are length-21 ``uint8`` (face index of spec 1.1).  Three kernels:

* **Component tables** (win check, waits, batch).  A 3-card group only joins faces whose points are
  equal or sum to 14 (坎, X X Y / X Y Y with a 14-point partner, three 7s), so the faces split into six
  independent *components* by point class {2,12} {3,11} {4,10} {5,9} {6,8} {7}.  For every count
  vector of a component (base-6 index, 6^k states, 6^6 = 46 656 at most) a table holds the largest 陀
  over its decompositions into groups, or -1 when it has none; a second table keeps every face held
  3+ times as a 坎 (``win_split_kan = false``, CP-51).  A hand wins iff every component decomposes and
  the 陀 sum (declared groups included) reaches the threshold: six table reads.  The tables are built
  at import by dynamic programming over the states in index order, with the group choice of the DFS.
* **Decomposition search** (fan).  The spec 4.3 evaluator: take the lowest face with cards, try every
  group that holds it (:c:func:`_groups_at`, shared with the table builder), recurse; every complete
  decomposition reaching the threshold is scored (face fan with the 五门将 weights, 高胡, 对对胡) and the
  best by (fan, 陀) kept with its groups.
* **Counting** (qualification, ``_lc_counting.pxi``).  卯 and T_max of spec 2.6-2.7 by a dynamic
  programme per component over the non-fixed cards, and the group count of the two-卯 / last-卯
  states from a third component table (most disjoint groups of each state).

The rule data (points, colours, partners, weights) come from ``mahjong_core.families.longcard``;
:mod:`mahjong_core.families.longcard._ref.hand` is the pure-Python oracle that the tests compare with
(:mod:`~mahjong_core.families.longcard.counting` for the counting).
"""

from libc.stdint cimport uint8_t, int8_t, int16_t, uint32_t, int32_t, uint64_t
from mahjong_core._bits cimport mj_ctz64
from libc.stdlib cimport malloc
from libc.string cimport memset, memcpy
from cpython.object cimport PyObject, PyTypeObject
from mahjong_core._count_buffer cimport load_counts

import numpy as np

from mahjong_core.errors import (
    ArrayShapeError, HandSizeError, MahjongError, NotWinningHandError, RulesetError, TileCountError,
)
from mahjong_core._validate import short_repr as _short
from mahjong_core.families.longcard import cards as _cards
from mahjong_core.families.longcard import fans as _fans
from mahjong_core.families.longcard import groups as _groups
from mahjong_core.families.longcard import options as _options

cdef enum:
    N_FACES = 21
    N_COMP = 6
    MAX_CARDS = 21          # 7 groups: the largest concealed part of a question
    MAX_DEPTH = 7
    MAX_AT = 8              # groups holding one face: 坎 + 3 partners x 2 + three 7s
    COPIES = 5
    FACE_7A = 5             # 高脚, the lowest-index 7: it leads the three-different-7s group
    FACE_7B = 9
    FACE_7C = 12

cdef uint8_t RED[N_FACES]
cdef uint8_t KAN_TUO[N_FACES]          # 陀 of a concealed 坎 of the face (4 black / 8 red)
cdef uint8_t NPART[N_FACES]
cdef uint8_t PART[N_FACES][3]
cdef uint8_t COMP[N_FACES]
cdef int32_t MULT[N_FACES]              # base-6 weight of the face inside its component
cdef int32_t COMP_SIZE[N_COMP]
cdef uint8_t COMP_NF[N_COMP]
cdef uint8_t COMP_FACES[N_COMP][6]
cdef int8_t* TUO_SPLIT[N_COMP]          # best 陀 of a component state, -1: no decomposition
cdef int8_t* TUO_KEEP[N_COMP]           # the same with every 3+ face kept as a 坎 (CP-51 false)


# ---------------------------------------------------------------------------------------------
# the group choice (spec 4.3), shared by the table builder and the search
# ---------------------------------------------------------------------------------------------
cdef inline int _groups_at(const uint8_t* c, int f, uint8_t (*out)[3]) noexcept nogil:
    """The groups that hold face f, the lowest face with cards: 坎, f f Y, f Y Y (Y a partner),
    and for 高脚 the three different 7s.  Returns how many were written to ``out``."""
    cdef int n = 0, k, y
    if c[f] >= 3:
        out[n][0] = f; out[n][1] = f; out[n][2] = f; n += 1
    for k in range(NPART[f]):
        y = PART[f][k]
        if c[y] == 0:
            continue
        if c[f] >= 2:
            out[n][0] = f; out[n][1] = f; out[n][2] = y; n += 1
        if c[y] >= 2:
            out[n][0] = f; out[n][1] = y; out[n][2] = y; n += 1
    if f == FACE_7A and c[FACE_7B] and c[FACE_7C]:
        out[n][0] = FACE_7A; out[n][1] = FACE_7B; out[n][2] = FACE_7C; n += 1
    return n


cdef inline int _group_tuo(const uint8_t* g) noexcept nogil:
    if g[0] == g[2]:
        return KAN_TUO[g[0]]
    return RED[g[0]] + RED[g[1]] + RED[g[2]]


# ---------------------------------------------------------------------------------------------
# component tables
# ---------------------------------------------------------------------------------------------
cdef void _build_component(int comp) noexcept nogil:
    cdef int32_t size = COMP_SIZE[comp], idx, rest, sub, delta
    cdef int nf = COMP_NF[comp], k, f, n, i, total, low, best, t, kept_tuo
    cdef uint8_t c[N_FACES]
    cdef uint8_t at[MAX_AT][3]
    cdef int8_t* split = TUO_SPLIT[comp]
    cdef int8_t* keep = TUO_KEEP[comp]
    for idx in range(size):
        memset(c, 0, N_FACES)
        rest = idx
        total = 0
        for k in range(nf):
            f = COMP_FACES[comp][k]
            c[f] = rest % 6
            rest = rest // 6
            total += c[f]
        if total == 0:
            split[idx] = 0
            continue
        best = -1
        if total % 3 == 0 and total <= MAX_CARDS:
            low = 0
            while c[low] == 0:
                low += 1
            n = _groups_at(c, low, at)
            for i in range(n):
                delta = MULT[at[i][0]] + MULT[at[i][1]] + MULT[at[i][2]]
                sub = split[idx - delta]       # a smaller index: already computed
                if sub >= 0:
                    t = sub + _group_tuo(at[i])
                    if t > best:
                        best = t
        split[idx] = best
    for idx in range(size):
        rest = idx
        sub = idx
        kept_tuo = 0
        for k in range(nf):
            f = COMP_FACES[comp][k]
            if rest % 6 >= 3:
                sub -= 3 * MULT[f]
                kept_tuo += KAN_TUO[f]
            rest = rest // 6
        keep[idx] = -1 if split[sub] < 0 else split[sub] + kept_tuo


def _init_tables():
    """Fill the C data from the rule data of ``families.longcard.cards`` and build the tables."""
    cdef int f, k, comp
    classes = sorted({min(p, 14 - p) for p in _cards.POINTS})
    assert len(classes) == N_COMP and all(len(p) <= 3 for p in _cards.PARTNERS)
    assert _cards.SEVENS == (FACE_7A, FACE_7B, FACE_7C)
    assert _groups.KINDS[K_PENG] == "peng" and _groups.KINDS[K_KAN] == "kan" and _groups.KINDS[K_CHI] == "chi"
    assert _groups.KINDS[K_SHA] == "sha" and _groups.KINDS[K_WEIXIANG] == "tuhuo_weixiang"
    assert _groups.KINDS[K_XIANG] == "tuhuo_xiang"
    for comp in range(N_COMP):
        COMP_NF[comp] = 0
    for f in range(N_FACES):
        RED[f] = _cards.IS_RED[f]
        KAN_TUO[f] = _groups.group_tuo("kan", (f, f, f))
        NPART[f] = len(_cards.PARTNERS[f])
        for k, y in enumerate(_cards.PARTNERS[f]):
            PART[f][k] = y
        comp = classes.index(min(_cards.POINTS[f], 14 - _cards.POINTS[f]))
        COMP[f] = comp
        MULT[f] = 6 ** COMP_NF[comp]
        COMP_FACES[comp][COMP_NF[comp]] = f
        COMP_NF[comp] += 1
    for comp in range(N_COMP):
        COMP_SIZE[comp] = 6 ** COMP_NF[comp]
        TUO_SPLIT[comp] = <int8_t*> malloc(COMP_SIZE[comp])
        TUO_KEEP[comp] = <int8_t*> malloc(COMP_SIZE[comp])
        if TUO_SPLIT[comp] == NULL or TUO_KEEP[comp] == NULL:
            raise MemoryError()
        with nogil:
            _build_component(comp)


_init_tables()


def table_info():
    """Sizes of the component tables (for tests and the documentation)."""
    return {"components": [[int(COMP_FACES[c][k]) for k in range(COMP_NF[c])] for c in range(N_COMP)],
            "states": [int(COMP_SIZE[c]) for c in range(N_COMP)],
            "bytes": 2 * sum(int(COMP_SIZE[c]) for c in range(N_COMP))}


def _table_value(int comp, int idx, bint keep_kans):
    """One table entry (tests compare it with the reference)."""
    if not 0 <= comp < N_COMP or not 0 <= idx < COMP_SIZE[comp]:
        raise MahjongError(f"no table entry ({comp}, {idx})")
    return int(TUO_KEEP[comp][idx] if keep_kans else TUO_SPLIT[comp][idx])


cdef inline int _table_sum(const int32_t* idx, bint keep_kans) noexcept nogil:
    """Sum of the six class entries at the base-6 indices ``idx``; -1 when a class has no split."""
    cdef int comp, t, total = 0
    cdef int8_t** table
    if keep_kans:
        table = TUO_KEEP
    else:
        table = TUO_SPLIT
    for comp in range(N_COMP):
        t = table[comp][idx[comp]]
        if t < 0:
            return -1
        total += t
    return total


cdef inline int _max_tuo(const uint8_t* c, bint keep_kans) noexcept nogil:
    """Largest 陀 of a decomposition of the concealed counts into groups, -1 if there is none."""
    cdef int32_t idx[N_COMP]
    cdef int f
    memset(idx, 0, sizeof(idx))
    for f in range(N_FACES):
        idx[COMP[f]] += c[f] * MULT[f]
    return _table_sum(idx, keep_kans)


cdef inline bint _all_black(const uint8_t* c) noexcept nogil:
    cdef int f
    for f in range(N_FACES):
        if c[f] and RED[f]:
            return False
    return True


# ---------------------------------------------------------------------------------------------
# the evaluator (spec 4.3): best decomposition by (fan, 陀)
# ---------------------------------------------------------------------------------------------
cdef enum:
    MAX_OPTS = 58   # a class has at most one all-坎 split and one Pareto option per 陀 value 0-56


cdef struct Option:      # one way to split the cards of one point class, kept if no other beats it
    int tuo
    int kan_fan
    bint chi
    int ngroups
    uint8_t groups[MAX_DEPTH][3]


cdef struct Search:
    int w[N_FACES]          # 五门将 weight of each face (0 when 坎 bear no fan)
    int thr                 # 陀 threshold of the seat
    int base_tuo            # 陀 of the declared groups
    int base_fan            # fan of the declared groups + 财神 (no 高胡/对对胡)
    bint declared_chi       # a declared 吃 group: never 对对胡
    bint waive              # all-black hand with all_black_waives_tuo: no threshold
    bint found
    int best_fan
    int best_tuo
    int depth               # groups on the stack
    int prefix              # groups fixed before the class searches (kept 坎, CP-51 false)
    int best_depth
    uint8_t stack[MAX_DEPTH][3]
    uint8_t best[MAX_DEPTH][3]
    int nopt[N_COMP]
    int pick[N_COMP]
    Option opts[N_COMP][MAX_OPTS]


cdef inline int _gaohu(int tuo, int thr) noexcept nogil:
    return (tuo - thr) // 10 if tuo > thr else 0


cdef void _record(Search* s, int comp, int tuo, int kan_fan, bint chi) noexcept nogil:
    """Keep the split just found for class ``comp`` unless another is at least as good in 陀, 坎 fan
    and 对对胡 (the fan only grows with each); drop the ones it beats."""
    cdef int i = 0, n = s.nopt[comp]
    cdef Option* o
    for i in range(n):
        o = &s.opts[comp][i]
        if o.tuo >= tuo and o.kan_fan >= kan_fan and (chi or not o.chi):
            return
    i = 0
    while i < n:
        o = &s.opts[comp][i]
        if tuo >= o.tuo and kan_fan >= o.kan_fan and (o.chi or not chi):
            s.opts[comp][i] = s.opts[comp][n - 1]
            n -= 1
        else:
            i += 1
    if n < MAX_OPTS:            # always: see MAX_OPTS
        o = &s.opts[comp][n]
        o.tuo = tuo
        o.kan_fan = kan_fan
        o.chi = chi
        o.ngroups = s.depth - s.prefix
        memcpy(o.groups, s.stack[s.prefix], 3 * o.ngroups)
        n += 1
    s.nopt[comp] = n


cdef void _search(Search* s, int comp, uint8_t* c, int low, int tuo, int kan_fan, bint chi) noexcept nogil:
    """Every split of the cards ``c`` (one class) into groups, each passed to :c:func:`_record`.
    ``low`` is a position in the class's ascending face list: only its faces are scanned, not all 21."""
    cdef uint8_t at[MAX_AT][3]
    cdef int n, i, f
    cdef int nf = COMP_NF[comp]
    while low < nf and c[COMP_FACES[comp][low]] == 0:
        low += 1
    if low == nf:
        _record(s, comp, tuo, kan_fan, chi)
        return
    if s.depth == MAX_DEPTH:    # pragma: no cover - the callers pass at most 21 cards
        return
    f = COMP_FACES[comp][low]
    n = _groups_at(c, f, at)
    for i in range(n):
        c[at[i][0]] -= 1; c[at[i][1]] -= 1; c[at[i][2]] -= 1
        memcpy(s.stack[s.depth], at[i], 3)
        s.depth += 1
        if at[i][0] == at[i][2]:
            _search(s, comp, c, low, tuo + KAN_TUO[f], kan_fan + s.w[f], chi)
        else:
            _search(s, comp, c, low, tuo + _group_tuo(at[i]), kan_fan, True)
        s.depth -= 1
        c[at[i][0]] += 1; c[at[i][1]] += 1; c[at[i][2]] += 1


cdef void _combine(Search* s, int comp, int tuo, int kan_fan, bint chi) noexcept nogil:
    """One option per class; the best whole hand by (fan, 陀) (spec 4.3)."""
    cdef int i, k, total, fan, depth
    cdef Option* o
    if comp == N_COMP:
        total = s.base_tuo + tuo
        if total < s.thr and not s.waive:
            return
        fan = s.base_fan + kan_fan + _gaohu(total, s.thr) + (0 if (chi or s.declared_chi) else 1)
        if not s.found or fan > s.best_fan or (fan == s.best_fan and total > s.best_tuo):
            s.found = True
            s.best_fan = fan
            s.best_tuo = total
            depth = s.prefix
            memcpy(s.best, s.stack, 3 * depth)
            for k in range(N_COMP):
                o = &s.opts[k][s.pick[k]]
                memcpy(s.best[depth], o.groups, 3 * o.ngroups)
                depth += o.ngroups
            s.best_depth = depth
        return
    for i in range(s.nopt[comp]):
        s.pick[comp] = i
        o = &s.opts[comp][i]
        _combine(s, comp + 1, tuo + o.tuo, kan_fan + o.kan_fan, chi or o.chi)


cdef bint _best(Search* s, uint8_t* c, bint keep_kans) noexcept nogil:
    """The best decomposition of the concealed counts ``c`` (restored on return): each point class is
    split on its own (its Pareto options kept), then one option per class is combined."""
    cdef int f, k, comp, tuo = 0, kan_fan = 0
    cdef uint8_t part[N_FACES]
    cdef bint ok = True
    s.found = False
    s.depth = 0
    s.best_depth = 0
    if keep_kans:                # CP-51 false: every face held 3+ times stays a 坎
        for f in range(N_FACES):
            if c[f] >= 3:
                c[f] -= 3
                s.stack[s.depth][0] = f; s.stack[s.depth][1] = f; s.stack[s.depth][2] = f
                s.depth += 1
                tuo += KAN_TUO[f]
                kan_fan += s.w[f]
    s.prefix = s.depth
    for comp in range(N_COMP):
        memset(part, 0, N_FACES)
        for k in range(COMP_NF[comp]):
            f = COMP_FACES[comp][k]
            part[f] = c[f]
        s.nopt[comp] = 0
        s.depth = s.prefix
        _search(s, comp, part, 0, 0, 0, False)
        if s.nopt[comp] == 0:
            ok = False
            break
    if ok:
        _combine(s, 0, tuo, kan_fan, False)
    for f in range(s.prefix - 1, -1, -1):
        c[s.stack[f][0]] += 3
    return s.found


# ---------------------------------------------------------------------------------------------
# input: counts, declared groups, options
# ---------------------------------------------------------------------------------------------
cdef inline bint _load_buffer(object obj, uint8_t* out) except -1:
    """Copy 21 counts from a 1-d C-contiguous uint8 buffer; False if obj is not one."""
    return load_counts(obj, out, N_FACES)


cdef dict _FACE_OF = {k: v for k, v in _cards._NAME_TO_FACE.items() if v < N_FACES}


cdef bint _load_text(str text, uint8_t* out) except -1:
    """Spaced single cards (``"11 66 44"``): counted here; False for anything else (repeats, names
    run together, 财神, a 6th copy), which the Python parser reads or refuses with its message."""
    memset(out, 0, N_FACES)
    cdef int f
    for tok in text.split():
        found = _FACE_OF.get(tok)
        if found is None:
            return False
        f = <int> found
        if out[f] == COPIES:
            return False
        out[f] += 1
    return True


cdef int _load(object hand, uint8_t* out) except -1:
    """The 21 counts of ``hand`` (uint8 array or spaced-card fast paths, else converted and checked
    in Python); returns the number of cards."""
    cdef int f, n = 0
    if type(hand) is str:
        if not _load_text(<str> hand, out) and not _load_buffer(_cards.to_counts(hand), out):
            raise ArrayShapeError("could not read 21 card counts")   # pragma: no cover
    elif not _load_buffer(hand, out):
        if not _load_buffer(_cards.to_counts(hand), out):   # pragma: no cover - to_counts gives uint8 (21,)
            raise ArrayShapeError("could not read 21 card counts")
    for f in range(N_FACES):
        if out[f] > COPIES:
            raise TileCountError(f"{out[f]} copies of {_cards.face_name(f, 'pips')}; each face has 5 copies")
        n += out[f]
    return n


# MAX_DECLARED and the group kind codes K_* are in _lc_hand.pxd (the round engine reads them too)


cdef class _GroupRec:
    """One declared group, parsed once, with what the kernels read."""
    cdef object group
    cdef int kind
    cdef int tuo
    cdef int ncards
    cdef uint8_t cards[5]


cdef dict _GROUP_CACHE = {}


cdef object _GroupType = _groups.Group


cdef inline bint _is_group(object g):
    """A :class:`Group` that hashes (its cards a tuple): equal ones mean the same group."""
    return type(g) is _GroupType and type(g.cards) is tuple


cdef _GroupRec _group_rec(object g):
    cdef bint cacheable = type(g) is str or _is_group(g)
    found = _GROUP_CACHE.get(g) if cacheable else None
    if found is not None:
        return <_GroupRec> found
    cdef _GroupRec r = _GroupRec()
    r.group = _groups.parse_group(g)
    r.kind = _groups.KIND_CODES[r.group.kind]
    r.tuo = r.group.tuo
    r.ncards = len(r.group.cards)
    for i, c in enumerate(r.group.cards):
        r.cards[i] = c
    if cacheable and len(_GROUP_CACHE) < 4096:   # a few hundred distinct groups exist
        _GROUP_CACHE[g] = r
    return r


if _groups.MAX_DECLARED != MAX_DECLARED:   # pragma: no cover - the two modules disagree
    raise ImportError(f"groups.MAX_DECLARED is {_groups.MAX_DECLARED}, the compiled core holds {MAX_DECLARED}")


cdef struct Declared:
    # the declared groups of a call, reduced to what the kernels need (on the caller's stack)
    int n
    int tuo
    bint chi
    bint red
    uint8_t own[N_FACES]
    uint8_t kinds[MAX_DECLARED]
    uint8_t faces[MAX_DECLARED]


cdef tuple _declared(object declared, Declared* d, bint want_groups):
    """Fill ``d`` from the declared groups, each a dictionary hit once its string has been seen (a
    few hundred distinct group strings exist; a cache of whole lists would grow with their
    combinations).  Returns the parsed groups as a tuple when ``want_groups``, else None."""
    memset(d, 0, sizeof(Declared))
    if declared is None:
        return () if want_groups else None
    cdef int i, f
    cdef _GroupRec r
    if type(declared) is not list and type(declared) is not tuple:
        declared = _groups.parse_declared(declared)   # any other iterable: checked there
    cdef list groups = [] if want_groups else None
    for g in declared:
        if d.n == MAX_DECLARED:
            raise TileCountError(f"more than {MAX_DECLARED} declared groups in {_short(declared)}")
        r = _group_rec(g)
        if want_groups:
            groups.append(r.group)
        d.kinds[d.n] = r.kind
        d.faces[d.n] = r.cards[0]
        d.n += 1
        d.tuo += r.tuo
        if r.kind == K_CHI:
            d.chi = True
        for i in range(r.ncards):
            f = r.cards[i]
            d.own[f] += 1
            if RED[f]:
                d.red = True
    return tuple(groups) if want_groups else None


cdef inline int _flag(object v, str what) except -1:
    if v is True:
        return 1
    if v is False:
        return 0
    if isinstance(v, np.bool_):           # a NumPy bool is a flag too (options.check_value normalises it)
        return 1 if v else 0
    raise RulesetError(f"option {what} must be True or False, got {_short(v)}")


cdef int _check_size(int n, int expected, const Declared* d, str question) except -1:
    if n != expected:
        raise HandSizeError(
            f"{n} concealed cards with {d.n} declared group{'s' if d.n != 1 else ''}: {question} needs "
            f"{expected} (21 effective cards for a win, a declared group counts 3)")
    return 0


cdef int _check_own(const uint8_t* c, const Declared* d, int extra) except -1:
    """Concealed + declared (+ the card ``extra``) copies of every face fit the deck."""
    cdef int f, n
    for f in range(N_FACES):
        n = c[f] + d.own[f] + (1 if f == extra else 0)
        if n > COPIES:
            raise TileCountError(f"{n} copies of {_cards.face_name(f, 'pips')} in the hand and its declared groups; "
                                 "the deck holds 5")
    return 0


cdef int THR_BANKER = _fans.threshold(True)
cdef int THR_OTHER = _fans.threshold(False)


cdef inline int _thr(object banker) except -1:
    return THR_BANKER if _flag(banker, "banker") else THR_OTHER


# ---------------------------------------------------------------------------------------------
# public single-hand functions
# ---------------------------------------------------------------------------------------------
def is_win(hand, *, declared=None, banker=False, win_split_kan=True, all_black_waives_tuo=False):
    """True when the concealed cards (the winning card included: 21 - 3 x declared groups) and the
    declared groups form 7 groups with 陀 >= 34 (banker) / 33 (others) (spec 4.1)."""
    cdef uint8_t c[N_FACES]
    cdef int n = _load(hand, c)
    cdef Declared d
    _declared(declared, &d, False)
    cdef int thr = _thr(banker)
    cdef bint keep = not _flag(win_split_kan, "win_split_kan")
    cdef bint waive = _flag(all_black_waives_tuo, "all_black_waives_tuo")
    _check_own(c, &d, -1)
    _check_size(n, MAX_CARDS - 3 * d.n, &d, "a win check")
    cdef int t = _max_tuo(c, keep)
    if t < 0:
        return False
    return t + d.tuo >= thr or (waive and not d.red and _all_black(c))


cdef uint32_t _waits_mask(uint8_t* c, const uint8_t* own, int base_tuo, int thr, bint keep, bint waive) noexcept nogil:
    """Bit x: c + x wins.  A card changes one class only, so every other class must already split:
    with two classes that do not, nothing completes the hand, and with one, only its faces can."""
    cdef int32_t idx[N_COMP]
    cdef int t, f, comp, bad = -1, rest = 0
    cdef int8_t** table
    if keep:
        table = TUO_KEEP
    else:
        table = TUO_SPLIT
    memset(idx, 0, sizeof(idx))
    for f in range(N_FACES):                 # the table indices of c, then one card added at a time
        idx[COMP[f]] += c[f] * MULT[f]
    for comp in range(N_COMP):               # the 陀 of the classes that split; the one that does not
        t = table[comp][idx[comp]]
        if t >= 0:
            rest += t
        elif bad < 0:
            bad = comp
        else:
            return 0
    return _winning_faces(c, own, idx, table, bad, rest, base_tuo, thr, waive, 0xFFFFFFFFu, False)


cdef inline uint32_t _winning_faces(uint8_t* c, const uint8_t* own, const int32_t* idx, int8_t** table, int bad,
                                    int rest, int base_tuo, int thr, bint waive, uint32_t allowed,
                                    bint first_only) noexcept nogil:
    """The faces x of ``allowed`` for which c + x wins, given c's table indices ``idx``, the one class
    that does not split (``bad``, -1 if none) and the 陀 of those that do (``rest``): only the faces
    of that class can complete the hand.  ``first_only``: stop at the first such face."""
    cdef uint32_t mask = 0
    cdef int k, x, t, comp
    for k in range(N_FACES if bad < 0 else COMP_NF[bad]):
        x = k if bad < 0 else COMP_FACES[bad][k]
        if c[x] + own[x] >= COPIES or not (allowed >> x) & 1:
            continue
        comp = COMP[x]
        t = table[comp][idx[comp] + MULT[x]]
        if t < 0:
            continue
        t += rest if bad >= 0 else rest - table[comp][idx[comp]]
        c[x] += 1
        if t + base_tuo >= thr or (waive and _all_black(c)):
            mask |= (<uint32_t> 1) << x
        c[x] -= 1
        if mask and first_only:
            break
    return mask


cdef bint _ready_after_discard(uint8_t* c, const uint8_t* own, int base_tuo, int thr, bint keep, bint waive,
                               uint32_t allowed) noexcept nogil:
    """Is there a discard d after which c - d waits (_waits_mask) on a face of ``allowed``?  The
    table indices are worked out once and moved by the discard's class only."""
    cdef int32_t idx[N_COMP]
    cdef int t0[N_COMP]
    cdef int d, cd, comp, t, bad, nbad, nbad0, rest
    cdef bint ok
    cdef int8_t** table
    if keep:
        table = TUO_KEEP
    else:
        table = TUO_SPLIT
    memset(idx, 0, sizeof(idx))
    for d in range(N_FACES):
        idx[COMP[d]] += c[d] * MULT[d]
    nbad0 = 0
    for comp in range(N_COMP):
        t0[comp] = table[comp][idx[comp]]
        nbad0 += t0[comp] < 0
    if nbad0 > 2:                             # a discard changes one class: two would still not split
        return False
    for d in range(N_FACES):
        if not c[d]:
            continue
        cd = COMP[d]
        if nbad0 == 2 and t0[cd] >= 0:        # the discard must come from a class that does not split
            continue
        c[d] -= 1
        idx[cd] -= MULT[d]
        bad = -1
        nbad = 0
        rest = 0
        for comp in range(N_COMP):
            t = table[comp][idx[comp]] if comp == cd else t0[comp]
            if t >= 0:
                rest += t
            else:
                bad = comp
                nbad += 1
        ok = nbad <= 1 and _winning_faces(c, own, idx, table, bad, rest, base_tuo, thr, waive, allowed, True) != 0
        c[d] += 1
        idx[cd] += MULT[d]
        if ok:
            return True
    return False


cdef list _mask_list(uint32_t mask):
    return [x for x in range(N_FACES) if (mask >> x) & 1]


def waits(hand, *, declared=None, banker=False, win_split_kan=True, all_black_waives_tuo=False):
    """Sorted faces that complete a win (spec 4.7) for the concealed cards before the card
    (20 - 3 x declared groups); a face the player owns all 5 copies of never is one."""
    cdef uint8_t c[N_FACES]
    cdef int n = _load(hand, c)
    cdef Declared d
    _declared(declared, &d, False)
    cdef int thr = _thr(banker)
    cdef bint keep = not _flag(win_split_kan, "win_split_kan")
    cdef bint waive = _flag(all_black_waives_tuo, "all_black_waives_tuo") and not d.red
    _check_own(c, &d, -1)
    _check_size(n, MAX_CARDS - 1 - 3 * d.n, &d, "a wait check")
    return _mask_list(_waits_mask(c, d.own, d.tuo, thr, keep, waive))


cdef class _Weights:
    """五门将 weights of one (jiang, wumenjiang, weight mode), from ``fans.face_weights``."""
    cdef readonly tuple weights
    cdef int w[N_FACES]


cdef class _FanArgs:
    """Validated fan options of a score call."""
    cdef _Weights weights
    cdef int caishen
    cdef int fan_cap
    cdef bint kan_as_peng
    cdef bint xiang_bonus
    cdef bint keep_kans
    cdef bint waive_option


cdef dict _WEIGHTS = {}


cdef _Weights _make_weights(object jiang, object wumenjiang, object mode):
    cdef _Weights r = _Weights()
    r.weights = tuple(_fans.face_weights(jiang, wumenjiang=wumenjiang, wumenjiang_weight=mode))
    for f in range(N_FACES):
        r.w[f] = r.weights[f]
    return r


cdef _Weights _DEFAULT_WEIGHTS = None


cdef _Weights _weights(object jiang, object wumenjiang, object mode):
    global _DEFAULT_WEIGHTS
    if jiang is None and wumenjiang is True and mode == "power_of_two":   # 将 cards unknown: 幺地人 only
        if _DEFAULT_WEIGHTS is None:
            _DEFAULT_WEIGHTS = _make_weights(None, True, "power_of_two")
        return _DEFAULT_WEIGHTS
    key = (jiang, wumenjiang, mode)
    try:
        found = _WEIGHTS.get(key)
    except TypeError:          # an unhashable jiang (a list): computed every time
        return _make_weights(jiang, wumenjiang, mode)
    if found is None:
        found = _make_weights(jiang, wumenjiang, mode)
        if len(_WEIGHTS) < 4096:
            _WEIGHTS[key] = found
    return <_Weights> found


cdef _FanArgs _fan_args(object jiang, object caishen, object wumenjiang, object wumenjiang_weight,
                        object xiang_bonus_on_fan_faces, object fan_cap, object kan_as_peng,
                        object win_split_kan, object all_black_waives_tuo, object caishen_count):
    """The options of a call, validated; every default (the common call) is the one instance built
    at import, found by identity and small-int tests instead of nine checks and an allocation."""
    if (jiang is None and wumenjiang is True and xiang_bonus_on_fan_faces is False and kan_as_peng is True
            and win_split_kan is True and all_black_waives_tuo is False
            and type(caishen) is int and caishen == 0 and type(fan_cap) is int and fan_cap == 0
            and type(caishen_count) is int and caishen_count == 5
            and type(wumenjiang_weight) is str and wumenjiang_weight == "power_of_two"):
        return _DEFAULT_FAN_ARGS
    return _fan_args_checked(jiang, caishen, wumenjiang, wumenjiang_weight, xiang_bonus_on_fan_faces, fan_cap,
                             kan_as_peng, win_split_kan, all_black_waives_tuo, caishen_count)


cdef _FanArgs _fan_args_checked(object jiang, object caishen, object wumenjiang, object wumenjiang_weight,
                                object xiang_bonus_on_fan_faces, object fan_cap, object kan_as_peng,
                                object win_split_kan, object all_black_waives_tuo, object caishen_count):
    cdef _FanArgs a = _FanArgs()
    cdef int f
    _flag(wumenjiang, "wumenjiang")
    if wumenjiang_weight != "power_of_two":
        _options.check_value("wumenjiang_weight", wumenjiang_weight)
    a.kan_as_peng = _flag(kan_as_peng, "kan_as_peng")
    a.xiang_bonus = _flag(xiang_bonus_on_fan_faces, "xiang_bonus_on_fan_faces")
    a.keep_kans = not _flag(win_split_kan, "win_split_kan")
    a.waive_option = _flag(all_black_waives_tuo, "all_black_waives_tuo")
    # 0 (no cap) or 3-1000: a cap below the 包子 minimum of 3 is refused (spec 4.6, CP-11)
    a.fan_cap = fan_cap if type(fan_cap) is int and (fan_cap == 0 or 3 <= fan_cap <= 1000) else \
        _options.check_value("fan_cap", fan_cap)
    cdef int limit = caishen_count if caishen_count == 5 and type(caishen_count) is int else \
        _options.check_value("caishen_count", caishen_count)
    if type(caishen) is not int:
        if not isinstance(caishen, (int, np.integer)) or isinstance(caishen, (bool, np.bool_)):
            raise TileCountError(f"caishen must be an integer 0-{limit}, got {_short(caishen)}")
        caishen = int(caishen)
    if not 0 <= caishen <= limit:
        raise TileCountError(f"{_short(caishen)} 财神: the deck holds {limit} (caishen_count)")
    a.caishen = caishen
    a.weights = _weights(jiang, wumenjiang, wumenjiang_weight)
    return a


cdef _FanArgs _DEFAULT_FAN_ARGS = _fan_args_checked(None, 0, True, "power_of_two", False, 0, True, True, False, 5)


cdef inline int _kind_fan_of(int kind, int w, bint kan_as_peng, bint xiang_bonus) noexcept nogil:
    """Face fan and 吐火响 bonus of one same-face group of the kind, face weight w (spec 4.4)."""
    if kind == K_CHI or (kind == K_KAN and not kan_as_peng):
        return 0
    if kind == K_PENG or kind == K_KAN:
        return w
    if kind == K_SHA or kind == K_WEIXIANG:
        return 2 * w
    return 3 * w + (1 if w == 0 or xiang_bonus else 0)


cdef void _prepare(Search* s, const Declared* d, const int* w, int caishen, int thr, bint kan_as_peng,
                   bint xiang_bonus) noexcept nogil:
    """The search's face weights (``w``, the 五门将 weights; zeros when 坎 bear no fan), threshold and
    declared part: their 陀, and their face fan and 吐火响 bonuses (spec 4.4) plus ``caishen``."""
    cdef int f, i, fan = 0
    for f in range(N_FACES):
        s.w[f] = w[f] if kan_as_peng else 0
    s.thr = thr
    s.base_tuo = d.tuo
    s.declared_chi = d.chi
    for i in range(d.n):
        fan += _kind_fan_of(d.kinds[i], w[d.faces[i]], kan_as_peng, xiang_bonus)
    s.base_fan = fan + caishen


cdef tuple _NO_ARGS = ()
cdef type _Score = None   # the Python subclass Score, bound on first use (it imports this module)


cdef class ScoreCore:
    """The fields of a :class:`~mahjong_core.families.longcard.Score`, filled by :func:`score`
    without a Python ``__init__`` (the subclass adds the derived views)."""
    cdef readonly int total
    cdef readonly int fan
    cdef readonly int tuo
    cdef readonly bint banker
    cdef readonly int caishen
    cdef readonly int fan_cap
    cdef readonly tuple declared
    cdef readonly bytes concealed
    cdef readonly tuple weights
    cdef readonly bint kan_as_peng
    cdef readonly bint xiang_bonus


def score(hand, card=None, *, declared=None, banker=False, jiang=None, caishen=0, wumenjiang=True,
          wumenjiang_weight="power_of_two", xiang_bonus_on_fan_faces=False, fan_cap=0, kan_as_peng=True,
          win_split_kan=True, all_black_waives_tuo=False, caishen_count=5):
    """The best reading of a win (spec 4.3-4.6) as a :class:`~mahjong_core.families.longcard.Score`.

    ``hand`` is the concealed cards before the winning ``card`` (20 - 3 x declared groups), or with
    ``card=None`` all 21 - 3 x declared (the banker's 天胡).  ``jiang`` = (J1, J2), the 五门将 cards;
    ``caishen`` = 财神 laid out by the player.  Raises ``NotWinningHandError`` if it is no win."""
    cdef uint8_t c[N_FACES]
    cdef int n = _load(hand, c)
    cdef Declared d
    cdef tuple groups = _declared(declared, &d, True)
    cdef int thr = _thr(banker)
    cdef _FanArgs a = _fan_args(jiang, caishen, wumenjiang, wumenjiang_weight, xiang_bonus_on_fan_faces,
                                fan_cap, kan_as_peng, win_split_kan, all_black_waives_tuo, caishen_count)
    cdef int x = -1
    if card is not None:
        x = card if type(card) is int and 0 <= card < N_FACES else _cards.parse_card(card)
    _check_own(c, &d, x)
    if x >= 0:
        _check_size(n, MAX_CARDS - 1 - 3 * d.n, &d, "a score with a winning card")
    else:
        _check_size(n, MAX_CARDS - 3 * d.n, &d, "a score without a winning card")
    if x >= 0:
        c[x] += 1
    cdef Search s
    _prepare(&s, &d, a.weights.w, a.caishen, thr, a.kan_as_peng, a.xiang_bonus)
    s.waive = a.waive_option and not d.red and _all_black(c)
    _best(&s, c, a.keep_kans)   # with the GIL: releasing and taking it back costs more than a search
    if not s.found:
        raise NotWinningHandError(
            f"{_cards.format_cards(_counts_list(c))} with {d.n} declared group(s) is no win: "
            + ("no split into 7 groups" if _max_tuo(c, a.keep_kans) < 0 else
               f"陀 {_max_tuo(c, a.keep_kans) + d.tuo} < {thr}"))
    cdef int total = min(s.best_fan, a.fan_cap) if a.fan_cap else s.best_fan
    global _Score
    if _Score is None:     # the Python subclass imports this module: bound on first use
        from mahjong_core.families.longcard.result import Score as _Score
    # the type's tp_new called directly (no __new__ attribute lookup); args must be a tuple, kwds may be NULL
    cdef ScoreCore out = (<PyTypeObject*> _Score).tp_new(_Score, <PyObject*> _NO_ARGS, NULL)
    out.total = total
    out.fan = s.best_fan
    out.tuo = s.best_tuo
    out.banker = thr == THR_BANKER
    out.caishen = a.caishen
    out.fan_cap = a.fan_cap
    out.declared = groups
    out.concealed = (<char*> s.best)[:3 * s.best_depth]
    out.weights = a.weights.weights
    out.kan_as_peng = a.kan_as_peng
    out.xiang_bonus = a.xiang_bonus
    return out


cdef list _counts_list(const uint8_t* c):
    return [f for f in range(N_FACES) for _ in range(c[f])]


def wait_scores(hand, *, declared=None, banker=False, jiang=None, caishen=0, wumenjiang=True,
                wumenjiang_weight="power_of_two", xiang_bonus_on_fan_faces=False, fan_cap=0, kan_as_peng=True,
                win_split_kan=True, all_black_waives_tuo=False, caishen_count=5):
    """``{face: (fan, 陀)}`` of every wait (spec 4.7; fan after the cap), hand as in :func:`waits`."""
    cdef uint8_t c[N_FACES]
    cdef int n = _load(hand, c)
    cdef Declared d
    _declared(declared, &d, False)
    cdef int thr = _thr(banker)
    cdef _FanArgs a = _fan_args(jiang, caishen, wumenjiang, wumenjiang_weight, xiang_bonus_on_fan_faces,
                                fan_cap, kan_as_peng, win_split_kan, all_black_waives_tuo, caishen_count)
    _check_own(c, &d, -1)
    _check_size(n, MAX_CARDS - 1 - 3 * d.n, &d, "a wait check")
    cdef Search s
    _prepare(&s, &d, a.weights.w, a.caishen, thr, a.kan_as_peng, a.xiang_bonus)
    cdef bint waive = a.waive_option and not d.red
    cdef uint32_t mask = _waits_mask(c, d.own, d.tuo, thr, a.keep_kans, waive)
    out = {}
    for x in _mask_list(mask):
        c[x] += 1
        s.waive = waive and _all_black(c)
        _best(&s, c, a.keep_kans)
        c[x] -= 1
        out[x] = (min(s.best_fan, a.fan_cap) if a.fan_cap else s.best_fan, s.best_tuo)
    return out


# ---------------------------------------------------------------------------------------------
# batch functions over (N, 21) uint8 arrays, no declared groups
# ---------------------------------------------------------------------------------------------
cdef const uint8_t[:, ::1] _batch_view(object counts2d):
    cdef const uint8_t[:, ::1] view
    if counts2d is None:
        raise ArrayShapeError("expected a C-contiguous (N, 21) uint8 array of card counts, got None")
    try:
        view = counts2d
    except (ValueError, TypeError, BufferError) as exc:
        raise ArrayShapeError(f"expected a C-contiguous (N, 21) uint8 array of card counts ({exc})") from None
    if view.shape[1] != N_FACES:
        raise ArrayShapeError(f"expected an (N, 21) array of card counts, got shape ({view.shape[0]}, {view.shape[1]})")
    return view


cdef inline int _row_error(const uint8_t* c, int expected) noexcept nogil:
    """0 for a valid row of ``expected`` cards, 1 for a count above 5, 2 for a wrong size."""
    cdef int f, n = 0
    for f in range(N_FACES):
        if c[f] > COPIES:
            return 1
        n += c[f]
    return 0 if n == expected else 2


cdef inline int _checked_max_tuo(const uint8_t* c, bint keep_kans, int* code) noexcept nogil:
    """:c:func:`_max_tuo` of a 21-card row, validated in the same pass (``code`` as in _row_error)."""
    cdef int32_t idx[N_COMP]
    cdef int f, v, n = 0
    memset(idx, 0, sizeof(idx))
    for f in range(N_FACES):
        v = c[f]
        if v > COPIES:
            code[0] = 1
            return -1
        n += v
        idx[COMP[f]] += v * MULT[f]
    code[0] = 0 if n == MAX_CARDS else 2
    return _table_sum(idx, keep_kans) if n == MAX_CARDS else -1


cdef int _raise_row(int code, const uint8_t[:, ::1] v, Py_ssize_t row, int expected) except -1:
    counts = [int(v[row, f]) for f in range(N_FACES)]
    if code == 1:
        raise TileCountError(f"row {row}: a count above 5 in {counts}")
    raise HandSizeError(f"row {row}: {sum(counts)} cards, expected {expected} (no declared groups)")


def is_win_batch(counts2d, banker=False, win_split_kan=True, all_black_waives_tuo=False):
    """Win check of every row of a C-contiguous ``(N, 21)`` uint8 array of 21-card hands (no declared
    groups); a numpy bool array.  The loop runs without the GIL."""
    cdef const uint8_t[:, ::1] v = _batch_view(counts2d)
    cdef int thr = _thr(banker)
    cdef bint keep = not _flag(win_split_kan, "win_split_kan")
    cdef bint waive = _flag(all_black_waives_tuo, "all_black_waives_tuo")
    cdef Py_ssize_t rows = v.shape[0], i, bad = -1
    out = np.zeros(rows, dtype=np.bool_)
    cdef uint8_t[::1] res = out.view(np.uint8)
    cdef int code = 0, t
    with nogil:
        for i in range(rows):
            t = _checked_max_tuo(&v[i, 0], keep, &code)
            if code:
                bad = i
                break
            res[i] = t >= 0 and (t >= thr or (waive and _all_black(&v[i, 0])))
    if bad >= 0:
        _raise_row(code, v, bad, MAX_CARDS)
    return out


def waits_batch(counts2d, banker=False, win_split_kan=True, all_black_waives_tuo=False):
    """Wait bitmask (bit f = face f) of every row of an ``(N, 21)`` array of 20-card hands; uint32."""
    cdef const uint8_t[:, ::1] v = _batch_view(counts2d)
    cdef int thr = _thr(banker)
    cdef bint keep = not _flag(win_split_kan, "win_split_kan")
    cdef bint waive = _flag(all_black_waives_tuo, "all_black_waives_tuo")
    cdef Py_ssize_t rows = v.shape[0], i, bad = -1
    out = np.zeros(rows, dtype=np.uint32)
    cdef uint32_t[::1] res = out
    cdef uint8_t c[N_FACES]
    cdef uint8_t none[N_FACES]
    cdef int code = 0
    memset(none, 0, N_FACES)
    with nogil:
        for i in range(rows):
            code = _row_error(&v[i, 0], MAX_CARDS - 1)
            if code:
                bad = i
                break
            memcpy(c, &v[i, 0], N_FACES)
            res[i] = _waits_mask(c, none, 0, thr, keep, waive)
    if bad >= 0:
        _raise_row(code, v, bad, MAX_CARDS - 1)
    return out


def score_batch(counts2d, *, banker=False, jiang=None, caishen=0, wumenjiang=True,
                wumenjiang_weight="power_of_two", xiang_bonus_on_fan_faces=False, fan_cap=0, kan_as_peng=True,
                win_split_kan=True, all_black_waives_tuo=False, caishen_count=5):
    """Fan (after the cap) and 陀 of every row of an ``(N, 21)`` array of 21-card hands (winning card
    included, no declared groups): two int16 arrays, fan -1 and 陀 -1 where the row is no win."""
    cdef const uint8_t[:, ::1] v = _batch_view(counts2d)
    cdef int thr = _thr(banker)
    cdef _FanArgs a = _fan_args(jiang, caishen, wumenjiang, wumenjiang_weight, xiang_bonus_on_fan_faces,
                                fan_cap, kan_as_peng, win_split_kan, all_black_waives_tuo, caishen_count)
    cdef Py_ssize_t rows = v.shape[0], i, bad = -1
    fan_out = np.full(rows, -1, dtype=np.int16)
    tuo_out = np.full(rows, -1, dtype=np.int16)
    cdef int16_t[::1] fr = fan_out
    cdef int16_t[::1] tr = tuo_out
    cdef uint8_t c[N_FACES]
    cdef int code = 0
    cdef Search s
    cdef Declared no_declared
    memset(&no_declared, 0, sizeof(Declared))
    _prepare(&s, &no_declared, a.weights.w, a.caishen, thr, a.kan_as_peng, a.xiang_bonus)
    with nogil:
        for i in range(rows):
            code = _row_error(&v[i, 0], MAX_CARDS)
            if code:
                bad = i
                break
            memcpy(c, &v[i, 0], N_FACES)
            if _max_tuo(c, a.keep_kans) < 0:
                continue
            s.waive = a.waive_option and _all_black(c)
            if _best(&s, c, a.keep_kans):
                fr[i] = min(s.best_fan, a.fan_cap) if a.fan_cap else s.best_fan
                tr[i] = s.best_tuo
    if bad >= 0:
        _raise_row(code, v, bad, MAX_CARDS)
    return fan_out, tuo_out

include "_lc_counting.pxi"


# ---------------------------------------------------------------------------------------------
# C entry points for the compiled round engine (declared in _lc_hand.pxd)
# ---------------------------------------------------------------------------------------------
cdef int lc_max_tuo(const uint8_t* c, bint keep_kans) noexcept nogil:
    return _max_tuo(c, keep_kans)


cdef bint lc_all_black(const uint8_t* c) noexcept nogil:
    return _all_black(c)


cdef bint lc_red(int f) noexcept nogil:
    return RED[f]


cdef int lc_group_tuo(const uint8_t* g) noexcept nogil:
    return _group_tuo(g)


cdef int lc_same_tuo(int f, int n) noexcept nogil:
    return SAME_TUO[f][n]


cdef uint32_t lc_waits_mask(uint8_t* c, const uint8_t* own, int base_tuo, int thr, bint keep,
                            bint waive) noexcept nogil:
    return _waits_mask(c, own, base_tuo, thr, keep, waive)


cdef bint lc_ready_after_discard(uint8_t* c, const uint8_t* own, int base_tuo, int thr, bint keep, bint waive,
                                 uint32_t allowed) noexcept nogil:
    return _ready_after_discard(c, own, base_tuo, thr, keep, waive, allowed)


cdef int lc_score_total(uint8_t* c, int n_decl, const uint8_t* kinds, const uint8_t* faces, int decl_tuo,
                        bint decl_red, const int* w, int caishen, int thr, bint kan_as_peng, bint xiang_bonus,
                        bint keep_kans, bint waive_option, int fan_cap) noexcept nogil:
    """:func:`score`'s ``total`` (the search of :func:`score`, no Python objects; ``c`` restored)."""
    cdef Search s
    cdef Declared d
    cdef int i
    d.n = n_decl
    d.tuo = decl_tuo
    d.red = decl_red
    d.chi = False
    for i in range(n_decl):
        d.kinds[i] = kinds[i]
        d.faces[i] = faces[i]
        d.chi = d.chi or kinds[i] == K_CHI
    _prepare(&s, &d, w, caishen, thr, kan_as_peng, xiang_bonus)
    s.waive = waive_option and not decl_red and _all_black(c)
    if not _best(&s, c, keep_kans):
        return -1
    return min(s.best_fan, fan_cap) if fan_cap else s.best_fan
