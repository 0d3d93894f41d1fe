/**
 * Random envelope texts for the differential against the real runtimes: written as text, so the
 * number spellings, escapes, key orders and duplicate keys are exactly what a fixture may hold.
 * Numbers of every shape (integers around 2^53, 2^63 and 2^64, long ones, -0, exponents of both
 * cases and signs, values beyond the double range), strings from every plane (controls, DEL and C1,
 * line separators, NBSP, astral characters, lone surrogate escapes, every short escape), odd and
 * repeated keys, empty and nested values, and the envelope fields present, absent or mistyped.
 */
import fc from 'fast-check';

const pick = <T>(...values: T[]) => fc.constantFrom(...values);

/** One character of a JSON string, as written: raw where JSON allows it, or escaped. */
const codePoint = fc.oneof(
  { weight: 6, arbitrary: fc.integer({ min: 0x20, max: 0x7e }) },
  { weight: 2, arbitrary: fc.integer({ min: 0, max: 0x1f }) },
  { weight: 1, arbitrary: fc.integer({ min: 0x7f, max: 0x9f }) },
  { weight: 1, arbitrary: pick(0xa0, 0x2028, 0x2029, 0x3000, 0x200b, 0xfeff, 0xfffd, 0xffff, 0xe000) },
  { weight: 3, arbitrary: fc.integer({ min: 0xa1, max: 0xd7ff }) },
  { weight: 1, arbitrary: fc.integer({ min: 0xe000, max: 0xfffd }) },
  { weight: 2, arbitrary: fc.integer({ min: 0x10000, max: 0x10ffff }) },
);

/** An unpaired surrogate, only ever written as an escape: rare, since PHP refuses a whole document for one. */
const loneSurrogate = fc.tuple(fc.integer({ min: 0xd800, max: 0xdfff }), fc.boolean()).map(([code, upper]) => hex4(code, upper));

const hex4 = (code: number, upper: boolean) => {
  const text = code.toString(16).padStart(4, '0');
  return `\\u${upper ? text.toUpperCase() : text}`;
};

const SHORT: Readonly<Record<number, string>> = { 0x22: '\\"', 0x5c: '\\\\', 0x08: '\\b', 0x0c: '\\f', 0x0a: '\\n', 0x0d: '\\r', 0x09: '\\t', 0x2f: '\\/' };

const stringChar = fc.tuple(codePoint, fc.integer({ min: 0, max: 3 })).map(([code, style]) => {
  // Surrogates and controls can only be written escaped; quote and backslash too.
  const mustEscape = code < 0x20 || code === 0x22 || code === 0x5c;
  if (mustEscape || style === 0) {
    if (SHORT[code] !== undefined && style !== 1) return SHORT[code];
    if (code > 0xffff) {
      const high = 0xd800 + ((code - 0x10000) >> 10);
      const low = 0xdc00 + ((code - 0x10000) & 0x3ff);
      return hex4(high, style === 2) + hex4(low, style === 2);
    }
    return hex4(code, style === 2);
  }
  return String.fromCodePoint(code);
});

export const jsonString = fc.oneof(
  { weight: 400, arbitrary: fc.array(stringChar, { maxLength: 12 }) },
  { weight: 1, arbitrary: fc.tuple(fc.array(stringChar, { maxLength: 6 }), loneSurrogate, fc.array(stringChar, { maxLength: 6 })).map(([a, lone, b]) => [...a, lone, ...b]) },
).map((chars) => `"${chars.join('')}"`);

const ODD_KEYS = ['0', '1', '2', '10', '00', '-1', '4294967294', '4294967295', '__proto__', 'constructor', 'toString', 'JOB', 'Data', 'urn', '', ' ', 'a', 'b', 'é', 'Z', 'z', '😀'];
const key = fc.oneof({ weight: 3, arbitrary: jsonString }, { weight: 2, arbitrary: pick(...ODD_KEYS).map((k) => JSON.stringify(k)) });

const DIGITS = fc.string({ unit: pick(...'0123456789'.split('')), minLength: 1, maxLength: 25 });

/** A number literal of any shape JSON allows (and, rarely, beyond the double range). */
export const jsonNumber = fc.oneof(
  { weight: 3, arbitrary: fc.integer({ min: -1000, max: 1000 }).map(String) },
  { weight: 2, arbitrary: fc.bigInt({ min: -(2n ** 70n), max: 2n ** 70n }).map(String) },
  {
    weight: 2,
    arbitrary: fc
      .tuple(pick(2n ** 53n, 2n ** 63n, 2n ** 64n, 2n ** 31n, 2n ** 32n, 10n ** 21n), fc.integer({ min: -3, max: 3 }), fc.boolean())
      .map(([base, delta, negative]) => `${negative ? '-' : ''}${base + BigInt(delta)}`),
  },
  { weight: 1, arbitrary: DIGITS.map((digits) => digits.replace(/^0+(?=\d)/, '')) },
  { weight: 1, arbitrary: pick('-0', '0', '-0.0', '0.0', '0e0', '-0e-5', '1e-400', '1E+2', '1e05', '10.0', '1.5e300', '5e-324', '1e23', '1e21', '1e-7') },
  // Beyond the double range: PHP and Java refuse to write it, Go to read it into data.
  { weight: 1, arbitrary: fc.oneof({ weight: 1, arbitrary: pick('1e400', '-1e400', '2e308') }, { weight: 30, arbitrary: fc.integer().map(String) }) },
  {
    weight: 4,
    arbitrary: fc.tuple(fc.double({ noNaN: true, noDefaultInfinity: true }), fc.integer({ min: 0, max: 4 })).map(([x, style]) => {
      if (style === 0) return JSON.stringify(x);
      if (style === 1) return x.toExponential();
      if (style === 2) return x.toExponential().replace('e', 'E');
      if (style === 3) return Number.isInteger(x) && Math.abs(x) < 1e21 ? `${JSON.stringify(x)}.0` : JSON.stringify(x);
      return x.toPrecision(1 + Math.floor(Math.abs(x) % 17));
    }),
  },
);

type Text = fc.Arbitrary<string>;

/** Any JSON value, nested at most `depth` more levels (with duplicate keys now and then). */
export function jsonValue(depth: number): Text {
  const leaf: Text = fc.oneof({ weight: 4, arbitrary: jsonNumber }, { weight: 4, arbitrary: jsonString }, { weight: 1, arbitrary: pick('true', 'false', 'null') });
  if (depth <= 0) return leaf;
  const inner = fc.constant(null).chain(() => jsonValue(depth - 1));
  return fc.oneof(
    { weight: 5, arbitrary: leaf },
    { weight: 1, arbitrary: fc.array(inner, { maxLength: 4 }).map((items) => `[${items.join(',')}]`) },
    { weight: 2, arbitrary: jsonObject(inner) },
  );
}

/** An object from members, sometimes repeating a key, sometimes with list-like keys "0", "1", …. */
export function jsonObject(value: Text, maxLength = 5): Text {
  return fc.oneof(
    { weight: 6, arbitrary: fc.array(fc.tuple(key, value), { maxLength }).map(members) },
    { weight: 1, arbitrary: fc.array(value, { minLength: 1, maxLength: 3 }).map((values) => `{${values.map((v, i) => `"${i}":${v}`).join(',')}}`) },
    { weight: 1, arbitrary: fc.tuple(key, value, value).map(([k, a, b]) => `{${k}:${a},${k}:${b}}`) },
  );
}

function members(entries: readonly (readonly [string, string])[]): string {
  return `{${entries.map(([k, v]) => `${k}:${v}`).join(',')}}`;
}

const UUID = '"7b3f9c2a-e41d-4f88-9b2a-1c0d5e6f7a8b"';

/** A field that is usually well-formed, sometimes odd or mistyped, sometimes absent (undefined). */
function field(usual: Text, odd: Text): fc.Arbitrary<string | undefined> {
  return fc.oneof({ weight: 24, arbitrary: usual }, { weight: 2, arbitrary: odd }, { weight: 1, arbitrary: fc.constant(undefined) });
}

const meta: Text = fc
  .tuple(
    field(fc.constant('"f1e2d3c4-b5a6-4789-90ab-cdef01234567"'), jsonValue(0)),
    field(pick('"orders"', '"default"'), jsonValue(0)),
    field(pick('"php"', '"python"', '"node"', '"go"', '"java"', '"dotnet"'), jsonValue(0)),
    field(fc.constant('1'), pick('1.0', '"1"', '2', '1e0', 'true', '4294967297', 'null')),
    field(fc.constant('1749132727000'), jsonNumber),
    fc.option(fc.tuple(pick('"ts"', '"source"', '"attempts"', '"ext"', '"Queue"'), jsonValue(1)), { nil: undefined }),
  )
  .chain(([id, queue, lang, version, created, extra]) => {
    const entries: [string, string][] = [];
    if (id !== undefined) entries.push(['"id"', id]);
    if (queue !== undefined) entries.push(['"queue"', queue]);
    if (lang !== undefined) entries.push(['"lang"', lang]);
    if (version !== undefined) entries.push(['"schema_version"', version]);
    if (created !== undefined) entries.push(['"created_at"', created]);
    if (extra) entries.push(extra);
    return fc.shuffledSubarray(entries, { minLength: entries.length, maxLength: entries.length }).map(members);
  });

/** A whole envelope text, fields in any order, with the odd extra, alias or dead_letter block. */
const wellFormedText: Text = fc
  .tuple(
    field(pick('"urn:babel:orders:created"', '" urn:babel:orders:created "'), fc.oneof(jsonValue(0), pick('""', '"   "'))),
    fc.option(pick('"urn:babel:orders:created"', '"  urn:babel:x:y  "', '""', '7'), { nil: undefined }),
    field(fc.constant(UUID), fc.oneof(jsonValue(0), pick('""', '"  "'))),
    field(jsonObject(jsonValue(3), 8), fc.oneof(jsonValue(2), pick('{}', '[]', 'null'))),
    field(meta, jsonValue(1)),
    field(fc.constant('0'), fc.oneof(jsonNumber, pick('"0"', 'null', '-1', '1.0'))),
    fc.option(
      jsonObject(fc.oneof(jsonValue(0), pick('"failed"', '1749132727000')), 4).map((inner) => inner),
      { nil: undefined },
    ),
    fc.option(fc.tuple(pick('"timestamp"', '"x_extra"', '"JOB"', '"Data"', '"trace_ID"'), jsonValue(1)), { nil: undefined }),
  )
  .chain(([job, urn, trace, data, metaText, attempts, deadLetter, extra]) => {
    const entries: [string, string][] = [];
    if (job !== undefined) entries.push(['"job"', job]);
    if (urn !== undefined) entries.push(['"urn"', urn]);
    if (trace !== undefined) entries.push(['"trace_id"', trace]);
    if (data !== undefined) entries.push(['"data"', data]);
    if (metaText !== undefined) entries.push(['"meta"', metaText]);
    if (attempts !== undefined) entries.push(['"attempts"', attempts]);
    if (deadLetter !== undefined) entries.push(['"dead_letter"', deadLetter]);
    if (extra) entries.push(extra);
    return fc.oneof(
      { weight: 3, arbitrary: fc.constant(members(entries)) },
      { weight: 1, arbitrary: fc.shuffledSubarray(entries, { minLength: entries.length, maxLength: entries.length }).map(members) },
    );
  });

/**
 * Ways to break a text that some decoders tolerate and others do not (facts part 2, §2): a bare
 * NaN, a raw TAB in a string, a leading zero, a BOM, trailing text, nesting of 600 levels (PHP's
 * limit is 512) and of 1,100 (Python's recursion limit).
 */
const BREAKS: readonly ((text: string) => string)[] = [
  (text) => text.replace('{', '{"nan":NaN,'),
  (text) => text.replace('{', '{"tab":"a\tb",'),
  (text) => text.replace('{', '{"zero":00,'),
  (text) => `\ufeff${text}`,
  (text) => `${text} x`,
  (text) => text.replace('{', `{"deep":${'['.repeat(600)}${']'.repeat(600)},`),
  (text) => text.replace('{', `{"deep":${'['.repeat(1100)}${']'.repeat(1100)},`),
];

/** Envelope texts: mostly well-formed, one in twenty broken in a way some decoder tolerates. */
export const envelopeText: Text = fc.oneof(
  { weight: 19, arbitrary: wellFormedText },
  { weight: 1, arbitrary: fc.tuple(wellFormedText, fc.nat({ max: BREAKS.length - 1 })).map(([text, i]) => BREAKS[i](text)) },
);

/** A JSON integer literal within int64, the range of Go's int and int64 fields (and Java's long). */
const int64Text: Text = fc.oneof(
  { weight: 4, arbitrary: fc.integer({ min: -5, max: 5 }).map(String) },
  { weight: 2, arbitrary: fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }).map(String) },
  { weight: 1, arbitrary: pick('1749132727000', '2147483647', '2147483648', '4294967297', '9223372036854775807', '-9223372036854775808') },
);

/** A string field's value: usually the contract's, sometimes any string (escapes, planes, lone surrogates). */
const stringText = (...usual: string[]): Text => fc.oneof({ weight: 3, arbitrary: pick(...usual.map((value) => JSON.stringify(value))) }, { weight: 1, arbitrary: jsonString });

/** A key as written, sometimes in another case (Go matches field names case-insensitively; the others do not). */
const fieldKey = (name: string): Text => fc.oneof({ weight: 12, arbitrary: fc.constant(JSON.stringify(name)) }, { weight: 1, arbitrary: fc.constant(JSON.stringify(name.toUpperCase())) });

/** Members in document order, or shuffled. */
function ordered(entries: [string, string][]): Text {
  return fc.oneof({ weight: 2, arbitrary: fc.constant(members(entries)) }, { weight: 1, arbitrary: fc.shuffledSubarray(entries, { minLength: entries.length, maxLength: entries.length }).map(members) });
}

const typedMeta: Text = fc
  .tuple(
    stringText('f1e2d3c4-b5a6-4789-90ab-cdef01234567'),
    stringText('orders', 'default'),
    stringText('php', 'python', 'node', 'go', 'java', 'dotnet'),
    fc.oneof({ weight: 8, arbitrary: fc.constant('1') }, { weight: 1, arbitrary: int64Text }),
    fc.oneof({ weight: 4, arbitrary: fc.constant('1749132727000') }, { weight: 1, arbitrary: int64Text }),
    fc.option(fc.tuple(pick('"ts"', '"source"', '"attempts"', '"ext"'), jsonValue(1)), { nil: undefined }),
  )
  .chain(([id, queue, lang, version, created, extra]) =>
    ordered([['"id"', id], ['"queue"', queue], ['"lang"', lang], ['"schema_version"', version], ['"created_at"', created], ...(extra ? [extra] : [])]),
  );

/** A field's value in its type, or now and then a value of any type (a typed decoder may refuse the whole body for it). */
const mostly = (typed: Text): Text => fc.oneof({ weight: 30, arbitrary: typed }, { weight: 1, arbitrary: jsonValue(1) });

/** A dead_letter block with the contract's fields in their types (error and exception may be null), some left out, one now and then mistyped. */
const typedDeadLetter: Text = fc
  .tuple(
    mostly(stringText('failed', 'unknown_urn', 'poison')),
    mostly(fc.oneof(stringText('gateway down'), fc.constant('null'))),
    mostly(fc.oneof(stringText('TypeError', 'App\\Exceptions\\GatewayTimeout'), fc.constant('null'))),
    mostly(int64Text),
    mostly(stringText('orders')),
    mostly(int64Text),
    mostly(stringText('node', 'go', 'python')),
  )
  .chain(([reason, error, exception, failedAt, queue, attempts, lang]) =>
    fc.subarray([['"reason"', reason], ['"error"', error], ['"exception"', exception], ['"failed_at"', failedAt], ['"original_queue"', queue], ['"attempts"', attempts], ['"lang"', lang]] as [string, string][]).chain(ordered),
  );

/**
 * Envelopes whose contract fields all have the type the typed SDKs decode them into (Go's and
 * Java's structs), so that their relays get past the decoder and the bytes are compared: the
 * general stream mistypes a field in most envelopes, and Go then refuses the whole body. `data`,
 * the strings and the extra keys are as varied as there; some keys are written in another case
 * (Go fills the field from them), and now and then `data` or `meta` is repeated (Go merges the
 * objects, the others keep the last).
 */
export const typedEnvelopeText: Text = fc
  .tuple(
    fc.tuple(fieldKey('job'), stringText('urn:babel:orders:created', ' urn:babel:orders:created ')),
    fc.option(stringText('urn:babel:orders:created', '  urn:babel:x:y  ', ''), { nil: undefined }),
    fc.tuple(fieldKey('trace_id'), stringText('7b3f9c2a-e41d-4f88-9b2a-1c0d5e6f7a8b')),
    fc.tuple(fieldKey('data'), jsonObject(jsonValue(3), 8)),
    fc.tuple(fieldKey('meta'), typedMeta),
    fc.tuple(fieldKey('attempts'), int64Text),
    fc.option(typedDeadLetter, { nil: undefined }),
    fc.option(fc.tuple(pick('"timestamp"', '"x_extra"'), jsonValue(1)), { nil: undefined }),
    fc.option(fc.oneof(fc.tuple(fc.constant('"data"'), jsonObject(jsonValue(2), 4)), fc.tuple(fc.constant('"meta"'), typedMeta)), { nil: undefined }),
  )
  .chain(([job, urn, trace, data, metaText, attempts, deadLetter, extra, repeated]) => {
    const entries: [string, string][] = [job, trace, data, metaText, attempts];
    if (urn !== undefined) entries.push(['"urn"', urn]);
    if (deadLetter !== undefined) entries.push(['"dead_letter"', deadLetter]);
    if (extra) entries.push(extra);
    if (repeated) entries.push(repeated);
    return ordered(entries);
  });
