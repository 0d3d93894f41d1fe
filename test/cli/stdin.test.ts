/**
 * Standard input in the CLI: `babelq lint -` is `babelq lint --stdin` (the usual convention for a
 * file argument), `-` beside other paths is refused, and the commands that read one named file
 * (preview, send, compat) refuse `-` rather than look for a file of that name.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { assertCliBuilt, babelq, envelope, FORBIDDEN_TIMESTAMP, makeTree, removeTree } from './helpers';

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
