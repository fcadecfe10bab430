// `layout-worker preview` in a real browser: headless Chromium loads the page and the assertions read the DOM it drew.
// LW_BIN names the layout-worker binary (make test: .build/debug/layout-worker); CHROMIUM the browser (default
// `chromium`, which make test installs when missing); LW_SCREENSHOT where the screenshot goes (.run/preview.png).
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { spawn, execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync, rmSync, mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { Chromium } from "./chromium.js";

const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const bin = process.env.LW_BIN || join(root, ".build", "debug", "layout-worker");
const screenshotPath = process.env.LW_SCREENSHOT || join(root, ".run", "preview.png");
const work = mkdtempSync(join(tmpdir(), "lw-preview-"));
const config = join(work, "mapping.yaml");
const response = join(work, "search-page.json");
const second = join(work, "empty-results.json");

// The stock config plus a mapping that competes with SaleProductCell for vegan records on sale: those rows are
// ambiguous (renderer null and an `ambiguous` diagnostic).
const goodConfig = readFileSync(join(root, "config", "default.yaml"), "utf8").replace(
  "  - renderer: RefinementCell\n",
  "  - renderer: VeganProductCell\n    types: Record\n    when: 'attributes[\"product.vegan\"][0] == \"true\"'\n" +
    "  - renderer: RefinementCell\n",
);
const searchPage = readFileSync(join(root, "samples", "search-page.json"), "utf8");

/** @type {import("node:child_process").ChildProcess} */
let preview;
/** @type {Chromium} */
let browser;
/** @type {import("./chromium.js").Page} */
let page;
let url = "";
let previewLog = "";

/** The record `compile` makes of the response file now (what the page must show). */
function compiled() {
  return JSON.parse(execFileSync(bin, ["compile", "--accept-check-errors", "--config", config, response], { encoding: "utf8" }));
}

before(async () => {
  writeFileSync(config, goodConfig);
  writeFileSync(response, searchPage);
  writeFileSync(second, readFileSync(join(root, "samples", "empty-results.json")));
  preview = spawn(bin, ["preview", "--port", "0", "--log-format", "text", "--accept-check-errors", "--config", config, response, second], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  preview.stderr?.on("data", (d) => { previewLog += d; });
  url = await new Promise((resolve, reject) => {
    let out = "";
    const timer = setTimeout(() => reject(new Error(`preview did not start: ${previewLog}`)), 30000);
    preview.stdout?.on("data", (d) => {
      out += d;
      const m = /preview: (http:\/\/127\.0\.0\.1:\d+\/)/.exec(out);
      if (m) { clearTimeout(timer); resolve(m[1]); }
    });
    preview.on("exit", (code) => reject(new Error(`preview exited (${code}): ${previewLog}`)));
  });
  browser = await Chromium.launch();
  page = await browser.open(url);
  await page.waitFor("document.querySelectorAll('.lw-row').length > 0");
});

after(async () => {
  try {
    await browser?.close();
  } finally {
    if (preview && preview.exitCode === null) {
      const exited = new Promise((r) => preview.on("exit", r));
      preview.kill("SIGINT");
      await Promise.race([exited, new Promise((r) => setTimeout(r, 10000))]);
      if (preview.exitCode === null) preview.kill("SIGKILL");
    }
    rmSync(work, { recursive: true, force: true });
  }
});

test("every visible section's type and every row's renderer are drawn", async () => {
  const record = compiled();
  const visible = record.sections.filter((/** @type {any} */ s) => s.visible);
  assert.ok(visible.length >= 8, `the sample has ${visible.length} visible sections`);
  const drawn = await page.evaluate(`Array.from(document.querySelectorAll("#view > .lw-section")).map((s) => ({
    id: s.dataset.sectionId,
    type: s.querySelector(".lw-section-label .type")?.textContent,
    rows: Array.from(s.querySelectorAll(".lw-row")).map((r) => r.querySelector(".lw-renderer").textContent),
  }))`);
  assert.deepEqual(
    drawn.map((/** @type {any} */ s) => s.id),
    visible.map((/** @type {any} */ s) => s.id),
    "the visible sections, in order",
  );
  visible.forEach((/** @type {any} */ section, /** @type {number} */ n) => {
    assert.equal(drawn[n].type, section.type);
    const expected = (section.rows || []).map((/** @type {any} */ r, /** @type {number} */ i) =>
      r.renderer !== null ? r.renderer : ambiguousRow(record, section, i) ? "ambiguous" : "unresolved",
    );
    assert.deepEqual(drawn[n].rows, expected, `rows of ${section.id}`);
  });
});

/** Whether the record's diagnostics call row `i` of `section` ambiguous. */
function ambiguousRow(/** @type {any} */ record, /** @type {any} */ section, /** @type {number} */ i) {
  return record.diagnostics.some(
    (/** @type {any} */ d) => d.code === "ambiguous" && d.path === section.path && d.message.startsWith(`row ${i} (id `),
  );
}

test("an ambiguous row is marked, with its diagnostic on the row", async () => {
  const record = compiled();
  const results = record.sections.find((/** @type {any} */ s) => s.type === "ResultsList");
  const ambiguous = results.rows
    .map((/** @type {any} */ r, /** @type {number} */ i) => (ambiguousRow(record, results, i) ? r.id : null))
    .filter(Boolean);
  assert.ok(ambiguous.length > 0, "the test config makes some rows ambiguous");
  const marked = await page.evaluate(`Array.from(document.querySelectorAll(".lw-row.lw-ambiguous")).map((r) => ({
    id: r.dataset.rowId, code: r.querySelector(".lw-diagnostic")?.dataset.code }))`);
  assert.deepEqual(marked.map((/** @type {any} */ m) => m.id), ambiguous);
  assert.ok(marked.every((/** @type {any} */ m) => m.code === "ambiguous"));
  const plain = await page.evaluate(`document.querySelectorAll(".lw-row:not(.lw-ambiguous) .lw-diagnostic").length`);
  assert.equal(plain, 0, "no other row carries a diagnostic");
});

test("selecting a row shows its JSON and why it got its renderer; containers show on demand", async () => {
  const record = compiled();
  // The first ambiguous row of the results list (what the screenshot shows).
  const results = record.sections.find((/** @type {any} */ s) => s.type === "ResultsList");
  const n = results.rows.findIndex((/** @type {any} */ _r, /** @type {number} */ i) => ambiguousRow(record, results, i));
  await page.evaluate(`(() => { const r = document.querySelector(".lw-row.lw-ambiguous");
    r.scrollIntoView({ block: "center" }); r.click(); })()`);
  const json = JSON.parse(await page.evaluate(`document.getElementById("selected-json").textContent`));
  assert.deepEqual(json, results.rows[n]);
  assert.equal(await page.evaluate(`document.querySelectorAll(".lw-selected").length`), 1);
  // Why it has no renderer: the server's explanation, as `layout-worker explain` prints it.
  const why = await page.waitFor(`document.getElementById("selected-explain").textContent.includes("runner-up") && document.getElementById("selected-explain").textContent`);
  assert.match(why, /^model: @class com\.endeca\.infront\.cartridge\.model\.Record\nchain:\n  1\. Record \(@class short name\)/);
  assert.match(why, /\nambiguous at Record: [^,\n]+, [^,\n]+ both hold; the row is unresolved\n/);
  const before = await page.evaluate(`document.querySelectorAll("#view > .lw-section").length`);
  await page.evaluate(`document.getElementById("containers").click()`);
  const all = await page.evaluate(`document.querySelectorAll("#view > .lw-section").length`);
  assert.equal(all, record.sections.length);
  assert.ok(all > before);
  await page.evaluate(`document.getElementById("containers").click()`);
  assert.equal(await page.evaluate(`document.querySelectorAll("#view > .lw-section").length`), before);
  // The screenshot README shows: the page as a config author sees it, a row selected.
  await new Promise((r) => setTimeout(r, 600));
  mkdirSync(dirname(screenshotPath), { recursive: true });
  writeFileSync(screenshotPath, await page.screenshot());
});

test("editing the response redraws the page in place, without a reload", async () => {
  await page.evaluate(`window.__sameDocument = true`);
  const changesBefore = Number(await page.evaluate(`document.body.dataset.changes`));
  writeFileSync(response, searchPage.replace(`"Cocinero olive oil 500 ml"`, `"Cocinero olive oil 500 ml (edited)"`));
  await page.waitFor(`document.querySelector("#view").textContent.includes("Cocinero olive oil 500 ml (edited)")`);
  assert.equal(await page.evaluate(`window.__sameDocument`), true, "the page was not reloaded");
  assert.ok(Number(await page.evaluate(`document.body.dataset.changes`)) > changesBefore, "a change set was applied");
  // A removed row leaves the page too.
  const record = JSON.parse(searchPage);
  const results = findType(record, "ResultsList");
  const removed = results.records.pop();
  writeFileSync(response, JSON.stringify(record));
  const id = removed.attributes["product.repositoryId"][0];
  await page.waitFor(`!document.querySelector('.lw-row[data-row-id="${id}"]:not([data-leaving])')`);
  assert.equal(await page.evaluate(`window.__sameDocument`), true);
});

test("a config error shows in the page and clears when fixed", async () => {
  writeFileSync(config, "renderers: [\n");
  const problem = await page.waitFor(`!document.getElementById("problem").hidden && document.getElementById("problem").textContent`);
  assert.match(problem, /mapping\.yaml/);
  assert.ok(await page.evaluate(`document.querySelectorAll(".lw-row").length > 0`), "the last layout stays drawn");
  writeFileSync(config, goodConfig);
  await page.waitFor(`document.getElementById("problem").hidden`);
});

test("a response that does not compile is its page's problem; the other page is untouched", async () => {
  writeFileSync(response, "{\"@type\": ");
  const problem = await page.waitFor(`!document.getElementById("problem").hidden && document.getElementById("problem").textContent`);
  assert.match(problem, /search-page\.json/);
  await page.waitFor(`document.querySelector("#tabs button.has-problem")?.textContent.endsWith("search-page.json")`);
  await page.evaluate(`document.querySelectorAll("#tabs button")[1].click()`);
  await page.waitFor(`document.getElementById("problem").hidden`);
  const placeholder = await page.waitFor(`document.querySelector("#view .lw-placeholder")?.textContent`);
  assert.ok(placeholder.length > 0, "the empty-results page shows its placeholder");
  writeFileSync(response, searchPage);
  await page.evaluate(`document.querySelectorAll("#tabs button")[0].click()`);
  await page.waitFor(`document.getElementById("problem").hidden && document.querySelectorAll(".lw-row").length > 0`);
});

/** The first object in `value` whose `@type` is `type`. */
function findType(/** @type {any} */ value, /** @type {string} */ type) {
  /** @type {any} */
  let found = null;
  JSON.stringify(value, (_k, v) => {
    if (!found && v && typeof v === "object" && v["@type"] === type) found = v;
    return v;
  });
  return found;
}

test("the preview answers the ops paths every command serves", async () => {
  const alive = await fetch(new URL("/healthz", url));
  assert.equal(alive.status, 200);
  assert.equal(await alive.text(), "ok\n");
  const ready = await fetch(new URL("/readyz", url));
  assert.equal(ready.status, 200);
  assert.equal(await ready.text(), "ready; 2 page(s)\n");
  const metrics = await fetch(new URL("/metrics", url));
  assert.equal(metrics.status, 200);
  assert.match(metrics.headers.get("content-type"), /^text\/plain; version=0\.0\.4/);
  assert.match(await metrics.text(), /layout_worker_build_info\{version="[^"]+",librdkafka="[^"]+",swift="[^"]+"\} 1/);
});

test("Ctrl-C stops the preview promptly, its event streams open", async () => {
  // Runs last (node:test keeps file order): the page still holds /events open.
  const exited = new Promise((r) => preview.on("exit", (code, signal) => r({ code, signal })));
  const started = Date.now();
  preview.kill("SIGINT");
  const result = await Promise.race([exited, new Promise((r) => setTimeout(() => r(null), 10000))]);
  assert.deepEqual(result, { code: 0, signal: null }, `exit within 10 s; log:\n${previewLog}`);
  assert.ok(Date.now() - started < 10000);
});
