// The contracts' TypeScript types (contracts.d.ts, rendered from the contract model, D-212):
// `tsc --strict` accepts every seed example typed with its schema's type (and the module's own
// declarations, index.d.ts, in use), and refuses a missing required member, a wrong-typed value,
// an unknown enum value and a misspelt member name, each at its place. One tsc run checks every file, as the Python suite's one mypy run does.
//
// The schema of each seed comes from the CLI (`validate --format json`), as a user's would;
// JERRY_CONTRACTS_CLI names the binary (scripts/node-test.sh builds it), else target/debug's.

import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";

const pkg = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const root = path.resolve(pkg, "../..");
const seeds = path.join(root, "examples", "seeds");
const cli = process.env.JERRY_CONTRACTS_CLI ?? path.join(root, "target", "debug", "jerry-contracts");
const tsc = path.join(pkg, "node_modules", "typescript", "bin", "tsc");

/** {seed file name: registry name of its schema}, as the CLI reads the seeds directory. */
function seedSchemas() {
  const run = spawnSync(cli, ["validate", "--format", "json", seeds], { encoding: "utf8" });
  assert.equal(run.status, 0, `the CLI judges every seed valid:\n${run.stdout}${run.stderr}`);
  const found = {};
  for (const line of run.stdout.split("\n").filter(Boolean)) {
    const record = JSON.parse(line);
    found[path.basename(record.source)] = record.schema;
  }
  return found;
}

/** The schema at `name` (`NAME` or `NAME#/definitions/DEF`), with the file it is in. */
function schemaAt(name) {
  const [stem, pointer = ""] = name.split("#");
  const file = path.join(root, "schemas", `${stem}.json`);
  return follow(file, pointer);
}

/** The schema at `pointer` of `file`, its `$ref`s followed (relative to the file they are in). */
function follow(file, pointer) {
  let node = JSON.parse(fs.readFileSync(file, "utf8"));
  for (const step of pointer.split("/").slice(1)) {
    node = node[step.replaceAll("~1", "/").replaceAll("~0", "~")];
  }
  if (node && typeof node.$ref === "string") {
    const [target, fragment = ""] = node.$ref.split("#");
    return follow(target ? path.resolve(path.dirname(file), target) : file, fragment);
  }
  return { file, node };
}

/** The schema of member `key` of the object schema `at`, its `$ref`s followed. */
function memberSchema(at, key) {
  const member = at.node.properties?.[key];
  if (!member) return undefined;
  if (typeof member.$ref === "string") {
    const [target, fragment = ""] = member.$ref.split("#");
    return follow(target ? path.resolve(path.dirname(at.file), target) : at.file, fragment).node;
  }
  return member;
}

/** A module typing `document` with the type of schema `name`: each member on its own line. */
function typedModule(name, document) {
  const contracts = JSON.stringify(path.join(pkg, "contracts"));
  return `import type { BySchema } from ${contracts};\n\nexport const doc: BySchema[${JSON.stringify(name)}] = ${JSON.stringify(document, null, 2)};\n`;
}

/** The 1-based line of `text` that starts member `key` at the top level of the document. */
function lineOf(text, key) {
  const index = text.split("\n").findIndex((line) => line.startsWith(`  ${JSON.stringify(key)}:`));
  assert.ok(index >= 0, `no line for ${key}`);
  return index + 1;
}

/** The negative cases one seed gives: {kind: {key, document}} for each kind it can. */
function negatives(name, document) {
  const at = schemaAt(name);
  const required = at.node.required ?? [];
  const declared = Object.keys(at.node.properties ?? {});
  const out = {};
  for (const key of required) {
    const member = memberSchema(at, key);
    if (key in document && member?.type === "string" && !member.enum && !("const" in member)) {
      const { [key]: _, ...missing } = document;
      out.missing ??= { key, document: missing };
      out.wrong ??= { key, document: { ...document, [key]: 12345 } };
    }
  }
  for (const key of Object.keys(document)) {
    const member = memberSchema(at, key);
    if (Array.isArray(member?.enum) && member.enum.every((v) => typeof v === "string")) {
      out.enum ??= { key, document: { ...document, [key]: "not-one-of-the-values" } };
    }
  }
  const optional = declared.find((key) => !required.includes(key) && /^[a-z_]+$/.test(key));
  if (optional) {
    // A misspelt optional member: the name with its last letter doubled.
    const typo = optional + optional.at(-1);
    out.typo = { key: typo, document: { ...document, [typo]: document[optional] ?? "x" } };
  }
  return out;
}

test("tsc --strict accepts every seed example typed with its schema's type, and refuses mistakes", () => {
  const schemas = seedSchemas();
  const seedFiles = fs.readdirSync(seeds).filter((f) => f.endsWith(".json")).sort();
  assert.ok(seedFiles.length > 10);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "jerry-contracts-ts-"));
  try {
    const files = {};
    const cases = {};
    for (const file of seedFiles) {
      const name = schemas[file];
      assert.ok(name, `the CLI names a schema for ${file}`);
      const document = JSON.parse(fs.readFileSync(path.join(seeds, file), "utf8"));
      const stem = file.replace(/\.json$/, "").replaceAll(/[^A-Za-z0-9_]/g, "_");
      files[`seed_${stem}.ts`] = typedModule(name, document);
      for (const [kind, found] of Object.entries(negatives(name, document))) {
        if (cases[kind]) continue;
        const text = typedModule(name, found.document);
        const line = kind === "missing" ? null : lineOf(text, found.key);
        cases[kind] = { file: `${kind}_${stem}.ts`, key: found.key, line };
        files[cases[kind].file] = text;
      }
    }
    assert.deepEqual(Object.keys(cases).sort(), ["enum", "missing", "typo", "wrong"], "the seeds give every negative case");
    // The payload dispatch: its `Of` helper is the agent's output exactly.
    files["dispatch.ts"] = `import type { ResearcherOutput, V11Payload, V11PayloadOf } from ${JSON.stringify(path.join(pkg, "contracts"))};
type Equal<X, Y> = (<T>() => T extends X ? 1 : 2) extends (<T>() => T extends Y ? 1 : 2) ? true : false;
export const same: Equal<V11PayloadOf<"ps-researcher">, ResearcherOutput> = true;
export function findings(payload: V11Payload): number {
  return payload.agent_id === "ps-researcher" && "findings" in payload ? payload.findings.length : 0;
}
`;
    // The module's declarations (index.d.ts) over the contract types.
    files["api.ts"] = `import { check, diff, example, is, isResearcherOutput, migrate, schema, schemas, validate, validateAsync, InvalidDocument, JsonValueError, Report, UnknownSchema, Validator } from ${JSON.stringify(path.join(pkg, "index"))};
import type { ErrorRecord, ResearcherOutput, ValidateOptions } from ${JSON.stringify(path.join(pkg, "index"))};
export async function codes(text: string, options: ValidateOptions): Promise<string[]> {
  const report: Report = validate(text, options);
  const errors: ErrorRecord[] = report.errors;
  const later: Report = await validateAsync(new Uint8Array([123, 125]), "session_context/v1.1.0");
  try {
    check({ payload: [1, 2] });
  } catch (error) {
    if (error instanceof InvalidDocument) errors.push(...error.report.errors);
    if (error instanceof JsonValueError) return [error.pointer];
  }
  return [...errors, ...later.warnings].map((record) => record.error_code).concat(schemas().map((s) => s.name));
}
export function topic(value: unknown): string {
  // The guard narrows to the schema's type.
  return is("agents/ps/researcher_output", value) ? value.research_topic : "";
}
export const made: ResearcherOutput = example("agents/ps/researcher_output");
export function summaries(value: unknown): string[] {
  // A generated guard narrows to its type.
  return isResearcherOutput(value) ? value.findings.map((f) => f.summary) : [];
}
export const lines: number[] = new Validator({ strict: true }).validateLines("{}\\n{}").map((r) => r.line);
export const moved: string = migrate("{}", "1.1.0") + String(diff("a", "b").ok) + String(schema("common/types").$id);
export const kinds: Error[] = [new UnknownSchema("x")];
`;
    for (const [file, text] of Object.entries(files)) fs.writeFileSync(path.join(dir, file), text);
    const run = spawnSync(
      process.execPath,
      [tsc, "--strict", "--noEmit", "--pretty", "false", "--target", "es2022", "--moduleResolution", "node10", ...Object.keys(files).map((f) => path.join(dir, f))],
      { encoding: "utf8" },
    );
    assert.ok(run.status === 0 || run.status === 2, `tsc ran:\n${run.stdout}${run.stderr}`);
    const errors = {};
    for (const line of run.stdout.split("\n")) {
      const match = /^(.*?)\((\d+),\d+\): error (TS\d+: .*)$/.exec(line);
      if (match) (errors[path.basename(match[1])] ??= []).push({ line: Number(match[2]), text: match[3] });
    }
    const unexpected = Object.entries(errors).filter(([file]) => file.startsWith("seed_") || ["dispatch.ts", "api.ts", "contracts.d.ts", "index.d.ts"].includes(file));
    assert.deepEqual(unexpected, [], `tsc refused a seed example or the types themselves:\n${run.stdout}`);
    for (const [kind, { file, key, line }] of Object.entries(cases)) {
      const found = errors[file] ?? [];
      assert.ok(found.length > 0, `tsc accepted the ${kind} case (${key}):\n${files[file]}`);
      const placed = kind === "missing" ? found.some((e) => e.text.includes(`'${key}'`)) : found.some((e) => e.line === line);
      assert.ok(placed, `the ${kind} case's error names ${key}: ${JSON.stringify(found)}`);
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
