/**
 * Compiles a registry payload schema (draft-07) into a `CompiledSchema` with ajv, once per schema.
 *
 * The registry tool ignores keywords it does not know, so we do too (`strict: false`): a schema
 * that bqschema accepts must not be refused here for an `x-owner` or a `$comment`. What ajv cannot
 * compile at all (a bad `type`, a regex the engine rejects, an unresolvable `$ref`) comes back as
 * one sentence the schema's author can act on instead of an exception.
 */
import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { subtreeShape, type Columns } from '../parse/columns';
import { compileColumnCheck, type ColumnCheck } from './column-check';
import validateDraft07 from './draft07-meta-validator';
import { linearRegexProblem, linearRegExpEngine } from './linear-regex';
import { closestWord } from '../model/edit-distance';
import type { CompiledSchema, SchemaError } from './types';

/** A compiled schema, or why it cannot be used. */
export type CompileResult = { readonly compiled: CompiledSchema } | { readonly error: string };

const GDPR_KEYWORD = 'x-gdpr-sensitive';
const DRAFT_07 = 'http://json-schema.org/draft-07/schema';
const TYPE_NAMES = ['string', 'number', 'integer', 'boolean', 'object', 'array', 'null'] as const;

/**
 * ajv keeps every validator it ever compiled reachable from the instance (its code-generation
 * scope), so a long editing session that recompiles a schema on each save would grow without
 * bound. Starting a fresh instance now and then caps that; validators already handed out keep
 * working because they close over their own scope.
 */
const COMPILES_PER_INSTANCE = 200;
/** Distinct schema texts remembered; the live schema of every registry entry fits easily. */
const CONTENT_CACHE_SIZE = 256;

/**
 * Two shared instances: every error (the normal case), and the first error only, for payloads so
 * large that listing every error would take gigabytes (a 5 M-item array, each item wrong).
 */
const instances: Record<'all' | 'first', { ajv: Ajv | undefined; compiles: number }> = { all: { ajv: undefined, compiles: 0 }, first: { ajv: undefined, compiles: 0 } };

/** The shared instance for `mode`, renewed after COMPILES_PER_INSTANCE compiles; counts this compile. */
function ajvInstance(mode: 'all' | 'first' = 'all'): Ajv {
  const slot = instances[mode];
  if (slot.ajv && slot.compiles < COMPILES_PER_INSTANCE) {
    slot.compiles++;
    return slot.ajv;
  }
  const ajv = new Ajv({
    allErrors: mode === 'all',
    verbose: true,
    strict: false,
    // A root `$id` must not claim a global name: two registry schemas may share one.
    addUsedSchema: false,
    // Core prints nothing; an unknown `format` is ignored, as the registry tool ignores `format`.
    logger: false,
    // compileCopy checks every schema against the meta-schema first (draft07-meta-validator.js).
    validateSchema: false,
    // `pattern` and `patternProperties` run in linear time: `(a+)+$` must not freeze validation.
    code: { regExp: linearRegExpEngine },
  });
  addFormats(ajv);
  // Metadata only: validation ignores it (facts §5); registered so a stricter setup still accepts it.
  ajv.addKeyword({ keyword: GDPR_KEYWORD });
  slot.ajv = ajv;
  slot.compiles = 1;
  return ajv;
}

const byIdentity = new WeakMap<object, CompileResult>();
const byContent = new Map<string, CompileResult>();

/** Compiles a draft-07 payload schema once (cached by identity and by content); never throws. */
export function compileSchema(schema: unknown): CompileResult {
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) {
    return { error: `A payload schema must be a JSON object (draft-07), found ${kindOf(schema)}.` };
  }
  const known = byIdentity.get(schema);
  if (known) return known;

  let key: string;
  try {
    key = JSON.stringify(schema);
  } catch {
    // Circular or too deep to serialise: it did not come from a JSON file.
    return remember(schema, undefined, { error: 'The payload schema is not plain JSON (it is circular or nested too deeply).' });
  }
  const cached = byContent.get(key);
  if (cached) {
    // Refresh its place in the LRU order.
    byContent.delete(key);
    byContent.set(key, cached);
    return remember(schema, undefined, cached);
  }
  // ajv gets a private copy, so a caller that later mutates its object cannot change a validator.
  const copy = JSON.parse(key) as Record<string, unknown>;
  return remember(schema, key, compileCopy(copy));
}

function remember(schema: object, key: string | undefined, result: CompileResult): CompileResult {
  byIdentity.set(schema, result);
  if (key !== undefined) {
    byContent.set(key, result);
    if (byContent.size > CONTENT_CACHE_SIZE) byContent.delete(byContent.keys().next().value!);
  }
  return result;
}

function compileCopy(schema: Record<string, unknown>): CompileResult {
  const declared = schema.$schema;
  if (declared !== undefined) {
    if (typeof declared !== 'string' || normalizeMetaSchema(declared) !== DRAFT_07) {
      return { error: `"$schema" is ${JSON.stringify(declared)}, but a payload schema must be draft-07: write "${DRAFT_07}#" or leave "$schema" out.` };
    }
    // ajv knows draft-07 only under its http spelling; https or a missing `#` is the same draft.
    delete schema.$schema;
  }
  if (schema.$async !== undefined) return { error: '"$async" is not supported in a payload schema; remove it.' };

  try {
    // Against the draft-07 meta-schema, with a validator generated ahead of time (not compiled at each start).
    if (!validateDraft07(schema)) return { error: metaSchemaMessage(validateDraft07.errors ?? []) };
    const badRegex = findInvalidPattern(schema);
    if (badRegex) return { error: badRegex };
    const loop = findRefLoop(schema);
    if (loop) return { error: loop };
    // Without a root `$id` (and with addUsedSchema off) ajv cannot resolve `"$ref": "#"`, the usual
    // recursive schema; a private base makes it resolve and is taken out of messages again.
    if (schema.$id === undefined && schema.id === undefined) schema.$id = PRIVATE_BASE;
    const columnCheck = compileColumnCheck(schema, resolveLocalRef);
    // ajv's code generation is the costly part of loading a registry (tens of milliseconds a
    // schema). A schema the column check covers (everyday keywords, every `$ref` local and found)
    // compiles in ajv too, unless a nested `$id` trips ajv's check of ids over the whole schema
    // (unused definitions included, which the column check never reads); it is compiled when a
    // payload first needs ajv's errors, which in CI and while typing a valid fixture may be never.
    // Any other schema compiles now, so that whatever ajv refuses in it is reported with the registry.
    const validate = columnCheck && !hasNestedId(schema) ? undefined : compileIsolated(ajvInstance(), schema);
    return {
      compiled: wrap(
        validate,
        () => compileIsolated(ajvInstance(), schema),
        () => compileIsolated(ajvInstance('first'), schema),
        columnCheck,
        (error) => compileFailureMessage(error, schema),
      ),
    };
  } catch (error) {
    return { error: compileFailureMessage(error, schema) };
  }
}

/**
 * Compiles without leaving anything registered in the shared instance: nested `$id`s would
 * otherwise stay as global names and make the next schema that reuses one throw ("resolves to
 * more than one schema"), and ajv's own cache would keep every edited version alive.
 */
function compileIsolated(ajv: Ajv, schema: Record<string, unknown>): ValidateFunction {
  const refs = { ...ajv.refs };
  const schemas = { ...ajv.schemas };
  try {
    return ajv.compile(schema);
  } finally {
    ajv.removeSchema(schema);
    restore(ajv.refs, refs);
    restore(ajv.schemas, schemas);
  }
}

function restore<T>(target: Record<string, T>, snapshot: Record<string, T>): void {
  for (const key of Object.keys(target)) if (!(key in snapshot)) delete target[key];
  // removeSchema drops the entry named by the root `$id`, which may be one that was there before.
  for (const key of Object.keys(snapshot)) target[key] = snapshot[key];
}

/**
 * Data nested deeper than this is not validated: ajv validates recursively, so a recursive schema
 * (`$ref` to itself) over a fixture nested 100,000 levels deep would exhaust the call stack. Real
 * payloads are a few levels deep; the limit is far above them and far below the stack.
 */
export const MAX_VALIDATION_DEPTH = 512;

/**
 * Payloads with more values than this are checked up to their first error: with every error listed,
 * an array of millions of wrong items costs gigabytes in ajv alone, then as many diagnostics.
 */
export const MAX_ALL_ERRORS_VALUES = 20_000;

/** At most this many schema errors are reported per payload; one more finding says how many were left out. */
export const MAX_SCHEMA_ERRORS = 500;

/**
 * The compiled schema: ajv's validator (`validate`, or made by `compileAll` on first use), and the
 * column check, which answers first for a parsed payload when the schema has one.
 */
function wrap(
  validate: ValidateFunction | undefined,
  compileAll: () => ValidateFunction,
  compileFirstError: () => ValidateFunction,
  columnCheck: ColumnCheck | undefined,
  describeFailure: (error: unknown) => string,
): CompiledSchema {
  let firstError: ValidateFunction | undefined;
  let compiled = validate;
  // Why the compile on first use failed, so that it is not tried again for every payload.
  let failure: string | undefined;
  return {
    validateParsed(columns: Columns, text: string, slot: number, plain: () => unknown): readonly SchemaError[] {
      // The document's nesting bounds the payload's: only a deep document needs the payload walked first.
      if (columnCheck && (columns.depth <= MAX_VALIDATION_DEPTH || subtreeShape(columns, slot).depth <= MAX_VALIDATION_DEPTH)) {
        // "Surely valid" ends here; anything else is ajv's to word.
        if (columnCheck(columns, text, slot)) return [];
      }
      return this.validate(plain(), subtreeShape(columns, slot));
    },
    validate(data: unknown, shape?: { readonly depth: number; readonly values: number }): readonly SchemaError[] {
      const { depth, values } = shape ?? measure(data, MAX_VALIDATION_DEPTH);
      if (depth > MAX_VALIDATION_DEPTH) {
        return [{ keyword: 'depth', instancePath: '', params: { limit: MAX_VALIDATION_DEPTH }, message: `is nested more than ${MAX_VALIDATION_DEPTH} levels deep, so it was not validated against the schema (validation stops at that depth)` }];
      }
      const large = values > MAX_ALL_ERRORS_VALUES;
      let run: ValidateFunction;
      try {
        if (failure !== undefined) throw failure;
        run = large ? (firstError ??= compileFirstError()) : (compiled ??= compileAll());
      } catch (error) {
        // A schema compiled on first use that ajv refuses after all (the registry did not know then).
        failure ??= describeFailure(error);
        return [{ keyword: 'schema', instancePath: '', params: {}, message: `could not be validated: the schema does not compile (${failure})` }];
      }
      try {
        if (run(data)) return [];
      } catch (error) {
        // The depth limit keeps the stack safe; this is the last line of defence, not the plan.
        const why = error instanceof RangeError ? 'is nested too deeply to validate against this schema' : `could not be validated: ${error instanceof Error ? error.message : String(error)}`;
        return [{ keyword: 'depth', instancePath: '', params: {}, message: why }];
      }
      const errors = run.errors ?? [];
      const result = errors.slice(0, MAX_SCHEMA_ERRORS).map(toSchemaError);
      if (large) {
        result.push({ keyword: 'limit', instancePath: '', params: { values }, message: `holds ${values} values, more than the ${MAX_ALL_ERRORS_VALUES} whose errors are all listed: validation stopped at the first error` });
      } else if (errors.length > MAX_SCHEMA_ERRORS) {
        result.push({ keyword: 'limit', instancePath: '', params: { errors: errors.length }, message: `has ${errors.length - MAX_SCHEMA_ERRORS} more schema errors that are not listed` });
      }
      return result;
    },
  };
}

/** How deeply containers nest in a plain JS value (1 for `{}`) and how many values it holds, iteratively; stops once deeper than `limit`. */
function measure(value: unknown, limit: number): { depth: number; values: number } {
  let deepest = 0;
  let values = 0;
  const stack: [unknown, number][] = [[value, 1]];
  while (stack.length > 0) {
    const [current, depth] = stack.pop()!;
    values++;
    if (typeof current !== 'object' || current === null) continue;
    if (depth > deepest) {
      deepest = depth;
      if (deepest > limit) break;
    }
    for (const child of Array.isArray(current) ? current : Object.values(current)) {
      if (typeof child === 'object' && child !== null) stack.push([child, depth + 1]);
      else values++;
    }
  }
  return { depth: deepest, values };
}

function toSchemaError(error: ErrorObject): SchemaError {
  const parent = error.parentSchema;
  return {
    keyword: error.keyword,
    instancePath: error.instancePath,
    params: error.params as Record<string, unknown>,
    message: error.message ?? `fails "${error.keyword}"`,
    ...(parent && typeof parent === 'object' ? { parentSchema: parent as Record<string, unknown> } : {}),
  };
}

/** `https://…/draft-07/schema#` and `http://…/draft-07/schema` name the same meta-schema. */
function normalizeMetaSchema(uri: string): string {
  return uri.trim().replace(/^https:/, 'http:').replace(/#$/, '');
}

function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string') return `the string ${JSON.stringify(value)}`;
  if (typeof value === 'object') return 'an object';
  return `${typeof value === 'boolean' ? 'the boolean' : `a ${typeof value}`} ${String(value)}`;
}

/** `/properties/amount` → "at /properties/amount"; the root reads as such. */
function where(pointer: string): string {
  return pointer === '' ? 'at the schema root' : `at ${pointer}`;
}

function decodePointer(pointer: string): string[] {
  return pointer === '' ? [] : pointer.slice(1).split('/').map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
}

/** What each draft-07 keyword must hold, for meta-schema failures worded by keyword. */
const KEYWORD_SHAPES: Readonly<Record<string, string>> = {
  required: 'an array of distinct field names (strings)',
  enum: 'a non-empty array of allowed values',
  properties: 'an object mapping field names to schemas',
  patternProperties: 'an object mapping regular expressions to schemas',
  definitions: 'an object mapping names to schemas',
  dependencies: 'an object whose values are schemas or arrays of field names',
  items: 'a schema or an array of schemas',
  additionalItems: 'a schema or a boolean',
  additionalProperties: 'a schema or a boolean',
  allOf: 'a non-empty array of schemas',
  anyOf: 'a non-empty array of schemas',
  oneOf: 'a non-empty array of schemas',
  minimum: 'a number',
  maximum: 'a number',
  exclusiveMinimum: 'a number (draft-07; not a boolean as in draft-04)',
  exclusiveMaximum: 'a number (draft-07; not a boolean as in draft-04)',
  multipleOf: 'a number greater than 0',
  minLength: 'a non-negative integer',
  maxLength: 'a non-negative integer',
  minItems: 'a non-negative integer',
  maxItems: 'a non-negative integer',
  minProperties: 'a non-negative integer',
  maxProperties: 'a non-negative integer',
  uniqueItems: 'a boolean',
  pattern: 'a string holding a regular expression',
  format: 'a string such as "email" or "date-time"',
  $ref: 'a string (a JSON reference such as "#/definitions/name")',
  $id: 'a string (a URI)',
};

/** One actionable sentence from ajv's meta-schema errors (it reports each problem several ways). */
function metaSchemaMessage(errors: readonly ErrorObject[]): string {
  const byPath = new Map<string, ErrorObject[]>();
  for (const error of errors) {
    const list = byPath.get(error.instancePath);
    if (list) list.push(error);
    else byPath.set(error.instancePath, [error]);
  }
  const pointers = [...byPath.keys()];
  const sentences: string[] = [];
  for (const [pointer, group] of byPath) {
    // `type: ["integer", "strin"]` fails both as a whole and at its element: name the element.
    if (pointers.some((other) => other.startsWith(`${pointer}/`))) continue;
    const sentence = metaSentence(pointer, group);
    if (!sentences.includes(sentence)) sentences.push(sentence);
  }
  const shown = sentences.slice(0, 3);
  const more = sentences.length - shown.length;
  const text = `The payload schema is not valid draft-07: ${shown.join('; ')}${more > 0 ? ` (and ${more} more problem${more === 1 ? '' : 's'})` : ''}`;
  return /[.?]$/.test(text) ? text : `${text}.`;
}

function metaSentence(pointer: string, group: readonly ErrorObject[]): string {
  const segments = decodePointer(pointer);
  const roles = schemaRoles(segments);
  const k = roles.lastIndexOf('keyword');
  const found = group[0].data;
  if (k >= 0) {
    const keyword = segments[k];
    const owner = where(segments.slice(0, k).length === 0 ? '' : '/' + segments.slice(0, k).map(encodeSegment).join('/'));
    // Deeper than the keyword means one element of its value is wrong (`"required": ["a", 5]`).
    const foundText = `${k === segments.length - 1 ? 'found' : 'it contains'} ${preview(found)}`;
    if (keyword === 'type') {
      const suggestion = typeof found === 'string' ? closestWord(found, TYPE_NAMES) : undefined;
      return `"type" ${owner} must be a JSON type name (${TYPE_NAMES.join(', ')}) or an array of them, ${foundText}${suggestion ? `; did you mean "${suggestion}"?` : ''}`;
    }
    if (keyword in KEYWORD_SHAPES) return `"${keyword}" ${owner} must be ${KEYWORD_SHAPES[keyword]}, ${foundText}`;
  }
  const useful = group.find((e) => e.keyword !== 'anyOf' && e.keyword !== 'oneOf') ?? group[0];
  return `the value ${where(pointer)} ${useful.message ?? 'is invalid'}`;
}

type SchemaRole = 'keyword' | 'name' | 'index' | 'value';

/** Which pointer segments are keywords (`/properties/type/type`: only the last "type" is one). */
function schemaRoles(segments: readonly string[]): SchemaRole[] {
  const roles: SchemaRole[] = [];
  let expect: 'schema' | 'name' | 'items' | 'index' | 'value' = 'schema';
  const afterKeyword = (keyword: string): typeof expect =>
    SCHEMA_MAP_KEYWORDS.includes(keyword) ? 'name' : keyword === 'items' ? 'items' : SCHEMA_ARRAY_KEYWORDS.includes(keyword) ? 'index' : SCHEMA_KEYWORDS.includes(keyword) ? 'schema' : 'value';
  for (const segment of segments) {
    if (expect === 'name') {
      roles.push('name');
      expect = 'schema';
    } else if (expect === 'index' || (expect === 'items' && /^\d+$/.test(segment))) {
      roles.push('index');
      expect = 'schema';
    } else if (expect === 'value') {
      roles.push('value');
    } else {
      roles.push('keyword');
      expect = afterKeyword(segment);
    }
  }
  return roles;
}

function preview(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 60 ? `${text.slice(0, 57)}…` : text;
}

function encodeSegment(segment: string): string {
  return segment.replace(/~/g, '~0').replace(/\//g, '~1');
}

/** Draft-07 keywords whose value is a schema, an array of schemas or a map of schemas. */
const SCHEMA_KEYWORDS = ['items', 'additionalItems', 'contains', 'additionalProperties', 'propertyNames', 'if', 'then', 'else', 'not'];
const SCHEMA_ARRAY_KEYWORDS = ['items', 'allOf', 'anyOf', 'oneOf'];
const SCHEMA_MAP_KEYWORDS = ['properties', 'patternProperties', 'definitions', 'dependencies'];

/**
 * True when any object below the root has a `$id`: ajv collects ids over the whole schema when it
 * compiles, and refuses some (two subschemas with one id, the meta-schema's own). Read over every
 * nested value, not only the subschemas, so that it errs on the side of compiling early.
 */
function hasNestedId(root: Record<string, unknown>): boolean {
  const stack: unknown[] = Object.values(root);
  while (stack.length > 0) {
    const node = stack.pop();
    if (typeof node !== 'object' || node === null) continue;
    if (!Array.isArray(node) && Object.prototype.hasOwnProperty.call(node, '$id')) return true;
    for (const value of Array.isArray(node) ? node : Object.values(node)) stack.push(value);
  }
  return false;
}

/** Every subschema with its JSON pointer, iteratively (a schema can be nested arbitrarily deep). */
function forEachSubschema(root: Record<string, unknown>, visit: (schema: Record<string, unknown>, pointer: string) => void): void {
  const stack: [unknown, string][] = [[root, '']];
  while (stack.length > 0) {
    const [node, pointer] = stack.pop()!;
    if (typeof node !== 'object' || node === null || Array.isArray(node)) continue;
    const schema = node as Record<string, unknown>;
    visit(schema, pointer);
    for (const keyword of SCHEMA_KEYWORDS) if (keyword in schema && !Array.isArray(schema[keyword])) stack.push([schema[keyword], `${pointer}/${keyword}`]);
    for (const keyword of SCHEMA_ARRAY_KEYWORDS) {
      const list = schema[keyword];
      if (Array.isArray(list)) list.forEach((item, i) => stack.push([item, `${pointer}/${keyword}/${i}`]));
    }
    for (const keyword of SCHEMA_MAP_KEYWORDS) {
      const map = schema[keyword];
      if (typeof map === 'object' && map !== null && !Array.isArray(map)) {
        for (const [name, sub] of Object.entries(map)) stack.push([sub, `${pointer}/${keyword}/${encodeSegment(name)}`]);
      }
    }
  }
}

/**
 * ajv compiles `pattern` with the `u` flag, where some escapes that plain JS accepts (`\-` outside
 * a class) are errors; the meta-schema does not check regexes at all, so we test each one here
 * and say which.
 */
function findInvalidPattern(schema: Record<string, unknown>): string | undefined {
  let problem: string | undefined;
  forEachSubschema(schema, (sub, pointer) => {
    if (problem) return;
    const candidates: [string, string][] = [];
    if (typeof sub.pattern === 'string') candidates.push([sub.pattern, `"pattern" ${where(pointer)}`]);
    const patternProperties = sub.patternProperties;
    if (typeof patternProperties === 'object' && patternProperties !== null) {
      for (const key of Object.keys(patternProperties)) candidates.push([key, `the "patternProperties" key ${where(pointer)}`]);
    }
    for (const [source, label] of candidates) {
      try {
        new RegExp(source, 'u');
      } catch (error) {
        const reason = error instanceof Error ? error.message.replace(/^.*: /, '') : 'invalid';
        problem = `${label} is not a valid regular expression: ${source} (${reason}; patterns are compiled in Unicode mode, so escape only characters that need it).`;
        return;
      }
      const unsupported = linearRegexProblem(source);
      if (unsupported) {
        problem = `${label} cannot run on the linear-time regex engine used for schema patterns: ${source} (${unsupported}). Patterns are matched in linear time so that no pattern can freeze validation; rewrite it without lookaheads or backreferences.`;
        return;
      }
    }
  });
  return problem;
}

/** The base URI given to a schema without a root `$id` (never fetched; `.invalid` cannot resolve). */
const PRIVATE_ORIGIN = 'https://babelqueue.invalid/';
const PRIVATE_BASE = `${PRIVATE_ORIGIN}payload-schema.json`;

/** A reference as the schema's author wrote it, without the private base ajv resolved it against. */
function withoutPrivateBase(ref: string): string {
  if (ref.startsWith(PRIVATE_BASE)) return ref.slice(PRIVATE_BASE.length) || '#';
  return ref.startsWith(PRIVATE_ORIGIN) ? ref.slice(PRIVATE_ORIGIN.length) : ref;
}

/** Keywords that apply a subschema to the same value (no step into the data). */
const IN_PLACE_ARRAYS = ['allOf', 'anyOf', 'oneOf'];
const IN_PLACE_SCHEMAS = ['not', 'if', 'then', 'else'];

/**
 * A `$ref` chain that comes back to where it started without stepping into the data (`{"$ref": "#"}`,
 * a → b → a, `allOf: [{"$ref": "#"}]`) makes validation loop forever on any value; ajv compiles it
 * lazily and would only fail by exhausting the stack. Found here, iteratively, before compiling.
 */
function findRefLoop(root: Record<string, unknown>): string | undefined {
  const pointers = new Map<object, string>();
  forEachSubschema(root, (sub, pointer) => {
    if (!pointers.has(sub)) pointers.set(sub, pointer);
  });
  const next = (node: Record<string, unknown>): Record<string, unknown>[] => {
    const out: Record<string, unknown>[] = [];
    const push = (value: unknown) => {
      if (typeof value === 'object' && value !== null && !Array.isArray(value)) out.push(value as Record<string, unknown>);
    };
    if (typeof node.$ref === 'string') push(resolveLocalRef(root, node.$ref));
    for (const keyword of IN_PLACE_ARRAYS) if (Array.isArray(node[keyword])) (node[keyword] as unknown[]).forEach(push);
    for (const keyword of IN_PLACE_SCHEMAS) push(node[keyword]);
    return out;
  };
  // Iterative depth-first search with colours: grey is on the current path, black is done.
  const colour = new Map<object, 'grey' | 'black'>();
  for (const start of pointers.keys()) {
    if (colour.has(start)) continue;
    const stack: { node: Record<string, unknown>; children: Record<string, unknown>[]; index: number }[] = [{ node: start as Record<string, unknown>, children: next(start as Record<string, unknown>), index: 0 }];
    colour.set(start, 'grey');
    while (stack.length > 0) {
      const frame = stack[stack.length - 1];
      if (frame.index >= frame.children.length) {
        colour.set(frame.node, 'black');
        stack.pop();
        continue;
      }
      const child = frame.children[frame.index++];
      const state = colour.get(child);
      if (state === 'grey') {
        const name = (pointer: string | undefined) => (pointer ? pointer : 'the schema root');
        return `the subschema at ${name(pointers.get(frame.node))} leads back to ${name(pointers.get(child))} through "$ref" (or allOf/anyOf/oneOf/not/if) without stepping into the data, so validation would never end; make the reference go through "properties" or "items".`;
      }
      if (state === undefined) {
        colour.set(child, 'grey');
        stack.push({ node: child, children: next(child), index: 0 });
      }
    }
  }
  return undefined;
}

/** The subschema a local `$ref` (`#`, `#/definitions/x`) names, if any. */
export function resolveLocalRef(root: unknown, ref: string): unknown {
  if (!ref.startsWith('#')) return undefined;
  let pointer: string;
  try {
    pointer = decodeURIComponent(ref.slice(1));
  } catch {
    return undefined;
  }
  if (pointer === '') return root;
  if (!pointer.startsWith('/')) return undefined;
  let current: unknown = root;
  for (const segment of decodePointer(pointer)) {
    if (typeof current !== 'object' || current === null || !Object.prototype.hasOwnProperty.call(current, segment)) return undefined;
    current = (current as Record<string, unknown>)[segment];
  }
  return current;
}

function compileFailureMessage(error: unknown, schema: Record<string, unknown>): string {
  if (error instanceof RangeError) return 'The payload schema is nested too deeply to compile, or its "$ref"s form a cycle that never reaches a keyword (a → b → a).';
  const rawMissingRef = typeof error === 'object' && error !== null ? (error as { missingRef?: unknown }).missingRef : undefined;
  const missingRef = typeof rawMissingRef === 'string' ? withoutPrivateBase(rawMissingRef) : rawMissingRef;
  if (typeof missingRef === 'string') {
    let location = '';
    forEachSubschema(schema, (sub, pointer) => {
      if (!location && typeof sub.$ref === 'string' && (sub.$ref === missingRef || missingRef.endsWith(sub.$ref))) location = ` ${where(pointer)}`;
    });
    const hint = missingRef.startsWith('#')
      ? `this schema has nothing at ${missingRef.slice(1) || 'its root'}; define it (e.g. under "definitions") or fix the reference`
      : 'only references inside the same schema file ("#/definitions/name") are supported; other files are not loaded';
    return `"$ref" ${JSON.stringify(missingRef)}${location} cannot be resolved: ${hint}.`;
  }
  const message = error instanceof Error ? error.message : String(error);
  const ambiguous = /^reference "(.*)" resolves to more than one schema$/.exec(message);
  if (ambiguous) {
    return `"$id" ${JSON.stringify(ambiguous[1])} names two different subschemas (or one ajv already knows, such as the draft-07 meta-schema); give each a distinct "$id" or remove it.`;
  }
  return `ajv cannot compile the payload schema: ${message}`;
}

