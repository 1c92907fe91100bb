# C-level entry points of the long-card hand kernels, for the compiled round engine (_lc_round) and
# its bots.  `c` points at 21 concealed counts, `live` at 21 live copies (spec 2.4); declared groups
# are passed as parallel arrays of kind codes (K_*, groups.KIND_CODES order) and first faces.  No
# validation: callers pass legal hands.
from libc.stdint cimport uint8_t, uint32_t

cdef enum:
    MAX_DECLARED = 7     # groups.MAX_DECLARED (checked at import)
    K_PENG = 0
    K_KAN = 1
    K_CHI = 2
    K_SHA = 3
    K_WEIXIANG = 4
    K_XIANG = 5

cdef enum:
    LC_N_COMP = 6        # point classes: the faces of a group are in one
    LC_MAX_UNITS = 7

cdef struct LcPlanPart:
    # what the faces of one point class add to the plan of spec 2.6-2.7 (lc_plan_parts)
    int mao
    int nwhole
    int whole[6]         # values of the whole units, largest first
    int val[LC_MAX_UNITS + 1]   # best 陀 of the pool cards with at most k units

# largest 陀 of a split of the concealed counts into groups (-1: none); keep_kans = win_split_kan false
cdef int lc_max_tuo(const uint8_t* c, bint keep_kans) noexcept nogil
cdef bint lc_all_black(const uint8_t* c) noexcept nogil
cdef bint lc_red(int f) noexcept nogil
# 陀 of a 3-card group (sorted faces) and of a same-face group of n = 3, 4, 5 cards
cdef int lc_group_tuo(const uint8_t* g) noexcept nogil
cdef int lc_same_tuo(int f, int n) noexcept nogil
# bit x: the face x completes a win (spec 4.7); `own` = copies in the declared groups
cdef uint32_t lc_waits_mask(uint8_t* c, const uint8_t* own, int base_tuo, int thr, bint keep,
                            bint waive) noexcept nogil
# is there a discard after which the cards wait (lc_waits_mask) on a face of the bit set `allowed`?
cdef bint lc_ready_after_discard(uint8_t* c, const uint8_t* own, int base_tuo, int thr, bint keep, bint waive,
                                 uint32_t allowed) noexcept nogil
# most disjoint complete groups of the concealed counts; *whole: every card in one
cdef int lc_group_count(const uint8_t* c, bint* whole) noexcept nogil
# (卯, T_max) of spec 2.6-2.7; mao_bonus 0-3 = live/any/s1/off
cdef void lc_count_plan(const uint8_t* c, const uint8_t* live, int n_decl, const uint8_t* kinds,
                        const uint8_t* faces, int decl_tuo, int mao_bonus, bint quad_xiang, bint chi_kan,
                        int* out_mao, int* out_tmax) noexcept nogil
# the same in two steps: the parts of every point class (comp < 0) or of one, then their combination;
# a change of the cards of one class (a discard, a claim) recomputes that part only
cdef void lc_plan_parts(const uint8_t* c, const uint8_t* live, int mao_bonus, bint quad_xiang, bint chi_kan,
                        int comp, LcPlanPart* parts) noexcept nogil
cdef void lc_plan_combine(const LcPlanPart* parts, const uint8_t* live, int n_decl, const uint8_t* kinds,
                          const uint8_t* faces, int decl_tuo, int mao_bonus, bint quad_xiang, bint chi_kan,
                          int* out_mao, int* out_tmax) noexcept nogil
cdef int lc_face_comp(int f) noexcept nogil
# build the tables that lc_plan_parts reads for these options, if not yet built (under the GIL; a
# RoundCore calls it once, then asks without the GIL)
cdef int lc_plan_ready(int mao_bonus, bint chi_kan) except -1
# F_theo of spec 2.8 (CP-42) with the face weights w
cdef int lc_theoretical_fan(const uint8_t* c, const uint8_t* live, int n_decl, const uint8_t* kinds,
                            const uint8_t* faces, const int* w, int caishen, bint kan_as_peng,
                            bint xiang_bonus) noexcept nogil
# score(...).total of a win (-1: no win): the concealed counts `c` (winning card included), the
# declared groups (kinds, faces, their 陀, any red card), the face weights w, the seat's 财神, its 陀
# threshold and the score options (keep_kans = not win_split_kan; fan_cap 0 = none)
cdef int lc_score_total(uint8_t* c, int n_decl, const uint8_t* kinds, const uint8_t* faces, int decl_tuo,
                        bint decl_red, const int* w, int caishen, int thr, bint kan_as_peng, bint xiang_bonus,
                        bint keep_kans, bint waive_option, int fan_cap) noexcept nogil
