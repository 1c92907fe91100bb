# Vectorised stepping of long-card hands (mahjong_core.rl, ``include``d by _lc_round_obs.pxi): N hands of
# one ruleset and settings stepped together, one action per hand in, (N, obs) arrays out.  The loop --
# the legality checks, the actions, the built-in bots of the seats nobody else plays -- runs in C over
# the rows; it holds the GIL, since a hand's transitions ask the reference's rule methods at its rare
# points (the score of a win, the 包子 fan, the settlement when the result is read).  step_deal (the
# learning loop's call) writes each row's observation right after stepping it, while the row's hand
# is in the cache; step and observe write every row's afterwards, without the GIL.  The interface
# is the mahjong engine's ``_round.RoundBatch``.

from cpython.ref cimport PyObject
from cpython.pycapsule cimport PyCapsule_GetPointer
from libc.stdint cimport int64_t

from mahjong_core._bitgen cimport mj_bitgen_t, _interval32, _bounded

import numpy as np
from numpy.random import BitGenerator as _BitGenerator

from mahjong_core.errors import ArrayShapeError

cdef enum:
    LC_VEC_MAX_BOT_STEPS = 100000     # a hand ends long before: more is a flow bug
    VEC_GREEDY = 0                    # the batch's bot kinds (as _round.RoundBatch's): -1 the caller
    VEC_RANDOM = 1


def _vec_generator(gen, str what):
    """A random bots' generator: a NumPy Generator, or a BitGenerator wrapped in one (None stays None)."""
    if gen is None or isinstance(gen, _Generator):
        return gen
    if isinstance(gen, _BitGenerator):
        return _Generator(gen)
    raise MahjongError(f"{what} must be a NumPy Generator or BitGenerator, got {type(gen).__name__}")


cdef int _shuffle(mj_bitgen_t* bg, uint8_t* stock, int n) noexcept nogil:
    """``stock`` permuted as ``Generator.permutation`` permutes it (NumPy's shuffle: random_interval(i)
    for each i from the top), then the banker drawn as ``Generator.integers(3)``; returns the banker."""
    cdef int i, j
    cdef uint8_t x
    for i in range(n - 1, 0, -1):
        j = <int> _interval32(bg, <uint32_t> i, <uint32_t> (<uint64_t> 0xffffffffffffffffULL >> mj_clz64(i)))
        x = stock[i]
        stock[i] = stock[j]
        stock[j] = x
    return <int> _bounded(bg, PLAYERS - 1)


@cython.nonecheck(False)
cdef int _lc_vec_advance(RoundCore r, const int8_t* kinds, object gen) except -2:
    """Let the built-in bots act until a caller seat (kind -1) is to act; returns that seat (its
    decision worked out), or -1 once the hand is over.  As ``RoundCore.play``: the greedy bot is the
    RuleBot, the random one draws ``gen.integers`` over the unpenalised actions."""
    cdef int seat, a, steps = 0
    while r.phase != PH_END:
        seat = r.actor
        _offered(r, seat)
        if kinds[seat] < 0:
            return seat
        a = _rule_choice(r, seat) if kinds[seat] == VEC_GREEDY else _random_choice(r, gen)
        if a < 0 or r.dec[a] < 0:  # pragma: no cover - a flow bug
            raise RuntimeError(f"bot chose an illegal action {a} for seat {seat}")
        _apply(r, seat, a)
        steps += 1
        if steps > LC_VEC_MAX_BOT_STEPS:  # pragma: no cover - a flow bug
            raise RuntimeError("hand did not finish")
    return -1


@cython.nonecheck(False)
cdef class RoundBatch:
    """N long-card hands of one settings stepped together (see ``mahjong_core.rl.vector``).

    ``cores``: N :class:`RoundCore` with equal settings; ``bots``: (N, 3) ints, for each seat -1 (the
    caller acts for it), 0 (the built-in greedy bot, the RuleBot) or 1 (the built-in random bot, drawing
    from ``generators[i]``, a NumPy Generator or BitGenerator of row ``i``).  The actor of a row is the
    first seat to act once the bots before it have played; every call returns ``(obs, mask, actor,
    done)``: (N, L) uint8 observations of the actors, (N, 259) int8 legal-action masks, (N,) int8 actor
    seats (-1 once the hand is over) and (N,) bool.  A finished row stays finished until
    :meth:`set_round` or :meth:`deal` gives it a new hand.  Not thread-safe (like a RoundCore)."""

    cdef list _cores
    cdef list _gens
    cdef list _kept                # step_deal's two sets of output arrays, used in turn
    cdef int _turn
    cdef object _settings
    cdef RoundCore _like           # a hand of the batch's settings: new hands copy its settings' ints
    cdef uint8_t _deck[MAX_STOCK]   # the deck in id order (every face COPIES times, then the 财神)
    cdef int _ndeck
    cdef object _deal_bits         # the bit generator of the last deal and its C pointer
    cdef mj_bitgen_t* _deal_bg
    cdef int8_t* _kinds
    cdef int* _actor
    cdef bint _random_bots
    # the face weights of each pair of 将 cards under the batch's settings (J1 * 22 + J2; entry 0 alone
    # without 五门将), as _start works them out, kept for the next hands dealt with them
    cdef int _weights[(N_FACES + 1) * (N_FACES + 1)][N_FACES]
    cdef bint _weights_ok[(N_FACES + 1) * (N_FACES + 1)]
    cdef readonly Py_ssize_t n
    cdef readonly int players, obs_len, action_size

    def __cinit__(self):
        self._kinds = NULL
        self._actor = NULL

    def __dealloc__(self):
        free(self._kinds)
        free(self._actor)

    def __init__(self, cores, bots, generators=None):
        cdef Py_ssize_t i, n
        cdef int s, f
        if self._kinds != NULL:
            raise MahjongError("a RoundBatch is initialised once")
        cores = list(cores)
        n = len(cores)
        if n < 1:
            raise MahjongError("a RoundBatch needs at least one round")
        for i in range(n):
            if not isinstance(cores[i], RoundCore):
                raise MahjongError(f"cores[{i}] must be a long-card RoundCore, got {type(cores[i]).__name__}")
        self._settings = (<RoundCore> cores[0]).settings
        self._like = <RoundCore> cores[0]
        self._ndeck = 0
        for f in range(N_FACES):
            for s in range(COPIES):
                self._deck[self._ndeck] = f
                self._ndeck += 1
        for s in range((<RoundCore> cores[0]).caishen_count):
            self._deck[self._ndeck] = CAISHEN
            self._ndeck += 1
        self.players = PLAYERS
        self.obs_len = <int> _lc_obs_len()
        self.action_size = N_ACTIONS
        b = np.asarray(bots)
        if b.shape != (n, PLAYERS) or b.dtype.kind not in "iu":
            raise MahjongError(f"bots must be an integer array of shape ({n}, {PLAYERS}), got {b.dtype} {b.shape}")
        if ((b < -1) | (b > 1)).any():
            raise MahjongError("bots entries must be -1 (the caller acts), 0 (greedy) or 1 (random)")
        gens = [None] * n if generators is None else list(generators)
        if len(gens) != n:
            raise MahjongError(f"{n} generators needed (or None), got {len(gens)}")
        self._kinds = <int8_t*> calloc(n * PLAYERS, sizeof(int8_t))
        self._actor = <int*> malloc(n * sizeof(int))
        if self._kinds == NULL or self._actor == NULL:
            raise MemoryError()
        self.n = n
        self._cores = [None] * n
        self._gens = [None] * n
        self._kept = [self._outputs(), self._outputs()]
        for i in range(n):
            for s in range(PLAYERS):
                self._kinds[i * PLAYERS + s] = <int8_t> b[i, s]
                self._random_bots = self._random_bots or b[i, s] == VEC_RANDOM
        for i in range(n):
            self._set(i, cores[i], gens[i])

    cdef object _bots_generator(self, Py_ssize_t i, object gen):
        cdef int s
        cdef bint random = False
        for s in range(PLAYERS):
            random = random or self._kinds[i * PLAYERS + s] == VEC_RANDOM
        gen = _vec_generator(gen, f"generators[{i}]")
        if random and gen is None:
            raise MahjongError(f"row {i} has a random bot: it needs a generator (a NumPy Generator or BitGenerator)")
        return gen

    cdef int _set(self, Py_ssize_t i, RoundCore c, object gen) except -1:
        cdef Py_ssize_t j
        if c.settings != self._settings:
            raise MahjongError(f"round {i} is not of the batch's settings (every hand of a batch plays one settings)")
        gen = self._bots_generator(i, gen)
        for j in range(self.n):      # a hand is stepped by one row only
            if j != i and self._cores[j] is c:
                raise MahjongError(f"that round is already row {j} of this batch (a round is stepped by one row only)")
        self._place(i, c, gen)
        return 0

    cdef int _place(self, Py_ssize_t i, RoundCore c, object gen) except -1:
        self._cores[i] = c
        self._gens[i] = gen
        self._actor[i] = _lc_vec_advance(c, self._kinds + i * PLAYERS, gen)
        return 0

    cdef RoundCore _new_hand(self, object bit_generator, bint locked=False):
        """A fresh hand of the batch's settings dealt from ``bit_generator`` as
        :func:`~mahjong_core.families.longcard.round_engine.new_core` deals from a Generator on it:
        the deck permuted (``Generator.permutation``), then the banker (``Generator.integers(3)``),
        drawn in C from the bit stream (``_bitgen.pxd``: NumPy's algorithms).  ``locked``: the caller
        holds the bit generator's lock (step_deal takes it once for all its deals)."""
        cdef uint8_t stock[MAX_STOCK]
        cdef int n = self._ndeck, banker
        cdef uint8_t x
        cdef int wk
        cdef RoundCore c
        if bit_generator is not self._deal_bits:
            if not isinstance(bit_generator, _BitGenerator):
                raise MahjongError(f"bit_generator must be a NumPy BitGenerator, got {type(bit_generator).__name__}")
            self._deal_bg = <mj_bitgen_t*> PyCapsule_GetPointer(bit_generator.capsule, "BitGenerator")
            self._deal_bits = bit_generator
        cdef mj_bitgen_t* bg = self._deal_bg
        memcpy(stock, self._deck, n)
        if locked:
            banker = _shuffle(bg, stock, n)
        else:
            with bit_generator.lock:     # as NumPy's own draws: one thread at a time on a bit generator
                banker = _shuffle(bg, stock, n)
        wk = stock[DEAL * PLAYERS] * (N_FACES + 1) + stock[n - 1] if self._like.settings_wumenjiang else 0
        if self._weights_ok[wk]:
            return _core_like(self._like, stock, n, banker, self._weights[wk])
        c = _core_like(self._like, stock, n, banker)
        memcpy(self._weights[wk], c.w, sizeof(c.w))
        self._weights_ok[wk] = True
        return c

    def set_round(self, Py_ssize_t i, RoundCore core, generator=None):
        """Give row ``i`` a new hand (its bots play up to the first action of a caller seat)."""
        if not 0 <= i < self.n:
            raise MahjongError(f"row must be 0-{self.n - 1}, got {i}")
        self._set(i, core, generator)

    def deal(self, Py_ssize_t i, bit_generator, generator=None):
        """Give row ``i`` a new hand of the batch's settings dealt from ``bit_generator`` (a NumPy
        BitGenerator), as ``new_core`` deals from a Generator on it: the deck permuted, then the
        banker.  ``generator``: the random bots' generator of the new hand.  Returns the row's actor
        (-1 if the bots finished the hand)."""
        if not 0 <= i < self.n:
            raise MahjongError(f"row must be 0-{self.n - 1}, got {i}")
        gen = self._bots_generator(i, generator)       # refused before any draw
        self._set(i, self._new_hand(bit_generator), gen)
        return self._actor[i]

    def core(self, Py_ssize_t i):
        """The RoundCore of row ``i``."""
        if not 0 <= i < self.n:
            raise MahjongError(f"row must be 0-{self.n - 1}, got {i}")
        return self._cores[i]

    def actor(self, Py_ssize_t i):
        """The seat row ``i``'s next action is for (-1 once its hand is over)."""
        if not 0 <= i < self.n:
            raise MahjongError(f"row must be 0-{self.n - 1}, got {i}")
        return self._actor[i]

    def observe(self):
        """``(obs, mask, actor, done)`` of every row now (no action applied)."""
        outputs = self._outputs()
        self._fill_all(outputs, 0)
        return outputs

    def step(self, actions):
        """Apply ``actions[i]`` (an action id) for the actor of every unfinished row, let the bots
        play up to the next caller seat, and return ``(obs, mask, actor, done)``.  The action of a
        finished row is ignored.  An illegal action (or an array of another shape or kind) raises
        :class:`~mahjong_core.errors.IllegalActionError` / ``ArrayShapeError`` naming the row, and no
        row is changed."""
        outputs = self._outputs()
        self._step_rows(actions)
        self._fill_all(outputs, 0)
        return outputs

    def step_deal(self, actions, bit_generator, won=None):
        """:meth:`step`, then deal a new hand in every row whose hand ended in this call, as
        :meth:`deal` does (row by row, from ``bit_generator``, again while the bots finish the new
        hand before a caller seat acts).  Returns ``(obs, mask, actor, done, ended)``: ``done`` marks
        the rows dealt again, whose ``obs``, ``mask`` and ``actor`` are the new hand's; ``ended``
        lists the RoundCores that ended, one per marked row, in row order.  ``won``: a list to which
        ``(row, core)`` of each ended hand with payments (a win or a 包子) is appended.  For a batch
        without random bots; refused before any change otherwise.  The arrays are the batch's own,
        two sets used in turn (as ``_round.RoundBatch.step_deal``'s)."""
        cdef Py_ssize_t i
        cdef RoundCore c
        if won is not None and type(won) is not list:
            raise MahjongError(f"won must be a list (or None), got {type(won).__name__}")
        if self._random_bots:
            for i in range(self.n):
                if self._gens[i] is not None:
                    raise MahjongError(f"row {i} has a random bot: deal its rounds with deal() and a generator")
        if bit_generator is not self._deal_bits and not isinstance(bit_generator, _BitGenerator):
            raise MahjongError(f"bit_generator must be a NumPy BitGenerator, got {type(bit_generator).__name__}")
        outputs = self._kept[self._turn]
        cdef cnp.ndarray arr = self._checked(actions)
        cdef const int64_t* act = <const int64_t*> cnp.PyArray_DATA(arr)
        self._turn ^= 1
        cdef list ended = []
        cdef Py_ssize_t L = self.obs_len
        cdef uint8_t* o = <uint8_t*> cnp.PyArray_DATA(outputs[0])
        cdef int8_t* m = <int8_t*> cnp.PyArray_DATA(outputs[1])
        cdef int8_t* a = <int8_t*> cnp.PyArray_DATA(outputs[2])
        cdef uint8_t* d = <uint8_t*> cnp.PyArray_DATA(outputs[3])
        # row by row: the step, the next deal if the hand ended, the observation, while the row's hand
        # is in the cache (every row's deals come from bit_generator in row order, as in turn)
        lock = None               # the bit generator's lock, taken once for every deal of this call
        try:
            for i in range(self.n):
                self._step_row(i, act)
                d[i] = self._actor[i] < 0
                if d[i]:
                    c = <RoundCore> self._cores[i]
                    ended.append(c)
                    if won is not None and _pays(c):
                        won.append((i, c))
                    if lock is None:
                        lock = bit_generator.lock
                        lock.acquire()
                    while True:
                        c = self._new_hand(bit_generator, True)
                        self._place(i, c, None)
                        if self._actor[i] >= 0:
                            break
                a[i] = <int8_t> self._actor[i]
                _lc_obs_fill(<RoundCore> self._cores[i], self._actor[i], o + i * L, m + i * N_ACTIONS)
        finally:
            if lock is not None:
                lock.release()
        return outputs + (ended,)

    cdef int _step_rows(self, actions) except -1:
        cdef Py_ssize_t i
        cdef cnp.ndarray arr = self._checked(actions)
        cdef const int64_t* act = <const int64_t*> cnp.PyArray_DATA(arr)
        for i in range(self.n):
            self._step_row(i, act)
        return 0

    cdef inline int _step_row(self, Py_ssize_t i, const int64_t* act) except -1:
        """Row i's action applied (checked by _checked) and its bots played up to a caller seat."""
        cdef int seat = self._actor[i]
        cdef RoundCore c
        if seat >= 0:
            c = <RoundCore> self._cores[i]
            _apply(c, seat, <int> act[i])
            self._actor[i] = _lc_vec_advance(c, self._kinds + i * PLAYERS, self._gens[i])
        return 0

    cdef cnp.ndarray _checked(self, actions):
        """The actions as a C-contiguous int64 array, each legal for its row's actor (else the error
        naming the row, nothing changed)."""
        cdef Py_ssize_t i, bad = -1
        cdef int seat
        cdef RoundCore c
        cdef cnp.ndarray arr
        if (type(actions) is np.ndarray and cnp.PyArray_NDIM(<cnp.ndarray> actions) == 1
                and cnp.PyArray_DIM(<cnp.ndarray> actions, 0) == self.n
                and cnp.PyArray_TYPE(<cnp.ndarray> actions) == cnp.NPY_INT64
                and cnp.PyArray_ISCARRAY_RO(<cnp.ndarray> actions)):
            a_arr = actions          # what a policy's argmax gives: read as it is (as _round.RoundBatch)
        else:
            a_arr = np.asarray(actions)
            if a_arr.shape != (self.n,) or a_arr.dtype.kind not in "iu":
                raise ArrayShapeError(f"actions must be an integer array of shape ({self.n},), got "
                                      f"{a_arr.dtype} {a_arr.shape}")
            a_arr = np.ascontiguousarray(a_arr, dtype=np.int64)
        arr = <cnp.ndarray> a_arr
        cdef const int64_t* act = <const int64_t*> cnp.PyArray_DATA(arr)
        for i in range(self.n):
            seat = self._actor[i]
            if seat >= 0:
                c = <RoundCore> self._cores[i]
                _offered(c, seat)
                if not (0 <= act[i] < N_ACTIONS and c.dec[act[i]] >= 0):
                    bad = i
                    break
        if bad >= 0:
            raise IllegalActionError(f"row {bad}: action {act[bad]} is not legal for seat {self._actor[bad]} now")
        return arr

    cdef tuple _outputs(self):
        return (np.empty((self.n, self.obs_len), dtype=np.uint8), np.empty((self.n, N_ACTIONS), dtype=np.int8),
                np.empty(self.n, dtype=np.int8), np.empty(self.n, dtype=np.bool_))

    cdef int _fill_all(self, tuple outputs, bint keep_done) except -1:
        """Every row's actor observation and mask (zeros once it is over), without the GIL."""
        cdef Py_ssize_t i, L = self.obs_len
        cdef uint8_t* o = <uint8_t*> cnp.PyArray_DATA(outputs[0])
        cdef int8_t* m = <int8_t*> cnp.PyArray_DATA(outputs[1])
        cdef int8_t* a = <int8_t*> cnp.PyArray_DATA(outputs[2])
        cdef uint8_t* d = <uint8_t*> cnp.PyArray_DATA(outputs[3])
        cdef int seat
        cdef PyObject** rows = <PyObject**> malloc(self.n * sizeof(PyObject*))
        if rows == NULL:
            raise MemoryError()
        for i in range(self.n):
            rows[i] = <PyObject*> self._cores[i]
        with nogil:
            for i in range(self.n):
                seat = self._actor[i]
                a[i] = <int8_t> seat
                if not keep_done:
                    d[i] = 1 if seat < 0 else 0
                if seat < 0:
                    memset(o + i * L, 0, L)
                    memset(m + i * N_ACTIONS, 0, N_ACTIONS)
                else:
                    _lc_obs_fill(<RoundCore> rows[i], seat, o + i * L, m + i * N_ACTIONS)
        free(rows)
        return 0
