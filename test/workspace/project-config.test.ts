/**
 * workspace/project-config.ts and workspace/gitignore.ts on real folders: the walk up (nearest
 * first, `root`, the `.git` folder, the editor's workspace folder), the order settings apply in,
 * overrides and ignore globs relative to their config, `.gitignore` as git reads it.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { DEFAULT_SETTINGS } from '../../core/rules/settings/settings';
import { GitIgnores, parseGitignore } from '../../workspace/gitignore';
import { ProjectConfigs } from '../../workspace/project-config';
import { UnreadableFile } from '../../workspace/bounded-read';
import { findFixtureFiles } from '../../workspace/fixture-files';
import { projectIgnores } from '../../workspace/ignores';

let root: string;
const write = (files: Record<string, string>) => {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
};

before(() => {
  root = mkdtempSync(join(tmpdir(), 'babelq-project-'));
  write({
    'babelq.json': '{ "severity": { "extension-key": "off", "float-currency": "error" } }',
    'repo/.git/HEAD': 'ref: refs/heads/main\n',
    'repo/babelq.json': '{ "severity": { "float-currency": "hint" }, "registry": "schemas/registry.json", "overrides": [{ "files": ["legacy/**"], "severity": { "float-currency": "off" } }] }',
    'repo/team/babelq.json': '/* nearer */ { "severity": { "float-currency": "warning" }, "moneyKeyPatterns": ["amount"], "ignore": ["negative/**"] }',
    'repo/sealed/babelq.json': '{ "root": true }',
  });
});
after(() => rmSync(root, { recursive: true, force: true }));

describe('the babelq.json files above a file', () => {
  test('the walk stops at the folder holding .git: a config above the repository is not the project\'s', () => {
    const configs = new ProjectConfigs();
    assert.deepEqual(configs.chainFor(join(root, 'repo/team/a.babel.json')).map((c) => c.path), [join(root, 'repo/babelq.json'), join(root, 'repo/team/babelq.json')]);
  });

  test('"root": true stops the walk', () => {
    assert.deepEqual(new ProjectConfigs().chainFor(join(root, 'repo/sealed/x/a.babel.json')).map((c) => c.path), [join(root, 'repo/sealed/babelq.json')]);
  });

  test('nothing above the editor\'s workspace folder is read', () => {
    assert.deepEqual(new ProjectConfigs().chainFor(join(root, 'repo/team/a.babel.json'), join(root, 'repo/team')).map((c) => c.path), [join(root, 'repo/team/babelq.json')]);
  });

  test('settings apply farthest first, each config\'s overrides after it, the user\'s settings last', () => {
    const configs = new ProjectConfigs();
    const team = configs.settingsFor(join(root, 'repo/team/a.babel.json'), DEFAULT_SETTINGS, []);
    assert.equal(team.severityOverrides.get('float-currency'), 'warning');
    assert.deepEqual(team.moneyKeyPatterns, ['amount']);
    assert.equal(team.registryPath, join(root, 'repo/schemas/registry.json'), 'a config\'s registry path is relative to the config');
    assert.equal(configs.settingsFor(join(root, 'repo/legacy/a.babel.json'), DEFAULT_SETTINGS, []).severityOverrides.get('float-currency'), 'off');
    assert.equal(configs.settingsFor(join(root, 'repo/other/a.babel.json'), DEFAULT_SETTINGS, []).severityOverrides.get('float-currency'), 'hint');
    const user = configs.settingsFor(join(root, 'repo/legacy/a.babel.json'), DEFAULT_SETTINGS, [{ severityOverrides: new Map([['float-currency', 'error']]) }]);
    assert.equal(user.severityOverrides.get('float-currency'), 'error', 'what the user set wins over the config and its overrides');
  });

  test('ignore globs are relative to their config', () => {
    const configs = new ProjectConfigs();
    assert.equal(configs.isIgnored(join(root, 'repo/team/negative/a.babel.json')), true);
    assert.equal(configs.isIgnored(join(root, 'repo/negative/a.babel.json')), false);
  });

  test('an ignore glob that names a folder: the workspace walk does not enter it (a skipped folder is never listed)', async () => {
    write({
      'walled/babelq.json': '{ "root": true, "ignore": ["private"] }',
      'walled/kept.babel.json': '{}',
      'walled/private/secret.babel.json': '{}',
    });
    const ignores = projectIgnores(new ProjectConfigs(), new GitIgnores());
    assert.equal(ignores.skipDirectory(join(root, 'walled/private')), true);
    assert.equal(ignores.skipDirectory(join(root, 'walled')), false);
    assert.deepEqual((await findFixtureFiles(join(root, 'walled'), { ignores })).map((path) => path.slice(root.length + 1)), ['walled/kept.babel.json']);
  });

  test('a changed config is read again once forgotten', () => {
    const configs = new ProjectConfigs();
    const file = join(root, 'repo/sealed/a.babel.json');
    assert.equal(configs.settingsFor(file, DEFAULT_SETTINGS, []).severityOverrides.size, 0);
    write({ 'repo/sealed/babelq.json': '{ "root": true, "severity": { "unknown-urn": "off" } }' });
    assert.equal(configs.settingsFor(file, DEFAULT_SETTINGS, []).severityOverrides.size, 0, 'cached until told');
    configs.forget(join(root, 'repo/sealed/babelq.json'));
    assert.equal(configs.settingsFor(file, DEFAULT_SETTINGS, []).severityOverrides.get('unknown-urn'), 'off');
  });

  test('a babelq.json or suppressions file that vanishes between the look and the read is no file there, not one that "cannot be read"', () => {
    const folder = join(root, 'vanishing');
    const config = join(folder, 'babelq.json');
    const suppressions = join(folder, 'babelq-suppressions.json');
    // The look finds both; each is deleted before it is opened.
    const configs = new ProjectConfigs(
      (path) => {
        throw new UnreadableFile(path, 'does not exist.', 'missing', 'ENOENT');
      },
      (path) => path === config || path === suppressions,
    );
    assert.equal(configs.configIn(folder), undefined);
    assert.deepEqual(configs.loaded(), []);
  });

  test('a named pipe where babelq.json is expected is refused unread, as a config-error, and the walk goes on', { skip: process.platform === 'win32' ? 'no mkfifo' : false }, async () => {
    const { execFileSync } = await import('node:child_process');
    mkdirSync(join(root, 'repo/piped'), { recursive: true });
    execFileSync('mkfifo', [join(root, 'repo/piped/babelq.json')]);
    const chain = new ProjectConfigs().chainFor(join(root, 'repo/piped/a.babel.json'));
    const piped = chain.find((c) => c.path.endsWith('piped/babelq.json'))!;
    assert.match(piped.config.problems[0].message, /cannot be read/);
    assert.equal(chain.length, 2);
  });

  test('a babelq.json or suppressions file that cannot be read says why without naming itself again by its absolute path', { skip: process.platform === 'win32' ? 'no mkfifo' : false }, async () => {
    const { execFileSync } = await import('node:child_process');
    const { truncateSync } = await import('node:fs');
    write({ 'sized/.git/HEAD': 'ref: refs/heads/main\n', 'sized/babelq.json': '' });
    truncateSync(join(root, 'sized/babelq.json'), 2 * 1024 * 1024);
    mkdirSync(join(root, 'sized/piped'));
    execFileSync('mkfifo', [join(root, 'sized/piped/babelq-suppressions.json')]);
    const chain = new ProjectConfigs().chainFor(join(root, 'sized/piped/a.babel.json'));
    const sized = chain.find((c) => c.path === join(root, 'sized/babelq.json'))!;
    assert.match(sized.config.problems[0].message, /^babelq\.json cannot be read: it is 2\.0 MiB, above the 1\.0 MiB this tool reads; it was not read/);
    const piped = chain.find((c) => c.directory === join(root, 'sized/piped'))!;
    assert.match(piped.suppressions!.file.problems[0].message, /^babelq-suppressions\.json cannot be read: it is a named pipe, not a regular file; it was not read\.$/);
    for (const message of [sized.config.problems[0].message, piped.suppressions!.file.problems[0].message]) assert.ok(!message.includes(root), message);
  });

  test('a babelq.json or suppressions file that is a link leading out of its project is refused unread, as a config-error; one leading inside it is read', () => {
    const elsewhere = mkdtempSync(join(tmpdir(), 'babelq-project-elsewhere-'));
    try {
      writeFileSync(join(elsewhere, 'creds.json'), '{ "aws_secret_access_key": 1, "severity": { "extension-key": "off" } }');
      writeFileSync(join(elsewhere, 'other.json'), '{ "suppressions": [ { "file": "a", "code": "ghp_token_value", "pointer": "" } ] }');
      write({ 'linked/.git/HEAD': 'ref: refs/heads/main\n', 'linked/common/babelq.json': '{ "severity": { "float-currency": "off" } }' });
      symlinkSync(join(elsewhere, 'creds.json'), join(root, 'linked/babelq.json'));
      mkdirSync(join(root, 'linked/pkg/baseline'), { recursive: true });
      symlinkSync(join(elsewhere, 'other.json'), join(root, 'linked/pkg/baseline/babelq-suppressions.json'));
      symlinkSync('../common/babelq.json', join(root, 'linked/pkg/babelq.json'));
      for (const configs of [new ProjectConfigs(), new ProjectConfigs(undefined, undefined, () => join(root, 'linked'))]) {
        const chain = configs.chainFor(join(root, 'linked/pkg/a.babel.json'));
        const top = chain.find((c) => c.path === join(root, 'linked/babelq.json'))!;
        assert.equal(top.config.problems.length, 1, JSON.stringify(top.config.problems));
        assert.match(top.config.problems[0].message, /^babelq\.json cannot be read: it is a symbolic link to a file outside the project \(.*\); it was not read/);
        assert.doesNotMatch(top.config.problems[0].message, /aws_secret/);
        assert.deepEqual(top.config.layer, {});
        const baseline = configs.chainFor(join(root, 'linked/pkg/baseline/a.babel.json')).find((c) => c.directory === join(root, 'linked/pkg/baseline'))!;
        assert.equal(baseline.suppressions?.file.entries.length, 0);
        assert.match(baseline.suppressions!.file.problems[0].message, /^babelq-suppressions\.json cannot be read: it is a symbolic link to a file outside the project/);
        assert.doesNotMatch(baseline.suppressions!.file.problems[0].message, /ghp_/);
        // The link inside the project is read: the package's config is the shared one.
        const pkg = chain.find((c) => c.path === join(root, 'linked/pkg/babelq.json'))!;
        assert.deepEqual(pkg.config.problems, []);
        assert.equal(configs.settingsFor(join(root, 'linked/pkg/a.babel.json'), DEFAULT_SETTINGS, []).severityOverrides.get('float-currency'), 'off');
        assert.notEqual(configs.settingsFor(join(root, 'linked/pkg/a.babel.json'), DEFAULT_SETTINGS, []).severityOverrides.get('extension-key'), 'off');
      }
    } finally {
      rmSync(elsewhere, { recursive: true, force: true });
    }
  });

  test('without .git (a git archive export), a package\'s babelq.json linked to the config above it is read, as the walk reads that config itself; one linked out is still refused', () => {
    const elsewhere = mkdtempSync(join(tmpdir(), 'babelq-project-elsewhere-'));
    try {
      writeFileSync(join(elsewhere, 'creds.json'), '{ "aws_secret_access_key": 1 }');
      write({ 'exported/babelq.json': '{ "severity": { "float-currency": "off" } }', 'exported/pkg/a.babel.json': '{}', 'exported/out/a.babel.json': '{}' });
      symlinkSync('../babelq.json', join(root, 'exported/pkg/babelq.json'));
      symlinkSync(join(elsewhere, 'creds.json'), join(root, 'exported/out/babelq.json'));
      const configs = new ProjectConfigs();
      const pkg = configs.chainFor(join(root, 'exported/pkg/a.babel.json')).find((c) => c.path === join(root, 'exported/pkg/babelq.json'))!;
      assert.deepEqual(pkg.config.problems, []);
      assert.equal(configs.settingsFor(join(root, 'exported/pkg/a.babel.json'), DEFAULT_SETTINGS, []).severityOverrides.get('float-currency'), 'off');
      const out = configs.chainFor(join(root, 'exported/out/a.babel.json')).find((c) => c.path === join(root, 'exported/out/babelq.json'))!;
      assert.match(out.config.problems[0]?.message ?? '', /^babelq\.json cannot be read: it is a symbolic link to a file outside the project/);
    } finally {
      rmSync(elsewhere, { recursive: true, force: true });
    }
  });

  test('without .git or another babelq.json above, a babelq.json linked out of its folder is refused, whatever registry.json lies above', () => {
    // A registry.json above bounds no linked config: it made the folder holding it the project, so a
    // link from pkg to any file below it (a credentials file beside the export) was read as the config.
    // Its own temporary folder: the shared one holds a babelq.json at its top, which bounds its configs.
    const top = mkdtempSync(join(tmpdir(), 'babelq-registry-above-'));
    try {
      const place = (path: string, text: string) => {
        mkdirSync(dirname(join(top, path)), { recursive: true });
        writeFileSync(join(top, path), text);
      };
      place('registry.json', '{ "schemas": [] }');
      place('secrets/creds.json', '{ "severity": { "float-currency": "off" } }');
      place('pkg/a.babel.json', '{}');
      symlinkSync('../secrets/creds.json', join(top, 'pkg/babelq.json'));
      const configs = new ProjectConfigs();
      const pkg = configs.chainFor(join(top, 'pkg/a.babel.json')).find((c) => c.path === join(top, 'pkg/babelq.json'))!;
      assert.match(pkg.config.problems[0]?.message ?? '', /^babelq\.json cannot be read: it is a symbolic link to a file outside the project/);
      assert.equal(configs.settingsFor(join(top, 'pkg/a.babel.json'), DEFAULT_SETTINGS, []).severityOverrides.get('float-currency'), undefined);
    } finally {
      rmSync(top, { recursive: true, force: true });
    }
  });
});

/** Whether `rules` ignore a path (relative to their folder), as git decides: the last rule that matches. */
function ignoredBy(rules: ReturnType<typeof parseGitignore>): (path: string, isDirectory?: boolean) => boolean {
  return (path, isDirectory = false) => {
    let verdict = false;
    for (const rule of rules) if ((!rule.directoryOnly || isDirectory) && rule.matcher.test(path)) verdict = !rule.negated;
    return verdict;
  };
}

describe('.gitignore as git reads it', () => {
  test('patterns: anchored, any depth, directories only, negation, classes, escapes, **', () => {
    const rules = parseGitignore('# comment\n/build\n*.tmp\nout/\n!keep.tmp\ndocs/**/draft-[0-9].babel.json\n\\#hash.babel.json\n');
    const ignored = ignoredBy(rules);
    assert.equal(ignored('build'), true);
    assert.equal(ignored('sub/build'), false, 'a leading slash anchors');
    assert.equal(ignored('a/b/c.tmp'), true);
    assert.equal(ignored('keep.tmp'), false, '! re-includes');
    assert.equal(ignored('out', true), true);
    assert.equal(ignored('out'), false, 'a trailing slash matches folders only');
    assert.equal(ignored('docs/draft-1.babel.json'), true, '**/ matches no folder too');
    assert.equal(ignored('docs/a/b/draft-7.babel.json'), true);
    assert.equal(ignored('docs/a/draft-x.babel.json'), false);
    assert.equal(ignored('#hash.babel.json'), true);
  });

  test('bracket expressions as git reads them: POSIX classes, a leading "]", "!" or "^" negation, never a "/"', () => {
    const ignored = ignoredBy(parseGitignore('[[:digit:]]*.babel.json\nv[[:upper:][:punct:]].json\n[]x]y\n[!]a]z\nr[c-b]\nc[x/y]d\nu[[:nope:]]\nopen[1\n'));
    assert.equal(ignored('7-up.babel.json'), true, '[[:digit:]] is a digit');
    assert.equal(ignored('sub/1.babel.json'), true);
    assert.equal(ignored('a.babel.json'), false);
    assert.equal(ignored(':.babel.json'), false, 'not one of the characters of "[:digit:"');
    assert.equal(ignored('vA.json'), true, 'two classes in one bracket');
    assert.equal(ignored('v_.json'), true);
    assert.equal(ignored('va.json'), false);
    assert.equal(ignored(']y'), true, 'a "]" first is one of the characters');
    assert.equal(ignored('xy'), true);
    assert.equal(ignored('bz'), true, '[!]a] is anything but "]" and "a"');
    assert.equal(ignored(']z'), false);
    assert.equal(ignored('az'), false);
    assert.equal(ignored('rc'), true, 'a range written backwards matches its first character');
    assert.equal(ignored('rb'), false);
    assert.equal(ignored('cxd'), true);
    assert.equal(ignored('c/d'), false, 'a bracket never matches a slash');
    assert.equal(ignored('u:'), false, 'an unknown class name matches nothing');
    assert.equal(ignored('un'), false);
    assert.equal(ignored('open[1'), false, 'a bracket never closed makes the line match nothing');
  });

  test('"?" and brackets match one byte of the UTF-8 name, as git\'s wildmatch does', () => {
    const ignored = ignoredBy(parseGitignore('?.babel.json\nx[!a]y\nz[é]\nw??\n'));
    assert.equal(ignored('b.babel.json'), true);
    assert.equal(ignored('é.babel.json'), false, 'é is two bytes: "?" takes one');
    assert.equal(ignored('xéy'), false, '[!a] takes one byte of é');
    assert.equal(ignored('xby'), true);
    assert.equal(ignored('zé'), false, '[é] is a set of two bytes, each matching one');
    assert.equal(ignored('wé'), true, '"??" takes both bytes of é');
  });

  test('only copies of the same line are merged: an anchored line, a folder-only line and an escaped "!" stay rules of their own', () => {
    const rules = parseGitignore('/foo\nfoo/\n\\!bar\n!bar\n/foo\n');
    const ignored = ignoredBy(rules);
    assert.equal(rules.length, 4, 'the second /foo is the only copy dropped');
    assert.equal(ignored('foo'), true, '/foo ignores the file at the top');
    assert.equal(ignored('sub/foo', true), true, 'foo/ ignores a folder at any depth');
    assert.equal(ignored('sub/foo'), false);
    assert.equal(ignored('!bar'), true, '\\!bar ignores a file named !bar');
  });

  test('inside a work tree every .gitignore from the top down applies; a walk does not enter an ignored folder (nothing below it comes back); outside one nothing is ignored', async () => {
    write({
      'git/.git/HEAD': 'x',
      'git/.gitignore': 'gen/\n*.local.babel.json\n',
      'git/sub/.gitignore': '!mine.local.babel.json\n',
      'git/gen/.gitignore': '!*\n',
      'git/gen/a.babel.json': '{}',
      'git/x.local.babel.json': '{}',
      'git/sub/mine.local.babel.json': '{}',
      'git/a.babel.json': '{}',
      'plain/.gitignore': '*\n',
      'plain/a.babel.json': '{}',
    });
    const walk = async (folder: string) => (await findFixtureFiles(join(root, folder), { ignores: projectIgnores(new ProjectConfigs(), new GitIgnores()) })).map((path) => path.slice(root.length + 1));
    assert.deepEqual(await walk('git'), ['git/a.babel.json', 'git/sub/mine.local.babel.json']);
    assert.deepEqual(await walk('git/gen'), ['git/gen/a.babel.json'], 'the folder a walk starts from is walked, as asked');
    assert.deepEqual(await walk('plain'), ['plain/a.babel.json'], 'not a Git work tree');
  });

  test('a hostile pattern runs in linear time', () => {
    const rules = parseGitignore(`${'*a'.repeat(30)}b\n${'**/'.repeat(40)}x\n`);
    const started = performance.now();
    for (const rule of rules) rule.matcher.test(`${'a'.repeat(5_000)}/${'a/'.repeat(200)}c`);
    assert.ok(performance.now() - started < 1_000, `took ${Math.round(performance.now() - started)} ms`);
  });

  test('trailing spaces are dropped in one pass, but for one escaped with a backslash; a megabyte of spaces is read at once', () => {
    const matches = (text: string, path: string) => parseGitignore(text).some((rule) => rule.matcher.test(path));
    assert.equal(matches('a.babel.json   \n', 'a.babel.json'), true);
    assert.equal(matches('a\\ \n', 'a '), true, 'an escaped space is kept');
    assert.equal(matches('a\\ \n', 'a'), false);
    const started = performance.now();
    // A run of spaces, then a character: a look-behind regular expression took 30 s on 300 KB of it.
    assert.equal(parseGitignore(`${' '.repeat(1_000_000)}x\n`).length, 1);
    assert.equal(parseGitignore(`x${' '.repeat(1_000_000)}\n`).length, 1);
    assert.ok(performance.now() - started < 2_000, `took ${Math.round(performance.now() - started)} ms`);
  });
});
