#!/usr/bin/env bash
# `make bench-e2e`: records/s through the test broker for `serve` vs a pass-through (consume → produce
# unchanged, same loop and librdkafka settings) on the 45 KB sample page, alternating over several rounds
# in one run; then peak RSS of `serve` working through backlogs: 100k small messages, and 45 KB pages at the
# default byte budget beside the count-only bound it replaced (same run, same backlog); then the gateway under
# load (scripts/bench-gateway.sh) and navigation states from an origin (scripts/bench-origin.sh). Release build.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
bin="$root/.build/release/layout-worker"
N="${BENCH_MESSAGES:-4000}"
BACKLOG="${BENCH_BACKLOG:-100000}"
PAGE_BACKLOG="${BENCH_PAGE_BACKLOG:-10000}"
broker="$(scripts/broker.sh start)"
trap 'scripts/broker.sh stop >/dev/null' EXIT
run="$root/.run"; mkdir -p "$run"
consumer=(--consumer-property session.timeout.ms=6000 --consumer-property heartbeat.interval.ms=1000 --consumer-property fetch.wait.max.ms=10)

repeat_sample() {  # sample file, count: the sample as one NDJSON line, count times
  python3 - "$1" "$2" <<'PY'
import sys
line = open(sys.argv[1]).read().strip()
for _ in range(int(sys.argv[2])): print(line)
PY
}
page="$run/page.ndjson"
repeat_sample samples/search-page.json "$N" > "$page"
"$bin" create-topics --brokers "$broker" --partition-count 6 bench-in bench-out bench-pass bench-dlq bench-changes >/dev/null
"$bin" create-topics --brokers "$broker" --partition-count 6 --compacted bench-latest >/dev/null
# 40 pages, each updated N/40 times (keys page-0 … page-39), so change sets are against a previous layout.
pages=40
for k in $(seq 0 $((pages - 1))); do
  awk -v k="$k" -v m="$pages" 'NR % m == k' "$page" | "$bin" produce --brokers "$broker" --topic bench-in --key "page-$k" >/dev/null
done

broker_pid="$(cat "$run/broker.pid")"
ticks_per_s="$(getconf CLK_TCK)"
broker_cpu() { awk -v hz="$ticks_per_s" '{print ($14 + $15) / hz}' "/proc/$broker_pid/stat"; }

measure() {  # binary, name, extra flags...; prints "seconds worker-cpu-s broker-cpu-s": seconds from the first
  # assignment to the last message accounted for (the worker logs it as elapsed-ms), the worker's user + system
  # CPU for the whole run and the broker's CPU over it.
  local exe="$1" name="$2"; shift 2
  local log="$run/bench-$name.log" before
  before="$(broker_cpu)"
  /usr/bin/time -f "%U %S" -o "$run/bench-$name.cpu" "$exe" serve --brokers "$broker" --input bench-in \
    --dead-letter bench-dlq --group "bench-$name-$$" --stop-after "$N" --http off --log-format text --batch-size 256 \
    "${consumer[@]}" "$@" 2> "$log"
  echo "$(grep "] stopped" "$log" | grep -o 'elapsed-ms=[0-9]*' | tail -n1 | awk -F= '{print $2 / 1000}')" \
    "$(awk '{print $1 + $2}' "$run/bench-$name.cpu")" "$(python3 -c "print($(broker_cpu) - $before)")"
}
# Pass-through, serve and serve --changes-topic alternate for ROUNDS rounds (then one last pass-through), so
# each serve run is compared with the pass-through runs just before and after it, and each change-set run with
# the serve run of its round: the machine is shared and one pair can swing either way. The medians of the
# per-round ratios are the figures; all of them are printed. Each change-set run starts with an empty
# latest-layout topic of its own, so every round does the same work. With BENCH_BASE_BIN=<layout-worker of
# another revision>, each round also runs that binary's serve and serve --changes-topic (before/after in one run).
ROUNDS="${BENCH_ROUNDS:-5}"
base="${BENCH_BASE_BIN:-}"
runs="$run/bench-e2e-runs.txt"; : > "$runs"
record() { echo "$1 $2" >> "$runs"; }  # kind, "seconds worker-cpu broker-cpu"
record pass "$(measure "$bin" pass-0 --output bench-pass --pass-through)"
for r in $(seq 1 "$ROUNDS"); do
  record serve "$(measure "$bin" "serve-$r" --output bench-out)"
  "$bin" create-topics --brokers "$broker" --partition-count 6 --compacted "bench-latest-$r" "bench-latest-base-$r" >/dev/null
  # The page store of this build's change-set run (the base binary's predates it: memory only).
  rm -rf "$run/bench-page-store-$r"
  record changes "$(measure "$bin" "changes-$r" --output bench-out --changes-topic bench-changes --latest-layout-topic "bench-latest-$r" \
    --page-store "$run/bench-page-store-$r")"
  if [ -n "$base" ]; then
    record base-serve "$(measure "$base" "base-serve-$r" --output bench-out)"
    record base-changes "$(measure "$base" "base-changes-$r" --output bench-out --changes-topic bench-changes \
      --latest-layout-topic "bench-latest-base-$r")"
  fi
  record pass "$(measure "$bin" "pass-$r" --output bench-pass --pass-through)"
done
# The latest-layout store at the end of the last change-set run (bytes held, pages, bytes per page).
store="$(grep "] stopped" "$run/bench-changes-$ROUNDS.log" | tail -n1)"
store_bytes="$(grep -o 'store-bytes=[0-9]*' <<< "$store" | cut -d= -f2)"
store_pages="$(grep -o 'store-pages=[0-9]*' <<< "$store" | cut -d= -f2)"
python3 - "$N" "$runs" "${store_bytes:-0}" "${store_pages:-0}" <<'PY'
import statistics, sys
n, runs = int(sys.argv[1]), {}
for line in open(sys.argv[2]):
    kind, *values = line.split()
    runs.setdefault(kind, []).append([float(v) for v in values])
med = statistics.median
secs = {k: [v[0] for v in vs] for k, vs in runs.items()}
passes, serves, changes = secs["pass"], secs["serve"], secs["changes"]
ratios = [(passes[i] + passes[i + 1]) / 2 / s for i, s in enumerate(serves)]
change_ratios = [s / c for s, c in zip(serves, changes)]
print(f"| run | messages | median seconds ({len(serves)} rounds) | records/s | worker CPU s | broker CPU s |")
print("|---|---|---|---|---|---|")
rows = [("pass", "pass-through (consume → produce unchanged)"), ("serve", "serve (compile 45 KB page)"),
        ("changes", "serve --changes-topic (record + change set per message, latest layout per page and batch; 40 pages)"),
        ("base-serve", "base binary: serve"), ("base-changes", "base binary: serve --changes-topic")]
for kind, label in rows:
    if kind in runs:
        s = med(secs[kind])
        print(f"| {label} | {n} | {s:.2f} | {n/s:,.0f} | {med(v[1] for v in runs[kind]):.2f} | "
              f"{med(v[2] for v in runs[kind]):.2f} |")
print(f"serve / pass-through = {med(ratios):.3f}× median of {len(ratios)} rounds "
      f"(each against the pass-through runs before and after it: {', '.join(f'{r:.2f}' for r in ratios)})")
print(f"serve --changes-topic / serve = {med(change_ratios):.3f}× median of {len(change_ratios)} rounds "
      f"(each against the serve run of its round: {', '.join(f'{r:.2f}' for r in change_ratios)})")
if "base-serve" in runs:
    for kind, label in (("serve", "serve"), ("changes", "serve --changes-topic")):
        r = [b / a for a, b in zip(secs[kind], secs["base-" + kind])]
        print(f"{label}: this build / base = {med(r):.3f}× throughput, median of {len(r)} rounds "
              f"({', '.join(f'{x:.2f}' for x in r)})")
    base_ratios = [s / c for s, c in zip(secs["base-serve"], secs["base-changes"])]
    print(f"base binary: serve --changes-topic / serve = {med(base_ratios):.3f}× ({', '.join(f'{x:.2f}' for x in base_ratios)})")
# Where the CPU goes (both sides share the machine's cores): what compiling adds over the pass-through's loop
# and librdkafka, against everything the run costs.
cpu = lambda kind: med(v[1] + v[2] for v in runs[kind])
compile_cpu = med(v[1] for v in runs["serve"]) - med(v[1] for v in runs["pass"])
print(f"CPU per run (worker + broker): pass-through {cpu('pass'):.2f} s, serve {cpu('serve'):.2f} s; compiling adds "
      f"{compile_cpu:.2f} s = {compile_cpu / cpu('serve'):.0%} of serve's CPU (the broker takes "
      f"{med(v[2] for v in runs['serve']) / cpu('serve'):.0%}); with the cores busy, serve / pass-through is "
      f"bounded by about {cpu('pass') / cpu('serve'):.2f}")
store_bytes, store_pages = int(sys.argv[3]), int(sys.argv[4])
if store_pages:
    print(f"latest-layout store after the last change-set run: {store_pages} pages, {store_bytes:,} bytes "
          f"({store_bytes // store_pages:,} bytes per page; bounded by --page-cache-bytes)")
PY

# Peak RSS with a backlog: the whole backlog is on the broker before the worker starts.
small="$run/small.ndjson"
repeat_sample samples/empty-results.json "$BACKLOG" > "$small"
"$bin" create-topics --brokers "$broker" --partition-count 6 backlog-in backlog-out backlog-dlq >/dev/null
"$bin" produce --brokers "$broker" --topic backlog-in < "$small" >/dev/null
/usr/bin/time -f "%M" -o "$run/backlog.rss" "$bin" serve --brokers "$broker" --input backlog-in --output backlog-out \
  --dead-letter backlog-dlq --group "backlog-$$" --stop-after "$BACKLOG" --http off --log-format text "${consumer[@]}" 2> "$run/backlog.log"
echo "backlog: $BACKLOG messages, worker peak RSS $(( $(cat "$run/backlog.rss") / 1024 )) MiB; $(grep -o 'consumed=[^[]*' "$run/backlog.log" | tail -n1)"

# Peak RSS and throughput on a backlog of 45 KB pages: the pass-through (the floor), then the default settings
# (in-flight bytes bounded, librdkafka's fetch buffer 8 MiB) against the count-only bound (2,000 messages,
# librdkafka's 64 MiB fetch buffer), one run each.
pages_file="$run/pages.ndjson"
repeat_sample samples/search-page.json "$PAGE_BACKLOG" > "$pages_file"
"$bin" create-topics --brokers "$broker" --partition-count 6 pages-in pages-out pages-dlq >/dev/null
"$bin" produce --brokers "$broker" --topic pages-in < "$pages_file" >/dev/null
rm -f "$pages_file"
page_backlog() {  # name, extra flags...; prints "peak-MiB seconds" (the binary: $page_bin, else this build's)
  local name="$1"; shift
  /usr/bin/time -f "%M" -o "$run/pages-$name.rss" "${page_bin:-$bin}" serve --brokers "$broker" --input pages-in --output pages-out \
    --dead-letter pages-dlq --group "pages-$name-$$" --stop-after "$PAGE_BACKLOG" --http off --log-format text "${consumer[@]}" "$@" 2> "$run/pages-$name.log"
  echo "$(( $(cat "$run/pages-$name.rss") / 1024 )) $(grep "] stopped" "$run/pages-$name.log" | grep -o 'elapsed-ms=[0-9]*' | tail -n1 | awk -F= '{print $2 / 1000}')"
}
# The floor: a pass-through worker (the same loop and librdkafka settings, nothing compiled) on the same backlog,
# right before serve.
read -r pass_rss pass_s <<< "$(page_backlog pass --pass-through)"
read -r bytes_rss bytes_s <<< "$(page_backlog bytes)"
read -r count_rss count_s <<< "$(page_backlog count --max-in-flight-bytes 100000000000 \
  --consumer-property queued.max.messages.kbytes=65536 --consumer-property fetch.queue.backoff.ms=1000)"
echo "45 KB page backlog ($PAGE_BACKLOG messages): pass-through peak RSS ${pass_rss} MiB (the floor), serve ${bytes_rss} MiB: $((bytes_rss - pass_rss)) MiB over it (target: at most max(110, pass-through + 30) = $(( pass_rss + 30 > 110 ? pass_rss + 30 : 110 )) MiB)"
if [ -n "$base" ]; then
  read -r base_pass_rss _ <<< "$(page_bin="$base" page_backlog base-pass --pass-through)"
  read -r base_rss base_s <<< "$(page_bin="$base" page_backlog base)"
  echo "45 KB page backlog, base binary: pass-through ${base_pass_rss} MiB, serve ${base_rss} MiB, ${base_s} s"
fi
echo "45 KB page backlog ($PAGE_BACKLOG messages): default (byte budget) peak RSS ${bytes_rss} MiB, ${bytes_s} s ($(python3 -c "print(f'{$PAGE_BACKLOG/$bytes_s:,.0f}')") records/s); count-only bound peak RSS ${count_rss} MiB, ${count_s} s ($(python3 -c "print(f'{$PAGE_BACKLOG/$count_s:,.0f}')") records/s); throughput ratio $(python3 -c "print(f'{$count_s/$bytes_s:.2f}')")x"

# GETs of one record against nginx serving the same bytes (scripts/bench-get.sh): 200 and 304, the floor 0.8×.
echo
BENCH_KEEP_BROKER=1 BENCH_BIN="$bin" scripts/bench-get.sh
# The same GETs' user-space instructions per request beside nginx's (scripts/profile-get.sh): what the machine's load
# does not move.
echo
BENCH_KEEP_BROKER=1 BENCH_BIN="$bin" scripts/profile-get.sh 2> "$root/.run/profile-get.err" | tail -n 5

# The gateway under load: 1,000 event streams, change-set latency, RSS, GET requests/s (scripts/bench-gateway.sh).
BENCH_KEEP_BROKER=1 BENCH_BIN="$bin" scripts/bench-gateway.sh | tail -n1

# The gateway at scale: 10,000 and 18,000 streams on one page, C clients (scripts/bench-fanout.sh).
echo
BENCH_KEEP_BROKER=1 BENCH_BIN="$bin" BENCH_CLIENT_NICE=10 scripts/bench-fanout.sh

# Navigation states from an origin: an uncached GET over a 20 ms origin against the origin alone and nginx
# proxying it, a cached state against a published page, 100,000 distinct states and the gateway's memory
# (scripts/bench-origin.sh).
echo
BENCH_KEEP_BROKER=1 BENCH_BIN="$bin" scripts/bench-origin.sh
