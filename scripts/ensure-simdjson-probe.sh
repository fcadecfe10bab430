#!/usr/bin/env bash
# Builds the simdjson probe (Benchmarks/simdjson-probe/probe.cpp) into .deps/bin for `make bench`, installing
# Debian's libsimdjson-dev when it is missing; prints the probe's path. Idempotent: rebuilt only when the source
# is newer. Benchmark only: no target of the project links simdjson.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
probe="$root/.deps/bin/simdjson-probe"
source="$root/Benchmarks/simdjson-probe/probe.cpp"
if [ ! -f /usr/include/simdjson.h ]; then
  echo "installing Debian's libsimdjson-dev for the benchmark probe (apt-get)" >&2
  sudo_cmd=""; [ "$(id -u)" = 0 ] || sudo_cmd="sudo"
  $sudo_cmd apt-get update -qq >&2 && DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq libsimdjson-dev >&2
fi
if [ ! -x "$probe" ] || [ "$source" -nt "$probe" ]; then
  mkdir -p "$(dirname "$probe")"
  c++ -O3 -march=native -std=c++17 -o "$probe" "$source" -lsimdjson
fi
echo "$probe"
