# Included by _fan.pyx.  The per-call front of the public scoring API: mahjong_core.score, the
# reusable Scorer, and the storage of a Score.  A call whose arguments are all in a plain form
# (tile and meld strings in the ASCII notation, exact uint8 count arrays, int tiles, True/False
# flags, a registered ruleset ...) is read here, in C, and the kernel runs on stack buffers, its
# counts written straight into the Score.  Every other call -- another input form, a bad value,
# a kernel error -- goes to the Python path (scoring._score_checked), which reads the call again
# from the start: so the Python checks decide every error and its message, and run only then.
# tests/fan/test_score_front.py holds the two paths equal on random calls, valid or not.

from sys import intern as _intern


cdef class _RulesetFront:
    """What the front needs of a registered mahjong ruleset."""
    cdef int code
    cdef int min_fan
    cdef bint flowers_by_name
    cdef object name
    cdef object record
    cdef object key     # the table's interned name (the last-found check compares it by identity)


cdef dict _front_rulesets():
    from sys import intern
    cdef dict table = {}
    cdef _RulesetFront f
    for name, rs in _RULESETS.items():
        f = _RulesetFront()
        f.code = rs.code
        f.min_fan = rs.min_fan
        f.flowers_by_name = rs.flowers_scored_by_name
        f.name = rs.name
        f.record = rs
        f.key = intern(name)
        table[f.key] = f   # interned: a literal name then finds its key by identity
    return table


cdef dict _FRONT_RS = _front_rulesets()
cdef dict _WINDS = dict(WIND_NAMES)
# The table's interned names and fronts, for a lookup by identity first: a name written in the
# caller's code is interned, so it is the table's key itself (set once at import, then only read).
cdef tuple _FRONT_NAMES = tuple(_FRONT_RS)
cdef tuple _FRONT_VALUES = tuple(_FRONT_RS.values())


# The front found last by an interned name: a program scores one ruleset call after call, and the
# check is one comparison.  One object read and written whole (its name and values go together,
# so a thread never pairs one ruleset's name with another's front).
cdef _RulesetFront _FRONT_LAST = <_RulesetFront> _FRONT_VALUES[0]


cdef inline _RulesetFront _front_ruleset(object ruleset):
    """The front of a ruleset given by name or as a registered record; None otherwise."""
    global _FRONT_LAST
    cdef _RulesetFront f = _FRONT_LAST
    cdef Py_ssize_t i
    if f.key is ruleset:
        return f
    if type(ruleset) is str:
        for i in range(len(_FRONT_NAMES)):
            if (<tuple> _FRONT_NAMES)[i] is ruleset:
                f = <_RulesetFront> (<tuple> _FRONT_VALUES)[i]
                _FRONT_LAST = f
                return f
        return _FRONT_RS.get(ruleset)
    for f in _FRONT_RS.values():
        if ruleset is f.record:
            return f
    return None


cdef extern from *:
    """
    /* ScoreBase.__new__(Score) through the slot: the call by name looks __new__ up on every Score */
    static PyObject *mj_front_new(PyObject *base, PyObject *sub, PyObject *args) {
        return ((PyTypeObject *) base)->tp_new((PyTypeObject *) sub, args, NULL);
    }
    """
    object _new_through_slot "mj_front_new"(object base, object sub, object args)


# The Python side, bound on first use (scoring imports this module).
cdef type _SCORE_TYPE = None        # scoring.Score
cdef object _SCORE_CHECKED = None   # scoring._score_checked: the Python path of score()
cdef object _OPTIONS_CHECKED = None # scoring._options


cdef int _bind_python() except -1:
    global _SCORE_TYPE, _SCORE_CHECKED, _OPTIONS_CHECKED
    from mahjong_core.families.mahjong import scoring
    _SCORE_TYPE = scoring.Score
    _SCORE_CHECKED = scoring._score_checked
    _OPTIONS_CHECKED = scoring._options
    _pool_scores(_SCORE_TYPE)
    return 0


# A pool of freed Scores' memory.  Making and freeing a Score was a tenth of a call (the allocator,
# the collector's links, subtype_dealloc's general path, a managed dict's pre-header): Score adds no
# field, dict or weak reference to ScoreBase (its __dict__ is ScoreBase's), so its dealloc is
# ScoreBase's plus the release of its type, its free keeps up to MJ_SCORE_POOL blocks and its alloc
# reuses one (zeroed up to _raw, which the kernel writes before anything reads it).  The slots are
# set only when the type is so (else every Score is made and freed as before); subclasses of Score
# keep CPython's own slots (type() sets them) and reach Score's dealloc as their base's, which then
# releases their type as subtype_dealloc expects of a heap base.  Only with the GIL.
cdef extern from *:
    """
    #ifdef Py_GIL_DISABLED
    #define MJ_SCORE_POOL 0
    #else
    #define MJ_SCORE_POOL 32
    static PyObject *mj_score_pool[MJ_SCORE_POOL];
    #endif
    static int mj_score_pooled = 0;
    static PyTypeObject *mj_score_type = NULL;
    static destructor mj_score_base_dealloc = NULL;
    static size_t mj_score_zeroed = 0;      /* bytes after the object header zeroed on reuse */

    static void mj_score_free(void *p) {
    #if MJ_SCORE_POOL
        if (Py_TYPE((PyObject *) p) == mj_score_type && mj_score_pooled < MJ_SCORE_POOL) {
            mj_score_pool[mj_score_pooled++] = (PyObject *) p;
            return;
        }
    #endif
        PyObject_GC_Del(p);
    }

    /* A pooled block as a new Score (not zeroed), or NULL when the pool is empty. */
    static inline PyObject *mj_score_pop(void) {
    #if MJ_SCORE_POOL
        if (mj_score_pooled > 0) {
            PyObject *o = mj_score_pool[--mj_score_pooled];
            PyObject_Init(o, mj_score_type);    /* a new reference; the heap type's reference taken again */
            return o;
        }
    #endif
        return NULL;
    }

    static PyObject *mj_score_alloc(PyTypeObject *tp, Py_ssize_t nitems) {
        PyObject *o;
        if (tp == mj_score_type && (o = mj_score_pop()) != NULL) {
            memset((char *) o + sizeof(PyObject), 0, mj_score_zeroed);
            PyObject_GC_Track(o);
            return o;
        }
        return PyType_GenericAlloc(tp, nitems);
    }

    /* A Score for the front: its object fields None and its dict not made (ScoreBase's tp_new makes
       one; the attribute functions make it on first use, and every reader of the field takes NULL). */
    #define MJ_SCORE_VALUES 5                  /* ruleset, total, non_flower_total, min_fan, form_code */
    static PyObject *mj_score_new(void) {
        PyObject *o = mj_score_pop(), **field;
        Py_ssize_t i;
        int pooled = o != NULL;
        if (!pooled && (o = PyType_GenericAlloc(mj_score_type, 0)) == NULL)    /* zeroed and tracked */
            return NULL;
        /* the value fields NULL until mj_score_fill (the dealloc and the collector's functions take
           NULL; the front runs no Python code between), _array None, the dict NULL; _nf and _raw are
           written by the front before any read */
        field = (PyObject **) ((char *) o + sizeof(PyObject));
        for (i = 0; i < MJ_SCORE_VALUES; i++)
            field[i] = NULL;
        Py_INCREF(Py_None);
        field[MJ_SCORE_VALUES] = Py_None;
        field[MJ_SCORE_VALUES + 1] = NULL;
        if (pooled)
            PyObject_GC_Track(o);
        return o;
    }

    static PyObject *mj_small_ints = NULL;      /* the tuple of the ints 0 .. 1023, made once */

    static inline PyObject *mj_int(int v) {
        PyObject *o;
        if (v >= 0 && v < PyTuple_GET_SIZE(mj_small_ints)) {
            o = PyTuple_GET_ITEM(mj_small_ints, v);
            Py_INCREF(o);
            return o;
        }
        return PyLong_FromLong(v);
    }

    /* The value fields of a Score from mj_score_new: ruleset, total, non_flower_total, min_fan, form_code. */
    static int mj_score_fill(PyObject *o, PyObject *ruleset, int total, int non_flower_total, int min_fan,
                             int form) {
        PyObject **field = (PyObject **) ((char *) o + sizeof(PyObject));
        Py_INCREF(ruleset);
        field[0] = ruleset;
        field[1] = mj_int(total);
        field[2] = mj_int(non_flower_total);
        field[3] = mj_int(min_fan);
        field[4] = mj_int(form);
        return field[1] && field[2] && field[3] && field[4] ? 0 : -1;
    }

    static void mj_score_dealloc(PyObject *o) {
        PyTypeObject *tp = Py_TYPE(o);
        PyObject **field = (PyObject **) ((char *) o + sizeof(PyObject));
        int i;
        if (tp == mj_score_type) {      /* ScoreBase's dealloc, its fields' layout checked at install */
            PyObject_GC_UnTrack(o);
            for (i = 0; i < MJ_SCORE_VALUES + 2; i++)       /* the values, _array, the dict */
                Py_CLEAR(field[i]);
            mj_score_free(o);
        } else {
            mj_score_base_dealloc(o);   /* a subclass's: untracks, clears the fields and the dict, calls tp_free */
        }
        Py_DECREF(tp);
    }

    /* 1 when Score's slots are now the pool's, 0 when Score is not a plain subclass of its base. */
    static int mj_install_score_pool(PyObject *score, PyObject *base, Py_ssize_t raw_offset, PyObject *fresh,
                                     PyObject *fresh_dict, PyObject *marks, PyObject *small_ints) {
        PyTypeObject *tp = (PyTypeObject *) score, *bt = (PyTypeObject *) base;
        Py_ssize_t i;
        if (!MJ_SCORE_POOL || mj_score_type != NULL)
            return mj_score_type != NULL;
    #ifdef Py_TPFLAGS_MANAGED_DICT
        if (PyType_HasFeature(tp, Py_TPFLAGS_MANAGED_DICT))
            return 0;
    #endif
    #ifdef Py_TPFLAGS_MANAGED_WEAKREF
        if (PyType_HasFeature(tp, Py_TPFLAGS_MANAGED_WEAKREF))
            return 0;
    #endif
        if (tp->tp_base != bt || tp->tp_basicsize != bt->tp_basicsize || tp->tp_itemsize != 0
                || tp->tp_dictoffset != bt->tp_dictoffset || tp->tp_weaklistoffset != bt->tp_weaklistoffset
                || tp->tp_finalize != NULL || tp->tp_del != NULL || !PyType_HasFeature(tp, Py_TPFLAGS_HEAPTYPE)
                || !PyType_IS_GC(tp) || tp->tp_free != PyObject_GC_Del || tp->tp_alloc != PyType_GenericAlloc
                || raw_offset <= (Py_ssize_t) sizeof(PyObject) || raw_offset > bt->tp_basicsize)
            return 0;
        /* the layout mj_score_new and mj_score_fill write: after the header the five value fields and
           _array (`fresh` holds the objects of `marks` in them, in that order), then the dict */
        if (bt->tp_dictoffset != (Py_ssize_t) (sizeof(PyObject) + (MJ_SCORE_VALUES + 1) * sizeof(PyObject *))
                || bt->tp_dictoffset >= raw_offset || *(PyObject **) ((char *) fresh + bt->tp_dictoffset) != fresh_dict
                || PyTuple_GET_SIZE(marks) != MJ_SCORE_VALUES + 1)
            return 0;
        for (i = 0; i <= MJ_SCORE_VALUES; i++)
            if (((PyObject **) ((char *) fresh + sizeof(PyObject)))[i] != PyTuple_GET_ITEM(marks, i))
                return 0;
        Py_INCREF(small_ints);
        mj_small_ints = small_ints;
        mj_score_zeroed = (size_t) raw_offset - sizeof(PyObject);
        mj_score_base_dealloc = bt->tp_dealloc;
        mj_score_type = tp;
        tp->tp_dealloc = mj_score_dealloc;
        tp->tp_free = mj_score_free;
        tp->tp_alloc = mj_score_alloc;
        return 1;
    }
    """
    int _install_score_pool "mj_install_score_pool"(object score, object base, Py_ssize_t raw_offset, object fresh,
                                                    object fresh_dict, tuple marks, tuple small_ints)
    int _score_fill "mj_score_fill"(object score, object ruleset, int total, int non_flower_total, int min_fan,
                                    int form) except -1
    object _score_new "mj_score_new"()
    bint _score_pool_on "(mj_score_type != NULL)"
    int _score_pooled "mj_score_pooled"
    int MJ_SCORE_POOL


cdef int _pool_scores(type score) except -1:
    """Install the pool for `score` (a fresh ScoreBase shows the layout it writes): 1, or 0 when not."""
    cdef ScoreBase fresh = ScoreBase.__new__(ScoreBase)
    marks = tuple(object() for _ in range(6))
    fresh.ruleset, fresh.total, fresh.non_flower_total, fresh.min_fan, fresh.form_code, fresh._array = marks
    return _install_score_pool(score, ScoreBase, <char*> fresh._raw - <char*> <PyObject*> fresh, fresh,
                               getattr(fresh, "__dict__"), marks, _SMALL_INTS)


def _score_pool_state():
    """(installed, Scores held, capacity) of the pool (for tests)."""
    return (_SCORE_TYPE is not None and _pool_scores(_SCORE_TYPE) == 1, _score_pooled, MJ_SCORE_POOL)


@cython.auto_pickle(False)   # a Score pickles through its own __reduce__
cdef class ScoreBase:
    """The fields of :class:`mahjong_core.Score`, which subclasses this.  The per-fan counts stay a
    C array until ``_counts`` is first read (the front writes the kernel's counts straight into it)."""
    cdef public object ruleset
    cdef public object total
    cdef public object non_flower_total
    cdef public object min_fan
    cdef public object form_code
    cdef object _array
    cdef dict __dict__      # the instances' attributes: Score adds no dict of its own (see the pool below)
    cdef int _nf
    cdef uint16_t _raw[MAX_FANS]   # last: a Score taken from the pool is zeroed up to here only

    @property
    def _counts(self):
        cdef cnp.ndarray arr
        if self._array is None:
            arr = np.empty(self._nf, np.uint16)
            memcpy(cnp.PyArray_DATA(arr), self._raw, sizeof(uint16_t) * self._nf)
            self._array = arr
        return self._array

    @_counts.setter
    def _counts(self, value):
        self._array = value


cdef inline bint _flag(object v, uint32_t bit, uint32_t* acc) noexcept:
    """Add `bit` for True; False when v is neither True nor False (the Python path reads it)."""
    if v is True:
        acc[0] |= bit
        return True
    return v is False


cdef inline int _plain_counts(object hand, uint8_t* out) noexcept:
    """The 34 counts of a plain hand -- a tile string, or an exact C-contiguous uint8 (34,) array:
    0, or SCAN_OTHER.  An array's counts are not checked here: a count above 4 fails the kernel's
    size or fifth-copy check, and the call then goes to the Python path, which names the error."""
    cdef cnp.ndarray a
    if type(hand) is str:
        return _text_counts(<str> hand, out)
    if type(hand) is not _NDARRAY:
        return SCAN_OTHER
    a = <cnp.ndarray> hand
    if (cnp.PyArray_NDIM(a) != 1 or cnp.PyArray_TYPE(a) != cnp.NPY_UINT8 or cnp.PyArray_DIM(a, 0) != N_KINDS
            or not cnp.PyArray_IS_C_CONTIGUOUS(a)):
        return SCAN_OTHER
    memcpy(out, cnp.PyArray_DATA(a), N_KINDS)
    return 0


cdef inline int _plain_tile(object tile) noexcept:
    """A winning tile 0-33 given as an int (Python or NumPy) or a one-tile string; -1 for None; -2
    otherwise."""
    cdef int t[1]
    cdef int overflow = 0
    cdef long long v
    if tile is None:
        return -1
    if type(tile) is int:     # read in C: no Python comparison
        v = PyLong_AsLongLongAndOverflow(tile, &overflow)
        return <int> v if not overflow and 0 <= v <= 33 else -2
    if isinstance(tile, _NP_INTEGER):   # a NumPy bool is not an np.integer
        return <int> tile if 0 <= tile <= 33 else -2   # compared before the cast: no overflow
    if type(tile) is str and _scan_tiles(<str> tile, 0, t, 1, False) == 1:
        return t[0]
    return -2


# Meld strings already read, by their characters: a program writes the same few melds again and
# again (there are 123 in the canonical form of format_tiles), and a slot's check costs a fifth of
# reading one.  A string of 7-16 one-byte characters is its length, its first eight bytes and its
# last eight (for 7 characters the first eight hold the terminating NUL), which together are every
# character: the slot answers only for that exact string, and holds what _text_meld read of it.
# Direct-mapped, so bounded; a slot is overwritten by the next string that maps to it.  Only with
# the GIL (a slot is three words, written as one step only under it): the free-threaded build
# reads every meld.
cdef extern from *:
    """
    #ifdef Py_GIL_DISABLED
    #define MJ_MELD_CACHE 0
    #else
    #define MJ_MELD_CACHE 1
    #endif
    """
    bint MJ_MELD_CACHE

ctypedef struct MeldSlot:
    uint64_t head       # the first eight bytes
    uint64_t tail       # the last eight (0 for a string of 7)
    uint8_t n           # the length; 0: an empty slot
    uint8_t row[2]

cdef enum:
    MELD_SLOT_BITS = 8

cdef MeldSlot _MELD_SLOTS[1 << MELD_SLOT_BITS]   # static: zeroed, every slot empty


# The str macros on a borrowed pointer (a list's or tuple's item read without a reference of ours)
cdef extern from "Python.h":
    ctypedef struct PyObject
    PyObject** _seq_items "PySequence_Fast_ITEMS"(object seq)    # a list or a tuple
    bint _is_exact_str "PyUnicode_CheckExact"(PyObject* o)
    Py_ssize_t _str_length "PyUnicode_GET_LENGTH"(PyObject* o)
    int _str_kind "PyUnicode_KIND"(PyObject* o)
    const Py_UCS1* _str_bytes "PyUnicode_1BYTE_DATA"(PyObject* o)


cdef inline int _meld_row(PyObject* text, uint8_t* row) noexcept:
    """_text_meld of a str (borrowed) through the slots of strings already read: 0, or SCAN_OTHER."""
    cdef const Py_UCS1* chars
    cdef Py_ssize_t n
    cdef uint64_t head, tail
    cdef MeldSlot* slot
    if not MJ_MELD_CACHE or _str_kind(text) != PyUnicode_1BYTE_KIND:
        return _text_meld(<str> text, row)
    n = _str_length(text)
    chars = _str_bytes(text)
    if n < 7 or n > 16:
        return _text_meld(<str> text, row)
    head = _load8(chars)          # a one-byte string ends in a NUL: 8 bytes are there when n >= 7
    tail = _load8(chars + n - 8) if n >= 8 else 0
    slot = &_MELD_SLOTS[(head * 0x9E3779B97F4A7C15ULL + tail * 0xC2B2AE3D27D4EB4FULL + <uint64_t> n)
                        >> (64 - MELD_SLOT_BITS)]
    if slot.n == n and slot.head == head and slot.tail == tail:
        row[0] = slot.row[0]
        row[1] = slot.row[1]
        return 0
    if _text_meld(<str> text, row) < 0:
        return SCAN_OTHER
    slot.head = head
    slot.tail = tail
    slot.n = <uint8_t> n
    slot.row[0] = row[0]
    slot.row[1] = row[1]
    return 0


_MELD_SLOTS_ENABLED = bool(MJ_MELD_CACHE)


def _meld_slots_in_use():
    """The meld strings' slots in use, as (length, first 8 bytes, last 8 bytes, kind, first tile)
    rows (for tests)."""
    return [(s.n, s.head, s.tail, s.row[0], s.row[1]) for s in _MELD_SLOTS if s.n]


cdef int _plain_melds(object melds, uint8_t* rows) noexcept:
    """The rows of a list or tuple of at most 4 plain melds -- meld strings, or (kind, tiles) pairs
    with a kind string and a tile string or a list/tuple of int tiles: their number, or
    SCAN_OTHER."""
    cdef Py_ssize_t n, j, m
    cdef int tiles[4]
    cdef int kind, first, count
    cdef PyObject** items
    if type(melds) is tuple:
        n = len(<tuple> melds)
    elif type(melds) is list:
        n = len(<list> melds)
    else:
        return SCAN_OTHER
    if n > 4:
        return SCAN_OTHER
    if not MJ_MELD_CACHE and type(melds) is list:
        melds = tuple(melds)    # free-threaded: another thread may change the list; a snapshot is ours
    items = _seq_items(melds)   # borrowed: nothing below runs Python code that could change the list
    for j in range(n):
        if _is_exact_str(items[j]):
            if _meld_row(items[j], rows + 2 * j) < 0:
                return SCAN_OTHER
            continue
        meld = <object> items[j]
        if type(meld) is not tuple or len(<tuple> meld) != 2 or type((<tuple> meld)[0]) is not str:
            return SCAN_OTHER
        name = (<tuple> meld)[0]
        kind = _meld_kind(<str> name, 0, len(<str> name))
        if kind < 0:
            return SCAN_OTHER
        group = (<tuple> meld)[1]
        if type(group) is str:
            count = _scan_tiles(<str> group, 0, tiles, 4, False)
            if count < 0:
                return SCAN_OTHER
        elif type(group) is list or type(group) is tuple:
            count = <int> len(group)
            if count > 4:
                return SCAN_OTHER
            for m in range(count):
                t = group[m]
                if type(t) is not int or not 0 <= t <= 33:
                    return SCAN_OTHER
                tiles[m] = <int> t
        else:
            return SCAN_OTHER
        first = _group_first(kind, tiles, count)
        if first < 0:
            return SCAN_OTHER
        rows[2 * j] = <uint8_t> kind
        rows[2 * j + 1] = <uint8_t> first
    return <int> n


cdef object _NO_FLOWERS = 0


# Flower strings already read, by their characters, as the meld strings above: a string of 1-16
# one-byte characters is its length and its characters (copied into two zeroed words, so nothing past
# the string is read); a slot answers only for that exact string and holds its flower bits.  Only
# strings that read as flowers are kept; only with the GIL.
ctypedef struct FlowerSlot:
    uint64_t head
    uint64_t tail
    uint8_t n           # the length; 0: an empty slot
    uint8_t mask

cdef enum:
    FLOWER_SLOT_BITS = 6

cdef FlowerSlot _FLOWER_SLOTS[1 << FLOWER_SLOT_BITS]   # static: zeroed, every slot empty


def _flower_slots_in_use():
    """The flower strings' slots in use, as (length, first 8 bytes, last 8 bytes, bits) rows (for tests)."""
    return [(s.n, s.head, s.tail, s.mask) for s in _FLOWER_SLOTS if s.n]


cdef inline int64_t _text_flowers(str text) noexcept:
    """The flower bits of a string of distinct flowers ("1f3f"); -1 otherwise."""
    cdef int tiles[8]
    cdef int n, j
    cdef int64_t mask = 0
    n = _scan_tiles(text, 0, tiles, 8, True)
    if n < 0:
        return -1
    for j in range(n):
        if tiles[j] < 34 or mask >> (tiles[j] - 34) & 1:
            return -1
        mask |= 1 << (tiles[j] - 34)
    return mask


cdef inline int64_t _flower_string(str text) noexcept:
    """_text_flowers through the slots of flower strings already read."""
    cdef PyObject* o = <PyObject*> text
    cdef Py_ssize_t n
    cdef uint64_t w[2]
    cdef FlowerSlot* slot
    cdef int64_t mask
    if not MJ_MELD_CACHE or _str_kind(o) != PyUnicode_1BYTE_KIND:
        return _text_flowers(text)
    n = _str_length(o)
    if n < 1 or n > 16:
        return _text_flowers(text)
    w[0] = 0
    w[1] = 0
    memcpy(w, _str_bytes(o), n)
    slot = &_FLOWER_SLOTS[(w[0] * 0x9E3779B97F4A7C15ULL + w[1] * 0xC2B2AE3D27D4EB4FULL + <uint64_t> n)
                          >> (64 - FLOWER_SLOT_BITS)]
    if slot.n == n and slot.head == w[0] and slot.tail == w[1]:
        return slot.mask
    mask = _text_flowers(text)
    if mask >= 0:
        slot.head = w[0]
        slot.tail = w[1]
        slot.n = <uint8_t> n
        slot.mask = <uint8_t> mask
    return mask


_FLOWER_SLOTS_ENABLED = bool(MJ_MELD_CACHE)


cdef inline int64_t _plain_flowers(object flowers, bint by_name) noexcept:
    """The flower bits of a count 0-8 (4-7 not where flowers score by name) or a plain string of
    distinct flowers "1f3f"; -1 otherwise."""
    cdef int n
    cdef int overflow = 0
    cdef long long v
    if flowers is _NO_FLOWERS:    # the default, 0 (an int 0 is this one object in CPython)
        return 0
    if type(flowers) is int:
        v = PyLong_AsLongLongAndOverflow(flowers, &overflow)
        if overflow or not 0 <= v <= 8:
            return -1
        n = <int> v
        if by_name and 4 <= n <= 7:
            return -1
        return (1 << n) - 1
    if type(flowers) is not str:
        return -1
    return _flower_string(<str> flowers)


cdef inline int _plain_wind(object wind) noexcept:
    """A wind 27-30 from None (East), a name of WIND_NAMES or an int; -1 otherwise."""
    if wind is None:
        return 27
    if type(wind) is str:
        found = _WINDS.get(wind)
        return -1 if found is None else <int> found
    if type(wind) is int and 27 <= wind <= 30:
        return <int> wind
    return -1


cdef inline int _plain_options(object caishen_enabled, object caishen_used_as_wild, object literal,
                               object bloom) noexcept:
    """The OPT_* bits of plain option values (the public API checks flags); -1 otherwise."""
    cdef uint32_t opts = O_CHECK_FLAGS
    if type(bloom) is not str:
        return -1
    if bloom == u"last_tile":
        opts |= O_BLOOM_LAST_TILE
    elif bloom == u"kongs_only":
        opts |= O_BLOOM_KONGS_ONLY
    elif bloom != u"any":
        return -1
    if not (_flag(caishen_enabled, O_CAISHEN_ENABLED, &opts)
            and _flag(caishen_used_as_wild, O_CAISHEN_USED_AS_WILD, &opts)
            and _flag(literal, O_LITERAL_FIRST_TURN, &opts)):
        return -1
    return <int> opts


# The ints a Score holds (totals, the minimum, the form code) as objects made once: a tuple read
# is a few instructions where PyLong_FromLong was a call for each of the four.
cdef tuple _SMALL_INTS = tuple(range(1024))


cdef inline object _int_object(int v):
    if 0 <= v < 1024:
        return (<tuple> _SMALL_INTS)[v]
    return v


cdef inline object _score_plain(_RulesetFront rs, int mins, uint32_t opts, object hand, object win_tile,
                         object melds, uint32_t flags, object ready_concealed, object flowers,
                         object seat_wind, object round_wind):
    """The Score of a call whose arguments are plain (flags already read, ready_concealed not);
    None when one is not, or when the kernel refuses the hand (the Python path then raises)."""
    cdef uint8_t conc[N_KINDS]
    cdef uint8_t rows[8]
    cdef int n_melds, win, seat, rnd, j
    cdef int64_t flower_bits
    cdef int totals[3]
    cdef Err err
    cdef ScoreBase s
    if _plain_counts(hand, conc) < 0:
        return None
    win = _plain_tile(win_tile)
    if win == -2 or (win == -1 and not flags & F_HEAVENLY):
        return None
    n_melds = _plain_melds(melds, rows)
    if n_melds < 0:
        return None
    # a fifth copy across hand, melds and winning tile is the kernel's E_FIFTH_COPY: the Python path
    # then names it, like every error the kernel finds
    if ready_concealed is None:
        if flags & F_READY_DECLARED:
            for j in range(n_melds):
                if rows[2 * j] != M_CKONG:
                    break
            else:
                flags |= F_READY_CONCEALED   # concealed now, so concealed when declared
    elif ready_concealed is True:
        if not flags & F_READY_DECLARED:
            return None
        flags |= F_READY_CONCEALED
    elif ready_concealed is not False:
        return None
    if flags & (F_HEAVENLY | F_EARTHLY):
        flags |= F_SELF_DRAWN   # D7: 天胡 and 地胡 are self-drawn
    flower_bits = _plain_flowers(flowers, rs.flowers_by_name)
    seat = 27 if seat_wind is None else _plain_wind(seat_wind)     # None: East, as _plain_wind reads it
    rnd = 27 if round_wind is None else _plain_wind(round_wind)
    if flower_bits < 0 or seat < 0 or rnd < 0:
        return None
    if _SCORE_TYPE is None:
        _bind_python()
    if _score_pool_on:
        s = <ScoreBase> _score_new()        # a Score of the pool's: its values set below, its dict not made
    else:
        s = <ScoreBase> _new_through_slot(ScoreBase, _SCORE_TYPE, ())   # a subtype of ScoreBase, no __new__
    err.code = _evaluate(rs.code, conc, win, rows, n_melds, flags, <uint32_t> flower_bits, seat, rnd, opts,
                         s._raw, totals, &err)
    if err.code != E_OK:
        return None
    s._nf = FAN_COUNT[rs.code]
    if _score_pool_on:
        _score_fill(s, rs.name, totals[0], totals[1], mins, totals[2])
        return s
    s.ruleset = rs.name
    s.total = _int_object(totals[0])
    s.non_flower_total = _int_object(totals[1])
    s.min_fan = _int_object(mins)
    s.form_code = _int_object(totals[2])
    return s


# The keywords of score() other than hand, win_tile, ruleset, melds and self_drawn: they arrive in
# **options (so a call pays no default per keyword it does not pass) and are read in one pass over
# the keywords given, each found by name in _KEYWORD (a call's keyword names are interned strings,
# as the table's keys are: the lookup is a pointer comparison).
cdef tuple _FLAG_KEYWORDS = ("last_tile", "kong_replacement", "flower_replacement", "robbing_kong",
                             "last_of_kind", "ready", "heavenly", "earthly", "humanly", "heavenly_ready")
cdef tuple _HAND_KEYWORDS = ("ready_concealed", "flowers", "seat_wind", "round_wind")
cdef tuple _OPTION_KEYWORDS = ("min_fan", "caishen_enabled", "caishen_used_as_wild", "literal_first_turn_exclusions",
                               "replacement_bloom")
cdef frozenset _SCORER_KEYWORDS = frozenset(_FLAG_KEYWORDS + _HAND_KEYWORDS)
cdef dict _KEYWORD = {_intern(name): i for i, name in enumerate(_FLAG_KEYWORDS + _HAND_KEYWORDS + _OPTION_KEYWORDS)}
cdef enum:
    KW_FLAGS = 10               # codes 0-9: the flags of _FLAG_KEYWORDS
    KW_READY_CONCEALED = 10
    KW_FLOWERS = 11
    KW_SEAT_WIND = 12
    KW_ROUND_WIND = 13
    KW_OPTIONS = 14             # codes 14-18: the options of _OPTION_KEYWORDS (score() only)
cdef uint32_t _FLAG_BITS[10]
_FLAG_BITS[:] = [F_LAST_TILE, F_KONG_REPLACEMENT, F_FLOWER_REPLACEMENT, F_ROBBING_KONG, F_LAST_OF_KIND,
                 F_READY_DECLARED, F_HEAVENLY, F_EARTHLY, F_HUMANLY, F_HEAVENLY_READY]


cdef object _score_keywords(_RulesetFront rs, int mins, uint32_t opts, object hand, object win_tile,
                            object melds, uint32_t flags, dict options, bint with_options):
    """_score_plain for a call with keywords beyond self_drawn in `options`: the per-hand ones (the
    flags, ready_concealed, flowers, the winds) and, `with_options` (score(), not Scorer.score), the
    ruleset's options.  The Score, or None when a keyword is unknown (another family's, or a
    mistake) or a value is not plain."""
    cdef object found
    cdef int code, o
    cdef object ready_concealed = None, flowers = 0, seat_wind = None, round_wind = None
    cdef object min_fan = None, caishen = False, wild = False, literal = False, bloom = u"any"
    cdef bint any_option = False
    for key, v in options.items():
        found = _KEYWORD.get(key)
        if found is None:
            return None
        code = <int> found
        if code < KW_FLAGS:
            if not _flag(v, _FLAG_BITS[code], &flags):
                return None
        elif code == KW_READY_CONCEALED:
            ready_concealed = v
        elif code == KW_FLOWERS:
            flowers = v
        elif code == KW_SEAT_WIND:
            seat_wind = v
        elif code == KW_ROUND_WIND:
            round_wind = v
        elif not with_options:
            return None
        else:
            any_option = True
            if code == KW_OPTIONS:
                min_fan = v
            elif code == KW_OPTIONS + 1:
                caishen = v
            elif code == KW_OPTIONS + 2:
                wild = v
            elif code == KW_OPTIONS + 3:
                literal = v
            else:
                bloom = v
    if any_option:
        o = _plain_options(caishen, wild, literal, bloom)
        if o < 0:
            return None
        opts = <uint32_t> o
        if min_fan is not None:
            if type(min_fan) is int and 0 <= min_fan <= MAX_MIN_FAN:
                mins = <int> min_fan
            else:
                return None
    return _score_plain(rs, mins, opts, hand, win_tile, melds, flags, ready_concealed, flowers, seat_wind,
                        round_wind)


def score(hand, win_tile=None, *, ruleset=DEFAULT_RULESET, melds=(), self_drawn=False, **options):
    # the signature and the documentation are the Python path's (scoring.score), whose function
    # this one wraps (functools.update_wrapper at import): the other keywords come in **options
    cdef uint32_t flags = 0
    cdef _RulesetFront rs = _front_ruleset(ruleset)
    result = None
    if rs is not None and _flag(self_drawn, F_SELF_DRAWN, &flags):
        if not options:
            result = _score_plain(rs, rs.min_fan, O_CHECK_FLAGS, hand, win_tile, melds, flags, None, 0, None,
                                  None)
        else:
            result = _score_keywords(rs, rs.min_fan, O_CHECK_FLAGS, hand, win_tile, melds, flags, options, True)
    if result is not None:
        return result
    if _SCORE_CHECKED is None:
        _bind_python()
    return _SCORE_CHECKED(hand, win_tile, ruleset=ruleset, melds=melds, self_drawn=self_drawn, **options)


# The common call -- score(hand[, win_tile], ruleset=..., melds=..., self_drawn=..., flowers=...,
# seat_wind=..., round_wind=...), no other keyword -- skips the def's argument parsing: score's
# vectorcall slot (PEP 590: the function pointer at its type's tp_vectorcall_offset, which every
# call from Python reads) is set at import to mj_score_vectorcall, which picks those arguments out
# of the call's array by their interned names and runs the plain front; any other call, and any
# call the front does not read, goes on to the def's own vectorcall, unchanged.  The def's parsing
# and its **options dict were a tenth of a call of four meld strings (a fifth of a call with
# flowers, which went through the dict).
cdef extern from *:
    """
    static vectorcallfunc mj_score_parsed = NULL;    /* the def's own vectorcall */
    static PyObject *mj_kw_ruleset, *mj_kw_melds, *mj_kw_self_drawn, *mj_kw_flowers, *mj_kw_seat_wind,
                    *mj_kw_round_wind, *mj_default_ruleset, *mj_no_melds, *mj_no_flowers;
    typedef PyObject *(*mj_quick_fn)(PyObject *, PyObject *, PyObject *, PyObject *, PyObject *, PyObject *,
                                     PyObject *, PyObject *);
    static mj_quick_fn mj_score_quick = NULL;

    static PyObject *mj_score_vectorcall(PyObject *callable, PyObject *const *args, size_t nargsf,
                                         PyObject *kwnames) {
        Py_ssize_t nargs = PyVectorcall_NARGS(nargsf), nk = kwnames ? PyTuple_GET_SIZE(kwnames) : 0, i;
        PyObject *ruleset = mj_default_ruleset, *melds = mj_no_melds, *self_drawn = Py_False, *result;
        PyObject *flowers = mj_no_flowers, *seat_wind = Py_None, *round_wind = Py_None;
        if (nargs < 1 || nargs > 2)
            return mj_score_parsed(callable, args, nargsf, kwnames);
        for (i = 0; i < nk; i++) {
            PyObject *key = PyTuple_GET_ITEM(kwnames, i);
            if (key == mj_kw_ruleset) ruleset = args[nargs + i];
            else if (key == mj_kw_melds) melds = args[nargs + i];
            else if (key == mj_kw_self_drawn) self_drawn = args[nargs + i];
            else if (key == mj_kw_flowers) flowers = args[nargs + i];
            else if (key == mj_kw_seat_wind) seat_wind = args[nargs + i];
            else if (key == mj_kw_round_wind) round_wind = args[nargs + i];
            else return mj_score_parsed(callable, args, nargsf, kwnames);   /* another keyword, or a name not interned */
        }
        result = mj_score_quick(args[0], nargs == 2 ? args[1] : Py_None, ruleset, melds, self_drawn, flowers,
                                seat_wind, round_wind);
        if (result != Py_None)
            return result;      /* the Score, or NULL with the exception set */
        Py_DECREF(result);
        return mj_score_parsed(callable, args, nargsf, kwnames);
    }

    /* 1 when the slot now holds mj_score_vectorcall, 0 when `f` has no vectorcall slot (the def's
       parsing then serves every call). */
    static int mj_install_score_vectorcall(PyObject *f, mj_quick_fn quick, PyObject *default_ruleset,
                                           PyObject *no_melds, PyObject *no_flowers, PyObject *names) {
        PyTypeObject *tp = Py_TYPE(f);
        vectorcallfunc *slot;
        if (!PyType_HasFeature(tp, Py_TPFLAGS_HAVE_VECTORCALL) || tp->tp_vectorcall_offset <= 0)
            return 0;
        slot = (vectorcallfunc *) ((char *) f + tp->tp_vectorcall_offset);
        if (*slot == NULL || *slot == mj_score_vectorcall)
            return *slot != NULL;
        /* the keywords, in the order of _SCORE_DIRECT_KEYWORDS */
        mj_kw_ruleset = PyUnicode_InternFromString(PyUnicode_AsUTF8(PyTuple_GET_ITEM(names, 0)));
        mj_kw_melds = PyUnicode_InternFromString(PyUnicode_AsUTF8(PyTuple_GET_ITEM(names, 1)));
        mj_kw_self_drawn = PyUnicode_InternFromString(PyUnicode_AsUTF8(PyTuple_GET_ITEM(names, 2)));
        mj_kw_flowers = PyUnicode_InternFromString(PyUnicode_AsUTF8(PyTuple_GET_ITEM(names, 3)));
        mj_kw_seat_wind = PyUnicode_InternFromString(PyUnicode_AsUTF8(PyTuple_GET_ITEM(names, 4)));
        mj_kw_round_wind = PyUnicode_InternFromString(PyUnicode_AsUTF8(PyTuple_GET_ITEM(names, 5)));
        if (!mj_kw_ruleset || !mj_kw_melds || !mj_kw_self_drawn || !mj_kw_flowers || !mj_kw_seat_wind
                || !mj_kw_round_wind)
            return -1;
        Py_INCREF(default_ruleset);
        Py_INCREF(no_melds);
        Py_INCREF(no_flowers);
        mj_default_ruleset = default_ruleset;
        mj_no_melds = no_melds;
        mj_no_flowers = no_flowers;
        mj_score_quick = quick;
        mj_score_parsed = *slot;
        *slot = mj_score_vectorcall;
        return 1;
    }
    """
    ctypedef object (*_quick_fn)(object, object, object, object, object, object, object, object)
    int _install_score_vectorcall "mj_install_score_vectorcall"(object f, _quick_fn quick, object default_ruleset,
                                                                object no_melds, object no_flowers,
                                                                tuple names) except -1


cdef object _score_quick(object hand, object win_tile, object ruleset, object melds, object self_drawn,
                         object flowers, object seat_wind, object round_wind):
    """score(hand, win_tile, ruleset=, melds=, self_drawn=, flowers=, seat_wind=, round_wind=) through
    the plain front: the Score, or None for the def to handle (it then reads the call again, from the
    start)."""
    cdef uint32_t flags = 0
    cdef _RulesetFront rs = _FRONT_LAST
    if rs.key is not ruleset:     # the last ruleset found again: one comparison here, no call
        rs = _front_ruleset(ruleset)
    if rs is None or not _flag(self_drawn, F_SELF_DRAWN, &flags):
        return None
    return _score_plain(rs, rs.min_fan, O_CHECK_FLAGS, hand, win_tile, melds, flags, None, flowers, seat_wind,
                        round_wind)


# The keywords the direct entry reads (any other keyword goes to the def), in _score_quick's order.
_SCORE_DIRECT_KEYWORDS = ("ruleset", "melds", "self_drawn", "flowers", "seat_wind", "round_wind")
_SCORE_VECTORCALL = _install_score_vectorcall(score, _score_quick, DEFAULT_RULESET, (), _NO_FLOWERS,
                                              _SCORE_DIRECT_KEYWORDS)


cdef class Scorer:
    """A scorer of one mahjong ruleset, its options checked once: the per-hand call of a server.

    ``Scorer(ruleset, *, min_fan=None, caishen_enabled=False, caishen_used_as_wild=False,
    literal_first_turn_exclusions=False, replacement_bloom="any")`` takes the ruleset and the
    options of :func:`mahjong_core.score` (a bad one raises what ``score`` raises);
    :meth:`score` (also the call ``scorer(...)``) takes the per-hand arguments of ``score`` and
    returns the same :class:`~mahjong_core.Score`, or raises the same error, as
    ``score(..., ruleset=ruleset, **options)`` would.  Fastest with the hand as a ``uint8``
    count array (or a tile string), the winning tile as an index and melds as strings.

    >>> import mahjong_core as mj
    >>> scorer = mj.Scorer("two-player")
    >>> scorer.score("123m456m789m11mEE", "E", self_drawn=True).total
    27
    >>> scorer("123m456m789m11mEE", "E").total
    25
    """
    cdef _RulesetFront _rs
    cdef int _mins
    cdef uint32_t _opts
    cdef dict _options

    def __init__(self, ruleset=DEFAULT_RULESET, *, min_fan=None, caishen_enabled=False,
                 caishen_used_as_wild=False, literal_first_turn_exclusions=False, replacement_bloom="any"):
        if _OPTIONS_CHECKED is None:
            _bind_python()
        record = _get_ruleset(ruleset, "mj.Scorer")
        mins, opts = _OPTIONS_CHECKED(record, min_fan, caishen_enabled, caishen_used_as_wild,
                                      literal_first_turn_exclusions, replacement_bloom)
        self._rs = _FRONT_RS[record.name]
        self._mins = mins
        self._opts = opts
        # kept as plain Python values (checked above: a NumPy integer or bool given as an option is
        # stored as int / bool), so a pickled Scorer holds no NumPy scalars
        self._options = dict(ruleset=record.name, min_fan=None if min_fan is None else mins,
                             caishen_enabled=bool(caishen_enabled), caishen_used_as_wild=bool(caishen_used_as_wild),
                             literal_first_turn_exclusions=bool(literal_first_turn_exclusions),
                             replacement_bloom=replacement_bloom)

    @property
    def ruleset(self):
        """The ruleset's name."""
        return self._rs.name

    @property
    def min_fan(self):
        """The minimum (起和) every Score is compared with."""
        return self._mins

    def __repr__(self):
        return f"Scorer({self._rs.name!r}, min_fan={self._mins})"

    def __reduce__(self):
        return (_scorer_from_options, (self._options,))

    def score(self, hand, win_tile=None, *, melds=(), self_drawn=False, **options):
        """The :class:`~mahjong_core.Score` of one winning hand (arguments as :func:`mahjong_core.score`)."""
        # the keywords after self_drawn come in **options (a call pays no default for a keyword it
        # does not pass); the parameters are those of _scorer_score_checked, this method's __wrapped__
        cdef uint32_t flags = 0
        result = None
        if _flag(self_drawn, F_SELF_DRAWN, &flags):
            if not options:
                result = _score_plain(self._rs, self._mins, self._opts, hand, win_tile, melds, flags, None, 0,
                                      None, None)
            else:
                result = _score_keywords(self._rs, self._mins, self._opts, hand, win_tile, melds, flags,
                                         options, False)
        if result is not None:
            return result
        for name in options:
            if name not in _SCORER_KEYWORDS:
                raise TypeError(f"score() got an unexpected keyword argument {name!r}")
        return _scorer_score_checked(self, hand, win_tile, melds=melds, self_drawn=self_drawn, **options)

    def __call__(self, hand, win_tile=None, **kwargs):
        return self.score(hand, win_tile, **kwargs)


def _scorer_score_checked(Scorer self, hand, win_tile=None, *, melds=(), self_drawn=False, last_tile=False,
                          kong_replacement=False, flower_replacement=False, robbing_kong=False,
                          last_of_kind=False, ready=False, ready_concealed=None, heavenly=False, earthly=False,
                          humanly=False, heavenly_ready=False, flowers=0, seat_wind=None, round_wind=None):
    """The parameters of :meth:`Scorer.score` (its ``__wrapped__``) and its path for the calls its front
    does not read: the Python checks of ``score`` with the scorer's ruleset and options."""
    if _SCORE_CHECKED is None:
        _bind_python()
    return _SCORE_CHECKED(
        hand, win_tile, melds=melds, self_drawn=self_drawn, last_tile=last_tile,
        kong_replacement=kong_replacement, flower_replacement=flower_replacement, robbing_kong=robbing_kong,
        last_of_kind=last_of_kind, ready=ready, ready_concealed=ready_concealed, heavenly=heavenly,
        earthly=earthly, humanly=humanly, heavenly_ready=heavenly_ready, flowers=flowers,
        seat_wind=seat_wind, round_wind=round_wind, **self._options)


Scorer.score.__wrapped__ = _scorer_score_checked   # inspect.signature(Scorer.score): every keyword


def _scorer_from_options(options):
    """Unpickle a Scorer."""
    options = dict(options)
    return Scorer(options.pop("ruleset"), **options)
