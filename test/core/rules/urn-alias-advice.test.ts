/**
 * urn-alias beside a `job` that names no message type (a PHP class name) while `urn` holds a URN:
 * the message advises what the preferred fix (and so Fix all and `babelq lint --fix`) does, keep
 * the URN the author wrote in `urn` as `job`, not "Remove urn", which would drop the only URN.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { codeActions } from '../../../core/language/code-actions';
import { parseText } from '../../../core/parse/parser';
import { analyze } from '../../../core/rules/analyze';
import { DEFAULT_SETTINGS } from '../../../core/rules/settings/settings';
import { stableFresh } from '../../support/fresh';

const envelope = (job: string) =>
  `{"job": ${job}, "urn": "urn:babel:orders:created", "trace_id": "7b3f9c2a-e41d-4f88-9b2a-1c0d5e6f7a8b", "data": {}, "meta": {"id": "f1e2d3c4-b5a6-4789-90ab-cdef01234567", "queue": "orders", "lang": "php", "schema_version": 1, "created_at": 1749132727000}, "attempts": 0}`;

function aliasFinding(text: string) {
  const doc = parseText(text);
  const alias = analyze(doc, DEFAULT_SETTINGS).filter((d) => d.code === 'urn-alias');
  assert.equal(alias.length, 1);
  const preferred = codeActions(doc, alias, stableFresh()).find((action) => action.isPreferred);
  assert.ok(preferred, 'a preferred fix');
  const fixed = [...preferred.edits].sort((a, b) => b.offset - a.offset).reduce((result, edit) => result.slice(0, edit.offset) + edit.newText + result.slice(edit.end), text);
  return { message: alias[0].message, fixed: JSON.parse(fixed) as Record<string, unknown> };
}

test('a class name in "job" beside a URN in "urn": the message says to keep the URN as "job", as the preferred fix does', () => {
  const { message, fixed } = aliasFinding(envelope('"App\\\\Jobs\\\\ProcessOrder"'));
  assert.equal(fixed.job, 'urn:babel:orders:created');
  assert.equal('urn' in fixed, false);
  assert.doesNotMatch(message, /Remove "urn"\.$/);
  assert.match(message, /"App\\\\Jobs\\\\ProcessOrder" names no message type/);
  assert.match(message, /replace "job" with the URN in "urn" \("urn:babel:orders:created"\)/i);
});

test('a URN in "job" beside "urn": "job" wins, and the message and the preferred fix both remove "urn"', () => {
  const { message, fixed } = aliasFinding(envelope('"urn:babel:orders:placed"'));
  assert.equal(fixed.job, 'urn:babel:orders:placed');
  assert.equal('urn' in fixed, false);
  assert.match(message, /Remove "urn"\.$/);
});
