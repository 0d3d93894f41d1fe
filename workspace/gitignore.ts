/**
 * `.gitignore` as git reads it, for directory walks (`babelq lint <dir>` and the editor's scan of
 * the workspace): inside a Git work tree (a folder at or above holding `.git`), every `.gitignore`
 * from the top of the tree down to a path's folder applies, deeper files after shallower ones and
 * the last matching line deciding; `!` re-includes. A walk does not enter an ignored folder, so
 * nothing below one can be re-included (git does not look inside one either); the folder a walk
 * starts from is walked even when it is ignored itself (as ripgrep does: it was asked for).
 * A `.gitignore` that is a symbolic link is not followed (git does not follow one either), and
 * that is said. Outside a work tree nothing is ignored, as for git itself. The top's exclude file
 * applies as git applies it: its lines relative to the top, before every `.gitignore` (a
 * `.gitignore` line decides over it, `!` bringing back what it leaves out), read with the same
 * bound and matcher. It is `.git/info/exclude`, or where `.git` is a file (a linked worktree, a
 * submodule) the `info/exclude` of the git directory it points to (workspace/git-exclude-file.ts).
 * The global excludes file (core.excludesFile) is not read. Where the work tree's config sets
 * core.ignorecase (what `git init` writes on a file system that folds case), ASCII letters match
 * whatever their case, as git matches them then (workspace/git-ignore-case.ts).
 *
 * Patterns compile to the linear-time engine (a hostile `.gitignore` of `*a*a*a*b` cannot stall a walk).
 * Linear per path is not cheap per path: each wildcard line is one automaton run on every file and
 * folder a walk meets, so a file with more of them than MAX_WILDCARD_LINES, or with more UTF-8
 * bytes in them than MAX_WILDCARD_BYTES, is not applied at all (said through `refused`), and
 * identical lines share one compiled automaton.
 */
import { existsSync, lstatSync } from 'node:fs';
import { basename, dirname, join, resolve, sep } from 'node:path';
import { linearRegExp } from '../core/registry/linear-regex';
import { readBoundedText, UnreadableFile } from './bounded-read';
import { gitExcludeFileOf } from './git-exclude-file';
import { gitIgnoreCaseOf } from './git-ignore-case';
import { PROJECT_MARKER } from './project-root';
import { resolvedPath } from './absolute-path';
import { digitGroups } from '../core/model/count-words';

export const GITIGNORE_FILE = '.gitignore';
const MAX_GITIGNORE_BYTES = 1024 * 1024;
const MAX_LEVELS = 64;
/**
 * The most distinct wildcard lines (those that need the regular-expression engine) one `.gitignore`
 * may hold to be applied. A real one has a few dozen; 20,000 copies of `**\/a*a*a*b` took a walk of
 * 340 fixtures 34 s and 500 MB (each line about 20 KB compiled and 65 µs per path tested), and the
 * server's walk yields between folders only. At this bound the worst line costs a path 65 ms.
 */
export const MAX_WILDCARD_LINES = 1_000;
/**
 * The most bytes the distinct wildcard lines of one `.gitignore` may hold together to be applied,
 * counted in UTF-8: a wildcard line is compiled and matched on its UTF-8 bytes (git's wildmatch
 * reads names byte by byte), so a line of 'é' compiles twice as long as its characters, and one of
 * CJK three times. Compiling costs by the byte, not by the line: 1,000 lines of 1,000 characters
 * (`[ab]*[ab]*…`, 1 MB) took 5 to 10 s and 400 MB before the walk's first path, with the server's
 * event loop held all along. A real `.gitignore`'s wildcard lines hold a few hundred bytes;
 * at this bound the costliest shapes compile in about a second, as 1,000 short lines do.
 */
export const MAX_WILDCARD_BYTES = 32 * 1024;

/**
 * A `.gitignore` or exclude file not applied, and the sentence after its path that says why: told
 * once per file to whoever reports it (the server's log, the CLI's stderr), and for an exclude file
 * once per work tree that reads it (a checkout and its linked worktrees share one). `appliesBelow`
 * is the folder whose paths it would have judged: a `.gitignore`'s own folder, an exclude file's
 * work tree top (which the exclude file of a linked worktree or a submodule does not lie in).
 */
export type IgnoreFileRefused = (path: string, reason: string, appliesBelow: string) => void;

/** A `.gitignore` whose lines are too many or too costly to apply. */
export class TooManyWildcards extends Error {}

interface IgnoreRule {
  readonly negated: boolean;
  readonly directoryOnly: boolean;
  readonly matcher: { test(path: string): boolean };
}

export class GitIgnores {
  private readonly rules = new Map<string, readonly IgnoreRule[]>();
  /** The exclude file of each work tree top, and its rules. */
  private readonly excludes = new Map<string, { readonly file: string | undefined; readonly rules: readonly IgnoreRule[] }>();
  private readonly tops = new Map<string, string | undefined>();
  /** Each work tree top's core.ignorecase. */
  private readonly ignoreCase = new Map<string, boolean>();
  /** How many folders up each folder of `tops` found its top. */
  private readonly levelsToTop = new Map<string, number>();
  private readonly chains = new Map<string, readonly { readonly folder: string; readonly rules: readonly IgnoreRule[] }[]>();

  constructor(
    private readonly read: (path: string) => string | undefined = readIgnoreFile,
    private readonly exists: (path: string) => boolean = existsSync,
    /** Told of each `.gitignore` that is not applied, and why (the walk goes on as if it were absent). */
    private readonly refused?: IgnoreFileRefused,
    /** The exclude file git reads for a work tree top, when there is one. */
    private readonly excludeFileOf: (top: string) => string | undefined = gitExcludeFileOf,
    /** Whether git matches the lines of a work tree top without regard to case (its core.ignorecase). */
    private readonly ignoreCaseOf: (top: string) => boolean = gitIgnoreCaseOf,
  ) {}

  /**
   * True when the rules ignore `path` (absolute) itself. Its folders are not looked at: a walk
   * asks for each folder before it enters it.
   */
  isIgnored(path: string, isDirectory: boolean): boolean {
    const absolute = resolvedPath(path);
    const top = this.workTreeTop(dirname(absolute));
    if (top === undefined || absolute === top) return false;
    return this.decide(absolute, isDirectory, top);
  }

  /**
   * True when `directory` is the top of a work tree (it holds `.git`): git lists its files by its
   * own `.gitignore` files, whatever a work tree around it ignores (a home folder kept in Git).
   */
  isWorkTreeTop(directory: string): boolean {
    const absolute = resolvedPath(directory);
    return this.workTreeTop(absolute) === absolute;
  }

  /** Forgets a `.gitignore`, exclude file or git config that changed (or every one, and where each top's exclude file is). */
  forget(path?: string): void {
    // A git config decides how every line of its work tree matches (core.ignorecase): all is read again.
    if (path === undefined || isGitConfigFile(path)) {
      this.rules.clear();
      this.excludes.clear();
      this.ignoreCase.clear();
    } else if (isGitExcludeFile(path)) {
      // Several work trees share one (a checkout and its linked worktrees).
      const file = resolve(path);
      for (const [top, exclude] of this.excludes) if (exclude.file === file) this.excludes.delete(top);
    } else {
      this.rules.delete(dirname(resolve(path)));
    }
    this.chains.clear();
  }

  /** The last matching rule of the `.gitignore` files from `top` down to the path's folder. */
  private decide(absolute: string, isDirectory: boolean, top: string): boolean {
    let ignored = false;
    for (const { folder, rules } of this.rulesAbove(dirname(absolute), top)) {
      // `absolute` lies below `folder`: the path relative to it is a slice, '/'-separated.
      const path = slashes(absolute.slice(folder.length + (folder.endsWith(sep) ? 0 : 1)));
      for (const rule of rules) {
        if (rule.directoryOnly && !isDirectory) continue;
        if (rule.matcher.test(path)) ignored = !rule.negated;
      }
    }
    return ignored;
  }

  /** The folders from `top` down to `directory` that have rules, with their rules; kept per folder. */
  private rulesAbove(directory: string, top: string): readonly { readonly folder: string; readonly rules: readonly IgnoreRule[] }[] {
    let chain = this.chains.get(directory);
    if (!chain) {
      // Above the top's own .gitignore: its .git/info/exclude, which every .gitignore decides over.
      const excluded = directory === top ? this.excludeRules(top) : [];
      const parent = directory === top ? (excluded.length > 0 ? [{ folder: top, rules: excluded }] : []) : dirname(directory) === directory ? [] : this.rulesAbove(dirname(directory), top);
      const own = this.rulesIn(directory, top);
      chain = own.length > 0 ? [...parent, { folder: directory, rules: own }] : parent;
      this.chains.set(directory, chain);
    }
    return chain;
  }

  private rulesIn(folder: string, top: string): readonly IgnoreRule[] {
    let rules = this.rules.get(folder);
    if (!rules) {
      rules = this.rulesOf(join(folder, GITIGNORE_FILE), folder, top);
      this.rules.set(folder, rules);
    }
    return rules;
  }

  /** The rules of the exclude file git reads for the work tree top `top`. */
  private excludeRules(top: string): readonly IgnoreRule[] {
    let exclude = this.excludes.get(top);
    if (!exclude) {
      const file = this.excludeFileOf(top);
      exclude = { file, rules: file === undefined ? [] : this.rulesOf(file, top, top) };
      this.excludes.set(top, exclude);
    }
    return exclude.rules;
  }

  /** The rules of the ignore file at `path` in the work tree `top`, which judges paths below `appliesBelow`: none when it is absent, or when it is not applied (said through `refused`). */
  private rulesOf(path: string, appliesBelow: string, top: string): readonly IgnoreRule[] {
    try {
      const text = this.read(path);
      return text === undefined ? [] : parseGitignore(text, this.ignoresCase(top));
    } catch (error) {
      if (!(error instanceof TooManyWildcards || error instanceof UnreadableFile)) throw error;
      this.refused?.(path, `${error instanceof UnreadableFile ? error.detail : error.message} Nothing it lists is ignored.`, appliesBelow);
      return [];
    }
  }

  private ignoresCase(top: string): boolean {
    let ignoreCase = this.ignoreCase.get(top);
    if (ignoreCase === undefined) {
      ignoreCase = this.ignoreCaseOf(top);
      this.ignoreCase.set(top, ignoreCase);
    }
    return ignoreCase;
  }

  private workTreeTop(directory: string): string | undefined {
    if (this.tops.has(directory)) return this.tops.get(directory);
    let top: string | undefined;
    let levels = 0;
    let folder = directory;
    for (let level = 0; level < MAX_LEVELS; level++) {
      // A folder above that was looked up already answers for this one: a walk asks for each folder
      // of a deep tree in turn, and looking up to MAX_LEVELS above each (every look a path lookup
      // as long as the tree is deep) took seconds on a checkout 800 folders deep. Its top holds
      // when it is within reach from here; none within its reach is none within ours.
      if (level > 0 && this.tops.has(folder)) {
        const known = this.tops.get(folder);
        if (known !== undefined && level + this.levelsToTop.get(folder)! < MAX_LEVELS) {
          top = known;
          levels = level + this.levelsToTop.get(folder)!;
        }
        break;
      }
      if (this.exists(join(folder, PROJECT_MARKER))) {
        top = folder;
        levels = level;
        break;
      }
      const parent = dirname(folder);
      if (parent === folder) break;
      folder = parent;
    }
    this.tops.set(directory, top);
    if (top !== undefined) this.levelsToTop.set(directory, levels);
    return top;
  }
}

/**
 * Whether `path` is an exclude file GitIgnores may read for a work tree top: a `.git/info/exclude`
 * (a checkout's own, shared by its linked worktrees) or a submodule's, below `.git/modules/` (a
 * submodule's name may hold slashes, and submodules nest: `.git/modules/a/modules/b/info/exclude`).
 */
export function isGitExcludeFile(path: string): boolean {
  return /\/\.git\/(?:modules\/.+\/)?info\/exclude$/.test(slashes(resolve(path)));
}

/**
 * Whether `path` is a git config GitIgnores may read core.ignorecase from for a work tree top: a
 * `.git/config` (shared by a checkout's linked worktrees) or a submodule's, below `.git/modules/`.
 */
export function isGitConfigFile(path: string): boolean {
  return /\/\.git\/(?:modules\/.+\/)?config$/.test(slashes(resolve(path)));
}

/**
 * A `.gitignore` file's text, bounded; undefined when there is none. One that is there but is not
 * read (above the bound, a pipe, unreadable) throws UnreadableFile, so that it is said, not passed
 * over as if absent. A `.gitignore` that is a symbolic link is not read, as git does not follow
 * one (a link can bring in a file from outside the work tree); an exclude file that is one is.
 */
function readIgnoreFile(path: string): string | undefined {
  if (basename(path) === GITIGNORE_FILE && isSymbolicLink(path)) {
    throw new UnreadableFile(path, 'is a symbolic link; git does not follow one for a .gitignore, and neither does this tool.', 'not-a-file');
  }
  try {
    return readBoundedText(path, MAX_GITIGNORE_BYTES);
  } catch (error) {
    if (error instanceof UnreadableFile && error.reason !== 'missing') throw error;
    return undefined;
  }
}

function isSymbolicLink(path: string): boolean {
  try {
    return lstatSync(path, { throwIfNoEntry: false })?.isSymbolicLink() ?? false;
  } catch {
    return false; // The read that follows says why the file cannot be read.
  }
}

/**
 * The line without its trailing spaces, as git reads it: spaces only (a tab or a no-break space is
 * part of the name), and not one escaped with a backslash (`a\ ` keeps its space), where a
 * backslash escapes the character after it (`a\\ ` is `a\\`, its space trailing). One pass from
 * the start: a regular expression anchored at the end with a look-behind was tried from every
 * character of a long run of spaces, quadratic in its length.
 */
function withoutTrailingSpaces(line: string): string {
  let trailingFrom = -1;
  for (let i = 0; i < line.length; i++) {
    if (line[i] === ' ') {
      if (trailingFrom < 0) trailingFrom = i;
      continue;
    }
    // A backslash ending the line leaves it as it is.
    if (line[i] === '\\' && ++i === line.length) return line;
    trailingFrom = -1;
  }
  return trailingFrom < 0 ? line : line.slice(0, trailingFrom);
}

/**
 * The rules of one `.gitignore`, in order (gitignore(5): blank lines and `#` comments skipped);
 * throws TooManyWildcards past MAX_WILDCARD_LINES distinct wildcard lines, or past
 * MAX_WILDCARD_BYTES (UTF-8) in them together. With `ignoreCase` (the work tree's
 * core.ignorecase), ASCII letters match whatever their case, as git matches them then.
 */
export function parseGitignore(text: string, ignoreCase = false): IgnoreRule[] {
  // Every line is read and counted before any is compiled: a file refused by the bounds costs nothing to refuse.
  const lines: { readonly negated: boolean; readonly directoryOnly: boolean; readonly matcher: { test(path: string): boolean } | string; readonly key: string }[] = [];
  const sources = new Set<string>();
  let wildcardBytes = 0;
  // The lines of one file are asked about one path after another: each path is folded (and made
  // UTF-8 bytes) once for all of them, not once per line, which made a walk ten times slower.
  const folded = rememberLast(ignoreCase ? foldAsciiCase : (path: string) => path);
  const foldedBytes = rememberLast((path: string) => inUtf8Bytes(folded(path)));
  // A byte order mark opening the file (an editor on Windows writes one) is no part of its first line, as for git.
  if (text.startsWith('\ufeff')) text = text.slice(1);
  for (let line of text.split('\n')) {
    // One carriage return ends a line (CRLF), the last one too; any other is part of the name.
    line = withoutTrailingSpaces(line.endsWith('\r') ? line.slice(0, -1) : line);
    if (line === '' || line.startsWith('#')) continue;
    let negated = false;
    // An escaped `\!` or `\#` keeps its backslash, as in git: the line then has no plain start, which decides how a `**` after it is read.
    if (line.startsWith('!')) {
      negated = true;
      line = line.slice(1);
    }
    let directoryOnly = false;
    // As git reads it, whatever comes before it: in `d\\/` the backslash is escaped, and `d\/` ends in a lone backslash that matches nothing.
    if (line.endsWith('/')) {
      directoryOnly = true;
      line = line.slice(0, -1);
    }
    if (line === '') continue;
    // A slash at the start or in the middle anchors the pattern to this file's folder; otherwise it matches at any depth.
    const anchored = line.includes('/');
    if (line.startsWith('/')) line = line.slice(1);
    let matcher: { test(path: string): boolean } | string | undefined = plainMatcher(ignoreCase ? foldAsciiCase(line) : line, anchored, folded);
    if (!matcher) {
      // Compiled on the line's UTF-8 bytes, each one character of what the bound counts.
      const bytes = inUtf8Bytes(line);
      const glob = compileGitGlob(bytes, anchored, ignoreCase);
      if (glob === undefined) continue;
      const source = `^${anchored ? '' : '(?:[^/]*/)*'}${glob}$`;
      if (!sources.has(source)) {
        if (sources.size === MAX_WILDCARD_LINES) {
          throw new TooManyWildcards(`has more than ${digitGroups(MAX_WILDCARD_LINES)} distinct wildcard lines (each one is tested against every file and folder a walk meets); it was not applied.`);
        }
        wildcardBytes += bytes.length;
        if (wildcardBytes > MAX_WILDCARD_BYTES) {
          throw new TooManyWildcards(`has wildcard lines of more than ${digitGroups(MAX_WILDCARD_BYTES)} bytes together (UTF-8; each one is compiled and tested against every file and folder a walk meets); it was not applied.`);
        }
        sources.add(source);
      }
      matcher = source;
    }
    // One flag per place, so `/foo` and `foo/`, or `!bar` and `\!bar`, are never taken for copies.
    lines.push({ negated, directoryOnly, matcher, key: `${negated ? 'N' : 'n'}${directoryOnly ? 'D' : 'd'}${anchored ? 'A' : 'a'}${line}` });
  }
  const compiled = new Map([...sources].map((source) => [source, linearRegExp(source)]));
  const rules: IgnoreRule[] = [];
  const keys: string[] = [];
  for (const line of lines) {
    // A wildcard line is compiled and tested on UTF-8 bytes: git's '?' and brackets match one byte.
    const regex = typeof line.matcher === 'string' ? compiled.get(line.matcher) : undefined;
    const matcher = typeof line.matcher !== 'string' ? line.matcher : regex && { test: (path: string) => regex.test(foldedBytes(path)) };
    if (matcher) {
      rules.push({ negated: line.negated, directoryOnly: line.directoryOnly, matcher });
      keys.push(line.key);
    }
  }
  // A line repeated later decides whatever the earlier copy would (the last match wins), so only
  // the last copy is kept: 20,000 copies of one line are one test per path, not 20,000.
  const last = new Map(keys.map((key, index) => [key, index]));
  return last.size === rules.length ? rules : rules.filter((_, index) => last.get(keys[index]) === index);
}

/**
 * The lines most .gitignore files are made of, matched without a regular expression: a plain name
 * (`node_modules`, `dist`), a plain path (`bench/out`) and `*.ext`. A walk asks about every file
 * and folder, so this is most of what ignoring costs.
 */
function plainMatcher(pattern: string, anchored: boolean, fold: (path: string) => string): { test(path: string): boolean } | undefined {
  if (!/[*?[\\]/.test(pattern)) {
    return anchored ? { test: (path) => fold(path) === pattern } : { test: (path) => matchesName(fold(path), pattern) };
  }
  if (anchored || !/^\*[^*?[\\/]+$/.test(pattern)) return undefined;
  const suffix = pattern.slice(1);
  // A suffix holds no '/': a path that ends in it ends in its last segment.
  return { test: (path) => fold(path).endsWith(suffix) };
}

/** Whether `path` is `name` or ends in the segment `name`. */
function matchesName(path: string, name: string): boolean {
  return path === name || (path.endsWith(name) && path.charCodeAt(path.length - name.length - 1) === SLASH);
}

/** `fold`, remembering its last answer: asked again about the same path, it answers without folding it again. */
function rememberLast(fold: (path: string) => string): (path: string) => string {
  let lastPath: string | undefined;
  let lastAnswer = '';
  return (path) => {
    if (path !== lastPath) {
      lastAnswer = fold(path);
      lastPath = path;
    }
    return lastAnswer;
  };
}

/** `text` with its ASCII capitals in lower case (git folds no other letter). */
function foldAsciiCase(text: string): string {
  return /[A-Z]/.test(text) ? text.replace(/[A-Z]+/g, (letters) => letters.toLowerCase()) : text;
}

/**
 * gitignore(5) wildcards as a regular expression: `*`, `?`, `[…]`, backslash escapes, and `**` as
 * whole segments; undefined for a line that matches nothing. `**` is read as git's wildmatch reads
 * it: any run of two stars or more, after a slash or at the start, and before a slash, an escaped
 * slash or the end. In a line with a slash (`anchored`) git compares the plain characters before
 * the first wildcard by themselves and hands the rest to wildmatch as a pattern of its own, so a
 * run right after them starts a segment too (`foo**\/bar` matches `foo/x/bar` and `foobar`).
 * With `ignoreCase` the expression is for paths with their ASCII capitals folded to lower case, as
 * wildmatch folds the path's and the line's characters; an escaped capital (`\A`) stays one, and
 * so matches nothing, as in git.
 */
function compileGitGlob(pattern: string, anchored: boolean, ignoreCase: boolean): string | undefined {
  const plainStart = anchored ? pattern.search(/[*?[\\]/) : 0;
  let out = '';
  for (let i = 0; i < pattern.length; i++) {
    const char = pattern[i];
    if (char === '\\') {
      // A backslash escapes the next character; ending the line, it has none, and wildmatch then matches nothing.
      if (i + 1 === pattern.length) return undefined;
      out += escapeRegExp(pattern[++i]);
    } else if (char === '*') {
      let end = i;
      while (pattern[end] === '*') end++;
      const segmentStart = i === 0 || i === plainStart || pattern[i - 1] === '/';
      const wholeSegment = end - i >= 2 && segmentStart && (end === pattern.length || pattern[end] === '/' || pattern.startsWith('\\/', end));
      if (!wholeSegment) out += '[^/]*';
      else if (pattern[end] === '/') {
        // No folder, or any folders: `a/**/b` matches `a/b`.
        out += '(?:[^/]*/)*';
        end++;
      } else {
        // At the end, anything; before an escaped slash, anything and then that slash (one folder at least).
        out += '.*';
      }
      i = end - 1;
    } else if (char === '?') {
      out += '[^/]';
    } else if (char === '[') {
      // A bracket that is not closed, or names an unknown class: git's wildmatch gives up on the line.
      const bracket = bracketExpression(pattern, i, ignoreCase);
      if (bracket === undefined) return undefined;
      out += bracket.source;
      i = bracket.end;
    } else {
      out += escapeRegExp(ignoreCase ? foldAsciiCase(char) : char);
    }
  }
  return out;
}

/**
 * The POSIX classes of git's wildmatch, on ASCII as git's own ctype reads them, as code point
 * ranges. A Map, not an object: a class name comes from the file, and `[[:constructor:]]` must be
 * an unknown class, not a property every object has.
 */
const POSIX_CLASSES: ReadonlyMap<string, readonly (readonly [number, number])[]> = new Map([
  ['alnum', [[0x30, 0x39], [0x41, 0x5a], [0x61, 0x7a]]],
  ['alpha', [[0x41, 0x5a], [0x61, 0x7a]]],
  ['blank', [[0x09, 0x09], [0x20, 0x20]]],
  ['cntrl', [[0x00, 0x1f], [0x7f, 0x7f]]],
  ['digit', [[0x30, 0x39]]],
  ['graph', [[0x21, 0x7e]]],
  ['lower', [[0x61, 0x7a]]],
  ['print', [[0x20, 0x7e]]],
  ['punct', [[0x21, 0x2f], [0x3a, 0x40], [0x5b, 0x60], [0x7b, 0x7e]]],
  // git's isspace: tab, line feed, carriage return and space; not C's, which adds vertical tab and form feed.
  ['space', [[0x09, 0x0a], [0x0d, 0x0d], [0x20, 0x20]]],
  ['upper', [[0x41, 0x5a]]],
  ['xdigit', [[0x30, 0x39], [0x41, 0x46], [0x61, 0x66]]],
]);

const SLASH = 0x2f;

/**
 * The bracket expression opening at `pattern[start]` as wildmatch reads it: `!` or `^` negates, a
 * `]` first is a character, `a-z` a range, `[:name:]` a POSIX class, a backslash escapes, and it
 * never matches '/'. Its regular expression and the index of its `]`, or undefined when the line
 * matches nothing: the bracket is not closed, or names a class git does not know (wildmatch gives
 * up on the whole line then). With `ignoreCase` (for a folded path), a range or a class that
 * takes a capital takes its lower case too; a capital alone (`[A]`) matches nothing, as in git,
 * where wildmatch compares it with the path's folded character.
 */
function bracketExpression(pattern: string, start: number, ignoreCase: boolean): { source: string; end: number } | undefined {
  let i = start + 1;
  const negate = pattern[i] === '!' || pattern[i] === '^';
  if (negate) i++;
  const first = i;
  const ranges: [number, number][] = [];
  /** A range or a class, and with `ignoreCase` the lower case of the capitals in it. */
  const pushFolding = (low: number, high: number) => {
    ranges.push([low, high]);
    if (ignoreCase && low <= 0x5a && high >= 0x41) ranges.push([Math.max(low, 0x41) + 0x20, Math.min(high, 0x5a) + 0x20]);
  };
  /** The next ']' at or after `from`, kept: each `[` inside looks for one, and a long line must not be read again for each. */
  let nextClose = -1;
  const closeFrom = (from: number): number => {
    if (nextClose !== Infinity && nextClose < from) {
      const found = pattern.indexOf(']', from);
      nextClose = found < 0 ? Infinity : found;
    }
    return nextClose;
  };
  /** The character at `at` (a backslash escapes the next one), and where the next item starts. */
  const characterAt = (at: number): [number, number] => {
    if (pattern[at] === '\\' && at + 1 < pattern.length) at++;
    const code = pattern.codePointAt(at)!;
    return [code, at + (code > 0xffff ? 2 : 1)];
  };
  while (i < pattern.length) {
    if (pattern[i] === ']' && i > first) {
      // The character class lists code points; a slash is left out of it (and into a negated one).
      const items = negate ? ranges : ranges.flatMap(([low, high]): [number, number][] => (low <= SLASH && SLASH <= high ? [[low, SLASH - 1], [SLASH + 1, high]] : [[low, high]])).filter(([low, high]) => low <= high);
      if (items.length === 0 && !negate) return undefined;
      const body = items.map(([low, high]) => (low === high ? codePoint(low) : `${codePoint(low)}-${codePoint(high)}`)).join('');
      return { source: negate ? `[^${codePoint(SLASH)}${body}]` : `[${body}]`, end: i };
    }
    if (pattern[i] === '[' && pattern[i + 1] === ':') {
      // `[:name:]` up to the next ']'; without a ':' just before it, the '[' is a character.
      const close = closeFrom(i + 2);
      if (close === Infinity) return undefined;
      if (close - 1 >= i + 2 && pattern[close - 1] === ':') {
        const known = POSIX_CLASSES.get(pattern.slice(i + 2, close - 1));
        if (known === undefined) return undefined;
        for (const [low, high] of known) pushFolding(low, high);
        i = close + 1;
        continue;
      }
    }
    const [low, next] = characterAt(i);
    if (pattern[next] === '-' && next + 1 < pattern.length && pattern[next + 1] !== ']') {
      const [high, after] = characterAt(next + 1);
      // A range written backwards (`[b-a]`) matches its first character only, as in git.
      ranges.push([low, low]);
      if (high > low) pushFolding(low, high);
      i = after;
    } else {
      ranges.push([low, low]);
      i = next;
    }
  }
  return undefined;
}

/**
 * `text` with each UTF-8 byte as one character: git's wildmatch reads a name byte by byte, so '?'
 * or a bracket takes one byte of 'é' and '??' both. Plain names and '*' match alike either way.
 */
function inUtf8Bytes(text: string): string {
  return /^[\u0000-\u007f]*$/.test(text) ? text : Buffer.from(text, 'utf8').toString('latin1');
}

function codePoint(code: number): string {
  return `\\u{${code.toString(16)}}`;
}

function escapeRegExp(char: string): string {
  return char.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

function slashes(path: string): string {
  return sep === '/' ? path : path.split(sep).join('/');
}
