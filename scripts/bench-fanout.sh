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
EVENT_BYTES=3950  # the floor's event: about the change set's SSE bytes (3.9 KB)
run="$root/.run"; mkdir -p "$run"
gcc -O2 -o "$run/bench-streams" scripts/bench-streams.c
gcc -O2 -pthread -o "$run/bench-fanout-floor" scripts/bench-fanout-floor.c
# shellcheck source=scripts/gateway-scripts.sh
. scripts/gateway-scripts.sh
produce_tool="$(build_kafka_tool bench-fanout-producer)"
bench_setup fanout
t="fan-$$"
"$bin" create-topics --brokers "$broker" --partition-count 1 "$t-in" "$t-out" "$t-dlq" "$t-changes" >/dev/null
"$bin" create-topics --brokers "$broker" --partition-count 1 --compacted "$t-latest" >/dev/null
serve_ops="127.0.0.1:$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')"
"$bin" serve --brokers "$broker" --input "$t-in" --output "$t-out" --dead-letter "$t-dlq" --group "$t" \
  --changes-topic "$t-changes" --latest-layout-topic "$t-latest" --page-store "$work/serve-store" --http "$serve_ops" \
  --log-format json --consumer-property session.timeout.ms=6000 --consumer-property heartbeat.interval.ms=1000 \
  ${BENCH_SERVE_ARGS:-} 2> "$run/bench-fanout-serve.log" &
pids+=($!)
page_versions "$work"
"$produce_tool" "$broker" "$t-in" fan "$work/a.json" "$work/b.json" 1 0 >/dev/null
rss_kib() { awk '/^VmRSS:/ {print $2}' "/proc/$1/status"; }

echo "| streams | processes | gateway RSS before → with streams | RSS per stream | produce → first | → p50 | → p99 | → last | first → last |"
echo "|---|---|---|---|---|---|---|---|---|"
hops="$work/hops.md"
echo "| streams | produce → record acknowledged (serve) | → change set read (gateway) | → written to a stream (gateway) | → read by a client | one event's writes per event loop, first → last (gateway) |" > "$hops"
echo "|---|---|---|---|---|---|" >> "$hops"
floor_table="$work/floor.md"
echo "| streams | fired → first stream (floor) | → p99 | → last | **first → last (floor)** | first → last (gateway) | gateway ÷ floor |" > "$floor_table"
echo "|---|---|---|---|---|---|---|" >> "$floor_table"
# COUNT streams per size from loopback addresses 127.0.0.(BASE+1)... to PORT, arrivals in WORK/PREFIX-SIZE-i.
start_clients() {
  local prefix="$1" port="$2" base="$3" each=$(( size / procs ))
  for i in $(seq 1 "$procs"); do
    nice -n "${BENCH_CLIENT_NICE:-0}" "$run/bench-streams" "127.0.0.$((base + i))" 127.0.0.1 "$port" \
      /v1/layouts/fan/changes "$each" "$ROUNDS" 60 "$work/$prefix-$size-$i" > "$work/ready-$size-$prefix-$i" \
      2> "$work/client-$size-$prefix-$i.log" &
    clients+=($!)
    pids+=($!)
  done
}
for size in $SIZES; do
  "$bin" gateway --brokers "$broker" --changes-topic "$t-changes" --latest-layout-topic "$t-latest" --port 0 \
    --http 127.0.0.1:0 --page-store "$work/gateway-store-$size" --log-format json \
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
  # The floor: the same clients' twins on a C server that only writes (scripts/bench-fanout-floor.c), fired between
  # the gateway's rounds; its streams wait idle while the gateway's rounds run, and the other way round.
  mkfifo "$work/fire-$size"
  "$run/bench-fanout-floor" 127.0.0.1 0 "$(nproc)" "$EVENT_BYTES" < "$work/fire-$size" > "$work/fired-$size" &
  floor=$!
  pids+=($floor)
  exec 7> "$work/fire-$size"
  for _ in $(seq 1 100); do grep -q '^port ' "$work/fired-$size" && break; sleep 0.1; done
  floor_port="$(awk '/^port / {print $2}' "$work/fired-$size")"
  clients=()
  start_clients arrivals "$api" 10
  start_clients floor-arrivals "$floor_port" 20
  for _ in $(seq 1 600); do
    [ "$(cat "$work"/ready-"$size"-* 2>/dev/null | grep -c ready)" = $((2 * procs)) ] && break
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
  "$produce_tool" "$broker" "$t-in" fan "$work/b.json" "$work/a.json" "$ROUNDS" 1000 \
    > "$work/produced-$size" &
  producer=$!
  sleep 0.5
  for _ in $(seq 1 "$ROUNDS"); do echo fire >&7; sleep 1; done
  wait "$producer"
  for c in "${clients[@]}"; do wait "$c" || true; done
  exec 7>&-
  sed -i '/^port /d' "$work/fired-$size"
  curl -s "$ops/metrics" > "$work/metrics-$size"
  curl -s "http://$serve_ops/metrics" >> "$work/metrics-$size"
  python3 scripts/bench-fanout-report.py gateway "$work" "$size" "$procs" "$before" "$with" "$following" "$hops"
  python3 scripts/bench-fanout-report.py floor "$work" "$size" "$floor_table"
  kill "$gw" "$floor" 2>/dev/null || true; wait "$gw" "$floor" 2>/dev/null || true
done
echo
echo "Medians of $ROUNDS rounds (one change set a second). Per hop, p50 / p99 since the start (the histograms' bucket bounds; the clients' medians of rounds):"
echo
cat "$hops"
echo
echo "The floor: the same event written by a C server with $(nproc) threads and nothing else to do, to as many streams"
echo "from the same clients, its rounds between the gateway's (medians of $ROUNDS):"
echo
cat "$floor_table"
