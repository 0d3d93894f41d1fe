/**
 * A meta.id as the CLI's lines name it (dlq list, peek, a redrive's dry run, send): whole as far as
 * 200 characters, since ids are copied from there into `dlq redrive --id` and some are longer than
 * a quoted value's 60 (a SHA-256 in hex is 64), and cut in the middle past that.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { quoted, quotedId } from '../../cli/errors';

test('a 64-character id is named whole, where a quoted value would be cut', () => {
  const sha256 = 'a'.repeat(64);
  assert.equal(quotedId(sha256), sha256);
  assert.notEqual(quoted(sha256), sha256);
});

test('an id of 5,000 characters is named by its start and its end', () => {
  const named = quotedId(`${'i'.repeat(5000)}-end`);
  assert.ok(named.length <= 200, `${named.length} characters`);
  assert.ok(named.startsWith('iii') && named.includes('i…i') && named.endsWith('i-end'), named.slice(-20));
});
