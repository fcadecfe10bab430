#!/usr/bin/env bash
# Ensures TypeScript's compiler (Debian's `node-typescript`, 4.8) in the gitignored .deps/typescript, for
# `tsc --noEmit` over the web client's types in `make test`. Downloaded and unpacked, not installed (there is no
# npm registry here), and Debian's nodejs when node is missing. Idempotent; prints the command that runs tsc.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
dir="$root/.deps/typescript"
tsc="$dir/usr/share/nodejs/typescript/bin/tsc"
if ! command -v node >/dev/null; then
  # The web client's tests run on Debian's nodejs (node --test); there is no npm registry and no npm dependency.
  "$root/scripts/ensure-debian-packages.sh" nodejs
fi
if [ ! -f "$tsc" ]; then
  if command -v tsc >/dev/null; then command -v tsc; exit 0; fi
  mkdir -p "$dir/download"
  (cd "$dir/download" && { apt-get download node-typescript >/dev/null 2>&1 || { "$root/scripts/apt-get.sh" update -qq; apt-get download node-typescript >/dev/null; }; })
  dpkg -x "$dir"/download/node-typescript_*.deb "$dir"
  rm -rf "$dir/download"
fi
echo "node $tsc"
