#!/usr/bin/env bash
# Ensures a headless-capable Chromium for the preview's browser tests (Debian's `chromium` package, installed with
# apt when missing: unlike TypeScript or promtool it needs its shared libraries, so it cannot just be unpacked).
# CHROMIUM names another binary. Idempotent; prints the browser's path.
set -euo pipefail
if [ -n "${CHROMIUM:-}" ]; then echo "$CHROMIUM"; exit 0; fi
for name in chromium chromium-browser; do
  if command -v "$name" >/dev/null; then command -v "$name"; exit 0; fi
done
"$(dirname "$0")/ensure-debian-packages.sh" chromium
command -v chromium
