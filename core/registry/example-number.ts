/**
 * Example numbers for core/registry/example.ts: the bounds (`minimum`, `maximum`, their exclusive
 * forms, draft-04's boolean ones too) and `multipleOf`, as payload-schema decides it; integers first,
 * even for `number`, so money-like keys never get a float, and never 0 or 1 in a boolean-like key
 * (the data rules would read it as a C boolean).
 */
import { classifyKey } from '../contract/keys';
import { isMultipleOf } from './decimal-multiple-of';
import { isNumber, type Schema } from './schema-values';

/** How many candidates a numeric search tries before settling for a best effort. */
const MAX_NUMBER_TRIES = 1000;

// Only the key classes that do not depend on money settings are used here.
const KEYS = classifyKey([]);

/** A number the schema accepts; `variant` asks for the n-th one (uniqueItems), `key` is the property's name. */
export function numberExample(schema: Schema, integer: boolean, key: string | undefined, variant: number): number {
  let low = -Infinity;
  let lowExclusive = false;
  let high = Infinity;
  let highExclusive = false;
  if (isNumber(schema.minimum)) low = schema.minimum;
  if (isNumber(schema.exclusiveMinimum) && schema.exclusiveMinimum >= low) {
    low = schema.exclusiveMinimum;
    lowExclusive = true;
  } else if (schema.exclusiveMinimum === true && isNumber(schema.minimum)) lowExclusive = true; // draft-04 form
  if (isNumber(schema.maximum)) high = schema.maximum;
  if (isNumber(schema.exclusiveMaximum) && schema.exclusiveMaximum <= high) {
    high = schema.exclusiveMaximum;
    highExclusive = true;
  } else if (schema.exclusiveMaximum === true && isNumber(schema.maximum)) highExclusive = true;
  const step = isNumber(schema.multipleOf) && schema.multipleOf > 0 ? schema.multipleOf : undefined;

  // payload-schema's own test for multipleOf (decimal, so 0.3 is a multiple of 0.1).
  const fits = (value: number): boolean =>
    (lowExclusive ? value > low : value >= low) &&
    (highExclusive ? value < high : value <= high) &&
    (!integer || Number.isInteger(value)) &&
    (step === undefined || isMultipleOf(value, step));

  // 0 and 1 in a boolean-like key (`is_gift`) read as a C boolean to the data rules.
  const booleanLike = key !== undefined && KEYS.isBoolean(key);
  const preferred = booleanLike ? (value: number) => fits(value) && value !== 0 && value !== 1 : fits;
  const start = Math.min(Math.max(0, Number.isFinite(low) ? low : 0), Number.isFinite(high) ? high : Infinity);
  // Integers first, even for `number`, so money-like keys never get a float.
  const unit = step ?? 1;
  return (
    search(start, unit, preferred, variant) ??
    search(start, unit, fits, variant) ??
    (integer ? undefined : fractional(low, high, fits)) ??
    (Number.isFinite(low) ? (integer ? Math.ceil(low) : low) : Number.isFinite(high) ? (integer ? Math.floor(high) : high) : 0)
  );
}

/** The `variant`-th grid value k·unit that fits, searching up from `start` and then down. */
function search(start: number, unit: number, fits: (value: number) => boolean, variant: number): number | undefined {
  for (const direction of [1, -1]) {
    let skip = variant;
    const first = direction === 1 ? Math.ceil(start / unit) : Math.floor(start / unit) - 1;
    for (let tries = 0; tries < MAX_NUMBER_TRIES; tries++) {
      const value = (first + direction * tries) * unit;
      if (!Number.isFinite(value)) break;
      if (fits(value)) {
        if (skip === 0) return value === 0 ? 0 : value; // never -0
        skip--;
      }
    }
  }
  return undefined;
}

/** A non-integer inside a narrow open range such as (0, 1). */
function fractional(low: number, high: number, fits: (value: number) => boolean): number | undefined {
  const candidates = Number.isFinite(low) && Number.isFinite(high) ? [(low + high) / 2] : Number.isFinite(low) ? [low + 0.5, low + Number.EPSILON] : Number.isFinite(high) ? [high - 0.5] : [0.5];
  return candidates.find(fits);
}
