/**
 * `.git/info/exclude` read as git reads it: patterns relative to the top of the work tree, below
 * every `.gitignore` in precedence (a `.gitignore` line re-includes what it leaves out), in the
 * editor's workspace walk (workspace/fixture-files.ts with workspace/ignores.ts) and in `babelq
 * lint` alike. What is left out is checked against git itself (`git ls-files --others
 * --exclude-standard` and `git check-ignore`).
 */
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, test } from 'node:test';
import { TestLspClient } from '../support/lsp-client';
import { GitIgnores } from '../../workspace/gitignore';
import { ProjectConfigs } from '../../workspace/project-config';
import { findFixtureFiles } from '../../workspace/fixture-files';
import { projectIgnores } from '../../workspace/ignores';
import { assertCliBuilt, babelq } from '../cli/helpers';
import { GOOD_ENVELOPE } from '../support/envelopes';

const hasGit = spawnSync('git', ['--version']).status === 0;

let root: string;
const write = (files: Record<string, string>) => {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
};

const FIXTURES = [
  'a.babel.json',
  'x.mine.babel.json',
  'kept.mine.babel.json',
  'back.mine.babel.json',
  'top-only.babel.json',
  'local/l.babel.json',
  'sub/top-only.babel.json',
  'sub/y.mine.babel.json',
  'sub/b.babel.json',
  'sub/été.babel.json',
];

before(() => {
  root = mkdtempSync(join(tmpdir(), 'babelq-exclude-'));
  if (!hasGit) return;
  execFileSync('git', ['init', '-q'], { cwd: root });
  write({
    // Relative to the top: `/top-only…` is the top's file alone; `local/` any folder so named.
    '.git/info/exclude': '# personal\nlocal/\n*.mine.babel.json\n!kept.mine.babel.json\n/top-only.babel.json\n?t?.babel.json\n',
    // A .gitignore comes before the exclude file: its `!` brings back what the exclude file leaves out.
    '.gitignore': '!back.mine.babel.json\n',
    ...Object.fromEntries(FIXTURES.map((path) => [path, GOOD_ENVELOPE])),
  });
});

after(() => rmSync(root, { recursive: true, force: true }));

/** The fixtures below `folder` that git lists as neither tracked nor ignored, relative to the top. */
function listedByGit(folder = '.'): string[] {
  const listed = execFileSync('git', ['ls-files', '--others', '--exclude-standard', '-z', '--full-name', '--', folder], { cwd: root, encoding: 'utf8' });
  return listed.split('\0').filter((path) => path.endsWith('.babel.json')).sort();
}

describe('.git/info/exclude', { skip: !hasGit && 'git is not installed' }, () => {
  test('git itself leaves out what the test means it to (the exclude file is in effect)', () => {
    assert.deepEqual(listedByGit(), ['a.babel.json', 'back.mine.babel.json', 'kept.mine.babel.json', 'sub/b.babel.json', 'sub/top-only.babel.json', 'sub/été.babel.json']);
    const checked = spawnSync('git', ['check-ignore', '--no-index', ...FIXTURES], { cwd: root, encoding: 'utf8' });
    assert.deepEqual(checked.stdout.split('\n').filter(Boolean).sort(), ['local/l.babel.json', 'sub/y.mine.babel.json', 'top-only.babel.json', 'x.mine.babel.json']);
  });

  test("the workspace walk leaves out what git does, from the top and from a folder below it", async () => {
    const walk = async (folder: string) => (await findFixtureFiles(join(root, folder), { ignores: projectIgnores(new ProjectConfigs(), new GitIgnores()) })).map((path) => path.slice(root.length + 1)).sort();
    assert.deepEqual(await walk('.'), listedByGit());
    assert.deepEqual(await walk('sub'), listedByGit('sub'));
  });

  test('each file and folder, asked alone, is ignored as git check-ignore says', () => {
    const gitignores = new GitIgnores();
    // A path is asked about itself (a walk asks for each folder before it enters it): local/l.babel.json, inside an ignored folder, is asked as 'local'.
    for (const path of [...FIXTURES.filter((fixture) => !fixture.startsWith('local/')), 'local']) {
      const byGit = spawnSync('git', ['check-ignore', '-q', '--no-index', path], { cwd: root }).status === 0;
      assert.equal(gitignores.isIgnored(join(root, path), path === 'local'), byGit, path);
    }
  });

  test('babelq lint leaves out what git does, from the top and from a folder below it', () => {
    assertCliBuilt();
    const names = (folder: string) => {
      const result = babelq(['lint', '--format', 'json', '.'], join(root, folder));
      assert.equal(result.status, 0, result.stderr);
      return (JSON.parse(result.stdout) as { file: string }[]).map((report) => join(folder, report.file)).sort();
    };
    assert.deepEqual(names('.'), listedByGit());
    assert.deepEqual(names('sub'), listedByGit('sub'));
  });

  test('a folder whose fixtures the exclude file all leaves out: the error says what left them out', () => {
    write({ 'only/z.mine.babel.json': GOOD_ENVELOPE });
    try {
      const result = babelq(['lint', 'only'], root);
      assert.equal(result.status, 2);
      assert.match(result.stderr, /^babelq: no \*\.babel\.json files in directory 'only' \(1 file left out by \.gitignore, \.git\/info\/exclude or babelq\.json "ignore"; --no-ignore lints them\)$/m);
    } finally {
      rmSync(join(root, 'only'), { recursive: true, force: true });
    }
  });

  test('an exclude file above the bound is not applied, and that is said on stderr', () => {
    const big = mkdtempSync(join(tmpdir(), 'babelq-exclude-big-'));
    try {
      execFileSync('git', ['init', '-q'], { cwd: big });
      writeFileSync(join(big, '.git/info/exclude'), `${'#'.repeat(2 * 1024 * 1024)}\nignored/\n`);
      mkdirSync(join(big, 'ignored'));
      writeFileSync(join(big, 'ignored/a.babel.json'), GOOD_ENVELOPE);
      const result = babelq(['lint', '--format', 'json', '.'], big);
      assert.match(result.stderr, /^babelq: \.git\/info\/exclude is 2\.0 MiB, above the 1\.0 MiB this tool reads; it was not read.* Nothing it lists is ignored\.$/m);
      assert.deepEqual((JSON.parse(result.stdout) as { file: string }[]).map((report) => report.file), ['ignored/a.babel.json']);
    } finally {
      rmSync(big, { recursive: true, force: true });
    }
  });
});

describe('.git/info/exclude in the editor\'s workspace report', { skip: !hasGit && 'git is not installed' }, () => {
  test('the report leaves out what git does, and walks again when the exclude file changes', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'babelq-exclude-server-'));
    const client = new TestLspClient({ workspaceFolders: [pathToFileURL(folder).href] });
    try {
      execFileSync('git', ['init', '-q'], { cwd: folder });
      writeFileSync(join(folder, '.git/info/exclude'), 'scratch/\n');
      for (const path of ['a.babel.json', 'scratch/s.babel.json', 'later/l.babel.json']) {
        mkdirSync(dirname(join(folder, path)), { recursive: true });
        writeFileSync(join(folder, path), GOOD_ENVELOPE);
      }
      await client.initialize();
      const reported = async () => (await client.request<{ items: { uri: string; items?: unknown[] }[] }>('workspace/diagnostic', { previousResultIds: [] })).items.map((item) => item.uri.slice(pathToFileURL(folder).href.length + 1));
      assert.deepEqual((await reported()).sort(), ['a.babel.json', 'later/l.babel.json']);
      writeFileSync(join(folder, '.git/info/exclude'), 'scratch/\nlater/\n');
      await client.connection.sendNotification('workspace/didChangeWatchedFiles', { changes: [{ uri: pathToFileURL(join(folder, '.git/info/exclude')).href, type: 2 }] });
      const listed = async () => execFileSync('git', ['ls-files', '--others', '--exclude-standard'], { cwd: folder, encoding: 'utf8' }).split('\n').filter((path) => path.endsWith('.babel.json')).sort();
      // A fixture no longer walked is reported once with no problems (so the panel clears it), then no longer listed.
      await reported();
      assert.deepEqual((await reported()).sort(), await listed());
      assert.deepEqual(await listed(), ['a.babel.json']);
    } finally {
      client.kill();
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
