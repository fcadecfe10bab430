#!/usr/bin/env bash
# `make kill-storm`: the crash storm an operator would try, on a fresh test broker (Tansu, in-memory), release
# build. Three workers in one group (`serve --changes-topic --latest-layout-topic`, 6 partitions, each its own --page-store),
# STORM_SECONDS (70) of inputs at STORM_RATE (43) a second over STORM_KEYS (60) pages, alternating two responses
# (scripts/bench-rollout.c load), while every STORM_KILL_EVERY (6) seconds a random worker is SIGKILLed and started
# again (its --page-store kept). Then the group is waited on until it has committed every input, and every topic is
# read back (`layout-worker tail --format json`) and checked by scripts/kill-storm-check.py: inputs without a
# record, duplicate records, dead letters, and, per page, change sets in topic order (a base that is not the
# previous target: a missing step; an input before the page's last: back in time; the same step twice: repeated).
# Prints one markdown table row (the header with HEADER=1); exits 1 when an input or a step is missing or a page
# went back. (The kill loops in `make test` check the same on the mock cluster too, one worker at a time.)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
bin="${BENCH_BIN:-$root/.build/release/layout-worker}"
seconds="${STORM_SECONDS:-70}" rate="${STORM_RATE:-43}" keys="${STORM_KEYS:-60}" every="${STORM_KILL_EVERY:-6}"
# shellcheck source=scripts/gateway-scripts.sh
. scripts/gateway-scripts.sh
tool="$(build_kafka_tool bench-rollout)"
work="$(mktemp -d "${TMPDIR:-/tmp}/lw-kill-storm.XXXXXX")"
declare -A pid
cleanup() {
  for p in "${pid[@]}"; do kill -9 "$p" 2>/dev/null || true; done
  for p in "${pid[@]}"; do wait "$p" 2>/dev/null || true; done
  [ -n "${KEEP:-}" ] && echo "kill-storm: kept $work" >&2 || rm -rf "$work"
  scripts/broker.sh stop >/dev/null 2>&1 || true
}
trap cleanup EXIT

scripts/broker.sh stop >/dev/null 2>&1 || true
broker="$(scripts/broker.sh start)"
"$bin" create-topics --brokers "$broker" --partition-count 6 s-in s-out s-dlq s-changes >/dev/null
"$bin" create-topics --brokers "$broker" --partition-count 6 --compacted s-latest >/dev/null

# A 6 s session, as the rolling-restart bench uses: a killed member's partitions move within seconds.
ports=()
start_worker() {  # index
  local i="$1"
  [ -n "${ports[$i]:-}" ] || ports[i]="$(free_port)"
  "$bin" serve --brokers "$broker" --input s-in --output s-out --dead-letter s-dlq --group s-group \
    --changes-topic s-changes --latest-layout-topic s-latest --page-store "$work/state-$i" --http "127.0.0.1:${ports[$i]}" \
    --consumer-property session.timeout.ms=6000 --consumer-property heartbeat.interval.ms=1000 \
    --log-format json 2>> "$work/worker-$i.log" &
  pid[w$i]=$!
}
worker_ready() { curl -sf "http://127.0.0.1:${ports[$1]}/readyz" >/dev/null 2>&1; }

for i in 0 1 2; do start_worker "$i"; done
for i in 0 1 2; do wait_for "worker $i ready" 120 worker_ready "$i"; done
"$tool" load "$broker" s-in s-out "$keys" "$rate" "$work/stop" samples/search-page.json samples/grouped-results.json \
  > "$work/load.out" &
pid[load]=$!
started=$(date +%s) kills=0
while [ $(( $(date +%s) - started )) -lt "$seconds" ]; do
  sleep "$every"
  [ $(( $(date +%s) - started )) -lt "$seconds" ] || break
  i=$(( RANDOM % 3 ))
  kill -9 "${pid[w$i]}" 2>/dev/null || true
  wait "${pid[w$i]}" 2>/dev/null || true
  start_worker "$i"
  kills=$(( kills + 1 ))
done
touch "$work/stop"
wait "${pid[load]}" || true; unset 'pid[load]'

# Committed to the end: every partition's "lag 0" in the offsets command's lines, within 180 s.
committed() {
  "$bin" offsets --brokers "$broker" --group s-group --topic s-in --log-level error 2>/dev/null \
    | awk '$1 == "partition" {n++; if ($NF != "0" || $4 == "none,") lag = 1} END {exit !(n == 6 && !lag)}'
}
wait_for "the group to commit every input" 180 committed
for topic in s-in s-out s-dlq s-changes; do
  "$bin" tail --brokers "$broker" --topic "$topic" --format json --count 10000000 --timeout-ms 3000 \
    --log-level error > "$work/$topic.ndjson"
done
python3 scripts/kill-storm-check.py "$work" "$kills" "${HEADER:-0}"
