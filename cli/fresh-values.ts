/**
 * The new ids and times `babelq` writes (a fix's fresh `trace_id`, a sent message's `meta.id`).
 * node:crypto is loaded on the first id, not as babelq starts: a lint that writes none (most of
 * them) spares its few milliseconds at every run.
 */
import type { Fresh } from '../core/model/fresh';

export const FRESH: Fresh = {
  uuid: () => (require('node:crypto') as typeof import('node:crypto')).randomUUID(),
  now: Date.now,
};
