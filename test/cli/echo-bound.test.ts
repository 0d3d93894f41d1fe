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
    [['send', 'order.babel.json', '--timeout', LONG], /--timeout needs a number of milliseconds, not 'xa+…'/],
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
