#!/usr/bin/env bash
# Ensures Debian packages are installed: `make deps` asks for RocksDB's C library (librocksdb-dev, the page store's
# engine) and nginx and Varnish (the gateway runs behind both in the tests); the benchmarks ask for theirs (liblmdb-dev,
# wrk). Idempotent: when all are there it only asks dpkg.
# Usage: scripts/ensure-debian-packages.sh PACKAGE...
set -euo pipefail
need=()
for p in "$@"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || need+=("$p")
done
[ ${#need[@]} -eq 0 ] && exit 0
sudo_() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }
echo "ensure-debian-packages: installing ${need[*]}" >&2
sudo_ apt-get update -qq >/dev/null || true
DEBIAN_FRONTEND=noninteractive sudo_ apt-get install -y -qq "${need[@]}" >/dev/null
