# Included by _round.pyx.  Vectorised stepping (mahjong_core.rl): N rounds of one ruleset stepped
# together, one action per round in, (N, obs) arrays out, the whole loop -- legality checks, the
# actions, the built-in bots of the seats nobody else plays, the observations -- without the GIL.

from cpython.ref cimport PyObject
from libc.stdint cimport int64_t

from mahjong_core.errors import ArrayShapeError

cdef enum:
    VEC_MAX_BOT_STEPS = 100000    # a round ends long before: more is a flow bug


cdef class RoundBatch:
    """N rounds of one ruleset stepped together (see ``mahjong_core.rl.vector``).

    ``cores``: N :class:`RoundCore` of one ruleset; ``bots``: (N, players) ints, for each seat -1
    (the caller acts for it), 0 (the built-in greedy bot) or 1 (the built-in random bot, drawing
    from ``generators[i]``, a NumPy BitGenerator of row ``i``).  The actor of a row is the first
    seat to act once the bots before it have played; every call returns ``(obs, mask, actor,
    done)``: (N, L) uint8 observations of the actors, (N, A_SIZE) int8 legal-action masks, (N,)
    int8 actor seats (-1 once the round is over) and (N,) bool.  A finished row stays finished
    until :meth:`set_round` gives it a new round.  Not thread-safe (like a RoundCore)."""

    cdef list _cores
    cdef list _gens
    cdef list _kept                # step_deal's two sets of output arrays, used in turn
    cdef object _bits_obj          # step_deal's last bit generator and its C pointer
    cdef mj_bitgen_t* _bits_ptr
    cdef int _turn
    cdef PyObject** _ptr
    cdef mj_bitgen_t** _bg
    cdef int8_t* _kinds
    cdef bint _random_bots        # some seat of some row is a random bot
    cdef int* _actor
    cdef readonly Py_ssize_t n
    cdef readonly int players, discard_cap, obs_len, rs

    def __cinit__(self):
        self._ptr = NULL
        self._bg = NULL
        self._kinds = NULL
        self._actor = NULL

    def __dealloc__(self):
        free(self._ptr)
        free(self._bg)
        free(self._kinds)
        free(self._actor)

    def __init__(self, cores, bots, generators=None):
        cdef Py_ssize_t i, n
        cdef int s
        cdef RoundCore c
        if self._ptr != NULL:
            raise MahjongError("a RoundBatch is initialised once")
        cores = list(cores)
        n = len(cores)
        if n < 1:
            raise MahjongError("a RoundBatch needs at least one round")
        for i in range(n):
            if not isinstance(cores[i], RoundCore):
                raise MahjongError(f"cores[{i}] must be a RoundCore, got {type(cores[i]).__name__}")
        c = cores[0]
        self.players = c.P
        self.rs = c.rs
        self.discard_cap = _obs_discard_cap(c)
        self.obs_len = <int> _obs_len(c.P, self.discard_cap)
        b = np.asarray(bots)
        if b.shape != (n, self.players) or b.dtype.kind not in "iu":
            raise MahjongError(f"bots must be an integer array of shape ({n}, {self.players}), got "
                               f"{b.dtype} {b.shape}")
        if ((b < -1) | (b > 1)).any():
            raise MahjongError("bots entries must be -1 (the caller acts), 0 (greedy) or 1 (random)")
        gens = [None] * n if generators is None else list(generators)
        if len(gens) != n:
            raise MahjongError(f"{n} generators needed (or None), got {len(gens)}")
        self._ptr = <PyObject**> calloc(n, sizeof(PyObject*))     # NULL: no row set yet (see _set)
        self._bg = <mj_bitgen_t**> malloc(n * sizeof(mj_bitgen_t*))
        self._kinds = <int8_t*> calloc(n * MAXP, sizeof(int8_t))   # seats past players stay 0
        self._actor = <int*> malloc(n * sizeof(int))
        if self._ptr == NULL or self._bg == NULL or self._kinds == NULL or self._actor == NULL:
            raise MemoryError()
        self.n = n
        self._cores = [None] * n
        self._gens = [None] * n
        self._kept = [self._outputs(), self._outputs()]
        self._turn = 0
        for i in range(n):
            for s in range(self.players):
                self._kinds[i * MAXP + s] = <int8_t> b[i, s]
                self._random_bots = self._random_bots or b[i, s] == BOT_RANDOM
            self._set(i, cores[i], gens[i])

    cdef mj_bitgen_t* _bots_bitgen(self, Py_ssize_t i, object gen) except? NULL:
        """The random bots' bit generator of row ``i`` (NULL for None), checked: a row with a
        random bot needs one."""
        cdef int s
        cdef bint random = False
        for s in range(self.players):
            random = random or self._kinds[i * MAXP + s] == BOT_RANDOM
        if random and gen is None:
            raise MahjongError(f"row {i} has a random bot: it needs a generator (a NumPy BitGenerator)")
        return NULL if gen is None else _bitgen_of(gen, f"generators[{i}]")

    cdef int _set(self, Py_ssize_t i, RoundCore c, object gen) except -1:
        if c.rs != self.rs or _obs_discard_cap(c) != self.discard_cap:
            raise MahjongError(f"round {i} is not of the batch's ruleset (every round of a batch plays one ruleset)")
        cdef mj_bitgen_t* bg = self._bots_bitgen(i, gen)
        cdef Py_ssize_t j
        for j in range(self.n):      # a round is stepped by one row only (rows not set yet are NULL)
            if j != i and self._ptr[j] == <PyObject*> c:
                raise MahjongError(f"that round is already row {j} of this batch (a round is stepped by one row only)")
        return self._place(i, c, gen, bg)

    cdef int _place(self, Py_ssize_t i, RoundCore c, object gen, mj_bitgen_t* bg) except -1:
        """Row ``i`` plays ``c`` (checked by the caller; its bots play up to a caller seat)."""
        self._cores[i] = c
        self._gens[i] = gen
        self._ptr[i] = <PyObject*> c
        self._bg[i] = bg
        self._actor[i] = _vec_advance(c, self._kinds + i * MAXP, bg)
        return 0

    def set_round(self, Py_ssize_t i, RoundCore core, generator=None):
        """Give row ``i`` a new round (its bots play up to the first action of a caller seat)."""
        if not 0 <= i < self.n:
            raise MahjongError(f"row must be 0-{self.n - 1}, got {i}")
        self._set(i, core, generator)

    def deal(self, Py_ssize_t i, bit_generator, generator=None):
        """Give row ``i`` a new round of the batch's ruleset, settings and round wind, dealt in the
        compiled engine from ``bit_generator`` (a NumPy BitGenerator) exactly as
        :class:`~mahjong_core.rl.rounds.CoreDealer` deals from a Generator on it: the tile set
        permuted, the dice, the kong dice, then the dealer.  ``generator``: the random bots' bit
        generator of the new round (see :meth:`set_round`).  Returns the row's actor (-1 if the
        bots finished the round)."""
        if not 0 <= i < self.n:
            raise MahjongError(f"row must be 0-{self.n - 1}, got {i}")
        self._bots_bitgen(i, generator)      # refused before any draw
        self._set(i, _vec_new_round(<RoundCore> self._ptr[i], _bitgen_of(bit_generator, "bit_generator")),
                  generator)
        return self._actor[i]

    def core(self, Py_ssize_t i):
        """The RoundCore of row ``i``."""
        if not 0 <= i < self.n:
            raise MahjongError(f"row must be 0-{self.n - 1}, got {i}")
        return self._cores[i]

    def actor(self, Py_ssize_t i):
        """The seat row ``i``'s next action is for (-1 once its round is over)."""
        if not 0 <= i < self.n:
            raise MahjongError(f"row must be 0-{self.n - 1}, got {i}")
        return self._actor[i]

    def observe(self):
        """``(obs, mask, actor, done)`` of every row now (no action applied)."""
        obs, mask, actor, done = self._outputs()
        cdef uint8_t* o = <uint8_t*> cnp.PyArray_DATA(obs)
        cdef int8_t* m = <int8_t*> cnp.PyArray_DATA(mask)
        cdef int8_t* a = <int8_t*> cnp.PyArray_DATA(actor)
        cdef uint8_t* d = <uint8_t*> cnp.PyArray_DATA(done)
        with nogil:
            self._fill_all(o, m, a, d)
        return obs, mask, actor, done

    def step(self, actions):
        """Apply ``actions[i]`` (a mask index) for the actor of every unfinished row, let the bots
        play up to the next caller seat, and return ``(obs, mask, actor, done)``.  The action of a
        finished row is ignored.  An illegal action (or an array of another shape or kind) raises
        :class:`~mahjong_core.errors.IllegalActionError` / ``ArrayShapeError`` naming the row, and
        no row is changed."""
        outputs = self._outputs()
        self._step_rows(actions, outputs)
        return outputs

    def step_deal(self, actions, bit_generator, won=None):
        """:meth:`step`, then deal a new round in every row whose round ended in this call, as
        :meth:`deal` does (row by row, from ``bit_generator``, again while the bots finish the
        new round before a caller seat acts).  Returns ``(obs, mask, actor, done, ended)``:
        ``done`` marks the rows dealt again, whose ``obs``, ``mask`` and ``actor`` are then the
        new round's; ``ended`` lists the RoundCores that ended, one per marked row, in row
        order.  ``won``: a list to which ``(row, core)`` of each ended round with a winner is
        appended (what needs a reward; the others were draws).  For a batch without random bots
        (their generators come from the caller: use :meth:`step` and :meth:`deal`); refused
        before any change otherwise.

        The four arrays are the batch's own, two sets used in turn: those of a call stay as
        they are through the next call (a transition's observation before and after) and are
        overwritten by the call after it -- copy what must live longer.  Fresh arrays for every
        call were a page-faulting allocation of up to 150 KB per call."""
        cdef Py_ssize_t i
        cdef mj_bitgen_t* bg
        cdef int s
        if bit_generator is self._bits_obj and self._bits_ptr != NULL:   # the last call's (kept alive here)
            bg = self._bits_ptr
        else:
            bg = _bitgen_of(bit_generator, "bit_generator")
            self._bits_obj, self._bits_ptr = bit_generator, bg
        if won is not None and type(won) is not list:
            raise MahjongError(f"won must be a list (or None), got {type(won).__name__}")
        if self._random_bots:
            for i in range(self.n):
                for s in range(self.players):
                    if self._kinds[i * MAXP + s] == BOT_RANDOM:
                        raise MahjongError(f"row {i} has a random bot: deal its rounds with deal() and a generator")
        outputs = self._kept[self._turn]
        self._step_rows(actions, outputs)
        self._turn ^= 1
        obs, mask, actor, done = outputs
        cdef uint8_t* o = <uint8_t*> cnp.PyArray_DATA(obs)
        cdef int8_t* m = <int8_t*> cnp.PyArray_DATA(mask)
        cdef int8_t* a = <int8_t*> cnp.PyArray_DATA(actor)
        cdef uint8_t* d = <uint8_t*> cnp.PyArray_DATA(done)
        cdef list ended = []
        cdef RoundCore c
        for i in range(self.n):
            if d[i]:
                c = <RoundCore> self._ptr[i]
                ended.append(c)
                if won is not None and c.n_winners > 0:
                    won.append((i, c))
                while True:          # a fresh round of the batch's ruleset, no random bot: nothing to check
                    c = _vec_new_round(c, bg)
                    self._place(i, c, None, NULL)
                    if self._actor[i] >= 0:
                        break
                self._fill_row(i, o, m, a, d)
                d[i] = 1
        return obs, mask, actor, done, ended

    cdef int _step_rows(self, actions, tuple outputs) except -1:
        """The stepping of :meth:`step` into ``outputs`` (obs, mask, actor, done)."""
        cdef Py_ssize_t i, bad = -1
        cdef int seat
        cdef cnp.ndarray arr
        if (type(actions) is np.ndarray and cnp.PyArray_NDIM(<cnp.ndarray> actions) == 1
                and cnp.PyArray_DIM(<cnp.ndarray> actions, 0) == self.n
                and cnp.PyArray_TYPE(<cnp.ndarray> actions) == cnp.NPY_INT64
                and cnp.PyArray_ISCARRAY_RO(<cnp.ndarray> actions)):
            a_arr = actions          # what a policy's argmax gives: read as it is
        else:
            a_arr = np.asarray(actions)
            if a_arr.shape != (self.n,) or a_arr.dtype.kind not in "iu":
                raise ArrayShapeError(f"actions must be an integer array of shape ({self.n},), got "
                                      f"{a_arr.dtype} {a_arr.shape}")
            a_arr = np.ascontiguousarray(a_arr, dtype=np.int64)
        arr = <cnp.ndarray> a_arr
        cdef const int64_t* act = <const int64_t*> cnp.PyArray_DATA(arr)
        cdef uint8_t* o = <uint8_t*> cnp.PyArray_DATA(outputs[0])
        cdef int8_t* m = <int8_t*> cnp.PyArray_DATA(outputs[1])
        cdef int8_t* a = <int8_t*> cnp.PyArray_DATA(outputs[2])
        cdef uint8_t* d = <uint8_t*> cnp.PyArray_DATA(outputs[3])
        with nogil:
            for i in range(self.n):
                seat = self._actor[i]
                if seat >= 0 and not _vec_legal(<RoundCore> self._ptr[i], seat, act[i]):
                    bad = i
                    break
            if bad < 0:
                for i in range(self.n):   # one pass: a row's round is stepped and observed while in cache
                    seat = self._actor[i]
                    if seat >= 0:
                        self._actor[i] = _vec_apply(<RoundCore> self._ptr[i], seat, <int> act[i],
                                                    self._kinds + i * MAXP, self._bg[i])
                    self._fill_row(i, o, m, a, d)
        if bad >= 0:
            raise IllegalActionError(f"row {bad}: action {act[bad]} is not legal for seat {self._actor[bad]} now")
        return 0

    cdef tuple _outputs(self):
        return (np.empty((self.n, self.obs_len), dtype=np.uint8), np.empty((self.n, A_SIZE), dtype=np.int8),
                np.empty(self.n, dtype=np.int8), np.empty(self.n, dtype=np.bool_))

    cdef int _fill_all(self, uint8_t* obs, int8_t* mask, int8_t* actor, uint8_t* done) except -1 nogil:
        cdef Py_ssize_t i
        for i in range(self.n):
            self._fill_row(i, obs, mask, actor, done)
        return 0

    cdef inline int _fill_row(self, Py_ssize_t i, uint8_t* obs, int8_t* mask, int8_t* actor,
                              uint8_t* done) except -1 nogil:
        """Row ``i`` of the outputs: its actor's observation and mask (zeros once it is over)."""
        cdef int seat = self._actor[i]
        actor[i] = <int8_t> seat
        done[i] = 1 if seat < 0 else 0
        if seat < 0:
            memset(obs + i * self.obs_len, 0, self.obs_len)
            memset(mask + i * A_SIZE, 0, A_SIZE)
        else:
            _obs_fill(<RoundCore> self._ptr[i], seat, obs + i * self.obs_len, mask + i * A_SIZE)
        return 0


cdef inline bint _vec_legal(RoundCore r, int seat, int64_t a) except -1 nogil:
    return 0 <= a < A_SIZE and _legal_now(r, seat, <int> a)    # (the int64 bounded before the cast)


cdef inline int _vec_apply(RoundCore r, int seat, int a, const int8_t* kinds, mj_bitgen_t* bg) except -2 nogil:
    _step(r, seat, a)
    return _vec_advance(r, kinds, bg)


cdef int _vec_advance(RoundCore r, const int8_t* kinds, mj_bitgen_t* bg) except -2 nogil:
    """Let the built-in bots act until a caller seat (kind -1) is first to act; returns that seat,
    or -1 once the round is over."""
    cdef int seat, i, k, steps = 0
    while r.phase != PH_OVER:
        seat = _first_to_act(r)
        k = kinds[seat]
        if k < 0:
            return seat
        i = _bot_greedy(r, seat) if k == BOT_GREEDY else _bot_random(r, seat, bg)
        if i < 0 or not _has(r, seat, i):  # pragma: no cover - a flow bug
            raise RuntimeError(f"bot chose an illegal action {i} for seat {seat}")
        _step(r, seat, i)
        steps += 1
        if steps > VEC_MAX_BOT_STEPS:  # pragma: no cover - a flow bug
            raise RuntimeError("round did not finish")
    return -1


cdef mj_bitgen_t* _bitgen_of(object gen, str what) except NULL:
    try:
        return <mj_bitgen_t*> PyCapsule_GetPointer(gen.capsule, "BitGenerator")
    except (AttributeError, TypeError, ValueError):
        raise MahjongError(f"{what} must be a NumPy BitGenerator, got {type(gen).__name__}") from None


cdef RoundCore _vec_new_round(RoundCore proto, mj_bitgen_t* bg):
    """A new round with ``proto``'s settings and round wind, its wall, dice and dealer drawn from
    ``bg`` without Python objects (CoreDealer's deal: ``_shuffle_wall`` of the ruleset's sorted
    tile set, then ``integers(players)`` for the dealer)."""
    cdef RoundCore c = RoundCore.__new__(RoundCore)
    cdef uint8_t wall[MAX_TILES]
    cdef int dice[2]
    cdef int kong_dice[N_KONG_DICE]
    cdef int k, j, n = 0, dealer
    for k in range(NK):           # the tile set, sorted: four of each kind in play, then the flowers
        if (proto.kinds_mask >> k) & 1:
            for j in range(4):
                wall[n] = <uint8_t> k
                n += 1
    for k in range(NK, 42):
        wall[n] = <uint8_t> k
        n += 1
    if n != proto.n_tiles:  # pragma: no cover - a settings bug (RoundCore checked proto's wall)
        raise RuntimeError(f"internal error: a tile set of {n} tiles for a wall of {proto.n_tiles}")
    _shuffle_wall(bg, wall, n, dice, kong_dice, N_KONG_DICE)
    dealer = <int> _bounded(bg, <uint32_t> (proto.P - 1))
    # every setting RoundCore.__init__ reads from the settings dict (the rest is the deal's state)
    c.P, c.rs, c.special, c.kinds_mask, c.min_fan, c.stacks = (proto.P, proto.rs, proto.special, proto.kinds_mask,
                                                                proto.min_fan, proto.stacks)
    c.chi_prev_only, c.kong_die, c.ready_mode, c.ready_locks = (proto.chi_prev_only, proto.kong_die,
                                                                proto.ready_mode, proto.ready_locks)
    c.ready_window, c.first_turn, c.seat_winds = proto.ready_window, proto.first_turn, proto.seat_winds
    c.dealer_on_draw_next, c.reserved, c.multiple_winners = (proto.dealer_on_draw_next, proto.reserved,
                                                             proto.multiple_winners)
    c.rob_kong, c.fan_options, c.nf = proto.rob_kong, proto.fan_options, proto.nf
    c.dealer_on_win_next = proto.dealer_on_win_next
    _start(c, dealer, proto.round_wind, wall, n, dice, kong_dice)
    return c
