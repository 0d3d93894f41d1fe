/**
 * A value or path the user gave, quoted back in a message, is quoted by its start when long: a
 * 100 KB --registry (a variable that held a file's content, say) made a 100 KB message. Each
 * refusal below still says what was wrong, and quotes the value's first characters and `…`.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { assertCliBuilt, babelq, envelope, makeTree, removeTree } from './helpers';

const LONG = `x${'a'.repeat(100_000)}`;
/** The most a message with one long value cut may take (the value's start, the words around it, the help line). */
const BOUND = 600;

describe('a long value quoted in a message is cut', () => {
  let dir: string;
  before(() => {
    assertCliBuilt();
    dir = makeTree({ 'order.babel.json': envelope(), 'other.babel.json': envelope() });
  });
  after(() => removeTree(dir));

  for (const [args, said] of [
    [['lint', '--registry', LONG, 'order.babel.json'], /cannot read registry 'xa+…': the file does not exist/],
    [['lint', '--config', LONG, 'order.babel.json'], /cannot read config file 'xa+…': /],
    [['lint', LONG], /cannot read 'xa+…': the name is too long for the file system/],
    // A name the file system allows (under 255 bytes), and a glob of many short folders.
    [['lint', 'missing', `m${'a'.repeat(240)}`], /no such file or directory: 'missing'\nbabelq: no such file or directory: 'ma+…'/],
    [['lint', `${'ab/'.repeat(100)}*.babel.json`], /no files match the pattern '(ab\/)+a?b?…'/],
    [['lint', '--format', LONG], /--format must be one of stylish, json, sarif, github, compact, not 'xa+…'/],
    [['lint', '--validator', LONG], /--validator must be one of draft-07, bqschema, not 'xa+…'/],
    [['lint', '--max-warnings', LONG], /--max-warnings needs a whole number from 0 to 9007199254740991, not 'xa+…'/],
    [['lint', '--concurrency', LONG], /--concurrency needs a number of threads from 1 to 999, auto or off, not 'xa+…'/],
    [['lint', `--${LONG}`], /unknown option '--xa+…'/],
    [[LONG], /unknown command 'xa+…'/],
    [['preview', LONG], /cannot read 'xa+…': the name is too long for the file system/],
    [['preview', 'order.babel.json', '--layout', LONG], /--layout must be babelqueue or laravel, not 'xa+…'/],
    [['send', 'order.babel.json', '--timeout', `1${'0'.repeat(100_000)}`], /--timeout is at most 2147483647 ms \(about 24\.8 days\), not 10+…/],
    [['send', 'order.babel.json', '--timeout', LONG], /--timeout needs a whole number of milliseconds from 1 to 2147483647, not 'xa+…'/],
    [['send', 'order.babel.json', '--timeout', '0'], /--timeout needs a whole number of milliseconds from 1 to 2147483647, not '0'/],
    [['send', 'order.babel.json', '--sdk', LONG], /--sdk must be one of php, python, node, go, java, dotnet, auto, not 'xa+…'/],
    [['preview', 'order.babel.json', '--sdk', 'ruby'], /--sdk must be one of php, python, node, go, java, dotnet, auto, all, not 'ruby'/],
    [['peek', '--queue', 'orders', '--count', '0'], /--count needs a whole number from 1 to 10000, not '0'/],
    [['peek', '--queue', 'orders', '--count', LONG], /--count needs a whole number from 1 to 10000, not 'xa+…'/],
    [['peek', '--queue', 'orders', '--format', LONG], /--format must be text or json, not 'xa+…'/],
    [['dlq', 'list', '--queue', 'orders', '--limit', '20000'], /--limit needs a whole number from 1 to 10000, not '20000'/],
    [['dlq', 'list', '--queue', 'orders', '--format', 'sarif'], /--format must be text or json, not 'sarif'/],
    [['dlq', 'redrive', '--queue', 'orders', '--all', '--sdk', 'dotnet'], /--sdk must be one of auto, node, go, python, php, java \(the SDKs that ship a redrive\), not 'dotnet'/],
    [['peek', '--queue', 'orders', '--layout', LONG], /--layout must be babelqueue or laravel, not 'xa+…'/],
    [['dlq', LONG], /unknown dlq action 'xa+…' \(list or redrive\)/],
    [['gdpr', '--registry', LONG], /cannot read registry 'xa+…': /],
    [['gdpr', '--format', LONG], /--format must be stylish or json, not 'xa+…'/],
    [['compat', LONG, 'other.babel.json'], /cannot read 'xa+…': /],
    [['compat', '--base', 'HEAD', '--registry', LONG], /registry 'xa+…'/],
    [['lsp', LONG], /lsp takes --stdio or --node-ipc, not 'xa+…'/],
  ] as const) {
    test(`babelq ${args.map((arg) => (arg.length > 20 ? `${arg.slice(0, 8)}…(${arg.length})` : arg)).join(' ')}`, () => {
      const result = babelq(args, dir);
      assert.equal(result.status, 2, result.stderr.slice(0, 300));
      assert.equal(result.stdout, '');
      assert.ok(result.stderr.length < BOUND, `${result.stderr.length} characters: ${result.stderr.slice(0, 300)}`);
      assert.match(result.stderr, said);
    });
  }
});

describe("a long or unprintable file name in a refusal of the file's content", () => {
  const LONG_NAME = `${'n'.repeat(240)}.babel.json`;
  const ESCAPED_NAME = 'bad\u001b[31m.babel.json';
  let dir: string;
  before(() => {
    assertCliBuilt();
    dir = makeTree({ [LONG_NAME]: '{ "job": ', [ESCAPED_NAME]: '{ "job": ', 'schema.json': '{"type": "object"}', [`${'s'.repeat(240)}.json`]: '[1]' });
  });
  after(() => removeTree(dir));

  for (const verb of [['preview'], ['send', '--broker', 'redis://127.0.0.1:1', '--timeout', '1']]) {
    test(`babelq ${verb[0]} quotes a long name by its start, and writes no control character of a name raw`, () => {
      const long = babelq([verb[0], LONG_NAME, ...verb.slice(1)], dir);
      assert.equal(long.status, 1, long.stderr);
      assert.match(long.stderr, /^babelq: n+…: The file has a JSON syntax error/);
      assert.ok(long.stderr.length < BOUND, long.stderr);
      const escaped = babelq([verb[0], ESCAPED_NAME, ...verb.slice(1)], dir);
      assert.equal(escaped.status, 1, escaped.stderr);
      assert.ok(!escaped.stderr.includes('\u001b'), JSON.stringify(escaped.stderr));
      assert.match(escaped.stderr, /^babelq: bad\\u001b\[31m\.babel\.json: The file has a JSON syntax error/);
    });
  }

  test('babelq compat quotes a long name by its start in the refusal of a file that holds no schema', () => {
    const result = babelq(['compat', `${'s'.repeat(240)}.json`, 'schema.json'], dir);
    assert.equal(result.status, 2, result.stderr);
    assert.match(result.stderr, /^babelq: the old schema 's+…' /);
    assert.ok(result.stderr.length < BOUND, result.stderr);
  });
});
