// A headless Chromium driven over the DevTools protocol on a pipe (--remote-debugging-pipe: JSON messages ending in
// a NUL byte on file descriptors 3 and 4), so the browser tests need no npm package and open no debugging port.
// Every address but loopback is unreachable from the browser: the tests never send traffic off this machine.
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export class Chromium {
  /** @param {string} binary */
  static async launch(binary = process.env.CHROMIUM || "chromium") {
    const profile = mkdtempSync(join(tmpdir(), "lw-chromium-"));
    const child = spawn(
      binary,
      [
        "--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run", "--no-default-browser-check",
        "--disable-background-networking", "--disable-component-update", "--disable-sync", "--disable-extensions",
        "--disable-default-apps", "--metrics-recording-only", "--mute-audio",
        "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1",
        "--proxy-server=127.0.0.1:9", "--proxy-bypass-list=127.0.0.1",
        `--user-data-dir=${profile}`, "--remote-debugging-pipe", "--window-size=1200,1000", "about:blank",
      ],
      { stdio: ["ignore", "ignore", "pipe", "pipe", "pipe"] },
    );
    const browser = new Chromium(child, profile);
    await browser.send("Target.getTargets");
    return browser;
  }

  /**
   * @param {import("node:child_process").ChildProcess} child
   * @param {string} profile
   */
  constructor(child, profile) {
    this.child = child;
    this.profile = profile;
    this.nextId = 1;
    /** @type {Map<number, {resolve: (v: any) => void, reject: (e: Error) => void}>} */
    this.pending = new Map();
    /** @type {((message: any) => void)[]} */
    this.listeners = [];
    this.stderr = "";
    child.stderr?.on("data", (d) => { this.stderr = (this.stderr + d).slice(-4000); });
    const out = /** @type {import("node:stream").Readable} */ (child.stdio[4]);
    let buffer = Buffer.alloc(0);
    out.on("data", (chunk) => {
      buffer = Buffer.concat([buffer, chunk]);
      let end;
      while ((end = buffer.indexOf(0)) >= 0) {
        const message = JSON.parse(buffer.subarray(0, end).toString("utf8"));
        buffer = buffer.subarray(end + 1);
        if (message.id !== undefined && this.pending.has(message.id)) {
          const p = this.pending.get(message.id);
          this.pending.delete(message.id);
          if (message.error) p?.reject(new Error(`${message.error.message} (${message.error.code})`));
          else p?.resolve(message.result);
        } else {
          for (const l of this.listeners) l(message);
        }
      }
    });
    child.on("exit", () => {
      for (const p of this.pending.values()) p.reject(new Error(`chromium exited: ${this.stderr}`));
      this.pending.clear();
    });
  }

  /**
   * Sends a protocol command (to a page when `sessionId` is given) and waits for its result.
   * @param {string} method
   * @param {object} [params]
   * @param {string} [sessionId]
   */
  send(method, params = {}, sessionId = undefined) {
    const id = this.nextId++;
    const input = /** @type {import("node:stream").Writable} */ (this.child.stdio[3]);
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      input.write(JSON.stringify({ id, method, params, sessionId }) + "\0");
    });
  }

  /** Opens `url` in a new page and returns it. @param {string} url */
  async open(url) {
    const { targetId } = await this.send("Target.createTarget", { url: "about:blank" });
    const { sessionId } = await this.send("Target.attachToTarget", { targetId, flatten: true });
    const page = new Page(this, sessionId);
    this.listeners.push((m) => { if (m.sessionId === sessionId) page.event(m); });
    await page.send("Runtime.enable");
    await page.send("Page.enable");
    await page.send("Emulation.setDeviceMetricsOverride", { width: 1200, height: 1000, deviceScaleFactor: 1, mobile: false });
    await page.send("Page.navigate", { url });
    return page;
  }

  /** Closes the browser, waits for it to exit and removes its profile. */
  async close() {
    const exited = this.child.exitCode !== null ? Promise.resolve() : new Promise((r) => this.child.once("exit", r));
    try { await Promise.race([this.send("Browser.close"), new Promise((r) => setTimeout(r, 3000))]); } catch { /* gone */ }
    await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
    if (this.child.exitCode === null && this.child.signalCode === null) {
      this.child.kill("SIGKILL");
      await exited;
    }
    rmSync(this.profile, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
  }
}

export class Page {
  /**
   * @param {Chromium} browser
   * @param {string} sessionId
   */
  constructor(browser, sessionId) {
    this.browser = browser;
    this.sessionId = sessionId;
    /** @type {string[]} console messages and uncaught exceptions, for failure reports */
    this.log = [];
  }

  /** @param {any} m */
  event(m) {
    if (m.method === "Runtime.consoleAPICalled") {
      this.log.push(`console.${m.params.type}: ${m.params.args.map((/** @type {any} */ a) => a.value ?? a.description).join(" ")}`);
    } else if (m.method === "Runtime.exceptionThrown") {
      this.log.push(`exception: ${m.params.exceptionDetails.exception?.description ?? m.params.exceptionDetails.text}`);
    }
  }

  /**
   * @param {string} method
   * @param {object} [params]
   */
  send(method, params = {}) {
    return this.browser.send(method, params, this.sessionId);
  }

  /** The value of a JavaScript expression in the page (promises awaited). @param {string} expression */
  async evaluate(expression) {
    const r = await this.send("Runtime.evaluate", { expression, returnByValue: true, awaitPromise: true });
    if (r.exceptionDetails) throw new Error(`${expression}: ${r.exceptionDetails.exception?.description ?? r.exceptionDetails.text}`);
    return r.result.value;
  }

  /**
   * Waits until `expression` is truthy in the page (every 100 ms, up to `timeoutMs`) and returns its value.
   * @param {string} expression
   * @param {number} [timeoutMs]
   */
  async waitFor(expression, timeoutMs = 15000) {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const value = await this.evaluate(expression).catch(() => undefined);
      if (value) return value;
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${expression}; page log:\n${this.log.join("\n")}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  /** A PNG of the page as drawn (the window: 1200 × 1000). */
  async screenshot() {
    const { data } = await this.send("Page.captureScreenshot", { format: "png" });
    return Buffer.from(data, "base64");
  }
}
