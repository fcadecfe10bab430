// `layout-worker gateway` in a real browser: a worker with change sets and a gateway on a private test broker;
// headless Chromium opens the gateway's live page (LayoutFeed + LayoutView), the test produces a changed response,
// and the page follows without a reload. LW_BIN and CHROMIUM as for preview.test.js.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { spawn, execFileSync } from "node:child_process";
import { createServer } from "node:net";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { Chromium } from "./chromium.js";

const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const bin = process.env.LW_BIN || join(root, ".build", "debug", "layout-worker");
const work = mkdtempSync(join(tmpdir(), "lw-gateway-"));
const key = "home page/1"; // a space and a slash: URL-encoded by the feed, decoded once by the gateway

/** @type {import("node:child_process").ChildProcess[]} */
const children = [];
let logs = "";
let brokers = "";
let gateway = "";
/** The gateway's ops port: probes and the live page. */
let ops = "";
/** @type {Chromium} */
let browser;

/** A free loopback port. @returns {Promise<number>} */
function freePort() {
  return new Promise((resolve) => {
    const s = createServer();
    s.listen(0, "127.0.0.1", () => {
      const port = /** @type {import("node:net").AddressInfo} */ (s.address()).port;
      s.close(() => resolve(port));
    });
  });
}

/** Starts a child process whose output goes to `logs`. @param {string} file @param {string[]} args */
function start(file, args) {
  const child = spawn(file, args, { stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, RUST_LOG: "warn" } });
  child.stderr?.on("data", (d) => { logs = (logs + d).slice(-8000); });
  children.push(child);
  return child;
}

/** @param {string[]} args */
function cli(args) {
  return execFileSync(bin, [...args, "--brokers", brokers, "--log-format", "text"], { encoding: "utf8", cwd: root });
}

/** Waits until `check()` is truthy. @param {() => Promise<any>} check */
async function until(check, timeoutMs = 60000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check().catch(() => null);
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out; logs:\n${logs}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

before(async () => {
  const tansu = execFileSync(join(root, "scripts", "tansu-path.sh"), { encoding: "utf8" }).trim();
  const port = await freePort();
  brokers = `127.0.0.1:${port}`;
  start(tansu, ["broker", "--listener-url", `tcp://${brokers}`, "--advertised-listener-url", `tcp://${brokers}`, "--silent"]);
  await until(async () => { cli(["create-topics", "--partition-count", "1", "in", "out", "dlq", "changes"]); return true; });
  cli(["create-topics", "--partition-count", "1", "--compacted", "changes.latest"]);
  start(bin, [
    "serve", "--brokers", brokers, "--input", "in", "--output", "out", "--dead-letter", "dlq", "--group", `g-${port}`,
    "--changes-topic", "changes", "--http", "off", "--log-format", "text",
    "--consumer-property", "session.timeout.ms=2000", "--consumer-property", "heartbeat.interval.ms=300",
  ]);
  const gw = start(bin, [
    "gateway", "--brokers", brokers, "--changes-topic", "changes", "--port", "0", "--http", "127.0.0.1:0",
    "--log-format", "text",
  ]);
  [gateway, ops] = await new Promise((resolve, reject) => {
    let out = "";
    const timer = setTimeout(() => reject(new Error(`gateway did not start: ${logs}`)), 30000);
    gw.stdout?.on("data", (d) => {
      out += d;
      const api = /gateway: (http:\/\/127\.0\.0\.1:\d+)\//.exec(out);
      const live = /gateway ops: (http:\/\/127\.0\.0\.1:\d+)\//.exec(out);
      if (api && live) { clearTimeout(timer); resolve([api[1], live[1]]); }
    });
  });
  await until(async () => (await fetch(`${ops}/readyz`)).status === 200);
  browser = await Chromium.launch();
});

after(async () => {
  try {
    await browser?.close();
  } finally {
    for (const child of children.reverse()) {
      if (child.exitCode !== null) continue;
      const exited = new Promise((r) => child.on("exit", r));
      child.kill("SIGTERM");
      await Promise.race([exited, new Promise((r) => setTimeout(r, 10000))]);
      if (child.exitCode === null) child.kill("SIGKILL");
    }
    rmSync(work, { recursive: true, force: true });
  }
});

/** The gateway's record of the key now: body and ETag (null before one exists). */
async function latest() {
  const r = await fetch(`${gateway}/v1/layouts/${encodeURIComponent(key)}`);
  if (r.status !== 200) return null;
  // The ETag names the representation (`"HASH-gzip"` when compressed); the hash is the record's.
  return { text: await r.text(), etag: /** @type {string} */ (r.headers.get("etag")).replaceAll('"', "").replace(/-gzip$/, "") };
}

test("the live page follows the page's responses without a reload", async () => {
  cli(["produce", "--topic", "in", "--key", key, "samples/search-page.json"]);
  const first = await until(latest);
  const page = await browser.open(`${ops}/?key=${encodeURIComponent(key)}`);
  try {
    await page.waitFor(`document.body.dataset.hash === ${JSON.stringify(first.etag)}`, 30000);
    assert.equal(await page.evaluate("window.feed.text"), first.text);
    const sectionsBefore = await page.evaluate("document.querySelectorAll('#page > .lw-section').length");
    assert.ok(sectionsBefore > 0, "the record is drawn");
    await page.evaluate("window.notReloaded = true");

    // The response changes: the worker publishes a change set, the gateway streams it, the page applies it.
    cli(["produce", "--topic", "in", "--key", key, "samples/grouped-results.json"]);
    const second = await until(async () => { const l = await latest(); return l && l.etag !== first.etag ? l : null; });
    await page.waitFor(`document.body.dataset.hash === ${JSON.stringify(second.etag)}`, 30000);
    assert.equal(await page.evaluate("window.feed.text"), second.text, "the page holds the record byte for byte");
    assert.equal(await page.evaluate("window.notReloaded"), true, "no reload");
    // Sections deleted by the change set fade out first; then the DOM holds the new record's visible sections.
    const expected = JSON.parse(second.text).sections.filter((/** @type {any} */ s) => s.visible).length;
    await page.waitFor(`document.querySelectorAll('#page > .lw-section').length === ${expected}`, 10000);
  } catch (e) {
    throw new Error(`${e instanceof Error ? e.message : e}\npage log: ${page.log.join("\n")}\nlogs:\n${logs}`);
  }
});
