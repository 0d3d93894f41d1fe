/**
 * The shared ajv instances the payload schemas compile in, and a compile that leaves nothing
 * registered in them. Options that change validation are mirrored by
 * scripts/generate-meta-validator.mjs.
 */
import Ajv, { type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { addDecimalMultipleOf } from './decimal-multiple-of';
import { addLinearKeywords } from './linear-keywords';
import { linearRegExpEngine } from './linear-regex';
import { INLINED_REF_KEYWORDS } from './schema-walk';

const GDPR_KEYWORD = 'x-gdpr-sensitive';
/**
 * ajv keeps every validator it ever compiled reachable from the instance (its code-generation
 * scope), so a long editing session that recompiles a schema on each save would grow without
 * bound. Starting a fresh instance now and then caps that; validators already handed out keep
 * working because they close over their own scope.
 */
const COMPILES_PER_INSTANCE = 200;

/**
 * Two shared instances: every error (the normal case), and the first error only, for payloads so
 * large that listing every error would take gigabytes (a 5 M-item array, each item wrong).
 */
const instances: Record<'all' | 'first', { ajv: Ajv | undefined; compiles: number }> = { all: { ajv: undefined, compiles: 0 }, first: { ajv: undefined, compiles: 0 } };

/**
 * The shared instance for `mode`, renewed after COMPILES_PER_INSTANCE compiles; counts this
 * compile unless `compiling` is false (a caller that only reads its formats).
 */
export function ajvInstance(mode: 'all' | 'first' = 'all', compiling = true): Ajv {
  const slot = instances[mode];
  if (slot.ajv && (slot.compiles < COMPILES_PER_INSTANCE || !compiling)) {
    if (compiling) slot.compiles++;
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
    // `required: ["toString"]` is missing from `{}`: names that Object.prototype has are not present.
    ownProperties: true,
    // ajv copies a `$ref`'s target into every place that names it when the target has no `$ref`
    // of its own, whatever its size: a definition of 100 properties named 300 times is 30,000
    // subschemas' code, half a minute of compiling from a 13 KB file. A larger target is compiled
    // once as a function of its own; the verdicts and errors are the same.
    inlineRefs: INLINED_REF_KEYWORDS,
  });
  addFormats(ajv);
  addLinearKeywords(ajv);
  addDecimalMultipleOf(ajv);
  // Metadata only: validation ignores it (facts §5); registered so a stricter setup still accepts it.
  ajv.addKeyword({ keyword: GDPR_KEYWORD });
  slot.ajv = ajv;
  slot.compiles = 1;
  return ajv;
}

/**
 * Compiles without leaving anything registered in the shared instance: nested `$id`s would
 * otherwise stay as global names and make the next schema that reuses one throw ("resolves to
 * more than one schema"), and ajv's own cache would keep every edited version alive.
 */
export function compileIsolated(ajv: Ajv, schema: Record<string, unknown>): ValidateFunction {
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
