// node --test: LayoutView keeps the DOM equal to the record through every change set, keeping the elements of what
// stayed (so they can be animated rather than redrawn).
import { test } from "node:test";
import assert from "node:assert/strict";
import { LayoutView, StaleBaseError, rendererFor } from "../layout-client.js";
import { fixtures, skip, read } from "../test-support/fixtures.js";
import { FakeDocument } from "../test-support/fake-dom.js";

/** The DOM as (section id, type, row ids) and the record's visible sections the same way. */
function drawn(container) {
  return container.children.map((s) => ({
    id: s.dataset.sectionId,
    type: s.dataset.type,
    rows: s.children.filter((c) => c.classList.contains("lw-row")).map((r) => r.dataset.rowId),
  }));
}
function expected(recordText, showHidden = false) {
  return JSON.parse(recordText).sections.filter((s) => s.visible || showHidden).map((s) => ({
    id: s.id, type: s.type, rows: s.rows.map((r) => r.id),
  }));
}

test("the DOM equals every target record, change set after change set", { skip }, () => {
  const document = new FakeDocument();
  let checked = 0;
  for (const showHidden of [false, true]) {
    for (const c of fixtures) {
      const container = document.createElement("div");
      const view = new LayoutView(container, { document, showHidden, animate: false });
      if (c.base) view.render(read(c.base));
      view.apply(read(c.changeSet));
      assert.deepEqual(drawn(container), expected(read(c.target), showHidden), c.name);
      assert.equal(view.recordText, read(c.target));
      checked++;
    }
  }
  assert.ok(checked >= 400);
});

test("rows and sections that stay keep their elements; changed rows are redrawn", { skip }, () => {
  const document = new FakeDocument();
  const c = fixtures.find((f) => f.name === "sample-search-page-to-sample-grouped-results") || fixtures.find((f) => f.base);
  const random = fixtures.filter((f) => f.name.startsWith("random"));
  let kept = 0, redrawn = 0;
  for (const f of [c, ...random]) {
    const container = document.createElement("div");
    const view = new LayoutView(container, { document, animate: false });
    view.render(read(f.base));
    const before = new Map();
    for (const s of container.children) for (const r of s.children) before.set(`${s.dataset.key}/${r.dataset.key}`, [r, r.outerHTML]);
    view.apply(read(f.changeSet));
    for (const s of container.children) {
      for (const r of s.children) {
        const old = before.get(`${s.dataset.key}/${r.dataset.key}`);
        if (!old) continue;
        if (old[1] === r.outerHTML) { assert.equal(old[0], r, f.name); kept++; } else { redrawn++; }
      }
    }
  }
  assert.ok(kept > 1000 && redrawn > 10, `${kept} kept, ${redrawn} redrawn`);
});

test("a stale change set throws and leaves the view as it was", { skip }, () => {
  const document = new FakeDocument();
  const c = fixtures.find((f) => f.base && f.name.startsWith("random") && read(f.base) !== read(f.target));
  const other = fixtures.find((f) => f.base && f.base !== c.base && read(f.base) !== read(c.base));
  const container = document.createElement("div");
  const view = new LayoutView(container, { document, animate: false });
  view.render(read(other.base));
  const shown = JSON.stringify(drawn(container));
  assert.throws(() => view.apply(read(c.changeSet)), StaleBaseError);
  assert.equal(JSON.stringify(drawn(container)), shown);
  assert.equal(view.recordText, read(other.base));
});

test("clicking a row with events routes its onSelect", () => {
  const document = new FakeDocument();
  const record = JSON.stringify({
    version: 2, source: null, page: null, diagnostics: [],
    sections: [{ id: "S", path: "$", index: 0, type: "T", adaptor: "Generic", visible: true, rows: [
      { id: "a", renderer: "Cell", model: { label: "A" }, events: { onSelect: { handler: "open", fields: { id: "a" } } } },
      { id: "b", renderer: null, model: { label: "B" } },
    ] }],
  });
  const seen = [];
  const container = document.createElement("div");
  const view = new LayoutView(container, { document, animate: false, onEvent: (name, event, row) => seen.push([name, event.handler, row.id]) });
  view.render(record);
  const [a, b] = container.children[0].children;
  a.click();
  b.click();
  assert.deepEqual(seen, [["onSelect", "open", "a"]]);
  assert.ok(b.classList.contains("lw-unresolved"));
  assert.equal(a.children[0].textContent, "Cell");
  assert.equal(a.children[1].textContent, "A");
});

test("an app without a row's renderer draws the first of its fallbacks it has", () => {
  const document = new FakeDocument();
  const record = JSON.stringify({
    version: 2, source: null, page: null, diagnostics: [],
    sections: [{ id: "S", path: "$", index: 0, type: "T", adaptor: "Generic", visible: true, rows: [
      { id: "v", renderer: "VideoProductCell", fallbacks: ["ProductCell", "GenericContentCell"], model: {} },
      { id: "p", renderer: "ProductCell", model: {} },
      { id: "x", renderer: "Unknown", model: {} },
      { id: "u", renderer: null, fallbacks: ["ProductCell"], model: {} },
    ] }],
  });
  const cell = (name) => (row, _section, doc) => {
    const el = doc.createElement("div");
    el.textContent = `${name}:${row.id}`;
    return el;
  };
  const container = document.createElement("div");
  const view = new LayoutView(container, { document, animate: false, renderers: { ProductCell: cell("product") } });
  view.render(record);
  const [v, p, x, u] = container.children[0].children;
  assert.equal(v.textContent, "product:v");
  assert.equal(p.textContent, "product:p");
  assert.equal(x.children[0].textContent, "Unknown", "no renderer of its chain: the default drawing");
  assert.ok(u.classList.contains("lw-unresolved"));
  assert.equal(rendererFor({ renderer: "VideoProductCell", fallbacks: ["ProductCell", "GenericContentCell"] }, ["GenericContentCell"]), "GenericContentCell");
  assert.equal(rendererFor({ renderer: "VideoProductCell" }, ["ProductCell"]), null);
});

test("a section label, when asked for, is each section's first child and follows the record", { skip }, () => {
  const document = new FakeDocument();
  const c = fixtures.find((f) => f.base);
  const container = document.createElement("div");
  const renderSectionLabel = (section, doc) => {
    const el = doc.createElement("div");
    el.className = "label";
    el.textContent = `${section.type} (${(section.rows || []).length})`;
    return el;
  };
  const view = new LayoutView(container, { document, animate: false, renderSectionLabel });
  view.render(read(c.base));
  view.apply(read(c.changeSet));
  const sections = JSON.parse(read(c.target)).sections.filter((s) => s.visible);
  assert.deepEqual(
    container.children.map((s) => s.children[0].textContent),
    sections.map((s) => `${s.type} (${s.rows.length})`),
  );
  assert.deepEqual(drawn(container), expected(read(c.target)));
});
