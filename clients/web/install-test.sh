#!/usr/bin/env bash
# The web kit installed the ways docs/renderers.md says: `npm pack` of clients/web installed into a scratch app, and
# `npm install` of the folder itself; in each, strict TypeScript imports the entry point and every module on its own
# (node16/nodenext resolution through `exports`, and the older `node` resolution by path), and node runs the modules
# it imports: a change set the worker made applied to the record it compiled.
#   LW_BIN=.build/debug/layout-worker TSC="node .../tsc" clients/web/install-test.sh
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
bin="${LW_BIN:?set LW_BIN to a layout-worker binary}"
tsc="${TSC:-$("$root/scripts/ensure-typescript.sh")}"
fail() { echo "web kit install: $*" >&2; exit 1; }
scratch="$(mktemp -d "${TMPDIR:-/tmp}/web-kit-install.XXXXXX")"
trap '[ -n "${LW_KEEP:-}" ] || rm -rf "$scratch"' EXIT
export npm_config_cache="$scratch/npm-cache" npm_config_audit=false npm_config_fund=false npm_config_update_notifier=false

name="$(node -p 'require(process.argv[1]).name' "$root/clients/web/package.json")"
(cd "$root" && "$bin" compile samples/search-page.json) > "$scratch/record.json"
(cd "$root" && "$bin" diff --responses - samples/search-page.json) > "$scratch/change-set.json"
tarball="$(cd "$scratch" && npm pack --silent "$root/clients/web")"

check() {  # $1: the app folder, $2: what npm installs into it
  local app="$1"
  mkdir -p "$app"
  echo '{"name": "app", "private": true, "type": "module"}' > "$app/package.json"
  (cd "$app" && npm install --offline --silent "$2") || fail "npm install $2 failed"
  cat > "$app/app.ts" <<TS
import { applyChangeSet, LayoutView, type LayoutRecord, type Row } from "$name";
import { FORMAT_VERSION, StaleBaseError, EMPTY_RECORD } from "$name/wire.js";
import { xxh64Hex } from "$name/content-hash.js";
import { applyChangeSet as applyOnly } from "$name/change-set-applier.js";
import { Doc } from "$name/json-text.js";
import { LayoutFeed } from "$name/layout-feed.js";
import { rendererFor, itemKeys } from "$name/layout-view.js";

export function rows(changeSet: string): Row[] {
  const record = JSON.parse(applyChangeSet(null, changeSet)) as LayoutRecord;
  const version: 2 = FORMAT_VERSION;
  const doc = new Doc(applyOnly(EMPTY_RECORD, changeSet));
  return doc.int(doc.value(doc.root, "version")) === version && xxh64Hex(changeSet).length === 16 ? record.sections.flatMap((s) => s.rows) : [];
}
export const renderer: string | null = rendererFor({ renderer: "A", fallbacks: ["B"] }, ["B"]);
export const keys: string[] = itemKeys([{ id: "a" }, { id: "a" }]);
export const isStale = (e: unknown): boolean => e instanceof StaleBaseError;
export type Feed = LayoutFeed;
export type View = LayoutView;
TS
  for resolution in nodenext node16 node; do
    local module=es2020; [ "$resolution" = node ] || module="$resolution"
    $tsc --strict --noEmit --skipLibCheck false --target es2020 --lib es2020,dom --module "$module" \
      --moduleResolution "$resolution" "$app/app.ts" || fail "tsc --strict (moduleResolution $resolution) failed in $app"
  done
  cat > "$app/run.mjs" <<JS
import { readFileSync } from "node:fs";
import { applyChangeSet } from "$name/change-set-applier.js";
import { FORMAT_VERSION } from "$name/wire.js";
import * as all from "$name";
const [changeSet, record] = process.argv.slice(2).map((f) => readFileSync(f, "utf8").replace(/\n\$/, ""));
if (applyChangeSet(null, changeSet) !== record) throw new Error("the applied record differs from the worker's");
if (all.applyChangeSet !== applyChangeSet || all.FORMAT_VERSION !== FORMAT_VERSION) throw new Error("two copies");
JS
  (cd "$app" && node run.mjs "$scratch/change-set.json" "$scratch/record.json") || fail "node could not apply in $app"
}

check "$scratch/from-tarball" "$scratch/$tarball"
check "$scratch/from-folder" "$root/clients/web"
echo "web kit install: $tarball (npm pack) and the folder (npm install): the entry and 6 modules typed under tsc --strict (nodenext, node16, node) and run in node"
