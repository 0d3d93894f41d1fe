/**
 * Key-name classes for the data rules: money-like, boolean-like and time-like keys.
 * Keys are compared in snake_case lowercase, so `totalPrice`, `TotalPrice` and `total_price`
 * are the same key to these rules.
 */

export interface KeyClasses {
  isMoney(key: string): boolean;
  isBoolean(key: string): boolean;
  isTime(key: string): boolean;
}

/** Keys that already say they carry minor units never count as money floats. */
const MINOR_UNIT_SUFFIXES = ['_cents', '_minor', '_pence', '_in_cents', '_minor_units'];

const BOOLEAN_PATTERNS = ['is_*', 'has_*', 'can_*', 'should_*', '*_enabled', '*_disabled', '*_active', '*_flag', 'active', 'enabled', 'disabled', 'verified', 'deleted', 'archived'];
const TIME_PATTERNS = ['*_at', '*_on', '*_date', '*_time', 'date', 'time', 'timestamp', 'datetime'];

/** Converts `camelCase`/`PascalCase`/`kebab-case` to lowercase snake_case. */
export function toSnakeCase(key: string): string {
  return key
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1_$2')
    .replace(/[-\s]+/g, '_')
    .toLowerCase();
}

/** Compiles glob-like key patterns (`*` matches any run of characters) into one matcher. */
export function compileKeyPatterns(patterns: readonly string[]): (key: string) => boolean {
  if (patterns.length === 0) return () => false;
  const source = patterns
    .map((pattern) => toSnakeCase(pattern).split('*').map(escapeRegExp).join('.*'))
    .join('|');
  const regex = new RegExp(`^(?:${source})$`);
  return (key) => regex.test(toSnakeCase(key));
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
      known.set(key, result);
    }
    return result;
  };
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
