#!/usr/bin/env bash
# The gateway under load (part of `make bench-e2e`; runs alone too): `serve --changes-topic` and one `gateway` on
# the test broker, STREAMS event streams (default 1,000) over KEYS pages (default 100), ROUNDS rounds in which
# every page gets a new version of the 45 KB search page. Reports produce-to-client latency of the change sets
# (from just before `produce` starts to the event's last byte at the client; p50/p99 over every stream and round),
# the gateway's RSS, and GET requests per second with and without If-None-Match. Loopback only, release build.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
bin="${BENCH_BIN:-$root/.build/release/layout-worker}"
STREAMS="${BENCH_STREAMS:-1000}" KEYS="${BENCH_KEYS:-100}" ROUNDS="${BENCH_GATEWAY_ROUNDS:-5}"
run="$root/.run"; mkdir -p "$run"
# shellcheck source=scripts/gateway-scripts.sh
. scripts/gateway-scripts.sh
bench_setup gateway
t="gw-$$"
"$bin" create-topics --brokers "$broker" --partition-count 3 "$t-in" "$t-out" "$t-dlq" "$t-changes" >/dev/null
"$bin" create-topics --brokers "$broker" --partition-count 3 --compacted "$t-latest" >/dev/null
"$bin" serve --brokers "$broker" --input "$t-in" --output "$t-out" --dead-letter "$t-dlq" --group "$t" \
  --changes-topic "$t-changes" --latest-layout-topic "$t-latest" --page-store "$work/serve-store" --http off --log-format json \
  --consumer-property session.timeout.ms=6000 --consumer-property heartbeat.interval.ms=1000 \
  --consumer-property fetch.wait.max.ms=10 2> "$run/bench-gateway-serve.log" &
pids+=($!)
"$bin" gateway --brokers "$broker" --changes-topic "$t-changes" --latest-layout-topic "$t-latest" --port 0 --http 127.0.0.1:0 \
  --page-store "$work/gateway-store" --log-format json > "$work/gateway.out" 2> "$run/bench-gateway.log" &
gateway_pid=$!
pids+=($gateway_pid)
# Two versions of the page, one file per key (a file's name is its key).
page_versions "$work"
mkdir -p "$work/a" "$work/b"
for k in $(seq 0 $((KEYS - 1))); do cp "$work/a.json" "$work/a/page-$k"; cp "$work/b.json" "$work/b/page-$k"; done
"$bin" produce --brokers "$broker" --topic "$t-in" "$work"/a/page-* >/dev/null
for _ in $(seq 1 300); do
  gateway_urls "$work/gateway.out"
  url="$gateway_api"
  [ -n "$gateway_ops" ] && curl -sf "$gateway_ops/readyz" >/dev/null 2>&1 && break
  sleep 0.2
done
python3 scripts/bench-gateway.py "$url" "$STREAMS" "$KEYS" "$ROUNDS" "$gateway_pid" "$bin" "$broker" "$t-in" "$work"
