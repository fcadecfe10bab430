// layout-client.js: the web side of layout-worker's contract (layout records and change sets, version 2).
// Plain ES modules, no dependencies; this entry point exports everything, and a page that needs less can import
// the module that has it. Types: a .d.ts beside each module; package.json names them all.
//
//   wire.js                 FORMAT_VERSION, EMPTY_RECORD, media types, BUILT_IN_PLACEHOLDERS, the errors
//   content-hash.js         xxh64Hex(text) -> the content hash change sets name records by
//   json-text.js            the in-place JSON span reader the applier uses
//   change-set-applier.js   applyChangeSet(baseRecordText, changeSetText) -> the target record's text, byte for byte
//   layout-feed.js          LayoutFeed: one page through a gateway, record then change sets
//   layout-view.js          LayoutView, rendererFor, itemKeys: drawing records into a DOM element

export * from "./wire.js";
export { xxh64Hex } from "./content-hash.js";
export { applyChangeSet } from "./change-set-applier.js";
export { LayoutFeed } from "./layout-feed.js";
export { itemKeys, rendererFor, LayoutView } from "./layout-view.js";
