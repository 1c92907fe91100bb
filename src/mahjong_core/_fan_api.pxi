# Included by _fan.pyx.  The Python-visible side: error messages of the kernel's codes, the C
# entry points for the round engine (_fan.pxd) and evaluate / evaluate_batch (argument checks,
# NumPy fast path).

# ---------------------------------------------------------------------------
# Errors
# ---------------------------------------------------------------------------


def _tile_name(t):
    return _SHORT[t] if 0 <= t < 34 else str(t)


_FLAG_NAMES = {F_SELF_DRAWN: "self_drawn", F_LAST_TILE: "last_tile", F_KONG_REPLACEMENT: "kong_replacement",
               F_FLOWER_REPLACEMENT: "flower_replacement", F_ROBBING_KONG: "robbing_kong",
               F_LAST_OF_KIND: "last_of_kind", F_READY_DECLARED: "ready_declared",
               F_READY_CONCEALED: "ready_concealed", F_HEAVENLY: "heavenly (天胡)", F_EARTHLY: "earthly (地胡)",
               F_HUMANLY: "humanly (人胡)", F_HEAVENLY_READY: "heavenly_ready (天听)"}


def _flag_names(bits):
    return " and ".join(name for bit, name in _FLAG_NAMES.items() if bits & bit)


def _flag_message(code, a):
    """Message of a FlagError (the reference raises the same text)."""
    if code == E_ROBBING_SELF:
        return "robbing_kong with a self-drawn win: a robbing win is on another player's kong tile (D7)"
    if code == E_REPLACEMENT_DISCARD:
        return "kong_replacement / flower_replacement need a self-drawn win: a replacement tile is drawn (D7)"
    if code == E_HUMANLY_SELF:
        return "humanly (人胡) is a win on the dealer's first discard, not a self-drawn win (2.11)"
    if code == E_FIRST_TURN_MELD:
        return (f"{_flag_names(a)} with a declared group: any chi, pon or kong before a first-turn win, "
                "a concealed kong included, cancels it (2.11)")
    if code == E_FIRST_TURN_PAIR:
        return f"heavenly (天胡, the dealer's initial 14 tiles) cannot go with {_flag_names(a)} (2.11)"
    if code == E_FIRST_TURN_VISIBLE:
        return (f"last_of_kind (和绝张) with {_flag_names(a)}: on a first-turn win at most one tile is visible, "
                "never the three other copies (D10, 2.11)")
    if code == E_NO_KONG:
        return "kong_replacement (杠上开花) without a kong among the melds: a kong replacement follows a kong (2.5)"
    if code == E_NO_FLOWER:
        return "flower_replacement without a flower: the flower drawn before the replacement is exposed (2.6)"
    if code == E_READY_CONCEALED:
        return "ready_concealed needs ready (报听 declared)"
    if code == E_ROBBING_LAST:
        return "robbing_kong with last_tile: no kong can be declared once the wall is empty (2.5, 2.8)"
    if code == E_ROBBING_COPY:
        return (f"robbing_kong on {_tile_name(a)}: the other three copies are the robbed pung, "
                "so the winner holds none (2.8)")
    return (f"last_of_kind (和绝张) on {_tile_name(a)}: the concealed hand holds another copy, so the three "
            "other copies cannot all be visible (D10)")


cdef object _raise_error(const Err* err, int rs, Py_ssize_t row):
    """Raise the exception of the reference evaluator for kernel error `err`."""
    cdef int code = err.code
    where = f"row {row}: " if row >= 0 else ""
    name = _RULESET_NAMES[rs]
    if code == E_FLAGS:
        raise MahjongError(f"{where}unknown flag bits {err.a:#x}")
    if code == E_OPTIONS:
        raise MahjongError(f"{where}invalid option bits {err.a:#x} (unknown bit, or both "
                           "OPT_BLOOM_LAST_TILE and OPT_BLOOM_KONGS_ONLY)")
    if code == E_CONCEALED_NOT_PLAYED:
        raise RulesetError(f"{where}concealed: tile {_tile_name(err.a)} is not played in ruleset {name!r}")
    if code == E_MELD_KIND:
        raise MahjongError(f"{where}meld {err.a}: unknown meld type {err.b}")
    if code == E_MELD_TILE_RANGE:
        raise TileCountError(f"{where}meld {err.b}: {err.a} is not a tile index 0-41")
    if code == E_MELD_FLOWER:
        raise RulesetError(f"{where}meld {err.b}: flower {err.a} cannot be part of the hand")
    if code == E_MELD_NOT_PLAYED:
        raise RulesetError(f"{where}meld {err.b}: tile {_tile_name(err.a)} is not played in ruleset {name!r}")
    if code == E_MELD_SHAPE:
        raise MahjongError(f"{where}meld {err.b}: no chow starts at {_tile_name(err.a)}")
    if code == E_WIN_RANGE:
        raise TileCountError(f"{where}win_tile: {err.a} is not a tile index 0-41")
    if code == E_WIN_FLOWER:
        raise RulesetError(f"{where}win_tile: flower {err.a} cannot be part of the hand")
    if code == E_WIN_NOT_PLAYED:
        raise RulesetError(f"{where}win_tile: tile {_tile_name(err.a)} is not played in ruleset {name!r}")
    if code == E_PUBLIC_FIRST_TURN:
        raise RulesetError(f"{where}ruleset {name!r} has no first-turn fans and no 报听 (2.7, 2.11)")
    if code == E_NO_WIN_TILE:
        raise HandSizeError(f"{where}win_tile is required (only 天胡 has no winning tile)")
    if E_ROBBING_SELF <= code <= E_HUMANLY_SELF:
        raise (FlagError if err.b else MahjongError)(where + _flag_message(code, err.a))
    if E_FIRST_TURN_MELD <= code <= E_NO_FLOWER:
        raise FlagError(where + _flag_message(code, err.a))
    if code == E_TOO_MANY_MELDS:
        raise HandSizeError(f"{where}{err.a} declared groups; at most 4")
    if code == E_SIZE:
        raise HandSizeError(f"{where}the hand has {err.a} tile{'' if err.a == 1 else 's'} (kongs counted as 3); "
                            "a win needs 14")
    if code == E_FIFTH_COPY:
        raise TileCountError(f"{where}tile {_tile_name(err.a)} appears {err.b} times; at most 4 copies exist")
    if code == E_FLOWER_BITS:
        raise RulesetError(f"{where}flowers {err.a:#x}: only bits 0-7 (flowers 34-41) exist")
    if code == E_WIND:
        raise MahjongError(f"{where}{'round_wind' if err.b else 'seat_wind'} must be a wind index 27-30, "
                           f"not {err.a}")
    if code == E_NOT_WINNING:
        from mahjong_core.errors import NotWinningHandError
        raise NotWinningHandError(f"{where}no winning form of {name!r} for this hand")
    raise MahjongError(f"{where}error {code}")   # pragma: no cover


cdef int fan_evaluate(int rs, const uint8_t* concealed, int win, const uint8_t* melds, int n_rows,
                      uint32_t flags, uint32_t flowers, int seat, int rnd, uint32_t options,
                      uint16_t* out, int* totals) noexcept nogil:
    """Exported (``_fan.pxd``): :func:`evaluate` on C data for the round engine."""
    cdef Err err
    err.code = E_OK
    return _evaluate(rs, concealed, win, melds, n_rows, flags, flowers, seat, rnd, options, out, totals, &err)


cdef int fan_count_of(int rs) noexcept nogil:
    return FAN_COUNT[rs]


cdef inline int _check_ruleset(object ruleset_code) except -1:
    """The ruleset code as a C int (RulesetError for anything outside 0 .. N_RULESETS-1)."""
    if not (type(ruleset_code) is int and 0 <= ruleset_code < N_RULESETS):
        return <int> _int_arg(ruleset_code, "ruleset code (0 two-player, 1 two-player-bamboo, 2 public, 3 mcr)",
                              0, N_RULESETS - 1, RulesetError)
    return <int> ruleset_code


# ---------------------------------------------------------------------------
# Python-visible functions
# ---------------------------------------------------------------------------
def fan_count(ruleset_code):
    """Number of fans of the ruleset: the length of ``out_counts``."""
    return FAN_COUNT[_check_ruleset(ruleset_code)]


def fan_ids(ruleset_code):
    """Fan ids of the ruleset in table order (the order of ``out_counts``)."""
    return FAN_IDS[_check_ruleset(ruleset_code)]


cdef inline bint _format_is(const char* fmt, char code) noexcept:
    """Buffer format string `fmt` describes one native-order item of struct code `code`."""
    if fmt == NULL:
        return code == b'B'
    if fmt[0] == b'@' or fmt[0] == b'=' or fmt[0] == b'<' or (code == b'B' and (fmt[0] == b'|' or fmt[0] == b'>')):
        fmt += 1
    return fmt[0] == code and fmt[1] == 0


# Fast path for exact ``numpy.ndarray`` arguments: NumPy's buffer export builds and
# compares a format string (plus a malloc) on every call, a third of the cost of a
# call.  The NumPy C API reads the array's dimensions, dtype and flags directly.
# Anything not accepted here (other types, subclasses, wrong dtype / byte order /
# shape, non-contiguous, read-only out) goes through the buffer protocol, which
# raises the errors.
cdef type _NDARRAY = np.ndarray   # a C global: no module-dict lookup per call


cdef inline char* _np_view(object o, int nd, int type_num, bint writable, Py_ssize_t* shape) noexcept:
    """Data pointer of `o` if it is an exact C-contiguous ndarray of `nd` dimensions and dtype
    `type_num` in native byte order (writable if asked); its extents go to shape[0..nd-1].
    NULL: use the buffer protocol."""
    cdef cnp.ndarray a
    if type(o) is not _NDARRAY:
        return NULL
    a = <cnp.ndarray> o
    if (cnp.PyArray_NDIM(a) != nd or cnp.PyArray_TYPE(a) != type_num
            or not cnp.PyArray_IS_C_CONTIGUOUS(a) or not cnp.PyArray_ISNOTSWAPPED(a)
            or (writable and not cnp.PyArray_ISWRITEABLE(a))):
        return NULL
    shape[0] = cnp.PyArray_DIM(a, 0)
    if nd == 2:
        shape[1] = cnp.PyArray_DIM(a, 1)
    return <char*> cnp.PyArray_DATA(a)


cdef int _get_buffer(object obj, Py_buffer* view, const char* name, char code, int ndim,
                     Py_ssize_t n0, Py_ssize_t n1, bint writable) except -1:
    """Acquire a C-contiguous buffer of `ndim` dimensions and item `code` ('B' uint8,
    'H' uint16); n0 / n1 = required extents (-1: any).  The caller releases it."""
    cdef int flags = PyBUF_FORMAT | PyBUF_C_CONTIGUOUS
    if writable:
        flags |= PyBUF_WRITABLE
    try:
        PyObject_GetBuffer(obj, view, flags)
    except (BufferError, TypeError, ValueError) as exc:
        pname = (<bytes> name).decode()
        raise ArrayShapeError(f"{pname}: expected a C-contiguous {'uint8' if code == b'B' else 'uint16'} "
                              f"array ({exc})") from None
    if (view.ndim != ndim or not _format_is(view.format, code)
            or (n0 >= 0 and view.shape[0] != n0) or (ndim == 2 and n1 >= 0 and view.shape[1] != n1
                                                      and view.shape[0] != 0)):
        shape = tuple(view.shape[i] for i in range(view.ndim))
        fmt = (<bytes> view.format).decode() if view.format != NULL else "B"
        PyBuffer_Release(view)
        pname = (<bytes> name).decode()
        want = ("(34,)" if pname == "concealed" else "(k, 2)" if pname == "melds" else f"({n0},)")
        raise ArrayShapeError(f"{pname}: expected {'uint8' if code == b'B' else 'uint16'} shape {want}, "
                              f"got format {fmt!r} shape {shape}")
    return 0


cdef type _NP_INTEGER = np.integer
cdef type _NP_BOOL = np.bool_


cdef inline long long _int_arg(object v, str name, long long lo, long long hi, type error) except? -1:
    """A scalar argument of the Python entry points as a C integer in [lo, hi]: a Python or NumPy
    integer (not a bool), compared before it is narrowed, so a huge value is refused with
    `error` (the class the kernel raises for a bad value of that argument), never wrapped."""
    cdef int overflow = 0
    cdef long long x
    if type(v) is not int:
        if isinstance(v, (bool, _NP_BOOL)) or not isinstance(v, (int, _NP_INTEGER)):
            raise error(f"{name} must be an integer, got {_short_repr(v)}")
        v = int(v)
    x = PyLong_AsLongLongAndOverflow(v, &overflow)
    if overflow or x < lo or x > hi:
        raise error(f"{name} {_short_repr(v)} is out of range {lo}-{hi}")
    return x


cdef enum:
    MAX_THREADS_ = 1024
    INT_MIN_ = -2147483648
    INT_MAX_ = 2147483647
    U32_MAX_ = 4294967295


def evaluate(ruleset_code, concealed, win_tile, melds, flags, flowers, seat_wind, round_wind,
             min_fan, options, out_counts):
    """Evaluate one winning hand (spec 4.2); exact against ``_ref.fan.evaluate``.

    ``concealed``: 34 uint8 counts of the concealed tiles *without* the winning
    tile (for 天胡: all 14 tiles and ``win_tile = -1``); ``melds``: uint8 rows
    ``[MELD_*, first tile]``, shape (k, 2), k = 0..4 (a chow's lowest tile;
    ``MELD_NONE`` rows are skipped); ``flags``: ``FLAG_*`` bits; ``flowers``: bit
    i = flower 34 + i; ``options``: ``OPT_*`` bits (replacement_bloom: neither
    bloom bit = "any").  ``min_fan`` is not used here (the caller derives
    ``meets_minimum = non_flower_total >= min_fan``).  The arrays are read through
    the buffer protocol (any C-contiguous buffer of that item type, e.g. NumPy).

    Fills ``out_counts`` (uint16, length :func:`fan_count`, table order) with each
    fan's count and returns ``(total, non_flower_total, form)`` with form
    0 standard, 1 seven_pairs, 2 thirteen_orphans, 3 honors_knitted, 4 knitted_straight.

    Raises HandSizeError, TileCountError, RulesetError, MahjongError, FlagError (with
    ``OPT_CHECK_FLAGS``) and NotWinningHandError exactly where the reference does;
    ArrayShapeError for a wrong array; MahjongError for unknown flag/option bits or both
    bloom bits.  A scalar that is not an integer, or does not fit the C argument, is refused
    before anything runs.
    """
    cdef Err err
    cdef int totals[3]
    cdef int n_rows
    cdef Py_buffer cv, mv, ov
    cdef Py_ssize_t sh[2]
    cdef char* cbuf
    cdef char* mbuf
    cdef char* obuf
    cdef int rs_c, win_c, seat_c, rnd_c
    cdef uint32_t flags_c, flowers_c, options_c
    rs_c = _check_ruleset(ruleset_code)
    win_c = <int> _int_arg(win_tile, "win_tile", INT_MIN_, INT_MAX_, TileCountError)
    flags_c = <uint32_t> _int_arg(flags, "flags", 0, U32_MAX_, MahjongError)
    flowers_c = <uint32_t> _int_arg(flowers, "flowers", 0, U32_MAX_, RulesetError)
    seat_c = <int> _int_arg(seat_wind, "seat_wind", INT_MIN_, INT_MAX_, MahjongError)
    rnd_c = <int> _int_arg(round_wind, "round_wind", INT_MIN_, INT_MAX_, MahjongError)
    _int_arg(min_fan, "min_fan", 0, MAX_MIN_FAN, MahjongError)
    options_c = <uint32_t> _int_arg(options, "options", 0, U32_MAX_, MahjongError)
    # exact C-contiguous ndarrays of the right dtype and shape (the common case)
    cbuf = _np_view(concealed, 1, cnp.NPY_UINT8, False, sh)
    if cbuf != NULL and sh[0] == N_KINDS:
        mbuf = _np_view(melds, 2, cnp.NPY_UINT8, False, sh)
        if mbuf != NULL and (sh[1] == 2 or sh[0] == 0):
            n_rows = <int> sh[0]
            obuf = _np_view(out_counts, 1, cnp.NPY_UINT16, True, sh)
            if obuf != NULL and sh[0] == FAN_COUNT[rs_c]:
                err.code = _evaluate(rs_c, <const uint8_t*> cbuf, win_c, <const uint8_t*> mbuf,
                                     n_rows, flags_c, flowers_c, seat_c, rnd_c, options_c,
                                     <uint16_t*> obuf, totals, &err)
                if err.code != E_OK:
                    _raise_error(&err, rs_c, -1)
                return totals[0], totals[1], totals[2]
    # anything else: the buffer protocol (which also raises the array errors)
    _get_buffer(concealed, &cv, "concealed", b'B', 1, N_KINDS, -1, False)
    try:
        _get_buffer(melds, &mv, "melds", b'B', 2, -1, 2, False)
    except BaseException:
        PyBuffer_Release(&cv)
        raise
    try:
        _get_buffer(out_counts, &ov, "out_counts", b'H', 1, FAN_COUNT[rs_c], -1, True)
    except BaseException:
        PyBuffer_Release(&cv)
        PyBuffer_Release(&mv)
        raise
    err.code = _evaluate(rs_c, <const uint8_t*> cv.buf, win_c, <const uint8_t*> mv.buf,
                         <int> mv.shape[0], flags_c, flowers_c, seat_c, rnd_c, options_c,
                         <uint16_t*> ov.buf, totals, &err)
    PyBuffer_Release(&cv)
    PyBuffer_Release(&mv)
    PyBuffer_Release(&ov)
    if err.code != E_OK:
        _raise_error(&err, rs_c, -1)
    return totals[0], totals[1], totals[2]


cdef object _view(object a, str name, str dtype, int ndim):
    """A C-contiguous typed view of an evaluate_batch array (ArrayShapeError otherwise)."""
    cdef const uint8_t[::1] u8
    cdef const uint8_t[:, ::1] u8_2
    cdef const uint8_t[:, :, ::1] u8_3
    cdef const int16_t[::1] i16
    cdef const uint32_t[::1] u32
    if a is None:   # a None memoryview would be accepted and read as garbage
        raise ArrayShapeError(f"{name}: expected a C-contiguous {ndim}-d {dtype} array, got None")
    try:
        if dtype == "int16":
            i16 = a
            return i16
        if dtype == "uint32":
            u32 = a
            return u32
        if ndim == 1:
            u8 = a
            return u8
        if ndim == 2:
            u8_2 = a
            return u8_2
        u8_3 = a
        return u8_3
    except (ValueError, TypeError, BufferError) as exc:
        raise ArrayShapeError(f"{name}: expected a C-contiguous {ndim}-d {dtype} array ({exc})") from None


cdef enum:
    MIN_ROWS_PER_THREAD = 512   # a thread costs tens of microseconds to start: about 100 hands' work


cdef class _BatchRows:
    """The checked columns and the outputs of one :func:`evaluate_batch` call.  ``run`` evaluates a
    range of rows without the GIL, so several threads can share the call: the kernel keeps all its
    state on its own stack (``Ctx``, ``Err``), and the tables it reads (``_fan_tables.pxi``, the masks,
    the suit splits, ``_hand``'s tables) are written only when the modules are imported."""
    cdef int rs
    cdef uint32_t options
    cdef const uint8_t[:, ::1] concealed
    cdef const int16_t[::1] win_tiles
    cdef const uint8_t[:, :, ::1] melds
    cdef const uint32_t[::1] flags
    cdef const uint32_t[::1] flowers
    cdef const uint8_t[::1] seat_winds
    cdef const uint8_t[::1] round_winds
    cdef int32_t[::1] tv
    cdef int32_t[::1] nv
    cdef uint16_t[:, ::1] cv

    def run(self, Py_ssize_t start, Py_ssize_t stop):
        """Rows start .. stop-1: None, or (row, code, a, b) of the first row the kernel refuses (the
        rows after it are not evaluated)."""
        cdef Py_ssize_t i, bad = -1
        cdef Err err
        cdef int totals[3]
        # locals: the loop reads them from registers, not through self
        cdef int rs = self.rs
        cdef uint32_t options = self.options
        cdef const uint8_t[:, ::1] concealed = self.concealed
        cdef const int16_t[::1] win_tiles = self.win_tiles
        cdef const uint8_t[:, :, ::1] melds = self.melds
        cdef const uint32_t[::1] flags = self.flags
        cdef const uint32_t[::1] flowers = self.flowers
        cdef const uint8_t[::1] seat_winds = self.seat_winds
        cdef const uint8_t[::1] round_winds = self.round_winds
        cdef int32_t[::1] tv = self.tv
        cdef int32_t[::1] nv = self.nv
        cdef uint16_t[:, ::1] cv = self.cv
        err.code = E_OK
        with nogil:
            for i in range(start, stop):
                err.code = _evaluate(rs, &concealed[i, 0], win_tiles[i], &melds[i, 0, 0], 4, flags[i], flowers[i],
                                     seat_winds[i], round_winds[i], options, &cv[i, 0], totals, &err)
                if err.code != E_OK:
                    bad = i
                    break
                tv[i] = totals[0]
                nv[i] = totals[1]
        return None if bad < 0 else (bad, err.code, err.a, err.b)


def evaluate_batch(ruleset_code, concealed_arg, win_tiles_arg, melds_arg, flags_arg, flowers_arg,
                   seat_winds_arg, round_winds_arg, min_fan, options_arg, threads=1):
    """:func:`evaluate` over N hands; the row loop runs without the GIL.

    ``concealed`` (N, 34); ``win_tiles`` (N,) int16; ``melds`` (N, 4, 2) with
    ``MELD_NONE`` rows for absent melds; ``flags``, ``flowers`` (N,) uint32;
    ``seat_winds``, ``round_winds`` (N,) uint8.  Returns ``(totals int32 (N,),
    non_flower_totals int32 (N,), counts uint16 (N, fan_count))``.

    ``threads``: the rows are split into that many consecutive ranges (fewer when a range would
    hold under 512 rows), one thread each, the calling thread taking the first; 1 (the default)
    runs them all in the calling thread.  The results do not depend on it.

    The first invalid row (and a complete-size row that is not a winning hand)
    raises the same exception as :func:`evaluate`, its message starting with
    ``"row i: "``; the caller validates, so nothing is returned in that case.
    """
    cdef Py_ssize_t n, k, j
    cdef int nf
    cdef Err err
    cdef _BatchRows job = _BatchRows()
    cdef int rs_c = _check_ruleset(ruleset_code)
    cdef uint32_t options = <uint32_t> _int_arg(options_arg, "options", 0, U32_MAX_, MahjongError)
    _int_arg(min_fan, "min_fan", 0, MAX_MIN_FAN, MahjongError)
    cdef int n_threads = <int> _int_arg(threads, "threads", 1, MAX_THREADS_, MahjongError)
    job.rs = rs_c
    job.options = options
    job.concealed = _view(concealed_arg, "concealed", "uint8", 2)
    job.win_tiles = _view(win_tiles_arg, "win_tiles", "int16", 1)
    job.melds = _view(melds_arg, "melds", "uint8", 3)
    job.flags = _view(flags_arg, "flags", "uint32", 1)
    job.flowers = _view(flowers_arg, "flowers", "uint32", 1)
    job.seat_winds = _view(seat_winds_arg, "seat_winds", "uint8", 1)
    job.round_winds = _view(round_winds_arg, "round_winds", "uint8", 1)
    nf = FAN_COUNT[rs_c]
    n = job.concealed.shape[0]
    if job.concealed.shape[1] != N_KINDS and n:
        raise ArrayShapeError(f"concealed: expected shape (N, 34), got ({n}, {job.concealed.shape[1]})")
    if (job.win_tiles.shape[0] != n or job.flags.shape[0] != n or job.flowers.shape[0] != n
            or job.seat_winds.shape[0] != n or job.round_winds.shape[0] != n or job.melds.shape[0] != n):
        raise ArrayShapeError("every per-hand array must have the same length N as concealed")
    if n and (job.melds.shape[1] != 4 or job.melds.shape[2] != 2):
        raise ArrayShapeError(f"melds: expected shape (N, 4, 2), got ({n}, {job.melds.shape[1]}, "
                              f"{job.melds.shape[2]})")
    # not zeroed: the kernel writes every row it returns in full (its counts from a memset), and a
    # row it refuses raises, so no partly written array is returned
    totals_out = np.empty(n, dtype=np.int32)
    nft_out = np.empty(n, dtype=np.int32)
    counts_out = np.empty((n, nf), dtype=np.uint16)
    job.tv = totals_out
    job.nv = nft_out
    job.cv = counts_out
    k = max(1, min(n_threads, n // MIN_ROWS_PER_THREAD))
    if k == 1:
        refused = [job.run(0, n)] if n else []
    else:
        refused = _run_split(job, n, k)
    for r in refused:
        if r is not None:   # the ranges are in row order: the first refusal is the lowest row's
            err.code, err.a, err.b = r[1], r[2], r[3]
            _raise_error(&err, rs_c, r[0])
    return totals_out, nft_out, counts_out


def _run_part(_BatchRows job, list bounds, list out, Py_ssize_t j):
    """Range j of a split evaluate_batch call (a thread's target)."""
    out[j] = job.run(bounds[j], bounds[j + 1])


cdef list _run_split(_BatchRows job, Py_ssize_t n, Py_ssize_t k):
    """job.run over k consecutive ranges of the n rows, ranges 1 .. k-1 on threads of their own
    and range 0 on the calling thread (run releases the GIL); their results in range order."""
    bounds = [n * j // k for j in range(k + 1)]
    out = [None] * k
    workers = [_Thread(target=_run_part, args=(job, bounds, out, j), daemon=True) for j in range(1, k)]
    for w in workers:
        w.start()
    try:
        _run_part(job, bounds, out, 0)
    finally:
        for w in workers:
            w.join()
    return out


def batch_columns_plain(Py_ssize_t n, win_tiles_arg, melds_arg, flags_arg, flowers_arg, seat_winds_arg, round_winds_arg,
                        uint32_t all_flags):
    """True when score_batch's per-hand columns -- exact C-contiguous arrays of the compiled core's
    dtypes (int16, uint8 (N, 4, 2), uint32, uint32, uint8, uint8), one row for each of the n hands -- hold only values
    its checks accept: win tiles -1-33, meld kinds 0-3 with a first tile 0-33 or kind 255, flags
    within `all_flags`, flower bits 0-7, winds 27-30.  False otherwise: scoring's checks then read
    the columns and name what is wrong (their numpy passes cost more than the kernel's rows)."""
    cdef Py_ssize_t i, j
    cdef Py_ssize_t sh[2]
    cdef const int16_t* win
    cdef const uint8_t* melds
    cdef const uint32_t* flags
    cdef const uint32_t* flowers
    cdef const uint8_t* seat
    cdef const uint8_t* rnd
    cdef uint8_t kind
    cdef bint ok = True
    win = <const int16_t*> _np_view(win_tiles_arg, 1, cnp.NPY_INT16, False, sh)
    if win == NULL or sh[0] != n:
        return False
    flags = <const uint32_t*> _np_view(flags_arg, 1, cnp.NPY_UINT32, False, sh)
    if flags == NULL or sh[0] != n:
        return False
    flowers = <const uint32_t*> _np_view(flowers_arg, 1, cnp.NPY_UINT32, False, sh)
    if flowers == NULL or sh[0] != n:
        return False
    seat = <const uint8_t*> _np_view(seat_winds_arg, 1, cnp.NPY_UINT8, False, sh)
    if seat == NULL or sh[0] != n:
        return False
    rnd = <const uint8_t*> _np_view(round_winds_arg, 1, cnp.NPY_UINT8, False, sh)
    if rnd == NULL or sh[0] != n:
        return False
    if (type(melds_arg) is not _NDARRAY or cnp.PyArray_NDIM(<cnp.ndarray> melds_arg) != 3
            or cnp.PyArray_TYPE(<cnp.ndarray> melds_arg) != cnp.NPY_UINT8
            or not cnp.PyArray_IS_C_CONTIGUOUS(<cnp.ndarray> melds_arg)
            or cnp.PyArray_DIM(<cnp.ndarray> melds_arg, 0) != n or cnp.PyArray_DIM(<cnp.ndarray> melds_arg, 1) != 4
            or cnp.PyArray_DIM(<cnp.ndarray> melds_arg, 2) != 2):
        return False
    melds = <const uint8_t*> cnp.PyArray_DATA(<cnp.ndarray> melds_arg)
    with nogil:
        for i in range(n):
            if (win[i] < -1 or win[i] > 33 or flags[i] & ~all_flags or flowers[i] > 0xFF
                    or seat[i] < 27 or seat[i] > 30 or rnd[i] < 27 or rnd[i] > 30):
                ok = False
                break
            for j in range(4):
                kind = melds[8 * i + 2 * j]
                if kind != M_NONE and (kind > M_CKONG or melds[8 * i + 2 * j + 1] > 33):
                    ok = False
            if not ok:
                break
    return ok
