// layout-client.js: the web side of layout-worker's contract (layout records and change sets, version 2).
// Plain ES module, no dependencies. Types: layout-client.d.ts.
//
//   applyChangeSet(baseRecordText, changeSetText) -> the target record's text, byte for byte
//   xxh64Hex(text) -> the content hash change sets name records by
//   LayoutView: draws a record into a DOM element, keyed by section and row ids, and animates change sets

/** The record and change-set format version this client reads. */
export const FORMAT_VERSION = 2;

/** The record before a page's first layout (what a change set with `"base": null` applies to). */
export const EMPTY_RECORD = `{"version":${FORMAT_VERSION},"source":null,"page":null,"sections":[],"diagnostics":[]}`;

/** A change set's `kind` member (a record has none). */
export const CHANGE_SET_KIND = "layout-change-set";

/** Media types of a record and a change set (`content-type` without its `version` parameter). */
export const RECORD_MEDIA_TYPE = "application/vnd.layout-record+json";
export const CHANGE_SET_MEDIA_TYPE = "application/vnd.layout-change-set+json";

/** The renderers every kit ships for placeholders no mapping matched (the compiler's built-in names). */
export const BUILT_IN_PLACEHOLDERS = Object.freeze({
  loading: "LoadingPlaceholder",
  noResults: "NoResultsPlaceholder",
  error: "ErrorPlaceholder",
});

/** The renderer's record does not hash to the change set's base: it missed a change set and must fetch the record. */
export class StaleBaseError extends Error {
  /**
   * @param {string} expected
   * @param {string} actual
   */
  constructor(expected, actual) {
    super(`stale base: the change set applies to record ${expected}, this record is ${actual}; fetch the full record`);
    this.name = "StaleBaseError";
    this.expected = expected;
    this.actual = actual;
  }
}

/** The change set is malformed, or applying it did not give its target (a bug on one side: report it). */
export class ChangeSetError extends Error {
  /** @param {string} message */
  constructor(message) {
    super(message);
    this.name = "ChangeSetError";
  }
}

// ---------------------------------------------------------------------------------------------------------------
// XXH64 (seed 0) over UTF-8 bytes, as 16 hex digits.

const MASK = (1n << 64n) - 1n;
const P1 = 0x9e3779b185ebca87n;
const P2 = 0xc2b2ae3d27d4eb4fn;
const P3 = 0x165667b19e3779f9n;
const P4 = 0x85ebca77c2b2ae63n;
const P5 = 0x27d4eb2f165667c5n;

/** @param {bigint} x @param {bigint} r */
const rotl = (x, r) => ((x << r) | (x >> (64n - r))) & MASK;
/** @param {bigint} acc @param {bigint} input */
const round = (acc, input) => (rotl((acc + input * P2) & MASK, 31n) * P1) & MASK;
/** @param {bigint} acc @param {bigint} v */
const mergeRound = (acc, v) => (((acc ^ round(0n, v)) * P1) + P4) & MASK;

const encoder = new TextEncoder();

/**
 * XXH64 (seed 0) of a string's UTF-8 bytes (or of bytes), as 16 lowercase hex digits.
 * @param {string | Uint8Array} input
 * @returns {string}
 */
export function xxh64Hex(input) {
  const b = typeof input === "string" ? encoder.encode(input) : input;
  const view = new DataView(b.buffer, b.byteOffset, b.byteLength);
  const n = b.length;
  let i = 0;
  let h;
  if (n >= 32) {
    let v1 = (P1 + P2) & MASK, v2 = P2, v3 = 0n, v4 = (0n - P1) & MASK;
    while (i + 32 <= n) {
      v1 = round(v1, view.getBigUint64(i, true));
      v2 = round(v2, view.getBigUint64(i + 8, true));
      v3 = round(v3, view.getBigUint64(i + 16, true));
      v4 = round(v4, view.getBigUint64(i + 24, true));
      i += 32;
    }
    h = (rotl(v1, 1n) + rotl(v2, 7n) + rotl(v3, 12n) + rotl(v4, 18n)) & MASK;
    h = mergeRound(mergeRound(mergeRound(mergeRound(h, v1), v2), v3), v4);
  } else {
    h = P5;
  }
  h = (h + BigInt(n)) & MASK;
  while (i + 8 <= n) {
    h = ((rotl(h ^ round(0n, view.getBigUint64(i, true)), 27n) * P1) + P4) & MASK;
    i += 8;
  }
  if (i + 4 <= n) {
    h = ((rotl(h ^ ((BigInt(view.getUint32(i, true)) * P1) & MASK), 23n) * P2) + P3) & MASK;
    i += 4;
  }
  while (i < n) {
    h = (rotl(h ^ ((BigInt(b[i]) * P5) & MASK), 11n) * P1) & MASK;
    i += 1;
  }
  h ^= h >> 33n;
  h = (h * P2) & MASK;
  h ^= h >> 29n;
  h = (h * P3) & MASK;
  h ^= h >> 32n;
  return h.toString(16).padStart(16, "0");
}

// ---------------------------------------------------------------------------------------------------------------
// Reading JSON text in place: values are spans of the text, so what is copied is copied exactly.

/** @typedef {{start: number, end: number}} Span */
/** @typedef {{key: string, keySpan: Span, value: Span}} Member */

/**
 * @param {string} t
 * @param {number} i
 */
function skipSpace(t, i) {
  for (;;) {
    const c = t.charCodeAt(i);
    if (c === 32 || c === 10 || c === 13 || c === 9) i++;
    else return i;
  }
}

/**
 * The end of the JSON value starting at `i` (after leading space).
 * @param {string} t
 * @param {number} i
 * @returns {number}
 */
function valueEnd(t, i) {
  const c = t.charCodeAt(i);
  if (c === 34) return stringEnd(t, i);
  if (c === 123 || c === 91) {
    let depth = 0;
    for (let j = i; j < t.length; j++) {
      const d = t.charCodeAt(j);
      if (d === 34) j = stringEnd(t, j) - 1;
      else if (d === 123 || d === 91) depth++;
      else if (d === 125 || d === 93) {
        depth--;
        if (depth === 0) return j + 1;
      }
    }
    throw new ChangeSetError(`unterminated ${c === 123 ? "object" : "array"} at ${i}`);
  }
  let j = i;
  while (j < t.length) {
    const d = t.charCodeAt(j);
    if (d === 44 || d === 125 || d === 93 || d === 32 || d === 10 || d === 13 || d === 9) break;
    j++;
  }
  if (j === i) throw new ChangeSetError(`a value was expected at ${i}`);
  return j;
}

/**
 * @param {string} t
 * @param {number} i the opening quote
 */
function stringEnd(t, i) {
  for (let j = i + 1; j < t.length; j++) {
    const c = t.charCodeAt(j);
    if (c === 92) j++;
    else if (c === 34) return j + 1;
  }
  throw new ChangeSetError(`unterminated string at ${i}`);
}

/**
 * The members of the object spanning `span`.
 * @param {string} t
 * @param {Span} span
 * @returns {Member[]}
 */
function members(t, span) {
  if (t.charCodeAt(span.start) !== 123) throw new ChangeSetError(`an object was expected at ${span.start}`);
  /** @type {Member[]} */
  const out = [];
  let i = skipSpace(t, span.start + 1);
  if (t.charCodeAt(i) === 125) return out;
  for (;;) {
    if (t.charCodeAt(i) !== 34) throw new ChangeSetError(`a key was expected at ${i}`);
    const keyEnd = stringEnd(t, i);
    const keyText = t.slice(i, keyEnd);
    const key = keyText.includes("\\") ? JSON.parse(keyText) : keyText.slice(1, -1);
    let j = skipSpace(t, keyEnd);
    if (t.charCodeAt(j) !== 58) throw new ChangeSetError(`':' was expected at ${j}`);
    j = skipSpace(t, j + 1);
    const end = valueEnd(t, j);
    out.push({ key, keySpan: { start: i, end: keyEnd }, value: { start: j, end } });
    i = skipSpace(t, end);
    const c = t.charCodeAt(i);
    if (c === 125) return out;
    if (c !== 44) throw new ChangeSetError(`',' or '}' was expected at ${i}`);
    i = skipSpace(t, i + 1);
  }
}

/**
 * The elements of the array spanning `span`.
 * @param {string} t
 * @param {Span} span
 * @returns {Span[]}
 */
function elements(t, span) {
  if (t.charCodeAt(span.start) !== 91) throw new ChangeSetError(`an array was expected at ${span.start}`);
  /** @type {Span[]} */
  const out = [];
  let i = skipSpace(t, span.start + 1);
  if (t.charCodeAt(i) === 93) return out;
  for (;;) {
    const end = valueEnd(t, i);
    out.push({ start: i, end });
    i = skipSpace(t, end);
    const c = t.charCodeAt(i);
    if (c === 93) return out;
    if (c !== 44) throw new ChangeSetError(`',' or ']' was expected at ${i}`);
    i = skipSpace(t, i + 1);
  }
}

/** A parsed view of one JSON text: spans, members and values by key. */
class Doc {
  /** @param {string} text */
  constructor(text) {
    this.text = text;
    const start = skipSpace(text, 0);
    this.root = { start, end: valueEnd(text, start) };
    if (skipSpace(text, this.root.end) !== text.length) throw new ChangeSetError("trailing characters after the JSON value");
    /** @type {Map<number, Member[]>} */
    this.memberCache = new Map();
  }
  /** @param {Span} s */
  raw(s) {
    return this.text.slice(s.start, s.end);
  }
  /** @param {Span} s */
  kind(s) {
    const c = this.text.charCodeAt(s.start);
    if (c === 123) return "object";
    if (c === 91) return "array";
    if (c === 34) return "string";
    if (c === 110) return "null";
    if (c === 116 || c === 102) return "boolean";
    return "number";
  }
  /** @param {Span} s */
  members(s) {
    let out = this.memberCache.get(s.start);
    if (!out) {
      out = members(this.text, s);
      this.memberCache.set(s.start, out);
    }
    return out;
  }
  /** @param {Span} s */
  elements(s) {
    return elements(this.text, s);
  }
  /**
   * The value of member `key` of object `s` (the first, when a key repeats).
   * @param {Span} s
   * @param {string} key
   * @returns {Span | undefined}
   */
  value(s, key) {
    if (this.kind(s) !== "object") return undefined;
    for (const m of this.members(s)) if (m.key === key) return m.value;
    return undefined;
  }
  /** @param {Span | undefined} s */
  int(s) {
    if (!s || this.kind(s) !== "number") return undefined;
    const n = Number(this.raw(s));
    return Number.isSafeInteger(n) ? n : undefined;
  }
  /** @param {Span | undefined} s */
  string(s) {
    if (!s || this.kind(s) !== "string") return undefined;
    return JSON.parse(this.raw(s));
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Applying change sets.

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

// ---------------------------------------------------------------------------------------------------------------
// Drawing records: a DOM renderer keyed by section and row ids.

/**
 * The key of each item in a list by its id, made unique by occurrence (duplicate ids never collide).
 * @param {{id: string}[]} items
 * @returns {string[]}
 */
export function itemKeys(items) {
  /** @type {Map<string, number>} */
  const seen = new Map();
  return items.map((item) => {
    const n = (seen.get(item.id) || 0) + 1;
    seen.set(item.id, n);
    return n === 1 ? item.id : `${item.id}\u0000${n}`;
  });
}

/**
 * Draws layout records into a container element and moves to each next record by keyed reconciliation: sections and
 * rows are matched by id, so what stayed keeps its element (and its state), what moved is animated from its old
 * place, new items fade in and removed ones out. The DOM always ends up equal to the record, whatever the change set,
 * so it cannot get out of step with it.
 */
/**
 * Follows one page through a layout-worker gateway (`layout-worker gateway`): its record, then its change sets over
 * server-sent events, each applied with `applyChangeSet`. EventSource reconnects by itself and sends the hash held
 * (`Last-Event-ID`), so the gateway resumes with the change sets missed; a change set whose base is not the record
 * held (one was missed) makes the feed fetch the record again. `onRecord(text, hash)` gets every record shown.
 */
export class LayoutFeed {
  /**
   * @param {string} gateway the gateway's base URL, e.g. "https://layouts.example.com" ("" for the page's own origin)
   * @param {string} key the page key
   * @param {import("./layout-client").LayoutFeedOptions} options
   */
  constructor(gateway, key, options) {
    this.url = `${gateway.replace(/\/$/, "")}/v1/layouts/${encodeURIComponent(key)}`;
    this.onRecord = options.onRecord;
    this.onError = options.onError || (() => {});
    this.EventSource = options.EventSource || globalThis.EventSource;
    this.fetch = options.fetch || globalThis.fetch.bind(globalThis);
    /** @type {string | null} the record held */
    this.text = null;
    /** @type {string | null} its hash */
    this.hash = null;
    /** @type {any} */
    this.source = null;
    /** @type {Promise<void> | null} a record fetch in progress */
    this.fetching = null;
    /** @type {any} a reconnection waiting */
    this.retry = undefined;
  }

  /** Opens the stream. */
  start() {
    const source = new this.EventSource(`${this.url}/changes`);
    this.source = source;
    source.addEventListener("record", (/** @type {any} */ e) => this.show(e.data));
    source.addEventListener("change-set", (/** @type {any} */ e) => this.apply(e.data));
    source.addEventListener("error", () => {
      this.onError(new Error("the stream was interrupted; reconnecting"));
      // EventSource gives up on an answer that is not a stream (a gateway not ready yet answers 503): open anew.
      if (source.readyState === 2 && this.source === source) {
        this.retry = setTimeout(() => { if (this.source === source) this.start(); }, 2000);
      }
    });
    return this;
  }

  /** Closes the stream. */
  close() {
    if (this.source) this.source.close();
    this.source = null;
    clearTimeout(this.retry);
  }

  /** @param {string} text */
  show(text) {
    const hash = xxh64Hex(text);
    if (hash === this.hash) return;
    this.text = text;
    this.hash = hash;
    this.onRecord(text, hash);
  }

  /** @param {string} changeSet */
  apply(changeSet) {
    if (this.fetching) return; // the record being fetched already holds it, or a later one
    try {
      this.show(applyChangeSet(this.text, changeSet));
    } catch (e) {
      if (e instanceof StaleBaseError) {
        this.refetch();
      } else {
        this.onError(e instanceof Error ? e : new Error(String(e)));
      }
    }
  }

  /** Fetches the record (a stale base: a change set was missed). */
  refetch() {
    this.fetching = (async () => {
      try {
        /** @type {Record<string, string>} */
        const headers = this.hash ? { "If-None-Match": `"${this.hash}"` } : {};
        const response = await this.fetch(this.url, { headers });
        if (response.status === 200) this.show(await response.text());
        else if (response.status !== 304) this.onError(new Error(`GET ${this.url}: ${response.status}`));
      } catch (e) {
        this.onError(e instanceof Error ? e : new Error(String(e)));
      } finally {
        this.fetching = null;
      }
    })();
    return this.fetching;
  }
}

/**
 * The renderer `row` is drawn with by an app that has `available` (a list of names, or an object keyed by them): its
 * own when available, else the first of its `fallbacks` that is (a renderer added after the app was released), else
 * null (the app's generic drawing). An unresolved row (renderer null) has no chain: null.
 * @param {{renderer: string | null, fallbacks?: string[]}} row
 * @param {readonly string[] | Record<string, unknown>} available
 * @returns {string | null}
 */
export function rendererFor(row, available) {
  const has = Array.isArray(available)
    ? (/** @type {string} */ name) => available.includes(name)
    : (/** @type {string} */ name) => Object.prototype.hasOwnProperty.call(available, name);
  if (row.renderer === null) return null;
  if (has(row.renderer)) return row.renderer;
  return (row.fallbacks || []).find(has) || null;
}

export class LayoutView {
  /**
   * @param {Element} container
   * @param {import("./layout-client").LayoutViewOptions} [options]
   */
  constructor(container, options = {}) {
    this.container = container;
    this.document = options.document || container.ownerDocument;
    this.renderRow = options.renderRow || defaultRenderRow;
    this.renderers = options.renderers || null;
    this.renderSupplementary = options.renderSupplementary || defaultRenderSupplementary;
    this.renderPlaceholder = options.renderPlaceholder || defaultRenderPlaceholder;
    this.renderSectionLabel = options.renderSectionLabel || null;
    this.showHidden = Boolean(options.showHidden);
    this.animate = options.animate !== false;
    this.onEvent = options.onEvent;
    /** @type {string | null} */
    this.text = null;
    /** @type {any} */
    this.record = null;
  }

  /** The text of the record shown (null before the first). */
  get recordText() {
    return this.text;
  }

  /**
   * Shows `recordText`, reusing the elements of sections and rows that stay.
   * @param {string} recordText
   */
  render(recordText) {
    const record = JSON.parse(recordText);
    const before = this.animate ? positions(this.container) : new Map();
    /** @type {Map<string, Element>} */
    const oldSections = new Map();
    for (const el of Array.from(this.container.children)) {
      const key = /** @type {HTMLElement} */ (el).dataset.key;
      if (key !== undefined) oldSections.set(key, el);
    }
    const sections = record.sections || [];
    const keys = itemKeys(sections);
    /** @type {Element[]} */
    const wanted = [];
    sections.forEach((/** @type {any} */ section, /** @type {number} */ n) => {
      if (!section.visible && !this.showHidden) return;
      let el = oldSections.get(keys[n]);
      if (el) oldSections.delete(keys[n]);
      else el = this.newElement("section", keys[n], "lw-section", true);
      this.fillSection(el, section);
      wanted.push(el);
    });
    for (const el of oldSections.values()) this.remove(el);
    placeChildren(this.container, wanted, oldSections);
    if (this.animate) animateMoves(this.container, before);
    this.text = recordText;
    this.record = record;
  }

  /**
   * Applies a change set to the record shown and draws the result; returns the new record's text. A change set for
   * another record throws `StaleBaseError` and changes nothing.
   * @param {string} changeSetText
   */
  apply(changeSetText) {
    const next = applyChangeSet(this.text, changeSetText);
    if (next !== this.text) this.render(next);
    return next;
  }

  /**
   * @param {string} tag
   * @param {string} key
   * @param {string} className
   * @param {boolean} fresh
   */
  newElement(tag, key, className, fresh) {
    const el = this.document.createElement(tag);
    /** @type {HTMLElement} */ (el).dataset.key = key;
    el.className = className;
    if (fresh && this.animate && typeof el.animate === "function") {
      el.animate([{ opacity: 0 }, { opacity: 1 }], { duration: 200 });
    }
    return el;
  }

  /** @param {Element} el */
  remove(el) {
    if (this.animate && typeof el.animate === "function") {
      const animation = el.animate([{ opacity: 1 }, { opacity: 0 }], { duration: 150 });
      animation.onfinish = () => el.remove();
      el.setAttribute("data-leaving", "");
    } else {
      el.remove();
    }
  }

  /**
   * @param {Element} el
   * @param {any} section
   */
  fillSection(el, section) {
    const h = /** @type {HTMLElement} */ (el);
    h.dataset.sectionId = section.id;
    h.dataset.type = section.type;
    h.dataset.path = section.path;
    h.classList.toggle("lw-hidden", !section.visible);
    /** @type {Map<string, Element>} */
    const old = new Map();
    for (const child of Array.from(el.children)) {
      const key = /** @type {HTMLElement} */ (child).dataset.key;
      if (key !== undefined && !child.hasAttribute("data-leaving")) old.set(key, child);
    }
    /** @type {Element[]} */
    const wanted = [];
    /** @param {string} key @param {() => Element} make */
    const keep = (key, make) => {
      const previous = old.get(key);
      old.delete(key);
      const fresh = make();
      /** @type {HTMLElement} */ (fresh).dataset.key = key;
      if (previous && previous.outerHTML === fresh.outerHTML) {
        wanted.push(previous);
      } else {
        if (!previous && this.animate && typeof fresh.animate === "function") {
          fresh.animate([{ opacity: 0 }, { opacity: 1 }], { duration: 200 });
        }
        if (previous) previous.replaceWith(fresh);
        wanted.push(fresh);
      }
    };
    const label = this.renderSectionLabel;
    if (label) {
      const made = label(section, this.document);
      if (made) keep("\u0001label", () => made);
    }
    if (section.header) keep("\u0001header", () => this.renderSupplementary("header", section.header, section, this.document));
    if (section.placeholder) {
      keep("\u0001placeholder", () => this.renderPlaceholder(section.placeholder, section, this.document));
    }
    const rows = section.rows || [];
    const rowKeys = itemKeys(rows);
    rows.forEach((/** @type {any} */ row, /** @type {number} */ n) => {
      keep(rowKeys[n], () => {
        const renderers = this.renderers;
        const chosen = renderers && rendererFor(row, renderers);
        const rowEl = renderers && chosen ? renderers[chosen](row, section, this.document) : this.renderRow(row, section, this.document);
        rowEl.classList.add("lw-row");
        /** @type {HTMLElement} */ (rowEl).dataset.rowId = row.id;
        if (row.renderer === null) rowEl.classList.add("lw-unresolved");
        if (this.onEvent && row.events) {
          rowEl.addEventListener("click", () => {
            if (this.onEvent && row.events.onSelect) this.onEvent("onSelect", row.events.onSelect, row, section);
          });
        }
        return rowEl;
      });
    });
    if (section.footer) keep("\u0001footer", () => this.renderSupplementary("footer", section.footer, section, this.document));
    for (const child of old.values()) this.remove(child);
    placeChildren(el, wanted, old);
  }
}

/**
 * Puts `wanted` in order as the children of `parent`, leaving children that are on their way out where they are.
 * @param {Element} parent
 * @param {Element[]} wanted
 * @param {Map<string, Element>} leaving
 */
function placeChildren(parent, wanted, leaving) {
  const going = new Set(leaving.values());
  let cursor = parent.firstElementChild;
  for (const el of wanted) {
    while (cursor && (going.has(cursor) || cursor.hasAttribute("data-leaving"))) cursor = cursor.nextElementSibling;
    if (cursor === el) {
      cursor = cursor.nextElementSibling;
    } else {
      parent.insertBefore(el, cursor);
    }
  }
}

/**
 * Where each keyed child is now (for animating moves).
 * @param {Element} parent
 */
function positions(parent) {
  /** @type {Map<Element, DOMRect>} */
  const out = new Map();
  if (typeof parent.getBoundingClientRect !== "function") return out;
  for (const el of Array.from(parent.querySelectorAll ? parent.querySelectorAll("[data-key]") : [])) {
    out.set(el, el.getBoundingClientRect());
  }
  return out;
}

/**
 * Animates every element that moved from its old place to its new one.
 * @param {Element} parent
 * @param {Map<Element, DOMRect>} before
 */
function animateMoves(parent, before) {
  for (const [el, old] of before) {
    if (!parent.contains(el) || typeof el.animate !== "function") continue;
    const now = el.getBoundingClientRect();
    const dx = old.left - now.left, dy = old.top - now.top;
    if (dx !== 0 || dy !== 0) {
      el.animate([{ transform: `translate(${dx}px, ${dy}px)` }, { transform: "none" }], { duration: 250, easing: "ease-out" });
    }
  }
}

/** The main text of a model: `label`, `name`, `displayName`, a product's display name, or its id. */
function mainText(/** @type {any} */ model, /** @type {string} */ fallback) {
  if (model && typeof model === "object") {
    for (const k of ["label", "name", "displayName", "title"]) if (typeof model[k] === "string") return model[k];
    const attrs = model.attributes;
    if (attrs && Array.isArray(attrs["product.displayName"])) return String(attrs["product.displayName"][0]);
  }
  if (typeof model === "string" || typeof model === "number") return String(model);
  return fallback;
}

/** @type {import("./layout-client").RenderRow} */
function defaultRenderRow(row, _section, document) {
  const el = document.createElement("div");
  el.className = "lw-card";
  const name = document.createElement("span");
  name.className = "lw-renderer";
  name.textContent = row.renderer === null ? "unresolved" : row.renderer;
  const text = document.createElement("span");
  text.className = "lw-text";
  text.textContent = mainText(row.model, row.id);
  el.append(name, text);
  return el;
}

/** @type {import("./layout-client").RenderSupplementary} */
function defaultRenderSupplementary(kind, view, _section, document) {
  const el = document.createElement(kind === "header" ? "h3" : "footer");
  el.className = `lw-${kind}`;
  el.textContent = mainText(view.model, view.renderer || kind);
  return el;
}

/** @type {import("./layout-client").RenderPlaceholder} */
function defaultRenderPlaceholder(placeholder, _section, document) {
  const el = document.createElement("div");
  el.className = `lw-placeholder lw-${placeholder.kind}`;
  el.textContent = placeholder.message || placeholder.renderer || BUILT_IN_PLACEHOLDERS[placeholder.kind];
  return el;
}
