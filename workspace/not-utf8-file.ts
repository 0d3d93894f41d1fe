/**
 * A JSON file of the project (babelq.json, babelq-suppressions.json, registry.json) saved in
 * another encoding than UTF-8 (UTF-16, as some Windows editors save; Latin-1): said to be so,
 * where its first invalid byte is, as a fixture's such bytes are (core/rules/not-utf8.ts), rather
 * than left to a JSON parser, which calls the replacement characters the text was decoded with an
 * "invalid symbol" (and a registry search, finding no "schemas" key, would pass it over).
 *
 * The readers hand text (through open editors first, in the server), decoded with U+FFFD for each
 * invalid byte. Only a text holding U+FFFD can have come from such bytes, so only then are the
 * file's bytes read again (bounded), and only when they decode to that very text is the text the
 * file's (not an editor's own decoding of it).
 */
import { firstInvalidUtf8 } from '../core/model/utf8';
import type { ConfigProblem } from '../core/rules/settings/project-config';
import { readBoundedBytes } from './bounded-read';

/** Where the bytes of the file at `path`, read as `text`, stop being UTF-8, and how to say it; undefined when they are UTF-8. */
export function notUtf8File(path: string, text: string, limit: number): { readonly offset: number; readonly where: string } | undefined {
  if (!text.includes('\uFFFD')) return undefined;
  let bytes: Buffer;
  try {
    bytes = readBoundedBytes(path, limit);
  } catch {
    // Gone or changed into something unreadable since: the text read is judged as it is.
    return undefined;
  }
  const invalid = firstInvalidUtf8(bytes);
  if (invalid === undefined || bytes.toString('utf8') !== text) return undefined;
  // The bytes before the first invalid one are UTF-8: their text's length is the offset it is at.
  return { offset: bytes.subarray(0, invalid.at).toString('utf8').length, where: invalid.words };
}

/** The problem of a project file named `name` read as `text` from `path`, when its bytes are not UTF-8; else undefined. */
export function notUtf8ProjectFile(path: string, text: string, name: string, limit: number): ConfigProblem | undefined {
  const found = notUtf8File(path, text, limit);
  return found === undefined ? undefined : { offset: found.offset, end: found.offset, message: notUtf8FileMessage(name, found.where) };
}

/** In the words a fixture's such bytes get (`notUtf8Message`), for a file that may keep a BOM. */
export function notUtf8FileMessage(name: string, where: string): string {
  return `The file is not valid UTF-8 (${where}); ${name} is read as UTF-8. Save it as UTF-8.`;
}
