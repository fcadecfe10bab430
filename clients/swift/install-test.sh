#!/usr/bin/env bash
# The Swift kit added the way docs/renderers.md says: a throwaway package depends on this repository by URL (a
# file:// clone of this tree, tagged with `layout-worker --version`) with the `.package` and `.product` lines the
# docs give, builds, and applies a change set the worker made; it must build nothing but the kit.
#   LW_BIN=.build/debug/layout-worker clients/swift/install-test.sh
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
bin="${LW_BIN:?set LW_BIN to a layout-worker binary}"
doc="$root/docs/renderers.md"
fail() { echo "swift kit install: $*" >&2; exit 1; }

version="$("$bin" --version)"
package_line="$(grep -m1 -E '^ *\.package\(url: "[^"]*/layout-worker\.git", from: "[^"]+"\),$' "$doc")" \
  || fail "no '.package(url: \".../layout-worker.git\", from: \"...\")' line in $doc"
products="$(grep -E '^ *\.product\(name: "Layout(Kit|Feed)", package: "layout-worker"\),$' "$doc")" \
  || fail "no '.product(name: \"LayoutKit\", package: \"layout-worker\")' lines in $doc"
[ "$(grep -c . <<<"$products")" = 2 ] || fail "expected the LayoutKit and LayoutFeed product lines in $doc"
documented="$(sed -E 's/.*from: "([^"]+)".*/\1/' <<<"$package_line")"
[ "$documented" = "$version" ] || fail "$doc says from: \"$documented\"; layout-worker --version is $version"

scratch="$(mktemp -d "${TMPDIR:-/tmp}/swift-kit-install.XXXXXX")"
trap '[ -n "${LW_KEEP:-}" ] || rm -rf "$scratch"' EXIT
# This tree as it is (uncommitted edits to tracked files included), as a release: a commit tagged with the version.
tree="$(git -C "$root" stash create)"; tree="${tree:-$(git -C "$root" rev-parse HEAD)}"
git clone -q --shared --no-checkout "$root" "$scratch/layout-worker"
# -f: the clone brings the repository's own tags, and this tree is what the tag must name here.
git -C "$scratch/layout-worker" tag -f "$version" "$tree" >/dev/null

mkdir -p "$scratch/app/Sources/App"
url="file://$scratch/layout-worker"
cat > "$scratch/app/Package.swift" <<SWIFT
// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "App",
    platforms: [.macOS(.v15)],
    dependencies: [
$(sed -E "s#url: \"[^\"]*\"#url: \"$url\"#" <<<"$package_line")
    ],
    targets: [
        .executableTarget(name: "App", dependencies: [
$products
        ]),
    ]
)
SWIFT
cat > "$scratch/app/Sources/App/main.swift" <<'SWIFT'
import Foundation
import LayoutFeed
import LayoutKit

// A change set from the empty record, applied: the bytes must be the record the worker compiled.
let arguments = CommandLine.arguments
let changeSet = [UInt8](FileManager.default.contents(atPath: arguments[1])!)
let applied = try ChangeSetApplier().apply(changeSet, to: nil)
FileHandle.standardOutput.write(Data(applied))
_ = LayoutFeed(gateway: URL(string: "http://127.0.0.1:1")!, key: "home")
SWIFT

(cd "$root" && "$bin" compile samples/search-page.json) > "$scratch/record.json"
(cd "$root" && "$bin" diff --responses - samples/search-page.json) > "$scratch/change-set.json"
started=$SECONDS
(cd "$scratch/app" && swift build > "$scratch/build.log" 2>&1) \
  || { tail -40 "$scratch/build.log" >&2; fail "the throwaway package did not build"; }
# SwiftPM fetches every dependency of the repository's manifest, but builds only what the products need (and the
# small tool of the repository's build plugin, which SwiftPM builds for any package that declares one).
built="$(cd "$scratch/app/.build/debug" && for m in *.build; do
  [ -z "$(find "$m" -name '*.o' -print -quit)" ] || echo "${m%.build}"; done | sort | tr '\n' ' ')"
[ "$built" = "App FileEmbedder-tool LayoutFeed LayoutKit " ] || fail "built more than the kit: $built"
"$scratch/app/.build/debug/App" "$scratch/change-set.json" > "$scratch/applied.json"
cmp -s "$scratch/applied.json" <(head -c -1 "$scratch/record.json") || cmp -s "$scratch/applied.json" "$scratch/record.json" \
  || fail "the app's applied record differs from the worker's ($scratch kept)"
echo "swift kit install: by URL at $version, products LayoutKit and LayoutFeed; built $built(nothing of the service's) and applied in $((SECONDS - started)) s"
