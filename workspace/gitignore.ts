/**
 * `.gitignore` as git reads it, for directory walks (`babelq lint <dir>` and the editor's scan of
 * the workspace): inside a Git work tree (a folder at or above holding `.git`), every `.gitignore`
 * from the top of the tree down to a path's folder applies, deeper files after shallower ones and
 * the last matching line deciding; `!` re-includes. A walk does not enter an ignored folder, so
 * nothing below one can be re-included (git does not look inside one either); the folder a walk
 * starts from is walked even when it is ignored itself (as ripgrep does: it was asked for).
 * Outside a work tree nothing is ignored, as for git itself.
 * `.git/info/exclude` and the global excludes file are personal, not the project's, and are not read.
 *
 * Patterns compile to the linear-time engine (a hostile `.gitignore` of `*a*a*a*b` cannot stall a walk).
 */
import { existsSync } from 'node:fs';
import { dirname, join, resolve, sep } from 'node:path';
import { linearRegExp } from '../core/registry/linear-regex';
import { readBoundedText } from './bounded-read';
import { PROJECT_MARKER } from './project-root';
import { resolvedPath } from './absolute-path';

export const GITIGNORE_FILE = '.gitignore';
const MAX_GITIGNORE_BYTES = 1024 * 1024;
const MAX_LEVELS = 64;

interface IgnoreRule {
  readonly negated: boolean;
  readonly directoryOnly: boolean;
  readonly matcher: { test(path: string): boolean };
}

export class GitIgnores {
  private readonly rules = new Map<string, readonly IgnoreRule[]>();
  private readonly tops = new Map<string, string | undefined>();
  private readonly chains = new Map<string, readonly { readonly folder: string; readonly rules: readonly IgnoreRule[] }[]>();

  constructor(
    private readonly read: (path: string) => string | undefined = readIgnoreFile,
    private readonly exists: (path: string) => boolean = existsSync,
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

  /** Forgets a `.gitignore` that changed (or every one). */
  forget(path?: string): void {
    if (path === undefined) this.rules.clear();
    else this.rules.delete(dirname(resolve(path)));
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
      const parent = directory === top || dirname(directory) === directory ? [] : this.rulesAbove(dirname(directory), top);
      const own = this.rulesIn(directory);
      chain = own.length > 0 ? [...parent, { folder: directory, rules: own }] : parent;
      this.chains.set(directory, chain);
    }
    return chain;
  }

  private rulesIn(folder: string): readonly IgnoreRule[] {
    let rules = this.rules.get(folder);
    if (!rules) {
      const text = this.read(join(folder, GITIGNORE_FILE));
      rules = text === undefined ? [] : parseGitignore(text);
      this.rules.set(folder, rules);
    }
    return rules;
  }

  private workTreeTop(directory: string): string | undefined {
    if (this.tops.has(directory)) return this.tops.get(directory);
    let top: string | undefined;
    let folder = directory;
    for (let level = 0; level < MAX_LEVELS; level++) {
      if (this.exists(join(folder, PROJECT_MARKER))) {
        top = folder;
        break;
      }
      const parent = dirname(folder);
      if (parent === folder) break;
      folder = parent;
    }
    this.tops.set(directory, top);
    return top;
  }
}

/** A `.gitignore` file's text, bounded; undefined when there is none or it cannot be read. */
function readIgnoreFile(path: string): string | undefined {
  try {
    return readBoundedText(path, MAX_GITIGNORE_BYTES);
  } catch {
    return undefined;
  }
}

/**
 * The line without its trailing white space, but for one escaped with a backslash (`a\ ` keeps its
 * space), as git reads it. One pass from the end: a regular expression anchored at the end with a
 * look-behind was tried from every character of a long run of spaces, quadratic in its length.
 */
function withoutTrailingSpaces(line: string): string {
  let end = line.length;
  while (end > 0 && /\s/.test(line[end - 1])) end--;
  if (end === line.length) return line;
  return line.slice(0, end > 0 && line[end - 1] === '\\' ? end + 1 : end);
}

/** The rules of one `.gitignore`, in order (gitignore(5): blank lines and `#` comments skipped). */
export function parseGitignore(text: string): IgnoreRule[] {
  const rules: IgnoreRule[] = [];
  for (let line of text.split(/\r?\n/)) {
    line = withoutTrailingSpaces(line);
    if (line === '' || line.startsWith('#')) continue;
    let negated = false;
    if (line.startsWith('!')) {
      negated = true;
      line = line.slice(1);
    } else if (line.startsWith('\\!') || line.startsWith('\\#')) {
      line = line.slice(1);
    }
    let directoryOnly = false;
    if (line.endsWith('/') && !line.endsWith('\\/')) {
      directoryOnly = true;
      line = line.slice(0, -1);
    }
    if (line === '') continue;
    // A slash at the start or in the middle anchors the pattern to this file's folder; otherwise it matches at any depth.
    const anchored = line.includes('/');
    if (line.startsWith('/')) line = line.slice(1);
    const matcher = plainMatcher(line, anchored) ?? linearRegExp(`^${anchored ? '' : '(?:[^/]*/)*'}${compileGitGlob(line)}$`);
    if (matcher) rules.push({ negated, directoryOnly, matcher });
  }
  return rules;
}

/**
 * The lines most .gitignore files are made of, matched without a regular expression: a plain name
 * (`node_modules`, `dist`), a plain path (`bench/out`) and `*.ext`. A walk asks about every file
 * and folder, so this is most of what ignoring costs.
 */
function plainMatcher(pattern: string, anchored: boolean): { test(path: string): boolean } | undefined {
  if (!/[*?[\\]/.test(pattern)) return anchored ? { test: (path) => path === pattern } : { test: (path) => path === pattern || path.endsWith(`/${pattern}`) };
  if (anchored || !/^\*[^*?[\\/]+$/.test(pattern)) return undefined;
  const suffix = pattern.slice(1);
  return { test: (path) => path.slice(path.lastIndexOf('/') + 1).endsWith(suffix) };
}

/** gitignore(5) wildcards as a regular expression: `*`, `?`, `[…]`, and `**` as whole segments. */
function compileGitGlob(pattern: string): string {
  let out = '';
  for (let i = 0; i < pattern.length; i++) {
    const char = pattern[i];
    if (char === '\\' && i + 1 < pattern.length) {
      out += escapeRegExp(pattern[++i]);
    } else if (char === '*') {
      let end = i;
      while (pattern[end] === '*') end++;
      const wholeSegment = end - i === 2 && (i === 0 || pattern[i - 1] === '/') && (end === pattern.length || pattern[end] === '/');
      if (!wholeSegment) out += '[^/]*';
      else if (end === pattern.length) out += '.*';
      else {
        out += '(?:[^/]*/)*';
        end++;
      }
      i = end - 1;
    } else if (char === '?') {
      out += '[^/]';
    } else if (char === '[') {
      const close = pattern.indexOf(']', i + 2);
      if (close < 0) {
        out += '\\[';
        continue;
      }
      let body = pattern.slice(i + 1, close);
      const negate = body.startsWith('!') || body.startsWith('^');
      if (negate) body = body.slice(1);
      out += `[${negate ? '^/' : ''}${body.replace(/[\\\]\[]/g, '\\$&')}]`;
      i = close;
    } else {
      out += escapeRegExp(char);
    }
  }
  return out;
}

function escapeRegExp(char: string): string {
  return char.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

function slashes(path: string): string {
  return sep === '/' ? path : path.split(sep).join('/');
}
