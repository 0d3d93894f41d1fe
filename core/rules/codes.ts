/**
 * The diagnostic catalogue: every stable code, its family and its default severity.
 * `docs/diagnostics.md` documents the same table; a test keeps the two in step.
 * A code is never renamed or reused.
 */

export type Severity = 'error' | 'warning' | 'information' | 'hint';
export type SeveritySetting = Severity | 'off';

export type CodeFamily = 'structure' | 'contract' | 'data' | 'registry';

export interface CodeInfo {
  readonly family: CodeFamily;
  readonly severity: Severity;
  /** One line for SARIF rule descriptions and hovers. */
  readonly summary: string;
}

export const CODES = {
  'json-syntax': { family: 'structure', severity: 'error', summary: 'The text is not strict UTF-8 JSON (RFC 8259).' },
  'duplicate-key': { family: 'structure', severity: 'error', summary: 'The same key appears twice in one object; SDKs keep different ones.' },
  'not-an-object': { family: 'structure', severity: 'error', summary: 'The root of the document is not a JSON object.' },
  'missing-field': { family: 'structure', severity: 'error', summary: 'A required envelope field is absent.' },
  'wrong-type': { family: 'structure', severity: 'error', summary: 'A core field has the wrong JSON type.' },
  'invalid-value': { family: 'structure', severity: 'error', summary: 'A core field has the right type but an impossible value.' },
  'reserved-key': { family: 'structure', severity: 'error', summary: 'A top-level __bq_frame key, reserved for the Redis header frame.' },
  'forbidden-key': { family: 'contract', severity: 'error', summary: 'A key from the forbidden table (timestamp, meta.max_retries, meta.attempts, meta.source, meta.ts).' },
  'urn-alias': { family: 'contract', severity: 'warning', summary: 'The inbound alias urn is present; producers write job.' },
  'empty-urn': { family: 'contract', severity: 'error', summary: 'The URN is empty or only whitespace.' },
  'invalid-urn': { family: 'contract', severity: 'error', summary: 'The URN breaks the naming rules urn:babel:<context>:<event>.' },
  'urn-payload': { family: 'contract', severity: 'warning', summary: 'A URN segment carries an identifier; identifiers belong in data.' },
  'unsupported-schema-version': { family: 'contract', severity: 'error', summary: 'meta.schema_version is an integer other than 1.' },
  'invalid-uuid': { family: 'contract', severity: 'warning', summary: 'trace_id or meta.id is not a UUID.' },
  'id-equals-trace': { family: 'contract', severity: 'warning', summary: 'meta.id equals trace_id.' },
  'unknown-lang': { family: 'contract', severity: 'warning', summary: 'meta.lang is not one of the six SDK languages.' },
  'timestamp-unit': { family: 'contract', severity: 'warning', summary: 'A contract timestamp looks like seconds, microseconds or nanoseconds instead of Unix milliseconds.' },
  'dead-letter-order': { family: 'contract', severity: 'warning', summary: 'dead_letter.failed_at is earlier than meta.created_at.' },
  'case-mismatch': { family: 'contract', severity: 'information', summary: 'An unknown key equals a known key except for case.' },
  'extension-key': { family: 'contract', severity: 'hint', summary: 'An extra meta key outside meta.ext.<vendor>, or an extension key that is not snake_case.' },
  'float-currency': { family: 'data', severity: 'warning', summary: 'A money-like key holds a floating-point number.' },
  'unsafe-integer': { family: 'data', severity: 'warning', summary: 'An integer beyond ±(2^53−1) (an error beyond signed 64-bit).' },
  'non-json-boolean': { family: 'data', severity: 'warning', summary: 'A boolean-like key holds 0/1 or "true"/"false".' },
  'non-iso-time': { family: 'data', severity: 'warning', summary: 'A time-like key holds a string that is not RFC 3339 / ISO 8601 with a UTC offset.' },
  'encoding-divergence': { family: 'data', severity: 'information', summary: 'The six SDK encoders would not write the same bytes for this value.' },
  'unknown-urn': { family: 'registry', severity: 'warning', summary: 'The URN has no entry in the registry.' },
  'deprecated-urn': { family: 'registry', severity: 'warning', summary: 'The registry marks this URN deprecated, retired or sunset.' },
  'payload-schema': { family: 'registry', severity: 'error', summary: 'data fails the URN’s registered JSON Schema.' },
  'registry-error': { family: 'registry', severity: 'error', summary: 'The registry or the URN’s schema cannot be read, parsed or compiled.' },
  'pii-in-fixture': { family: 'registry', severity: 'information', summary: 'A field marked x-gdpr-sensitive holds an unmasked value.' },
} as const satisfies Record<string, CodeInfo>;

export type Code = keyof typeof CODES;

/** Every code, in catalogue order. */
export const ALL_CODES = Object.keys(CODES) as Code[];

/** True when `value` is a code of the catalogue. */
export function isCode(value: string): value is Code {
  return Object.prototype.hasOwnProperty.call(CODES, value);
}

/** The diagnostic `source` every diagnostic carries. */
export const DIAGNOSTIC_SOURCE = 'babelqueue';
