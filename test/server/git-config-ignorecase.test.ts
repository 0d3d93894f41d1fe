/**
 * The editor's workspace report follows a work tree's core.ignorecase when its git config changes
 * (`git config core.ignorecase true`): a `.gitignore` line then matches whatever the ASCII case,
 * as git matches it, without waiting for another `.gitignore` to change or for a restart.
 */
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, test } from 'node:test';
import { TestLspClient } from '../support/lsp-client';

const ROOT = resolve(__dirname, '..', '..');
const hasGit = spawnSync('git', ['--version']).status === 0;
const gitEnv = { ...process.env, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null' };

test('a changed core.ignorecase in .git/config is a changed ignore: the next report walks again, as git lists the files', { skip: !hasGit && 'git is not installed', timeout: 60_000 }, async () => {
  const root = mkdtempSync(join(tmpdir(), 'babelq-config-ignorecase-'));
  const client = new TestLspClient({ workspaceFolders: [pathToFileURL(root).href] });
  after(() => {
    client.kill();
    rmSync(root, { recursive: true, force: true });
  });
  const write = (path: string, text: string) => {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  };
  execFileSync('git', ['init', '-q'], { cwd: root, env: gitEnv });
  execFileSync('git', ['config', 'core.ignorecase', 'false'], { cwd: root, env: gitEnv });
  write('.gitignore', 'Generated/\n');
  write('generated/order.babel.json', readFileSync(join(ROOT, 'examples/bad/contract.babel.json'), 'utf8'));
  const generated = pathToFileURL(join(root, 'generated/order.babel.json')).href;
  // A fixture with problems: one the walk no longer finds is reported once more, empty.
  const listed = async () => (await client.request<{ items: { uri: string; items?: unknown[] }[] }>('workspace/diagnostic', { previousResultIds: [] })).items.some((item) => item.uri === generated && (item.items ?? []).length > 0);
  const byGit = () => execFileSync('git', ['ls-files', '--others', '--exclude-standard'], { cwd: root, env: gitEnv, encoding: 'utf8' }).includes('generated/order.babel.json');
  await client.initialize();
  assert.equal(byGit(), true);
  assert.equal(await listed(), true, 'case counts: Generated/ does not ignore generated/');
  execFileSync('git', ['config', 'core.ignorecase', 'true'], { cwd: root, env: gitEnv });
  await client.connection.sendNotification('workspace/didChangeWatchedFiles', { changes: [{ uri: pathToFileURL(join(root, '.git/config')).href, type: 2 }] });
  assert.equal(byGit(), false);
  assert.equal(await listed(), false, 'with core.ignorecase, Generated/ ignores generated/, as for git');
});
