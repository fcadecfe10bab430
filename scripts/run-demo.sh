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
  --changes-topic "$changes" --state-topic "$latest" --state-dir "$root/.run/demo-state/serve" \
  --stop-after "$total" --http off --consumer-property session.timeout.ms=6000 --consumer-property heartbeat.interval.ms=1000 \
  --consumer-property fetch.wait.max.ms=20 2> >(grep -E "dead-lettering|stopped" >&2)
echo "== layout records on $out"
"$bin" tail --brokers "$broker" --topic "$out" --timeout-ms 1500
echo "== change sets on $changes (one per record, against the page's previous layout)"
"$bin" tail --brokers "$broker" --topic "$changes" --timeout-ms 1500
echo "== dead letters on $dlq"
"$bin" tail --brokers "$broker" --topic "$dlq" --timeout-ms 1500
echo "== layout-worker gateway: latest layouts over HTTP, change sets as server-sent events"
gateway_log="$root/.run/gateway.log"
"$bin" gateway --brokers "$broker" --changes-topic "$changes" --state-topic "$latest" --port 0 --http 127.0.0.1:0 \
  --log-format text --state-dir "$root/.run/demo-state/gateway" \
  > "$root/.run/gateway.out" 2> "$gateway_log" &
gateway_pid=$!
trap 'kill "$gateway_pid" 2>/dev/null; wait "$gateway_pid" 2>/dev/null; scripts/broker.sh stop >/dev/null' EXIT
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
if [ -t 0 ] && [ -t 1 ]; then
  read -r -p "   open it now; press Enter to stop the gateway and the broker " _ || true
fi
echo "== see the layouts a mapping config makes, live (edit the files and watch the page change):"
echo "   $(realpath -s --relative-to="$PWD" "$bin" 2>/dev/null || echo "$bin") preview --config config/default.yaml samples/search-page.json samples/grouped-results.json samples/empty-results.json"
echo "   then open http://127.0.0.1:8088/ (add --brokers/--topic/--key to follow a page on a running worker's changes topic)"
