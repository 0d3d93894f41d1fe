/**
 * A compiled payload schema: the column check answers first for a parsed payload ("surely
 * valid"), then ajv, under the limits that keep any payload's validation bounded in time and memory.
 */
import type { ErrorObject, ValidateFunction } from 'ajv';
import { subtreeShape, type Columns, type ColumnsEdit } from '../parse/columns';
import { checkAround, type ColumnCheck } from './column-check';
import { isStackOverflow } from './schema-problems';
import type { CompiledSchema, SchemaError } from './types';

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
export function compiledSchema(
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
  // The parses whose payload (at the slot kept) the column check vouched for, so that the next
  // version after a keystroke is checked around the edited value only.
  const vouched = new WeakMap<Columns, number>();
  return {
    validateParsed(columns: Columns, text: string, slot: number, plain: () => unknown, since?: ColumnsEdit): readonly SchemaError[] {
      // The document's nesting bounds the payload's: only a deep document needs the payload walked first.
      if (columnCheck && (columns.depth <= MAX_VALIDATION_DEPTH || subtreeShape(columns, slot).depth <= MAX_VALIDATION_DEPTH)) {
        const afterVouched = since !== undefined && vouched.get(since.previous) === slot;
        // A keystroke leaves every slot in place: one outside the payload (in meta, say) leaves it as vouched for.
        const outside = afterVouched && (since.edited < slot || since.edited >= columns.next[slot]);
        const around = afterVouched && !outside;
        // "Surely valid" ends here; anything else is ajv's to word.
        if (outside || (around ? checkAround(columnCheck, columns, text, slot, since.edited) : columnCheck(columns, text, slot))) {
          vouched.set(columns, slot);
          return [];
        }
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
        // Only the call stack running out is nesting; another RangeError (an array or a string
        // too long to build) is named by its own message.
        if (isStackOverflow(error)) return [{ keyword: 'depth', instancePath: '', params: {}, message: 'is nested too deeply to validate against this schema (the validator ran out of call stack)' }];
        const why = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
        return [{ keyword: error instanceof RangeError ? 'limit' : 'depth', instancePath: '', params: {}, message: `could not be validated against this schema: the validator stopped with ${why}` }];
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
    schemaPath: error.schemaPath,
    ...(parent && typeof parent === 'object' ? { parentSchema: parent as Record<string, unknown> } : {}),
  };
}
