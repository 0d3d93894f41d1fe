/**
 * The option parser (cli/args.ts) and `babelq lint` on its end of options: after `--` every
 * argument is a path, one starting with a dash (`-draft.babel.json`, `--config=x.babel.json`) too,
 * as a git hook or a script that appends file names after `--` relies on.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { parseArgs } from '../../cli/args';
import { CliError } from '../../cli/errors';
import { assertCliBuilt, babelq, envelope, FORBIDDEN_TIMESTAMP, lintJson, makeTree, removeTree } from './helpers';

const SPECS = { format: { value: true }, 'force-exclude': { value: false }, help: { value: false, aliases: ['-h'] } } as const;

describe('parseArgs', () => {
  test("after '--' every argument is a positional, those starting with a dash too, in order", () => {
    const parsed = parseArgs(['--force-exclude', '--format', 'json', '--', '-draft.babel.json', '--format=sarif', '-h', '--', 'a.babel.json'], SPECS);
    assert.deepEqual(parsed.positionals, ['-draft.babel.json', '--format=sarif', '-h', '--', 'a.babel.json']);
    assert.deepEqual([...parsed.options], [['force-exclude', true], ['format', 'json']]);
  });

  test("before '--' a name starting with a dash is an option, and an unknown one is refused", () => {
    assert.throws(() => parseArgs(['-draft.babel.json'], SPECS), (error: unknown) => error instanceof CliError && /unknown option '-draft\.babel\.json'/.test(error.message));
  });

  test("the value of an option may start with a dash: it is taken as the value, not as an option", () => {
    assert.deepEqual(parseArgs(['--format', '--', 'a'], SPECS).options.get('format'), '--');
  });

  test("a value that is another option of the command (`--format --force-exclude`: the value left out) is refused, naming both; given with '=' it is the value", () => {
    for (const [args, other] of [[['--format', '--force-exclude', 'a'], '--force-exclude'], [['--format', '-h'], '-h'], [['--format', '--format=json'], '--format=json']] as const) {
      assert.throws(
        () => parseArgs(args, SPECS),
        (error: unknown) => error instanceof CliError && error.usage && error.message === `option '--format' needs a value, and '${other}' is an option of its own (for a value that starts so, write --format=${other})`,
        args.join(' '),
      );
    }
    assert.equal(parseArgs(['--format=--force-exclude'], SPECS).options.get('format'), '--force-exclude');
    // A value that only looks like an option, and is none of this command's, is still the value.
    assert.equal(parseArgs(['--format', '-draft'], SPECS).options.get('format'), '-draft');
  });
});

describe('a misspelt option or command', () => {
  before(assertCliBuilt);

  test('is refused with the one it is closest to named, when one is within two edits', () => {
    for (const [args, said] of [
      [['lint', '--max-warning', '0'], /^babelq: unknown option '--max-warning' \(did you mean '--max-warnings'\?\)\nRun 'babelq lint --help' for usage\.\n$/],
      [['lint', '--stdin-file-name', 'a.babel.json'], /^babelq: unknown option '--stdin-file-name' \(did you mean '--stdin-filename'\?\)\n/],
      [['lint', '--fix-dryrun'], /^babelq: unknown option '--fix-dryrun' \(did you mean '--fix-dry-run'\?\)\n/],
      [['lint', '--formt=json'], /^babelq: unknown option '--formt' \(did you mean '--format'\?\)\n/],
      [['peek', '--queu', 'orders'], /^babelq: unknown option '--queu' \(did you mean '--queue'\?\)\nRun 'babelq peek --help' for usage\.\n$/],
      [['lnt', 'fixtures'], /^babelq: unknown command 'lnt' \(did you mean 'lint'\?\)\nRun 'babelq --help' for usage\.\n$/],
      [['--verison'], /^babelq: unknown option '--verison' \(did you mean '--version'\?\)\n/],
      // `babelq help lint` is a command line of its own: a misspelt `help` is not taken for `lsp`.
      [['hlp', 'lint'], /^babelq: unknown command 'hlp' \(did you mean 'help'\?\)\n/],
      [['hepl'], /^babelq: unknown command 'hepl' \(did you mean 'help'\?\)\n/],
    ] as const) {
      const result = babelq([...args], process.cwd());
      assert.equal(result.status, 2, args.join(' '));
      assert.match(result.stderr, said, args.join(' '));
    }
  });

  test('is refused without a guess when none is close', () => {
    for (const [args, said] of [
      [['lint', '--bogus'], /^babelq: unknown option '--bogus'\nRun/],
      [['lint', '-x'], /^babelq: unknown option '-x'\nRun/],
      [['frobnicate'], /^babelq: unknown command 'frobnicate'\nRun/],
    ] as const) {
      const result = babelq([...args], process.cwd());
      assert.equal(result.status, 2, args.join(' '));
      assert.match(result.stderr, said, args.join(' '));
    }
  });
});

describe("babelq lint after '--'", () => {
  let root: string;
  before(() => {
    assertCliBuilt();
    root = makeTree({ '-draft.babel.json': FORBIDDEN_TIMESTAMP, '--config=x.babel.json': envelope(), 'b.babel.json': envelope() });
  });
  after(() => removeTree(root));

  test('lints a file whose name starts with a dash, and one that reads like an option with a value, as files', () => {
    const { result, reports } = lintJson(['--force-exclude', '--', '-draft.babel.json', '--config=x.babel.json', 'b.babel.json'], root);
    assert.equal(result.status, 1, result.stderr);
    assert.equal(result.stderr, '');
    assert.deepEqual(reports.map((report) => report.file), ['-draft.babel.json', '--config=x.babel.json', 'b.babel.json']);
    assert.deepEqual(reports[0].diagnostics.map((diagnostic) => diagnostic.code), ['forbidden-key']);
  });

  test('an option given after it is a path that is not there, and the message says where options go', () => {
    const result = babelq(['lint', '--', '--max-warnings', '0', 'b.babel.json'], root);
    assert.equal(result.status, 2);
    assert.equal(result.stdout, '');
    assert.equal(result.stderr, "babelq: no such file or directory: '--max-warnings' (after '--' every argument is a path: give options before it)\nbabelq: no such file or directory: '0'\n");
  });
});
