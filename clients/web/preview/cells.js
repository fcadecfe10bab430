// The preview's cells: what a supplementary view, a placeholder and a row's model show (its main text, price and
// picture), read from the model the way most renderers would.
import { BUILT_IN_PLACEHOLDERS } from "../wire.js";

/** @type {import("../layout-client").RenderSupplementary} */
export function renderSupplementary(kind, supplementary) {
  const el = document.createElement(kind === "header" ? "h3" : "footer");
  el.className = `lw-${kind} lw-supplementary`;
  const renderer = document.createElement("span");
  renderer.className = "lw-renderer";
  renderer.textContent = supplementary.renderer !== null ? supplementary.renderer : "unresolved";
  el.append(renderer, mainText(supplementary.model, ""));
  if (supplementary.renderer === null) el.classList.add("lw-unresolved");
  return el;
}

/** @type {import("../layout-client").RenderPlaceholder} */
export function renderPlaceholder(placeholder) {
  const el = document.createElement("div");
  el.className = `lw-placeholder lw-${placeholder.kind}`;
  const renderer = document.createElement("span");
  renderer.className = "lw-renderer";
  renderer.textContent = placeholder.renderer || BUILT_IN_PLACEHOLDERS[placeholder.kind] || "unresolved";
  el.append(renderer, document.createElement("br"), placeholder.message || placeholder.kind);
  return el;
}

/** A model's first value among `keys`, looking in its Endeca `attributes` (first value of a list) too. */
export function field(/** @type {any} */ model, /** @type {string[]} */ keys) {
  if (!model || typeof model !== "object") return undefined;
  for (const k of keys) {
    const v = model[k];
    if (typeof v === "string" || typeof v === "number") return v;
  }
  const attrs = model.attributes;
  if (attrs && typeof attrs === "object") {
    for (const k of keys) {
      const v = attrs[k];
      if (Array.isArray(v) && (typeof v[0] === "string" || typeof v[0] === "number")) return v[0];
      if (typeof v === "string" || typeof v === "number") return v;
    }
  }
  return undefined;
}

/** The main text of a model: its label, name or display name, else `fallback`. */
export function mainText(/** @type {any} */ model, /** @type {string} */ fallback) {
  if (typeof model === "string" || typeof model === "number") return String(model);
  const text = field(model, ["label", "name", "displayName", "title", "product.displayName", "product.name"]);
  return text === undefined ? fallback : String(text);
}

export function priceText(/** @type {any} */ model) {
  const price = field(model, ["price", "salePrice", "listPrice", "sku.activePrice", "product.price", "sku.listPrice"]);
  if (price === undefined) return null;
  const n = Number(price);
  return Number.isFinite(n) ? n.toLocaleString("en-US", { maximumFractionDigits: 2 }) : String(price);
}

export function pictureURL(/** @type {any} */ model) {
  const url = field(model, [
    "imageURL", "imageUrl", "image", "thumbnailImageURL", "thumbnail", "product.mediumImage.url",
    "product.thumbnailImage.url", "product.largeImage.url", "product.image", "sku.image",
  ]);
  return typeof url === "string" && url !== "" ? url : null;
}

/** The picture at `url`, or a placeholder box when it cannot be loaded. */
export function pictureElement(/** @type {string} */ url) {
  const img = document.createElement("img");
  img.className = "lw-picture";
  img.alt = "";
  img.dataset.src = url;
  img.addEventListener("error", () => {
    const box = document.createElement("span");
    box.className = "lw-picture lw-picture-missing";
    box.title = url;
    box.textContent = "no image";
    img.replaceWith(box);
  });
  img.src = url;
  return img;
}
