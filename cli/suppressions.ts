/**
 * The project files in a lint run: babelq.json's own findings, babelq-suppressions.json's findings
 * (with the stale entries, known once every file of the run was linted), writing a baseline
 * (`--suppress-all --reason`) and removing stale entries (`--prune-suppressions`). Edits to the
 * suppressions file go through jsonc-parser's `modify`, so comments and layout the user wrote stay.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { applyEdits, createScanner, findNodeAtLocation, modify, parseTree, type FormattingOptions } from 'jsonc-parser';
import { LineIndex } from '../core/model/positions';
import { fileDiagnostics } from '../core/rules/file-diagnostics';
import { SUPPRESSIONS_FILE, type Suppression } from '../core/rules/settings/suppressions-file';
import { relativePath, type LoadedConfig } from '../workspace/project-config';
import { toOutputDiagnostic, type FileReport } from './diagnostics';
import { CliError } from './errors';
import { settingsFor, type LintContext } from './lint-file';
import { namedFromCwd } from './paths';
import { writeFileAtomically } from './write-file';

/** The entries of every suppressions file read in this run that matched nothing although their file was checked (or is gone). */
export function staleSuppressions(context: LintContext): Map<LoadedConfig, Suppression[]> {
  const stale = new Map<LoadedConfig, Suppression[]>();
  for (const loaded of context.configs.loaded()) {
    const suppressions = loaded.suppressions;
    if (!suppressions) continue;
    const entries = suppressions.file.entries.filter((entry) => {
      if (context.run.used.has(entry)) return false;
      const fixture = resolve(loaded.directory, entry.file);
      return context.run.checked.has(fixture) || !existsSync(fixture);
    });
    if (entries.length > 0) stale.set(loaded, entries);
  }
  return stale;
}

/** Reports for babelq.json files with problems and suppressions files with findings, paths shown from `cwd`. */
export function projectFileReports(context: LintContext, stale: ReadonlyMap<LoadedConfig, readonly Suppression[]>): FileReport[] {
  const reports: FileReport[] = [];
  const shown = (path: string): string => {
    const path_ = relative(context.cwd, path);
    return path_.startsWith('..') ? path : path_;
  };
  for (const loaded of context.configs.loaded().sort((a, b) => (a.path < b.path ? -1 : 1))) {
    const settings = settingsFor(context, loaded.path);
    if (loaded.present) {
      const diagnostics = fileDiagnostics('configFile', loaded.config, settings);
      if (diagnostics.length > 0) {
        const lines = new LineIndex(loaded.text);
        reports.push({ file: shown(loaded.path), diagnostics: diagnostics.map((d) => toOutputDiagnostic(d, lines)) });
      }
    }
    if (loaded.suppressions) {
      const diagnostics = fileDiagnostics('suppressionsFile', { file: loaded.suppressions.file, stale: stale.get(loaded) ?? [] }, settings);
      if (diagnostics.length > 0) {
        const lines = new LineIndex(loaded.suppressions.text);
        reports.push({ file: shown(loaded.suppressions.path), diagnostics: diagnostics.map((d) => toOutputDiagnostic(d, lines)) });
      }
    }
  }
  return reports;
}

/** One finding to write into a baseline. */
export interface BaselineFinding {
  readonly fixture: string;
  readonly code: string;
  readonly pointer: string;
}

/**
 * Appends an entry per finding to the suppressions file that governs its fixture: the one beside
 * the nearest babelq.json (or suppressions file) above it, else a new one in the current folder
 * (or the fixture's, outside it). Returns the files written and how many entries each got.
 */
export function writeBaseline(context: LintContext, findings: readonly BaselineFinding[], reason: string): { path: string; added: number }[] {
  const byFile = new Map<string, BaselineFinding[]>();
  for (const finding of findings) {
    const target = suppressionsFileFor(context, finding.fixture);
    const list = byFile.get(target);
    if (list) list.push(finding);
    else byFile.set(target, [finding]);
  }
  const written: { path: string; added: number }[] = [];
  for (const [path, entries] of byFile) {
    const loaded = context.configs.configIn(dirname(path));
    let text = loaded?.suppressions?.text ?? '{\n  "suppressions": []\n}\n';
    const shown = namedFromCwd(context.cwd, path);
    if (loaded?.suppressions && loaded.suppressions.file.problems.length > 0) {
      throw new CliError(`cannot add to '${shown}': fix its problems first (babelq lint reports them)`);
    }
    const seen = new Set((loaded?.suppressions?.file.entries ?? []).map((entry) => `${entry.file}\u0000${entry.code}\u0000${entry.pointer}`));
    const additions: { file: string; code: string; pointer: string; reason: string }[] = [];
    for (const finding of entries) {
      const file = relativePath(dirname(path), finding.fixture);
      const key = `${file}\u0000${finding.code}\u0000${finding.pointer}`;
      if (seen.has(key)) continue;
      seen.add(key);
      additions.push({ file, code: finding.code, pointer: finding.pointer, reason });
    }
    const added = additions.length;
    if (added > 0) {
      text = appendEntries(text, additions);
      // Over the bytes it was read as only (or where there was none): an edit saved meanwhile stays.
      if (loaded?.suppressions) refuseNotUtf8(path, shown, loaded.suppressions.text);
      writeFileAtomically(path, text, shown, false, loaded?.suppressions ? Buffer.from(loaded.suppressions.text, 'utf8') : null);
      written.push({ path, added });
    }
  }
  return written;
}

/** Removes the stale entries from their files; returns how many went. `cwd`: the run's folder, which messages name files from. */
export function pruneSuppressions(stale: ReadonlyMap<LoadedConfig, readonly Suppression[]>, cwd: string): number {
  let removed = 0;
  for (const [loaded, entries] of stale) {
    const suppressions = loaded.suppressions!;
    const { text, count } = withoutEntries(suppressions.text, new Set(entries.map((entry) => entry.offset)));
    removed += count;
    const shown = namedFromCwd(cwd, suppressions.path);
    refuseNotUtf8(suppressions.path, shown, suppressions.text);
    writeFileAtomically(suppressions.path, text, shown, false, Buffer.from(suppressions.text, 'utf8'));
  }
  return removed;
}

/**
 * A suppressions file whose bytes are not UTF-8 is read with each bad byte as U+FFFD: written back
 * from that text, those bytes would be replaced. It is refused as such (the write's own check would
 * call it changed since it was read).
 */
function refuseNotUtf8(path: string, shown: string, text: string): void {
  if (!text.includes('\ufffd')) return;
  let bytes: Buffer;
  try {
    bytes = readFileSync(path);
  } catch {
    return; // The write says why it cannot.
  }
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new CliError(`'${shown}' is not valid UTF-8; it was not written (writing it would replace its invalid bytes: fix its encoding first)`);
  }
}

/**
 * `text` without the entries of its `suppressions` array whose objects start at `offsets`, in one
 * pass over one parse: each run of removed entries goes from its first entry to the start of the
 * entry kept after it; a run at the end takes the comma of the entry kept before it, and goes from
 * the end of that entry's line, so a comment there stays and no blank line is left. What stays
 * keeps its layout. An edit per entry re-read the whole file each time: pruning 5,000 took
 * over two minutes.
 */
function withoutEntries(text: string, offsets: ReadonlySet<number>): { text: string; count: number } {
  const array = findNodeAtLocation(parseTree(text, [], { allowTrailingComma: true }) ?? { type: 'null', offset: 0, length: 0 }, ['suppressions']);
  const children = array?.children ?? [];
  const removed = children.map((child) => offsets.has(child.offset));
  const count = removed.filter(Boolean).length;
  if (!array || count === 0) return { text, count: 0 };
  const end = (index: number) => children[index].offset + children[index].length;
  const edits: { offset: number; length: number; content: string }[] = [];
  if (count === children.length) {
    edits.push({ offset: array.offset + 1, length: array.length - 2, content: '' });
  } else {
    for (let first = 0; first < children.length; first++) {
      if (!removed[first]) continue;
      let last = first;
      while (last + 1 < children.length && removed[last + 1]) last++;
      let from = children[first].offset;
      let to = last + 1 < children.length ? children[last + 1].offset : end(last);
      if (last + 1 === children.length) {
        // The kept entry before the run loses its comma, not a comment on its line; the run goes
        // from the end of that line, so no blank line is left.
        const comma = commaBetween(text, end(first - 1), from);
        const lineEnd = comma < 0 ? -1 : text.indexOf('\n', comma);
        if (comma < 0) {
          // No comma after the kept entry (a file with a syntax error): the run goes from its end.
          from = end(first - 1);
        } else if (lineEnd >= 0 && lineEnd < from) {
          edits.push({ offset: comma, length: 1, content: '' });
          from = text[lineEnd - 1] === '\r' ? lineEnd - 1 : lineEnd;
        } else {
          from = comma;
        }
        to = end(last);
      }
      edits.push({ offset: from, length: to - from, content: '' });
      first = last;
    }
  }
  return { text: applyEdits(text, edits), count };
}

function suppressionsFileFor(context: LintContext, fixture: string): string {
  const chain = context.configs.chainFor(fixture);
  const nearest = chain[chain.length - 1];
  if (nearest) return join(nearest.directory, SUPPRESSIONS_FILE);
  const inside = !relative(context.cwd, fixture).startsWith('..');
  return join(inside ? context.cwd : dirname(fixture), SUPPRESSIONS_FILE);
}

/**
 * `text` with `entries` appended to its `suppressions` array in one edit, laid out as the file is.
 * After a last entry, the new ones go below its line, so a comment there stays with the entry it
 * is about, at its indentation and one to a line when it is written on one line; the entries
 * before it are not touched (jsonc-parser's insertion reformats the last one and moves its
 * comment). An empty array is left to jsonc-parser. An edit per entry re-read the whole file
 * each time: 4,500 findings took 32 s.
 */
function appendEntries(text: string, entries: readonly Record<string, string>[]): string {
  const array = findNodeAtLocation(parseTree(text, [], { allowTrailingComma: true }) ?? { type: 'null', offset: 0, length: 0 }, ['suppressions']);
  const last = array?.type === 'array' ? array.children?.[array.children.length - 1] : undefined;
  return last ? appendAfter(text, last, entries) : appendIntoEmpty(text, entries);
}

function appendAfter(text: string, last: { offset: number; length: number }, entries: readonly Record<string, string>[]): string {
  const end = last.offset + last.length;
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const { comma, lineBreak } = restOfLine(text, end);
  if (lineBreak < 0) {
    // The array's next token is on the same line (`[ {…} ]`): the entries follow on that line.
    const at = comma < 0 ? end : comma + 1;
    return `${text.slice(0, at)}${comma < 0 ? ',' : ''} ${entries.map(inlineEntry).join(', ')}${text.slice(at)}`;
  }
  const lineStart = text.lastIndexOf('\n', last.offset) + 1;
  const leading = text.slice(lineStart, last.offset);
  const unit = indentUnitOf(text);
  const indent = /^[ \t]*$/.test(leading) ? leading : `${/^[ \t]*/.exec(leading)![0]}${unit}`;
  const oneLine = !text.slice(last.offset, end).includes('\n');
  const written = entries.map((entry) => (oneLine ? inlineEntry(entry) : JSON.stringify(entry, null, unit).split('\n').join(`${eol}${indent}`))).join(`,${eol}${indent}`);
  const at = text[lineBreak - 1] === '\r' ? lineBreak - 1 : lineBreak;
  const withEntries = `${text.slice(0, at)}${eol}${indent}${written}${text.slice(at)}`;
  return comma < 0 ? `${withEntries.slice(0, end)},${withEntries.slice(end)}` : withEntries;
}

/** An entry on one line, as such entries are written by hand: `{ "file": "…", "code": "…" }`. */
function inlineEntry(entry: Record<string, string>): string {
  return `{ ${Object.entries(entry).map(([key, value]) => `${JSON.stringify(key)}: ${JSON.stringify(value)}`).join(', ')} }`;
}

/**
 * After the value ending at `from`: the comma that follows it on its line (or -1), and where its
 * line ends, past any comment on it (or -1 when another token comes first on that line).
 * jsonc-parser's scanner tokens: 5 a comma, 12 and 13 comments, 14 a line break, 15 blanks, 17 the end.
 */
function restOfLine(text: string, from: number): { comma: number; lineBreak: number } {
  const scanner = createScanner(text, false);
  scanner.setPosition(from);
  let comma = -1;
  for (let token: number = scanner.scan(); token !== 17; token = scanner.scan()) {
    if (token === 5 && comma < 0) comma = scanner.getTokenOffset();
    else if (token === 14) return { comma, lineBreak: scanner.getTokenOffset() };
    else if (token !== 12 && token !== 13 && token !== 15) break;
  }
  return { comma, lineBreak: -1 };
}

function indentUnitOf(text: string): string {
  const formatting = formattingOf(text);
  return formatting.insertSpaces ? ' '.repeat(formatting.tabSize ?? 2) : '\t';
}

/** Into an empty `suppressions` array (or a file without one): jsonc-parser places one stand-in value, which the entries replace. */
function appendIntoEmpty(text: string, entries: readonly object[]): string {
  const formatting = formattingOf(text);
  const STAND_IN = 'babelq-entries-stand-in';
  const edits = modify(text, ['suppressions', -1], STAND_IN, { formattingOptions: formatting, isArrayInsertion: true });
  const unit = indentUnitOf(text);
  const eol = formatting.eol ?? '\n';
  return applyEdits(
    text,
    edits.map((edit) => {
      const at = edit.content.indexOf(JSON.stringify(STAND_IN));
      if (at < 0) return edit;
      // The stand-in's line holds the indentation an element gets in this file.
      const indent = /[ \t]*$/.exec(edit.content.slice(0, at))![0];
      const written = entries.map((entry) => JSON.stringify(entry, null, unit).split('\n').join(`${eol}${indent}`)).join(`,${eol}${indent}`);
      return { ...edit, content: edit.content.slice(0, at) + written + edit.content.slice(at + JSON.stringify(STAND_IN).length) };
    }),
  );
}

function formattingOf(text: string): FormattingOptions {
  const indent = /\n([ \t]+)\S/.exec(text)?.[1] ?? '  ';
  return { insertSpaces: !indent.startsWith('\t'), tabSize: indent.startsWith('\t') ? 1 : indent.length, eol: text.includes('\r\n') ? '\r\n' : '\n' };
}

/** The offset of the first comma in [from, to) outside comments, or -1 (jsonc-parser's scanner: its token 5 is a comma, 17 the end). */
function commaBetween(text: string, from: number, to: number): number {
  const scanner = createScanner(text, false);
  scanner.setPosition(from);
  for (let token: number = scanner.scan(); token !== 17 && scanner.getTokenOffset() < to; token = scanner.scan()) if (token === 5) return scanner.getTokenOffset();
  return -1;
}
