#ifndef ARCADE_RASTER_H
#define ARCADE_RASTER_H

// The canvas's kernel for unturned sprites of opaque-or-clear pixels (the coins of a
// shower: thousands a frame), in three builds (see below); clearing and composing cells; and
// the number conversions the Swift blit needs. Header-only.
//
// The kernel picks exactly the pixels the general rasterizer does (ArcadeRender's
// `Canvas.rasterize`): every expression below is the rasterizer's, term for term, with
// the terms that are zero for an unturned transform left out (which changes at most the
// sign of a zero, and no comparison or conversion here depends on that). A test compares
// the two on thousands of random placements.

#include <stdint.h>

// The arithmetic must round exactly as the Swift rasterizer's does: no fused multiply-add.
#pragma clang fp contract(off)

/// `x` truncated towards zero. `x` must be finite and within the range of int32_t.
static inline int32_t arcade_truncate(double x) {
    return (int32_t)x;
}

/// `x` rounded down. `x` must be finite and within the range of int32_t.
static inline int32_t arcade_floor(double x) {
    int32_t n = (int32_t)x;
    return n - ((double)n > x);
}

/// `x` rounded up. `x` must be finite and within the range of int32_t.
static inline int32_t arcade_ceil(double x) {
    int32_t n = (int32_t)x;
    return n + ((double)n < x);
}

#if defined(__SSE2__)
#include <cpuid.h>
#include <emmintrin.h>
#include <tmmintrin.h>
#include <immintrin.h>

/// Where an unturned sprite kernel draws: the canvas pixels (row-major, `stride` wide,
/// with room for 7 more pixels after the last, as a row of eight lanes may start at the
/// last pixel), the clip, the column scratch (`stride + 8` entries) and the sampling bias.
typedef struct {
    /// The clip in the lanes of a vector (x in lane 0, y in lane 1): its first pixels, one
    /// before them, its last pixels and one past them.
    __m128d clip_low, clip_low_before, clip_high, clip_high_past;
    uint32_t *pixels;
    int64_t stride;
    int32_t *columns;
    double bias;
    /// Which build of the kernel draws: ARCADE_BLIT_SSE2, ARCADE_BLIT_SSSE3 or ARCADE_BLIT_AVX2
    /// (each only where the CPU has it), or any other value (1, say) for the fastest this
    /// CPU runs.
    int32_t shuffles;
} arcade_blit_target;

/// What `arcade_blit_unturned` did.
enum { ARCADE_BLIT_DONE = 0, ARCADE_BLIT_GENERAL = 1 };

/// The builds of the kernel, as `arcade_blit_target.shuffles` names them.
enum { ARCADE_BLIT_SSE2 = 0, ARCADE_BLIT_SSSE3 = 2, ARCADE_BLIT_AVX2 = 3 };

// Three builds of the kernel: one for any x86-64 CPU (SSE2); one for CPUs with SSSE3 (all
// but the oldest), which gathers a small sprite's pixels with byte shuffles; and one for
// CPUs with AVX2, which draws a small sprite's rows eight lanes in one vector, each lane's
// pixel picked from the row loaded whole. All three draw the same pixels.
#define ARCADE_BLIT_NAME arcade_blit_unturned_sse2
#define ARCADE_BLIT_ATTRIBUTES
#define ARCADE_BLIT_SHUFFLE 0
#define ARCADE_BLIT_WIDE 0
#include "blit_kernel.h"

#define ARCADE_BLIT_NAME arcade_blit_unturned_ssse3
#define ARCADE_BLIT_ATTRIBUTES __attribute__((target("ssse3")))
#define ARCADE_BLIT_SHUFFLE 1
#define ARCADE_BLIT_WIDE 0
#include "blit_kernel.h"

#define ARCADE_BLIT_NAME arcade_blit_unturned_avx2
#define ARCADE_BLIT_ATTRIBUTES __attribute__((target("avx2")))
#define ARCADE_BLIT_SHUFFLE 1
#define ARCADE_BLIT_WIDE 1
#include "blit_kernel.h"

/// True when this CPU has SSSE3 (CPUID leaf 1, ECX bit 9).
static inline int arcade_cpu_has_ssse3(void) {
    unsigned int a, b, c, d;
    if (!__get_cpuid(1, &a, &b, &c, &d)) return 0;
    return (int)((c >> 9) & 1);
}

/// True when this CPU has AVX2 (CPUID leaf 7, EBX bit 5) and the system saves the vector
/// registers it uses (OSXSAVE and AVX in leaf 1, XMM and YMM state enabled in XCR0).
static inline int arcade_cpu_has_avx2(void) {
    unsigned int a, b, c, d;
    if (!__get_cpuid(1, &a, &b, &c, &d)) return 0;
    if (!((c >> 27) & 1) || !((c >> 28) & 1)) return 0;
    unsigned int low, high;
    __asm__("xgetbv" : "=a"(low), "=d"(high) : "c"(0));
    if ((low & 6) != 6) return 0;
    if (__get_cpuid_max(0, 0) < 7) return 0;
    __cpuid_count(7, 0, a, b, c, d);
    return (int)((b >> 5) & 1);
}

/// The fastest build of the kernel this CPU runs (ARCADE_BLIT_SSE2, ARCADE_BLIT_SSSE3 or
/// ARCADE_BLIT_AVX2), worked out at the first call.
static inline int32_t arcade_blit_fastest(void) {
    static int32_t fastest = -1;
    if (fastest < 0) {
        fastest = arcade_cpu_has_avx2() ? ARCADE_BLIT_AVX2 : arcade_cpu_has_ssse3() ? ARCADE_BLIT_SSSE3 : ARCADE_BLIT_SSE2;
    }
    return fastest;
}

/// The build of the kernel `target->shuffles` names, or the fastest this CPU runs when it
/// names none.
static inline int32_t arcade_blit_build(const arcade_blit_target *target) {
    const int32_t build = target->shuffles;
    if (build != ARCADE_BLIT_SSE2 && build != ARCADE_BLIT_SSSE3 && build != ARCADE_BLIT_AVX2) return arcade_blit_fastest();
    return build;
}

/// Draws a `sw` x `sh` sprite of opaque-or-clear pixels (alpha 0 or 255, alpha in the top
/// byte), placed by the transform `(a, 0, 0, d, tx, ty)` (its top-left corner at `(tx, ty)`),
/// unblended. Returns ARCADE_BLIT_GENERAL, drawing nothing, when the general rasterizer
/// must draw it (a zero, huge or tiny scale). Each row of `src` must be readable for 32 bytes
/// from its start (sprites keep 8 pixels of padding after their last row). `target->shuffles`
/// picks the build.
static inline int arcade_blit_unturned(const uint32_t *src, int64_t sw, int64_t sh, double a, double d, double tx,
                                       double ty, const arcade_blit_target *target) {
    const int32_t build = arcade_blit_build(target);
    if (build == ARCADE_BLIT_AVX2) return arcade_blit_unturned_avx2(src, sw, sh, a, d, tx, ty, target);
    if (build == ARCADE_BLIT_SSSE3) return arcade_blit_unturned_ssse3(src, sw, sh, a, d, tx, ty, target);
    return arcade_blit_unturned_sse2(src, sw, sh, a, d, tx, ty, target);
}

// A run of sprites of the same art, one call for all: each build's loop calls its own kernel
// directly, so the build is picked once per run rather than once per sprite.
#define ARCADE_BLIT_RUN(NAME, KERNEL, ATTRIBUTES)                                                         \
    ATTRIBUTES static int64_t NAME(const uint32_t *src, int64_t sw, int64_t sh, const double *placements,  \
                                   int64_t count, const arcade_blit_target *target) {                       \
        for (int64_t i = 0; i < count; i++) {                                                               \
            const double *p = placements + 4 * i;                                                           \
            if (KERNEL(src, sw, sh, p[0], p[1], p[2], p[3], target) != ARCADE_BLIT_DONE) return i;         \
        }                                                                                                   \
        return count;                                                                                       \
    }
ARCADE_BLIT_RUN(arcade_blit_run_sse2, arcade_blit_unturned_sse2, )
ARCADE_BLIT_RUN(arcade_blit_run_ssse3, arcade_blit_unturned_ssse3, __attribute__((target("ssse3"))))
ARCADE_BLIT_RUN(arcade_blit_run_avx2, arcade_blit_unturned_avx2, __attribute__((target("avx2"))))
#undef ARCADE_BLIT_RUN

/// `arcade_blit_unturned` for `count` sprites of the same art, in order: sprite `i` placed
/// by the four numbers from `placements[4 * i]`, `(a, d, tx, ty)`. Stops at the first the
/// kernel leaves to the general rasterizer, drawing nothing of it, and returns its index;
/// returns `count` when it drew them all. Draws exactly what calling `arcade_blit_unturned`
/// for each would.
static inline int64_t arcade_blit_unturned_run(const uint32_t *src, int64_t sw, int64_t sh, const double *placements,
                                               int64_t count, const arcade_blit_target *target) {
    const int32_t build = arcade_blit_build(target);
    if (build == ARCADE_BLIT_AVX2) return arcade_blit_run_avx2(src, sw, sh, placements, count, target);
    if (build == ARCADE_BLIT_SSSE3) return arcade_blit_run_ssse3(src, sw, sh, placements, count, target);
    return arcade_blit_run_sse2(src, sw, sh, placements, count, target);
}

/// Fills `count` pixels with `color` (clearing the canvas), four at a time.
static inline void arcade_fill_pixels(uint32_t *pixels, int64_t count, uint32_t color) {
    const __m128i fill = _mm_set1_epi32((int32_t)color);
    int64_t i = 0;
    for (; i + 16 <= count; i += 16) {
        _mm_storeu_si128((__m128i *)(pixels + i), fill);
        _mm_storeu_si128((__m128i *)(pixels + i + 4), fill);
        _mm_storeu_si128((__m128i *)(pixels + i + 8), fill);
        _mm_storeu_si128((__m128i *)(pixels + i + 12), fill);
    }
    for (; i < count; i++) pixels[i] = color;
}

/// Composes pixels into terminal cells, four cells at a time: cell `(column, row)` shows
/// pixel row `2 * row` over `2 * row + 1` as `upper` (the half block, top pixel in the
/// foreground, bottom in the background) or, when both pixels are the same, as `space` on
/// that colour. A cell is three words, character, foreground and background (ArcadeRender's
/// `Cell`), written to `cells`, `columns * rows` of them.
static inline void arcade_compose_cells(const uint32_t *pixels, int64_t columns, int64_t rows, uint32_t *cells,
                                        uint32_t space, uint32_t upper) {
    const __m128i spaces = _mm_set1_epi32((int32_t)space), uppers = _mm_set1_epi32((int32_t)upper);
    for (int64_t row = 0; row < rows; row++) {
        const uint32_t *top = pixels + 2 * row * columns, *bottom = top + columns;
        uint32_t *out = cells + 3 * row * columns;
        int64_t column = 0;
        for (; column + 4 <= columns; column += 4, out += 12) {
            const __m128i t = _mm_loadu_si128((const __m128i *)(top + column));
            const __m128i b = _mm_loadu_si128((const __m128i *)(bottom + column));
            const __m128i same = _mm_cmpeq_epi32(t, b);
            const __m128i c = _mm_or_si128(_mm_and_si128(same, spaces), _mm_andnot_si128(same, uppers));
            const __m128i g = _mm_or_si128(_mm_and_si128(same, t), _mm_andnot_si128(same, b));
            // Interleaved: c0 t0 g0 c1 | t1 g1 c2 t2 | g2 c3 t3 g3.
            const __m128i ct = _mm_unpacklo_epi32(c, t);                          // c0 t0 c1 t1
            const __m128i gc = _mm_unpacklo_epi32(g, _mm_srli_si128(c, 4));       // g0 c1 g1 c2
            const __m128i tg = _mm_unpacklo_epi32(_mm_srli_si128(t, 4), _mm_srli_si128(g, 4));  // t1 g1 t2 g2
            const __m128i ctHigh = _mm_unpackhi_epi32(c, t);                      // c2 t2 c3 t3
            const __m128i gcHigh = _mm_unpackhi_epi32(g, _mm_srli_si128(c, 4));   // g2 c3 g3 0
            const __m128i tgHigh = _mm_unpackhi_epi32(t, g);                      // t2 g2 t3 g3
            _mm_storeu_si128((__m128i *)out, _mm_unpacklo_epi64(ct, gc));
            _mm_storeu_si128((__m128i *)(out + 4), _mm_unpacklo_epi64(tg, ctHigh));
            _mm_storeu_si128((__m128i *)(out + 8), _mm_castpd_si128(_mm_shuffle_pd(_mm_castsi128_pd(gcHigh),
                                                                                   _mm_castsi128_pd(tgHigh), 2)));
        }
        for (; column < columns; column++, out += 3) {
            const uint32_t t = top[column], b = bottom[column];
            out[0] = t == b ? space : upper;
            out[1] = t;
            out[2] = t == b ? t : b;
        }
    }
}

#endif  // __SSE2__

/// Asks the CPU to start loading, for reading, the cache line of 64 bytes at `p`: what
/// drawing reads of a scene node a few places ahead of the one being drawn. Changes
/// nothing but timing.
static inline void arcade_prefetch(const void *p) {
    __builtin_prefetch(p, 0, 3);
}

#endif
