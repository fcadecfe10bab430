#!/usr/bin/env bash
# Ensures a headless-capable Chromium for the preview's browser tests (Debian's `chromium` package, installed with
# apt when missing: unlike TypeScript or promtool it needs its shared libraries, so it cannot just be unpacked).
# CHROMIUM names another binary. Idempotent; prints the browser's path.
set -euo pipefail
if [ -n "${CHROMIUM:-}" ]; then echo "$CHROMIUM"; exit 0; fi
for name in chromium chromium-browser; do
  if command -v "$name" >/dev/null; then command -v "$name"; exit 0; fi
done
echo "installing Debian's chromium for the browser tests (apt-get)" >&2
if [ "$(id -u)" = 0 ]; then
  { apt-get install -y -qq chromium || { apt-get update -qq && apt-get install -y -qq chromium; }; } >/dev/null
else
  { sudo apt-get install -y -qq chromium || { sudo apt-get update -qq && sudo apt-get install -y -qq chromium; }; } >/dev/null
fi
command -v chromium
