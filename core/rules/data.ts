/**
 * Data rules, inside `data`: float-currency, unsafe-integer, non-json-boolean, non-iso-time.
 * (encoding-divergence comes with the encoders.)
 */
import { Flag, Kind } from '../parse/columns';
import { columnsOf } from '../parse/document';
import { checkIsoTime } from '../time';
import { forEachValue } from '../tree';
import { classifyKey, type KeyClasses } from '../keys';
import type { Range, Rule, RuleContext } from './context';

const MAX_SAFE = 2n ** 53n - 1n;
const INT64_MAX = 2n ** 63n - 1n;
const INT64_MIN = -(2n ** 63n);

/** An integer literal with at most this many digits (and its sign) is within ±(2^53−1). */
const SAFE_DIGITS = 15;

/** The data rules, on every value inside data (iteratively, in document order). */
export const checkData: Rule = (context) => {
  const { data } = context.envelope;
  if (!data) return;
  const classes = classifyKey(context.settings.moneyKeyPatterns);
  const parsed = columnsOf(data);
  if (parsed) {
    // The same visit over the parser's columns: every slot below data, in document order.
    const { columns, slot, text } = parsed;
    const { info, start, end, keys, strings } = columns;
    for (let at = slot + 1, last = columns.next[slot]; at < last; at++) {
      const flags = info[at];
      const kind = flags & Flag.KindMask;
      if (kind === Kind.Number) {
        checkNumber(context, text, { offset: start[at], end: end[at] }, (flags & Flag.Integer) !== 0, flags & Flag.Keyed ? keys[at] : undefined, classes);
      } else if (kind === Kind.String && flags & Flag.Keyed) {
        checkString(context, { offset: start[at], end: end[at] }, strings[at]!, keys[at]!, classes);
      }
    }
    return;
  }
  const text = context.doc.text;
  forEachValue(data, (node) => {
    if (node.kind === 'number') checkNumber(context, text, node, node.isIntegerLiteral, node.property?.key, classes);
    else if (node.kind === 'string' && node.property !== undefined) checkString(context, node, node.value, node.property.key, classes);
  });
};

/** A number token at `range` of `text` (its raw text is read only when a rule needs it). */
function checkNumber(context: RuleContext, text: string, range: Range, isIntegerLiteral: boolean, key: string | undefined, classes: KeyClasses): void {
  const length = range.end - range.offset;
  if (isIntegerLiteral && length - (text.charCodeAt(range.offset) === 0x2d ? 1 : 0) > SAFE_DIGITS) {
    const raw = text.slice(range.offset, range.end);
    const big = BigInt(raw);
    if (big > INT64_MAX || big < INT64_MIN) {
      context.report('unsafe-integer', range, `${raw} does not fit a signed 64-bit integer: every SDK but Python and Java loses it. Carry it as a string.`, { severity: 'error' });
    } else if (big > MAX_SAFE || big < -MAX_SAFE) {
      context.report('unsafe-integer', range, `${raw} is beyond ±(2^53−1): Node and Go consumers round it (9007199254740993 becomes …992). Carry it as a string.`);
    }
  }
  if (key === undefined) return;
  if (!isIntegerLiteral && classes.isMoney(key)) {
    const raw = text.slice(range.offset, range.end);
    if (Number.isFinite(Number(raw))) {
      context.report('float-currency', range, `"${key}" looks like money but holds the float ${raw}: floats cannot hold exact decimals. Use integer minor units ("${key}_cents": …) or a decimal string.`);
    }
  }
  if (length === 1 && classes.isBoolean(key)) {
    const raw = text[range.offset];
    if (raw === '0' || raw === '1') context.report('non-json-boolean', range, `"${key}" looks like a boolean but holds ${raw}: use JSON ${raw === '1' ? 'true' : 'false'}.`);
  }
}

function checkString(context: RuleContext, range: Range, value: string, key: string, classes: KeyClasses): void {
  if (classes.isBoolean(key)) {
    const lower = value.toLowerCase();
    if (lower === 'true' || lower === 'false') {
      context.report('non-json-boolean', range, `"${key}" holds the string ${JSON.stringify(value)}: use the JSON boolean ${lower}.`);
    }
    return;
  }
  if (!classes.isTime(key)) return;
  const check = checkIsoTime(value);
  if (check === 'no-offset') {
    context.report('non-iso-time', range, `"${key}" has no UTC offset: ${JSON.stringify(value)} means a different instant in every consumer's time zone. Add "Z" or an offset such as "+02:00".`);
  } else if (check === 'not-iso') {
    context.report('non-iso-time', range, `"${key}" holds ${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)}, which is not RFC 3339 / ISO 8601: write "2025-06-05T14:12:07Z" or Unix milliseconds.`);
  }
}
