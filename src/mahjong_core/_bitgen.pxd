# NumPy's Generator algorithms on a generator's own bit stream, for the compiled engines that draw
# without Python objects: the mahjong round (the seeded wall shuffle, the random bot) and the
# long-card batch (the deal of a new hand).  Equal to the NumPy calls on the same generator.
from libc.stdint cimport uint32_t, uint64_t

cdef extern from *:
    """
    typedef struct {
        void *state;
        uint64_t (*next_uint64)(void *st);
        uint32_t (*next_uint32)(void *st);
        double (*next_double)(void *st);
        uint64_t (*next_raw)(void *st);
    } mj_bitgen_t;
    """
    ctypedef struct mj_bitgen_t:
        void* state
        uint64_t (*next_uint64)(void* st) noexcept nogil
        uint32_t (*next_uint32)(void* st) noexcept nogil


cdef inline uint64_t _interval(mj_bitgen_t* bg, uint64_t mx) noexcept nogil:
    """NumPy's ``random_interval``: uniform on [0, mx] by masked rejection (32-bit draws)."""
    cdef uint64_t mask = mx, value
    if mx == 0:
        return 0
    mask |= mask >> 1
    mask |= mask >> 2
    mask |= mask >> 4
    mask |= mask >> 8
    mask |= mask >> 16
    mask |= mask >> 32
    if mx <= 0xFFFFFFFFu:
        value = bg.next_uint32(bg.state) & mask
        while value > mx:
            value = bg.next_uint32(bg.state) & mask
    else:
        value = bg.next_uint64(bg.state) & mask
        while value > mx:
            value = bg.next_uint64(bg.state) & mask
    return value


cdef inline uint32_t _bounded(mj_bitgen_t* bg, uint32_t rng) noexcept nogil:
    """NumPy's ``Generator.integers`` draw on [0, rng] (rng < 2**32 - 1): Lemire's method on
    32-bit draws."""
    cdef uint32_t rng_excl = rng + 1, leftover, threshold
    cdef uint64_t m
    if rng == 0:
        return 0
    m = (<uint64_t> bg.next_uint32(bg.state)) * rng_excl
    leftover = <uint32_t> (m & 0xFFFFFFFFu)
    if leftover < rng_excl:
        threshold = (<uint32_t> 0xFFFFFFFFu - rng) % rng_excl
        while leftover < threshold:
            m = (<uint64_t> bg.next_uint32(bg.state)) * rng_excl
            leftover = <uint32_t> (m & 0xFFFFFFFFu)
    return <uint32_t> (m >> 32)


cdef inline uint64_t _interval32(mj_bitgen_t* bg, uint32_t mx, uint32_t mask) noexcept nogil:
    """``_interval(bg, mx)`` for 0 < mx < 2**32 with its mask given (the smallest 2**k - 1 >= mx): a
    shuffle's loop works the mask out from a bit count instead of six shifts per draw."""
    cdef uint32_t value = bg.next_uint32(bg.state) & mask
    while value > mx:
        value = bg.next_uint32(bg.state) & mask
    return value
