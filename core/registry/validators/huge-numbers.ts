/**
 * Numbers beyond float64 (`1e400`), which Go's encoding/json cannot read into `map[string]any`:
 * bqschema fails a whole envelope holding one, while ajv reads it as Infinity and accepts it, and
 * refuses a whole schema file holding one anywhere (a keyword, an `enum`, a `default`, an
 * `x-note`). A payload is asked only when draft-07 accepts it, straight from the parser's columns:
 * a number every SDK writes as written is finite, so only the others' text is read.
 */
import { forEachValue, type ValueNode } from '../../model/tree';
import { Flag, Kind, type Columns, type ColumnsEdit } from '../../parse/columns';
import { columnsOf } from '../../parse/document';

/**
 * The first number under `root` (in document order) that Go cannot read as a float64: where it
 * starts and how it is written. Read off the parser's columns (only literals no SDK writes as
 * written are looked at), so a schema file's load builds no nodes for it.
 */
export function firstUnreadableNumber(root: ValueNode): { readonly offset: number; readonly raw: string } | undefined {
  const origin = columnsOf(root);
  if (origin) {
    const { columns, document, slot } = origin;
    const last = columns.next[slot];
    for (let at = slot; at < last; at++) if (isHuge(columns, document.text, at)) return { offset: columns.start[at], raw: document.text.slice(columns.start[at], columns.end[at]) };
    return undefined;
  }
  let found: { offset: number; raw: string } | undefined;
  forEachValue(root, (node) => {
    if (!found && node.kind === 'number' && !Number.isFinite(node.value)) found = { offset: node.offset, raw: node.raw };
  }, () => found !== undefined);
  return found;
}

/** The answer per version's columns, so that after a keystroke only the edited value is read again. */
const answered = new WeakMap<Columns, { readonly slot: number; readonly huge: boolean }>();

/**
 * `edit`, after a keystroke in one value: the previous version's columns and the edited slot.
 * When the previous version held no huge number, this one holds one only if the edited value is one.
 */
export function holdsHugeNumber(columns: Columns, text: string, slot: number, edit?: ColumnsEdit): boolean {
  const before = edit && answered.get(edit.previous);
  const huge =
    before && before.slot === slot && !before.huge
      ? edit.edited >= slot && edit.edited < columns.next[slot] && isHuge(columns, text, edit.edited)
      : anyHuge(columns, text, slot);
  answered.set(columns, { slot, huge });
  return huge;
}

function anyHuge(columns: Columns, text: string, slot: number): boolean {
  // Only a number the parser did not find plain can be huge.
  if (columns.unplainNumbers === 0) return false;
  const last = columns.next[slot];
  for (let at = slot; at < last; at++) if (isHuge(columns, text, at)) return true;
  return false;
}

function isHuge(columns: Columns, text: string, at: number): boolean {
  const flags = columns.info[at];
  if ((flags & Flag.KindMask) !== Kind.Number || flags & Flag.PlainNumber) return false;
  return reachesInfinity(text, columns.start[at], columns.end[at]);
}

/** Only a literal with an exponent, or with more than 308 digits, can overflow a double: read just those. */
function reachesInfinity(text: string, from: number, to: number): boolean {
  if (to - from <= 308) {
    let exponent = false;
    for (let i = from; i < to; i++) {
      const code = text.charCodeAt(i);
      if (code === 0x65 || code === 0x45) {
        exponent = true;
        break;
      }
    }
    if (!exponent) return false;
  }
  return !Number.isFinite(Number(text.slice(from, to)));
}
