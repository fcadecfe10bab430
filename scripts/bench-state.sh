#!/usr/bin/env bash
# `make bench-state` (and the end of `make bench-e2e`): the page store at a real site's size, on the test broker,
# loopback only, release build. For 100,000 pages of the 45 KB sample record and 1,000,000 pages of a 2 KB one
# (PAGES_LARGE / PAGES_SMALL change the counts), each on a fresh broker:
#   gateway: start to ready with an empty store (every page read from the topic) and its peak RSS meanwhile, and
#            with the warm store (only what its checkpoints miss), GET p50/p99 and requests/s for random keys with memory for 5% of the
#            pages (wrk, 2 threads, 16 connections, 15 s), RSS after the GETs and at its peak (the catch-up),
#            store bytes on disk per page;
#   worker:  assignment to its first record with an empty store and with the warm store (the log's elapsed-ms),
#            latest layouts read on assignment, peak RSS;
#   floor:   a bare librdkafka reader of the same topic with the gateway's fetch settings, doing nothing with what
#            it reads (scripts/bench-topic-read.c), and the broker's CPU while it reads and while the gateway
#            catches up with an empty store.
# Then a rolling restart of three workers under load beside a bare consumer's rejoin (scripts/bench-rollout.sh).
# Every process shares this machine's 2 cores with the broker and the load generator. Then the engine comparison
# (scripts/bench-store-engines.sh) that chose RocksDB.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
# shellcheck source=scripts/gateway-scripts.sh
. scripts/gateway-scripts.sh
bin="${BENCH_BIN:-$root/.build/release/layout-worker}"
"$root/scripts/ensure-debian-packages.sh" wrk librocksdb-dev pkg-config
producer="$(build_kafka_tool bench-state-producer)"
reader="$(build_kafka_tool bench-topic-read)"
work="$(mktemp -d "${TMPDIR:-/tmp}/lw-bench-state.XXXXXX")"
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  for p in "${pids[@]}"; do wait "$p" 2>/dev/null || true; done
  rm -rf "$work"
  scripts/broker.sh stop >/dev/null 2>&1 || true
}
trap cleanup EXIT
now() { date +%s.%N; }
# A process's CPU seconds so far (user + system).
cpu_s() { awk -v t="$(getconf CLK_TCK)" '{ printf "%.1f", ($14 + $15) / t }' "/proc/$1/stat"; }
rss_kb() { awk -v f="$2" '$1 == f ":" {print $2}' "/proc/$1/status"; }  # pid, VmRSS or VmHWM

# Starts the gateway on the store in $1 with memory for $2 bytes; sets gw_pid, gw_url, gw_ready_s (exec to /readyz).
start_gateway() {
  local dir="$1" held="$2" started
  started="$(now)"
  "${gw_bin:-$bin}" gateway --brokers "$broker" --changes-topic s-changes --latest-layout-topic s-latest --port 0 --http 127.0.0.1:0 \
    --page-store "$dir" --page-cache-bytes "$held" --log-format json > "$work/gw.out" 2> "$work/gw.log" &
  gw_pid=$!; pids+=("$gw_pid")
  gw_url="" gw_ops=""
  for _ in $(seq 1 36000); do
    [ -n "$gw_ops" ] || { gateway_urls "$work/gw.out"; gw_url="$gateway_api" gw_ops="$gateway_ops"; }
    if [ -n "$gw_ops" ] && curl -sf "$gw_ops/readyz" >/dev/null 2>&1; then break; fi
    sleep 0.1
  done
  gw_ready_s="$(python3 -c "print(f'{$(now) - $started:.1f}')")"
}
stop_gateway() { kill "$gw_pid"; wait "$gw_pid" 2>/dev/null || true; }
caught_up_read() { grep -o '"latest-layouts-read":[0-9]*' "$work/gw.log" | tail -n1 | cut -d: -f2; }

# Runs serve on the store in $1 until its first record; prints "elapsed-ms messages-read peak-rss-kb".
serve_once() {
  local dir="$1" log="$work/serve.log"
  /usr/bin/time -f "%M" -o "$work/serve.rss" "$bin" serve --brokers "$broker" --input s-in --output s-out \
    --dead-letter s-dlq --group s-group --changes-topic s-changes --latest-layout-topic s-latest --page-store "$dir" \
    --stop-after 1 --http off --log-format json --page-cache-bytes "$held" --consumer-property session.timeout.ms=2000 \
    --consumer-property heartbeat.interval.ms=300 --consumer-property fetch.wait.max.ms=10 2> "$log"
  echo "$(grep '"message":"stopped"' "$log" | grep -o '"elapsed-ms":[0-9]*' | cut -d: -f2)" \
    "$(grep -o '"messages-read":[0-9]*' "$log" | tail -n1 | cut -d: -f2)" "$(cat "$work/serve.rss")"
}

rows=()
base_cold=()
for spec in "${PAGES_LARGE:-100000} samples/search-page.json" "${PAGES_SMALL:-1000000} samples/empty-results.json"; do
  read -r pages sample <<< "$spec"
  scripts/broker.sh stop >/dev/null 2>&1 || true
  broker="$(scripts/broker.sh start)"
  "$bin" compile "$sample" > "$work/record.json"
  size="$(stat -c %s "$work/record.json")"
  "$bin" create-topics --brokers "$broker" --partition-count 6 s-in s-out s-dlq s-changes >/dev/null
  "$bin" create-topics --brokers "$broker" --partition-count 6 --compacted s-latest >/dev/null
  t0="$(now)"
  "$producer" "$broker" s-latest "$pages" "$work/record.json" s-in
  produce_s="$(python3 -c "print(f'{$(now) - $t0:.1f}')")"
  held=$((pages * size / 20))
  # The floor: the topic read by a bare reader with the fetch settings of TopicRangeReader (its `defaults:`, which
  # the gateway and the worker's rebuild read with; keep the two alike), the broker's CPU meanwhile.
  broker_pid="$(cat .run/broker.pid)"
  b0="$(cpu_s "$broker_pid")"
  read -r _ floor_read _ _ _ floor_s _ floor_cpu <<< "$("$reader" "$broker" s-latest 6 fetch.wait.max.ms=50 \
    queued.max.messages.kbytes=1024 fetch.queue.backoff.ms=1)"
  floor_broker="$(python3 -c "print(f'{$(cpu_s "$broker_pid") - $b0:.1f}')")"
  # The gateway: an empty store, then the same store warm.
  rm -rf "$work/gw-store"
  b0="$(cpu_s "$broker_pid")"
  start_gateway "$work/gw-store" "$held"
  cold_s="$gw_ready_s"; cold_read="$(caught_up_read)"
  cold_cpu="$(cpu_s "$gw_pid")"; cold_broker="$(python3 -c "print(f'{$(cpu_s "$broker_pid") - $b0:.1f}')")"
  cold_peak_mb="$(( $(rss_kb "$gw_pid" VmHWM) / 1024 ))"
  if [ -n "${BENCH_BASE_BIN:-}" ]; then  # the base binary's cold start on the same topic, right after
    stop_gateway
    rm -rf "$work/gw-base-store"
    gw_bin="$BENCH_BASE_BIN" start_gateway "$work/gw-base-store" "$held"
    base_cold+=("$pages pages: base binary ready in $gw_ready_s s, peak $(( $(rss_kb "$gw_pid" VmHWM) / 1024 )) MiB; this build $cold_s s, $cold_peak_mb MiB (limit $(( held / 1048576 + 150 )) MiB)")
    stop_gateway
    rm -rf "$work/gw-base-store"
    start_gateway "$work/gw-store" "$held"  # this build again on its filled store, for the GETs
  fi
  cat > "$work/random.lua" <<LUA
math.randomseed(7)
request = function()
  return wrk.format("GET", string.format("/v1/layouts/page-%07d", math.random(0, $pages - 1)))
end
LUA
  wrk -t2 -c16 -d15s --latency -s "$work/random.lua" "$gw_url" > "$work/wrk.txt"
  p50="$(awk '$1 == "50%" {print $2}' "$work/wrk.txt")"; p99="$(awk '$1 == "99%" {print $2}' "$work/wrk.txt")"
  rps="$(awk '/Requests\/sec/ {printf "%d", $2}' "$work/wrk.txt")"
  non2xx="$(awk '/Non-2xx/ {print $NF}' "$work/wrk.txt")"
  gw_rss_mb="$(( $(rss_kb "$gw_pid" VmRSS) / 1024 )) ($(( $(rss_kb "$gw_pid" VmHWM) / 1024 )))"
  stop_gateway
  disk="$(du -sb "$work/gw-store" | cut -f1)"
  start_gateway "$work/gw-store" "$held"
  warm_s="$gw_ready_s"; warm_read="$(caught_up_read)"
  stop_gateway
  # The worker: its first record with an empty store, then (a new input) with the warm store.
  "$bin" produce --brokers "$broker" --topic s-in --key page-0000001 "$sample" >/dev/null
  read -r w_cold_ms w_cold_read w_cold_rss <<< "$(serve_once "$work/worker-store")"
  "$bin" produce --brokers "$broker" --topic s-in --key page-0000002 "$sample" >/dev/null
  read -r w_warm_ms w_warm_read w_warm_rss <<< "$(serve_once "$work/worker-store")"
  w_disk="$(du -sb "$work/worker-store" | cut -f1)"
  limit_mb=$(( held / 1048576 + 150 ))
  rows+=("| $pages × $size B | $produce_s | $floor_s ($floor_read read; CPU $floor_cpu, broker $floor_broker) | $cold_s ($cold_read read; CPU $cold_cpu, broker $cold_broker) | $cold_peak_mb (≤ $limit_mb: $([ "$cold_peak_mb" -le "$limit_mb" ] && echo yes || echo NO)) | $warm_s ($warm_read read) | $p50 / $p99 | $rps${non2xx:+ ($non2xx non-2xx)} | $held | $gw_rss_mb | $((disk / pages)) | $w_cold_ms ms (${w_cold_read:-0} read) | $w_warm_ms ms (${w_warm_read:-0} read) | $((w_cold_rss / 1024)) / $((w_warm_rss / 1024)) (≤ $limit_mb: $([ "$((w_cold_rss / 1024))" -le "$limit_mb" ] && echo yes || echo NO)) | $((w_disk / pages)) |")
  rm -rf "$work/gw-store" "$work/worker-store"
done
echo
echo "## The page store at size (2 cores shared by broker, gateway or worker, and wrk)"
echo
echo "Latest layouts produced with compression.type=${BENCH_COMPRESSION:-lz4}, linger.ms=20. Memory budget: --page-cache-bytes (gateway) and --page-cache-bytes (worker), 5% of the pages."
echo
echo "| pages | produce s | floor: a bare reader of the topic s (CPU s) | gateway ready, empty store s (CPU s) | gateway peak RSS while catching up MiB (≤ budget + 150) | gateway ready, warm store s | GET random key p50 / p99 (memory for 5%) | GET/s | memory budget B | gateway RSS after the GETs (peak) MiB | gateway disk B/page | worker first record, empty store | worker first record, warm store | worker peak RSS MiB, empty / warm (≤ budget + 150) | worker disk B/page |"
echo "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"
for r in "${rows[@]}"; do echo "$r"; done
[ "${#base_cold[@]}" -eq 0 ] || { echo; echo "Cold starts, before and after (empty store, same topic, one after the other; the GETs above then ran on this build restarted on its filled store):"; printf '%s\n' "${base_cold[@]}"; }
echo
echo "## A rolling restart of three workers beside a bare consumer's rejoin (scripts/bench-rollout.sh)"
echo
scripts/broker.sh stop >/dev/null 2>&1 || true
HEADER=1 BENCH_BIN="$bin" "$root/scripts/bench-rollout.sh"
echo
echo "## Engines (scripts/bench-store-engines.sh)"
echo
LW_BIN="$bin" "$root/scripts/bench-store-engines.sh"
