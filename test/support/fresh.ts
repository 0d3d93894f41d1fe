/** A deterministic `Fresh` for tests and snapshots: numbered UUIDs and a fixed "now". */
import type { Fresh } from '../../core/model/fresh';

/** 2026-01-01T00:00:00Z in Unix milliseconds. */
export const STABLE_NOW = Date.UTC(2026, 0, 1);

/** UUIDs `00000000-0000-4000-8000-000000000001`, `…002`, … and always `STABLE_NOW`. */
export function stableFresh(): Fresh {
  let count = 0;
  return {
    uuid: () => `00000000-0000-4000-8000-${String(++count).padStart(12, '0')}`,
    now: () => STABLE_NOW,
  };
}
