# The state of the compiled mahjong round: one struct, the C fields of RoundCore, and the sizes and
# codes they use.  Its behaviour lives in the .pxi files of _round.pyx by concern: _round_transitions.pxi
# (the state machine's moves), _round_legal.pxi (what a seat may do), _round_events.pxi and
# _round_views.pxi (event records, views), _round_bots.pxi (the bots), _round_api.pxi, _round_obs.pxi
# and _round_vec.pxi (the Python, observation and vector faces).
from libc.stdint cimport uint8_t, uint16_t, uint32_t, uint64_t, int32_t
from mahjong_core._mahjong_constants cimport *

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


cdef class RoundCore:
    # settings
    cdef readonly int P, rs, special, min_fan, dealer, round_wind, stacks
    cdef int chi_prev_only, kong_die, ready_mode, ready_locks, ready_window, first_turn, seat_winds
    cdef int dealer_on_draw_next, multiple_winners, rob_kong, fan_options, nf
    cdef int dealer_on_win_next
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
