package io.layoutworker.layoutkit.feed;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads a {@code text/event-stream} as it arrives: bytes in, whole events out (the WHATWG rules a feed needs:
 * {@code event}, {@code id}, {@code data} lines joined with line breaks, comments and {@code retry} skipped, any
 * line ending). Feed it from any byte source: {@link HttpUrlConnector}'s stream, an OkHttp {@code ResponseBody}'s
 * source, a test's bytes.
 */
public final class ServerSentEvents {
    /** One event. */
    public static final class Event {
        public final String name;
        public final String id;
        public final byte[] data;

        public Event(String name, String id, byte[] data) {
            this.name = name;
            this.id = id;
            this.data = data;
        }

        @Override public String toString() { return name + (id == null ? "" : "#" + id) + " (" + data.length + " B)"; }
    }

    private final ByteArrayOutputStream line = new ByteArrayOutputStream();
    private String name = "";
    private String id;
    private ByteArrayOutputStream data;
    private boolean lastWasCR;

    /** The events {@code bytes[offset..<offset+count]} completes. */
    public List<Event> feed(byte[] bytes, int offset, int count) {
        List<Event> out = new ArrayList<>();
        for (int k = offset; k < offset + count; k++) {
            byte b = bytes[k];
            if (b == '\n' && lastWasCR) {
                lastWasCR = false;
                continue;
            }
            lastWasCR = b == '\r';
            if (b != '\n' && b != '\r') {
                line.write(b);
                continue;
            }
            Event e = endLine();
            if (e != null) out.add(e);
        }
        return out;
    }

    private Event endLine() {
        byte[] l = line.toByteArray();
        line.reset();
        if (l.length == 0) {
            // A blank line ends an event (one without data is not dispatched).
            Event e = data == null ? null : new Event(name.isEmpty() ? "message" : name, id, data.toByteArray());
            name = "";
            data = null;
            return e;
        }
        if (l[0] == ':') return null;
        int colon = 0;
        while (colon < l.length && l[colon] != ':') colon++;
        String field = new String(l, 0, colon, StandardCharsets.UTF_8);
        int from = Math.min(colon + 1, l.length);
        if (from < l.length && l[from] == ' ') from++;
        switch (field) {
            case "event": name = new String(l, from, l.length - from, StandardCharsets.UTF_8); break;
            case "id": id = new String(l, from, l.length - from, StandardCharsets.UTF_8); break;
            case "data":
                if (data == null) data = new ByteArrayOutputStream(); else data.write('\n');
                data.write(l, from, l.length - from);
                break;
            default: break;
        }
        return null;
    }
}
