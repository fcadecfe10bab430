// The preview page: draws the layout records `layout-worker preview` serves, and moves to each next one by applying
// the change sets it streams (server-sent events on /events) with the web client, as a renderer would.
import { applyChangeSet } from "../change-set-applier.js";
import { itemKeys, LayoutView } from "../layout-view.js";
import { mainText, pictureElement, pictureURL, priceText, renderPlaceholder, renderSupplementary } from "./cells.js";

/**
 * @typedef {{name: string, record: string | null, problem: string | null, changes: number}} Page
 * @typedef {{severity: string, code: string, path: string, message: string}} Diagnostic
 * @typedef {{section: Diagnostic[], rows: Map<number, Diagnostic[]>}} SectionFindings
 */

const $ = (/** @type {string} */ id) => /** @type {HTMLElement} */ (document.getElementById(id));

const state = {
  /** @type {Page[]} */ pages: [],
  current: 0,
  /** @type {string | null} */ problem: null,
  /** @type {Map<string, SectionFindings>} the current record's diagnostics by section path */
  findings: new Map(),
  /** @type {any} the current record, parsed */ record: null,
  /** @type {{section: string, row: number} | null} */ selected: null,
  /** @type {string | null} the row whose explanation was asked for last */ explaining: null,
};

const view = new LayoutView($("view"), {
  renderRow,
  renderSupplementary,
  renderPlaceholder,
  renderSectionLabel,
  showHidden: false,
});

// ---------------------------------------------------------------------------------------------------------------
// Events from the server.

function connect() {
  const source = new EventSource("/events");
  source.onopen = () => setStatus("live");
  source.onerror = () => setStatus("reconnecting…");
  source.onmessage = (message) => handle(JSON.parse(message.data), source);
}

/**
 * @param {any} event
 * @param {EventSource} source
 */
function handle(event, source) {
  if (event.type === "snapshot") {
    state.pages = event.pages.map((/** @type {any} */ p) => ({ ...p, changes: 0 }));
    state.problem = event.problem;
    state.current = Math.min(state.current, Math.max(0, state.pages.length - 1));
    drawTabs();
    show(true);
  } else if (event.type === "change") {
    const page = state.pages[event.page];
    try {
      page.record = applyChangeSet(page.record, event.changeSet);
    } catch (error) {
      // A change set for another base: this page missed one; start again from a snapshot.
      source.close();
      setStatus(`${/** @type {Error} */ (error).name}: reloading the records`);
      setTimeout(connect, 200);
      return;
    }
    page.changes += 1;
    if (event.page === state.current) show(false);
  } else if (event.type === "problem") {
    if (event.page === null) state.problem = event.message;
    else state.pages[event.page].problem = event.message;
    drawTabs();
    drawProblem();
  }
}

/** @param {string} text */
function setStatus(text) {
  $("status").textContent = text;
}

// ---------------------------------------------------------------------------------------------------------------
// The page.

function drawTabs() {
  const tabs = $("tabs");
  tabs.replaceChildren(
    ...state.pages.map((page, n) => {
      const b = document.createElement("button");
      b.textContent = page.name;
      b.setAttribute("role", "tab");
      b.setAttribute("aria-selected", String(n === state.current));
      b.classList.toggle("has-problem", Boolean(page.problem));
      b.addEventListener("click", () => {
        if (state.current === n) return;
        state.current = n;
        state.selected = null;
        drawTabs();
        show(true);
      });
      return b;
    }),
  );
}

function drawProblem() {
  const page = state.pages[state.current];
  const text = [state.problem, page && page.problem].filter(Boolean).join("\n");
  const box = $("problem");
  box.textContent = text;
  box.hidden = text === "";
}

/** @param {boolean} fresh a page switch or a snapshot: draw without animating from what was there */
function show(fresh) {
  const page = state.pages[state.current];
  drawProblem();
  if (fresh) view.container.replaceChildren();
  if (!page || page.record === null) {
    state.record = null;
    state.findings = new Map();
    view.container.replaceChildren();
    $("page-diagnostics").replaceChildren();
    document.body.dataset.changes = "0";
    return;
  }
  state.record = JSON.parse(page.record);
  state.findings = findings(state.record);
  view.render(page.record);
  drawPageDiagnostics();
  markSelection();
  document.body.dataset.changes = String(page.changes);
}

/**
 * The record's diagnostics by the section they concern; a row's by its index (the compiler's row findings say
 * "row N (id …)").
 * @param {any} record
 * @returns {Map<string, SectionFindings>}
 */
function findings(record) {
  /** @type {Map<string, SectionFindings>} */
  const out = new Map();
  for (const section of record.sections || []) {
    if (!out.has(section.path)) out.set(section.path, { section: [], rows: new Map() });
  }
  for (const d of record.diagnostics || []) {
    const at = out.get(d.path);
    if (!at) continue;
    const row = /^row (\d+) \(id /.exec(d.message);
    if (row) {
      const n = Number(row[1]);
      at.rows.set(n, [...(at.rows.get(n) || []), d]);
    } else {
      at.section.push(d);
    }
  }
  return out;
}

/** Diagnostics about no section drawn (the response, a path outside every section). */
function drawPageDiagnostics() {
  const list = $("page-diagnostics");
  const unplaced = (state.record.diagnostics || []).filter((/** @type {Diagnostic} */ d) => !state.findings.has(d.path));
  list.replaceChildren(...unplaced.map((/** @type {Diagnostic} */ d) => diagnosticElement(d, "li")));
}

/**
 * @param {Diagnostic} d
 * @param {string} tag
 */
function diagnosticElement(d, tag) {
  const el = document.createElement(tag);
  el.className = `lw-diagnostic ${d.severity}`;
  el.dataset.code = d.code;
  el.textContent = `${d.severity} [${d.code}] ${d.message}`;
  return el;
}

// ---------------------------------------------------------------------------------------------------------------
// Drawing sections and rows.

/** @type {import("../layout-client").RenderSectionLabel} */
function renderSectionLabel(section) {
  const el = document.createElement("div");
  el.className = "lw-section-label";
  const type = document.createElement("span");
  type.className = "type";
  type.textContent = section.type;
  const adaptor = document.createElement("span");
  adaptor.textContent = section.visible ? section.adaptor : `${section.adaptor} · container`;
  el.append(type, adaptor);
  const own = (state.findings.get(section.path) || { section: [] }).section;
  if (own.length === 0) return el;
  const wrap = document.createElement("div");
  wrap.append(el, ...own.map((d) => diagnosticElement(d, "div")));
  if (own.some((d) => d.severity === "error")) wrap.className = "has-error";
  return wrap;
}

/** @type {import("../layout-client").RenderRow} */
function renderRow(row, section) {
  const index = (section.rows || []).indexOf(row);
  const at = state.findings.get(section.path);
  /** @type {Diagnostic[]} */
  const found = (at && at.rows.get(index)) || [];
  const ambiguous = found.some((d) => d.code === "ambiguous");
  const el = document.createElement("div");
  el.className = "lw-card";
  el.dataset.rowIndex = String(index);
  if (ambiguous) el.classList.add("lw-ambiguous");
  const picture = pictureURL(row.model);
  if (picture) el.append(pictureElement(picture));
  const fields = document.createElement("div");
  fields.className = "fields";
  const renderer = document.createElement("span");
  renderer.className = "lw-renderer";
  renderer.textContent = row.renderer !== null ? row.renderer : ambiguous ? "ambiguous" : "unresolved";
  const text = document.createElement("span");
  text.className = "lw-text";
  text.textContent = mainText(row.model, row.id);
  fields.append(renderer, text);
  const price = priceText(row.model);
  if (price) {
    const p = document.createElement("span");
    p.className = "lw-price";
    p.textContent = price;
    fields.append(p);
  }
  for (const d of found) fields.append(diagnosticElement(d, "span"));
  el.append(fields);
  return el;
}

// ---------------------------------------------------------------------------------------------------------------
// Selecting a row shows its JSON.

$("view").addEventListener("click", (event) => {
  const rowEl = /** @type {HTMLElement | null} */ (/** @type {Element} */ (event.target).closest(".lw-row"));
  const sectionEl = /** @type {HTMLElement | null} */ (rowEl && rowEl.closest(".lw-section"));
  if (!rowEl || !sectionEl) return;
  state.selected = { section: sectionEl.dataset.key || "", row: Number(rowEl.dataset.rowIndex) };
  markSelection();
});

function markSelection() {
  for (const el of Array.from(document.querySelectorAll(".lw-selected"))) el.classList.remove("lw-selected");
  const sel = state.selected;
  const sections = state.record ? state.record.sections || [] : [];
  const n = sel ? itemKeys(sections).indexOf(sel.section) : -1;
  const row = n >= 0 && sel ? (sections[n].rows || [])[sel.row] : undefined;
  $("hint").hidden = row !== undefined;
  if (!sel || row === undefined) {
    $("selected-where").textContent = "";
    $("selected-json").textContent = "";
    $("selected-explain").textContent = "";
    return;
  }
  $("selected-where").textContent = `section ${sections[n].id} (${sections[n].type}), row ${sel.row}`;
  $("selected-json").textContent = JSON.stringify(row, null, 2);
  explain(state.current, n, sel.row);
  const sectionEl = Array.from(view.container.children).find(
    (el) => /** @type {HTMLElement} */ (el).dataset.key === sel.section,
  );
  const rowEl = sectionEl && sectionEl.querySelector(`.lw-row[data-row-index="${sel.row}"]`);
  if (rowEl) rowEl.classList.add("lw-selected");
}

/**
 * Shows why row `row` of the `section`-th section of page `page` got its renderer (the server's `/explain`, what
 * `layout-worker explain` prints); a later selection wins over an answer still on its way.
 * @param {number} page @param {number} section @param {number} row
 */
function explain(page, section, row) {
  const asked = `${page}/${section}/${row}`;
  state.explaining = asked;
  fetch(`/explain?page=${page}&section=${section}&row=${row}`)
    .then((response) => response.text())
    .then((text) => { if (state.explaining === asked) $("selected-explain").textContent = text; })
    .catch((error) => { if (state.explaining === asked) $("selected-explain").textContent = String(error); });
}

/** @type {HTMLInputElement} */ ($("containers")).addEventListener("change", (event) => {
  view.showHidden = /** @type {HTMLInputElement} */ (event.target).checked;
  show(true);
});

connect();
