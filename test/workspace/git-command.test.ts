/**
 * workspace/git-command.ts: git as the editor and `babelq compat --base` run it never fetches a
 * partial clone's missing objects, on a git with GIT_NO_LAZY_FETCH and on one without it (the
 * transports refused, even where the repository allows its own).
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { GitBase } from '../../workspace/git-base';
import { gitInvocation, runGitSync } from '../../workspace/git-command';
import { partialClone } from '../support/partial-clone';

const repo = partialClone({ 'schemas/orders.json': '{ "type": "object" }\n' });
after(() => rmSync(repo.root, { recursive: true, force: true }));
const [blob] = repo.missingBlobs();

test('reading a missing blob fails and fetches nothing, for the CLI and for the editor', async () => {
  assert.ok(blob, 'the clone starts without the blob');
  assert.equal(runGitSync(repo.clone, ['cat-file', 'blob', blob], { timeoutMs: 10_000, maxBytes: 1 << 20 }), undefined);
  assert.equal(await new GitBase(1 << 20).textAt(join(repo.clone, 'schemas/orders.json'), 'HEAD'), undefined);
  assert.deepEqual(repo.missingBlobs(), [blob]);
});

test('without GIT_NO_LAZY_FETCH (a git before it), the transports are refused, though the repository allows its own', () => {
  repo.git(repo.clone, 'config', 'protocol.file.allow', 'always');
  const { args, env } = gitInvocation(['cat-file', 'blob', blob!]);
  delete env.GIT_NO_LAZY_FETCH;
  const read = spawnSync('git', args, { cwd: repo.clone, env, encoding: 'utf8' });
  assert.notEqual(read.status, 0);
  assert.match(read.stderr, /transport 'file' not allowed/);
  assert.deepEqual(repo.missingBlobs(), [blob], 'nothing was fetched');
  // The same read as git runs it by default does fetch: the check above could see a fetch.
  const plain = spawnSync('git', ['cat-file', 'blob', blob!], { cwd: repo.clone, encoding: 'utf8' });
  assert.equal(plain.status, 0, plain.stderr);
  assert.deepEqual(repo.missingBlobs(), []);
});
