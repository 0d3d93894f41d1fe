/**
 * The payload schema of urn:babel:orders:created that the schema-compatibility scenarios edit, its
 * breaking edit, and a fixture of that URN: one place for what both the plain and the linked
 * scenarios type into a schema file.
 */
export const ORDERS_URN = 'urn:babel:orders:created';

export const ORDERS_SCHEMA = `{
  "$schema": "http://json-schema.org/draft-07/schema#",
  "type": "object",
  "required": ["order_id"],
  "properties": {
    "order_id": { "type": "integer" },
    "customer_id": { "type": "string" }
  }
}
`;

/** The edit a user types: customer_id becomes required (breaking: data valid before can fail). */
export const TIGHTENED_ORDERS_SCHEMA = ORDERS_SCHEMA.replace('"required": ["order_id"]', '"required": ["order_id", "customer_id"]');

/** A fixture routed on `job` (orders:created by default) with `data`, pretty-printed as a file holds it. */
export function ordersFixture(data: Record<string, unknown>, job = ORDERS_URN): string {
  return `${JSON.stringify({ job, trace_id: '0b8a3c52-7e7f-4d53-9c0a-2f6f1b0b9d11', data, meta: { id: '5f0c2a8e-1c7b-4f0e-8d51-3a9b7c6d2e10', queue: 'orders', created_at: 1767225600000, lang: 'php', schema_version: 1 }, attempts: 0 }, null, 2)}\n`;
}
