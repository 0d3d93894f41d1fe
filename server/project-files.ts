/**
 * The project files in the editor: babelq.json's and babelq-suppressions.json's own findings, and
 * the suppressions applied to an envelope's findings, as `babelq lint` applies them
 * (cli/suppressions.ts), so the editor and CI hide the same findings and flag the same entries.
 */
import { existsSync, type Stats } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { pointerAt } from '../core/model/json-pointer';
import type { ParsedDocument } from '../core/model/tree';
import { parseText } from '../core/parse/parser';
import { analyze } from '../core/rules/analyze';
import { splitByteOrderMark, withByteOrderMark } from '../core/rules/byte-order-mark';
import type { CoreDiagnostic } from '../core/rules/diagnostic';
import { PROJECT_CONFIG_FILE, readProjectConfig } from '../core/rules/settings/project-config';
import { fileDiagnostics } from '../core/rules/file-diagnostics';
import { applySuppressions, readSuppressions, SUPPRESSIONS_FILE, type Suppression, type UncheckedSuppressions } from '../core/rules/settings/suppressions-file';
import { MAX_WORKSPACE_FIXTURE_BYTES, readBoundedText } from '../workspace/bounded-read';
import { isInside } from '../workspace/path-containment';
import { MAX_CONFIG_FILE_BYTES, MAX_SUPPRESSIONS_FILE_BYTES } from '../workspace/project-config';
import { notUtf8FileMessage, notUtf8ProjectFile } from '../workspace/not-utf8-file';
import type { ServerContext } from './context';
import { askedOf, type JudgingRound } from './judged-fixtures';
import { markOf, stampOf, type ReadMark } from './file-stamps';
import { toPath, toUri } from './registry';
import { settingsKey, type Settings } from '../core/rules/settings/settings';
import type { RegistryState } from '../core/registry/types';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { CachedDocument } from './documents';

/** Which project file a document is. */
export type ProjectFileKind = 'config' | 'suppressions';

/** A suppressions file naming more fixtures than this has the rest judged by `babelq lint` only (each is read and analysed; a note says how many entries were left). */
const MAX_FIXTURES_JUDGED = 2_000;

/**
 * The most fixture text one judging reads and analyses, in characters (a byte each for the ASCII
 * of a JSON fixture; a file is charged what was read of it, an open one its text). The judging runs
 * at every pull of an open suppressions file's diagnostics, at each edit of it, and the count
 * alone let 2,000 entries naming files of 1 MiB (a hostile checkout, opened in Restricted Mode too)
 * cost 30 s of CPU or more at each pull: parse and analysis take 15 to 50 ms a MiB here. 16 MiB
 * is a quarter to most of a second, in slices, and far above a real baseline (2,000 fixtures of
 * a few KB are a few MB).
 */
const MAX_FIXTURE_TEXT_JUDGED = 16 * 1024 * 1024;

/**
 * The most milliseconds the judging of the entries runs before other requests get a turn: it runs
 * at every pull of an open suppressions file's diagnostics, and its fixtures are the checkout's.
 */
const JUDGING_SLICE_MS = 20;

/** Today in UTC as YYYY-MM-DD, what a suppression's `until` is compared with. */
export function today(): string {
  return new Date().toISOString().slice(0, 10);
}

/** What a judging of a suppressions file's entries found: the stale ones, and those past its budget. */
export interface SuppressionsJudged {
  readonly stale: readonly Suppression[];
  readonly unchecked?: UncheckedSuppressions;
}

/**
 * The findings of an open babelq.json, or of a suppressions file with its entries judged
 * (staleSuppressions). `path`, the file's on disk: an editor that decoded bytes that are not UTF-8
 * as UTF-8 holds replacement characters, which are said to be such bytes, as lint says it.
 * `foreignMark`, the words for the UTF-16 byte-order mark the file was found to start with
 * (server/stored-byte-order-marks.ts): an editor that decoded it holds no replacement character.
 */
export function projectFileDiagnostics(file: ProjectFileKind, text: string, settings: Settings, judged: SuppressionsJudged, path?: string, foreignMark?: string): CoreDiagnostic[] {
  const name = file === 'config' ? PROJECT_CONFIG_FILE : SUPPRESSIONS_FILE;
  const notUtf8 =
    foreignMark !== undefined
      ? { offset: 0, end: 0, message: notUtf8FileMessage(name, foreignMark) }
      : path === undefined
        ? undefined
        : notUtf8ProjectFile(path, text, name, file === 'config' ? MAX_CONFIG_FILE_BYTES : MAX_SUPPRESSIONS_FILE_BYTES);
  if (file === 'config') return fileDiagnostics('configFile', notUtf8 ? { root: false, layer: {}, ignore: [], overrides: [], problems: [notUtf8] } : readProjectConfig(text), settings);
  return fileDiagnostics('suppressionsFile', { file: notUtf8 ? { entries: [], problems: [notUtf8] } : readSuppressions(text), ...judged }, settings);
}

/**
 * The entries of the suppressions file at `path` (its text given) that match no finding any more,
 * and those the budget left unjudged; undefined once `superseded` says so (asked whenever the
 * judging has waited or yielded): its answer would be thrown away, and the newer text is judged anew.
 */
export async function staleSuppressions(context: ServerContext, path: string, text: string, superseded: () => boolean = () => false): Promise<SuppressionsJudged | undefined> {
  // Closed or changed already (while its settings were awaited): nothing to judge, nor to keep for a closed file.
  if (superseded()) return undefined;
  const round = context.judgedFixtures.round(path);
  const judged = await staleEntries(context, dirname(path), readSuppressions(text).entries, superseded, round);
  if (judged) round.finish();
  else round.stop();
  return judged;
}

/** The entries that match no finding of their fixture (a fixture that is gone makes its entries stale). */
async function staleEntries(context: ServerContext, directory: string, entries: readonly Suppression[], superseded: () => boolean, round: JudgingRound): Promise<SuppressionsJudged | undefined> {
  const byFixture = new Map<string, Suppression[]>();
  // Pushed onto each fixture's list, not copied into a new one per entry: 50,000 entries naming one
  // fixture held the server 13 s at each pull of the file's diagnostics.
  for (const entry of entries) {
    const fixture = resolve(directory, entry.file);
    const named = byFixture.get(fixture);
    if (named) named.push(entry);
    else byFixture.set(fixture, [entry]);
  }
  const fixtures = [...byFixture];
  const stale: Suppression[] = [];
  let judged = 0;
  let textJudged = 0;
  let sliceStarted = performance.now();
  for (let index = 0; index < fixtures.length; index++) {
    const [fixture, named] = fixtures[index];
    if (performance.now() - sliceStarted > JUDGING_SLICE_MS) {
      await new Promise((resume) => setImmediate(resume));
      // A cancellation or a newer version is read while the judging yields: it stops here.
      if (superseded()) return undefined;
      sliceStarted = performance.now();
    }
    if (!existsSync(fixture)) {
      // One by one: a spread of 200,000 entries (a suppressions file under its bound) overflows the stack.
      for (const entry of named) stale.push(entry);
      continue;
    }
    // A link that leads out of the workspace folder is no fixture of the workspace (its walk and
    // lint's do not follow one): its file is not read, and its entries are left as lint leaves them.
    if (!isInside(context.registries.folderOf(fixture), fixture)) continue;
    if (judged === MAX_FIXTURES_JUDGED) return { stale, unchecked: uncheckedFrom(fixtures, index, { fixtures: MAX_FIXTURES_JUDGED }) };
    const uri = toUri(fixture);
    const settings = await context.settings.forDocument(uri);
    const registry = await context.registries.stateWhenLoaded(uri, settings);
    if (superseded()) return undefined;
    const open = context.documents.all().find((document) => toPath(document.uri) === fixture);
    // Nothing it depends on changed since the last judging: its verdict stands, charged as then.
    const known = open ? undefined : round.reusable(fixture, settings, registry, named);
    if (known) {
      if (textJudged + known.characters > MAX_FIXTURE_TEXT_JUDGED) return { stale, unchecked: uncheckedFrom(fixtures, index, { bytes: MAX_FIXTURE_TEXT_JUDGED }) };
      judged++;
      textJudged += known.characters;
      const used = new Set(known.used);
      for (let position = 0; position < named.length; position++) if (!used.has(position)) stale.push(named[position]);
      continue;
    }
    // Judged as the editor and lint judge it: an open document as it stands, else the file with
    // its byte-order mark split off. A file no editor holds is read within the workspace report's
    // bound: 30 MB of a checkout's file named by an entry held every answer for seconds, at each
    // pull of this file's diagnostics.
    let fixtureText: { text: string; byteOrderMark: boolean };
    let stamp: string | undefined;
    let mark: ReadMark | undefined;
    try {
      if (open) fixtureText = { text: open.getText(), byteOrderMark: context.byteOrderMarks.hiddenIn(open) };
      else {
        let read: Stats | undefined;
        const text = readBoundedText(fixture, MAX_WORKSPACE_FIXTURE_BYTES, (stat) => (read = stat));
        fixtureText = splitByteOrderMark(text);
        if (read) {
          stamp = stampOf(read);
          mark = markOf(read, MAX_WORKSPACE_FIXTURE_BYTES, text);
        }
      }
    } catch {
      continue; // Unreadable, or larger than that: not judged.
    }
    // Charged before its analysis, the costly part: the fixture that would pass the budget is the first not judged.
    if (textJudged + fixtureText.text.length > MAX_FIXTURE_TEXT_JUDGED) return { stale, unchecked: uncheckedFrom(fixtures, index, { bytes: MAX_FIXTURE_TEXT_JUDGED }) };
    judged++;
    textJudged += fixtureText.text.length;
    const doc = parseText(fixtureText.text);
    const findings = withByteOrderMark(fixtureText.byteOrderMark, analyze(doc, settings, registry), settings);
    const { used } = applySuppressions(findings, (d) => pointerAt(doc, d.offset), named, today());
    const positions: number[] = [];
    for (let position = 0; position < named.length; position++) {
      if (used.has(named[position])) positions.push(position);
      else stale.push(named[position]);
    }
    if (stamp !== undefined) round.keep(fixture, { stamp, mark, settings: settingsKey(settings), registry, asked: askedOf(named), characters: fixtureText.text.length, used: positions });
  }
  return { stale };
}

/** The entries of the fixtures from `index` on, which a budget left unjudged: how many, and the first in the file. */
function uncheckedFrom(fixtures: readonly (readonly [string, readonly Suppression[]])[], index: number, budget: UncheckedSuppressions['budget']): UncheckedSuppressions {
  let count = 0;
  let first = fixtures[index][1][0];
  for (let rest = index; rest < fixtures.length; rest++) {
    for (const entry of fixtures[rest][1]) {
      count++;
      if (entry.offset < first.offset) first = entry;
    }
  }
  return { count, first, budget };
}

/**
 * An open envelope's findings as its editor shows them: the analysis of its version, json-syntax
 * for the byte-order mark its file is stored with and the editor hides
 * (server/stored-byte-order-marks.ts), less what the suppressions file hides. The parse cache's
 * entry comes too, for positions.
 */
export function openEnvelopeFindings(context: ServerContext, document: TextDocument, settings: Settings, registry: RegistryState): { entry: CachedDocument; findings: readonly CoreDiagnostic[] } {
  const { entry, diagnostics } = context.cache.diagnostics(document, settings, registry);
  const all = withByteOrderMark(context.byteOrderMarks.hiddenIn(document), diagnostics, settings);
  return { entry, findings: withSuppressions(context, document.uri, entry.parsed, all) };
}

/** An envelope's findings with its suppressions applied (what the editor shows). */
export function withSuppressions(context: ServerContext, uri: string, doc: ParsedDocument, diagnostics: readonly CoreDiagnostic[]): readonly CoreDiagnostic[] {
  const path = toPath(uri);
  if (!path || diagnostics.length === 0) return diagnostics;
  const entries = context.configs.suppressionsFor(path, context.registries.folderOf(path));
  if (entries.length === 0) return diagnostics;
  return applySuppressions(diagnostics, (d) => pointerAt(doc, d.offset), entries, today()).kept;
}
