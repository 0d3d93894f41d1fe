/**
 * `babelq lint` end to end through the built CLI: the JSON contract of docs/diagnostics.md
 * (shape, exact ranges, sorting, file order), path resolution and exit statuses.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, closeSync, existsSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { assertCliBuilt, babelq, CLI_PATH, envelope, FORBIDDEN_TIMESTAMP, lintJson, makeTree, removeTree, REPO_ROOT, URN_ALIAS_ONLY } from './helpers';

let root: string;

before(() => {
  assertCliBuilt();
  root = makeTree({
    'clean.babel.json': envelope(),
    'forbidden.babel.json': FORBIDDEN_TIMESTAMP,
    'alias.babel.json': URN_ALIAS_ONLY,
    // unknown-lang (reported by a later rule) sits above forbidden-key: output must follow position.
    'unsorted.babel.json': envelope({ lang: 'cobol', extra: ',\n  "timestamp": 1749132727000' }),
    'crlf.babel.json': FORBIDDEN_TIMESTAMP.replace(/\n/g, '\r\n'),
    // One line, a non-BMP character before the key: characters are UTF-16 code units (the emoji counts 2).
    'utf16.babel.json': envelope({ data: '{ "note": "\u{1F600}\u{1F600}" }' }).replace(/\n\s*/g, ' ').replace('"attempts": 0', '"timestamp": 1, "attempts": 0'),
    // float-currency (a warning) carries the encoders' divergence on the same number (information).
    'carried.babel.json': envelope({ data: '{ "amount": 99999999999999.99 }' }),
    'bom.babel.json': Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(envelope())]),
    'latin1.babel.json': Buffer.concat([Buffer.from('{\n  "job": "caf'), Buffer.from([0xe9]), Buffer.from('"\n}\n')]),
    'bom-latin1.babel.json': Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('{"job": "caf'), Buffer.from([0xe9]), Buffer.from('"}\n')]),
    'tree/B.babel.json': envelope(),
    'tree/a.babel.json': envelope(),
    'tree/b.babel.json': envelope(),
    'tree/notes.json': '{}',
    'tree/sub/c.babel.json': envelope(),
    'tree/node_modules/pkg/x.babel.json': FORBIDDEN_TIMESTAMP,
    'tree/.git/y.babel.json': FORBIDDEN_TIMESTAMP,
    'empty/readme.txt': 'no fixtures here',
  });
});

after(() => removeTree(root));

describe('json output', () => {
  test('reports forbidden-key at the exact range of the key, in the documented shape', () => {
    const { result, reports } = lintJson(['forbidden.babel.json'], root);
    assert.equal(result.status, 1);
    assert.equal(reports.length, 1);
    assert.deepEqual(Object.keys(reports[0]), ['file', 'diagnostics']);
    assert.equal(reports[0].file, 'forbidden.babel.json');
    assert.equal(reports[0].diagnostics.length, 1);
    const [diagnostic] = reports[0].diagnostics;
    assert.deepEqual(Object.keys(diagnostic), ['code', 'severity', 'message', 'range']);
    assert.deepEqual(Object.keys(diagnostic.range), ['start', 'end']);
    assert.deepEqual(Object.keys(diagnostic.range.start), ['line', 'character']);
    assert.equal(diagnostic.code, 'forbidden-key');
    assert.equal(diagnostic.severity, 'error');
    assert.match(diagnostic.message, /timestamp/);
    assert.deepEqual(diagnostic.range, { start: { line: 12, character: 2 }, end: { line: 12, character: 13 } });
  });

  test('a carried finding has its own severity, so a carried warning is told from a carried hint', () => {
    const { reports } = lintJson(['carried.babel.json'], root);
    const [shown] = reports[0].diagnostics;
    assert.equal(shown.code, 'float-currency');
    assert.equal(shown.severity, 'warning');
    assert.equal(shown.related?.length, 1, JSON.stringify(reports));
    assert.deepEqual(Object.keys(shown.related![0]), ['code', 'severity', 'message', 'range']);
    assert.equal(shown.related![0].code, 'encoding-divergence');
    assert.equal(shown.related![0].severity, 'information');
  });

  test('is a single JSON document and nothing else on stdout', () => {
    const { result } = lintJson(['forbidden.babel.json', 'clean.babel.json'], root);
    assert.equal(result.stdout.trimEnd().split('\n').length, 1);
    assert.equal(result.stderr, '');
  });

  test('sorts diagnostics by position, not by the rule that found them', () => {
    const { reports } = lintJson(['unsorted.babel.json'], root);
    const diagnostics = reports[0].diagnostics;
    assert.deepEqual(
      diagnostics.map((d) => d.code),
      ['unknown-lang', 'forbidden-key'],
    );
    assert.deepEqual(diagnostics[0].range.start, { line: 7, character: 12 });
    for (let i = 1; i < diagnostics.length; i++) {
      const [a, b] = [diagnostics[i - 1].range.start, diagnostics[i].range.start];
      assert.ok(a.line < b.line || (a.line === b.line && a.character <= b.character), `diagnostic ${i} is out of order`);
    }
  });

  test('counts CRLF as one line break', () => {
    const { reports } = lintJson(['crlf.babel.json'], root);
    assert.deepEqual(reports[0].diagnostics[0].range, { start: { line: 12, character: 2 }, end: { line: 12, character: 13 } });
  });

  test('measures characters in UTF-16 code units', () => {
    const text = readFileSync(join(root, 'utf16.babel.json'), 'utf8');
    const { reports } = lintJson(['utf16.babel.json'], root);
    const forbidden = reports[0].diagnostics.find((d) => d.code === 'forbidden-key');
    assert.ok(forbidden, JSON.stringify(reports));
    const start = text.indexOf('"timestamp"');
    assert.deepEqual(forbidden.range, { start: { line: 0, character: start }, end: { line: 0, character: start + '"timestamp"'.length } });
  });

  test('a clean file has an empty diagnostics array and exit status 0', () => {
    const { result, reports } = lintJson(['clean.babel.json'], root);
    assert.equal(result.status, 0);
    assert.deepEqual(reports, [{ file: 'clean.babel.json', diagnostics: [] }]);
  });

  // An editor hides the mark, so it takes no column there: the finding is empty at 1:1, and the rest of line 1 is counted without it.
  test('a byte-order mark is json-syntax, empty, at 0:0', () => {
    const { result, reports } = lintJson(['bom.babel.json'], root);
    assert.equal(result.status, 1);
    assert.deepEqual(
      reports[0].diagnostics.map((d) => [d.code, d.severity, d.range]),
      [['json-syntax', 'error', { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }]],
    );
  });

  test('bytes that are not UTF-8 give one json-syntax error where the first invalid byte is', () => {
    const { result, reports } = lintJson(['latin1.babel.json'], root);
    assert.equal(result.status, 1);
    assert.equal(reports[0].diagnostics.length, 1);
    const [diagnostic] = reports[0].diagnostics;
    assert.equal(diagnostic.code, 'json-syntax');
    assert.equal(diagnostic.severity, 'error');
    assert.match(diagnostic.message, /not valid UTF-8.*0xE9 at byte offset 15, line 2/);
    // Line 2, after `  "job": "caf`: where an editor shows the byte it could not read.
    assert.deepEqual(diagnostic.range, { start: { line: 1, character: 13 }, end: { line: 1, character: 13 } });
  });

  test('in a file stored with a byte-order mark, the invalid byte on line 1 is at the column the editor shows it, the mark taking none', () => {
    const { reports } = lintJson(['bom-latin1.babel.json'], root);
    assert.deepEqual(
      reports[0].diagnostics.map((d) => [d.code, d.range]),
      [['json-syntax', { start: { line: 0, character: 12 }, end: { line: 0, character: 12 } }]],
    );
  });
});

describe('files and order', () => {
  test('files come out in the order given', () => {
    const { reports } = lintJson(['forbidden.babel.json', 'clean.babel.json', 'alias.babel.json'], root);
    assert.deepEqual(
      reports.map((r) => r.file),
      ['forbidden.babel.json', 'clean.babel.json', 'alias.babel.json'],
    );
  });

  test('a directory expands recursively, sorted by code unit, skipping node_modules, .git and other files', () => {
    const { result, reports } = lintJson(['tree'], root);
    assert.equal(result.status, 0);
    assert.deepEqual(
      reports.map((r) => r.file),
      ['tree/B.babel.json', 'tree/a.babel.json', 'tree/b.babel.json', 'tree/sub/c.babel.json'],
    );
  });

  test('a file given before its directory is reported once, first', () => {
    const { reports } = lintJson(['tree/b.babel.json', 'tree'], root);
    assert.deepEqual(
      reports.map((r) => r.file),
      ['tree/b.babel.json', 'tree/B.babel.json', 'tree/a.babel.json', 'tree/sub/c.babel.json'],
    );
  });

  test('without paths, lints the current directory', () => {
    const { reports } = lintJson([], join(root, 'tree'));
    assert.deepEqual(
      reports.map((r) => r.file),
      ['B.babel.json', 'a.babel.json', 'b.babel.json', 'sub/c.babel.json'],
    );
  });

  test('a recursive glob matches below its base and skips node_modules and .git', () => {
    const { reports } = lintJson(['tree/**/*.babel.json'], root);
    assert.deepEqual(
      reports.map((r) => r.file),
      ['tree/B.babel.json', 'tree/a.babel.json', 'tree/b.babel.json', 'tree/sub/c.babel.json'],
    );
  });

  test('**/*.babel.json from the current directory finds files at every depth', () => {
    const { reports } = lintJson(['**/*.babel.json'], join(root, 'tree'));
    assert.deepEqual(
      reports.map((r) => r.file),
      ['B.babel.json', 'a.babel.json', 'b.babel.json', 'sub/c.babel.json'],
    );
  });

  test('dir/*.babel.json stays in one directory; ? and {a,b} work', () => {
    assert.deepEqual(
      lintJson(['tree/*.babel.json'], root).reports.map((r) => r.file),
      ['tree/B.babel.json', 'tree/a.babel.json', 'tree/b.babel.json'],
    );
    assert.deepEqual(
      lintJson(['tree/{a,sub/c}.babel.json'], root).reports.map((r) => r.file),
      ['tree/a.babel.json', 'tree/sub/c.babel.json'],
    );
    assert.deepEqual(
      lintJson(['tree/?.babel.json'], root).reports.map((r) => r.file),
      ['tree/B.babel.json', 'tree/a.babel.json', 'tree/b.babel.json'],
    );
  });

  test('a path that does not exist is exit 2 with the path on stderr and nothing on stdout', () => {
    const result = babelq(['lint', '--format', 'json', 'clean.babel.json', 'missing.babel.json'], root);
    assert.equal(result.status, 2);
    assert.equal(result.stdout, '');
    assert.match(result.stderr, /missing\.babel\.json/);
  });

  test('an empty path (a shell variable that held nothing) is exit 2, not a lint of the current folder', () => {
    for (const args of [[''], ['clean.babel.json', '']]) {
      const result = babelq(['lint', ...args], root);
      assert.equal(result.status, 2, JSON.stringify(args));
      assert.equal(result.stdout, '');
      assert.match(result.stderr, /an empty path names no file or folder; give '\.' to lint the current folder/);
    }
  });

  test('an empty --config or --registry (a variable that held nothing) is exit 2, named as empty, not read as the current folder', () => {
    for (const option of ['--config', '--registry']) {
      const result = babelq(['lint', option, '', 'clean.babel.json'], root);
      assert.equal(result.status, 2, option);
      assert.equal(result.stdout, '');
      assert.match(result.stderr, new RegExp(`${option} needs a file, not an empty value`), option);
      assert.doesNotMatch(result.stderr, /directory/, option);
    }
  });

  test('--max-warnings beyond a safe integer is exit 2, not a limit that compares wrongly or is never reached', () => {
    for (const value of ['99999999999999999999', '9007199254740992']) {
      const result = babelq(['lint', '--max-warnings', value, 'clean.babel.json'], root);
      assert.equal(result.status, 2, value);
      assert.equal(result.stdout, '');
      assert.match(result.stderr, new RegExp(`^babelq: --max-warnings needs a whole number from 0 to 9007199254740991, not '${value}'\n`), value);
    }
    assert.equal(babelq(['lint', '--max-warnings', '9007199254740991', 'clean.babel.json'], root).status, 0);
  });

  test('--registry followed by another option (its value left out) is exit 2 naming both, not a registry called --format', () => {
    const result = babelq(['lint', '--registry', '--format', 'json', 'clean.babel.json'], root);
    assert.equal(result.status, 2);
    assert.equal(result.stdout, '');
    assert.match(result.stderr, /^babelq: option '--registry' needs a value, and '--format' is an option of its own/);
  });

  test('a glob that matches nothing is exit 2', () => {
    const result = babelq(['lint', 'tree/*.nothing'], root);
    assert.equal(result.status, 2);
    assert.match(result.stderr, /no files match the pattern 'tree\/\*\.nothing'/);
  });

  test('a directory without envelope files is exit 2', () => {
    const result = babelq(['lint', 'empty'], root);
    assert.equal(result.status, 2);
    assert.match(result.stderr, /empty/);
  });
});

describe('exit status', () => {
  test('an error is exit 1', () => {
    assert.equal(babelq(['lint', 'forbidden.babel.json'], root).status, 1);
  });

  test('warnings alone are exit 0, and exit 1 once they exceed --max-warnings', () => {
    assert.equal(babelq(['lint', 'alias.babel.json'], root).status, 0);
    assert.equal(babelq(['lint', 'alias.babel.json', '--max-warnings', '1'], root).status, 0);
    const over = babelq(['lint', 'alias.babel.json', '--max-warnings', '0'], root);
    assert.equal(over.status, 1);
    assert.match(over.stderr, /max-warnings/);
    assert.equal(babelq(['lint', 'alias.babel.json', '--max-warnings=0'], root).status, 1);
  });

  test('the --max-warnings line counts one warning in the singular', () => {
    const over = babelq(['lint', 'alias.babel.json', '--max-warnings', '0'], root);
    assert.match(over.stderr, /^babelq: 1 warning exceeds --max-warnings 0$/m);
  });

  test('a clean file is exit 0', () => {
    const result = babelq(['lint', 'clean.babel.json', '--max-warnings', '0'], root);
    assert.equal(result.status, 0);
    assert.equal(result.stderr, '');
  });

  test('a report that cannot be written (a full disk) is exit 2 with the reason on stderr, not exit 1 and a stack trace', { skip: !existsSync('/dev/full') && 'no /dev/full here' }, () => {
    for (const file of ['clean.babel.json', 'forbidden.babel.json']) {
      const full = openSync('/dev/full', 'w');
      try {
        const result = spawnSync(process.execPath, [CLI_PATH, 'lint', '--format', 'sarif', file], { cwd: root, encoding: 'utf8', stdio: ['ignore', full, 'pipe'] });
        assert.equal(result.status, 2, result.stderr);
        assert.equal(result.stderr, 'babelq: cannot write to standard output: no space left on device\n');
      } finally {
        closeSync(full);
      }
    }
  });

  for (const args of [
    ['lint', '--format', 'xml', 'clean.babel.json'],
    ['lint', '--max-warnings', '-1', 'clean.babel.json'],
    ['lint', '--max-warnings', 'many', 'clean.babel.json'],
    ['lint', '--max-warnings'],
    ['lint', '--fix', '--fix-dry-run', 'clean.babel.json'],
    ['lint', '--suppress-all', 'clean.babel.json'],
    ['lint', '--stdin', 'clean.babel.json'],
    ['frobnicate'],
    ['preview', 'clean.babel.json', 'second.babel.json'],
    ['preview', 'clean.babel.json', '--sdk', 'rust'],
    ['send', 'clean.babel.json', '--timeout', 'soon'],
    ['peek'],
    ['--frobnicate'],
    [],
  ]) {
    test(`usage error is exit 2: babelq ${args.join(' ')}`, () => {
      const result = babelq(args, root);
      assert.equal(result.status, 2);
      assert.equal(result.stdout, '');
      assert.notEqual(result.stderr.trim(), '');
    });
  }
});

describe('help and version', () => {
  test('--version prints the version of package.json', () => {
    const { version } = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { version: string };
    const result = babelq(['--version'], root);
    assert.equal(result.status, 0);
    assert.equal(result.stdout, `${version}\n`);
  });

  test('--version and -v take no arguments: one given is refused (exit 2), as help refuses a second command', () => {
    for (const asked of [['--version', 'extra'], ['-v', 'lint', 'a.babel.json']]) {
      const result = babelq(asked, root);
      assert.equal(result.status, 2, asked.join(' '));
      assert.equal(result.stdout, '', asked.join(' '));
      assert.equal(result.stderr, `babelq: ${asked[0]} takes no arguments, not '${asked.slice(1).join(' ')}'\nRun 'babelq --help' for usage.\n`);
    }
  });

  test('--help lists the lint command on stdout', () => {
    const result = babelq(['--help'], root);
    assert.equal(result.status, 0);
    assert.match(result.stdout, /^Usage: babelq <command>/);
    assert.match(result.stdout, /\n {2}lint \[paths\.\.\.\]/);
  });

  test('lint --help lists every lint option', () => {
    const result = babelq(['lint', '--help'], root);
    assert.equal(result.status, 0);
    for (const option of ['--format', '--max-warnings', '--config']) assert.ok(result.stdout.includes(option), option);
  });

  test('babelq help <command> and babelq --help <command> show what <command> --help shows; an unknown one is refused', () => {
    for (const name of ['lint', 'dlq', 'lsp']) {
      const own = babelq([name, '--help'], root);
      for (const asked of [['help', name], ['--help', name], ['-h', name]]) {
        const result = babelq(asked, root);
        assert.equal(result.status, 0, asked.join(' '));
        assert.equal(result.stdout, own.stdout, asked.join(' '));
      }
    }
    assert.match(babelq(['help'], root).stdout, /^Usage: babelq <command>/);
    const unknown = babelq(['help', 'lnt'], root);
    assert.equal(unknown.status, 2);
    assert.match(unknown.stderr, /^babelq: no help for 'lnt': it is not a command \(lint, preview, send, peek, lsp, dlq, compat, gdpr\)\n/);
    const two = babelq(['help', 'lint', 'dlq'], root);
    assert.equal(two.status, 2);
    assert.match(two.stderr, /^babelq: help takes one command, not 'dlq'\n/);
  });
});

test('standard input above the 64 MiB bound is refused in the words a file is (exit 2, nothing linted)', () => {
  assertCliBuilt();
  const dir = makeTree({});
  try {
    const result = babelq(['lint', '--stdin'], dir, {}, ' '.repeat(64 * 1024 * 1024 + 1));
    assert.equal(result.status, 2);
    assert.equal(result.stdout, '');
    assert.match(result.stderr, /^babelq: standard input holds more than 64\.0 MiB, the most this tool reads for one envelope file; it was not linted\n$/);
  } finally {
    removeTree(dir);
  }
});

test('a fixture whose name is not valid UTF-8 is named as such (exit 2), not called missing', { skip: process.platform !== 'linux' && 'file names of any bytes are a Linux thing' }, () => {
  assertCliBuilt();
  const dir = makeTree({});
  try {
    writeFileSync(Buffer.from(`${dir}/bad\xff.babel.json`, 'latin1'), FORBIDDEN_TIMESTAMP);
    const result = babelq(['lint', '.'], dir);
    assert.equal(result.status, 2);
    assert.equal(result.stdout, '');
    assert.match(result.stderr, /cannot read 'bad\uFFFD\.babel\.json': its name is not valid UTF-8/);
    assert.doesNotMatch(result.stderr, /no such file/);
  } finally {
    removeTree(dir);
  }
});

test('a file whose name is not valid UTF-8, named on the command line, is not called missing without a word: the message says the name cannot be given so (exit 2)', { skip: process.platform !== 'linux' && 'file names of any bytes are a Linux thing' }, () => {
  assertCliBuilt();
  const dir = makeTree({});
  try {
    writeFileSync(Buffer.from(`${dir}/bad\xfe.babel.json`, 'latin1'), FORBIDDEN_TIMESTAMP);
    // The shell passes the name's bytes as they are; Node reads argv as UTF-8, with U+FFFD for the byte 0xFE.
    for (const command of ['lint', 'preview', 'compat']) {
      const name = "\"$(printf 'bad\\376.babel.json')\"";
      const line = command.startsWith('compat') ? `compat ${name} ${name}` : `${command} ${name}`;
      const result = spawnSync('sh', ['-c', `exec "${process.execPath}" "${CLI_PATH}" ${line}`], { cwd: dir, encoding: 'utf8', env: { ...process.env, NO_COLOR: '' } });
      assert.equal(result.status, 2, `${command}: ${result.stdout}${result.stderr}`);
      assert.match(result.stderr, /'bad\uFFFD\.babel\.json'.*not valid UTF-8/, `${command}: ${result.stderr}`);
    }
  } finally {
    removeTree(dir);
  }
});

test('a folder a walk cannot read is named as the other paths are, from the path given, not by this machine\'s absolute path (exit 2)', { skip: process.getuid?.() !== 0 && 'needs root to run the lint as another user' }, () => {
  assertCliBuilt();
  const dir = makeTree({ 'fixtures/ok.babel.json': envelope(), 'fixtures/locked/a.babel.json': envelope() });
  try {
    chmodSync(dir, 0o755);
    chmodSync(join(dir, 'fixtures'), 0o755);
    chmodSync(join(dir, 'fixtures', 'locked'), 0o000);
    // Another user: root reads a folder whatever its mode.
    const result = spawnSync('setpriv', ['--reuid', '4323', '--regid', '4324', '--clear-groups', process.execPath, CLI_PATH, 'lint', 'fixtures'], { cwd: dir, encoding: 'utf8', env: { ...process.env, NO_COLOR: '' } });
    assert.equal(result.status, 2, result.stderr);
    assert.equal(result.stdout, '');
    assert.equal(result.stderr, "babelq: cannot read directory 'fixtures/locked': permission denied\n");
  } finally {
    chmodSync(join(dir, 'fixtures', 'locked'), 0o755);
    removeTree(dir);
  }
});

test('--fix renames (or moves) a key onto its field only where the value is one the field takes, as README says: "traceId": "x" and "URN": "x" stay, a UUID traceId, a URN and a meta field beside meta move', () => {
  const base = JSON.parse(envelope()) as Record<string, unknown> & { meta: Record<string, unknown> };
  const variant = (patch: (e: typeof base) => void) => {
    const e = structuredClone(base);
    patch(e);
    return `${JSON.stringify(e, null, 2)}\n`;
  };
  const dir = makeTree({
    'stays.babel.json': variant((e) => { delete e.trace_id; e.traceId = 'x'; }),
    'urn-stays.babel.json': variant((e) => { delete e.job; e.URN = 'x'; }),
    'renamed.babel.json': variant((e) => { delete e.trace_id; e.traceId = '7b3f9c2a-e41d-4f88-9b2a-1c0d5e6f7a8b'; }),
    'urn-renamed.babel.json': variant((e) => { delete e.job; e.URN = 'urn:babel:orders:created'; }),
    'moved.babel.json': variant((e) => { delete e.meta.queue; e.queue = 'orders'; }),
    'not-moved.babel.json': variant((e) => { delete e.meta.lang; e.lang = 'cobol'; }),
  });
  try {
    babelq(['lint', '--fix', '.'], dir);
    const read = (name: string) => JSON.parse(readFileSync(join(dir, name), 'utf8')) as Record<string, unknown> & { meta: Record<string, unknown> };
    assert.equal(read('stays.babel.json').traceId, 'x');
    assert.equal(read('urn-stays.babel.json').URN, 'x');
    assert.equal(read('renamed.babel.json').trace_id, '7b3f9c2a-e41d-4f88-9b2a-1c0d5e6f7a8b');
    assert.equal(read('urn-renamed.babel.json').job, 'urn:babel:orders:created');
    assert.equal(read('moved.babel.json').meta.queue, 'orders');
    assert.equal(read('not-moved.babel.json').lang, 'cobol');
  } finally {
    removeTree(dir);
  }
});
