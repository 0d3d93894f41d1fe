/**
 * wrong-type on an integer field written with a fraction or an exponent names an integer literal
 * to write instead: written in its place, that literal draws no wrong-type (for a number beyond
 * 2^53, JavaScript would print the truncated value with an exponent, no integer literal at all).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { codeActions } from '../../../core/language/code-actions';
import { parseText } from '../../../core/parse/parser';
import { analyze, analyzeText } from '../../../core/rules/analyze';
import { stableFresh } from '../../support/fresh';

const envelope = (attempts: string, deadLetterAttempts: string) =>
  `{\n  "job": "urn:babel:orders:created",\n  "trace_id": "7b3f9c2a-e41d-4f88-9b2a-1c0d5e6f7a8b",\n  "data": { "order_id": 1 },\n  "meta": { "id": "f1e2d3c4-b5a6-4789-90ab-cdef01234567", "queue": "orders", "lang": "node", "schema_version": 1, "created_at": 1749132727000 },\n  "attempts": ${attempts},\n  "dead_letter": { "reason": "failed", "failed_at": 1749132730000, "original_queue": "orders", "attempts": ${deadLetterAttempts} }\n}\n`;

test('the integer literal a wrong-type message advises draws no wrong-type where it is written', () => {
  for (const written of ['1.5', '2.0', '1e3', '1.2345678901234568e+29', '9.5e20', '1e21', '1.7e308']) {
    for (const [field, text, advised] of [
      ['attempts', envelope(written, '3'), (example: string) => envelope(example, '3')],
      ['dead_letter.attempts', envelope('3', written), (example: string) => envelope('3', example)],
    ] as const) {
      const finding = analyzeText(text).find((d) => d.code === 'wrong-type' && d.message.startsWith(`"${field}"`));
      assert.ok(finding, `${field} ${written}: no wrong-type`);
      const example = /must be an integer literal such as (\S+?),? not/.exec(finding.message)?.[1];
      assert.ok(example, finding.message);
      const after = analyzeText(advised(example)).filter((d) => d.code === 'wrong-type');
      assert.deepEqual(after.map((d) => d.message), [], `${field} ${written}: advised ${example}`);
    }
  }
});

test('a negative count written with a fraction gets no fix: -1.0 as -1 would only trade wrong-type for invalid-value', () => {
  for (const [field, text] of [
    ['attempts', envelope('-1.0', '3')],
    ['dead_letter.attempts', envelope('3', '-2e0')],
  ] as const) {
    const doc = parseText(text);
    const findings = analyze(doc).filter((d) => d.code === 'wrong-type' && d.message.startsWith(`"${field}"`));
    assert.equal(findings.length, 1, field);
    assert.deepEqual(codeActions(doc, findings, stableFresh()).map((a) => a.title), [], field);
  }
  // A count that is no negative keeps its fix.
  const doc = parseText(envelope('2.0', '3'));
  assert.deepEqual(codeActions(doc, analyze(doc).filter((d) => d.code === 'wrong-type'), stableFresh()).map((a) => a.title), ['Write "attempts" as the integer literal 2']);
});
