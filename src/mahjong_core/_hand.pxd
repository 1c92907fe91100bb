# C-level entry points of the hand kernels, for the other compiled modules (the round engine and
# its bots).  `c` points at 34 counts; `n` is their sum; `special` turns on the `public` special
# forms.  No validation: callers pass legal hands.
from libc.stdint cimport uint8_t, uint64_t

# The 5**9 suit completeness bitset: bit x is set when the suit vector x (base 5, counts 0-4) splits
# into groups plus at most one pair (the fan evaluator prunes its decompositions with it).
cdef const uint8_t* hand_suit_win_bits() noexcept nogil
cdef bint hand_is_win(const uint8_t* c, int n, bint special) noexcept nogil
cdef int hand_shanten(const uint8_t* c, int n, bint special) noexcept nogil
cdef uint64_t hand_waits(const uint8_t* c, int n, bint special, uint64_t allowed) noexcept nogil
# the held kinds t of a 3k+2 hand with hand_waits(c - t) != 0 (the 报听 discards)
cdef uint64_t hand_ready_discards(const uint8_t* c, int n, bint special, uint64_t allowed) noexcept nogil
cdef int hand_discard_eval(const uint8_t* c, int n, bint special, uint64_t allowed, uint64_t discards,
                           const int* unseen, int* sh_out, int* acc_out) noexcept nogil
