/**
 * After a keystroke in a string or number of the payload, the column check reads only the values on
 * the way to the edited one when it vouched for the previous version (`checkAround` in
 * core/registry/column-check.ts). Checked here against a fresh analysis: random edits, one after
 * another, of values the schema constrains (a pattern, an enum, a minimum, a minimum length), some
 * breaking the schema and some mending it, each version's findings equal to a fresh analysis'.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import fc from 'fast-check';
import { envelopeText, writeRegistry } from '../../../bench/generate';
import { reparse } from '../../../core/parse/incremental';
import { parseText } from '../../../core/parse/parser';
import { analyze, analyzeDocument, type Analysis } from '../../../core/rules/analyze';
import { DEFAULT_SETTINGS } from '../../../core/rules/settings/settings';
import type { ParsedText } from '../../../core/parse/document';
import { loadRegistry } from '../../../workspace/registry-loader';

const dir = mkdtempSync(join(tmpdir(), 'babelq-around-'));
after(() => rmSync(dir, { recursive: true, force: true }));
writeRegistry(dir);
const registry = loadRegistry(join(dir, 'registry.json'), dir).state;
const base = envelopeText(40_000);

/** Where a constrained value's text starts and ends, and what may be written there instead. */
interface Site {
  readonly at: number;
  readonly length: number;
  readonly replacements: readonly string[];
}

function sites(text: string): Site[] {
  const found: Site[] = [];
  const add = (pattern: RegExp, replacements: readonly string[]) => {
    // The value as written is one of the choices, so that later edits mend what earlier ones broke.
    for (const match of text.matchAll(pattern)) found.push({ at: match.index! + match[0].length - match[1].length, length: match[1].length, replacements: [match[1], ...replacements] });
  };
  add(/"order_id": "(ord-\d+)/g, ['ord-7', 'ord-x', 'ORD-1', 'ord-123']);
  add(/"loyalty_tier": "([a-z]+)/g, ['gold', 'tin', 'silver', 'Gold']);
  add(/"quantity": (\d+)/g, ['0', '3', '12', '1']);
  add(/"placed_at": "([^"]+)/g, ['2026-12-01T10:00:00Z', '2026-12-01', '2026-12-01T10:00:00.123Z']);
  return found;
}

function codes(analysis: readonly { code: string; offset: number; end: number; message: string }[]): string[] {
  return analysis.filter((diagnostic) => diagnostic.code === 'payload-schema' || diagnostic.code === 'validator-divergence').map((diagnostic) => `${diagnostic.code} ${diagnostic.offset}-${diagnostic.end} ${diagnostic.message}`);
}

/**
 * Types `edits` (a site, a choice of its replacements) one after another into the base text, each
 * version reparsed and analysed from the one before; each version's schema findings must be a
 * fresh analysis'. `seen` hears the site edited and the findings before and after.
 */
function typeAndCompare(all: readonly Site[], edits: readonly (readonly [number, number])[], seen: (which: number, before: number, now: number) => void): void {
  let text = base;
  let doc: ParsedText = parseText(text);
  let previous: Analysis = analyzeDocument(doc, DEFAULT_SETTINGS, registry);
  let offsets = all.map((site) => ({ ...site }));
  for (const [which, pick] of edits) {
    const site = offsets[which];
    const replacement = site.replacements[pick % site.replacements.length];
    const next = text.slice(0, site.at) + replacement + text.slice(site.at + site.length);
    if (next === text) continue;
    const delta = replacement.length - site.length;
    offsets = offsets.map((other) => (other.at > site.at ? { ...other, at: other.at + delta } : other.at === site.at ? { ...other, length: replacement.length } : other));
    const reparsed = reparse(doc, next);
    assert.ok(reparsed, 'a value edit is reparsed incrementally');
    const incremental = analyzeDocument(reparsed, DEFAULT_SETTINGS, registry, previous);
    const fresh = analyze(parseText(next), DEFAULT_SETTINGS, registry);
    assert.deepEqual(codes(incremental.diagnostics), codes(fresh));
    seen(which, codes(previous.diagnostics).length, codes(fresh).length);
    text = next;
    doc = reparsed;
    previous = incremental;
  }
}

/** Up to twelve edits, each a site of `count` and a choice among its replacements. */
const editsOf = (count: number) => fc.array(fc.tuple(fc.nat({ max: count - 1 }), fc.nat({ max: 4 })), { minLength: 1, maxLength: 12 });

test('a keystroke checked around the edited value finds what a fresh check finds (seeded)', () => {
  const every = sites(base);
  assert.ok(every.length > 40, `only ${every.length} sites`);
  // Eight sites spread over the payload, so that edits often return to one they broke.
  const all = Array.from({ length: 8 }, (_, i) => every[Math.floor((i * every.length) / 8)]).sort((a, b) => a.at - b.at);
  let broken = 0;
  let stayedValid = 0;
  let mended = 0;
  fc.assert(
    fc.property(editsOf(all.length), (edits) =>
      typeAndCompare(all, edits, (_which, before, now) => {
        if (before === 0 && now > 0) broken++;
        if (before === 0 && now === 0) stayedValid++;
        if (before > 0 && now === 0) mended++;
      }),
    ),
    { seed: 20261201, numRuns: 60, includeErrorInReport: true },
  );
  // Checked around the edit: a valid version edited into an invalid one and into a valid one; and
  // mended back (a full check), or the property says little.
  assert.ok(broken > 10 && stayedValid > 10 && mended > 10, `broken ${broken}, stayed valid ${stayedValid}, mended ${mended}`);
});

test('a keystroke outside the payload (in meta) leaves its verdict as a fresh check finds it (seeded)', () => {
  const payload = sites(base);
  const meta: Site[] = [];
  for (const match of base.matchAll(/"schema_version": (\d+)|"queue": "([a-z]+)/g)) {
    const value = match[1] ?? match[2];
    meta.push({ at: match.index! + match[0].length - value.length, length: value.length, replacements: match[1] ? [value, '2', '1'] : [value, 'billing', 'orders'] });
  }
  assert.ok(meta.length >= 2, `only ${meta.length} sites in meta`);
  const all = [...meta, payload[3], payload[Math.floor(payload.length / 2)]].sort((a, b) => a.at - b.at);
  let outsideWhileValid = 0;
  let outsideWhileBroken = 0;
  fc.assert(
    fc.property(editsOf(all.length), (edits) =>
      typeAndCompare(all, edits, (which, before) => {
        if (!meta.includes(all[which])) return;
        if (before === 0) outsideWhileValid++;
        else outsideWhileBroken++;
      }),
    ),
    { seed: 20261203, numRuns: 60, includeErrorInReport: true },
  );
  assert.ok(outsideWhileValid > 10 && outsideWhileBroken > 10, `outside while valid ${outsideWhileValid}, while broken ${outsideWhileBroken}`);
});
