/**
 * invalid-value on a dead letter's meta.queue that names a dead-letter queue (`orders.dlq`): what
 * it says a redrive does follows dead_letter.original_queue, the queue a redrive sends to
 * (core/message/dead-letter.ts): back to `orders.dlq` only where original_queue names it too; where
 * original_queue is `orders`, this redrive goes to `orders`, and the mistake shows when the
 * message is dead-lettered again, with original_queue copied from meta.queue.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { parseText } from '../../../core/parse/parser';
import { analyze } from '../../../core/rules/analyze';
import { DEFAULT_SETTINGS } from '../../../core/rules/settings/settings';
import { loadRegistry } from '../../../workspace/registry-loader';
import { codeActions } from '../../../core/language/code-actions';
import { applyEdits } from '../../../core/model/edits';

const ROOT = join(__dirname, '..', '..', '..');
const EXAMPLES = join(ROOT, 'examples');
const registry = loadRegistry(join(EXAMPLES, 'registry.json'), EXAMPLES).state;
const FIXTURE = readFileSync(join(ROOT, 'test/fixtures/diagnostics/invalid-value/fires-dead-letter-queue-as-queue.babel.json'), 'utf8');

function queueMessage(text: string): string {
  const found = analyze(parseText(text), DEFAULT_SETTINGS, registry).filter((d) => d.code === 'invalid-value' && text.slice(d.offset, d.end) === '"orders.dlq"');
  assert.equal(found.length, 1, JSON.stringify(found.map((d) => d.message)));
  return found[0].message;
}

test('original_queue naming the dead-letter queue too: this redrive puts the message back on it', () => {
  assert.match(queueMessage(FIXTURE), /a redrive of this one \(to original_queue, which the SDKs that dead-letter copy from meta\.queue\) would put it back on "orders\.dlq"/);
});

test('original_queue naming the work queue: this redrive goes there, and a later dead letter names the dead-letter queue', () => {
  const text = FIXTURE.replace('"original_queue": "orders.dlq"', '"original_queue": "orders"');
  assert.notEqual(text, FIXTURE);
  const message = queueMessage(text);
  assert.doesNotMatch(message, /a redrive of this one .* would put it back on "orders\.dlq"/);
  assert.match(message, /dead-lettered again, its original_queue, which the SDKs that dead-letter copy from meta\.queue, would be "orders\.dlq", and a redrive would put it back there/);
});

/** The invalid-value finding on meta.queue, its fix applied, and the warnings and errors left after it (the payload's aside: the fixture's data is cut short). */
function fixedQueue(text: string): { message: string; fixed: string; left: string[] } {
  const doc = parseText(text);
  const queue = /"queue": ("[^"]*")/.exec(text)![1];
  const found = analyze(doc, DEFAULT_SETTINGS, registry).filter((d) => d.code === 'invalid-value' && text.slice(d.offset, d.end) === queue);
  assert.equal(found.length, 1, JSON.stringify(found.map((d) => d.message)));
  const [action] = codeActions(doc, found, FRESH, registry);
  assert.ok(action, 'a fix is offered');
  const fixed = applyEdits(text, action.edits);
  const left = analyze(parseText(fixed), DEFAULT_SETTINGS, registry).filter((d) => d.code !== 'payload-schema' && d.severity !== 'information' && d.severity !== 'hint');
  return { message: found[0].message, fixed, left: left.map((d) => `${d.code}: ${d.message}`) };
}

const FRESH = { uuid: () => '00000000-0000-4000-8000-000000000001', now: () => 1764400000000 };
const LIVE = FIXTURE.replace(/,\s*"dead_letter": \{[^}]*\}/, '');

for (const set of ['reserved', 'delayed', 'notify']) {
  test(`the Laravel key of a queue's ${set} set is named as that, and its fix writes the queue`, () => {
    const text = LIVE.replace('"queue": "orders.dlq"', `"queue": "queues:orders:${set}"`);
    assert.notEqual(text, LIVE);
    const { message, fixed, left } = fixedQueue(text);
    assert.match(message, new RegExp(`Laravel Redis key of the ${set} set of the queue "orders"`));
    assert.match(message, /Write "orders"\.$/);
    assert.match(fixed, /"queue": "orders",/);
    assert.deepEqual(left, []);
  });
}

test("a queue named with a colon after Laravel's prefix stays one queue: queues:orders:eu-west", () => {
  const text = LIVE.replace('"queue": "orders.dlq"', '"queue": "queues:orders:eu-west"');
  const { message, fixed, left } = fixedQueue(text);
  assert.match(message, /Laravel Redis key of the queue "orders:eu-west"/);
  assert.match(fixed, /"queue": "orders:eu-west",/);
  assert.deepEqual(left, []);
});

test("a dead letter's meta.queue written as the Laravel key of its dead-letter queue: the fix writes the queue, and nothing is left", () => {
  const text = FIXTURE.replaceAll('"orders.dlq"', '"queues:orders.dlq"');
  assert.notEqual(text, FIXTURE);
  const { message, fixed, left } = fixedQueue(text);
  assert.match(message, /Laravel Redis key of the dead-letter queue of the queue "orders"/);
  assert.match(fixed, /"queue": "orders",/);
  assert.match(fixed, /"original_queue": "orders"/);
  assert.deepEqual(left, []);
});

test('outside a dead letter, queues:orders.dlq is the key of the queue orders.dlq, which is the author\'s to have', () => {
  const text = LIVE.replace('"queue": "orders.dlq"', '"queue": "queues:orders.dlq"');
  const { message, fixed, left } = fixedQueue(text);
  assert.match(message, /Laravel Redis key of the queue "orders\.dlq"/);
  assert.match(fixed, /"queue": "orders\.dlq",/);
  assert.deepEqual(left, []);
});
