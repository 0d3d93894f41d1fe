/**
 * babelq-suppressions.json: single findings silenced in single files, each with a reason. An entry
 * names the file (relative to the suppressions file), the code and the JSON Pointer of the value
 * the finding is on, so it keeps matching when lines above it move. This module reads the file and
 * decides which findings an entry hides; the adapters (workspace/project-config.ts) find the file.
 */
import type { Code } from '../code-names';
import { CODE_NAMES, isCode } from '../code-names';
import { closestWord } from '../../model/edit-distance';
import type { CoreDiagnostic } from '../diagnostic';
import { literal, shortened } from '../../model/describe-value';
import { quotedEntryText } from './suppression-entry-text';
import { at, parseConfigText, properties, type ConfigProblem } from './project-config';

export { SUPPRESSIONS_FILE } from './project-file-names';

export interface Suppression {
  /** As written: relative to the suppressions file's folder, `/`-separated. */
  readonly file: string;
  readonly code: Code;
  readonly pointer: string;
  readonly reason: string | undefined;
  /** `YYYY-MM-DD`: the last day it hides its finding. */
  readonly until: string | undefined;
  /** The entry's object in the suppressions file, where its own findings go. */
  readonly offset: number;
  readonly end: number;
}

export interface SuppressionsFile {
  readonly entries: readonly Suppression[];
  readonly problems: readonly ConfigProblem[];
}

/**
 * The entries a judging within a budget did not reach (the language server's, at every change of
 * the file; `babelq lint` judges them all): they are not called stale, and one note says so.
 */
export interface UncheckedSuppressions {
  /** How many entries were not judged. */
  readonly count: number;
  /** The first of them in the file, where the note goes. */
  readonly first: Suppression;
  /** The budget that ran out: the fixtures judged, or the characters of their text read. */
  readonly budget: { readonly fixtures: number } | { readonly bytes: number };
}

const ENTRY_KEYS = ['file', 'code', 'pointer', 'reason', 'until'];

const DATE = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/;

/** Reads the suppressions file's text; entries that cannot be used are left out and named in `problems`. */
export function readSuppressions(text: string): SuppressionsFile {
  const problems: ConfigProblem[] = [];
  const entries: Suppression[] = [];
  const tree = parseConfigText(text, problems, 'write { "suppressions": [] } (babelq lint --suppress-all --reason TEXT writes one).');
  if (!tree) return { entries, problems };
  if (tree.type !== 'object') {
    problems.push(at(tree, 'babelq-suppressions.json must hold { "suppressions": [ … ] }'));
    return { entries, problems };
  }
  for (const [key, keyNode, value] of properties(tree, problems)) {
    if (key === '$schema') continue;
    if (key !== 'suppressions') {
      problems.push(at(keyNode, `Unknown key "${shortened(key)}"; babelq-suppressions.json holds "suppressions".`));
      continue;
    }
    if (value.type !== 'array') {
      problems.push(at(value, '"suppressions" must be a list of { "file", "code", "pointer", "reason", "until"? }'));
      continue;
    }
    for (const entry of value.children ?? []) {
      if (entry.type !== 'object') {
        problems.push(at(entry, 'A suppression is an object: { "file", "code", "pointer", "reason", "until"? }'));
        continue;
      }
      const fields = new Map<string, unknown>();
      let usable = true;
      for (const [name, nameNode, field] of properties(entry, problems)) {
        if (!ENTRY_KEYS.includes(name)) {
          problems.push(at(nameNode, `Unknown key "${shortened(name)}" in a suppression; it holds ${ENTRY_KEYS.join(', ')}.`));
          continue;
        }
        const problem = fieldProblem(name, field.value);
        if (problem) {
          problems.push(at(field, problem));
          usable = false;
        }
        fields.set(name, field.value);
      }
      const missing = ['file', 'code', 'pointer'].filter((name) => !fields.has(name));
      if (missing.length > 0) {
        problems.push({ offset: entry.offset, end: entry.offset + 1, message: `This suppression has no ${missing.map((name) => `"${name}"`).join(', ')}: it names the file, the code and the JSON Pointer of the value.` });
        continue;
      }
      if (!usable) continue;
      const reason = typeof fields.get('reason') === 'string' && (fields.get('reason') as string).trim() !== '' ? (fields.get('reason') as string) : undefined;
      entries.push({
        file: (fields.get('file') as string).replace(/\\/g, '/').replace(/^\.\//, ''),
        code: fields.get('code') as Code,
        pointer: fields.get('pointer') as string,
        reason,
        until: fields.get('until') as string | undefined,
        offset: entry.offset,
        end: entry.offset + 1,
      });
    }
  }
  return { entries, problems };
}

function fieldProblem(name: string, value: unknown): string | undefined {
  switch (name) {
    case 'file':
      if (typeof value !== 'string' || value.trim() === '') return '"file" is the fixture\'s path relative to this file';
      if (value.startsWith('/') || value.split(/[\\/]/).includes('..')) return `"file" must stay below this file's folder, not "${shortened(value)}"`;
      return undefined;
    case 'code':
      if (typeof value === 'string' && isCode(value)) return undefined;
      return `"code" must be a diagnostic code, not ${literal(value)}${typeof value === 'string' && closestWord(value, CODE_NAMES) ? ` (did you mean "${closestWord(value, CODE_NAMES)}"?)` : ''}`;
    case 'pointer':
      return typeof value === 'string' && (value === '' || value.startsWith('/')) ? undefined : '"pointer" is a JSON Pointer: "" for the root, else starting with "/" (such as "/meta/ts")';
    case 'reason':
      return value === undefined || typeof value === 'string' ? undefined : '"reason" is text saying why the finding is accepted';
    case 'until':
      if (typeof value !== 'string' || !DATE.test(value)) return '"until" is the last day the suppression holds, as YYYY-MM-DD';
      return isCalendarDay(value) ? undefined : `"until" is the last day the suppression holds, as YYYY-MM-DD, and ${value} is no day of the calendar`;
  }
  return undefined;
}

/** Whether a YYYY-MM-DD of the right shape is a day that exists (not the 30th of February): compared as text, one that does not would expire on a day nobody wrote. */
function isCalendarDay(day: string): boolean {
  const [year, month, date] = day.split('-').map(Number);
  const parsed = new Date(0);
  // setUTCFullYear, not Date.UTC: that reads years 0 to 99 as 1900 to 1999.
  parsed.setUTCFullYear(year, month - 1, date);
  return parsed.getUTCFullYear() === year && parsed.getUTCMonth() === month - 1 && parsed.getUTCDate() === date;
}

/** What the suppressions did to one file's findings. */
export interface SuppressionOutcome {
  /** The findings still shown (an expired suppression's finding among them, saying so). */
  readonly kept: CoreDiagnostic[];
  /** How many findings were hidden. */
  readonly suppressed: number;
  /** The entries that matched a finding (expired ones too: they are not stale). */
  readonly used: ReadonlySet<Suppression>;
}

/**
 * Hides each finding that an entry matches by code and pointer; `today` is `YYYY-MM-DD` (core
 * has no clock). An entry whose `until` is before today hides nothing, and its finding says so.
 */
export function applySuppressions(diagnostics: readonly CoreDiagnostic[], pointerOf: (diagnostic: CoreDiagnostic) => string, entries: readonly Suppression[], today: string): SuppressionOutcome {
  const used = new Set<Suppression>();
  if (entries.length === 0) return { kept: [...diagnostics], suppressed: 0, used };
  const kept: CoreDiagnostic[] = [];
  let suppressed = 0;
  // Indexed once: a baseline of 40,000 entries searched for each of 5,000 findings took 20 s.
  const codes = new Set(entries.map((entry) => entry.code));
  const byCodeAndPointer = new Map<string, Suppression>();
  for (const entry of entries) {
    const key = `${entry.code}\u0000${entry.pointer}`;
    // The first entry of a code and pointer is the one that applies, as a search in order found it.
    if (!byCodeAndPointer.has(key)) byCodeAndPointer.set(key, entry);
  }
  const entryOf = (finding: CoreDiagnostic) =>
    // The pointer costs a walk of the tree: only for a finding whose code has an entry.
    codes.has(finding.code) ? byCodeAndPointer.get(`${finding.code}\u0000${pointerOf(finding)}`) : undefined;
  for (const found of diagnostics) {
    // A finding carried by the one shown on its token (core/rules/same-cause.ts) is a finding
    // all the same: an entry for it is used, and hides it from what the shown one carries.
    let diagnostic = found;
    if (found.related?.length) {
      const carried = found.related.filter((related) => {
        const entry = entryOf({ code: related.code, severity: related.severity, message: related.message, offset: related.offset, end: related.end });
        if (!entry) return true;
        used.add(entry);
        if (entry.until !== undefined && entry.until < today) return true;
        suppressed++;
        return false;
      });
      if (carried.length !== found.related.length) {
        const { related: _all, ...rest } = found;
        diagnostic = carried.length > 0 ? { ...rest, related: carried } : rest;
      }
    }
    const entry = entryOf(diagnostic);
    if (!entry) {
      kept.push(diagnostic);
      continue;
    }
    used.add(entry);
    if (entry.until !== undefined && entry.until < today) {
      kept.push({ ...diagnostic, message: `${diagnostic.message} (Its suppression expired on ${entry.until}${entry.reason ? `: "${quotedEntryText(entry.reason)}"` : ''}.)` });
    } else {
      suppressed++;
      // The entry accepts this code's finding, not the others of the same cause it carries: the
      // first of those left is shown in its place (carrying the rest), as it would be were this
      // code turned off.
      const [next, ...others] = diagnostic.related ?? [];
      if (next !== undefined) kept.push({ code: next.code, severity: next.severity, message: next.message, offset: next.offset, end: next.end, ...(others.length > 0 ? { related: others } : {}) });
    }
  }
  return { kept, suppressed, used };
}
