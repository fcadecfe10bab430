// Types of layout-client.js (checked by `tsc --noEmit` in `make test`).

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

/** XXH64 (seed 0) of a string's UTF-8 bytes (or of bytes), as 16 lowercase hex digits. */
export declare function xxh64Hex(input: string | Uint8Array): string;

/**
 * The record `changeSetText` makes from `baseRecordText` (null for a change set from empty), byte for byte.
 * Throws `StaleBaseError` when the base is not the change set's; returns the base unchanged when it already is the
 * target (a change set delivered twice).
 */
export declare function applyChangeSet(baseRecordText: string | null, changeSetText: string): string;

/** Keys unique within a list: the id, with its occurrence appended for repeats. */
export declare function itemKeys(items: ReadonlyArray<{ id: string }>): string[];

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

export type RenderRow = (row: Row, section: Section, document: Document) => Element;
export type RenderSupplementary = (
  kind: string,
  view: SupplementaryView,
  section: Section,
  document: Document,
) => Element;
export type RenderPlaceholder = (placeholder: Placeholder, section: Section, document: Document) => Element;

export interface LayoutViewOptions {
  /** The document elements are made in (default: the container's). */
  document?: Document;
  /** Draws rows of other renderers, and of rows whose renderer none of `renderers` has. */
  renderRow?: RenderRow;
  /** Row renderers by name: a row is drawn by its renderer, else the first of its `fallbacks` found here, else `renderRow`. */
  renderers?: Record<string, RenderRow>;
  renderSupplementary?: RenderSupplementary;
  renderPlaceholder?: RenderPlaceholder;
  /** Draws a label as a section's first child (e.g. its type); none by default. */
  renderSectionLabel?: RenderSectionLabel;
  /** Also draw sections that are not visible (containers). */
  showHidden?: boolean;
  /** Animate inserts, moves and deletes (default true; needs Element.animate). */
  animate?: boolean;
  /** Called when a row with events is clicked: the row's `onSelect`. */
  onEvent?: (name: string, event: RowEvent, row: Row, section: Section) => void;
}

/** Makes the element labelling a section, or null for none. */
export type RenderSectionLabel = (section: Section, document: Document) => Element | null;

/** The renderer an app with `available` draws `row` with: its own, else the first of its fallbacks available, else null. */
export declare function rendererFor(
  row: Pick<Row, "renderer" | "fallbacks">,
  available: readonly string[] | Record<string, unknown>,
): string | null;

/** Draws records into a container, keyed by section and row ids, animating what a change set changed. */
export declare class LayoutView {
  constructor(container: Element, options?: LayoutViewOptions);
  readonly container: Element;
  /** Draw sections that are not visible too (takes effect at the next render). */
  showHidden: boolean;
  /** The text of the record shown (null before the first). */
  readonly recordText: string | null;
  /** The record shown, parsed. */
  readonly record: LayoutRecord | null;
  /** Shows a record, reusing the elements of sections and rows that stay. */
  render(recordText: string): void;
  /** Applies a change set to the record shown and draws the result; returns the new record's text. */
  apply(changeSetText: string): string;
}

export interface LayoutFeedOptions {
  /** Every record the feed shows, with its content hash. */
  onRecord(text: string, hash: string): void;
  /** An interrupted stream (EventSource reconnects by itself), a failed fetch or a malformed change set. */
  onError?(error: Error): void;
  /** For tests and non-browser runtimes. */
  EventSource?: new (url: string) => {
    readonly readyState: number;
    addEventListener(type: string, listener: (event: { data: string }) => void): void;
    close(): void;
  };
  fetch?: (url: string, init?: { headers?: Record<string, string> }) => Promise<{ status: number; text(): Promise<string> }>;
}

/** Follows one page through a layout-worker gateway: record, then change sets applied as they arrive. */
export declare class LayoutFeed {
  constructor(gateway: string, key: string, options: LayoutFeedOptions);
  /** The feed of the layout a row's `navigate` action leads to (its target is the key); null for another kind. */
  static opening(gateway: string, action: { kind: string; target: string }, options: LayoutFeedOptions): LayoutFeed | null;
  /** The record held, and its hash (null before the first). */
  readonly text: string | null;
  readonly hash: string | null;
  start(): this;
  close(): void;
  /** Fetches the record again (done by the feed itself when a change set does not apply). */
  refetch(): Promise<void>;
}
