// The body of the canvas's kernel for unturned sprites (see raster.h), included there once
// per variant: `ARCADE_BLIT_NAME` names the function, `ARCADE_BLIT_ATTRIBUTES` gives its
// target attributes, `ARCADE_BLIT_SHUFFLE` (0 or 1) says whether it may use SSSE3's byte
// shuffle and `ARCADE_BLIT_WIDE` (0 or 1) whether it may use AVX2's wide vectors. The
// variants differ only in how they load and store pixels, never in which they draw.

/// See `arcade_blit_unturned`, which picks the variant.
ARCADE_BLIT_ATTRIBUTES static int ARCADE_BLIT_NAME(const uint32_t *src, int64_t sw, int64_t sh, double a, double d,
                                                   double tx, double ty, const arcade_blit_target *target) {
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
#if ARCADE_BLIT_WIDE
    // Rounded down and up in one instruction each (SSE4.1, which every AVX2 CPU has): the
    // same whole numbers as below, kept as doubles too, which saves converting them back
    // on the way to the first pixel's centre.
    const __m128d firstAt = _mm_floor_pd(firstEdge), lastAt = _mm_ceil_pd(lastEdge);
    if (_mm_movemask_pd(_mm_cmpgt_pd(firstAt, lastAt))) return ARCADE_BLIT_DONE;
    const __m128i firstPixel = _mm_cvttpd_epi32(firstAt), lastPixel = _mm_cvttpd_epi32(lastAt);
#else
    // Rounded down and up: truncated, then one step back (or on) where truncation went the
    // wrong way. A true comparison is all ones, minus one as an integer.
    const __m128i firstCut = _mm_cvttpd_epi32(firstEdge), lastCut = _mm_cvttpd_epi32(lastEdge);
    const __m128i firstPixel = _mm_add_epi32(
        firstCut, _mm_shuffle_epi32(_mm_castpd_si128(_mm_cmpgt_pd(_mm_cvtepi32_pd(firstCut), firstEdge)), _MM_SHUFFLE(2, 2, 2, 0)));
    const __m128i lastPixel = _mm_sub_epi32(
        lastCut, _mm_shuffle_epi32(_mm_castpd_si128(_mm_cmplt_pd(_mm_cvtepi32_pd(lastCut), lastEdge)), _MM_SHUFFLE(2, 2, 2, 0)));
    if (_mm_movemask_epi8(_mm_cmpgt_epi32(firstPixel, lastPixel)) & 0xFF) return ARCADE_BLIT_DONE;
    const __m128d firstAt = _mm_cvtepi32_pd(firstPixel);
#endif
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
    const __m128d centre = _mm_sub_pd(_mm_add_pd(firstAt, nudge), biasLanes);
    const __m128d source = _mm_add_pd(_mm_mul_pd(inverse, centre), shift);
    const double u0 = _mm_cvtsd_f64(source);

    const int64_t rowsLast = y1 - y0;
#if ARCADE_BLIT_WIDE
    // AVX2: the box's eight lanes in one vector each way, and a row of a sprite at most eight
    // pixels wide loaded at once, each lane's pixel picked from it by its column. The same
    // arithmetic as below, lane for lane.
    if (x1 - x0 <= 7 && sw <= 8) {
        const __m256d zero = _mm256_setzero_pd(), end = _mm256_set1_pd(width), limit = _mm256_set1_pd(width - 1);
        const __m256d start = _mm256_set1_pd(u0), step = _mm256_set1_pd(ia);
        const __m256d uLow = _mm256_add_pd(start, _mm256_mul_pd(step, _mm256_set_pd(3, 2, 1, 0)));
        const __m256d uHigh = _mm256_add_pd(start, _mm256_mul_pd(step, _mm256_set_pd(7, 6, 5, 4)));
        // Each lane's test, 64 bits wide, narrowed to 32: the low halves of lanes 0-3 and
        // 4-7 side by side in each 128-bit half, then the halves' middle quarters swapped.
        const __m256d insideLow = _mm256_and_pd(_mm256_cmp_pd(zero, uLow, _CMP_LE_OQ), _mm256_cmp_pd(uLow, end, _CMP_LT_OQ));
        const __m256d insideHigh = _mm256_and_pd(_mm256_cmp_pd(zero, uHigh, _CMP_LE_OQ), _mm256_cmp_pd(uHigh, end, _CMP_LT_OQ));
        const __m256i insideLanes = _mm256_castpd_si256(_mm256_permute4x64_pd(
            _mm256_castps_pd(_mm256_shuffle_ps(_mm256_castpd_ps(insideLow), _mm256_castpd_ps(insideHigh), _MM_SHUFFLE(2, 0, 2, 0))),
            _MM_SHUFFLE(3, 1, 2, 0)));
        const __m256i inRun = _mm256_andnot_si256(
            _mm256_cmpgt_epi32(_mm256_set_epi32(7, 6, 5, 4, 3, 2, 1, 0), _mm256_set1_epi32((int32_t)(x1 - x0))), insideLanes);
        const __m256i columns = _mm256_set_m128i(_mm256_cvttpd_epi32(_mm256_min_pd(_mm256_max_pd(uHigh, zero), limit)),
                                                 _mm256_cvttpd_epi32(_mm256_min_pd(_mm256_max_pd(uLow, zero), limit)));
        const double wy0 = _mm_cvtsd_f64(_mm_unpackhi_pd(centre, centre));
        const __m128d vs = _mm_add_pd(_mm_mul_pd(_mm_set1_pd(id), _mm_add_pd(_mm_set1_pd(wy0), _mm_set_pd((double)rowsLast, 0))),
                                      _mm_set1_pd(ity));
        const int rowOut =
            _mm_movemask_pd(_mm_or_pd(_mm_cmplt_pd(vs, _mm_setzero_pd()), _mm_cmpge_pd(vs, _mm_set1_pd(height))));
        const int64_t top = rowOut & 1, bottom = rowsLast - (rowOut >> 1);
        const int64_t shown = bottom - top + 1;
        if (shown <= 0) return ARCADE_BLIT_DONE;
        // The stride read once: stores through `pixels` might otherwise be taken to change it.
        const int64_t stride = target->stride;
        uint32_t *const corner = target->pixels + y0 * stride + x0;
#define ARCADE_ROW_WIDE(j, PITCH)                                                                                       \
    do {                                                                                                                \
        const double v = id * (wy0 + (double)(j)) + ity;                                                                \
        if (v >= 0 && v < height) {                                                                                     \
            const __m256i *from = (const __m256i *)(src + (int64_t)(int32_t)v * (PITCH));                               \
            __m256i *row = (__m256i *)(corner + (j) * stride);                                                          \
            const __m256i color = _mm256_permutevar8x32_epi32(_mm256_loadu_si256(from), columns);                      \
            const __m256i show = _mm256_and_si256(_mm256_srai_epi32(color, 31), inRun);                                 \
            _mm256_storeu_si256(row, _mm256_blendv_epi8(_mm256_loadu_si256(row), color, show));                         \
        }                                                                                                               \
    } while (0)
#define ARCADE_ROWS_WIDE(PITCH)                                                                                         \
    do {                                                                                                                \
        if (shown <= 3) {                                                                                               \
            const int64_t second = shown > 1 ? top + 1 : top;                                                           \
            const int64_t third = shown > 2 ? top + 2 : second;                                                         \
            ARCADE_ROW_WIDE(top, PITCH);                                                                                \
            ARCADE_ROW_WIDE(second, PITCH);                                                                             \
            ARCADE_ROW_WIDE(third, PITCH);                                                                              \
        } else {                                                                                                        \
            for (int64_t j = top; j <= bottom; j++) ARCADE_ROW_WIDE(j, PITCH);                                          \
        }                                                                                                               \
        return ARCADE_BLIT_DONE;                                                                                        \
    } while (0)
        if (sw == 4) ARCADE_ROWS_WIDE(4);
        ARCADE_ROWS_WIDE(sw);
#undef ARCADE_ROWS_WIDE
#undef ARCADE_ROW_WIDE
    }
#endif
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
#define ARCADE_INSIDE(ua, ub)                                                                                           \
    _mm_castps_si128(_mm_shuffle_ps(_mm_castpd_ps(_mm_and_pd(_mm_cmple_pd(zero, ua), _mm_cmplt_pd(ua, end))),           \
                                    _mm_castpd_ps(_mm_and_pd(_mm_cmple_pd(zero, ub), _mm_cmplt_pd(ub, end))),           \
                                    _MM_SHUFFLE(2, 0, 2, 0)))
        // Lanes past the box's last column are off too.
        const __m128i lastLane = _mm_set1_epi32((int32_t)(x1 - x0));
        const __m128i inRun = _mm_andnot_si128(_mm_cmpgt_epi32(_mm_set_epi32(3, 2, 1, 0), lastLane), ARCADE_INSIDE(u01, u23));
        const __m128i inRunHigh =
            _mm_andnot_si128(_mm_cmpgt_epi32(_mm_set_epi32(7, 6, 5, 4), lastLane), ARCADE_INSIDE(u45, u67));
#undef ARCADE_INSIDE
        // Each lane's source column, clamped so every lane reads a pixel of the sprite: lanes
        // 0-3 and 4-7 in the 32-bit lanes of two vectors.
#define ARCADE_COLUMNS(ua, ub)                                                                                          \
    _mm_unpacklo_epi64(_mm_cvttpd_epi32(_mm_min_pd(_mm_max_pd(ua, zero), limit)),                                      \
                       _mm_cvttpd_epi32(_mm_min_pd(_mm_max_pd(ub, zero), limit)))
        const __m128i columnsLow = ARCADE_COLUMNS(u01, u23), columnsHigh = ARCADE_COLUMNS(u45, u67);
#undef ARCADE_COLUMNS
        // The rows: the box's first and last may be slack, outside the sprite. `v` grows
        // (or shrinks) steadily down the box, so the rows between two inside ones are
        // inside too; each row drawn checks its own `v` all the same.
        const double wy0 = _mm_cvtsd_f64(_mm_unpackhi_pd(centre, centre));
        const __m128d vs = _mm_add_pd(
            _mm_mul_pd(_mm_set1_pd(id), _mm_add_pd(_mm_set1_pd(wy0), _mm_set_pd((double)rowsLast, 0))), _mm_set1_pd(ity));
        const int rowOut = _mm_movemask_pd(_mm_or_pd(_mm_cmplt_pd(vs, zero), _mm_cmpge_pd(vs, _mm_set1_pd(height))));
        const int64_t top = rowOut & 1, bottom = rowsLast - (rowOut >> 1);
        const int64_t shown = bottom - top + 1;
        if (shown <= 0) return ARCADE_BLIT_DONE;
        uint32_t *const corner = target->pixels + y0 * target->stride + x0;
        // Each lane's pixel of a source row: loaded one by one, or (SSSE3, a sprite at most
        // four pixels wide) the row loaded at once and each lane's pixel picked from it with
        // a byte shuffle, lane k taking bytes 4 m_k ... 4 m_k + 3.
#define ARCADE_GATHER_LOADS(from, low, high)                                                                            \
    do {                                                                                                                \
        low = _mm_set_epi32((int32_t)(from)[m3], (int32_t)(from)[m2], (int32_t)(from)[m1], (int32_t)(from)[m0]);        \
        high = _mm_set_epi32((int32_t)(from)[m7], (int32_t)(from)[m6], (int32_t)(from)[m5], (int32_t)(from)[m4]);       \
    } while (0)
#define ARCADE_GATHER_SHUFFLE(from, low, high)                                                                          \
    do {                                                                                                                \
        const __m128i whole = _mm_loadu_si128((const __m128i *)(from));                                                 \
        low = _mm_shuffle_epi8(whole, pickLow);                                                                         \
        high = _mm_shuffle_epi8(whole, pickHigh);                                                                       \
    } while (0)
        // One row of the box, eight lanes (those off the sprite masked off): a sprite a few
        // pixels wide takes the same path whatever its width, with no branch on it.
#define ARCADE_ROW8(j, GATHER, PITCH)                                                                                   \
    do {                                                                                                                \
        const double v = id * (wy0 + (double)(j)) + ity;                                                                \
        if (v >= 0 && v < height) {                                                                                     \
            const uint32_t *from = src + (int64_t)(int32_t)v * (PITCH);                                                 \
            uint32_t *row = corner + (j) * target->stride;                                                              \
            __m128i low, high;                                                                                          \
            GATHER(from, low, high);                                                                                    \
            const __m128i underLow = _mm_loadu_si128((const __m128i *)row);                                             \
            const __m128i underHigh = _mm_loadu_si128((const __m128i *)(row + 4));                                      \
            const __m128i showLow = _mm_and_si128(_mm_srai_epi32(low, 31), inRun);                                      \
            const __m128i showHigh = _mm_and_si128(_mm_srai_epi32(high, 31), inRunHigh);                                \
            _mm_storeu_si128((__m128i *)row,                                                                           \
                             _mm_or_si128(_mm_and_si128(showLow, low), _mm_andnot_si128(showLow, underLow)));          \
            _mm_storeu_si128((__m128i *)(row + 4),                                                                      \
                             _mm_or_si128(_mm_and_si128(showHigh, high), _mm_andnot_si128(showHigh, underHigh)));       \
        }                                                                                                               \
    } while (0)
        // Up to three rows are drawn as three: a row past the last repeats the last, and
        // drawing a row twice changes nothing. No branch on the sprite's height.
#define ARCADE_ROWS(GATHER, PITCH)                                                                                      \
    do {                                                                                                                \
        if (shown <= 3) {                                                                                               \
            const int64_t second = shown > 1 ? top + 1 : top;                                                           \
            const int64_t third = shown > 2 ? top + 2 : second;                                                         \
            ARCADE_ROW8(top, GATHER, PITCH);                                                                            \
            ARCADE_ROW8(second, GATHER, PITCH);                                                                         \
            ARCADE_ROW8(third, GATHER, PITCH);                                                                          \
        } else {                                                                                                        \
            for (int64_t j = top; j <= bottom; j++) ARCADE_ROW8(j, GATHER, PITCH);                                      \
        }                                                                                                               \
        return ARCADE_BLIT_DONE;                                                                                        \
    } while (0)
#if ARCADE_BLIT_SHUFFLE
        if (sw <= 4) {
            // Lane k's bytes: 4 m_k (at most 12, one byte) in each byte, plus 0, 1, 2, 3. Worked
            // out in the lanes, with no column taken out of its vector.
            const __m128i bytes = _mm_set1_epi32(0x03020100);
            __m128i low4 = _mm_slli_epi32(columnsLow, 2), high4 = _mm_slli_epi32(columnsHigh, 2);
            low4 = _mm_or_si128(low4, _mm_slli_epi32(low4, 8));
            high4 = _mm_or_si128(high4, _mm_slli_epi32(high4, 8));
            low4 = _mm_or_si128(low4, _mm_slli_epi32(low4, 16));
            high4 = _mm_or_si128(high4, _mm_slli_epi32(high4, 16));
            const __m128i pickLow = _mm_add_epi32(low4, bytes), pickHigh = _mm_add_epi32(high4, bytes);
            // Four pixels wide (a coin) with the row pitch known, which is measurably faster.
            if (sw == 4) ARCADE_ROWS(ARCADE_GATHER_SHUFFLE, 4);
            ARCADE_ROWS(ARCADE_GATHER_SHUFFLE, sw);
        }
#endif
        const uint64_t c01 = (uint64_t)_mm_cvtsi128_si64(columnsLow);
        const uint64_t c23 = (uint64_t)_mm_cvtsi128_si64(_mm_unpackhi_epi64(columnsLow, columnsLow));
        const uint64_t c45 = (uint64_t)_mm_cvtsi128_si64(columnsHigh);
        const uint64_t c67 = (uint64_t)_mm_cvtsi128_si64(_mm_unpackhi_epi64(columnsHigh, columnsHigh));
        const int64_t m0 = (int32_t)c01, m1 = (int32_t)(c01 >> 32), m2 = (int32_t)c23, m3 = (int32_t)(c23 >> 32);
        const int64_t m4 = (int32_t)c45, m5 = (int32_t)(c45 >> 32), m6 = (int32_t)c67, m7 = (int32_t)(c67 >> 32);
        ARCADE_ROWS(ARCADE_GATHER_LOADS, sw);
#undef ARCADE_ROWS
#undef ARCADE_ROW8
#undef ARCADE_GATHER_SHUFFLE
#undef ARCADE_GATHER_LOADS
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

    // Wider boxes. Each row the sprite shows: its opaque pixels (alpha's top bit) replace
    // the canvas's, four at a time, with no branch per pixel.
    const int32_t *columns = map + lo;
    const __m128i flip = _mm_set1_epi32((int32_t)0x80000000);
    const __m128i run = _mm_xor_si128(_mm_set1_epi32((int32_t)count), flip);
    const __m128i lanes = _mm_xor_si128(_mm_set_epi32(3, 2, 1, 0), flip);
    uint32_t *row = target->pixels + y0 * target->stride + x0 + lo;
    // The row's nudged pixel centre: exact in a double, so stepping it by one is too.
    double wy = (double)y0 + 0.5 - bias;
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

#undef ARCADE_BLIT_NAME
#undef ARCADE_BLIT_ATTRIBUTES
#undef ARCADE_BLIT_SHUFFLE
#undef ARCADE_BLIT_WIDE
