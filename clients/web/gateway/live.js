// The gateway's live page: one page key (?key=...) followed with LayoutFeed and drawn with LayoutView, the way an
// app would use the web client.
import { LayoutFeed } from "/layout-feed.js";
import { LayoutView } from "/layout-view.js";

const key = new URLSearchParams(location.search).get("key");
const status = /** @type {HTMLElement} */ (document.getElementById("status"));
const view = new LayoutView(/** @type {HTMLElement} */ (document.getElementById("page")));

if (!key) {
  status.textContent = "Add ?key=PAGE-KEY to the address: the page key of a layout this gateway serves.";
} else {
  const feed = new LayoutFeed("", key, {
    onRecord(text, hash) {
      view.render(text);
      document.body.dataset.hash = hash;
      status.textContent = `${key}: record ${hash}`;
    },
    onError(error) {
      status.textContent = `${key}: ${error.message}`;
    },
  }).start();
  Object.assign(window, { feed });
}
