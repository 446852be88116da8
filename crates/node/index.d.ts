// The npm package `jerry-contracts`: the Rust validator for Node, and the contracts' types.
// index.js is the module; contracts.d.ts (generated from schemas/) holds the contract types.

export * from "./contracts";
export * from "./guards";
import type { BySchema, ErrorRecord as SchemaErrorRecord, SchemaName } from "./contracts";

/** A record of `common/error.json`, placed in the text it was found in: the `line` and
 * `column` (from 1, in Unicode scalar values) of the value at its `path`, or of the object that
 * lacks a missing member; for `validateLines`, `line` is the line of the stream. */
export type ErrorRecord = SchemaErrorRecord & { line?: number; column?: number };

/** What a validation may be told (every option optional). */
export interface ValidateOptions {
  /** The schema the document follows (registry name, `NAME#/definitions/DEF`, `$id`, agent id or
   * mission schema name); detected when absent. */
  schema?: string;
  /** Conventions are errors, not warnings. */
  strict?: boolean;
  /** Repository root: artifacts must exist below it and match their checksums. */
  root?: string;
  /** The consumer's session id: a handoff from another session gets a warning. */
  session?: string;
  /** The largest document read, in bytes. */
  maxBytes?: number;
  /** The most records a report lists. */
  maxRecords?: number;
}

/** A document: JSON text, its bytes, or a JavaScript value JSON can hold. */
export type Document = string | Uint8Array | unknown;

/** The verdict on one document. */
export declare class Report {
  /** The registry name of the schema the document was judged against, or null. */
  readonly schema: string | null;
  /** No record of severity "error". */
  readonly valid: boolean;
  /** Every record (`common/error.json`), errors and warnings, as the CLI writes them. */
  readonly records: ErrorRecord[];
  /** The records of severity "error". */
  get errors(): ErrorRecord[];
  /** The records of severity "warning". */
  get warnings(): ErrorRecord[];
  /** Throws InvalidDocument unless the document is valid. */
  raiseForErrors(): this;
}

/** A document the validator refused; `report` holds every record. */
export declare class InvalidDocument extends Error {
  readonly report: Report;
}

/** A JavaScript value JSON cannot hold (undefined, a function, a BigInt, a non-finite number, a
 * cycle, a lone surrogate, an object that is not plain), at `pointer` in the document. */
export declare class JsonValueError extends TypeError {
  readonly pointer: string;
}

/** The errors of a request the package cannot carry out. */
export declare class JerryContractsError extends Error {}
/** No schema has the name given. */
export declare class UnknownSchema extends JerryContractsError {}
/** A document migrate() cannot migrate (not JSON, not an envelope, an unknown version). */
export declare class MigrationError extends JerryContractsError {}
/** A schema diff() cannot read. */
export declare class DiffError extends JerryContractsError {}

/** A report of one line of an NDJSON text. */
export interface LineReport extends Report {
  /** The line's number, from 1. */
  readonly line: number;
}

/** A validator with its options, for many documents (the schema goes to each call). */
export declare class Validator {
  constructor(options?: Omit<ValidateOptions, "schema">);
  readonly options: Readonly<Omit<ValidateOptions, "schema">>;
  validate(document: Document, schema?: string): Report;
  validateAsync(document: Document, schema?: string): Promise<Report>;
  check(document: Document, schema?: string): Report;
  validateLines(text: string | Uint8Array, schema?: string): LineReport[];
  validateLinesAsync(text: string | Uint8Array, schema?: string): Promise<LineReport[]>;
}

/** Validates a document through every layer (schema, semantic, constitutional,
 * cross-reference, conventions). A schema name alone may stand for the options. */
export declare function validate(document: Document, options?: ValidateOptions | string): Report;
/** validate() off the event loop (libuv's thread pool). */
export declare function validateAsync(document: Document, options?: ValidateOptions | string): Promise<Report>;
/** validate() against the schema named `schema`. */
export declare function validateAs(document: Document, schema: string, options?: Omit<ValidateOptions, "schema">): Report;
/** Validates, and throws InvalidDocument unless the document is valid. */
export declare function check(document: Document, options?: ValidateOptions | string): Report;
/** A report for each non-blank line of an NDJSON text (one document a line). */
export declare function validateLines(text: string | Uint8Array, options?: ValidateOptions | string): LineReport[];
/** validateLines() off the event loop. */
export declare function validateLinesAsync(text: string | Uint8Array, options?: ValidateOptions | string): Promise<LineReport[]>;
/** Whether `value` is a valid document of the schema named `schema`, by every layer: a type guard. */
export declare function is<N extends SchemaName>(schema: N, value: unknown): value is BySchema[N];
/** The handoff migrated to version `to` (default "1.1.0"): its text with only `schema_version` changed. */
export declare function migrate(document: Document, to?: string): string;
/** The changes from schema `old` to `new` (registry names, JSON text or parsed schemas). */
export declare function diff(old: unknown, new_: unknown): {
  changes: { class: "MAJOR" | "MINOR" | "PATCH"; [member: string]: unknown }[];
  required: string;
  declared: string | null;
  ok: boolean;
  [member: string]: unknown;
};
/** A valid document of the schema named `name`. */
export declare function example<N extends SchemaName>(name: N): BySchema[N];
/** The schema named `name`, parsed. */
export declare function schema(name: string): { [member: string]: unknown };

/** A schema of the registry. */
export interface SchemaEntry {
  name: string;
  path: string;
  id: string;
  title: string | null;
  version: string | null;
  agent_id: string | null;
  schema_name: string | null;
}
/** Every schema of the registry. */
export declare function schemas(): SchemaEntry[];
