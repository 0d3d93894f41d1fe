/**
 * Draft-07 keywords whose stock implementation in ajv is superlinear on input a payload can hold,
 * replaced by linear ones with the same verdict and the same error: `uniqueItems` on objects and
 * arrays (ajv compares every pair: 20,000 objects take seconds) and the `url` format (ajv-formats'
 * expression backtracks quadratically on `http://[` followed by colons).
 */
import type Ajv from 'ajv';
import type { DataValidateFunction } from 'ajv/dist/types';

/** A value as text that is equal for values ajv's deep equality holds equal (object keys in any order). */
export function canonicalJson(value: unknown): string {
  // Iterative: an array item can be nested as deep as the payload (the depth limit applies before).
  const out: string[] = [];
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const current = stack.pop();
    if (typeof current === 'string' && current.startsWith('\u0000')) {
      out.push(current.slice(1));
      continue;
    }
    if (Array.isArray(current)) {
      stack.push('\u0000]');
      for (let i = current.length - 1; i >= 0; i--) stack.push(current[i], i > 0 ? '\u0000,' : '\u0000');
      out.push('[');
      continue;
    }
    if (typeof current === 'object' && current !== null) {
      const keys = Object.keys(current).sort();
      stack.push('\u0000}');
      for (let i = keys.length - 1; i >= 0; i--) stack.push((current as Record<string, unknown>)[keys[i]], `\u0000${i > 0 ? ',' : ''}${JSON.stringify(keys[i])}:`);
      out.push('{');
      continue;
    }
    out.push(JSON.stringify(current) ?? 'null');
  }
  return out.join('');
}

/**
 * The pair of equal items ajv reports, in linear time: ajv looks for the last item that equals an
 * earlier one (`i`), and the nearest earlier copy of it (`j`).
 */
export function firstDuplicate(items: readonly unknown[]): { i: number; j: number } | undefined {
  const lastSeen = new Map<string, number>();
  let pair: { i: number; j: number } | undefined;
  for (let i = 0; i < items.length; i++) {
    const key = canonicalJson(items[i]);
    const j = lastSeen.get(key);
    if (j !== undefined) pair = { i, j };
    lastSeen.set(key, i);
  }
  return pair;
}

/** How long a string the stock `url` expression may see: up to here its quadratic cost is small. */
const URL_EXPRESSION_LIMIT = 2048;

/** Installs the linear keywords in an instance that has ajv-formats. */
export function addLinearKeywords(ajv: Ajv): void {
  ajv.removeKeyword('uniqueItems');
  ajv.addKeyword({
    keyword: 'uniqueItems',
    type: 'array',
    schemaType: 'boolean',
    errors: true,
    compile: (unique: boolean, parentSchema: Record<string, unknown>) => {
      if (!unique) return () => true;
      const validate: DataValidateFunction = (data: unknown) => {
        validate.errors = undefined;
        const pair = Array.isArray(data) ? firstDuplicate(data) : undefined;
        if (!pair) return true;
        // What ajv's own keyword reports (verbose: with the subschema, which messages read).
        validate.errors = [{ keyword: 'uniqueItems', params: pair, message: `must NOT have duplicate items (items ## ${pair.j} and ${pair.i} are identical)`, parentSchema }];
        return false;
      };
      return validate;
    },
  });
  const stock = ajv.formats.url;
  const expression = stock instanceof RegExp ? stock : typeof stock === 'object' && stock !== null && 'validate' in stock && stock.validate instanceof RegExp ? stock.validate : undefined;
  if (expression) {
    ajv.addFormat('url', (value: string) => (value.length <= URL_EXPRESSION_LIMIT ? expression.test(value) : isLongUrl(value)));
  }
}

/** A URL past the expression's limit, by its shape: an http(s) or ftp scheme, a host, no white space (linear: the parts cannot overlap). */
const LONG_URL = /^(?:https?|ftp):\/\/(?:[^\s/?#@]+@)?[^\s/?#@]+(?:[/?#]\S*)?$/i;

function isLongUrl(value: string): boolean {
  return LONG_URL.test(value);
}
