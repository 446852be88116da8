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
 * A JavaScript value as JSON text, refusing what JSON.stringify would drop or change without a
 * word: `undefined`, functions and symbols (dropped), non-finite numbers (written as null),
 * BigInt (thrown), cycles (thrown), strings and names with a lone surrogate (not Unicode text),
 * and objects that are not plain (a Map or a Set would be written as {}). A `toJSON` method is
 * honoured, as JSON.stringify honours it. The walk keeps its own stack: no nesting overflows it.
 */
function jsonText(document) {
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
      const kind = value.constructor?.name ?? "an object with a prototype";
      throw new JsonValueError(pointer, `a ${kind} (only plain objects and arrays are JSON)`);
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
  try {
    return JSON.stringify(document);
  } catch (error) {
    // Past V8's own nesting limit: the walk above has judged every value already.
    throw new JsonValueError("", `a document JSON.stringify cannot write (${error.message})`);
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

/** Validates a document (JSON text, bytes, or a JavaScript value) through every layer. */
function validate(document, options) {
  return new Report(JSON.parse(native.validateJson(documentOf(document), optionsOf(options))));
}

/** validate() on libuv's thread pool, off the event loop. */
async function validateAsync(document, options) {
  const text = await native.validateJsonAsync(documentOf(document), optionsOf(options));
  return new Report(JSON.parse(text));
}

/** Validates and throws InvalidDocument unless the document is valid; returns the report. */
function check(document, options) {
  return validate(document, options).raiseForErrors();
}

/** Every schema of the registry: name, path, $id, title, version, agent_id, schema_name. */
function schemas() {
  return JSON.parse(native.schemasJson());
}

module.exports = { validate, validateAsync, check, schemas, Report, InvalidDocument, JsonValueError };
