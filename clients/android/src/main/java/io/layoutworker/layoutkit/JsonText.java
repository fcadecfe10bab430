package io.layoutworker.layoutkit;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * One JSON text read in place: values are byte ranges (spans) of the text, so whatever the applier copies it copies
 * exactly (LayoutKit's {@code JSONText}). One pass at the start pairs every bracket with its match and finds every
 * string's end, so skipping a whole object or array later costs a lookup. Malformed text gives a
 * {@link ChangeSetException.InvalidChangeSet}, never an index error.
 */
public final class JsonText {
    /** A value's bytes: {@code start} is its first byte, {@code end} one past its last. */
    public static final class Span {
        public final int start;
        public final int end;

        Span(int start, int end) {
            this.start = start;
            this.end = end;
        }
    }

    /** An object member: its key token (quotes included) and its value. */
    public static final class Member {
        public final Span key;
        public final Span value;

        Member(Span key, Span value) {
            this.key = key;
            this.value = value;
        }
    }

    public enum Kind { OBJECT, ARRAY, STRING, NUMBER, BOOL, NULL }

    final byte[] bytes;
    final Span root;
    private final String what;
    private final int[] containerStarts;
    private final int[] containerEnds;

    /** Reads {@code bytes} as one JSON value; {@code what} names it in errors ("change set", "record"). */
    public JsonText(byte[] bytes, String what) throws ChangeSetException.InvalidChangeSet {
        this.bytes = bytes;
        this.what = what;
        int start = 0;
        if (bytes.length >= 3 && (bytes[0] & 0xFF) == 0xEF && (bytes[1] & 0xFF) == 0xBB && (bytes[2] & 0xFF) == 0xBF) {
            start = 3;
        }
        start = skipSpace(start);
        if (start >= bytes.length) throw invalid("the " + what + " is empty");
        int[][] pairs = pairBrackets();
        containerStarts = pairs[0];
        containerEnds = pairs[1];
        int end = valueEnd(start);
        if (skipSpace(end) != bytes.length) throw invalid("the " + what + " has bytes after its JSON value (at " + end + ")");
        root = new Span(start, end);
    }

    public Span root() { return root; }

    public Kind kind(Span s) {
        switch (byteAt(s.start)) {
            case '{': return Kind.OBJECT;
            case '[': return Kind.ARRAY;
            case '"': return Kind.STRING;
            case 'n': return Kind.NULL;
            case 't':
            case 'f': return Kind.BOOL;
            default: return Kind.NUMBER;
        }
    }

    /** The members of object {@code s}, in order. */
    public List<Member> members(Span s) throws ChangeSetException.InvalidChangeSet {
        if (kind(s) != Kind.OBJECT) throw invalid("an object was expected at byte " + s.start);
        List<Member> out = new ArrayList<>();
        int i = skipSpace(s.start + 1);
        if (byteAt(i) == '}') return out;
        while (true) {
            if (byteAt(i) != '"') throw invalid("a key was expected at byte " + i);
            int keyEnd = stringEnd(i);
            int j = skipSpace(keyEnd);
            if (byteAt(j) != ':') throw invalid("':' was expected at byte " + j);
            j = skipSpace(j + 1);
            int end = valueEnd(j);
            out.add(new Member(new Span(i, keyEnd), new Span(j, end)));
            i = skipSpace(end);
            if (byteAt(i) == '}') return out;
            if (byteAt(i) != ',') throw invalid("',' or '}' was expected at byte " + i);
            i = skipSpace(i + 1);
        }
    }

    /** The elements of array {@code s}, in order. */
    public List<Span> elements(Span s) throws ChangeSetException.InvalidChangeSet {
        if (kind(s) != Kind.ARRAY) throw invalid("an array was expected at byte " + s.start);
        List<Span> out = new ArrayList<>();
        int i = skipSpace(s.start + 1);
        if (byteAt(i) == ']') return out;
        while (true) {
            int end = valueEnd(i);
            out.add(new Span(i, end));
            i = skipSpace(end);
            if (byteAt(i) == ']') return out;
            if (byteAt(i) != ',') throw invalid("',' or ']' was expected at byte " + i);
            i = skipSpace(i + 1);
        }
    }

    /** The values of {@code keys} in object {@code s} (the first of each; null when missing or not an object). */
    public Span[] values(Span s, String... keys) throws ChangeSetException.InvalidChangeSet {
        Span[] found = new Span[keys.length];
        if (s == null || kind(s) != Kind.OBJECT) return found;
        for (Member m : members(s)) {
            for (int k = 0; k < keys.length; k++) {
                if (found[k] == null && keyEquals(m.key, keys[k])) found[k] = m.value;
            }
        }
        return found;
    }

    /** The value of member {@code key} of {@code s}, or null. */
    public Span value(Span s, String key) throws ChangeSetException.InvalidChangeSet { return values(s, key)[0]; }

    /** Whether the key token {@code k} (quotes included) spells {@code key}. */
    public boolean keyEquals(Span k, String key) {
        boolean escaped = false;
        for (int i = k.start + 1; i < k.end - 1; i++) {
            if (bytes[i] == '\\') {
                escaped = true;
                break;
            }
        }
        if (escaped) return key.equals(string(k));
        byte[] spelled = key.getBytes(StandardCharsets.UTF_8);
        if (spelled.length != k.end - k.start - 2) return false;
        for (int i = 0; i < spelled.length; i++) {
            if (bytes[k.start + 1 + i] != spelled[i]) return false;
        }
        return true;
    }

    /** The exact bytes of {@code s}. */
    public byte[] raw(Span s) { return Arrays.copyOfRange(bytes, s.start, s.end); }

    /** The exact text of {@code s}. */
    public String rawText(Span s) { return new String(bytes, s.start, s.end - s.start, StandardCharsets.UTF_8); }

    /** A number that is an integer and fits in an int; null for anything else. */
    public Integer integer(Span s) {
        if (s == null || kind(s) != Kind.NUMBER) return null;
        try {
            return Integer.valueOf(rawText(s));
        } catch (NumberFormatException e) {
            return null;
        }
    }

    /** A string's decoded text; null for anything else or a malformed escape. */
    public String string(Span s) {
        if (s == null || kind(s) != Kind.STRING || s.end - s.start < 2) return null;
        byte[] decoded = JsonEscapes.unescape(bytes, s.start + 1, s.end - 1);
        return decoded == null ? null : new String(decoded, StandardCharsets.UTF_8);
    }

    /** A boolean's value; null for anything else. */
    public Boolean bool(Span s) {
        if (s == null || kind(s) != Kind.BOOL) return null;
        return bytes[s.start] == 't';
    }

    ChangeSetException.InvalidChangeSet invalid(String why) { return new ChangeSetException.InvalidChangeSet(why); }

    private int byteAt(int i) { return i < bytes.length ? bytes[i] : 0; }

    private int skipSpace(int i) {
        while (i < bytes.length && (bytes[i] == ' ' || bytes[i] == '\n' || bytes[i] == '\r' || bytes[i] == '\t')) i++;
        return i;
    }

    private int[][] pairBrackets() throws ChangeSetException.InvalidChangeSet {
        int[] starts = new int[16], ends = new int[16], open = new int[16];
        int count = 0, depth = 0;
        int i = 0;
        while (i < bytes.length) {
            byte c = bytes[i];
            if (c == '"') {
                i = stringEnd(i);
                continue;
            }
            if (c == '{' || c == '[') {
                if (count == starts.length) {
                    starts = Arrays.copyOf(starts, count * 2);
                    ends = Arrays.copyOf(ends, count * 2);
                }
                if (depth == open.length) open = Arrays.copyOf(open, depth * 2);
                open[depth++] = count;
                starts[count] = i;
                ends[count] = -1;
                count++;
            } else if (c == '}' || c == ']') {
                if (depth == 0 || (bytes[starts[open[depth - 1]]] == '{') != (c == '}')) {
                    throw invalid("a mismatched '" + (char) c + "' at byte " + i + " of the " + what);
                }
                ends[open[--depth]] = i + 1;
            }
            i++;
        }
        if (depth > 0) {
            int k = open[depth - 1];
            throw invalid("an unterminated " + (bytes[starts[k]] == '{' ? "object" : "array") + " at byte " + starts[k]);
        }
        return new int[][] {Arrays.copyOf(starts, count), Arrays.copyOf(ends, count)};
    }

    /** One past the end of the value starting at {@code i}. */
    int valueEnd(int i) throws ChangeSetException.InvalidChangeSet {
        if (i >= bytes.length) throw invalid("the " + what + " ends where a value was expected");
        byte c = bytes[i];
        if (c == '"') return stringEnd(i);
        if (c == '{' || c == '[') {
            int k = Arrays.binarySearch(containerStarts, i);
            if (k < 0) throw invalid("a value was expected at byte " + i + " of the " + what);
            return containerEnds[k];
        }
        int j = i;
        while (j < bytes.length) {
            byte d = bytes[j];
            if (d == ',' || d == '}' || d == ']' || d == ' ' || d == '\n' || d == '\r' || d == '\t') break;
            j++;
        }
        if (j == i) throw invalid("a value was expected at byte " + i + " of the " + what);
        return j;
    }

    private int stringEnd(int i) throws ChangeSetException.InvalidChangeSet {
        int j = i + 1;
        while (j < bytes.length) {
            if (bytes[j] == '\\') {
                j += 2;
                continue;
            }
            if (bytes[j] == '"') return j + 1;
            j++;
        }
        throw invalid("an unterminated string at byte " + i + " of the " + what);
    }
}
