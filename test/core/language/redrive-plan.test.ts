/** What a redrive would move (core/language/redrive-plan.ts), for the CLI and the editor alike. */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { planRedrive } from '../../../core/language/redrive-plan';
import { listingOrder, messageRow } from '../../../core/message/dead-letter';

const DEAD_LETTER = readFileSync(join(__dirname, '..', '..', '..', 'examples', 'billing', 'invoice-paid-dlq.babel.json'), 'utf8');
const bytes = (text: string) => new TextEncoder().encode(text);
const BOM = new Uint8Array([0xef, 0xbb, 0xbf]);
const withBom = new Uint8Array([...BOM, ...bytes(DEAD_LETTER)]);
const OPTIONS = { sdk: 'node', redisLayout: 'babelqueue' } as const;

test('each move carries the stored bytes it is found by; a BOM stays with its reason unless the user wrote the text to send', () => {
  const plain = bytes(DEAD_LETTER);
  const plan = planRedrive(
    [
      { metaId: 'a', body: plain, text: DEAD_LETTER },
      { metaId: 'b', body: withBom, text: `\ufeff${DEAD_LETTER}` },
      { metaId: 'c', body: withBom, text: DEAD_LETTER, edited: true },
      { metaId: 'd', body: bytes('{}'), text: '{}' },
    ],
    OPTIONS,
  );
  assert.deepEqual(plan.movedCandidates, [0, 2]);
  assert.equal(plan.moves[0]!.original, plain);
  assert.equal(plan.moves[1]!.original, withBom, 'the edited one is still found by its stored bytes');
  assert.equal(plan.skipped.length, 2);
  assert.match(plan.skipped[0]!, /^meta\.id b: its body starts with a UTF-8 byte-order mark/);
  assert.match(plan.skipped[1]!, /^meta\.id d: /);
  const redriven = JSON.parse(plan.moves[0]!.message.text) as { attempts: number; dead_letter?: unknown };
  assert.deepEqual([redriven.attempts, redriven.dead_letter], [0, undefined]);
});

test("the plan carries what to say before moving: a target queue named by white space, with the message's meta.id", () => {
  const blank = DEAD_LETTER.replace(/"original_queue":\s*"[^"]*"/, '"original_queue": "  "');
  assert.notEqual(blank, DEAD_LETTER);
  const plan = planRedrive([{ metaId: 'a', body: bytes(DEAD_LETTER), text: DEAD_LETTER }, { metaId: 'b', body: bytes(blank), text: blank }], OPTIONS);
  assert.deepEqual(plan.movedCandidates, [0, 1]);
  assert.equal(plan.notes.length, 1);
  assert.match(plan.notes[0]!, /^meta\.id b: dead_letter\.original_queue is "  ", only white space: the Node redrive sends to the queue of that name/);
  assert.equal(plan.moves[1]!.message.redis.listKey, '  ');
});

test('a queue is listed newest first from Redis, and in the order read (the head first) from RabbitMQ', () => {
  const rows = [0, 1, 2].map((position) => messageRow(DEAD_LETTER, 10, position, { errors: 0, warnings: 0 }));
  assert.deepEqual(listingOrder(rows, 'amqp').map((row) => row.position), [0, 1, 2]);
  assert.deepEqual(listingOrder(rows, 'redis').map((row) => row.position), [2, 1, 0]);
});

test('an edited copy of a dead letter whose bytes are not UTF-8, still holding the U+FFFD its view showed, moves with a note that says the redrive publishes U+FFFD', () => {
  const at = DEAD_LETTER.indexOf('"', DEAD_LETTER.indexOf('"reason"') + '"reason"'.length + 2) + 1;
  const stored = new Uint8Array([...bytes(DEAD_LETTER.slice(0, at)), 0xff, ...bytes(DEAD_LETTER.slice(at))]);
  const shown = new TextDecoder().decode(stored);
  assert.ok(shown.includes('\uFFFD'));
  const kept = planRedrive([{ metaId: 'a', body: stored, text: shown, edited: true }], OPTIONS);
  assert.deepEqual(kept.movedCandidates, [0], 'the user wrote the text to send: it moves');
  assert.equal(kept.notes.length, 1, JSON.stringify(kept.notes));
  assert.match(kept.notes[0]!, /^meta\.id a: its stored bytes are not UTF-8, and this copy still holds U\+FFFD where they were/);
  const fixed = planRedrive([{ metaId: 'a', body: stored, text: shown.replace('\uFFFD', 'x'), edited: true }], OPTIONS);
  assert.deepEqual(fixed.notes, [], 'the replacement characters edited out: nothing to say');
  const plain = planRedrive([{ metaId: 'a', body: bytes(DEAD_LETTER.replace('"reason": "', '"reason": "\uFFFD')), text: DEAD_LETTER.replace('"reason": "', '"reason": "\uFFFD'), edited: true }], OPTIONS);
  assert.deepEqual(plain.notes, [], 'a U+FFFD the stored UTF-8 bytes hold themselves is theirs');
});
