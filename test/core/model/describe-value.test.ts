/** `shortened` (core/model/describe-value.ts): how much of a long key or literal a message quotes. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { shortened, shortenedName } from '../../../core/model/describe-value';

test('text up to 60 characters is quoted as it is; longer text keeps its first 57 and says it was cut', () => {
  assert.equal(shortened('a'.repeat(60)), 'a'.repeat(60));
  assert.equal(shortened('a'.repeat(61)), `${'a'.repeat(57)}…`);
  assert.equal(shortened('a'.repeat(100_000)), `${'a'.repeat(57)}…`);
});

test('a cut never splits a surrogate pair', () => {
  // The pair would straddle the cut at 57: the whole emoji is left out, never half of it.
  const text = `${'a'.repeat(56)}😀${'b'.repeat(10)}`;
  assert.equal(shortened(text), `${'a'.repeat(56)}…`);
  assert.equal(shortened(`${'a'.repeat(55)}😀${'b'.repeat(10)}`), `${'a'.repeat(55)}😀…`);
});

test('a name up to its limit is quoted as it is; a longer one keeps its start and its end, with one … between', () => {
  assert.equal(shortenedName('q'.repeat(200), 200), 'q'.repeat(200));
  const cut = shortenedName(`${'a'.repeat(250)}:work`, 200);
  assert.equal(cut.length, 200);
  assert.ok(cut.startsWith('a'.repeat(133)) && cut.endsWith('a'.repeat(61) + ':work'), cut);
  assert.equal(cut.split('…').length, 2);
  assert.equal(shortenedName('x'.repeat(100_000), 200).length, 200);
});

test('two long names that differ only at their end are quoted differently', () => {
  const [work, dlq] = [`${'a'.repeat(250)}:work`, `${'a'.repeat(250)}:dlq`];
  assert.notEqual(shortenedName(work, 200), shortenedName(dlq, 200));
  assert.ok(shortenedName(dlq, 200).endsWith(':dlq'));
  // As a fixture's key is quoted (`shortened`), both would be the same start and `…`.
  assert.equal(shortened(work, 200), shortened(dlq, 200));
});

test('a name cut in the middle never splits a surrogate pair on either side of the …', () => {
  for (let at = 120; at < 150; at++) {
    const name = `${'a'.repeat(at)}😀${'b'.repeat(300 - at)}😀${'c'.repeat(at % 7)}`;
    const cut = shortenedName(name, 200);
    assert.ok(cut.length <= 200, `${cut.length}`);
    assert.doesNotMatch(cut, /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/, `a lone surrogate at ${at}`);
  }
});
