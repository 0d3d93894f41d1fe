/**
 * A consumer written from the wire contract alone (the envelope page of the spec), independent of
 * the code under test: what it takes to accept a body as a schema_version 1 envelope.
 */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const URN = /^urn:babel:[a-z0-9][a-z0-9_.-]*:[a-z0-9][a-z0-9_.-]*$/;
const LANGS = new Set(['php', 'python', 'go', 'node', 'java', 'dotnet']);

/** Why the consumer rejects `body`, or undefined when it accepts it. */
export function contractRejection(body: string): string | undefined {
  let envelope: unknown;
  try {
    envelope = JSON.parse(body);
  } catch {
    return 'not JSON';
  }
  if (typeof envelope !== 'object' || envelope === null || Array.isArray(envelope)) return 'not an object';
  const e = envelope as Record<string, unknown>;
  if (typeof e.job !== 'string' || !URN.test(e.job)) return `job ${JSON.stringify(e.job)} is not a URN`;
  if (typeof e.trace_id !== 'string' || !UUID.test(e.trace_id)) return 'trace_id is not a UUID';
  if (typeof e.data !== 'object' || e.data === null || Array.isArray(e.data)) return 'data is not an object';
  if (!Number.isInteger(e.attempts) || (e.attempts as number) < 0) return 'attempts is not a whole number ≥ 0';
  const meta = e.meta as Record<string, unknown> | undefined;
  if (typeof meta !== 'object' || meta === null) return 'meta is missing';
  if (typeof meta.id !== 'string' || !UUID.test(meta.id)) return 'meta.id is not a UUID';
  if (typeof meta.queue !== 'string') return 'meta.queue is not a string';
  if (typeof meta.lang !== 'string' || !LANGS.has(meta.lang)) return 'meta.lang is not an SDK';
  if (meta.schema_version !== 1) return 'schema_version is not 1';
  if (!Number.isInteger(meta.created_at)) return 'created_at is not integer ms';
  return undefined;
}
