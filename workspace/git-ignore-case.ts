/**
 * Whether git matches a work tree's `.gitignore` and exclude lines without regard to case: its
 * `core.ignorecase`, which `git init` sets to true on a file system that folds case (macOS and
 * Windows by default). Read from the `config` of the work tree's common git directory
 * (workspace/git-exclude-file.ts), bounded, as a regular file only; the global and system
 * configurations are not read (as the global excludes file is not), nor files it includes.
 * Absent, unreadable or unset: false, git's default.
 */
import { join } from 'node:path';
import { readBoundedText, UnreadableFile } from './bounded-read';
import { gitCommonDirOf } from './git-exclude-file';

const MAX_CONFIG_BYTES = 1024 * 1024;

export function gitIgnoreCaseOf(top: string): boolean {
  const commonDir = gitCommonDirOf(top);
  if (commonDir === undefined) return false;
  let text: string;
  try {
    text = readBoundedText(join(commonDir, 'config'), MAX_CONFIG_BYTES);
  } catch (error) {
    if (error instanceof UnreadableFile) return false;
    throw error;
  }
  return configIgnoreCase(text);
}

/**
 * `core.ignorecase` in the text of a git config file, the last setting deciding, read as git reads
 * the file: section and key names without regard to case, a `[core "sub"]` section another
 * section, `#` and `;` opening a comment anywhere outside double quotes, quotes and backslash
 * escapes inside a value, a backslash ending a line continuing the value on the next. A key alone
 * means true; `true`/`yes`/`on` or a number other than 0 (with git's `k`, `m`, `g` units, in hex
 * or octal) true; an empty value, `false`/`no`/`off` or 0 false. A line git refuses (where git
 * itself stops with an error) leaves the setting as it was.
 */
export function configIgnoreCase(text: string): boolean {
  const source = { text, pos: text.startsWith('\ufeff') ? 1 : 0 };
  let inCore = false;
  let ignoreCase = false;
  while (source.pos < text.length) {
    const char = text[source.pos];
    if (isConfigSpace(char)) {
      source.pos++;
    } else if (char === '#' || char === ';') {
      source.pos = lineEnd(text, source.pos);
    } else if (char === '[') {
      const header = /^\[([A-Za-z0-9.-]+)(?:[ \t]+"(?:[^"\\\n]|\\[^\n])*")?\]/.exec(text.slice(source.pos, lineEnd(text, source.pos)));
      if (header) {
        inCore = header[1].toLowerCase() === 'core' && !header[0].includes('"');
        source.pos += header[0].length;
      } else {
        inCore = false;
        source.pos = lineEnd(text, source.pos);
      }
    } else if (/[A-Za-z]/.test(char)) {
      const name = /^[A-Za-z][A-Za-z0-9-]*/.exec(text.slice(source.pos, source.pos + 256))![0];
      source.pos += name.length;
      while (text[source.pos] === ' ' || text[source.pos] === '\t') source.pos++;
      let value: string | undefined | null = null;
      if (source.pos >= text.length || text[source.pos] === '\n' || (text[source.pos] === '\r' && text[source.pos + 1] === '\n')) {
        value = undefined;
      } else if (text[source.pos] === '=') {
        source.pos++;
        value = configValue(source) ?? null;
      } else {
        source.pos = lineEnd(text, source.pos);
      }
      if (value === null || !inCore || name.toLowerCase() !== 'ignorecase') continue;
      const setting = value === undefined ? true : configBoolean(value);
      if (setting !== undefined) ignoreCase = setting;
    } else {
      source.pos = lineEnd(text, source.pos);
    }
  }
  return ignoreCase;
}

/** git's isspace: space, tab, line feed, carriage return. */
function isConfigSpace(char: string): boolean {
  return char === ' ' || char === '\t' || char === '\n' || char === '\r';
}

function lineEnd(text: string, from: number): number {
  const end = text.indexOf('\n', from);
  return end < 0 ? text.length : end + 1;
}

/**
 * The value after a key's `=`, up to the end of its line (past it when a backslash continues the
 * line), as git decodes it; undefined where git refuses it (an unknown escape, a quote left open).
 */
function configValue(source: { readonly text: string; pos: number }): string | undefined {
  const { text } = source;
  let value = '';
  let quoted = false;
  let comment = false;
  let spaces = 0;
  for (;;) {
    // The end of the text reads as the end of a line; a carriage return before a line feed is part of that line end.
    if (source.pos >= text.length) return quoted ? undefined : value;
    let char = text[source.pos++];
    if (char === '\r' && text[source.pos] === '\n') char = text[source.pos++];
    if (char === '\n') return quoted ? undefined : value;
    if (comment) continue;
    if (!quoted && isConfigSpace(char)) {
      if (value.length > 0) spaces++;
      continue;
    }
    if (!quoted && (char === '#' || char === ';')) {
      comment = true;
      continue;
    }
    value += ' '.repeat(spaces);
    spaces = 0;
    if (char === '\\') {
      let escaped = source.pos < text.length ? text[source.pos++] : '\n';
      if (escaped === '\r' && text[source.pos] === '\n') escaped = text[source.pos++];
      if (escaped === '\n') continue;
      const decoded = ({ t: '\t', b: '\b', n: '\n', '\\': '\\', '"': '"' } as Record<string, string | undefined>)[escaped];
      if (decoded === undefined) return undefined;
      value += decoded;
    } else if (char === '"') {
      quoted = !quoted;
    } else {
      // The run of plain characters this one opens, at once (a config file can hold a value of a megabyte).
      const run = quoted ? PLAIN_QUOTED : PLAIN;
      run.lastIndex = source.pos;
      const more = run.exec(text);
      value += more ? char + more[0] : char;
      if (more) source.pos = run.lastIndex;
    }
  }
}

/** Characters that mean nothing but themselves in a value, outside and inside double quotes. */
const PLAIN = /[^ \t\n\r#;"\\]+/y;
const PLAIN_QUOTED = /[^\n\r"\\]+/y;

/** A config value as git reads a boolean; undefined where git refuses it. */
function configBoolean(value: string): boolean | undefined {
  if (value === '') return false;
  const word = value.toLowerCase();
  if (word === 'true' || word === 'yes' || word === 'on') return true;
  if (word === 'false' || word === 'no' || word === 'off') return false;
  // strtoimax in base 0 (hex after 0x, octal after 0), then a unit, within an int.
  const number = /^[ \t\n\v\f\r]*([+-]?)(0[xX][0-9a-fA-F]+|0[0-7]*|[1-9][0-9]*)([kKmMgG]?)$/.exec(value);
  if (!number) return undefined;
  const [, sign, digits, unit] = number;
  const magnitude = BigInt(/^0[0-7]+$/.test(digits) ? `0o${digits.slice(1)}` : digits) * ({ '': 1n, k: 1024n, m: 1024n ** 2n, g: 1024n ** 3n } as Record<string, bigint>)[unit.toLowerCase()];
  if (magnitude > (sign === '-' ? 2n ** 31n : 2n ** 31n - 1n)) return undefined;
  return magnitude !== 0n;
}
