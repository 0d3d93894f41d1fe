/**
 * The registry as a value: `registry.json` (bqschema format) with its entries, and each entry's
 * payload schema, loaded and compiled once. Adapters read the files (core does no I/O) and swap
 * the whole value when a file changes; rules, completion, hover and navigation only read it.
 */
import type { Columns, ColumnsEdit } from '../parse/columns';
import type { ParsedDocument } from '../model/tree';

/** A payload schema that compiled, ready to validate a `data` value. */
export interface CompiledSchema {
  /**
   * Validates a plain JS value; returns the ajv-style errors (empty when valid). `shape` (its
   * nesting depth and value count) is measured from the value when the caller does not know it.
   */
  validate(data: unknown, shape?: { readonly depth: number; readonly values: number }): readonly SchemaError[];
  /**
   * `validate` for the value of a parsed subtree (`slot` in `columns`): answered from the columns
   * when the schema allows it (core/registry/column-check.ts), else `validate(plain(), shape)`.
   * `since`: the previous version's columns and the one value slot edited since (a keystroke in a
   * string or number); where the columns vouched for the previous version, only the values on the
   * way to the edited one are checked again.
   */
  validateParsed(columns: Columns, text: string, slot: number, plain: () => unknown, since?: ColumnsEdit): readonly SchemaError[];
}

/** One validation failure, in ajv's terms (draft-07 keyword, JSON-pointer instance path). */
export interface SchemaError {
  readonly keyword: string;
  /** JSON pointer into `data`, e.g. `/items/0/sku` ("" for data itself). */
  readonly instancePath: string;
  readonly params: Record<string, unknown>;
  /** ajv's own message, e.g. "must be integer". */
  readonly message: string;
  /** The subschema that failed (for types, enums and descriptions in messages). */
  readonly parentSchema?: Record<string, unknown>;
  /** ajv's JSON pointer to the failing keyword in the schema (`#/properties/n/maximum`). */
  readonly schemaPath?: string;
  /**
   * A bound's or multipleOf's number as the schema file writes it, where the double `params`
   * holds is another number (`9007199254740993`, compared as …992): what the message names.
   */
  readonly limitText?: string;
}

export interface LoadedSchema {
  /** Absolute path of the schema file. */
  readonly path: string;
  /** The file's text and parse, for go-to-definition into it (absent when unreadable). */
  readonly doc?: ParsedDocument;
  /** The schema as a JS value (absent when unreadable or not JSON). */
  readonly value?: Record<string, unknown>;
  readonly compiled?: CompiledSchema;
  /** Why the schema cannot be used: unreadable, outside the workspace, not JSON, not draft-07. */
  readonly error?: string;
  /**
   * Not read because the path leaves the workspace folder or is no regular file (a named pipe, a
   * device, a folder): registry.json offers no link to open it, since an editor would read it.
   */
  readonly notToOpen?: true;
  /**
   * bqschema and the SDKs' payload checks read this schema (a JSON object Go's decoder reads):
   * beside an `error`, only draft-07 refuses it (`"minLength": "3"`, `"type": "int"`), and the
   * payload can still be judged as they judge it.
   */
  readonly subsetReadable?: true;
}

/** An entry as written in registry.json, before its schema file is read. */
export interface RegistryIndexEntry {
  readonly urn: string;
  /** The `schema` path as written in registry.json. */
  readonly schemaRef: string;
  readonly owner?: string;
  readonly status?: string;
  /** Offsets in registry.json: the entry object, its `urn` value and its `schema` value. */
  readonly offset: number;
  readonly end: number;
  readonly urnOffset: number;
  readonly urnEnd: number;
  readonly schemaOffset: number;
  readonly schemaEnd: number;
}

/** An entry with its schema loaded. */
export interface RegistryEntry extends RegistryIndexEntry {
  readonly schema?: LoadedSchema;
}

/** A problem in registry.json itself, at a range of its text. */
export interface RegistryProblem {
  readonly offset: number;
  readonly end: number;
  readonly message: string;
  /**
   * bqschema's registry load refuses the whole file for it (not JSON, not its shape, a field of
   * another type, an empty `urn` or `schema`, a duplicate URN): `bqschema check` exits 2, as a
   * usage or I/O error, where a schema it cannot use makes it exit 1.
   */
  readonly refusesRegistry?: true;
  /** A schema only draft-07 refuses (see LoadedSchema.subsetReadable): bqschema accepts the registry as it is. */
  readonly draft07Only?: true;
}

export interface Registry {
  /** Absolute path of registry.json. */
  readonly path: string;
  readonly doc: ParsedDocument;
  readonly entries: readonly RegistryEntry[];
  /** First entry per URN (a duplicate is a problem and is ignored). */
  readonly byUrn: ReadonlyMap<string, RegistryEntry>;
  readonly problems: readonly RegistryProblem[];
  /**
   * How many problems registry.json has, when `problems` does not list them all (past the first
   * 1,000 they are counted, and one more problem says how many were not listed).
   */
  readonly problemCount?: number;
}

/** How many problems registry.json has, listed or not. */
export function registryProblemCount(registry: Registry): number {
  return registry.problemCount ?? registry.problems.length;
}

/** The registry as an envelope sees it: a usable registry, or why there is none. */
export type RegistryState =
  | {
      readonly kind: 'none';
      /**
       * The nearest registry.json the search passed over, having no "schemas" key (another tool's,
       * or a BabelQueue registry with its key misspelt), as the user names it: said where a
       * registry is looked for, or the fixture is checked without one unnoticed.
       */
      readonly passedOver?: string;
    }
  | { readonly kind: 'loaded'; readonly registry: Registry }
  | {
      readonly kind: 'broken';
      readonly path: string;
      /**
       * The path as a finding names it, when the adapter shows it otherwise than `path`: relative
       * to the folder the user works in (the CLI's current folder, the editor's workspace folder).
       */
      readonly shownPath?: string;
      readonly error: string;
      /** Where in registry.json, when it was read and its problems have places. */
      readonly problems?: readonly RegistryProblem[];
      /** The text those places are in: registry.json as it was read (absent for one refused unread). */
      readonly text?: string;
    };

/** Statuses that mark an entry as on its way out (tagged Deprecated in the editor). */
export const DEPRECATED_STATUSES: readonly string[] = ['deprecated', 'retired', 'sunset'];

/** True when a registry status marks its entry deprecated, retired or sunset (case-insensitive). */
export function isDeprecatedStatus(status: string | undefined): boolean {
  return status !== undefined && DEPRECATED_STATUSES.includes(status.toLowerCase());
}

/** The text registry.json's findings are placed in: as it was loaded or read; '' for one refused unread (its finding at the start). */
export function registryText(state: RegistryState): string {
  if (state.kind === 'loaded') return state.registry.doc.text;
  return state.kind === 'broken' ? (state.text ?? '') : '';
}

/**
 * No registry found. One value, never a fresh object: caches of an analysis compare the registry
 * by identity, so a new `{ kind: 'none' }` per request would make every request analyse again.
 */
export const NO_REGISTRY: RegistryState = Object.freeze({ kind: 'none' });
