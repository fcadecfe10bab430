#!/usr/bin/env bash
# `make run`: a local test broker, the worker on samples/ (plus one bad message and one tombstone),
# the layout records and the dead letter shown readably, the counts, then everything stopped.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
bin="$root/.build/debug/layout-worker"
broker="$(scripts/broker.sh start)"
trap 'scripts/broker.sh stop >/dev/null' EXIT
echo "== test broker on $broker"
suffix="demo-$$"
in="responses-$suffix" out="layouts-$suffix" dlq="dead-letters-$suffix"
"$bin" create-topics --brokers "$broker" --partitions 3 "$in" "$out" "$dlq"
"$bin" produce --brokers "$broker" --topic "$in" samples/*.json
echo '{"@type": "ResultsList", "records": [' | "$bin" produce --brokers "$broker" --topic "$in" --key truncated-response
"$bin" produce --brokers "$broker" --topic "$in" --key retired-page --tombstone
total=$(( $(ls samples/*.json | wc -l) + 2 ))
echo "== layout-worker serve (until all $total messages are accounted for)"
"$bin" serve --brokers "$broker" --input "$in" --output "$out" --dead-letter "$dlq" --group "layout-$suffix" \
  --stop-after "$total" --http off --consumer-property session.timeout.ms=6000 --consumer-property heartbeat.interval.ms=1000 \
  --consumer-property fetch.wait.max.ms=20 2> >(grep -E "dead-lettering|stopped" >&2)
echo "== layout records on $out"
"$bin" tail --brokers "$broker" --topic "$out" --timeout-ms 1500
echo "== dead letters on $dlq"
"$bin" tail --brokers "$broker" --topic "$dlq" --timeout-ms 1500
