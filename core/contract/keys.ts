/**
 * Key-name classes for the data rules: money-like, boolean-like and time-like keys.
 * Keys are compared in snake_case lowercase, so `totalPrice`, `TotalPrice` and `total_price`
 * are the same key to these rules.
 */
import { detachedString } from '../model/detached-string';

export interface KeyClasses {
  isMoney(key: string): boolean;
  /** A key that names an amount in integer minor units (`amount_cents`, `price_minor`). */
  isMinorUnits(key: string): boolean;
  isBoolean(key: string): boolean;
  isTime(key: string): boolean;
}

/** Keys that already say they carry minor units are not money-like keys (isMoney); a float in one is isMinorUnits' finding, since minor units are integers. */
const MINOR_UNIT_SUFFIXES = ['_cents', '_minor', '_pence', '_in_cents', '_minor_units'];
/** Suffixes that name money on their own; `_minor` and `_minor_units` only after a money-like name (`price_minor`, not `version_minor`). */
const MONEY_MINOR_UNIT_SUFFIXES = ['_cents', '_pence'];

/** The minor-unit suffix a snake_case key ends with, if any. */
function minorUnitSuffixOf(snake: string): string | undefined {
  return MINOR_UNIT_SUFFIXES.find((suffix) => snake.endsWith(suffix) && snake.length > suffix.length);
}

/** Whether a key ends with a minor-unit suffix (`amount_cents`, `priceMinor`), whatever precedes it. */
export function hasMinorUnitSuffix(key: string): boolean {
  return minorUnitSuffixOf(toSnakeCase(key)) !== undefined;
}

const BOOLEAN_PATTERNS = ['is_*', 'has_*', 'can_*', 'should_*', '*_enabled', '*_disabled', '*_active', '*_flag', 'active', 'enabled', 'disabled', 'verified', 'deleted', 'archived'];
const TIME_PATTERNS = ['*_at', '*_on', '*_date', '*_time', 'date', 'time', 'timestamp', 'datetime'];

/**
 * Converts `camelCase`/`PascalCase`/`kebab-case` to lowercase snake_case: `_` between a lowercase
 * letter or digit and a capital, and before the last capital of a run followed by a lowercase
 * letter (`HTTPServer` → `http_server`); runs of `-` and white space become one `_`.
 *
 * Written as scans, not as `/([A-Z]+)([A-Z][a-z])/g`: that regex is quadratic on a long run of
 * capitals, and a fixture's key can be a megabyte long.
 */
export function toSnakeCase(key: string): string {
  const parts: string[] = [];
  let from = 0;
  for (let i = 1; i < key.length; i++) {
    if (isUpper(key.charCodeAt(i)) && isLowerOrDigit(key.charCodeAt(i - 1))) {
      parts.push(key.slice(from, i), '_');
      from = i;
    }
  }
  parts.push(key.slice(from));
  const split = parts.join('');
  const out: string[] = [];
  let start = 0;
  let i = 0;
  while (i < split.length) {
    if (!isUpper(split.charCodeAt(i))) {
      i++;
      continue;
    }
    let end = i;
    while (end < split.length && isUpper(split.charCodeAt(end))) end++;
    if (end - i >= 2 && end < split.length && isLower(split.charCodeAt(end))) {
      out.push(split.slice(start, end - 1), '_');
      start = end - 1;
    }
    i = end;
  }
  out.push(split.slice(start));
  return out.join('').replace(/[-\s]+/g, '_').toLowerCase();
}

function isUpper(code: number): boolean {
  return code >= 0x41 && code <= 0x5a;
}

function isLower(code: number): boolean {
  return code >= 0x61 && code <= 0x7a;
}

function isLowerOrDigit(code: number): boolean {
  return isLower(code) || (code >= 0x30 && code <= 0x39);
}

/**
 * Compiles glob-like key patterns (`*` matches any run of characters but a line break) into one
 * matcher. Matched by scanning, not by a regex: the patterns come from workspace settings, and
 * `*a*a*a*a*b` as a backtracking regex takes seconds on a 40-character key. Each `*` takes the
 * leftmost match of the literal after it, which for `*`-only globs is exact and O(key × pattern).
 */
export function compileKeyPatterns(patterns: readonly string[]): (key: string) => boolean {
  if (patterns.length === 0) return () => false;
  const globs = patterns.map((pattern) => toSnakeCase(pattern).split('*'));
  return (key) => {
    const snake = toSnakeCase(key);
    return globs.some((segments) => globMatches(segments, snake));
  };
}

/** Whether `text` is segments[0] * segments[1] * … (at least one segment; a `*` never spans a line break). */
function globMatches(segments: readonly string[], text: string): boolean {
  const first = segments[0];
  if (segments.length === 1) return text === first;
  const last = segments[segments.length - 1];
  if (!text.startsWith(first) || text.length < first.length + last.length) return false;
  let position = first.length;
  for (let s = 1; s < segments.length - 1; s++) {
    const found = text.indexOf(segments[s], position);
    if (found < 0 || hasLineBreak(text, position, found)) return false;
    position = found + segments[s].length;
  }
  const tail = text.length - last.length;
  return tail >= position && text.endsWith(last) && !hasLineBreak(text, position, tail);
}

function hasLineBreak(text: string, from: number, to: number): boolean {
  for (let i = from; i < to; i++) {
    const code = text.charCodeAt(i);
    if (code === 0x0a || code === 0x0d || code === 0x2028 || code === 0x2029) return true;
  }
  return false;
}

const cache = new Map<string, KeyClasses>();

/** The key classes for a set of money patterns (cached: settings rarely change). */
export function classifyKey(moneyPatterns: readonly string[]): KeyClasses {
  const cacheKey = moneyPatterns.join('\u0000');
  const cached = cache.get(cacheKey);
  if (cached) return cached;
  const money = compileKeyPatterns(moneyPatterns);
  const isBoolean = compileKeyPatterns(BOOLEAN_PATTERNS);
  const isTime = compileKeyPatterns(TIME_PATTERNS);
  const classes: KeyClasses = {
    isMoney: memoize((key) => {
      const snake = toSnakeCase(key);
      return !MINOR_UNIT_SUFFIXES.some((suffix) => snake.endsWith(suffix)) && money(snake);
    }),
    isMinorUnits: memoize((key) => {
      const snake = toSnakeCase(key);
      const suffix = minorUnitSuffixOf(snake);
      if (suffix === undefined) return false;
      return MONEY_MINOR_UNIT_SUFFIXES.some((money) => snake.endsWith(money)) || money(snake.slice(0, -suffix.length));
    }),
    isBoolean: memoize(isBoolean),
    isTime: memoize(isTime),
  };
  if (cache.size > 16) cache.clear();
  cache.set(cacheKey, classes);
  return classes;
}

/** Payload keys repeat across array items, so each distinct key is classified once. */
function memoize(classify: (key: string) => boolean): (key: string) => boolean {
  const known = new Map<string, boolean>();
  return (key) => {
    let result = known.get(key);
    if (result === undefined) {
      result = classify(key);
      if (known.size > 10_000) known.clear();
      // Kept beyond the document the key came from: a copy of its own, not a view into that text.
      known.set(detachedString(key), result);
    }
    return result;
  };
}
