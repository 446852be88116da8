// The npm package `jerry-contracts`: the Rust validator for Node (the native addon,
// jerry-contracts.node, built from crates/node/src by scripts/node-test.sh), with the contracts'
// TypeScript types (contracts.d.ts). index.d.ts declares what this module exports.
"use strict";

const path = require("node:path");

/** The addon: JERRY_CONTRACTS_ADDON names another build of it. */
const native = require(process.env.JERRY_CONTRACTS_ADDON ?? path.join(__dirname, "jerry-contracts.node"));

/** A JavaScript value that JSON cannot hold: `pointer` says where it is in the document. */
class JsonValueError extends TypeError {
  constructor(pointer, what) {
    super(`${what} at ${pointer === "" ? "the document's root" : JSON.stringify(pointer)}: JSON has no such value`);
    this.name = "JsonValueError";
    this.pointer = pointer;
  }
}

/** A document the validator refused: `report` holds every record. */
class InvalidDocument extends Error {
  constructor(report) {
    const first = report.errors[0];
    const shown = first ? `${first.error_code} at ${JSON.stringify(first.path ?? "")}: ${first.message}` : "no record";
    super(`invalid document (${report.errors.length} error(s)); first: ${shown}`);
    this.name = "InvalidDocument";
    this.report = report;
  }
}

/** The base of the errors the package raises for a request it cannot carry out. */
class JerryContractsError extends Error {
  constructor(message) {
    super(message);
    this.name = new.target.name;
  }
}

/** No schema has the name given. */
class UnknownSchema extends JerryContractsError {}

/** A document migrate() cannot migrate (not JSON, not an envelope, an unknown version). */
class MigrationError extends JerryContractsError {}

/** A schema diff() cannot read. */
class DiffError extends JerryContractsError {}

const KINDS = { UnknownSchema, MigrationError, DiffError, JerryContractsError };

/** Runs a native call, making an error of a kind the addon names (`Kind: message`) that class. */
function nativeCall(call) {
  try {
    return call();
  } catch (error) {
    const match = /^(\w+): ([\s\S]*)$/.exec(error?.message ?? "");
    if (match && KINDS[match[1]]) throw new KINDS[match[1]](match[2]);
    throw error;
  }
}

/** The verdict on one document: its schema, whether it is valid, and its records. */
class Report {
  constructor({ schema, valid, records }) {
    /** The registry name of the schema the document was judged against, or null. */
    this.schema = schema;
    /** No record of severity "error". */
    this.valid = valid;
    /** Every record (`common/error.json`), errors and warnings, as the CLI writes them. */
    this.records = records;
  }

  /** The records of severity "error". */
  get errors() {
    return this.records.filter((record) => record.severity === "error");
  }

  /** The records of severity "warning". */
  get warnings() {
    return this.records.filter((record) => record.severity === "warning");
  }

  /** Throws InvalidDocument (carrying this report) unless the document is valid. */
  raiseForErrors() {
    if (!this.valid) throw new InvalidDocument(this);
    return this;
  }
}

/** One step of a JSON Pointer. */
function step(pointer, name) {
  return `${pointer}/${String(name).replaceAll("~", "~0").replaceAll("/", "~1")}`;
}

/**
 * Throws the JsonValueError of the first value in `document` that JSON cannot hold (see
 * jsonText), with its place; returns when there is none. A `toJSON` method is honoured, as JSON.stringify honours it. The walk
 * keeps its own stack: no nesting overflows it.
 */
function refuse(document) {
  const ancestors = new Set();
  const stack = [{ value: document, key: "", pointer: "" }];
  while (stack.length > 0) {
    const frame = stack.pop();
    if (frame.leave) {
      ancestors.delete(frame.leave);
      continue;
    }
    let { value } = frame;
    const { pointer } = frame;
    if (value !== null && (typeof value === "object" || typeof value === "bigint") && typeof value.toJSON === "function") {
      value = value.toJSON(frame.key);
    }
    switch (typeof value) {
      case "string":
        if (!value.isWellFormed()) throw new JsonValueError(pointer, "a string with a lone surrogate");
        continue;
      case "number":
        if (!Number.isFinite(value)) throw new JsonValueError(pointer, `the number ${value}`);
        continue;
      case "boolean":
        continue;
      case "bigint":
        throw new JsonValueError(pointer, "a BigInt");
      case "undefined":
        throw new JsonValueError(pointer, "undefined");
      case "function":
        throw new JsonValueError(pointer, "a function");
      case "symbol":
        throw new JsonValueError(pointer, "a symbol");
      default:
        break;
    }
    if (value === null) continue;
    if (ancestors.has(value)) throw new JsonValueError(pointer, "a cycle (an object inside itself)");
    const proto = Object.getPrototypeOf(value);
    if (!Array.isArray(value) && proto !== Object.prototype && proto !== null) {
      const kind = typeof value.constructor?.name === "string" ? value.constructor.name : "another prototype";
      throw new JsonValueError(pointer, `an object of class ${kind} (only plain objects and arrays are JSON)`);
    }
    ancestors.add(value);
    stack.push({ leave: value });
    if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i--) stack.push({ value: value[i], key: String(i), pointer: step(pointer, i) });
    } else {
      for (const name of Object.keys(value).reverse()) {
        if (!name.isWellFormed()) throw new JsonValueError(step(pointer, name), "a member name with a lone surrogate");
        stack.push({ value: value[name], key: name, pointer: step(pointer, name) });
      }
    }
  }
}

/** How deep `isPlainJson` looks before it leaves a document to the checked path. */
const PLAIN_DEPTH = 256;

/**
 * Whether `value` is plain JSON data JSON.stringify writes as it is: strings that are Unicode
 * text, finite numbers, booleans, null, arrays and plain objects of those, with own members
 * only, no `toJSON`, at most PLAIN_DEPTH deep (so no cycle). The fast path's check: a
 * recursion over the data, cheaper than `refuse`'s walk with its own stack.
 */
function isPlainJson(value, depth) {
  switch (typeof value) {
    case "string":
      return value.isWellFormed();
    case "number":
      return Number.isFinite(value);
    case "boolean":
      return true;
    case "object": {
      if (value === null) return true;
      if (depth > PLAIN_DEPTH || typeof value.toJSON === "function") return false;
      if (Array.isArray(value)) {
        for (let i = 0; i < value.length; i++) if (!isPlainJson(value[i], depth + 1)) return false;
        return true;
      }
      const proto = Object.getPrototypeOf(value);
      if (proto !== Object.prototype && proto !== null) return false;
      for (const name in value) {
        if (!Object.hasOwn(value, name) || !name.isWellFormed() || !isPlainJson(value[name], depth + 1)) return false;
      }
      return true;
    }
    default:
      return false;
  }
}

/**
 * A JavaScript value as JSON text, refusing what JSON.stringify would drop or change without a
 * word: `undefined`, functions and symbols (dropped), non-finite numbers (written as null),
 * BigInt (thrown), cycles (thrown), strings and names with a lone surrogate (not Unicode text),
 * and objects that are not plain (a Map or a Set would be written as {}). Plain data is written
 * at once; anything else (a `toJSON`, deep nesting, a value to refuse) is walked by `refuse`
 * first, which throws at the first value to refuse, with its place.
 */
function jsonText(document) {
  if (!isPlainJson(document, 0)) refuse(document);
  try {
    return JSON.stringify(document);
  } catch (error) {
    // Past V8's own nesting limit: the walk has judged every value already.
    throw new JsonValueError("", `a document JSON.stringify cannot write (${error?.message ?? String(error)})`);
  }
}

/** The document as the addon takes it: text or bytes as given, any other value as JSON text. */
function documentOf(document) {
  if (typeof document === "string") {
    if (!document.isWellFormed()) throw new JsonValueError("", "text with a lone surrogate");
    return document;
  }
  if (Buffer.isBuffer(document)) return document;
  if (document instanceof Uint8Array) return Buffer.from(document.buffer, document.byteOffset, document.byteLength);
  return jsonText(document);
}

/** The addon's options from the caller's (a schema name alone is the same as `{ schema }`). */
function optionsOf(options) {
  if (options === undefined || options === null) return undefined;
  if (typeof options === "string") return { schema: options };
  if (typeof options !== "object") throw new TypeError("options must be an object or a schema name");
  const known = ["schema", "strict", "root", "session", "maxBytes", "maxRecords"];
  for (const name of Object.keys(options)) {
    if (!known.includes(name)) throw new TypeError(`options.${name} is not an option (${known.join(", ")})`);
  }
  return options;
}

/** The Report of what the addon's validateJson returns: the report's JSON text, or the name of
 * the schema of a valid document without a record (a name never starts with `{`). */
function reportOf(text) {
  if (text.charCodeAt(0) === 123) return new Report(JSON.parse(text));
  return new Report({ schema: text, valid: true, records: [] });
}

/**
 * A validator with its options (strict, root, session, maxBytes, maxRecords), for many
 * documents. The functions below use one with the options given to each call.
 */
class Validator {
  constructor(options = {}) {
    const given = optionsOf(options) ?? {};
    if ("schema" in given) throw new TypeError("a Validator's options hold no schema: give it to each call");
    this.options = Object.freeze({ ...given });
  }

  /** The options of one call: the validator's, with the schema if one is given. */
  with(schema) {
    if (schema === undefined || schema === null) return this.options;
    if (typeof schema !== "string") throw new TypeError("schema must be a registry name (a string)");
    return { ...this.options, schema };
  }

  /** Validates a document (JSON text, bytes, or a JavaScript value) through every layer. */
  validate(document, schema) {
    return reportOf(native.validateJson(documentOf(document), this.with(schema)));
  }

  /** validate() on libuv's thread pool, off the event loop. */
  async validateAsync(document, schema) {
    return reportOf(await native.validateJsonAsync(documentOf(document), this.with(schema)));
  }

  /** Validates and throws InvalidDocument unless the document is valid; returns the report. */
  check(document, schema) {
    return this.validate(document, schema).raiseForErrors();
  }

  /** A report for each non-blank line of NDJSON text (or its bytes), each with its `line`. */
  validateLines(text, schema) {
    return linesOf(native.validateLinesJson(ndjsonOf(text), this.with(schema)));
  }

  /** validateLines() on libuv's thread pool, off the event loop. */
  async validateLinesAsync(text, schema) {
    return linesOf(await native.validateLinesJsonAsync(ndjsonOf(text), this.with(schema)));
  }
}

/** NDJSON as the addon takes it: text or bytes. */
function ndjsonOf(text) {
  if (typeof text === "string" || text instanceof Uint8Array) return documentOf(text);
  throw new TypeError("NDJSON must be text or bytes (a string, a Buffer or a Uint8Array)");
}

/** The reports of an NDJSON validation, each a Report with its `line` (1-based). */
function linesOf(json) {
  return JSON.parse(json).map((entry) => {
    const report = new Report(entry);
    report.line = entry.line;
    return report;
  });
}

/** The validator of one call's options (a schema name alone is `{ schema }`). */
function callOf(options) {
  const given = optionsOf(options) ?? {};
  const { schema, ...rest } = given;
  return [new Validator(rest), schema];
}

/** Validates a document (JSON text, bytes, or a JavaScript value) through every layer. */
function validate(document, options) {
  if (options === undefined) return reportOf(native.validateJson(documentOf(document)));
  const [validator, schema] = callOf(options);
  return validator.validate(document, schema);
}

/** validate() on libuv's thread pool, off the event loop. */
function validateAsync(document, options) {
  const [validator, schema] = callOf(options);
  return validator.validateAsync(document, schema);
}

/** validate() against the schema named `schema`. */
function validateAs(document, schema, options) {
  if (typeof schema !== "string") throw new TypeError("validateAs takes a schema name");
  const [validator] = callOf(options);
  return validator.validate(document, schema);
}

/** Validates and throws InvalidDocument unless the document is valid; returns the report. */
function check(document, options) {
  return validate(document, options).raiseForErrors();
}

/** A report for each non-blank line of NDJSON text (or its bytes), each with its `line`. */
function validateLines(text, options) {
  const [validator, schema] = callOf(options);
  return validator.validateLines(text, schema);
}

/** validateLines() on libuv's thread pool, off the event loop. */
function validateLinesAsync(text, options) {
  const [validator, schema] = callOf(options);
  return validator.validateLinesAsync(text, schema);
}

/** Whether `value` is a valid document of the schema named `schema` (every layer): a type guard. */
function is(schema, value) {
  if (typeof schema !== "string") throw new TypeError("is takes a schema name");
  try {
    return validateAs(value, schema).valid;
  } catch (error) {
    if (error instanceof JsonValueError) return false;
    throw error;
  }
}

/** The handoff migrated to version `to` (default 1.1.0): its text with only `schema_version`
 * changed, every number, member and space as written. */
function migrate(document, to = "1.1.0") {
  if (typeof to !== "string") throw new TypeError("to must be a version (a string)");
  return nativeCall(() => native.migrateText(documentOf(document), to));
}

/** A schema for diff(): a registry name, its JSON text, or a parsed schema. */
function schemaText(schema) {
  if (typeof schema === "string") return schema;
  if (schema instanceof Uint8Array) return Buffer.from(schema.buffer, schema.byteOffset, schema.byteLength).toString("utf8");
  return jsonText(schema);
}

/** The changes from schema `old` to `new`, each MAJOR, MINOR or PATCH, and the least bump they
 * need: `{ changes, required, declared, ok }`, as `jerry-contracts diff --format json`. */
function diff(old, new_) {
  return JSON.parse(nativeCall(() => native.diffJson(schemaText(old), schemaText(new_))));
}

/** A valid document of the schema named `name`. */
function example(name) {
  return JSON.parse(nativeCall(() => native.exampleJson(String(name))));
}

/** The schema named `name`, parsed from its embedded text. */
function schema(name) {
  return JSON.parse(nativeCall(() => native.schemaJson(String(name))));
}

/** Every schema of the registry: name, path, $id, title, version, agent_id, schema_name. */
function schemas() {
  return JSON.parse(native.schemasJson());
}

module.exports = {
  // isResearcherOutput(value) and the like: one guard a schema and definition (generated).
  ...require("./guards.js")(is),
  validate,
  validateAsync,
  validateAs,
  check,
  validateLines,
  validateLinesAsync,
  is,
  migrate,
  diff,
  example,
  schema,
  schemas,
  Validator,
  Report,
  InvalidDocument,
  JsonValueError,
  JerryContractsError,
  UnknownSchema,
  MigrationError,
  DiffError,
};
