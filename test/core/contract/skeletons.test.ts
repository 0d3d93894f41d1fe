import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { hintsFrom } from '../../../core/contract/skeletons';
import { parseJson } from '../../../core/parse/parser';

const envelope = (meta: string, rest = '"attempts": 0') => `{"job": "urn:babel:orders:created", "trace_id": "t", "data": {}, "meta": {"id": "i", "queue": "orders", ${meta}}, ${rest}}`;

describe('hintsFrom: what a legacy key states', () => {
  test('meta.source, meta.ts and meta.attempts are taken where their replacement is absent', () => {
    const hints = hintsFrom(parseJson(envelope('"source": "PHP", "ts": 1749132727, "attempts": 2', '"data2": 1')));
    assert.equal(hints.lang, 'php');
    assert.equal(hints.createdAt, 1749132727000);
    assert.equal(hints.metaAttempts, 2);
  });

  test('not where the replacement is written in another case or as the key missing-field renames to it', () => {
    for (const lang of ['"Lang": "go"', '"LANG": "go"']) assert.equal(hintsFrom(parseJson(envelope(`"source": "php", ${lang}`))).lang, undefined, lang);
    for (const createdAt of ['"createdAt": 1749132727000', '"Created_At": 1749132727000', '"created-at": 1749132727000']) {
      assert.equal(hintsFrom(parseJson(envelope(`"ts": 1749132727, ${createdAt}`))).createdAt, undefined, createdAt);
    }
    for (const attempts of ['"Attempts": 1', '"attempt": 1']) assert.equal(hintsFrom(parseJson(envelope('"attempts": 2', attempts))).metaAttempts, undefined, attempts);
  });
});
