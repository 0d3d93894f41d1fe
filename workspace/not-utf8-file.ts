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
 * file's (not an editor's own decoding of it). What the bytes were found to be is kept while the
 * file keeps its stamp: the editor asks at each change of an open project file (and of the
 * settings it gives), which read the disk at each keystroke (150 ms of one for a 30 MB baseline).
 */
import { statSync, type Stats } from 'node:fs';
import { firstInvalidUtf8 } from '../core/model/utf8';
import type { ConfigProblem } from '../core/rules/settings/project-config';
import { readBoundedBytes } from './bounded-read';

/** Where a file's bytes stop being UTF-8, and how to say it. */
export interface NotUtf8 {
  readonly offset: number;
  readonly where: string;
}

/** What a file's bytes were found to be, at the stamp they were read at. */
interface BytesSeen {
  readonly stamp: string;
  /** Undefined when the bytes are UTF-8; else where they stop being so, and their text's length (and the text, when small). */
  readonly invalid?: { readonly found: NotUtf8; readonly length: number; readonly text?: string };
}

/** The files whose verdicts are kept (the oldest let go first): a few project files are open at a time. */
const MAX_FILES_SEEN = 16;
/** The longest text of a file not UTF-8 that is kept to compare with (characters); a longer one is read again when the lengths agree. */
const MAX_KEPT_TEXT = 1024 * 1024;
/**
 * How long after a write another write may leave the same stamp (a file system keeps times in
 * ticks: some milliseconds on ext4, two seconds on FAT): bytes read that shortly after their
 * file's modification are not kept.
 */
const TICK_MS = 2000;

const bytesSeen = new Map<string, BytesSeen>();

/**
 * Where the bytes of the file at `path`, read as `text`, stop being UTF-8, and how to say it;
 * undefined when they are UTF-8, or `text` is not what they decode to. `readBytes` reads the disk.
 */
export function notUtf8File(path: string, text: string, limit: number, readBytes: typeof readBoundedBytes = readBoundedBytes): NotUtf8 | undefined {
  if (!text.includes('\uFFFD')) return undefined;
  const kept = bytesSeen.get(path);
  if (kept !== undefined && kept.stamp === stampNow(path)) {
    const { invalid } = kept;
    // An edit of the text (a keystroke) mostly changes its length: told without the disk.
    if (invalid === undefined || invalid.length !== text.length) return undefined;
    if (invalid.text !== undefined) return invalid.text === text ? invalid.found : undefined;
  }
  let bytes: Buffer;
  let opened: Stats | undefined;
  try {
    bytes = readBytes(path, limit, undefined, (stat) => (opened = stat));
  } catch {
    // Gone or changed into something unreadable since: the text read is judged as it is.
    bytesSeen.delete(path);
    return undefined;
  }
  const invalid = firstInvalidUtf8(bytes);
  const decoded = invalid === undefined ? undefined : bytes.toString('utf8');
  // The bytes before the first invalid one are UTF-8: their text's length is the offset it is at.
  const found = invalid === undefined ? undefined : { offset: bytes.subarray(0, invalid.at).toString('utf8').length, where: invalid.words };
  remember(path, opened, found === undefined || decoded === undefined ? undefined : { found, length: decoded.length, ...(decoded.length <= MAX_KEPT_TEXT ? { text: decoded } : {}) });
  return found !== undefined && decoded === text ? found : undefined;
}

/** Keeps what the bytes read through a descriptor that gave `stat` were found to be, unless they were read within a tick of their last write. */
function remember(path: string, stat: Stats | undefined, invalid: BytesSeen['invalid']): void {
  bytesSeen.delete(path);
  if (stat === undefined || Date.now() - stat.mtimeMs < TICK_MS) return;
  bytesSeen.set(path, { stamp: stampOf(stat), ...(invalid ? { invalid } : {}) });
  if (bytesSeen.size > MAX_FILES_SEEN) bytesSeen.delete(bytesSeen.keys().next().value!);
}

/** The file's stamp now (following links, as the read does), or undefined when it cannot be looked at. */
function stampNow(path: string): string | undefined {
  try {
    return stampOf(statSync(path));
  } catch {
    return undefined;
  }
}

/**
 * Size, modification and change times, inode: a file rewritten, replaced by a rename or made
 * unreadable has another (as server/file-stamps.ts tells a changed file).
 */
function stampOf(stat: Stats): string {
  return `${stat.size}:${stat.mtimeMs}:${stat.ctimeMs}:${stat.ino}`;
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
