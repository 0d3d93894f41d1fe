/** Reading a schema given as a plain JS value (JSON.parse's output): its objects and numbers as draft-07 reads them. */
export { isRecord } from '../model/js-value';

/** A schema object, as parsed. */
export type Schema = Record<string, unknown>;

/** A finite number. */
export function isNumber(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value);
}

/** A keyword's value when it is a whole number of 0 or more (`minLength`, `minItems`), else undefined. */
export function nonNegativeInteger(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 ? value : undefined;
}
