/**
 * The pre-commit hook's command (.pre-commit-hooks.yaml), as pre-commit builds it: the entry's
 * words, the hook's args, then the names of the staged files that match `files`. A staged fixture
 * whose name starts with a dash is linted as a file, never read as an option. The hook itself,
 * installed and run by pre-commit, is test/ci/pre-commit.ci.ts.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { load } from 'js-yaml';
import { assertCliBuilt, CLI_PATH, envelope, FORBIDDEN_TIMESTAMP, makeTree, removeTree, REPO_ROOT } from '../cli/helpers';

interface Hook {
  id: string;
  entry: string;
  args?: string[];
  files: string;
}

const hooks = load(readFileSync(join(REPO_ROOT, '.pre-commit-hooks.yaml'), 'utf8')) as Hook[];
const hook = hooks.find((candidate) => candidate.id === 'babelq-lint')!;

/** Runs the hook's command on `files` as pre-commit would, with `babelq` the built CLI. */
function runHook(files: readonly string[], cwd: string) {
  // pre-commit splits the entry as a shell would; this one has no quotes, so its words are its words.
  assert.doesNotMatch(hook.entry, /["'\\]/);
  const [program, ...words] = hook.entry.trim().split(/\s+/);
  assert.equal(program, 'babelq');
  const staged = files.filter((file) => new RegExp(hook.files).test(file));
  return spawnSync(process.execPath, [CLI_PATH, ...words, ...(hook.args ?? []), ...staged], { cwd, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
}

describe('the pre-commit hook command', () => {
  let root: string;
  before(() => {
    assertCliBuilt();
    root = makeTree({ '-draft.babel.json': FORBIDDEN_TIMESTAMP, 'fixtures/order.babel.json': envelope() });
  });
  after(() => removeTree(root));

  test('lints a staged fixture whose name starts with a dash as a file', () => {
    const result = runHook(['-draft.babel.json', 'fixtures/order.babel.json', 'README.md'], root);
    assert.equal(result.stderr, '');
    assert.equal(result.status, 1, result.stdout);
    assert.match(result.stdout, /^-draft\.babel\.json$/m);
    assert.match(result.stdout, /13:3 +error .*timestamp.* forbidden-key/);
  });
});
