/**
 * mergeSameActions (server/convert.ts): one action per fix, listing every finding that offers it,
 * in the order the findings came. Checked against the plain pairwise version it replaced on varied
 * inputs (same output, order and identities included), and on one fix offered by 200,000 findings,
 * which the pairwise version took tens of seconds over (each finding compared with every one listed).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { CodeAction, Diagnostic } from 'vscode-languageserver/node';
import { random } from '../../bench/generate';
import { mergeSameActions } from '../../server/convert';

/** The pairwise version: each diagnostic looked for in the list gathered so far. */
function pairwise(actions: readonly CodeAction[]): CodeAction[] {
  const byFix = new Map<string, CodeAction>();
  for (const action of actions) {
    const key = JSON.stringify([action.title, action.kind, action.edit]);
    const same = byFix.get(key);
    if (!same) byFix.set(key, { ...action, diagnostics: [...(action.diagnostics ?? [])] });
    else for (const diagnostic of action.diagnostics ?? []) if (!same.diagnostics!.includes(diagnostic)) same.diagnostics!.push(diagnostic);
  }
  return [...byFix.values()];
}

const range = (line: number) => ({ start: { line, character: 0 }, end: { line, character: 3 } });
const edit = (n: number) => ({ changes: { 'file:///a.babel.json': [{ range: range(n), newText: `v${n}` }] } });

function actionsFor(seed: number): CodeAction[] {
  const next = random(seed);
  const pick = (n: number) => Math.floor(next() * n);
  // A pool of findings, some offered by several actions; equal-looking but distinct objects too.
  const pool: Diagnostic[] = Array.from({ length: 1 + pick(12) }, (_, i) => ({ range: range(i % 3), message: `finding ${i % 4}`, code: 'payload-schema' }));
  return Array.from({ length: pick(40) }, () => {
    const fix = pick(4);
    const diagnostics = Array.from({ length: pick(5) }, () => pool[pick(pool.length)]);
    const action: CodeAction = { title: `fix ${fix % 3}`, kind: fix === 3 ? 'source.fixAll' : 'quickfix', edit: edit(fix % 2) };
    if (next() < 0.8) action.diagnostics = diagnostics;
    if (next() < 0.3) action.isPreferred = next() < 0.5;
    return action;
  });
}

test('the same actions as the pairwise version, in the same order, listing the same findings in the same order', () => {
  for (let seed = 1; seed <= 2000; seed++) {
    const actions = actionsFor(seed);
    const expected = pairwise(actions);
    const merged = mergeSameActions(actions);
    assert.deepEqual(merged, expected, `seed ${seed}`);
    // The very finding objects, not copies.
    merged.forEach((action, i) => action.diagnostics?.forEach((diagnostic, j) => assert.equal(diagnostic, expected[i].diagnostics![j], `seed ${seed}`)));
  }
});

test('one fix offered by 200,000 findings is merged into one action listing each once, well within a generous bound', () => {
  const shared = edit(0);
  const findings: Diagnostic[] = Array.from({ length: 200_000 }, (_, i) => ({ range: range(i), message: `missing field ${i}`, code: 'payload-schema' }));
  // Each finding offers the fix, and some twice.
  const actions: CodeAction[] = findings.map((diagnostic, i) => ({ title: 'Add the missing required data fields', kind: 'quickfix', edit: shared, diagnostics: i > 0 && i % 10 === 0 ? [diagnostic, findings[i >> 1]] : [diagnostic] }));
  const started = performance.now();
  const merged = mergeSameActions(actions);
  const elapsed = performance.now() - started;
  assert.equal(merged.length, 1);
  assert.equal(merged[0].diagnostics!.length, findings.length);
  assert.ok(merged[0].diagnostics!.every((diagnostic, i) => diagnostic === findings[i]), 'each finding once, in the order they came');
  // The pairwise version needed about 20 s here (2 · 10^10 comparisons); this bound is far above a linear pass.
  assert.ok(elapsed < 8000, `${elapsed.toFixed(0)} ms`);
});
