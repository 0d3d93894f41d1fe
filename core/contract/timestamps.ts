/** Reading a legacy time value (seconds, milliseconds or an ISO string) as Unix milliseconds. */
import { SECONDS_CEILING } from './envelope';
import { checkIsoTime } from './time';
import type { ValueNode } from '../model/tree';

/** The Unix-millisecond value a legacy `timestamp` means, or undefined when it cannot be read. */
export function decodeTimestampToMs(value: ValueNode): number | undefined {
  if (value.kind === 'number' && Number.isFinite(value.value) && value.value >= 0) {
    const milliseconds = value.value < SECONDS_CEILING ? value.value * 1000 : value.value;
    return Number.isSafeInteger(Math.round(milliseconds)) ? Math.round(milliseconds) : undefined;
  }
  if (value.kind === 'string' && checkIsoTime(value.value) === 'ok' && /T|t| /.test(value.value)) {
    const parsed = Date.parse(value.value);
    return Number.isNaN(parsed) ? undefined : parsed;
  }
  return undefined;
}
