/**
 * A message that quotes a key or a value of the fixture quotes it shortened when it is long: a
 * 100,000-character key quoted in full (twice, where a carried finding quotes it too) made a
 * 100 KB message in every editor hover, Problems panel, terminal and GitHub annotation. The
 * quoted part keeps its start and says it was cut; the finding still sits on the whole key or value.
 * The project's own files (babelq.json, babelq-suppressions.json) quote their keys and values so too.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseText } from '../../../core/parse/parser';
import { analyze } from '../../../core/rules/analyze';
import { NO_REGISTRY } from '../../../core/registry/types';
import { readProjectConfig } from '../../../core/rules/settings/project-config';
import { readSuppressions } from '../../../core/rules/settings/suppressions-file';
import { DEFAULT_SETTINGS } from '../../../core/rules/settings/settings';
import { asObject } from '../../../core/model/tree';
import { piiUnmarkedFindings } from '../../../core/rules/registry/pii-unmarked';
import { compatibilityBreaks } from '../../../core/rules/registry/breaking-change';
import { literalMisreads } from '../../../core/rules/registry/schema-literals';
import { codeActions } from '../../../core/language/code-actions';
import { hover } from '../../../core/language/hover';
import { memoryRegistry } from '../../support/memory-registry';
import { stableFresh } from '../../support/fresh';

const LONG = 'a'.repeat(100_000);
/** What a message keeps of LONG: its start, then the mark of a cut. */
const SHOWN_START = 'a'.repeat(30);

const META = { id: 'f1e2d3c4-b5a6-4789-90ab-cdef01234567', queue: 'orders', lang: 'go', schema_version: 1, created_at: 1749132727000 };
const ENVELOPE = { job: 'urn:babel:orders:created', trace_id: '7b3f9c2a-e41d-4f88-9b2a-1c0d5e6f7a8b', data: { order_id: 1 } as Record<string, unknown>, meta: META as Record<string, unknown>, attempts: 0 };
const DEAD_LETTER = { reason: 'failed', failed_at: 1749132727000, original_queue: 'orders', error: 'x' };

/** Each case: a fixture, the code whose message quotes LONG, and the text its finding sits on (without quotes), as for a short key or value. */
const CASES: readonly { name: string; code: string; on: string; text: string }[] = [
  { name: 'an extra meta key (and the extension-key it carries)', code: 'encoding-divergence', on: LONG, text: json({ ...ENVELOPE, meta: { ...META, [LONG]: 1 } }) },
  { name: 'an unknown top-level key', code: 'encoding-divergence', on: LONG, text: json({ ...ENVELOPE, [LONG]: 1 }) },
  { name: 'an unknown dead_letter key', code: 'encoding-divergence', on: LONG, text: json({ ...ENVELOPE, dead_letter: { ...DEAD_LETTER, [LONG]: 1 } }) },
  { name: 'a money-like data key holding a float', code: 'float-currency', on: '1.5', text: json({ ...ENVELOPE, data: { [`${LONG}_amount`]: 1.5 } }) },
  { name: 'a boolean-like data key holding a string', code: 'non-json-boolean', on: 'true', text: json({ ...ENVELOPE, data: { [`is_${LONG}`]: 'true' } }) },
  { name: 'a time-like data key without an offset', code: 'non-iso-time', on: '2025-06-05 14:12:07', text: json({ ...ENVELOPE, data: { [`${LONG}_at`]: '2025-06-05 14:12:07' } }) },
  { name: 'a repeated data key', code: 'duplicate-key', on: LONG, text: json({ ...ENVELOPE, data: { [LONG]: 1 } }).replace('"data": {', `"data": {\n    "${LONG}": 2,`) },
  { name: 'a meta.lang that is no SDK', code: 'unknown-lang', on: LONG, text: json({ ...ENVELOPE, meta: { ...META, lang: LONG } }) },
  { name: 'a dead_letter.reason that is none of the reasons', code: 'invalid-value', on: LONG, text: json({ ...ENVELOPE, dead_letter: { ...DEAD_LETTER, reason: LONG } }) },
  { name: 'an original_queue that is not meta.queue', code: 'original-queue-mismatch', on: LONG, text: json({ ...ENVELOPE, dead_letter: { ...DEAD_LETTER, original_queue: LONG } }) },
  { name: 'a second spelling of job that Go routes on', code: 'encoding-divergence', on: 'Job', text: json({ ...ENVELOPE, job: `urn:babel:orders:${LONG}` }).replace('"trace_id"', '"Job": "urn:babel:orders:other",\n  "trace_id"') },
];

function json(value: object): string {
  return JSON.stringify(value, null, 2);
}

for (const { name, code, on, text } of CASES) {
  test(`${name}: ${code} quotes it shortened, and still sits on all of it`, () => {
    const findings = analyze(parseText(text), DEFAULT_SETTINGS, NO_REGISTRY);
    const quoting = findings.filter((finding) => [finding, ...(finding.related ?? [])].some((one) => one.code === code && one.message.includes(SHOWN_START)));
    assert.ok(quoting.length > 0, `no ${code} quoting the long text: ${findings.map((finding) => finding.code).join(', ')}`);
    for (const finding of quoting) {
      for (const { message } of [finding, ...(finding.related ?? [])]) {
        assert.ok(message.length < 1_000, `${message.length} characters: ${message.slice(0, 300)}`);
        if (message.includes(SHOWN_START)) assert.match(message, /a…/);
      }
      // The range is on the whole key or value, as for a short one.
      assert.equal(text.slice(finding.offset, finding.end).replace(/^"|"$/g, ''), on, `the range covers ${finding.end - finding.offset} characters`);
    }
  });
}

/** The problems of a project file that quote LONG: each short, and on the whole key or value. */
function assertQuotedShort(text: string, problems: readonly { offset: number; end: number; message: string }[], on: string): void {
  const quoting = problems.filter((problem) => problem.message.includes(SHOWN_START));
  assert.ok(quoting.length > 0, `no problem quoting the long text: ${problems.map((problem) => problem.message.slice(0, 80)).join(' | ')}`);
  for (const problem of quoting) {
    assert.ok(problem.message.length < 1_000, `${problem.message.length} characters: ${problem.message.slice(0, 300)}`);
    assert.match(problem.message, /a…/);
    assert.equal(text.slice(problem.offset, problem.end).replace(/^"|"$/g, ''), on);
  }
}

test('babelq.json: an unknown key (at the top, in an override, a code in "severity"), one set twice, and a glob leaving the folder are quoted shortened', () => {
  for (const text of [json({ [LONG]: 1 }), json({ overrides: [{ files: ['a/**'], [LONG]: 1 }] }), `{ "severity": { "${LONG}": "off", "${LONG}": "off" } }`]) {
    assertQuotedShort(text, readProjectConfig(text).problems, LONG);
  }
  const glob = json({ ignore: [`/${LONG}`] });
  assertQuotedShort(glob, readProjectConfig(glob).problems, `/${LONG}`);
});

test('babelq-suppressions.json: an unknown key, a file and a code it quotes are shortened', () => {
  const entry = { file: 'a.babel.json', code: 'forbidden-key', pointer: '/meta/ts', reason: 'legacy' };
  assertQuotedShort(json({ suppressions: [], [LONG]: 1 }), readSuppressions(json({ suppressions: [], [LONG]: 1 })).problems, LONG);
  assertQuotedShort(json({ suppressions: [{ ...entry, [LONG]: 1 }] }), readSuppressions(json({ suppressions: [{ ...entry, [LONG]: 1 }] })).problems, LONG);
  assertQuotedShort(json({ suppressions: [{ ...entry, code: LONG }] }), readSuppressions(json({ suppressions: [{ ...entry, code: LONG }] })).problems, LONG);
  assertQuotedShort(json({ suppressions: [{ ...entry, file: `/${LONG}` }] }), readSuppressions(json({ suppressions: [{ ...entry, file: `/${LONG}` }] })).problems, `/${LONG}`);
});

test('schema files: pii-unmarked, breaking-change and misread-keyword quote a long key or value shortened, on the whole of it', () => {
  const piiKey = `${LONG}_email`;
  const pii = json({ type: 'object', properties: { [piiKey]: { type: 'string' } } });
  assertQuotedShort(pii, piiUnmarkedFindings(asObject(parseText(pii).root)), piiKey);

  const base = json({ type: 'object', additionalProperties: false, properties: { [LONG]: { type: 'string' }, kept: { enum: [LONG, 'x'] } } });
  const current = json({ type: 'object', additionalProperties: false, required: [LONG], properties: { kept: { enum: ['x'] } } });
  const breaks = compatibilityBreaks(parseText(base).root, parseText(current).root).map((found) => ({ ...found, message: `${found.reason}${found.path ? ` (at ${found.path})` : ''}` }));
  assert.ok(breaks.filter((found) => found.message.includes(SHOWN_START)).length >= 3, breaks.map((found) => found.message.slice(0, 80)).join(' | '));
  for (const found of breaks) {
    assert.ok(found.message.length < 1_000, `${found.message.length} characters: ${found.message.slice(0, 300)}`);
    if (found.message.includes(SHOWN_START)) assert.match(found.message, /a…/);
  }
  // The path of a field below a long key is shortened as well.
  const nestedBase = json({ properties: { [LONG]: { properties: { n: { type: 'string' } } } } });
  const nestedCurrent = json({ properties: { [LONG]: { properties: { n: { type: 'integer' } } } } });
  const [nested] = compatibilityBreaks(parseText(nestedBase).root, parseText(nestedCurrent).root);
  assert.ok(nested.path.length < 100 && nested.path.endsWith('….n'), nested.path.slice(0, 100));

  const misreads = json({ type: LONG, minLength: LONG });
  const stringSchema = json({ type: 'string', minLength: LONG });
  const found = [...literalMisreads(asObject(parseText(misreads).root)!, LONG), ...literalMisreads(asObject(parseText(stringSchema).root)!, 'string')];
  assert.equal(found.length, 2);
  for (const { message } of found) {
    assert.ok(message.length < 1_000, `${message.length} characters: ${message.slice(0, 300)}`);
    assert.match(message, /a…/);
  }
});

test('a URN of 100,000 characters is quoted by its start: unknown-urn, deprecated-urn, registry-error (a registry entry whose schema cannot be used, a URN breaking the naming rules, a duplicate) and the fix that changes it', () => {
  const urn = `urn:babel:orders:${LONG}`;
  const near = `urn:babel:orders:${LONG}b`;
  const registry = memoryRegistry({
    'schemas/missing.json': 'not json',
    'registry.json': { schemas: [
      { urn: near, schema: 'schemas/missing.json', status: 'deprecated', owner: LONG },
      { urn: `URN:BAD ${LONG}`, schema: 'schemas/missing.json' },
      { urn: `URN:BAD ${LONG}`, schema: 'schemas/missing.json' },
    ] },
  });
  assert.equal(registry.kind, 'loaded');
  if (registry.kind !== 'loaded') return;
  const messages = registry.registry.problems.map((problem) => problem.message);
  assert.ok(messages.some((message) => /^The URN "URN:BAD a+…" breaks the naming rules/.test(message)), messages.map((m) => m.slice(0, 100)).join('\n'));
  assert.ok(messages.some((message) => /^Duplicate URN "URN:BAD a+…"/.test(message)));
  const unknown = analyze(parseText(json({ ...ENVELOPE, job: urn })), DEFAULT_SETTINGS, registry);
  const known = analyze(parseText(json({ ...ENVELOPE, job: near })), DEFAULT_SETTINGS, registry);
  const findings = [...unknown, ...known].filter((finding) => ['unknown-urn', 'deprecated-urn', 'registry-error'].includes(finding.code));
  assert.deepEqual([...new Set(findings.map((finding) => finding.code))].sort(), ['deprecated-urn', 'registry-error', 'unknown-urn']);
  for (const message of [...messages, ...findings.map((finding) => finding.message)]) {
    assert.ok(message.length < 1_000, `${message.length} characters: ${message.slice(0, 200)}`);
  }
  const fixes = codeActions(parseText(json({ ...ENVELOPE, job: urn })), unknown.filter((finding) => finding.code === 'unknown-urn'), stableFresh(), registry);
  assert.ok(fixes.some((fix) => fix.title.startsWith('Change the URN to "urn:babel:orders:aaa')), JSON.stringify(fixes.map((fix) => fix.title.slice(0, 80))));
  for (const fix of fixes) assert.ok(fix.title.length < 1_000, `${fix.title.length} characters`);
});

test('a registered URN of 100,000 characters is quoted by its start in payload-schema, and in the hovers of the URN and of a data key', () => {
  const urn = `urn:babel:orders:${LONG}`;
  const registry = memoryRegistry({
    'schemas/order.json': { type: 'object', required: ['order_id'], properties: { order_id: { type: 'string' } } },
    'registry.json': { schemas: [{ urn, schema: 'schemas/order.json' }] },
  });
  const text = json({ ...ENVELOPE, job: urn, data: { order_id: 1 } });
  const findings = analyze(parseText(text), DEFAULT_SETTINGS, registry).filter((finding) => finding.code === 'payload-schema');
  assert.equal(findings.length, 1, JSON.stringify(findings.map((finding) => finding.code)));
  assert.match(findings[0].message, /\(schema of urn:babel:orders:a+…\)/);
  assert.ok(findings[0].message.length < 1_000, `${findings[0].message.length} characters`);
  for (const offset of [text.indexOf('urn:babel') + 5, text.indexOf('"order_id"') + 3]) {
    const shown = hover(parseText(text), offset, registry)?.contents ?? '';
    assert.match(shown, /urn:babel:orders:a+…/);
    assert.ok(shown.length < 2_000, `${shown.length} characters`);
  }
});
