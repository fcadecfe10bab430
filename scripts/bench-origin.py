#!/usr/bin/env python3
"""Navigation states from an origin (`gateway --origin`, part of `make bench-e2e`), driven by scripts/bench-origin.sh:

  bench-origin.py GATEWAY_URL ORIGIN_URL GATEWAY_PID PUBLISHED_KEY STATES

1. A GET of an uncached 45 KB state over an origin answering in a fixed time (BENCH_ORIGIN_LATENCY_MS, default 20),
   against a GET of the same kind of state straight from that origin: rounds alternate, each on a new connection, and the
   figures are the gateway's percentiles minus the origin's (what the gateway adds).
2. A cached state's GETs per second against the published page's (wrk, alternating rounds, medians).
3. STATES distinct states requested (32 clients, keep-alive), with the gateway's peak RSS.
Prints one line per figure."""
import http.client, json, os, statistics, subprocess, sys, threading, time, urllib.parse, urllib.request

gateway, origin, pid, published, states = sys.argv[1:6]
pid, states = int(pid), int(states)
ROUNDS = int(os.environ.get("BENCH_ORIGIN_ROUNDS", "5"))
GETS = int(os.environ.get("BENCH_ORIGIN_GETS", "200"))


def path(state):
    return "/v1/layouts/" + urllib.parse.quote(state, safe="")


def timed_get(base, target):
    u = urllib.parse.urlsplit(base)
    c = http.client.HTTPConnection(u.hostname, u.port, timeout=30)
    t0 = time.perf_counter()
    c.request("GET", target)
    r = c.getresponse()
    body = r.read()
    t = time.perf_counter() - t0
    c.close()
    if r.status != 200:
        sys.exit(f"GET {base}{target}: {r.status} {body[:200]!r}")
    return t, len(body)


def pct(values, p):
    v = sorted(values)
    return v[min(len(v) - 1, int(round(p / 100 * (len(v) - 1))))]


def rss_kib(kind="VmRSS"):
    for line in open(f"/proc/{pid}/status"):
        if line.startswith(kind + ":"):
            return int(line.split()[1])
    return 0


def origin_latency(ms):
    urllib.request.urlopen(urllib.request.Request(origin + "/_control", data=json.dumps({"latency_ms": ms}).encode()))


# 1. Uncached latency above the origin's own.
LATENCY = int(os.environ.get("BENCH_ORIGIN_LATENCY_MS", "20"))
origin_latency(LATENCY)
nginx = os.environ.get("BENCH_NGINX")
n = 0
through, kept, direct, proxied = [], [], [], []
size = 0
g = urllib.parse.urlsplit(gateway)
app = http.client.HTTPConnection(g.hostname, g.port, timeout=30)  # an app's kept-alive connection


def kept_get(target):
    t0 = time.perf_counter()
    app.request("GET", target)
    r = app.getresponse()
    r.read()
    if r.status != 200:
        sys.exit(f"GET {target} (kept alive): {r.status}")
    return time.perf_counter() - t0


for _ in range(ROUNDS):
    for _ in range(GETS // ROUNDS):
        n += 1
        t, size = timed_get(gateway, path(f"/search/_/N-lat{n}?format=json"))
        through.append(t)
        kept.append(kept_get(path(f"/search/_/N-kept{n}?format=json")))
        t, _ = timed_get(origin, f"/search/_/N-lat{n}?format=json&direct")
        direct.append(t)
        if nginx:
            t, _ = timed_get(nginx, f"/search/_/N-lat{n}?format=json&nginx")
            proxied.append(t)
ms = lambda s: f"{s * 1000:.2f} ms"
origin_latency(0)
print(f"uncached state ({size:,} B record, origin answering in {LATENCY} ms) through the gateway: p50 {ms(pct(through, 50))}, p99 {ms(pct(through, 99))}; "
      f"the origin alone: p50 {ms(pct(direct, 50))}, p99 {ms(pct(direct, 99))}; "
      f"above the origin: p50 {ms(pct(through, 50) - pct(direct, 50))}, p99 {ms(pct(through, 99) - pct(direct, 99))} "
      f"({len(through)} GETs each, alternating, a new connection each)")
print(f"  the same over one kept-alive connection to the gateway (as an app or a CDN holds it): above the origin "
      f"p50 {ms(pct(kept, 50) - pct(direct, 50))}, p99 {ms(pct(kept, 99) - pct(direct, 99))}")
if proxied:
    print(f"  the floor of a proxy hop, nginx passing the same origin through (no compile): above the origin p50 "
          f"{ms(pct(proxied, 50) - pct(direct, 50))}, p99 {ms(pct(proxied, 99) - pct(direct, 99))}")

# 2. A cached state's GETs per second against the published page's (wrk: 2 threads, 16 connections; wrk and the
# gateway share the machine's 2 cores on both sides).
cached = path("/search/_/N-cached?format=json")
timed_get(gateway, cached)


def wrk(target):
    out = subprocess.run(["wrk", "-t2", "-c16", "-d4s", gateway + target], capture_output=True, text=True).stdout
    for line in out.splitlines():
        if line.startswith("Requests/sec:"):
            return float(line.split()[1])
    sys.exit("wrk said: " + out)


pub, got = [], []
for _ in range(ROUNDS):
    pub.append(wrk(path(published)))
    got.append(wrk(cached))
ratios = [g / p for g, p in zip(got, pub)]
print(f"cached state GETs/s: median {statistics.median(got):,.0f} against the published page's "
      f"{statistics.median(pub):,.0f}: {statistics.median(ratios):.2f}x (rounds: "
      + ", ".join(f"{g:,.0f}/{p:,.0f}" for g, p in zip(got, pub)) + ")")

# 3. Many distinct states: the gateway's memory stays within its budgets.
base_rss = rss_kib()
lock = threading.Lock()
counter = [0]
failures = [0]
peak = [base_rss]


def client():
    u = urllib.parse.urlsplit(gateway)
    c = http.client.HTTPConnection(u.hostname, u.port, timeout=30)
    while True:
        with lock:
            if counter[0] >= states:
                break
            counter[0] += 1
            i = counter[0]
        c.request("GET", path(f"/search/_/N-m{i}?format=json"))
        r = c.getresponse()
        r.read()
        if r.status != 200:
            with lock:
                failures[0] += 1
        if r.getheader("connection", "").lower() == "close":
            c.close()
            c = http.client.HTTPConnection(u.hostname, u.port, timeout=30)


def sample():
    while counter[0] < states:
        peak[0] = max(peak[0], rss_kib())
        time.sleep(0.2)


t0 = time.perf_counter()
threads = [threading.Thread(target=client) for _ in range(32)]
watcher = threading.Thread(target=sample)
for t in threads + [watcher]:
    t.start()
for t in threads + [watcher]:
    t.join()
elapsed = time.perf_counter() - t0
metrics = urllib.request.urlopen(os.environ["BENCH_GATEWAY_OPS"] + "/metrics").read().decode() \
    if os.environ.get("BENCH_GATEWAY_OPS") else ""
held = next((l.split()[-1] for l in metrics.splitlines() if l.startswith("layout_gateway_origin_held_bytes ")), "?")
print(f"{states:,} distinct states in {elapsed:.1f} s ({states / elapsed:,.0f}/s, {failures[0]} not 200): gateway RSS "
      f"{base_rss // 1024} MiB before, peak {max(peak[0], rss_kib('VmHWM')) // 1024} MiB "
      f"(VmHWM {rss_kib('VmHWM') // 1024} MiB), states held {float(held) / 2**20 if held != '?' else 0:.1f} MiB")
