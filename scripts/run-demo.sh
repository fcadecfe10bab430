#!/usr/bin/env bash
# `make run`: a local test broker, the worker on samples/ (plus a later version of the search page, one bad
# message and one tombstone), the layout records, change sets and the dead letter shown readably, the counts, the
# gateway serving the latest layouts (with a live page's URL; interactive runs wait for Enter), then everything
# stopped.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
bin="$root/.build/debug/layout-worker"
broker="$(scripts/broker.sh start)"
trap 'scripts/broker.sh stop >/dev/null' EXIT
echo "== test broker on $broker"
suffix="demo-$$"
# Each run has topics of its own, so its page stores start empty too.
rm -rf "$root/.run/demo-state"
in="responses-$suffix" out="layouts-$suffix" dlq="dead-letters-$suffix" changes="changes-$suffix" latest="latest-$suffix"
"$bin" create-topics --brokers "$broker" --partition-count 3 "$in" "$out" "$dlq" "$changes"
"$bin" create-topics --brokers "$broker" --partition-count 3 --compacted "$latest"
"$bin" produce --brokers "$broker" --topic "$in" samples/*.json
# The search page again, later: two products gone, one moved to the top, a price changed (same key: a change set).
python3 - > "$root/.run/search-page-later.json" <<'PY'
import json
page = json.load(open("samples/search-page.json"))
results = page["contents"][0]["MainContent"][0]["contents"][2]
records = results["records"]
del records[3]; del records[1]
records.insert(0, records.pop())
records[2]["attributes"]["sku.activePrice"] = ["0.99"]
print(json.dumps(page, ensure_ascii=False, separators=(",", ":")))
PY
"$bin" produce --brokers "$broker" --topic "$in" --key search-page.json "$root/.run/search-page-later.json"
echo '{"@type": "ResultsList", "records": [' | "$bin" produce --brokers "$broker" --topic "$in" --key truncated-response
"$bin" produce --brokers "$broker" --topic "$in" --key retired-page --tombstone
total=$(( $(ls samples/*.json | wc -l) + 3 ))
echo "== layout-worker serve (until all $total messages are accounted for)"
"$bin" serve --brokers "$broker" --input "$in" --output "$out" --dead-letter "$dlq" --group "layout-$suffix" \
  --changes-topic "$changes" --latest-layout-topic "$latest" --page-store "$root/.run/demo-state/serve" \
  --stop-after "$total" --http off --consumer-property session.timeout.ms=6000 --consumer-property heartbeat.interval.ms=1000 \
  --consumer-property fetch.wait.max.ms=20 2> >(grep -E "dead-lettering|stopped" >&2)
echo "== layout records on $out"
"$bin" tail --brokers "$broker" --topic "$out" --timeout-ms 1500
echo "== change sets on $changes (one per record, against the page's previous layout)"
"$bin" tail --brokers "$broker" --topic "$changes" --timeout-ms 1500
echo "== dead letters on $dlq"
"$bin" tail --brokers "$broker" --topic "$dlq" --timeout-ms 1500
# A local origin, as an ATG storefront answers format=json: the samples under /search, the corpus page (when
# ../shared is there) under /categoria. The gateway fetches and compiles from it every navigation state (a
# refinement, a sort, page 2) no published page holds.
corpus=../shared/corpus/assembler/supermami-1.json
origin_args=(--prefix "/search=samples/search-page.json")
[ -f "$corpus" ] && origin_args+=(--prefix "/categoria=$corpus")
python3 scripts/test-origin.py --port 0 "${origin_args[@]}" > "$root/.run/origin.out" 2>&1 &
origin_pid=$!
stop_all() {
  kill "${gateway_pid:-}" "$origin_pid" 2>/dev/null || true
  wait "${gateway_pid:-}" "$origin_pid" 2>/dev/null || true
  scripts/broker.sh stop >/dev/null
}
trap stop_all EXIT
for _ in $(seq 1 100); do grep -q '^listening' "$root/.run/origin.out" 2>/dev/null && break; sleep 0.1; done
origin="http://127.0.0.1:$(sed -n 's/^listening //p' "$root/.run/origin.out")"
echo "== layout-worker gateway: latest layouts over HTTP, change sets as server-sent events, states from $origin"
gateway_log="$root/.run/gateway.log"
"$bin" gateway --brokers "$broker" --changes-topic "$changes" --latest-layout-topic "$latest" --port 0 --http 127.0.0.1:0 \
  --log-format text --page-store "$root/.run/demo-state/gateway" --origin "$origin" --config config/default.yaml \
  > "$root/.run/gateway.out" 2> "$gateway_log" &
gateway_pid=$!
# shellcheck source=scripts/gateway-scripts.sh
. scripts/gateway-scripts.sh
for _ in $(seq 1 150); do
  gateway_urls "$root/.run/gateway.out"
  url="$gateway_api" ops="$gateway_ops"
  [ -n "$ops" ] && curl -sf "$ops/readyz" >/dev/null 2>&1 && break
  sleep 0.2
done
[ -n "$url" ] || { echo "gateway did not start:"; cat "$gateway_log"; exit 1; }
echo "   GET $url/v1/layouts/search-page.json:"
curl -s -o /dev/null -w "   %{http_code}, %{size_download} bytes, ETag %header{etag}\n" "$url/v1/layouts/search-page.json"
echo "   the same with If-None-Match (what a client that holds it sends):"
etag="$(curl -s -o /dev/null -w '%header{etag}' "$url/v1/layouts/search-page.json")"
curl -s -o /dev/null -w "   %{http_code}\n" -H "If-None-Match: $etag" "$url/v1/layouts/search-page.json"
echo "   the stream of changes (first event):"
curl -s -N -m 2 "$url/v1/layouts/search-page.json/changes" | grep -E '^(event|id):' | head -n2 | sed 's/^/   /' || true
echo "   a live page following it (LayoutFeed in a browser; on the ops port): $ops/?key=search-page.json"
echo "== a shopper taps a sort: the navigation state its record's navigate action names, no page published for it"
state="$(curl -s "$url/v1/layouts/search-page.json" | python3 scripts/navigate-targets.py | grep -m1 'Ns=')"
state_path="$url$(echo "{\"kind\":\"navigate\",\"target\":\"$state\"}" | python3 scripts/navigate-targets.py --paths)"
echo "   GET $state (URL-encoded in the path), fetched from the origin and compiled:"
curl -s -o /dev/null -w "   %{http_code} in %{time_total} s, %{size_download} bytes, ETag %header{etag}\n" "$state_path"
echo "   again, from the gateway's cache:"
curl -s -o /dev/null -w "   %{http_code} in %{time_total} s\n" "$state_path"
etag="$(curl -s -o /dev/null -w '%header{etag}' "$state_path")"
curl -s -o /dev/null -w "   with If-None-Match: %{http_code}\n" -H "If-None-Match: $etag" "$state_path"
echo "   every navigate target of the samples' records$([ -f "$corpus" ] && echo " and the corpus page's"):"
{ "$bin" compile samples/*.json 2>/dev/null; [ -f "$corpus" ] && "$bin" compile "$corpus"; } > "$root/.run/demo-records.ndjson"
[ -f "$corpus" ] && "$bin" compile --config config/examples/supermami.yaml "$corpus" >> "$root/.run/demo-records.ndjson"
read -r actions distinct < <(python3 scripts/navigate-targets.py --count < "$root/.run/demo-records.ndjson")
answered=0 asked=0
while IFS= read -r path; do
  asked=$((asked + 1))
  code="$(curl -s -o /dev/null -w '%{http_code}' "$url$path")"
  [ "$code" = 200 ] && answered=$((answered + 1)) || echo "   $code for $path"
done < <(python3 scripts/navigate-targets.py --paths < "$root/.run/demo-records.ndjson")
echo "   $answered of $asked distinct targets answered 200 ($actions navigate actions), $(curl -s "${origin}/_count" | python3 -c 'import json, sys; print(json.load(sys.stdin)["requests"])') origin requests"
if [ -t 0 ] && [ -t 1 ]; then
  read -r -p "   open it now; press Enter to stop the gateway and the broker " _ || true
fi
echo "== see the layouts a mapping config makes, live (edit the files and watch the page change):"
echo "   $(realpath -s --relative-to="$PWD" "$bin" 2>/dev/null || echo "$bin") preview --config config/default.yaml samples/search-page.json samples/grouped-results.json samples/empty-results.json"
echo "   then open http://127.0.0.1:8088/ (add --brokers/--topic/--key to follow a page on a running worker's changes topic)"
