package io.layoutworker.layoutkit;

import java.io.ByteArrayOutputStream;

/** JSON string escapes decoded into UTF-8, as LayoutKit's {@code JSONEscapes}: a lone surrogate becomes U+FFFD. */
final class JsonEscapes {
    private JsonEscapes() {}

    /** The UTF-8 bytes of {@code b[from..<to]} (a string's body) with its escapes decoded; null when malformed. */
    static byte[] unescape(byte[] b, int from, int to) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(to - from);
        int i = from;
        while (i < to) {
            byte c = b[i];
            if (c != '\\') {
                out.write(c);
                i++;
                continue;
            }
            if (i + 1 >= to) return null;
            byte e = b[i + 1];
            i += 2;
            switch (e) {
                case '"':
                case '\\':
                case '/': out.write(e); break;
                case 'b': out.write(0x08); break;
                case 'f': out.write(0x0C); break;
                case 'n': out.write(0x0A); break;
                case 'r': out.write(0x0D); break;
                case 't': out.write(0x09); break;
                case 'u': {
                    int code = hex4(b, i, to);
                    if (code < 0) return null;
                    i += 4;
                    if (code >= 0xD800 && code < 0xDC00 && i + 6 <= to && b[i] == '\\' && b[i + 1] == 'u') {
                        int low = hex4(b, i + 2, to);
                        if (low >= 0xDC00 && low < 0xE000) {
                            code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00);
                            i += 6;
                        }
                    }
                    if (code >= 0xD800 && code < 0xE000) code = 0xFFFD;
                    appendUtf8(code, out);
                    break;
                }
                default: return null;
            }
        }
        return out.toByteArray();
    }

    private static int hex4(byte[] b, int at, int to) {
        if (at + 4 > to) return -1;
        int v = 0;
        for (int k = 0; k < 4; k++) {
            int d = Character.digit(b[at + k], 16);
            if (d < 0) return -1;
            v = v << 4 | d;
        }
        return v;
    }

    private static void appendUtf8(int s, ByteArrayOutputStream out) {
        if (s < 0x80) {
            out.write(s);
        } else if (s < 0x800) {
            out.write(0xC0 | (s >> 6));
            out.write(0x80 | (s & 0x3F));
        } else if (s < 0x10000) {
            out.write(0xE0 | (s >> 12));
            out.write(0x80 | ((s >> 6) & 0x3F));
            out.write(0x80 | (s & 0x3F));
        } else {
            out.write(0xF0 | (s >> 18));
            out.write(0x80 | ((s >> 12) & 0x3F));
            out.write(0x80 | ((s >> 6) & 0x3F));
            out.write(0x80 | (s & 0x3F));
        }
    }
}
