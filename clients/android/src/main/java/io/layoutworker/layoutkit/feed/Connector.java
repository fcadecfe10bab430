package io.layoutworker.layoutkit.feed;

import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.util.Map;

/**
 * How a feed makes its HTTP GETs: {@link HttpUrlConnector} by default (on Android and the JVM alike); an app with
 * OkHttp implements it in a few lines (docs/renderers.md), so its interceptors, TLS and proxies apply.
 */
public interface Connector {
    /** An answer: its status, its headers, its body (read as it arrives). Closing it ends the request. */
    interface Response extends Closeable {
        int status();

        /** A header's value (case-insensitive name), or null. */
        String header(String name);

        InputStream body() throws IOException;
    }

    /** Sends {@code GET url} with {@code headers}. */
    Response get(String url, Map<String, String> headers) throws IOException;
}
