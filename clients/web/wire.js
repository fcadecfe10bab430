// wire.js: what the layout-worker contract names (format version, media types, the built-in placeholders) and the
// errors applying a change set can end in. Swift kit: Wire, ChangeSetError.

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

