# The state of the compiled long-card round (spec changpai.md section 3): one struct, the C fields of
# RoundCore.  Its behaviour lives in the .pxi files of _lc_round.pyx by concern: _lc_round_seats.pxi
# (a seat's cards), _lc_round_legal.pxi (what a seat may do), _lc_round_transitions.pxi (the state
# machine's moves), _lc_round_events.pxi (event records and views), _lc_round_bots.pxi (the bots).
from libc.stdint cimport uint8_t, int8_t, int16_t, uint32_t, uint64_t
from mahjong_core._lc_hand cimport MAX_DECLARED, LcPlanPart, LC_N_COMP
from mahjong_core._longcard_constants cimport *

# the engine's own buffer sizes
cdef enum:
    MAX_OPTS = 40            # claims of one seat on one card (4 + the 吃 pairs; checked at import)
    MAX_CHI_WITH = 36        # 吃 pairs with one card (checked at import)

# sizes of the observation (_lc_round_obs.pxi) that the state keeps part of (obs_img)
cdef enum:
    # 45 cards left in the stock after the deal (105 - 60) turned by one seat, plus its discards: the
    # banker's first one and one after each of at most 7 claims
    OBS_TANGZI = 53
    OBS_GROUP = 5               # bytes of a declared group: kind, three cards, from
    # the observation's sections from "groups" to "jiang": groups, tangzi, dead, concealed, folded,
    # banker, qi_player, jiang
    OBS_IMG_TANGZI = PLAYERS * MAX_DECLARED * OBS_GROUP
    OBS_IMG_DEAD = OBS_IMG_TANGZI + PLAYERS * OBS_TANGZI
    OBS_IMG_SEATS = OBS_IMG_DEAD + N_FACES
    OBS_IMG_JIANG = OBS_IMG_SEATS + 4 * PLAYERS
    OBS_IMAGE = OBS_IMG_JIANG + 2 * (N_FACES + 1)


cdef class RoundCore:
    # ---- settings (spec 6), as ints
    cdef readonly object settings
    cdef int caishen_count, dirn, extra_card, mao_bonus, quad_xiang, chi_kan, kan_as_peng, xiang_bonus
    cdef int seven_peng, chi_ban, hu_over, bi_peng, liang_mao, wei_zhang, bi_jin_bi_da, liang_fan_ke_tiao
    cdef int liang_theo, dang_rule, qi_pass, chi_skips_folded, tiao_discard, last_mao_hu_only, ready_live
    cdef int keep_kans, peng_bar, baozi_allowed, announce, waive, guohu_hand, show_repl, all_folded_ends, qi_s1
    cdef int thr[2]
    cdef bint settings_wumenjiang          # the 将 cards are revealed (4.5): the observation reads them
    cdef int w[N_FACES]                   # face weights (五门将, 4.4) of this hand's 将 cards
    cdef readonly object jiang
    cdef object _result                   # the result once built (_result_of); None before
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
    cdef int dec_mao, dec_tmax             # 卯 and T_max of that Q (the observation reads them)
    # ---- kept as the groups and 堂子 change (_add_group, _grow_xiang, _to_tangzi): the copies of each face
    # in every 堂子 and declared group, and each seat's declared copies, their 陀 and whether one is red
    # (what _seat and _dead_for read)
    cdef uint8_t pub[N_FACES]
    cdef uint8_t gown[PLAYERS][N_FACES]
    cdef int gtuo[PLAYERS]
    cdef bint gred[PLAYERS]
    cdef int gver[PLAYERS]                 # counts the changes of each seat's declared groups
    # ---- the last (卯, T_max) worked out for each seat and what it was worked out from (_plan_seat): a
    # seat's cards and the live faces change far less often than it decides; and the plan's part of
    # each point class, of which a change of the cards recomputes only the classes it touches
    cdef bint qc_ok[PLAYERS]
    cdef uint8_t qc_c[PLAYERS][N_FACES]
    cdef uint8_t qc_live[PLAYERS][N_FACES]      # 1: a copy of the face is live
    cdef int qc_gver[PLAYERS]
    cdef LcPlanPart qc_parts[PLAYERS][LC_N_COMP]
    cdef int qc_caishen[PLAYERS]
    cdef int qc_mao[PLAYERS]
    cdef int qc_tmax[PLAYERS]
    cdef int qc_theo[PLAYERS]           # F_theo of those cards (-1: not worked out yet; _theo_seat)
    # ---- log and events
    cdef int16_t* log
    cdef int nlog, cap_log
    cdef int16_t* ev
    cdef int nev, cap_ev
    # ---- how the hand ended (_end): the kind ("win", "baozi", "huangzhuang", "void", None before the
    # end) and its data; the result dict with the settlement is built from them when first read
    # (_result_of): a learning run reads the result of the hands with payments only
    cdef object end_kind
    cdef dict end_data
    # ---- added later (kept at the end)
    cdef int fan_cap                       # the settings' fan_cap (0: none): the engine's own win scores
    # ---- the observation's sections from "groups" to "jiang" as each seat sees them (rows relative
    # to it), of which the public groups, 堂子, banker and 将 cards are written as they change
    # (_img_group, _to_tangzi, _img_static); the others (dead to qi_player) are left zero and written
    # at each observation (_lc_obs_fill copies the image, then them)
    cdef uint8_t obs_img[PLAYERS][OBS_IMAGE]
