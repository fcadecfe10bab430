#!/usr/bin/env bash
# The rolling restart in `make bench-state` (or alone: scripts/bench-rollout.sh), on a fresh test broker, release
# build. Three workers in one group (`serve --changes-topic`, each keeping its --page-store, as a StatefulSet's pods
# do) over PAGES pages (10,000) of the 45 KB sample, whose latest layouts are on the state topic; RATE (40)
# updates a second to random pages, alternating two responses. Each worker in turn gets SIGTERM, is started
# again, and the next goes once it is ready (/readyz) plus 5 s. Right before each worker, a bare consumer
# (scripts/bench-rollout.c: subscribe and poll, nothing else) with the same group settings is restarted the same way
# in a three-member group of its own on the same input topic: its rejoin is SIGTERM → its partitions assigned
# again. Reported: produce → record p50 / p99 / max over the whole run, updates over 2 s and lost ones, the
# bare consumer's rejoins, and per worker SIGTERM → exit, → partitions assigned, → ready.
# MEMBERSHIP=static gives each worker and bare member a group.instance.id (as deploy/kubernetes-stateful does).
# Prints one markdown table row (the header with HEADER=1).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
bin="${BENCH_BIN:-$root/.build/release/layout-worker}"
pages="${ROLLOUT_PAGES:-10000}" rate="${ROLLOUT_RATE:-40}" membership="${MEMBERSHIP:-dynamic}"
# shellcheck source=scripts/gateway-scripts.sh
. scripts/gateway-scripts.sh
tool="$(build_kafka_tool bench-rollout)" producer="$(build_kafka_tool bench-state-producer)"
work="$(mktemp -d "${TMPDIR:-/tmp}/lw-bench-rollout.XXXXXX")"
declare -A pid
cleanup() {
  for p in "${pid[@]}"; do kill "$p" 2>/dev/null || true; done
  for p in "${pid[@]}"; do wait "$p" 2>/dev/null || true; done
  [ -n "${KEEP:-}" ] || rm -rf "$work"
  scripts/broker.sh stop >/dev/null 2>&1 || true
}
trap cleanup EXIT
now() { date +%s.%N; }
since() { python3 -c "print(f'{$(now) - $1:.1f}')"; }

scripts/broker.sh stop >/dev/null 2>&1 || true
broker="$(scripts/broker.sh start)"
"$bin" create-topics --brokers "$broker" --partition-count 6 r-in r-out r-dlq r-changes >/dev/null
"$bin" create-topics --brokers "$broker" --partition-count 6 --compacted r-latest >/dev/null
"$bin" compile samples/search-page.json > "$work/record.json"
"$producer" "$broker" r-latest "$pages" "$work/record.json" r-in

# The same group settings for workers and bare members: a 6 s session (the test broker holds each join round for
# half the session timeout: 22 s with librdkafka's default of 45 s), plus the instance id if static.
group=(session.timeout.ms=6000 heartbeat.interval.ms=1000)
instance() { [ "$membership" = static ] && echo "group.instance.id=$1"; true; }

ports=()
start_worker() {  # index
  local i="$1" extra=() setting
  [ -n "${ports[$i]:-}" ] || ports[i]="$(free_port)"
  for setting in "${group[@]}" $(instance "worker-$i"); do extra+=(--consumer-property "$setting"); done
  "$bin" serve --brokers "$broker" --input r-in --output r-out --dead-letter r-dlq --group r-group \
    --changes-topic r-changes --latest-layout-topic r-latest --page-store "$work/state-$i" --http "127.0.0.1:${ports[$i]}" \
    --log-format json "${extra[@]}" ${ROLLOUT_WORKER_FLAGS:-} 2>> "$work/worker-$i.log" &
  pid[w$i]=$!
}
worker_ready() { curl -sf "http://127.0.0.1:${ports[$1]}/readyz" >/dev/null 2>&1; }
start_member() {  # index
  # shellcheck disable=SC2046
  "$tool" member "$broker" b-group r-in "${group[@]}" $(instance "bare-$1") > "$work/bare-$1.out" &
  pid[b$1]=$!
}
member_owns() { awk '$1 == "assigned" && $2 > 0 {found = 1} END {exit !found}' "$work/bare-$1.out"; }
member_assigned_at() { awk '$1 == "assigned" && $2 > 0 {print $3; exit}' "$work/bare-$1.out"; }
worker_assigned_at() {  # index, after epoch-s: when the worker's log first said "partitions assigned" after it
  python3 - "$work/worker-$1.log" "$2" <<'PY'
import json, sys, datetime
after = float(sys.argv[2])
for line in open(sys.argv[1]):
    try: entry = json.loads(line)
    except ValueError: continue
    if entry.get("message") != "partitions assigned": continue
    t = datetime.datetime.fromisoformat(entry["time"].replace("Z", "+00:00")).timestamp()
    if t > after: print(f"{t:.3f}"); break
PY
}
stop() { kill -TERM "${pid[$1]}"; wait "${pid[$1]}" 2>/dev/null || true; }

for i in 0 1 2; do start_worker "$i"; start_member "$i"; done
for i in 0 1 2; do wait_for "worker $i ready" 120 worker_ready "$i"; done
for i in 0 1 2; do wait_for "bare member $i assigned" 60 member_owns "$i"; done
"$tool" load "$broker" r-in r-out "$pages" "$rate" "$work/stop" samples/search-page.json samples/grouped-results.json \
  > "$work/load.out" &
pid[load]=$!
sleep 5
bare=() restarts=()
for i in 0 1 2; do
  t0="$(now)"; stop "b$i"; : > "$work/bare-$i.out"; start_member "$i"
  wait_for "bare member $i to rejoin" 120 member_owns "$i"
  bare+=("$(python3 -c "print(f'{$(member_assigned_at "$i") - $t0:.1f}')")")
  t0="$(now)"; stop "w$i"; exited="$(since "$t0")"; start_worker "$i"
  wait_for "worker $i ready again" 180 worker_ready "$i"; ready="$(since "$t0")"
  assigned="$(worker_assigned_at "$i" "$t0")"
  restarts+=("${exited} / $(python3 -c "print(f'{${assigned:-0} - $t0:.1f}')") / ${ready}")
  sleep 5
done
touch "$work/stop"
wait "${pid[load]}"; unset 'pid[load]'
read -r _ produced _ received _ lost _ p50 _ p99 _ max _ over2s < "$work/load.out"
if [ "${HEADER:-0}" = 1 ]; then
  echo "| membership | updates | produce → record p50 / p99 / max ms | over 2 s | lost | bare consumer rejoin s (3 restarts) | worker SIGTERM → exit / assigned / ready s |"
  echo "|---|---|---|---|---|---|---|"
fi
echo "| $membership | $produced ($received recorded) | $p50 / $p99 / $max | $over2s | $lost | ${bare[*]} | $(IFS=';'; echo "${restarts[*]}") |"
