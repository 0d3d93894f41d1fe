/**
 * Schema `pattern`s run on a linear-time engine (RE2, through re2js), never on a backtracking
 * one: a registry arrives with whatever repository was cloned, and a pattern such as `(a+)+$`
 * against a long string would freeze validation (and the editor with it) on V8's engine.
 *
 * JSON Schema patterns are ECMAScript regular expressions (ajv compiles them in Unicode mode), so
 * the source is translated into RE2 syntax with the ECMAScript meaning kept: `\uXXXX` and `\u{…}`
 * escapes, `\s` and `\S` (ECMAScript's Unicode white space), `.` (anything but a line terminator), `[^]`,
 * `\cX`, `\0` and `[\b]`. Lookbehinds run on re2js's linear-time lookbehind support. What RE2
 * cannot run in linear time at all (lookaheads, backreferences) and repeat counts above 1,000 are
 * refused with a sentence saying so — the JSON Schema specification recommends that patterns stay
 * clear of them for interoperability anyway.
 */
import { RE2JS } from 're2js';

/** ECMAScript's `\s`: white space and line terminators (ECMA-262 WhiteSpace + LineTerminator). */
const JS_SPACE = '\\t\\n\\x{0B}\\f\\r \\x{A0}\\x{1680}\\x{2000}-\\x{200A}\\x{2028}\\x{2029}\\x{202F}\\x{205F}\\x{3000}\\x{FEFF}';
/** ECMAScript's `\S`, as ranges (RE2's `\S` is the ASCII complement, and a class cannot subtract). */
const JS_NOT_SPACE = '\\x{0}-\\x{8}\\x{E}-\\x{1F}\\x{21}-\\x{9F}\\x{A1}-\\x{167F}\\x{1681}-\\x{1FFF}\\x{200B}-\\x{2027}\\x{202A}-\\x{202E}\\x{2030}-\\x{205E}\\x{2060}-\\x{2FFF}\\x{3001}-\\x{FEFE}\\x{FF00}-\\x{10FFFF}';
/** ECMAScript's `.` without the `s` flag: anything but a line terminator. */
const JS_DOT = '[^\\n\\r\\x{2028}\\x{2029}]';
const ANYTHING = '\\x{0}-\\x{10FFFF}';

/** The RE2 spelling of an ECMAScript (Unicode-mode) pattern, or why it has none. */
export function toRe2Source(source: string): { readonly source: string } | { readonly error: string } {
  let out = '';
  let inClass = false;
  let i = 0;
  const hexAt = (from: number, count: number): number | undefined => {
    const digits = source.slice(from, from + count);
    return digits.length === count && /^[0-9a-fA-F]+$/.test(digits) ? parseInt(digits, 16) : undefined;
  };
  while (i < source.length) {
    const c = source[i];
    if (c === '\\') {
      const next = source[i + 1];
      if (next === undefined) return { error: 'it ends with a lone backslash' };
      if (next === 'u') {
        let code: number | undefined;
        let length: number;
        if (source[i + 2] === '{') {
          const close = source.indexOf('}', i + 3);
          code = close < 0 ? undefined : hexAt(i + 3, close - i - 3);
          length = close + 1 - i;
        } else {
          code = hexAt(i + 2, 4);
          length = 6;
          // A surrogate pair written as two escapes is one code point in Unicode mode.
          const low = source.startsWith('\\u', i + 6) ? hexAt(i + 8, 4) : undefined;
          if (code !== undefined && code >= 0xd800 && code <= 0xdbff && low !== undefined && low >= 0xdc00 && low <= 0xdfff) {
            code = 0x10000 + ((code - 0xd800) << 10) + (low - 0xdc00);
            length = 12;
          }
        }
        if (code === undefined) return { error: 'it has a malformed \\u escape' };
        out += `\\x{${code.toString(16).toUpperCase()}}`;
        i += length;
        continue;
      }
      if (next === 'c' && /[A-Za-z]/.test(source[i + 2] ?? '')) {
        out += `\\x{${(source.charCodeAt(i + 2) % 32).toString(16).toUpperCase()}}`;
        i += 3;
        continue;
      }
      if (next === '0' && !/[0-9]/.test(source[i + 2] ?? '')) {
        out += '\\x{0}';
        i += 2;
        continue;
      }
      if (/[1-9]/.test(next) || next === 'k') {
        return { error: 'it uses a backreference, which no linear-time engine can match' };
      }
      if (next === 's') {
        out += inClass ? JS_SPACE : `[${JS_SPACE}]`;
        i += 2;
        continue;
      }
      if (next === 'S') {
        out += inClass ? JS_NOT_SPACE : `[${JS_NOT_SPACE}]`;
        i += 2;
        continue;
      }
      if (next === 'b' && inClass) {
        out += '\\x{8}';
        i += 2;
        continue;
      }
      if ((next === 'p' || next === 'P') && source[i + 2] === '{') {
        const close = source.indexOf('}', i + 3);
        if (close < 0) return { error: 'it has a malformed \\p escape' };
        // `\p{Script=Greek}` and `\p{gc=Lu}` are RE2's `\p{Greek}` and `\p{Lu}`.
        const name = source.slice(i + 3, close).replace(/^(?:Script|sc|General_Category|gc)=/, '');
        out += `\\${next}{${name}}`;
        i = close + 1;
        continue;
      }
      out += c + next;
      i += 2;
      continue;
    }
    if (inClass) {
      if (c === ']') inClass = false;
      out += c === '[' ? '\\[' : c;
      i++;
      continue;
    }
    if (c === '[') {
      if (source.startsWith('[^]', i)) {
        out += `[${ANYTHING}]`;
        i += 3;
        continue;
      }
      if (source.startsWith('[]', i)) {
        out += `[^${ANYTHING}]`;
        i += 2;
        continue;
      }
      inClass = true;
      out += c;
      i++;
      continue;
    }
    if (c === '.') {
      out += JS_DOT;
      i++;
      continue;
    }
    if (c === '(' && (source.startsWith('(?=', i) || source.startsWith('(?!', i))) {
      return { error: 'it uses a lookahead, which the linear-time engine cannot run' };
    }
    out += c;
    i++;
  }
  return { source: out };
}

/** Patterns longer than this run on RE2 whatever their shape (see isLinearOnBacktracking). */
const MAX_BACKTRACKING_SOURCE = 128;

/**
 * True for a pattern that a backtracking engine also matches in linear time: anchored at the start
 * (`^`, so only one starting position is tried), no groups or alternatives (so no nesting), and at
 * most one quantifier whose count varies (`*`, `+`, `?`, `{m,}`, `{m,n}`): with a single such
 * choice point each backtracking step is one retry of the fixed-length rest. `^ord-[0-9]+$` and
 * `^[0-9a-f]{8}-[0-9a-f]{4}$` qualify; `^(a+)+$`, `^a*a*$` and `[0-9]+x` do not. Each retry costs the
 * rest's length, so the pattern must also be short: `^a*` before a tail of thousands of characters
 * is linear in the input only by a factor as long as the tail.
 */
export function isLinearOnBacktracking(source: string): boolean {
  if (!source.startsWith('^') || source.length > MAX_BACKTRACKING_SOURCE) return false;
  let varying = 0;
  let inClass = false;
  for (let i = 1; i < source.length; i++) {
    const c = source[i];
    if (c === '\\') {
      const next = source[i + 1];
      // Backreferences (`\1`, `\k<name>`) are not regular at all.
      if (next === undefined || /[1-9k]/.test(next)) return false;
      i++;
      continue;
    }
    if (inClass) {
      if (c === ']') inClass = false;
      continue;
    }
    if (c === '[') inClass = true;
    else if (c === '(' || c === ')' || c === '|') return false;
    else if (c === '*' || c === '+' || c === '?') {
      // `+?` and `*?` are one lazy quantifier, not two.
      if (c === '?' && /[*+?}]/.test(source[i - 1]) && source[i - 2] !== '\\') continue;
      varying++;
    } else if (c === '{') {
      const count = /^\{(\d+)(,(\d*))?\}/.exec(source.slice(i));
      // RE2's limit on repeat counts (1,000) applies here too, so both engines refuse the same patterns.
      if (!count || Number(count[1]) > 1000 || (count[3] !== undefined && count[3] !== '' && Number(count[3]) > 1000)) return false;
      if (count[2] !== undefined && count[3] !== count[1]) varying++;
      i += count[0].length - 1;
    }
    if (varying > 1) return false;
  }
  return !inClass;
}

/** Why a pattern cannot run on the linear-time engine, or undefined when it can. */
export function linearRegexProblem(source: string): string | undefined {
  // Such a pattern runs on V8's engine (see linearRegExpEngine): its own compile is the whole check,
  // and much cheaper than compiling it for RE2 (a registry's patterns are checked when it loads).
  if (isLinearOnBacktracking(source)) {
    try {
      new RegExp(source, 'u');
      return undefined;
    } catch (error) {
      return error instanceof Error ? error.message.replace(/^Invalid regular expression: /, '') : String(error);
    }
  }
  const translated = toRe2Source(source);
  if ('error' in translated) return translated.error;
  try {
    RE2JS.compile(translated.source, RE2JS.LOOKBEHINDS);
    return undefined;
  } catch (error) {
    const message = error instanceof Error ? error.message.replace(/^error parsing regexp: /, '') : String(error);
    return /repeat count/.test(message) ? `a repeat count is above 1,000 (${message})` : message;
  }
}

/**
 * ajv's `code.regExp` engine: compiles a pattern for RE2 and answers `test` in time linear in the
 * input. ajv calls it with the flag `u` only; a pattern that cannot run throws, and ajv reports it.
 */
export const linearRegExpEngine = Object.assign(
  (source: string, flags: string): { test(input: string): boolean; toString(): string } => {
    // V8 runs these in linear time, and much faster than re2js (a payload may hold 100,000 values).
    if (isLinearOnBacktracking(source)) {
      const native = new RegExp(source, flags);
      return { test: (input: string) => native.test(input), toString: () => `/${source}/${flags}` };
    }
    const translated = toRe2Source(source);
    if ('error' in translated) throw new SyntaxError(`Invalid regular expression for the linear-time engine: /${source}/: ${translated.error}`);
    const compiled = RE2JS.compile(translated.source, RE2JS.LOOKBEHINDS);
    // ajv keys its cache of compiled patterns by toString(): it must differ per pattern.
    return { test: (input: string) => compiled.test(input), toString: () => `/${source}/${flags}` };
  },
  // Only read by ajv's standalone code generation, which this project does not use.
  { code: 'require("re2js").RE2JS' },
);

/**
 * A matcher for a schema pattern as ajv would compile it (Unicode mode), running on the linear-time
 * engine; undefined when the pattern is not valid ECMAScript or cannot run there.
 */
export function linearRegExp(source: string): { test(input: string): boolean } | undefined {
  try {
    new RegExp(source, 'u');
    return linearRegExpEngine(source, 'u');
  } catch {
    return undefined;
  }
}
