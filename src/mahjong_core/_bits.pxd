# Bit helpers shared by the compiled modules (bits.h: GCC/Clang builtins, MSVC intrinsics).
# Nothing to link: every helper is a static inline function of the header.
from libc.stdint cimport uint8_t, uint64_t

cdef extern from "bits.h" nogil:
    int mj_ctz64(uint64_t v)               # index of the lowest set bit (v != 0)
    int mj_clz64(uint64_t v)               # leading zeros (v != 0)
    int mj_popcount64(uint64_t v)          # set bits
    int mj_pop_lowest2(uint64_t* lo, uint64_t* hi)   # lowest bit of a two-word set, removed (set not empty)
    uint64_t mj_gather_low_bits(uint64_t w)         # bit j: bit 0 of byte j of w (w's other bits clear)
    uint64_t mj_byte_bits8(const uint8_t* p, int b)   # bit j: bit b of byte j of p[0..7]
    void mj_held_fours34(const uint8_t* h, uint64_t* held, uint64_t* fours)   # kinds held / held 4 times of 34 counts
    int mj_byte_sum8(const uint8_t* p)                 # sum of the bytes p[0..7] (each <= 31)
    uint64_t mj_byte_nonzero8(const uint8_t* p)        # bit j: byte j of p[0..7] not 0 (each <= 7)
    int mj_byte_halves_sum8(const uint8_t* p)          # sum of p[j] >> 1 over p[0..7] (each <= 31)
