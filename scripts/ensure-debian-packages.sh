#!/usr/bin/env bash
# Ensures Debian packages are installed: `make deps` asks for RocksDB's C library (librocksdb-dev, the page store's
# engine); `make test-deps` for what the tests run (nginx and Varnish in front of the gateway, Chromium for the
# browser tests, the JDK and JUnit 4 for the Android kit); the benchmarks for theirs (liblmdb-dev, wrk).
# Idempotent: when all are there it only asks dpkg. Several may run at once (make -j): scripts/apt-get.sh takes turns.
# Usage: scripts/ensure-debian-packages.sh PACKAGE...
set -euo pipefail
apt_get="$(dirname "$0")/apt-get.sh"
need=()
for p in "$@"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || need+=("$p")
done
[ ${#need[@]} -eq 0 ] && exit 0
echo "ensure-debian-packages: installing ${need[*]}" >&2
# From the lists as they are; when that fails (lists never fetched, or older than the mirror), the lists are fetched
# and the install tried again.
"$apt_get" install -y -qq "${need[@]}" >/dev/null 2>&1 \
  || { "$apt_get" update -qq >/dev/null || true; "$apt_get" install -y -qq "${need[@]}" >/dev/null; }
