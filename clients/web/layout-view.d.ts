// Types of layout-view.js (checked by `tsc --strict` in `make test`; layout-client.d.ts re-exports them all).

import type { Placeholder, Row, RowEvent, Section, SupplementaryView, LayoutRecord } from "./wire.js";

/** Keys unique within a list: the id, with its occurrence appended for repeats. */
export declare function itemKeys(items: ReadonlyArray<{ id: string }>): string[];

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
