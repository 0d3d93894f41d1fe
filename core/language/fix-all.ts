/**
 * Fix all: the safe fixes (each finding's preferred quick fix, the one the editor offers as
 * obvious) applied together, then the document checked again and the new findings' preferred
 * fixes applied, until nothing changes. `babelq lint --fix` and the editor's
 * `source.fixAll.babelqueue` both run this, so they change the same bytes.
 *
 * Fixes that would each write the same key apply one round after the other, so none leaves a key
 * written twice.
 *
 * A document with syntax errors is never touched (a fix computed on a guess at what was meant
 * could destroy it). A byte-order mark is set aside and put back, and every line break a fix
 * inserts is written the way the document already writes its line breaks (CRLF, CR or LF).
 */
import { applyEdits, type TextEdit } from '../model/edits';
import { eolOf } from '../model/property-edits';
import type { Fresh } from '../model/fresh';
import { parseText } from '../parse/parser';
import { forEachValue, type ParsedDocument } from '../model/tree';
import type { CoreDiagnostic } from '../rules/diagnostic';
import type { RegistryState } from '../registry/types';
import { analyze } from '../rules/analyze';
import type { Settings } from '../rules/settings/settings';
import { codeActions } from './code-actions';

/** Enough for fixes that make room for others (a renamed key, then its value); more means a loop. */
const MAX_ROUNDS = 10;

export interface FixAllResult {
  /** The fixed text (the input itself when nothing applied). */
  readonly text: string;
  /** How many fixes applied, over all rounds. */
  readonly applied: number;
  /** Why nothing was applied, when that is not because there was nothing to fix. */
  readonly refused?: 'syntax errors';
}

/**
 * `shown`, when given, keeps the findings the user sees out of those analysed (a suppressions
 * file hides some): a finding hidden as accepted is left as written, its fix not applied.
 */
export function fixAll(text: string, settings: Settings, registry: RegistryState, fresh: Fresh, shown?: (doc: ParsedDocument, diagnostics: readonly CoreDiagnostic[]) => readonly CoreDiagnostic[]): FixAllResult {
  const bom = text.charCodeAt(0) === 0xfeff ? '\ufeff' : '';
  const eol = eolOf(text);
  let current = bom ? text.slice(1) : text;
  let applied = 0;
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const doc = parseText(current);
    if (doc.syntaxProblems.length > 0) {
      if (round === 0) return { text, applied: 0, refused: 'syntax errors' };
      break;
    }
    const analysed = analyze(doc, settings, registry);
    const diagnostics = shown ? shown(doc, analysed) : analysed;
    let edits = nonOverlapping(codeActions(doc, diagnostics, fresh, registry).filter((action) => action.isPreferred && !action.otherFiles).map((action) => action.edits));
    if (edits.length === 0) break;
    const apply = (fixes: readonly (readonly TextEdit[])[]) => applyEdits(current, fixes.flat().map((edit) => (eol === '\n' ? edit : { ...edit, newText: edit.newText.replace(/\r\n|\r|\n/g, eol) })));
    let next = apply(edits);
    let parsed = parseText(next);
    // Fixes that do not overlap may still each write the same key (`Job` renamed to `job`, and
    // `urn` too): together they would write it twice, so this round applies the first alone and
    // the next round computes the others on its result.
    if (edits.length > 1 && repeatedKeys(parsed) > repeatedKeys(doc)) {
      edits = edits.slice(0, 1);
      next = apply(edits);
      parsed = parseText(next);
    }
    // A fix whose result no longer parses, or writes a key twice, is a defect of that fix; the document stays as the last good round left it.
    if (next === current || parsed.syntaxProblems.length > 0 || repeatedKeys(parsed) > repeatedKeys(doc)) break;
    applied += edits.length;
    current = next;
  }
  return { text: applied === 0 ? text : bom + current, applied };
}

/**
 * Whole fixes that do not overlap one another, in document order: a fix whose edits touch a
 * range another already took waits for the next round, when it is computed on the new text.
 */
export function nonOverlapping(fixes: readonly (readonly TextEdit[])[]): (readonly TextEdit[])[] {
  const taken = new TakenRanges();
  const chosen: (readonly TextEdit[])[] = [];
  const sorted = [...fixes].filter((edits) => edits.length > 0).sort((a, b) => start(a) - start(b));
  for (const edits of sorted) {
    if (edits.some((edit) => taken.touches(edit))) continue;
    chosen.push(edits);
    for (const edit of edits) taken.add(edit);
  }
  return chosen;
}

/**
 * The ranges the fixes chosen so far edit, found by halving instead of compared one by one (every
 * fix against every range taken grew with the square of the fixes: 20,000 took 5.8 s). Two edits
 * touch when they overlap, or when one inserts at a place the other replaces or inserts at too:
 * an insertion is a point, touched by any range it lies in, ends included; ranges that replace
 * text touch when they share a character. So the insertions are kept as sorted points, and the
 * replaced ranges as their union, sorted, disjoint and not adjacent: offsets are whole numbers,
 * so a replacement shares a character with two ranges that meet exactly when it does with the
 * range they make, and a point lies in one of them exactly when it lies in that range.
 */
class TakenRanges {
  private readonly points: number[] = [];
  /** Disjoint, not adjacent, in order: starts and ends alike increase. */
  private readonly starts: number[] = [];
  private readonly ends: number[] = [];

  touches(edit: { offset: number; end: number }): boolean {
    // A point in [offset, end]: the first one at or after offset.
    const point = firstAtOrAfter(this.points, edit.offset);
    if (point < this.points.length && this.points[point]! <= edit.end) return true;
    if (edit.offset === edit.end) {
      // A union range with start <= offset <= end: the last one starting at or before offset.
      const range = firstAtOrAfter(this.starts, edit.offset + 1) - 1;
      return range >= 0 && this.ends[range]! >= edit.offset;
    }
    // A union range with start < edit.end and end > edit.offset: the last one starting before edit.end.
    const range = firstAtOrAfter(this.starts, edit.end) - 1;
    return range >= 0 && this.ends[range]! > edit.offset;
  }

  add(edit: { offset: number; end: number }): void {
    if (edit.offset === edit.end) {
      this.points.splice(firstAtOrAfter(this.points, edit.offset), 0, edit.offset);
      return;
    }
    // The ranges that meet or overlap [offset, end] are merged with it into one.
    const first = firstAtOrAfter(this.ends, edit.offset);
    let last = first;
    let offset = edit.offset;
    let end = edit.end;
    while (last < this.starts.length && this.starts[last]! <= end) {
      offset = Math.min(offset, this.starts[last]!);
      end = Math.max(end, this.ends[last]!);
      last++;
    }
    this.starts.splice(first, last - first, offset);
    this.ends.splice(first, last - first, end);
  }
}

/** The index of the first of `sorted` at or after `value` (its length when none is). */
function firstAtOrAfter(sorted: readonly number[], value: number): number {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (sorted[middle]! < value) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** How many keys are written again in an object that already has them, over the document. */
function repeatedKeys(doc: ParsedDocument): number {
  let count = 0;
  if (doc.root) {
    forEachValue(doc.root, (node) => {
      if (node.kind !== 'object' || node.properties.length < 2) return;
      count += node.properties.length - new Set(node.properties.map((property) => property.key)).size;
    });
  }
  return count;
}

function start(edits: readonly TextEdit[]): number {
  return Math.min(...edits.map((edit) => edit.offset));
}
