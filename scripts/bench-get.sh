#!/usr/bin/env bash
# GET /v1/layouts/{key} against nginx serving the same bytes (part of `make bench-e2e`; runs alone too). One page,
# the 45 KB search page's record, published on the latest-layout topic; the gateway serves it, and nginx serves the
# record's bytes as a static file (`etag on`, `sendfile on`, no access log, as many workers as the gateway has
# event loops: the machine's cores). `wrk -t2 -c16 -d${BENCH_GET_SECONDS}s`, no gzip asked: a plain GET (200) and a
# GET with the answer's own ETag in If-None-Match (304), alternating gateway / nginx for ROUNDS rounds in one run;
# the figures are medians, the ratios the medians of each round's ratio. With BENCH_BASE_BIN=<layout-worker of
# another revision>, that binary's gateway is measured in the same rounds (before / after). Everything (wrk, the
# servers) shares the machine's cores alike. Loopback only, release build.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
bin="${BENCH_BIN:-$root/.build/release/layout-worker}"
base="${BENCH_BASE_BIN:-}"
ROUNDS="${BENCH_GET_ROUNDS:-3}" SECONDS_EACH="${BENCH_GET_SECONDS:-8}"
# shellcheck source=scripts/gateway-scripts.sh
. scripts/gateway-scripts.sh
scripts/ensure-debian-packages.sh wrk nginx
bench_setup get
t="get-$$"
publish_search_page page "$work/record.json"

start_gateway() {  # binary, name; sets url_<name>
  "$1" "${page_gateway[@]}" > "$work/$2.out" 2> "$root/.run/bench-get-$2.log" &
  pids+=($!)
  wait_for "the $2 gateway to be ready" 60 gateway_ready "$work/$2.out"
  printf -v "url_$2" '%s' "$gateway_api/v1/layouts/page"
}
start_gateway "$bin" gateway
[ -z "$base" ] || start_gateway "$base" base

# nginx on the record's bytes, as the gateway sends them.
# nginx's workers run as another user when it starts as root: the files must be theirs to read.
chmod 755 "$work"
mkdir -p "$work/nginx/html/v1/layouts"
curl -sf "$url_gateway" -o "$work/nginx/html/v1/layouts/page"
nginx_port="$(free_port)"
nginx_static_conf "$work/nginx" "$nginx_port" "worker_processes $(nproc);"
/usr/sbin/nginx -e "$work/nginx/error.log" -p "$work/nginx" -c "$work/nginx/nginx.conf" -g "daemon off;" &
pids+=($!)
url_nginx="http://127.0.0.1:$nginx_port/v1/layouts/page"
wait_for "nginx to answer" 10 curl -sf -o /dev/null "$url_nginx"
cmp -s <(curl -sf "$url_nginx") <(curl -sf "$url_gateway") || { echo "nginx and the gateway send different bytes"; exit 1; }

runs="$work/runs.txt"; : > "$runs"
one() {  # side, kind (get|304); appends "side kind requests/s"
  local url_var="url_$1" etag=() status
  [ "$2" = 304 ] && etag=(-H "If-None-Match: $(etag_of "${!url_var}")")
  status="$(curl -s -o /dev/null -w '%{http_code}' "${etag[@]}" "${!url_var}")"
  [ "$status" = "$([ "$2" = 304 ] && echo 304 || echo 200)" ] || { echo "$1 answered $status to a $2 request"; exit 1; }
  echo "$1 $2 $(wrk -t2 -c16 -d"${SECONDS_EACH}s" "${etag[@]}" "${!url_var}" | awk '/^Requests\/sec/ {print $2}')" >> "$runs"
}
sides=(gateway nginx); [ -z "$base" ] || sides=(gateway nginx base)
for _ in $(seq 1 "$ROUNDS"); do
  for kind in get 304; do for side in "${sides[@]}"; do one "$side" "$kind"; done; done
done
python3 - "$runs" "$(wc -c < "$work/record.json")" "$(nproc)" <<'PY'
import statistics, sys
runs = {}
for line in open(sys.argv[1]):
    side, kind, value = line.split()
    runs.setdefault((side, kind), []).append(float(value))
med = statistics.median
print(f"GET one {int(sys.argv[2]):,}-byte record, wrk -t2 -c16, no gzip; gateway ({sys.argv[3]} event loops) against "
      f"nginx ({sys.argv[3]} workers, the same bytes as a static file, etag on); everything on {sys.argv[3]} cores:")
print("| answer | gateway requests/s | nginx requests/s | gateway / nginx (floor 0.8×) |" +
      (" base gateway requests/s | base / nginx |" if ("base", "get") in runs else ""))
print("|---|---|---|---|" + ("---|---|" if ("base", "get") in runs else ""))
for kind, label in (("get", "200 (the record)"), ("304", "304 (If-None-Match)")):
    g, n = runs[("gateway", kind)], runs[("nginx", kind)]
    ratio = med(a / b for a, b in zip(g, n))
    row = f"| {label} | {med(g):,.0f} | {med(n):,.0f} | {ratio:.2f}× ({', '.join(f'{a / b:.2f}' for a, b in zip(g, n))}) |"
    if ("base", kind) in runs:
        b = runs[("base", kind)]
        row += f" {med(b):,.0f} | {med(x / y for x, y in zip(b, n)):.2f}× |"
    print(row)
PY
