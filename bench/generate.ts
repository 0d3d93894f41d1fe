/**
 * Deterministic generators for the benchmark inputs: envelopes of a target size with a realistic
 * payload (arrays of objects; strings with non-ASCII letters; ints; floats in non-money keys;
 * booleans; nested objects; RFC 3339 times), their registry and payload schema, and a workspace
 * of many tiny fixtures. Everything is written under bench/out/ (git-ignored).
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const URN = 'urn:babel:orders:bulk-imported';

/** A small, fast, seeded PRNG (mulberry32), so every run benchmarks the same bytes. */
export function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const FIRST = ['José', 'Zoë', 'Ana', 'Łukasz', 'Mia', 'Søren', 'Chloé', 'Ahmet', 'Yuki', 'Noah', 'Émile', 'Olga', 'Björn', 'Leïla', 'Ravi'];
const LAST = ['Müller', 'García', 'Nowak', 'Øberg', 'Smith', 'Dubois', 'Yılmaz', 'Tanaka', 'Brown', 'Kovač', 'Ivanova', 'Rossi'];
const CITIES = ['Zürich', 'Kraków', 'São Paulo', 'Berlin', 'İstanbul', 'Malmö', 'Lyon', 'Tokyo', 'Austin', 'Reykjavík'];
const PRODUCTS = ['Café crème 250 g', 'Thé vert', 'Crème brûlée kit', 'Espresso beans', 'Über-mug 350 ml', 'Tea towel', 'Pão de queijo mix', 'Matcha 抹茶 30 g', 'Oat milk', 'Smørrebrød board'];
const TAGS = ['fragile', 'gift', 'bio', 'vegan', 'süß', 'new', 'sale', 'chilled'];
const TIERS = ['bronze', 'silver', 'gold', 'platinum'];

function pick<T>(rand: () => number, items: readonly T[]): T {
  return items[Math.floor(rand() * items.length)];
}

function uuid(rand: () => number): string {
  const hex = () => Math.floor(rand() * 16).toString(16);
  const run = (n: number) => Array.from({ length: n }, hex).join('');
  return `${run(8)}-${run(4)}-4${run(3)}-a${run(3)}-${run(12)}`;
}

function isoTime(rand: () => number): string {
  return new Date(1_735_689_600_000 + Math.floor(rand() * 15_000_000_000)).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** A float with two to four decimals that is not a whole number (so every SDK writes it the same). */
function float(rand: () => number, scale: number, digits: number): number {
  const value = Number((rand() * scale + 0.01).toFixed(digits));
  return Number.isInteger(value) ? value + 0.5 : value;
}

/** One order: the repeated unit of the payload. */
function order(rand: () => number, index: number): unknown {
  const lines = 1 + Math.floor(rand() * 4);
  return {
    order_id: `ord-${String(100000 + index)}`,
    sequence: index,
    customer: {
      name: `${pick(rand, FIRST)} ${pick(rand, LAST)}`,
      email: `customer${index}@example.com`,
      loyalty_tier: pick(rand, TIERS),
      is_verified: rand() < 0.7,
      address: { city: pick(rand, CITIES), postcode: String(10000 + Math.floor(rand() * 89999)), lat: float(rand, 90, 4), lng: float(rand, 180, 4) },
    },
    lines: Array.from({ length: lines }, () => ({
      sku: `SKU-${Math.floor(rand() * 1e6)}`,
      title: pick(rand, PRODUCTS),
      quantity: 1 + Math.floor(rand() * 9),
      unit_price_cents: 100 + Math.floor(rand() * 10000),
      weight_kg: float(rand, 5, 3),
      discount_rate: float(rand, 0.3, 2),
      is_gift: rand() < 0.1,
      tags: Array.from({ length: Math.floor(rand() * 3) }, () => pick(rand, TAGS)),
    })),
    total_cents: Math.floor(rand() * 100000),
    placed_at: isoTime(rand),
    notes: rand() < 0.2 ? `Bitte vor 10 Uhr liefern — merci ${index}` : null,
  };
}

/** An envelope whose text is about `targetBytes` long (pretty-printed like a fixture in git). */
export function envelopeText(targetBytes: number, seed = 1): string {
  const rand = random(seed);
  const head = {
    job: URN,
    trace_id: uuid(rand),
    data: { batch_id: `batch-${seed}`, source: 'Lager Zürich — Nord', orders: [] as unknown[] },
    meta: { id: uuid(rand), schema_version: 1, created_at: 1_750_000_000_000, queue: 'orders', lang: 'node' },
    attempts: 0,
  };
  const emptyLength = JSON.stringify(head, null, 2).length;
  const orders: string[] = [];
  let length = emptyLength;
  for (let i = 0; length < targetBytes; i++) {
    const text = JSON.stringify(order(rand, i), null, 2).replace(/\n/g, '\n      ');
    orders.push(text);
    length += text.length + 8;
  }
  const full = JSON.stringify(head, null, 2);
  // Splice the pre-rendered orders into the empty array (keeps generation linear and fast).
  return full.replace('"orders": []', `"orders": [\n      ${orders.join(',\n      ')}\n    ]`);
}

/** A tiny fixture such as a team keeps in git, one per message type. */
export function tinyText(seed = 1): string {
  const rand = random(seed);
  const envelope = {
    job: URN,
    trace_id: uuid(rand),
    data: { batch_id: `batch-${seed}`, source: 'Lager Zürich — Nord', orders: [order(rand, seed)] },
    meta: { id: uuid(rand), schema_version: 1, created_at: 1_750_000_000_000 + seed, queue: 'orders', lang: 'node' },
    attempts: 0,
  };
  return `${JSON.stringify(envelope, null, 2)}\n`;
}

/** The draft-07 payload schema of URN: every field typed, nested objects and arrays included. */
export const PAYLOAD_SCHEMA = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  title: URN,
  type: 'object',
  required: ['batch_id', 'orders'],
  properties: {
    batch_id: { type: 'string', minLength: 1 },
    source: { type: 'string' },
    orders: {
      type: 'array',
      items: {
        type: 'object',
        required: ['order_id', 'customer', 'lines', 'total_cents', 'placed_at'],
        properties: {
          order_id: { type: 'string', pattern: '^ord-[0-9]+$' },
          sequence: { type: 'integer', minimum: 0 },
          customer: {
            type: 'object',
            required: ['name', 'email'],
            properties: {
              name: { type: 'string' },
              email: { type: 'string' },
              loyalty_tier: { type: 'string', enum: TIERS },
              is_verified: { type: 'boolean' },
              address: {
                type: 'object',
                properties: { city: { type: 'string' }, postcode: { type: 'string' }, lat: { type: 'number' }, lng: { type: 'number' } },
              },
            },
          },
          lines: {
            type: 'array',
            minItems: 1,
            items: {
              type: 'object',
              required: ['sku', 'quantity', 'unit_price_cents'],
              properties: {
                sku: { type: 'string' },
                title: { type: 'string' },
                quantity: { type: 'integer', minimum: 1 },
                unit_price_cents: { type: 'integer', minimum: 0 },
                weight_kg: { type: 'number' },
                discount_rate: { type: 'number', minimum: 0, maximum: 1 },
                is_gift: { type: 'boolean' },
                tags: { type: 'array', items: { type: 'string' } },
              },
            },
          },
          total_cents: { type: 'integer', minimum: 0 },
          placed_at: { type: 'string', minLength: 20 },
          notes: { type: ['string', 'null'] },
        },
      },
    },
  },
};

/** Writes registry.json and the payload schema into `dir` (a workspace folder). */
export function writeRegistry(dir: string): void {
  mkdirSync(join(dir, 'schemas'), { recursive: true });
  writeFileSync(join(dir, 'schemas', 'orders-bulk-imported.json'), `${JSON.stringify(PAYLOAD_SCHEMA, null, 2)}\n`);
  writeFileSync(join(dir, 'registry.json'), `${JSON.stringify({ schemas: [{ urn: URN, schema: 'schemas/orders-bulk-imported.json', owner: 'orders', status: 'active' }] }, null, 2)}\n`);
}

/** A workspace of `count` tiny fixtures in folders of 100 (no registry: the anchor has none either). */
export function writeWorkspace(dir: string, count: number): void {
  rmSync(dir, { recursive: true, force: true });
  for (let i = 0; i < count; i++) {
    const folder = join(dir, `batch-${String(Math.floor(i / 100)).padStart(3, '0')}`);
    if (i % 100 === 0) mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, `message-${String(i).padStart(5, '0')}.babel.json`), tinyText(i + 1));
  }
}
