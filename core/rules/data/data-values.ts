/**
 * The data rules, inside `data`, in one pass over its values: float-currency, unsafe-integer,
 * non-json-boolean, non-iso-time. (encoding-divergence comes with the encoders.)
 */
import { classifyKey, hasMinorUnitSuffix, toSnakeCase, type KeyClasses } from '../../contract/keys';
import { formatDotnet, formatGo, formatNode, formatPhp, integerText } from '../../encode/numbers';
import { PYTHON_MAX_INT_DIGITS } from '../../encode/python';
import { digitGroups } from '../../model/count-words';
import { checkIsoTime, durationInWords, formatUtc, readsAsTime, rfc3339Of } from '../../contract/time';
import { plainDecimal, shiftToInteger } from '../../model/decimal';
import { literal, numberLiteral, shortened, stringOfDigits } from '../../model/describe-value';
import { detachedString } from '../../model/detached-string';
import { renameKey, replaceValue } from '../../model/property-edits';
import { forEachValue, getProperty } from '../../model/tree';
import { Flag, Kind, stringValue } from '../../parse/columns';
import { columnsOf } from '../../parse/document';
import type { RuleContext } from '../context';
import { defineRule, type Fix, type FixContext } from '../definition';
import type { CoreDiagnostic } from '../diagnostic';
import type { EditedValue } from '../edited-value';

type DataCode = 'float-currency' | 'unsafe-integer' | 'non-json-boolean' | 'non-iso-time';

export const rule = defineRule<DataCode>({
  codes: [
    {
      code: 'float-currency',
      family: 'data',
      severity: 'warning',
      summary: 'A money-like key holds a floating-point number.',
      docs: {
        fires:
          'A money-like key (`babelqueue.money.keyPatterns`; by default amount, price, cost, total, subtotal, tax, fee, balance, discount, refund, payment and `*_amount`, `*_price`, …; camelCase keys count too) holds a number with a fraction or exponent; so does a key in minor units (`*_cents`, `*_pence`, and `*_minor` and `*_minor_units` after a money-like name), which the contract makes integers: a float there (`"amount_cents": 9990.0`, `499.5`) is money in a float all the same. Where the encoders also write the literal differently (`10.0`, `1e3`, `-0.0`), this finding carries that `encoding-divergence`: its fix ends both.',
        instead: 'Integer minor units (`"amount_cents": 9990`) or a decimal string (`"amount": "99.90"`): no SDK\'s float writes `99.90` back.',
        example: { fires: '"amount": 99.90', clean: '"amount_cents": 9990' },
        fixes: '`"<key>_cents": <integer>` when exact and within ±(2^53−1), or the amount as a decimal string (neither is preferred: cents assume two decimal places); in a key already in minor units, the integer a whole-number float holds (`9990.0` → `9990`).',
      },
      fixes: floatCurrencyFixes,
    },
    {
      code: 'unsafe-integer',
      family: 'data',
      severity: 'warning',
      otherSeverities: ['error'],
      summary: 'An integer beyond ±(2^53−1) (an error beyond signed 64-bit or the double range).',
      docs: {
        fires:
          'An integer beyond ±(2^53−1) (Node and Go round it); beyond the signed 64-bit range it is an **error**, and so is any number beyond the double range (`1e400`, an integer too): the Go consumer fails to decode the message, and the Python consumer too for an integer of more than 4,300 digits.',
        instead: 'The number as a string (`"9007199254740993"`): Node and Go decode integers into doubles.',
        example: { fires: '"ledger_id": 9007199254740993', clean: '"ledger_id": "9007199254740993"' },
      },
    },
    {
      code: 'non-json-boolean',
      family: 'data',
      severity: 'warning',
      summary: 'A boolean-like key holds 0/1 or "true"/"false".',
      docs: {
        fires:
          'A boolean-like key (`is_*`, `has_*`, `can_*`, `should_*`, `*_enabled`, `*_disabled`, `*_active`, `*_flag`, `active`, `enabled`, `disabled`, `verified`, `deleted`, `archived`) holds `0`/`1` or `"true"`/`"false"`.',
        instead: 'The JSON booleans `true` and `false`.',
        example: { fires: '"is_active": 1', clean: '"is_active": true' },
        fixes: 'Write `true`/`false`.',
      },
      fixes: booleanFixes,
    },
    {
      code: 'non-iso-time',
      family: 'data',
      severity: 'warning',
      summary: 'A time-like key holds a string that is not RFC 3339 / ISO 8601 with a UTC offset, or an integer in Unix seconds or microseconds.',
      docs: {
        fires:
          'A time-like key (`*_at`, `*_on`, `*_date`, `*_time`, `date`, `time`, `timestamp`, `datetime`) holds a string that reads as a time or date (two digits or more, or a word such as `yesterday`, `noon` or a month\'s name) but is not an ISO 8601 time, or a date-time without a UTC offset; a value that only shares the key\'s ending (`"depends_on": "inventory-service"`, `"hosted_at": "eu-west-1"`) is left alone. The contract allows RFC 3339 and ISO 8601 UTC strings: ISO 8601\'s basic format (`20250605T141207Z`), an offset of hours (`+02`), a comma before a fraction, a time to the hour or minute, and a date (`2025-06-05`), a month (`2027-12`), a week date (`2025-W23-4`), an ordinal date (`2025-156`) or a duration (`P3D`) are fine. Where the text says its zone in another form (`Mon, 05 Jun 2025 14:12:07 GMT`), the message gives the same instant in RFC 3339. A length of time in words or unit letters (`"lead_time": "3 days"`, `"250ms"`, `"8h"`) is a duration, not a time: the message gives the ISO 8601 duration it means (`P3D`, `PT0.25S`, `P12M` for `12 months`); a bare `m` (`"6m"`: minutes or months?) is given an example duration instead. An integer under such a key is Unix milliseconds by the contract: one of 10 digits reads as Unix seconds (2001 to 2286; as milliseconds, early 1970) and one of 16 as microseconds, and the message gives both readings. Other integers are left alone (`\"lead_time\": 3`, a date written `20250605`); 19 digits are nanoseconds beyond ±(2^53−1), which unsafe-integer reports.',
        instead: 'RFC 3339 with `Z` or an offset (`"2025-06-05T14:12:07Z"`), or Unix milliseconds.',
        example: { fires: '"shipped_at": "06/05/2025 14:12"', clean: '"shipped_at": "2025-06-05T14:12:00Z"' },
        fixes: 'An integer in seconds or microseconds: the same time in Unix milliseconds (not applied by `--fix` under a `*_time` or `time` key, which may hold a length of time: 14 days in milliseconds has the ten digits of Unix seconds).',
      },
      fixes: timeUnitFixes,
    },
  ],
  check: checkData,
  afterEdit: checkDataAfterEdit,
});

const MAX_SAFE = 2n ** 53n - 1n;
const INT64_MAX = 2n ** 63n - 1n;
const INT64_MIN = -(2n ** 63n);

/** An integer literal with at most this many digits (and its sign) is within ±(2^53−1). */
const SAFE_DIGITS = 15;
/** An integer literal with more digits than this is beyond ±(2^63−1). */
const INT64_DIGITS = 19;

const MONEY = 1;
const BOOLEAN = 2;
const TIME = 4;
const MINOR_UNITS = 8;

/** The three key classes of a key as one mask, looked up once per distinct key in an analysis. */
interface KeyMasks {
  of(key: string): number;
}

function keyMasks(classes: KeyClasses): KeyMasks {
  const masks = new Map<string, number>();
  return {
    of(key) {
      let mask = masks.get(key);
      if (mask === undefined) {
        mask = (classes.isMoney(key) ? MONEY : 0) | (classes.isBoolean(key) ? BOOLEAN : 0) | (classes.isTime(key) ? TIME : 0) | (classes.isMinorUnits(key) ? MINOR_UNITS : 0);
        if (masks.size > 10_000) masks.clear();
        // Kept across analyses: a copy of the key's own, not a view into this document's text.
        masks.set(detachedString(key), mask);
      }
      return mask;
    },
  };
}

/** Per money-pattern list (settings are immutable values, so the same list comes back). */
const masksByPatterns = new WeakMap<readonly string[], KeyMasks>();

function keyMasksFor(moneyPatterns: readonly string[]): KeyMasks {
  let masks = masksByPatterns.get(moneyPatterns);
  if (!masks) {
    masks = keyMasks(classifyKey(moneyPatterns));
    masksByPatterns.set(moneyPatterns, masks);
  }
  return masks;
}

/** The data rules, on every value inside data (iteratively, in document order). */
function checkData(context: RuleContext<DataCode>): void {
  const { data } = context.envelope;
  if (!data) return;
  const classes = keyMasksFor(context.settings.moneyKeyPatterns);
  const parsed = columnsOf(data);
  if (parsed) {
    // The same visit over the parser's columns: every slot below data, in document order.
    const { columns, slot, text } = parsed;
    const { info, start, end, keys } = columns;
    for (let at = slot + 1, last = columns.next[slot]; at < last; at++) {
      const flags = info[at];
      const kind = flags & Flag.KindMask;
      if (kind === Kind.Number) {
        // A plain number makes a finding only through its key: a fraction under a money-like key, one
        // digit under a boolean-like one, ten (Unix seconds) under a time-like one.
        if (flags & Flag.PlainNumber && (!(flags & Flag.Keyed) || (flags & Flag.Integer && end[at] - start[at] !== 1 && end[at] - start[at] !== SECONDS_DIGITS))) continue;
        checkNumber(context, text, start[at], end[at], (flags & Flag.Integer) !== 0, flags & Flag.Keyed ? keys[at] : undefined, classes, (flags & Flag.PlainNumber) !== 0);
      } else if (kind === Kind.String && flags & Flag.Keyed && classes.of(keys[at]!) & (BOOLEAN | TIME)) {
        // Only strings under boolean- or time-like keys are read (and copied out of the text).
        checkString(context, start[at], end[at], stringValue(columns, text, at), keys[at]!, classes);
      }
    }
    return;
  }
  const text = context.doc.text;
  forEachValue(data, (node) => {
    if (node.kind === 'number') checkNumber(context, text, node.offset, node.end, node.isIntegerLiteral, node.property?.key, classes);
    else if (node.kind === 'string' && node.property !== undefined) checkString(context, node.offset, node.end, node.value, node.property.key, classes);
  });
}

/**
 * The same findings for a document that differs from the analysed previous version only inside
 * one string value or number literal: the previous findings (moved), the edited value checked again.
 */
function checkDataAfterEdit(context: RuleContext<DataCode>, previous: readonly CoreDiagnostic[], edit: EditedValue, keep: (diagnostic: CoreDiagnostic) => void): void {
  for (const diagnostic of previous) if (!edit.wasAt(diagnostic)) keep(edit.moved(diagnostic));
  if (!edit.inData) return;
  const classes = keyMasksFor(context.settings.moneyKeyPatterns);
  if (edit.kind === 'number') checkNumber(context, context.doc.text, edit.offset, edit.end, edit.isIntegerLiteral, edit.key, classes);
  else if (edit.key !== undefined) checkString(context, edit.offset, edit.end, edit.value, edit.key, classes);
}

/**
 * What Node and Go make of an integer literal beyond 2^53: the nearest double, as each writes it
 * back; or, for one they write back as written (2^53 + 2, say), that its neighbours are not so
 * lucky. A double can hold the integer and still be written with other digits: 2^62 is written
 * 4611686018427388000 (shortest digits, then zeros), which an exact reader takes for another integer.
 */
function roundedByDoubles(raw: string, value: bigint): string {
  const double = Number(raw);
  if (formatNode(double) === value.toString() && formatGo(double) === value.toString()) return 'Node and Go consumers read it as a double, which holds this one exactly but not every integer this large.';
  const node = formatNode(double);
  const go = formatGo(double);
  return `Node and Go consumers round it to ${node === go ? node : `${node} (Go: ${go})`}.`;
}

/**
 * Who loses an integer literal beyond 64 bits: PHP, Node, Go and .NET read a double. Node and Go
 * write a double that holds it exactly back as written (10^20), PHP and .NET in exponent form.
 */
function beyondInt64(raw: string): string {
  const double = Number(raw);
  const text = integerText(raw);
  if (!Number.isFinite(double) || formatNode(double) !== text || formatGo(double) !== text) return 'every SDK but Python and Java loses it.';
  return `PHP, Node, Go and .NET read it as a double, which holds this one exactly but not every integer this large (PHP writes it back as ${formatPhp(double)}, .NET as ${formatDotnet(double)}).`;
}

/**
 * Whether the literal can be beyond a double's range (from 1.8e308 on): an exponent, or more than
 * 308 digits. Literals are short, so most are ruled out by their length alone.
 */
function mayOverflowDouble(text: string, offset: number, end: number, isIntegerLiteral: boolean, digits: number): boolean {
  if (end - offset < 5) return false;
  if (digits > 308) return true;
  if (isIntegerLiteral) return false;
  for (let i = offset; i < end; i++) {
    const code = text.charCodeAt(i) | 0x20;
    if (code === 0x65) return true;
  }
  return false;
}

/**
 * The number token `text[offset..end)` (its raw text is read only when a rule needs it). A `plain`
 * literal (`Flag.PlainNumber`: at most 15 significant digits, no exponent) is within ±(2^53−1) and
 * the double range, so only its key is looked at: its text, long out of the cache on a large
 * payload, is not read again to rule out an exponent.
 */
function checkNumber(context: RuleContext<DataCode>, text: string, offset: number, end: number, isIntegerLiteral: boolean, key: string | undefined, classes: KeyMasks, plain = false): void {
  const length = end - offset;
  if (plain) {
    checkNumberKey(context, text, offset, end, isIntegerLiteral, key, classes);
    return;
  }
  // The text is read only for a literal long enough to matter (a large payload's numbers are mostly short).
  const digits = length > SAFE_DIGITS ? length - (text.charCodeAt(offset) === 0x2d ? 1 : 0) : length;
  // Infinite, not NaN: an invalid token that holds an `e` (`0x1e5`) is json-syntax's, no number at all.
  if (mayOverflowDouble(text, offset, end, isIntegerLiteral, digits) && Math.abs(Number(text.slice(offset, end))) === Infinity) {
    // Go decodes data into map[string]any, whose float64 cannot hold it: json.Unmarshal fails and
    // the Go consumer rejects the whole message (facts-2 §2 and §1.4). Such a number is integral.
    // Python's json.loads refuses an integer of more than 4,300 digits (ValueError): its consumer too.
    const python = isIntegerLiteral && digits > PYTHON_MAX_INT_DIGITS;
    const why = python ? `the Go and Python consumers fail to decode the message (json.Unmarshal: cannot unmarshal number; json.loads refuses an integer of more than ${digitGroups(PYTHON_MAX_INT_DIGITS)} digits)` : 'the Go consumer fails to decode the message (json.Unmarshal: cannot unmarshal number)';
    context.report('unsafe-integer', { offset, end }, `${numberLiteral(text.slice(offset, end))} is beyond the double range: ${why}. Carry it as a string.`, { severity: 'error' });
  } else if (isIntegerLiteral && digits > SAFE_DIGITS) {
    const raw = text.slice(offset, end);
    // More than 19 digits (no leading zeros in a literal) is beyond 64 bits; BigInt() of a huge literal is slow.
    const big = digits > INT64_DIGITS ? INT64_MAX + 1n : BigInt(raw);
    if (big > INT64_MAX || big < INT64_MIN) {
      context.report('unsafe-integer', { offset, end }, `${numberLiteral(raw)} does not fit a signed 64-bit integer: ${beyondInt64(raw)} Carry it as a string.`, { severity: 'error' });
    } else if (big > MAX_SAFE || big < -MAX_SAFE) {
      context.report('unsafe-integer', { offset, end }, `${numberLiteral(raw)} is beyond ±(2^53−1): ${roundedByDoubles(raw, big)} Carry it as a string.`);
    }
  }
  checkNumberKey(context, text, offset, end, isIntegerLiteral, key, classes);
}

/** float-currency and non-json-boolean: what the number's key makes of it. */
function checkNumberKey(context: RuleContext<DataCode>, text: string, offset: number, end: number, isIntegerLiteral: boolean, key: string | undefined, classes: KeyMasks): void {
  if (key === undefined) return;
  const length = end - offset;
  if (!isIntegerLiteral && classes.of(key) & MONEY) {
    const raw = text.slice(offset, end);
    if (Number.isFinite(Number(raw))) {
      context.report('float-currency', { offset, end }, `"${shortened(key)}" looks like money but holds the float ${numberLiteral(raw)}: floats cannot hold exact decimals. Use integer minor units ("${shownCentsKeyOf(key)}": …) or a decimal string.`);
    }
  } else if (!isIntegerLiteral && classes.of(key) & MINOR_UNITS) {
    // The contract's minor units are integers (cents): a float there is money in a float all the same.
    const raw = text.slice(offset, end);
    if (Number.isFinite(Number(raw))) {
      const whole = integralMinorUnits(raw);
      // Whole already, but beyond ±(2^53−1): not "a whole number", which it is; the string is the way.
      const unsafe = whole === undefined ? shiftToInteger(raw, 0) : undefined;
      const instead =
        whole !== undefined
          ? `: write the integer ${whole}`
          : unsafe !== undefined
            ? `, a whole number, but beyond ±(2^53−1), past which doubles do not hold every integer: carry it as ${stringOfDigits(unsafe)}`
            : ': write a whole number of minor units, or carry the amount as a decimal string';
      context.report('float-currency', { offset, end }, `"${shortened(key)}" names integer minor units but holds the float ${numberLiteral(raw)}${instead}.`);
    }
  }
  if (length === 1 && classes.of(key) & BOOLEAN) {
    const raw = text[offset];
    if (raw === '0' || raw === '1') context.report('non-json-boolean', { offset, end }, `"${shortened(key)}" looks like a boolean but holds ${raw}: use JSON ${raw === '1' ? 'true' : 'false'}.`);
  }
  if (isIntegerLiteral && (length === SECONDS_DIGITS || length === MICROSECONDS_DIGITS) && classes.of(key) & TIME) {
    const raw = text.slice(offset, end);
    const unit = timeUnitOf(raw);
    if (unit) {
      const value = Number(raw);
      const readings = `as ${unit.name} it means ${formatUtc(unit.name === 'seconds' ? value * 1000 : Math.floor(value / 1000))}, as milliseconds ${formatUtc(value)}`;
      context.report('non-iso-time', { offset, end }, `"${shortened(key)}" ${raw} looks like Unix ${unit.name}, not milliseconds: ${readings}. Times in data are Unix milliseconds or RFC 3339: write ${unit.milliseconds}.`);
    }
  }
}

/** Unix seconds from 2001 to 2286 have 10 digits; as milliseconds they would be early 1970. */
const SECONDS_DIGITS = 10;
/** Unix microseconds from 2001 to 2286 have 16 digits (nanoseconds, 19, are beyond 2^53: unsafe-integer's). */
const MICROSECONDS_DIGITS = 16;

/**
 * The unit a non-negative integer literal under a time-like key reads as, by its digits, and the same
 * time in milliseconds; undefined for one that reads as milliseconds or as no time at all (a
 * duration, a count, a date written as 20250605).
 */
function timeUnitOf(raw: string): { name: 'seconds' | 'microseconds'; milliseconds: string } | undefined {
  if (!/^[1-9]\d*$/.test(raw)) return undefined;
  if (raw.length === SECONDS_DIGITS) return { name: 'seconds', milliseconds: `${raw}000` };
  if (raw.length === MICROSECONDS_DIGITS) return { name: 'microseconds', milliseconds: raw.slice(0, -3) };
  return undefined;
}

/** non-iso-time on an integer in seconds or microseconds: the same time in milliseconds. */
function timeUnitFixes({ valueAt }: FixContext): Fix[] {
  const value = valueAt();
  if (value?.kind !== 'number' || !value.isIntegerLiteral) return [];
  const unit = timeUnitOf(value.raw);
  if (!unit) return [];
  const key = value.property?.key ?? 'time';
  // Not applied by --fix under a key that may hold a length of time (`lead_time`): 14 days in
  // milliseconds has the ten digits of Unix seconds, and times a thousand it would be 38 years.
  const mayBeDuration = /(^|_)time$/.test(toSnakeCase(key));
  return [{ title: `Convert "${shortened(key)}" from ${unit.name} to milliseconds (${unit.milliseconds})`, edits: [replaceValue(value, unit.milliseconds)], ...(mayBeDuration ? { preferred: false } : {}) }];
}

function checkString(context: RuleContext<DataCode>, offset: number, end: number, value: string, key: string, classes: KeyMasks): void {
  const mask = classes.of(key);
  if (mask & BOOLEAN) {
    const lower = value.toLowerCase();
    if (lower === 'true' || lower === 'false') {
      context.report('non-json-boolean', { offset, end }, `"${shortened(key)}" holds the string ${JSON.stringify(value)}: use the JSON boolean ${lower}.`);
    }
    return;
  }
  if (!(mask & TIME)) return;
  const check = checkIsoTime(value);
  if (check === 'no-offset') {
    context.report('non-iso-time', { offset, end }, `"${shortened(key)}" has no UTC offset: ${literal(value)} means a different instant in every consumer's time zone. Add "Z" or an offset such as "+02:00".`);
  } else if (check === 'not-iso' && durationInWords(value) !== undefined) {
    // A length of time, not a time: the advice is a duration, not an instant. Not an integer of
    // milliseconds: 14 days of them has the 10 digits this rule reads as Unix seconds.
    const iso = durationInWords(value);
    const instead = iso ? `write the ISO 8601 duration ${JSON.stringify(iso)}` : 'write an ISO 8601 duration such as "PT1H30M"';
    context.report('non-iso-time', { offset, end }, `"${shortened(key)}" holds ${JSON.stringify(value)}, a length of time in words: ${instead}.`);
  } else if (check === 'not-iso' && readsAsTime(value)) {
    // The same instant in RFC 3339 when the text says its zone; an example otherwise.
    const same = rfc3339Of(value);
    const instead = same ? `write ${JSON.stringify(same)} (the same instant in RFC 3339)` : 'write RFC 3339 such as "2025-06-05T14:12:07Z"';
    // ISO 8601 has 24:00 for the end of a day; RFC 3339 has no hour 24, so its parsers refuse it.
    const what = END_OF_DAY.test(value) ? 'which ISO 8601 reads as the end of the day but RFC 3339 does not allow (hour 24)' : 'which is not an ISO 8601 time';
    context.report('non-iso-time', { offset, end }, `"${shortened(key)}" holds ${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)}, ${what}: ${instead}, or Unix milliseconds.`);
  }
}

/** A date-time at ISO 8601's end of day, `…T24:00`, `…T24:00:00`, `…T24:00:00.000`, with or without an offset. */
const END_OF_DAY = /^\d{4}-\d{2}-\d{2}[Tt]24:00(?::00(?:[.,]0+)?)?(?:[Zz]|[+-]\d{2}(?::?\d{2})?)?$/;

function floatCurrencyFixes({ valueAt }: FixContext): Fix[] {
  const value = valueAt();
  const property = value?.property;
  if (value?.kind !== 'number' || !property) return [];
  // A key already in minor units: the integer it holds, when it is one (`9990.0`); a fraction of a cent has no fix.
  if (hasMinorUnitSuffix(property.key)) {
    const whole = integralMinorUnits(value.raw);
    return whole === undefined ? [] : [{ title: `Write the integer ${numberLiteral(whole)}`, edits: [replaceValue(value, whole)] }];
  }
  // Cents assume two decimal places (not JPY, not BHD), so neither fix is the obvious one.
  const fixes: Fix[] = [];
  const cents = shiftToInteger(value.raw, 2);
  const centsKey = centsKeyOf(property.key);
  // Minor units beyond ±(2^53−1) would trade this warning for unsafe-integer: the string is the fix then.
  const safe = cents !== undefined && BigInt(cents) <= MAX_SAFE && BigInt(cents) >= -MAX_SAFE;
  if (cents !== undefined && safe && !getProperty(property.parent, centsKey)) {
    fixes.push({ title: `Convert to integer minor units: "${shownCentsKeyOf(property.key)}": ${cents}`, edits: [renameKey(property, centsKey), replaceValue(value, cents)], preferred: false });
  }
  // Plain notation, not `"25e-1"`: a decimal string is read as the amount's digits, and some decimal parsers refuse an exponent.
  const decimal = plainDecimal(value.raw) ?? value.raw;
  fixes.push({ title: `Carry the amount as a decimal string: ${literal(decimal)}`, edits: [replaceValue(value, JSON.stringify(decimal))], preferred: false });
  return fixes;
}

/** A float literal's integer, when it is a whole number within ±(2^53−1) (`9990.0`, `1e3`); else undefined. */
function integralMinorUnits(raw: string): string | undefined {
  const whole = shiftToInteger(raw, 0);
  return whole !== undefined && BigInt(whole) <= MAX_SAFE && BigInt(whole) >= -MAX_SAFE ? whole : undefined;
}

/** The key of the amount in minor units, in the key's own case style (`total_cents`, `totalAmountCents`). */
function centsKeyOf(key: string): string {
  return /[a-z0-9][A-Z]/.test(key) ? `${key}Cents` : `${key}_cents`;
}

/** `centsKeyOf(key)` as a message quotes it: a long key shortened, with the suffix still shown (`"aaa…_cents"`). */
function shownCentsKeyOf(key: string): string {
  const shown = shortened(key);
  return shown === key ? centsKeyOf(key) : shown + centsKeyOf(key).slice(key.length);
}

function booleanFixes({ valueAt }: FixContext): Fix[] {
  const value = valueAt();
  if (!value) return [];
  const truthy = value.kind === 'number' ? value.raw === '1' : value.kind === 'string' && value.value.toLowerCase() === 'true';
  return [{ title: `Write the JSON boolean ${truthy}`, edits: [replaceValue(value, String(truthy))] }];
}
