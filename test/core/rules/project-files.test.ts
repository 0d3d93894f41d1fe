/**
 * babelq.json and babelq-suppressions.json as core reads them: the documented format passes the
 * reader and the contributed schema alike, each problem sits on its key, and suppressions hide
 * exactly what they name until their day has passed.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import Ajv from 'ajv';
import { parse } from 'jsonc-parser';
import { readProjectConfig } from '../../../core/rules/settings/project-config';
import { matchGlob } from '../../../workspace/glob';
import { applySuppressions, readSuppressions, type Suppression } from '../../../core/rules/settings/suppressions-file';
import type { CoreDiagnostic } from '../../../core/rules/diagnostic';
import { fileDiagnostics } from '../../../core/rules/file-diagnostics';
import { DEFAULT_SETTINGS } from '../../../core/rules/settings/settings';

const ROOT = join(__dirname, '..', '..', '..');
const FIXTURES = join(ROOT, 'test', 'fixtures', 'diagnostics', 'config-error');
const schema = (name: string) => new Ajv({ allErrors: true, strict: false }).compile(JSON.parse(readFileSync(join(ROOT, 'schemas', name), 'utf8')));

test('the documented babelq.json reads without a problem and passes the contributed schema; the broken ones fail both', () => {
  const validate = schema('babelq.schema.json');
  const ok = readFileSync(join(FIXTURES, 'ok-documented-format.babelq.json'), 'utf8');
  const config = readProjectConfig(ok);
  assert.deepEqual(config.problems, []);
  assert.equal(config.root, true);
  assert.deepEqual(config.ignore, ['fixtures/negative/**']);
  assert.equal(config.overrides[0].layer.severityOverrides?.get('float-currency'), 'off');
  assert.equal(config.layer.registryValidator, 'bqschema');
  assert.equal(validate(parse(ok)), true, JSON.stringify(validate.errors));
  for (const name of ['fires-bad-values.babelq.json', 'fires-misspelt-key.babelq.json']) {
    const text = readFileSync(join(FIXTURES, name), 'utf8');
    assert.ok(readProjectConfig(text).problems.length > 0);
    assert.equal(validate(parse(text)), false, `${name} must fail the schema too`);
  }
});

test('redisLayout: laravel or babelqueue, at the top and in an override; anything else a problem on its value, refused by the schema too', () => {
  const validate = schema('babelq.schema.json');
  const text = '{ "redisLayout": "laravel", "overrides": [{ "files": ["legacy/**"], "redisLayout": "babelqueue" }] }';
  const config = readProjectConfig(text);
  assert.deepEqual(config.problems, []);
  assert.equal(config.layer.redisLayout, 'laravel');
  assert.equal(config.overrides[0].layer.redisLayout, 'babelqueue');
  assert.equal(validate(parse(text)), true, JSON.stringify(validate.errors));
  const bad = '{ "redisLayout": "bull" }';
  const problems = readProjectConfig(bad).problems;
  assert.equal(problems.length, 1);
  assert.match(problems[0].message, /"redisLayout" must be one of "babelqueue", "laravel"/);
  assert.equal(bad.slice(problems[0].offset, problems[0].end), '"bull"');
  assert.equal(validate(parse(bad)), false);
});

test('a key given twice is a problem, and the last one applies as in JSON.parse', () => {
  const config = readProjectConfig('{ "severity": { "unknown-urn": "off" }, "severity": { "unknown-urn": "hint" } }');
  assert.match(config.problems[0].message, /set twice/);
  assert.equal(config.layer.severityOverrides?.get('unknown-urn'), 'hint');
});

test('suppressions: the documented entry passes the schema; a match hides by code and pointer; an expired one fires again', () => {
  const text = '{ "suppressions": [ { "file": "fixtures/a.babel.json", "code": "forbidden-key", "pointer": "/meta/ts", "reason": "legacy producer, removed in 2027", "until": "2027-06-30" } ] }';
  assert.equal(schema('babelq-suppressions.schema.json')(JSON.parse(text)), true);
  const { entries, problems } = readSuppressions(text);
  assert.deepEqual(problems, []);
  const finding = (code: CoreDiagnostic['code'], offset: number): CoreDiagnostic => ({ code, severity: 'error', message: 'm', offset, end: offset + 1 });
  const pointers = new Map([[1, '/meta/ts'], [2, '/meta/source']]);
  const findings = [finding('forbidden-key', 1), finding('forbidden-key', 2), finding('invalid-urn', 1)];
  const before = applySuppressions(findings, (d) => pointers.get(d.offset)!, entries, '2027-06-30');
  assert.deepEqual(before.kept.map((d) => `${d.code}@${d.offset}`), ['forbidden-key@2', 'invalid-urn@1']);
  assert.equal(before.suppressed, 1);
  const afterDay = applySuppressions(findings, (d) => pointers.get(d.offset)!, entries, '2027-07-01');
  assert.equal(afterDay.kept.length, 3);
  assert.match(afterDay.kept[0].message, /Its suppression expired on 2027-06-30: "legacy producer, removed in 2027"/);
  assert.equal(afterDay.used.size, 1, 'an expired entry is not stale');
});

test('an entry for a finding carried by the one shown on its token is used, and hides that finding from what it carries', () => {
  const { entries } = readSuppressions('{ "suppressions": [ { "file": "a.babel.json", "code": "extension-key", "pointer": "/meta/tenant_id", "reason": "ours" } ] }');
  const carried = { code: 'extension-key' as const, severity: 'hint' as const, message: 'hint', offset: 5, end: 16 };
  const shown: CoreDiagnostic = { code: 'encoding-divergence', severity: 'information', message: 'relay drop', offset: 5, end: 16, related: [carried] };
  const outcome = applySuppressions([shown], () => '/meta/tenant_id', entries, '2026-12-05');
  assert.equal(outcome.used.size, 1, 'not stale: the finding is there, carried');
  assert.equal(outcome.suppressed, 1);
  assert.deepEqual(outcome.kept.map((d) => [d.code, d.related]), [['encoding-divergence', undefined]]);
  const both = readSuppressions('{ "suppressions": [ { "file": "a.babel.json", "code": "extension-key", "pointer": "/meta/tenant_id", "reason": "ours" }, { "file": "a.babel.json", "code": "encoding-divergence", "pointer": "/meta/tenant_id", "reason": "ours" } ] }').entries;
  const hidden = applySuppressions([shown], () => '/meta/tenant_id', both, '2026-12-05');
  assert.deepEqual([hidden.kept.length, hidden.suppressed, hidden.used.size], [0, 2, 2]);
});

test('an entry for the finding shown on a token hides that finding only: one it carries of another code is shown in its place', () => {
  const { entries } = readSuppressions('{ "suppressions": [ { "file": "a.babel.json", "code": "encoding-divergence", "pointer": "/meta/tenant_id", "reason": "the Go consumer reads it" } ] }');
  const carried = { code: 'extension-key' as const, severity: 'hint' as const, message: 'move it under meta.ext', offset: 5, end: 16 };
  const shown: CoreDiagnostic = { code: 'encoding-divergence', severity: 'information', message: 'relay drop', offset: 5, end: 16, related: [carried] };
  const outcome = applySuppressions([shown], () => '/meta/tenant_id', entries, '2026-12-05');
  assert.deepEqual([outcome.suppressed, outcome.used.size], [1, 1]);
  assert.deepEqual(outcome.kept, [carried]);
});

test('entries that cannot be used are named: a bad pointer, an unknown code, a path that climbs out, a bad date', () => {
  const { entries, problems } = readSuppressions('{ "suppressions": [ { "file": "../x.babel.json", "code": "nope", "pointer": "meta", "until": "30/06/2027", "reason": "r" }, 3 ] }');
  assert.equal(entries.length, 0);
  assert.deepEqual(problems.map((p) => p.message.slice(0, 12)), ['"file" must ', '"code" must ', '"pointer" is', '"until" is t', 'A suppressio']);
});

test('a day that no calendar has ("2027-02-30", "2026-04-31", "2027-02-29") is no "until"; a misspelt code names the one it is closest to', () => {
  for (const day of ['2027-02-30', '2026-04-31', '2027-02-29']) {
    const { entries, problems } = readSuppressions(`{ "suppressions": [ { "file": "a.babel.json", "code": "float-currency", "pointer": "/data/amount", "until": "${day}", "reason": "r" } ] }`);
    assert.equal(entries.length, 0, day);
    assert.deepEqual(problems.map((p) => p.message), [`"until" is the last day the suppression holds, as YYYY-MM-DD, and ${day} is no day of the calendar`]);
  }
  assert.deepEqual(readSuppressions('{ "suppressions": [ { "file": "a.babel.json", "code": "float-currency", "pointer": "/data/amount", "until": "2028-02-29", "reason": "r" } ] }').problems, [], 'a leap day');
  const misspelt = readSuppressions('{ "suppressions": [ { "file": "a.babel.json", "code": "float-curency", "pointer": "/data/amount", "reason": "r" } ] }');
  assert.deepEqual(misspelt.problems.map((p) => p.message), ['"code" must be a diagnostic code, not "float-curency" (did you mean "float-currency"?)']);
});

test('an override whose "files" is an empty list applies to no file: a problem on it, as one without "files" is', () => {
  const text = '{ "overrides": [{ "files": [], "severity": { "float-currency": "off" } }] }';
  const config = readProjectConfig(text);
  assert.deepEqual(config.overrides, []);
  assert.deepEqual(config.problems.map((p) => [text.slice(p.offset, p.end), p.message]), [['[]', 'This override\'s "files" is empty, so it applies to no file: name the globs it applies to.']]);
});

test('an empty babelq.json or suppressions file says it is empty', () => {
  for (const text of ['', '  \n', '// nothing yet\n']) {
    assert.deepEqual(readProjectConfig(text).problems.map((p) => p.message), ['The file is empty; write an object such as { "root": true }.'], JSON.stringify(text));
    assert.deepEqual(readSuppressions(text).problems.map((p) => p.message), ['The file is empty; write { "suppressions": [] } (babelq lint --suppress-all --reason TEXT writes one).'], JSON.stringify(text));
  }
});

test('a hostile babelq.json is a problem at its place, never a stack overflow: nesting thousands deep, globs of deep or unclosed braces', () => {
  const deep = `{ "ignore": ${'['.repeat(5000)} }`;
  const nested = readProjectConfig(deep);
  assert.equal(nested.problems.length, 1);
  assert.match(nested.problems[0].message, /^Nested more than 64 levels deep here; .* It was not read\.$/);
  assert.equal(nested.problems[0].offset, deep.indexOf('[') + 63, 'on the bracket that opens level 65 (the object is level 1)');
  // Brackets inside strings and comments do not count.
  assert.deepEqual(readProjectConfig(`// ${'['.repeat(100)}\n{ "ignore": ["${'['.repeat(100)}"] }`).problems, []);
  const suppressions = readSuppressions(`{ "suppressions": ${'{'.repeat(3000)} }`);
  assert.match(suppressions.problems[0].message, /^Nested more than 64 levels deep here/);

  const braces = readProjectConfig(JSON.stringify({ ignore: [`${'{a,'.repeat(1000)}b${'}'.repeat(1000)}`, 'fixtures/{a,{b,c}}'], overrides: [{ files: ['{'.repeat(100_000)], severity: {} }] }));
  assert.deepEqual(braces.ignore, ['fixtures/{a,{b,c}}']);
  assert.deepEqual(braces.problems.map((problem) => problem.message), [
    'This glob nests {…} alternatives 1000 deep, more than 16; it was not used.',
    'This glob is 100000 characters long, more than the 4096 of the longest path; it was not used.',
  ]);
});

test('a glob with a brace left open or never opened is a problem on it and unused: it would only match the characters themselves; brackets name a folder such as [locale]', () => {
  const text = JSON.stringify({ ignore: ['fixtures/{negative,old', 'fixtures/negative}', 'app/[locale]/**', 'fixtures/{a,b}/**', 'odd[name'], overrides: [{ files: ['legacy/{v1,v2/**'], severity: {} }] });
  const config = readProjectConfig(text);
  assert.deepEqual(config.ignore, ['app/[locale]/**', 'fixtures/{a,b}/**', 'odd[name']);
  assert.ok(matchGlob('app/[locale]/**', 'app/[locale]/order.babel.json'));
  assert.ok(!matchGlob('app/[locale]/**', 'app/l/order.babel.json'));
  assert.deepEqual(config.overrides[0].files, []);
  assert.deepEqual(config.problems.map((problem) => [JSON.parse(text.slice(problem.offset, problem.end)), problem.message]), [
    ['fixtures/{negative,old', 'The glob "fixtures/{negative,old" has a "{" that no "}" closes: {a,b} lists alternatives, and an unclosed one would only match the characters themselves. It was not used.'],
    ['fixtures/negative}', 'The glob "fixtures/negative}" has a "}" that no "{" opens: {a,b} lists alternatives, and an unclosed one would only match the characters themselves. It was not used.'],
    ['legacy/{v1,v2/**', 'The glob "legacy/{v1,v2/**" has a "{" that no "}" closes: {a,b} lists alternatives, and an unclosed one would only match the characters themselves. It was not used.'],
  ]);
});

test('a babelq.json whose globs hold more than 8,192 characters together: the ones past the bound are problems at their place, and unused', () => {
  // 250 globs of 4,096 characters each, every one within the bounds of a single glob, 1 MB in all:
  // compiled, they took a lint of 20 fixtures 22 s and 490 MB, and held the server as long.
  const globs = Array.from({ length: 250 }, (_, index) => `{${Array.from({ length: 1360 }, () => '*a').join(',')}}${index}`);
  const text = JSON.stringify({ ignore: ['fixtures/negative', ...globs.slice(0, 100)], overrides: [{ files: ['legacy/**', ...globs.slice(100)], severity: { 'float-currency': 'off' } }] });
  const config = readProjectConfig(text);
  const kept = [...config.ignore, ...config.overrides.flatMap((override) => override.files)];
  assert.ok(kept.join('').length <= 8_192, `${kept.join('').length} characters of globs kept`);
  assert.deepEqual(config.ignore.slice(0, 1), ['fixtures/negative']);
  assert.equal(config.overrides[0].files[0], 'legacy/**', 'a short glob after the bound was reached is still used');
  assert.equal(config.problems.length, 250 - (kept.length - 2));
  for (const problem of config.problems) {
    assert.equal(problem.message, 'With this glob the globs of this file would hold more than 8,192 characters together (each one is compiled and tested against every file and folder a walk meets); it was not used.');
    assert.ok(globs.includes(JSON.parse(text.slice(problem.offset, problem.end))), 'on the glob that is not used');
  }
});

test('suppressions are matched through an index: a baseline of 40,000 entries against 5,000 findings, at once; the first entry of a code and pointer applies', () => {
  const entries: Suppression[] = Array.from({ length: 40_000 }, (_, index) => ({ file: 'a.babel.json', code: 'float-currency' as const, pointer: `/data/p${index}`, reason: 'legacy', until: undefined, offset: index, end: index + 1 }));
  entries.push({ ...entries[8], reason: 'a second entry for the same place', until: '2020-01-01' });
  const findings: CoreDiagnostic[] = Array.from({ length: 5_000 }, (_, index) => ({ code: 'float-currency', severity: 'warning', message: 'm', offset: index * 2, end: index * 2 + 1 }));
  const started = performance.now();
  const outcome = applySuppressions(findings, (diagnostic) => `/data/p${diagnostic.offset}`, entries, '2026-12-04');
  const elapsed = performance.now() - started;
  // Findings at even offsets: p0, p2, … p9998 are all in the baseline; p8's second, expired entry is not the one used.
  assert.equal(outcome.suppressed, 5_000);
  assert.deepEqual(outcome.kept, []);
  assert.equal(outcome.used.size, 5_000);
  assert.ok(![...outcome.used].some((entry) => entry.reason === 'a second entry for the same place'));
  assert.ok(elapsed < 2_000, `${Math.round(elapsed)} ms`);
});

test('a suppression\'s reason, file and pointer are quoted by their start in the messages about it: an entry of 200,000 characters makes no message of that size', () => {
  const long = (start: string) => `${start}${'x'.repeat(200_000)}`;
  const text = JSON.stringify({
    suppressions: [
      { file: 'a.babel.json', code: 'forbidden-key', pointer: '/meta/ts', reason: long('legacy producer '), until: '2020-01-01' },
      { file: long('fixtures/'), code: 'forbidden-key', pointer: long('/meta/') },
      { file: long('gone/'), code: 'invalid-urn', pointer: long('/job/'), reason: 'kept' },
    ],
  });
  const { entries, problems } = readSuppressions(text);
  assert.deepEqual(problems, []);
  const expired = applySuppressions([{ code: 'forbidden-key', severity: 'error', message: 'm', offset: 1, end: 2 }], () => '/meta/ts', entries, '2027-01-01');
  assert.match(expired.kept[0].message, /Its suppression expired on 2020-01-01: "legacy producer x+…"\.\)$/);
  const findings = fileDiagnostics('suppressionsFile', { file: { entries, problems }, stale: [entries[2]] }, DEFAULT_SETTINGS);
  assert.deepEqual(findings.map((finding) => finding.code).sort(), ['stale-suppression', 'unexplained-suppression']);
  assert.match(findings.find((finding) => finding.code === 'unexplained-suppression')!.message, /at "\/meta\/x+…" in fixtures\/x+… has no reason/);
  assert.match(findings.find((finding) => finding.code === 'stale-suppression')!.message, /gone\/x+… has no invalid-urn at "\/job\/x+…" any more/);
  for (const message of [expired.kept[0].message, ...findings.map((finding) => finding.message)]) assert.ok(message.length < 600, `${message.length} characters`);
});

test('a babelq.json or suppressions file with more than 1,000 problems lists the first 1,000 and sums up the rest in one, at the first of them', () => {
  const keys = Array.from({ length: 5_000 }, (_, i) => `"k${i}": 1`).join(', ');
  const configText = `{ ${keys} }`;
  const config = fileDiagnostics('configFile', readProjectConfig(configText), DEFAULT_SETTINGS);
  assert.equal(config.length, 1_001);
  assert.ok(config.slice(0, 1_000).every((finding) => /^Unknown key "k\d+"/.test(finding.message)));
  const summary = config[1_000];
  assert.equal(summary.code, 'config-error');
  assert.equal(configText.slice(summary.offset, summary.end), '"k1000"');
  assert.match(summary.message, /^babelq\.json has 4,000 more problems than the 1,000 listed, the first of them here; the rest are not listed/);
  const entries = Array.from({ length: 3_000 }, (_, i) => `{ "file": "a${i}.babel.json", "code": "no-such-code", "pointer": "" }`).join(', ');
  const suppressions = readSuppressions(`{ "suppressions": [ ${entries} ] }`);
  const found = fileDiagnostics('suppressionsFile', { file: suppressions, stale: [] }, DEFAULT_SETTINGS);
  assert.equal(found.length, 1_001);
  assert.match(found[1_000].message, /^babelq-suppressions\.json has 2,000 more problems than the 1,000 listed/);
});

test('unchecked-suppressions: the entries a judging\'s budget left unchecked are one note on the first of them, counted and worded by the budget that ran out', () => {
  const file = readSuppressions(JSON.stringify({
    suppressions: Array.from({ length: 3 }, (_, i) => ({ file: `f${i}.babel.json`, code: 'forbidden-key', pointer: '/meta/ts', reason: 'legacy' })),
  }));
  const [, second, third] = file.entries;
  const notes = (unchecked: Parameters<typeof fileDiagnostics<'suppressionsFile'>>[1]['unchecked']) =>
    fileDiagnostics('suppressionsFile', { file, stale: [], unchecked }, DEFAULT_SETTINGS).filter((diagnostic) => diagnostic.code === 'unchecked-suppressions');
  assert.deepEqual(notes(undefined), []);
  assert.deepEqual(notes({ count: 0, first: second, budget: { fixtures: 2_000 } }), []);

  const byBytes = notes({ count: 12_345, first: second, budget: { bytes: 16 * 1024 * 1024 } });
  assert.equal(byBytes.length, 1);
  assert.deepEqual([byBytes[0].severity, byBytes[0].offset, byBytes[0].end], ['information', second.offset, second.offset + 1]);
  assert.equal(byBytes[0].message, '12,345 suppressions were not checked here (the first is this one): at each change of this file the editor judges at most 16 MiB of fixtures. babelq lint checks them all (babelq lint --prune-suppressions removes the stale ones).');

  const [byCount] = notes({ count: 1, first: third, budget: { fixtures: 2_000 } });
  assert.equal(byCount.offset, third.offset);
  assert.match(byCount.message, /^1 suppression was not checked here \(this one\): at each change of this file the editor judges the entries of at most 2,000 fixtures\. babelq lint checks them all/);

  // Turned off like any code.
  const off = { ...DEFAULT_SETTINGS, severityOverrides: new Map([['unchecked-suppressions', 'off']]) } as typeof DEFAULT_SETTINGS;
  assert.deepEqual(fileDiagnostics('suppressionsFile', { file, stale: [], unchecked: { count: 2, first: second, budget: { fixtures: 2_000 } } }, off), []);
});

test('one typing mistake in babelq.json or babelq-suppressions.json is one syntax problem: the errors jsonc-parser gives at the same place are said once', () => {
  // `{ "severity": {}, ` ends where a key was due: jsonc-parser says "property name expected",
  // "value expected" and "close brace expected", all at its end.
  const config = readProjectConfig('{ "severity": {}, ');
  assert.deepEqual(config.problems.map((problem) => [problem.offset, problem.message]), [[18, 'Not valid JSON with comments: property name expected.']]);
  const suppressions = readSuppressions('{ "suppressions": [], ');
  assert.deepEqual(suppressions.problems.map((problem) => [problem.offset, problem.message]), [[22, 'Not valid JSON with comments: property name expected.']]);
  // The findings the editor and lint show for the file (server/project-files.ts, projectFileDiagnostics): one too.
  assert.deepEqual(fileDiagnostics('configFile', config, DEFAULT_SETTINGS).map((diagnostic) => [diagnostic.code, diagnostic.offset]), [['config-error', 18]]);
  // Mistakes at two places are still two problems.
  assert.equal(readProjectConfig('{ "root": true "severity": {} ').problems.length, 2);
});
