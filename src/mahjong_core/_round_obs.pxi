# Included by _round.pyx.  The fixed observation encoding of one seat (mahjong_core.rl): a flat
# uint8 vector written straight from the C state, from what the seat may see only -- its own
# concealed hand and drawn tile, and the public table (melds, discards, flowers, winds, wall
# count, phase, the tile being claimed).  Opponents' concealed tiles, the tiles of their face-down
# kongs, the wall order and who else is asked in a claim window never reach it.
#
# Layout (P players, D = tiles of the wall - 13 P, the most discards one seat can make; relative
# seat k = (seat + k) % P, so the observing seat is always row 0).  One list, _OBS_FIELDS, gives
# the order and the shapes; _obs_fill writes the sections in that order.

from libc.stdint cimport int8_t

# (name, shape) of each section; "P" and "D" stand for the player count and the discard cap
_OBS_FIELDS = (
    ("hand", (34,)),            # own concealed counts 0-4
    ("drawn", (34,)),           # one-hot: the tile the seat just drew (own turn), else zeros
    ("melds", ("P", 4, 4)),     # per seat, per meld in order: kind, first tile + 1, claimed tile + 1, from + 1
    ("discards", ("P", "D")),   # per seat, the discard pool in order as tile + 1 (0 = none yet)
    ("flowers", ("P", 8)),      # per seat, 1 for each flower (春夏秋冬梅兰竹菊) set aside
    ("seat_wind", (4,)),        # one-hot E S W N (zeros when the ruleset has no seat winds)
    ("round_wind", (4,)),       # one-hot E S W N (zeros when the ruleset has no seat winds)
    ("dealer", ("P",)),         # one-hot relative seat of the dealer
    ("wall", (2,)),             # tiles left in the wall, live tiles left (without the reserved tail)
    ("phase", (5,)),            # one-hot ready_window, turn, claim, rob, over
    ("turn", ("P",)),           # one-hot: the seat on turn (turn phase) or whose tile is claimed (claim, rob)
    ("claim_tile", (34,)),      # one-hot: the discard or added-kong tile being claimed
    ("claim_last", (1,)),       # the claimed discard is the wall's last tile
    ("ready", ("P",)),          # 报听 declared, per seat
    ("hand_sizes", ("P",)),     # concealed tiles, per seat
    ("flags", (2,)),            # the seat must act now; must discard (after its chi or pon)
)

# meld kind codes of the "melds" section (0 = no meld); OBS_MELD_KINDS names them for Python
cdef enum:
    OBS_MELD_CHI = 1
    OBS_MELD_PON = 2
    OBS_MELD_KONG = 3
    OBS_MELD_ADDED_KONG = 4
    OBS_MELD_CONCEALED_KONG = 5

OBS_MELD_KINDS = ("none", "chi", "pon", "kong", "added_kong", "concealed_kong")


# _SPREAD[b]: the 8 bytes 0/1 of the bits of byte b, lowest bit first (as laid in memory): the
# legal-action mask is written 8 actions at a time from the option set
cdef uint64_t _SPREAD[256]


cdef void _build_spread():
    cdef uint8_t row[8]
    cdef int b, j
    for b in range(256):
        for j in range(8):
            row[j] = (b >> j) & 1
        memcpy(&_SPREAD[b], row, 8)


_build_spread()


cdef inline void _mask_fill(const uint64_t* bits, int8_t* mask) noexcept nogil:
    """The A_SIZE entries 0/1 of a two-word action set."""
    cdef int j
    cdef uint64_t w
    for j in range(A_SIZE // 8):
        w = _SPREAD[(bits[j >> 3] >> (8 * (j & 7))) & 0xFF]
        memcpy(mask + 8 * j, &w, 8)
    j = A_SIZE // 8
    w = _SPREAD[(bits[j >> 3] >> (8 * (j & 7))) & 0xFF]
    memcpy(mask + 8 * j, &w, A_SIZE % 8)


cdef inline int _obs_discard_cap(RoundCore r) noexcept nogil:
    return r.n_tiles - 13 * r.P


cdef inline Py_ssize_t _obs_len(int P, int D) noexcept nogil:
    return 34 + 34 + 16 * P + D * P + 8 * P + 4 + 4 + P + 2 + 5 + P + 34 + 1 + P + P + 2


cdef int _obs_fill(RoundCore r, int seat, uint8_t* o, int8_t* mask) except -1 nogil:
    """Write the observation of ``seat`` (a checked seat) to ``o`` (_obs_len bytes) and its
    legal-action mask to ``mask`` (A_SIZE entries 0/1)."""
    cdef int P = r.P, D = _obs_discard_cap(r), ph = r.phase, k, s, i, kind, turn
    cdef int any_legal = r._options(seat)
    cdef int order[MAXP]          # order[k] = the seat k places after ``seat``
    cdef const int* m
    memset(o, 0, _obs_len(P, D))
    if any_legal:
        _mask_fill(r.opts_set[seat], mask)
    else:
        memset(mask, 0, A_SIZE)
    for k in range(P):
        order[k] = seat + k - (P if seat + k >= P else 0)
    # hand, drawn
    memcpy(o, r.hands[seat], NK)
    o += NK
    if ph == PH_TURN and r.turn == seat and r.drawn >= 0:
        o[r.drawn] = 1
    o += NK
    # melds
    for k in range(P):
        s = order[k]
        for i in range(r.n_melds[s]):
            m = r.melds[s][i]
            kind = m[0]
            if kind == M_CHI:
                o[4 * i] = OBS_MELD_CHI
            elif kind == M_PON:
                o[4 * i] = OBS_MELD_PON
            elif kind == M_KONG:
                o[4 * i] = OBS_MELD_ADDED_KONG if m[4] else OBS_MELD_KONG
            else:
                o[4 * i] = OBS_MELD_CONCEALED_KONG
            if kind != M_CKONG or s == seat:   # another seat's concealed kong is face down
                o[4 * i + 1] = m[1] + 1
            if m[3] >= 0:
                o[4 * i + 2] = m[3] + 1
            if m[2] >= 0:
                o[4 * i + 3] = _obs_rel(m[2], seat, P) + 1
        o += 16
    # discards (at most D a seat: D is the most one seat can make)
    for k in range(P):
        memcpy(o, r.pool_obs[order[k]], D)
        o += D
    # flowers
    for k in range(P):
        s = order[k]
        for i in range(r.n_flowers[s]):
            o[r.flowers[s][i] - 34] = 1
        o += 8
    # winds
    if r.seat_winds:
        o[r._seat_wind(seat) - 27] = 1
        o[4 + r.round_wind - 27] = 1
    o += 8
    o[_obs_rel(r.dealer, seat, P)] = 1
    o += P
    o[0] = <uint8_t> r.remaining
    o[1] = <uint8_t> r._live()
    o += 2
    o[ph] = 1
    o += 5
    # turn / claim
    turn = r.turn if ph == PH_TURN else (r.claim_from if (ph == PH_CLAIM or ph == PH_ROB) else -1)
    if turn >= 0:
        o[_obs_rel(turn, seat, P)] = 1
    o += P
    if ph == PH_CLAIM or ph == PH_ROB:
        o[r.claim_tile] = 1
        o[NK] = r.claim_last
    o += NK + 1
    for k in range(P):
        s = order[k]
        o[k] = 1 if r.ready[s] else 0
        o[P + k] = <uint8_t> _sum34(r.hands[s])
    o += 2 * P
    o[0] = any_legal
    o[1] = 1 if (ph == PH_TURN and r.turn == seat and r.must_discard) else 0
    return 0


cdef inline int _obs_rel(int s, int seat, int P) noexcept nogil:
    """Seat ``s`` relative to ``seat`` (0 = ``seat`` itself, 1 = the next in turn order ...)."""
    return s - seat + (P if s < seat else 0)


def observation_fields(int players, int discard_cap):
    """The sections of the observation vector, in order: ``[(name, shape), ...]`` for a table of
    ``players`` seats whose wall allows ``discard_cap`` discards per seat."""
    return [(name, tuple(players if d == "P" else discard_cap if d == "D" else d for d in shape))
            for name, shape in _OBS_FIELDS]


def observation_shape(RoundCore core):
    """``(players, discard_cap, length)`` of ``core``'s observation vector."""
    cdef int D = _obs_discard_cap(core)
    return core.P, D, _obs_len(core.P, D)


def observe(RoundCore core, int seat):
    """The observation of ``seat`` now: ``(obs, mask)``, a uint8 vector (the layout of
    :func:`observation_fields`) and the int8 legal-action mask (A_SIZE entries)."""
    core._check_seat(seat)
    cdef cnp.npy_intp n = _obs_len(core.P, _obs_discard_cap(core))
    cdef cnp.npy_intp na = A_SIZE
    cdef cnp.ndarray obs = cnp.PyArray_EMPTY(1, &n, cnp.NPY_UINT8, 0)
    cdef cnp.ndarray mask = cnp.PyArray_EMPTY(1, &na, cnp.NPY_INT8, 0)
    _obs_fill(core, seat, <uint8_t*> cnp.PyArray_DATA(obs), <int8_t*> cnp.PyArray_DATA(mask))
    return obs, mask


include "_round_vec.pxi"
