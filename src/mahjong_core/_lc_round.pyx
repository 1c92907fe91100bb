# cython: language_level=3
"""The compiled long-card hand engine: the state machine of one 长牌 幺地人 hand (spec changpai.md
section 3) and the built-in bots (8.5), a port of the pure-Python reference
:mod:`mahjong_core.families.longcard._ref.round` field by field.

The state is plain C data (uint8 count arrays, short group arrays); every setting of spec section 6
that changes the flow is an int taken from a validated
:class:`~mahjong_core.families.longcard.round_settings.RoundSettings`.  The questions about a
seat's cards (win, waits, 卯 / T_max, F_theo, group count) are the compiled hand kernels of
``_lc_hand.pxd``: one implementation of each rule.  The rare end-of-hand questions (the score of a
win, the 包子 fan, H for ``liang_fan_measure = held``) and the result (settlement) are asked of the
reference's own rule methods on a view of this state (:class:`_RefView`).

Files, by concern (one struct, its behaviour in functions of it, as the mahjong engine ``_round.pyx``
is laid out): ``_lc_round.pxd`` the state (RoundCore's C fields); this one the tables, the
constructor and RoundCore's Python API; ``_lc_round_seats.pxi`` the questions about a seat's cards;
``_lc_round_legal.pxi`` what a seat may do (claim options, mandatory actions, the decision with its
包子 causes); ``_lc_round_transitions.pxi`` the state machine's moves; ``_lc_round_events.pxi`` the
event records (fixed records of 6 ints in a growable buffer, decoded to the reference's dicts on
demand) and the views of the state; ``_lc_round_bots.pxi`` the bots (RandomBot, RuleBot of
:mod:`.round_bots`).  The engine was called ``HandCore``; that name stays an alias of ``RoundCore``.  The parity tests (tests/longcard/test_lc_compiled*.py) hold this engine to
the reference: the same legal and penalised actions at every step, the same events and result.

Only legal actions reach the machine: :meth:`RoundCore.step` checks the action against the offered
ones, and the constructor takes its stock and banker from the checked Python layer
(:mod:`mahjong_core.families.longcard.round_engine`).
"""

cimport cython
from libc.stdint cimport uint8_t, int8_t, int16_t, uint32_t, uint64_t
from libc.stdlib cimport malloc, calloc, realloc, free
from libc.string cimport memset, memcpy, memcmp

import json

from numpy.random import Generator as _Generator

from mahjong_core._validate import as_seat
from mahjong_core.errors import IllegalActionError, MahjongError
from mahjong_core._lc_hand cimport (
    MAX_DECLARED, K_PENG, K_CHI, K_SHA, K_WEIXIANG, K_XIANG,
    lc_max_tuo, lc_all_black, lc_red, lc_group_tuo, lc_same_tuo, lc_waits_mask, lc_group_count,
    lc_count_plan, lc_theoretical_fan, LcPlanPart, LC_N_COMP, lc_plan_parts, lc_plan_combine, lc_face_comp,
    lc_plan_ready, lc_ready_after_discard, lc_score_total,
)
from mahjong_core.families.longcard import fans as _fans
from mahjong_core.families.longcard._ref import round as _round_ref
from mahjong_core.families.longcard import round_rules as _round_rules
from mahjong_core.families.longcard.cards import CAISHEN as _CAISHEN_ID, COPIES as _COPIES, N_FACES as _N_FACES, SEVENS as _SEVENS
from mahjong_core.families.longcard.groups import Group as _Group, KINDS as _KINDS
from mahjong_core.families.longcard.round_actions import ACTION_SIZE as _ACTION_SIZE, PENG as _PENG, chi_pair as _chi_pair
from mahjong_core.families.longcard.round_settings import RoundSettings as _RoundSettings
from mahjong_core.families.longcard.round_settlement import hand_deltas, hand_payments, next_banker

# cards, actions, phases, offer kinds, event records, announcements and option codes: the family's
# generated constants (tools/constants/longcard.py), the same values as the Python package's
from mahjong_core._longcard_constants cimport *
from mahjong_core._bits cimport mj_ctz64, mj_clz64
from mahjong_core.families.longcard._constants import (
    PHASE_NAMES, ANNOUNCE_NAMES, OFFER_KINDS as _OFFER_KINDS, BONUS_MODES as _BONUS_MODES, BAN_RULES as _BAN_RULES,
    DANG_RULES as _DANG_RULES, EVENT_NAMES as _EVENT_NAMES, DRAW_WHY as _DRAW_WHY,
)


cdef int THR_OTHER = _fans.threshold(False)      # 陀 thresholds (2.8), banker and the others
cdef int THR_BANKER = _fans.threshold(True)
cdef dict _WEIGHTS = {}                         # face weights by (jiang, wumenjiang, wumenjiang_weight)
cdef bint IS_SEVEN[N_FACES]
cdef uint8_t CHI_WITH[N_FACES][MAX_CHI_WITH][2]     # _round_rules._CHI_PAIRS_WITH in C
cdef int N_CHI_WITH[N_FACES]
cdef uint8_t CHI_A[N_ACTIONS]                        # the held pair of a 吃 action id
cdef uint8_t CHI_B[N_ACTIONS]
cdef int CHI_ID[N_FACES][N_FACES]
cdef int COMP_NF[LC_N_COMP]                          # the faces of each point class (lc_face_comp)
cdef int COMP_FACES[LC_N_COMP][6]
cdef int FACE_COMP[N_FACES]                          # the point class of each face (lc_face_comp)


def _init_tables():
    cdef int c, k, a, b
    if (_N_FACES, _CAISHEN_ID, _COPIES, _ACTION_SIZE, _PENG) != (N_FACES, CAISHEN, COPIES, N_ACTIONS, PENG):
        raise ImportError("the long-card card and action constants changed: _lc_round.pyx must follow")   # pragma: no cover
    for c in range(N_FACES):
        IS_SEVEN[c] = c in _SEVENS
        pairs = _round_rules._CHI_PAIRS_WITH[c]
        if len(pairs) > MAX_CHI_WITH or len(pairs) + 4 > MAX_OPTS:
            raise ImportError("more 吃 pairs than _lc_round.pyx holds")   # pragma: no cover
        N_CHI_WITH[c] = len(pairs)
        for k, (a, b) in enumerate(pairs):
            CHI_WITH[c][k][0] = a
            CHI_WITH[c][k][1] = b
    for c in range(N_FACES):
        k = lc_face_comp(c)
        FACE_COMP[c] = k
        COMP_FACES[k][COMP_NF[k]] = c
        COMP_NF[k] += 1
    for k in range(CHI_BASE, PENG):
        a, b = _chi_pair(k)
        CHI_A[k] = a
        CHI_B[k] = b
        CHI_ID[a][b] = k
        CHI_ID[b][a] = k


_init_tables()


cdef struct SeatCards:
    # one seat's cards as the counting kernels read them: concealed counts and declared groups
    uint8_t c[N_FACES]
    uint8_t own[N_FACES]        # copies in the declared groups
    uint8_t kinds[MAX_DECLARED + 1]
    uint8_t faces[MAX_DECLARED + 1]
    int n
    int tuo
    bint red


cdef inline int _mod3(int x) noexcept nogil:
    # the callers' x (seat +- a step of at most 2 seats) is in -3..5: one compare each way, no division
    if -PLAYERS <= x < 2 * PLAYERS:
        return x + PLAYERS if x < 0 else (x - PLAYERS if x >= PLAYERS else x)
    return ((x % PLAYERS) + PLAYERS) % PLAYERS


cdef inline int _group_tuo_of(int kind, const uint8_t* cards) noexcept nogil:
    if kind == K_CHI:
        return lc_group_tuo(cards)
    if kind == K_PENG:
        return lc_same_tuo(cards[0], 3)
    if kind == K_XIANG:
        return lc_same_tuo(cards[0], 5)
    return lc_same_tuo(cards[0], 4)        # 杀, 吐火未响


cdef inline int _group_size(int kind) noexcept nogil:
    if kind == K_XIANG:
        return 5
    if kind == K_SHA or kind == K_WEIXIANG:
        return 4
    return 3


cdef inline void _seat_add(SeatCards* s, int kind, const uint8_t* cards) noexcept nogil:
    cdef int i, n = _group_size(kind)
    s.kinds[s.n] = kind
    s.faces[s.n] = cards[0]
    s.n += 1
    s.tuo += _group_tuo_of(kind, cards)
    for i in range(n):
        s.own[cards[i]] += 1
        if lc_red(cards[i]):
            s.red = True


# nonecheck off for the engine's methods and the bots (the checked build turns it on): their
# RoundCore is ``self`` or the engine that calls them, never None, and the nogil ones cannot test it
@cython.nonecheck(False)
cdef class RoundCore:
    """One hand of 长牌 幺地人 in C (see the module docstring).  Built by
    :func:`mahjong_core.families.longcard.round_engine.new_core` from checked settings, stock and banker."""

    def __cinit__(self):
        self.log = NULL
        self.ev = NULL

    def __dealloc__(self):
        free(self.log)
        free(self.ev)

    def __init__(self, settings, stock, banker):
        """``settings``: a RoundSettings; ``stock``: the deck's card ids in order (105 + caishen_count:
        every face 5 times); ``banker``: a seat.  :func:`.round_engine.new_core` shuffles and checks them
        with the reference's messages; this constructor checks them again, since nothing unchecked may
        reach the C state."""
        if type(settings) is not _RoundSettings:
            raise MahjongError(f"settings must be a RoundSettings, got {type(settings).__name__}")
        s = settings
        if type(banker) is not int or not 0 <= banker < PLAYERS:
            raise MahjongError(f"banker must be a seat 0-2, got {banker!r}")
        if type(stock) is not list or len(stock) != 105 + s.caishen_count:
            raise MahjongError(f"stock must be a list of {105 + s.caishen_count} card ids (105 + caishen_count)")
        cdef int k, c
        cdef int seen[N_FACES + 1]
        memset(seen, 0, sizeof(seen))
        for k in range(len(stock)):
            x = stock[k]
            if type(x) is not int or not 0 <= x <= CAISHEN:
                raise MahjongError(f"stock[{k}]: a card id is an int 0-21, got {x!r}")
            c = x
            seen[c] += 1
            self.stock[k] = c
        for c in range(N_FACES + 1):
            if seen[c] != (s.caishen_count if c == CAISHEN else COPIES):
                raise MahjongError("stock: not the deck (each face 5 times, caishen_count 财神)")
        _read_settings(self, s)
        self.nstock = len(stock)
        self.banker = banker
        _start(self)

    # ------------------------------------------------------------------ the Python API of the core
    @property
    def phase(self):
        return PHASE_NAMES[self.phase]

    @property
    def actor(self):
        return self.actor

    @property
    def result(self):
        """The result once the hand is over (the reference's dict: end, its data, the settlement),
        else None."""
        return _result_of(self)

    def settle_keys(self):
        """The keys of the hand's payments, as the learning environments' rewards read them (spec 5):
        None while it runs, ``()`` for an end without payments, ``(("win", winner, fan),)`` or
        ``(("baozi", offender, fan),)`` -- the ``end``, seat and ``fan`` of :attr:`result`, without
        building the result."""
        if self.end_kind is None:
            return None
        kind = self.end_kind
        if kind == "win":
            return ((kind, self.end_data["winner"], self.end_data["fan"]),)
        if kind == "baozi":
            return ((kind, self.end_data["offender"], self.end_data["fan"]),)
        return ()

    @property
    def stock_left(self):
        return _stock_left(self)

    def seats_to_act(self):
        """The seat that decides now, or [] when the hand is over."""
        return [] if self.phase == PH_END else [self.actor]

    def offered(self, seat):
        """{action id: 包子 cause name or None} of every action ``seat`` may take now."""
        cdef int p = _check_seat(seat)
        if self.phase == PH_END or p != self.actor:
            return {}
        _offered(self, p)
        return {a: (None if self.dec[a] == 0 else f"B{self.dec[a]}") for a in range(N_ACTIONS) if self.dec[a] >= 0}

    def step(self, seat, action):
        """Apply one decision; one not offered raises IllegalActionError and changes nothing."""
        cdef int p = _check_seat(seat)
        if self.phase == PH_END:
            raise IllegalActionError("the hand is over")
        if p != self.actor:
            raise IllegalActionError(f"seat {p} is not to act (seat {self.actor} is)")
        if type(action) is not int or not 0 <= action < N_ACTIONS:
            raise IllegalActionError(f"an action id is an int 0-{N_ACTIONS - 1}, got {action!r}")
        _offered(self, p)
        if self.dec[action] < 0:
            raise IllegalActionError(f"action {action} is not legal for seat {p} in phase {self.phase}")
        _apply(self, p, action)

    def is_legal(self, seat, action):
        """Is ``action`` (an action id) offered to ``seat`` now?  (The learning environments' check;
        anything that is not an offered action id, whatever its type, is False.)"""
        cdef int p = _check_seat(seat)
        if self.phase == PH_END or p != self.actor or type(action) is not int or not 0 <= action < N_ACTIONS:
            return False
        _offered(self, p)
        return self.dec[<int> action] >= 0

    def play(self, bots=("rule", "rule", "rule"), rngs=(None, None, None), max_steps=10_000):
        """Play the hand to its end with the built-in bots (``bots``: one of "random", "rule" per seat;
        ``rngs``: a NumPy Generator per random bot) and return the result."""
        bots = tuple(bots)
        rngs = list(rngs)
        _check_bots(bots, rngs)
        if type(max_steps) is not int or not 1 <= max_steps <= 1_000_000:
            raise MahjongError(f"max_steps must be an int 1-1000000, got {max_steps!r}")
        _play(self, bots, rngs, max_steps)
        return _result_of(self)

    def playout(self, seat, action):
        """The search bot's play-out: take ``action`` for ``seat`` (checked as :meth:`step` checks it),
        then play the hand to its end with the RuleBot at every seat.  Returns ``(steps, winner,
        deltas)``: the actions applied, this one included (the engine work spent, counted), the seat
        that won (-1: no win) and every seat's points.  Unlike :meth:`play` it does not build the
        result's score breakdown (Python, several times the cost of a short play-out's steps)."""
        cdef int steps
        self.step(seat, action)
        steps = 1 + _play(self, _RULE_SEATS, [None, None, None], 10_000)
        res = {"end": self.end_kind, **self.end_data}
        winner = res["winner"] if self.end_kind == "win" else -1
        return steps, winner, list(_settled(self, self.end_kind, res)["deltas"])    # a copy: the settlement is cached

    def choose(self, bot, rng=None):
        """The action the built-in ``bot`` ("random" / "rule"; ``rng``: the random bot's Generator)
        would take for the seat to act now, without taking it."""
        if self.phase == PH_END:
            raise IllegalActionError("the hand is over")
        if bot not in BOT_KINDS or (bot == "random" and not isinstance(rng, _Generator)):
            raise MahjongError(f"bot: one of {', '.join(BOT_KINDS)} (a random bot with its Generator), got {bot!r}")
        _offered(self, self.actor)
        a = _rule_choice(self, self.actor) if bot == "rule" else _random_choice(self, rng)
        if a < 0:
            raise MahjongError(f"seat {self.actor} has no legal action in phase {self.phase}")   # pragma: no cover
        return a

    def events(self, start=0):
        """The events from number ``start`` (0 or more) on, as the reference's dicts."""
        if type(start) is not int or start < 0:
            raise MahjongError(f"start must be an int >= 0, got {start!r}")
        return _events(self, min(start, self.nev))

    @property
    def n_events(self):
        return self.nev

    @property
    def n_actions(self):
        return self.nlog

    @property
    def log(self):
        """Every action as [seat, action id]."""
        cdef int k
        return [[self.log[2 * k], self.log[2 * k + 1]] for k in range(self.nlog)]

    @property
    def stock(self):
        return _u8list(self.stock, self.nstock)

    @property
    def hands(self):
        return _py_hands(self)

    @property
    def caishen(self):
        return [self.caishen[0], self.caishen[1], self.caishen[2]]

    @property
    def folded(self):
        return [bool(self.folded[0]), bool(self.folded[1]), bool(self.folded[2])]

    @property
    def groups(self):
        """Each seat's declared groups (:class:`~mahjong_core.families.longcard.groups.Group`)."""
        return _py_groups(self)

    @property
    def tangzi(self):
        cdef int p
        return [_u8list(self.tangzi[p], self.ntangzi[p]) for p in range(PLAYERS)]

    def copy(self):
        """An independent copy of the hand now (every field; the log and events start empty): what a
        search plays on without changing this hand."""
        return _core_copy(self)

    def world(self, seat, hands, tail):
        """A copy of the hand in which the cards ``seat`` cannot see are the caller's: ``hands[q]``
        (21 counts) the concealed cards of every other seat q, ``tail`` (a list of ``stock_left``
        card ids, front first) the undrawn stock; what only the other seats know is reset
        (_lc_round_worlds.pxi).  The search bot's determinization; refused in a claim window."""
        cdef int p = _check_seat(seat)
        return _core_world(self, p, hands, tail)

    def snapshot(self):
        """The fields the parity tests compare with the reference's (names as in _ref.round)."""
        cdef int p, f, i
        return {
            "phase": PHASE_NAMES[self.phase], "actor": self.actor, "pos": self.pos, "banker": self.banker,
            "hands": _py_hands(self), "caishen": [self.caishen[p] for p in range(PLAYERS)],
            "folded": [bool(self.folded[p]) for p in range(PLAYERS)],
            "asked": [bool(self.asked[p]) for p in range(PLAYERS)],
            "groups": [[(g.kind, g.cards) for g in gs] for gs in _py_groups(self)],
            "group_from": [[self.gfrom[p][i] for i in range(self.ng[p])] for p in range(PLAYERS)],
            "tangzi": [_u8list(self.tangzi[p], self.ntangzi[p]) for p in range(PLAYERS)], "qi_player": self.qi_player,
            "qi_faces": _u8list(self.qi_faces, N_FACES), "dang": _u8list(self.dang, N_FACES),
            "peng_barred": [_u8list(self.peng_barred[p], N_FACES) for p in range(PLAYERS)],
            "guohu": [[self.guohu[p][f] for f in range(N_FACES)] for p in range(PLAYERS)],
            "chi_faces": [_u8list(self.chi_faces[p], N_FACES) for p in range(PLAYERS)],
            "offer": self.offer, "offer_from": self.offer_from, "offer_kind": _OFFER_KINDS[self.offer_kind],
            "discard_ban": self.discard_ban, "self_win_ok": bool(self.self_win_ok), "started": bool(self.started),
            "drawn": self.drawn,
            "result": _result_of(self),
        }




@cython.nonecheck(False)
cdef int _read_settings(RoundCore self, object s) except -1:
    """The settings (a checked RoundSettings) as the engine's ints."""
    self.settings = s
    self.caishen_count = s.caishen_count
    self.dirn = 1 if s.turn_direction == "ccw" else -1
    self.extra_card = s.banker_extra_card
    self.mao_bonus = _BONUS_MODES.index(s.mao_bonus)
    self.quad_xiang = s.tmax_quad_value == "xiang"
    self.chi_kan = s.chi_may_use_kan
    self.kan_as_peng = s.kan_as_peng
    self.xiang_bonus = s.xiang_bonus_on_fan_faces
    self.seven_peng = s.seven_triple_claim == "peng"
    self.chi_ban = _BAN_RULES.index(s.chi_same_face_discard_ban)
    self.hu_over = s.hu_overrides_mandatory
    self.bi_peng = s.bi_peng
    self.liang_mao = s.liang_mao_bi_jin
    self.wei_zhang = s.wei_zhang_bi_jin
    self.bi_jin_bi_da = s.bi_jin_bi_da
    self.liang_fan_ke_tiao = s.liang_fan_ke_tiao
    self.liang_theo = s.liang_fan_measure == "theoretical"
    self.dang_rule = _DANG_RULES.index(s.dang_rule)
    self.qi_pass = s.qi_stage_pass
    self.chi_skips_folded = s.discard_chi_skips_folded
    self.tiao_discard = s.tiao_definition == "discard_or_chi"
    self.last_mao_hu_only = s.last_mao_claim_is_hu_only
    self.ready_live = s.ready_requires_live
    self.keep_kans = not s.win_split_kan
    self.peng_bar = s.peng_bar_on_pass
    self.baozi_allowed = s.baozi_actions_allowed
    self.announce = s.announcements == "auto"
    self.waive = s.all_black_waives_tuo
    self.guohu_hand = s.guo_hu_scope == "hand"
    self.show_repl = s.show_replacement_draws
    self.all_folded_ends = s.all_folded_ends
    self.qi_s1 = s.qi_fan_measure == "s1"
    self.settings_wumenjiang = s.wumenjiang
    self.thr[0] = THR_OTHER
    self.thr[1] = THR_BANKER
    self.fan_cap = s.fan_cap
    return 0


@cython.nonecheck(False)
cdef void _copy_settings(RoundCore self, RoundCore src) noexcept:
    """The ints of ``src``'s settings (every field that _read_settings sets: keep the two in step;
    tests/longcard/test_lc_vector_deal.py plays hands dealt both ways under every rule switch)."""
    self.settings = src.settings
    self.caishen_count = src.caishen_count
    self.dirn = src.dirn
    self.extra_card = src.extra_card
    self.mao_bonus = src.mao_bonus
    self.quad_xiang = src.quad_xiang
    self.chi_kan = src.chi_kan
    self.kan_as_peng = src.kan_as_peng
    self.xiang_bonus = src.xiang_bonus
    self.seven_peng = src.seven_peng
    self.chi_ban = src.chi_ban
    self.hu_over = src.hu_over
    self.bi_peng = src.bi_peng
    self.liang_mao = src.liang_mao
    self.wei_zhang = src.wei_zhang
    self.bi_jin_bi_da = src.bi_jin_bi_da
    self.liang_fan_ke_tiao = src.liang_fan_ke_tiao
    self.liang_theo = src.liang_theo
    self.dang_rule = src.dang_rule
    self.qi_pass = src.qi_pass
    self.chi_skips_folded = src.chi_skips_folded
    self.tiao_discard = src.tiao_discard
    self.last_mao_hu_only = src.last_mao_hu_only
    self.ready_live = src.ready_live
    self.keep_kans = src.keep_kans
    self.peng_bar = src.peng_bar
    self.baozi_allowed = src.baozi_allowed
    self.announce = src.announce
    self.waive = src.waive
    self.guohu_hand = src.guohu_hand
    self.show_repl = src.show_repl
    self.all_folded_ends = src.all_folded_ends
    self.qi_s1 = src.qi_s1
    self.settings_wumenjiang = src.settings_wumenjiang
    self.thr[0] = src.thr[0]
    self.thr[1] = src.thr[1]
    self.fan_cap = src.fan_cap


@cython.nonecheck(False)
cdef int _start(RoundCore self, const int* weights=NULL) except -1:
    """The buffers, the deal and the face weights of a core whose settings, stock and banker are set
    (``weights``: the face weights of this hand's 将 cards, when the caller has them)."""
    cdef int k
    s = self.settings
    self.cap_log = 256
    self.log = <int16_t*> malloc(2 * self.cap_log * sizeof(int16_t))
    self.cap_ev = 512
    self.ev = <int16_t*> malloc(EV_FIELDS * self.cap_ev * sizeof(int16_t))
    if self.log == NULL or self.ev == NULL:
        raise MemoryError()
    lc_plan_ready(self.mao_bonus, self.chi_kan)     # the counting tables of these options
    self.dec_log = -1
    _deal(self)
    if weights != NULL:
        memcpy(self.w, weights, sizeof(self.w))
        return 0
    key = (self.jiang, s.wumenjiang, s.wumenjiang_weight)
    w = _WEIGHTS.get(key)
    if w is None:
        w = _fans.face_weights(self.jiang, wumenjiang=s.wumenjiang, wumenjiang_weight=s.wumenjiang_weight)
        if len(_WEIGHTS) < 4096:      # (J1, J2) pairs x the two options: a few thousand at most
            _WEIGHTS[key] = w
    for k in range(N_FACES):
        self.w[k] = w[k]
    return 0


@cython.nonecheck(False)
cdef RoundCore _core_like(RoundCore src, const uint8_t* stock, int n, int banker, const int* weights=NULL):
    """A new hand of ``src``'s settings from a stock that is a shuffle of the deck (``n`` cards) and a
    seat, both made in C (RoundBatch._new_hand): the constructor without its checks of Python input.
    ``weights``: the face weights of its 将 cards under these settings, if the caller has them."""
    cdef RoundCore c = RoundCore.__new__(RoundCore)
    _copy_settings(c, src)
    memcpy(c.stock, stock, n)
    c.nstock = n
    c.banker = banker
    _start(c, weights)
    return c


cdef int _check_seat(object seat) except -1:
    """``seat`` as a seat 0-2 by the one rule of the API (``_validate.as_seat``): a SeatError for
    anything else (out of range, a bool, a float, a string, a huge int), whatever the method."""
    if type(seat) is int and 0 <= seat < PLAYERS:
        return seat
    return as_seat(seat, PLAYERS)


cdef object _json_plain(object res):
    """``json.loads(json.dumps(res))`` (what the reference stores) without the text in between for
    the types a result holds; anything else goes through json."""
    try:
        return _plain(res)
    except _NotPlain:
        return json.loads(json.dumps(res))


class _NotPlain(Exception):
    pass


cdef object _plain(object x):
    cdef type t = type(x)
    if t is dict:
        out = {}
        for k, v in (<dict> x).items():
            if type(k) is str:
                out[k] = _plain(v)
            elif type(k) is int:
                out[str(k)] = _plain(v)
            else:
                raise _NotPlain
        return out
    if t is list or t is tuple:
        return [_plain(v) for v in x]
    if t is str or t is int or t is bool or x is None:
        return x
    if t is float and x == x and x not in (float("inf"), float("-inf")):
        return x
    raise _NotPlain


cdef list _u8list(const uint8_t* c, int n):
    cdef int k
    return [c[k] for k in range(n)]


cdef inline void _sort3(int a, int b, int c, uint8_t* out) noexcept nogil:
    cdef int t
    if a > b:
        t = a; a = b; b = t
    if b > c:
        t = b; b = c; c = t
    if a > b:
        t = a; a = b; b = t
    out[0] = a
    out[1] = b
    out[2] = c


class _RefView:
    """The fields of a compiled hand that the reference's rare rule methods read, so that the score
    of a win, the 包子 fan and H are asked of the reference's own methods (one implementation)."""

    effective = _round_ref.Round.effective
    _counting_opts = _round_rules.RoundRules._counting_opts
    _baozi_fan = _round_ref.Round._baozi_fan
    held_fan = _round_rules.RoundRules.held_fan
    _score = _round_rules.RoundRules._score

    def __init__(self, RoundCore core):
        cdef int p
        self.settings = core.settings
        self.hands = _py_hands(core)
        self.groups = _py_groups(core)
        self.caishen = [core.caishen[p] for p in range(PLAYERS)]
        self.banker = core.banker
        self.jiang = core.jiang
        self.discard_ban = core.discard_ban


include "_lc_round_seats.pxi"
include "_lc_round_legal.pxi"
include "_lc_round_transitions.pxi"
include "_lc_round_events.pxi"
include "_lc_round_bots.pxi"
include "_lc_round_obs.pxi"
include "_lc_round_worlds.pxi"


# the engine was called HandCore before one vocabulary named both families' engines RoundCore
HandCore = RoundCore
