/**
 * The preview's fresh ids and a send's queue replace values of the envelope's tree before it is
 * encoded (`withOverrides` in core/encode/index.ts). The result must be what encoding the text with
 * those values written into it gives: the oracle here writes them into the text (every occurrence,
 * or appended to `meta`) and parses that whole, with no overrides.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { encodeEnvelope, SDK_NAMES } from '../../../core/encode';
import { parseJson, parseText } from '../../../core/parse/parser';
import { reparse } from '../../../core/parse/incremental';
import { envelopeText as randomEnvelope } from '../../oracle/envelope-texts';
import { parseJson as referenceParse } from '../../oracle/reference-parser';
import { loadSeeds } from '../../fuzz/harness';
import { GOOD_ENVELOPE } from '../../support/envelopes';
import type { ObjectNode } from '../../../core/model/tree';

const OVERRIDES = { metaId: '0f8fad5b-d9cb-469f-a165-70867728950e', createdAt: 1764590400123, queue: 'orders-replay' };

function assertSameWithBothParsers(text: string, what: string): void {
  for (const sdk of SDK_NAMES) {
    assert.deepEqual(encodeEnvelope(parseJson(text), sdk, { overrides: OVERRIDES }), encodeEnvelope(referenceParse(text), sdk, { overrides: OVERRIDES }), `${what}: ${sdk}`);
  }
}

/** The oracle: the overrides written into the text where the reference parser finds meta's values, or appended to meta. */
function writtenIn(text: string): string {
  const doc = referenceParse(text);
  const edits: { at: number; end: number; text: string }[] = [];
  const replaced: [string, string][] = [['id', JSON.stringify(OVERRIDES.metaId)], ['queue', JSON.stringify(OVERRIDES.queue)], ['created_at', JSON.stringify(OVERRIDES.createdAt)]];
  for (const property of (doc.root as ObjectNode).properties) {
    if (property.key !== 'meta' || property.value?.kind !== 'object') continue;
    const meta = property.value;
    const appended: string[] = [];
    for (const [key, value] of replaced) {
      const found = meta.properties.filter((member) => member.key === key && member.value);
      for (const member of found) edits.push({ at: member.value!.offset, end: member.value!.end, text: value });
      if (found.length === 0) appended.push(`${JSON.stringify(key)}:${value}`);
    }
    const last = meta.properties.at(-1);
    const at = last ? (last.value?.end ?? last.keyEnd) : meta.offset + 1;
    if (appended.length > 0) edits.push({ at, end: at, text: (last ? ',' : '') + appended.join(',') });
  }
  let out = text;
  for (const edit of edits.sort((a, b) => b.at - a.at)) out = out.slice(0, edit.at) + edit.text + out.slice(edit.end);
  return out;
}

function assertSameAsWrittenIn(text: string, what: string): void {
  const doc = referenceParse(text);
  if (doc.syntaxProblems.length > 0 || doc.root?.kind !== 'object') return;
  const oracle = writtenIn(text);
  for (const sdk of SDK_NAMES) {
    assert.deepEqual(encodeEnvelope(parseJson(text), sdk, { overrides: OVERRIDES }), encodeEnvelope(parseJson(oracle), sdk), `${what}: ${sdk}`);
  }
}

test('overrides replace values as writing them into the text and parsing it whole does (seeded, examples, fixtures)', () => {
  let withMeta = 0;
  for (const seed of loadSeeds()) assertSameAsWrittenIn(seed.text, seed.name);
  fc.assert(
    fc.property(randomEnvelope, (text) => {
      if (/"meta"\s*:\s*\{/.test(text)) withMeta++;
      assertSameAsWrittenIn(text, text);
    }),
    { seed: 20261204, numRuns: 600, includeErrorInReport: true },
  );
  assert.ok(withMeta > 100, `only ${withMeta} of 600 random envelopes had a meta object`);
  // Duplicated keys in meta, a meta without the keys, an empty meta, two metas.
  for (const text of [
    '{"job":"urn:babel:a:b","meta":{"id":"x","id":"y","created_at":1,"queue":"q","queue":"r"},"data":{}}',
    '{"job":"urn:babel:a:b","meta":{"lang":"php"},"data":{"a":[1,2]}}',
    '{"job":"urn:babel:a:b","meta":{},"data":{}}',
    '{"job":"urn:babel:a:b","meta":{"id":"x"},"data":{},"meta":{"created_at":5}}',
    '{"job":"urn:babel:a:b","meta":[1],"data":{}}',
  ]) assertSameAsWrittenIn(text, text);
});

test('the same bytes and notes with overrides from the columns parse and from the reference parse (seeded, examples, fixtures)', () => {
  for (const seed of loadSeeds()) assertSameWithBothParsers(seed.text, seed.name);
  fc.assert(fc.property(randomEnvelope, (text) => assertSameWithBothParsers(text, text)), { seed: 20261203, numRuns: 400, includeErrorInReport: true });
});

test('the document the overrides start from keeps its link to the version before it', () => {
  const before = parseText(GOOD_ENVELOPE);
  const edited = reparse(before, GOOD_ENVELOPE.replace('"orders"', '"orderz"'));
  assert.ok(edited?.edit, 'a string edit');
  const encoded = encodeEnvelope(edited, 'node', { overrides: OVERRIDES });
  assert.ok(encoded.ok && encoded.text.includes(OVERRIDES.metaId) && encoded.text.includes(`"created_at":${OVERRIDES.createdAt}`));
  assert.equal(edited.edit?.previous, before, 'still linked: the editor analyses it from its predecessor');
});
