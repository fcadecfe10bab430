#ifndef CJSONSCAN_H
#define CJSONSCAN_H

// The one step of the JSON reader that Swift's SIMD types do not vectorise here: finding where a string's plain run ends.
// Header-only, so the Swift compiler inlines it into the reader's loop.

#include <stddef.h>
#include <stdint.h>
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

/// `cjsonscan_string_stop` without vector instructions, 8 bytes at a time (the fallback, and the tests' reference).
static inline size_t cjsonscan_string_stop_portable(const uint8_t *base, size_t from, size_t count) {
    const uint64_t ones = 0x0101010101010101ULL, highs = 0x8080808080808080ULL;
    size_t q = from;
    while (q + 8 <= count) {
        uint64_t w;
        memcpy(&w, base + q, 8);
        uint64_t quote = w ^ (ones * '"'), backslash = w ^ (ones * '\\');
        // The lowest flagged byte is exact; bytes above it may be flagged spuriously, which is harmless here.
        uint64_t mask = (((quote - ones) & ~quote) | ((backslash - ones) & ~backslash) | ((w - ones * 0x20) & ~w) | w) & highs;
        if (mask != 0) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
            break;   // byte order makes the lowest set bit the last byte: finish byte by byte
#else
            return q + (size_t)(__builtin_ctzll(mask) >> 3);
#endif
        }
        q += 8;
    }
    while (q < count) {
        uint8_t c = base[q];
        if (c == '"' || c == '\\' || c < 0x20 || c >= 0x80) return q;
        q++;
    }
    return count;
}

/// The offset of the first byte at or after `from` (below `count`) that a JSON string scanner must look at:
/// '"', '\\', a control character (below 0x20) or a non-ASCII byte (0x80 and up); `count` when there is none.
static inline size_t cjsonscan_string_stop(const uint8_t *base, size_t from, size_t count) {
#if defined(__SSE2__)
    const __m128i quote = _mm_set1_epi8('"');
    const __m128i backslash = _mm_set1_epi8('\\');
    const __m128i space = _mm_set1_epi8(0x20);
    size_t q = from;
    while (q + 16 <= count) {
        __m128i v = _mm_loadu_si128((const __m128i *)(base + q));
        // As signed bytes, everything below 0x20 is a control character or non-ASCII.
        __m128i special = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, quote), _mm_cmpeq_epi8(v, backslash)),
                                       _mm_cmplt_epi8(v, space));
        unsigned mask = (unsigned)_mm_movemask_epi8(special);
        if (mask != 0) return q + (size_t)__builtin_ctz(mask);
        q += 16;
    }
    return cjsonscan_string_stop_portable(base, q, count);
#else
    return cjsonscan_string_stop_portable(base, from, count);
#endif
}

#endif
