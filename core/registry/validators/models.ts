/**
 * BabelQueue's own payload validators, as measured: bqschema (CI; the Go SDK runs the same code),
 * and the payload-schema checks inside the PHP, Python, Node and Java SDKs. They all read the
 * same small subset of draft-07 (see subset-walk.ts); these are the ways they differ.
 */

export type ValidatorId = 'bqschema' | 'php' | 'python' | 'node' | 'java';

/** How a validator counts a string for `minLength`. */
export type LengthUnit = 'utf8-bytes' | 'code-points' | 'utf16-units';

/** How a validator compares a value with `enum` and `const`. */
export type Equality = 'float64-deep' | 'php-strict' | 'python-typed-top' | 'json-text' | 'java-objects';

export interface ValidatorModel {
  readonly id: ValidatorId;
  /** The name a message gives it. */
  readonly label: string;
  readonly lengthUnit: LengthUnit;
  readonly equality: Equality;
  /** True when it lists every violation (sorted); false when it stops at the first. */
  readonly collectsAll: boolean;
  /** PHP: `minLength`/`minimum` written as a numeric string are honoured (`is_numeric`). */
  readonly numericStringBounds: boolean;
  /** Node compares a fractional `minLength` as written; the others truncate it. */
  readonly fractionalMinLength: boolean;
  /** PHP (`json_decode(…, true)`): an empty `{}` and an empty `[]` are the same value. */
  readonly emptyContainersAlike: boolean;
  /** PHP: an infinite number (`1e400`) counts as an integer (`floor(x) === x`). */
  readonly infinityIsInteger: boolean;
  /** Go's `json.Unmarshal` refuses a number outside float64 (`1e400`): the whole file fails. */
  readonly refusesHugeNumbers: boolean;
  /** Node: object keys are looked up through `Object.prototype` (`key in data`, `properties[key]`). */
  readonly prototypeLookups: boolean;
  /** Node: integer-like keys come first when an object's keys are walked (JS property order). */
  readonly integerKeysFirst: boolean;
}

const SUBSET = {
  numericStringBounds: false,
  fractionalMinLength: false,
  emptyContainersAlike: false,
  infinityIsInteger: false,
  refusesHugeNumbers: false,
  prototypeLookups: false,
  integerKeysFirst: false,
} as const;

export const VALIDATORS: readonly ValidatorModel[] = [
  { ...SUBSET, id: 'bqschema', label: 'bqschema (CI) and the Go SDK', lengthUnit: 'utf8-bytes', equality: 'float64-deep', collectsAll: true, refusesHugeNumbers: true },
  { ...SUBSET, id: 'php', label: 'PHP', lengthUnit: 'code-points', equality: 'php-strict', collectsAll: false, numericStringBounds: true, emptyContainersAlike: true, infinityIsInteger: true },
  { ...SUBSET, id: 'python', label: 'Python', lengthUnit: 'code-points', equality: 'python-typed-top', collectsAll: false },
  { ...SUBSET, id: 'node', label: 'Node', lengthUnit: 'utf16-units', equality: 'json-text', collectsAll: false, fractionalMinLength: true, prototypeLookups: true, integerKeysFirst: true },
  { ...SUBSET, id: 'java', label: 'Java', lengthUnit: 'utf16-units', equality: 'java-objects', collectsAll: false },
];

export function validatorModel(id: ValidatorId): ValidatorModel {
  return VALIDATORS.find((model) => model.id === id)!;
}

/** The words for a unit, as a message says it: "UTF-8 bytes". */
export const UNIT_WORDS: Readonly<Record<LengthUnit, string>> = {
  'utf8-bytes': 'UTF-8 bytes',
  'code-points': 'code points',
  'utf16-units': 'UTF-16 units',
};

/** The length of a string in a unit. */
export function lengthIn(unit: LengthUnit, value: string): number {
  if (unit === 'utf16-units') return value.length;
  let points = 0;
  let bytes = 0;
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    points++;
    if (code < 0x80) bytes += 1;
    else if (code < 0x800) bytes += 2;
    else if (code >= 0xd800 && code <= 0xdbff && i + 1 < value.length && (value.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      bytes += 4;
      i++;
    } else bytes += 3;
  }
  return unit === 'code-points' ? points : bytes;
}

/** Why a validator's equality can differ from draft-07's (JSON values, numbers by value, key order free). */
export const EQUALITY_WORDS: Readonly<Record<Equality, string>> = {
  'float64-deep': 'compares values as float64 numbers and maps (reflect.DeepEqual)',
  'php-strict': 'compares with === (an integer never equals a float, and key order matters)',
  'python-typed-top': 'compares the type first at the top level (int 1 is not float 1.0) and integers exactly',
  'json-text': 'compares JSON.stringify texts (key order matters, integer-like keys first)',
  'java-objects': 'compares with Objects.equals (a Long never equals a Double; integers exactly)',
};
