/**
 * workspace/git-base.ts: a file as it is at a git revision, read so that a hostile checkout's own
 * git config runs nothing (a partial clone whose lazy fetch would run `core.sshCommand`), a
 * folder outside git answers "no base", and a failed read is asked again rather than kept.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { GitBase } from '../../workspace/git-base';

const roots: string[] = [];
after(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true });
});

function repository(): { root: string; git: (...args: string[]) => string } {
  const root = mkdtempSync(join(tmpdir(), 'babelq-git-base-'));
  roots.push(root);
  const git = (...args: string[]) => execFileSync('git', ['-c', 'user.name=Test', '-c', 'user.email=test@example.com', ...args], { cwd: root, encoding: 'utf8' });
  mkdirSync(join(root, 'schemas'));
  writeFileSync(join(root, 'schemas/orders.json'), '{ "type": "object" }\n');
  git('init', '-q');
  git('add', '.');
  git('commit', '-q', '-m', 'orders');
  return { root, git };
}

describe('GitBase', () => {
  test('the committed text; a file new since the revision and a folder outside git: no base', async () => {
    const { root } = repository();
    const base = new GitBase(1024 * 1024);
    assert.equal(await base.textAt(join(root, 'schemas/orders.json'), 'HEAD'), '{ "type": "object" }\n');
    writeFileSync(join(root, 'schemas/new.json'), '{}');
    assert.equal(await base.textAt(join(root, 'schemas/new.json'), 'HEAD'), undefined);
    assert.equal(await base.textAt(join(root, 'schemas/orders.json'), 'no-such-revision'), undefined);
    const outside = mkdtempSync(join(tmpdir(), 'babelq-no-git-'));
    roots.push(outside);
    writeFileSync(join(outside, 'schema.json'), '{}');
    assert.equal(await base.textAt(join(outside, 'schema.json'), 'HEAD'), undefined);
  });

  test('a partial clone whose missing blob would be fetched through core.sshCommand: nothing runs, no base', async () => {
    const { root, git } = repository();
    const marker = join(root, 'RAN');
    git('config', 'core.repositoryformatversion', '1');
    git('config', 'extensions.partialClone', 'origin');
    git('config', 'remote.origin.url', 'ssh://attacker.invalid/repo');
    git('config', 'remote.origin.promisor', 'true');
    git('config', 'core.sshCommand', `sh -c 'echo RAN > ${marker}; exit 1' --`);
    // The schema's blob is gone from the object store: reading it would ask the promisor remote.
    const blob = git('rev-parse', 'HEAD:schemas/orders.json').trim();
    unlinkSync(join(root, '.git/objects', blob.slice(0, 2), blob.slice(2)));
    assert.equal(await new GitBase(1024 * 1024).textAt(join(root, 'schemas/orders.json'), 'HEAD'), undefined);
    assert.equal(existsSync(marker), false, 'the checkout\'s sshCommand ran');
  });
});
