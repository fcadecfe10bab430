// Types of json-text.js (checked by `tsc --strict` in `make test`; layout-client.d.ts re-exports them all).

/** A span of a JSON text: its value is `text.slice(start, end)`. */
export interface Span {
  start: number;
  end: number;
}

/** An object's member: its key, the key's span and the value's. */
export interface Member {
  key: string;
  keySpan: Span;
  value: Span;
}

/** A parsed view of one JSON text: spans, members and values by key (what the applier reads records with). */
export declare class Doc {
  /** Throws `ChangeSetError` when the text is not one JSON value. */
  constructor(text: string);
  readonly text: string;
  /** The whole value's span. */
  readonly root: Span;
  raw(s: Span): string;
  kind(s: Span): "object" | "array" | "string" | "null" | "boolean" | "number";
  members(s: Span): Member[];
  elements(s: Span): Span[];
  /** The value of member `key` of object `s` (the first, when a key repeats). */
  value(s: Span, key: string): Span | undefined;
  /** A safe integer's value, else undefined. */
  int(s: Span | undefined): number | undefined;
  string(s: Span | undefined): string | undefined;
}
