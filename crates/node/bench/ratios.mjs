// The Node package against ajv 8 (compiled once, with the project's schemas and ajv-formats), on
// the documents of benches/ratios.rs (the 2.8 KB seed handoff, 11 KB with 20 findings, 66 KB
// with 150) and a 5,000-line NDJSON stream of seed handoffs, in one run, peers interleaved:
//   - from JSON text: `JSON.parse` + ajv against `validate(text)`, all four layers and the
//     conventions (goal: at least twice ajv's speed);
//   - from a parsed object: ajv against `validate(object)` (written as JSON text first, D-214).
// Each cell is the median of REPS (default 15) batches of BATCH_MS (default 60) milliseconds;
// the table gives the ratios, ajv's time over this package's (above 1: this package is faster).
//   node crates/node/bench/ratios.mjs   (scripts/bench-node.sh builds the release addon first)

import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";

const require = createRequire(import.meta.url);
const pkg = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const root = path.resolve(pkg, "../..");
const contracts = require(pkg);
const Ajv = require("ajv");
const addFormats = require("ajv-formats");

const REPS = Number(process.env.REPS ?? 15);
const BATCH_MS = Number(process.env.BATCH_MS ?? 60);

// The documents, built as benches/support/documents.rs builds them.
const WORDS = [
  "agent", "handoff", "requirements", "verification", "trade", "study", "risk", "mitigation", "orchestrator",
  "divergent", "convergent", "persona", "traceability", "interface", "baseline", "configuration", "NASA",
  "NPR 7123.1", "Δv budget", "naïve", "review", "evidence", "schema", "coverage", "stakeholder", "mission",
  "telemetry", "latency", "throughput", "—",
];
const MASK = (1n << 64n) - 1n;

/** A text of at most `chars` characters, varying with `seed` (the Rust bench's generator). */
function text(seed, chars) {
  let out = "";
  let state = (BigInt(seed) * 2_654_435_761n + 12_345n) & MASK;
  for (;;) {
    state = (state * 6_364_136_223_846_793_005n + 1_442_695_040_888_963_407n) & MASK;
    const word = WORDS[Number((state >> 33n) % BigInt(WORDS.length))];
    if ([...out].length + [...word].length + 2 > chars) break;
    if (out) out += " ";
    out += word;
  }
  return `${out}.`;
}

const CATEGORIES = ["insight", "pattern", "gap", "prior_art", "best_practice"];

function finding(i, n, summaryChars, evidence) {
  const k = i + n;
  return {
    id: `F-${String(i + 1).padStart(3, "0")}`,
    summary: text(k, summaryChars),
    category: CATEGORIES[k % CATEGORIES.length],
    evidence: Array.from({ length: evidence }, (_, e) => `agent-research-${String(k % 1000).padStart(3, "0")}-${e}.md`),
    relevance_score: ((k * 37) % 100) / 100,
  };
}

const seed = JSON.parse(fs.readFileSync(path.join(root, "tests/fixtures/session_context/v1.1.0/valid/seed_example_1.json"), "utf8"));
function withFindings(count, chars, n = 0) {
  const doc = structuredClone(seed);
  doc.session_id = `sess-2026-01-10-${String(n).padStart(6, "0")}`;
  doc.payload.findings = Array.from({ length: count }, (_, i) => finding(i, n, chars, 2));
  return doc;
}

const documents = [
  ["seed handoff", JSON.stringify(seed)],
  ["20 findings", JSON.stringify(withFindings(20, 330))],
  ["150 findings", JSON.stringify(withFindings(150, 290))],
];
const ndjson = Array.from({ length: 5000 }, (_, n) => {
  const doc = structuredClone(seed);
  doc.session_id = `sess-2026-01-10-${String(n).padStart(6, "0")}`;
  return JSON.stringify(doc);
}).join("\n");

// ajv, compiled once with every schema of the project.
const ajv = new Ajv({ strict: false, allErrors: false });
addFormats(ajv);
for (const { name } of contracts.schemas()) ajv.addSchema(contracts.schema(name));
const ajvValidate = ajv.compile({ $ref: "https://jerry.dev/schemas/session_context/v1.1.0.json" });

for (const [name, doc] of documents) {
  const report = contracts.validate(doc);
  if (!report.valid) throw new Error(`${name}: the package refuses it: ${JSON.stringify(report.errors)}`);
  if (!ajvValidate(JSON.parse(doc))) throw new Error(`${name}: ajv refuses it: ${JSON.stringify(ajvValidate.errors)}`);
}

/** Seconds per call of `run`, over one batch. */
function time(run) {
  let calls = 0;
  const started = process.hrtime.bigint();
  const deadline = started + BigInt(BATCH_MS) * 1_000_000n;
  let now = started;
  while (now < deadline) {
    run();
    calls++;
    now = process.hrtime.bigint();
  }
  return Number(now - started) / 1e9 / calls;
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
};

/** Each peer's median seconds per call, the peers interleaved batch by batch. */
function compare(peers) {
  const times = peers.map(() => []);
  for (let rep = 0; rep < REPS; rep++) peers.forEach(([, run], i) => times[i].push(time(run)));
  return times.map(median);
}

const rows = [];
for (const [name, doc] of documents) {
  const object = JSON.parse(doc);
  const [ajvText, oursText, ajvObject, oursObject] = compare([
    ["ajv text", () => ajvValidate(JSON.parse(doc))],
    ["validate(text)", () => contracts.validate(doc)],
    ["ajv object", () => ajvValidate(object)],
    ["validate(object)", () => contracts.validate(object)],
  ]);
  rows.push({ name, bytes: Buffer.byteLength(doc), ajvText, oursText, ajvObject, oursObject });
}
{
  const lines = ndjson.split("\n");
  const [ajvText, oursText] = compare([
    ["ajv lines", () => lines.every((line) => ajvValidate(JSON.parse(line)))],
    ["validateLines", () => contracts.validateLines(ndjson)],
  ]);
  rows.push({ name: "5,000-line NDJSON", bytes: Buffer.byteLength(ndjson), ajvText, oursText });
}

const us = (s) => `${(s * 1e6).toFixed(s < 1e-3 ? 1 : 0)} µs`;
console.log(`REPS=${REPS} BATCH_MS=${BATCH_MS}, ${process.version}, ajv ${require("ajv/package.json").version}\n`);
console.log("| document | bytes | ajv / validate, from text (goal ≥ 2) | JSON.parse + ajv | validate(text) | ajv / validate, from an object | ajv | validate(object) |");
console.log("|---|---:|---:|---:|---:|---:|---:|---:|");
for (const r of rows) {
  const objectCells = r.ajvObject === undefined ? "| | | |" : `| **${(r.ajvObject / r.oursObject).toFixed(2)}** | ${us(r.ajvObject)} | ${us(r.oursObject)} |`;
  console.log(`| ${r.name} | ${r.bytes} | **${(r.ajvText / r.oursText).toFixed(2)}** | ${us(r.ajvText)} | ${us(r.oursText)} ${objectCells}`);
}
