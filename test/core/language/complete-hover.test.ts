/**
 * Completion and hover, written inline with a `|` cursor marker; completion tests assert the
 * document text after the chosen item is applied.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { complete, type CoreCompletionItem } from '../../../core/language/complete';
import type { Fresh } from '../../../core/model/fresh';
import { hover } from '../../../core/language/hover';
import { parseJson } from '../../../core/parse/parser';
import { analyze } from '../../../core/rules/analyze';
import { snippetToPlainText, valueSnippet } from '../../../core/language/snippet';
import { applyItem, withCursor } from '../../support/cursor';

const fresh: Fresh = { uuid: () => '11111111-2222-4333-8444-555555555555', now: () => 1764400000000 };

function completionsAt(marked: string): { text: string; items: CoreCompletionItem[] } {
  const { text, offset } = withCursor(marked);
  return { text, items: complete(parseJson(text), offset, fresh) };
}

describe('completion', () => {
  test('root keys the object still lacks, required first, with value skeletons', () => {
    const { text, items } = completionsAt('{\n  "job": "urn:babel:orders:created",\n  |\n}');
    assert.deepEqual(items.map((i) => i.label), ['trace_id', 'data', 'meta', 'attempts', 'dead_letter']);
    assert.deepEqual(
      items.map((i) => i.sortText),
      ['0_01', '0_02', '0_03', '0_04', '1_05'],
    );
    const meta = items.find((i) => i.label === 'meta')!;
    const applied = applyItem(text, meta);
    assert.deepEqual(JSON.parse(applied).meta, {
      id: '11111111-2222-4333-8444-555555555555',
      queue: 'default',
      lang: 'node',
      schema_version: 1,
      created_at: 1764400000000,
    });
  });

  test('inside a partly typed key, the item replaces the key and adds the value', () => {
    const { text, items } = completionsAt('{\n  "job": "urn:babel:orders:created",\n  "att|"\n}');
    const attempts = items.find((i) => i.label === 'attempts')!;
    assert.equal(applyItem(text, attempts), '{\n  "job": "urn:babel:orders:created",\n  "attempts": 0\n}');
  });

  test('a key that already has a colon is only renamed', () => {
    const { text, items } = completionsAt('{ "a|": 0 }');
    const attempts = items.find((i) => i.label === 'attempts')!;
    assert.equal(applyItem(text, attempts), '{ "attempts": 0 }');
  });

  test('a comma is added when another property follows', () => {
    const { text, items } = completionsAt('{ |\n "job": "urn:babel:a:b" }');
    const data = items.find((i) => i.label === 'data')!;
    assert.equal(applyItem(text, data), '{ "data": {},\n "job": "urn:babel:a:b" }');
  });

  test('after a property that no comma follows (a new line below the last one): the keys, with the comma it lacks added after it', () => {
    for (const [marked, label] of [
      ['{\n  "job": "urn:babel:orders:created"\n  |\n}', 'trace_id'],
      ['{\n  "job": "urn:babel:orders:created"\n  "|"\n}', 'data'],
      ['{\n  "job": "urn:babel:orders:created"\n  "da|\n}', 'data'],
      ['{ "job": "urn:babel:orders:created", "data": {} | }', 'attempts'],
      ['{\n  "job": "urn:babel:orders:created",\n  "meta": {\n    "lang": "go"\n    |\n  }\n}', 'queue'],
      ['{\n  "job": "urn:babel:orders:created",\n  "meta": {\n    "lang": "go"\n    |\n    "id": "x"\n  }\n}', 'queue'],
    ] as const) {
      const { text, items } = completionsAt(marked);
      const item = items.find((candidate) => candidate.label === label);
      assert.ok(item, `${label} offered in ${JSON.stringify(marked)}: ${JSON.stringify(items.map((candidate) => candidate.label))}`);
      const applied = applyItem(text, item);
      assert.doesNotThrow(() => JSON.parse(applied), applied);
    }
    // Where a comma is there already, none is added.
    const { text, items } = completionsAt('{\n  "job": "urn:babel:orders:created",\n  |\n}');
    assert.equal(items.find((candidate) => candidate.label === 'attempts')!.additionalEdits, undefined);
    assert.equal(applyItem(text, items.find((candidate) => candidate.label === 'attempts')!), '{\n  "job": "urn:babel:orders:created",\n  "attempts": 0\n}');
  });

  test('job is not offered when the urn alias is present; urn is never offered', () => {
    const { items } = completionsAt('{ "urn": "urn:babel:a:b", | }');
    assert.equal(items.some((i) => i.label === 'job'), false);
    assert.equal(items.some((i) => i.label === 'urn'), false);
  });

  test('meta keys, and the lang enum inside an empty string', () => {
    const keys = completionsAt('{ "meta": { "id": "x", | } }').items.map((i) => i.label);
    assert.deepEqual(keys, ['queue', 'lang', 'schema_version', 'created_at']);
    const { text, items } = completionsAt('{ "meta": { "lang": "|" } }');
    assert.deepEqual(items.map((i) => i.label), ['php', 'go', 'python', 'java', 'dotnet', 'node']);
    assert.equal(applyItem(text, items[4]), '{ "meta": { "lang": "dotnet" } }');
  });

  test('dead_letter.reason enum after a colon with no value yet', () => {
    const { text, items } = completionsAt('{ "dead_letter": { "reason": | } }');
    assert.deepEqual(items.map((i) => i.label), ['failed', 'unknown_urn', 'poison']);
    assert.equal(applyItem(text, items[2]), '{ "dead_letter": { "reason": "poison" } }');
  });

  test('1 for schema_version', () => {
    const { text, items } = completionsAt('{ "meta": { "schema_version": | } }');
    assert.deepEqual(items.map((i) => i.label), ['1']);
    assert.equal(applyItem(text, items[0]), '{ "meta": { "schema_version": 1 } }');
  });

  test('a value agrees with the rest of the envelope, as the key skeletons do: no value the rules then flag', () => {
    const meta = '"meta": { "id": "f1e2d3c4-b5a6-4789-90ab-cdef01234567", "queue": "billing", "lang": "php", "schema_version": 1, "created_at": 1749132727000 }';
    const deadLetter = (originalQueue: string, failedAt = '1749132730000') => `"dead_letter": { "reason": "failed", "failed_at": ${failedAt}, "original_queue": ${originalQueue}, "attempts": 3 }`;
    const envelope = (metaText: string, deadLetterText: string) => `{ "job": "urn:babel:orders:created", "trace_id": "7b3f9c2a-e41d-4f88-9b2a-1c0d5e6f7a8b", "data": { "order_id": 1 }, ${metaText}, "attempts": 3, ${deadLetterText} }`;
    const cases = [
      // original_queue names the queue of meta (original-queue-mismatch otherwise).
      { marked: envelope(meta, deadLetter('|')), label: '"billing"' },
      // meta.queue names the dead letter's original queue.
      { marked: envelope(meta.replace('"queue": "billing"', '"queue": |'), deadLetter('"billing"')), label: '"billing"' },
      // dead_letter.attempts follows the top-level counter.
      { marked: envelope(meta, deadLetter('"billing"').replace('"attempts": 3', '"attempts": |')), label: '3' },
      // created_at is never later than the failure (dead-letter-order otherwise).
      { marked: envelope(meta.replace('1749132727000', '|'), deadLetter('"billing"')), label: '1749132730000' },
    ];
    for (const { marked, label } of cases) {
      const { text, items } = completionsAt(marked);
      assert.deepEqual(items.map((i) => i.label), [label], marked);
      assert.deepEqual(analyze(parseJson(applyItem(text, items[0]))), [], marked);
    }
  });

  test('a time completed as now says so, whatever the clock does between making the value and describing it (the server passes Date.now)', () => {
    let clock = 1764400000000;
    const ticking: Fresh = { uuid: fresh.uuid, now: () => clock++ };
    const text = '{ "meta": { "created_at": | } }';
    const offset = text.indexOf('|');
    const items = complete(parseJson(text.replace('|', '')), offset, ticking);
    assert.deepEqual(items.map((i) => i.detail), ['meta.created_at: now, in Unix milliseconds']);
  });

  test('nothing inside data, arrays or outside the root', () => {
    assert.deepEqual(completionsAt('{ "data": { | } }').items, []);
    assert.deepEqual(completionsAt('{ "data": [ | ] }').items, []);
    assert.deepEqual(completionsAt('{ } |').items, []);
  });
});

describe('hover', () => {
  function hoverAt(marked: string) {
    const { text, offset } = withCursor(marked);
    return hover(parseJson(text), offset);
  }

  test('a core key explains type, required, mutability and the contract sentence', () => {
    const result = hoverAt('{ "att|empts": 0 }')!;
    assert.match(result.contents, /`attempts`/);
    assert.match(result.contents, /integer/);
    assert.match(result.contents, /required/);
    assert.match(result.contents, /· mutable \(transport state\)/);
    assert.match(result.contents, /retry counter/);
    assert.deepEqual([result.offset, result.end], [2, 12]);
  });

  test('meta keys are immutable; dead_letter.reason lists its values', () => {
    assert.match(hoverAt('{ "meta": { "q|ueue": "x" } }')!.contents, /immutable/);
    assert.match(hoverAt('{ "dead_letter": { "rea|son": "failed" } }')!.contents, /`poison`/);
  });

  test('the contract sentences say what the contract says: meta.queue only defaults to "default"; money as minor units or strings', () => {
    assert.match(hoverAt('{ "meta": { "q|ueue": "orders" } }')!.contents, /defaults to `default` in every SDK/);
    assert.match(hoverAt('{ "da|ta": {} }')!.contents, /money in integer minor units or decimal strings/);
  });

  test('the urn alias: what the contract asks of a re-emit, and what the SDKs were measured to relay', () => {
    const contents = hoverAt('{ "u|rn": "urn:babel:orders:created" }')!.contents;
    assert.doesNotMatch(contents, /A re-emit writes `job` and never `urn`\./);
    assert.match(contents, /the contract has a re-emit write `job` and never `urn`/);
    assert.match(contents, /PHP and Python relay `urn` as it came, Node writes both/);
  });

  test('created_at and failed_at show the UTC date they mean, on the key and on the value', () => {
    assert.match(hoverAt('{ "meta": { "created_at": 17491327|27000 } }')!.contents, /2025-06-05T14:12:07Z/);
    assert.match(hoverAt('{ "dead_letter": { "fail|ed_at": 1749132730000 } }')!.contents, /2025-06-05T14:12:10Z/);
  });

  test('forbidden keys say what to use instead; data keys and unknown keys have no contract hover', () => {
    assert.match(hoverAt('{ "meta": { "t|s": 1 } }')!.contents, /forbidden/);
    assert.equal(hoverAt('{ "data": { "ord|er_id": 1 } }'), undefined);
    assert.equal(hoverAt('{ "unkn|own": 1 }'), undefined);
  });
});

test('a snippet as plain text: placeholders at their defaults, a choice at its first option, tab stops empty, escapes undone', () => {
  assert.equal(snippetToPlainText('"job": "${1|urn:babel:a:b,urn:babel:c:d|}"'), '"job": "urn:babel:a:b"');
  assert.equal(snippetToPlainText('"trace_id": "${1:2df0e0e0-16eb-454f-a4f0-a8437045b155}"'), '"trace_id": "2df0e0e0-16eb-454f-a4f0-a8437045b155"');
  assert.equal(snippetToPlainText('"data": {$1}'), '"data": {}');
  assert.equal(snippetToPlainText('"items": [$1]'), '"items": []');
  assert.equal(snippetToPlainText('"n": ${1:0}, "m": ${2}$0'), '"n": 0, "m": ');
  assert.equal(snippetToPlainText(`"meta": ${valueSnippet({ note: 'a $1 \\ } b', n: 1 })}`), `"meta": ${JSON.stringify({ note: 'a $1 \\ } b', n: 1 }, null, '\t')}`);
  assert.equal(snippetToPlainText(valueSnippet('cost: $5 {x}')), JSON.stringify('cost: $5 {x}'));
});
