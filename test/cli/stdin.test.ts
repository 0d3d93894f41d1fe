/**
 * Standard input in the CLI: `babelq lint -` is `babelq lint --stdin` (the usual convention for a
 * file argument), `-` beside other paths is refused, and the commands that read one named file
 * (preview, send, compat) refuse `-` rather than look for a file of that name. Standard input
 * closed (`<&-`) is an error, not an empty envelope; from /dev/null it is an empty one.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { assertCliBuilt, babelq, CLI_PATH, envelope, FORBIDDEN_TIMESTAMP, makeTree, removeTree, type RunResult } from './helpers';

let root: string;

before(() => {
  assertCliBuilt();
  root = makeTree({
    'legacy/babelq.json': '{ "severity": { "forbidden-key": "off" } }\n',
    'clean.babel.json': envelope(),
    // A file named '-': `-` still means standard input; `./-` names the file.
    '-': FORBIDDEN_TIMESTAMP,
  });
});

after(() => removeTree(root));

describe("babelq lint '-'", () => {
  test("'-' lints standard input as --stdin does: the same output and exit status", () => {
    for (const format of ['json', 'compact', 'stylish']) {
      const dash = babelq(['lint', '-', '--format', format], root, {}, FORBIDDEN_TIMESTAMP);
      const stdin = babelq(['lint', '--stdin', '--format', format], root, {}, FORBIDDEN_TIMESTAMP);
      assert.deepEqual(dash, stdin, format);
      assert.equal(dash.status, 1);
    }
    const json = babelq(['lint', '-', '--format', 'json'], root, {}, FORBIDDEN_TIMESTAMP);
    assert.equal(JSON.parse(json.stdout)[0].file, 'stdin.babel.json', 'named as --stdin names it, not as the file named "-"');
  });

  test("'-' with --stdin-filename: the name decides the settings, as with --stdin", () => {
    const dash = babelq(['lint', '-', '--stdin-filename', 'legacy/x.babel.json', '--format', 'json'], root, {}, FORBIDDEN_TIMESTAMP);
    assert.equal(dash.status, 0, dash.stderr);
    assert.deepEqual(JSON.parse(dash.stdout), [{ file: 'legacy/x.babel.json', diagnostics: [] }]);
  });

  test("'-' after '--' is standard input too; './-' names a file called '-'", () => {
    const dash = babelq(['lint', '--format', 'json', '--', '-'], root, {}, envelope());
    assert.equal(dash.status, 0, dash.stderr);
    assert.deepEqual(JSON.parse(dash.stdout), [{ file: 'stdin.babel.json', diagnostics: [] }]);
    const file = babelq(['lint', '--format', 'json', './-'], root, {}, envelope());
    assert.equal(file.status, 1, file.stderr);
    assert.equal(JSON.parse(file.stdout)[0].file, './-');
  });

  test("'-' beside other paths, or twice, is a usage error (exit 2) that says why", () => {
    for (const args of [['lint', '-', 'clean.babel.json'], ['lint', 'clean.babel.json', '-'], ['lint', '-', '-']]) {
      const result = babelq(args, root, {}, envelope());
      assert.equal(result.status, 2, args.join(' '));
      assert.equal(result.stdout, '');
      assert.match(result.stderr, /^babelq: '-' stands for standard input, which is linted on its own: give no other paths beside it\n/, args.join(' '));
    }
  });

  test("--stdin with '-' is the same standard input, once", () => {
    const result = babelq(['lint', '--stdin', '-', '--format', 'json'], root, {}, envelope());
    assert.equal(result.status, 0, result.stderr);
    assert.deepEqual(JSON.parse(result.stdout), [{ file: 'stdin.babel.json', diagnostics: [] }]);
  });

  test("--stdin-filename without --stdin or '-' still asks for one of them", () => {
    const result = babelq(['lint', '--stdin-filename', 'a.babel.json', 'clean.babel.json'], root);
    assert.equal(result.status, 2);
    assert.match(result.stderr, /^babelq: --stdin-filename names standard input; add --stdin or '-'/);
  });
});

describe('standard input and the suppressions file', () => {
  // Piped text is an editor's unsaved buffer or some other text, not the file it stands for: a
  // baseline written from it, or an entry pruned because it lacks the finding, would change what
  // the next lint of the file on disk reports (a pruned entry brings its finding back into CI).
  test('--suppress-all and --prune-suppressions with standard input are usage errors (exit 2) that write nothing', () => {
    const tree = makeTree({
      'a.babel.json': FORBIDDEN_TIMESTAMP,
      'babelq-suppressions.json': JSON.stringify({ suppressions: [{ file: 'a.babel.json', code: 'forbidden-key', pointer: '/timestamp', reason: 'legacy producer' }] }, null, 2) + '\n',
    });
    try {
      const before = readFileSync(join(tree, 'babelq-suppressions.json'), 'utf8');
      for (const args of [
        ['lint', '--stdin', '--stdin-filename', 'a.babel.json', '--prune-suppressions'],
        ['lint', '-', '--stdin-filename', 'a.babel.json', '--prune-suppressions'],
        ['lint', '--stdin', '--suppress-all', '--reason', 'legacy'],
        ['lint', '-', '--stdin-filename', 'b.babel.json', '--suppress-all', '--reason', 'legacy'],
        // Refused for standard input first: asking for a reason would only lead to this refusal.
        ['lint', '--stdin', '--suppress-all'],
      ]) {
        const result = babelq(args, tree, {}, envelope());
        assert.equal(result.status, 2, args.join(' '));
        assert.equal(result.stdout, '', args.join(' '));
        assert.match(result.stderr, /^babelq: --(suppress-all|prune-suppressions) edits babelq-suppressions\.json from the files on disk; lint the files by their paths, not standard input\n/, args.join(' '));
        assert.equal(readFileSync(join(tree, 'babelq-suppressions.json'), 'utf8'), before, args.join(' '));
      }
      // The entry still holds for the file on disk.
      const lint = babelq(['lint', 'a.babel.json', '--format', 'json'], tree);
      assert.equal(lint.status, 0, lint.stdout + lint.stderr);
    } finally {
      removeTree(tree);
    }
  });
});

describe("'-' in the commands that read one named file", () => {
  for (const args of [['preview', '-'], ['send', '-', '--broker', 'redis://127.0.0.1:1'], ['compat', '-', 'clean.babel.json'], ['compat', 'clean.babel.json', '-']]) {
    test(`babelq ${args.join(' ')} refuses '-' (exit 2): standard input is read by lint only`, () => {
      const result = babelq(args, root, {}, envelope());
      assert.equal(result.status, 2, result.stderr);
      assert.equal(result.stdout, '');
      assert.match(result.stderr, new RegExp(`^babelq: ${args[0]} reads files, not standard input \\('-'\\): save it to a file and name that \\(\\./- names a file called '-'\\)\\n`));
    });
  }
});

/** `babelq <args>` run by sh with `redirect` applied to its standard input (`<&-` closes it; `stdio: 'ignore'` would give /dev/null). */
function babelqWithInput(redirect: string, args: readonly string[]): RunResult {
  const result = spawnSync('sh', ['-c', `exec "$0" "$@" ${redirect}`, process.execPath, CLI_PATH, ...args], {
    cwd: root,
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '' },
    timeout: 30_000,
  });
  if (result.error) throw result.error;
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe('standard input closed', { skip: process.platform !== 'linux' && 'told apart from /dev/null where /proc says how it is open' }, () => {
  for (const args of [['lint', '--stdin'], ['lint', '-'], ['lint', '--stdin', '--stdin-filename', 'legacy/x.babel.json', '--format', 'json']]) {
    test(`babelq ${args.join(' ')} <&- is exit 2, one line saying standard input is closed`, () => {
      const result = babelqWithInput('<&-', args);
      assert.equal(result.status, 2, result.stdout + result.stderr);
      assert.equal(result.stdout, '');
      assert.match(result.stderr, /^babelq: standard input is closed, or is \/dev\/null opened for reading and writing \(which is what Node puts in place of a closed one\): there is no envelope to read; pipe the envelope in \(babelq lint --stdin < a\.babel\.json\), or name the file to lint\n$/);
    });
  }

  test('standard input from /dev/null is an empty file, as before: its finding, exit 1', () => {
    const result = babelqWithInput('</dev/null', ['lint', '--stdin', '--format', 'compact']);
    assert.equal(result.status, 1, result.stderr);
    assert.equal(result.stderr, '');
    assert.match(result.stdout, /^stdin\.babel\.json:1:1-1:1: error json-syntax: The file is empty/);
  });

  test('standard input from /dev/null opened for reading and writing (Python\'s subprocess.DEVNULL, systemd\'s StandardInput=null) cannot be told from a closed one: the message says both, not "closed" alone', () => {
    const result = babelqWithInput('<>/dev/null', ['lint', '--stdin', '--format', 'compact']);
    assert.equal(result.status, 2, result.stdout + result.stderr);
    assert.equal(result.stdout, '');
    assert.match(result.stderr, /^babelq: standard input is closed, or is \/dev\/null opened for reading and writing \(which is what Node puts in place of a closed one\): there is no envelope to read; pipe the envelope in \(babelq lint --stdin < a\.babel\.json\), or name the file to lint\n$/);
  });

  test('standard input open for writing only (nohup\'s /dev/null) cannot be read: said so, not that it is closed', () => {
    const result = babelqWithInput('>/dev/null <&1', ['lint', '--stdin', '--format', 'compact']);
    assert.equal(result.status, 2, result.stdout + result.stderr);
    assert.match(result.stderr, /^babelq: standard input cannot be read \(it is closed, or open for writing only\): there is no envelope to read; pipe the envelope in/);
  });

  test('a closed standard input that lint does not read is no error (paths given)', () => {
    const result = babelqWithInput('<&-', ['lint', 'clean.babel.json', '--format', 'json']);
    assert.equal(result.status, 0, result.stderr);
    assert.deepEqual(JSON.parse(result.stdout), [{ file: 'clean.babel.json', diagnostics: [] }]);
  });
});
