/**
 * Sensible values for core fields, shared by completion (value skeletons) and quick fixes
 * (adding a missing field): a fresh UUID, now in ms, attempts 0, data {}, schema_version 1.
 */
import type { Fresh } from '../model/fresh';
import { SDK_LANGS, type EnvelopeScope } from './envelope';
import { decodeTimestampToMs } from './timestamps';
import { asObject, getValue, type ParsedDocument } from '../model/tree';

/** Placeholder URN for a new envelope: valid by the naming rules, obviously to be replaced. */
export const PLACEHOLDER_URN = 'urn:babel:context:event';
/** The language a new envelope is stamped with when nothing else in the file says. */
export const DEFAULT_LANG = 'node';
export const DEFAULT_QUEUE = 'default';

/** What the rest of the document already says, so new values agree with it. */
export interface SkeletonHints {
  readonly queue?: string;
  readonly attempts?: number;
  readonly lang?: string;
  /** A legacy top-level `timestamp` read as Unix milliseconds: the time the envelope already states. */
  readonly createdAt?: number;
}

/** The default JSON value for a core field, or undefined for a field that has none. */
export function skeletonValue(scope: EnvelopeScope, field: string, fresh: Fresh, hints: SkeletonHints = {}): unknown {
  const now = fresh.now();
  switch (`${scope}.${field}`) {
    case 'root.job':
      return PLACEHOLDER_URN;
    case 'root.trace_id':
    case 'meta.id':
      return fresh.uuid();
    case 'root.data':
      return {};
    case 'root.meta':
      return { id: fresh.uuid(), queue: hints.queue ?? DEFAULT_QUEUE, lang: hints.lang ?? DEFAULT_LANG, schema_version: 1, created_at: hints.createdAt ?? now };
    case 'root.attempts':
      return 0;
    case 'root.dead_letter':
      return { reason: 'failed', error: null, exception: null, failed_at: now, original_queue: hints.queue ?? DEFAULT_QUEUE, attempts: hints.attempts ?? 0, lang: hints.lang ?? DEFAULT_LANG };
    case 'meta.queue':
      return hints.queue ?? DEFAULT_QUEUE;
    case 'meta.lang':
      return hints.lang ?? DEFAULT_LANG;
    case 'meta.schema_version':
      return 1;
    case 'meta.created_at':
      return hints.createdAt ?? now;
    case 'dead_letter.failed_at':
      return now;
    case 'dead_letter.reason':
      return 'failed';
    case 'dead_letter.original_queue':
      return hints.queue ?? DEFAULT_QUEUE;
    case 'dead_letter.attempts':
      return hints.attempts ?? 0;
    case 'dead_letter.error':
    case 'dead_letter.exception':
      return null;
    case 'dead_letter.lang':
      return hints.lang ?? DEFAULT_LANG;
    default:
      return undefined;
  }
}

/**
 * Queue, attempts, lang and time the document already states, so added fields agree with them. A
 * missing meta.created_at added as now beside a legacy `timestamp` would lose it: `--fix` adds
 * the field, then removes the forbidden timestamp, which no longer has a created_at to move into.
 */
export function hintsFrom(doc: ParsedDocument): SkeletonHints {
  const root = asObject(doc.root);
  const meta = asObject(getValue(root, 'meta'));
  const queue = getValue(meta, 'queue');
  const lang = getValue(meta, 'lang');
  const attempts = getValue(root, 'attempts');
  const timestamp = getValue(root, 'timestamp');
  return {
    queue: queue?.kind === 'string' && queue.value.trim() !== '' ? queue.value : undefined,
    lang: lang?.kind === 'string' && (SDK_LANGS as readonly string[]).includes(lang.value) ? lang.value : undefined,
    attempts: attempts?.kind === 'number' && attempts.isIntegerLiteral && attempts.value >= 0 ? attempts.value : undefined,
    createdAt: timestamp ? decodeTimestampToMs(timestamp) : undefined,
  };
}
