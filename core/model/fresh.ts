/**
 * Fresh values (a new UUID, the current time) come from outside core, so core stays pure and
 * tests stay deterministic: the server passes `crypto.randomUUID` and `Date.now`.
 */
export interface Fresh {
  uuid(): string;
  /** Current time in Unix milliseconds. */
  now(): number;
}

/** A Fresh that returns the same id and time on every call (values pinned so that what was shown is what is sent). */
export function fixedFresh(id: string, now: number): Fresh {
  return { uuid: () => id, now: () => now };
}
