# cython: language_level=3
"""The compiled long-card hand engine: the state machine of one 长牌 幺地人 hand (spec changpai.md
section 3) and the built-in bots (8.5), a port of the pure-Python reference
:mod:`mahjong_core.families.longcard.round_ref` field by field.

The state is plain C data (uint8 count arrays, short group arrays); every setting of spec section 6
that changes the flow is an int taken from a validated
:class:`~mahjong_core.families.longcard.round_settings.RoundSettings`.  The questions about a
seat's cards (win, waits, 卯 / T_max, F_theo, group count) are the compiled hand kernels of
``_lc_hand.pxd``: one implementation of each rule.  The rare end-of-hand questions (the score of a
win, the 包子 fan, H for ``liang_fan_measure = held``) and the result (settlement) are asked of the
reference's own rule methods on a view of this state (:class:`_RefView`).

Events are fixed records of 6 ints in a growable buffer, decoded to the reference's dicts on demand
(``_lc_round_events.pxi``); the bots (RandomBot, RuleBot of :mod:`.round_bots`) are in
``_lc_round_bots.pxi``.  The parity tests (tests/longcard/test_lc_compiled*.py) hold this engine to
the reference: the same legal and penalised actions at every step, the same events and result.

Only legal actions reach the machine: :meth:`HandCore.step` checks the action against the offered
ones, and the constructor takes its stock and banker from the checked Python layer
(:mod:`mahjong_core.families.longcard.round_engine`).
"""

cimport cython
from libc.stdint cimport uint8_t, int8_t, int16_t, uint32_t, uint64_t
from libc.stdlib cimport malloc, calloc, realloc, free
from libc.string cimport memset, memcpy

import json

from numpy.random import Generator as _Generator

from mahjong_core._validate import as_seat
from mahjong_core.errors import IllegalActionError, MahjongError
from mahjong_core._lc_hand cimport (
    MAX_DECLARED, K_PENG, K_CHI, K_SHA, K_WEIXIANG, K_XIANG,
    lc_max_tuo, lc_all_black, lc_red, lc_group_tuo, lc_same_tuo, lc_waits_mask, lc_group_count,
    lc_count_plan, lc_theoretical_fan, LcPlanPart, LC_N_COMP, lc_plan_parts, lc_plan_combine, lc_face_comp,
)
from mahjong_core.families.longcard import fans as _fans
from mahjong_core.families.longcard import round_ref as _round_ref
from mahjong_core.families.longcard import round_rules as _round_rules
from mahjong_core.families.longcard.cards import CAISHEN as _CAISHEN_ID, COPIES as _COPIES, N_FACES as _N_FACES, SEVENS as _SEVENS
from mahjong_core.families.longcard.groups import Group as _Group, KINDS as _KINDS
from mahjong_core.families.longcard.round_actions import ACTION_SIZE as _ACTION_SIZE, PENG as _PENG, chi_pair as _chi_pair
from mahjong_core.families.longcard.round_settings import RoundSettings as _RoundSettings
from mahjong_core.families.longcard.round_settlement import hand_deltas, hand_payments, next_banker

# cards, actions, phases, offer kinds, event records, announcements and option codes: the family's
# generated constants (tools/constants/longcard.py), the same values as the Python package's
from mahjong_core._longcard_constants cimport *
from mahjong_core.families.longcard._constants import (
    PHASE_NAMES, ANNOUNCE_NAMES, OFFER_KINDS as _OFFER_KINDS, BONUS_MODES as _BONUS_MODES, BAN_RULES as _BAN_RULES,
    DANG_RULES as _DANG_RULES, EVENT_NAMES as _EVENT_NAMES, DRAW_WHY as _DRAW_WHY,
)

# the engine's own buffer sizes
cdef enum:
    MAX_OPTS = 40            # claims of one seat on one card (4 + the 吃 pairs; checked at import)
    MAX_CHI_WITH = 36        # 吃 pairs with one card (checked at import)
    MEMO_BITS = 10           # plan-part memo of 1024 slots (72 KB) per hand
    MEMO_SIZE = 1 << MEMO_BITS

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
# HandCore is ``self`` or the engine that calls them, never None, and the nogil ones cannot test it
@cython.nonecheck(False)
cdef class HandCore:
    """One hand of 长牌 幺地人 in C (see the module docstring).  Built by
    :func:`mahjong_core.families.longcard.round_engine.new_core` from checked settings, stock and banker."""

    # ---- settings (spec 6), as ints
    cdef readonly object settings
    cdef int caishen_count, dirn, extra_card, mao_bonus, quad_xiang, chi_kan, kan_as_peng, xiang_bonus
    cdef int seven_peng, chi_ban, hu_over, bi_peng, liang_mao, wei_zhang, bi_jin_bi_da, liang_fan_ke_tiao
    cdef int liang_theo, dang_rule, qi_pass, chi_skips_folded, tiao_discard, last_mao_hu_only, ready_live
    cdef int keep_kans, peng_bar, baozi_allowed, announce, waive, guohu_hand, show_repl, all_folded_ends, qi_s1
    cdef int thr[2]
    cdef int w[N_FACES]                   # face weights (五门将, 4.4) of this hand's 将 cards
    cdef readonly object jiang
    cdef readonly object result
    # ---- state (the reference's fields)
    cdef uint8_t stock[MAX_STOCK]
    cdef int nstock, pos
    cdef readonly int banker
    cdef uint8_t hands[PLAYERS][N_FACES]
    cdef int caishen[PLAYERS]
    cdef int ng[PLAYERS]
    cdef uint8_t gkind[PLAYERS][MAX_DECLARED]
    cdef uint8_t gcards[PLAYERS][MAX_DECLARED][5]
    cdef int8_t gfrom[PLAYERS][MAX_DECLARED]
    cdef uint8_t tangzi[PLAYERS][MAX_STOCK]
    cdef int ntangzi[PLAYERS]
    cdef bint folded[PLAYERS]
    cdef bint asked[PLAYERS]
    cdef int qi_player
    cdef uint8_t qi_faces[N_FACES]
    cdef uint8_t dang[N_FACES]
    cdef uint8_t peng_barred[PLAYERS][N_FACES]
    cdef int guohu[PLAYERS][N_FACES]
    cdef uint8_t chi_faces[PLAYERS][N_FACES]
    cdef bint started
    cdef int phase, actor, offer, offer_from, offer_kind
    cdef int queue[PLAYERS]
    cdef int nqueue
    cdef bint answered[PLAYERS]
    cdef int16_t copt_id[PLAYERS][MAX_OPTS]
    cdef int8_t copt_rank[PLAYERS][MAX_OPTS]
    cdef int ncopt[PLAYERS]
    cdef bint has_best
    cdef int best_r, best_d, best_seat, best_a
    cdef int discard_ban
    cdef bint self_win_ok
    cdef int drawn                         # the last replacement kept in hand: X of a self-drawn win
    cdef int tou[PLAYERS]
    cdef int ntou
    # ---- the decision of the seat to act: action id -> 包子 cause (-1 not offered, 0 none, 1-6 = B1-B6)
    cdef int8_t dec[N_ACTIONS]
    cdef int dec_log                       # len(log) when dec was worked out (-1: stale)
    cdef bint dec_q                        # Q(actor) at that point (the RuleBot asks it again)
    # ---- memo of plan parts (lc_plan_parts) by point class, concealed and live counts of its faces:
    # between two decisions most classes of a seat's cards are unchanged
    cdef uint64_t* memo_key
    cdef LcPlanPart* memo_part
    # ---- log and events
    cdef int16_t* log
    cdef int nlog, cap_log
    cdef int16_t* ev
    cdef int nev, cap_ev

    def __cinit__(self):
        self.log = NULL
        self.ev = NULL
        self.memo_key = NULL
        self.memo_part = NULL

    def __dealloc__(self):
        free(self.log)
        free(self.ev)
        free(self.memo_key)
        free(self.memo_part)

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
        self.thr[0] = THR_OTHER
        self.thr[1] = THR_BANKER
        self.nstock = len(stock)
        self.banker = banker
        self.cap_log = 256
        self.log = <int16_t*> malloc(2 * self.cap_log * sizeof(int16_t))
        self.cap_ev = 512
        self.ev = <int16_t*> malloc(EV_FIELDS * self.cap_ev * sizeof(int16_t))
        self.memo_key = <uint64_t*> calloc(MEMO_SIZE, sizeof(uint64_t))
        self.memo_part = <LcPlanPart*> malloc(MEMO_SIZE * sizeof(LcPlanPart))
        if self.log == NULL or self.ev == NULL or self.memo_key == NULL or self.memo_part == NULL:
            raise MemoryError()
        self.result = None
        self.dec_log = -1
        self._deal()
        key = (self.jiang, s.wumenjiang, s.wumenjiang_weight)
        w = _WEIGHTS.get(key)
        if w is None:
            w = _fans.face_weights(self.jiang, wumenjiang=s.wumenjiang, wumenjiang_weight=s.wumenjiang_weight)
            if len(_WEIGHTS) < 4096:      # (J1, J2) pairs x the two options: a few thousand at most
                _WEIGHTS[key] = w
        for k in range(N_FACES):
            self.w[k] = w[k]

    # ------------------------------------------------------------------ log and events
    cdef int _event(self, int etype, int seat, int to, int a, int b, int c) except -1:
        cdef int16_t* e
        if self.nev == self.cap_ev:
            e = <int16_t*> realloc(self.ev, 2 * EV_FIELDS * self.cap_ev * sizeof(int16_t))
            if e == NULL:
                raise MemoryError()
            self.ev = e
            self.cap_ev *= 2
        e = self.ev + EV_FIELDS * self.nev
        e[0] = etype
        e[1] = seat
        e[2] = to
        e[3] = a
        e[4] = b
        e[5] = c
        self.nev += 1
        return 0

    cdef int _log_action(self, int p, int a) except -1:
        cdef int16_t* g
        if self.nlog == self.cap_log:
            g = <int16_t*> realloc(self.log, 4 * self.cap_log * sizeof(int16_t))
            if g == NULL:
                raise MemoryError()
            self.log = g
            self.cap_log *= 2
        self.log[2 * self.nlog] = p
        self.log[2 * self.nlog + 1] = a
        self.nlog += 1
        return 0

    # ------------------------------------------------------------------ the deal (3.2, 3.3)
    cdef int _deal(self) except -1:
        cdef int k, p, i, c, n
        cdef int order[PLAYERS]
        self._order_from(self.banker, order)
        self.qi_player = -1
        self.drawn = -1
        self.offer = self.offer_from = -1
        self.offer_kind = OK_NONE
        self.discard_ban = -1
        for p in range(PLAYERS):
            for k in range(N_FACES):
                self.guohu[p][k] = -1
        for k in range(PLAYERS):
            p = order[k]
            for i in range(DEAL * k, DEAL * k + DEAL):
                c = self.stock[i]
                if c == CAISHEN:
                    self.caishen[p] += 1
                else:
                    self.hands[p][c] += 1
            self._event(EV_DEAL, p, p, k, self.caishen[p], 0)
        self.pos = DEAL * PLAYERS
        if self.settings.wumenjiang:
            self.jiang = (self.stock[self.pos], self.stock[self.nstock - 1])
            self._event(EV_JIANG, -1, NO_TO, self.stock[self.pos], self.stock[self.nstock - 1], 0)
        else:
            self.jiang = None
        for k in range(PLAYERS):
            p = order[k]
            n = self.caishen[p]
            if n:
                self._event(EV_CAISHEN, p, NO_TO, n, 0, 0)
            while n:
                c = self._draw()
                n -= 1
                if c == CAISHEN:
                    self.caishen[p] += 1
                    self._event(EV_CAISHEN, p, NO_TO, 1, 0, 0)
                    n += 1
                else:
                    self.hands[p][c] += 1
                    self._event(EV_DRAW, p, p, c, 0, 0)
        self.phase = PH_QI
        self.actor = self.banker
        return 0

    cdef inline int _draw(self) noexcept nogil:
        self.pos += 1
        return self.stock[self.pos - 1]

    cdef inline int _stock_left(self) noexcept nogil:
        return self.nstock - self.pos

    cdef inline void _order_from(self, int p, int* out) noexcept nogil:
        cdef int k
        for k in range(PLAYERS):
            out[k] = _mod3(p + self.dirn * k)

    cdef inline int _distance(self, int src, int p) noexcept nogil:
        return _mod3((p - src) * self.dirn)

    cdef inline int _next_active(self, int p) noexcept nogil:
        cdef int k, q
        for k in range(1, PLAYERS):
            q = _mod3(p + self.dirn * k)
            if not self.folded[q]:
                return q
        return p

    # ------------------------------------------------------------------ a seat's cards (2.4)
    cdef void _seat(self, int p, SeatCards* s) noexcept nogil:
        cdef int i
        memcpy(s.c, self.hands[p], N_FACES)
        memset(s.own, 0, N_FACES)
        s.n = 0
        s.tuo = 0
        s.red = False
        for i in range(self.ng[p]):
            _seat_add(s, self.gkind[p][i], self.gcards[p][i])

    cdef void _dead_for(self, int p, uint8_t* dead) noexcept nogil:
        """Copies dead outside p's own declared groups: every 堂子 and the other seats' groups."""
        cdef int q, i, k
        memset(dead, 0, N_FACES)
        for q in range(PLAYERS):
            for i in range(self.ntangzi[q]):
                dead[self.tangzi[q][i]] += 1
            if q != p:
                for i in range(self.ng[q]):
                    for k in range(_group_size(self.gkind[q][i])):
                        dead[self.gcards[q][i][k]] += 1

    cdef void _live(self, int p, uint8_t* live) noexcept nogil:
        cdef uint8_t dead[N_FACES]
        cdef SeatCards s
        cdef int f
        self._dead_for(p, dead)
        self._seat(p, &s)
        for f in range(N_FACES):
            live[f] = COPIES - s.c[f] - s.own[f] - dead[f]

    cdef void _parts(self, const uint8_t* c, const uint8_t* live, int comp, LcPlanPart* parts) noexcept nogil:
        """lc_plan_parts (every class when comp < 0, else that one) through the memo."""
        cdef int j, k, f
        cdef uint64_t key, slot
        for j in range(LC_N_COMP):
            if comp >= 0 and j != comp:
                continue
            key = j | (<uint64_t> 1 << 63)
            for k in range(COMP_NF[j]):
                f = COMP_FACES[j][k]
                key |= <uint64_t> (c[f] | (live[f] << 3)) << (3 + 6 * k)
            slot = (key * <uint64_t> 0x9E3779B97F4A7C15) >> (64 - MEMO_BITS)
            if self.memo_key[slot] != key:
                lc_plan_parts(c, live, self.mao_bonus, self.quad_xiang, self.chi_kan, j, parts)
                self.memo_key[slot] = key
                self.memo_part[slot] = parts[j]
            else:
                parts[j] = self.memo_part[slot]

    cdef void _plan(self, const SeatCards* s, const uint8_t* dead, int* mao, int* tmax) noexcept nogil:
        cdef uint8_t live[N_FACES]
        cdef LcPlanPart parts[LC_N_COMP]
        cdef int f
        for f in range(N_FACES):
            live[f] = COPIES - s.c[f] - s.own[f] - dead[f]
        self._parts(s.c, live, -1, parts)
        lc_plan_combine(parts, live, s.n, s.kinds, s.faces, s.tuo, self.mao_bonus, self.quad_xiang, self.chi_kan,
                        mao, tmax)

    cdef int _theo(self, const SeatCards* s, const uint8_t* dead, int caishen) noexcept nogil:
        cdef uint8_t live[N_FACES]
        cdef int f
        for f in range(N_FACES):
            live[f] = COPIES - s.c[f] - s.own[f] - dead[f]
        return lc_theoretical_fan(s.c, live, s.n, s.kinds, s.faces, self.w, caishen, self.kan_as_peng,
                                  self.xiang_bonus)

    cdef bint _qualified(self, int p) noexcept nogil:
        """Q(p) of spec 2.8: 7 卯 and T_max >= threshold."""
        cdef SeatCards s
        cdef uint8_t dead[N_FACES]
        cdef int mao, tmax
        self._seat(p, &s)
        self._dead_for(p, dead)
        self._plan(&s, dead, &mao, &tmax)
        return mao >= 7 and tmax >= self.thr[p == self.banker]

    cdef int _f_theo(self, int p) noexcept nogil:
        """F_theo of spec 2.8 (CP-42); with ``qi_fan_measure = s1`` a 幺地人 pair or any 4 of a kind."""
        cdef SeatCards s
        cdef uint8_t dead[N_FACES]
        cdef int f
        if self.qi_s1:
            for f in range(N_FACES):
                if self.hands[p][f] >= 4 or (self.hands[p][f] >= 2 and (f == 0 or f == 3 or f == 15)):
                    return 1
            return 0
        self._seat(p, &s)
        self._dead_for(p, dead)
        return self._theo(&s, dead, self.caishen[p])

    cdef bint _is_win_cards(self, int p, const SeatCards* s) noexcept nogil:
        cdef int t = lc_max_tuo(s.c, self.keep_kans)
        if t < 0:
            return False
        return t + s.tuo >= self.thr[p == self.banker] or (self.waive and not s.red and lc_all_black(s.c))

    cdef uint32_t _waits(self, int p, SeatCards* s, bint engine) noexcept nogil:
        """Waits of the 20 effective cards ``s`` (4.7); ``engine``: with ``ready_requires_live``
        (the engine's question; the bots ask the hand layer's)."""
        cdef uint32_t m = lc_waits_mask(s.c, s.own, s.tuo, self.thr[p == self.banker], self.keep_kans,
                                        self.waive and not s.red)
        cdef uint8_t live[N_FACES]
        cdef int x
        if engine and self.ready_live and m:
            self._live(p, live)
            for x in range(N_FACES):
                if live[x] < 1:
                    m &= ~((<uint32_t> 1) << x)
        return m

    # ------------------------------------------------------------------ rule queries (round_rules)
    cdef int _score_total(self, int p, int extra):
        return int(_RefView(self)._score(p, self._hand_list(p, extra)).total)

    cdef list _hand_list(self, int p, int extra):
        h = _u8list(self.hands[p], N_FACES)
        if extra >= 0:
            h[extra] += 1
        return h

    cdef int _guohu_bar(self, int p, int card) noexcept nogil:
        """Largest fan passed that a win on ``card`` must exceed (3.9, CP-52); -1 = none."""
        cdef int passed = -1, f
        if not self.guohu_hand:
            return self.guohu[p][card]
        for f in range(N_FACES):
            if self.guohu[p][f] > passed:
                passed = self.guohu[p][f]
        return passed

    cdef bint _wins_with(self, int p, int card) except -1:
        cdef SeatCards s
        cdef int passed
        self._seat(p, &s)
        s.c[card] += 1
        if s.c[card] > COPIES or not self._is_win_cards(p, &s):
            return False
        passed = self._guohu_bar(p, card)
        return passed < 0 or self._score_total(p, card) > passed

    cdef bint _self_win(self, int p) except -1:
        """May p win on his own cards now (4.2: 天胡, or after his replacement draws)?  A self-drawn win
        on the drawn face X is subject to 过胡 (3.9) like a claimed one; 天胡 has no drawn card."""
        cdef SeatCards s
        cdef int passed
        if not self.self_win_ok:
            return False
        self._seat(p, &s)
        if not self._is_win_cards(p, &s):
            return False
        if self.drawn < 0:
            return True
        passed = self._guohu_bar(p, self.drawn)
        return passed < 0 or self._score_total(p, -1) > passed

    cdef bint _ready_after_claim(self, int p, int a, int b, int card) noexcept nogil:
        """After claiming ``card`` with the held pair (a, b) (and a suitable discard), is p ready (3.7)?"""
        cdef SeatCards s
        cdef uint8_t g[3]
        cdef int d
        self._seat(p, &s)
        s.c[a] -= 1
        s.c[b] -= 1
        _sort3(a, b, card, g)
        _seat_add(&s, K_PENG if g[0] == g[2] else K_CHI, g)
        for d in range(N_FACES):
            if s.c[d]:
                s.c[d] -= 1
                if self._waits(p, &s, True):
                    return True
                s.c[d] += 1
        return False

    cdef int _chi_pairs(self, int p, int card, uint8_t (*out)[2]) noexcept nogil:
        cdef const uint8_t* h = self.hands[p]
        cdef int k, a, b, n = 0
        for k in range(N_CHI_WITH[card]):
            a = CHI_WITH[card][k][0]
            b = CHI_WITH[card][k][1]
            if h[a] < (2 if a == b else 1) or h[b] < 1:
                continue
            if not self.chi_kan and (h[a] == 3 or h[b] == 3):
                continue
            out[n][0] = a
            out[n][1] = b
            n += 1
        return n

    cdef bint _two_mao(self, int p) noexcept nogil:
        """Two-卯 state of 4.7: 7 - G = 2."""
        cdef bint whole
        return 7 - self.ng[p] - lc_group_count(self.hands[p], &whole) == 2

    cdef bint _last_card(self, int p, int card) noexcept nogil:
        """尾张 of 4.7 (CP-30): no other live copy of any face whose claim makes p ready."""
        cdef uint8_t live[N_FACES]
        cdef uint8_t pairs[MAX_CHI_WITH][2]
        cdef int x, k, n
        self._live(p, live)
        live[card] -= 1
        for x in range(N_FACES):
            if live[x] > 0:
                if self.hands[p][x] == 2 and not self.peng_barred[p][x] and self._ready_after_claim(p, x, x, x):
                    return False
                n = self._chi_pairs(p, x, pairs)
                for k in range(n):
                    if self._ready_after_claim(p, pairs[k][0], pairs[k][1], x):
                        return False
        return True

    cdef int _held_fan(self, int p):
        return int(_RefView(self).held_fan(p))

    cdef bint _tiao_free(self, int f) except -1:
        cdef int p = self.qi_player, i, x, fan
        cdef uint8_t live[N_FACES]
        if not self.qi_faces[f]:
            return True
        for i in range(self.ng[p]):
            if self.gkind[p][i] != K_CHI and self.gcards[p][i][0] == f:
                return True       # his own 碰/杀/吐火 of the face secured its fan (3.15)
        if self.liang_fan_ke_tiao:
            fan = self._f_theo(p) if self.liang_theo else self._held_fan(p)
            if fan >= 2:
                return True
        self._live(p, live)
        if self.dang_rule == DANG_ANY_FACE:
            for x in range(N_FACES):
                if self.qi_faces[x] and (self.dang[x] or live[x] == 0):
                    return True
            return False
        return self.dang[f] or (self.dang_rule != DANG_TAKEN_ONLY and live[f] == 0)

    cdef bint _is_tiao(self, int p, int aid) except -1:
        """Would the action break a 起 fan face (跳牌, CP-24)?"""
        cdef int a, b
        if p != self.qi_player:
            return False
        if aid < N_FACES:
            return self.tiao_discard and not self._tiao_free(aid)
        a = CHI_A[aid]
        b = CHI_B[aid]
        if not self._tiao_free(a) or (b != a and not self._tiao_free(b)):
            return True
        return self.hands[p][self.offer] >= 2 and not self._tiao_free(self.offer)

    cdef bint _last_mao_block(self, int p, int a, int b) noexcept nogil:
        """CP-31: loose cards = one 卯 completed by this card -> the claim is a 胡 or nothing."""
        cdef uint8_t h[N_FACES]
        cdef bint whole
        if not self.last_mao_hu_only:
            return False
        memcpy(h, self.hands[p], N_FACES)
        h[a] -= 1
        h[b] -= 1
        lc_group_count(h, &whole)
        return whole

    cdef int _claim_options(self, int p) except -1:
        """Fill p's claims on the card on offer (action id, priority; before mandatory filtering)."""
        cdef int c = self.offer, src = self.offer_from, n = 0, k, npairs, a, b, i
        cdef const uint8_t* h = self.hands[p]
        cdef bint chi_seat, as_peng
        cdef uint8_t pairs[MAX_CHI_WITH][2]
        self.ncopt[p] = 0
        if self.folded[p] or (self.offer_kind == OK_DISCARD and p == src):
            return 0
        if self._wins_with(p, c):
            self.copt_id[p][n] = HU
            self.copt_rank[p][n] = 6
            n += 1
        for i in range(self.ng[p]):
            if self.gkind[p][i] == K_WEIXIANG and self.gcards[p][i][0] == c:
                self.copt_id[p][n] = XIANG
                self.copt_rank[p][n] = 5
                n += 1
                break
        if h[c] == 3:
            self.copt_id[p][n] = SHA
            self.copt_rank[p][n] = 4
            n += 1
        if h[c] == 2 and not self.peng_barred[p][c] and not self._last_mao_block(p, c, c) \
                and self._keeps_discard(p, c, c, -1):
            self.copt_id[p][n] = PENG
            self.copt_rank[p][n] = 3
            n += 1
        if self.offer_kind == OK_TURN:            # T first, then next_active(T) (CP-20)
            chi_seat = p == src or p == self._next_active(src)
        elif self.chi_skips_folded:
            chi_seat = p == self._next_active(src)
        else:
            chi_seat = p == _mod3(src + self.dirn)
        npairs = self._chi_pairs(p, c, pairs)
        for k in range(npairs):
            a = pairs[k][0]
            b = pairs[k][1]
            as_peng = self.seven_peng and a != b and a != c and b != c and IS_SEVEN[c]    # CP-21
            if (chi_seat or as_peng) and not self._last_mao_block(p, a, b) \
                    and self._keeps_discard(p, a, b, self._chi_ban(a, b, c)):
                self.copt_id[p][n] = CHI_ID[a][b]
                self.copt_rank[p][n] = 3 if as_peng else 1
                n += 1
        self.ncopt[p] = n
        return 0

    cdef inline int _chi_ban(self, int a, int b, int c) noexcept nogil:
        """The face not to discard after a 吃 of ``c`` with the held pair (a, b) (3.5, CP-22), or -1."""
        if self.chi_ban == BAN_ALL or (self.chi_ban == BAN_SEVEN and a != b and a != c and b != c and IS_SEVEN[c]):
            return c
        return -1

    cdef bint _keeps_discard(self, int p, int a, int b, int ban) noexcept nogil:
        """3.5: a 吃 or 碰 is offered only when the claimant keeps a concealed card he may discard after
        it (not of the face ``ban``)."""
        cdef const uint8_t* h = self.hands[p]
        cdef int f
        for f in range(N_FACES):
            if f != ban and h[f] - (f == a) - (f == b) > 0:
                return True
        return False

    cdef inline int _opt_rank(self, int p, int a) noexcept nogil:
        cdef int k
        for k in range(self.ncopt[p]):
            if self.copt_id[p][k] == a:
                return self.copt_rank[p][k]
        return -1

    cdef inline int _best_rank(self, int p) noexcept nogil:
        cdef int k, r = 0
        for k in range(self.ncopt[p]):
            if self.copt_rank[p][k] > r:
                r = self.copt_rank[p][k]
        return r

    cdef bint _chusi(self, int p) noexcept nogil:
        """杵死 (3.11, 必碰 only): loose cards are one pair X X, X is offered, and the completed hand misses 陀."""
        cdef int c = self.offer
        cdef SeatCards s
        cdef bint whole
        if not self.bi_peng or self.folded[p] or self.hands[p][c] != 2:
            return False
        if self.offer_kind == OK_DISCARD and p == self.offer_from:
            return False
        self._seat(p, &s)
        s.c[c] -= 2
        lc_group_count(s.c, &whole)
        if not whole:
            return False
        s.c[c] += 3
        return not self._is_win_cards(p, &s)

    cdef int _mandatory(self, int p) noexcept nogil:
        """The claim that 有杀必杀 / 有吐火必吐火 / 必碰 force (3.7), or -1."""
        if self._opt_rank(p, XIANG) >= 0:
            return XIANG
        if self._opt_rank(p, SHA) >= 0:
            return SHA
        if self.bi_peng and self._opt_rank(p, PENG) >= 0:
            return PENG
        return -1

    # ------------------------------------------------------------------ decisions and 包子 flags
    cdef int _decide(self, int p) except -1:
        """Fill ``dec``: the 包子 cause of every action offered to p now (round_ref._decision, then
        the ``baozi_actions_allowed`` filter of _offered)."""
        cdef int8_t* out = self.dec
        cdef bint q
        cdef int b1, fold_cause, f, k, a, mand, cause, free
        cdef bint any_ready
        cdef int8_t ready[MAX_OPTS]
        cdef int16_t claim_ids[MAX_OPTS]
        cdef int nclaims = 0
        memset(out, -1, N_ACTIONS)
        self.dec_log = self.nlog
        if self.phase == PH_END or p != self.actor:
            return 0
        q = self._qualified(p)
        self.dec_q = q
        if self.phase == PH_QI:
            if q and self._f_theo(p) >= 1:
                out[QI] = 0
            if self.qi_pass or not q:
                out[PASS] = 0 if q else 1
            out[FOLD] = 0
        elif self.phase == PH_STAY:
            out[PASS] = 0 if q else 1
            out[FOLD] = 0
        else:
            b1 = 0 if q else 1
            fold_cause = 2 if q and self.bi_jin_bi_da else 0
            if self.phase == PH_TURN:
                out[PASS] = b1
                out[FOLD] = fold_cause
            elif self.phase == PH_DISCARD:
                free = 0
                for f in range(N_FACES):
                    if self.hands[p][f] and f != self.discard_ban:
                        out[f] = 5 if self._is_tiao(p, f) else 0
                        free += out[f] == 0
                if free == 0:       # gap (g): every card he could discard is a 跳牌: the restriction yields
                    for f in range(N_FACES):
                        if out[f] == 5:
                            out[f] = 0
                if self._self_win(p):
                    out[HU] = 0
                out[FOLD] = fold_cause
            else:                                   # the claim window
                mand = self._mandatory(p)
                for k in range(self.ncopt[p]):
                    a = self.copt_id[p][k]
                    if mand >= 0 and a != mand and a != HU:
                        continue
                    if a == HU and mand >= 0 and not self.hu_over:
                        continue
                    out[a] = b1
                    if CHI_BASE <= a < PENG and b1 == 0 and self._is_tiao(p, a):
                        out[a] = 5
                if b1 == 0 and self._chusi(p):
                    # 杵死 (3.11, 3.13 B6): every choice but the fold is B6; the fold is free
                    for a in range(N_ACTIONS):
                        if out[a] >= 0:
                            out[a] = 6
                    if mand < 0:
                        out[PASS] = 6
                    out[FOLD] = 0
                elif mand < 0:
                    cause = b1
                    # claims that make p ready (3.7; see round_ref._decision for the reading)
                    for k in range(self.ncopt[p]):
                        a = self.copt_id[p][k]
                        if CHI_BASE <= a < PENG and out[a] == 0:
                            claim_ids[nclaims] = a
                            nclaims += 1
                    if self._opt_rank(p, PENG) >= 0:
                        claim_ids[nclaims] = PENG
                        nclaims += 1
                    if cause == 0 and nclaims and (self.liang_mao or self.wei_zhang):
                        any_ready = False
                        for k in range(nclaims):
                            a = claim_ids[k]
                            if a == PENG:
                                ready[k] = self._ready_after_claim(p, self.offer, self.offer, self.offer)
                            else:
                                ready[k] = self._ready_after_claim(p, CHI_A[a], CHI_B[a], self.offer)
                            any_ready = any_ready or ready[k]
                        if any_ready and self.liang_mao and self._two_mao(p):
                            cause = 3
                        elif any_ready and self.wei_zhang and self._last_card(p, self.offer):
                            cause = 4
                        if cause:                  # "MUST take such a claim": the others miss it too
                            for k in range(nclaims):
                                if not ready[k]:
                                    out[claim_ids[k]] = cause
                    out[PASS] = cause
                    out[FOLD] = fold_cause
                else:
                    out[FOLD] = fold_cause
        if not self.baozi_allowed:                  # CP-49: a fully enforced table
            for a in range(N_ACTIONS):
                if out[a] > 0:
                    out[a] = -1
        return 0

    cdef int _offered(self, int p) except -1:
        if self.dec_log != self.nlog or p != self.actor:
            self._decide(p)
        return 0

    # ------------------------------------------------------------------ stepping
    cdef int _apply(self, int p, int a) except -1:
        """Apply the decision ``a`` of the seat to act (offered: checked by the caller)."""
        cdef int cause = self.dec[a], ph = self.phase
        self._log_action(p, a)
        self.dec_log = -1
        self._event(EV_ACTION, p, p if ph == PH_CLAIM and a != FOLD else NO_TO, a, ph, 0)
        if cause > 0:
            self._end_baozi(p, cause, a if a < N_FACES else -1)
        elif ph == PH_QI:
            self._do_qi(p, a)
        elif ph == PH_STAY:
            self._do_stay(p, a)
        elif ph == PH_TURN:
            self._do_turn(p, a)
        elif ph == PH_DISCARD:
            self._do_discard(p, a)
        else:
            self._do_claim(p, a)
        return 0

    cdef bint _fold(self, int p) except -1:
        """Fold p (3.11); True when the hand ended because every seat folded (CP-44)."""
        self.folded[p] = True
        if self.folded[0] and self.folded[1] and self.folded[2] and self.phase != PH_QI and self.all_folded_ends:
            self._end("huangzhuang", {"why": "all_folded"})
            return True
        return False

    # 起 stage (3.3 step 3-4)
    cdef int _do_qi(self, int p, int a) except -1:
        cdef int f, k
        cdef int order[PLAYERS]
        cdef const uint8_t* h = self.hands[p]
        self.asked[p] = True
        if a == QI:
            self.qi_player = p
            for f in range(N_FACES):
                self.qi_faces[f] = (self.w[f] >= 1 and h[f] >= 2) or h[f] >= 4     # CP-24
            self._start_tou()
            return 0
        if a == FOLD:
            self.folded[p] = True
        self._order_from(self.banker, order)
        k = 0
        while order[k] != p:
            k += 1
        if k == PLAYERS - 1:
            self._end("void", {"why": "no_qi"})            # 3.3 step 4
            return 0
        self.actor = order[k + 1]
        return 0

    cdef int _start_tou(self) except -1:
        """3.3 steps 5-6: banker's extra card, then the 偷牌 stage from the banker."""
        cdef int b = self.banker, c
        if self.extra_card and not self.folded[b]:
            while True:
                c = self._draw()
                if c != CAISHEN:
                    break
                self.caishen[b] += 1
                self._event(EV_CAISHEN, b, NO_TO, 1, 0, 0)
            self.hands[b][c] += 1
            self._event(EV_DRAW, b, b, c, 1, 0)
        self._order_from(b, self.tou)
        self.ntou = PLAYERS
        self._advance_tou()
        return 0

    cdef inline void _pop_tou(self) noexcept nogil:
        self.tou[0] = self.tou[1]
        self.tou[1] = self.tou[2]
        self.ntou -= 1

    cdef int _advance_tou(self) except -1:
        cdef int p, f, owed
        while self.ntou:
            p = self.tou[0]
            if self.folded[p]:
                self._pop_tou()
                continue
            if not self.asked[p]:
                self.phase = PH_STAY
                self.actor = p
                return 0
            self._pop_tou()
            owed = 0
            for f in range(N_FACES):                   # 有吐火必吐火 (3.3 step 6)
                if self.hands[p][f] == 5:
                    self._lay(p, K_XIANG, f)
                    owed += 2
                elif self.hands[p][f] == 4:
                    self._lay(p, K_WEIXIANG, f)
                    owed += 1
            if owed and not self._replacements(p, owed, -1):
                return 0
        self._start_play()
        return 0

    cdef int _do_stay(self, int p, int a) except -1:
        self.asked[p] = True
        if a == FOLD and self._fold(p):
            return 0
        self._advance_tou()
        return 0

    cdef int _add_group(self, int p, int kind, const uint8_t* cards, int src) except -1:
        cdef int k = self.ng[p]
        if k == MAX_DECLARED:
            raise MahjongError("more than 7 declared groups")   # pragma: no cover - 21 cards make 7 groups
        self.gkind[p][k] = kind
        memcpy(self.gcards[p][k], cards, 5)
        self.gfrom[p][k] = src
        self.ng[p] = k + 1
        return 0

    cdef int _lay(self, int p, int kind, int f) except -1:
        cdef uint8_t cards[5]
        cdef int n = _group_size(kind)
        memset(cards, f, 5)
        self.hands[p][f] -= n
        self._add_group(p, kind, cards, -1)
        self._event(EV_DECLARE, p, NO_TO, kind, f, 0)
        return 0

    cdef int _start_play(self) except -1:
        """3.3 step 7 (CP-5)."""
        cdef int b = self.banker
        self.started = True
        if self.folded[b]:
            self._turn_due(self._next_active(b))
        elif self.extra_card:
            self.drawn = -1                           # 天胡 is not a win on a drawn card
            self._discard_due(b, True, -1)            # 天胡 allowed (CP-45)
        else:
            self._turn_due(b)
        return 0

    cdef int _turn_due(self, int p) except -1:
        self.offer = self.offer_from = -1
        self.offer_kind = OK_NONE
        if self._stock_left() == 0:                   # 3.4: a TURN due with an empty stock -> 黄庄
            self.phase = PH_TURN
            self._end("huangzhuang", {"why": "stock_empty"})
            return 0
        self.phase = PH_TURN
        self.actor = p
        return 0

    cdef void _discard_due(self, int p, bint self_win, int ban) noexcept nogil:
        self.phase = PH_DISCARD
        self.actor = p
        self.self_win_ok = self_win
        self.discard_ban = ban
        if not self_win:
            self.drawn = -1
        self.offer = self.offer_from = -1
        self.offer_kind = OK_NONE

    # the turn cycle (3.4)
    cdef int _do_turn(self, int p, int a) except -1:
        cdef int c
        if a == FOLD:
            if not self._fold(p):
                self._turn_due(self._next_active(p))
            return 0
        while True:
            if self._stock_left() == 0:
                self._end("huangzhuang", {"why": "stock_empty"})
                return 0
            c = self._draw()
            if c != CAISHEN:
                break
            self.caishen[p] += 1
            self._event(EV_CAISHEN, p, NO_TO, 1, 0, 0)
        self._event(EV_TURN, p, NO_TO, c, 0, 0)
        self._open_window(c, p, OK_TURN)
        return 0

    cdef int _do_discard(self, int p, int a) except -1:
        cdef int x
        if a == FOLD:
            if not self._fold(p):
                self._turn_due(self._next_active(p))
            return 0
        if a == HU:
            self._end_win(p, -1)
            return 0
        if self.drawn >= 0 and self._self_win(p):      # 过胡 (3.9) of a self-drawn win on the drawn face
            x = self._score_total(p, -1)
            if x > self.guohu[p][self.drawn]:
                self.guohu[p][self.drawn] = x
        self.hands[p][a] -= 1
        self._event(EV_DISCARD, p, NO_TO, a, 0, 0)
        self._open_window(a, p, OK_DISCARD)
        return 0

    # claim windows (3.5, 8.2 protocol)
    cdef int _open_window(self, int c, int src, int kind) except -1:
        self.offer = c
        self.offer_from = src
        self.offer_kind = kind
        self.answered[0] = self.answered[1] = self.answered[2] = False
        self.has_best = False
        self.phase = PH_CLAIM
        self._queue_claimants()
        self._advance_claim()
        return 0

    cdef int _queue_claimants(self) except -1:
        """Every seat not yet asked with a claim (or a 杵死 fold) on the card, in the order of 8.2 (see
        round_ref._queue_claimants)."""
        cdef bint todo[PLAYERS]
        cdef int p, q, i, j, n = 0, first
        for p in range(PLAYERS):
            todo[p] = not self.answered[p] and not self.folded[p]
            if todo[p]:
                self._claim_options(p)
        for p in range(PLAYERS):                       # 杵死 seats first
            if todo[p] and self.ncopt[p] == 0 and self._chusi(p):
                self.queue[n] = p
                n += 1
        first = n
        for p in range(PLAYERS):                       # then the claimants, by insertion
            if todo[p] and self.ncopt[p]:
                j = n
                while j > first and self._before(p, self.queue[j - 1]):
                    self.queue[j] = self.queue[j - 1]
                    j -= 1
                self.queue[j] = p
                n += 1
        self.nqueue = n
        return 0

    cdef inline bint _before(self, int p, int q) noexcept nogil:
        cdef int rp = self._best_rank(p), rq = self._best_rank(q)
        return rp > rq or (rp == rq and self._distance(self.offer_from, p) < self._distance(self.offer_from, q))

    cdef inline void _pop_queue(self) noexcept nogil:
        self.queue[0] = self.queue[1]
        self.queue[1] = self.queue[2]
        self.nqueue -= 1

    cdef int _advance_claim(self) except -1:
        cdef int k, q, r
        cdef bint done
        while True:
            if self.has_best:
                done = True
                for k in range(self.nqueue):
                    q = self.queue[k]
                    r = self._best_rank(q)
                    if not (r < self.best_r or (r == self.best_r and self._distance(self.offer_from, q) > self.best_d)):
                        done = False
                        break
                if done:
                    self._execute_claim(self.best_seat, self.best_a)
                    return 0
            if self.nqueue == 0:
                self._no_claim()
                return 0
            q = self.queue[0]
            if self.folded[q]:
                self._pop_queue()
                continue
            self.actor = q
            return 0

    cdef int _do_claim(self, int p, int a) except -1:
        cdef int r, d, c = self.offer
        self._pop_queue()
        self.answered[p] = True
        if a == FOLD:
            if self._fold(p):
                return 0
            self._queue_claimants()
        else:
            if self._opt_rank(p, HU) >= 0 and a != HU:       # 过胡 (3.9)
                r = self._score_total(p, c)
                if r > self.guohu[p][c]:
                    self.guohu[p][c] = r
            if self._opt_rank(p, PENG) >= 0 and a != PENG and self.peng_bar:   # 过碰 (3.9, CP-53)
                self.peng_barred[p][c] = 1
            if a != PASS:
                r = self._opt_rank(p, a)
                d = self._distance(self.offer_from, p)
                if not self.has_best or r > self.best_r or (r == self.best_r and d < self.best_d):
                    self.has_best = True
                    self.best_r = r
                    self.best_d = d
                    self.best_seat = p
                    self.best_a = a
        self._advance_claim()
        return 0

    cdef int _no_claim(self) except -1:
        cdef int src = self.offer_from
        self.tangzi[src][self.ntangzi[src]] = self.offer
        self.ntangzi[src] += 1
        self._event(EV_TANGZI, src, NO_TO, self.offer, 0, 0)
        self._turn_due(self._next_active(src))
        return 0

    cdef int _execute_claim(self, int q, int a) except -1:
        cdef int c = self.offer, x, y, k
        cdef uint8_t* h = self.hands[q]
        cdef uint8_t cards[5]
        self.phase = PH_EXECUTE          # the card is taken: no longer on offer if the hand ends here
        self._event(EV_CLAIM, q, NO_TO, a, c, self.offer_from)
        if self.qi_player >= 0 and q != self.qi_player:
            self.dang[c] = 1                           # 挡 (3.8, CP-25)
        if a == HU or CHI_BASE <= a < PENG:
            self._announce_gen(q, c)
        if a == HU:
            h[c] += 1
            self._end_win(q, c)
            return 0
        memset(cards, c, 5)
        if a == PENG:
            h[c] -= 2
            self._add_group(q, K_PENG, cards, self.offer_from)
            self._discard_due(q, False, -1)
        elif a == SHA:
            h[c] -= 3
            self._add_group(q, K_SHA, cards, self.offer_from)
            if self._replacements(q, 1, c):
                self._discard_due(q, True, -1)
        elif a == XIANG:
            k = 0
            while not (self.gkind[q][k] == K_WEIXIANG and self.gcards[q][k][0] == c):
                k += 1
            self.gkind[q][k] = K_XIANG
            self.gfrom[q][k] = self.offer_from
            if self._replacements(q, 1, -1):
                self._discard_due(q, True, -1)
        else:
            x = CHI_A[a]
            y = CHI_B[a]
            h[x] -= 1
            h[y] -= 1
            _sort3(x, y, c, cards)
            self._add_group(q, K_CHI, cards, self.offer_from)
            self.chi_faces[q][c] = 1
            self._discard_due(q, False, self._chi_ban(x, y, c))     # 3.5, CP-22
        return 0

    # replacement draws (3.6)
    cdef bint _replacements(self, int p, int owed, int sha_face) except -1:
        """Draw ``owed`` replacement cards for p with the chain rules of 3.6; False when the hand ended."""
        cdef int c, k, i
        while owed:
            if self._stock_left() == 0:
                self._end("huangzhuang", {"why": "stock_empty"})        # CP-43
                return False
            c = self._draw()
            owed -= 1
            self._event(EV_REPLACEMENT, p, NO_TO if self.show_repl else p, c, 0, 0)
            if c == CAISHEN:                                            # 1
                self.caishen[p] += 1
                self._event(EV_CAISHEN, p, NO_TO, 1, 0, 0)
                owed += 1
                continue
            k = -1
            for i in range(self.ng[p]):
                if self.gcards[p][i][0] == c and (self.gkind[p][i] == K_WEIXIANG or
                                                  (self.gkind[p][i] == K_SHA and c == sha_face)):
                    k = i
                    break
            if k >= 0:                                                  # 2 拖牌, 3 吐火到自己补到
                self.gkind[p][k] = K_XIANG
                self._event(EV_DECLARE, p, NO_TO, K_XIANG, c, 0)
                owed += 1
                continue
            self.hands[p][c] += 1
            if self.hands[p][c] == 4:                                   # 4 多打 (CP-16)
                self._lay(p, K_WEIXIANG, c)
                owed += 1
                continue
            self.drawn = c
            self._announce_draw(p, c, sha_face >= 0)                    # 5
        return True

    # announcements (3.12)
    cdef int _announce(self, int p, int name, int face) except -1:
        if self.announce:
            self._event(EV_ANNOUNCE, p, NO_TO, name, face, 0)
        return 0

    cdef bint _owns_kind(self, int p, int f, int kind) noexcept nogil:
        cdef int i
        for i in range(self.ng[p]):
            if self.gkind[p][i] == kind and self.gcards[p][i][0] == f:
                return True
        return False

    cdef int _announce_gen(self, int p, int c) except -1:
        if self._owns_kind(p, c, K_PENG):
            self._announce(p, AN_SIGEN, c)
        if self._owns_kind(p, c, K_SHA):
            self._announce(p, AN_WUGEN, c)
        return 0

    cdef int _announce_draw(self, int p, int c, bint after_sha) except -1:
        cdef int n, i, k, copies
        cdef uint8_t dead[N_FACES]
        if after_sha and self._owns_kind(p, c, K_PENG):
            self._announce(p, AN_SIGEN_UP, c)
        if after_sha and self._owns_kind(p, c, K_SHA):
            self._announce(p, AN_WUGEN_UP, c)
        if after_sha and self.bi_peng and self.chi_faces[p][c]:
            self._announce(p, AN_XIANGUO, c)
        n = self.hands[p][c]
        if self.bi_peng and (n == 2 or n == 3):
            self._dead_for(p, dead)
            copies = dead[c]
            for i in range(self.ng[p]):
                for k in range(_group_size(self.gkind[p][i])):
                    copies += self.gcards[p][i][k] == c
            if copies >= 1:
                self._announce(p, AN_ERGEN if n == 2 else AN_SANGEN, c)
        if n == 3 and self.peng_barred[p][c]:
            self._announce(p, AN_WEIPENG, c)
        return 0

    # ------------------------------------------------------------------ the end (3.13, 3.14)
    cdef int _end_win(self, int q, int card) except -1:
        v = _RefView(self)
        sc = v._score(q, self._hand_list(q, -1))
        self._end("win", {"winner": q, "card": None if card < 0 else card, "fan": int(sc.total),
                          "score": sc.to_dict()})
        return 0

    cdef int _end_baozi(self, int p, int cause, int discard) except -1:
        name = f"B{cause}"
        self._end("baozi", {"offender": p, "cause": name, "cause_name": _round_ref.BAOZI_CAUSES[name],
                            "fan": int(_RefView(self)._baozi_fan(p, discard))})
        return 0

    cdef int _end(self, str kind, dict data) except -1:
        s = self.settings
        if self.phase == PH_CLAIM and kind != "win":      # the card on offer was never claimed
            self.tangzi[self.offer_from][self.ntangzi[self.offer_from]] = self.offer
            self.ntangzi[self.offer_from] += 1
        folded = [bool(self.folded[p]) for p in range(PLAYERS)]
        res = {"end": kind, **data}
        res["payments"] = [list(x) for x in hand_payments(res, s, folded)]
        res["deltas"] = hand_deltas(res, s, folded)
        res["next_banker"] = next_banker(res, s, self.banker)
        res["counts"] = kind != "void" and (kind != "baozi" or s.baozi_hand_counts)      # CP-8, CP-57
        self.result = _json_plain(res)
        self.phase = PH_END
        self.actor = -1
        self._event(EV_END, -1, NO_TO, 0, 0, 0)
        return 0

    # ------------------------------------------------------------------ the Python API of the core
    @property
    def phase(self):
        return PHASE_NAMES[self.phase]

    @property
    def actor(self):
        return self.actor

    @property
    def stock_left(self):
        return self._stock_left()

    def seats_to_act(self):
        """The seat that decides now, or [] when the hand is over."""
        return [] if self.phase == PH_END else [self.actor]

    def offered(self, seat):
        """{action id: 包子 cause name or None} of every action ``seat`` may take now."""
        cdef int p = _check_seat(seat)
        if self.phase == PH_END or p != self.actor:
            return {}
        self._offered(p)
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
        self._offered(p)
        if self.dec[action] < 0:
            raise IllegalActionError(f"action {action} is not legal for seat {p} in phase {self.phase}")
        self._apply(p, action)

    def play(self, bots=("rule", "rule", "rule"), rngs=(None, None, None), max_steps=10_000):
        """Play the hand to its end with the built-in bots (``bots``: one of "random", "rule" per seat;
        ``rngs``: a NumPy Generator per random bot) and return the result."""
        bots = tuple(bots)
        rngs = list(rngs)
        _check_bots(bots, rngs)
        if type(max_steps) is not int or not 1 <= max_steps <= 1_000_000:
            raise MahjongError(f"max_steps must be an int 1-1000000, got {max_steps!r}")
        _play(self, bots, rngs, max_steps)
        return self.result

    def choose(self, bot, rng=None):
        """The action the built-in ``bot`` ("random" / "rule"; ``rng``: the random bot's Generator)
        would take for the seat to act now, without taking it."""
        if self.phase == PH_END:
            raise IllegalActionError("the hand is over")
        if bot not in BOT_KINDS or (bot == "random" and not isinstance(rng, _Generator)):
            raise MahjongError(f"bot: one of {', '.join(BOT_KINDS)} (a random bot with its Generator), got {bot!r}")
        self._offered(self.actor)
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
        return self._py_hands()

    @property
    def caishen(self):
        return [self.caishen[0], self.caishen[1], self.caishen[2]]

    @property
    def folded(self):
        return [bool(self.folded[0]), bool(self.folded[1]), bool(self.folded[2])]

    @property
    def groups(self):
        """Each seat's declared groups (:class:`~mahjong_core.families.longcard.groups.Group`)."""
        return self._py_groups()

    @property
    def tangzi(self):
        cdef int p
        return [_u8list(self.tangzi[p], self.ntangzi[p]) for p in range(PLAYERS)]

    cdef list _py_hands(self):
        cdef int p
        return [_u8list(self.hands[p], N_FACES) for p in range(PLAYERS)]

    cdef list _py_groups(self):
        cdef int p, i
        out = []
        for p in range(PLAYERS):
            out.append([_Group(_KINDS[self.gkind[p][i]], tuple(_u8list(self.gcards[p][i], _group_size(self.gkind[p][i]))))
                        for i in range(self.ng[p])])
        return out

    def snapshot(self):
        """The fields the parity tests compare with the reference's (names as in round_ref)."""
        cdef int p, f, i
        return {
            "phase": PHASE_NAMES[self.phase], "actor": self.actor, "pos": self.pos, "banker": self.banker,
            "hands": self._py_hands(), "caishen": [self.caishen[p] for p in range(PLAYERS)],
            "folded": [bool(self.folded[p]) for p in range(PLAYERS)],
            "asked": [bool(self.asked[p]) for p in range(PLAYERS)],
            "groups": [[(g.kind, g.cards) for g in gs] for gs in self._py_groups()],
            "group_from": [[self.gfrom[p][i] for i in range(self.ng[p])] for p in range(PLAYERS)],
            "tangzi": [_u8list(self.tangzi[p], self.ntangzi[p]) for p in range(PLAYERS)], "qi_player": self.qi_player,
            "qi_faces": _u8list(self.qi_faces, N_FACES), "dang": _u8list(self.dang, N_FACES),
            "peng_barred": [_u8list(self.peng_barred[p], N_FACES) for p in range(PLAYERS)],
            "guohu": [[self.guohu[p][f] for f in range(N_FACES)] for p in range(PLAYERS)],
            "chi_faces": [_u8list(self.chi_faces[p], N_FACES) for p in range(PLAYERS)],
            "offer": self.offer, "offer_from": self.offer_from, "offer_kind": _OFFER_KINDS[self.offer_kind],
            "discard_ban": self.discard_ban, "self_win_ok": bool(self.self_win_ok), "started": bool(self.started),
            "drawn": self.drawn,
            "result": self.result,
        }


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

    def __init__(self, HandCore core):
        cdef int p
        self.settings = core.settings
        self.hands = core._py_hands()
        self.groups = core._py_groups()
        self.caishen = [core.caishen[p] for p in range(PLAYERS)]
        self.banker = core.banker
        self.jiang = core.jiang
        self.discard_ban = core.discard_ban


include "_lc_round_events.pxi"
include "_lc_round_bots.pxi"
