// The little of the DOM that LayoutView uses, for node --test (the browser tests use the real one).
export class FakeElement {
  constructor(tagName, ownerDocument) {
    this.tagName = tagName.toUpperCase();
    this.ownerDocument = ownerDocument;
    this.children = [];
    this.parentNode = null;
    this.dataset = {};
    this.attributes = new Map();
    this.className = "";
    this.textContent = "";
    this.listeners = {};
    const el = this;
    this.classList = {
      add: (...names) => { for (const n of names) if (!el.className.split(" ").includes(n)) el.className = (el.className + " " + n).trim(); },
      remove: (n) => { el.className = el.className.split(" ").filter((c) => c && c !== n).join(" "); },
      contains: (n) => el.className.split(" ").includes(n),
      toggle: (n, on) => { if (on) el.classList.add(n); else el.classList.remove(n); return on; },
    };
  }
  get firstElementChild() { return this.children[0] || null; }
  get nextElementSibling() {
    if (!this.parentNode) return null;
    const siblings = this.parentNode.children;
    return siblings[siblings.indexOf(this) + 1] || null;
  }
  append(...nodes) { for (const n of nodes) this.insertBefore(n, null); }
  appendChild(n) { this.insertBefore(n, null); return n; }
  insertBefore(node, ref) {
    if (node.parentNode) node.parentNode.children.splice(node.parentNode.children.indexOf(node), 1);
    const at = ref ? this.children.indexOf(ref) : this.children.length;
    if (at < 0) throw new Error("NotFoundError: the reference is not a child");
    this.children.splice(at, 0, node);
    node.parentNode = this;
    return node;
  }
  remove() { if (this.parentNode) { this.parentNode.children.splice(this.parentNode.children.indexOf(this), 1); this.parentNode = null; } }
  replaceWith(other) { const parent = this.parentNode; parent.insertBefore(other, this); this.remove(); }
  contains(node) { for (let n = node; n; n = n.parentNode) if (n === this) return true; return false; }
  hasAttribute(name) { return this.attributes.has(name); }
  setAttribute(name, value) { this.attributes.set(name, String(value)); }
  addEventListener(type, fn) { (this.listeners[type] ||= []).push(fn); }
  click() { for (const fn of this.listeners.click || []) fn(); }
  get outerHTML() {
    const data = Object.entries(this.dataset).map(([k, v]) => ` data-${k}="${v}"`).join("");
    return `<${this.tagName} class="${this.className}"${data}>${this.textContent}${this.children.map((c) => c.outerHTML).join("")}</${this.tagName}>`;
  }
}

export class FakeDocument {
  createElement(tag) { return new FakeElement(tag, this); }
}
