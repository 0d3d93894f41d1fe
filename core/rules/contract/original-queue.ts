/**
 * original-queue-mismatch: a dead-lettered fixture whose `dead_letter.original_queue` names another
 * queue than its own `meta.queue`. Every SDK runtime that dead-letters (Go's App, Python's
 * BabelQueue, the Node consumers, PHP's Dispatcher) writes `meta.queue` there whenever it is set
 * (facts part 2, §3.1), and a redrive sends the message to `original_queue` (§3.2): such a fixture
 * is one no BabelQueue consumer produces, and redriving it moves the message to a queue its own
 * `meta.queue` does not name. Java's DeadLetters.annotate is the exception: it writes its caller's queue.
 */
import { brokerNameOf, isBlank } from '../../contract/envelope';
import { replaceValue } from '../../model/property-edits';
import { asObject, getValue } from '../../model/tree';
import { literal } from '../../model/describe-value';
import { defineRule } from '../definition';

export const rule = defineRule({
  codes: [
    {
      code: 'original-queue-mismatch',
      family: 'contract',
      severity: 'warning',
      summary: 'dead_letter.original_queue names another queue than meta.queue: no SDK that dead-letters writes that.',
      docs: {
        fires:
          'In a dead-lettered fixture, `dead_letter.original_queue` and `meta.queue` are both set and differ. The SDK runtimes that dead-letter (Go, Python, Node, PHP) write `meta.queue` into `original_queue` whenever it is set, and a redrive sends the message back to `original_queue`, so the fixture describes a message no consumer produces and a redrive that lands on a queue its `meta.queue` does not name. Not where `dead_letter.lang` is `java`: Java\'s `DeadLetters.annotate` writes the queue its caller passes; nor where `meta.queue` is the broker\'s name for `original_queue` (`queues:orders` or `orders.dlq` beside `orders`), which `invalid-value` reports on `meta.queue`.',
        instead: '`original_queue` equal to `meta.queue` (the queue the message was published to; `meta` is never changed in flight).',
        example: {
          fires: '"meta": { "queue": "orders", … }, "dead_letter": { "original_queue": "payments", … }',
          clean: '"meta": { "queue": "orders", … }, "dead_letter": { "original_queue": "orders", … }',
        },
        fixes: 'Write `meta.queue` into `original_queue` (not applied by `--fix`: which of the two is wrong is the author\'s call).',
      },
      fixes: ({ valueAt, doc }) => {
        const value = valueAt();
        const queue = getValue(asObject(getValue(asObject(doc.root), 'meta')), 'queue');
        if (value?.kind !== 'string' || queue?.kind !== 'string') return [];
        // Not preferred: which of the two is wrong is the author's call (the message offers either), so --fix leaves it.
        return [{ title: `Set original_queue to ${literal(queue.value)} (meta.queue)`, edits: [replaceValue(value, JSON.stringify(queue.value))], preferred: false }];
      },
    },
  ],
  check: (context) => {
    const { meta, deadLetter } = context.envelope;
    const queue = getValue(meta, 'queue');
    const original = getValue(deadLetter, 'original_queue');
    if (queue?.kind !== 'string' || original?.kind !== 'string' || isBlank(queue.value) || isBlank(original.value) || queue.value === original.value) return;
    // Java has no runtime that dead-letters: DeadLetters.annotate writes the queue its caller
    // passes (facts part 2, §3.1), so a Java dead letter may name any queue.
    const by = getValue(deadLetter, 'lang');
    if (by?.kind === 'string' && by.value === 'java') return;
    // meta.queue written as this queue's broker name (`queues:orders`, `orders.dlq` beside
    // original_queue "orders"): invalid-value names that one mistake on meta.queue, and its fix
    // makes the two agree; advice here to copy the broker name into original_queue would be wrong.
    if (brokerNameOf(queue.value, true)?.name === original.value) return;
    context.report(
      'original-queue-mismatch',
      original,
      `original_queue ${literal(original.value)} is not this message's meta.queue ${literal(queue.value)}: the SDKs that dead-letter write meta.queue here, and a redrive sends the message to original_queue. Write ${literal(queue.value)}, or correct meta.queue.`,
    );
  },
});
