/**
 * With the laravel Redis layout, encoding-divergence reports what a Laravel retry changes (facts
 * §4.1: Laravel's reservation re-encodes the message through cjson, which keeps 14 significant
 * digits and writes [] as {}); with the default layout it does not. Keystrokes reuse the previous
 * findings and give what a fresh analysis gives.
 */
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { analyzeDocument, analyzeText } from '../../../core/rules/analyze';
import type { CoreDiagnostic } from '../../../core/rules/diagnostic';
import { reparse } from '../../../core/parse/incremental';
import { parseText } from '../../../core/parse/parser';
import { DEFAULT_SETTINGS, normalizeSettings, type Settings } from '../../../core/rules/settings/settings';
import { GOOD_ENVELOPE } from '../../support/envelopes';

const LARAVEL: Settings = normalizeSettings({ redis: { layout: 'laravel' } }).settings;

const withData = (data: string) => GOOD_ENVELOPE.replace('{ "order_id": 1042 }', data);

/** The findings that speak of a Laravel retry, shown or carried by the finding shown on their token. */
function retryFindings(diagnostics: readonly CoreDiagnostic[], text: string): { token: string; severity: string; message: string }[] {
  const found: { token: string; severity: string; message: string }[] = [];
  for (const diagnostic of diagnostics) {
    const messages = [{ code: diagnostic.code, severity: diagnostic.severity, message: diagnostic.message }, ...(diagnostic.related ?? [])];
    for (const finding of messages) {
      if (finding.code === 'encoding-divergence' && /Laravel retry/.test(finding.message)) found.push({ token: text.slice(diagnostic.offset, diagnostic.end), severity: finding.severity, message: finding.message });
    }
  }
  return found;
}

describe('a Laravel retry, with the laravel layout', () => {
  test('the setting is read from the editor\'s key and defaults to babelqueue', () => {
    assert.equal(DEFAULT_SETTINGS.redisLayout, 'babelqueue');
    assert.equal(LARAVEL.redisLayout, 'laravel');
    assert.deepEqual(normalizeSettings({ 'babelqueue.redis.layout': 'bull' }).problems.map((p) => p.setting), ['babelqueue.redis.layout']);
  });

  test('a number of more than 14 significant digits: a warning on the number, saying what cjson writes and what to do', () => {
    const text = withData('{ "order_id": 1042, "ref": 123456789012345, "ratio": 0.30000000000000004 }');
    const found = retryFindings(analyzeText(text, LARAVEL), text);
    assert.deepEqual(
      found.map((f) => [f.token, f.severity]),
      [
        ['123456789012345', 'warning'],
        ['0.30000000000000004', 'warning'],
      ],
    );
    assert.match(found[0].message, /a Laravel retry .*writes it as 1\.2345678901234e\+14, which is 123456789012340/);
    assert.match(found[0].message, /at most 14 significant digits, or .* a string/);
    assert.match(found[1].message, /writes it as 0\.3[^0-9]/);
    // The default layout: none.
    assert.deepEqual(retryFindings(analyzeText(text), text), []);
  });

  test('2^53+1: the Laravel retry joins the finding the token already has, one finding for the number', () => {
    const text = withData('{ "order_id": 1042, "big": 9007199254740993 }');
    const found = retryFindings(analyzeText(text, LARAVEL), text);
    assert.equal(found.length, 1);
    assert.equal(found[0].token, '9007199254740993');
    assert.match(found[0].message, /Node and Go write 9007199254740992/);
    assert.match(found[0].message, /9\.007199254741e\+15/);
    const onToken = analyzeText(text, LARAVEL).filter((d) => text.slice(d.offset, d.end) === '9007199254740993');
    assert.equal(onToken.filter((d) => d.code === 'encoding-divergence' || d.related?.some((r) => r.code === 'encoding-divergence')).length, 1);
  });

  test('an empty list anywhere the consumer reads: information on the [] alone (the contract allows it; the change is Laravel\'s)', () => {
    const text = withData('{ "order_id": 1042, "tags": [], "lines": [{ "codes": [ ] }, [1]] }').replace('"queue": "orders"', '"queue": "orders", "ext": { "acme": { "flags": [] } }');
    const found = retryFindings(analyzeText(text, LARAVEL), text);
    assert.deepEqual(
      found.map((f) => [f.token, f.severity]),
      [
        ['[]', 'information'],
        ['[ ]', 'information'],
        ['[]', 'information'],
      ],
    );
    assert.match(found[0].message, /a Laravel retry .*writes this empty list as \{\}.*a consumer expecting a list gets an object/);
    assert.deepEqual(retryFindings(analyzeText(text), text), []);
  });

  test('nothing a retry changes: no finding with either layout, and the same findings as the default layout', () => {
    const text = withData('{ "order_id": 1042, "total": 1773480413412, "ratio": 0.1, "small": 1e-5, "huge": 1.5e300, "items": [1, 2], "meta": {}, "path": "a/b" }');
    assert.deepEqual(analyzeText(text, LARAVEL), analyzeText(text));
    assert.deepEqual(retryFindings(analyzeText(text, LARAVEL), text), []);
  });

  test('the examples, written as the contract advises, get nothing new with the laravel layout', () => {
    const root = join(__dirname, '..', '..', '..', 'examples');
    const files = ['orders', 'billing'].flatMap((folder) => readdirSync(join(root, folder)).filter((name) => name.endsWith('.babel.json')).map((name) => join(root, folder, name)));
    assert.ok(files.length >= 3);
    for (const file of files) {
      const text = readFileSync(file, 'utf8');
      assert.deepEqual(analyzeText(text, LARAVEL), analyzeText(text), file);
    }
  });
});

describe('keystrokes with the laravel layout', () => {
  function assertAsFresh(before: string, after: string): void {
    const previous = parseText(before);
    const next = reparse(previous, after);
    assert.ok(next, 'reparsed incrementally');
    const incremental = analyzeDocument(next, LARAVEL, undefined, analyzeDocument(previous, LARAVEL)).diagnostics;
    assert.deepEqual(incremental, analyzeText(after, LARAVEL));
  }

  test('a digit typed into a number inside data, and outside it, adds or takes away its finding as a fresh analysis does', () => {
    const base = withData('{ "order_id": 1042, "ref": 12345678901234, "tags": [], "ratio": 0.3 }').replace('"queue": "orders"', '"queue": "orders", "ext": { "n": 12345678901234, "l": [] }');
    const steps: [string, string][] = [
      ['"ref": 12345678901234', '"ref": 123456789012345'],
      ['"ratio": 0.3', '"ratio": 0.30000000000000004'],
      ['"n": 12345678901234', '"n": 123456789012345'],
      ['"order_id": 1042', '"order_id": 10420'],
    ];
    for (const [from, to] of steps) {
      assert.ok(base.includes(from), from);
      const edited = base.replace(from, to);
      assertAsFresh(base, edited);
      assertAsFresh(edited, base);
    }
  });

  test('typing in a string keeps the findings of the lists and numbers, moved', () => {
    const base = withData('{ "order_id": 1042, "note": "a", "tags": [], "ref": 123456789012345 }').replace('"queue": "orders"', '"queue": "orders", "ext": { "l": [] }');
    assertAsFresh(base, base.replace('"note": "a"', '"note": "ab"'));
    assertAsFresh(base, base.replace('"queue": "orders"', '"queue": "orders2"'));
  });
});
