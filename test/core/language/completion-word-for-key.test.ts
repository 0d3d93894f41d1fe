/**
 * A key being typed without its quote yet (a letter at the start of a new line between two keys,
 * or after an object's last value): the parser reads the word as stray, one finding, and
 * completion still offers the object's keys there, replacing the word.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { complete } from '../../../core/language/complete';
import type { Fresh } from '../../../core/model/fresh';
import { parseJson } from '../../../core/parse/parser';

const fresh: Fresh = { uuid: () => '11111111-2222-4333-8444-555555555555', now: () => 1764400000000 };

for (const [where, text] of [
  ['between two keys, after a comma', '{\n  "job": "urn:a",\n  "meta": {\n    "id": "x",\n    qu\n    "lang": "php"\n  }\n}'],
  ['after the object\'s last value, no comma yet', '{\n  "job": "urn:a",\n  "meta": {\n    "id": "x"\n    qu\n  }\n}'],
] as const) {
  test(`a word typed for a key ${where}: meta's keys are offered, replacing the word`, () => {
    const offset = text.indexOf('qu') + 2;
    const items = complete(parseJson(text), offset, fresh);
    const queue = items.find((item) => item.label === 'queue');
    assert.ok(queue, `offered: ${items.map((item) => item.label).join(', ')}`);
    assert.equal(queue.offset, text.indexOf('qu'), JSON.stringify(queue));
  });
}
