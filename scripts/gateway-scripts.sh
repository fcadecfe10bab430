# Sourced by the scripts that run a gateway (scripts/run-demo.sh and the gateway benchmarks) and the benchmarks'
# own Kafka tools: one definition of each step they share. Run from the repository's root.

# Builds the benchmark tool scripts/NAME.c, which links librdkafka (this project's build when it has one, with its
# rpath), into .run/NAME unless that is newer than the source and the headers it includes. Prints its path.
build_kafka_tool() {
  local out=".run/$1" pc rpath=""
  mkdir -p .run
  if [ ! -x "$out" ] || [ "scripts/$1.c" -nt "$out" ] || [ scripts/bench-slurp.h -nt "$out" ] || [ scripts/bench-conf.h -nt "$out" ] \
    || [ scripts/bench-clock.h -nt "$out" ]; then
    pc="$(scripts/ensure-librdkafka.sh 2>/dev/null | tail -n1)"
    [ -n "$pc" ] && rpath="-Wl,-rpath,$PWD/.deps/librdkafka/lib"
    # shellcheck disable=SC2046
    gcc -O2 -o "$out" "scripts/$1.c" $(PKG_CONFIG_PATH="$pc" pkg-config --cflags --libs rdkafka) $rpath
  fi
  echo "$PWD/$out"
}

# Sets gateway_api and gateway_ops to the URLs a gateway printed into FILE ("gateway: http://..." and
# "gateway ops: http://..."); empty while it has not printed them yet. The file is read once: the API's line comes
# first, so once the ops URL is set the API's is too (read twice, the lines could land between the two reads).
gateway_urls() {
  local printed
  printed="$(cat "$1" 2>/dev/null || true)"
  gateway_api="$(grep -oE '^gateway: http://127\.0\.0\.1:[0-9]+' <<< "$printed" | head -n1 | cut -c10- || true)"
  gateway_ops="$(grep -oE '^gateway ops: http://127\.0\.0\.1:[0-9]+' <<< "$printed" | head -n1 | cut -c14- || true)"
}

# A benchmark's surroundings: the test broker (kept when BENCH_KEEP_BROKER is set), a work directory named after
# NAME, and a cleanup on exit that stops every PID added to `pids` and removes the directory. Sets broker, work.
bench_setup() {
  broker="$(scripts/broker.sh start)"
  own_broker=""
  [ -n "${BENCH_KEEP_BROKER:-}" ] || own_broker=1
  work="$(mktemp -d "${TMPDIR:-/tmp}/lw-bench-$1.XXXXXX")"
  pids=()
  trap bench_cleanup EXIT
}
bench_cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  for p in "${pids[@]}"; do wait "$p" 2>/dev/null || true; done
  rm -rf "$work"
  [ -z "$own_broker" ] || scripts/broker.sh stop >/dev/null
}

# Two versions of the 45 KB search page in DIR/a.json and DIR/b.json (the later one: two products gone, one moved
# to the top, a price changed: a 3.9 KB change set).
page_versions() {
  python3 - "$1" <<'PY'
import json, sys
page = json.load(open("samples/search-page.json"))
later = json.loads(json.dumps(page))
records = later["contents"][0]["MainContent"][0]["contents"][2]["records"]
del records[3]; del records[1]
records.insert(0, records.pop())
records[2]["attributes"]["sku.activePrice"] = ["0.99"]
for name, doc in (("a", page), ("b", later)):
    open(f"{sys.argv[1]}/{name}.json", "w").write(json.dumps(doc, separators=(",", ":")))
PY
}

# publish_search_page KEY FILE: one page on a topic pair of its own ($t-changes, and $t-latest compacted, one
# partition each): the 45 KB search page compiled into FILE and published under KEY. Uses bin, broker and t. Sets
# page_gateway: the arguments after a binary of a gateway on those topics (no page store, URLs on free ports).
publish_search_page() {
  "$bin" create-topics --brokers "$broker" --partition-count 1 "$t-changes" >/dev/null
  "$bin" create-topics --brokers "$broker" --partition-count 1 --compacted "$t-latest" >/dev/null
  "$bin" compile samples/search-page.json > "$2"
  "$bin" produce --brokers "$broker" --topic "$t-latest" --key "$1" "$2" >/dev/null
  page_gateway=(gateway --brokers "$broker" --changes-topic "$t-changes" --latest-layout-topic "$t-latest" --port 0
    --http 127.0.0.1:0 --page-store off --log-format json)
}

# Whether the gateway that prints into FILE is ready (its URLs printed, /readyz passing); sets gateway_api and
# gateway_ops as gateway_urls does.
gateway_ready() { gateway_urls "$1"; [ -n "$gateway_ops" ] && curl -sf "$gateway_ops/readyz" >/dev/null 2>&1; }

# The ETag URL answers with.
etag_of() { curl -sfI "$1" | tr -d '\r' | awk 'tolower($1) == "etag:" {print $2}'; }

# A free TCP port on loopback.
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }

# wait_for WHAT DEADLINE-S COMMAND...: runs COMMAND every 50 ms until it succeeds, or says what it waited for (as
# $0) and exits 1.
wait_for() {
  local what="$1" deadline; deadline=$(( $(date +%s) + $2 )); shift 2
  until "$@"; do
    if [ "$(date +%s)" -ge "$deadline" ]; then echo "$(basename "$0" .sh): gave up waiting for $what" >&2; exit 1; fi
    sleep 0.05
  done
}

# Writes DIR/nginx.conf: nginx serving DIR/html as static files on 127.0.0.1:PORT, as the GET benchmarks compare the
# gateway with it (`etag on`, `sendfile on`, no access log); MAIN: the main context's directives (its processes).
nginx_static_conf() {  # dir, port, main directives
  mkdir -p "$1/html"
  cat > "$1/nginx.conf" <<CONF
pid $1/nginx.pid;
error_log $1/error.log warn;
$3
events { worker_connections 1024; }
http {
  access_log off; sendfile on; tcp_nopush on; etag on; keepalive_requests 10000000; default_type application/json;
  client_body_temp_path $1/body; proxy_temp_path $1/proxy; fastcgi_temp_path $1/fastcgi;
  uwsgi_temp_path $1/uwsgi; scgi_temp_path $1/scgi;
  server { listen 127.0.0.1:$2; root $1/html; }
}
CONF
}
