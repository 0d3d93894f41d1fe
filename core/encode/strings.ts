/**
 * String escaping as each SDK's encoder writes it (facts §3 and §8). Input is the decoded string
 * (UTF-16, as the parser resolved it); output is the JSON string token, quotes included.
 */
import { dotnetAllows } from '../contract/written-as-is';

/** How one SDK escapes; see the SDK modules for the sources. */
export interface EscapeStyle {
  /** `\b` and `\f` as short escapes (Go before 1.22 writes `\u0008` and `\u000c`). */
  readonly shortBackspaceFormFeed: boolean;
  /** Uppercase hex digits in `\uXXXX` (.NET). */
  readonly upperHex: boolean;
  /** Escapes U+2028 and U+2029 (PHP, Go, .NET). */
  readonly lineSeparators: boolean;
  /** The .NET relaxed encoder's block list and its non-BMP escapes. */
  readonly dotnetBlockList: boolean;
  /** What a lone surrogate becomes; `error` when the SDK cannot write one at all. */
  readonly loneSurrogate: 'escape' | 'replacement-char' | 'replacement-escape' | 'question-mark' | 'error';
}

/**
 * ECMAScript's well-formed JSON.stringify: the minimal escapes (`"`, `\\`, C0 controls with the
 * short forms) plus `\ud800` for a lone surrogate. Node writes this; notes compare against it.
 */
export const JSON_STRINGIFY_STYLE: EscapeStyle = {
  shortBackspaceFormFeed: true,
  upperHex: false,
  lineSeparators: false,
  dotnetBlockList: false,
  loneSurrogate: 'escape',
};

/** The escaped token, or the first lone surrogate that the SDK cannot write. */
export type EscapeResult =
  | { readonly text: string; readonly replacedSurrogate: boolean }
  | { readonly error: 'lone-surrogate'; readonly code: number };

const HEX_LOWER = '0123456789abcdef';
const HEX_UPPER = '0123456789ABCDEF';

function hex4(code: number, upper: boolean): string {
  const digits = upper ? HEX_UPPER : HEX_LOWER;
  return `\\u${digits[(code >> 12) & 15]}${digits[(code >> 8) & 15]}${digits[(code >> 4) & 15]}${digits[code & 15]}`;
}

/**
 * The escape for one BMP code unit that is not a surrogate, or undefined when it is written
 * as is.
 */
function escapeUnit(style: EscapeStyle, code: number): string | undefined {
  if (code === 0x22) return '\\"';
  if (code === 0x5c) return '\\\\';
  if (code < 0x20) {
    switch (code) {
      case 0x08:
        return style.shortBackspaceFormFeed ? '\\b' : hex4(code, style.upperHex);
      case 0x0c:
        return style.shortBackspaceFormFeed ? '\\f' : hex4(code, style.upperHex);
      case 0x09:
        return '\\t';
      case 0x0a:
        return '\\n';
      case 0x0d:
        return '\\r';
      default:
        return hex4(code, style.upperHex);
    }
  }
  if (code < 0x7f) return undefined;
  if (style.lineSeparators && (code === 0x2028 || code === 0x2029)) return hex4(code, style.upperHex);
  if (style.dotnetBlockList && !dotnetAllows(code)) return hex4(code, true);
  return undefined;
}

/** Escapes `value` as a JSON string token in the SDK's style. */
export function escapeString(style: EscapeStyle, value: string): EscapeResult {
  let out = '"';
  let runStart = 0;
  let replacedSurrogate = false;
  const length = value.length;
  for (let i = 0; i < length; i++) {
    const code = value.charCodeAt(i);
    if (code >= 0x20 && code < 0x7f && code !== 0x22 && code !== 0x5c) continue;
    let replacement: string | undefined;
    let width = 1;
    if (code >= 0xd800 && code <= 0xdfff) {
      const next = i + 1 < length ? value.charCodeAt(i + 1) : 0;
      if (code <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
        width = 2;
        if (style.dotnetBlockList) replacement = hex4(code, true) + hex4(next, true);
      } else {
        switch (style.loneSurrogate) {
          case 'error':
            return { error: 'lone-surrogate', code };
          case 'escape':
            replacement = hex4(code, false);
            break;
          case 'replacement-char':
            replacement = '\ufffd';
            replacedSurrogate = true;
            break;
          case 'replacement-escape':
            replacement = '\\uFFFD';
            replacedSurrogate = true;
            break;
          case 'question-mark':
            replacement = '?';
            replacedSurrogate = true;
            break;
        }
      }
    } else {
      replacement = escapeUnit(style, code);
    }
    if (replacement !== undefined) {
      out += value.slice(runStart, i) + replacement;
      runStart = i + width;
    }
    i += width - 1;
  }
  return { text: out + value.slice(runStart) + '"', replacedSurrogate };
}

/**
 * The text one code point (a BMP unit, a surrogate pair, or a lone surrogate) becomes inside the
 * token, or undefined when the SDK cannot write it.
 */
export function escapeCodePoint(style: EscapeStyle, char: string): string | undefined {
  const result = escapeString(style, char);
  return 'error' in result ? undefined : result.text.slice(1, -1);
}

/** `U+2028`, `U+1F600`: the code point of a one-character string. */
export function codePointLabel(char: string): string {
  return `U+${char.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
}

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** The code unit of the first unpaired surrogate in `text`, if it has one. */
export function firstLoneSurrogate(text: string): number | undefined {
  const match = LONE_SURROGATE.exec(text);
  return match ? match[0].charCodeAt(0) : undefined;
}
