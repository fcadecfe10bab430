#!/usr/bin/env bash
# apt-get as root (through sudo when not root), one at a time: the install steps of `make -j` take turns on one lock,
# and apt-get waits up to 10 minutes for dpkg's own lock while another program holds it.
# Usage: scripts/apt-get.sh ARGUMENT...   (as apt-get's)
set -euo pipefail
exec 9>"${TMPDIR:-/tmp}/layout-worker-apt.lock"
flock 9
as_root=(); [ "$(id -u)" = 0 ] || as_root=(sudo)
exec "${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 "$@"
