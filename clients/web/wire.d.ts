// Types of wire.js (checked by `tsc --strict` in `make test`; layout-client.d.ts re-exports them all).

/** The record and change-set format version this client reads. */
export declare const FORMAT_VERSION: 2;
/** The record before a page's first layout. */
export declare const EMPTY_RECORD: string;
/** A change set's `kind` member (a record has none). */
export declare const CHANGE_SET_KIND: "layout-change-set";
/** Media types of a record and a change set (`content-type` without its `version` parameter). */
export declare const RECORD_MEDIA_TYPE: "application/vnd.layout-record+json";
export declare const CHANGE_SET_MEDIA_TYPE: "application/vnd.layout-change-set+json";
/** The renderers every kit ships for placeholders no mapping matched. */
export declare const BUILT_IN_PLACEHOLDERS: Readonly<{
  loading: "LoadingPlaceholder";
  noResults: "NoResultsPlaceholder";
  error: "ErrorPlaceholder";
}>;

/** The record does not hash to the change set's base: fetch the full record. */
export declare class StaleBaseError extends Error {
  name: "StaleBaseError";
  readonly expected: string;
  readonly actual: string;
  constructor(expected: string, actual: string);
}

/** The change set is malformed, or did not give its target. */
export declare class ChangeSetError extends Error {
  name: "ChangeSetError";
  constructor(message: string);
}

// The record (version 2), as JSON.parse gives it.

export interface Action {
  kind: "navigate" | "record" | "remove" | "link";
  target: string;
  siteRootPath?: string;
  label?: string;
}

export interface RowEvent {
  handler?: string;
  action?: Action | null;
  fields?: Record<string, unknown>;
}

export interface Row {
  id: string;
  renderer: string | null;
  /** The lower levels of the row's renderer chain, ending with the default renderer: drawn when `renderer` is not available. */
  fallbacks?: string[];
  model: unknown;
  action?: Action;
  events?: Record<string, RowEvent>;
}

export interface SupplementaryView {
  renderer: string | null;
  model: unknown;
}

export interface Placeholder {
  kind: "loading" | "noResults" | "error";
  renderer: string | null;
  message?: string;
}

export interface Section {
  id: string;
  path: string;
  index: number;
  type: string;
  adaptor: string;
  visible: boolean;
  parent?: string;
  group?: { by: string; value: unknown };
  attributes?: Record<string, unknown>;
  header?: SupplementaryView;
  footer?: SupplementaryView;
  supplementary?: Record<string, SupplementaryView>;
  placeholder?: Placeholder;
  rows: Row[];
}

export interface Diagnostic {
  severity: "info" | "warning" | "error";
  code: string;
  path: string;
  message: string;
}

export interface LayoutRecord {
  version: 2;
  source: Record<string, unknown> | null;
  page: Record<string, unknown> | null;
  sections: Section[];
  diagnostics: Diagnostic[];
}
