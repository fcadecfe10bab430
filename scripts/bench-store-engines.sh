#!/usr/bin/env bash
# The page store's engine, measured (docs/design.md says why RocksDB): LMDB and RocksDB from Debian's packages on
# the store's workload, a real 45 KB record and a ~2 KB one (scripts/bench-store-engines.c says what each column
# measures). `make bench-state` runs it; PAGES_LARGE / PAGES_SMALL set the sizes.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
run="$root/.run"; mkdir -p "$run"
exe="$run/bench-store-engines"
"$root/scripts/ensure-debian-packages.sh" liblmdb-dev librocksdb-dev pkg-config
if [ ! -x "$exe" ] || [ "$root/scripts/bench-store-engines.c" -nt "$exe" ]; then
  gcc -O2 -o "$exe" "$root/scripts/bench-store-engines.c" $(pkg-config --cflags --libs lmdb rocksdb)
fi
bin="${LW_BIN:-$root/.build/release/layout-worker}"
record="$run/engine-record.json"
"$bin" compile "$root/samples/search-page.json" > "$record"
echo "| engine | value bytes | pages | pages/s written | MB/s written | read p50 µs | read p99 µs | scan 1/12 s | disk bytes/page | reopen ms |"
echo "|---|---|---|---|---|---|---|---|---|---|"
for spec in "$(stat -c %s "$record") ${PAGES_LARGE:-20000}" "2048 ${PAGES_SMALL:-200000}"; do
  dir="$(mktemp -d "$run/engines.XXXXXX")"
  # shellcheck disable=SC2086
  "$exe" "$record" $spec "$dir"
  rm -rf "$dir"
done
