// Types of change-set-applier.js (checked by `tsc --strict` in `make test`; layout-client.d.ts re-exports them all).

/**
 * The record `changeSetText` makes from `baseRecordText` (null for a change set from empty), byte for byte.
 * Throws `StaleBaseError` when the base is not the change set's; returns the base unchanged when it already is the
 * target (a change set delivered twice).
 */
export declare function applyChangeSet(baseRecordText: string | null, changeSetText: string): string;
