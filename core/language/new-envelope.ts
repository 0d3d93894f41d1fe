/**
 * "New Envelope…": the text of a complete, valid envelope for a URN, with `data` filled from the
 * URN's payload schema so the new fixture lints clean and is ready to send.
 */
import type { Fresh } from '../model/fresh';
import type { RegistryEntrySummary } from './protocol';
import { exampleValue } from '../registry/example';
import { DEFAULT_LANG, DEFAULT_QUEUE } from '../contract/skeletons';
import { urnContext } from '../contract/urn';

export interface NewEnvelopeOptions {
  /** The message URN, written to `job`. */
  readonly urn: string;
  /** The URN's payload schema (draft-07); without one, `data` is `{}`. */
  readonly schema?: unknown;
  readonly fresh: Fresh;
  /** `meta.lang`; default `node`. */
  readonly lang?: string;
  /** `meta.queue`; default the URN's context (`urn:babel:orders:created` → `orders`). */
  readonly queue?: string;
  /** Indentation per level; default two spaces. */
  readonly indent?: string;
}

/** A complete envelope for `urn` as pretty-printed JSON with a trailing newline. */
export function newEnvelopeText(options: NewEnvelopeOptions): string {
  const traceId = options.fresh.uuid();
  // meta.id must differ from trace_id (id-equals-trace); a real UUID source never repeats, a stub might.
  let id = options.fresh.uuid();
  for (let tries = 0; id === traceId && tries < 8; tries++) id = options.fresh.uuid();
  const createdAt = Math.trunc(options.fresh.now());
  const example = options.schema === undefined ? {} : exampleValue(options.schema, { now: createdAt });
  // The contract needs an object; a schema for something else cannot describe a payload anyway.
  const data = typeof example === 'object' && example !== null && !Array.isArray(example) ? example : {};
  const envelope = {
    job: options.urn,
    trace_id: traceId,
    data,
    meta: {
      id,
      queue: nonBlank(options.queue) ?? urnContext(options.urn) ?? DEFAULT_QUEUE,
      lang: nonBlank(options.lang) ?? DEFAULT_LANG,
      schema_version: 1,
      created_at: createdAt,
    },
    attempts: 0,
  };
  return `${JSON.stringify(envelope, null, options.indent ?? '  ')}\n`;
}

/** Entries in the order a picker shows them: registry order, deprecated ones last. */
export function pickOrder<T extends Pick<RegistryEntrySummary, 'deprecated'>>(entries: readonly T[]): T[] {
  return [...entries.filter((entry) => !entry.deprecated), ...entries.filter((entry) => entry.deprecated)];
}

function nonBlank(value: string | undefined): string | undefined {
  return value !== undefined && value.trim() !== '' ? value : undefined;
}
