#!/usr/bin/env bash
# Ensures the librdkafka this project is built and tested with is available to pkg-config: upstream 2.14.2, from
# Debian's orig tarball (forky/sid carry it) on the mirror this machine already uses, checked against its SHA-256,
# with the fixes in scripts/patches/ applied, built into a gitignored prefix (.deps/librdkafka). Debian's own
# packaging patches are not applied. Idempotent: a second run is instant. Fails, saying what to change, when the
# mirror no longer has that tarball or the build reports another version.
# Prints the PKG_CONFIG_PATH to use on its last line.
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
prefix="$root/.deps/librdkafka"
work="$root/.deps/build"
version="2.14.2"
debian_revision="1"
tarball="librdkafka_${version}.orig.tar.gz"
tarball_sha256="4d53568c13717b167d12c7b2a0fe12aeb5d6bfe02de53df5b68f86d870a81b33"
# Bumped whenever the version or scripts/patches/ changes, so an older build is rebuilt.
stamp="$prefix/.complete-${version}-patches-5"

say() { echo "ensure-librdkafka: $*" >&2; }

# Our build, if present and complete.
if [ -f "$prefix/lib/pkgconfig/rdkafka.pc" ] && [ -f "$stamp" ]; then
  echo "$prefix/lib/pkgconfig"
  exit 0
fi

apt_get="$root/scripts/apt-get.sh"

# Build tools and the libraries librdkafka links against.
need=()
for p in build-essential curl pkg-config zlib1g-dev libssl-dev libzstd-dev liblz4-dev python3; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || need+=("$p")
done

if [ "${#need[@]}" -gt 0 ]; then
  "$apt_get" update -qq
fi
if [ "${#need[@]}" -gt 0 ]; then
  say "installing ${need[*]}"
  "$apt_get" install -y -qq --no-install-recommends "${need[@]}" >/dev/null
fi

mkdir -p "$work"
cd "$work"
srcdir="librdkafka-$version"
# A fresh tree for every build, so patches removed since the last one are not left applied.
rm -rf "$srcdir"
if [ ! -f "$tarball" ] || ! echo "$tarball_sha256  $tarball" | sha256sum -c --quiet - 2>/dev/null; then
  mirror=""
  if [ -f /etc/apt/sources.list.d/debian.sources ]; then
    mirror="$(awk '/^URIs:/ {print $2; exit}' /etc/apt/sources.list.d/debian.sources)"
  fi
  if [ -z "$mirror" ] && [ -f /etc/apt/sources.list ]; then
    mirror="$(awk '$1=="deb" && $0 !~ /security/ {for (i=2;i<=NF;i++) if ($i ~ /^(https?|file):/) {print $i; exit}}' /etc/apt/sources.list)"
  fi
  mirror="${mirror:-http://deb.debian.org/debian}"
  url="${mirror%/}/pool/main/libr/librdkafka/$tarball"
  say "fetching $url"
  rm -f "$tarball"
  curl -fsSL --retry 3 -o "$tarball.part" "$url" || {
    say "cannot fetch $url: the mirror no longer carries librdkafka $version-$debian_revision's source;"
    say "set version, debian_revision and tarball_sha256 in scripts/ensure-librdkafka.sh to the one it carries"
    say "(its .dsc in ${mirror%/}/pool/main/libr/librdkafka/ lists the SHA-256) and check scripts/patches/"
    exit 1
  }
  mv "$tarball.part" "$tarball"
fi
echo "$tarball_sha256  $tarball" | sha256sum -c --quiet - || {
  say "$tarball does not have the SHA-256 this script expects ($tarball_sha256): refusing to build it"
  exit 1
}
rm -rf "$srcdir.tmp" && mkdir "$srcdir.tmp"
tar -xzf "$tarball" -C "$srcdir.tmp" --strip-components=1
mv "$srcdir.tmp" "$srcdir"
cd "$srcdir"
for p in "$root"/scripts/patches/librdkafka-*.patch; do
  [ -f "$p" ] || continue
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
built="$(PKG_CONFIG_PATH="$prefix/lib/pkgconfig" pkg-config --modversion rdkafka)"
[ "$built" = "$version" ] || { say "built librdkafka $built, expected $version: check $srcdir"; exit 1; }
rm -f "$prefix"/.complete-*
touch "$stamp"
say "installed librdkafka $built"
echo "$prefix/lib/pkgconfig"
