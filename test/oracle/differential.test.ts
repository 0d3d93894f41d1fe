/**
 * The fast paths of the parser and the rules (columns, incremental reparse, plainValue, the
 * parser's per-token flags) against the reference implementations in test/oracle/differential.ts, on a
 * seeded sample of hostile and realistic texts. `npm run bench` runs the same check at full size.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { runDifferential } from './differential';

test('the fast paths agree with the reference implementations (seeded, 300 mutated texts and edits)', () => {
  const checked = runDifferential(300);
  assert.ok(checked > 3000, `only ${checked} checks ran`);
});
