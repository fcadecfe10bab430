#!/usr/bin/env bash
# Ensures librdkafka >= 2.1 is available to pkg-config.
# Uses the system library when it is new enough; otherwise builds Debian's newer
# source package (from the trixie suite, on the mirror this machine already uses)
# into a gitignored prefix (.deps/librdkafka). Idempotent: a second run is instant.
# Our build carries the fixes in scripts/patches/ (applied to the Debian source before building).
# Prints the PKG_CONFIG_PATH to use on its last line.
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
prefix="$root/.deps/librdkafka"
work="$root/.deps/build"
min="2.1.0"
# Bumped whenever scripts/patches/ changes, so an older build is rebuilt.
stamp="$prefix/.complete-patches-3"

version_ge() { [ "$(printf '%s\n%s\n' "$2" "$1" | sort -V | head -n1)" = "$2" ]; }

say() { echo "ensure-librdkafka: $*" >&2; }

# 1. Our own build, if present and complete.
if [ -f "$prefix/lib/pkgconfig/rdkafka.pc" ] && [ -f "$stamp" ]; then
  echo "$prefix/lib/pkgconfig"
  exit 0
fi

# 2. The system library, if new enough.
if pkg-config --exists rdkafka 2>/dev/null; then
  v="$(pkg-config --modversion rdkafka)"
  if version_ge "$v" "$min"; then
    say "system librdkafka $v is new enough"
    echo ""
    exit 0
  fi
  say "system librdkafka $v is older than $min; building Debian's newer source package"
fi

sudo_() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }
apt_get="$root/scripts/apt-get.sh"

# Build tools and the libraries librdkafka links against.
need=()
for p in build-essential dpkg-dev pkg-config zlib1g-dev libssl-dev libzstd-dev liblz4-dev python3; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || need+=("$p")
done

# A deb-src entry for trixie that reuses the mirror this machine is already configured with.
src_list=/etc/apt/sources.list.d/layout-worker-trixie-src.sources
if [ ! -f "$src_list" ]; then
  mirror=""
  if [ -f /etc/apt/sources.list.d/debian.sources ]; then
    mirror="$(awk '/^URIs:/ {print $2; exit}' /etc/apt/sources.list.d/debian.sources)"
  fi
  if [ -z "$mirror" ] && [ -f /etc/apt/sources.list ]; then
    mirror="$(awk '$1=="deb" && $0 !~ /security/ {for (i=2;i<=NF;i++) if ($i ~ /^(https?|file):/) {print $i; exit}}' /etc/apt/sources.list)"
  fi
  [ -n "$mirror" ] || { say "cannot find the Debian mirror this machine uses"; exit 1; }
  say "adding a trixie deb-src entry on the configured mirror"
  sudo_ tee "$src_list" >/dev/null <<SRC
Types: deb-src
URIs: $mirror
Suites: trixie
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
SRC
  "$apt_get" update -qq
elif [ "${#need[@]}" -gt 0 ]; then
  "$apt_get" update -qq
fi
if [ "${#need[@]}" -gt 0 ]; then
  say "installing ${need[*]}"
  "$apt_get" install -y -qq --no-install-recommends "${need[@]}" >/dev/null
fi

mkdir -p "$work"
cd "$work"
srcdir="$(find . -maxdepth 1 -type d -name 'librdkafka-2.*' | sort -V | tail -n1)"
if [ -z "$srcdir" ]; then
  say "fetching Debian source package librdkafka (trixie)"
  apt-get source -qq --download-only librdkafka/trixie >/dev/null 2>&1 || apt-get source -qq --download-only -t trixie librdkafka >/dev/null
  dsc="$(ls librdkafka_*.dsc | sort -V | tail -n1)"
  dpkg-source -x "$dsc" >/dev/null
  srcdir="$(find . -maxdepth 1 -type d -name 'librdkafka-2.*' | sort -V | tail -n1)"
fi
cd "$srcdir"
for p in "$root"/scripts/patches/librdkafka-*.patch; do
  [ -f "$p" ] || continue
  # Already applied (a rebuild of the same source tree): it reverses cleanly.
  if patch -p1 -R --dry-run -s -f < "$p" >/dev/null 2>&1; then continue; fi
  say "applying $(basename "$p")"
  patch -p1 -s -f < "$p"
done
say "building $(basename "$srcdir") into $prefix (takes a minute or two)"
# Without debug symbols (-g): 37-41 against 43-50 CPU-seconds for src/, in alternating builds; the code is the same -O2.
./configure --prefix="$prefix" --disable-curl --disable-gssapi --disable-debug-symbols \
  --enable-ssl --enable-zstd --enable-lz4-ext >lw-configure.out 2>&1 \
  || { tail -n 30 lw-configure.out >&2; exit 1; }
# Only the C library (src/): the C++ wrapper (src-cpp/), which nothing here uses, took 9 of its 59 CPU-seconds.
make -C src -j"$(nproc)" >lw-build.out 2>&1 || { tail -n 30 lw-build.out >&2; exit 1; }
make -C src install >lw-install.out 2>&1 || { tail -n 30 lw-install.out >&2; exit 1; }
touch "$stamp"
say "installed librdkafka $(PKG_CONFIG_PATH="$prefix/lib/pkgconfig" pkg-config --modversion rdkafka)"
echo "$prefix/lib/pkgconfig"
