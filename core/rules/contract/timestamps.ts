/** timestamp-unit and dead-letter-order on meta.created_at and dead_letter.failed_at. */
import { isMillisecondRange, SECONDS_CEILING, MILLIS_CEILING } from '../../contract/envelope';
import { formatUtc } from '../../contract/time';
import { literalFitsInt64 } from '../../encode/numbers';
import { shiftToInteger } from '../../model/decimal';
import { numberLiteral } from '../../model/describe-value';
import { replaceValue } from '../../model/property-edits';
import { getValue, type NumberNode, type ValueNode } from '../../model/tree';
import type { RuleContext } from '../context';
import { defineRule, type Fix, type FixContext } from '../definition';

export const rule = defineRule<'timestamp-unit' | 'dead-letter-order'>({
  codes: [
    {
      code: 'timestamp-unit',
      family: 'contract',
      severity: 'warning',
      summary: 'A contract timestamp looks like seconds, microseconds or nanoseconds instead of Unix milliseconds.',
      docs: {
        fires: '`meta.created_at` or `dead_letter.failed_at` is below 10^11 (seconds?) or above 10^14 (micro/nanoseconds?). The message shows the date each reading means.',
        instead: 'Unix epoch milliseconds (UTC), as every SDK reads the field.',
        example: { fires: '"created_at": 1749132727', clean: '"created_at": 1749132727000' },
        fixes: 'Seconds → ms; micro- or nanoseconds → ms (only the readings that land in the millisecond range are offered).',
      },
      fixes: timestampUnitFixes,
    },
    {
      code: 'dead-letter-order',
      family: 'contract',
      severity: 'warning',
      summary: 'dead_letter.failed_at is earlier than meta.created_at.',
      docs: {
        fires: '`dead_letter.failed_at` is earlier than `meta.created_at` (both in milliseconds; not where either is beyond signed 64 bits, which is invalid-value\'s error).',
        instead: 'A `failed_at` at or after `created_at`: a message cannot fail before it was created.',
        example: { fires: '"created_at": 1749132727000 … "failed_at": 1749132720000', clean: '"created_at": 1749132727000 … "failed_at": 1749132730000' },
      },
    },
  ],
  check: checkTimestamps,
});

/** timestamp-unit and dead-letter-order on created_at and failed_at. */
function checkTimestamps(context: RuleContext<'timestamp-unit' | 'dead-letter-order'>): void {
  const { meta, deadLetter } = context.envelope;
  const createdAt = integerValue(getValue(meta, 'created_at'));
  const failedAt = integerValue(getValue(deadLetter, 'failed_at'));
  let unitsDiffer = false;
  for (const [name, node] of [['meta.created_at', createdAt], ['dead_letter.failed_at', failedAt]] as const) {
    // Beyond signed 64-bit it is invalid-value's error (Go cannot decode it), not a question of unit.
    if (!node || node.value < 0 || !literalFitsInt64(node.raw)) continue;
    const message = timestampUnitMessage(name, node.value, node.raw);
    if (message) {
      unitsDiffer = true;
      context.report('timestamp-unit', node, message);
    }
  }
  // Comparing seconds with milliseconds would only add noise to the unit warning; comparing with a
  // value beyond signed 64 bits, to invalid-value's error (no decoder reads it as a time at all).
  const readable = (node: NumberNode) => literalFitsInt64(node.raw);
  if (!unitsDiffer && createdAt && failedAt && readable(createdAt) && readable(failedAt) && failedAt.value >= 0 && failedAt.value < createdAt.value) {
    context.report(
      'dead-letter-order',
      failedAt,
      `"dead_letter.failed_at" (${formatUtc(failedAt.value)}) is earlier than "meta.created_at" (${formatUtc(createdAt.value)}): a message cannot fail before it was created. Write a failed_at at or after created_at, or correct created_at.`,
    );
  }
}

/**
 * The reading of a timestamp that is not in milliseconds, or undefined when it looks like ms. The
 * message quotes the literal as written: a nanosecond time is beyond 2^53, and its double would
 * misquote the fixture (`1749132727123456789` as `1749132727123456800`).
 */
function timestampUnitMessage(name: string, value: number, raw: string): string | undefined {
  if (value < SECONDS_CEILING) {
    const readings = `as milliseconds it means ${formatUtc(value)}, as seconds ${formatUtc(value * 1000)}`;
    // "Write value × 1000" only where that is milliseconds: below 10^8 it would fire again (0 stays 0).
    if (!isMillisecondRange(value * 1000)) return `"${name}" ${numberLiteral(raw)} is too small for Unix milliseconds: ${readings}. Write the time in Unix milliseconds, such as 1749132727000.`;
    return `"${name}" ${numberLiteral(raw)} looks like seconds, not Unix milliseconds: ${readings}. Write ${value * 1000}.`;
  }
  if (value > MILLIS_CEILING) {
    return `"${name}" ${numberLiteral(raw)} looks like microseconds or nanoseconds, not Unix milliseconds: as milliseconds it means ${formatUtc(value)}, as microseconds ${formatUtc(value / 1e3)}, as nanoseconds ${formatUtc(value / 1e6)}.`;
  }
  return undefined;
}

function integerValue(value: ValueNode | undefined): NumberNode | undefined {
  return value?.kind === 'number' && value.isIntegerLiteral ? value : undefined;
}

function timestampUnitFixes({ valueAt }: FixContext): Fix[] {
  const value = valueAt();
  if (value?.kind !== 'number' || !value.isIntegerLiteral || value.value <= 0) return [];
  const key = value.property?.key ?? 'timestamp';
  // Offer only the readings that land in the millisecond range, so the fix really fixes.
  const readings: { unit: string; text: string | undefined }[] =
    value.value < SECONDS_CEILING
      ? [{ unit: 'seconds', text: shiftToInteger(value.raw, 3) }]
      : [
          { unit: 'microseconds', text: value.raw.slice(0, -3) },
          { unit: 'nanoseconds', text: value.raw.slice(0, -6) },
        ];
  return readings
    .filter((reading): reading is { unit: string; text: string } => reading.text !== undefined && reading.text !== '' && isMillisecondRange(Number(reading.text)))
    .map((reading) => ({ title: `Convert "${key}" from ${reading.unit} to milliseconds (${reading.text})`, edits: [replaceValue(value, reading.text)] }));
}
