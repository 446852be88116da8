// The npm package `jerry-contracts`: the Rust validator for Node, and the contracts' types.
// index.js is the module; contracts.d.ts (generated from schemas/) holds the contract types.

export * from "./contracts";
import type { ErrorRecord } from "./contracts";

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

/** Validates a document through every layer (schema, semantic, constitutional,
 * cross-reference, conventions). A schema name alone may stand for the options. */
export declare function validate(document: Document, options?: ValidateOptions | string): Report;
/** validate() off the event loop (libuv's thread pool). */
export declare function validateAsync(document: Document, options?: ValidateOptions | string): Promise<Report>;
/** Validates, and throws InvalidDocument unless the document is valid. */
export declare function check(document: Document, options?: ValidateOptions | string): Report;

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
