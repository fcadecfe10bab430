"""The gateway load client (scripts/bench-gateway.sh): asyncio, stdlib only, loopback only."""
import asyncio, os, statistics, subprocess, sys, time

url, streams, keys, rounds, gateway_pid, binary, broker, topic, work = sys.argv[1:]
streams, keys, rounds, gateway_pid = int(streams), int(keys), int(rounds), int(gateway_pid)
host, port = url.removeprefix("http://").split(":")
port = int(port)


def rss_kib(pid, field):
    for line in open(f"/proc/{pid}/status"):
        if line.startswith(field + ":"):
            return int(line.split()[1])
    return 0


class Stream:
    def __init__(self, key):
        self.key, self.buffer, self.arrivals, self.got_record = key, b"", [], False

    async def run(self, ready):
        reader, writer = await asyncio.open_connection(host, port)
        writer.write(f"GET /v1/layouts/{self.key}/changes HTTP/1.1\r\nHost: x\r\n\r\n".encode())
        await writer.drain()
        while True:
            chunk = await reader.read(1 << 16)
            if not chunk:
                return
            now = time.monotonic()
            self.buffer += chunk
            # Events end with a blank line; a change set is counted when its last byte arrived.
            while True:
                end = self.buffer.find(b"\n\n")
                if end < 0:
                    break
                block, self.buffer = self.buffer[:end], self.buffer[end + 2:]
                if not (b"event: record" in block or b"event: change-set" in block):
                    continue
                if not self.got_record:
                    self.got_record = True
                    ready_one(ready)
                else:
                    # A change set (or, for a stream that fell behind, the record): the page's new version.
                    self.arrivals.append(now)


opened = 0


def ready_one(ready):
    global opened
    opened += 1
    if opened == streams and not ready.done():
        ready.set_result(True)


async def get_rate(path, headers, seconds=5.0, connections=16):
    """Requests per second over keep-alive connections."""
    done = 0
    stop = time.monotonic() + seconds
    request = f"GET {path} HTTP/1.1\r\nHost: x\r\n{headers}\r\n".encode()

    async def worker():
        nonlocal done
        reader, writer = await asyncio.open_connection(host, port)
        while time.monotonic() < stop:
            writer.write(request)
            await writer.drain()
            head = await reader.readuntil(b"\r\n\r\n")
            length = 0
            for line in head.split(b"\r\n"):
                if line.lower().startswith(b"content-length:"):
                    length = int(line.split(b":")[1])
            if length:
                await reader.readexactly(length)
            done += 1
        writer.close()

    start = time.monotonic()
    await asyncio.gather(*(worker() for _ in range(connections)))
    return done / (time.monotonic() - start)


async def main():
    loop = asyncio.get_running_loop()
    ready = loop.create_future()
    all_streams = [Stream(f"page-{i % keys}") for i in range(streams)]
    tasks = [asyncio.create_task(s.run(ready)) for s in all_streams]
    await asyncio.wait_for(ready, 120)
    rss_idle = rss_kib(gateway_pid, "VmRSS")
    latencies = []
    for r in range(rounds):
        version = "b" if r % 2 == 0 else "a"
        marks = [len(s.arrivals) for s in all_streams]
        files = sorted(os.listdir(os.path.join(work, version)))
        t0 = time.monotonic()
        await asyncio.to_thread(
            subprocess.run,
            [binary, "produce", "--brokers", broker, "--topic", topic] + [os.path.join(work, version, f) for f in files],
            check=True, stdout=subprocess.DEVNULL)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and any(len(s.arrivals) == m for s, m in zip(all_streams, marks)):
            await asyncio.sleep(0.01)
        missing = sum(1 for s, m in zip(all_streams, marks) if len(s.arrivals) == m)
        latencies += [(s.arrivals[m] - t0) * 1000 for s, m in zip(all_streams, marks) if len(s.arrivals) > m]
        print(f"round {r + 1}: {streams - missing}/{streams} streams got the change set", flush=True)
    rss_peak = rss_kib(gateway_pid, "VmHWM")
    latencies.sort()
    p = lambda q: latencies[min(len(latencies) - 1, int(q * len(latencies)))]
    import urllib.request
    with urllib.request.urlopen(f"{url}/v1/layouts/page-0") as r:
        etag = r.headers["ETag"]
    plain = await get_rate("/v1/layouts/page-0", "")
    cached = await get_rate("/v1/layouts/page-0", f"If-None-Match: {etag}\r\n")
    for t in tasks:
        t.cancel()
    print(
        f"gateway: {streams} concurrent streams over {keys} pages, {rounds} rounds: change set produce-to-client "
        f"p50 {p(0.5):.0f} ms, p99 {p(0.99):.0f} ms ({len(latencies)} deliveries); gateway RSS {rss_idle // 1024} MiB "
        f"with the streams open, peak {rss_peak // 1024} MiB; GET {plain:,.0f} requests/s (45 KB record), "
        f"{cached:,.0f} requests/s with If-None-Match (304)")


asyncio.run(main())
