#!/usr/bin/env bash
# User-space instructions per GET of one record, counted by valgrind's callgrind: the gateway's, and nginx's serving
# the same bytes as a static file (one process, `etag on`). Unlike requests/s (scripts/bench-get.sh), the count does
# not move with the machine's load, so a change to the GET path shows in it at once. One page, the 45 KB search
# page's record; for each server a plain GET (200) and one with the answer's own ETag (304): `wrk -t1 -c4` for 2 s
# uncounted, then PROFILE_GET_SECONDS (5) counted; instructions over the requests wrk counted in that time (every
# thread of the server, the Kafka client's included). With BENCH_BASE_BIN=<layout-worker of another revision>,
# that binary's gateway too. Release build (valgrind reads a copy without debug information: 3.19 cannot read
# Swift 6's). Instructions are not time: the kernel's share (the socket calls, about half of a 304's CPU) is not
# counted. Loopback only.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
bin="${BENCH_BIN:-$root/.build/release/layout-worker}"
base="${BENCH_BASE_BIN:-}"
SECONDS_EACH="${PROFILE_GET_SECONDS:-5}"
# shellcheck source=scripts/gateway-scripts.sh
. scripts/gateway-scripts.sh
scripts/ensure-debian-packages.sh valgrind wrk nginx
bench_setup profile-get
t="profile-get-$$"
publish_search_page page "$work/record.json"
chmod 755 "$work"

# Counts the instructions of the process PID (started under callgrind, its output files "$work/cg.NAME.*") over a
# load of URL; appends "NAME KIND instructions-per-request" to $work/counts.txt.
count() {  # name, pid, url, kind (200|304)
  local etag=() out requests
  [ "$4" = 304 ] && etag=(-H "If-None-Match: $(etag_of "$3")")
  wrk -t1 -c4 -d2s "${etag[@]}" "$3" >/dev/null
  callgrind_control -z "$2" >/dev/null 2>&1
  callgrind_control -i on "$2" >/dev/null 2>&1
  out="$(wrk -t1 -c4 -d"${SECONDS_EACH}s" "${etag[@]}" "$3")"
  callgrind_control -i off "$2" >/dev/null 2>&1
  requests="$(awk '/requests in/ {print $1}' <<< "$out")"
  callgrind_control -d "$2" >/dev/null 2>&1  # the only dump there is: each is removed once summed
  local total
  total="$(cat "$work/cg.$1".* 2>/dev/null | awk '/^totals:/ {s += $2} END {print s + 0}')"
  rm -f "$work/cg.$1".*
  [ "$total" -gt 0 ] && [ "${requests:-0}" -gt 0 ] || { echo "no count for $1 $4 (callgrind wrote nothing?)"; exit 1; }
  echo "$1 $4 $((total / requests))" >> "$work/counts.txt"
}

callgrind=(valgrind --tool=callgrind --instr-atstart=no --dump-line=no --compress-strings=no)
profile_gateway() {  # binary, name
  strip -g -o "$work/$2.bin" "$1"
  "${callgrind[@]}" --callgrind-out-file="$work/cg.$2.%p" "$work/$2.bin" "${page_gateway[@]}" \
    > "$work/$2.out" 2> "$root/.run/profile-get-$2.log" &
  local pid=$!
  pids+=("$pid")
  wait_for "the $2 gateway (under valgrind) to be ready" 120 gateway_ready "$work/$2.out"
  for kind in 200 304; do count "$2" "$pid" "$gateway_api/v1/layouts/page" "$kind"; done
  kill "$pid"; wait "$pid" 2>/dev/null || true
}

: > "$work/counts.txt"
profile_gateway "$bin" gateway
[ -z "$base" ] || profile_gateway "$base" base

# nginx, one process (no master), on the record's bytes as they were published.
mkdir -p "$work/nginx/html/v1/layouts"
cp "$work/record.json" "$work/nginx/html/v1/layouts/page"
nginx_port="$(free_port)"
nginx_static_conf "$work/nginx" "$nginx_port" "daemon off; master_process off; worker_processes 1;"
"${callgrind[@]}" --callgrind-out-file="$work/cg.nginx.%p" /usr/sbin/nginx -e "$work/nginx/error.log" -p "$work/nginx" \
  -c "$work/nginx/nginx.conf" 2> "$root/.run/profile-get-nginx.log" &
nginx_pid=$!
pids+=("$nginx_pid")
wait_for "nginx (under valgrind) to answer" 60 curl -sf -o /dev/null "http://127.0.0.1:$nginx_port/v1/layouts/page"
for kind in 200 304; do count nginx "$nginx_pid" "http://127.0.0.1:$nginx_port/v1/layouts/page" "$kind"; done

python3 - "$work/counts.txt" <<'PY'
import sys
counts = {}
for line in open(sys.argv[1]):
    name, kind, value = line.split()
    counts[(name, kind)] = int(value)
names = [n for n in ("gateway", "base", "nginx") if (n, "200") in counts]
print("User-space instructions per GET of one record (callgrind; wrk -t1 -c4; the kernel's share not counted):")
print("| answer | " + " | ".join(names) + " | gateway / nginx |")
print("|---|" + "---|" * (len(names) + 1))
for kind, label in (("200", "200 (the record)"), ("304", "304 (If-None-Match)")):
    row = " | ".join(f"{counts[(n, kind)]:,}" for n in names)
    print(f"| {label} | {row} | {counts[('gateway', kind)] / counts[('nginx', kind)]:.1f}× |")
PY
