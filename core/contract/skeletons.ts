/**
 * Sensible values for core fields, shared by completion (value skeletons) and quick fixes
 * (adding a missing field): a fresh UUID, now in ms, attempts 0, data {}, schema_version 1.
 */
import type { Fresh } from '../model/fresh';
import { isMillisecondRange, keyWrittenFor, SDK_LANGS, type EnvelopeScope } from './envelope';
import { decodeTimestampToMs } from './timestamps';
import { asObject, getValue, type ObjectNode, type ParsedDocument, type ValueNode } from '../model/tree';

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
  /** A legacy top-level `timestamp` (else `meta.ts`) read as Unix milliseconds: the time the envelope already states. */
  readonly createdAt?: number;
  /** A forbidden `meta.attempts` as written (a non-negative integer): the count the envelope already states. */
  readonly metaAttempts?: number;
  /** `meta.created_at` and `dead_letter.failed_at` as written, where each is an integer of milliseconds in range. */
  readonly metaCreatedAt?: number;
  readonly failedAt?: number;
}

/** The default JSON value for a core field, or undefined for a field that has none. */
export function skeletonValue(scope: EnvelopeScope, field: string, fresh: Fresh, hints: SkeletonHints = {}): unknown {
  const now = fresh.now();
  // A message cannot fail before it was created (dead-letter-order): an added time keeps the one written on its side.
  const createdAt = hints.createdAt ?? Math.min(now, hints.failedAt ?? now);
  const failedAt = Math.max(now, hints.metaCreatedAt ?? now);
  switch (`${scope}.${field}`) {
    case 'root.job':
      return PLACEHOLDER_URN;
    case 'root.trace_id':
    case 'meta.id':
      return fresh.uuid();
    case 'root.data':
      return {};
    case 'root.meta':
      return { id: fresh.uuid(), queue: hints.queue ?? DEFAULT_QUEUE, lang: hints.lang ?? DEFAULT_LANG, schema_version: 1, created_at: createdAt };
    case 'root.attempts':
      return hints.metaAttempts ?? 0;
    case 'root.dead_letter':
      return { reason: 'failed', error: null, exception: null, failed_at: failedAt, original_queue: hints.queue ?? DEFAULT_QUEUE, attempts: hints.attempts ?? 0, lang: hints.lang ?? DEFAULT_LANG };
    case 'meta.queue':
      return hints.queue ?? DEFAULT_QUEUE;
    case 'meta.lang':
      return hints.lang ?? DEFAULT_LANG;
    case 'meta.schema_version':
      return 1;
    case 'meta.created_at':
      return createdAt;
    case 'dead_letter.failed_at':
      return failedAt;
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
 * Queue, attempts, lang and times the document already states, so added fields agree with them. A
 * missing meta.created_at added as now beside a legacy `timestamp` would lose it: `--fix` adds
 * the field, then removes the forbidden timestamp, which no longer has a created_at to move into.
 * The queue is meta.queue, or else the dead letter's original_queue, where the SDKs write meta.queue.
 * `except`: a value being completed, which is no hint for itself.
 */
export function hintsFrom(doc: ParsedDocument, except?: ValueNode): SkeletonHints {
  const root = asObject(doc.root);
  const meta = asObject(getValue(root, 'meta'));
  const deadLetter = asObject(getValue(root, 'dead_letter'));
  const queue = [getValue(meta, 'queue'), getValue(deadLetter, 'original_queue')].find((value) => value !== except && value?.kind === 'string' && value.value.trim() !== '');
  const lang = getValue(meta, 'lang');
  // The legacy keys the forbidden table replaces (meta.source by meta.lang, meta.ts and the top-level
  // timestamp by meta.created_at, meta.attempts by the top-level attempts): --fix removes them, so
  // a field added beside one takes what it says instead of a default. Not where the replacement is
  // written in another form (keyWrittenFor: `"Lang"`, `"createdAt"`, `"Attempts"`), which
  // missing-field renames to the field: that key states it.
  const written = (object: ObjectNode | undefined, scope: EnvelopeScope, name: string) => object !== undefined && keyWrittenFor(scope, object, name) !== undefined;
  const source = written(meta, 'meta', 'lang') ? undefined : getValue(meta, 'source');
  const sourceLang = source?.kind === 'string' ? source.value.toLowerCase() : undefined;
  const timestamp = written(meta, 'meta', 'created_at') ? undefined : (getValue(root, 'timestamp') ?? getValue(meta, 'ts'));
  return {
    queue: queue?.kind === 'string' ? queue.value : undefined,
    lang:
      lang?.kind === 'string' && (SDK_LANGS as readonly string[]).includes(lang.value)
        ? lang.value
        : !lang && sourceLang !== undefined && (SDK_LANGS as readonly string[]).includes(sourceLang)
          ? sourceLang
          : undefined,
    attempts: countAsWritten(getValue(root, 'attempts')),
    metaAttempts: written(root, 'root', 'attempts') ? undefined : countAsWritten(getValue(meta, 'attempts')),
    createdAt: timestamp ? decodeTimestampToMs(timestamp) : undefined,
    metaCreatedAt: millisecondsAsWritten(getValue(meta, 'created_at')),
    failedAt: millisecondsAsWritten(getValue(deadLetter, 'failed_at')),
  };
}

/** A non-negative integer literal as written. Beyond 2^53 the number is no longer the literal written, and JSON writes it back with an exponent (wrong-type). */
function countAsWritten(value: ValueNode | undefined): number | undefined {
  return value?.kind === 'number' && value.isIntegerLiteral && Number.isSafeInteger(value.value) && value.value >= 0 ? value.value : undefined;
}

/** An integer literal of Unix milliseconds in range, as written (no unit guessed). */
function millisecondsAsWritten(value: ValueNode | undefined): number | undefined {
  return value?.kind === 'number' && value.isIntegerLiteral && isMillisecondRange(value.value) ? value.value : undefined;
}
