/**
 * A preview that follows edits (core/message/build.ts's BuildMemo, core/encode/plain-subtree.ts
 * carrying written texts over): every version, built from what the previous build left, gives
 * exactly the preview and the message a build from nothing gives. The edits are the ones an
 * editor sends while someone types: inside a payload string and number (the plain subtree the
 * text is carried in), a meta value, a value that stops being plain (an escape, a long integer),
 * a key, a structural edit, an edit undone, fresh ids minted again, another encoder (Go, whose
 * sorted keys are written again), a queue override, and a text that no longer parses.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { SDK_NAMES } from '../../../core/encode';
import { buildMessage, type BuildMemo } from '../../../core/message/build';
import { renderPreview, type PreviewOptions } from '../../../core/message/preview';
import type { ParsedText } from '../../../core/parse/document';
import { reparse } from '../../../core/parse/incremental';
import { parseJson, parseText } from '../../../core/parse/parser';

/** An envelope whose data is a plain subtree of some 300 KB (larger than the preview shows whole). */
function envelope(): string {
  const items = Array.from({ length: 2000 }, (_, index) => ({ sku: `SKU-${index}`, name: `Łukasz Müller ${index}`, quantity: index % 9, weight_kg: 0.5 + index, tags: ['a', 'b'], gift: index % 2 === 0, note: null }));
  return JSON.stringify(
    {
      job: 'urn:babel:orders:created',
      trace_id: '7b3f9c2a-e41d-4f88-9b2a-1c0d5e6f7a8b',
      meta: { id: 'f1e2d3c4-b5a6-4789-90ab-cdef01234567', queue: 'orders', lang: 'node', schema_version: 1, created_at: 1749132727000 },
      attempts: 0,
      data: { order_id: 1042, items },
    },
    null,
    2,
  );
}

let freshId = '99999999-8888-4777-8666-555555555555';
const base = (): PreviewOptions => ({ sdk: 'auto', freshIds: true, fresh: { uuid: () => freshId, now: () => 1764400000000 }, redisLayout: 'babelqueue', target: 'redis://127.0.0.1:6379' });

type Step = { readonly what: string; readonly edit?: (text: string) => string; readonly options?: Partial<PreviewOptions>; readonly before?: () => void };

const at = (text: string, needle: string, from = 0) => {
  const index = text.indexOf(needle, from);
  assert.ok(index >= 0, needle);
  return index;
};
const insert = (needle: string, what: string, from = 0) => (text: string) => {
  const index = at(text, needle, from) + needle.length;
  return text.slice(0, index) + what + text.slice(index);
};

const STEPS: readonly Step[] = [
  { what: 'a letter typed in a payload string', edit: insert('"SKU-1200', 'x') },
  { what: 'another, deeper', edit: insert('"Łukasz Müller 1900', 'y') },
  { what: 'a digit typed in a payload number', edit: insert('"quantity": 4', '2', 150_000) },
  { what: 'a meta number changed', edit: (text) => text.replace('"schema_version": 1', '"schema_version": 3') },
  { what: 'a meta string changed', edit: (text) => text.replace('"queue": "orders"', '"queue": "orders-eu"') },
  { what: 'a payload string given an escape (no longer plain)', edit: insert('"SKU-1500', '\\n') },
  { what: 'the escape removed', edit: (text) => text.replace('SKU-1500\\n', 'SKU-1500') },
  { what: 'a payload integer made longer than a double holds', edit: insert('"order_id": 1042', '12345678901234567') },
  { what: 'it shortened again', edit: (text) => text.replace('"order_id": 104212345678901234567', '"order_id": 1042') },
  { what: 'a key renamed', edit: (text) => text.replace('"gift": true', '"gifted": true') },
  { what: 'a property added (structure)', edit: insert('"order_id": 1042', ', "channel": "web"') },
  { what: 'fresh ids minted again', before: () => (freshId = '11111111-2222-4333-8444-555555555555') },
  { what: 'a letter typed, with fresh ids off', edit: insert('"SKU-10', 'w'), options: { freshIds: false } },
  { what: 'then typed again', edit: insert('"SKU-77', 'z') },
  { what: 'Go encodes it (keys sorted)', options: { sdk: 'go' } },
  { what: 'Go, a letter typed', edit: insert('"SKU-300', 'g') },
  { what: 'a queue override', options: { queue: 'elsewhere' } },
  { what: 'a letter typed, with the override', edit: insert('"SKU-301', 'q') },
  { what: 'the text broken', edit: (text) => text.replace('"attempts": 0', '"attempts": ') },
  { what: 'and mended', edit: (text) => text.replace('"attempts": ,', '"attempts": 0,') },
];

test('each version built from the memo gives the preview and the message a build from nothing gives', () => {
  const memo: BuildMemo = {};
  let text = envelope();
  let parsed: ParsedText = parseText(text);
  let options: PreviewOptions = base();
  assert.equal(renderPreview(parsed, { ...options, memo }), renderPreview(parseJson(text), options), 'the first build');
  for (const step of STEPS) {
    step.before?.();
    if (step.edit) {
      const next = step.edit(text);
      assert.notEqual(next, text, step.what);
      // As the server holds it: parsed from the previous version where the edit allows.
      parsed = reparse(parsed, next) ?? parseText(next);
      text = next;
    }
    options = { ...options, ...step.options };
    const fromNothing = renderPreview(parseJson(text), options);
    assert.equal(renderPreview(parsed, { ...options, memo }), fromNothing, step.what);
    const built = buildMessage(parsed, options, memo);
    const reference = buildMessage(parseJson(text), options);
    assert.equal(built.ok, reference.ok, step.what);
    if (built.ok && reference.ok) {
      assert.equal(built.message.text, reference.message.text, step.what);
      assert.deepEqual(built.message.bytes, new TextEncoder().encode(reference.message.text), `${step.what}: the bytes`);
      assert.equal(built.message.byteLength, reference.message.bytes.length, `${step.what}: the byte count`);
      assert.deepEqual(built.consumers, reference.consumers, `${step.what}: the consumers`);
      assert.deepEqual(built.notes, reference.notes, `${step.what}: the notes`);
    }
  }
});

test('one memo across encoders and documents: each build is still exactly a build from nothing', () => {
  const memo: BuildMemo = {};
  const first = envelope();
  const second = first.replace('"lang": "node"', '"lang": "php"').replace('SKU-', 'PART-');
  for (const text of [first, second, first]) {
    for (const sdk of SDK_NAMES) {
      const options = { ...base(), sdk };
      const built = buildMessage(parseText(text), options, memo);
      const reference = buildMessage(parseJson(text), options);
      assert.ok(built.ok && reference.ok);
      assert.equal(built.message.text, reference.message.text, sdk);
      assert.deepEqual(built.consumers, reference.consumers, sdk);
    }
  }
});
