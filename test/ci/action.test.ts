/**
 * The composite GitHub Action (action.yml): it parses, declares the documented inputs, installs
 * the package with npm, and its lint step, run here in bash as the runner runs it (inputs through
 * env, GITHUB_OUTPUT and GITHUB_PATH files), calls babelq with those inputs.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { load } from 'js-yaml';
import { assertCliBuilt, envelope, FORBIDDEN_TIMESTAMP, makeTree, REPO_ROOT, removeTree } from '../cli/helpers';

interface Step {
  name: string;
  id?: string;
  shell: string;
  env?: Record<string, string>;
  run: string;
}
interface Action {
  name: string;
  description: string;
  inputs: Record<string, { description: string; required: boolean; default: string }>;
  outputs: Record<string, { value: string }>;
  runs: { using: string; steps: Step[] };
}

const action = load(readFileSync(join(REPO_ROOT, 'action.yml'), 'utf8')) as Action;

/** Evaluates the only expressions the steps use, `${{ inputs.<name> }}`, as the runner would. */
function evaluate(value: string, inputs: Record<string, string>): string {
  return value.replace(/\$\{\{\s*inputs\.([a-z-]+)\s*\}\}/g, (_, name: string) => {
    assert.ok(name in action.inputs, `the expression names an undeclared input '${name}'`);
    return inputs[name] ?? action.inputs[name].default;
  });
}

let root: string;
let bin: string;

/** Runs one step's script with the given inputs in `root`, with the built babelq first on PATH. */
function runStep(step: Step, inputs: Record<string, string>) {
  const output = join(root, `github-output-${Math.random().toString(36).slice(2)}`);
  writeFileSync(output, '');
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(step.env ?? {})) env[key] = evaluate(value, inputs);
  // `shell: bash` on a runner is `bash --noprofile --norc -eo pipefail {0}`.
  const script = join(root, 'step.sh');
  writeFileSync(script, step.run);
  const result = spawnSync('bash', ['--noprofile', '--norc', '-eo', 'pipefail', script], {
    cwd: root,
    encoding: 'utf8',
    timeout: 30_000,
    env: { ...process.env, ...env, PATH: `${bin}:${process.env.PATH}`, GITHUB_OUTPUT: output, GITHUB_PATH: join(root, 'github-path'), NO_COLOR: '' },
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr, outputs: readFileSync(output, 'utf8') };
}

const lintStep = () => action.runs.steps.find((step) => step.id === 'lint')!;

before(() => {
  assertCliBuilt();
  root = makeTree({
    'fixtures/good.babel.json': envelope(),
    'fixtures/bad.babel.json': FORBIDDEN_TIMESTAMP,
    'other/good.babel.json': envelope(),
    // A registry.json bqschema's registry load refuses (a duplicate URN): babelq lint exits 2, as bqschema check does.
    'refused/registry.json': JSON.stringify({ schemas: [{ urn: 'urn:babel:orders:created', schema: 's.json' }, { urn: 'urn:babel:orders:created', schema: 's.json' }] }),
    'refused/s.json': '{"type":"object"}',
    'refused/order.babel.json': envelope(),
  });
  bin = join(root, 'bin');
  mkdirSync(bin);
  // `babelq` as the npm package installs it: a bin that runs the bundled CLI.
  writeFileSync(join(bin, 'babelq'), `#!/bin/sh\nexec "${process.execPath}" "${join(REPO_ROOT, 'bin', 'babelq.js')}" "$@"\n`);
  chmodSync(join(bin, 'babelq'), 0o755);
});
after(() => removeTree(root));

describe('action.yml', () => {
  test('is a composite action with the documented inputs and defaults', () => {
    assert.equal(action.runs.using, 'composite');
    assert.ok(action.name && action.description);
    assert.deepEqual(
      Object.fromEntries(Object.entries(action.inputs).map(([name, input]) => [name, input.default])),
      { paths: '.', format: 'github', 'sarif-file': 'babelq.sarif', args: '', version: 'latest' },
    );
    for (const [name, input] of Object.entries(action.inputs)) assert.ok(input.description.length > 10, `${name} has a description`);
    assert.equal(action.outputs['sarif-file'].value, '${{ steps.lint.outputs.sarif-file }}');
  });

  test('every step runs in bash and takes inputs only through env, never spliced into its script', () => {
    for (const step of action.runs.steps) {
      assert.equal(step.shell, 'bash', step.name);
      assert.doesNotMatch(step.run, /\$\{\{/, `${step.name}: an expression in the script would let an input inject shell code`);
    }
  });

  test('installs babelqueue-envelope-tools with npm at the version input and puts its bin on the PATH', () => {
    const install = action.runs.steps[0];
    assert.equal(install.env?.BABELQ_VERSION, '${{ inputs.version }}');
    assert.match(install.run, /npm install --prefix "\$prefix" .*"babelqueue-envelope-tools@\$\{BABELQ_VERSION\}"/);
    assert.match(install.run, /echo "\$prefix\/node_modules\/\.bin" >> "\$GITHUB_PATH"/);
    const packageName = (JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { name: string }).name;
    assert.equal(packageName, 'babelqueue-envelope-tools');
  });

  test('format github: annotations for the given paths, and the step fails on errors', () => {
    const bad = runStep(lintStep(), { paths: 'fixtures' });
    assert.equal(bad.status, 1, bad.stderr);
    assert.match(bad.stdout, /^::error file=fixtures\/bad\.babel\.json,line=13,col=3,endLine=13,endColumn=14,title=babelq forbidden-key::/m);
    assert.match(bad.stdout, /^babelq: 2 files checked: 1 errors/m);
    const good = runStep(lintStep(), { paths: 'other fixtures/good.babel.json' });
    assert.equal(good.status, 0, good.stdout + good.stderr);
    assert.match(good.stdout, /^babelq: 2 files checked: 0 errors/m);
  });

  test('quoted globs reach babelq unexpanded, and extra args are passed on', () => {
    const globbed = runStep(lintStep(), { paths: '**/good.babel.json', args: '--max-warnings 0' });
    assert.equal(globbed.status, 0, globbed.stdout + globbed.stderr);
    assert.match(globbed.stdout, /2 files checked/);
    const usage = runStep(lintStep(), { paths: 'fixtures', args: '--max-warnings lots' });
    assert.equal(usage.status, 2);
    assert.match(usage.stderr, /--max-warnings needs a whole number/);
  });

  test('format sarif: writes the file, sets the output, and fails only on a usage or I/O problem', () => {
    const result = runStep(lintStep(), { paths: 'fixtures', format: 'sarif', 'sarif-file': 'scan.sarif' });
    assert.equal(result.status, 0, result.stderr);
    assert.equal(result.outputs, 'sarif-file=scan.sarif\n');
    const log = JSON.parse(readFileSync(join(root, 'scan.sarif'), 'utf8')) as { runs: { results: { ruleId: string }[] }[] };
    assert.deepEqual(log.runs[0].results.map((r) => r.ruleId), ['forbidden-key']);
    const missing = runStep(lintStep(), { paths: 'no-such-dir', format: 'sarif' });
    assert.equal(missing.status, 2);
    // A registry.json bqschema refuses is exit 2 too, but its log is written for code scanning to show.
    const refused = runStep(lintStep(), { paths: 'refused', format: 'sarif', 'sarif-file': 'refused.sarif' });
    assert.equal(refused.status, 0, refused.stderr);
    assert.match(refused.stderr, /refused\/registry\.json is refused as a whole/);
    const refusedLog = JSON.parse(readFileSync(join(root, 'refused.sarif'), 'utf8')) as { runs: { results: { ruleId: string }[] }[] };
    assert.deepEqual(refusedLog.runs[0].results.map((r) => r.ruleId), ['registry-error']);
    // In the github format the step fails on it.
    assert.equal(runStep(lintStep(), { paths: 'refused' }).status, 2);
  });

  test('an unknown format is refused with an annotation', () => {
    const result = runStep(lintStep(), { format: 'junit' });
    assert.equal(result.status, 2);
    assert.match(result.stdout, /^::error title=babelq::format must be github or sarif, not 'junit'$/m);
  });
});
