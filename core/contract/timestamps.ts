/**
 * Reading a legacy time value as Unix milliseconds: a number or a string of digits in seconds,
 * milliseconds, microseconds or nanoseconds, or an RFC 3339 time.
 */
import { isMillisecondRange, MILLIS_CEILING, SECONDS_CEILING } from './envelope';
import { checkIsoTime } from './time';
import type { ValueNode } from '../model/tree';

/**
 * The Unix-millisecond value a legacy `timestamp` means, or undefined when it cannot be read as
 * one that lands between 1973 and 5138 (the range `timestamp-unit` takes for milliseconds).
 */
export function decodeTimestampToMs(value: ValueNode): number | undefined {
  if (value.kind === 'number') return value.value >= 0 ? fromUnits(value.raw, value.value) : undefined;
  if (value.kind !== 'string') return undefined;
  if (/^[0-9]+(\.[0-9]+)?$/.test(value.value)) return fromUnits(value.value, Number(value.value));
  if (checkIsoTime(value.value) === 'ok' && /T|t| /.test(value.value)) {
    const parsed = Date.parse(value.value);
    return isMillisecondRange(parsed) ? parsed : undefined;
  }
  return undefined;
}

/** `value` (written as `text`) in the unit its size says, as whole milliseconds in range. */
function fromUnits(text: string, value: number): number | undefined {
  if (!Number.isFinite(value)) return undefined;
  if (value <= MILLIS_CEILING) {
    const milliseconds = Math.round(value < SECONDS_CEILING ? value * 1000 : value);
    return isMillisecondRange(milliseconds) ? milliseconds : undefined;
  }
  // Micro- or nanoseconds, the first reading that lands in range: whole digits cut as the
  // timestamp-unit fix cuts them (beyond 2^53 the number itself is no longer exact), any other
  // form (a fraction, an exponent) divided and cut the same way.
  const whole = /^[0-9]+$/.test(text);
  for (const [digits, scale] of [[3, 1e3], [6, 1e6]] as const) {
    const milliseconds = whole ? Number(text.slice(0, -digits)) : Math.floor(value / scale);
    if (isMillisecondRange(milliseconds)) return milliseconds;
  }
  return undefined;
}
