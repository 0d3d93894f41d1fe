/**
 * The `babelq` task and the `$babelq` problem matcher: the manifest declares both, the task's
 * arguments come from its definition, and the matcher's pattern, applied as VS Code applies it,
 * reads exactly what the CLI prints for the task: every finding, with its file, range, severity,
 * code and message, and nothing else.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { lintTaskArgs, PROBLEM_MATCHER, TASK_TYPE } from '../../client/task-command';
import { assertCliBuilt, babelq, envelope, FORBIDDEN_TIMESTAMP, lintJson, makeTree, removeTree } from '../cli/helpers';
import { withRelated } from '../../cli/diagnostics';

const ROOT = resolve(__dirname, '../..');
const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
const matcher = manifest.contributes.problemMatchers.find((m: { name: string }) => `$${m.name}` === PROBLEM_MATCHER);
const pattern = new RegExp(matcher.pattern.regexp);

/** VS Code's severity words for the matcher's severity group (hint is shown as information). */
const SEVERITY_OF: Record<string, string> = { error: 'error', warning: 'warning', info: 'information', hint: 'hint' };

let root: string;
before(() => {
  assertCliBuilt();
  root = makeTree({
    'fixtures/forbidden.babel.json': FORBIDDEN_TIMESTAMP,
    // A colon in the file name, and a key that makes the message itself look like a matcher line.
    'fixtures/odd: name.babel.json': envelope({ extra: ',\n  "Attempts": 1,\n  "x:1:2-3:4: error json-syntax: y": true', jobKey: 'urn' }),
    'fixtures/clean.babel.json': envelope(),
    // Folders whose names read as options.
    '-legacy/forbidden.babel.json': FORBIDDEN_TIMESTAMP,
    '--fix/forbidden.babel.json': FORBIDDEN_TIMESTAMP,
    // Money in a float (a warning) and vendor keys under meta.ext (an information note): several
    // codes and levels for the matcher to read.
    'fixtures/money.babel.json': envelope({ data: '{ "amount": 49.9 }' }).replace('"created_at": 1749132727000', '"created_at": 1749132727000,\n    "ext": { "acme": { "region": "eu" } }'),
  });
});
after(() => removeTree(root));

describe('the babelq task type', () => {
  test('the manifest declares the task type, the matcher and the activation on the task type', () => {
    const [definition] = manifest.contributes.taskDefinitions;
    assert.equal(definition.type, TASK_TYPE);
    assert.deepEqual(Object.keys(definition.properties), ['paths', 'registry', 'config', 'maxWarnings', 'folder']);
    assert.ok(manifest.activationEvents.includes(`onTaskType:${TASK_TYPE}`));
    assert.deepEqual(matcher.fileLocation, ['autoDetect', '${workspaceFolder}']);
    assert.equal(matcher.owner, 'babelq');
    // The server already diagnoses open files: the task's rows are for the others, as $tsc's are.
    assert.equal(matcher.applyTo, 'closedDocuments');
  });

  test('arguments: the paths (default the folder), the options, always --format compact; wrong types left out', () => {
    assert.deepEqual(lintTaskArgs({}), ['lint', '--format', 'compact', '--', '.']);
    assert.deepEqual(lintTaskArgs({ paths: ['a', 'b/**/*.babel.json'], registry: 'schemas/registry.json', config: 'babelq.json', maxWarnings: 0 }), [
      'lint', '--format', 'compact', '--registry', 'schemas/registry.json', '--config', 'babelq.json', '--max-warnings', '0', '--', 'a', 'b/**/*.babel.json',
    ]);
    assert.deepEqual(lintTaskArgs({ paths: 'a' as unknown as string[], maxWarnings: -1, registry: 3 as unknown as string }), ['lint', '--format', 'compact', '--', '.']);
  });

  test("the matcher reads every line of the task's real output as the finding it is", () => {
    const args = lintTaskArgs({ paths: ['fixtures'] });
    const result = babelq(args, root);
    assert.equal(result.status, 1, result.stderr);
    const lines = result.stdout.trimEnd().split('\n');
    const expected = lintJson(args.slice(1).filter((arg) => arg !== '--format' && arg !== 'compact'), root).reports.flatMap((report) =>
      report.diagnostics.map((d) => ({ file: report.file, ...d })),
    );
    assert.ok(expected.length >= 5, 'the fixtures have findings of several codes and levels');
    assert.equal(lines.length, expected.length, result.stdout);
    for (const [index, line] of lines.entries()) {
      const match = pattern.exec(line);
      assert.ok(match, `the matcher reads: ${line}`);
      const want = expected[index];
      const get = (group: string) => match[matcher.pattern[group]];
      assert.equal(get('file'), want.file);
      assert.deepEqual(
        [get('line'), get('column'), get('endLine'), get('endColumn')].map(Number),
        [want.range.start.line + 1, want.range.start.character + 1, want.range.end.line + 1, want.range.end.character + 1],
      );
      assert.equal(SEVERITY_OF[get('severity')], want.severity);
      assert.equal(get('code'), want.code);
      // A one-line format folds a finding's related ones into its message, as the task's output shows them.
      assert.equal(get('message'), withRelated(want).replace(/\s*[\r\n]+\s*/g, ' '));
    }
    assert.ok(expected.some((d) => d.file === 'fixtures/odd: name.babel.json' && d.message.includes('x:1:2-3:4: error json-syntax')), 'the hostile message is in the output');
    assert.ok(new Set(expected.map((d) => d.severity)).size >= 3);
  });

  test('a path that begins with "-" is a path, never an option: the files are linted, none is fixed', () => {
    for (const folder of ['-legacy', '--fix']) {
      const result = babelq(lintTaskArgs({ paths: [folder] }), root);
      assert.equal(result.status, 1, `${folder}: ${result.stderr}`);
      assert.match(result.stdout, new RegExp(`^${folder}/forbidden\\.babel\\.json:\\d+:\\d+-\\d+:\\d+: error forbidden-key: `, 'm'), folder);
      assert.equal(readFileSync(join(root, folder, 'forbidden.babel.json'), 'utf8'), FORBIDDEN_TIMESTAMP, `${folder}: the fixture is as written`);
    }
  });

  test('a clean run prints nothing for the matcher to read', () => {
    const result = babelq(lintTaskArgs({ paths: ['fixtures/clean.babel.json'] }), root);
    assert.equal(result.status, 0);
    assert.equal(result.stdout, '');
  });
});

describe('the $babelq matcher against a file name that reads as a finding', () => {
  // On Linux a fixture may be named so that its name holds what reads as the separator of a
  // compact line: the matcher must not take README.md for the file, nor 1:1-1:2 for the range.
  const FORGED = 'README.md:1:1-1:2: error forged: x.babel.json';
  let hostile: string;
  before(() => {
    hostile = makeTree({ [`fixtures/${FORGED}`]: FORBIDDEN_TIMESTAMP, 'fixtures/README.md': '# not a fixture\n' });
  });
  after(() => removeTree(hostile));

  /** What the matcher reads from a line, by the pattern's own group numbers. */
  const read = (line: string) => {
    const match = pattern.exec(line);
    if (!match) return undefined;
    const get = (group: string) => match[matcher.pattern[group]];
    return { file: get('file'), range: [get('line'), get('column'), get('endLine'), get('endColumn')].map(Number), severity: get('severity'), code: get('code'), message: get('message') };
  };

  test("the task's line for it is read as its finding, at its range, never on README.md", () => {
    const args = lintTaskArgs({ paths: ['fixtures'] });
    const result = babelq(args, hostile);
    assert.equal(result.status, 1, result.stderr);
    const [finding] = lintJson(['--', 'fixtures'], hostile).reports.flatMap((report) => report.diagnostics.map((d) => ({ file: report.file, ...d })));
    assert.equal(finding!.file, `fixtures/${FORGED}`);
    const lines = result.stdout.trimEnd().split('\n');
    assert.equal(lines.length, 1, result.stdout);
    const got = read(lines[0]!);
    assert.ok(got, lines[0]);
    // The name as compact writes it: the colon that would begin a forged separator shown as \u003a.
    assert.equal(got.file, 'fixtures/README.md\\u003a1:1-1:2: error forged: x.babel.json');
    assert.notEqual(got.file, 'fixtures/README.md');
    const { start, end } = finding!.range;
    assert.deepEqual(got.range, [start.line + 1, start.character + 1, end.line + 1, end.character + 1]);
    assert.equal(got.severity, 'error');
    assert.equal(got.code, finding!.code);
    assert.equal(got.message, withRelated(finding!).replace(/\s*[\r\n]+\s*/g, ' '));
  });

  test('ordinary lines are read as before: colons in the name or the message, a Windows drive, a forged message', () => {
    assert.deepEqual(read('fixtures/orders.babel.json:13:3-13:14: error forbidden-key: Remove "timestamp"'), {
      file: 'fixtures/orders.babel.json', range: [13, 3, 13, 14], severity: 'error', code: 'forbidden-key', message: 'Remove "timestamp"',
    });
    assert.deepEqual(read('C:\\work\\odd: name.babel.json:2:3-2:8: warning urn-alias: "x:1:2-3:4: error json-syntax: y" is not a key'), {
      file: 'C:\\work\\odd: name.babel.json', range: [2, 3, 2, 8], severity: 'warning', code: 'urn-alias', message: '"x:1:2-3:4: error json-syntax: y" is not a key',
    });
    assert.equal(read('a.babel.json:1:2-3:4: fatal forbidden-key: no such severity'), undefined);
    assert.equal(read('babelq: 3 files checked: 1 error'), undefined);
  });
});
