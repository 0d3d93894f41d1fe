/**
 * Find-references for a registry entry: the fixtures below a folder that route on its URN (`job`,
 * else the `urn` alias, as the SDK decoders resolve it) and where each writes it. A fixture that
 * only mentions the URN elsewhere (in `data`, say) does not count.
 */
import { lstatSync } from 'node:fs';
import { routingUrn } from '../core/contract/urn';
import type { FileLocation } from '../core/language/registry-navigation';
import { asObject } from '../core/model/tree';
import { parseJson } from '../core/parse/parser';
import { splitByteOrderMark } from '../core/rules/byte-order-mark';
import { findFixtureFiles } from './fixture-files';
import type { IgnoreFilter } from './ignores';
import { MAX_SCHEMA_FILE_BYTES, readFromDisk, type TextReader } from './registry-loader';
import { NOT_CANCELLED, TimeSlices, type Cancellation } from './time-slices';

/**
 * Fixtures above this size are skipped unread, the limit schema files have: one generated file
 * that large would hold the editor for longer than a list of references is worth.
 */
export const MAX_FIXTURE_FILE_BYTES = MAX_SCHEMA_FILE_BYTES;

/**
 * A fixture's text from disk as an editor shows it: a byte-order mark split off, so a URN on
 * line 1 is at the column the editor (and the workspace's report) puts it.
 */
export const readFixtureFromDisk: TextReader = (path, limit) => splitByteOrderMark(readFromDisk(path, limit)).text;

/**
 * The fixtures below `root` that route on `urn`, each with where it writes it, in path order. The
 * files are read in time slices; a cancelled search stops at the next slice and finds nothing.
 */
export async function findUrnReferences(root: string, urn: string, read: TextReader = readFixtureFromDisk, ignores?: IgnoreFilter, cancellation: Cancellation = NOT_CANCELLED): Promise<FileLocation[]> {
  const references: FileLocation[] = [];
  const slices = new TimeSlices(cancellation);
  for (const path of await findFixtureFiles(root, { ignores, slices })) {
    if (!(await slices.pause())) return [];
    const reference = urnReferenceIn(path, urn, read);
    if (reference) references.push(reference);
  }
  return references;
}

/** Where the fixture at `path` writes `urn`, when it routes on it. */
export function urnReferenceIn(path: string, urn: string, read: TextReader = readFixtureFromDisk): FileLocation | undefined {
  const text = readFixture(path, read);
  // A cheap text test first: most fixtures do not mention the URN at all. A text with a backslash
  // is parsed anyway: a URN written with JSON escapes (`\u0065`, `\/`) is not in it as typed.
  if (text === undefined || (!text.includes(urn) && !text.includes('\\'))) return undefined;
  const routed = routingUrn(asObject(parseJson(text).root));
  return routed?.node.value === urn ? { path, text, offset: routed.node.offset, end: routed.node.end } : undefined;
}

/** The text of a regular file within the size limit (on disk, or as an editor holds it), else undefined. */
function readFixture(path: string, read: TextReader): string | undefined {
  try {
    // The read refuses what is not a regular file.
    if (isFixtureLink(path)) return undefined;
    const text = read(path, MAX_FIXTURE_FILE_BYTES);
    // An open editor may hold more than the disk does (UTF-16 units: close enough for a limit).
    return text.length > MAX_FIXTURE_FILE_BYTES ? undefined : text;
  } catch {
    return undefined; // Removed or unreadable since the walk: nothing to show.
  }
}

/**
 * Whether the fixture at `path` is a symbolic link, which references leave out: the link a walk
 * follows leads to a fixture in the folder, listed where it really is (one location per fixture,
 * whether the references come from a walk or from the workspace's report).
 */
export function isFixtureLink(path: string): boolean {
  try {
    return lstatSync(path).isSymbolicLink();
  } catch {
    return false; // Removed since the walk: the read says so.
  }
}
