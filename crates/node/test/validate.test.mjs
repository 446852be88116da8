// The package's validate() is the Rust validator's: every fixture's verdict, schema and records
// equal the CLI's; the seed examples are valid; JavaScript values JSON cannot hold get a clear
// error naming their place, never a crash or a silently different document; the async form
// leaves the event loop free; workers validate at once.

import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";

const require = createRequire(import.meta.url);
const pkg = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const contracts = require(pkg);
const root = path.resolve(pkg, "../..");
const fixtures = path.join(root, "tests", "fixtures");
const seeds = path.join(root, "examples", "seeds");
const cli = process.env.JERRY_CONTRACTS_CLI ?? path.join(root, "target", "debug", "jerry-contracts");

/** Every *.json file below `dir`, sorted. */
function jsonFiles(dir) {
  return fs
    .readdirSync(dir, { recursive: true })
    .filter((f) => f.endsWith(".json"))
    .map((f) => path.join(dir, f))
    .sort();
}

/** The CLI's verdicts on `dir`, run once: {absolute path: JSON line}. */
function cliVerdicts(dir) {
  const run = spawnSync(cli, ["validate", "--format", "json", dir], { encoding: "utf8", maxBuffer: 1 << 28 });
  assert.ok(run.status === 0 || run.status === 1, `the CLI ran:\n${run.stderr}`);
  const out = {};
  for (const line of run.stdout.split("\n").filter(Boolean)) {
    const verdict = JSON.parse(line);
    out[path.resolve(root, verdict.source)] = verdict;
  }
  return out;
}

/** The records but REF-002: a CLI run learns the requirement ids of the documents it has judged
 * and holds later ones to them (a warning), where one validate() call knows none. */
const knownRequirementsAside = (records) => records.filter((r) => r.error_code !== "REF-002");

test("every fixture as the CLI judges it", () => {
  const files = jsonFiles(fixtures);
  assert.ok(files.length > 500);
  const verdicts = cliVerdicts(fixtures);
  assert.equal(Object.keys(verdicts).length, files.length);
  const differences = [];
  for (const file of files) {
    const want = verdicts[file];
    const report = contracts.validate(fs.readFileSync(file));
    const got = { valid: report.valid, schema: report.schema, errors: knownRequirementsAside(report.records) };
    const expected = { valid: want.valid, schema: want.schema, errors: knownRequirementsAside(want.errors) };
    if (JSON.stringify(got) !== JSON.stringify(expected)) differences.push({ file, got, expected });
  }
  assert.deepEqual(differences.slice(0, 3), []);
});

test("text, bytes and the parsed value get the same report", () => {
  const file = jsonFiles(seeds).find((f) => f.includes("example_1_handoff"));
  const text = fs.readFileSync(file, "utf8");
  const fromText = contracts.validate(text);
  assert.equal(fromText.valid, true, JSON.stringify(fromText.records));
  assert.equal(fromText.schema, "session_context/v1.1.0");
  assert.deepEqual(contracts.validate(Buffer.from(text)), fromText);
  assert.deepEqual(contracts.validate(new TextEncoder().encode(text)), fromText);
  assert.deepEqual(contracts.validate(JSON.parse(text)), fromText);
  assert.deepEqual(contracts.validate(JSON.parse(text), "session_context/v1.1.0"), fromText);
});

test("text crosses as the same bytes as its UTF-8: every fixture, and text beyond Latin-1", () => {
  // Text is taken as UTF-16 code units and transcoded in the addon (src/lib.rs, `Document`).
  const differences = jsonFiles(fixtures).filter((file) => {
    const bytes = fs.readFileSync(file);
    return JSON.stringify(contracts.validate(bytes.toString("utf8"))) !== JSON.stringify(contracts.validate(bytes));
  });
  assert.deepEqual(differences.slice(0, 3), []);
  const seed = JSON.parse(fs.readFileSync(jsonFiles(seeds).find((f) => f.includes("example_1_handoff")), "utf8"));
  // ASCII to fill the first pass, then two-byte, three-byte and surrogate-pair characters; and
  // a value the validator quotes back in a record (an unknown category). "ŁĢ" are characters
  // whose low bytes are ASCII ("A" and a quote): text holding them must not cross as Latin-1.
  for (const tail of ["", "é", "naïve — Δv", "😀", "x😀y—z", "\u{FFFD} kept", "ŁĢ", "ÿ"]) {
    const doc = structuredClone(seed);
    doc.payload.findings[0].summary = `${"a".repeat(100)}${tail}`;
    doc.payload.findings[0].category = `gap${tail}`;
    const text = JSON.stringify(doc);
    const fromText = contracts.validate(text);
    assert.deepEqual(fromText, contracts.validate(Buffer.from(text)), JSON.stringify(tail));
    if (tail) assert.ok(JSON.stringify(fromText.records).includes(JSON.stringify(`gap${tail}`).slice(1, -1)), tail);
    assert.equal(contracts.migrate(text, "1.1.0"), text);
  }
  // A lone surrogate is refused before the call, and by the addon itself if called directly.
  const lone = JSON.stringify({ schema_version: "1.1.0" }).replace("1.1.0", "1.1.0\uD800");
  assert.throws(() => contracts.validate(lone), contracts.JsonValueError);
  const native = require(process.env.JERRY_CONTRACTS_ADDON ?? path.join(pkg, "jerry-contracts.node"));
  assert.throws(() => native.validateJson(lone), /lone surrogate at index 24/);
});

test("every seed example is valid, and check() throws InvalidDocument with the report", () => {
  const files = jsonFiles(seeds);
  assert.ok(files.length > 10);
  const map = Object.fromEntries(
    fs
      .readFileSync(path.join(seeds, "schemas.map"), "utf8")
      .split("\n")
      .filter((l) => l.trim() && !l.startsWith("#"))
      .map((l) => l.split(/\s+/)),
  );
  for (const file of files) {
    const report = contracts.check(fs.readFileSync(file), map[path.basename(file)]);
    assert.equal(report.valid, true, file);
  }
  const broken = { schema_version: "1.1.0" };
  assert.throws(
    () => contracts.check(broken),
    (error) => error instanceof contracts.InvalidDocument && error.report.errors.length > 0 && /SCH-/.test(error.message),
  );
});

test("values JSON cannot hold are refused at their place", () => {
  const cycle = { a: [1, 2] };
  cycle.a.push(cycle);
  const cases = [
    [{ n: 10n }, "/n", /BigInt/],
    [{ a: [1, undefined] }, "/a/1", /undefined/],
    [{ f() {} }, "/f", /function/],
    [{ s: Symbol("x") }, "/s", /symbol/],
    [{ x: Number.NaN }, "/x", /NaN/],
    [{ x: -Infinity }, "/x", /Infinity/],
    [cycle, "/a/2", /cycle/],
    [{ t: "a\uD800b" }, "/t", /surrogate/],
    [{ ["k\uDC00"]: 1 }, "/k\uDC00", /surrogate/],
    [{ m: new Map([["a", 1]]) }, "/m", /Map/],
    [{ "a/b": { "c~d": new Set() } }, "/a~1b/c~0d", /Set/],
  ];
  for (const [value, pointer, what] of cases) {
    assert.throws(
      () => contracts.validate(value),
      (error) => error instanceof contracts.JsonValueError && error instanceof TypeError && error.pointer === pointer && what.test(error.message),
      `${pointer}`,
    );
  }
  assert.throws(() => contracts.validate("[\uD800]"), contracts.JsonValueError);
  // toJSON is honoured, as JSON.stringify honours it (a Date is its ISO text).
  const dated = contracts.validate({ when: new Date(0) });
  assert.equal(dated.valid, false);
  assert.throws(() => contracts.validate({}, { strictt: true }), /options.strictt is not an option/);
  assert.throws(() => contracts.validate({}, { maxBytes: -1 }), /maxBytes/);
});

test("text that is not a document gets records, never a crash", () => {
  for (const text of ["", "not json", "{", "[[1 2]]", "\u0000", '{"a":1,"a":2}', "[".repeat(100_000), "1e999999"]) {
    const report = contracts.validate(text);
    assert.equal(report.valid, false, text.slice(0, 20));
    assert.ok(report.errors.length > 0);
  }
  // Bytes that are not UTF-8, and a document past the size limit.
  assert.equal(contracts.validate(Buffer.from([0x7b, 0xff, 0x7d])).valid, false);
  const big = contracts.validate(JSON.stringify({ a: "x".repeat(2048) }), { maxBytes: 1024 });
  assert.equal(big.valid, false);
  // Nesting deeper than JSON.stringify can write is refused, not a stack overflow.
  let deep = [];
  for (let i = 0; i < 200_000; i++) deep = [deep];
  assert.throws(() => contracts.validate(deep), contracts.JsonValueError);
});

test("validateAsync leaves the event loop free", async () => {
  // A large generic handoff: thousands of findings.
  const file = jsonFiles(seeds).find((f) => f.includes("producer_handoff"));
  const doc = JSON.parse(fs.readFileSync(file, "utf8"));
  const finding = doc.payload.key_findings[0];
  doc.payload.key_findings = Array.from({ length: 200_000 }, () => finding);
  const text = JSON.stringify(doc);
  let ticks = 0;
  const timer = setInterval(() => ticks++, 1);
  const started = performance.now();
  const report = await contracts.validateAsync(text);
  const took = performance.now() - started;
  clearInterval(timer);
  assert.deepEqual(report, contracts.validate(text));
  // The timer fired while the validation ran (it takes tens of milliseconds at least).
  assert.ok(took < 5 || ticks > 0, `no tick in ${took} ms`);
  assert.ok(took > 5, `the validation took ${took} ms: too short to show anything`);
});

test("workers validate at once, each as the main thread does", async () => {
  const files = jsonFiles(fixtures).filter((_, i) => i % 7 === 0);
  const expected = files.map((f) => JSON.stringify(contracts.validate(fs.readFileSync(f))));
  const source = `
    const { parentPort, workerData } = require("node:worker_threads");
    const fs = require("node:fs");
    const contracts = require(workerData.pkg);
    parentPort.postMessage(workerData.files.map((f) => JSON.stringify(contracts.validate(fs.readFileSync(f)))));
  `;
  const runs = Array.from({ length: 4 }, () => new Promise((resolve, reject) => {
    const worker = new Worker(source, { eval: true, workerData: { pkg, files } });
    worker.once("message", resolve);
    worker.once("error", reject);
  }));
  for (const got of await Promise.all(runs)) assert.deepEqual(got, expected);
});

test("schemas() lists the registry", () => {
  const listed = contracts.schemas();
  assert.ok(listed.length > 40);
  const researcher = listed.find((s) => s.name === "agents/ps/researcher_output");
  assert.equal(researcher.agent_id, "ps-researcher");
  assert.equal(researcher.id, "https://jerry.dev/schemas/agents/ps/researcher_output.json");
});

test("validateLines: a report a non-blank line, as validate() gives it, with its line", async () => {
  const files = jsonFiles(fixtures).filter((_, i) => i % 50 === 0);
  const docs = files.map((f) => JSON.stringify(JSON.parse(fs.readFileSync(f, "utf8"))));
  const text = `${docs[0]}\r\n\n   \n${docs.slice(1).join("\n")}\n`;
  const reports = contracts.validateLines(text);
  assert.deepEqual(reports.map((r) => r.line), [1, ...docs.slice(1).map((_, i) => i + 4)]);
  reports.forEach((report, i) => {
    const { line, ...rest } = report;
    assert.ok(report instanceof contracts.Report);
    // The same records as the document alone, each placed on the stream's line.
    const alone = contracts.validate(docs[i]);
    const placed = alone.records.map((r) => ({ ...r, line }));
    assert.deepEqual(rest, { ...alone, records: placed }, `line ${line}`);
  });
  assert.deepEqual(await contracts.validateLinesAsync(Buffer.from(text)), reports);
  assert.deepEqual(contracts.validateLines(""), []);
  // A stream long enough to be judged on every core: the reports stay in order, each the
  // document's own, an invalid line among them where it was.
  const many = Array.from({ length: 400 }, (_, i) => docs[i % docs.length]);
  many[333] = '{"schema_version": "1.1.0", "session_id": 5}';
  const long = many.join("\n");
  assert.ok(Buffer.byteLength(long) > 256 << 10, "past the addon's threshold for threads");
  const judged = contracts.validateLines(long);
  assert.deepEqual(judged.map((r) => r.line), many.map((_, i) => i + 1));
  for (const i of [0, 1, 199, 200, 333, 399]) {
    const alone = contracts.validate(many[i]);
    assert.deepEqual(judged[i].valid, alone.valid, `line ${i + 1}`);
    assert.deepEqual(judged[i].records.map((r) => r.error_code), alone.records.map((r) => r.error_code));
  }
  assert.equal(judged[333].valid, false);
  assert.throws(() => contracts.validateLines({ a: 1 }), TypeError);
});

test("a Validator keeps its options for every call", () => {
  // A document that breaks a convention alone: valid by default, invalid when strict.
  const convention = jsonFiles(fixtures).find(
    (f) =>
      f.includes(`${path.sep}convention${path.sep}`) &&
      contracts.validate(fs.readFileSync(f)).valid &&
      !contracts.validate(fs.readFileSync(f), { strict: true }).valid,
  );
  assert.ok(convention, "a fixture breaks a convention alone");
  const strict = new contracts.Validator({ strict: true });
  assert.ok(Object.isFrozen(strict.options));
  assert.equal(strict.validate(fs.readFileSync(convention)).valid, false);
  for (const file of [convention, ...jsonFiles(seeds).slice(0, 3)]) {
    const bytes = fs.readFileSync(file);
    assert.deepEqual(strict.validate(bytes), contracts.validate(bytes, { strict: true }), file);
  }
  assert.throws(() => new contracts.Validator({ schema: "x" }), /no schema/);
  const records = new contracts.Validator({ maxRecords: 1 }).validate({ schema_version: "1.1.0" }).records;
  assert.ok(records.length <= 2, JSON.stringify(records));
});

test("migrate, diff, example, schema and is() are the library's", () => {
  const handoff = jsonFiles(seeds).find((f) => f.includes("producer_handoff"));
  const text = fs.readFileSync(handoff, "utf8");
  const migrated = contracts.migrate(text);
  assert.equal(migrated.replace('"1.1.0"', '"1.0.0"'), text);
  assert.equal(contracts.validate(migrated).schema, "session_context/v1.1.0");
  assert.throws(() => contracts.migrate("{}"), (e) => e instanceof contracts.MigrationError && e instanceof contracts.JerryContractsError);

  const verdict = contracts.diff("session_context/v1.0.0", "session_context/v1.1.0");
  assert.equal(verdict.required, "minor");
  assert.ok(verdict.changes.length > 0 && verdict.changes.every((c) => ["MAJOR", "MINOR", "PATCH"].includes(c.class)));
  assert.deepEqual(contracts.diff(contracts.schema("common/types"), JSON.stringify(contracts.schema("common/types"))).changes, []);
  assert.throws(() => contracts.diff("no such schema", "{}"), contracts.DiffError);

  for (const { name } of contracts.schemas()) {
    const example = contracts.example(name);
    assert.ok(contracts.is(name, example), name);
    assert.equal(contracts.validateAs(example, name).valid, true, name);
    assert.equal(contracts.schema(name).$id, `https://jerry.dev/schemas/${name}.json`);
  }
  assert.equal(contracts.is("agents/ps/researcher_output", {}), false);
  // The generated guards: one a schema and definition, each is() of its schema.
  const guards = Object.keys(contracts).filter((name) => /^is[A-Z]/.test(name));
  assert.ok(guards.length > 100, `${guards.length} guards`);
  assert.equal(contracts.isResearcherOutput(contracts.example("agents/ps/researcher_output")), true);
  assert.equal(contracts.isResearcherOutput(contracts.example("agents/ps/analyst_output")), false);
  assert.equal(contracts.isV11SessionContext(contracts.example("session_context/v1.1.0")), true);
  assert.equal(contracts.isV11SessionContext({ schema_version: "1.1.0" }), false);
  assert.equal(contracts.is("agents/ps/researcher_output", { n: 1n }), false);
  assert.throws(() => contracts.example("nope"), contracts.UnknownSchema);
  assert.throws(() => contracts.schema("nope"), contracts.UnknownSchema);
});
