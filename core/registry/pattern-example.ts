/**
 * Strings that match a schema `pattern`, for example payloads: a small generator over a regex
 * subset (literals, classes, `.`, escapes such as `\d`/`\w`, groups with alternation,
 * quantifiers). Best effort: the caller checks each result with the real RegExp.
 */
import { linearRegExp } from './linear-regex';

type PatternNode = { readonly kind: 'char'; readonly char: string } | { readonly kind: 'group'; readonly alternatives: PatternItem[][] };

interface PatternItem {
  readonly node: PatternNode;
  readonly min: number;
  readonly max: number;
}

/** Characters tried, in order of preference, as the representative of a class or escape. */
const CANDIDATE_CHARS = (() => {
  let chars = 'abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ_-.';
  for (let code = 0x20; code < 0x7f; code++) if (!chars.includes(String.fromCharCode(code))) chars += String.fromCharCode(code);
  return chars;
})();

/** Candidate strings for a pattern: the shortest match, then one stretched towards `min`. */
export function patternExamples(pattern: string, min: number): string[] {
  const items = parsePattern(pattern);
  if (!items) return [];
  const shortest = generate(items, 0);
  const results = [shortest];
  const stretched = generate(items, Math.max(0, min - shortest.length));
  if (stretched !== shortest) results.push(stretched);
  // An unanchored pattern matches anywhere, so padding after the match is enough.
  if (stretched.length < min && !pattern.endsWith('$')) results.push(stretched + 'x'.repeat(min - stretched.length));
  return results;
}

/** Emits each item its minimum number of times, spending `extra` on the first repeatable single characters. */
function generate(items: readonly PatternItem[], extra: number): string {
  let text = '';
  let budget = extra;
  for (const item of items) {
    let count = item.min;
    if (budget > 0 && item.node.kind === 'char' && item.max > count) {
      const more = Math.min(budget, item.max - count);
      count += more;
      budget -= more;
    }
    const unit = item.node.kind === 'char' ? item.node.char : generate(item.node.alternatives[0], 0);
    text += unit.repeat(count);
  }
  return text;
}

/** Parses the supported subset into items, or undefined for anything outside it. */
function parsePattern(pattern: string): PatternItem[] | undefined {
  let index = 0;
  const fail = Symbol('fail');

  const parseAlternatives = (): PatternItem[][] | typeof fail => {
    const alternatives: PatternItem[][] = [[]];
    while (index < pattern.length) {
      const char = pattern[index];
      if (char === ')') break;
      if (char === '|') {
        index++;
        alternatives.push([]);
        continue;
      }
      const node = parseAtom();
      if (node === fail) return fail;
      if (node === undefined) continue; // an anchor: zero width
      const quantifier = parseQuantifier();
      if (quantifier === fail) return fail;
      alternatives[alternatives.length - 1].push({ node, ...quantifier });
    }
    return alternatives;
  };

  const parseAtom = (): PatternNode | undefined | typeof fail => {
    const char = pattern[index];
    if (char === '^' || char === '$') {
      index++;
      return undefined;
    }
    if (char === '(') {
      index++;
      if (pattern.startsWith('?:', index)) index += 2;
      else if (pattern.startsWith('?<', index) && !pattern.startsWith('?<=', index) && !pattern.startsWith('?<!', index)) {
        const close = pattern.indexOf('>', index);
        if (close < 0) return fail;
        index = close + 1;
      } else if (pattern[index] === '?') return fail; // lookarounds
      const alternatives = parseAlternatives();
      if (alternatives === fail || pattern[index] !== ')') return fail;
      index++;
      return { kind: 'group', alternatives };
    }
    if (char === '[') {
      const close = classEnd(pattern, index);
      if (close < 0) return fail;
      const source = pattern.slice(index, close + 1);
      index = close + 1;
      return representative(source) ?? fail;
    }
    if (char === '\\') {
      const next = pattern[index + 1];
      if (next === undefined || /[1-9bBk]/.test(next)) return fail; // back-references, word boundaries
      let length = 2;
      if (next === 'u' && pattern[index + 2] === '{') length = pattern.indexOf('}', index) + 1 - index;
      else if (next === 'u') length = 6;
      else if (next === 'x') length = 4;
      else if ((next === 'p' || next === 'P') && pattern[index + 2] === '{') length = pattern.indexOf('}', index) + 1 - index;
      if (length <= 0) return fail;
      const source = pattern.slice(index, index + length);
      index += length;
      return representative(source) ?? fail;
    }
    if ('*+?{}|)'.includes(char)) return fail;
    index++;
    return char === '.' ? { kind: 'char', char: 'a' } : { kind: 'char', char };
  };

  const parseQuantifier = (): { min: number; max: number } | typeof fail => {
    const char = pattern[index];
    let result: { min: number; max: number } = { min: 1, max: 1 };
    if (char === '?') result = { min: 0, max: 1 };
    else if (char === '*') result = { min: 0, max: Infinity };
    else if (char === '+') result = { min: 1, max: Infinity };
    else if (char === '{') {
      const match = /^\{(\d+)(,(\d*))?\}/.exec(pattern.slice(index));
      if (!match) return fail;
      const min = Number(match[1]);
      const max = match[2] === undefined ? min : match[3] === '' ? Infinity : Number(match[3]);
      index += match[0].length;
      if (pattern[index] === '?') index++;
      return { min, max };
    } else return result;
    index++;
    if (pattern[index] === '?') index++; // lazy: same language
    return result;
  };

  const items = parseAlternatives();
  if (items === fail || index !== pattern.length) return undefined;
  // Only the first alternative of a top-level `a|b` is generated.
  return items[0];
}

/** The index of the `]` closing the class that opens at `start`, or -1. */
function classEnd(pattern: string, start: number): number {
  let index = start + 1;
  if (pattern[index] === '^') index++;
  if (pattern[index] === ']') index++; // a literal `]` first
  for (; index < pattern.length; index++) {
    if (pattern[index] === '\\') index++;
    else if (pattern[index] === ']') return index;
  }
  return -1;
}

/** A character the atom `source` (a class or an escape) matches, found by asking the real RegExp. */
function representative(source: string): PatternNode | undefined {
  const regex = linearRegExp(`^(?:${source})$`);
  if (!regex) return undefined;
  for (const char of CANDIDATE_CHARS) if (regex.test(char)) return { kind: 'char', char };
  for (const char of ['\t', '\n', 'é', 'ß', '€']) if (regex.test(char)) return { kind: 'char', char };
  return undefined;
}
