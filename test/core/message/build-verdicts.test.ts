/**
 * The consumers' verdicts a build gives (core/message/build.ts) are the verdicts on its body parsed
 * back, whichever way the build reached them: from the tree written (a map relay that noted
 * nothing) or from the body parsed. Random envelopes of every shape (numbers, escapes, odd and
 * repeated keys, mistyped fields), the seeds, and large payloads whose subtrees are plain, through
 * all six encoders, with and without fresh ids and a queue written into meta.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { SDK_NAMES, type SdkName } from '../../../core/encode';
import { consumerVerdicts } from '../../../core/message/acceptance';
import { buildMessage, type BuildMemo, type MessageOptions } from '../../../core/message/build';
import { fixedFresh } from '../../../core/model/fresh';
import type { ParsedDocument } from '../../../core/model/tree';
import type { ParsedText } from '../../../core/parse/document';
import { parseText } from '../../../core/parse/parser';
import { reparse } from '../../../core/parse/incremental';
import { envelopeText as randomEnvelope } from '../../oracle/envelope-texts';
import { parseJson as referenceParse } from '../../oracle/reference-parser';
import { loadSeeds } from '../../fuzz/harness';

const MAP_RELAYS: readonly SdkName[] = ['node', 'php', 'python'];

const VARIANTS: readonly Pick<MessageOptions, 'freshIds' | 'queue'>[] = [{ freshIds: false }, { freshIds: true, queue: 'orders-replay' }];

function options(sdk: SdkName, variant: (typeof VARIANTS)[number]): MessageOptions {
  return { sdk, redisLayout: 'babelqueue', fresh: fixedFresh('0f8fad5b-d9cb-469f-a165-70867728950e', 1764590400123), ...variant };
}

/** Builds `doc` with every encoder and variant; returns how many builds a map relay wrote with no note (the tree-written way). */
function assertVerdictsOfTheBody(doc: ParsedDocument, what: string, memo?: BuildMemo): number {
  let written = 0;
  for (const sdk of SDK_NAMES) {
    for (const variant of VARIANTS) {
      const built = buildMessage(doc, options(sdk, variant), memo);
      if (!built.ok) continue;
      if (built.notes.length === 0 && MAP_RELAYS.includes(sdk)) written++;
      assert.deepEqual(built.consumers, consumerVerdicts(referenceParse(built.message.text)), `${what}: ${sdk} ${JSON.stringify(variant)}`);
    }
  }
  return written;
}

test('verdicts of random envelopes and the seeds are those of their bodies parsed back, for all six encoders', () => {
  let written = 0;
  let parsed = 0;
  const check = (text: string, what: string) => {
    // The columns parse (plain subtrees known) and the reference parse (none) both.
    written += assertVerdictsOfTheBody(parseText(text), what);
    written += assertVerdictsOfTheBody(referenceParse(text), `${what} (reference parse)`);
    parsed++;
  };
  for (const seed of loadSeeds()) check(seed.text, seed.name);
  fc.assert(
    fc.property(randomEnvelope, (text) => check(text, text)),
    { seed: 20261203, numRuns: 700, includeErrorInReport: true },
  );
  // Both ways are taken often: the claim is tested, not passed by default.
  assert.ok(written > 500, `only ${written} builds of ${parsed} documents were written from the tree`);
});

test('verdicts that a written tree decides alone: a URN only in urn, a trace id, data and attempts of each kind, a number beyond a double in data', () => {
  const cases = [
    '{"job":"urn:babel:orders:created","trace_id":"t","data":{"a":1},"meta":{"schema_version":1},"attempts":0}',
    '{"urn":"urn:babel:orders:created","trace_id":"t","data":{"a":1},"meta":{"schema_version":1},"attempts":0}',
    '{"job":"","trace_id":" ","data":[],"meta":{"schema_version":1.0},"attempts":1.5}',
    '{"job":"urn:babel:orders:created","trace_id":"t","data":{"big":1e400,"n":9007199254740993},"meta":{"schema_version":true},"attempts":-0}',
    '{"job":"urn:babel:orders:created","trace_id":"t","data":{"x":{"y":[[[[1]]]]}},"meta":{},"attempts":0,"Job":"urn:babel:a:b"}',
    '{"job":"urn:babel:orders:created","trace_id":"t","data":{"s":"\\ud800"},"meta":{"schema_version":1},"attempts":0}',
    // Keys Node writes first (array indexes), which the consumers that drop keys would list in the body's order.
    '{"job":"urn:babel:orders:created","trace_id":"t","data":{"a":1},"meta":{"schema_version":1},"attempts":0,"x":1,"0":2}',
    '{"job":"urn:babel:orders:created","trace_id":"t","data":{"a":1},"meta":{"schema_version":1,"x":1,"7":2,"3":4},"attempts":0}',
    '{"job":"urn:babel:orders:created","trace_id":"t","data":{"a":1},"meta":{"7":2,"3":4,"schema_version":1},"attempts":0}',
    '{"job":"urn:babel:orders:created","trace_id":"t","data":{"a":1},"meta":{"schema_version":1},"attempts":0,"dead_letter":{"x":1,"0":2}}',
  ];
  let written = 0;
  for (const text of cases) written += assertVerdictsOfTheBody(parseText(text), text);
  assert.ok(written > 0);
});

test('verdicts follow edits of a large plain payload, build after build with one memo, as the body parsed back says', () => {
  const items = Array.from({ length: 3000 }, (_, index) => ({ sku: `SKU-${index}`, quantity: index % 9, price: { amount: 1999 + index, currency: 'EUR' } }));
  let text = JSON.stringify({ job: 'urn:babel:orders:created', trace_id: 't-1', data: { items }, meta: { schema_version: 1, lang: 'node', queue: 'orders' }, attempts: 0 }, null, 2);
  let doc = parseText(text) as ParsedDocument;
  const memo: BuildMemo = {};
  const edits: readonly [string, string][] = [
    ['"quantity": 4', '"quantity": 41'],
    // An integer a double rounds: the Node consumer's note appears.
    ['"amount": 2100', '"amount": 90071992547409931'],
    ['"schema_version": 1', '"schema_version": 2'],
    // An escape: the payload is no longer plain, and the tree is still what is written.
    ['"SKU-10"', '"SKU-\\u0031\\u0030"'],
    ['"attempts": 0', '"attempts": "0"'],
  ];
  let written = assertVerdictsOfTheBody(doc, 'before the edits', memo);
  for (const [from, to] of edits) {
    const at = text.indexOf(from);
    assert.ok(at >= 0, from);
    const next = text.slice(0, at) + to + text.slice(at + from.length);
    doc = reparse(doc as ParsedText, next) ?? parseText(next);
    text = next;
    written += assertVerdictsOfTheBody(doc, from, memo);
  }
  assert.ok(written >= 6, `only ${written} builds were written from the tree`);
  const node = buildMessage(doc, options('node', VARIANTS[1]));
  assert.ok(node.ok && node.consumers.some((verdict) => verdict.reasons.some((reason) => /attempts/.test(reason.message))), 'the last edit (attempts as a string) is rejected');
});
