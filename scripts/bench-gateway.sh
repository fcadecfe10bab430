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
broker="$(scripts/broker.sh start)"
own_broker=""
[ -n "${BENCH_KEEP_BROKER:-}" ] || own_broker=1
work="$(mktemp -d "${TMPDIR:-/tmp}/lw-bench-gateway.XXXXXX")"
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  for p in "${pids[@]}"; do wait "$p" 2>/dev/null || true; done
  rm -rf "$work"
  [ -z "$own_broker" ] || scripts/broker.sh stop >/dev/null
}
trap cleanup EXIT
t="gw-$$"
"$bin" create-topics --brokers "$broker" --partitions 3 "$t-in" "$t-out" "$t-dlq" "$t-changes" >/dev/null
"$bin" create-topics --brokers "$broker" --partitions 3 --compacted "$t-latest" >/dev/null
"$bin" serve --brokers "$broker" --input "$t-in" --output "$t-out" --dead-letter "$t-dlq" --group "$t" \
  --changes-topic "$t-changes" --state-topic "$t-latest" --state-dir "$work/serve-store" --http off --log-format json \
  --consumer-property session.timeout.ms=6000 --consumer-property heartbeat.interval.ms=1000 \
  --consumer-property fetch.wait.max.ms=10 2> "$run/bench-gateway-serve.log" &
pids+=($!)
"$bin" gateway --brokers "$broker" --changes-topic "$t-changes" --state-topic "$t-latest" --port 0 --http 127.0.0.1:0 \
  --state-dir "$work/gateway-store" --log-format json > "$work/gateway.out" 2> "$run/bench-gateway.log" &
gateway_pid=$!
pids+=($gateway_pid)
# Two versions of the page (the later one: two products gone, one moved, a price changed), one file per key.
python3 - "$work" "$KEYS" <<'PY'
import json, os, sys
work, keys = sys.argv[1], int(sys.argv[2])
page = json.load(open("samples/search-page.json"))
later = json.loads(json.dumps(page))
records = later["contents"][0]["MainContent"][0]["contents"][2]["records"]
del records[3]; del records[1]
records.insert(0, records.pop())
records[2]["attributes"]["sku.activePrice"] = ["0.99"]
for name, doc in (("a", page), ("b", later)):
    os.makedirs(os.path.join(work, name), exist_ok=True)
    text = json.dumps(doc, separators=(",", ":"))
    for k in range(keys):
        open(os.path.join(work, name, f"page-{k}"), "w").write(text)
PY
"$bin" produce --brokers "$broker" --topic "$t-in" "$work"/a/page-* >/dev/null
url="" ops=""
for _ in $(seq 1 300); do
  url="$(grep -oE '^gateway: http://127\.0\.0\.1:[0-9]+' "$work/gateway.out" | cut -c10- || true)"
  ops="$(grep -oE '^gateway ops: http://127\.0\.0\.1:[0-9]+' "$work/gateway.out" | cut -c14- || true)"
  [ -n "$ops" ] && curl -sf "$ops/readyz" >/dev/null 2>&1 && break
  sleep 0.2
done
python3 scripts/bench-gateway.py "$url" "$STREAMS" "$KEYS" "$ROUNDS" "$gateway_pid" "$bin" "$broker" "$t-in" "$work"
