/**
 * A small glob matcher for `babelq lint` patterns and babelq.json's `ignore`/`overrides`: `*` and `?` within one path segment, `**` for any
 * number of directories, `{a,b}` alternatives (nestable). Shells usually expand globs before we see
 * them; this is for quoted patterns (as CI configs write them) and for shells that do not expand `**`.
 * No character classes and no dotfile rules: fixtures are plain names, and `.git` is never walked.
 */
import { linearRegExp } from '../core/registry/linear-regex';

const GLOB_CHARS = /[*?{]/;

/** True when `path` contains a glob character we expand (`*`, `?`, `{`). */
export function isGlobPattern(path: string): boolean {
  return GLOB_CHARS.test(path);
}

export interface GlobParts {
  /** The directory to walk: the pattern's leading segments without glob characters (`.` when none). */
  readonly base: string;
  /** The rest of the pattern, matched against paths relative to `base` with `/` separators. */
  readonly pattern: string;
}

/** Splits a pattern into the literal directory to walk and the glob to match below it. */
export function splitGlob(pattern: string, windows = process.platform === 'win32'): GlobParts {
  const normalized = windows ? pattern.replace(/\\/g, '/') : pattern;
  const segments = normalized.split('/');
  const first = segments.findIndex((segment) => isGlobPattern(segment));
  if (first < 0) return { base: '.', pattern: normalized };
  const literal = segments.slice(0, first);
  // `/x/*` splits into ['', 'x', '*']: the empty first segment is the root, so keep its slash.
  const base = literal.length === 0 ? '.' : literal.join('/') || '/';
  return { base, pattern: segments.slice(first).join('/') };
}

/** How deep below the base a match can be (Infinity with `**`), so a walk can stop early. */
export function globDepth(pattern: string): number {
  if (pattern.includes('**')) return Infinity;
  // Braces may hold slashes (`{a,b/c}`), so counting every slash is an upper bound, not exact.
  return pattern.split('/').length;
}

/** What a compiled glob answers. */
export interface GlobMatcher {
  test(path: string): boolean;
}

/**
 * Compiles a glob (matched against a whole `/`-separated relative path) into an anchored matcher
 * that runs in linear time: a pattern such as `**\/**\/**\/x` or `*a*a*a*b` on V8's backtracking
 * engine takes time exponential in its stars over a deep tree, so the expression runs on the
 * linear-time engine schema patterns use (core/registry/linear-regex.ts).
 */
export function globToRegExp(pattern: string): GlobMatcher {
  return globFrom(`^(?:${compile(pattern)})$`, pattern);
}

function globFrom(source: string, pattern: string): GlobMatcher {
  const linear = linearRegExp(source);
  if (!linear) throw new Error(`the glob ${JSON.stringify(pattern)} does not compile`);
  return linear;
}

/**
 * A babelq.json `ignore` glob: it matches a path that the glob matches, or that lies below a folder
 * the glob matches, as a `.gitignore` line does: `fixtures/negative` (or `fixtures/negative/`)
 * leaves out what `fixtures/negative/**` does, and a walk need not enter the folder.
 */
export function ignoreGlob(pattern: string): GlobMatcher {
  const folder = pattern.replace(/\/+$/, '');
  return globFrom(`^(?:${compile(folder)})(?:/[\\s\\S]*)?$`, pattern);
}

/** True when the `/`-separated relative `path` matches the whole glob `pattern`. */
export function matchGlob(pattern: string, path: string): boolean {
  return globToRegExp(pattern).test(path);
}

function compile(pattern: string): string {
  // Each `{`'s closing `}` found in one pass: a search from every `{` took time quadratic in the
  // pattern's length when they were left open.
  const closing = closingBraces(pattern);
  let out = '';
  for (let i = 0; i < pattern.length; i++) {
    const char = pattern[i];
    if (char === '*') {
      let end = i;
      while (pattern[end] === '*') end++;
      const wholeSegment = end - i >= 2 && (i === 0 || pattern[i - 1] === '/') && (end === pattern.length || pattern[end] === '/');
      if (!wholeSegment) {
        out += '[^/]*';
      } else if (end === pattern.length) {
        out += '[\\s\\S]*';
      } else {
        // `**/` also matches no directory at all, so `**/x` matches `x` at the base.
        out += '(?:[^/]*/)*';
        end++;
      }
      i = end - 1;
      continue;
    }
    if (char === '?') {
      out += '[^/]';
      continue;
    }
    if (char === '{') {
      const close = closing[i];
      if (close > 0) {
        out += `(?:${splitAlternatives(pattern.slice(i + 1, close)).map(compile).join('|')})`;
        i = close;
        continue;
      }
    }
    out += char.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
  }
  return out;
}

/**
 * For each `{` of the pattern, the index of the `}` that closes it, or -1 when none does (then the
 * `{` is a literal), as the pattern reads from that `{` on: a `}` closes the innermost `{` still open.
 */
function closingBraces(pattern: string): Int32Array {
  const closing = new Int32Array(pattern.length).fill(-1);
  const open: number[] = [];
  for (let i = 0; i < pattern.length; i++) {
    if (pattern[i] === '{') open.push(i);
    else if (pattern[i] === '}' && open.length > 0) closing[open.pop()!] = i;
  }
  return closing;
}

function splitAlternatives(body: string): string[] {
  const alternatives: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < body.length; i++) {
    if (body[i] === '{') depth++;
    else if (body[i] === '}') depth--;
    else if (body[i] === ',' && depth === 0) {
      alternatives.push(body.slice(start, i));
      start = i + 1;
    }
  }
  alternatives.push(body.slice(start));
  return alternatives;
}
