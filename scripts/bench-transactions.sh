#!/usr/bin/env bash
# `make bench-transactions`: what exactly-once would cost the worker's Kafka path on the test broker (Tansu,
# in-memory, which runs the transactional protocol). scripts/bench-transactions.c reads COUNT (10,000) inputs of the
# 45 KB sample and writes a record, a latest layout and a change set per input, at-least-once (serve's path) or in
# KIP-447 transactions, at commit intervals of 100 ms and 1 s (serve's default). ROUNDS (5) alternating rounds of
# the two modes per interval, each in a fresh group; the median of each, and the ratio of the medians. One process
# and one core each side (the probe's loop is single-threaded; librdkafka's threads and the broker share the
# machine's 2 cores alike in both modes). Prints a markdown table.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
bin="${BENCH_BIN:-$root/.build/release/layout-worker}"
count="${TX_COUNT:-10000}" rounds="${TX_ROUNDS:-5}" intervals="${TX_INTERVALS:-100 1000}"
# shellcheck source=scripts/gateway-scripts.sh
. scripts/gateway-scripts.sh
probe="$(build_kafka_tool bench-transactions)" producer="$(build_kafka_tool bench-state-producer)"
work="$(mktemp -d "${TMPDIR:-/tmp}/lw-bench-tx.XXXXXX")"
cleanup() { rm -rf "$work"; scripts/broker.sh stop >/dev/null 2>&1 || true; }
trap cleanup EXIT

scripts/broker.sh stop >/dev/null 2>&1 || true
broker="$(scripts/broker.sh start)"
"$bin" create-topics --brokers "$broker" --partition-count 6 tx-in >/dev/null
"$bin" compile samples/search-page.json > "$work/record.json"
# A change set of one product's name (a few hundred bytes, as most steps are).
python3 -c 'import sys; s = open("samples/search-page.json").read(); i = s.index("\"displayName\""); j = s.index("\"", s.index("\"", i + 14) + 1); print(s[:j] + " (new)" + s[j:])' > "$work/changed.json"
"$bin" diff --responses samples/search-page.json "$work/changed.json" > "$work/change-set.json"
"$producer" "$broker" tx-in "$count" samples/search-page.json tx-in

median() { sort -n | awk '{v[NR] = $1} END {print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }
field() { awk -v k="$1" '{for (i = 1; i < NF; i++) if ($i == k) print $(i + 1)}'; }

echo "| commit interval | mode | inputs/s (median of $rounds) | transaction commit p50 / p99 ms | probe CPU s per 1,000 inputs |"
echo "|---|---|---|---|---|"
for interval in $intervals; do
  for round in $(seq 1 "$rounds"); do
    for mode in at-least-once transactional; do
      # A fresh output topic per run keeps the in-memory broker's footprint to one run's outputs.
      "$bin" create-topics --brokers "$broker" --partition-count 6 "tx-out-$interval-$round-$mode" >/dev/null
      "$probe" "$broker" "$mode" tx-in "tx-out-$interval-$round-$mode" "tx-$interval-$round-$mode" "$count" \
        "$interval" "$work/record.json" "$work/change-set.json" >> "$work/$interval-$mode.out"
      "$probe" "$broker" delete "tx-out-$interval-$round-$mode"
    done
  done
  declare -A rate=()
  for mode in at-least-once transactional; do
    out="$work/$interval-$mode.out"
    rate[$mode]="$(field rate < "$out" | median)"
    p50="$(field commit-p50-ms < "$out" | median)" p99="$(field commit-p99-ms < "$out" | median)"
    cpu="$(field cpu < "$out" | median)"
    [ "$mode" = transactional ] || p50="–" p99="–"
    echo "| $interval ms | $mode | ${rate[$mode]} | $p50 / $p99 | $(python3 -c "print(f'{$cpu * 1000 / $count:.3f}')") |"
  done
  echo "| $interval ms | transactional ÷ at-least-once | $(python3 -c "print(f'{${rate[transactional]} / ${rate[at-least-once]}:.2f}×')") | | |"
done
