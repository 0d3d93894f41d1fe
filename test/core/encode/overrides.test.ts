/**
 * The preview's fresh ids and a send's queue replace values of the envelope before it is encoded
 * (`applyOverrides` in core/encode/index.ts), each replaced value parsed incrementally from the
 * document before it. The result must be what a parse of the whole replaced text gives: the
 * reference parser's document has no columns, so the same overrides on it take the whole parse.
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

const OVERRIDES = { metaId: '0f8fad5b-d9cb-469f-a165-70867728950e', createdAt: 1764590400123, queue: 'orders-replay' };

function assertSameAsWholeParse(text: string, what: string): void {
  for (const sdk of SDK_NAMES) {
    assert.deepEqual(encodeEnvelope(parseJson(text), sdk, { overrides: OVERRIDES }), encodeEnvelope(referenceParse(text), sdk, { overrides: OVERRIDES }), `${what}: ${sdk}`);
  }
}

test('overrides parsed value by value give what a parse of the whole text gives (seeded, examples, fixtures)', () => {
  for (const seed of loadSeeds()) assertSameAsWholeParse(seed.text, seed.name);
  fc.assert(fc.property(randomEnvelope, (text) => assertSameAsWholeParse(text, text)), { seed: 20261203, numRuns: 400, includeErrorInReport: true });
});

test('the document the overrides start from keeps its link to the version before it', () => {
  const before = parseText(GOOD_ENVELOPE);
  const edited = reparse(before, GOOD_ENVELOPE.replace('"orders"', '"orderz"'));
  assert.ok(edited?.edit, 'a string edit');
  const encoded = encodeEnvelope(edited, 'node', { overrides: OVERRIDES });
  assert.ok(encoded.ok && encoded.text.includes(OVERRIDES.metaId) && encoded.text.includes(`"created_at":${OVERRIDES.createdAt}`));
  assert.equal(edited.edit?.previous, before, 'still linked: the editor analyses it from its predecessor');
});
