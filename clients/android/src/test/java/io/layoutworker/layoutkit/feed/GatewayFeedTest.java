package io.layoutworker.layoutkit.feed;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import io.layoutworker.layoutkit.PageLayout;
import java.io.BufferedReader;
import java.io.File;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.After;
import org.junit.Test;

/**
 * The feed against a real {@code layout-worker gateway}: a Tansu test broker, {@code serve} with change sets and a
 * gateway, all on loopback and stopped by the test. The feed receives the record, then change sets; the gateway is
 * stopped, the page changes, a gateway starts again on its port and store, and the feed resumes with
 * {@code Last-Event-ID} and ends on the page's new record.
 */
public class GatewayFeedTest {
    private final List<Process> processes = new ArrayList<>();
    private Path work;

    /** What the feed saw on its streams: each request's Last-Event-ID and each event's name, in order. */
    static final class Watching implements Connector {
        final HttpUrlConnector inner = new HttpUrlConnector(2_000, 30_000);
        final List<String> seen = Collections.synchronizedList(new ArrayList<String>());

        @Override public Response get(String url, Map<String, String> headers) throws IOException {
            seen.add("GET " + url.replaceAll("^.*/v1/layouts/", "") + " Last-Event-ID=" + headers.get("Last-Event-ID"));
            final Response r = inner.get(url, headers);
            seen.add("status " + r.status());
            return new Response() {
                final ServerSentEvents parser = new ServerSentEvents();

                @Override public int status() { return r.status(); }

                @Override public String header(String name) { return r.header(name); }

                @Override public InputStream body() throws IOException {
                    return new FilterInputStream(r.body()) {
                        @Override public int read(byte[] b, int off, int len) throws IOException {
                            int n = super.read(b, off, len);
                            if (n > 0) for (ServerSentEvents.Event e : parser.feed(b, off, n)) seen.add("event " + e.name);
                            return n;
                        }
                    };
                }

                @Override public void close() throws IOException { r.close(); }
            };
        }
    }

    static String env(String name) {
        String v = System.getenv(name);
        if (v == null || v.isEmpty()) throw new IllegalStateException(name + " is not set (clients/android/build.sh sets it)");
        return v;
    }

    static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    Process start(String name, String... command) throws IOException {
        ProcessBuilder pb = new ProcessBuilder(command).directory(new File(env("LW_ROOT")))
                .redirectErrorStream(true).redirectOutput(work.resolve(name + ".log").toFile());
        Process p = pb.start();
        processes.add(p);
        return p;
    }

    String log(String name) {
        try {
            return new String(Files.readAllBytes(work.resolve(name + ".log")), StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "(no log: " + e + ")";
        }
    }

    static void waitFor(String what, long seconds, BooleanSupplier condition, java.util.function.Supplier<String> saw)
            throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) throw new AssertionError("waited " + seconds + " s for " + what + "; saw: " + saw.get());
            Thread.sleep(50);
        }
    }

    void run(String... command) throws Exception {
        Process p = new ProcessBuilder(command).directory(new File(env("LW_ROOT"))).redirectErrorStream(true).start();
        byte[] out = readAll(p.getInputStream());
        assertTrue(String.join(" ", command), p.waitFor(60, TimeUnit.SECONDS));
        assertEquals(String.join(" ", command) + ": " + new String(out, StandardCharsets.UTF_8), 0, p.exitValue());
    }

    static byte[] readAll(InputStream in) throws IOException {
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        byte[] b = new byte[8192];
        int n;
        while ((n = in.read(b)) >= 0) out.write(b, 0, n);
        return out.toByteArray();
    }

    /** A gateway on {@code port} (0: any), with {@code extra} arguments; returns the port it printed. */
    int gateway(String bin, String brokers, int port, String name, String... extra) throws Exception {
        List<String> command = new ArrayList<>(List.of(bin, "gateway", "--brokers", brokers, "--changes-topic",
                "changes", "--port", String.valueOf(port), "--http", "127.0.0.1:0", "--page-store",
                work.resolve("gateway-state").toString(), "--log-format", "json"));
        command.addAll(List.of(extra));
        start(name, command.toArray(new String[0]));
        Pattern bound = Pattern.compile("gateway: http://127\\.0\\.0\\.1:([0-9]+)/");
        final int[] found = {0};
        waitFor("the gateway's address", 30, () -> {
            Matcher m = bound.matcher(log(name));
            if (m.find()) found[0] = Integer.parseInt(m.group(1));
            return found[0] > 0;
        }, () -> log(name));
        return found[0];
    }

    /** A Tansu broker on a free port with the worker's and the gateway's topics; returns its address. */
    String broker(String bin, String tansu) throws Exception {
        int brokerPort = freePort();
        String brokers = "127.0.0.1:" + brokerPort;
        start("broker", tansu, "broker", "--listener-url", "tcp://" + brokers, "--advertised-listener-url",
                "tcp://" + brokers, "--silent");
        waitFor("the broker", 20, () -> {
            try (Socket s = new Socket("127.0.0.1", brokerPort)) {
                return s.isConnected();
            } catch (IOException e) {
                return false;
            }
        }, () -> log("broker"));
        run(bin, "create-topics", "--brokers", brokers, "--partition-count", "1", "in", "out", "out.dead-letters", "changes");
        run(bin, "create-topics", "--brokers", brokers, "--partition-count", "1", "--compacted", "changes.latest");
        return brokers;
    }

    /**
     * A row's navigate action opened through a gateway with {@code --origin}: no page was published for it, and
     * the feed shows the state the gateway fetched from a local origin (scripts/test-origin.py) and compiled.
     */
    @Test public void aNavigateActionOpensTheStateItLeadsTo() throws Exception {
        String bin = env("LW_BIN");
        work = Files.createTempDirectory("layoutkit-android-origin");
        String brokers = broker(bin, env("LW_TANSU"));
        String target = "/search?Nf=product.endDate%7CGTEQ+1.7794944E12&Ntt=olive+oil&format=json&Ns=sku.activePrice%7C0";
        start("origin", "python3", "scripts/test-origin.py", "--port", "0", "--state", target + "=samples/search-page.json");
        Pattern listening = Pattern.compile("listening ([0-9]+)");
        final int[] originPort = {0};
        waitFor("the origin's port", 20, () -> {
            Matcher m = listening.matcher(log("origin"));
            if (m.find()) originPort[0] = Integer.parseInt(m.group(1));
            return originPort[0] > 0;
        }, () -> log("origin"));
        int port = gateway(bin, brokers, 0, "gateway", "--origin", "http://127.0.0.1:" + originPort[0], "--config",
                "config/default.yaml");
        final List<PageLayout.Step> steps = Collections.synchronizedList(new ArrayList<PageLayout.Step>());
        assertEquals(null, LayoutFeed.opening("http://127.0.0.1:" + port, "record", target, new HttpUrlConnector(2_000, 30_000), steps::add));
        LayoutFeed feed = LayoutFeed.opening("http://127.0.0.1:" + port, "navigate", target,
                new HttpUrlConnector(2_000, 30_000), steps::add);
        Thread thread = new Thread(() -> {
            try {
                feed.run();
            } catch (Exception e) {
                steps.clear();
            }
        }, "layout-feed-origin");
        thread.start();
        waitFor("the state's record", 60, () -> steps.size() >= 1, () -> log("gateway"));
        byte[] served = readAll(new java.net.URL(feed.url()).openStream());
        assertArrayEquals(served, steps.get(0).next.bytes());
        assertTrue(new String(served, StandardCharsets.UTF_8).contains("\"origin\":\"http://127.0.0.1:" + originPort[0] + target + "\""));
        feed.stop();
        thread.join(10_000);
    }

    @Test public void theFeedFollowsAPageAndResumesAcrossAGatewayRestart() throws Exception {
        String bin = env("LW_BIN"), tansu = env("LW_TANSU");
        work = Files.createTempDirectory("layoutkit-android-feed");
        String brokers = broker(bin, tansu);
        start("worker", bin, "serve", "--brokers", brokers, "--input", "in", "--output", "out", "--changes-topic",
                "changes", "--config", "config/default.yaml", "--http", "off", "--group", "android-feed",
                "--page-store", work.resolve("worker-state").toString(), "--consumer-property", "session.timeout.ms=2000",
                "--consumer-property", "heartbeat.interval.ms=300", "--consumer-property", "fetch.wait.max.ms=10");
        int port = gateway(bin, brokers, 0, "gateway-1");

        Watching watching = new Watching();
        final List<PageLayout.Step> steps = Collections.synchronizedList(new ArrayList<PageLayout.Step>());
        LayoutFeed feed = new LayoutFeed("http://127.0.0.1:" + port, "home", watching, steps::add, 200, 1_000);
        Thread thread = new Thread(() -> {
            try {
                feed.run();
            } catch (Exception e) {
                watching.seen.add("feed ended: " + e);
            }
        }, "layout-feed");
        thread.start();
        // The search page, then with one product renamed, then as it was: small change sets (a resumed stream is
        // sent the change sets it missed while they are smaller than the record, else the record).
        Path page = Path.of(env("LW_ROOT"), "samples", "search-page.json");
        String text = new String(Files.readAllBytes(page), StandardCharsets.UTF_8);
        String renamed = text.replaceFirst("Cocinero olive oil 500 ml", "Cocinero olive oil 500 ml, new label");
        assertTrue("the sample names the product", !renamed.equals(text));
        Path edited = Files.write(work.resolve("search-page-renamed.json"), renamed.getBytes(StandardCharsets.UTF_8));
        String[] samples = {page.toString(), edited.toString(), page.toString()};
        run(bin, "produce", "--brokers", brokers, "--topic", "in", "--key", "home", samples[0]);
        waitFor("the first record", 120, () -> steps.size() >= 1, () -> watching.seen + "\n" + log("worker"));
        run(bin, "produce", "--brokers", brokers, "--topic", "in", "--key", "home", samples[1]);
        waitFor("the second layout", 120, () -> steps.size() >= 2, watching.seen::toString);
        assertTrue(watching.seen.toString(), watching.seen.contains("event record") && watching.seen.contains("event change-set"));

        // The gateway stops; the page changes meanwhile; a gateway starts again on the same port and page store.
        Process first = processes.get(processes.size() - 1);
        first.destroy();
        assertTrue(first.waitFor(20, TimeUnit.SECONDS));
        int before = watching.seen.size();
        run(bin, "produce", "--brokers", brokers, "--topic", "in", "--key", "home", samples[2]);
        assertEquals(port, gateway(bin, brokers, port, "gateway-2"));
        waitFor("the third layout", 120, () -> steps.size() >= 3, watching.seen::toString);
        List<String> after = new ArrayList<>(watching.seen.subList(before, watching.seen.size()));
        // The request the new gateway answered carried the id of the last event taken (the second record's hash);
        // it answers with the change sets since then, or with the record when it has not read them yet.
        int answered = -1;
        for (int i = 0; i + 1 < after.size(); i++) {
            if (after.get(i).startsWith("GET home/changes") && after.get(i + 1).equals("status 200")) {
                answered = i;
                break;
            }
        }
        assertTrue("no stream answered after the restart: " + after, answered >= 0);
        String held = steps.get(1).next.hash().toString();
        assertTrue(after.get(answered), after.get(answered).startsWith("GET home/changes Last-Event-ID=" + held + "@"));
        byte[] served = readAll(new java.net.URL("http://127.0.0.1:" + port + "/v1/layouts/home").openStream());
        assertArrayEquals(served, feed.page().bytes());
        assertArrayEquals(served, steps.get(2).next.bytes());
        feed.stop();
        thread.join(10_000);
        assertTrue("the feed stopped", !thread.isAlive());
    }

    @After public void stopAll() throws InterruptedException {
        for (int i = processes.size() - 1; i >= 0; i--) {
            Process p = processes.get(i);
            p.destroy();
            if (!p.waitFor(20, TimeUnit.SECONDS)) p.destroyForcibly().waitFor();
        }
    }
}
