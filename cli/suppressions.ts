/**
 * The project files in a lint run: babelq.json's own findings, babelq-suppressions.json's findings
 * (with the stale entries, known once every file of the run was linted), writing a baseline
 * (`--suppress-all --reason`) and removing stale entries (`--prune-suppressions`). Edits to the
 * suppressions file go through jsonc-parser's `modify`, so comments and layout the user wrote stay.
 */
import { existsSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { applyEdits, findNodeAtLocation, modify, parseTree, type FormattingOptions } from 'jsonc-parser';
import { LineIndex } from '../core/model/positions';
import { fileDiagnostics } from '../core/rules/file-diagnostics';
import { SUPPRESSIONS_FILE, type Suppression } from '../core/rules/settings/suppressions-file';
import { relativePath, type LoadedConfig } from '../workspace/project-config';
import { toOutputDiagnostic, type FileReport } from './diagnostics';
import { CliError } from './errors';
import { settingsFor, type LintContext } from './lint-file';
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
    if (loaded?.suppressions && loaded.suppressions.file.problems.length > 0) {
      throw new CliError(`cannot add to '${path}': fix its problems first (babelq lint reports them)`);
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
      writeFileAtomically(path, text);
      written.push({ path, added });
    }
  }
  return written;
}

/** Removes the stale entries from their files; returns how many went. */
export function pruneSuppressions(stale: ReadonlyMap<LoadedConfig, readonly Suppression[]>): number {
  let removed = 0;
  for (const [loaded, entries] of stale) {
    const suppressions = loaded.suppressions!;
    let text = suppressions.text;
    // Each entry is removed by its index in the array, from the last one, so earlier indices stay right.
    const indices = entries.map((entry) => entryIndex(text, entry.offset));
    for (const index of [...new Set(indices)].filter((index) => index >= 0).sort((a, b) => b - a)) {
      text = applyEdits(text, modify(text, ['suppressions', index], undefined, { formattingOptions: formattingOf(text) }));
      removed++;
    }
    writeFileAtomically(suppressions.path, text);
  }
  return removed;
}

/** The index in the `suppressions` array of the entry whose object starts at `offset` (entries that could not be read still take an index). */
function entryIndex(text: string, offset: number): number {
  const array = findNodeAtLocation(parseTree(text, [], { allowTrailingComma: true }) ?? { type: 'null', offset: 0, length: 0 }, ['suppressions']);
  return array?.children?.findIndex((child) => child.offset === offset) ?? -1;
}

function suppressionsFileFor(context: LintContext, fixture: string): string {
  const chain = context.configs.chainFor(fixture);
  const nearest = chain[chain.length - 1];
  if (nearest) return join(nearest.directory, SUPPRESSIONS_FILE);
  const inside = !relative(context.cwd, fixture).startsWith('..');
  return join(inside ? context.cwd : dirname(fixture), SUPPRESSIONS_FILE);
}

/**
 * `text` with `entries` appended to its `suppressions` array in one edit, laid out as the file is:
 * jsonc-parser places one stand-in value (keeping comments and layout), which the entries replace.
 * An edit per entry re-read the whole file each time: 4,500 findings took 32 s.
 */
function appendEntries(text: string, entries: readonly object[]): string {
  const formatting = formattingOf(text);
  const STAND_IN = 'babelq-entries-stand-in';
  const edits = modify(text, ['suppressions', -1], STAND_IN, { formattingOptions: formatting, isArrayInsertion: true });
  const unit = formatting.insertSpaces ? ' '.repeat(formatting.tabSize ?? 2) : '\t';
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
