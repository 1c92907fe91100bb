# cython: language_level=3
"""The compiled round engine: the game-flow state machine of spec section 2 and the built-in bots.

:class:`mahjong_core.Round` is a thin Python API over :class:`RoundCore`; the simulator and
``play_round`` run whole rounds here with the bots in C (:meth:`RoundCore.play_out`).  The state is
plain C data (counts, short arrays); every ruleset difference is an int setting taken from
:class:`~mahjong_core.game.settings.FlowSettings`, so the machine never branches on a ruleset name.
Win checks, waits and shanten are the compiled hand kernels (``_hand.pxd``), scoring is the
compiled fan evaluator (``_fan.pxd``): one implementation of each rule.

Actions are the mask indices of :mod:`mahjong_core.families.mahjong.actions`.  The caller (the Python layer)
checks legality with :meth:`RoundCore.legal` before :meth:`RoundCore.step`; the core itself only
applies legal actions.  Events are fixed records of 6 ints in a growable buffer, decoded to the
documented dicts on demand (:meth:`RoundCore.events`).

Files, by concern (one struct, its behaviour in functions of it, as the long-card engine
``_lc_round.pyx`` is laid out): ``_round.pxd`` the state (RoundCore's C fields, the sizes and codes
they use); this one the settings checks and RoundCore's Python API; ``_round_transitions.pxi`` the
state machine's moves (wall, deal, step, claims, end); ``_round_legal.pxi`` what a seat may do (waits,
win evaluation, options, the legal set); ``_round_events.pxi`` the event records and their decoding,
``_round_views.pxi`` and ``_round_boxes.pxi`` views and exported state; ``_round_bots.pxi`` the
built-in bots; ``_round_rng.pxi`` NumPy's Generator algorithms (wall shuffle, random bot);
``_round_api.pxi`` the legal sets and views as Python objects, ``_round_view_json.pxi`` a view as
its JSON (the server's frames); ``_round_obs.pxi`` the observation
encoding of ``mahjong_core.rl`` (it includes ``_round_vec.pxi``, ``RoundBatch``: N rounds stepped
without the GIL, which is why the state machine's functions are nogil).

The pure-Python reference of this machine is :mod:`mahjong_core._ref.round`; the parity tests
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

from mahjong_core._bitgen cimport mj_bitgen_t, _interval, _bounded




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
        self.dealer_on_win_next = _choice_setting(settings, "dealer_on_win", ("winner", "next"))
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
        _start(self, dealer, round_wind, wall, len(tiles), d, kd)

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
            seat = _first_to_act(self)
            if kind[seat] == BOT_GREEDY:
                i = _bot_greedy(self, seat)
            else:
                i = _bot_random(self, seat, bg[seat])
            if i < 0 or not _has(self, seat, i):  # pragma: no cover - a flow bug
                raise RuntimeError(f"bot chose an illegal action {i} for seat {seat}")
            _step(self, seat, i)
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
        cdef int n = _legal(self, seat), k
        return [self.opts[seat][k] for k in range(n)]

    def locked(self, int seat):
        """报听 declared and the ruleset locks the hand (2.7)."""
        _check_seat(self, seat)
        return _locked(self, seat)

    def ready_allowed(self, int seat):
        """May ``seat`` declare 报听 with a discard now (2.7, OP-20)?"""
        _check_seat(self, seat)
        return _ready_allowed(self, seat)

    def legal_mask(self, int seat):
        """Boolean mask of size A_SIZE of the legal actions of ``seat`` (all False for a seat not to act)."""
        return _legal_mask(self, seat)

    def legal_action_dicts(self, int seat):
        """The legal actions of ``seat`` as action dicts (``Action.to_dict()``), in index order."""
        if not 0 <= seat < self.P:
            return []
        return _legal_dicts(self, seat, _legal(self, seat))

    def view(self, int seat, int schema_version, str ruleset, result):
        """The per-seat view (round_views.VIEW_KEYS, redacted) of a checked ``seat``;
        ``result`` is the finished round's result dict (else None)."""
        _check_seat(self, seat)
        return _view(self, seat, _view_head(self, seat, schema_version, ruleset), result)

    def view_heads(self, int schema_version, str ruleset):
        """Per seat, the template of its views (every key, the values fixed for the round set):
        Round.view copies it instead of setting those values per view."""
        return [_view_head(self, k, schema_version, ruleset) for k in range(self.P)]

    def is_legal(self, int seat, int i):
        if not 0 <= seat < self.P:
            return False
        return _legal_now(self, seat, i)

    def step(self, int seat, int i):
        """Apply a legal action index; returns the event-buffer position before it."""
        if not self.is_legal(seat, i):
            raise IllegalActionError(f"action {i} of seat {seat} is not legal now")
        cdef Py_ssize_t start = self.ev_len // EV_W
        _step(self, seat, i)
        return start

    def seats_to_act(self):
        return _seats_to_act(self)

    def win_check(self, int seat):
        """``(why, non_flower_total)`` of the seat's win now: why 0 ok, 1 must discard, 2 not a
        winning hand, 3 below the minimum; ``None`` when no win can be asked now."""
        cdef WinEval* w
        _check_seat(self, seat)
        if self.phase == PH_TURN and seat == self.turn:
            w = _self_win(self, seat)
        elif self.phase in (PH_CLAIM, PH_ROB) and seat != self.claim_from:
            w = _claim_win(self, seat)
        else:
            return None
        return (w.why, w.non_flower if w.why in (WHY_OK, WHY_BELOW_MIN) else 0)

    def cached_waits(self, int seat):
        """The waits cache of ``seat`` as it stands (the tests hold it to a fresh computation):
        the 34-bit set of the waits of its concealed hand of 3k+1 tiles (after a draw in its
        turn: without the drawn tile), or None while it is not computed."""
        _check_seat(self, seat)
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
        _check_seat(self, seat)
        out = np.zeros(NK, dtype=np.uint8)
        cdef uint8_t[::1] v = out
        cdef int i
        for i in range(NK):
            v[i] = self.hands[seat][i]
        return out

    def hand_size(self, int seat):
        _check_seat(self, seat)
        return _sum34(self.hands[seat])

    def melds_list(self):
        cdef int s, i
        return [[[self.melds[s][i][0], self.melds[s][i][1], self.melds[s][i][2], self.melds[s][i][3],
                  self.melds[s][i][4]] for i in range(self.n_melds[s])] for s in range(self.P)]

    def pon_of(self, int seat, int t):
        _check_seat(self, seat)
        if not 0 <= t < NK:
            return -1
        return _pon_of(self, seat, t)

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
        _visible(self, v)
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




include "_round_transitions.pxi"
include "_round_legal.pxi"
include "_round_bots.pxi"
include "_round_search.pxi"
include "_round_ismcts.pxi"
include "_round_boxes.pxi"
include "_round_events.pxi"
include "_round_rng.pxi"
include "_round_views.pxi"
include "_round_api.pxi"
include "_round_view_json.pxi"
include "_round_obs.pxi"
