package io.layoutworker.layoutkit;

import java.nio.charset.StandardCharsets;

/** XXH64 (seed 0) of a record's exact bytes: the hash change sets and the gateway's ETags name records by. */
public final class ContentHash {
    private static final long P1 = 0x9E3779B185EBCA87L;
    private static final long P2 = 0xC2B2AE3D27D4EB4FL;
    private static final long P3 = 0x165667B19E3779F9L;
    private static final long P4 = 0x85EBCA77C2B2AE63L;
    private static final long P5 = 0x27D4EB2F165667C5L;

    private final long value;

    public ContentHash(long value) { this.value = value; }

    /** The hash of {@code bytes}. */
    public static ContentHash of(byte[] bytes) { return new ContentHash(xxh64(bytes, 0, bytes.length)); }

    /** The hash of a string's UTF-8 bytes. */
    public static ContentHash of(String text) { return of(text.getBytes(StandardCharsets.UTF_8)); }

    /** Parses 16 hex digits; null for anything else. */
    public static ContentHash parse(String hex) {
        if (hex == null || hex.length() != 16) return null;
        long v = 0;
        for (int i = 0; i < 16; i++) {
            int d = Character.digit(hex.charAt(i), 16);
            if (d < 0) return null;
            v = (v << 4) | d;
        }
        return new ContentHash(v);
    }

    public long value() { return value; }

    @Override public String toString() {
        String digits = Long.toHexString(value);
        return "0000000000000000".substring(digits.length()) + digits;
    }

    @Override public boolean equals(Object o) { return o instanceof ContentHash && ((ContentHash) o).value == value; }

    @Override public int hashCode() { return Long.hashCode(value); }

    /** XXH64 of {@code b[from..<from+n]} with seed 0. */
    public static long xxh64(byte[] b, int from, int n) {
        int i = from;
        int end = from + n;
        long h;
        if (n >= 32) {
            long v1 = P1 + P2, v2 = P2, v3 = 0, v4 = -P1;
            while (i + 32 <= end) {
                v1 = round(v1, read64(b, i));
                v2 = round(v2, read64(b, i + 8));
                v3 = round(v3, read64(b, i + 16));
                v4 = round(v4, read64(b, i + 24));
                i += 32;
            }
            h = Long.rotateLeft(v1, 1) + Long.rotateLeft(v2, 7) + Long.rotateLeft(v3, 12) + Long.rotateLeft(v4, 18);
            h = merge(merge(merge(merge(h, v1), v2), v3), v4);
        } else {
            h = P5;
        }
        h += n;
        while (i + 8 <= end) {
            h = Long.rotateLeft(h ^ round(0, read64(b, i)), 27) * P1 + P4;
            i += 8;
        }
        if (i + 4 <= end) {
            h = Long.rotateLeft(h ^ ((read32(b, i) & 0xFFFFFFFFL) * P1), 23) * P2 + P3;
            i += 4;
        }
        while (i < end) {
            h = Long.rotateLeft(h ^ ((b[i] & 0xFFL) * P5), 11) * P1;
            i++;
        }
        h ^= h >>> 33;
        h *= P2;
        h ^= h >>> 29;
        h *= P3;
        h ^= h >>> 32;
        return h;
    }

    private static long round(long acc, long input) { return Long.rotateLeft(acc + input * P2, 31) * P1; }

    private static long merge(long acc, long v) { return (acc ^ round(0, v)) * P1 + P4; }

    private static long read64(byte[] b, int i) {
        return (b[i] & 0xFFL) | (b[i + 1] & 0xFFL) << 8 | (b[i + 2] & 0xFFL) << 16 | (b[i + 3] & 0xFFL) << 24
                | (b[i + 4] & 0xFFL) << 32 | (b[i + 5] & 0xFFL) << 40 | (b[i + 6] & 0xFFL) << 48
                | (b[i + 7] & 0xFFL) << 56;
    }

    private static int read32(byte[] b, int i) {
        return (b[i] & 0xFF) | (b[i + 1] & 0xFF) << 8 | (b[i + 2] & 0xFF) << 16 | (b[i + 3] & 0xFF) << 24;
    }
}
