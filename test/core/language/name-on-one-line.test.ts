/**
 * `nameOnOneLine` (core/language/markdown.ts): a queue, key, meta.id or URN as a line names it,
 * for the broker's errors, babelq's lines and the editor's picks alike: cut in the middle past its
 * limit, so names that share a long start stay apart, and on one line.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { nameOnOneLine } from '../../../core/language/markdown';

test('a short name is as it is, its line breaks and invisible characters written out', () => {
  assert.equal(nameOnOneLine('orders'), 'orders');
  assert.equal(nameOnOneLine('q\r\n\u202eforged'), 'q\\r\\n\\u202eforged');
});

test('two names of 250 characters that differ only at the end are named differently, each by its start and end', () => {
  const prefix = 'a'.repeat(250);
  const [work, dlq] = [nameOnOneLine(`${prefix}:work`), nameOnOneLine(`${prefix}:dlq`)];
  assert.notEqual(work, dlq);
  assert.ok(work.endsWith(':work') && dlq.endsWith(':dlq'), `${work.slice(-10)} ${dlq.slice(-10)}`);
  assert.ok(work.length <= 200 && work.includes('…'), `${work.length}`);
});

test('the limit is the caller’s: 200 characters unless told', () => {
  assert.equal(nameOnOneLine('n'.repeat(5000)).length, 200);
  assert.equal(nameOnOneLine('n'.repeat(5000), 60).length, 60);
});

test('the cut comes before the line breaks are written out, so a kept line break is still one line', () => {
  const named = nameOnOneLine(`${'k'.repeat(300)}\nforged`);
  assert.ok(named.endsWith('k\\nforged'), named.slice(-20));
  assert.doesNotMatch(named, /[\r\n]/);
});
