// change-set-applier.js: applies a change set to the text of the record it was made against, giving the target's
// text byte for byte. Swift kit: ChangeSetApplier.

import { ChangeSetError, CHANGE_SET_KIND, EMPTY_RECORD, FORMAT_VERSION, StaleBaseError } from "./wire.js";
import { xxh64Hex } from "./content-hash.js";
import { Doc } from "./json-text.js";

/** @typedef {import("./json-text.js").Span} Span */

/**
 * Where each item of a patched list comes from: `{old: i}` or `{inserted: span}`; updates by old index.
 * @param {Doc} cs
 * @param {Span} changes
 * @param {number} oldCount
 * @param {string} payload "section" or "row"
 * @param {string} what
 */
function listPlan(cs, changes, oldCount, payload, what) {
  /** @param {string} name */
  const array = (name) => {
    const node = cs.value(changes, name);
    if (!node) return [];
    if (cs.kind(node) !== "array") throw new ChangeSetError(`${what}.${name} is not an array`);
    return cs.elements(node);
  };
  /** @param {Span | undefined} node @param {string} field @param {number} limit */
  const index = (node, field, limit) => {
    const i = cs.int(node);
    if (i === undefined || i < 0 || i >= limit) {
      throw new ChangeSetError(`${what}: \`${field}\` missing or out of range 0..<${limit}`);
    }
    return i;
  };
  const deletes = array("deletes"), inserts = array("inserts"), moves = array("moves"), updates = array("updates");
  const removed = new Array(oldCount).fill(false);
  for (const d of deletes) {
    const i = index(d, "deletes[]", oldCount);
    if (removed[i]) throw new ChangeSetError(`${what}: old index ${i} deleted or moved twice`);
    removed[i] = true;
  }
  const newCount = oldCount - deletes.length + inserts.length;
  if (newCount < 0) throw new ChangeSetError(`${what}: more deletes than items`);
  /** @type {({old: number} | {inserted: Span} | null)[]} */
  const slots = new Array(newCount).fill(null);
  for (const ins of inserts) {
    const j = index(cs.value(ins, "index"), "inserts[].index", newCount);
    const node = cs.value(ins, payload);
    if (!node) throw new ChangeSetError(`${what}.inserts[] has no \`${payload}\``);
    if (slots[j]) throw new ChangeSetError(`${what}: new index ${j} filled twice`);
    slots[j] = { inserted: node };
  }
  for (const move of moves) {
    const i = index(cs.value(move, "from"), "moves[].from", oldCount);
    const j = index(cs.value(move, "to"), "moves[].to", newCount);
    if (removed[i]) throw new ChangeSetError(`${what}: old index ${i} deleted or moved twice`);
    if (slots[j]) throw new ChangeSetError(`${what}: new index ${j} filled twice`);
    removed[i] = true;
    slots[j] = { old: i };
  }
  let next = 0;
  for (let j = 0; j < newCount; j++) {
    if (slots[j]) continue;
    while (next < oldCount && removed[next]) next++;
    if (next >= oldCount) throw new ChangeSetError(`${what}: fewer surviving items than places to fill`);
    slots[j] = { old: next };
    next++;
  }
  while (next < oldCount && removed[next]) next++;
  if (next !== oldCount) throw new ChangeSetError(`${what}: more surviving items than places to fill`);
  const position = new Array(oldCount).fill(-1);
  slots.forEach((slot, j) => {
    if (slot && "old" in slot) position[slot.old] = j;
  });
  /** @type {(Span | undefined)[]} */
  const updateByOld = new Array(oldCount).fill(undefined);
  for (const u of updates) {
    const i = index(cs.value(u, "from"), "updates[].from", oldCount);
    const j = index(cs.value(u, "to"), "updates[].to", newCount);
    if (position[i] !== j) {
      throw new ChangeSetError(`${what}: update from ${i} to ${j} disagrees with the moves (item lands at ${position[i]})`);
    }
    if (updateByOld[i]) throw new ChangeSetError(`${what}: old index ${i} updated twice`);
    updateByOld[i] = u;
  }
  return { slots: /** @type {({old: number} | {inserted: Span})[]} */ (slots), updates: updateByOld };
}

/**
 * The record `changeSetText` makes from `baseRecordText` (null for a change set from empty; a line end after it is
 * not part of it), byte for byte.
 * Checks both hashes: a base that is not the change set's throws `StaleBaseError` (fetch the full record); given its
 * own target (a change set delivered twice), it returns the base unchanged.
 * @param {string | null} baseRecordText
 * @param {string} changeSetText
 * @returns {string}
 */
export function applyChangeSet(baseRecordText, changeSetText) {
  let cs;
  try {
    cs = new Doc(changeSetText);
  } catch (e) {
    throw new ChangeSetError(`the change set is not JSON: ${e instanceof Error ? e.message : e}`);
  }
  const root = cs.root;
  if (cs.kind(root) !== "object") throw new ChangeSetError("the root is not an object");
  if (cs.int(cs.value(root, "version")) !== FORMAT_VERSION) {
    throw new ChangeSetError(`unsupported or missing \`version\` (this client reads ${FORMAT_VERSION})`);
  }
  const kind = cs.value(root, "kind");
  if (kind && cs.string(kind) !== CHANGE_SET_KIND) {
    throw new ChangeSetError(`not a change set: \`kind\` is not "${CHANGE_SET_KIND}"`);
  }
  const targetNode = cs.value(root, "target");
  const target = targetNode && cs.string(cs.value(targetNode, "hash"));
  if (!target || !/^[0-9a-fA-F]{16}$/.test(target)) throw new ChangeSetError("no `target.hash`");
  const baseNode = cs.value(root, "base");
  if (!baseNode) throw new ChangeSetError("no `base`");
  let oldText;
  if (cs.kind(baseNode) === "null") {
    oldText = EMPTY_RECORD;
  } else {
    const expected = cs.string(cs.value(baseNode, "hash"));
    if (!expected || !/^[0-9a-fA-F]{16}$/.test(expected)) throw new ChangeSetError("no `base.hash`");
    if (baseRecordText === null || baseRecordText === undefined) throw new StaleBaseError(expected.toLowerCase(), "(no record)");
    // A record read as a line (compile's or tail's output, a file) ends with its line end, which is not part of it.
    baseRecordText = baseRecordText.replace(/[\r\n]+$/, "");
    const actual = xxh64Hex(baseRecordText);
    if (actual === target.toLowerCase() && actual !== expected.toLowerCase()) return baseRecordText;
    if (actual !== expected.toLowerCase()) throw new StaleBaseError(expected.toLowerCase(), actual);
    oldText = baseRecordText;
  }
  const replace = cs.value(root, "replace");
  const result = replace ? cs.raw(replace) : patch(new Doc(oldText), cs);
  const actual = xxh64Hex(result);
  if (actual !== target.toLowerCase()) {
    throw new ChangeSetError(`the result hashes to ${actual}, not the change set's target ${target.toLowerCase()}`);
  }
  return result;
}

/**
 * @param {Doc} old
 * @param {Doc} cs
 */
function patch(old, cs) {
  const record = cs.value(cs.root, "record");
  if (!record || cs.kind(record) !== "object") throw new ChangeSetError("no `record` object");
  const sections = cs.value(cs.root, "sections");
  if (!sections || cs.kind(sections) !== "object") throw new ChangeSetError("no `sections` object");
  if (old.kind(old.root) !== "object") throw new ChangeSetError("the base record is not an object");
  /** @type {Map<string, Span>} */
  const changed = new Map();
  for (const m of cs.members(record)) changed.set(cs.raw(m.keySpan), m.value);
  const out = [];
  let sawSections = false;
  for (const m of old.members(old.root)) {
    const key = old.raw(m.keySpan);
    if (m.key === "sections" && !sawSections) {
      sawSections = true;
      if (old.kind(m.value) !== "array") throw new ChangeSetError("the base record has no `sections` array");
      out.push(key + ":" + patchSections(old, old.elements(m.value), sections, cs));
    } else if (changed.has(key)) {
      out.push(key + ":" + cs.raw(/** @type {Span} */ (changed.get(key))));
      changed.delete(key);
    } else {
      out.push(key + ":" + old.raw(m.value));
    }
  }
  if (!sawSections) throw new ChangeSetError("the base record has no `sections` array");
  if (changed.size > 0) throw new ChangeSetError("`record` names members the base record does not have");
  return "{" + out.join(",") + "}";
}

/**
 * @param {Doc} old
 * @param {Span[]} oldSections
 * @param {Span} changes
 * @param {Doc} cs
 */
function patchSections(old, oldSections, changes, cs) {
  const replace = cs.value(changes, "replace");
  if (replace) {
    if (cs.kind(replace) !== "array") throw new ChangeSetError("sections.replace is not an array");
    return cs.raw(replace);
  }
  const plan = listPlan(cs, changes, oldSections.length, "section", "sections");
  /** @type {Map<number, Span>} */
  const paths = new Map();
  const list = cs.value(changes, "paths");
  if (list) {
    if (cs.kind(list) !== "array") throw new ChangeSetError("sections.paths is not an array");
    for (const entry of cs.elements(list)) {
      const i = cs.int(cs.value(entry, "index"));
      const path = cs.value(entry, "path");
      if (i === undefined || i < 0 || i >= plan.slots.length || !path || cs.kind(path) !== "string") {
        throw new ChangeSetError(`sections.paths[] needs an \`index\` below ${plan.slots.length} and a string \`path\``);
      }
      paths.set(i, path);
    }
  }
  /** @type {string[]} */
  const out = [];
  plan.slots.forEach((slot, p) => {
    if ("inserted" in slot) {
      out.push(cs.raw(slot.inserted));
      return;
    }
    const section = oldSections[slot.old];
    const update = plan.updates[slot.old];
    const head = update && cs.value(update, "section");
    const rowChanges = update && cs.value(update, "rows");
    const parts = [];
    if (head) {
      if (cs.kind(head) !== "object") throw new ChangeSetError("sections.updates[].section is not an object");
      for (const m of cs.members(head)) {
        const key = cs.raw(m.keySpan);
        if (m.key === "index") parts.push(key + ":" + p);
        else if (m.key === "rows") parts.push(key + ":" + patchRows(old, section, rowChanges, cs));
        else parts.push(key + ":" + cs.raw(m.value));
      }
    } else {
      const seen = new Set();
      for (const m of old.members(section)) {
        const key = old.raw(m.keySpan);
        const first = !seen.has(m.key);
        seen.add(m.key);
        if (first && m.key === "index") parts.push(key + ":" + p);
        else if (first && m.key === "path" && paths.has(p)) parts.push(key + ":" + cs.raw(/** @type {Span} */ (paths.get(p))));
        else if (first && m.key === "rows") parts.push(key + ":" + patchRows(old, section, rowChanges, cs));
        else parts.push(key + ":" + old.raw(m.value));
      }
    }
    out.push("{" + parts.join(",") + "}");
  });
  return "[" + out.join(",") + "]";
}

/**
 * @param {Doc} old
 * @param {Span} section
 * @param {Span | undefined} changes
 * @param {Doc} cs
 */
function patchRows(old, section, changes, cs) {
  const rowsNode = old.value(section, "rows");
  if (!rowsNode || old.kind(rowsNode) !== "array") throw new ChangeSetError("a base section has no `rows` array");
  if (!changes) return old.raw(rowsNode);
  if (cs.kind(changes) !== "object") throw new ChangeSetError("rows changes are not an object");
  const replace = cs.value(changes, "replace");
  if (replace) {
    if (cs.kind(replace) !== "array") throw new ChangeSetError("rows.replace is not an array");
    return cs.raw(replace);
  }
  const rows = old.elements(rowsNode);
  const plan = listPlan(cs, changes, rows.length, "row", "rows");
  const out = plan.slots.map((slot) => {
    if ("inserted" in slot) return cs.raw(slot.inserted);
    const update = plan.updates[slot.old];
    if (update) {
      const row = cs.value(update, "row");
      if (!row) throw new ChangeSetError("rows.updates[] has no `row`");
      return cs.raw(row);
    }
    return old.raw(rows[slot.old]);
  });
  return "[" + out.join(",") + "]";
}

