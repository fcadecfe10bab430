// node --test: LayoutFeed against a fake EventSource and fetch, with the change sets the server makes.
import { test } from "node:test";
import assert from "node:assert/strict";
import { LayoutFeed, xxh64Hex } from "../layout-client.js";
import { fixtures, skip, read } from "../test-support/fixtures.js";

class FakeEventSource {
  /** @param {string} url */
  constructor(url) {
    this.url = url;
    /** @type {Record<string, ((e: {data: string}) => void)[]>} */
    this.listeners = {};
    this.closed = false;
    this.readyState = 1;
    FakeEventSource.last = this;
  }
  /** @param {string} type @param {(e: {data: string}) => void} f */
  addEventListener(type, f) { (this.listeners[type] ||= []).push(f); }
  /** @param {string} type @param {string} data */
  emit(type, data) { for (const f of this.listeners[type] || []) f({ data }); }
  close() { this.closed = true; }
}
/** @type {FakeEventSource | null} */
FakeEventSource.last = null;

test("a feed shows the record, applies change sets and re-fetches on a stale base", { skip }, async () => {
  const cases = fixtures.filter((/** @type {any} */ c) => c.base);
  const a = cases[0];
  const held = xxh64Hex(read(a.target));
  // A change set made against some other record than the one the feed will hold.
  const b = cases.find((/** @type {any} */ c) => {
    const cs = JSON.parse(read(c.changeSet));
    return cs.base && cs.base.hash !== held && cs.target.hash !== held;
  });
  /** @type {string[]} */
  const shown = [];
  /** @type {{url: string, headers: any}[]} */
  const fetched = [];
  const feed = new LayoutFeed("http://gw.test/", "page/1", {
    onRecord: (text) => shown.push(text),
    EventSource: FakeEventSource,
    fetch: async (url, init) => {
      fetched.push({ url, headers: init?.headers });
      return { status: 200, text: async () => read(b.target) };
    },
  }).start();
  const source = /** @type {FakeEventSource} */ (FakeEventSource.last);
  assert.equal(source.url, "http://gw.test/v1/layouts/page%2F1/changes");
  source.emit("record", read(a.base));
  source.emit("record", read(a.base)); // the same record again: nothing new shown
  source.emit("change-set", read(a.changeSet));
  assert.deepEqual(shown, [read(a.base), read(a.target)]);
  assert.equal(feed.hash, xxh64Hex(read(a.target)));
  // A change set for another base: the feed fetches the record, saying which one it holds.
  source.emit("change-set", read(b.changeSet));
  await feed.fetching;
  assert.equal(fetched.length, 1);
  assert.equal(fetched[0].url, "http://gw.test/v1/layouts/page%2F1");
  assert.equal(fetched[0].headers["If-None-Match"], `"${xxh64Hex(read(a.target))}"`);
  assert.equal(feed.text, read(b.target));
  // A stream that EventSource gave up on (the gateway answered 503 while starting) is opened anew.
  source.readyState = 2;
  source.emit("error", "");
  await new Promise((r) => setTimeout(r, 2100));
  assert.notEqual(FakeEventSource.last, source, "a new stream");
  feed.close();
  assert.ok(/** @type {FakeEventSource} */ (FakeEventSource.last).closed);
});
