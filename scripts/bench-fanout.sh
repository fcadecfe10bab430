#!/usr/bin/env bash
# The gateway at scale (part of `make bench-e2e`; runs alone too): `serve --changes-topic` and one `gateway` on the
# test broker, then for each size in SIZES (default 10,000 and 18,000) that many event streams on one page, opened
# by C clients (scripts/bench-streams.c; at most 6,000 streams per process, each process from its own loopback
# address: a process may hold at most 20,000 descriptors here). ROUNDS times (default 7, one a second) the page's
# input is produced (scripts/bench-fanout-producer.c, alternating two versions of the 45 KB search page), and
# every stream's arrival of the change set is timed. Reports the gateway's RSS per stream, produce → first / p50 /
# p99 / last stream, first → last stream (the fan-out), and the hops from the gateway's histograms: produce →
# change set read by the gateway, → written to a stream. Medians over the rounds. Loopback only, release build;
# the clients, the worker, the gateway and the broker share this machine's cores.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
bin="${BENCH_BIN:-$root/.build/release/layout-worker}"
SIZES="${BENCH_FANOUT_STREAMS:-10000 18000}" ROUNDS="${BENCH_FANOUT_ROUNDS:-7}" PER_PROCESS=6000
run="$root/.run"; mkdir -p "$run"
pc="$(scripts/ensure-librdkafka.sh 2>/dev/null | tail -n1)"
rpath=""; [ -d "$root/.deps/librdkafka/lib" ] && rpath="-Wl,-rpath,$root/.deps/librdkafka/lib"
gcc -O2 -o "$run/bench-streams" scripts/bench-streams.c
# shellcheck disable=SC2046
gcc -O2 -o "$run/bench-fanout-producer" scripts/bench-fanout-producer.c \
  $(PKG_CONFIG_PATH="$pc" pkg-config --cflags --libs rdkafka) $rpath
# shellcheck source=scripts/gateway-scripts.sh
. scripts/gateway-scripts.sh
bench_setup fanout
t="fan-$$"
"$bin" create-topics --brokers "$broker" --partitions 1 "$t-in" "$t-out" "$t-dlq" "$t-changes" >/dev/null
"$bin" create-topics --brokers "$broker" --partitions 1 --compacted "$t-latest" >/dev/null
serve_ops="127.0.0.1:$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')"
"$bin" serve --brokers "$broker" --input "$t-in" --output "$t-out" --dead-letter "$t-dlq" --group "$t" \
  --changes-topic "$t-changes" --state-topic "$t-latest" --state-dir "$work/serve-store" --http "$serve_ops" \
  --log-format json --consumer-property session.timeout.ms=6000 --consumer-property heartbeat.interval.ms=1000 \
  ${BENCH_SERVE_ARGS:-} 2> "$run/bench-fanout-serve.log" &
pids+=($!)
page_versions "$work"
"$run/bench-fanout-producer" "$broker" "$t-in" fan "$work/a.json" "$work/b.json" 1 0 >/dev/null
rss_kib() { awk '/^VmRSS:/ {print $2}' "/proc/$1/status"; }

echo "| streams | processes | gateway RSS before → with streams | RSS per stream | produce → first | → p50 | → p99 | → last | first → last |"
echo "|---|---|---|---|---|---|---|---|---|"
hops="$work/hops.md"
echo "| streams | produce → record acknowledged (serve) | → change set read (gateway) | → written to a stream (gateway) | → read by a client | one event's writes per event loop, first → last (gateway) |" > "$hops"
echo "|---|---|---|---|---|---|" >> "$hops"
for size in $SIZES; do
  "$bin" gateway --brokers "$broker" --changes-topic "$t-changes" --state-topic "$t-latest" --port 0 \
    --http 127.0.0.1:0 --state-dir "$work/gateway-store-$size" --log-format json \
    > "$work/gateway-$size.out" 2> "$run/bench-fanout-gateway-$size.log" &
  gw=$!
  pids+=($gw)
  for _ in $(seq 1 300); do
    gateway_urls "$work/gateway-$size.out"
    api="${gateway_api##*:}" ops="$gateway_ops"
    [ -n "$ops" ] && [ "$(curl -s -o /dev/null -w '%{http_code}' "$gateway_api/v1/layouts/fan")" = 200 ] && break
    sleep 0.2
  done
  sleep 1
  before=$(rss_kib "$gw")
  procs=$(( (size + PER_PROCESS - 1) / PER_PROCESS ))
  each=$(( size / procs ))
  clients=()
  for i in $(seq 1 "$procs"); do
    nice -n "${BENCH_CLIENT_NICE:-0}" "$run/bench-streams" "127.0.0.$((10 + i))" 127.0.0.1 "$api" /v1/layouts/fan/changes "$each" "$ROUNDS" 60 \
      "$work/arrivals-$size-$i" > "$work/ready-$size-$i" 2> "$work/client-$size-$i.log" &
    clients+=($!)
    pids+=($!)
  done
  for _ in $(seq 1 600); do
    [ "$(cat "$work"/ready-"$size"-* 2>/dev/null | grep -c ready)" = "$procs" ] && break
    sleep 0.2
  done
  # The gateway gives freed heap pages back every 10 s (what the connections' requests left): its steady state.
  sleep 11
  with=$(rss_kib "$gw")
  following=$(curl -s "$ops/metrics" | awk '/^layout_gateway_streams / {print int($2)}')
  # BENCH_PERF=1: a CPU profile of the gateway during the rounds, in .run/bench-fanout-SIZE.perf.
  [ -z "${BENCH_STRACE:-}" ] || { timeout "$ROUNDS" strace -f -c -p "$gw" -o "$run/bench-fanout-$size.strace" & }
  [ -z "${BENCH_PERF:-}" ] || { perf record -F 999 -g -p "$gw" -o "$run/bench-fanout-$size.perf" -- sleep "$ROUNDS" \
    >/dev/null 2>&1 & }
  "$run/bench-fanout-producer" "$broker" "$t-in" fan "$work/b.json" "$work/a.json" "$ROUNDS" 1000 \
    > "$work/produced-$size"
  for c in "${clients[@]}"; do wait "$c" || true; done
  curl -s "$ops/metrics" > "$work/metrics-$size"
  curl -s "http://$serve_ops/metrics" >> "$work/metrics-$size"
  python3 - "$work" "$size" "$procs" "$before" "$with" "$following" "$hops" <<'PY'
import glob, statistics, sys
work, size, procs, before, with_, following = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5]), int(sys.argv[6] or 0)
hops = sys.argv[7]
produced = {int(r): int(ns) for r, ns in (line.split() for line in open(f"{work}/produced-{size}"))}
arrivals = {}
for path in glob.glob(f"{work}/arrivals-{size}-*"):
    for line in open(path):
        _, r, ns = line.split()
        arrivals.setdefault(int(r), []).append(int(ns))
rows = []
for r, t0 in sorted(produced.items()):
    got = sorted((ns - t0) / 1e6 for ns in arrivals.get(r, []))
    if not got:
        continue
    p = lambda q: got[min(len(got) - 1, int(q * len(got)))]
    rows.append((len(got), got[0], p(0.5), p(0.99), got[-1], got[-1] - got[0]))
med = lambda i: statistics.median(row[i] for row in rows) if rows else float("nan")
def quantiles(family):
    buckets, count, first = [], 0, 0
    for line in open(f"{work}/metrics-{size}"):
        if line.startswith(family + "_bucket"):
            le = line.split('le="')[1].split('"')[0]
            buckets.append((float("inf") if le == "+Inf" else float(le), float(line.split()[-1])))
        elif line.startswith(family + "_count"):
            count = float(line.split()[-1])
    # Buckets cumulate since the start; the rounds are what came after the first value (the page's first record).
    def q(x):
        for le, n in buckets:
            if count and n >= x * count:
                return f"≤ {le * 1000:.0f}" if le != float("inf") else "> 60,000"
        return "n/a"
    return f"{q(0.5)} / {q(0.99)} ms"
complete = min((row[0] for row in rows), default=0)
rss_per = (with_ - before) * 1024 / max(1, following)
print(f"| {following:,} (every round reached {complete:,}) | {procs} | {before / 1024:.0f} → {with_ / 1024:.0f} MiB | {rss_per:,.0f} B | "
      f"{med(1):.1f} ms | {med(2):.1f} ms | {med(3):.1f} ms | {med(4):.1f} ms | **{med(5):.1f} ms** |")
with open(hops, "a") as f:
    f.write(f"| {following:,} | {quantiles('layout_worker_freshness_seconds')} | {quantiles('layout_gateway_change_set_freshness_seconds')} | "
            f"{quantiles('layout_gateway_stream_freshness_seconds')} | {med(2):.0f} / {med(3):.0f} ms | "
            f"{quantiles('layout_gateway_fanout_seconds')} |\n")
PY
  kill "$gw"; wait "$gw" 2>/dev/null || true
done
echo
echo "Medians of $ROUNDS rounds (one change set a second). Per hop, p50 / p99 since the start (the histograms' bucket bounds; the clients' medians of rounds):"
echo
cat "$hops"
