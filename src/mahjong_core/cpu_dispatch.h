/* Runtime choice of an instruction set for the fan kernel's batch row loop (issue 29, item 3).
 *
 * The release build targets baseline x86-64, so that one wheel runs on every x86-64 CPU.  On the
 * x86-64-v3 level (Haswell, 2013, and later; Zen) the kernel's bit counts become POPCNT, its shifts
 * and bit tests BMI1/BMI2 instructions, its byte compares VEX-encoded SSE/AVX2: a second copy of the
 * row loop is compiled for those features, with every kernel function it calls inlined into it
 * (`flatten`: a `target` attribute applies to the function's own body only), and the batch entry
 * point picks it once, when the module is imported, if the CPU and the operating system support
 * them.  Both copies compute the same integers: the results are byte-identical (the digest test
 * runs both).
 *
 * MJ_FAST_ROWS_ATTR: the attributes of that copy; MJ_HAVE_FAST_ROWS: 1 where it exists (GCC or
 * Clang on x86-64), else 0 -- MSVC and other architectures build the baseline loop only, and the
 * attributes expand to nothing. */
#ifndef MAHJONG_CORE_CPU_DISPATCH_H
#define MAHJONG_CORE_CPU_DISPATCH_H

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__)) && !defined(_MSC_VER)
#include <cpuid.h>
#define MJ_HAVE_FAST_ROWS 1
/* The x86-64-v3 features, spelled out: `arch=x86-64-v3` would differ from the callers' arch, and
 * GCC inlines a function into a caller only with the same arch (a feature list that contains the
 * baseline's is enough). */
#define MJ_FAST_ROWS_ATTR __attribute__((flatten, target( \
    "popcnt,sse3,ssse3,sse4.1,sse4.2,cx16,avx,avx2,bmi,bmi2,lzcnt,fma,f16c,movbe,xsave")))

/* 1 when the CPU has every feature of MJ_FAST_ROWS_ATTR and the OS saves the AVX registers
 * (XCR0 bits 1-2), else 0.  CPUID directly: no runtime library needed (musl, macOS). */
static int mj_cpu_has_fast_rows(void)
{
    unsigned a, b, c, d, c1, b7, x_lo, x_hi;
    if (!__get_cpuid(1, &a, &b, &c1, &d))
        return 0;
    /* SSE3 0, SSSE3 9, FMA 12, CX16 13, SSE4.1 19, SSE4.2 20, MOVBE 22, POPCNT 23, XSAVE 26,
     * OSXSAVE 27, AVX 28, F16C 29 */
    const unsigned need1 = 1u << 0 | 1u << 9 | 1u << 12 | 1u << 13 | 1u << 19 | 1u << 20 | 1u << 22
                         | 1u << 23 | 1u << 26 | 1u << 27 | 1u << 28 | 1u << 29;
    if ((c1 & need1) != need1)
        return 0;
    if (!__get_cpuid_count(7, 0, &a, &b7, &c, &d))
        return 0;
    /* BMI1 3, AVX2 5, BMI2 8 */
    if ((b7 & (1u << 3 | 1u << 5 | 1u << 8)) != (1u << 3 | 1u << 5 | 1u << 8))
        return 0;
    if (!__get_cpuid(0x80000001u, &a, &b, &c, &d) || !(c & 1u << 5))   /* LZCNT (ABM) */
        return 0;
    __asm__ volatile("xgetbv" : "=a"(x_lo), "=d"(x_hi) : "c"(0));
    (void)x_hi;
    return (x_lo & 6u) == 6u;   /* the OS saves the XMM and YMM registers */
}
#else
#define MJ_HAVE_FAST_ROWS 0
#define MJ_FAST_ROWS_ATTR
static int mj_cpu_has_fast_rows(void) { return 0; }
#endif

#endif
