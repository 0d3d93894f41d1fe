/**
 * Fresh values (a new UUID, the current time) come from outside core, so core stays pure and
 * tests stay deterministic: the server and CLI pass `crypto.randomUUID` and `Date.now`.
 */
export interface Fresh {
  uuid(): string;
  /** Current time in Unix milliseconds. */
  now(): number;
}
