#!/usr/bin/env bash
# Navigation states from an origin (part of `make bench-e2e`; runs alone too): a gateway with --origin over a local
# origin (scripts/test-origin.py answering the 45 KB search page for every state), and a published page beside it.
# Reports what the gateway adds to an uncached state's GET over an origin answering in 20 ms, a cached state's
# GETs per second against the published page's, and the gateway's memory with BENCH_ORIGIN_STATES (default 100,000)
# distinct states requested (scripts/bench-origin.py). Loopback only, release build.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
bin="${BENCH_BIN:-$root/.build/release/layout-worker}"
"$root/scripts/ensure-debian-packages.sh" wrk nginx
STATES="${BENCH_ORIGIN_STATES:-100000}"
HELD=100000000 ORIGIN_HELD=67108864
# shellcheck source=scripts/gateway-scripts.sh
. scripts/gateway-scripts.sh
bench_setup origin
t="origin-$$"
publish_search_page published "$work/published.json"
python3 scripts/test-origin.py --port 0 --any samples/search-page.json > "$work/origin.out" 2>&1 &
pids+=($!)
for _ in $(seq 1 100); do grep -q '^listening' "$work/origin.out" 2>/dev/null && break; sleep 0.1; done
origin="http://127.0.0.1:$(sed -n 's/^listening //p' "$work/origin.out")"
# The floor of a proxy hop: nginx passing the same origin's answers through (no compile, no cache), one worker.
nginx_port="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
mkdir -p "$work/nginx"
cat > "$work/nginx/nginx.conf" <<CONF
pid $work/nginx/nginx.pid;
error_log $work/nginx/error.log warn;
worker_processes 1;
events { worker_connections 1024; }
http {
  access_log off;
  client_body_temp_path $work/nginx/body; proxy_temp_path $work/nginx/proxy; fastcgi_temp_path $work/nginx/fastcgi;
  uwsgi_temp_path $work/nginx/uwsgi; scgi_temp_path $work/nginx/scgi;
  server { listen 127.0.0.1:$nginx_port; location / { proxy_pass $origin; proxy_http_version 1.1; } }
}
CONF
/usr/sbin/nginx -e "$work/nginx/error.log" -p "$work/nginx" -c "$work/nginx/nginx.conf" -g "daemon off;" &
pids+=($!)
"$bin" gateway --brokers "$broker" --changes-topic "$t-changes" --latest-layout-topic "$t-latest" --port 0 \
  --http 127.0.0.1:0 --page-store "$work/gateway-store" --log-format json --page-cache-bytes "$HELD" \
  --origin "$origin" --origin-max-bytes "$ORIGIN_HELD" --config config/default.yaml \
  > "$work/gateway.out" 2> "$root/.run/bench-origin-gateway.log" &
gateway_pid=$!
pids+=($gateway_pid)
for _ in $(seq 1 300); do
  gateway_urls "$work/gateway.out"
  [ -n "$gateway_ops" ] && curl -sf "$gateway_ops/readyz" >/dev/null 2>&1 && break
  sleep 0.2
done
[ -n "$gateway_api" ] || { echo "the gateway did not start:"; tail -n 20 "$root/.run/bench-origin-gateway.log"; exit 1; }
echo "navigation states (gateway --origin, --page-cache-bytes $HELD, --origin-max-bytes $ORIGIN_HELD: limit $(( (HELD + ORIGIN_HELD) / 1048576 + 150 )) MiB; gateway, origin and clients share $(nproc) cores):"
BENCH_NGINX="http://127.0.0.1:$nginx_port" BENCH_GATEWAY_OPS="$gateway_ops" python3 scripts/bench-origin.py "$gateway_api" "$origin" "$gateway_pid" published "$STATES"
