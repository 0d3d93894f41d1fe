/**
 * The exclude file of a work tree whose `.git` is a file: a linked worktree (`git worktree add`)
 * reads the `info/exclude` of its common directory (the main checkout's `.git`), never its own git
 * directory's; a submodule reads its git directory's (`super/.git/modules/<name>/info/exclude`).
 * `babelq lint` and the editor's workspace report leave out what `git check-ignore` says, and a
 * `.git` file or `commondir` that points at a named pipe, `/dev/zero`, a file of a gigabyte or
 * nothing is passed over quickly, as no exclude file (git refuses such a checkout, or waits forever
 * on a `commondir` that is a named pipe: it ignores nothing there).
 */
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, test } from 'node:test';
import { TestLspClient } from '../support/lsp-client';
import { assertCliBuilt, babelq } from '../cli/helpers';
import { GOOD_ENVELOPE } from '../support/envelopes';

const runs = process.platform !== 'win32' && spawnSync('git', ['--version']).status === 0;

const GIGABYTE = 1024 * 1024 * 1024;
/** Far more than a few system calls take; reading a gigabyte, or waiting on a pipe, takes longer or forever. */
const QUICK_MS = 10_000;

let root: string;
const at = (path: string) => join(root, path);
const write = (path: string, text: string) => {
  mkdirSync(dirname(at(path)), { recursive: true });
  writeFileSync(at(path), text);
};
/** git run without the user's or the system's config, and blind above the scratch folder. */
const gitEnv = () => ({ ...process.env, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null', GIT_CEILING_DIRECTORIES: dirname(root) });
const git = (cwd: string, ...args: string[]) => execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', '-c', 'init.defaultBranch=main', '-c', 'protocol.file.allow=always', ...args], { cwd: at(cwd), env: gitEnv(), stdio: 'pipe' });

/** Every work tree of the scratch folder, each with its fixtures (relative to it). */
const CHECKOUTS: Record<string, string[]> = {
  main: ['m.babel.json', 'm.local.babel.json'],
  wt: ['a.babel.json', 'a.local.babel.json', 'own.babel.json'],
  super: ['top.babel.json'],
  'super/sub': ['s.babel.json', 's.local.babel.json', 'scratch/x.babel.json'],
};
/** Checkouts whose `.git` file points where no exclude file can be read. */
const HOSTILE = ['gitdir-pipe', 'gitdir-dev-zero', 'gitdir-missing', 'gitdir-huge', 'dot-git-huge', 'dot-git-pipe', 'dot-git-dev-zero', 'malformed', 'commondir-pipe', 'commondir-dev-zero', 'commondir-huge', 'exclude-pipe'];
for (const name of HOSTILE) CHECKOUTS[`hostile/${name}`] = ['h.babel.json', 'h.local.babel.json'];

before(() => {
  root = mkdtempSync(join(tmpdir(), 'babelq-exclude-linked-'));
  if (!runs) return;
  write('main/f', 'f\n');
  git('.', 'init', '-q', 'main');
  git('main', 'add', 'f');
  git('main', 'commit', '-qm', 'f');
  git('main', 'worktree', 'add', '-q', '../wt');
  write('super/f', 'f\n');
  git('.', 'init', '-q', 'super');
  git('super', 'add', 'f');
  git('super', 'commit', '-qm', 'f');
  git('super', 'submodule', 'add', '-q', at('main'), 'sub');
  // The main checkout's exclude file applies to its linked worktree too; the worktree's own git directory's is never read.
  write('main/.git/info/exclude', '*.local.babel.json\n');
  write('main/.git/worktrees/wt/info/exclude', 'own.babel.json\n');
  // The submodule's own: the main checkout's, which it was cloned from, does not apply to it.
  write('super/.git/modules/sub/info/exclude', 'scratch/\n');
  for (const [checkout, fixtures] of Object.entries(CHECKOUTS)) for (const fixture of fixtures) write(join(checkout, fixture), GOOD_ENVELOPE);

  // Each points at an exclude file that would leave out *.local.babel.json, were it read.
  write('targets/excluding/info/exclude', '*.local.babel.json\n');
  execFileSync('mkfifo', [at('targets/pipe')]);
  write('targets/huge', '');
  truncateSync(at('targets/huge'), GIGABYTE);
  const dotGit = (name: string, text: string) => write(`hostile/${name}/.git`, text);
  dotGit('gitdir-pipe', 'gitdir: ../../targets/pipe\n');
  dotGit('gitdir-dev-zero', 'gitdir: /dev/zero\n');
  dotGit('gitdir-missing', 'gitdir: ../../targets/nowhere\n');
  dotGit('gitdir-huge', `gitdir: ${at('targets/huge')}\n`);
  // A pointer to a real exclude file, then a gigabyte of NULs.
  dotGit('dot-git-huge', 'gitdir: ../../targets/excluding\n');
  truncateSync(at('hostile/dot-git-huge/.git'), GIGABYTE);
  execFileSync('mkfifo', [at('hostile/dot-git-pipe/.git')]);
  symlinkSync('/dev/zero', at('hostile/dot-git-dev-zero/.git'));
  dotGit('malformed', 'gitdir:../../targets/excluding\n');
  // A git directory whose commondir cannot be read: the exclude file beside it is not the one git reads.
  for (const name of ['commondir-pipe', 'commondir-dev-zero', 'commondir-huge']) {
    write(`targets/${name}/info/exclude`, '*.local.babel.json\n');
    dotGit(name, `gitdir: ../../targets/${name}\n`);
  }
  execFileSync('mkfifo', [at('targets/commondir-pipe/commondir')]);
  symlinkSync('/dev/zero', at('targets/commondir-dev-zero/commondir'));
  write('targets/commondir-huge/commondir', '../excluding\n');
  truncateSync(at('targets/commondir-huge/commondir'), GIGABYTE);
  // A git directory whose exclude file is a named pipe: refused, and said, as a .git/info/exclude that is one.
  mkdirSync(at('targets/exclude-pipe/info'), { recursive: true });
  execFileSync('mkfifo', [at('targets/exclude-pipe/info/exclude')]);
  dotGit('exclude-pipe', 'gitdir: ../../targets/exclude-pipe\n');
});

after(() => rmSync(root, { recursive: true, force: true }));

/** The fixtures of `checkout` that `git check-ignore` says are ignored; none when git refuses the checkout (or hangs on it). */
function ignoredByGit(checkout: string): string[] {
  const checked = spawnSync('git', ['check-ignore', '--no-index', ...CHECKOUTS[checkout]], { cwd: at(checkout), env: gitEnv(), encoding: 'utf8', timeout: 5_000 });
  return (checked.stdout ?? '').split('\n').filter(Boolean).sort();
}

/** The fixtures below `folder` (relative to the scratch folder) that git does not ignore, relative to the scratch folder. */
function keptByGit(folder: string): string[] {
  return Object.entries(CHECKOUTS)
    .filter(([checkout]) => checkout === folder || checkout.startsWith(`${folder}/`) || folder === '.')
    .flatMap(([checkout, fixtures]) => {
      const ignored = new Set(ignoredByGit(checkout));
      return fixtures.filter((fixture) => !ignored.has(fixture)).map((fixture) => join(checkout, fixture));
    })
    .sort();
}

/** The fixtures `babelq lint` finds from `folder`, relative to the scratch folder, and how long it took. */
function linted(folder: string): { files: string[]; ms: number; stderr: string } {
  const started = Date.now();
  const result = babelq(['lint', '--format', 'json', '.'], at(folder));
  const ms = Date.now() - started;
  assert.equal(result.status, 0, result.stderr);
  return { files: (JSON.parse(result.stdout) as { file: string }[]).map((report) => join(folder, report.file)).sort(), ms, stderr: result.stderr };
}

describe('the exclude file of a linked worktree and of a submodule', { skip: !runs && 'git or named pipes are not available' }, () => {
  test('babelq lint in a linked worktree and in a submodule leaves out what git check-ignore says', () => {
    assertCliBuilt();
    // git itself ignores what the test means it to: each exclude file is in effect where it should be, and only there.
    assert.deepEqual(ignoredByGit('main'), ['m.local.babel.json']);
    assert.deepEqual(ignoredByGit('wt'), ['a.local.babel.json']);
    assert.deepEqual(ignoredByGit('super/sub'), ['scratch/x.babel.json']);
    assert.deepEqual(ignoredByGit('super'), []);
    for (const folder of ['wt', 'super/sub', 'super']) assert.deepEqual(linted(folder).files, keptByGit(folder), folder);
  });

  test('babelq lint of checkouts whose .git file points at a pipe, /dev/zero, a gigabyte or nothing: quickly, nothing left out', () => {
    assertCliBuilt();
    for (const name of HOSTILE) {
      // git refuses each of these checkouts, or waits on its pipe until killed: it ignores nothing there.
      assert.deepEqual(ignoredByGit(`hostile/${name}`), [], name);
      const { files, ms, stderr } = linted(`hostile/${name}`);
      assert.deepEqual(files, keptByGit(`hostile/${name}`), name);
      assert.ok(ms < QUICK_MS, `${name}: ${ms} ms`);
      // A pointer not followed is no exclude file, without a word; an exclude file that is a pipe is said.
      if (name === 'exclude-pipe') assert.match(stderr, /exclude is a named pipe, not a regular file; it was not read\. Nothing it lists is ignored\./);
      else assert.equal(stderr, '', name);
    }
  });

  test('babelq lint of the folder holding them all leaves out what git check-ignore says in each', () => {
    const { files, ms } = linted('.');
    assert.deepEqual(files, keptByGit('.'));
    assert.ok(ms < QUICK_MS, `${ms} ms`);
  });
});

describe("the exclude file of a linked worktree and of a submodule in the editor's workspace report", { skip: !runs && 'git or named pipes are not available' }, () => {
  type Report = { items: { uri: string; items?: unknown[] }[] };
  const reportOf = async (client: TestLspClient, folders: readonly string[]) =>
    (await client.request<Report>('workspace/diagnostic', { previousResultIds: [] })).items.map((item) => relative(root, new URL(item.uri).pathname)).filter((path) => folders.some((folder) => path.startsWith(`${folder}/`))).sort();

  test('in Restricted Mode, a worktree (its exclude file outside the workspace), a submodule and the hostile checkouts: what git keeps, quickly', { timeout: 120_000 }, async () => {
    const folders = ['wt', 'super', 'hostile'];
    const client = new TestLspClient({ workspaceFolders: folders.map((folder) => pathToFileURL(at(folder)).href), initializationOptions: { workspaceTrusted: false } });
    try {
      await client.initialize();
      const started = Date.now();
      const reported = await reportOf(client, folders);
      const ms = Date.now() - started;
      assert.deepEqual(reported, folders.flatMap(keptByGit).sort());
      assert.ok(ms < QUICK_MS, `${ms} ms`);
    } finally {
      client.kill();
    }
  });

  test("a change of a submodule's exclude file walks the workspace again", { timeout: 60_000 }, async () => {
    const exclude = at('super/.git/modules/sub/info/exclude');
    const client = new TestLspClient({ workspaceFolders: [pathToFileURL(at('super')).href] });
    try {
      await client.initialize();
      assert.deepEqual(await reportOf(client, ['super']), keptByGit('super'));
      writeFileSync(exclude, 'scratch/\n*.local.babel.json\n');
      await client.connection.sendNotification('workspace/didChangeWatchedFiles', { changes: [{ uri: pathToFileURL(exclude).href, type: 2 }] });
      // A fixture no longer walked is reported once with no problems (so the panel clears it), then no longer listed.
      await reportOf(client, ['super']);
      assert.deepEqual(await reportOf(client, ['super']), keptByGit('super'));
      assert.deepEqual(keptByGit('super'), ['super/sub/s.babel.json', 'super/top.babel.json']);
    } finally {
      client.kill();
      writeFileSync(exclude, 'scratch/\n');
    }
  });
});

