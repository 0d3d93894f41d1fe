/**
 * Terminal output cannot be steered by the files it reports on: a file name or a key (inside a
 * message) holding an escape sequence, a bell, a carriage return, a line separator or a
 * bidirectional override is printed with those characters made visible, in every text format.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { test } from 'node:test';
import { printable, type FileReport } from '../../cli/diagnostics';
import { formatCompact } from '../../cli/formats/compact';
import { formatGithub } from '../../cli/formats/github';
import { formatStylish } from '../../cli/formats/stylish';
import { babelq, envelope, makeTree, removeTree } from './helpers';

const HOSTILE = 'x\u001b]0;owned\u0007\u001b[2J\u009b31m\u202eevil\u2028\r\nfake.babel.json:1:1 error';

const reports: FileReport[] = [
  {
    file: `fixtures/${HOSTILE}.babel.json`,
    diagnostics: [{ code: 'case-mismatch', severity: 'information', message: `"meta.${HOSTILE}" is not "meta.ts"`, range: { start: { line: 0, character: 0 }, end: { line: 0, character: 1 } } }],
  },
];

/** Raw controls a terminal acts on: C0 but line feed, DEL, C1, the separators and the bidi overrides. */
const ACTING = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;

test('stylish, compact and github output hold no raw control character from a name or key', () => {
  for (const [name, output] of [
    ['stylish', formatStylish(reports, { color: false })],
    ['stylish (colour)', formatStylish(reports, { color: true }).replace(/\u001b\[[0-9;]*m/g, '')],
    ['compact', formatCompact(reports)],
    ['github', formatGithub(reports)],
  ] as const) {
    assert.doesNotMatch(output, ACTING, `${name}: ${JSON.stringify(output)}`);
    // No forged row: the hostile text stays on the finding's own line.
    assert.ok(!output.split('\n').some((line) => line.startsWith('fake.babel.json')), `${name}: ${output}`);
  }
});

test('a key with a line break is quoted in stylish, compact and github as the file writes it, not with a space that makes another key', () => {
  const key: FileReport[] = [
    {
      file: 'k.babel.json',
      diagnostics: [{ code: 'float-currency', severity: 'warning', message: '"unit\nprice" looks like money but holds the float 1.5 ("unit\r\nprice_cents")', range: { start: { line: 0, character: 0 }, end: { line: 0, character: 1 } } }],
    },
  ];
  for (const output of [formatStylish(key, { color: false }), formatCompact(key)]) {
    assert.match(output, /"unit\\nprice" looks like money but holds the float 1\.5 \("unit\\r\\nprice_cents"\)/);
    assert.doesNotMatch(output, /unit price/);
  }
  // GitHub's annotation too: a line break escaped as %0A for the runner would still split the key over two lines on the pull request.
  const annotation = formatGithub(key).split('\n')[0];
  assert.equal(annotation, '::warning file=k.babel.json,line=1,col=1,endLine=1,endColumn=2,title=babelq float-currency::"unit\\nprice" looks like money but holds the float 1.5 ("unit\\r\\nprice_cents")');
});

test('printable shows what it escapes, and keeps line breaks only when asked', () => {
  assert.equal(printable('a\u001bb\u0007c'), 'a\\u001bb\\u0007c');
  assert.equal(printable('a\nb'), 'a\\u000ab');
  assert.equal(printable('a\nb\u202e', true), 'a\nb\\u202e');
  assert.equal(printable('café — ☕'), 'café — ☕');
});

test('a file name with a line break in babelq\'s refusal on stderr: written \\n in its one line, so no line of its own can start with "babelq:"', { skip: process.platform === 'win32' && 'needs mkfifo and line breaks in names' }, () => {
  const dir = makeTree({ 'a.babel.json': envelope() });
  try {
    const name = 'p\nbabelq: all 12 files checked, no problems\r\u001b[2K.babel.json';
    execFileSync('mkfifo', [join(dir, name)]);
    const result = babelq(['lint'], dir);
    assert.equal(result.status, 2);
    const lines = result.stderr.trimEnd().split('\n');
    assert.equal(lines.length, 1, result.stderr);
    assert.equal(lines[0], "babelq: cannot read 'p\\nbabelq: all 12 files checked, no problems\\r\\u001b[2K.babel.json': is a named pipe, not a regular file; it was not read");
  } finally {
    removeTree(dir);
  }
});

test('the notes babelq lint writes on stderr name a folder with controls by their escapes, each note on one line: a .gitignore not applied, a registry.json passed over', { skip: process.platform === 'win32' && 'needs mkfifo and controls in names' }, () => {
  const folder = 'd\u001b[31m\nbabelq: x\u202e';
  const dir = makeTree({ '.git/HEAD': 'ref: refs/heads/main\n', [`${folder}/f.babel.json`]: envelope(), [`${folder}/registry.json`]: '{ "other": 1 }' });
  try {
    execFileSync('mkfifo', [join(dir, folder, '.gitignore')]);
    const result = babelq(['lint'], dir);
    const lines = result.stderr.trimEnd().split('\n');
    assert.equal(lines.length, 2, result.stderr);
    for (const line of lines) {
      assert.doesNotMatch(line, ACTING, JSON.stringify(line));
      assert.ok(line.startsWith('babelq: d\\u001b[31m\\nbabelq: x\\u202e/') || line.startsWith('babelq: note: d\\u001b[31m\\nbabelq: x\\u202e/'), line);
    }
    assert.match(lines[0], /\.gitignore is a named pipe/);
    assert.match(lines[1], /registry\.json was not read as a registry/);
  } finally {
    removeTree(dir);
  }
});
