/**
 * What the registry adds to completion, hover and go to definition, in core, written inline with a
 * `|` cursor marker: registered URNs in `job` (deprecated ones last and tagged), the schema's
 * fields inside `data` (required first, with example values), enum and boolean values, the URN's
 * entry and a field's schema on hover, and definitions into registry.json and the schema file.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { complete, completeList } from '../../../core/language/complete';
import { MAX_URN_ITEMS } from '../../../core/language/registry-completion';
import { hover } from '../../../core/language/hover';
import { registryDefinition } from '../../../core/language/registry-navigation';
import { parseJson } from '../../../core/parse/parser';
import { exampleValue } from '../../../core/registry/example';
import type { RegistryState } from '../../../core/registry/types';
import { applyItem, withCursor } from '../../support/cursor';
import { MEMORY_ROOT, memoryRegistry } from '../../support/memory-registry';
import { stableFresh } from '../../support/fresh';

const ORDER_SCHEMA = {
  type: 'object',
  required: ['order_id', 'currency'],
  properties: {
    order_id: { type: 'integer', minimum: 1, description: 'The order number.' },
    currency: { enum: ['USD', 'EUR'] },
    gift: { type: 'boolean' },
    email: { type: 'string', format: 'email', 'x-gdpr-sensitive': 'email' },
    lines: { type: 'array', items: { type: 'object', required: ['sku'], properties: { sku: { type: 'string', pattern: '^[A-Z]{3}-\\d{3}$' } } } },
  },
};

const registry: RegistryState = memoryRegistry({
  'schemas/order-created.json': ORDER_SCHEMA,
  'registry.json': {
    schemas: [
      { urn: 'urn:babel:orders:placed', schema: 'schemas/order-created.json', owner: 'orders-team', status: 'deprecated' },
      { urn: 'urn:babel:orders:created', schema: 'schemas/order-created.json', owner: 'orders-team', status: 'active' },
    ],
  },
});

/** An envelope around `data`, with the cursor somewhere in `marked` (the whole document). */
function envelope(job: string, data: string): string {
  return `{\n  "job": ${job},\n  "trace_id": "7b3f9c2a-e41d-4f88-9b2a-1c0d5e6f7a8b",\n  "data": ${data},\n  "meta": { "id": "f1e2d3c4-b5a6-4789-90ab-cdef01234567", "queue": "orders", "lang": "go", "schema_version": 1, "created_at": 1749132727000 },\n  "attempts": 0\n}\n`;
}

function itemsAt(marked: string) {
  const { text, offset } = withCursor(marked);
  return { text, items: complete(parseJson(text), offset, stableFresh(), registry) };
}

describe('registry completion', () => {
  test('the registry loaded', () => {
    assert.equal(registry.kind, 'loaded');
  });

  test('job completes to the registered URNs, active first, the deprecated one last and tagged', () => {
    const { text, items } = itemsAt(envelope('"|"', '{}'));
    const ordered = [...items].sort((a, b) => (a.sortText ?? a.label).localeCompare(b.sortText ?? b.label));
    assert.deepEqual(ordered.map((item) => item.label), ['urn:babel:orders:created', 'urn:babel:orders:placed']);
    assert.equal(ordered[1].deprecated, true);
    assert.equal(ordered[0].deprecated, undefined);
    assert.match(ordered[0].detail ?? '', /owner: orders-team · status: active/);
    assert.match(ordered[0].documentation ?? '', /Required `data` fields:[\s\S]*`order_id`: integer ≥ 1/);
    assert.equal(JSON.parse(applyItem(text, ordered[0])).job, 'urn:babel:orders:created');
  });

  test('a key inside data completes to the schema fields not yet present, required first, with example values', () => {
    const { text, items } = itemsAt(envelope('"urn:babel:orders:created"', '{ "order_id": 7, | }'));
    const labels = [...items].sort((a, b) => (a.sortText ?? '').localeCompare(b.sortText ?? '')).map((item) => item.label);
    assert.deepEqual(labels, ['currency', 'email', 'gift', 'lines']);
    const currency = items.find((item) => item.label === 'currency')!;
    assert.match(currency.detail ?? '', /^required · one of "USD", "EUR"$/);
    assert.deepEqual(JSON.parse(applyItem(text, currency)).data, { order_id: 7, currency: 'USD' });
    const orderId = itemsAt(envelope('"urn:babel:orders:created"', '{ | }')).items.find((item) => item.label === 'order_id')!;
    assert.equal(orderId.documentation, 'The order number.');
  });

  test('keys of an object inside an array item follow the items schema', () => {
    const { items } = itemsAt(envelope('"urn:babel:orders:created"', '{ "lines": [ { | } ] }'));
    assert.deepEqual(items.map((item) => item.label), ['sku']);
  });

  test('a value completes to the enum values, or true and false for a boolean', () => {
    assert.deepEqual(itemsAt(envelope('"urn:babel:orders:created"', '{ "currency": "|" }')).items.map((item) => item.label), ['"USD"', '"EUR"']);
    assert.deepEqual(itemsAt(envelope('"urn:babel:orders:created"', '{ "gift": | }')).items.map((item) => item.label), ['true', 'false']);
  });

  test('an unregistered URN gets no payload completion', () => {
    assert.deepEqual(itemsAt(envelope('"urn:babel:orders:unknown"', '{ | }')).items, []);
  });

  test('payload completion follows the URN the envelope routes on, as validation, hover and definition do', () => {
    // Padded with spaces: not the registered URN (unknown-urn), so its schema's fields are not offered.
    assert.deepEqual(itemsAt(envelope('" urn:babel:orders:created "', '{ | }')).items, []);
    // `job` is routed on when set: the `urn` alias beside it does not lend its schema.
    const aliasBeside = itemsAt('{\n  "job": "urn:babel:orders:unknown",\n  "urn": "urn:babel:orders:created",\n  "data": { | }\n}\n');
    assert.deepEqual(aliasBeside.items, []);
  });
});

describe('registry hover and definition', () => {
  const hoverAt = (marked: string) => {
    const { text, offset } = withCursor(marked);
    return hover(parseJson(text), offset, registry);
  };

  test('on the URN: its owner, status, schema link and a table of its fields', () => {
    const shown = hoverAt(envelope('"urn:babel:or|ders:created"', '{}'));
    assert.ok(shown);
    assert.match(shown.contents, /\*\*`urn:babel:orders:created`\*\*/);
    assert.match(shown.contents, /owner: orders-team · status: active/);
    assert.match(shown.contents, /schema: \[schemas\/order-created\.json\]\(file:\/\/.*order-created\.json\)/);
    assert.match(shown.contents, /\| `order_id` \| integer ≥ 1 \| yes \|/);
    assert.match(shown.contents, /\| `email` \| string, email address \| {2}\| {2}\| email \|/);
  });

  test('on a data key: the field schema, required or not, and the sensitivity mark', () => {
    const shown = hoverAt(envelope('"urn:babel:orders:created"', '{ "em|ail": "a***" }'));
    assert.ok(shown);
    assert.match(shown.contents, /\*\*`data\.email`\*\* · string, email address · optional/);
    // payload-schema checks the e-mail format, which no mask ("a***") meets: a fixture holds a made-up address.
    assert.match(shown.contents, /x-gdpr-sensitive: email — no mask meets its schema: write a made-up value in fixtures\./);
    const plain: RegistryState = memoryRegistry({
      'schemas/s.json': { type: 'object', properties: { phone: { type: 'string', 'x-gdpr-sensitive': 'phone' } } },
      'registry.json': { schemas: [{ urn: 'urn:babel:orders:created', schema: 'schemas/s.json' }] },
    });
    const { text, offset } = withCursor(envelope('"urn:babel:orders:created"', '{ "pho|ne": "+90 555" }'));
    assert.match(hover(parseJson(text), offset, plain)?.contents ?? '', /x-gdpr-sensitive: phone — mask it in fixtures: `"\+\*\*\*"`\./);
    const nested = hoverAt(envelope('"urn:babel:orders:created"', '{ "lines": [ { "s|ku": "ABC-123" } ] }'));
    // The schema's pattern is schema text: escaped, so it renders as written and cannot open markup.
    assert.ok((nested?.contents ?? '').includes('**`data.lines[].sku`** · string, matching ^\\[A-Z\\]\\{3\\}-\\\\d\\{3\\}$ · required'), nested?.contents);
  });

  test('go to definition: from the URN to its registry entry, from a data key to its property in the schema file', () => {
    assert.equal(registry.kind, 'loaded');
    if (registry.kind !== 'loaded') return;
    const onUrn = withCursor(envelope('"urn:babel:orders:cre|ated"', '{}'));
    const toEntry = registryDefinition(parseJson(onUrn.text), onUrn.offset, registry.registry);
    assert.ok(toEntry);
    assert.equal(toEntry.path, join(MEMORY_ROOT, 'registry.json'));
    assert.equal(toEntry.text.slice(toEntry.offset, toEntry.end), '"urn:babel:orders:created"');
    const onKey = withCursor(envelope('"urn:babel:orders:created"', '{ "curr|ency": "USD" }'));
    const toSchema = registryDefinition(parseJson(onKey.text), onKey.offset, registry.registry);
    assert.ok(toSchema);
    assert.equal(toSchema.path, join(MEMORY_ROOT, 'schemas', 'order-created.json'));
    assert.equal(toSchema.text.slice(toSchema.offset, toSchema.end), '"currency"');
  });
});

describe('registry text in Markdown is escaped', () => {
  const hostile = {
    type: 'object',
    required: ['a`b'],
    properties: {
      'a`b': { type: 'string', description: 'see ![x](https://evil.example/x.png) <img src=x onerror=alert(1)> [run](command:workbench.action.terminal.new)', pattern: '^`x`$', 'x-gdpr-sensitive': '<b>mail</b>' },
      'p|q': { enum: ['a|b'] },
    },
  };
  const state: RegistryState = memoryRegistry({
    'schemas/h.json': hostile,
    'registry.json': { schemas: [{ urn: 'urn:babel:h:e', schema: 'schemas/h.json', owner: '![o](https://evil.example/o.png) [c](command:x)', status: '<script>alert(1)</script>' }] },
  });

  test('owner, status, descriptions, patterns and names cannot add images, HTML, command links or leave a code span', () => {
    const onUrn = withCursor(envelope('"urn:babel:h:|e"', '{}'));
    const urnHover = hover(parseJson(onUrn.text), onUrn.offset, state)!.contents;
    const onKey = withCursor(envelope('"urn:babel:h:e"', '{ "a`|b": "x" }'));
    const keyHover = hover(parseJson(onKey.text), onKey.offset, state)!.contents;
    const docs = complete(parseJson(withCursor(envelope('"|"', '{}')).text), withCursor(envelope('"|"', '{}')).offset, stableFresh(), state).map((item) => item.documentation ?? '').join('\n');
    for (const markdown of [urnHover, keyHover, docs]) {
      assert.doesNotMatch(markdown, /(?<!\\)!\[|<img|<script|<b>|(?<!\\)\]\(command:/, markdown);
    }
    // A name with a backtick is one code span fenced by two; a pipe in a table cell does not split it.
    assert.ok(keyHover.includes('**``data.a`b``**'), keyHover);
    assert.ok(urnHover.includes('| ``a`b`` |'), urnHover);
    assert.ok(urnHover.includes('`p\\|q`') && urnHover.includes('`"a\\|b"`'), urnHover);
    assert.ok(keyHover.includes('pattern: ``^`x`$``'), keyHover);
  });
});

describe('a registry of 5,000 URNs', () => {
  const schemas = Array.from({ length: 5_000 }, (_, index) => ({ urn: `urn:babel:shop${String(index).padStart(4, '0')}:created`, schema: 'schemas/order-created.json', owner: 'shop', status: index === 4_999 ? 'deprecated' : 'active' }));
  const large = memoryRegistry({ 'schemas/order-created.json': ORDER_SCHEMA, 'registry.json': { schemas } });
  const listAt = (marked: string) => {
    const { text, offset } = withCursor(marked);
    return completeList(parseJson(text), offset, stableFresh(), large);
  };

  test('job offers a slice and says it is incomplete; what is typed picks the slice, its characters in order', () => {
    const all = listAt(envelope('"|"', '{}'));
    assert.equal(all.items.length, MAX_URN_ITEMS);
    assert.equal(all.incomplete, true);
    const typed = listAt(envelope('"shop49|"', '{}'));
    assert.equal(typed.incomplete, true, 'chosen by what was typed: asked again after a backspace');
    assert.ok(typed.items.length > 100 && typed.items.length < MAX_URN_ITEMS, String(typed.items.length));
    assert.ok(typed.items.every((item) => /shop\d*4\d*9/.test(item.label)));
    assert.ok(typed.items.some((item) => item.label === 'urn:babel:shop4950:created'));
    const one = listAt(envelope('"shop4999|"', '{}'));
    assert.deepEqual(one.items.map((item) => [item.label, item.deprecated]), [['urn:babel:shop4999:created', true]]);
    const scattered = listAt(envelope('"s0007c|"', '{}'));
    assert.deepEqual(scattered.items.map((item) => item.label), ['urn:babel:shop0007:created']);
  });

  test('a registry within the bound is offered whole, as before', () => {
    const { text, offset } = withCursor(envelope('"ord|"', '{}'));
    const list = completeList(parseJson(text), offset, stableFresh(), registry);
    assert.equal(list.incomplete, false);
    assert.deepEqual(list.items.map((item) => item.label).sort(), ['urn:babel:orders:created', 'urn:babel:orders:placed'], 'every entry, whatever was typed (the editor filters)');
  });
});

describe('a data key completes with the value the payload fix and New Envelope… would insert', () => {
  const SCHEMA = {
    type: 'object',
    required: ['placed_at', 'customer_id', 'items', 'tags', 'shipping'],
    properties: {
      placed_at: { type: 'string', minLength: 20, description: 'RFC 3339 UTC.' },
      customer_id: { type: 'string', minLength: 36 },
      items: { type: 'array', items: { type: 'object', properties: { sku: { type: 'string' } } } },
      tags: { type: 'array', items: { type: 'string' } },
      shipping: { $ref: '#/definitions/address' },
    },
    definitions: { address: { type: 'object', required: ['city'], properties: { city: { type: 'string' } } } },
  };
  const own: RegistryState = memoryRegistry({
    'schemas/shipped.json': SCHEMA,
    'registry.json': { schemas: [{ urn: 'urn:babel:orders:shipped', schema: 'schemas/shipped.json' }] },
  });

  test('a time for *_at, a UUID-length id, [] for an array, a $ref followed into the schema', () => {
    const { text, offset } = withCursor(envelope('"urn:babel:orders:shipped"', '{ | }'));
    const items = complete(parseJson(text), offset, stableFresh(), own);
    const expected = exampleValue(SCHEMA) as Record<string, unknown>;
    assert.deepEqual(Object.keys(expected).sort(), ['customer_id', 'items', 'placed_at', 'shipping', 'tags']);
    for (const key of Object.keys(expected)) {
      const item = items.find((candidate) => candidate.label === key);
      assert.ok(item, key);
      assert.deepEqual((JSON.parse(applyItem(text, item)) as { data: Record<string, unknown> }).data, { [key]: expected[key] }, key);
    }
    assert.match(String(expected.placed_at), /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
    assert.deepEqual(expected.items, []);
    assert.deepEqual(expected.shipping, { city: 'example' });
  });
});

describe('a schema written to swell hovers and completion documentation', () => {
  const long = (letter: string) => letter.repeat(200_000);
  const properties: Record<string, unknown> = { order_id: { type: 'integer', description: `The order number.${long('d')}`, pattern: long('p').slice(0, 10_000) } };
  for (let i = 0; i < 2_000; i++) properties[`f${i}_${'k'.repeat(300)}`] = { enum: [long('e').slice(0, 1_000), 'b'] };
  const state = memoryRegistry({
    'schemas/swollen.json': { type: 'object', required: Object.keys(properties), properties },
    'registry.json': { schemas: [{ urn: 'urn:babel:orders:created', schema: 'schemas/swollen.json', owner: long('o'), status: long('s') }] },
  });

  test('the URN\'s hover, a field\'s hover and the URN\'s and field\'s completion documentation are bounded, and say what they leave out', () => {
    assert.equal(state.kind, 'loaded');
    const onUrn = withCursor(envelope('"urn:babel:or|ders:created"', '{ "order_id": 1 }'));
    const urnHover = hover(parseJson(onUrn.text), onUrn.offset, state)!.contents;
    const onKey = withCursor(envelope('"urn:babel:orders:created"', '{ "order|_id": 1 }'));
    const keyHover = hover(parseJson(onKey.text), onKey.offset, state)!.contents;
    const onJob = withCursor(envelope('"|"', '{}'));
    const urnItems = complete(parseJson(onJob.text), onJob.offset, stableFresh(), state);
    const urnDocs = urnItems.map((item) => `${item.detail ?? ''}\n${item.documentation ?? ''}`).join('\n');
    const inData = withCursor(envelope('"urn:babel:orders:created"', '{ | }'));
    const fieldDocs = complete(parseJson(inData.text), inData.offset, stableFresh(), state).find((item) => item.label === 'order_id')?.documentation ?? '';
    for (const [where, text] of [['URN hover', urnHover], ['key hover', keyHover], ['URN completion', urnDocs], ['field completion', fieldDocs]]) {
      assert.ok(text.length < 40_000, `${where}: ${text.length} characters`);
    }
    assert.match(urnHover, /\| `f0_k+…` \|/);
    assert.match(urnHover, /more fields/);
    assert.match(keyHover, /The order number\.d+…/);
    assert.match(fieldDocs, /^The order number\.d+…$/);
    assert.match(urnDocs, /more required fields/);
  });
});
