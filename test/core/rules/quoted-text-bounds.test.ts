/**
 * Every text that quotes a fixture's keys and values — a finding's message, the messages of the
 * findings folded into it, each quick fix's title, the hover on a key or value —
 * stays short and on one visible line, whatever the fixture holds: a 3,000-character URN, key or
 * value quoted whole made a 3,000-character line in the Problems panel and the quick-fix menu, and
 * a key holding a line break, an ESC or a bidirectional override split or reordered it.
 *
 * Each fires- fixture of test/fixtures/diagnostics (an envelope, or a registry's schema file) is
 * changed one key or value at a time (a 3,000-character run after what is written there, so a URN
 * stays a URN; the run, a line break, an ESC and U+202E before it; a number 3,000 digits long),
 * analysed with its folder's registry, every quick fix of every finding asked for, and every text
 * checked as the editor is sent it (server/convert.ts) and as `babelq` prints it
 * (cli/diagnostics.ts). Cases the change of one fixture does not reach (an uppercase URN the
 * repair lowercases, a registry's own long URN, owner, field name, enum value and pattern) are
 * written out below, with the whole of some messages, which still say what to write.
 */
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { codeActions } from '../../../core/language/code-actions';
import { complete } from '../../../core/language/complete';
import { hover } from '../../../core/language/hover';
import { consumerVerdicts, verdictLines } from '../../../core/message/acceptance';
import { whyDifferent } from '../../../core/message/difference';
import { retryNote } from '../../../core/message/retry-preview';
import { parseText } from '../../../core/parse/parser';
import type { ParsedDocument, ValueNode } from '../../../core/model/tree';
import type { RegistryState } from '../../../core/registry/types';
import { analyze } from '../../../core/rules/analyze';
import { fileDiagnostics } from '../../../core/rules/file-diagnostics';
import { DEFAULT_SETTINGS } from '../../../core/rules/settings/settings';
import { applySuppressions, readSuppressions } from '../../../core/rules/settings/suppressions-file';
import type { CoreDiagnostic } from '../../../core/rules/diagnostic';
import { actionTitle, publishedMessage } from '../../../server/convert';
import { singleLine } from '../../../cli/diagnostics';
import { loadRegistry } from '../../../workspace/registry-loader';
import { stableFresh } from '../../support/fresh';
import { memoryRegistry } from '../../support/memory-registry';

const FIXTURES_DIR = join(__dirname, '..', '..', 'fixtures', 'diagnostics');

/** The longest a quick fix's title may be, however long what it quotes (a line of the quick-fix menu). */
const TITLE_BOUND = 400;
/** The longest a message may be, however long what it quotes: the longest the contract's own explanations make one is some 800. */
const MESSAGE_BOUND = 1_000;
/** A run of the hostile text longer than a message quotes whole (a path or an id is quoted up to 200, a key or a value up to 60). */
const QUOTED_TOO_MUCH = /(?:Xx){100}|(?:xX){100}|7{200}|5{200}/;
/** Characters that split, hide or reorder a line: C0 and C1 controls, line and paragraph separators, bidirectional marks, embeddings, overrides and isolates. */
const INVISIBLE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;
/** INVISIBLE but for `\n`, which separates a hover's Markdown lines. */
const INVISIBLE_BUT_LINE_BREAKS = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;

/** A line break, an ESC and a right-to-left override, as a JSON string or key writes them. */
const HOSTILE_ESCAPED = '\\n\\u001b\\u202e';
const RUN = 'Xx'.repeat(1_500);

interface Checked {
  readonly what: string;
  readonly text: string;
}

/** Every text the analysis of `text` shows the user: messages, related messages, quick-fix titles, hovers on keys and values. */
function shownTexts(text: string, registry: RegistryState, schemaFile = false): Checked[] {
  const doc = parseText(text);
  // A registry's schema file is checked as one (pii-unmarked, misread-keyword, unenforced-keyword), an envelope as an envelope.
  const findings = schemaFile ? fileDiagnostics('schemaFile', doc, DEFAULT_SETTINGS) : analyze(doc, DEFAULT_SETTINGS, registry);
  const shown: Checked[] = [];
  for (const finding of findings) {
    shown.push({ what: `${finding.code} message`, text: finding.message });
    for (const related of finding.related ?? []) shown.push({ what: `${finding.code} related ${related.code}`, text: `${related.code}: ${related.message}` });
  }
  for (const action of codeActions(doc, findings, stableFresh(), registry)) shown.push({ what: `${action.diagnostic.code} fix`, text: action.title });
  for (const offset of hoverOffsets(doc)) {
    const found = hover(doc, offset, registry);
    if (found) shown.push({ what: `hover at ${offset}`, text: found.contents });
  }
  return shown;
}

/** One offset inside each key and each scalar value. */
function hoverOffsets(doc: ParsedDocument): number[] {
  const offsets: number[] = [];
  const stack: ValueNode[] = doc.root ? [doc.root] : [];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (node.kind === 'object') {
      for (const property of node.properties) {
        offsets.push(property.keyOffset + 1);
        if (property.value) stack.push(property.value);
      }
    } else if (node.kind === 'array') stack.push(...node.items);
    else offsets.push(node.offset + 1);
  }
  return offsets;
}

/** What is wrong with `checked` as the editor and the terminal show it; empty when nothing is. */
function problemsOf(checked: Checked): string[] {
  const problems: string[] = [];
  if (checked.what.startsWith('hover')) {
    // A hover is Markdown on several lines, escaped where it is built (core/language/markdown.ts),
    // and a registry entry's is long by itself: what it quotes of the fixture must be short.
    if (QUOTED_TOO_MUCH.test(checked.text)) problems.push(`${checked.what}: quotes 200 characters of the run: ${checked.text.slice(0, 160)}…`);
    if (INVISIBLE_BUT_LINE_BREAKS.test(checked.text)) problems.push(`${checked.what}: holds U+${checked.text.charCodeAt(checked.text.search(INVISIBLE_BUT_LINE_BREAKS)).toString(16).padStart(4, '0')}: ${JSON.stringify(checked.text.slice(0, 160))}`);
    return problems;
  }
  // A message and a title are made one visible line where they are sent: to the editor, to a terminal.
  const isTitle = checked.what.endsWith('fix');
  const bound = isTitle ? TITLE_BOUND : MESSAGE_BOUND;
  for (const form of [isTitle ? actionTitle(checked.text) : publishedMessage(checked.text), singleLine(checked.text)]) {
    if (form.length > bound) problems.push(`${checked.what}: ${form.length} characters: ${form.slice(0, 160)}…`);
    if (QUOTED_TOO_MUCH.test(form)) problems.push(`${checked.what}: quotes 200 characters of the run: ${form.slice(0, 160)}…`);
    if (INVISIBLE.test(form)) problems.push(`${checked.what}: holds U+${form.charCodeAt(form.search(INVISIBLE)).toString(16).padStart(4, '0')}: ${JSON.stringify(form.slice(0, 160))}`);
  }
  return problems;
}

interface Variant {
  readonly name: string;
  readonly text: string;
}

/** The fixture with one key or value changed at a time: a long run after it (a long URN that is still a URN), or a long run, a line break, an ESC and U+202E before it; a number 3,000 digits long. */
function variants(text: string): Variant[] {
  const doc = parseText(text);
  const out: Variant[] = [];
  const replace = (offset: number, end: number, by: string, name: string): void => {
    out.push({ name, text: `${text.slice(0, offset)}${by}${text.slice(end)}` });
  };
  const stack: ValueNode[] = doc.root ? [doc.root] : [];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (node.kind === 'object') {
      for (const property of node.properties) {
        const written = text.slice(property.keyOffset + 1, property.keyEnd - 1);
        replace(property.keyOffset + 1, property.keyEnd - 1, `${written}${RUN}`, `key ${JSON.stringify(property.key)} + run`);
        replace(property.keyOffset + 1, property.keyEnd - 1, `${RUN}${HOSTILE_ESCAPED}${written}`, `run + key ${JSON.stringify(property.key)}`);
        if (property.value) stack.push(property.value);
      }
    } else if (node.kind === 'array') stack.push(...node.items);
    else if (node.kind === 'string') {
      const written = text.slice(node.offset + 1, node.end - 1);
      replace(node.offset + 1, node.end - 1, `${written}${RUN}`, `value ${JSON.stringify(node.value)} + run`);
      replace(node.offset + 1, node.end - 1, `${RUN}${HOSTILE_ESCAPED}${written}`, `run + value ${JSON.stringify(node.value)}`);
    } else if (node.kind === 'number') {
      replace(node.offset, node.end, `${node.raw}${'7'.repeat(3_000)}`, `number ${node.raw} + digits`);
      if (!node.raw.includes('.') && !/e/i.test(node.raw)) replace(node.offset, node.end, `${node.raw}.${'5'.repeat(3_000)}`, `number ${node.raw} + fraction`);
    }
  }
  return out;
}

function registryOf(folder: string): RegistryState {
  const path = join(FIXTURES_DIR, folder, 'registry.json');
  return existsSync(path) ? loadRegistry(path, join(FIXTURES_DIR, folder)).state : { kind: 'none' };
}

describe('every fires- fixture, one key or value at a time made long and hostile', () => {
  for (const folder of readdirSync(FIXTURES_DIR).filter((name) => !name.startsWith('.')).sort()) {
    const fixtures = readdirSync(join(FIXTURES_DIR, folder)).filter((file) => file.startsWith('fires-') && (file.endsWith('.babel.json') || file.endsWith('.schema.json')));
    if (fixtures.length === 0) continue;
    test(folder, () => {
      const registry = registryOf(folder);
      const problems = new Set<string>();
      for (const file of fixtures) {
        const text = readFileSync(join(FIXTURES_DIR, folder, file), 'utf8');
        for (const variant of variants(text)) {
          for (const checked of shownTexts(variant.text, registry, file.endsWith('.schema.json'))) for (const problem of problemsOf(checked)) problems.add(`${file}, ${variant.name.slice(0, 60)}: ${problem}`);
        }
      }
      assert.deepEqual([...problems], []);
    });
  }
});

const LONG = 'a'.repeat(3_000);
const META = { id: 'f1e2d3c4-b5a6-4789-90ab-cdef01234567', queue: 'orders', lang: 'go', schema_version: 1, created_at: 1749132727000 };
const LONG_URN = `urn:babel:orders:${LONG}`;

/** A pretty-printed envelope with `patch` over its fields (an undefined field left out). */
function envelope(patch: Record<string, unknown>): string {
  return JSON.stringify({ job: 'urn:babel:orders:created', trace_id: '7b3f9c2a-e41d-4f88-9b2a-1c0d5e6f7a8b', data: { order_id: 1 }, meta: META, attempts: 0, ...patch }, null, 2);
}

/** A registry whose one entry has a 3,000-character URN, owner, field name, enum value and pattern. */
function longRegistry(): RegistryState {
  return memoryRegistry({
    'registry.json': { schemas: [{ urn: LONG_URN, schema: 'schemas/long.json', owner: `team-${LONG}`, status: 'deprecated' }] },
    'schemas/long.json': { type: 'object', required: [LONG], properties: { [LONG]: { type: 'string', enum: [`${LONG}-1`, 'x'], pattern: `^${LONG}$` }, note: { type: 'string' }, email: { type: 'string', 'x-gdpr-sensitive': true } } },
  });
}

/** The texts of `text` that match `pattern`, each checked: short, on one visible line. */
function shownMatching(text: string, registry: RegistryState, pattern: RegExp): Checked[] {
  const shown = shownTexts(text, registry);
  assert.deepEqual(shown.flatMap(problemsOf), []);
  const matching = shown.filter((checked) => pattern.test(checked.text));
  assert.ok(matching.length > 0, `nothing matches ${pattern}: ${shown.map((checked) => `${checked.what}: ${checked.text.slice(0, 100)}`).join(' | ')}`);
  return matching;
}

describe('long and hostile text the change of one fixture does not reach', () => {
  test('a 3,000-character uppercase URN: the repair names the URN it writes by its start', () => {
    const [fix] = shownMatching(envelope({ job: `URN:BABEL:ORDERS:${'A'.repeat(3_000)}` }), { kind: 'none' }, /^Trim and lowercase/);
    assert.match(fix!.text, /^Trim and lowercase the URN to "urn:babel:orders:a{39}…$/);
  });

  test('a registered 3,000-character URN: the near miss, its repair and its deprecation quote it shortened, and still say what to write', () => {
    const registry = longRegistry();
    const [unknown] = shownMatching(envelope({ job: `${LONG_URN}b` }), registry, /is not in the registry/);
    assert.match(unknown!.text, /^"urn:babel:orders:a{180}…"? is not in the registry\. Did you mean "urn:babel:orders:a{180}…"? \(deprecated\)\?$/);
    const [change] = shownMatching(envelope({ job: `${LONG_URN}b` }), registry, /^Change the URN/);
    assert.match(change!.text, /^Change the URN to "urn:babel:orders:a{180}…"? \(deprecated\)$/);
    const [deprecated] = shownMatching(envelope({ job: LONG_URN }), registry, /is deprecated in the registry/);
    assert.match(deprecated!.text, /^"urn:babel:orders:a{180}…"? is deprecated in the registry \(owner: team-a{52}…\): mint or move to its successor URN\.$/);
  });

  test('a payload against a schema with a 3,000-character field name, enum value and pattern', () => {
    const registry = longRegistry();
    shownMatching(envelope({ job: LONG_URN, data: { [LONG]: 'y' } }), registry, /must be one of|must match the pattern/);
    shownMatching(envelope({ job: LONG_URN, data: {} }), registry, /^Add the missing required data field/);
    // A number 3,000 digits long for a string: the advice to quote it, without the digits.
    const [typed] = shownMatching(envelope({ job: LONG_URN, data: { [LONG]: 'x', note: 0 } }).replace('"note": 0', `"note": ${'7'.repeat(3_000)}`), registry, /"note" must be a string/);
    assert.match(typed!.text, /^"note" must be a string, not the number 7{57}… \(out of range\); write it in quotes \(schema of urn:babel:orders:a{180}…"?\)$/);
    const [short] = shownMatching(envelope({ job: LONG_URN, data: { [LONG]: 'x', note: 42 } }), registry, /"note" must be a string/);
    assert.match(short!.text, /^"note" must be a string, not the number 42; write "42" in quotes \(schema of urn:babel:orders:a{180}…"?\)$/);
  });

  test('the hover on a registered 3,000-character URN and on a data key of that name quotes them shortened', () => {
    const registry = longRegistry();
    const text = envelope({ job: LONG_URN, data: { [LONG]: 'x' } });
    const doc = parseText(text);
    for (const offset of [text.indexOf(LONG_URN) + 5, text.indexOf(`"${LONG}":`) + 5]) {
      const shown = hover(doc, offset, registry);
      assert.ok(shown, `no hover at ${offset}`);
      assert.deepEqual(problemsOf({ what: 'hover', text: shown.contents }), []);
      assert.ok(shown.contents.length < 2_000, `${shown.contents.length} characters: ${shown.contents.slice(0, 300)}`);
    }
  });

  test('completion of a URN and of a data key from a registry with a 3,000-character URN, owner and field name: what each item says of them is short', () => {
    const registry = longRegistry();
    for (const [text, cursor] of [
      [envelope({ job: '' }), '"job": "'],
      [envelope({ job: LONG_URN, data: { '': 1 } }), '"data": {\n    "'],
    ] as const) {
      const items = complete(parseText(text), text.indexOf(cursor) + cursor.length, stableFresh(), registry);
      assert.ok(items.length > 0, `no completion after ${cursor}`);
      for (const item of items) {
        // The label is what the list filters on as it is typed, and what is written: the name whole.
        for (const [what, shown] of [['detail', item.detail ?? ''], ['documentation', item.documentation ?? '']]) {
          assert.ok(!QUOTED_TOO_MUCH.test(shown) && !/a{200}/.test(shown), `${item.label.slice(0, 40)} ${what}: ${shown.length} characters: ${shown.slice(0, 200)}`);
          assert.ok(!INVISIBLE_BUT_LINE_BREAKS.test(shown), `${what}: ${JSON.stringify(shown.slice(0, 200))}`);
        }
      }
    }
  });

  test('what each consumer does with a message, how an SDK\'s bytes differ and what a Laravel retry changes name a 3,000-character key and a 3,000-digit number shortened', () => {
    const text = envelope({ data: { [LONG]: [], n: 1.5 }, meta: { ...META, [LONG]: 1 }, [`${LONG}b`]: 1 }).replace('"n": 1.5', `"n": 1.${'1'.repeat(3_000)}`);
    const parsed = JSON.parse(text) as { data: object; meta: object };
    const other = JSON.stringify({ ...parsed, data: { ...parsed.data, [LONG]: {} }, meta: META, [`${LONG}c`]: 2 });
    const lines = [...verdictLines(consumerVerdicts(parseText(text))), whyDifferent(text, other), retryNote(text) ?? ''];
    assert.match(lines.join('\n'), /drops the keys its Envelope struct does not have: a{57}…/);
    for (const line of lines) assert.deepEqual(problemsOf({ what: 'line', text: line }), []);
    assert.match(lines.at(-2)!, /^data\.a{57}… is an object, not an array; data\.n is written 1\.1+2, not 1\.1{55}… \(the same float64, in other digits\); drops meta\.a{57}…/);
  });

  test('a suppression whose file, pointer and reason are 3,000 characters long: its findings and the expired finding it leaves quote them shortened', () => {
    const suppressions = readSuppressions(JSON.stringify({ suppressions: [{ file: `a/${LONG}.babel.json`, code: 'forbidden-key', pointer: `/meta/${LONG}` }] }));
    const findings = fileDiagnostics('suppressionsFile', { file: suppressions, stale: suppressions.entries }, DEFAULT_SETTINGS);
    assert.deepEqual(findings.map((finding) => finding.code).sort(), ['stale-suppression', 'unexplained-suppression']);
    for (const finding of findings) assert.deepEqual(problemsOf({ what: `${finding.code} message`, text: finding.message }), []);
    const expiring = readSuppressions(JSON.stringify({ suppressions: [{ file: 'a.babel.json', code: 'forbidden-key', pointer: '/meta/ts', reason: `legacy ${LONG}`, until: '2025-12-31' }] }));
    const finding: CoreDiagnostic = { code: 'forbidden-key', severity: 'error', message: '"meta.ts" is forbidden.', offset: 0, end: 1 };
    const [kept] = applySuppressions([finding], () => '/meta/ts', expiring.entries, '2026-01-01').kept;
    assert.match(kept!.message, /^"meta\.ts" is forbidden\. \(Its suppression expired on 2025-12-31: "legacy a{50,}…"\.\)$/);
    assert.deepEqual(problemsOf({ what: 'message', text: kept!.message }), []);
  });

  test('registry.json and its schemas with a 3,000-character URN, "$schema", pattern and key: the registry\'s findings and the schemas\' errors quote them shortened', () => {
    const upper = `urn:babel:orders:${'A'.repeat(3_000)}`;
    const registry = memoryRegistry({
      'registry.json': { schemas: [
        { urn: upper, schema: 'schemas/a.json', owner: 'o', status: 'active' },
        { urn: LONG_URN, schema: 'schemas/b.json', owner: 'o', status: 'active' },
        { urn: LONG_URN, schema: 'schemas/b.json', owner: 'o', status: 'active' },
        { urn: 'urn:babel:orders:c', schema: 'schemas/c.json', owner: 'o', status: 'active' },
        { urn: 'urn:babel:orders:d', schema: 'schemas/d.json', owner: 'o', status: 'active' },
      ] },
      'schemas/a.json': { $schema: `http://json-schema.org/${LONG}`, type: 'object' },
      'schemas/b.json': { type: 'object', properties: { [LONG]: { type: 'string', pattern: `(${LONG}` } } },
      'schemas/c.json': { type: 'object', properties: { [LONG]: { type: 'string', minLength: `x${LONG}` } } },
      'schemas/d.json': { type: 'object', properties: { [LONG]: { type: LONG } } },
    });
    const findings = fileDiagnostics('registryFile', registry, DEFAULT_SETTINGS);
    for (const urn of ['urn:babel:orders:c', 'urn:babel:orders:d', upper, LONG_URN]) findings.push(...analyze(parseText(envelope({ job: urn })), DEFAULT_SETTINGS, registry));
    const messages = findings.filter((finding) => finding.code === 'registry-error').map((finding) => finding.message);
    assert.ok(messages.length >= 5, messages.map((message) => message.slice(0, 120)).join(' | '));
    for (const message of messages) {
      assert.deepEqual(problemsOf({ what: 'registry-error message', text: message }), []);
      assert.ok(!/[aA]{200}/.test(message), `${message.length} characters: ${message.slice(0, 300)}`);
    }
  });

  test('a money-like data key 3,000 characters long holding a float: the minor-units fix names the key it writes by its start and its suffix', () => {
    const [fix] = shownMatching(envelope({ data: { [`${LONG}_amount`]: 1.5 } }), { kind: 'none' }, /^Convert to integer minor units/);
    assert.match(fix!.text, /^Convert to integer minor units: "a{57}…_cents": 150$/);
  });

  test('a meta key, a data key and a top-level key 3,000 characters long, and a time 3,000 characters long', () => {
    shownMatching(envelope({ meta: { ...META, [LONG]: 1 } }), { kind: 'none' }, /a{30}…/);
    shownMatching(envelope({ [LONG]: 1 }), { kind: 'none' }, /a{30}…/);
    shownMatching(envelope({ data: { [`${LONG}_at`]: '2025-06-05 14:12:07' } }), { kind: 'none' }, /a{30}…/);
    shownMatching(envelope({ data: { created_at: `2025-06-05 14:12:07${LONG}` } }), { kind: 'none' }, /created_at/);
  });

  test('a key holding a line break, an ESC or U+202E: the editor and the terminal are sent its escapes, and the fix still names it', () => {
    const text = envelope({ meta: { ...META, queue: undefined, 'queue\u202e': 'orders' }, data: { 'a\nb\u001bc\u202ed': 1 } });
    const [rename] = shownMatching(text, { kind: 'none' }, /^Rename "queue\u202e" to "queue"$/);
    assert.equal(actionTitle(rename!.text), 'Rename "queue\\u202e" to "queue"');
    const [missing] = shownMatching(text, { kind: 'none' }, /^Missing required field "meta\.queue"/);
    assert.equal(publishedMessage(missing!.text), 'Missing required field "meta.queue": "meta.queue\\u202e" is not "queue": keys match exactly, so every SDK reads it as an unknown key and finds no "queue". Rename it to "queue".');
    assert.equal(singleLine(missing!.text), publishedMessage(missing!.text));
  });
});
