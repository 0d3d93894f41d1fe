/**
 * No noise: one token, one finding (core/rules/same-cause.ts), a limit note as information on the
 * `data` key, and the examples the examples README calls valid linting clean.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { codeActions } from '../../../core/language/code-actions';
import { parseText } from '../../../core/parse/parser';
import { analyze } from '../../../core/rules/analyze';
import { SAME_CAUSE } from '../../../core/rules/same-cause';
import { DEFAULT_SETTINGS } from '../../../core/rules/settings/settings';
import { loadRegistry } from '../../../workspace/registry-loader';
import { stableFresh } from '../../support/fresh';

const ROOT = join(__dirname, '..', '..', '..');
const EXAMPLES = join(ROOT, 'examples');
const registry = loadRegistry(join(EXAMPLES, 'registry.json'), EXAMPLES).state;
const order = readFileSync(join(EXAMPLES, 'orders/order-created.babel.json'), 'utf8');

test('a number beyond 2^53: unsafe-integer carries the encoders\' divergence; turned off, the divergence shows on its own', () => {
  const text = order.replace('"order_id": 1042', '"order_id": 9007199254740993');
  const found = analyze(parseText(text), DEFAULT_SETTINGS, registry);
  const onToken = found.filter((d) => text.slice(d.offset, d.end) === '9007199254740993');
  assert.deepEqual(onToken.map((d) => d.code), ['unsafe-integer']);
  assert.deepEqual(onToken[0].related?.map((r) => r.code), ['encoding-divergence']);
  const off = analyze(parseText(text), { ...DEFAULT_SETTINGS, severityOverrides: new Map([['unsafe-integer', 'off']]) }, registry);
  assert.deepEqual(off.filter((d) => text.slice(d.offset, d.end) === '9007199254740993').map((d) => d.code), ['encoding-divergence']);
});

test('money written as an integral float: float-currency carries the encoders\' divergence, whose cause its fix removes', () => {
  // `10.0` and `1e3` are floats (float-currency) that Python and Java write otherwise (encoding-divergence):
  // one literal, one cause, and the float-currency fix (minor units or a string) ends both.
  for (const literal of ['10.0', '1e3', '-0.0']) {
    const text = order.replace('"total_cents": 11890', `"total": ${literal}`);
    assert.notEqual(text, order);
    const doc = parseText(text);
    const onToken = analyze(doc, DEFAULT_SETTINGS, registry).filter((d) => d.offset === text.indexOf(`"total": ${literal}`) + '"total": '.length);
    assert.deepEqual(onToken.map((d) => d.code), ['float-currency'], literal);
    assert.deepEqual(onToken[0].related?.map((r) => r.code), ['encoding-divergence'], literal);
    assert.ok(codeActions(doc, onToken, stableFresh(), registry).some((action) => /decimal string/.test(action.title)), literal);
  }
});

test('a malformed URN: invalid-urn carries unknown-urn, and both codes\' fixes are offered', () => {
  const text = order.replace('"urn:babel:orders:created"', '" URN:babel:orders:created"');
  const doc = parseText(text);
  const found = analyze(doc, DEFAULT_SETTINGS, registry);
  const onJob = found.filter((d) => text.slice(d.offset, d.end) === '" URN:babel:orders:created"');
  assert.deepEqual(onJob.map((d) => d.code), ['invalid-urn']);
  assert.deepEqual(onJob[0].related?.map((r) => r.code), ['unknown-urn']);
  const titles = codeActions(doc, onJob, stableFresh(), registry).map((action) => action.title);
  assert.ok(titles.some((title) => /Trim and lowercase/.test(title)), titles.join('; '));
  assert.ok(titles.some((title) => title === 'Change the URN to "urn:babel:orders:created"'), titles.join('; '));
  // A team that lowers invalid-urn below unknown-urn's warning sees the warning shown, carrying the
  // hint: the token's strongest severity is shown, and so counted by an exit status.
  const lowered = analyze(parseText(text), { ...DEFAULT_SETTINGS, severityOverrides: new Map([['invalid-urn', 'hint']]) }, registry);
  const onJobLowered = lowered.filter((d) => text.slice(d.offset, d.end) === '" URN:babel:orders:created"');
  assert.deepEqual(onJobLowered.map((d) => [d.code, d.severity]), [['unknown-urn', 'warning']]);
  assert.deepEqual(onJobLowered[0].related?.map((r) => [r.code, r.severity]), [['invalid-urn', 'hint']]);
});

test('three findings on one key ("Attempts" for a missing attempts): whichever the settings show, it carries the other two', () => {
  const text = order.replace(/"attempts": 0/, '"Attempts": 0');
  assert.notEqual(text, order);
  const onKey = (overrides: [string, string][]) =>
    analyze(parseText(text), { ...DEFAULT_SETTINGS, severityOverrides: new Map(overrides) as typeof DEFAULT_SETTINGS.severityOverrides }, registry).filter((d) => text.slice(d.offset, d.end) === '"Attempts"');
  const codesOf = (found: ReturnType<typeof onKey>) => found.flatMap((d) => [d.code, ...(d.related ?? []).map((r) => r.code)]).sort();
  assert.deepEqual(codesOf(onKey([])), ['case-mismatch', 'encoding-divergence', 'missing-field']);
  // missing-field folds in encoding-divergence first (equal severities), then is itself carried by
  // case-mismatch, set above it: what it carried must go along, not vanish.
  const lowered = onKey([['missing-field', 'information'], ['encoding-divergence', 'information'], ['case-mismatch', 'warning']]);
  assert.deepEqual(lowered.map((d) => [d.code, d.severity]), [['case-mismatch', 'warning']]);
  assert.deepEqual(codesOf(lowered), ['case-mismatch', 'encoding-divergence', 'missing-field']);
});

test('a boolean written as 0 against a boolean schema field: payload-schema carries non-json-boolean and its fix', () => {
  const text = order.replace('"is_gift": false', '"is_gift": 0');
  const doc = parseText(text);
  const found = analyze(doc, DEFAULT_SETTINGS, registry);
  const onValue = found.filter((d) => d.offset === text.indexOf('"is_gift": 0') + '"is_gift": '.length);
  assert.deepEqual(onValue.map((d) => d.code), ['payload-schema']);
  assert.deepEqual(onValue[0].related?.map((r) => r.code), ['non-json-boolean']);
  assert.ok(codeActions(doc, onValue, stableFresh(), registry).some((action) => action.title === 'Write the JSON boolean false'));
});

test('an extra meta key, as the contract lets producers write it: one information finding, the relay drop, carrying the extension-key hint; no warning', () => {
  const text = order.replace('"lang": "node",', '"lang": "node", "tenant_id": "t-42",');
  assert.notEqual(text, order);
  const found = analyze(parseText(text), DEFAULT_SETTINGS, registry);
  const onKey = found.filter((d) => text.slice(d.offset, d.end) === '"tenant_id"');
  assert.deepEqual(onKey.map((d) => [d.code, d.severity]), [['encoding-divergence', 'information']]);
  assert.deepEqual(onKey[0].related?.map((r) => r.code), ['extension-key']);
  assert.match(onKey[0].related![0].message, /the contract advises vendor keys under "meta\.ext\.<vendor>"/);
  assert.deepEqual(found.filter((d) => d.severity === 'error' || d.severity === 'warning').map((d) => d.code), []);
  // A team that raises extension-key above information sees it shown, carrying the relay drop.
  const raised = analyze(parseText(text), { ...DEFAULT_SETTINGS, severityOverrides: new Map([['extension-key', 'warning']]) }, registry);
  const onKeyRaised = raised.filter((d) => text.slice(d.offset, d.end) === '"tenant_id"');
  assert.deepEqual(onKeyRaised.map((d) => [d.code, d.severity]), [['extension-key', 'warning']]);
  assert.deepEqual(onKeyRaised[0].related?.map((r) => [r.code, r.severity]), [['encoding-divergence', 'information']]);
});

test('"did you mean" offers active URNs first, a deprecated one last and marked, and never as the obvious fix', () => {
  const text = order.replace('"urn:babel:orders:created"', '"urn:babel:orders:creatd"');
  const doc = parseText(text);
  const unknown = analyze(doc, DEFAULT_SETTINGS, registry).filter((d) => d.code === 'unknown-urn');
  assert.match(unknown[0].message, /Did you mean "urn:babel:orders:created", .*"urn:babel:orders:placed" \(deprecated\)\?/);
  const actions = codeActions(doc, unknown, stableFresh(), registry);
  assert.equal(actions[actions.length - 1].title, 'Change the URN to "urn:babel:orders:placed" (deprecated)');
  assert.ok(actions.every((action) => !action.isPreferred));
});

test('a missing required data field: one fix adds every missing one with type-correct example values, and the result passes the schema', () => {
  const text = order.replace(/\n\s*"currency": "EUR",/, '').replace(/\n\s*"total_cents": \d+,/, '');
  const doc = parseText(text);
  const missing = analyze(doc, DEFAULT_SETTINGS, registry).filter((d) => d.code === 'payload-schema');
  assert.ok(missing.length >= 2, missing.map((d) => d.message).join('; '));
  const fix = codeActions(doc, missing, stableFresh(), registry).find((action) => action.title.startsWith('Add the missing required data fields'));
  assert.ok(fix, 'the fix is offered');
  const edit = fix.edits[0];
  const fixed = text.slice(0, edit.offset) + edit.newText + text.slice(edit.end);
  assert.deepEqual(analyze(parseText(fixed), DEFAULT_SETTINGS, registry).filter((d) => d.code === 'payload-schema').map((d) => d.message), []);
  assert.ok(!fix.isPreferred, 'example values are never applied by --fix');
});

test('a payload above 20,000 values with one wrong value: one error on that value, and the limit is information on the data key', () => {
  const items = Array.from({ length: 7_000 }, (_, i) => `{ "sku": "SKU-${i}", "quantity": 1, "unit_price_cents": 100 }`);
  items[3_500] = '{ "sku": "SKU-x", "quantity": "one", "unit_price_cents": 100 }';
  const text = order.replace(/"items": \[[\s\S]*?\]/, `"items": [${items.join(', ')}]`);
  const doc = parseText(text);
  const found = analyze(doc, DEFAULT_SETTINGS, registry).filter((d) => d.code === 'payload-schema');
  const dataKey = text.indexOf('"data"');
  assert.deepEqual(found.map((d) => d.severity).sort(), ['error', 'information']);
  const note = found.find((d) => d.severity === 'information')!;
  assert.deepEqual([note.offset, note.end], [dataKey, dataKey + '"data"'.length]);
  assert.match(note.message, /validation stopped at the first error/);
  const error = found.find((d) => d.severity === 'error')!;
  assert.equal(text.slice(error.offset, error.end), '"one"');
});

test('an inner object left open where the layout does not say where it ends: the syntax error on the envelope\'s "{" carries the fields it swallowed, one finding there', () => {
  // data's "}" is missing, so meta and attempts parse as data's keys and the root is never closed:
  // the root lacks meta and attempts only because of that one error. data's keys share its line,
  // so no indentation tells which keys were the envelope's.
  const text = [
    '{',
    '  "job": "urn:babel:orders:created",',
    '  "trace_id": "7b3f9c2a-e41d-4f88-9b2a-1c0d5e6f7a8b",',
    '  "data": { "order_id": 1042,',
    '  "meta": { "id": "f1e2d3c4-b5a6-4789-90ab-cdef01234567", "queue": "orders", "lang": "php", "schema_version": 1, "created_at": 1749132727000 },',
    '  "attempts": 0',
    '}',
  ].join('\n');
  const found = analyze(parseText(text), DEFAULT_SETTINGS, registry);
  const onRoot = found.filter((d) => d.offset === 0 && d.end === 1);
  assert.deepEqual(onRoot.map((d) => d.code), ['json-syntax']);
  assert.match(onRoot[0].message, /never closed/);
  assert.deepEqual(onRoot[0].related?.map((r) => `${r.code}: ${/"([a-z_]+)"/.exec(r.message)?.[1]}`), ['missing-field: attempts', 'missing-field: meta']);
});

test('an inner object left open, pretty-printed: the keys back at the envelope\'s indentation are the envelope\'s, one finding where its "}" belongs', () => {
  const text = [
    '{',
    '  "job": "urn:babel:orders:created",',
    '  "trace_id": "7b3f9c2a-e41d-4f88-9b2a-1c0d5e6f7a8b",',
    '  "data": {',
    '    "order_id": 1042,',
    '  "meta": { "id": "f1e2d3c4-b5a6-4789-90ab-cdef01234567", "queue": "orders", "lang": "php", "schema_version": 1, "created_at": 1749132727000 },',
    '  "attempts": 0',
    '}',
  ].join('\n');
  const found = analyze(parseText(text), DEFAULT_SETTINGS, registry);
  // meta and attempts are the envelope's: nothing is missing from it (data's payload lacks its own fields in this text).
  assert.deepEqual(found.filter((d) => d.code !== 'payload-schema').map((d) => `${d.code} ${text.slice(d.offset, d.end)}`), ['json-syntax ,']);
  const syntax = found.find((d) => d.code === 'json-syntax')!;
  assert.equal(syntax.offset, text.indexOf('1042,') + 4);
  assert.match(syntax.message, /Expected '\}' before this comma/);
  assert.ok(found.every((d) => d.code === 'json-syntax' || (text.slice(d.offset, d.end) === '"data"' && /missing required field/.test(d.message))), found.map((d) => d.message).join('\n'));
});

test('a "}" too many after the envelope\'s last value, its keys after it: one finding on that "}", and the keys after it are the envelope\'s', () => {
  const early = ['{', '  "job": "urn:babel:orders:created",', '  "data": { "order_id": 1042 } },', '  "meta": { "id": "f1e2d3c4-b5a6-4789-90ab-cdef01234567", "queue": "orders", "lang": "php", "schema_version": 1, "created_at": 1749132727000 },', '  "attempts": 0', '}'].join('\n');
  const found = analyze(parseText(early), DEFAULT_SETTINGS);
  // trace_id is missing in its own right (it is nowhere in the file); meta and attempts are read.
  assert.deepEqual(found.map((d) => `${d.code} ${early.slice(d.offset, d.end)}`), ['missing-field {', 'json-syntax }']);
  assert.equal(found[1].offset, early.indexOf('} },') + 2);
  assert.equal(found[1].related, undefined);
});

test('a "}" too many inside an inner object closes the envelope early: the text after it carries the fields it holds, and only those', () => {
  // The keys after the stray "}" are indented as the inner object's: the "}" that closed the envelope is that object's own.
  const early = ['{', '  "job": "urn:babel:orders:created",', '  "data": {', '    "order_id": 1042 },', '    "note": "x"', '  },', '  "meta": { "id": "f1e2d3c4-b5a6-4789-90ab-cdef01234567", "queue": "orders", "lang": "php", "schema_version": 1, "created_at": 1749132727000 },', '  "attempts": 0', '}'].join('\n');
  const found = analyze(parseText(early), DEFAULT_SETTINGS);
  // trace_id is missing in its own right (it is nowhere in the file): shown, not carried.
  assert.deepEqual(found.map((d) => `${d.code} ${early.slice(d.offset, d.end)}`), ['missing-field {', 'json-syntax ,']);
  assert.match(found[0].message, /"trace_id"/);
  assert.deepEqual(found[1].related?.map((r) => `${r.code}: ${/"([a-z_]+)"/.exec(r.message)?.[1]}`), ['missing-field: attempts', 'missing-field: meta']);
  // A second envelope after the first is no early close: the first one's missing fields stay its own.
  const second = `{ "job": "urn:babel:orders:created" }\n${early}`;
  const onFirst = analyze(parseText(second), DEFAULT_SETTINGS).filter((d) => d.code === 'missing-field');
  assert.equal(onFirst.length, 4);
  assert.ok(onFirst.every((d) => d.offset === 0 && !d.related));
});

test('a "}" too many, with json-syntax lowered to a warning: the missing fields stay errors of their own, not hidden behind the warning', () => {
  const early = ['{', '  "job": "urn:babel:orders:created",', '  "trace_id": "7b3f9c2a-e41d-4f88-9b2a-1c0d5e6f7a8b",', '  "data": {', '    "order_id": 1042 },', '    "note": "x"', '  },', '  "meta": { "id": "f1e2d3c4-b5a6-4789-90ab-cdef01234567", "queue": "orders", "lang": "php", "schema_version": 1, "created_at": 1749132727000 },', '  "attempts": 0', '}'].join('\n');
  const lowered = { ...DEFAULT_SETTINGS, severityOverrides: new Map([['json-syntax', 'warning']]) } as typeof DEFAULT_SETTINGS;
  const found = analyze(parseText(early), lowered);
  // The finding shown is what babelq lint's exit status counts: an error carried by a warning would pass a lint that fails without the setting.
  assert.deepEqual(found.map((d) => `${d.severity} ${d.code} ${early.slice(d.offset, d.end)}`).sort(), ['error missing-field {', 'error missing-field {', 'warning json-syntax ,']);
  assert.ok(!found.some((d) => d.related?.some((r) => r.severity === 'error')));
});

test('every example the examples README calls valid (orders/, billing/, identity/) lints clean, with the registry', () => {
  for (const folder of ['orders', 'billing', 'identity']) {
    for (const name of readdirSync(join(EXAMPLES, folder)).filter((file) => file.endsWith('.babel.json'))) {
      const found = analyze(parseText(readFileSync(join(EXAMPLES, folder, name), 'utf8')), DEFAULT_SETTINGS, registry).filter((d) => d.severity === 'error' || d.severity === 'warning');
      assert.deepEqual(found.map((d) => `${d.code}: ${d.message}`), [], `${folder}/${name}`);
    }
  }
});

test('docs/diagnostics.md names every pair of codes that one finding carries, and no other', () => {
  const catalogue = readFileSync(join(ROOT, 'docs', 'diagnostics.md'), 'utf8').replace(/\s+/g, ' ');
  const list = /one token, one finding: (.*?)\) has, after `range`/.exec(catalogue)?.[1];
  assert.ok(list, 'the paragraph of --format json lists the same-cause pairs');
  const documented = new Set<string>();
  for (const clause of list.split(', ')) {
    const [first, ...others] = [...clause.matchAll(/`([a-z-]+)`/g)].map((match) => match[1]);
    assert.match(clause, /^`[a-z-]+` with `[a-z-]+`( or `[a-z-]+`)*$/, clause);
    for (const other of others) documented.add([first, other].sort().join(' + '));
  }
  assert.deepEqual([...documented].sort(), SAME_CAUSE.map((pair) => [...pair].sort().join(' + ')).sort());
});

test('a value a syntax error is in: json-syntax carries the payload-schema finding on the same token', () => {
  const cancelled = readFileSync(join(EXAMPLES, 'orders/order-cancelled.babel.json'), 'utf8');
  const text = cancelled.replace('"currency": "EUR"', "\"currency\": 'XYZ'");
  assert.notEqual(text, cancelled);
  const at = text.indexOf("'XYZ'");
  const onToken = analyze(parseText(text), DEFAULT_SETTINGS, registry).filter((d) => d.offset === at && d.end === at + 5);
  assert.deepEqual(onToken.map((d) => d.code), ['json-syntax']);
  assert.deepEqual(onToken[0].related?.map((r) => r.code), ['payload-schema']);
});

test('a data value the data rules explain and its schema refuses for that reason: payload-schema carries non-iso-time, float-currency or unsafe-integer', () => {
  const paid = readFileSync(join(EXAMPLES, 'billing/invoice-paid.babel.json'), 'utf8');
  const cases: [string, string, string][] = [
    // No "Z": 19 characters against minLength 20, one cause the non-iso-time fix ends.
    ['"paid_at": "2026-01-07T19:30:01Z"', '"paid_at": "2026-01-07T19:30:01"', 'non-iso-time'],
    // Unix seconds in a string: too short for the schema, and no ISO time.
    ['"paid_at": "2026-01-07T19:30:01Z"', '"paid_at": "1767814202"', 'non-iso-time'],
    // A fraction of a cent: no integer for the schema, and money in a float.
    ['"amount_paid_cents": 4990', '"amount_paid_cents": 4990.5', 'float-currency'],
    // Beyond 2^53 where the schema wants a string: the string both advise.
    ['"invoice_id": "INV-2026-000417"', '"invoice_id": 9007199254740993', 'unsafe-integer'],
  ];
  for (const [from, to, carried] of cases) {
    const text = paid.replace(from, to);
    assert.notEqual(text, paid, to);
    const at = text.indexOf(to) + to.indexOf(': ') + 2;
    const onValue = analyze(parseText(text), DEFAULT_SETTINGS, registry).filter((d) => d.offset === at);
    assert.deepEqual(onValue.map((d) => d.code), ['payload-schema'], to);
    assert.ok(onValue[0].related?.some((r) => r.code === carried), `${to}: ${JSON.stringify(onValue[0].related)}`);
  }
});

test('a data value the schema refuses for another reason than the data rule explains: both findings are shown, neither carries the other', () => {
  const paid = readFileSync(join(EXAMPLES, 'billing/invoice-paid.babel.json'), 'utf8');
  const cases: [string, string, string][] = [
    // Unix seconds as a number where the schema wants a string: milliseconds (non-iso-time's fix) are no string either.
    ['"paid_at": "2026-01-07T19:30:01Z"', '"paid_at": 1767814201', 'non-iso-time'],
    // Below the schema's minimum of 1 and beyond 2^53: the string unsafe-integer advises is no integer at all.
    ['"order_id": 1077', '"order_id": -9007199254740993', 'unsafe-integer'],
  ];
  for (const [from, to, dataCode] of cases) {
    const text = paid.replace(from, to);
    assert.notEqual(text, paid, to);
    const at = text.indexOf(to) + to.indexOf(': ') + 2;
    const onValue = analyze(parseText(text), DEFAULT_SETTINGS, registry).filter((d) => d.offset === at);
    assert.deepEqual(onValue.map((d) => d.code).sort(), ['payload-schema', dataCode].sort(), `${to}: ${JSON.stringify(onValue)}`);
  }
});
