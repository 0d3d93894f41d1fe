/**
 * The conversion to the published diagnostic shape and the byte-level entry of linting, tested
 * without a child process (the parity test for the language server will lean on the same function).
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { CoreDiagnostic } from '../../core/rules/diagnostic';
import { LineIndex } from '../../core/model/positions';
import { normalizeSettings } from '../../core/rules/settings/settings';
import { DEFAULT_SETTINGS } from '../../core/rules/settings/settings';
import { countBySeverity, toOutputDiagnostic } from '../../cli/diagnostics';
import { lintBytes } from '../../cli/lint';
import { FORBIDDEN_TIMESTAMP } from './helpers';

describe('toOutputDiagnostic', () => {
  test('keeps exactly code, severity, message and range, in that order', () => {
    const core: CoreDiagnostic = { code: 'missing-field', severity: 'error', message: 'm', offset: 4, end: 6, tags: ['deprecated'], subject: 'meta.id' };
    const output = toOutputDiagnostic(core, new LineIndex('{\r\n  "a": 1\n}'));
    assert.equal(
      JSON.stringify(output),
      '{"code":"missing-field","severity":"error","message":"m","range":{"start":{"line":1,"character":1},"end":{"line":1,"character":3}}}',
    );
  });

  test('gives each carried finding its own severity, after its code as the shown one has it', () => {
    const core: CoreDiagnostic = {
      code: 'float-currency',
      severity: 'warning',
      message: 'm',
      offset: 0,
      end: 1,
      related: [
        { code: 'encoding-divergence', severity: 'information', message: 'r', offset: 0, end: 1 },
        { code: 'extension-key', severity: 'hint', message: 'h', offset: 0, end: 1 },
      ],
    };
    assert.equal(
      JSON.stringify(toOutputDiagnostic(core, new LineIndex('{}'))),
      '{"code":"float-currency","severity":"warning","message":"m","range":{"start":{"line":0,"character":0},"end":{"line":0,"character":1}},' +
        '"related":[{"code":"encoding-divergence","severity":"information","message":"r","range":{"start":{"line":0,"character":0},"end":{"line":0,"character":1}}},' +
        '{"code":"extension-key","severity":"hint","message":"h","range":{"start":{"line":0,"character":0},"end":{"line":0,"character":1}}}]}',
    );
  });

  test('clamps offsets past the end of the text to the last position', () => {
    const output = toOutputDiagnostic({ code: 'json-syntax', severity: 'error', message: 'm', offset: 2, end: 99 }, new LineIndex('{\n}'));
    assert.deepEqual(output.range, { start: { line: 1, character: 0 }, end: { line: 1, character: 1 } });
  });
});

describe('lintBytes', () => {
  const bytes = (...parts: (string | number[])[]): Uint8Array => Buffer.concat(parts.map((part) => (typeof part === 'string' ? Buffer.from(part) : Buffer.from(part))));

  test('gives the analyzer result for UTF-8 text', () => {
    const diagnostics = lintBytes(bytes(FORBIDDEN_TIMESTAMP), DEFAULT_SETTINGS);
    assert.deepEqual(
      diagnostics.map((d) => d.code),
      ['forbidden-key'],
    );
  });

  for (const [name, input, message, line, character] of [
    ['a stray byte', bytes('{', [0xff], '}'), /byte 0xFF at byte offset 1, line 1/, 0, 1],
    ['an unfinished four-byte character', bytes('{\n\n', [0xf0, 0x9f, 0x98], '"}'), /byte 0xF0 at byte offset 3, line 3/, 2, 0],
    ['an overlong encoding', bytes('{', [0xc0, 0xaf], '}'), /byte 0xC0 at byte offset 1/, 0, 1],
    ['a truncated last character', bytes('{"é', [0xe2, 0x82]), /ends in the middle of a character/, 0, 3],
    ['UTF-16 text', bytes([0xff, 0xfe], '{'), /UTF-16 byte-order mark/, 0, 0],
  ] as const) {
    test(`invalid UTF-8 (${name}) is one json-syntax error at the first invalid byte that says where`, () => {
      const [diagnostic, ...rest] = lintBytes(input, DEFAULT_SETTINGS);
      assert.deepEqual(rest, []);
      assert.equal(diagnostic.code, 'json-syntax');
      assert.equal(diagnostic.severity, 'error');
      assert.match(diagnostic.message, /^The file is not valid UTF-8/);
      assert.match(diagnostic.message, message);
      assert.deepEqual(diagnostic.range, { start: { line, character }, end: { line, character } });
    });
  }

  test('invalid UTF-8 follows the settings like any json-syntax diagnostic', () => {
    const invalid = bytes('{', [0xff], '}');
    const demoted = normalizeSettings({ 'diagnostics.severity': { 'json-syntax': 'warning' } }).settings;
    assert.equal(lintBytes(invalid, demoted)[0].severity, 'warning');
    assert.deepEqual(lintBytes(invalid, normalizeSettings({ 'diagnostics.severity': { 'json-syntax': 'off' } }).settings), []);
    assert.deepEqual(lintBytes(invalid, normalizeSettings({ 'validation.enable': false }).settings), []);
  });
});

describe('countBySeverity', () => {
  test('counts over all files', () => {
    const at = { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };
    const counts = countBySeverity([
      { file: 'a', diagnostics: [{ code: 'json-syntax', severity: 'error', message: '', range: at }, { code: 'urn-alias', severity: 'warning', message: '', range: at }] },
      { file: 'b', diagnostics: [{ code: 'extension-key', severity: 'hint', message: '', range: at }, { code: 'urn-alias', severity: 'warning', message: '', range: at }] },
    ]);
    assert.deepEqual(counts, { error: 1, warning: 2, information: 0, hint: 1 });
  });
});
