#!/usr/bin/env bash
# Ensures RocksDB's C library (Debian's librocksdb-dev), the page store's engine, is installed. Idempotent: a second
# run only asks dpkg. `make deps` runs it; scripts/bench-store-engines.sh also asks for liblmdb-dev (ENSURE_LMDB=1).
set -euo pipefail
need=()
for p in librocksdb-dev pkg-config ${ENSURE_LMDB:+liblmdb-dev}; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || need+=("$p")
done
[ ${#need[@]} -eq 0 ] && exit 0
sudo_() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }
echo "ensure-rocksdb: installing ${need[*]}" >&2
sudo_ apt-get update -qq >/dev/null || true
DEBIAN_FRONTEND=noninteractive sudo_ apt-get install -y -qq "${need[@]}" >/dev/null
