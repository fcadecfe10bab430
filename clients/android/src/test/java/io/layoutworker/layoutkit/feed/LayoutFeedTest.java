package io.layoutworker.layoutkit.feed;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import io.layoutworker.layoutkit.ChangeSetException;
import io.layoutworker.layoutkit.PageLayout;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import org.junit.Test;

/** The feed against a scripted gateway: record, change set, a stale base answered by a GET, 503 + Retry-After. */
public class LayoutFeedTest {
    /** A gateway that answers each request with the next scripted response, recording what was asked. */
    static final class Scripted implements Connector {
        static final class Answer {
            final int status;
            final String retryAfter;
            final byte[] body;

            Answer(int status, String retryAfter, byte[] body) {
                this.status = status;
                this.retryAfter = retryAfter;
                this.body = body;
            }
        }

        final List<Answer> answers = new ArrayList<>();
        final List<String> urls = Collections.synchronizedList(new ArrayList<String>());
        final List<String> lastEventIds = Collections.synchronizedList(new ArrayList<String>());
        LayoutFeed feed;

        @Override public Response get(String url, Map<String, String> headers) {
            urls.add(url);
            lastEventIds.add(headers.get("Last-Event-ID"));
            if (answers.isEmpty()) {
                feed.stop();
                return answer(new Answer(500, null, new byte[0]));
            }
            return answer(answers.remove(0));
        }

        private Response answer(final Answer a) {
            return new Response() {
                @Override public int status() { return a.status; }

                @Override public String header(String name) { return "Retry-After".equalsIgnoreCase(name) ? a.retryAfter : null; }

                @Override public InputStream body() { return new ByteArrayInputStream(a.body); }

                @Override public void close() {}
            };
        }
    }

    static byte[] file(String name) throws Exception {
        Path dir = Paths.get(System.getenv("LW_FIXTURES"));
        return Files.readAllBytes(dir.resolve(name));
    }

    static byte[] events(Object... nameIdData) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (int i = 0; i < nameIdData.length; i += 3) {
            String head = "event: " + nameIdData[i] + "\nid: " + nameIdData[i + 1] + "\ndata: ";
            out.write(head.getBytes(StandardCharsets.UTF_8), 0, head.length());
            byte[] data = (byte[]) nameIdData[i + 2];
            out.write(data, 0, data.length);
            out.write('\n');
            out.write('\n');
        }
        return out.toByteArray();
    }

    @Test public void recordThenChangeSetsAStaleBaseFetchesTheRecordAndA503WaitsItsRetryAfter() throws Exception {
        byte[] a = file("sample-search-page.record.json"), b = file("sample-grouped-results.record.json");
        byte[] c = file("sample-empty-results.record.json");
        byte[] ab = file("sample-search-page-to-sample-grouped-results.changes.json");
        byte[] ac = file("sample-search-page-to-sample-empty-results.changes.json");
        String ha = PageLayout.of(a).hash().toString(), hb = PageLayout.of(b).hash().toString();
        Scripted gateway = new Scripted();
        // 1: a 503 with Retry-After 7. 2: the stream: record a, change set a→b, then a→c (stale: b is held), then it
        // drops. 3: the GET for the record (c). 4: the stream again, resumed.
        gateway.answers.add(new Scripted.Answer(503, "7", new byte[0]));
        gateway.answers.add(new Scripted.Answer(200, null, events("record", ha + "@1", a, "change-set", hb + "@2", ab,
                "change-set", "x@3", ac)));
        gateway.answers.add(new Scripted.Answer(200, null, c));
        final List<PageLayout.Step> steps = new ArrayList<>();
        final List<Long> pauses = new ArrayList<>();
        LayoutFeed feed = new LayoutFeed("http://gateway.test/", "home page", gateway, steps::add)
                .sleeper(pauses::add);
        gateway.feed = feed;
        feed.run();
        assertEquals(3, steps.size());
        assertArrayEquals(a, steps.get(0).next.bytes());
        assertArrayEquals(b, steps.get(1).next.bytes());
        assertArrayEquals(c, steps.get(2).next.bytes());
        assertTrue("a change set gives adapter operations", !steps.get(1).update.isEmpty());
        assertEquals(Long.valueOf(7000), pauses.get(0));
        assertEquals("http://gateway.test/v1/layouts/home%20page/changes", gateway.urls.get(0));
        assertEquals("http://gateway.test/v1/layouts/home%20page", gateway.urls.get(2));
        // The first stream sent no Last-Event-ID; the one after the drop sends the hash of the record fetched.
        assertEquals(null, gateway.lastEventIds.get(1));
        assertEquals(PageLayout.of(c).hash().toString(), gateway.lastEventIds.get(3));
    }

    /**
     * The documented line in Java: {@code run()} throws no checked exception, so it is a {@code Runnable}. A change
     * set that cannot be applied (not a stale base) ends the thread with {@code UnappliableChangeSet}, its cause
     * what the applier said.
     */
    @Test public void runIsARunnableAndAnUnappliableChangeSetEndsItUnchecked() throws Exception {
        byte[] a = file("sample-search-page.record.json");
        String ha = PageLayout.of(a).hash().toString();
        Scripted gateway = new Scripted();
        byte[] broken = ("{\"version\":2,\"kind\":\"layout-change-set\",\"base\":\"" + ha + "\",\"ops\":7}")
                .getBytes(StandardCharsets.UTF_8);
        gateway.answers.add(new Scripted.Answer(200, null, events("record", ha + "@1", a, "change-set", "x@2", broken)));
        final List<PageLayout.Step> steps = new ArrayList<>();
        LayoutFeed feed = new LayoutFeed("http://gateway.test", "home", gateway, steps::add).sleeper(ms -> {});
        gateway.feed = feed;
        final Throwable[] ended = new Throwable[1];
        Thread thread = new Thread(feed::run, "layout-feed");
        thread.setUncaughtExceptionHandler((t, e) -> ended[0] = e);
        thread.start();
        thread.join(10_000);
        assertEquals(1, steps.size());
        if (!(ended[0] instanceof LayoutFeed.UnappliableChangeSet)) fail("the feed ended with " + ended[0]);
        assertTrue(((LayoutFeed.UnappliableChangeSet) ended[0]).getCause() instanceof ChangeSetException);
    }
}
