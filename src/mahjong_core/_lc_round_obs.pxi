# The fixed observation encoding of one seat of a long-card hand (mahjong_core.rl, ``include``d by
# _lc_round.pyx): a flat uint8 vector written straight from the C state, from what the seat may see
# (spec changpai.md 8.3) only -- its own concealed counts, and the public table: every seat's declared
# groups (the face of a 吐火未响 is public, CP-58), 堂子 in order, 财神, folded flag and number of
# concealed cards, the banker and the 起 player, the 将 cards, the stock size, the card on offer --
# plus what the seat works out from those alone: the dead copies of each face (2.4), its own 卯,
# T_max, F_theo and Q (2.6-2.8) and, at its decision, which offered actions incur 包子 (3.13).  The
# other seats' concealed cards, the stock order, the 起 player's fan faces S and who else is asked in
# a claim window never reach it.
#
# Layout (P = 3 seats, relative: row k is seat (seat + k * dir) % 3 in turn order, so the observing
# seat is always row 0; T = OBS_TANGZI, the most cards one seat's 堂子 can hold).  One list,
# _LC_OBS_FIELDS, gives the order and the shapes; _lc_obs_fill writes the sections in that order.

cimport numpy as cnp

cnp.import_array()

cdef enum:
    OBS_COUNTING_CAP = 255      # (OBS_TANGZI, OBS_GROUP and the image's offsets: _lc_round.pxd)

_LC_OBS_FIELDS = (
    ("hand", (N_FACES,)),               # own concealed counts 0-5
    ("caishen", ("P",)),                # 财神 laid out, per seat
    ("groups", ("P", MAX_DECLARED, OBS_GROUP)),   # per seat, per declared group in order: kind code,
                                        # its first three cards + 1 (sorted), from (relative seat + 1, 0 = none)
    ("tangzi", ("P", OBS_TANGZI)),      # per seat, its 堂子 in order as face + 1 (0 = empty)
    ("dead", (N_FACES,)),               # dead copies of each face (2.4): every 堂子 and declared group
    ("concealed", ("P",)),              # concealed cards per seat
    ("folded", ("P",)),                 # 1 for a seat that folded
    ("banker", ("P",)),                 # one-hot relative seat of the banker
    ("qi_player", ("P",)),              # one-hot relative seat of the 起 player (zeros before 起)
    ("jiang", (2, N_FACES + 1)),        # one-hot card kind (21 = 财神) of J1 and J2 (zeros without 五门将)
    ("stock_left", (1,)),               # cards left in the stock
    ("phase", (PH_END + 1,)),           # one-hot phase (PHASE_NAMES)
    ("actor", ("P",)),                  # one-hot the seat to act; in a claim window only the seat itself
    ("offer", (N_FACES,)),              # one-hot the face of the card on offer
    ("offer_from", ("P",)),             # one-hot relative seat that turned or discarded it
    ("offer_kind", (2,)),               # one-hot turned, discarded
    ("discard_ban", (N_FACES,)),        # one-hot the face the seat may not discard now (3.5)
    ("counting", (4,)),                 # own 卯, T_max, F_theo (each capped at 255), Q
    ("penalised", (N_ACTIONS,)),        # 1 for each offered action that incurs 包子 (3.13)
    ("flags", (1,)),                    # the seat must act now
)

# group kind codes of the "groups" section (0 = no group): 1 + the kind's index in groups.KINDS
OBS_GROUP_KINDS = ("none",) + tuple(_KINDS)


# The sizes of the observation's block copies and fills, as variables: a constant size lets the C
# compiler inline the copy as a string instruction (rep movs / rep stos), which costs more at these
# sizes (a few hundred bytes) than the C library's vector loop that a call to memcpy / memset takes.
cdef size_t _IMG_BYTES = OBS_IMAGE
cdef size_t _MASK_BYTES = N_ACTIONS
cdef size_t _TAIL_BYTES = _lc_obs_len() - (N_FACES + PLAYERS + OBS_IMAGE)    # stock_left to flags


cdef inline Py_ssize_t _lc_obs_len() noexcept nogil:
    return (N_FACES + PLAYERS + PLAYERS * MAX_DECLARED * OBS_GROUP + PLAYERS * OBS_TANGZI + N_FACES + 4 * PLAYERS
            + 2 * (N_FACES + 1) + 1 + PH_END + 1 + PLAYERS + N_FACES + PLAYERS + 2 + N_FACES + 4 + N_ACTIONS + 1)


cdef inline int _lc_rel(RoundCore r, int s, int seat) noexcept nogil:
    """Seat ``s`` relative to ``seat`` in turn order (0 = ``seat``, 1 = the next to play ...)."""
    return _distance(r, seat, s)


cdef inline int _n_concealed(const uint8_t* h) noexcept nogil:
    """The sum of 21 counts 0-5: three 8-byte words added bytewise (15 at most per byte, no carry),
    then the eight bytes summed by one multiplication (105 at most: the top byte holds it)."""
    cdef uint64_t a, b, c = 0
    memcpy(&a, h, 8)
    memcpy(&b, h + 8, 8)
    memcpy(&c, h + 16, N_FACES - 16)
    return <int> (((a + b + c) * <uint64_t> 0x0101010101010101ULL) >> 56)


cdef inline void _flags8(const int8_t* dec, int8_t* mask, uint8_t* pen, int n) noexcept nogil:
    """``mask[i] = dec[i] >= 0``, ``pen[i] = dec[i] > 0`` for n <= 8 decision bytes (-1 or a cause
    0-6) at once, as one word: the top bit of a byte is its sign; ``(x & 0x7f) + 0x7f`` sets it
    (without a carry into the next byte) for x & 0x7f >= 1, which among -1 and 0-6 means 1-6 or -1,
    and ``& ~x`` leaves 1-6."""
    cdef uint64_t w = 0, m, p
    cdef uint64_t lo = 0x7f7f7f7f7f7f7f7fULL, hi = 0x8080808080808080ULL
    memcpy(&w, dec, n)
    m = (~w & hi) >> 7
    p = (((w & lo) + lo) & ~w & hi) >> 7
    memcpy(mask, &m, n)
    memcpy(pen, &p, n)


cdef inline uint8_t _cap(int v) noexcept nogil:
    return <uint8_t> (OBS_COUNTING_CAP if v > OBS_COUNTING_CAP else (0 if v < 0 else v))


# ------------------------------------------------------------------ the kept image (obs_img)
@cython.nonecheck(False)
cdef void _img_group(RoundCore r, int p, int i) noexcept nogil:
    """Seat p's declared group i (kind, first three cards, the seat it came from) in every seat's image:
    after it is declared (_add_group), grows (_grow_xiang) or gets its source (a 响 claim)."""
    cdef int s, n
    cdef const uint8_t* g = r.gcards[p][i]
    for s in range(PLAYERS):
        n = _lc_rel(r, p, s) * MAX_DECLARED * OBS_GROUP + i * OBS_GROUP
        r.obs_img[s][n] = <uint8_t> (r.gkind[p][i] + 1)
        r.obs_img[s][n + 1] = g[0] + 1
        r.obs_img[s][n + 2] = g[1] + 1
        r.obs_img[s][n + 3] = g[2] + 1
        r.obs_img[s][n + 4] = <uint8_t> (_lc_rel(r, r.gfrom[p][i], s) + 1) if r.gfrom[p][i] >= 0 else 0


@cython.nonecheck(False)
cdef inline void _img_tangzi(RoundCore r, int p, int i) noexcept nogil:
    """Card i of seat p's 堂子 in every seat's image (the first OBS_TANGZI only: no seat holds more)."""
    cdef int s
    if i < OBS_TANGZI:
        for s in range(PLAYERS):
            r.obs_img[s][OBS_IMG_TANGZI + _lc_rel(r, p, s) * OBS_TANGZI + i] = r.tangzi[p][i] + 1


@cython.nonecheck(False)
cdef void _img_static(RoundCore r) noexcept nogil:
    """The banker and the 将 cards (the first card after the deal and the last one, revealed with
    五门将: CP-40) in every seat's image: once the deal is made, and again when a world changes the
    undrawn stock (_core_world)."""
    cdef int s
    cdef uint8_t* o
    for s in range(PLAYERS):
        o = r.obs_img[s]
        memset(o + OBS_IMG_SEATS + 2 * PLAYERS, 0, PLAYERS)
        o[OBS_IMG_SEATS + 2 * PLAYERS + _lc_rel(r, r.banker, s)] = 1
        memset(o + OBS_IMG_JIANG, 0, 2 * (N_FACES + 1))
        if r.settings_wumenjiang:
            o[OBS_IMG_JIANG + r.stock[DEAL * PLAYERS]] = 1
            o[OBS_IMG_JIANG + N_FACES + 1 + r.stock[r.nstock - 1]] = 1


@cython.nonecheck(False)
cdef void _lc_obs_fill(RoundCore r, int seat, uint8_t* o, int8_t* mask) noexcept nogil:
    """Write the observation of ``seat`` to ``o`` (_lc_obs_len bytes) and its legal-action mask to
    ``mask`` (N_ACTIONS entries 0/1).  The decision of the seat to act must be worked out
    (``_offered``) when ``seat`` is the actor; any other seat's mask is zeros."""
    cdef int k, q, i, n, mao, tmax, theo, a
    cdef bint own_turn = r.phase != PH_END and seat == r.actor and r.dec_log == r.nlog
    cdef int rel[PLAYERS]
    for q in range(PLAYERS):
        rel[q] = _lc_rel(r, q, seat)
    # hand
    memcpy(o, r.hands[seat], N_FACES)
    o += N_FACES
    # caishen (every entry: rel is a permutation)
    for q in range(PLAYERS):
        o[rel[q]] = <uint8_t> r.caishen[q]
    o += PLAYERS
    # groups, tangzi, banker and jiang from the seat's image; its other bytes are zeros, written here:
    # dead (every 堂子 and declared group, the seat's own groups too: dead for it), concealed, folded,
    # qi_player
    memcpy(o, r.obs_img[seat], _IMG_BYTES)
    memcpy(o + OBS_IMG_DEAD, r.pub, N_FACES)
    for q in range(PLAYERS):
        k = rel[q]
        o[OBS_IMG_SEATS + k] = <uint8_t> _n_concealed(r.hands[q])
        o[OBS_IMG_SEATS + PLAYERS + k] = 1 if r.folded[q] else 0
    if r.qi_player >= 0:
        o[OBS_IMG_SEATS + 3 * PLAYERS + rel[r.qi_player]] = 1
    o += OBS_IMAGE
    # the rest: zeros, then the ones
    memset(o, 0, _TAIL_BYTES)
    # stock_left, phase, actor
    o[0] = <uint8_t> _stock_left(r)
    o += 1
    o[r.phase] = 1
    o += PH_END + 1
    if r.phase != PH_END and (r.phase != PH_CLAIM or r.actor == seat):
        o[rel[r.actor]] = 1
    o += PLAYERS
    # offer, offer_from, offer_kind
    if r.offer >= 0:
        o[r.offer] = 1
        o[N_FACES + rel[r.offer_from]] = 1
        o[N_FACES + PLAYERS + r.offer_kind - OK_TURN] = 1
    o += N_FACES + PLAYERS + 2
    # discard_ban (the view's: the seat to act's own)
    if seat == r.actor and r.discard_ban >= 0:
        o[r.discard_ban] = 1
    o += N_FACES
    # counting: the seat's own 卯, T_max, F_theo and Q (2.6-2.8), from its cards and the dead copies
    if own_turn:
        # _decide worked out this seat's plan at this point (_qualified): the cache entry of
        # _plan_seat is this state's (no action since), and holds its F_theo once worked out
        mao, tmax = r.dec_mao, r.dec_tmax
    else:
        _plan_seat(r, seat, &mao, &tmax)
    theo = _theo_seat(r, seat)
    o[0] = _cap(mao)
    o[1] = _cap(tmax)
    o[2] = _cap(theo)
    o[3] = 1 if (mao >= 7 and tmax >= r.thr[seat == r.banker]) else 0
    o += 4
    # penalised, the mask, flags: an offered action is a discard (a face), one of the single actions
    # (PENG to FOLD) or, in a claim window, one of the seat's claim options (_decide offers no other)
    memset(mask, 0, _MASK_BYTES)
    if own_turn:
        _flags8(r.dec, mask, o, 8)
        _flags8(r.dec + 8, mask + 8, o + 8, 8)
        _flags8(r.dec + 16, mask + 16, o + 16, N_FACES - 16)
        _flags8(r.dec + PENG, mask + PENG, o + PENG, N_ACTIONS - PENG)
        if r.phase == PH_CLAIM:
            for k in range(r.ncopt[seat]):
                a = r.copt_id[seat][k]
                mask[a] = r.dec[a] >= 0
                o[a] = r.dec[a] > 0
    o += N_ACTIONS
    o[0] = 1 if own_turn else 0


def observation_fields():
    """The sections of the observation vector, in order: ``[(name, shape), ...]``."""
    return [(name, tuple(PLAYERS if d == "P" else d for d in shape)) for name, shape in _LC_OBS_FIELDS]


def observation_size():
    """The length of the observation vector."""
    return _lc_obs_len()


def observe(RoundCore core, seat):
    """The observation of ``seat`` now: ``(obs, mask)``, a uint8 vector (the layout of
    :func:`observation_fields`) and the int8 legal-action mask (N_ACTIONS entries; zeros unless
    ``seat`` is to act)."""
    cdef int p = _check_seat(seat)
    cdef cnp.npy_intp n = _lc_obs_len()
    cdef cnp.npy_intp na = N_ACTIONS
    cdef cnp.ndarray obs = cnp.PyArray_EMPTY(1, &n, cnp.NPY_UINT8, 0)
    cdef cnp.ndarray mask = cnp.PyArray_EMPTY(1, &na, cnp.NPY_INT8, 0)
    if core.phase != PH_END and p == core.actor:
        _offered(core, p)
    _lc_obs_fill(core, p, <uint8_t*> cnp.PyArray_DATA(obs), <int8_t*> cnp.PyArray_DATA(mask))
    return obs, mask


include "_lc_round_vec.pxi"
