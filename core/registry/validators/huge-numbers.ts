/**
 * Whether a payload holds a number beyond float64 (`1e400`): Go's encoding/json refuses it, so
 * bqschema fails the whole file, while ajv reads it as Infinity and accepts it. Asked only when
 * draft-07 accepts the payload, straight from the parser's columns: a number every SDK writes as
 * written is finite, so only the others' text is read.
 */
import { Flag, Kind, type Columns } from '../../parse/columns';

export function holdsHugeNumber(columns: Columns, text: string, slot: number): boolean {
  const { info, start, end, next } = columns;
  const last = next[slot];
  for (let at = slot; at < last; at++) {
    const flags = info[at];
    if ((flags & Flag.KindMask) !== Kind.Number || flags & Flag.PlainNumber) continue;
    if (reachesInfinity(text, start[at], end[at])) return true;
  }
  return false;
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
