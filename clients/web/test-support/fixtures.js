// The fixtures clients/fixtures/generate.py made (make test puts them in .run/client-fixtures; LW_FIXTURES overrides).
import { readFileSync, existsSync } from "node:fs";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
export const dir = process.env.LW_FIXTURES || join(here, "..", "..", "..", ".run", "client-fixtures");
const manifestPath = join(dir, "manifest.json");

/** Every case ({name, base, changeSet, target}), or null when the fixtures were not made. */
export const fixtures = existsSync(manifestPath) ? JSON.parse(readFileSync(manifestPath, "utf8")).cases : null;
/** node:test's `skip` option: false, or why the fixture tests cannot run. */
export const skip = fixtures ? false : `no fixtures at ${dir} (make test makes them)`;
/** A fixture file's text. */
export const read = (name) => readFileSync(join(dir, name), "utf8");
