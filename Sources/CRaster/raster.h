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
    /// The clip in the lanes of a vector (x in lane 0, y in lane 1): its first pixels, one
    /// before them, its last pixels and one past them.
    __m128d clip_low, clip_low_before, clip_high, clip_high_past;
    uint32_t *pixels;
    int64_t stride;
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
    // Across and down at once, in the two lanes of a vector: lane 0 is x, lane 1 is y.
    // The box's corners and the pixels whose nudged centres may fall in it.
    const __m128d origin = _mm_set_pd(ty, tx), scale = _mm_set_pd(d, a);
    const __m128d far = _mm_add_pd(_mm_mul_pd(scale, _mm_set_pd(height, width)), origin);
    const __m128d lowEdge = _mm_min_pd(far, origin), highEdge = _mm_max_pd(far, origin);
    const __m128d spread = _mm_sub_pd(highEdge, lowEdge);
    // Not finite: nothing shows.
    if (_mm_movemask_pd(_mm_cmpneq_pd(_mm_sub_pd(spread, spread), _mm_setzero_pd()))) return ARCADE_BLIT_DONE;
    const __m128d nudge = _mm_set1_pd(0.5), biasLanes = _mm_set1_pd(bias);
    const __m128d firstEdge = _mm_min_pd(_mm_max_pd(_mm_add_pd(_mm_sub_pd(lowEdge, nudge), biasLanes), target->clip_low),
                                     target->clip_high_past);
    const __m128d lastEdge = _mm_min_pd(_mm_max_pd(_mm_add_pd(_mm_sub_pd(highEdge, nudge), biasLanes), target->clip_low_before),
                                    target->clip_high);
    // Rounded down and up: truncated, then one step back (or on) where truncation went the
    // wrong way. A true comparison is all ones, minus one as an integer.
    const __m128i firstCut = _mm_cvttpd_epi32(firstEdge), lastCut = _mm_cvttpd_epi32(lastEdge);
    const __m128i firstPixel = _mm_add_epi32(
        firstCut, _mm_shuffle_epi32(_mm_castpd_si128(_mm_cmpgt_pd(_mm_cvtepi32_pd(firstCut), firstEdge)), _MM_SHUFFLE(2, 2, 2, 0)));
    const __m128i lastPixel = _mm_sub_epi32(
        lastCut, _mm_shuffle_epi32(_mm_castpd_si128(_mm_cmplt_pd(_mm_cvtepi32_pd(lastCut), lastEdge)), _MM_SHUFFLE(2, 2, 2, 0)));
    if (_mm_movemask_epi8(_mm_cmpgt_epi32(firstPixel, lastPixel)) & 0xFF) return ARCADE_BLIT_DONE;
    const uint64_t firsts = (uint64_t)_mm_cvtsi128_si64(firstPixel), lasts = (uint64_t)_mm_cvtsi128_si64(lastPixel);
    const int64_t x0 = (int32_t)firsts, y0 = (int32_t)(firsts >> 32);
    const int64_t x1 = (int32_t)lasts, y1 = (int32_t)(lasts >> 32);
    // The inverse mapping, as `AffineTransform.inverted()` computes it.
    const double det = a * d;
    if (det == 0 || det - det != 0) return ARCADE_BLIT_GENERAL;
    const __m128d k = _mm_set1_pd(1 / det), swapped = _mm_shuffle_pd(scale, scale, 1);
    const __m128d inverse = _mm_mul_pd(swapped, k);  // (ia, id)
    const __m128d shift = _mm_mul_pd(_mm_xor_pd(_mm_mul_pd(swapped, origin), _mm_set1_pd(-0.0)), k);  // (itx, ity)
    const double ia = _mm_cvtsd_f64(inverse), id = _mm_cvtsd_f64(_mm_unpackhi_pd(inverse, inverse));
    const double ity = _mm_cvtsd_f64(_mm_unpackhi_pd(shift, shift));
    if (!(ia >= 1e-6 || ia <= -1e-6)) return ARCADE_BLIT_GENERAL;
    // The first pixel's nudged centre and where it falls in the sprite: (wx, wy0), (u0, v0).
    const __m128d centre = _mm_sub_pd(_mm_add_pd(_mm_cvtepi32_pd(firstPixel), nudge), biasLanes);
    const __m128d source = _mm_add_pd(_mm_mul_pd(inverse, centre), shift);
    const double u0 = _mm_cvtsd_f64(source);

    const int64_t rowsLast = y1 - y0;
    // A box at most eight columns wide (a coin's) is drawn in eight lanes from its first
    // column, each lane showing the sprite where the general path's test for that pixel,
    // `0 <= u < width`, holds: no loop and no branch on the sprite's width or place.
    if (x1 - x0 <= 7) {
        const __m128d zero = _mm_setzero_pd(), end = _mm_set1_pd(width), limit = _mm_set1_pd(width - 1);
        const __m128d start = _mm_set1_pd(u0), step = _mm_set1_pd(ia);
        const __m128d u01 = _mm_add_pd(start, _mm_mul_pd(step, _mm_set_pd(1, 0)));
        const __m128d u23 = _mm_add_pd(start, _mm_mul_pd(step, _mm_set_pd(3, 2)));
        const __m128d u45 = _mm_add_pd(start, _mm_mul_pd(step, _mm_set_pd(5, 4)));
        const __m128d u67 = _mm_add_pd(start, _mm_mul_pd(step, _mm_set_pd(7, 6)));
        // Four 64-bit lane masks into one vector of 32-bit ones.
#define ARCADE_INSIDE(ua, ub)                                                                                          \
    _mm_castps_si128(_mm_shuffle_ps(_mm_castpd_ps(_mm_and_pd(_mm_cmple_pd(zero, ua), _mm_cmplt_pd(ua, end))),         \
                                    _mm_castpd_ps(_mm_and_pd(_mm_cmple_pd(zero, ub), _mm_cmplt_pd(ub, end))),         \
                                    _MM_SHUFFLE(2, 0, 2, 0)))
        // Lanes past the box's last column are off too.
        const __m128i lastLane = _mm_set1_epi32((int32_t)(x1 - x0));
        const __m128i inRun = _mm_andnot_si128(_mm_cmpgt_epi32(_mm_set_epi32(3, 2, 1, 0), lastLane), ARCADE_INSIDE(u01, u23));
        const __m128i inRunHigh =
            _mm_andnot_si128(_mm_cmpgt_epi32(_mm_set_epi32(7, 6, 5, 4), lastLane), ARCADE_INSIDE(u45, u67));
#undef ARCADE_INSIDE
        // Each lane's source column, clamped so every lane reads a pixel of the sprite.
#define ARCADE_COLUMNS(u) ((uint64_t)_mm_cvtsi128_si64(_mm_cvttpd_epi32(_mm_min_pd(_mm_max_pd(u, zero), limit))))
        const uint64_t c01 = ARCADE_COLUMNS(u01), c23 = ARCADE_COLUMNS(u23);
        const uint64_t c45 = ARCADE_COLUMNS(u45), c67 = ARCADE_COLUMNS(u67);
#undef ARCADE_COLUMNS
        const int64_t m0 = (int32_t)c01, m1 = (int32_t)(c01 >> 32), m2 = (int32_t)c23, m3 = (int32_t)(c23 >> 32);
        const int64_t m4 = (int32_t)c45, m5 = (int32_t)(c45 >> 32), m6 = (int32_t)c67, m7 = (int32_t)(c67 >> 32);
        // The rows: the box's first and last may be slack, outside the sprite. `v` grows
        // (or shrinks) steadily down the box, so the rows between two inside ones are
        // inside too; each row drawn checks its own `v` all the same.
        const double wy0 = _mm_cvtsd_f64(_mm_unpackhi_pd(centre, centre));
        const __m128d vs = _mm_add_pd(
            _mm_mul_pd(_mm_set1_pd(id), _mm_add_pd(_mm_set1_pd(wy0), _mm_set_pd((double)rowsLast, 0))), _mm_set1_pd(ity));
        const int rowOut = _mm_movemask_pd(_mm_or_pd(_mm_cmplt_pd(vs, zero), _mm_cmpge_pd(vs, _mm_set1_pd(height))));
        const int64_t top = rowOut & 1, bottom = rowsLast - (rowOut >> 1);
        {
            uint32_t *const corner = target->pixels + y0 * target->stride + x0;
            // One row of the run, eight lanes (those past it are masked off): a sprite a few
            // pixels wide takes the same path whatever its width, with no branch on it.
#define ARCADE_ROW8(j)                                                                                                 \
    do {                                                                                                               \
        const double v = id * (wy0 + (double)(j)) + ity;                                                               \
        if (v >= 0 && v < height) {                                                                                    \
            const uint32_t *from = src + (int64_t)(int32_t)v * sw;                                                     \
            uint32_t *row = corner + (j) * target->stride;                                                             \
            const __m128i low = _mm_set_epi32((int32_t)from[m3], (int32_t)from[m2], (int32_t)from[m1], (int32_t)from[m0]); \
            const __m128i high = _mm_set_epi32((int32_t)from[m7], (int32_t)from[m6], (int32_t)from[m5], (int32_t)from[m4]); \
            const __m128i underLow = _mm_loadu_si128((const __m128i *)row);                                            \
            const __m128i underHigh = _mm_loadu_si128((const __m128i *)(row + 4));                                     \
            const __m128i showLow = _mm_and_si128(_mm_srai_epi32(low, 31), inRun);                                     \
            const __m128i showHigh = _mm_and_si128(_mm_srai_epi32(high, 31), inRunHigh);                              \
            _mm_storeu_si128((__m128i *)row, _mm_or_si128(_mm_and_si128(showLow, low), _mm_andnot_si128(showLow, underLow))); \
            _mm_storeu_si128((__m128i *)(row + 4),                                                                     \
                             _mm_or_si128(_mm_and_si128(showHigh, high), _mm_andnot_si128(showHigh, underHigh)));      \
        }                                                                                                              \
    } while (0)
            const int64_t shown = bottom - top + 1;
            if (shown <= 3) {
                // Up to three rows, as three: a row past the last repeats the last, and
                // drawing a row twice changes nothing. No branch on the sprite's height.
                if (shown <= 0) return ARCADE_BLIT_DONE;
                const int64_t second = shown > 1 ? top + 1 : top;
                const int64_t third = shown > 2 ? top + 2 : second;
                ARCADE_ROW8(top);
                ARCADE_ROW8(second);
                ARCADE_ROW8(third);
                return ARCADE_BLIT_DONE;
            }
            for (int64_t j = top; j <= bottom; j++) ARCADE_ROW8(j);
#undef ARCADE_ROW8
            return ARCADE_BLIT_DONE;
        }
    }

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

#endif
