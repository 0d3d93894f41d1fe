/**
 * A project file (babelq.json, babelq-suppressions.json) saved in another encoding than UTF-8
 * (UTF-16, as some Windows editors save; Latin-1): said to be so, where its first invalid byte
 * is, as a fixture's such bytes are (core/rules/not-utf8.ts), rather than left to the JSON
 * parser, which calls the replacement characters the text was decoded with an "invalid symbol".
 *
 * The readers hand ProjectConfigs text (through open editors first, in the server), decoded with
 * U+FFFD for each invalid byte. Only a text holding U+FFFD can have come from such bytes, so only
 * then are the file's bytes read again (bounded), and only when they decode to that very text is
 * the text the file's (not an editor's own decoding of it).
 */
import { firstInvalidUtf8 } from '../core/model/utf8';
import type { ConfigProblem } from '../core/rules/settings/project-config';
import { readBoundedBytes } from './bounded-read';

/** The problem of a project file named `name` read as `text` from `path`, when its bytes are not UTF-8; else undefined. */
export function notUtf8ProjectFile(path: string, text: string, name: string, limit: number): ConfigProblem | undefined {
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
  const offset = bytes.subarray(0, invalid.at).toString('utf8').length;
  return { offset, end: offset, message: notUtf8ProjectFileMessage(name, invalid.words) };
}

/** In the words a fixture's such bytes get (`notUtf8Message`), for a file that is JSON with comments and may keep a BOM. */
export function notUtf8ProjectFileMessage(name: string, where: string): string {
  return `The file is not valid UTF-8 (${where}); ${name} is read as UTF-8. Save it as UTF-8.`;
}
