/**
 * `.gitignore` against git itself, on random trees: seeded small trees of folders and
 * `*.babel.json` files, with `.gitignore` files at several levels and a `.git/info/exclude`, their
 * lines drawn from a grammar of what gitignore(5) and git's wildmatch read (`!`, anchoring `/`, a
 * middle slash, trailing `/`, `**` forms and longer runs of stars, `?`, brackets with ranges,
 * negation and POSIX classes, backslash escapes, trailing spaces and tabs, CRLF, a BOM, non-ASCII
 * and upper-case names). The fixtures the workspace walk finds (workspace/fixture-files.ts with
 * workspace/ignores.ts, as `babelq lint <dir>` and the editor walk) must be those `git ls-files
 * --others --exclude-standard` lists; some work trees set core.ignorecase. A difference is shrunk (lines, then files, taken away while
 * it stays) and printed whole with its seed. GITIGNORE_SEED and GITIGNORE_CASES change the run.
 */
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { appendFileSync, cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, test } from 'node:test';
import { random as seededRandom } from '../../bench/generate';
import { findFixtureFiles } from '../../workspace/fixture-files';
import { GitIgnores } from '../../workspace/gitignore';
import { projectIgnores } from '../../workspace/ignores';
import { ProjectConfigs } from '../../workspace/project-config';

const SEED = Number(process.env.GITIGNORE_SEED ?? 20261207);
const CASES = Number(process.env.GITIGNORE_CASES ?? 150);

const hasGit = spawnSync('git', ['--version']).status === 0;
/** No system or global configuration: a global core.excludesFile (which the walk does not read) must not take part. */
const gitEnv = { ...process.env, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null' };

/** One tree: its fixtures, and the text of each ignore file, by path from the top. */
interface Case {
  readonly fixtures: readonly string[];
  readonly ignoreFiles: Readonly<Record<string, string>>;
  /** The work tree's core.ignorecase (git then matches lines without regard to ASCII case). */
  readonly ignoreCase: boolean;
}

type Random = () => number;
const pick = <T>(random: Random, items: readonly T[]): T => items[Math.floor(random() * items.length)];
const chance = (random: Random, p: number) => random() < p;

const FOLDERS = ['a', 'b', 'A', 'é', 'x y', 'a.b', '[c]', 'ab', 'd\\', 'e ', '#f', 'É'];
const BASES = ['a', 'b', 'ab', 'A', 'é', 'x y', '#h', '!n', '[c]', 'a1', 'b ', 'c\t', 'ü-2'];
/** The pieces a pattern's segment is made of: names, wildcards, brackets, escapes. */
const ATOMS = ['a', 'b', 'ab', 'A', 'é', 'x y', '*', '?', '??', '[ab]', '[!a]', '[^b]', '[a-c]', '[]a]', '[a-]', '[[:alpha:]]', '[[:digit:]]', '[[:space:]]', '[[:upper:]]', '[[:nope:]]', '[b-a]', '[à-ü]', '**', '***', '\\#', '\\!', '\\a', '\\[c]', '[', 'x\\ y', '[c]'];
const SUFFIXES = ['', '', '.babel.json', '*.babel.json', '.babel.*', '*', '.b'];
const TRAILERS = ['', '', '', '', ' ', '  ', '\t', '\\ ', '\\', '\\\\ '];

function segment(random: Random): string {
  if (chance(random, 0.15)) return pick(random, ['**', '***', '*']);
  let text = pick(random, ATOMS);
  if (chance(random, 0.3)) text += pick(random, ATOMS);
  return text;
}

/** A character of a name as a pattern writes it: itself, escaped, a wildcard or a bracket that takes it. */
function wildcardFor(random: Random, char: string): string {
  const roll = random();
  if (roll < 0.5) return /[*?[\\!#]/.test(char) ? `\\${char}` : char;
  if (roll < 0.55) return char === char.toLowerCase() ? char.toUpperCase() : char.toLowerCase();
  if (roll < 0.65) return '?';
  if (roll < 0.75) return '*';
  if (roll < 0.8) return `[${char}x]`;
  if (roll < 0.85) return `[!${char === 'q' ? 'r' : 'q'}]`;
  if (roll < 0.9) return /[a-z]/.test(char) ? '[a-z]' : '[[:alpha:][:digit:]]';
  if (roll < 0.95) return `\\${char}`;
  return '**';
}

/** A line made from a path of the tree (some of its last segments, some characters made wildcards), so that lines match often. */
function derivedPattern(random: Random, path: string): string {
  const segments = path.split('/');
  const from = Math.floor(random() * segments.length);
  const kept = segments.slice(from).map((segment) => (chance(random, 0.15) ? pick(random, ['*', '**']) : [...segment].map((char) => wildcardFor(random, char)).join('')));
  if (chance(random, 0.3)) kept[kept.length - 1] = pick(random, ['*.babel.json', '*', '*.json', '[ab]*']);
  return (from === 0 && chance(random, 0.4) ? '/' : '') + kept.join('/');
}

function patternLine(random: Random, paths: readonly string[]): string {
  if (chance(random, 0.05)) return pick(random, ['# a comment', '', '   ', '#a.babel.json', '!']);
  let line = chance(random, 0.3) ? '!' : '';
  if (chance(random, 0.5)) {
    line += derivedPattern(random, pick(random, paths));
  } else {
    if (chance(random, 0.2)) line += '/';
    const segments = Array.from({ length: 1 + Math.floor(random() * 3) }, () => segment(random));
    line += segments.join('/') + pick(random, SUFFIXES);
  }
  if (chance(random, 0.2)) line += '/';
  return line + pick(random, TRAILERS);
}

/** An ignore file's text; `paths` are those of the tree below its folder, which some of its lines are made from. */
function ignoreText(random: Random, paths: readonly string[]): string {
  const lines = Array.from({ length: 1 + Math.floor(random() * 5) }, () => patternLine(random, paths.length > 0 ? paths : ['a']));
  const end = chance(random, 0.25) ? '\r\n' : '\n';
  return (chance(random, 0.1) ? '\ufeff' : '') + lines.join(end) + (chance(random, 0.8) ? end : '');
}

function randomCase(random: Random): Case {
  const folders = [''];
  for (let i = 0; i < 1 + Math.floor(random() * 5); i++) {
    const parent = pick(random, folders);
    const folder = parent === '' ? pick(random, FOLDERS) : `${parent}/${pick(random, FOLDERS)}`;
    if (!folders.includes(folder)) folders.push(folder);
  }
  const fixtures = new Set<string>();
  for (let i = 0; i < 3 + Math.floor(random() * 8); i++) {
    const folder = pick(random, folders);
    fixtures.add(`${folder === '' ? '' : `${folder}/`}${pick(random, BASES)}.babel.json`);
  }
  const paths = [...folders.slice(1), ...fixtures];
  const below = (folder: string) => paths.filter((path) => path.startsWith(`${folder}/`)).map((path) => path.slice(folder.length + 1));
  const ignoreFiles: Record<string, string> = {};
  if (chance(random, 0.85)) ignoreFiles['.gitignore'] = ignoreText(random, paths);
  for (const folder of folders.slice(1)) if (chance(random, 0.35)) ignoreFiles[`${folder}/.gitignore`] = ignoreText(random, below(folder));
  if (chance(random, 0.2)) ignoreFiles['.git/info/exclude'] = ignoreText(random, paths);
  return { fixtures: [...fixtures].sort(), ignoreFiles, ignoreCase: chance(random, 0.15) };
}

const scratch = mkdtempSync(join(tmpdir(), 'babelq-gitignore-diff-'));
after(() => rmSync(scratch, { recursive: true, force: true }));
/** An empty repository's `.git`, copied into each work tree: `git init` costs a process of its own each time. */
let template: string | undefined;
let made = 0;

function workTree(): string {
  if (template === undefined) {
    template = join(scratch, 'template');
    mkdirSync(template);
    execFileSync('git', ['init', '-q', '--template='], { cwd: template, env: gitEnv });
  }
  const root = join(scratch, String(made++));
  cpSync(join(template, '.git'), join(root, '.git'), { recursive: true });
  return root;
}

function write(folder: string, files: readonly (readonly [string, string])[]): void {
  for (const [path, text] of files) {
    mkdirSync(dirname(join(folder, path)), { recursive: true });
    writeFileSync(join(folder, path), text);
  }
}

/** The `*.babel.json` files git lists as neither tracked nor ignored in the work tree `root`. */
function listedByGit(root: string): string[] {
  const listed = execFileSync('git', ['ls-files', '--others', '--exclude-standard', '-z'], { cwd: root, env: gitEnv, encoding: 'utf8' });
  return listed.split('\0').filter((path) => path.endsWith('.babel.json'));
}

/**
 * What git lists and what the walk finds, for each case. A case without an exclude file or core.ignorecase is a
 * folder of one shared work tree (its `.gitignore` lines judge only paths below it, as at a top),
 * so one `git ls-files` answers for all of them; a case with one has a work tree of its own.
 */
async function run(cases: readonly Case[]): Promise<{ git: string[]; walk: string[] }[]> {
  const shared = workTree();
  const folders = cases.map((gitCase, index) => {
    const { '.git/info/exclude': exclude, ...gitignores } = gitCase.ignoreFiles;
    const folder = exclude === undefined && !gitCase.ignoreCase ? join(shared, `case${index}`) : workTree();
    mkdirSync(folder, { recursive: true });
    if (gitCase.ignoreCase) appendFileSync(join(folder, '.git/config'), '[core]\n\tignorecase = true\n');
    write(folder, [...gitCase.fixtures.map((path): [string, string] => [path, '{}']), ...Object.entries(gitignores)]);
    if (exclude !== undefined) write(folder, [['.git/info/exclude', exclude]]);
    return folder;
  });
  const inShared = new Map<string, string[]>();
  for (const path of listedByGit(shared)) {
    const slash = path.indexOf('/');
    const folder = join(shared, path.slice(0, slash));
    inShared.set(folder, [...(inShared.get(folder) ?? []), path.slice(slash + 1)]);
  }
  const results = [];
  for (const folder of folders) {
    const git = (folder.startsWith(`${shared}/`) ? inShared.get(folder) ?? [] : listedByGit(folder)).sort();
    const found = await findFixtureFiles(folder, { ignores: projectIgnores(new ProjectConfigs(), new GitIgnores()) });
    results.push({ git, walk: found.map((path) => path.slice(folder.length + 1)).sort() });
  }
  rmSync(shared, { recursive: true, force: true });
  for (const folder of folders) if (!folder.startsWith(`${shared}/`)) rmSync(folder, { recursive: true, force: true });
  return results;
}

const differs = async (gitCase: Case) => {
  const [{ git, walk }] = await run([gitCase]);
  return JSON.stringify(git) !== JSON.stringify(walk);
};

/** The case with every ignore-file line, ignore file and fixture taken away that the difference does not need. */
async function shrink(gitCase: Case): Promise<Case> {
  let smallest = gitCase;
  for (const path of Object.keys(smallest.ignoreFiles)) {
    const { [path]: _, ...others } = smallest.ignoreFiles;
    if (await differs({ ...smallest, ignoreFiles: others })) {
      smallest = { ...smallest, ignoreFiles: others };
      continue;
    }
    const lines = smallest.ignoreFiles[path].split('\n');
    for (let i = lines.length - 1; i >= 0; i--) {
      const fewer = [...lines.slice(0, i), ...lines.slice(i + 1)];
      const candidate = { ...smallest, ignoreFiles: { ...smallest.ignoreFiles, [path]: fewer.join('\n') } };
      if (await differs(candidate)) {
        smallest = candidate;
        lines.splice(i, 1);
      }
    }
  }
  for (const fixture of smallest.fixtures) {
    const candidate = { ...smallest, fixtures: smallest.fixtures.filter((other) => other !== fixture) };
    if (await differs(candidate)) smallest = candidate;
  }
  return smallest;
}

test(`the workspace walk finds the fixtures git lists as not ignored, on ${CASES} random trees (seed ${SEED})`, { skip: !hasGit && 'git is not installed' }, async (t) => {
  const failing: number[] = [];
  let ignoredSomewhere = 0;
  // Each case has a seed of its own, so a failing one is rebuilt alone: GITIGNORE_SEED=<seed + index> GITIGNORE_CASES=1.
  const cases = Array.from({ length: CASES }, (_, index) => randomCase(seededRandom(SEED + index)));
  for (const [index, { git, walk }] of (await run(cases)).entries()) {
    if (git.length < cases[index].fixtures.length) ignoredSomewhere++;
    if (JSON.stringify(git) !== JSON.stringify(walk)) failing.push(index);
  }
  if (failing.length > 0) {
    const smallest = await shrink(cases[failing[0]]);
    const [{ git, walk }] = await run([smallest]);
    assert.fail(
      `${failing.length} of ${CASES} trees differ from git (cases ${failing.slice(0, 10).join(', ')}). The first, shrunk (GITIGNORE_SEED=${SEED + failing[0]} GITIGNORE_CASES=1 rebuilds it):\n` +
        `${JSON.stringify(smallest, null, 1)}\ngit lists: ${JSON.stringify(git)}\nthe walk finds: ${JSON.stringify(walk)}`,
    );
  }
  t.diagnostic(`${ignoredSomewhere} of ${CASES} trees had a fixture ignored`);
  // The grammar must keep producing trees where something is ignored, or the comparison says little.
  assert.ok(ignoredSomewhere >= CASES / 4, `only ${ignoredSomewhere} of ${CASES} trees had a fixture ignored`);
});
