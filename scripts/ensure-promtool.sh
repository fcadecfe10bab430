#!/usr/bin/env bash
# Ensures promtool (from Debian's `prometheus` package) in the gitignored .deps/prometheus, for checking the alert
# rules in `make test`. The package is downloaded and unpacked, not installed: no Prometheus server is set up or
# started. Idempotent; prints the promtool path.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
dir="$root/.deps/prometheus"
tool="$dir/usr/bin/promtool"
if [ ! -x "$tool" ]; then
  if command -v promtool >/dev/null; then command -v promtool; exit 0; fi
  mkdir -p "$dir/download"
  (cd "$dir/download" && { apt-get download prometheus >/dev/null 2>&1 || { "$root/scripts/apt-get.sh" update -qq; apt-get download prometheus >/dev/null; }; })
  dpkg -x "$dir"/download/prometheus_*.deb "$dir"
  rm -rf "$dir/download"
fi
echo "$tool"
