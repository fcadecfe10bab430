// layout-view.js: draws records into the DOM, keyed by section and row ids, and animates change sets.
// Swift kit: RendererRegistry (rendererFor), CollectionSnapshot and BatchUpdate (keys, moves).

import { BUILT_IN_PLACEHOLDERS, StaleBaseError } from "./wire.js";
import { applyChangeSet } from "./change-set-applier.js";

/**
 * The key of each item in a list by its id, made unique by occurrence (duplicate ids never collide).
 * @param {{id: string}[]} items
 * @returns {string[]}
 */
export function itemKeys(items) {
  /** @type {Map<string, number>} */
  const seen = new Map();
  return items.map((item) => {
    const n = (seen.get(item.id) || 0) + 1;
    seen.set(item.id, n);
    return n === 1 ? item.id : `${item.id}\u0000${n}`;
  });
}

/**
 * The renderer `row` is drawn with by an app that has `available` (a list of names, or an object keyed by them): its
 * own when available, else the first of its `fallbacks` that is (a renderer added after the app was released), else
 * null (the app's generic drawing). An unresolved row (renderer null) has no chain: null.
 * @param {{renderer: string | null, fallbacks?: string[]}} row
 * @param {readonly string[] | Record<string, unknown>} available
 * @returns {string | null}
 */
export function rendererFor(row, available) {
  const has = Array.isArray(available)
    ? (/** @type {string} */ name) => available.includes(name)
    : (/** @type {string} */ name) => Object.prototype.hasOwnProperty.call(available, name);
  if (row.renderer === null) return null;
  if (has(row.renderer)) return row.renderer;
  return (row.fallbacks || []).find(has) || null;
}

/**
 * Draws layout records into a container element and moves to each next record by keyed reconciliation: sections and
 * rows are matched by id, so what stayed keeps its element (and its state), what moved is animated from its old
 * place, new items fade in and removed ones out. The DOM always ends up equal to the record, whatever the change set,
 * so it cannot get out of step with it.
 */
export class LayoutView {
  /**
   * @param {Element} container
   * @param {import("./layout-client").LayoutViewOptions} [options]
   */
  constructor(container, options = {}) {
    this.container = container;
    this.document = options.document || container.ownerDocument;
    this.renderRow = options.renderRow || defaultRenderRow;
    this.renderers = options.renderers || null;
    this.renderSupplementary = options.renderSupplementary || defaultRenderSupplementary;
    this.renderPlaceholder = options.renderPlaceholder || defaultRenderPlaceholder;
    this.renderSectionLabel = options.renderSectionLabel || null;
    this.showHidden = Boolean(options.showHidden);
    this.animate = options.animate !== false;
    this.onEvent = options.onEvent;
    /** @type {string | null} */
    this.text = null;
    /** @type {any} */
    this.record = null;
  }

  /** The text of the record shown (null before the first). */
  get recordText() {
    return this.text;
  }

  /**
   * Shows `recordText`, reusing the elements of sections and rows that stay.
   * @param {string} recordText
   */
  render(recordText) {
    const record = JSON.parse(recordText);
    const before = this.animate ? positions(this.container) : new Map();
    /** @type {Map<string, Element>} */
    const oldSections = new Map();
    for (const el of Array.from(this.container.children)) {
      const key = /** @type {HTMLElement} */ (el).dataset.key;
      if (key !== undefined) oldSections.set(key, el);
    }
    const sections = record.sections || [];
    const keys = itemKeys(sections);
    /** @type {Element[]} */
    const wanted = [];
    sections.forEach((/** @type {any} */ section, /** @type {number} */ n) => {
      if (!section.visible && !this.showHidden) return;
      let el = oldSections.get(keys[n]);
      if (el) oldSections.delete(keys[n]);
      else el = this.newElement("section", keys[n], "lw-section", true);
      this.fillSection(el, section);
      wanted.push(el);
    });
    for (const el of oldSections.values()) this.remove(el);
    placeChildren(this.container, wanted, oldSections);
    if (this.animate) animateMoves(this.container, before);
    this.text = recordText;
    this.record = record;
  }

  /**
   * Applies a change set to the record shown and draws the result; returns the new record's text. A change set for
   * another record throws `StaleBaseError` and changes nothing.
   * @param {string} changeSetText
   */
  apply(changeSetText) {
    const next = applyChangeSet(this.text, changeSetText);
    if (next !== this.text) this.render(next);
    return next;
  }

  /**
   * @param {string} tag
   * @param {string} key
   * @param {string} className
   * @param {boolean} fresh
   */
  newElement(tag, key, className, fresh) {
    const el = this.document.createElement(tag);
    /** @type {HTMLElement} */ (el).dataset.key = key;
    el.className = className;
    if (fresh && this.animate && typeof el.animate === "function") {
      el.animate([{ opacity: 0 }, { opacity: 1 }], { duration: 200 });
    }
    return el;
  }

  /** @param {Element} el */
  remove(el) {
    if (this.animate && typeof el.animate === "function") {
      const animation = el.animate([{ opacity: 1 }, { opacity: 0 }], { duration: 150 });
      animation.onfinish = () => el.remove();
      el.setAttribute("data-leaving", "");
    } else {
      el.remove();
    }
  }

  /**
   * @param {Element} el
   * @param {any} section
   */
  fillSection(el, section) {
    const h = /** @type {HTMLElement} */ (el);
    h.dataset.sectionId = section.id;
    h.dataset.type = section.type;
    h.dataset.path = section.path;
    h.classList.toggle("lw-hidden", !section.visible);
    /** @type {Map<string, Element>} */
    const old = new Map();
    for (const child of Array.from(el.children)) {
      const key = /** @type {HTMLElement} */ (child).dataset.key;
      if (key !== undefined && !child.hasAttribute("data-leaving")) old.set(key, child);
    }
    /** @type {Element[]} */
    const wanted = [];
    /** @param {string} key @param {() => Element} make */
    const keep = (key, make) => {
      const previous = old.get(key);
      old.delete(key);
      const fresh = make();
      /** @type {HTMLElement} */ (fresh).dataset.key = key;
      if (previous && previous.outerHTML === fresh.outerHTML) {
        wanted.push(previous);
      } else {
        if (!previous && this.animate && typeof fresh.animate === "function") {
          fresh.animate([{ opacity: 0 }, { opacity: 1 }], { duration: 200 });
        }
        if (previous) previous.replaceWith(fresh);
        wanted.push(fresh);
      }
    };
    const label = this.renderSectionLabel;
    if (label) {
      const made = label(section, this.document);
      if (made) keep("\u0001label", () => made);
    }
    if (section.header) keep("\u0001header", () => this.renderSupplementary("header", section.header, section, this.document));
    if (section.placeholder) {
      keep("\u0001placeholder", () => this.renderPlaceholder(section.placeholder, section, this.document));
    }
    const rows = section.rows || [];
    const rowKeys = itemKeys(rows);
    rows.forEach((/** @type {any} */ row, /** @type {number} */ n) => {
      keep(rowKeys[n], () => {
        const renderers = this.renderers;
        const chosen = renderers && rendererFor(row, renderers);
        const rowEl = renderers && chosen ? renderers[chosen](row, section, this.document) : this.renderRow(row, section, this.document);
        rowEl.classList.add("lw-row");
        /** @type {HTMLElement} */ (rowEl).dataset.rowId = row.id;
        if (row.renderer === null) rowEl.classList.add("lw-unresolved");
        if (this.onEvent && row.events) {
          rowEl.addEventListener("click", () => {
            if (this.onEvent && row.events.onSelect) this.onEvent("onSelect", row.events.onSelect, row, section);
          });
        }
        return rowEl;
      });
    });
    if (section.footer) keep("\u0001footer", () => this.renderSupplementary("footer", section.footer, section, this.document));
    for (const child of old.values()) this.remove(child);
    placeChildren(el, wanted, old);
  }
}

/**
 * Puts `wanted` in order as the children of `parent`, leaving children that are on their way out where they are.
 * @param {Element} parent
 * @param {Element[]} wanted
 * @param {Map<string, Element>} leaving
 */
function placeChildren(parent, wanted, leaving) {
  const going = new Set(leaving.values());
  let cursor = parent.firstElementChild;
  for (const el of wanted) {
    while (cursor && (going.has(cursor) || cursor.hasAttribute("data-leaving"))) cursor = cursor.nextElementSibling;
    if (cursor === el) {
      cursor = cursor.nextElementSibling;
    } else {
      parent.insertBefore(el, cursor);
    }
  }
}

/**
 * Where each keyed child is now (for animating moves).
 * @param {Element} parent
 */
function positions(parent) {
  /** @type {Map<Element, DOMRect>} */
  const out = new Map();
  if (typeof parent.getBoundingClientRect !== "function") return out;
  for (const el of Array.from(parent.querySelectorAll ? parent.querySelectorAll("[data-key]") : [])) {
    out.set(el, el.getBoundingClientRect());
  }
  return out;
}

/**
 * Animates every element that moved from its old place to its new one.
 * @param {Element} parent
 * @param {Map<Element, DOMRect>} before
 */
function animateMoves(parent, before) {
  for (const [el, old] of before) {
    if (!parent.contains(el) || typeof el.animate !== "function") continue;
    const now = el.getBoundingClientRect();
    const dx = old.left - now.left, dy = old.top - now.top;
    if (dx !== 0 || dy !== 0) {
      el.animate([{ transform: `translate(${dx}px, ${dy}px)` }, { transform: "none" }], { duration: 250, easing: "ease-out" });
    }
  }
}

/** The main text of a model: `label`, `name`, `displayName`, a product's display name, or its id. */
function mainText(/** @type {any} */ model, /** @type {string} */ fallback) {
  if (model && typeof model === "object") {
    for (const k of ["label", "name", "displayName", "title"]) if (typeof model[k] === "string") return model[k];
    const attrs = model.attributes;
    if (attrs && Array.isArray(attrs["product.displayName"])) return String(attrs["product.displayName"][0]);
  }
  if (typeof model === "string" || typeof model === "number") return String(model);
  return fallback;
}

/** @type {import("./layout-client").RenderRow} */
function defaultRenderRow(row, _section, document) {
  const el = document.createElement("div");
  el.className = "lw-card";
  const name = document.createElement("span");
  name.className = "lw-renderer";
  name.textContent = row.renderer === null ? "unresolved" : row.renderer;
  const text = document.createElement("span");
  text.className = "lw-text";
  text.textContent = mainText(row.model, row.id);
  el.append(name, text);
  return el;
}

/** @type {import("./layout-client").RenderSupplementary} */
function defaultRenderSupplementary(kind, view, _section, document) {
  const el = document.createElement(kind === "header" ? "h3" : "footer");
  el.className = `lw-${kind}`;
  el.textContent = mainText(view.model, view.renderer || kind);
  return el;
}

/** @type {import("./layout-client").RenderPlaceholder} */
function defaultRenderPlaceholder(placeholder, _section, document) {
  const el = document.createElement("div");
  el.className = `lw-placeholder lw-${placeholder.kind}`;
  el.textContent = placeholder.message || placeholder.renderer || BUILT_IN_PLACEHOLDERS[placeholder.kind];
  return el;
}
