// json-text.js: reading JSON text in place: values are spans of the text, so what is copied is copied exactly.
// Swift kit: JSONText.

import { ChangeSetError } from "./wire.js";

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
export class Doc {
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

