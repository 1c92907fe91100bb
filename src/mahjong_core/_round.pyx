# cython: language_level=3
"""The compiled round engine: the game-flow state machine of spec section 2 and the built-in bots.

:class:`mahjong_core.game.Round` is a thin Python API over :class:`RoundCore`; the simulator and
``play_round`` run whole rounds here with the bots in C (:meth:`RoundCore.play_out`).  The state is
plain C data (counts, short arrays); every ruleset difference is an int setting taken from
:class:`~mahjong_core.game.settings.FlowSettings`, so the machine never branches on a ruleset name.
Win checks, waits and shanten are the compiled hand kernels (``_hand.pxd``), scoring is the
compiled fan evaluator (``_fan.pxd``): one implementation of each rule.

Actions are the mask indices of :mod:`mahjong_core.families.mahjong.actions`.  The caller (the Python layer)
checks legality with :meth:`RoundCore.legal` before :meth:`RoundCore.step`; the core itself only
applies legal actions.  Events are fixed records of 6 ints in a growable buffer, decoded to the
documented dicts on demand (:meth:`RoundCore.events`).

Files: this one holds the state machine (RoundCore: state, transitions, legal options, the
Python API of the core); ``_round_bots.pxi`` the built-in bots, ``_round_events.pxi`` the decoding
of the event records, ``_round_rng.pxi`` NumPy's Generator algorithms (wall shuffle, random bot),
``_round_obs.pxi`` the observation encoding of ``mahjong_core.rl`` (it includes ``_round_vec.pxi``,
``RoundBatch``: N rounds stepped without the GIL, which is why the state machine's methods are nogil).

The pure-Python reference of this machine is :mod:`mahjong_core._ref.round_py`; the parity tests
hold the two to identical events, legal actions and state.
"""

cimport cython
from libc.stdint cimport uint8_t, uint16_t, uint32_t, uint64_t, int32_t
from libc.stdlib cimport malloc, calloc, realloc, free
from libc.string cimport memset, memcpy
from cpython.pycapsule cimport PyCapsule_GetPointer

import numpy as np
cimport numpy as cnp

cnp.import_array()

from mahjong_core.errors import IllegalActionError, MahjongError
from mahjong_core.rulesets import MAX_MIN_FAN, RULESETS as _RULESETS
from mahjong_core._hand cimport hand_is_win, hand_shanten, hand_waits, hand_discard_eval, hand_ready_discards
from mahjong_core._fan cimport fan_evaluate, fan_count_of
from mahjong_core._bits cimport mj_ctz64, mj_byte_sum8, mj_held_fours34
# phase, source, action, 报听-mode, win-method, meld and flag codes: the family's generated constants
from mahjong_core._mahjong_constants cimport *
from mahjong_core.families.mahjong._constants import (
    MELD_NAMES as _MELD_NAMES, PHASE_NAMES, READY_MODES, SRC_NAMES, FROM_NAMES as _FROM_NAMES, KONG_KINDS as _KONG_KINDS, WIN_METHODS as _METHODS,
)

cdef extern from *:
    """
    typedef struct {
        void *state;
        uint64_t (*next_uint64)(void *st);
        uint32_t (*next_uint32)(void *st);
        double (*next_double)(void *st);
        uint64_t (*next_raw)(void *st);
    } mj_bitgen_t;
    """
    ctypedef struct mj_bitgen_t:
        void* state
        uint64_t (*next_uint64)(void* st) noexcept nogil
        uint32_t (*next_uint32)(void* st) noexcept nogil


# N_KINDS, MAX_TILES, MAX_POOL, N_KONG_DICE and MAX_FANS (the evaluator's fan-count row) are the
# generated constants (tools/constants/mahjong.py), shared with _fan.pyx and the Python package
cdef enum:
    NK = N_KINDS         # tile kinds (the generated constants)
    MAXP = 4
    EV_W = 6              # ints per event record
    # bytes of one observer's kept part of the observation (_round_obs.pxi): melds 16 P, discards
    # D P (D <= MAX_POOL), flowers 8 P, winds 8, dealer P
    OBS_KEPT_MAX = 16 * MAXP + MAX_POOL * MAXP + 8 * MAXP + 8 + MAXP

# why a win is refused
cdef enum:
    WHY_OK = 0
    WHY_MUST_DISCARD = 1
    WHY_NOT_WIN = 2
    WHY_BELOW_MIN = 3

# event record types
cdef enum:
    EV_DICE = 1
    EV_DEAL = 2
    EV_FLOWER = 3
    EV_DRAW = 4
    EV_ACTION = 5
    EV_READY = 6
    EV_DISCARD = 7
    EV_KONG = 8
    EV_PON = 9
    EV_CHI = 10
    EV_EXHAUSTIVE = 11
    EV_ROUND_END = 12
    EV_WIN = 13

# bots of play_out
cdef enum:
    BOT_GREEDY = 0
    BOT_RANDOM = 1



ctypedef struct WinEval:
    int why               # WHY_*
    int kind              # 0 heavenly, 1 dealer's initial 14 (best reading), 2 drawn tile, 3 claim
    int win_tile          # -1 for 天胡
    uint8_t concealed[NK] # without the winning tile (天胡: all 14)
    uint32_t flags
    int total
    int non_flower
    int form
    uint16_t counts[MAX_FANS]   # the evaluator writes a row of this length (fan_evaluate)


cdef inline void _set_action(uint64_t* bits, int i) noexcept nogil:
    """Add action ``i`` to a two-word action set."""
    bits[i >> 6] |= (<uint64_t> 1) << (i & 63)


cdef inline void _set_kinds(uint64_t* bits, int base, uint64_t kinds) noexcept nogil:
    """Add actions ``base + t`` for the tile kinds ``t`` of ``kinds`` (a 34-bit set) to a
    two-word action set (``base`` is A_DISCARD, A_DISCARD_READY or A_KONG_SELF)."""
    if base < 64:
        bits[0] |= kinds << base
        if base > 30:                   # kinds reaching past bit 63
            bits[1] |= kinds >> (64 - base)
    else:
        bits[1] |= kinds << (base - 64)


cdef inline int _sum34(const uint8_t* c) noexcept nogil:
    """Tiles in 34 counts (each 0-4): four words of eight and the last two."""
    return mj_byte_sum8(c) + mj_byte_sum8(c + 8) + mj_byte_sum8(c + 16) + mj_byte_sum8(c + 24) + c[32] + c[33]


# ---------------------------------------------------------------------------
# Checks of what enters the core (RoundCore.__init__ is the only entry of state)
# ---------------------------------------------------------------------------
cdef object _setting(dict settings, str name):
    try:
        return settings[name]
    except KeyError:
        raise ValueError(f"settings: missing {name!r}") from None


cdef inline bint _is_int(object v):
    return isinstance(v, int) and not isinstance(v, bool)


cdef int _int_setting(dict settings, str name, int lo, int hi) except? -1:
    v = _setting(settings, name)
    if not _is_int(v) or not lo <= v <= hi:
        raise ValueError(f"settings: {name} must be an integer {lo}-{hi}, got {v!r}")
    return v


cdef int _flag_setting(dict settings, str name) except -1:
    v = _setting(settings, name)
    if v is True:
        return 1
    if v is False:
        return 0
    raise ValueError(f"settings: {name} must be True or False, got {v!r}")


cdef int _choice_setting(dict settings, str name, tuple choices) except -1:
    v = _setting(settings, name)
    if not isinstance(v, str) or v not in choices:
        raise ValueError(f"settings: {name} must be one of {choices}, got {v!r}")
    return choices.index(v)


cdef int _check_ruleset_args(dict settings, int rs_code, int special, uint64_t kinds_mask) except -1:
    """The ruleset code, players, special forms and tile kinds must be those of one registered
    ruleset (the fan tables and every array size follow from them)."""
    players = _setting(settings, "players")
    stacks = _setting(settings, "stacks")
    for r in _RULESETS.values():
        if r.code == rs_code:
            if (r.players, 1 if r.special_forms else 0, r.kind_mask) != (players, special, kinds_mask):
                raise ValueError(f"players, special forms and tile kinds do not match ruleset {r.name!r}")
            break
    else:
        raise ValueError(f"unknown ruleset code {rs_code}")
    if not _is_int(players) or not 2 <= players <= MAXP:
        raise ValueError(f"players must be 2-{MAXP}, got {players!r}")
    if not _is_int(stacks) or not 1 <= stacks <= MAX_TILES // 2:
        raise ValueError(f"stacks must be 1-{MAX_TILES // 2}, got {stacks!r}")
    return 0


cdef int _check_wall(list tiles, int stacks, uint64_t kinds_mask) except -1:
    """The wall must be exactly the ruleset's tiles: four of each kind in play, each flower once
    (every per-seat array is sized by that: at most 8 flowers, 4 copies of a tile ...)."""
    cdef int count[42]
    cdef int k, want
    if len(tiles) != 2 * stacks:
        raise ValueError(f"a wall of {stacks} stacks has {2 * stacks} tiles, got {len(tiles)}")
    memset(count, 0, sizeof(count))
    for t in tiles:
        if not _is_int(t) or not 0 <= t < 42:
            raise ValueError(f"a wall holds tiles 0-41, got {t!r}")
        count[<int> t] += 1
    for k in range(42):
        want = 1 if k >= NK else (4 if (kinds_mask >> k) & 1 else 0)
        if count[k] != want:
            raise ValueError(f"the wall must hold the ruleset's tile set: tile {k} appears {count[k]} times, "
                             f"expected {want}")
    return 0


cdef int _check_dice(list dice, int n, str what) except -1:
    if len(dice) != n:
        raise ValueError(f"{n} {what} needed, got {len(dice)}")
    for d in dice:
        if not _is_int(d) or not 1 <= d <= 6:
            raise ValueError(f"{what} must be values 1-6, got {d!r}")
    return 0


# Its nogil methods (the vectorised stepping of _round_vec.pxi runs them without the GIL) read and
# write fields of self, which is never None inside a method; the checked build's nonecheck would
# need the GIL to raise there, so it is off for this class only (bounds checks stay on).  Final:
# nothing subclasses it, so its cdef methods are called directly instead of through the vtable,
# and the C compiler may inline them into the stepping loop.
@cython.final
@cython.nonecheck(False)
cdef class RoundCore:
    """State and transitions of one round (see the module docstring)."""

    # settings
    cdef readonly int P, rs, special, min_fan, dealer, round_wind, stacks
    cdef int chi_prev_only, kong_die, ready_mode, ready_locks, ready_window, first_turn, seat_winds
    cdef int dealer_on_draw_next, multiple_winners, rob_kong, fan_options, nf
    cdef uint64_t kinds_mask
    # wall (spec 1.4: logical stacks of two, head / tail / die draws)
    cdef uint8_t tiles[MAX_TILES]
    cdef uint8_t taken[MAX_TILES]
    cdef readonly int n_tiles, head, tail, remaining, reserved
    cdef int dice[2]
    cdef int kong_dice[N_KONG_DICE]
    cdef int kong_dice_used
    # players
    cdef uint8_t hands[MAXP][NK]
    cdef int n_hand[MAXP]               # tiles in hands[s] (kept with it: the observation's hand sizes)
    cdef int melds[MAXP][4][5]          # [kind, first, from, claimed, added]
    cdef int n_melds[MAXP]
    cdef uint8_t pool[MAXP][MAX_POOL]
    cdef int n_pool[MAXP]
    # per observing seat, the part of its observation that changes only on events (melds,
    # discards, flowers, winds, dealer), as the observation lays it out (_round_obs.pxi): kept up
    # to date by the transitions, so an observation copies it instead of encoding the table again
    cdef uint8_t obs_kept[MAXP * OBS_KEPT_MAX]
    cdef int obs_D, kept_len      # the discard cap D and the bytes of one seat's kept part
    # where seat s's meld rows, discards and flowers start in seat o's kept part ([s][o])
    cdef int kept_meld_at[MAXP][MAXP]
    cdef int kept_pool_at[MAXP][MAXP]
    cdef int kept_flower_at[MAXP][MAXP]
    cdef uint8_t flowers[MAXP][8]
    cdef int n_flowers[MAXP]
    cdef uint8_t dealt[MAXP][16]
    cdef int n_dealt[MAXP]
    # flow
    cdef readonly int phase, turn, drawn, drawn_src, must_discard
    cdef int ready[MAXP]
    cdef int ready_concealed[MAXP]
    cdef int heavenly_ready[MAXP]
    cdef readonly int dealer_first, calls_made, earthly_seat
    cdef int drew[MAXP]
    cdef readonly int claim_tile, claim_from, claim_last, claim_humanly
    cdef int pending[MAXP]
    cdef int n_pending
    cdef int responses[MAXP]
    cdef readonly int n_steps
    cdef readonly int n_discards     # discards made (claimed ones included): the round's length
    # caches (cleared by _touch whenever the state changes): the legal actions of a seat as a
    # two-word bit set (bit i of opts_set[s][0], bit i - 64 of opts_set[s][1] = action i), and
    # the same as an ascending list (opts, n_opts), written from the set only when asked for
    cdef int opts_valid[MAXP]
    cdef uint64_t opts_set[MAXP][2]
    cdef int opts_listed[MAXP]
    cdef uint8_t opts[MAXP][A_SIZE]
    cdef int n_opts[MAXP]
    cdef int win_valid[MAXP]
    cdef WinEval wins[MAXP]
    # the waits of each seat's concealed hand of 3k+1 tiles (in its turn after a draw: of the
    # hand without the drawn tile), kept until that hand changes otherwise than by the draw:
    # the win checks of a discard, a robbed kong and a draw are then a bit test
    cdef int waits_valid[MAXP]
    cdef uint64_t waits[MAXP]
    # result
    cdef int res_draw, n_winners, res_loser, res_method, res_next_dealer, res_wall_remaining
    cdef int winners[MAXP]
    cdef WinEval res_wins[MAXP]
    # event records
    cdef int32_t* ev
    cdef Py_ssize_t ev_len, ev_cap

    def __cinit__(self):
        self.ev_cap = 256 * EV_W
        self.ev = <int32_t*> malloc(self.ev_cap * sizeof(int32_t))
        if self.ev == NULL:
            raise MemoryError()
        self.ev_len = 0

    def __dealloc__(self):
        free(self.ev)

    def __init__(self, dict settings, int rs_code, int special, uint64_t kinds_mask, int dealer, int round_wind,
                 tiles, dice, kong_dice):
        """Deal a round: ``settings`` is ``FlowSettings.to_dict()``; ``rs_code``, ``special`` and
        ``kinds_mask`` are those of the registered ruleset; ``tiles`` is the wall in drawing order
        (exactly the ruleset's tile set); ``dice`` two values and ``kong_dice`` 34 values 1-6.

        This is the only way state enters the core (a saved round is rebuilt by replaying its
        actions through :meth:`step`), so everything that sizes a C array is checked here:
        :class:`ValueError` for anything out of range, whoever the caller."""
        cdef int i, P
        tiles, dice, kong_dice = list(tiles), list(dice), list(kong_dice)
        _check_ruleset_args(settings, rs_code, special, kinds_mask)
        P = settings["players"]
        if not 0 <= dealer < P:
            raise ValueError(f"the dealer must be a seat 0-{P - 1}, got {dealer}")
        if not 27 <= round_wind <= 30:
            raise ValueError(f"round_wind must be 27-30, got {round_wind}")
        _check_wall(tiles, settings["stacks"], kinds_mask)
        _check_dice(dice, 2, "dice")
        _check_dice(kong_dice, N_KONG_DICE, "kong dice")
        self.P = P
        self.rs = rs_code
        self.special = special
        self.kinds_mask = kinds_mask
        self.min_fan = _int_setting(settings, "min_fan", 0, MAX_MIN_FAN)
        self.stacks = settings["stacks"]
        self.chi_prev_only = _flag_setting(settings, "chi_from_previous_only")
        self.kong_die = _choice_setting(settings, "kong_replacement", ("tail", "die"))
        self.ready_mode = _choice_setting(settings, "ready_mode", READY_MODES)
        self.ready_locks = _flag_setting(settings, "ready_locks_hand")
        self.ready_window = _flag_setting(settings, "ready_window")
        self.first_turn = _flag_setting(settings, "first_turn_fans")
        self.seat_winds = _flag_setting(settings, "seat_winds")
        self.dealer_on_draw_next = _choice_setting(settings, "dealer_on_draw", ("stay", "next"))
        # the deal takes 13P + 1 tiles and the flower replacement at most 8: the round must start
        # with a live wall of at least 0 tiles, or draws would run past the end of the wall
        self.reserved = _int_setting(settings, "reserved_tail_tiles", 0, 2 * self.stacks - (13 * P + 1) - 8)
        self.multiple_winners = _flag_setting(settings, "multiple_winners")
        self.rob_kong = _flag_setting(settings, "rob_kong")
        self.fan_options = (0, O_BLOOM_LAST_TILE, O_BLOOM_KONGS_ONLY)[_choice_setting(settings, "replacement_bloom", ("any", "last_tile", "kongs_only"))]
        if _flag_setting(settings, "literal_first_turn_exclusions"):
            self.fan_options |= 4
        if self.ready_window and self.ready_mode == READY_NONE:
            raise ValueError("ready_window needs a ready_mode other than 'none'")
        self.nf = fan_count_of(rs_code)
        cdef uint8_t wall[MAX_TILES]
        cdef int d[2]
        cdef int kd[N_KONG_DICE]
        for i in range(len(tiles)):
            wall[i] = tiles[i]
        d[0], d[1] = dice[0], dice[1]
        for i in range(N_KONG_DICE):
            kd[i] = kong_dice[i]
        self._start(dealer, round_wind, wall, len(tiles), d, kd)

    cdef int _start(self, int dealer, int round_wind, const uint8_t* tiles, int n_tiles, const int* dice,
                    const int* kong_dice) except -1:
        """Deal a round on the settings already set: the wall ``tiles`` (n_tiles, the ruleset's
        tile set), ``dice`` (2) and ``kong_dice`` (N_KONG_DICE), all checked by the caller
        (``__init__``, or ``RoundBatch``'s dealer, which shuffles the tile set itself)."""
        cdef int i
        self.dealer = dealer
        self.round_wind = round_wind
        self.n_tiles = n_tiles
        for i in range(self.n_tiles):
            self.tiles[i] = tiles[i]
        memset(self.taken, 0, MAX_TILES)
        self.head = 0
        self.tail = self.n_tiles // 2 - 1
        self.remaining = self.n_tiles
        self.dice[0] = dice[0]
        self.dice[1] = dice[1]
        for i in range(N_KONG_DICE):
            self.kong_dice[i] = kong_dice[i]
        self.kong_dice_used = 0
        memset(self.hands, 0, sizeof(self.hands))
        memset(self.n_hand, 0, sizeof(self.n_hand))
        memset(self.n_melds, 0, sizeof(self.n_melds))
        memset(self.n_pool, 0, sizeof(self.n_pool))
        memset(self.n_flowers, 0, sizeof(self.n_flowers))
        memset(self.n_dealt, 0, sizeof(self.n_dealt))
        memset(self.ready, 0, sizeof(self.ready))
        memset(self.ready_concealed, 0, sizeof(self.ready_concealed))
        memset(self.heavenly_ready, 0, sizeof(self.heavenly_ready))
        memset(self.drew, 0, sizeof(self.drew))
        self.phase = PH_TURN
        self.turn = dealer
        self.drawn = -1
        self.drawn_src = SRC_NONE
        self.must_discard = 0
        self.dealer_first = 1
        self.calls_made = 0
        self.earthly_seat = -1
        self._clear_claim()
        self.n_steps = 0
        self.n_discards = 0
        self.n_winners = 0
        self.res_draw = 0
        self.ev_len = 0
        self._touch()
        memset(self.waits_valid, 0, sizeof(self.waits_valid))
        _kept_start(self)
        self._setup()

    # ------------------------------------------------------------------ events
    cdef inline int _ev(self, int t, int a, int b, int c, int d, int e) except -1 nogil:
        cdef int32_t* p
        if self.ev_len + EV_W > self.ev_cap:
            p = <int32_t*> realloc(self.ev, 2 * self.ev_cap * sizeof(int32_t))
            if p == NULL:  # pragma: no cover - out of memory
                raise MemoryError("event log")
            self.ev = p
            self.ev_cap *= 2
        p = self.ev + self.ev_len
        p[0] = t
        p[1] = a
        p[2] = b
        p[3] = c
        p[4] = d
        p[5] = e
        self.ev_len += EV_W
        return 0

    # ------------------------------------------------------------------ wall
    cdef inline bint _stack_empty(self, int j) noexcept nogil:
        return self.taken[2 * j] and self.taken[2 * j + 1]

    cdef inline int _take(self, int j) except -1 nogil:
        cdef int i
        if self.remaining <= 0 or not 0 <= j < self.stacks:  # pragma: no cover - a flow bug
            raise RuntimeError(f"internal error: draw from stack {j} of a wall with {self.remaining} tiles left")
        i = 2 * j if not self.taken[2 * j] else 2 * j + 1
        self.taken[i] = 1
        self.remaining -= 1
        if self.taken[2 * j] and self.taken[2 * j + 1]:
            self._trim_ends(self.head, self.tail)
        return self.tiles[i]

    cdef void _trim_ends(self, int h, int t) noexcept nogil:
        """head / tail := the first / last non-empty stack within [h, t]."""
        while h <= t and self._stack_empty(h):
            h += 1
        while t >= h and self._stack_empty(t):
            t -= 1
        self.head = h
        self.tail = t

    cdef int _die_stack(self, int d) noexcept nogil:
        cdef int j = self.tail, c = 1, k
        while c < d:
            k = j - 1
            while k >= self.head and self._stack_empty(k):
                k -= 1
            if k < self.head:
                break
            j = k
            c += 1
        return j

    cdef inline int _live(self) noexcept nogil:
        return self.remaining - self.reserved

    # ------------------------------------------------------------------ caches
    cdef inline void _touch(self) noexcept nogil:
        cdef int s
        for s in range(MAXP):
            self.opts_valid[s] = 0
            self.win_valid[s] = 0

    cdef inline void _hand_changed(self, int seat) noexcept nogil:
        """The seat's concealed hand changed (not by a draw): its waits are computed again when asked."""
        self.waits_valid[seat] = 0

    cdef inline uint64_t _waits_of(self, int seat) noexcept nogil:
        """Waits of the seat's concealed hand of 3k+1 tiles -- after a draw in its turn, of the
        hand without the drawn tile (the seat must then have drawn one) --, from the cache."""
        if self.waits_valid[seat]:
            return self.waits[seat]
        return self._waits_compute(seat)

    cdef uint64_t _waits_compute(self, int seat) noexcept nogil:
        """_waits_of when the cache is not valid: computed and cached."""
        cdef uint8_t tmp[NK]
        cdef const uint8_t* h = self.hands[seat]
        cdef int n = self.n_hand[seat]
        # (a 3k+2 hand without a drawn tile in it -- never in play, only in a forged state -- is
        # asked as it is, as before the cache: never an index -1 or a count below 0)
        if n % 3 == 2 and self.drawn >= 0 and h[self.drawn] > 0:
            memcpy(tmp, h, NK)
            tmp[self.drawn] -= 1
            self.waits[seat] = hand_waits(tmp, n - 1, self.special, self.kinds_mask)
        else:
            self.waits[seat] = hand_waits(h, n, self.special, self.kinds_mask)
        self.waits_valid[seat] = 1
        return self.waits[seat]

    # ------------------------------------------------------------------ small queries
    cdef inline int _pon_of(self, int seat, int t) noexcept nogil:
        cdef int i
        for i in range(self.n_melds[seat]):
            if self.melds[seat][i][0] == M_PON and self.melds[seat][i][1] == t:
                return i
        return -1

    cdef inline bint _locked(self, int seat) noexcept nogil:
        return self.ready[seat] and self.ready_locks

    cdef inline bint _ready_allowed(self, int seat) noexcept nogil:
        if self.ready_mode == READY_NONE or self.ready[seat]:
            return False
        if self.ready_mode == READY_HEAVENLY_ONLY:
            return seat == self.dealer and self.dealer_first
        return True

    cdef void _visible(self, int* v) noexcept nogil:
        """D10: every discard pool and every exposed meld (concealed kongs are face down)."""
        cdef int s, i, k, f
        for i in range(NK):
            v[i] = 0
        for s in range(self.P):
            for i in range(self.n_pool[s]):
                v[self.pool[s][i]] += 1
            for i in range(self.n_melds[s]):
                k = self.melds[s][i][0]
                f = self.melds[s][i][1]
                if k == M_CKONG:
                    continue
                if k == M_CHI:
                    v[f] += 1
                    v[f + 1] += 1
                    v[f + 2] += 1
                else:
                    v[f] += 3 if k == M_PON else 4

    cdef inline int _check_seat(self, int seat) except -1:
        if not 0 <= seat < self.P:
            raise MahjongError(f"seat must be 0-{self.P - 1}, got {seat}")
        return 0

    cdef inline int _seat_after(self, int s, int k) noexcept nogil:
        """The seat ``k`` places after seat ``s`` (0 <= k <= P): ``(s + k) % P`` without the
        division, which the stepping loop would pay several times a step."""
        return s + k - (self.P if s + k >= self.P else 0)

    cdef inline int _seat_wind(self, int seat) noexcept nogil:
        return 27 + self._seat_after(seat, self.P - self.dealer)

    # ------------------------------------------------------------------ evaluation
    cdef int _eval(self, int seat, WinEval* w) except -1 nogil:
        """Evaluate w (concealed, win_tile, flags filled) with the seat's melds and flowers."""
        cdef uint8_t mrows[8]
        cdef int i, code, sw = 27, rw = 27
        cdef uint32_t fl = 0
        cdef int totals[3]
        for i in range(self.n_melds[seat]):
            mrows[2 * i] = <uint8_t> self.melds[seat][i][0]
            mrows[2 * i + 1] = <uint8_t> self.melds[seat][i][1]
        for i in range(self.n_flowers[seat]):
            fl |= (<uint32_t> 1) << (self.flowers[seat][i] - 34)
        if self.seat_winds:
            sw = self._seat_wind(seat)
            rw = self.round_wind
        code = fan_evaluate(self.rs, w.concealed, w.win_tile, mrows, self.n_melds[seat], w.flags, fl,
                            sw, rw, self.fan_options, w.counts, totals)
        if code != 0:
            raise RuntimeError(f"internal error: the fan evaluator refused an engine hand (code {code})")
        w.total = totals[0]
        w.non_flower = totals[1]
        w.form = totals[2]
        return 0

    cdef inline uint32_t _base_flags(self, int seat) noexcept nogil:
        cdef uint32_t f = 0
        if self.ready_mode != READY_NONE and self.ready[seat]:
            f |= F_READY_DECLARED
            if self.ready_concealed[seat]:
                f |= F_READY_CONCEALED
        if self.first_turn and self.heavenly_ready[seat]:
            f |= F_HEAVENLY_READY
        return f

    cdef inline void _check_min(self, WinEval* w) noexcept nogil:
        w.why = WHY_OK if w.non_flower >= self.min_fan else WHY_BELOW_MIN

    cdef WinEval* _self_win(self, int seat) except NULL nogil:
        """Self-drawn win of the player on turn (cached until the state changes)."""
        cdef WinEval* w = &self.wins[seat]
        cdef WinEval tmp
        cdef const uint8_t* h = self.hands[seat]
        cdef int vis[NK]
        cdef int t, n, best_nf = -1, best_total = -1, best_t = -1
        cdef uint32_t base
        cdef bint win
        if self.win_valid[seat]:
            return w
        self.win_valid[seat] = 1
        n = self.n_hand[seat]
        if self.must_discard:
            w.why = WHY_MUST_DISCARD
            return w
        # a drawn tile completes the hand if it is one of the waits of the hand before the draw
        if self.drawn >= 0:
            win = (self._waits_of(seat) >> self.drawn) & 1
        else:
            win = hand_is_win(h, n, self.special)
        if not win:
            w.why = WHY_NOT_WIN
            return w
        base = self._base_flags(seat)
        self._visible(vis)
        if self.first_turn and seat == self.dealer and self.dealer_first:
            w.kind = 0
            memcpy(w.concealed, h, NK)
            w.win_tile = -1
            w.flags = base | F_HEAVENLY | F_SELF_DRAWN
        elif self.drawn < 0:
            # the dealer's initial 14 tiles without first-turn fans: no tile was drawn, the best
            # reading over every choice of the winning tile is taken
            for t in range(NK):
                if h[t]:
                    memcpy(tmp.concealed, h, NK)
                    tmp.concealed[t] -= 1
                    tmp.win_tile = t
                    tmp.flags = base | F_SELF_DRAWN | (F_LAST_OF_KIND if vis[t] == 3 else 0)
                    self._eval(seat, &tmp)
                    if tmp.non_flower > best_nf or (tmp.non_flower == best_nf and tmp.total > best_total):
                        best_nf = tmp.non_flower
                        best_total = tmp.total
                        best_t = t
            w.kind = 1
            memcpy(w.concealed, h, NK)
            w.concealed[best_t] -= 1
            w.win_tile = best_t
            w.flags = base | F_SELF_DRAWN | (F_LAST_OF_KIND if vis[best_t] == 3 else 0)
        else:
            t = self.drawn
            w.kind = 2
            memcpy(w.concealed, h, NK)
            w.concealed[t] -= 1
            w.win_tile = t
            w.flags = base | F_SELF_DRAWN
            if self._live() == 0:
                w.flags |= F_LAST_TILE
            if self.drawn_src == SRC_KONG:
                w.flags |= F_KONG_REPLACEMENT
            elif self.drawn_src == SRC_FLOWER:
                w.flags |= F_FLOWER_REPLACEMENT
            if vis[t] == 3:
                w.flags |= F_LAST_OF_KIND
            if self.earthly_seat == seat:
                w.flags |= F_EARTHLY
        self._eval(seat, w)
        self._check_min(w)
        return w

    cdef WinEval* _claim_win(self, int seat) except NULL nogil:
        """Win on the claimed tile (a discard or a robbed added kong)."""
        cdef WinEval* w = &self.wins[seat]
        cdef uint8_t* h = self.hands[seat]
        cdef int vis[NK]
        cdef int t = self.claim_tile, v
        cdef bint robbing
        if self.win_valid[seat]:
            return w
        self.win_valid[seat] = 1
        if not (self._waits_of(seat) >> t) & 1:
            w.why = WHY_NOT_WIN
            return w
        robbing = self.phase == PH_ROB
        self._visible(vis)
        v = vis[t] - (0 if robbing else 1)
        w.kind = 3
        memcpy(w.concealed, h, NK)
        w.win_tile = t
        w.flags = self._base_flags(seat)
        if self.claim_last:
            w.flags |= F_LAST_TILE
        if robbing:
            w.flags |= F_ROBBING_KONG
        if v == 3:
            w.flags |= F_LAST_OF_KIND
        if self.claim_humanly and seat != self.dealer:
            w.flags |= F_HUMANLY
        self._eval(seat, w)
        self._check_min(w)
        return w

    # ------------------------------------------------------------------ legal options
    cdef int _turn_options(self, int seat, uint64_t* bits) except -1 nogil:
        cdef uint8_t* h = self.hands[seat]
        cdef int live = self._live(), d, i
        cdef uint64_t held = 0, fours = 0, pons = 0
        mj_held_fours34(h, &held, &fours)
        if not self.must_discard:
            # a drawn tile outside the waits is no win: the bit test first (_self_win tests it too)
            if ((self.drawn < 0 or (self._waits_of(seat) >> self.drawn) & 1)
                    and self._self_win(seat).why == WHY_OK):
                _set_action(bits, A_WIN)
            if self._locked(seat) and self.drawn >= 0:
                d = self.drawn
                if live > 0 and self._pon_of(seat, d) >= 0:
                    _set_action(bits, A_KONG_SELF + d)
                _set_action(bits, A_DISCARD + d)
                return 0
            if live > 0:
                for i in range(self.n_melds[seat]):
                    if self.melds[seat][i][0] == M_PON:
                        pons |= (<uint64_t> 1) << self.melds[seat][i][1]
                _set_kinds(bits, A_KONG_SELF, fours | (held & pons))
        _set_kinds(bits, A_DISCARD, held)
        if self._ready_allowed(seat):
            _set_kinds(bits, A_DISCARD_READY, hand_ready_discards(h, self.n_hand[seat], self.special, self.kinds_mask))
        return 0

    cdef inline int _claim_options(self, int seat, uint64_t* bits) except -1 nogil:
        cdef uint8_t* h
        cdef int t, n, r
        cdef bint any_ = False
        # the bit test first: most seats do not wait on the tile (_claim_win tests it too)
        if (self._waits_of(seat) >> self.claim_tile) & 1 and self._claim_win(seat).why == WHY_OK:
            _set_action(bits, A_WIN)
            any_ = True
        if self.phase == PH_CLAIM and not self.claim_last and not self._locked(seat):
            t = self.claim_tile
            h = self.hands[seat]
            n = h[t]
            if n >= 2:
                _set_action(bits, A_PON)
                any_ = True
                if n >= 3:
                    _set_action(bits, A_KONG_CLAIM)
            if t < 27 and (not self.chi_prev_only or seat == self._seat_after(self.claim_from, 1)):
                r = t % 9
                if r <= 6 and h[t + 1] and h[t + 2]:
                    _set_action(bits, A_CHI_LOW)
                    any_ = True
                if 1 <= r <= 7 and h[t - 1] and h[t + 1]:
                    _set_action(bits, A_CHI_MID)
                    any_ = True
                if r >= 2 and h[t - 2] and h[t - 1]:
                    _set_action(bits, A_CHI_HIGH)
                    any_ = True
        if any_:
            _set_action(bits, A_PASS)
        return 0

    cdef inline bint _is_pending(self, int seat) noexcept nogil:
        cdef int k
        for k in range(self.n_pending):
            if self.pending[k] == seat:
                return True
        return False

    cdef inline int _options(self, int seat) except -1 nogil:
        """Fill the option set of ``seat`` if it is to act now; returns 1 if it has a legal
        action, else 0 (the ascending list is not written: see :meth:`_legal`)."""
        cdef int ph = self.phase
        if ph == PH_OVER:
            return 0
        if ph == PH_TURN:
            if seat != self.turn:
                return 0
        elif not self._is_pending(seat):
            return 0
        if not self.opts_valid[seat]:
            self._fill(seat)
        return (self.opts_set[seat][0] | self.opts_set[seat][1]) != 0

    cdef int _legal(self, int seat) except -1 nogil:
        """Fill the option cache of ``seat``, the ascending list included; returns the number of
        legal actions."""
        cdef uint64_t w
        cdef int n = 0, k
        if not self._options(seat):
            return 0
        if not self.opts_listed[seat]:
            for k in range(2):
                w = self.opts_set[seat][k]
                while w:
                    self.opts[seat][n] = <uint8_t> (64 * k + mj_ctz64(w))
                    n += 1
                    w &= w - 1
            self.n_opts[seat] = n
            self.opts_listed[seat] = 1
        return self.n_opts[seat]

    cdef inline int _fill(self, int seat) except -1 nogil:
        """Compute and cache the option set of ``seat`` in the current phase; returns 1 if it
        has a legal action, else 0."""
        cdef uint64_t bits[2]
        cdef int ph = self.phase
        bits[0] = 0
        bits[1] = 0
        if ph == PH_TURN:
            self._turn_options(seat, bits)
        elif ph == PH_READY_WINDOW:
            _set_action(bits, A_PASS)
            if not self.ready[seat] and self._waits_of(seat):
                _set_action(bits, A_DECLARE_READY)
        else:
            self._claim_options(seat, bits)
        self.opts_set[seat][0] = bits[0]
        self.opts_set[seat][1] = bits[1]
        self.opts_listed[seat] = 0
        self.opts_valid[seat] = 1
        return (bits[0] | bits[1]) != 0

    cdef inline bint _has(self, int seat, int i) noexcept nogil:
        """Is action ``i`` (any int) in the seat's option set (filled by _options or _legal)?"""
        if not 0 <= i < A_SIZE:
            return False
        return (self.opts_set[seat][i >> 6] >> (i & 63)) & 1

    cdef inline int _legal_now(self, int seat, int i) except -1 nogil:
        """Is action ``i`` (any int) legal for ``seat`` (a seat) now?  The one test of every way in
        (is_legal, the server loop's step, the vectorised step): the option cache of a seat that is
        not to act may be stale, so it is asked only when he acts."""
        return self._options(seat) and self._has(seat, i)

    cdef inline int _first_to_act(self) noexcept nogil:
        if self.phase == PH_TURN:
            return self.turn
        if self.phase == PH_OVER or self.n_pending == 0:
            return -1
        return self.pending[0]

    # ------------------------------------------------------------------ start of the hand
    cdef int _setup(self) except -1:
        cdef int P = self.P, k, seat, t, d, r, dsum, opened, g, spw, n_todo, n_nxt, i
        cdef int todo[8]
        cdef int nxt[8]
        cdef int pend[MAXP][8]
        cdef int n_pend[MAXP]
        # display only (2.2 step 3): the S-th player's wall is opened after its S-th stack
        dsum = self.dice[0] + self.dice[1]
        spw = self.stacks // P
        opened = (self.dealer + dsum - 1) % P
        g = dsum
        self._ev(EV_DICE, self.dice[0], self.dice[1], (opened - (g // spw) % P + P) % P, g % spw, 0)
        memset(n_pend, 0, sizeof(n_pend))
        # 2.2 step 4: three rounds of four tiles (dealer first), then two for the dealer, one each
        for r in range(3):
            for k in range(P):
                seat = (self.dealer + k) % P
                for i in range(4):
                    self._deal_one(seat, pend[seat], n_pend)
        self._deal_one(self.dealer, pend[self.dealer], n_pend)
        self._deal_one(self.dealer, pend[self.dealer], n_pend)
        for k in range(1, P):
            seat = (self.dealer + k) % P
            self._deal_one(seat, pend[seat], n_pend)
        for k in range(P):
            self._ev(EV_DEAL, (self.dealer + k) % P, 0, 0, 0, 0)
        # 2.2 step 5: initial flower replacement, dealer first, repeated while replacements are flowers
        for k in range(P):
            seat = (self.dealer + k) % P
            n_todo = n_pend[seat]
            for i in range(n_todo):
                todo[i] = pend[seat][i]
            while n_todo:
                n_nxt = 0
                for i in range(n_todo):
                    self._add_flower(seat, todo[i])
                for i in range(n_todo):
                    t = self._take(self.tail)
                    self._ev(EV_DRAW, seat, t, FROM_TAIL, 0, 0)
                    if t >= 34:
                        nxt[n_nxt] = t
                        n_nxt += 1
                    else:
                        self.hands[seat][t] += 1
                        self.n_hand[seat] += 1
                for i in range(n_nxt):
                    todo[i] = nxt[i]
                n_todo = n_nxt
        if self.ready_window:
            self.phase = PH_READY_WINDOW
            self.n_pending = 0
            for k in range(1, P):
                self.pending[self.n_pending] = (self.dealer + k) % P
                self.n_pending += 1
        else:
            self.phase = PH_TURN
            self.turn = self.dealer
        return 0

    cdef inline int _deal_one(self, int seat, int* pend, int* n_pend) except -1:
        cdef int t = self._take(self.head)
        if self.n_dealt[seat] >= 16 or n_pend[seat] >= 8:  # pragma: no cover - a flow bug
            raise RuntimeError("internal error: more than 16 tiles or 8 flowers dealt to one seat")
        self.dealt[seat][self.n_dealt[seat]] = t
        self.n_dealt[seat] += 1
        if t >= 34:
            pend[n_pend[seat]] = t
            n_pend[seat] += 1
        else:
            self.hands[seat][t] += 1
            self.n_hand[seat] += 1
        return 0

    cdef inline int _add_flower(self, int seat, int t) except -1 nogil:
        """Set a flower aside (it also goes to the event log)."""
        if self.n_flowers[seat] >= 8:  # pragma: no cover - a flow bug
            raise RuntimeError("internal error: a ninth flower")
        self.flowers[seat][self.n_flowers[seat]] = t
        self.n_flowers[seat] += 1
        _kept_flower(self, self.obs_kept, seat, t)
        return self._ev(EV_FLOWER, seat, t, 0, 0, 0)

    # ------------------------------------------------------------------ step
    cdef int _step(self, int seat, int i) except -1 nogil:
        """Apply the legal action ``i`` of ``seat`` (the caller checked legality)."""
        cdef int ph = self.phase, aux = 0, k
        if A_KONG_SELF <= i < A_CHI_LOW:
            aux = 1 if self._pon_of(seat, i - A_KONG_SELF) >= 0 else 0
        elif A_CHI_LOW <= i <= A_CHI_HIGH:
            aux = self.claim_tile - (i - A_CHI_LOW)
        elif i == A_KONG_CLAIM:
            aux = self.claim_tile
        self._ev(EV_ACTION, seat, i, aux, 0, 0)
        self.n_steps += 1
        if ph == PH_CLAIM or ph == PH_ROB:
            self.responses[seat] = i
            self._remove_pending(seat)
            if not self.n_pending:
                self._resolve()
        elif ph == PH_TURN:
            if i == A_WIN:
                self.winners[0] = seat
                self._finish_win(1, -1, METHOD_SELF_DRAWN, self.drawn)
            else:
                self._touch()
                if i < A_DISCARD_READY:
                    self._discard(seat, i, False)
                elif i < A_KONG_SELF:
                    self._discard(seat, i - A_DISCARD_READY, True)
                else:
                    self._self_kong(seat, i - A_KONG_SELF)
        else:  # ready window
            self._touch()
            if i == A_DECLARE_READY:
                self.ready[seat] = 1
                self.ready_concealed[seat] = 1
                if self.first_turn:
                    self.heavenly_ready[seat] = 1
                self._ev(EV_READY, seat, self.heavenly_ready[seat], 0, 0, 0)
            self._remove_pending(seat)
            if not self.n_pending:
                self.phase = PH_TURN
                self.turn = self.dealer
        return 0

    cdef inline void _remove_pending(self, int seat) noexcept nogil:
        cdef int k, j = 0
        for k in range(self.n_pending):
            if self.pending[k] != seat:
                self.pending[j] = self.pending[k]
                j += 1
        self.n_pending = j

    # ------------------------------------------------------------------ transitions
    cdef int _discard(self, int seat, int t, bint ready) except -1 nogil:
        cdef int humanly = 0, i
        cdef bint concealed
        if self.n_pool[seat] >= MAX_POOL:  # pragma: no cover - a flow bug
            raise RuntimeError("internal error: discard pool full")
        self.hands[seat][t] -= 1
        self.n_hand[seat] -= 1
        if t != self.drawn:      # a discard of the drawn tile leaves the hand whose waits are cached
            self._hand_changed(seat)
        self.pool[seat][self.n_pool[seat]] = t
        _kept_pool(self, self.obs_kept, seat, self.n_pool[seat], t + 1)
        self.n_pool[seat] += 1
        self.n_discards += 1
        if seat == self.dealer:
            humanly = 1 if (self.first_turn and self.dealer_first) else 0
        if ready:
            self.ready[seat] = 1
            concealed = True
            for i in range(self.n_melds[seat]):
                if self.melds[seat][i][0] != M_CKONG:
                    concealed = False
            self.ready_concealed[seat] = 1 if concealed else 0
            if self.first_turn and seat == self.dealer and self.dealer_first:
                self.heavenly_ready[seat] = 1
        self._leave_turn(seat)
        self.must_discard = 0
        self._ev(EV_DISCARD, seat, t, 1 if ready else 0, self.heavenly_ready[seat] if ready else 0, 0)
        return self._open_window(seat, t, humanly, False)

    cdef inline void _leave_turn(self, int seat) noexcept nogil:
        """The player on turn discards or kongs: his first turn (天胡 / 地胡 chances) is over and
        the drawn tile is no longer the last thing he received."""
        if seat == self.dealer:
            self.dealer_first = 0
        if self.earthly_seat == seat:
            self.earthly_seat = -1
        self.drawn = -1
        self.drawn_src = SRC_NONE

    cdef int _self_kong(self, int seat, int t) except -1 nogil:
        cdef int m
        self.calls_made = 1
        self._leave_turn(seat)
        self._hand_changed(seat)
        m = self._pon_of(seat, t)
        if m >= 0:
            self.hands[seat][t] -= 1
            self.n_hand[seat] -= 1
            self._ev(EV_KONG, seat, 1, t, -1, 0)
            if self.rob_kong:
                return self._open_window(seat, t, 0, True)
            return self._complete_added_kong(seat, t)
        self.hands[seat][t] -= 4
        self.n_hand[seat] -= 4
        self._add_meld(seat, M_CKONG, t, -1, -1)
        self._ev(EV_KONG, seat, 0, t, -1, 0)
        return self._replacement(seat)

    cdef inline int _add_meld(self, int seat, int kind, int first, int frm, int claimed) except -1 nogil:
        cdef int* m
        if self.n_melds[seat] >= 4:  # pragma: no cover - a flow bug
            raise RuntimeError("internal error: a fifth meld")
        m = self.melds[seat][self.n_melds[seat]]
        m[0] = kind
        m[1] = first
        m[2] = frm
        m[3] = claimed
        m[4] = 0
        _kept_meld(self, self.obs_kept, seat, self.n_melds[seat])
        self.n_melds[seat] += 1
        return 0

    cdef int _complete_added_kong(self, int seat, int t) except -1 nogil:
        cdef int i = self._pon_of(seat, t)
        cdef int* m = self.melds[seat][i]
        m[0] = M_KONG
        m[4] = 1
        _kept_meld(self, self.obs_kept, seat, i)
        return self._replacement(seat)

    cdef int _open_window(self, int seat, int t, int humanly, bint rob) except -1 nogil:
        cdef int P = self.P, k, c
        self.claim_tile = t
        self.claim_from = seat
        self.claim_last = 0 if rob else (1 if self._live() == 0 else 0)
        self.claim_humanly = humanly
        self.phase = PH_ROB if rob else PH_CLAIM
        for k in range(MAXP):
            self.responses[k] = -1
        self.n_pending = 0
        for k in range(1, P):
            c = self._seat_after(seat, k)
            if self._fill(c):
                self.pending[self.n_pending] = c
                self.n_pending += 1
        if not self.n_pending:
            return self._close_window_unclaimed()
        return 0

    cdef inline void _clear_claim(self) noexcept nogil:
        cdef int k
        self.claim_tile = -1
        self.claim_from = -1
        self.claim_last = 0
        self.claim_humanly = 0
        self.n_pending = 0
        for k in range(MAXP):
            self.responses[k] = -1

    cdef inline int _close_window_unclaimed(self) except -1 nogil:
        cdef int seat = self.claim_from, t = self.claim_tile, last = self.claim_last
        cdef bint rob = self.phase == PH_ROB
        self._clear_claim()
        self._touch()
        if rob:
            return self._complete_added_kong(seat, t)
        if last:
            return self._exhaustive()
        return self._start_turn(self._seat_after(seat, 1))

    cdef int _resolve(self) except -1 nogil:
        cdef int P = self.P, s = self.claim_from, t = self.claim_tile, k, c, r, n = 0
        for k in range(1, P):
            c = self._seat_after(s, k)
            if self.responses[c] == A_WIN:
                self.winners[n] = c
                n += 1
        if n:
            if not self.multiple_winners:
                n = 1
            return self._finish_win(n, s, METHOD_ROBBING if self.phase == PH_ROB else METHOD_DISCARD, t)
        if self.phase == PH_CLAIM:
            for k in range(1, P):
                c = self._seat_after(s, k)
                r = self.responses[c]
                if r == A_PON or r == A_KONG_CLAIM:
                    self._clear_claim()
                    self._touch()
                    return self._claim_group(c, s, t, r)
            for k in range(1, P):
                c = self._seat_after(s, k)
                r = self.responses[c]
                if A_CHI_LOW <= r <= A_CHI_HIGH:
                    self._clear_claim()
                    self._touch()
                    return self._claim_group(c, s, t, r)
        return self._close_window_unclaimed()

    cdef int _claim_group(self, int c, int s, int t, int r) except -1 nogil:
        cdef uint8_t* h = self.hands[c]
        cdef int low, x
        self.n_pool[s] -= 1  # the claimed discard is the discarder's last one
        _kept_pool(self, self.obs_kept, s, self.n_pool[s], 0)
        self._hand_changed(c)
        self.calls_made = 1
        self.earthly_seat = -1
        self.turn = c
        self.phase = PH_TURN
        self.drawn = -1
        self.drawn_src = SRC_NONE
        if r == A_KONG_CLAIM:
            h[t] -= 3
            self.n_hand[c] -= 3
            self._add_meld(c, M_KONG, t, s, t)
            self._ev(EV_KONG, c, 2, t, s, 0)
            return self._replacement(c)
        if r == A_PON:
            h[t] -= 2
            self.n_hand[c] -= 2
            self._add_meld(c, M_PON, t, s, t)
            self._ev(EV_PON, c, t, s, 0, 0)
        else:
            low = t - (r - A_CHI_LOW)
            for x in range(low, low + 3):
                if x != t:
                    h[x] -= 1
                    self.n_hand[c] -= 1
            self._add_meld(c, M_CHI, low, s, t)
            self._ev(EV_CHI, c, low, t, s, 0)
        self.must_discard = 1
        return 0

    cdef inline int _start_turn(self, int seat) except -1 nogil:
        cdef int t = self._take(self.head)
        if self.first_turn and not self.calls_made and seat != self.dealer and not self.drew[seat]:
            self.earthly_seat = seat
        self.drew[seat] = 1
        self._ev(EV_DRAW, seat, t, FROM_HEAD, 0, 0)
        return self._receive(seat, t, SRC_HEAD)

    cdef int _replacement(self, int seat) except -1 nogil:
        cdef int d, t
        if self.kong_die:
            d = self.kong_dice[self.kong_dice_used]
            self.kong_dice_used += 1
            t = self._take(self._die_stack(d))
            self._ev(EV_DRAW, seat, t, FROM_DIE, d, 0)
        else:
            t = self._take(self.tail)
            self._ev(EV_DRAW, seat, t, FROM_TAIL, 0, 0)
        return self._receive(seat, t, SRC_KONG)

    cdef inline int _receive(self, int seat, int t, int src) except -1 nogil:
        while t >= 34:
            self._add_flower(seat, t)
            if self._live() <= 0:
                self.turn = seat
                return self._exhaustive()
            t = self._take(self.tail)
            src = SRC_FLOWER
            self._ev(EV_DRAW, seat, t, FROM_TAIL, 0, 0)
        self.hands[seat][t] += 1
        self.n_hand[seat] += 1
        self.drawn = t
        self.drawn_src = src
        self.turn = seat
        self.phase = PH_TURN
        self.must_discard = 0
        return 0

    cdef int _next_dealer(self, int n) noexcept nogil:
        cdef int k
        if n == 0:
            return (self.dealer + 1) % self.P if self.dealer_on_draw_next else self.dealer
        for k in range(n):
            if self.winners[k] == self.dealer:
                return self.dealer
        return self.winners[0]

    cdef int _exhaustive(self) except -1 nogil:
        self._clear_claim()
        self._touch()
        self.phase = PH_OVER
        self.res_draw = 1
        self.n_winners = 0
        self.res_loser = -1
        self.res_method = -1
        self.res_next_dealer = self._next_dealer(0)
        self.res_wall_remaining = self.remaining
        self._ev(EV_EXHAUSTIVE, self.remaining, 0, 0, 0, 0)
        self._ev(EV_ROUND_END, 1, self.res_next_dealer, 0, 0, 0)
        return 0

    cdef int _finish_win(self, int n, int loser, int method, int t) except -1 nogil:
        cdef int k, c
        for k in range(n):
            c = self.winners[k]
            if method == METHOD_SELF_DRAWN:
                memcpy(&self.res_wins[k], self._self_win(c), sizeof(WinEval))
            else:
                memcpy(&self.res_wins[k], self._claim_win(c), sizeof(WinEval))
        self._touch()
        if method == METHOD_DISCARD:
            self.n_pool[loser] -= 1
            _kept_pool(self, self.obs_kept, loser, self.n_pool[loser], 0)
        if method != METHOD_SELF_DRAWN:
            self.hands[self.winners[0]][t] += 1
            self.n_hand[self.winners[0]] += 1
        self._hand_changed(self.winners[0])      # the round is over: no wait is asked again
        self._clear_claim()
        self.phase = PH_OVER
        self.res_draw = 0
        self.n_winners = n
        self.res_loser = loser
        self.res_method = method
        self.res_next_dealer = self._next_dealer(n)
        self.res_wall_remaining = self.remaining
        for k in range(n):
            self._ev(EV_WIN, k, 0, 0, 0, 0)
        self._ev(EV_ROUND_END, 0, self.res_next_dealer, 0, 0, 0)
        return 0

    # ------------------------------------------------------------------ bots (_round_bots.pxi)
    def play_out(self, kinds, generators, Py_ssize_t max_steps=100000):
        """Play to the end with built-in bots: ``kinds[seat]`` 0 greedy / 1 random,
        ``generators[seat]`` a NumPy BitGenerator for random bots (else None)."""
        cdef int kind[MAXP]
        cdef mj_bitgen_t* bg[MAXP]
        cdef int s, i, seat
        cdef Py_ssize_t steps = 0
        if len(kinds) != self.P or len(generators) != self.P:
            raise ValueError(f"{self.P} bots needed")
        for s in range(self.P):
            kind[s] = kinds[s]
            bg[s] = NULL
            if kind[s] != BOT_GREEDY and kind[s] != BOT_RANDOM:
                raise ValueError(f"bot kind must be 0 (greedy) or 1 (random), got {kind[s]}")
            if kind[s] == BOT_RANDOM:
                bg[s] = <mj_bitgen_t*> PyCapsule_GetPointer(generators[s].capsule, "BitGenerator")
        while self.phase != PH_OVER:
            seat = self._first_to_act()
            if kind[seat] == BOT_GREEDY:
                i = _bot_greedy(self, seat)
            else:
                i = _bot_random(self, seat, bg[seat])
            if i < 0 or not self._has(seat, i):  # pragma: no cover - a flow bug
                raise RuntimeError(f"bot chose an illegal action {i} for seat {seat}")
            self._step(seat, i)
            steps += 1
            if steps > max_steps:  # pragma: no cover - a flow bug
                raise RuntimeError("round did not finish")
        return steps

    def bot_choice(self, int seat, int kind, generator=None):
        """The built-in bot's action index for ``seat`` now (-1 if the seat is not to act)."""
        if kind != BOT_GREEDY and kind != BOT_RANDOM:
            raise ValueError(f"bot kind must be 0 (greedy) or 1 (random), got {kind}")
        if not 0 <= seat < self.P:
            return -1
        if kind == BOT_GREEDY:
            return _bot_greedy(self, seat)
        return _bot_random(self, seat, <mj_bitgen_t*> PyCapsule_GetPointer(generator.capsule, "BitGenerator"))

    # ------------------------------------------------------------------ Python API of the core
    def legal(self, int seat):
        """Legal action indices of ``seat`` (ascending), as a list (empty for a seat not to act)."""
        if not 0 <= seat < self.P:
            return []
        cdef int n = self._legal(seat), k
        return [self.opts[seat][k] for k in range(n)]

    def locked(self, int seat):
        """报听 declared and the ruleset locks the hand (2.7)."""
        self._check_seat(seat)
        return self._locked(seat)

    def ready_allowed(self, int seat):
        """May ``seat`` declare 报听 with a discard now (2.7, OP-20)?"""
        self._check_seat(seat)
        return self._ready_allowed(seat)

    def legal_mask(self, int seat):
        """Boolean mask of size A_SIZE of the legal actions of ``seat`` (all False for a seat not to act)."""
        return _legal_mask(self, seat)

    def legal_action_dicts(self, int seat):
        """The legal actions of ``seat`` as action dicts (``Action.to_dict()``), in index order."""
        if not 0 <= seat < self.P:
            return []
        return _legal_dicts(self, seat, self._legal(seat))

    def view(self, int seat, int schema_version, str ruleset, result):
        """The per-seat view (round_views.VIEW_KEYS, redacted) of a checked ``seat``;
        ``result`` is the finished round's result dict (else None)."""
        self._check_seat(seat)
        return _view(self, seat, _view_head(self, seat, schema_version, ruleset), result)

    def view_heads(self, int schema_version, str ruleset):
        """Per seat, the template of its views (every key, the values fixed for the round set):
        Round.view copies it instead of setting those values per view."""
        return [_view_head(self, k, schema_version, ruleset) for k in range(self.P)]

    def is_legal(self, int seat, int i):
        if not 0 <= seat < self.P:
            return False
        return self._legal_now(seat, i)

    def step(self, int seat, int i):
        """Apply a legal action index; returns the event-buffer position before it."""
        if not self.is_legal(seat, i):
            raise IllegalActionError(f"action {i} of seat {seat} is not legal now")
        cdef Py_ssize_t start = self.ev_len // EV_W
        self._step(seat, i)
        return start

    def seats_to_act(self):
        return _seats_to_act(self)

    def win_check(self, int seat):
        """``(why, non_flower_total)`` of the seat's win now: why 0 ok, 1 must discard, 2 not a
        winning hand, 3 below the minimum; ``None`` when no win can be asked now."""
        cdef WinEval* w
        self._check_seat(seat)
        if self.phase == PH_TURN and seat == self.turn:
            w = self._self_win(seat)
        elif self.phase in (PH_CLAIM, PH_ROB) and seat != self.claim_from:
            w = self._claim_win(seat)
        else:
            return None
        return (w.why, w.non_flower if w.why in (WHY_OK, WHY_BELOW_MIN) else 0)

    def cached_waits(self, int seat):
        """The waits cache of ``seat`` as it stands (the tests hold it to a fresh computation):
        the 34-bit set of the waits of its concealed hand of 3k+1 tiles (after a draw in its
        turn: without the drawn tile), or None while it is not computed."""
        self._check_seat(seat)
        return self.waits[seat] if self.waits_valid[seat] else None

    def hands_array(self):
        """A copy of the concealed counts, shape (P, 34) uint8."""
        out = np.zeros((self.P, NK), dtype=np.uint8)
        cdef uint8_t[:, ::1] v = out
        cdef int s, i
        for s in range(self.P):
            for i in range(NK):
                v[s, i] = self.hands[s][i]
        return out

    def hand_row(self, int seat):
        """A copy of one seat's concealed counts (34 uint8)."""
        self._check_seat(seat)
        out = np.zeros(NK, dtype=np.uint8)
        cdef uint8_t[::1] v = out
        cdef int i
        for i in range(NK):
            v[i] = self.hands[seat][i]
        return out

    def hand_size(self, int seat):
        self._check_seat(seat)
        return _sum34(self.hands[seat])

    def melds_list(self):
        cdef int s, i
        return [[[self.melds[s][i][0], self.melds[s][i][1], self.melds[s][i][2], self.melds[s][i][3],
                  self.melds[s][i][4]] for i in range(self.n_melds[s])] for s in range(self.P)]

    def pon_of(self, int seat, int t):
        self._check_seat(seat)
        if not 0 <= t < NK:
            return -1
        return self._pon_of(seat, t)

    def discards_list(self):
        cdef int s, i
        return [[self.pool[s][i] for i in range(self.n_pool[s])] for s in range(self.P)]

    def flowers_list(self):
        cdef int s, i
        return [[self.flowers[s][i] for i in range(self.n_flowers[s])] for s in range(self.P)]

    def flags_list(self, str name):
        """Per-seat int flags: ready, ready_concealed, heavenly_ready, drew."""
        cdef int s
        cdef int* a
        if name == "ready":
            a = self.ready
        elif name == "ready_concealed":
            a = self.ready_concealed
        elif name == "heavenly_ready":
            a = self.heavenly_ready
        elif name == "drew":
            a = self.drew
        else:
            raise ValueError(f"unknown flag list {name!r}")
        return [a[s] for s in range(self.P)]

    def dice_list(self):
        return [self.dice[0], self.dice[1]]

    def visible_counts(self):
        cdef int v[NK]
        self._visible(v)
        return [v[k] for k in range(NK)]

    @property
    def n_events(self):
        return self.ev_len // EV_W

    def events(self, Py_ssize_t start=0):
        """Event dicts from record ``start`` on (the documented log format, header excluded)."""
        return _decode_events(self, start)

    def action_pairs(self):
        """Every action applied so far as ``bytes``: one ``(seat, mask index)`` pair per action,
        in order (the compact record a match keeps of a finished round, to replay it)."""
        cdef Py_ssize_t k, end = self.ev_len // EV_W
        cdef int32_t* p
        cdef bytearray out = bytearray()
        for k in range(end):
            p = self.ev + k * EV_W
            if p[0] == EV_ACTION:
                out.append(p[1])
                out.append(p[2])
        return bytes(out)

    def result_info(self):
        """``None`` while running; else ``(draw, winners, loser, method, next_dealer, wall_remaining)``."""
        if self.phase != PH_OVER:
            return None
        return (bool(self.res_draw), [self.winners[k] for k in range(self.n_winners)],
                None if self.res_loser < 0 else self.res_loser,
                None if self.res_draw else _METHODS[self.res_method], self.res_next_dealer,
                self.res_wall_remaining)

    def win_record(self, int k):
        """Winner ``k``'s evaluated hand: dict of kind, concealed (34 counts), win_tile, flags,
        total, non_flower_total, form, counts (fan table order)."""
        cdef WinEval* w
        if not 0 <= k < self.n_winners:
            raise ValueError(f"winner index {k} outside 0-{self.n_winners - 1}")
        w = &self.res_wins[k]
        return {"kind": w.kind, "concealed": [w.concealed[i] for i in range(NK)],
                "win_tile": None if w.win_tile < 0 else w.win_tile, "flags": w.flags, "total": w.total,
                "non_flower_total": w.non_flower, "form": w.form,
                "counts": [w.counts[i] for i in range(self.nf)]}

    def settle_keys(self):
        """What settles the round, in one call: ``None`` while running, ``()`` for a draw, else
        one ``(winner, loser, method, total, non_flower_total, min_fan)`` per winner (``loser``
        None for a self-drawn win) -- the arguments of a win payment (mahjong_core.rl.rewards)."""
        cdef int k
        if self.phase != PH_OVER:
            return None
        if self.res_draw:
            return ()
        loser = None if self.res_loser < 0 else self.res_loser
        method = _METHODS[self.res_method]
        return tuple([(self.winners[k], loser, method, self.res_wins[k].total, self.res_wins[k].non_flower,
                       self.min_fan) for k in range(self.n_winners)])

    def winner_totals(self):
        return [(self.winners[k], self.res_wins[k].total, self.res_wins[k].non_flower)
                for k in range(self.n_winners)]

    # ------------------------------------------------------------------ state export / import
    def get_state(self):
        """Every field as plain data (the ``Round.to_dict`` layout, minus header, log and result)."""
        cdef int s, i
        P = self.P
        return {
            "wall": {"tiles": [self.tiles[i] for i in range(self.n_tiles)],
                     "taken": "".join("1" if self.taken[i] else "0" for i in range(self.n_tiles))},
            "dice": [self.dice[0], self.dice[1]],
            "kong_dice": [self.kong_dice[i] for i in range(N_KONG_DICE)],
            "kong_dice_used": self.kong_dice_used,
            "hands": [[self.hands[s][i] for i in range(NK)] for s in range(P)],
            "melds": [[[self.melds[s][i][0], self.melds[s][i][1], self.melds[s][i][2], self.melds[s][i][3],
                        self.melds[s][i][4]] for i in range(self.n_melds[s])] for s in range(P)],
            "discards": [[self.pool[s][i] for i in range(self.n_pool[s])] for s in range(P)],
            "flowers": [[self.flowers[s][i] for i in range(self.n_flowers[s])] for s in range(P)],
            "phase": PHASE_NAMES[self.phase],
            "turn": self.turn,
            "drawn": self.drawn,
            "drawn_src": SRC_NAMES[self.drawn_src],
            "must_discard": self.must_discard,
            "ready": [self.ready[s] for s in range(P)],
            "ready_concealed": [self.ready_concealed[s] for s in range(P)],
            "heavenly_ready": [self.heavenly_ready[s] for s in range(P)],
            "dealer_first": self.dealer_first,
            "calls_made": self.calls_made,
            "drew": [self.drew[s] for s in range(P)],
            "earthly_seat": self.earthly_seat,
            "claim": {
                "tile": self.claim_tile,
                "from": self.claim_from,
                "last": self.claim_last,
                "humanly": self.claim_humanly,
                "pending": [self.pending[k] for k in range(self.n_pending)],
                "responses": [self.responses[s] for s in range(P)],
            },
            "n_steps": self.n_steps,
        }


include "_round_bots.pxi"
include "_round_boxes.pxi"
include "_round_events.pxi"
include "_round_rng.pxi"
include "_round_views.pxi"
include "_round_api.pxi"
include "_round_obs.pxi"
