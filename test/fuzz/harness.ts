/**
 * The property-based fuzzing harness for core/ (fast-check, fixed seed), shared by the bounded run
 * in `npm test` (core.fuzz.test.ts) and the long run behind `npm run fuzz` (run.ts).
 *
 * Inputs start from the example fixtures and the diagnostic fixtures and are mutated: characters
 * flipped, tokens inserted out of place, slices deleted and duplicated, the text truncated, line
 * ends rewritten (CRLF, CR, mixed), a BOM prepended, values replaced by very deep nesting or very
 * long strings and numbers, lone surrogates and NUL bytes everywhere. Every operation core offers
 * an editor runs on each input, and the properties are checked:
 *
 * - nothing throws;
 * - each call finishes within a budget proportional to the input (50 ms + 2 µs per character;
 *   the smaller of wall-clock and CPU time, tried three times before failing, so a GC pause or a
 *   busy 2-core machine does not fail a run);
 * - every range (diagnostics, completion items, hovers, edits, symbols, folding, selection) lies
 *   inside the document;
 * - on input that parses as JSON, every quick fix and the formatting produce text that still parses
 *   (formatting: to the same value), and every encoder's bytes parse as JSON.
 *
 * A counterexample is printed as its mutation list (small even when the text it makes is 10 MB).
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import fc from 'fast-check';
import { codeActions } from '../../core/language/code-actions';
import { analyze } from '../../core/rules/analyze';
import { isCode } from '../../core/rules/code-names';
import { complete } from '../../core/language/complete';
import type { CoreDiagnostic } from '../../core/rules/diagnostic';
import { applyEdits, type TextEdit } from '../../core/model/edits';
import { encodeEnvelope, SDK_NAMES } from '../../core/encode';
import { foldingRanges } from '../../core/language/folding';
import { formatDocument } from '../../core/language/format';
import type { Fresh } from '../../core/model/fresh';
import { hover } from '../../core/language/hover';
import { renderPreview } from '../../core/message/preview';
import { parseJson } from '../../core/parse/parser';
import { LineIndex } from '../../core/model/positions';
import { registryDefinition } from '../../core/language/registry-navigation';
import type { RegistryState } from '../../core/registry/types';
import { selectionRanges } from '../../core/language/selection';
import { DEFAULT_SETTINGS, normalizeSettings, type Settings } from '../../core/rules/settings/settings';
import { documentSymbols, type DocumentSymbolNode } from '../../core/language/symbols';
import { forEachValue, type ValueNode } from '../../core/model/tree';
import { loadRegistry } from '../../workspace/registry-loader';

export const ROOT = resolve(__dirname, '../..');

// ---------------------------------------------------------------------------------------------
// Seeds

export interface Seed {
  readonly name: string;
  readonly text: string;
}

/** Every example envelope and every fixture under test/fixtures (JSON files; not the .expected files). */
export function loadSeeds(): Seed[] {
  const seeds: Seed[] = [];
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir).sort()) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (name.endsWith('.json')) seeds.push({ name: relative(ROOT, path), text: readFileSync(path, 'utf8') });
    }
  };
  walk(join(ROOT, 'examples'));
  walk(join(ROOT, 'test/fixtures'));
  return seeds;
}

/** The registry states analysis runs under: none, the examples' registry, the good fixture registry, a broken one. */
export function loadRegistryStates(): RegistryState[] {
  const examples = join(ROOT, 'examples');
  const good = join(ROOT, 'test/fixtures/registries/good');
  return [
    { kind: 'none' },
    loadRegistry(join(examples, 'registry.json'), examples).state,
    loadRegistry(join(good, 'registry.json'), good).state,
    { kind: 'broken', path: '/nowhere/registry.json', error: 'registry.json is not valid JSON' },
  ];
}

// ---------------------------------------------------------------------------------------------
// Mutations (data, so that a counterexample prints small and shrinks)

/** How large the generated extremes get: small in `npm test`, full size in the long run. */
export interface Scale {
  /** Deepest nesting a `deep` mutation writes. */
  readonly maxDepth: number;
  /** Longest string or number a `long` mutation writes, in characters. */
  readonly maxLong: number;
}

export const BOUNDED_SCALE: Scale = { maxDepth: 1000, maxLong: 100_000 };
export const LONG_SCALE: Scale = { maxDepth: 100_000, maxLong: 10 * 1024 * 1024 };

/** Single UTF-16 units that break things: structure, quotes, escapes, controls, surrogates, BOM, separators. */
const NASTY_CHARS = ['{', '}', '[', ']', ':', ',', '"', '\\', "'", '/', '*', '-', '+', '.', '0', '1', 'e', 'E', 'n', 't', 'f', 'u', ' ', '\t', '\n', '\r', '\u0000', '\u0001', '\u001f', '\u007f', '\u00e9', '\ufeff', '\ud800', '\udbff', '\udc00', '\udfff', '\u2028', '\u2029', '\ufffd'];

/** Tokens out of place, half tokens, escapes and envelope fragments. */
const NASTY_TOKENS = [
  ...NASTY_CHARS,
  'true', 'false', 'null', 'nul', 'tru', 'TRUE', 'None', 'NaN', 'Infinity', '-Infinity', 'undefined',
  '01', '-0', '1.', '.5', '1e', '1e999', '-1e-999', '0x1F', '1_000', '12345678901234567890123', '9007199254740993', '1.0', '1E+21',
  '//', '/*', '*/', '/* x */', '// x\n', '\r\n', '\n\r', '\\u', '\\uD800', '\\uDC00', '\\ud83d\\ude00', '\\x41', '\\u00', '\\', '""', '"\\"', "''",
  '{}', '[]', '[,]', '{,}', '{"":}', ':,', ',,', '"a":', '"job":', '"urn":', '"meta":{', '"data":[', '"data":{}', ',"attempts":1',
  ',"urn":"urn:babel:orders:created"', '"job":"urn:babel:orders:created"', '"timestamp":1773480413', '"created_at":1773480413412000',
  '\ud83d\ude00', '\ud83d', '\ude00', '\u0000\u0000', '\ufeff{', '\u2028',
];

/** Whole values a value-level mutation puts in place of another (keeps the text JSON when it was). */
const NASTY_VALUES = [
  'null', 'true', 'false', '0', '-0', '1', '-1', '0.1', '1.0', '1.10', '19.99', '1e21', '1E-7', '1e400', '-1e400', '123456789012345678901234567890',
  '9007199254740993', '1773480413', '1773480413412', '1773480413412000', '1773480413412000000', '""', '" "', '"true"', '"TRUE"', '"1"', '"0"', '"yes"',
  '"\\ud800"', '"\\udc00"', '"\\u0000"', '"\\ud83d\\ude00"', '"\\u2028"', '"é"', '"\\/"', '"urn:babel:orders:created"', '"URN:BABEL:Orders:Created "',
  '"urn:babel:orders:creatd"', '"urn:babel:shop:order.placed"', '"urn:babel:orders:placed"', '"urn:x"', '"urn:babel::"', '"node"', '"PHP"', '"cobol"',
  '"879d3f59-ee5b-4906-a1ca-d48ee72daa1d"', '"{879d3f59-ee5b-4906-a1ca-d48ee72daa1d}"', '"not-a-uuid"', '"2026-03-14T09:26:51Z"', '"14/03/2026"',
  '"a***"', '"***"', '"someone@example.com"', '[]', '{}', '[[]]', '{"":{}}', '[1,2,3]', '{"0":1,"1":2}', '{"a":1,"a":2}', '{"amount":19.99}',
  '{"price":1.5,"is_active":1}', '{"__proto__":1}', '{"constructor":{"prototype":1}}', '{"items":[{"sku":"","quantity":0}]}',
];

/** Keys a key-level mutation writes: envelope keys, their near misses, forbidden and reserved ones. */
const NASTY_KEYS = [
  '', 'job', 'urn', 'Job', 'JOB', 'trace_id', 'traceId', 'data', 'Data', 'payload', 'meta', 'META', 'attempts', 'dead_letter', 'id', 'queue', 'lang',
  'schema_version', 'created_at', 'createdAt', 'failed_at', 'timestamp', 'reason', 'ext', 'x-custom', 'amount', 'total_price', 'price_cents',
  'isActive', 'is_active', '__proto__', 'constructor', 'hasOwnProperty', '\u0000', '\ud800', 'a"b', 'a\\b', '\u2028', 'é',
];

export type Mutation =
  | { readonly kind: 'flip'; readonly at: number; readonly unit: number }
  | { readonly kind: 'flip-nasty'; readonly at: number; readonly index: number }
  | { readonly kind: 'insert'; readonly at: number; readonly index: number }
  | { readonly kind: 'insert-text'; readonly at: number; readonly text: string }
  | { readonly kind: 'delete'; readonly at: number; readonly length: number }
  | { readonly kind: 'truncate'; readonly at: number }
  | { readonly kind: 'duplicate'; readonly at: number; readonly length: number; readonly to: number }
  | { readonly kind: 'eol'; readonly style: 'crlf' | 'cr' | 'mixed' | 'lf' }
  | { readonly kind: 'bom' }
  | { readonly kind: 'replace-value'; readonly node: number; readonly index: number }
  | { readonly kind: 'replace-json'; readonly node: number; readonly json: string }
  | { readonly kind: 'rename-key'; readonly node: number; readonly index: number }
  | { readonly kind: 'long-key'; readonly node: number; readonly length: number; readonly shape: 'capitals' | 'camel' | 'stars' | 'spaces' }
  | { readonly kind: 'deep'; readonly node: number; readonly depth: number; readonly shape: 'array' | 'object' | 'mixed'; readonly closed: boolean }
  | { readonly kind: 'long-string'; readonly node: number; readonly length: number; readonly unit: 'ascii' | 'escape' | 'astral' | 'lone' | 'nul' }
  | { readonly kind: 'long-number'; readonly node: number; readonly digits: number; readonly form: 'integer' | 'fraction' | 'exponent' | 'negative' };

export function mutationArbitrary(scale: Scale): fc.Arbitrary<Mutation> {
  const at = fc.nat();
  const node = fc.nat();
  const small = fc.integer({ min: 1, max: 64 });
  return fc.oneof(
    { weight: 6, arbitrary: fc.record({ kind: fc.constant('flip' as const), at, unit: fc.integer({ min: 0, max: 0xffff }) }) },
    { weight: 6, arbitrary: fc.record({ kind: fc.constant('flip-nasty' as const), at, index: fc.nat({ max: NASTY_CHARS.length - 1 }) }) },
    { weight: 8, arbitrary: fc.record({ kind: fc.constant('insert' as const), at, index: fc.nat({ max: NASTY_TOKENS.length - 1 }) }) },
    { weight: 2, arbitrary: fc.record({ kind: fc.constant('insert-text' as const), at, text: fc.string({ unit: 'binary', maxLength: 8 }) }) },
    { weight: 5, arbitrary: fc.record({ kind: fc.constant('delete' as const), at, length: small }) },
    { weight: 3, arbitrary: fc.record({ kind: fc.constant('truncate' as const), at }) },
    { weight: 3, arbitrary: fc.record({ kind: fc.constant('duplicate' as const), at, length: fc.integer({ min: 1, max: 400 }), to: at }) },
    { weight: 2, arbitrary: fc.record({ kind: fc.constant('eol' as const), style: fc.constantFrom('crlf' as const, 'cr' as const, 'mixed' as const, 'lf' as const) }) },
    { weight: 1, arbitrary: fc.constant({ kind: 'bom' as const }) },
    { weight: 10, arbitrary: fc.record({ kind: fc.constant('replace-value' as const), node, index: fc.nat({ max: NASTY_VALUES.length - 1 }) }) },
    { weight: 4, arbitrary: fc.record({ kind: fc.constant('replace-json' as const), node, json: fc.jsonValue({ maxDepth: 4 }).map((value) => JSON.stringify(value)) }) },
    { weight: 6, arbitrary: fc.record({ kind: fc.constant('rename-key' as const), node, index: fc.nat({ max: NASTY_KEYS.length - 1 }) }) },
    {
      weight: 1,
      arbitrary: fc.record({
        kind: fc.constant('long-key' as const),
        node,
        length: fc.oneof(fc.integer({ min: 1, max: 2000 }), fc.integer({ min: 1, max: scale.maxLong })),
        shape: fc.constantFrom('capitals' as const, 'camel' as const, 'stars' as const, 'spaces' as const),
      }),
    },
    {
      weight: 2,
      arbitrary: fc.record({
        kind: fc.constant('deep' as const),
        node,
        depth: fc.oneof(fc.integer({ min: 1, max: 64 }), fc.integer({ min: 1, max: scale.maxDepth })),
        shape: fc.constantFrom('array' as const, 'object' as const, 'mixed' as const),
        closed: fc.boolean(),
      }),
    },
    {
      weight: 1,
      arbitrary: fc.record({
        kind: fc.constant('long-string' as const),
        node,
        length: fc.oneof(fc.integer({ min: 1, max: 2000 }), fc.integer({ min: 1, max: scale.maxLong })),
        unit: fc.constantFrom('ascii' as const, 'escape' as const, 'astral' as const, 'lone' as const, 'nul' as const),
      }),
    },
    {
      weight: 1,
      arbitrary: fc.record({
        kind: fc.constant('long-number' as const),
        node,
        digits: fc.oneof(fc.integer({ min: 1, max: 400 }), fc.integer({ min: 1, max: scale.maxLong })),
        form: fc.constantFrom('integer' as const, 'fraction' as const, 'exponent' as const, 'negative' as const),
      }),
    },
  );
}

/** Applies mutations in order; each position is taken modulo the current text's length. */
export function applyMutations(text: string, mutations: readonly Mutation[]): string {
  let current = text;
  for (const mutation of mutations) current = applyMutation(current, mutation);
  return current;
}

function applyMutation(text: string, m: Mutation): string {
  const position = (at: number) => at % (text.length + 1);
  switch (m.kind) {
    case 'flip': {
      if (text.length === 0) return String.fromCharCode(m.unit);
      const i = m.at % text.length;
      return text.slice(0, i) + String.fromCharCode(m.unit) + text.slice(i + 1);
    }
    case 'flip-nasty': {
      if (text.length === 0) return NASTY_CHARS[m.index];
      const i = m.at % text.length;
      return text.slice(0, i) + NASTY_CHARS[m.index] + text.slice(i + 1);
    }
    case 'insert': {
      const i = position(m.at);
      return text.slice(0, i) + NASTY_TOKENS[m.index] + text.slice(i);
    }
    case 'insert-text': {
      const i = position(m.at);
      return text.slice(0, i) + m.text + text.slice(i);
    }
    case 'delete': {
      const i = position(m.at);
      return text.slice(0, i) + text.slice(i + m.length);
    }
    case 'truncate':
      return text.slice(0, position(m.at));
    case 'duplicate': {
      const i = position(m.at);
      const slice = text.slice(i, i + m.length);
      const to = position(m.to * 7919);
      return text.slice(0, to) + slice + text.slice(to);
    }
    case 'eol':
      return rewriteLineEnds(text, m.style);
    case 'bom':
      return '\ufeff' + text;
    case 'replace-value':
      return replaceNode(text, m.node, () => NASTY_VALUES[m.index]);
    case 'replace-json':
      return replaceNode(text, m.node, () => m.json);
    case 'rename-key':
      return renameKey(text, m.node, NASTY_KEYS[m.index]);
    case 'long-key':
      return renameKey(text, m.node, longKey(m.length, m.shape));
    case 'deep':
      return replaceNode(text, m.node, () => deepText(m.depth, m.shape, m.closed));
    case 'long-string':
      return replaceNode(text, m.node, () => longString(m.length, m.unit));
    case 'long-number':
      return replaceNode(text, m.node, () => longNumber(m.digits, m.form));
  }
}

function rewriteLineEnds(text: string, style: 'crlf' | 'cr' | 'mixed' | 'lf'): string {
  const lines = text.split(/\r\n|\r|\n/);
  if (style === 'mixed') {
    const ends = ['\n', '\r\n', '\r'];
    return lines.map((line, i) => (i === lines.length - 1 ? line : line + ends[i % 3])).join('');
  }
  return lines.join(style === 'crlf' ? '\r\n' : style === 'cr' ? '\r' : '\n');
}

/** The value nodes of the text's parse, in document order (at most the first 5,000). */
function valueNodes(text: string): ValueNode[] {
  const nodes: ValueNode[] = [];
  const doc = parseJson(text);
  if (doc.root) {
    forEachValue(doc.root, (value) => {
      if (nodes.length < 5000) nodes.push(value);
    });
  }
  return nodes;
}

function replaceNode(text: string, index: number, replacement: () => string): string {
  const nodes = valueNodes(text);
  if (nodes.length === 0) return replacement();
  const node = nodes[index % nodes.length];
  return text.slice(0, node.offset) + replacement() + text.slice(node.end);
}

function renameKey(text: string, index: number, key: string): string {
  const nodes = valueNodes(text).filter((node) => node.property);
  if (nodes.length === 0) return text;
  const property = nodes[index % nodes.length].property!;
  return text.slice(0, property.keyOffset) + JSON.stringify(key) + text.slice(property.keyEnd);
}

/** `depth` levels of `[`, of `{"a":` or both alternating, closed or left open. */
export function deepText(depth: number, shape: 'array' | 'object' | 'mixed', closed: boolean): string {
  if (shape === 'array') return '['.repeat(depth) + (closed ? ']'.repeat(depth) : '');
  if (shape === 'object') return '{"a":'.repeat(depth) + (closed ? '1' + '}'.repeat(depth) : '');
  const half = Math.ceil(depth / 2);
  return '[{"a":'.repeat(half) + (closed ? '0' + '}]'.repeat(half) : '');
}

function longKey(length: number, shape: 'capitals' | 'camel' | 'stars' | 'spaces'): string {
  const piece = { capitals: 'A', camel: 'aB', stars: 'a*', spaces: ' -' }[shape];
  return piece.repeat(Math.max(1, Math.floor(length / piece.length))) + (shape === 'capitals' ? 'mount' : '_price');
}

function longString(length: number, unit: 'ascii' | 'escape' | 'astral' | 'lone' | 'nul'): string {
  const piece = { ascii: 'a', escape: '\\n', astral: '\ud83d\ude00', lone: '\\ud800', nul: '\\u0000' }[unit];
  return `"${piece.repeat(Math.max(1, Math.floor(length / piece.length)))}"`;
}

function longNumber(digits: number, form: 'integer' | 'fraction' | 'exponent' | 'negative'): string {
  const run = '9'.repeat(digits);
  if (form === 'fraction') return `0.${run}`;
  if (form === 'exponent') return `1e${run}`;
  if (form === 'negative') return `-${run}`;
  return `1${run}`;
}

/** A case: a seed (by index), mutations, the positions asked about and the analysis options. */
export interface FuzzCase {
  readonly seed: number;
  readonly mutations: readonly Mutation[];
  readonly offsets: readonly number[];
  readonly registry: number;
  readonly settings: number;
  readonly tabSize: number;
  readonly insertSpaces: boolean;
}

/** Mutations that keep JSON text JSON: whole values and keys replaced, line ends rewritten. */
const JSON_PRESERVING = new Set<Mutation['kind']>(['replace-value', 'replace-json', 'rename-key', 'long-key', 'eol', 'long-string', 'long-number']);

export function caseArbitrary(seedCount: number, registryCount: number, scale: Scale, options: { keepJson?: boolean } = {}): fc.Arbitrary<FuzzCase> {
  const mutation = options.keepJson
    ? mutationArbitrary(scale).filter((m) => JSON_PRESERVING.has(m.kind) || (m.kind === 'deep' && m.closed))
    : mutationArbitrary(scale);
  return fc.record({
    seed: fc.nat({ max: seedCount - 1 }),
    mutations: fc.array(mutation, { minLength: 0, maxLength: options.keepJson ? 6 : 4 }),
    offsets: fc.array(fc.nat(), { minLength: 1, maxLength: 4 }),
    registry: fc.nat({ max: registryCount - 1 }),
    settings: fc.nat({ max: SETTINGS.length - 1 }),
    tabSize: fc.constantFrom(1, 2, 4, 8),
    insertSpaces: fc.boolean(),
  });
}

/** Token soup: no seed at all, just tokens and units strung together. */
export function soupArbitrary(): fc.Arbitrary<string> {
  return fc
    .array(fc.oneof(fc.constantFrom(...NASTY_TOKENS), fc.constantFrom(...NASTY_VALUES), fc.string({ unit: 'binary', maxLength: 3 })), { maxLength: 120 })
    .map((parts) => parts.join(''));
}

// ---------------------------------------------------------------------------------------------
// Running a case

const SETTINGS: readonly Settings[] = [
  DEFAULT_SETTINGS,
  normalizeSettings({ money: { keyPatterns: ['*'] }, diagnostics: { severity: { 'extension-key': 'off', 'urn-alias': 'error' } } }).settings,
];

/** Deterministic fresh values: the same case always produces the same fixes. */
export const FRESH: Fresh = {
  uuid: () => '0e8a4f2c-6b1d-4c3e-9f7a-5d2b8c1e4a6f',
  now: () => 1773480413412,
};

/** The time one call may take for an input of `length` characters. */
export function budgetMs(length: number): number {
  return 50 + 0.002 * length;
}

/** Size buckets of the analysis-time table. */
export const BUCKETS: readonly { readonly label: string; readonly below: number }[] = [
  { label: '< 1 KB', below: 1024 },
  { label: '1–10 KB', below: 10 * 1024 },
  { label: '10–100 KB', below: 100 * 1024 },
  { label: '100 KB–1 MB', below: 1024 * 1024 },
  { label: '1–10 MB', below: 10 * 1024 * 1024 },
  { label: '≥ 10 MB', below: Infinity },
];

/** What a run saw: cases, checks made and the longest analysis per size bucket. */
export class FuzzStats {
  cases = 0;
  validJsonCases = 0;
  calls = 0;
  diagnostics = 0;
  quickFixesChecked = 0;
  encodings = 0;
  readonly longest = new Map<string, { ms: number; length: number; count: number }>();
  /** Total milliseconds per operation, to see where a run's time goes. */
  readonly totals = new Map<string, number>();

  recordAnalysis(length: number, ms: number): void {
    const bucket = BUCKETS.find((b) => length < b.below)!.label;
    const entry = this.longest.get(bucket) ?? { ms: 0, length: 0, count: 0 };
    entry.count++;
    if (ms > entry.ms) {
      entry.ms = ms;
      entry.length = length;
    }
    this.longest.set(bucket, entry);
  }

  table(): string {
    const rows = BUCKETS.filter((b) => this.longest.has(b.label)).map((b) => {
      const e = this.longest.get(b.label)!;
      return `  ${b.label.padEnd(12)} ${String(e.count).padStart(7)} inputs   longest parse+analysis ${e.ms.toFixed(1).padStart(8)} ms (at ${e.length} chars)`;
    });
    return [
      `cases ${this.cases} (${this.validJsonCases} valid JSON), calls ${this.calls}, diagnostics ${this.diagnostics}, quick fixes applied ${this.quickFixesChecked}, encodings ${this.encodings}`,
      ...rows,
      `  time by operation: ${[...this.totals].sort((a, b) => b[1] - a[1]).slice(0, 8).map(([op, ms]) => `${op} ${(ms / 1000).toFixed(1)} s`).join(', ')}`,
    ].join('\n');
  }
}

/**
 * How long `fn` took: the smaller of wall-clock and CPU time, so that neither being descheduled on
 * a busy 2-core machine (wall ≫ CPU) nor parallel GC threads (CPU > wall) count against it.
 */
function measure<T>(fn: () => T): { value: T; ms: number } {
  const wall = performance.now();
  const cpu = process.cpuUsage();
  const value = fn();
  const wallMs = performance.now() - wall;
  const used = process.cpuUsage(cpu);
  return { value, ms: Math.min(wallMs, (used.user + used.system) / 1000) };
}

/**
 * Runs `fn`, failing when it takes longer than the budget three times in a row (the retries absorb
 * GC pauses and JIT warm-up). The budget is for `length` characters of work, times `factor`;
 * `extra` adds the size of what was produced (formatting writes indentation that grows with depth).
 */
function timed<T>(stats: FuzzStats, label: string, length: number, fn: () => T, factor = 1, extra?: (value: T) => number): { value: T; ms: number } {
  stats.calls++;
  let { value, ms } = measure(fn);
  const budget = budgetMs(length + (extra ? extra(value) : 0)) * factor;
  const tries = [ms];
  while (ms > budget && tries.length < 3) {
    const again = measure(fn);
    value = again.value;
    tries.push(again.ms);
    ms = Math.min(ms, again.ms);
  }
  assert.ok(ms <= budget, `${label} took ${tries.map((t) => `${t.toFixed(1)} ms`).join(', then ')} on ${length} characters (budget ${budget.toFixed(1)} ms)`);
  const operation = label.replace(/ at \d+$/, '');
  stats.totals.set(operation, (stats.totals.get(operation) ?? 0) + ms);
  return { value, ms };
}

function assertRange(label: string, offset: number, end: number, length: number): void {
  assert.ok(Number.isInteger(offset) && Number.isInteger(end) && 0 <= offset && offset <= end && end <= length, `${label}: range [${offset}, ${end}) is not inside the document (length ${length})`);
}

/** The text without the whitespace between tokens (iterative: JSON.stringify of a deep value overflows). */
function tokensOf(text: string): string {
  const parts: string[] = [];
  let from = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) {
      inString = true;
    } else if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) {
      parts.push(text.slice(from, i));
      from = i + 1;
    }
  }
  parts.push(text.slice(from));
  return parts.join('');
}

/** True when JSON.parse accepts the text. */
export function parsesAsJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

export interface RunOptions {
  readonly registries: readonly RegistryState[];
  readonly stats: FuzzStats;
  readonly offsets: readonly number[];
  readonly registry: number;
  readonly settings?: number;
  readonly tabSize?: number;
  readonly insertSpaces?: boolean;
  /** Skip the per-SDK encoders and the preview (the truncation sweep). */
  readonly light?: boolean;
}

/** Runs every core operation on `text` and checks the properties; throws (assert) on a violation. */
export function runCore(text: string, options: RunOptions): void {
  const { stats } = options;
  const length = text.length;
  const registry = options.registries[options.registry % options.registries.length];
  const settings = SETTINGS[(options.settings ?? 0) % SETTINGS.length];
  stats.cases++;

  // Parse + analysis, as a keystroke in the server costs it; without and with the registry.
  const analysis = timed(stats, 'parse + analyze', length, () => {
    const doc = parseJson(text);
    return { doc, diagnostics: analyze(doc, settings, registry) };
  });
  stats.recordAnalysis(length, analysis.ms);
  const { doc } = analysis.value;
  const diagnostics: CoreDiagnostic[] = analysis.value.diagnostics;
  const plain = timed(stats, 'analyze without registry', length, () => analyze(doc, settings));
  const valid = doc.syntaxProblems.length === 0;
  if (valid) {
    stats.validJsonCases++;
    assert.ok(parsesAsJson(text), 'the parser found no syntax problem in text that JSON.parse rejects');
  }
  for (const list of [diagnostics, plain.value]) {
    for (const d of list) {
      assertRange(`diagnostic ${d.code}`, d.offset, d.end, length);
      assert.ok(isCode(d.code), `unknown diagnostic code ${d.code}`);
      assert.equal(typeof d.message, 'string');
    }
  }
  stats.diagnostics += diagnostics.length;

  // Quick fixes on every diagnostic.
  const actions = timed(stats, 'codeActions', length, () => codeActions(doc, diagnostics, FRESH, registry)).value;
  for (const action of actions) {
    for (const edit of action.edits) assertRange(`edit of "${action.title}"`, edit.offset, edit.end, length);
    const fixed = applyEdits(text, action.edits);
    if (valid) {
      stats.quickFixesChecked++;
      assert.ok(parsesAsJson(fixed) && parseJson(fixed).syntaxProblems.length === 0, `quick fix "${action.title}" (${action.diagnostic.code}) produced text that is not JSON`);
    }
  }

  // Completion, hover and definition at the case's offsets.
  const offsets = [...options.offsets.map((o) => o % (length + 1)), 0, length];
  for (const offset of offsets) {
    const items = timed(stats, `complete at ${offset}`, length, () => complete(doc, offset, FRESH, registry)).value;
    for (const item of items) assertRange(`completion "${item.label}"`, item.offset, item.end, length);
    const shown = timed(stats, `hover at ${offset}`, length, () => hover(doc, offset, registry)).value;
    if (shown) assertRange('hover', shown.offset, shown.end, length);
    if (registry.kind === 'loaded') timed(stats, `definition at ${offset}`, length, () => registryDefinition(doc, offset, registry.registry));
  }

  // Formatting: inside the document; on JSON, the same value, and formatting again changes nothing.
  const format = { tabSize: options.tabSize ?? 2, insertSpaces: options.insertSpaces ?? true };
  const written = (list: TextEdit[]) => list.reduce((sum, edit) => sum + edit.newText.length, 0);
  const edits: TextEdit[] = timed(stats, 'formatDocument', length, () => formatDocument(doc, format), 1, written).value;
  for (const edit of edits) assertRange('format edit', edit.offset, edit.end, length);
  if (edits.length > 0) {
    assert.ok(valid, 'formatting changed a document with syntax errors');
    const formatted = applyEdits(text, edits);
    assert.ok(parsesAsJson(formatted), 'formatting produced text that is not JSON');
    assert.equal(tokensOf(formatted), tokensOf(text), 'formatting changed a token');
    const again = timed(stats, 'formatDocument (again)', formatted.length, () => formatDocument(parseJson(formatted), format)).value;
    assert.equal(again.length, 0, 'formatting a formatted document changed it again');
  }

  // Outline, folding, selection.
  const lines = new LineIndex(text);
  const symbols = timed(stats, 'documentSymbols', length, () => documentSymbols(doc)).value;
  const stack: DocumentSymbolNode[] = [...symbols];
  while (stack.length > 0) {
    const symbol = stack.pop()!;
    assertRange(`symbol ${symbol.name}`, symbol.offset, symbol.end, length);
    assertRange(`symbol ${symbol.name} selection`, symbol.selectionOffset, symbol.selectionEnd, length);
    assert.ok(symbol.offset <= symbol.selectionOffset && symbol.selectionEnd <= symbol.end, `symbol ${symbol.name}: selection outside its range`);
    assert.ok(symbol.name !== '', 'a symbol with an empty name');
    stack.push(...symbol.children);
  }
  const lastLine = lines.positionAt(length).line;
  for (const fold of timed(stats, 'foldingRanges', length, () => foldingRanges(doc, lines)).value) {
    assert.ok(0 <= fold.startLine && fold.startLine < fold.endLine && fold.endLine <= lastLine, `folding range ${fold.startLine}–${fold.endLine} outside lines 0–${lastLine}`);
  }
  // As the server asks: the innermost 1,000 ranges per position.
  const chains = timed(stats, 'selectionRanges', length, () => selectionRanges(doc, offsets, 1000)).value;
  chains.forEach((chain, i) => {
    let previous: { offset: number; end: number } | undefined;
    for (const range of chain) {
      assertRange('selection range', range.offset, range.end, length);
      assert.ok(range.offset <= offsets[i] && offsets[i] <= range.end, `selection range [${range.offset}, ${range.end}) does not contain ${offsets[i]}`);
      if (previous) assert.ok(range.offset <= previous.offset && previous.end <= range.end, 'selection ranges are not nested');
      previous = range;
    }
  });

  if (options.light) return;

  // Every SDK's encoder, and the preview (fresh ids go through the override path).
  for (const sdk of SDK_NAMES) {
    // The text is written when first read: read within the budget.
    const result = timed(stats, `encode ${sdk}`, length, () => {
      const encoded = encodeEnvelope(doc, sdk);
      if (encoded.ok) void encoded.text.length;
      return encoded;
    }).value;
    stats.encodings++;
    if (result.ok) {
      assert.ok(valid, `the ${sdk} encoder accepted a document with syntax errors`);
      // Python really writes bare Infinity for 1e400; the encoder says so in a note.
      const admitted = result.notes.some((note) => /not JSON/.test(note.message));
      assert.ok(parsesAsJson(result.text) || admitted, `the ${sdk} encoder wrote bytes that are not JSON, without a note saying so`);
    }
  }
  // The preview encodes the body seven times (published + six SDKs; one above 1 MB): seven budgets.
  const preview = timed(stats, 'renderPreview', length, () => renderPreview(doc, { sdk: 'auto', freshIds: true, fresh: FRESH, redisLayout: 'laravel', redisPrefix: 'p_', target: 'redis://127.0.0.1:6379' }), 7).value;
  // The body may grow sixfold (PHP writes 😀 as \ud83d\ude00); everything else in the preview is bounded.
  assert.ok(preview.length <= 8 * length + 1_000_000, `the preview of ${length} characters is ${preview.length} long`);
}
