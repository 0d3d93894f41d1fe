/**
 * The Redis header frame (ADR-0028, facts §4.1). When a message travels with out-of-band headers
 * (`traceparent`, `bq-replay-bypass`), the SDKs store the transport's own JSON frame
 * `{"__bq_frame":1,"headers":{…},"body":"<envelope>"}` instead of the bare envelope, and their
 * consumers hand the envelope inside to the handler. A stored value is a frame only when it starts
 * with `{`, contains `"__bq_frame"`, has a truthy version and a string `body`; anything else is a
 * bare envelope, as the consumers read it.
 */

/** A frame's envelope text and its headers (an empty object when the frame has none). */
export interface RedisFrame {
  readonly body: string;
  readonly headers: Readonly<Record<string, unknown>>;
}

/** The frame a stored Redis value is, or undefined when the consumers read it as a bare envelope. */
export function redisFrame(text: string): RedisFrame | undefined {
  if (!text.startsWith('{') || !text.includes('"__bq_frame"')) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const frame = value as Record<string, unknown>;
  if (!frame.__bq_frame || typeof frame.body !== 'string') return undefined;
  const headers = typeof frame.headers === 'object' && frame.headers !== null && !Array.isArray(frame.headers) ? (frame.headers as Record<string, unknown>) : {};
  return { body: frame.body, headers };
}
