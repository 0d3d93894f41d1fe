/**
 * An encoder's text is read in parts before it is written whole (core/encode/written-text.ts, the
 * plain subtrees' pieces in core/encode/plain-subtree.ts): its length, UTF-8 length, first and
 * last units must be those of the text once written, for every SDK (Go's sorted subtrees too), on
 * random envelopes, on plain payloads laid out with any whitespace and holding non-ASCII text, and
 * in the preview, whose body lines of a large envelope are its ends.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { encodeEnvelope, SDK_NAMES } from '../../../core/encode';
import { plainSubtreePiece } from '../../../core/encode/plain-subtree';
import { writtenTextOf } from '../../../core/encode/written-text';
import { buildMessage } from '../../../core/message/build';
import { renderPreview } from '../../../core/message/preview';
import { fixedFresh } from '../../../core/model/fresh';
import { utf8Length } from '../../../core/model/utf8';
import { asObject, getValue } from '../../../core/model/tree';
import { parseJson } from '../../../core/parse/parser';
import { envelopeText as randomEnvelope } from '../../oracle/envelope-texts';
import { envelopeText as benchEnvelope } from '../../../bench/generate';

/** A seeded sequence of numbers in [0, 1), so the random cuts are the same on every run. */
let seed = 20261203;
const random = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32;

/** Unit counts around the interesting places of a text `length` long, and three anywhere (a piece's boundary among them, now and then). */
const cuts = (length: number) => [0, 1, 2, 7, length >> 1, length - 2, length - 1, length, length + 5, ...[0, 0, 0].map(() => Math.floor(random() * (length + 1)))].filter((n) => n >= 0);

/** Each SDK's written text read in parts from one encoding, against the text of another encoding of the same document. */
function assertPartsOfTheText(text: string, what: string): number {
  let checked = 0;
  for (const sdk of SDK_NAMES) {
    const doc = parseJson(text);
    const whole = encodeEnvelope(doc, sdk);
    if (!whole.ok) continue;
    const written = whole.text;
    for (const units of cuts(written.length)) {
      // A fresh encoding each time: reading the whole text first would answer from it.
      const parts = writtenTextOf(encodeEnvelope(doc, sdk))!;
      assert.ok(parts, `${what}: ${sdk} has a written text`);
      assert.equal(parts.length, written.length, `${what}: ${sdk} length`);
      assert.equal(parts.utf8Length, utf8Length(written), `${what}: ${sdk} UTF-8 length`);
      assert.equal(parts.head(units), written.slice(0, units), `${what}: ${sdk} first ${units}`);
      assert.equal(parts.tail(units), written.slice(Math.max(0, written.length - units)), `${what}: ${sdk} last ${units}`);
      checked++;
    }
  }
  return checked;
}

const PAYLOAD_STRINGS = ['Łukasz Müller', 'Matcha 抹茶 30 g', 'café', 'plain ascii', 'ÿ', '€ 19,99'];

/** A plain payload of `count` items laid out with `space`, with non-ASCII strings in it. */
function payloadEnvelope(count: number, space: string): string {
  const items = Array.from({ length: count }, (_, i) => `{"sku":"SKU-${i}",${space}"name":${JSON.stringify(PAYLOAD_STRINGS[i % PAYLOAD_STRINGS.length])},${space}"qty":${i % 9},${space}"tags":[${i % 3 === 0 ? '' : '"a","b"'}],${space}"gift":${i % 2 === 0},${space}"note":null}`);
  return `{"job":"urn:babel:orders:created",${space}"trace_id":"t-1",${space}"data":{"items":[${items.join(`,${space}`)}],${space}"empty":{"x":[]}},${space}"meta":{"schema_version":1,"lang":"node","queue":"orders","note":"😀 ü"},${space}"attempts":0}`;
}

test('a written text read in parts is the text written: random envelopes and plain payloads, every SDK', () => {
  let checked = 0;
  fc.assert(
    fc.property(randomEnvelope, (text) => {
      checked += assertPartsOfTheText(text, text);
    }),
    { seed: 20261205, numRuns: 150, includeErrorInReport: true },
  );
  for (const space of ['', ' ', '\n    ', '\r\n\t']) checked += assertPartsOfTheText(payloadEnvelope(300, space), `payload laid out with ${JSON.stringify(space)}`);
  assert.ok(checked > 1000, `only ${checked} reads checked`);
});

test("a plain subtree's piece: length, UTF-8 length and ends from the columns, for the written order and Go's", () => {
  for (const space of ['', ' ', '\n  ']) {
    const doc = parseJson(payloadEnvelope(500, space));
    const data = getValue(asObject(doc.root), 'data')!;
    for (const sortKeys of [false, true]) {
      const written = plainSubtreePiece(data, sortKeys)!.text();
      for (const units of cuts(written.length)) {
        const piece = plainSubtreePiece(data, sortKeys)!;
        assert.equal(piece.length, written.length);
        assert.equal(piece.utf8Length, utf8Length(written));
        assert.equal(piece.head(units), written.slice(0, units), `first ${units}, sorted ${sortKeys}`);
        assert.equal(piece.tail(units), written.slice(Math.max(0, written.length - units)), `last ${units}, sorted ${sortKeys}`);
      }
    }
  }
});

test('a piece read after its text was written, and a text carried over edits from a memo several versions behind, are the text written afresh', () => {
  const doc = parseJson(payloadEnvelope(400, ' '));
  const data = getValue(asObject(doc.root), 'data')!;
  const piece = plainSubtreePiece(data, false)!;
  const whole = piece.text();
  for (const units of cuts(whole.length)) {
    assert.equal(piece.head(units), whole.slice(0, units));
    assert.equal(piece.tail(units), whole.slice(Math.max(0, whole.length - units)));
  }
  const fresh = fixedFresh('0f8fad5b-d9cb-469f-a165-70867728950e', 1764590400123);
  for (const sdk of ['node', 'go', 'java'] as const) {
    const options = { sdk, freshIds: true, fresh, redisLayout: 'babelqueue' as const };
    let text = payloadEnvelope(400, '\n  ');
    const memo = {};
    const first = buildMessage(parseJson(text), options, memo);
    assert.ok(first.ok);
    // The first body read whole: its texts are there to carry over.
    assert.ok(first.message.text.length > 0);
    for (let step = 0; step < 6; step++) {
      // Three keystrokes at a time, in a payload string, between builds (a preview that waited).
      for (let key = 0; key < 3; key++) text = text.replace(`"SKU-${100 + step}`, `"SKU-${100 + step}${key}`);
      const built = buildMessage(parseJson(text), options, memo);
      const afresh = buildMessage(parseJson(text), options);
      assert.ok(built.ok && afresh.ok);
      assert.equal(built.message.textLength, afresh.message.text.length, `${sdk}, step ${step}: length`);
      assert.equal(built.message.text, afresh.message.text, `${sdk}, step ${step}`);
    }
  }
});

test("the preview shows a large body's ends as the body written whole has them, a surrogate pair at either cut kept whole", () => {
  const fresh = fixedFresh('0f8fad5b-d9cb-469f-a165-70867728950e', 1764590400123);
  const options = { sdk: 'node' as const, freshIds: true, fresh, redisLayout: 'babelqueue' as const, target: 'redis://127.0.0.1:6379' };
  const texts = [benchEnvelope(200_000, 7)];
  // Astral characters across the tail's cut (in meta, written value by value) and across the
  // head's (in a payload an escape keeps from being plain), at either parity.
  for (let pad = 0; pad < 2; pad++) {
    texts.push(payloadEnvelope(400, ' ').replace('"note":"😀 ü"', `"note":"${'😀'.repeat(1100)}${'y'.repeat(pad)}"`));
    texts.push(payloadEnvelope(400, ' ').replace('"sku":"SKU-0"', `"sku":"${'y'.repeat(pad)}${'😀'.repeat(7000)}\\n"`));
  }
  let cutPairs = 0;
  for (const text of texts) {
    const built = buildMessage(parseJson(text), options);
    assert.ok(built.ok);
    const body = built.message.text;
    assert.ok(body.length > 16 * 1024, 'the body is shown by its ends');
    const lines = renderPreview(parseJson(text), options).split('\n');
    const at = lines.findIndex((line) => line.startsWith('── Body: '));
    assert.equal(lines[at], `── Body: ${utf8Length(body)} bytes (UTF-8) ──`);
    const [head, gap, tail] = lines.slice(at + 1, at + 4);
    assert.ok(body.startsWith(head) && head.length >= 12 * 1024 - 1, 'the head is the body\'s start');
    assert.ok(body.endsWith(tail) && tail.length >= 2 * 1024, 'the tail is the body\'s end');
    assert.ok(!/^[\udc00-\udfff]/.test(tail) && !/[\ud800-\udbff]$/.test(head), 'no surrogate pair is cut');
    if (/[\ud800-\udbff]$/.test(body.slice(0, 12 * 1024))) cutPairs++;
    if (/^[\udc00-\udfff]/.test(body.slice(body.length - 2 * 1024))) cutPairs++;
    assert.ok(gap.includes(`${(body.length - head.length - tail.length).toLocaleString('en')} more characters`), gap);
  }
  // The cuts fell inside a pair: at the head once and at the tail once.
  assert.equal(cutPairs, 2);
});
