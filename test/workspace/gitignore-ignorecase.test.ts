/**
 * A work tree whose git configuration says `core.ignorecase = true` (what `git init` writes on a
 * file system that folds case: macOS and Windows by default): git matches its `.gitignore` and
 * exclude lines without regard to ASCII case, and so must the walk. Checked against `git ls-files
 * --others --exclude-standard` with the setting on and off.
 */
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, test } from 'node:test';
import { findFixtureFiles } from '../../workspace/fixture-files';
import { configIgnoreCase } from '../../workspace/git-ignore-case';
import { GitIgnores, parseGitignore } from '../../workspace/gitignore';
import { projectIgnores } from '../../workspace/ignores';
import { ProjectConfigs } from '../../workspace/project-config';

const hasGit = spawnSync('git', ['--version']).status === 0;
const gitEnv = { ...process.env, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null' };
const root = mkdtempSync(join(tmpdir(), 'babelq-ignorecase-'));
after(() => rmSync(root, { recursive: true, force: true }));

const FIXTURES = ['Build/a.babel.json', 'X.BABEL.JSON', 'y.babel.json', 'Y.babel.json', 'docs/Draft-1.babel.json', 'docs/draft-2.babel.json', 'Sub/Q.babel.json', 'sub/R.babel.json', 'Ab.babel.json', 'Cd.babel.json', 'É.babel.json', 'Local.babel.json'];
const GITIGNORE = 'build/\n*.babel.json\n!y.babel.json\n!docs/\n!DOCS/DRAFT-[0-9]*\n!/sub/\n!SUB/*.babel.json\n![a-b]B.babel.json\n![[:upper:]]D.babel.json\n!é.babel.json\n';

async function compare(ignoreCase: boolean | undefined): Promise<string[]> {
  const top = join(root, String(ignoreCase));
  mkdirSync(top);
  execFileSync('git', ['init', '-q'], { cwd: top, env: gitEnv });
  if (ignoreCase !== undefined) execFileSync('git', ['config', 'core.ignoreCase', String(ignoreCase)], { cwd: top, env: gitEnv });
  for (const [path, text] of [...FIXTURES.map((fixture) => [fixture, '{}']), ['.gitignore', GITIGNORE], ['.git/info/exclude', '!LOCAL.BABEL.JSON\n']]) {
    mkdirSync(dirname(join(top, path)), { recursive: true });
    writeFileSync(join(top, path), text);
  }
  const listed = execFileSync('git', ['ls-files', '--others', '--exclude-standard', '-z'], { cwd: top, env: gitEnv, encoding: 'utf8' });
  const byGit = listed.split('\0').filter((path) => path.endsWith('.babel.json')).sort();
  const found = await findFixtureFiles(top, { ignores: projectIgnores(new ProjectConfigs(), new GitIgnores()) });
  assert.deepEqual(found.map((path) => path.slice(top.length + 1)).sort(), byGit, `core.ignorecase ${ignoreCase}`);
  return byGit;
}

test('core.ignorecase = true: .gitignore lines match whatever the ASCII case, as git matches them; false or unset, case counts', { skip: !hasGit && 'git is not installed' }, async () => {
  const folded = await compare(true);
  assert.ok(folded.includes('Y.babel.json') && !folded.includes('Build/a.babel.json'), 'git itself folds case');
  const exact = await compare(false);
  assert.notDeepEqual(exact, folded);
  assert.deepEqual(await compare(undefined), exact);
});

test('the setting as git reads its config: section and key in any case, a key alone is true, the last one decides, a subsection is another section', () => {
  assert.equal(configIgnoreCase('[core]\n\tignorecase = true\n'), true);
  assert.equal(configIgnoreCase('[CORE]\n\tIgnoreCase\n'), true);
  assert.equal(configIgnoreCase('[core] ignoreCase = yes ; comment\n'), true);
  assert.equal(configIgnoreCase('[core]\nignorecase = true\n[core]\nignorecase = off\n'), false);
  assert.equal(configIgnoreCase('[core "x"]\nignorecase = true\n'), false);
  assert.equal(configIgnoreCase('[user]\nignorecase = true\n'), false);
  assert.equal(configIgnoreCase('[core]\n# ignorecase = true\n'), false);
  assert.equal(configIgnoreCase('[core]\nignorecase = 1\n'), true);
  assert.equal(configIgnoreCase(''), false);
});

test('the setting read as git reads its config file: a comment anywhere outside quotes, quotes and escapes inside a value, a line continued by a backslash, a number with a unit or in hex', { skip: !hasGit && 'git is not installed' }, () => {
  const texts = [
    '[core]\nignorecase = true#note\n',
    '[core]\nignorecase = false;note\n',
    '[core]\nignorecase = "tr"ue\n',
    '[core]\nignorecase = "true" # "false"\n',
    '[core]\nignorecase = tr\\\nue\n',
    '[core]\nignorecase = \\\ntrue\n',
    '[core]\nignorecase = true\\\n',
    '[core]\nignorecase = 1k\n',
    '[core]\nignorecase = 0x1\n',
    '[core]\nignorecase = 010\n',
    '[core]\nignorecase = 00\n',
    '[core]\nignorecase = ""\n',
    '[core]\nignorecase = true\n\tfoo = "a;b\\\nignorecase = false"\n',
    '[core]\r\n\tignorecase = no\r\n',
    '[core] ignorecase = on # [user]\n',
  ];
  const config = join(root, 'config');
  for (const text of texts) {
    writeFileSync(config, text);
    const byGit = spawnSync('git', ['config', '-f', config, '--bool', '--get', 'core.ignorecase'], { env: gitEnv, encoding: 'utf8' });
    assert.ok(byGit.status === 0 || byGit.status === 1, `git reads ${JSON.stringify(text)}: ${byGit.stderr}`);
    assert.equal(configIgnoreCase(text), byGit.stdout.trim() === 'true', JSON.stringify(text));
  }
});

test("with core.ignorecase, wildmatch's own folding: an escaped capital or a capital alone in brackets matches nothing; a range or [[:upper:]] takes both cases", () => {
  const rules = parseGitignore('q[A]\nr\\A\ns[a]\nt[A-B]\nu[[:upper:]]\nPlain\n*.JSON\n', true);
  const ignored = (path: string) => rules.reduce((verdict, rule) => (rule.matcher.test(path) ? !rule.negated : verdict), false);
  // As git 2.39 with core.ignorecase true answers for each name.
  for (const name of ['qA', 'qa', 'rA', 'ra']) assert.equal(ignored(name), false, name);
  for (const name of ['sA', 'sa', 'tA', 'ta', 'uA', 'ua', 'plain', 'sub/PLAIN', 'a.json', 'b.Json']) assert.equal(ignored(name), true, name);
  assert.equal(ignored('É.json'), true);
  assert.equal(parseGitignore('é\n', true)[0].matcher.test('É'), false, 'only ASCII letters fold');
});

test('with core.ignorecase, a path is folded once for the lines of a file, not once per line: a walk asks every line about every path', () => {
  const lines: string[] = [];
  for (let i = 0; i < 60; i++) lines.push(`build${i}`, `*.tmp${i}`, `docs/out${i}`);
  for (let i = 0; i < 20; i++) lines.push(`cache-*-${i}/`, `**/Generated${i}/**`);
  const paths = Array.from({ length: 4000 }, (_, i) => `src/Module${i % 300}/Sub/File${i}.ts`);
  /** The fastest of a few runs of every line against every path, in ms (the least disturbed by other work on the machine). */
  const cost = (ignoreCase: boolean): number => {
    const rules = parseGitignore(lines.join('\n'), ignoreCase);
    let fastest = Infinity;
    for (let run = 0; run < 5; run++) {
      const started = performance.now();
      for (const path of paths) for (const rule of rules) rule.matcher.test(path);
      fastest = Math.min(fastest, performance.now() - started);
    }
    return fastest;
  };
  cost(true);
  const exact = cost(false);
  const folded = cost(true);
  // Folding each path once adds one pass over it per file; folding it for each of 220 lines made the walk nine times slower.
  assert.ok(folded < exact * 2.5, `with core.ignorecase ${folded.toFixed(1)} ms, without ${exact.toFixed(1)} ms`);
});
