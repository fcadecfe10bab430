package io.layoutworker.layoutkit.feed;

import static org.junit.Assert.assertEquals;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.Test;

public class ServerSentEventsTest {
    static List<ServerSentEvents.Event> parse(String text, int chunk) {
        byte[] b = text.getBytes(StandardCharsets.UTF_8);
        ServerSentEvents p = new ServerSentEvents();
        List<ServerSentEvents.Event> out = new ArrayList<>();
        for (int i = 0; i < b.length; i += chunk) out.addAll(p.feed(b, i, Math.min(chunk, b.length - i)));
        return out;
    }

    @Test public void eventsAcrossChunksAndLineEndings() {
        String text = ": heartbeat\r\nevent: record\r\nid: abc@1\r\ndata: {\"a\":1}\r\n\r\n"
                + "retry: 10\nevent: change-set\ndata: line1\ndata:line2\n\n" + "data: plain\r\r" + "event: none\n\n";
        for (int chunk : new int[] {1, 3, 7, 1000}) {
            List<ServerSentEvents.Event> e = parse(text, chunk);
            assertEquals(3, e.size());
            assertEquals("record", e.get(0).name);
            assertEquals("abc@1", e.get(0).id);
            assertEquals("{\"a\":1}", new String(e.get(0).data, StandardCharsets.UTF_8));
            assertEquals("change-set", e.get(1).name);
            assertEquals("line1\nline2", new String(e.get(1).data, StandardCharsets.UTF_8));
            assertEquals("abc@1", e.get(1).id);
            assertEquals("message", e.get(2).name);
        }
    }
}
