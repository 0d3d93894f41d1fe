/** `--format github` (workflow commands) and `--format compact` (the problem matcher's lines), exact text. */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { FileReport } from '../../cli/diagnostics';
import { escapeData, escapeProperty, formatGithub } from '../../cli/formats/github';
import { formatCompact } from '../../cli/formats/compact';
import { assertCliBuilt, babelq, envelope, FORBIDDEN_TIMESTAMP, makeTree, removeTree, URN_ALIAS_ONLY } from './helpers';

const HOSTILE: FileReport[] = [
  {
    file: 'odd, name: 100%\r\n::error::.babel.json',
    diagnostics: [
      { code: 'forbidden-key', severity: 'error', message: 'first line\nsecond: 50%, done\r\n::warning::injected', range: { start: { line: 0, character: 0 }, end: { line: 2, character: 4 } } },
      { code: 'case-mismatch', severity: 'information', message: 'info', range: { start: { line: 4, character: 1 }, end: { line: 4, character: 9 } } },
      { code: 'extension-key', severity: 'hint', message: 'hint', range: { start: { line: 5, character: 2 }, end: { line: 5, character: 3 } } },
    ],
  },
  { file: 'dir\\win.babel.json', diagnostics: [{ code: 'urn-alias', severity: 'warning', message: 'w', range: { start: { line: 1, character: 2 }, end: { line: 1, character: 7 } } }] },
];

describe('github', () => {
  test('escapes data as the runner unescapes it, and properties also for : and ,', () => {
    assert.equal(escapeData('a%b\rc\nd:e,f'), 'a%25b%0Dc%0Ad:e,f');
    assert.equal(escapeProperty('a%b\rc\nd:e,f'), 'a%25b%0Dc%0Ad%3Ae%2Cf');
    // % first, so an escape already in the text is not read back as one.
    assert.equal(escapeData('%0A'), '%250A');
  });

  test('writes one workflow command per diagnostic with 1-based positions, then a summary', () => {
    assert.equal(
      // Paths as Windows writes them: a backslash separates folders there.
      formatGithub(HOSTILE, { cwd: '.', sep: '\\' }),
      [
        '::error file=odd%2C name%3A 100%25%0D%0A%3A%3Aerror%3A%3A.babel.json,line=1,col=1,endLine=3,endColumn=5,title=babelq forbidden-key::first line\\nsecond: 50%25, done\\r\\n::warning::injected',
        '::notice file=odd%2C name%3A 100%25%0D%0A%3A%3Aerror%3A%3A.babel.json,line=5,col=2,endLine=5,endColumn=10,title=babelq case-mismatch::info',
        '::notice file=odd%2C name%3A 100%25%0D%0A%3A%3Aerror%3A%3A.babel.json,line=6,col=3,endLine=6,endColumn=4,title=babelq extension-key::hint',
        '::warning file=dir/win.babel.json,line=2,col=3,endLine=2,endColumn=8,title=babelq urn-alias::w',
        'babelq: 2 files checked: 1 error, 1 warning, 2 notices',
        '',
      ].join('\n'),
    );
  });

  test('file= carries a tab in the name as it is, so GitHub finds the file; an escape sequence stays visible', () => {
    const named = (file: string): FileReport[] => [{ file, diagnostics: [{ code: 'urn-alias', severity: 'warning', message: 'w', range: { start: { line: 1, character: 2 }, end: { line: 1, character: 7 } } }] }];
    const annotation = (file: string) => formatGithub(named(file)).split('\n')[0];
    assert.equal(annotation('fixtures/tab\there.babel.json'), '::warning file=fixtures/tab\there.babel.json,line=2,col=3,endLine=2,endColumn=8,title=babelq urn-alias::w');
    // ESC, the C1 CSI, a bell, a backspace: raw, they would steer the terminal the log is read on.
    assert.equal(
      annotation('fixtures/\u001b]0;t\u0007\u001b[2J\u009b31m\b\t.babel.json'),
      '::warning file=fixtures/\\u001b]0;t\\u0007\\u001b[2J\\u009b31m\\u0008\t.babel.json,line=2,col=3,endLine=2,endColumn=8,title=babelq urn-alias::w',
    );
    // A bidirectional override would show the name as another one; a line separator would break the line in a viewer.
    assert.equal(annotation('a\u202eb\u2028c.babel.json').split(',')[0], '::warning file=a\\u202eb\\u2028c.babel.json');
  });

  test('no line of the output starts a command that the diagnostics did not', () => {
    const commands = formatGithub(HOSTILE).split('\n').filter((line) => line.startsWith('::'));
    assert.equal(commands.length, 4);
  });
});

describe('compact', () => {
  test('one line per diagnostic: file:line:col-endLine:endCol: severity code: message', () => {
    assert.equal(
      formatCompact(HOSTILE.slice(1)),
      'dir\\win.babel.json:2:3-2:8: warning urn-alias: w\n',
    );
    const lines = formatCompact(HOSTILE).split('\n');
    assert.equal(lines.length, 5, 'a line break in a message or a file name does not add a row');
    // A line break in a message is shown as the file name's is, `\n` and `\r\n`: it comes from a key or value of the fixture.
    assert.equal(lines[0], 'odd, name: 100%\\r\\n::error::.babel.json:1:1-3:5: error forbidden-key: first line\\nsecond: 50%, done\\r\\n::warning::injected');
    assert.equal(lines[1], 'odd, name: 100%\\r\\n::error::.babel.json:5:2-5:10: info case-mismatch: info');
    assert.equal(lines[2], 'odd, name: 100%\\r\\n::error::.babel.json:6:3-6:4: hint extension-key: hint');
  });
});

describe('compact: a file name that holds a separator', () => {
  const named = (file: string): FileReport[] => [{ file, diagnostics: [{ code: 'urn-alias', severity: 'warning', message: 'w', range: { start: { line: 1, character: 2 }, end: { line: 1, character: 7 } } }] }];
  test('the colon that begins each separator in the name is written \\u003a; every other name is written as it is', () => {
    assert.equal(formatCompact(named('README.md:1:1-1:2: error forged: x.babel.json')), 'README.md\\u003a1:1-1:2: error forged: x.babel.json:2:3-2:8: warning urn-alias: w\n');
    // Only :2:2-2:2: is followed by ": "; the name's :1:1-1:1 is not a separator.
    assert.equal(formatCompact(named('a:1:1-1:1:2:2-2:2: b.babel.json')), 'a:1:1-1:1\\u003a2:2-2:2: b.babel.json:2:3-2:8: warning urn-alias: w\n');
    assert.equal(formatCompact(named('a:1:1-1:1: b:2:2-2:2: c.babel.json')), 'a\\u003a1:1-1:1: b\\u003a2:2-2:2: c.babel.json:2:3-2:8: warning urn-alias: w\n');
    for (const file of ['odd: name.babel.json', 'C:\\work\\a.babel.json', 'a:1:1-1:2.babel.json', 'v1:2:3-4:5x: y.babel.json']) {
      assert.equal(formatCompact(named(file)), `${file}:2:3-2:8: warning urn-alias: w\n`, file);
    }
  });
});

describe('through the CLI', () => {
  let root: string;
  before(() => {
    assertCliBuilt();
    root = makeTree({
      'fixtures/forbidden.babel.json': FORBIDDEN_TIMESTAMP,
      'fixtures/a,b:c%d.babel.json': URN_ALIAS_ONLY,
      'fixtures/clean.babel.json': envelope(),
    });
  });
  after(() => removeTree(root));

  test('--format github annotates each file, keeps the exit status, and escapes the file name', () => {
    const result = babelq(['lint', '--format', 'github', 'fixtures'], root);
    assert.equal(result.status, 1);
    assert.equal(result.stderr, '');
    const lines = result.stdout.trimEnd().split('\n');
    assert.equal(lines.length, 3, result.stdout);
    assert.match(lines[0], /^::warning file=fixtures\/a%2Cb%3Ac%25d\.babel\.json,line=2,col=3,endLine=2,endColumn=8,title=babelq urn-alias::.*"urn"/);
    assert.match(lines[1], /^::error file=fixtures\/forbidden\.babel\.json,line=13,col=3,endLine=13,endColumn=14,title=babelq forbidden-key::.*timestamp/);
    assert.equal(lines[2], 'babelq: 3 files checked: 1 error, 1 warning, 0 notices');
  });

  test('--format compact prints the same findings, one a line', () => {
    const result = babelq(['lint', '--format', 'compact', 'fixtures'], root);
    assert.equal(result.status, 1);
    const lines = result.stdout.trimEnd().split('\n');
    assert.deepEqual(
      lines.map((line) => line.replace(/: [^:]*$/, '').replace(/(forbidden-key|urn-alias): .*/, '$1')),
      ['fixtures/a,b:c%d.babel.json:2:3-2:8: warning urn-alias', 'fixtures/forbidden.babel.json:13:3-13:14: error forbidden-key'],
    );
  });

  test('--format github keeps a backslash in a file name on POSIX, where it separates no folders', { skip: process.platform === 'win32' }, () => {
    const dir = makeTree({ 'fixtures/b\\x.babel.json': URN_ALIAS_ONLY });
    try {
      const result = babelq(['lint', '--format', 'github', 'fixtures'], dir);
      assert.match(result.stdout, /^::warning file=fixtures\/b\\x\.babel\.json,line=2,/, result.stdout);
    } finally {
      removeTree(dir);
    }
  });

  test('--format github names a file with a tab in its name as it is, for GitHub to place the annotation', { skip: process.platform === 'win32' }, () => {
    const dir = makeTree({ 'fixtures/tab\tname.babel.json': URN_ALIAS_ONLY });
    try {
      const result = babelq(['lint', '--format', 'github', 'fixtures'], dir);
      assert.match(result.stdout, /^::warning file=fixtures\/tab\tname\.babel\.json,line=2,/, result.stdout);
    } finally {
      removeTree(dir);
    }
  });

  test('a clean run prints only the summary in github and nothing in compact', () => {
    assert.equal(babelq(['lint', '--format', 'github', 'fixtures/clean.babel.json'], root).stdout, 'babelq: 1 file checked: 0 errors, 0 warnings, 0 notices\n');
    const compact = babelq(['lint', '--format', 'compact', 'fixtures/clean.babel.json'], root);
    assert.equal(compact.status, 0);
    assert.equal(compact.stdout, '');
  });
});
