package io.layoutworker.layoutkit.feed;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.HttpURLConnection;
import java.net.URL;
import java.util.Map;

/** {@link Connector} on {@code java.net.HttpURLConnection}: no dependency, on Android and the JVM. */
public final class HttpUrlConnector implements Connector {
    private final int connectTimeoutMs;
    private final int readTimeoutMs;

    /**
     * Times out connecting after {@code connectTimeoutMs} and a read after {@code readTimeoutMs} without a byte
     * (the gateway sends a heartbeat comment every 15 s by default, so a stream that says nothing for longer is
     * dead).
     */
    public HttpUrlConnector(int connectTimeoutMs, int readTimeoutMs) {
        this.connectTimeoutMs = connectTimeoutMs;
        this.readTimeoutMs = readTimeoutMs;
    }

    public HttpUrlConnector() { this(10_000, 45_000); }

    @Override public Response get(String url, Map<String, String> headers) throws IOException {
        final HttpURLConnection c = (HttpURLConnection) new URL(url).openConnection();
        c.setConnectTimeout(connectTimeoutMs);
        c.setReadTimeout(readTimeoutMs);
        c.setUseCaches(false);
        for (Map.Entry<String, String> h : headers.entrySet()) c.setRequestProperty(h.getKey(), h.getValue());
        final int status = c.getResponseCode();
        return new Response() {
            @Override public int status() { return status; }

            @Override public String header(String name) { return c.getHeaderField(name); }

            @Override public InputStream body() throws IOException {
                InputStream s = status >= 400 ? c.getErrorStream() : c.getInputStream();
                return s != null ? s : new ByteArrayInputStream(new byte[0]);
            }

            @Override public void close() { c.disconnect(); }
        };
    }
}
