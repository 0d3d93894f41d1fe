/**
 * `multipleOf` decided on the decimals the numbers denote, not on doubles: draft-07 asks whether
 * dividing by the keyword's value gives an integer, and 19.99 / 0.01 is 1999, while ajv's stock
 * `(19.99 / 0.01) % 1` sees 1998.9999999999998 and reports "must be multiple of 0.01", which no
 * reader can act on. Each double is taken as its shortest decimal text (the literal as written,
 * for any literal a double holds), so the verdict is exact for what the fixture says.
 */
import type Ajv from 'ajv';
import type { DataValidateFunction } from 'ajv/dist/types';
import { decimalOf } from './big-integers';

/** Whether `value` is an integer multiple of `step` (> 0), in decimal arithmetic. */
export function isMultipleOf(value: number, step: number): boolean {
  const dividend = Number.isFinite(value) ? decimalOf(String(value)) : undefined;
  const divisor = Number.isFinite(step) && step > 0 ? decimalOf(String(step)) : undefined;
  // Not finite, or not a positive step (the meta-schema refuses one): ajv's own arithmetic.
  if (!dividend || !divisor) return (value / step) % 1 === 0;
  const exponent = Math.min(dividend.exponent, divisor.exponent);
  const left = dividend.mantissa * 10n ** BigInt(dividend.exponent - exponent);
  const right = divisor.mantissa * 10n ** BigInt(divisor.exponent - exponent);
  return left % right === 0n;
}

/** Replaces ajv's `multipleOf` with the decimal one, with ajv's own error (keyword, params, message). */
export function addDecimalMultipleOf(ajv: Ajv): void {
  ajv.removeKeyword('multipleOf');
  ajv.addKeyword({
    keyword: 'multipleOf',
    type: 'number',
    schemaType: 'number',
    errors: true,
    compile: (step: number, parentSchema: Record<string, unknown>) => {
      const validate: DataValidateFunction = (data: unknown) => {
        validate.errors = undefined;
        if (typeof data !== 'number' || isMultipleOf(data, step)) return true;
        validate.errors = [{ keyword: 'multipleOf', params: { multipleOf: step }, message: `must be multiple of ${step}`, parentSchema }];
        return false;
      };
      return validate;
    },
  });
}
