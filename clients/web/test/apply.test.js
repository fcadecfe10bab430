// node --test: the web client's applier against the change sets the server makes (clients/fixtures/generate.py,
// run by `make test` into .run/client-fixtures; LW_FIXTURES overrides the folder).
import { test } from "node:test";
import assert from "node:assert/strict";
import { applyChangeSet, xxh64Hex, StaleBaseError, ChangeSetError, EMPTY_RECORD } from "../layout-client.js";
import { fixtures, skip, read } from "../test-support/fixtures.js";

test("XXH64 matches the reference vectors", () => {
  // xxHash's published XXH64 values for seed 0.
  assert.equal(xxh64Hex(""), "ef46db3751d8e999");
  assert.equal(xxh64Hex("a"), "d24ec4f1a98c6e5b");
  assert.equal(xxh64Hex("abc"), "44bc2cf5ad770999");
  assert.equal(xxh64Hex("Nobody inspects the spammish repetition"), "fbcea83c8a378bf1");
  // Every tail length (0-7 bytes after 8-byte words, 4-byte word) and the 32-byte stripes.
  const lengths = new Set();
  for (let n = 0; n < 80; n++) lengths.add(xxh64Hex("x".repeat(n)));
  assert.equal(lengths.size, 80);
  // UTF-8, not UTF-16: "é" is two bytes.
  assert.equal(xxh64Hex("é"), xxh64Hex(new Uint8Array([0xc3, 0xa9])));
});

test("every change set the server made gives its target byte for byte", { skip }, () => {
  let applied = 0, replaces = 0, fromEmpty = 0, duplicates = 0;
  for (const c of fixtures) {
    const base = c.base ? read(c.base) : null;
    const cs = read(c.changeSet);
    const target = read(c.target);
    const result = applyChangeSet(base, cs);
    assert.equal(result, target, c.name);
    assert.equal(xxh64Hex(result), JSON.parse(cs).target.hash, c.name);
    applied++;
    if (cs.includes('"replace":')) replaces++;
    if (!c.base) fromEmpty++;
    if (/"code":"duplicate-ids"/.test(cs)) duplicates++;
  }
  assert.ok(applied >= 200, `only ${applied} cases`);
  assert.ok(fromEmpty >= 5 && replaces >= 5 && duplicates >= 5, `${fromEmpty} from empty, ${replaces} replaces, ${duplicates} with duplicate ids`);
});

test("a change set delivered twice changes nothing", { skip }, () => {
  for (const c of fixtures.slice(0, 40)) {
    const target = read(c.target);
    if (c.base && read(c.base) === target) continue;
    assert.equal(applyChangeSet(target, read(c.changeSet)), target, c.name);
  }
});

test("a base read as a line (compile's output, with its line end) keeps its hash", { skip }, () => {
  const c = fixtures.find((f) => f.base && read(f.base) !== read(f.target));
  for (const end of ["\n", "\r\n"]) assert.equal(applyChangeSet(read(c.base) + end, read(c.changeSet)), read(c.target));
});

test("a base that is not the change set's is a StaleBaseError naming both hashes", { skip }, () => {
  const c = fixtures.find((f) => f.base && read(f.base) !== read(f.target) && f.name.startsWith("random"));
  const cs = read(c.changeSet);
  const wrong = read(c.base).replace('"sections":[', '"sections":[ ');
  assert.throws(() => applyChangeSet(wrong, cs), (e) => {
    assert.ok(e instanceof StaleBaseError);
    assert.equal(e.name, "StaleBaseError");
    assert.equal(e.expected, JSON.parse(cs).base.hash);
    assert.equal(e.actual, xxh64Hex(wrong));
    assert.match(e.message, /fetch the full record/);
    return true;
  });
  assert.throws(() => applyChangeSet(null, cs), (e) => e instanceof StaleBaseError && e.actual === "(no record)");
});

test("malformed change sets are ChangeSetErrors, never a wrong record", () => {
  const hash = xxh64Hex(EMPTY_RECORD);
  const bad = [
    "not json",
    "[]",
    `{"version":1,"base":null,"target":{"hash":"${hash}"}}`,
    `{"version":2,"base":null}`,
    `{"version":2,"base":null,"target":{"hash":"${hash}"},"record":{},"sections":{"deletes":[0]}}`,
    `{"version":2,"base":null,"target":{"hash":"${hash}"},"record":{},"sections":{"inserts":[{"index":5,"section":{}}]}}`,
    `{"version":2,"base":null,"target":{"hash":"0000000000000000"},"record":{},"sections":{}}`,
    `{"version":2,"base":null,"target":{"hash":"${hash}"},"record":{"nope":1},"sections":{}}`,
    // Well-formed, but not a change set by its `kind`.
    `{"version":2,"kind":"layout-record","base":null,"target":{"hash":"${hash}"},"record":{},"sections":{}}`,
  ];
  for (const text of bad) {
    assert.throws(() => applyChangeSet(null, text), (e) => e instanceof ChangeSetError, text);
  }
  // The empty change set from empty gives the empty record.
  assert.equal(
    applyChangeSet(null, `{"version":2,"base":null,"target":{"hash":"${hash}"},"record":{},"sections":{}}`),
    EMPTY_RECORD,
  );
});
