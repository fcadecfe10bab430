// Types of layout-client.js, the entry point: everything each module declares (one .d.ts beside each module, so an
// app importing one module under `strict` gets its types too).

export * from "./wire.js";
export { xxh64Hex } from "./content-hash.js";
export { applyChangeSet } from "./change-set-applier.js";
export * from "./layout-feed.js";
export * from "./layout-view.js";
