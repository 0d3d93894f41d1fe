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
