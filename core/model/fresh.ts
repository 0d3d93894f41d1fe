/**
 * Fresh values (a new UUID, the current time) come from outside core, so core stays pure and
 * tests stay deterministic: the server passes `crypto.randomUUID` and `Date.now`.
 */
export interface Fresh {
  uuid(): string;
  /** Current time in Unix milliseconds. */
  now(): number;
}
