/**
 * What a broker's error names (a key, a queue, a meta.id) and quotes (a server's reason) comes
 * from whoever wrote the dead letter, or whatever answered on the port: each is bounded and put
 * on one line, its invisible characters shown as `\uXXXX`, before it is part of a message.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { named, quoted } from '../../broker/internal';
import { parseTarget } from '../../broker/target';

const HOSTILE = 'q\u001b[2J\u009b1m\u0007\u202e\u2066\r\nforged';

test('a name is cut at 200 characters, keeping its start and its end, and written on one line, every invisible character escaped', () => {
  assert.equal(named(HOSTILE), 'q\\u001b[2J\\u009b1m\\u0007\\u202e\\u2066\\r\\nforged');
  // Cut to 200 as read, then its kept line break written `\n`: one character more.
  const long = named(`${'k'.repeat(5000)}\n`);
  assert.ok(long.length <= 201 && long.includes('k…k') && long.endsWith('k\\n'), `${long.length} characters: ${long.slice(-20)}`);
});

test('two long queue names that differ only at the end are named apart', () => {
  const shared = 'orders-'.repeat(40);
  assert.notEqual(named(`${shared}:work`), named(`${shared}:dlq`));
  assert.ok(named(`${shared}:dlq`).endsWith(':dlq'));
});

test("a server's reason is scrubbed of the password, then cut at 500 characters and put on one line", () => {
  const target = parseTarget('amqp://guest:S3cr3t-pass@127.0.0.1:5672');
  const reason = quoted(`PRECONDITION_FAILED - S3cr3t-pass ${HOSTILE} ${'r'.repeat(5000)}`, target);
  assert.ok(!reason.includes('S3cr3t-pass'), reason.slice(0, 100));
  assert.ok(reason.startsWith('PRECONDITION_FAILED - *** q\\u001b[2J\\u009b1m\\u0007\\u202e\\u2066\\r\\nforged r'), reason.slice(0, 120));
  assert.ok(!/[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/.test(reason));
  // Cut at 500 characters as read, then escaped: the 8 escaped here add 5 characters each at most.
  assert.ok(reason.endsWith('r…') && reason.length <= 500 + 8 * 5, `${reason.length} characters`);
});
