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


cdef inline int _obs_rel(int s, int seat, int P) noexcept nogil:
    """Seat ``s`` relative to ``seat`` (0 = ``seat`` itself, 1 = the next in turn order ...)."""
    return s - seat + (P if s < seat else 0)


# ---------------------------------------------------------------------------------------------
# The kept part: the sections melds, discards, flowers, seat_wind, round_wind and dealer (one run
# of the layout, kept_len = 16 P + D P + 8 P + 8 + P bytes) change only on events, so each seat's
# copy of them lives in RoundCore.obs_kept (seat ``o``'s at ``o * kept_len``) and the transitions
# write each change into every seat's copy as it happens (_kept_pool, _kept_meld, _kept_flower;
# _kept_start at the deal).  These writers are the one encoding of those sections: _kept_fresh
# builds the same bytes from the state by calling them for everything on the table (the tests
# hold the kept copies to it after every step).
# ---------------------------------------------------------------------------------------------
cdef void _kept_start(RoundCore r) noexcept nogil:
    """A new deal: the discard cap, the section offsets, the kept parts cleared, the winds and
    the dealer."""
    cdef int P = r.P, s, o, base
    r.obs_D = _obs_discard_cap(r)
    r.kept_len = 16 * P + r.obs_D * P + 8 * P + 8 + P
    for s in range(P):
        for o in range(P):
            base = o * r.kept_len
            r.kept_meld_at[s][o] = base + 16 * _obs_rel(s, o, P)
            r.kept_pool_at[s][o] = base + 16 * P + r.obs_D * _obs_rel(s, o, P)
            r.kept_flower_at[s][o] = base + 16 * P + r.obs_D * P + 8 * _obs_rel(s, o, P)
    memset(r.obs_kept, 0, P * r.kept_len)
    _kept_table(r, r.obs_kept)


cdef void _kept_table(RoundCore r, uint8_t* buf) noexcept nogil:
    """Every seat's winds and dealer (fixed for the round)."""
    cdef int o, P = r.P
    cdef uint8_t* p
    for o in range(P):
        p = buf + o * r.kept_len + 24 * P + r.obs_D * P
        if r.seat_winds:
            p[_seat_wind(r, o) - 27] = 1
            p[4 + r.round_wind - 27] = 1
        p[8 + _obs_rel(r.dealer, o, P)] = 1


cdef inline void _kept_pool(RoundCore r, uint8_t* buf, int s, int i, uint8_t v) noexcept nogil:
    """Discard ``i`` of seat ``s`` is ``v`` (tile + 1; 0 once claimed) in every seat's copy.  The
    section holds D discards a seat, the most one seat can make."""
    cdef int o
    if i >= r.obs_D:  # pragma: no cover - never in play
        return
    for o in range(r.P):
        buf[r.kept_pool_at[s][o] + i] = v


cdef void _kept_meld(RoundCore r, uint8_t* buf, int s, int i) noexcept nogil:
    """Meld ``i`` of seat ``s`` (new, or a pon become an added kong) in every seat's copy: kind,
    first tile + 1, claimed tile + 1, from + 1 (relative to the observer)."""
    cdef const int* m = r.melds[s][i]
    cdef int o, P = r.P, kind = m[0], code
    cdef uint8_t* row
    if kind == M_CHI:
        code = OBS_MELD_CHI
    elif kind == M_PON:
        code = OBS_MELD_PON
    elif kind == M_KONG:
        code = OBS_MELD_ADDED_KONG if m[4] else OBS_MELD_KONG
    else:
        code = OBS_MELD_CONCEALED_KONG
    for o in range(P):
        row = buf + r.kept_meld_at[s][o] + 4 * i
        row[0] = <uint8_t> code
        # another seat's concealed kong is face down
        row[1] = <uint8_t> (m[1] + 1) if (kind != M_CKONG or s == o) else 0
        row[2] = <uint8_t> (m[3] + 1) if m[3] >= 0 else 0
        row[3] = <uint8_t> (_obs_rel(m[2], o, P) + 1) if m[2] >= 0 else 0


cdef inline void _kept_flower(RoundCore r, uint8_t* buf, int s, int t) noexcept nogil:
    """Flower ``t`` (34-41) set aside by seat ``s``, in every seat's copy."""
    cdef int o
    for o in range(r.P):
        buf[r.kept_flower_at[s][o] + t - 34] = 1


cdef void _kept_fresh(RoundCore r, uint8_t* buf) noexcept nogil:
    """The kept parts of every seat built from the state now (into ``buf``, P * kept_len bytes)."""
    cdef int s, i
    memset(buf, 0, r.P * r.kept_len)
    _kept_table(r, buf)
    for s in range(r.P):
        for i in range(r.n_pool[s]):
            _kept_pool(r, buf, s, i, r.pool[s][i] + 1)
        for i in range(r.n_melds[s]):
            _kept_meld(r, buf, s, i)
        for i in range(r.n_flowers[s]):
            _kept_flower(r, buf, s, r.flowers[s][i])


cdef int _obs_fill(RoundCore r, int seat, uint8_t* o, int8_t* mask) except -1 nogil:
    """Write the observation of ``seat`` (a checked seat) to ``o`` (_obs_len bytes) and its
    legal-action mask to ``mask`` (A_SIZE entries 0/1)."""
    cdef int P = r.P, ph = r.phase, k, s, turn
    cdef int any_legal = _options(r, seat)
    if any_legal:
        _mask_fill(r.opts_set[seat], mask)
    else:
        memset(mask, 0, A_SIZE)
    # hand, drawn
    memcpy(o, r.hands[seat], NK)
    memset(o + NK, 0, NK)
    if ph == PH_TURN and r.turn == seat and r.drawn >= 0:
        o[NK + r.drawn] = 1
    o += 2 * NK
    # melds, discards, flowers, winds, dealer: the seat's kept copy
    memcpy(o, r.obs_kept + seat * r.kept_len, r.kept_len)
    o += r.kept_len
    # wall, phase, turn, claim tile, claim last, ready, hand sizes, flags.  The one-hot sections
    # (phase, turn, claim tile) and claim last start zeroed, by one clear of a constant size (the
    # compiler's stores; a size from P was a libc call a step): with fewer than MAXP seats it runs
    # MAXP - P bytes into "ready", which the loop below writes in full.
    o[0] = <uint8_t> r.remaining
    o[1] = <uint8_t> _live(r)
    o += 2
    memset(o, 0, 5 + MAXP + NK + 1)
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
        s = _seat_after(r, seat, k)
        o[k] = 1 if r.ready[s] else 0
        o[P + k] = <uint8_t> r.n_hand[s]
    o += 2 * P
    o[0] = any_legal
    o[1] = 1 if (ph == PH_TURN and r.turn == seat and r.must_discard) else 0
    return 0


def kept_parts(RoundCore core):
    """``(kept, fresh)``: every seat's kept part of its observation as the transitions kept it,
    and as built from the state now -- two (P, kept_len) uint8 arrays (equal, unless a
    transition missed a change: the tests hold them after every step)."""
    kept = np.empty((core.P, core.kept_len), dtype=np.uint8)
    fresh = np.empty((core.P, core.kept_len), dtype=np.uint8)
    memcpy(<uint8_t*> cnp.PyArray_DATA(kept), core.obs_kept, core.P * core.kept_len)
    _kept_fresh(core, <uint8_t*> cnp.PyArray_DATA(fresh))
    return kept, fresh


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
    _check_seat(core, seat)
    cdef cnp.npy_intp n = _obs_len(core.P, _obs_discard_cap(core))
    cdef cnp.npy_intp na = A_SIZE
    cdef cnp.ndarray obs = cnp.PyArray_EMPTY(1, &n, cnp.NPY_UINT8, 0)
    cdef cnp.ndarray mask = cnp.PyArray_EMPTY(1, &na, cnp.NPY_INT8, 0)
    _obs_fill(core, seat, <uint8_t*> cnp.PyArray_DATA(obs), <int8_t*> cnp.PyArray_DATA(mask))
    return obs, mask


include "_round_vec.pxi"
