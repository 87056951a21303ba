#ifndef ARCADE_RASTER_H
#define ARCADE_RASTER_H

// The canvas's kernel for unturned sprites of opaque-or-clear pixels (the coins of a
// shower: thousands a frame), and the number conversions it needs. Header-only and
// inlined into the Swift code that calls it.
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

static inline double arcade_clamp(double x, double lo, double hi) {
    return x < lo ? lo : x > hi ? hi : x;
}

#if defined(__SSE2__)
#include <emmintrin.h>

/// Where an unturned sprite kernel draws: the canvas pixels (row-major, `stride` wide,
/// with room for 3 more pixels after the last), the clip (inclusive pixel bounds), the
/// column scratch (`stride + 4` entries) and the sampling bias.
typedef struct {
    uint32_t *pixels;
    int64_t stride;
    int64_t clip_x0, clip_y0, clip_x1, clip_y1;
    int32_t *columns;
    double bias;
} arcade_blit_target;

/// What `arcade_blit_unturned` did.
enum { ARCADE_BLIT_DONE = 0, ARCADE_BLIT_GENERAL = 1 };

/// Draws a `sw` x `sh` sprite of opaque-or-clear pixels (alpha 0 or 255, alpha in the top
/// byte), placed by the transform `(a, 0, 0, d, tx, ty)` (its top-left corner at `(tx, ty)`),
/// unblended. Returns ARCADE_BLIT_GENERAL, drawing nothing, when the general rasterizer
/// must draw it (a zero, huge or tiny scale).
static inline int arcade_blit_unturned(const uint32_t *src, int64_t sw, int64_t sh, double a, double d, double tx,
                                       double ty, const arcade_blit_target *target) {
    const double width = (double)sw, height = (double)sh, bias = target->bias;
    // The box's corners and the pixels whose nudged centres may fall in it.
    const double p3x = a * width + tx, p3y = d * height + ty;
    const double minX = p3x < tx ? p3x : tx, maxX = p3x >= tx ? p3x : tx;
    const double minY = p3y < ty ? p3y : ty, maxY = p3y >= ty ? p3y : ty;
    const double spread = (maxX - minX) + (maxY - minY);
    if (spread - spread != 0) return ARCADE_BLIT_DONE;  // not finite: nothing shows
    const int64_t x0 = arcade_floor(arcade_clamp(minX - 0.5 + bias, (double)target->clip_x0, (double)target->clip_x1 + 1));
    const int64_t x1 = arcade_ceil(arcade_clamp(maxX - 0.5 + bias, (double)target->clip_x0 - 1, (double)target->clip_x1));
    const int64_t y0 = arcade_floor(arcade_clamp(minY - 0.5 + bias, (double)target->clip_y0, (double)target->clip_y1 + 1));
    const int64_t y1 = arcade_ceil(arcade_clamp(maxY - 0.5 + bias, (double)target->clip_y0 - 1, (double)target->clip_y1));
    if (x0 > x1 || y0 > y1) return ARCADE_BLIT_DONE;
    // The inverse mapping, as `AffineTransform.inverted()` computes it.
    const double det = a * d;
    if (det == 0 || det - det != 0) return ARCADE_BLIT_GENERAL;
    const double k = 1 / det;
    const double ia = d * k, id = a * k;
    const double itx = -(d * tx) * k, ity = -(a * ty) * k;
    if (!(ia >= 1e-6 || ia <= -1e-6)) return ARCADE_BLIT_GENERAL;
    const double wx = (double)x0 + 0.5 - bias;
    const double u0 = ia * wx + itx;

    // The source column of each canvas column of the box, two at a time, and how many
    // fall before the sprite (u < 0) and after it (u >= width). `u` is monotonic along the
    // row, so the columns inside are one run: `lo...hi`.
    int32_t *map = target->columns;
    const int64_t last = x1 - x0;
    const __m128d start = _mm_set1_pd(u0), step = _mm_set1_pd(ia), zero = _mm_setzero_pd();
    const __m128d end = _mm_set1_pd(width), limit = _mm_set1_pd(width - 1), two = _mm_set1_pd(2);
    const __m128d lastColumn = _mm_set1_pd((double)last);
    __m128d index = _mm_set_pd(1, 0);
    // Counted in the lanes (a true comparison is all ones: minus one), added up after.
    __m128i belowLanes = _mm_setzero_si128(), beyondLanes = _mm_setzero_si128();
    for (int64_t i = 0; i <= last; i += 2) {
        const __m128d u = _mm_add_pd(start, _mm_mul_pd(step, index));
        const __m128d counted = _mm_cmple_pd(index, lastColumn);
        belowLanes = _mm_sub_epi64(belowLanes, _mm_castpd_si128(_mm_and_pd(_mm_cmplt_pd(u, zero), counted)));
        beyondLanes = _mm_sub_epi64(beyondLanes, _mm_castpd_si128(_mm_and_pd(_mm_cmpge_pd(u, end), counted)));
        _mm_storel_epi64((__m128i *)(map + i), _mm_cvttpd_epi32(_mm_min_pd(_mm_max_pd(u, zero), limit)));
        index = _mm_add_pd(index, two);
    }
    const int64_t below = _mm_cvtsi128_si64(belowLanes) + _mm_cvtsi128_si64(_mm_unpackhi_epi64(belowLanes, belowLanes));
    const int64_t beyond = _mm_cvtsi128_si64(beyondLanes) + _mm_cvtsi128_si64(_mm_unpackhi_epi64(beyondLanes, beyondLanes));
    map[last + 1] = 0;
    map[last + 2] = 0;
    map[last + 3] = 0;
    const int64_t lo = ia > 0 ? below : beyond;
    const int64_t hi = last - (ia > 0 ? beyond : below);
    if (lo > hi) return ARCADE_BLIT_DONE;
    const int64_t count = hi - lo + 1;

    // Each row the sprite shows: its opaque pixels (alpha's top bit) replace the canvas's,
    // four at a time, with no branch per pixel.
    const int32_t *columns = map + lo;
    const __m128i flip = _mm_set1_epi32((int32_t)0x80000000);
    const __m128i run = _mm_xor_si128(_mm_set1_epi32((int32_t)count), flip);
    const __m128i lanes = _mm_xor_si128(_mm_set_epi32(3, 2, 1, 0), flip);
    uint32_t *row = target->pixels + y0 * target->stride + x0 + lo;
    // The row's nudged pixel centre: exact in a double, so stepping it by one is too.
    double wy = (double)y0 + 0.5 - bias;
    if (count <= 4) {
        // One group a row (most small sprites): its columns and lanes worked out once.
        const int64_t m0 = columns[0], m1 = columns[1], m2 = columns[2], m3 = columns[3];
        const __m128i inRun = _mm_cmplt_epi32(lanes, run);
        for (int64_t py = y0; py <= y1; py++, row += target->stride, wy += 1) {
            const double v = id * wy + ity;
            if (!(v >= 0 && v < height)) continue;
            const uint32_t *from = src + (int64_t)(int32_t)v * sw;
            const __m128i color = _mm_set_epi32((int32_t)from[m3], (int32_t)from[m2], (int32_t)from[m1], (int32_t)from[m0]);
            const __m128i under = _mm_loadu_si128((const __m128i *)row);
            const __m128i show = _mm_and_si128(_mm_srai_epi32(color, 31), inRun);
            _mm_storeu_si128((__m128i *)row, _mm_or_si128(_mm_and_si128(show, color), _mm_andnot_si128(show, under)));
        }
        return ARCADE_BLIT_DONE;
    }
    for (int64_t py = y0; py <= y1; py++, row += target->stride, wy += 1) {
        const double v = id * wy + ity;
        if (!(v >= 0 && v < height)) continue;
        const uint32_t *from = src + (int64_t)(int32_t)v * sw;
        for (int64_t g = 0; g < count; g += 4) {
            const int32_t *m = columns + g;
            const __m128i color = _mm_set_epi32((int32_t)from[m[3]], (int32_t)from[m[2]], (int32_t)from[m[1]],
                                                (int32_t)from[m[0]]);
            const __m128i under = _mm_loadu_si128((const __m128i *)(row + g));
            const __m128i inRun = _mm_cmplt_epi32(_mm_add_epi32(lanes, _mm_set1_epi32((int32_t)g)), run);
            const __m128i show = _mm_and_si128(_mm_srai_epi32(color, 31), inRun);
            _mm_storeu_si128((__m128i *)(row + g), _mm_or_si128(_mm_and_si128(show, color), _mm_andnot_si128(show, under)));
        }
    }
    return ARCADE_BLIT_DONE;
}

#endif  // __SSE2__

#endif
