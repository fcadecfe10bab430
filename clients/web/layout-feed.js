// layout-feed.js: follows one page through a layout-worker gateway, its record and then its change sets.

import { StaleBaseError } from "./wire.js";
import { xxh64Hex } from "./content-hash.js";
import { applyChangeSet } from "./change-set-applier.js";

/**
 * Follows one page through a layout-worker gateway (`layout-worker gateway`): its record, then its change sets over
 * server-sent events, each applied with `applyChangeSet`. EventSource reconnects by itself and sends the hash held
 * (`Last-Event-ID`), so the gateway resumes with the change sets missed; a change set whose base is not the record
 * held (one was missed) makes the feed fetch the record again. `onRecord(text, hash)` gets every record shown.
 */
export class LayoutFeed {
  /**
   * @param {string} gateway the gateway's base URL, e.g. "https://layouts.example.com" ("" for the page's own origin)
   * @param {string} key the page key
   * @param {import("./layout-client").LayoutFeedOptions} options
   */
  constructor(gateway, key, options) {
    this.url = `${gateway.replace(/\/$/, "")}/v1/layouts/${encodeURIComponent(key)}`;
    this.onRecord = options.onRecord;
    this.onError = options.onError || (() => {});
    this.EventSource = options.EventSource || globalThis.EventSource;
    this.fetch = options.fetch || globalThis.fetch.bind(globalThis);
    /** @type {string | null} the record held */
    this.text = null;
    /** @type {string | null} its hash */
    this.hash = null;
    /** @type {any} */
    this.source = null;
    /** @type {Promise<void> | null} a record fetch in progress */
    this.fetching = null;
    /** @type {any} a reconnection waiting */
    this.retry = undefined;
  }

  /**
   * Follows the layout a row's `navigate` action leads to (a refinement, a sort, page 2): its `target` is the key,
   * as it stands. The gateway answers it from a published page or, run with `--origin`, fetches and compiles that
   * navigation state on request. null for an action of another kind.
   * @param {string} gateway
   * @param {{kind: string, target: string}} action
   * @param {import("./layout-client").LayoutFeedOptions} options
   */
  static opening(gateway, action, options) {
    return action && action.kind === "navigate" ? new LayoutFeed(gateway, action.target, options) : null;
  }

  /** Opens the stream. */
  start() {
    const source = new this.EventSource(`${this.url}/changes`);
    this.source = source;
    source.addEventListener("record", (/** @type {any} */ e) => this.show(e.data));
    source.addEventListener("change-set", (/** @type {any} */ e) => this.apply(e.data));
    source.addEventListener("error", () => {
      this.onError(new Error("the stream was interrupted; reconnecting"));
      // EventSource gives up on an answer that is not a stream (a gateway not ready yet answers 503): open anew.
      if (source.readyState === 2 && this.source === source) {
        this.retry = setTimeout(() => { if (this.source === source) this.start(); }, 2000);
      }
    });
    return this;
  }

  /** Closes the stream. */
  close() {
    if (this.source) this.source.close();
    this.source = null;
    clearTimeout(this.retry);
  }

  /** @param {string} text */
  show(text) {
    const hash = xxh64Hex(text);
    if (hash === this.hash) return;
    this.text = text;
    this.hash = hash;
    this.onRecord(text, hash);
  }

  /** @param {string} changeSet */
  apply(changeSet) {
    if (this.fetching) return; // the record being fetched already holds it, or a later one
    try {
      this.show(applyChangeSet(this.text, changeSet));
    } catch (e) {
      if (e instanceof StaleBaseError) {
        this.refetch();
      } else {
        this.onError(e instanceof Error ? e : new Error(String(e)));
      }
    }
  }

  /** Fetches the record (a stale base: a change set was missed). */
  refetch() {
    this.fetching = (async () => {
      try {
        /** @type {Record<string, string>} */
        const headers = this.hash ? { "If-None-Match": `"${this.hash}"` } : {};
        const response = await this.fetch(this.url, { headers });
        if (response.status === 200) this.show(await response.text());
        else if (response.status !== 304) this.onError(new Error(`GET ${this.url}: ${response.status}`));
      } catch (e) {
        this.onError(e instanceof Error ? e : new Error(String(e)));
      } finally {
        this.fetching = null;
      }
    })();
    return this.fetching;
  }
}
