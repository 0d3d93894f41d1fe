/**
 * Compiles a registry payload schema (draft-07) into a `CompiledSchema` with ajv, once per schema.
 *
 * The registry tool ignores keywords it does not know, so we do too (`strict: false`): a schema
 * that bqschema accepts must not be refused here for an `x-owner` or a `$comment`. What ajv cannot
 * compile at all (a bad `type`, a regex the engine rejects, an unresolvable `$ref`) comes back as
 * one sentence the schema's author can act on instead of an exception.
 */
import { compileColumnCheck } from './column-check';
import { ajvInstance, compileIsolated } from './ajv-instances';
import { compiledSchema } from './compiled-schema';
import validateDraft07 from './draft07-meta-validator';
import { compiledSize, findRefLoop, hasNestedId, inPlaceBranching, resolveLocalRef } from './schema-walk';
import { compileFailureMessage, compileFailurePointer, DISTINCT_CHECK_LIMIT, findInvalidPattern, kindOf, longDistinctArrays, metaSchemaMessage, metaSchemaPointer, normalizeMetaSchema, PRIVATE_BASE } from './schema-problems';
import type { CompiledSchema } from './types';
import { literal } from '../model/describe-value';

/**
 * A compiled schema, or why it cannot be used, with where in the schema (a JSON Pointer to the
 * offending value) when one place is to blame.
 */
export type CompileResult = { readonly compiled: CompiledSchema } | { readonly error: string; readonly pointer?: string };

const DRAFT_07 = 'http://json-schema.org/draft-07/schema';
/**
 * The most subschemas one value may be checked against in place (through `$ref` and the
 * combinators): real schemas stay in the tens; the bound keeps any schema's cost per value small.
 */
const MAX_IN_PLACE_BRANCHING = 10_000;
/**
 * The most subschemas (with the names `dependencies` lists require) a payload schema may hold:
 * real payload schemas hold tens to hundreds; compiling this many takes ajv about a second.
 */
const MAX_SUBSCHEMAS = 5_000;
/** Distinct schema texts remembered; the live schema of every registry entry fits easily. */
const CONTENT_CACHE_SIZE = 256;

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
      return { error: `"$schema" is ${literal(declared)}, but a payload schema must be draft-07: write "${DRAFT_07}#" or leave "$schema" out.` };
    }
    // ajv knows draft-07 only under its http spelling; https or a missing `#` is the same draft.
    delete schema.$schema;
  }
  if (schema.$async !== undefined) return { error: '"$async" is not supported in a payload schema; remove it.' };

  try {
    // Against the draft-07 meta-schema, with a validator generated ahead of time (not compiled at each start);
    // long arrays whose items must be distinct are checked in linear time and shown to it cut short.
    const distinct = longDistinctArrays(schema);
    if (distinct.error) return { error: distinct.error };
    for (const { owner, keyword, items } of distinct.arrays) owner[keyword] = items.slice(0, DISTINCT_CHECK_LIMIT);
    const valid = validateDraft07(schema);
    for (const { owner, keyword, items } of distinct.arrays) owner[keyword] = items;
    if (!valid) return { error: metaSchemaMessage(validateDraft07.errors ?? []), pointer: metaSchemaPointer(validateDraft07.errors ?? []) };
    const size = compiledSize(schema, MAX_SUBSCHEMAS);
    if (size > MAX_SUBSCHEMAS) {
      return { error: `the schema holds more than ${MAX_SUBSCHEMAS} subschemas (properties, items, alternatives and the definitions a "$ref" reaches, with the names "dependencies" lists require), so compiling it would stall the editor for many seconds; split it or share definitions through "$ref".` };
    }
    const badRegex = findInvalidPattern(schema);
    if (badRegex) return { error: badRegex.message, pointer: badRegex.pointer };
    const loop = findRefLoop(schema);
    if (loop) return { error: loop };
    if (inPlaceBranching(schema, MAX_IN_PLACE_BRANCHING) > MAX_IN_PLACE_BRANCHING) {
      return { error: `one value may be checked against more than ${MAX_IN_PLACE_BRANCHING} subschemas through "$ref", "anyOf", "oneOf" and "allOf" nested in each other, so validating it could take minutes; flatten the alternatives or merge the shared definitions.` };
    }
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
      compiled: compiledSchema(
        validate,
        () => compileIsolated(ajvInstance(), schema),
        () => compileIsolated(ajvInstance('first'), schema),
        columnCheck,
        (error) => compileFailureMessage(error, schema),
      ),
    };
  } catch (error) {
    const pointer = compileFailurePointer(error, schema);
    return { error: compileFailureMessage(error, schema), ...(pointer !== undefined ? { pointer } : {}) };
  }
}

