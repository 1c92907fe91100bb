/* Bit helpers of the compiled core (declared for Cython in _bits.pxd).
 *
 * One portable home for the bit tricks the kernels use: count trailing/leading zeros with the
 * GCC/Clang builtins or the MSVC intrinsics, a population count, and the walk over the set bits of
 * a two-word (128-bit) set, lowest first, that the fan evaluator uses for its fan bit sets.
 * The ctz/clz helpers are undefined for 0, like the builtins: callers test for 0 first. */
#ifndef MAHJONG_CORE_BITS_H
#define MAHJONG_CORE_BITS_H

#include <stdint.h>
#include <string.h>

#if defined(_MSC_VER) && !defined(__clang__)
#include <intrin.h>
#define MJ_INLINE static __forceinline
#else
#define MJ_INLINE static inline
#endif

#if defined(__SSE2__) || (defined(_MSC_VER) && defined(_M_X64))
#include <emmintrin.h>
#define MJ_SSE2 1
#endif

MJ_INLINE int mj_ctz64(uint64_t v)
{
#if defined(_MSC_VER) && !defined(__clang__)
#if defined(_M_X64) || defined(_M_ARM64)
    unsigned long i;
    _BitScanForward64(&i, v);
    return (int)i;
#else
    unsigned long i;
    if ((uint32_t)v) {
        _BitScanForward(&i, (uint32_t)v);
        return (int)i;
    }
    _BitScanForward(&i, (uint32_t)(v >> 32));
    return 32 + (int)i;
#endif
#else
    return __builtin_ctzll(v);
#endif
}

MJ_INLINE int mj_clz64(uint64_t v)
{
#if defined(_MSC_VER) && !defined(__clang__)
#if defined(_M_X64) || defined(_M_ARM64)
    unsigned long i;
    _BitScanReverse64(&i, v);
    return 63 - (int)i;
#else
    unsigned long i;
    if (v >> 32) {
        _BitScanReverse(&i, (uint32_t)(v >> 32));
        return 31 - (int)i;
    }
    _BitScanReverse(&i, (uint32_t)v);
    return 63 - (int)i;
#endif
#else
    return __builtin_clzll(v);
#endif
}

/* Bit count.  The hardware instruction only where the build targets it (GCC/Clang -mpopcnt or
 * later, MSVC /arch:AVX or ARM64): a plain x86-64 build would otherwise call a library routine
 * (GCC) or fault on a CPU without POPCNT (MSVC's __popcnt64), so the portable build counts with
 * the SWAR sum. */
MJ_INLINE int mj_popcount64(uint64_t v)
{
#if defined(__POPCNT__) && (defined(__GNUC__) || defined(__clang__))
    return __builtin_popcountll(v);
#elif defined(_MSC_VER) && !defined(__clang__) && defined(_M_X64) && defined(__AVX__)
    return (int)__popcnt64(v);
#elif defined(_MSC_VER) && !defined(__clang__) && defined(_M_ARM64)
    return (int)_CountOneBits64(v);
#else
    v = v - ((v >> 1) & 0x5555555555555555ULL);
    v = (v & 0x3333333333333333ULL) + ((v >> 2) & 0x3333333333333333ULL);
    v = (v + (v >> 4)) & 0x0F0F0F0F0F0F0F0FULL;
    return (int)((v * 0x0101010101010101ULL) >> 56);
#endif
}

/* The lowest set bit of the two-word set (*lo, *hi) -- bit 64 + i is bit i of *hi --, removed from
 * the set.  The set must not be empty.  Loop: `while (lo | hi) { f = mj_pop_lowest2(&lo, &hi); ... }`
 * (the loop body may also clear bits of lo and hi: they are read afresh on every call).
 * The word is chosen by selects, not by a branch: a walk over a fan set crosses from the low word
 * to the high one at a data-dependent point, and a branch on it mispredicted about twice a hand. */
MJ_INLINE int mj_pop_lowest2(uint64_t *lo, uint64_t *hi)
{
    uint64_t l = *lo, h = *hi;
    int in_hi = l == 0;
    uint64_t w = in_hi ? h : l;
    int f = (in_hi << 6) + mj_ctz64(w);
    w &= w - 1;
    *lo = in_hi ? l : w;
    *hi = in_hi ? w : h;
    return f;
}

/* The byte-wise helpers below read eight counts as one little-endian word: a load where the
 * bytes lie little-endian in it (every platform built today: MSVC targets only little-endian
 * ones), the word put together byte by byte elsewhere; the arithmetic is then the same. */
MJ_INLINE uint64_t mj_load8(const uint8_t *p)
{
    uint64_t w;
#if (defined(__BYTE_ORDER__) && defined(__ORDER_LITTLE_ENDIAN__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__) \
    || defined(_MSC_VER)
    memcpy(&w, p, 8);
#else
    int j;
    w = 0;
    for (j = 0; j < 8; j++)
        w |= (uint64_t)p[j] << (8 * j);
#endif
    return w;
}

/* The low bit of each byte of w (the others clear) gathered to bits 0-7: one multiply puts the
 * low bit of byte j at bit 56 + j. */
MJ_INLINE uint64_t mj_gather_low_bits(uint64_t w)
{
    return (w * 0x0102040810204080ULL) >> 56;
}

/* The sum of the bytes of w, when it fits a byte: byte 7 of the product. */
MJ_INLINE int mj_sum_bytes(uint64_t w)
{
    return (int)((w * 0x0101010101010101ULL) >> 56);
}

/* Bit j set when bit b of byte j of p[0..7] is set (p holds tile counts 0-4 in the callers:
 * b = 2 marks the fours, and bits 0-2 together the kinds held). */
MJ_INLINE uint64_t mj_byte_bits8(const uint8_t *p, int b)
{
    return mj_gather_low_bits((mj_load8(p) >> b) & 0x0101010101010101ULL);
}

/* Of 34 tile counts h[0..33] (each 0-4): the kinds held (count not 0) and the kinds held four
 * times, as 34-bit sets.  Two 16-byte compares and their byte masks where SSE2 is there (every
 * x86-64), a loop elsewhere. */
MJ_INLINE void mj_held_fours34(const uint8_t *h, uint64_t *held, uint64_t *fours)
{
#ifdef MJ_SSE2
    const __m128i zero = _mm_setzero_si128(), four = _mm_set1_epi8(4);
    __m128i a = _mm_loadu_si128((const __m128i *)h);
    __m128i b = _mm_loadu_si128((const __m128i *)(h + 16));
    uint64_t none = (uint64_t)(uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(a, zero))
                  | (uint64_t)(uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(b, zero)) << 16;
    uint64_t f = (uint64_t)(uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(a, four))
               | (uint64_t)(uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(b, four)) << 16;
    *held = (~none & 0xFFFFFFFFULL) | (uint64_t)(h[32] != 0) << 32 | (uint64_t)(h[33] != 0) << 33;
    *fours = f | (uint64_t)(h[32] == 4) << 32 | (uint64_t)(h[33] == 4) << 33;
#else
    uint64_t hs = 0, fs = 0;
    int t;
    for (t = 0; t < 34; t++) {
        hs |= (uint64_t)(h[t] != 0) << t;
        fs |= (uint64_t)(h[t] == 4) << t;
    }
    *held = hs;
    *fours = fs;
#endif
}

/* The sum of the bytes p[0..7], each at most 31 (tile counts: the sum fits a byte). */
MJ_INLINE int mj_byte_sum8(const uint8_t *p)
{
    return mj_sum_bytes(mj_load8(p));
}

/* Bit j set when byte j of p[0..7] is not 0, each byte at most 7 (tile counts 0-4: the kinds
 * held): bits 0-2 of each byte folded into its low bit. */
MJ_INLINE uint64_t mj_byte_nonzero8(const uint8_t *p)
{
    uint64_t w = mj_load8(p);
    return mj_gather_low_bits((w | (w >> 1) | (w >> 2)) & 0x0101010101010101ULL);
}

/* The sum of p[j] >> 1 over the bytes p[0..7], each at most 31 (tile counts: the pairs held,
 * a four counting twice). */
MJ_INLINE int mj_byte_halves_sum8(const uint8_t *p)
{
    return mj_sum_bytes((mj_load8(p) >> 1) & 0x7F7F7F7F7F7F7F7FULL);
}

#endif
