/**
 * The composite GitHub Action (action.yml), run as a runner runs it: each step's script in bash
 * (`bash --noprofile --norc -eo pipefail`), its `${{ inputs.* }}` expressions evaluated into its
 * env, in a scratch layout like a runner's: GITHUB_ACTION_PATH a copy of this repository (its
 * tracked and new files, node_modules linked, as a checkout whose dependencies are installed),
 * GITHUB_WORKSPACE a git repository with good and bad fixtures, and the GITHUB_PATH, GITHUB_OUTPUT
 * and GITHUB_STEP_SUMMARY files. The install step builds and packs babelq in the Action's copy and
 * installs the tarball; the lint step then runs that babelq with the README's own recipes.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { load } from 'js-yaml';
import { envelope, FORBIDDEN_TIMESTAMP, REPO_ROOT } from '../cli/helpers';

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
const manifest = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { name: string; version: string };
/** The install step packs (a production build) and installs; every other step takes a second or two. */
const INSTALL_TIMEOUT_MS = 5 * 60_000;
const STEP_TIMEOUT_MS = 60_000;

/** The workflow steps of the README's recipes that use this Action, with their `with:` inputs. */
function readmeRecipes(): Record<string, string>[] {
  const readme = readFileSync(join(REPO_ROOT, 'README.md'), 'utf8');
  const recipes: Record<string, string>[] = [];
  for (const [, block] of readme.matchAll(/```yaml\n([\s\S]*?)```/g)) {
    if (!block.includes('uses: BabelQueue/babelqueue-envelope-tools@')) continue;
    const parsed = load(block) as { jobs?: Record<string, { steps: unknown[] }>; steps?: unknown[] };
    const steps = (parsed.steps ?? Object.values(parsed.jobs ?? {}).flatMap((job) => job.steps)) as { uses?: string; with?: Record<string, unknown> }[];
    for (const step of steps) {
      if (!step.uses?.startsWith('BabelQueue/babelqueue-envelope-tools@')) continue;
      assert.equal(step.uses, `BabelQueue/babelqueue-envelope-tools@v${manifest.version}`, 'the README names this release of the Action');
      recipes.push(Object.fromEntries(Object.entries(step.with ?? {}).map(([key, value]) => [key, String(value)])));
    }
  }
  return recipes;
}

/** Evaluates the only expressions the steps use, `${{ inputs.<name> }}`, as the runner would. */
function evaluate(value: string, inputs: Record<string, string>): string {
  return value.replace(/\$\{\{\s*inputs\.([a-z-]+)\s*\}\}/g, (_, name: string) => {
    assert.ok(name in action.inputs, `the expression names an undeclared input '${name}'`);
    return inputs[name] ?? action.inputs[name].default;
  });
}

let scratch: string;
let actionPath: string;
let workspace: string;
let runnerTemp: string;
/** What the install step appended to GITHUB_PATH: put before PATH for the steps after it. */
let addedPath: string[] = [];

interface StepRun {
  status: number | null;
  stdout: string;
  stderr: string;
  outputs: string;
  summary: string;
  path: string[];
}

/** Runs one step's script as the runner does, in GITHUB_WORKSPACE, with the given inputs. */
function runStep(step: Step, inputs: Record<string, string>, options: { env?: Record<string, string>; timeout?: number; fileSizeLimit?: number } = {}): StepRun {
  const files = mkdtempSync(join(runnerTemp, 'step-'));
  const output = join(files, 'output');
  const summary = join(files, 'summary');
  const githubPath = join(files, 'path');
  for (const file of [output, summary, githubPath]) writeFileSync(file, '');
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(step.env ?? {})) env[key] = evaluate(value, inputs);
  const script = join(files, 'step.sh');
  writeFileSync(script, step.run);
  const bash = ['bash', '--noprofile', '--norc', '-eo', 'pipefail', script];
  // A file size limit (prlimit, util-linux) stops a write part-way, as a full disk can.
  const command = options.fileSizeLimit === undefined ? bash : ['prlimit', `--fsize=${options.fileSizeLimit}`, ...bash];
  const result = spawnSync(command[0]!, command.slice(1), {
    cwd: workspace,
    encoding: 'utf8',
    timeout: options.timeout ?? STEP_TIMEOUT_MS,
    env: {
      ...process.env,
      ...env,
      ...options.env,
      PATH: [...addedPath, process.env.PATH].join(delimiter),
      GITHUB_ACTION_PATH: actionPath,
      GITHUB_WORKSPACE: workspace,
      GITHUB_OUTPUT: output,
      GITHUB_STEP_SUMMARY: summary,
      GITHUB_PATH: githubPath,
      RUNNER_TEMP: runnerTemp,
      NO_COLOR: '',
    },
  });
  assert.equal(result.signal, null, `${step.name} was stopped (${result.signal}):\n${result.stdout}\n${result.stderr}`);
  const read = (file: string) => readFileSync(file, 'utf8');
  return { status: result.status, stdout: result.stdout, stderr: result.stderr, outputs: read(output), summary: read(summary), path: read(githubPath).split('\n').filter(Boolean) };
}

const installStep = () => action.runs.steps[0];
const lintStep = () => action.runs.steps.find((step) => step.id === 'lint')!;
const REGISTRY = JSON.stringify({ schemas: [{ urn: 'urn:babel:orders:created', schema: 'orders-created.json', owner: 'orders', status: 'active' }] });

before(() => {
  scratch = mkdtempSync(join(tmpdir(), 'babelq-action-'));
  runnerTemp = join(scratch, 'runner-temp');
  mkdirSync(runnerTemp);
  // The Action's checkout: this repository's files as git lists them (tracked and new), and its
  // installed dependencies linked (a runner's checkout has none: the step installs them then).
  actionPath = join(scratch, 'action');
  const listed = spawnSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '-z'], { cwd: REPO_ROOT, encoding: 'utf8' });
  assert.equal(listed.status, 0, listed.stderr);
  for (const file of listed.stdout.split('\0').filter(Boolean)) {
    const source = join(REPO_ROOT, file);
    if (!existsSync(source) || !lstatSync(source).isFile()) continue;
    mkdirSync(dirname(join(actionPath, file)), { recursive: true });
    copyFileSync(source, join(actionPath, file));
  }
  symlinkSync(join(REPO_ROOT, 'node_modules'), join(actionPath, 'node_modules'), 'dir');
  // The repository the workflow checked out: fixtures, a test folder reached by a glob, a registry.
  workspace = join(scratch, 'workspace');
  const files: Record<string, string> = {
    'fixtures/good.babel.json': envelope(),
    'fixtures/bad.babel.json': FORBIDDEN_TIMESTAMP,
    'tests/unit/deep/good.babel.json': envelope(),
    'with space/good.babel.json': envelope(),
    // A folder whose name starts with a dash, as a path and not an option.
    '-legacy/bad.babel.json': FORBIDDEN_TIMESTAMP,
    'schemas/registry.json': REGISTRY,
    'schemas/orders-created.json': JSON.stringify({ type: 'object' }),
    // A registry.json bqschema's registry load refuses (a duplicate URN): babelq lint exits 2, as bqschema check does.
    'refused/registry.json': JSON.stringify({ schemas: [{ urn: 'urn:babel:orders:created', schema: 's.json' }, { urn: 'urn:babel:orders:created', schema: 's.json' }] }),
    'refused/s.json': '{"type":"object"}',
    'refused/order.babel.json': envelope(),
  };
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(workspace, path)), { recursive: true });
    writeFileSync(join(workspace, path), text);
  }
  spawnSync('git', ['init', '-q'], { cwd: workspace });
});

after(() => {
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

describe('action.yml', () => {
  test('is a composite action with the documented inputs and defaults, each step in bash with inputs through env only', () => {
    assert.equal(action.runs.using, 'composite');
    assert.ok(action.name && action.description);
    assert.deepEqual(
      Object.fromEntries(Object.entries(action.inputs).map(([name, input]) => [name, input.default])),
      { paths: '.', format: 'github', 'sarif-file': 'babelq.sarif', args: '', version: '' },
    );
    for (const [name, input] of Object.entries(action.inputs)) assert.ok(input.description.length > 10, `${name} has a description`);
    assert.equal(action.outputs['sarif-file'].value, '${{ steps.lint.outputs.sarif-file }}');
    for (const step of action.runs.steps) {
      assert.equal(step.shell, 'bash', step.name);
      assert.doesNotMatch(step.run, /\$\{\{/, `${step.name}: an expression in the script would let an input inject shell code`);
    }
  });

  test('install (default): builds and packs babelq in the Action\'s checkout, installs the tarball and puts its bin on the PATH', () => {
    const started = performance.now();
    const install = runStep(installStep(), {}, { timeout: INSTALL_TIMEOUT_MS });
    assert.equal(install.status, 0, `${install.stdout}\n${install.stderr}`);
    const prefix = join(runnerTemp, 'babelq');
    assert.deepEqual(install.path, [join(prefix, 'node_modules', '.bin')]);
    assert.ok(existsSync(join(prefix, `${manifest.name}-${manifest.version}.tgz`)), 'the tarball npm pack made');
    assert.match(install.stdout, new RegExp(`^${manifest.version.replace(/\./g, '\\.')}$`, 'm'), 'babelq --version from the install');
    // The installed package is the packed one, not a link to the checkout.
    assert.ok(!lstatSync(join(prefix, 'node_modules', manifest.name)).isSymbolicLink());
    assert.ok(existsSync(join(prefix, 'node_modules', manifest.name, 'dist', 'cli-main.js')));
    addedPath = install.path;
    console.log(`# install step: ${Math.round(performance.now() - started)} ms (pack with its production build, then npm install of the tarball)`);
  });

  test('install with version: that version of babelqueue-envelope-tools from the registry (here offline, so npm says it has none)', () => {
    const install = runStep(installStep(), { version: '9.9.9' }, { env: { npm_config_offline: 'true', npm_config_cache: join(scratch, 'empty-npm-cache') } });
    assert.notEqual(install.status, 0);
    assert.match(`${install.stdout}${install.stderr}`, /babelqueue-envelope-tools@9\.9\.9|ENOTCACHED/);
    assert.deepEqual(install.path, [], 'nothing added to the PATH');
  });

  test('format github: annotations for the given paths, the summary line in the step summary, and the step fails on errors', () => {
    assert.ok(addedPath.length > 0, 'the install step ran');
    const bad = runStep(lintStep(), { paths: 'fixtures' });
    assert.equal(bad.status, 1, bad.stdout + bad.stderr);
    assert.match(bad.stdout, /^::error file=fixtures\/bad\.babel\.json,line=13,col=3,endLine=13,endColumn=14,title=babelq forbidden-key::/m);
    assert.match(bad.summary, /^babelq: 2 files checked: 1 error, /m);
    const good = runStep(lintStep(), { paths: '"with space" fixtures/good.babel.json' });
    assert.equal(good.status, 0, good.stdout + good.stderr);
    assert.match(good.stdout, /^babelq: 2 files checked: 0 errors/m);
  });

  test('paths: quotes group words and are removed, globs reach babelq unexpanded, new lines separate words, an unmatched quote is refused', () => {
    const globbed = runStep(lintStep(), { paths: "'**/good.babel.json'", args: '--max-warnings 0' });
    assert.equal(globbed.status, 0, globbed.stdout + globbed.stderr);
    assert.match(globbed.stdout, /3 files checked/);
    // Unquoted too, the glob reaches babelq as written (bash would read ** as * and find no tests/*/*.babel.json).
    const bare = runStep(lintStep(), { paths: 'tests/**/*.babel.json\nfixtures/good.babel.json' });
    assert.equal(bare.status, 0, bare.stdout + bare.stderr);
    assert.match(bare.stdout, /2 files checked/);
    const unmatched = runStep(lintStep(), { paths: "fixtures 'tests" });
    assert.equal(unmatched.status, 2);
    assert.match(unmatched.stdout, /^::error title=babelq::the PATHS input has an unmatched quote/m);
    // Quoted in the error command escaped as GitHub reads one: the input's own lines start no command of their own.
    const injected = runStep(lintStep(), { paths: "fixtures 'tests\n::warning title=x::100% injected\r" });
    assert.equal(injected.status, 2);
    assert.deepEqual(injected.stdout.split('\n').filter((line) => line.startsWith('::')), ["::error title=babelq::the PATHS input has an unmatched quote: fixtures 'tests%0A::warning title=x::100%25 injected%0D"]);
    const usage = runStep(lintStep(), { paths: 'fixtures', args: '--max-warnings lots' });
    assert.equal(usage.status, 2);
    assert.match(usage.stderr, /--max-warnings needs a whole number/);
  });

  test('paths: a path that starts with a dash is linted, not read as an option', () => {
    const dashed = runStep(lintStep(), { paths: '-legacy', args: '--max-warnings 0' });
    assert.equal(dashed.status, 1, dashed.stdout + dashed.stderr);
    assert.match(dashed.stdout, /^::error file=-legacy\/bad\.babel\.json,line=13,col=3,.*title=babelq forbidden-key::/m);
  });

  test('the README\'s recipes, pasted: annotations fail the step on the bad fixture; SARIF is written and the step passes', () => {
    const [annotations, sarif] = readmeRecipes();
    assert.ok(annotations && sarif, 'the README has the annotations and the SARIF recipe');
    const annotated = runStep(lintStep(), annotations);
    assert.equal(annotated.status, 1, annotated.stdout + annotated.stderr);
    assert.match(annotated.stdout, /^::error file=fixtures\/bad\.babel\.json,.*title=babelq forbidden-key::/m);
    assert.match(annotated.stdout, /^babelq: 3 files checked: 1 error, /m, 'fixtures/ and the glob under tests/');
    const scanned = runStep(lintStep(), sarif);
    assert.equal(scanned.status, 0, scanned.stdout + scanned.stderr);
    assert.equal(scanned.outputs, `sarif-file=${sarif['sarif-file']}\n`);
    const log = JSON.parse(readFileSync(join(workspace, sarif['sarif-file']), 'utf8')) as { runs: { results: { ruleId: string; locations: { physicalLocation: { artifactLocation: { uri: string } } }[] }[] }[] };
    assert.deepEqual(log.runs[0].results.map((r) => [r.ruleId, r.locations[0].physicalLocation.artifactLocation.uri]), [['forbidden-key', 'fixtures/bad.babel.json']]);
    assert.match(scanned.summary, /SARIF log written to babelq\.sarif/);
  });

  test('format sarif fails on a usage or I/O problem, not on a registry.json bqschema refuses (its log is written); an unknown format is refused with an annotation', () => {
    const missing = runStep(lintStep(), { paths: 'no-such-dir', format: 'sarif' });
    assert.equal(missing.status, 2);
    // A registry.json bqschema refuses is exit 2 too, but its log is written for code scanning to show.
    const refused = runStep(lintStep(), { paths: 'refused', format: 'sarif', 'sarif-file': 'refused.sarif' });
    assert.equal(refused.status, 0, refused.stderr);
    assert.match(refused.stderr, /refused\/registry\.json is refused as a whole/);
    const refusedLog = JSON.parse(readFileSync(join(workspace, 'refused.sarif'), 'utf8')) as { runs: { results: { ruleId: string }[] }[] };
    assert.deepEqual(refusedLog.runs[0].results.map((r) => r.ruleId), ['registry-error']);
    // A sarif-file in a folder that does not exist: no log can be written, so the step fails.
    const unwritable = runStep(lintStep(), { paths: 'fixtures', format: 'sarif', 'sarif-file': 'no-such-folder/babelq.sarif' });
    assert.notEqual(unwritable.status, 0, unwritable.stdout + unwritable.stderr);
    assert.doesNotMatch(unwritable.summary, /SARIF log written/);
    // A log cut short by a file size limit (babelq stopped by SIGXFSZ): the step fails and says so.
    const cut = runStep(lintStep(), { paths: 'fixtures', format: 'sarif', 'sarif-file': 'cut.sarif' }, { fileSizeLimit: 2048 });
    assert.notEqual(cut.status, 0, cut.stdout + cut.stderr);
    assert.ok(readFileSync(join(workspace, 'cut.sarif'), 'utf8').length > 0, 'part of the log was written');
    assert.doesNotMatch(cut.summary, /SARIF log written/);
    // In the github format the step fails on it.
    assert.equal(runStep(lintStep(), { paths: 'refused' }).status, 2);
    const unknown = runStep(lintStep(), { format: 'junit' });
    assert.equal(unknown.status, 2);
    assert.match(unknown.stdout, /^::error title=babelq::format must be github or sarif, not 'junit'$/m);
  });
});
