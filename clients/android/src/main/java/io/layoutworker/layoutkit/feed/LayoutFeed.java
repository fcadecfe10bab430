package io.layoutworker.layoutkit.feed;

import io.layoutworker.layoutkit.ChangeSetException;
import io.layoutworker.layoutkit.PageLayout;
import io.layoutworker.layoutkit.StaleBaseException;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UnsupportedEncodingException;
import java.net.URLEncoder;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Follows one page through a layout-worker gateway: {@code GET /v1/layouts/{key}/changes} as server-sent events,
 * its record, then each change set applied byte for byte; every step handed to the listener with the adapter
 * operations that animate it. A dropped stream is opened again with {@code Last-Event-ID} (the gateway sends the
 * change sets missed); a change set whose base is not the record held makes the feed fetch the record
 * ({@code GET /v1/layouts/{key}}); errors are retried after 1 s doubling to 30 s; a {@code 503} waits its
 * {@code Retry-After}.
 *
 * <p>{@link #run()} blocks (run it on a thread of its own); {@link #stop()} ends it from any thread. The listener
 * is called on the feed's thread: post the step to the main thread, where the adapter takes the new
 * {@link PageLayout} and then the {@code ListUpdate}.
 */
public final class LayoutFeed {
    /** Where the feed's steps go. */
    public interface Listener {
        /** A new layout to show, and the operations from the one shown before. */
        void onStep(PageLayout.Step step);

        /** A failure the feed retries (the stream dropped, a 503, a fetch that failed); for logs. */
        default void onRetry(Exception cause, long pauseMs) {}
    }

    /**
     * A change set the feed cannot apply for another reason than a stale base (a bug on the gateway's side or this
     * kit's: report it; never retried). Unchecked, so {@code new Thread(feed::run)} compiles in Java as in Kotlin;
     * {@link #getCause()} is the {@link ChangeSetException}.
     */
    public static final class UnappliableChangeSet extends RuntimeException {
        private static final long serialVersionUID = 1L;

        UnappliableChangeSet(ChangeSetException cause) { super(cause.getMessage(), cause); }

        /** What the applier said. */
        @Override public synchronized ChangeSetException getCause() { return (ChangeSetException) super.getCause(); }
    }

    /** How the feed pauses between attempts (tests replace it). */
    public interface Sleeper {
        void sleep(long ms) throws InterruptedException;
    }

    private final String url;
    private final Connector connector;
    private final Listener listener;
    private final long firstRetryMs;
    private final long mostRetryMs;
    private volatile Sleeper sleeper = Thread::sleep;
    private final FeedState state = new FeedState();
    private volatile boolean stopped;
    private volatile Connector.Response open;
    private volatile Thread runner;

    /** Follows page {@code key} of the gateway at {@code gateway} ({@code https://layouts.example.com}). */
    public LayoutFeed(String gateway, String key, Connector connector, Listener listener) {
        this(gateway, key, connector, listener, 1_000, 30_000);
    }

    public LayoutFeed(String gateway, String key, Connector connector, Listener listener, long firstRetryMs,
            long mostRetryMs) {
        this.url = gateway.replaceAll("/+$", "") + "/v1/layouts/" + escape(key);
        this.connector = connector;
        this.listener = listener;
        this.firstRetryMs = firstRetryMs;
        this.mostRetryMs = mostRetryMs;
    }

    /**
     * Follows the layout a row's {@code navigate} action leads to (a refinement, a sort, page 2): its {@code target}
     * is the key, as it stands. The gateway answers it from a published page or, run with {@code --origin}, fetches
     * and compiles that navigation state on request. Null for an action of another kind.
     */
    public static LayoutFeed opening(String gateway, String kind, String target, Connector connector,
            Listener listener) {
        return "navigate".equals(kind) ? new LayoutFeed(gateway, target, connector, listener) : null;
    }

    /** The page's URL ({@code GET} gives its record; {@code /changes} its stream). */
    public String url() { return url; }

    /** Replaces how the feed pauses (for tests). */
    public LayoutFeed sleeper(Sleeper s) {
        sleeper = s;
        return this;
    }

    /** The page held now. */
    public PageLayout page() { return state.page(); }

    /**
     * Follows the page until {@link #stop()}. Throws only {@link UnappliableChangeSet}, for a change set that cannot
     * be applied for another reason than a stale base (a bug to report, never retried).
     */
    public void run() {
        runner = Thread.currentThread();
        long retry = firstRetryMs;
        while (!stopped) {
            long pause;
            try {
                pause = follow();
                retry = firstRetryMs;
            } catch (IOException e) {
                pause = retry;
                retry = Math.min(mostRetryMs, retry * 2);
                if (!stopped) listener.onRetry(e, pause);
            } catch (ChangeSetException e) {
                throw new UnappliableChangeSet(e);
            }
            if (stopped) break;
            try {
                sleeper.sleep(pause);
            } catch (InterruptedException e) {
                if (stopped) break;
                Thread.currentThread().interrupt();
                break;
            }
        }
    }

    /** Ends {@link #run()}: closes the stream and wakes a pause. */
    public void stop() {
        stopped = true;
        Connector.Response r = open;
        if (r != null) {
            try {
                r.close();
            } catch (IOException ignored) {
                // closing is best effort: the loop ends on `stopped` anyway
            }
        }
        Thread t = runner;
        if (t != null && t != Thread.currentThread()) t.interrupt();
    }

    /** One stream, read until it ends; the pause before the next (0 after a stream that ended normally). */
    private long follow() throws IOException, ChangeSetException {
        Map<String, String> headers = new LinkedHashMap<>();
        headers.put("Accept", "text/event-stream");
        String last = state.lastEventId();
        if (last != null) headers.put("Last-Event-ID", last);
        try (Connector.Response r = connector.get(url + "/changes", headers)) {
            open = r;
            if (stopped) return 0;
            if (r.status() == 503) {
                long wait = retryAfterMs(r.header("Retry-After"));
                listener.onRetry(new IOException("503 from " + url + "/changes; Retry-After " + wait + " ms"), wait);
                return wait;
            }
            if (r.status() != 200) throw new IOException("status " + r.status() + " from " + url + "/changes");
            ServerSentEvents parser = new ServerSentEvents();
            InputStream body = r.body();
            byte[] buffer = new byte[16_384];
            int n;
            while (!stopped && (n = body.read(buffer)) >= 0) {
                for (ServerSentEvents.Event event : parser.feed(buffer, 0, n)) take(event);
            }
            if (stopped) return 0;
            throw new IOException("the stream from " + url + "/changes ended");
        } finally {
            open = null;
        }
    }

    private void take(ServerSentEvents.Event event) throws IOException, ChangeSetException {
        PageLayout.Step step;
        try {
            step = state.take(event);
        } catch (StaleBaseException stale) {
            step = state.show(fetchRecord());
        }
        if (step != null) listener.onStep(step);
    }

    /** The record, with GET. */
    byte[] fetchRecord() throws IOException {
        try (Connector.Response r = connector.get(url, new LinkedHashMap<String, String>())) {
            if (r.status() != 200) throw new IOException("status " + r.status() + " from " + url);
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            InputStream in = r.body();
            byte[] buffer = new byte[16_384];
            int n;
            while ((n = in.read(buffer)) >= 0) out.write(buffer, 0, n);
            return out.toByteArray();
        }
    }

    /** {@code Retry-After} in seconds (the gateway's form) as milliseconds; the first retry pause without one. */
    long retryAfterMs(String value) {
        try {
            return value == null ? firstRetryMs : Math.max(0, Long.parseLong(value.trim())) * 1000;
        } catch (NumberFormatException e) {
            return firstRetryMs;
        }
    }

    static String escape(String key) {
        try {
            return URLEncoder.encode(key, "UTF-8").replace("+", "%20").replace("*", "%2A").replace("%7E", "~");
        } catch (UnsupportedEncodingException e) {
            throw new AssertionError(e);
        }
    }
}
