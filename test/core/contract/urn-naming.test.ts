/**
 * `checkUrnNaming` answers a well-formed URN with one regular expression and anything else rule by
 * rule; both must judge every string alike, and a near miss must still get its rule's words.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { checkUrnNaming, checkUrnNamingRuleByRule } from '../../../core/contract/urn';

const SEED = 20261205;

/** Strings near a URN: its prefix (or a variant), parts from a small alphabet with the troublemakers in it. */
const nearUrn = fc
  .tuple(
    fc.constantFrom('urn:babel:', 'URN:babel:', 'urn:babel', 'urn:bable:', ' urn:babel:', ''),
    fc.array(fc.constantFrom('a', 'z', '0', '9', '-', '_', '.', ':', 'A', ' ', '\n', '\t', 'é', '\\', '\u00a0'), { maxLength: 24 }),
  )
  .map(([prefix, characters]) => prefix + characters.join(''));

describe('checkUrnNaming', () => {
  test('judges every string as the rules in turn do', () => {
    fc.assert(
      fc.property(nearUrn, (urn) => {
        assert.deepEqual(checkUrnNaming(urn), checkUrnNamingRuleByRule(urn), JSON.stringify(urn));
      }),
      { seed: SEED, numRuns: 20_000 },
    );
  });

  test('a well-formed URN passes; a near miss gets its own rule', () => {
    assert.equal(checkUrnNaming('urn:babel:orders:bulk-imported'), undefined);
    assert.equal(checkUrnNaming('urn:babel:orders-2:line_item.added.v2'), undefined);
    const cases: Array<[string, RegExp]> = [
      ['urn:babel:orders:placed\n', /whitespace/],
      ['urn:babel:Orders:placed', /uppercase/],
      ['urn:babel:orders:placed.', /empty dot-separated part/],
      ['urn:babel:orders:placed:v2', /exactly four parts/],
      ['urn:babel:order_s:placed', /context `order_s`/],
      ['urn:babel:orders:plac€d', /non-ASCII/],
    ];
    for (const [urn, words] of cases) assert.match(checkUrnNaming(urn)?.message ?? 'no problem', words, urn);
  });

  test('a non-ASCII character is named by its code point and where it is: a look-alike letter shown, an invisible one not', () => {
    const cases: Array<[string, string]> = [
      // Cyrillic а (U+0430) where the Latin a belongs.
      ['urn:babel:orders:pl\u0430ced', 'a non-ASCII character, U+0430 "\u0430", after `urn:babel:orders:pl`;'],
      ['urn:babel:orders:plac€d', 'a non-ASCII character, U+20AC "€", after `urn:babel:orders:plac`;'],
      // A right-to-left override would reorder the message around it: its code point alone.
      ['urn:babel:orders:\u202edecalp', 'a non-ASCII character, U+202E, after `urn:babel:orders:`;'],
      ['\u{1F4E6}urn:babel:orders:placed', 'a non-ASCII character, U+1F4E6 "\u{1F4E6}", at its start;'],
    ];
    for (const [urn, words] of cases) assert.ok(checkUrnNaming(urn)?.message.includes(words), `${urn}: ${checkUrnNaming(urn)?.message}`);
  });
});

describe('the message of a URN that trimming and lowercasing repair names the repaired URN', () => {
  test('padding, uppercase, both: "Write …" with the URN the quick fix writes', () => {
    assert.match(checkUrnNaming(' urn:babel:orders:created ', 'job')!.message, /trim it\. Write "urn:babel:orders:created"\.$/);
    assert.match(checkUrnNaming('urn:babel:Orders:Created')!.message, /^The URN contains uppercase letters; URNs are lowercase\. Write "urn:babel:orders:created"\.$/);
    assert.match(checkUrnNaming(' URN:BABEL:ORDERS:CREATED', 'job')!.message, /Write "urn:babel:orders:created"\.$/);
  });

  test('no such sentence where trimming and lowercasing leave the URN broken', () => {
    assert.doesNotMatch(checkUrnNaming('urn:babel:Orders')!.message, /Write/);
    assert.doesNotMatch(checkUrnNaming(' urn:babel:or ders:x ', 'job')!.message, /Write "/);
  });
});
