// Compiled by `tsc --noEmit` only: uses the declared types the way an app would, so a wrong .d.ts fails the build.
import { applyChangeSet, LayoutView, StaleBaseError, xxh64Hex, type LayoutRecord, type Row } from "../layout-client";

declare const base: string | null;
declare const changeSet: string;
declare const container: Element;

export function follow(view: LayoutView): string | undefined {
  try {
    return view.apply(changeSet);
  } catch (e) {
    if (e instanceof StaleBaseError) return e.expected;
    throw e;
  }
}

export function rowsOf(text: string): Row[] {
  const record = JSON.parse(applyChangeSet(base, text)) as LayoutRecord;
  const hash: string = xxh64Hex(text);
  return record.sections.flatMap((s) => (s.visible && hash.length === 16 ? s.rows : []));
}

export const view = new LayoutView(container, {
  renderRow: (row, _section, document) => {
    const el = document.createElement("div");
    el.textContent = row.renderer ?? "unresolved";
    return el;
  },
  onEvent: (name, event) => console.log(name, event.handler, event.fields),
});
