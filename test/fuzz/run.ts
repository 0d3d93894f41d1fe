/**
 * The long fuzz run of core/ (`npm run fuzz`): the bounded run's properties at full scale —
 * nesting up to 100,000 levels, strings and numbers up to 10 MB — plus every seed truncated at
 * every offset and the fixed extremes. Prints the counts and the longest analysis per size bucket.
 *
 *   FUZZ_RUNS=5000 FUZZ_SEED=1 npm run fuzz   (defaults: 5,000 runs per section, seed 20260314)
 */
import { spawnSync } from 'node:child_process';
import fc from 'fast-check';
import { applyMutations, caseArbitrary, deepText, FuzzStats, LONG_SCALE, loadRegistryStates, loadSeeds, parsesAsJson, runCore, soupArbitrary } from './harness';

const runs = Number(process.env.FUZZ_RUNS ?? 5_000);
const seed = Number(process.env.FUZZ_SEED ?? 20260314);
const seeds = loadSeeds();
const registries = loadRegistryStates();
const stats = new FuzzStats();
const started = Date.now();

function section(name: string, body: () => void): void {
  const t = Date.now();
  body();
  console.log(`${name}: done in ${((Date.now() - t) / 1000).toFixed(1)} s (${stats.cases} cases so far)`);
}

const ENVELOPE_HEAD = '{"job":"urn:babel:orders:created","trace_id":"879d3f59-ee5b-4906-a1ca-d48ee72daa1d","data":{"items":';
const ENVELOPE_TAIL = '},"meta":{"id":"38e69665-58a3-4fd5-9410-76043454db83","queue":"orders","lang":"php","schema_version":1,"created_at":1773480413412},"attempts":0}';
const TEN_MB = 10 * 1024 * 1024;

section('extremes (100,000 levels; 10 MB strings and numbers)', () => {
  const extremes = [
    deepText(100_000, 'array', true),
    deepText(100_000, 'object', true),
    deepText(100_000, 'mixed', true),
    deepText(100_000, 'array', false),
    deepText(100_000, 'object', false),
    ENVELOPE_HEAD + deepText(100_000, 'array', true) + ENVELOPE_TAIL,
    ENVELOPE_HEAD + deepText(100_000, 'object', true) + ENVELOPE_TAIL,
    ENVELOPE_HEAD + deepText(100_000, 'object', false),
    ENVELOPE_HEAD + `"${'a'.repeat(TEN_MB)}"` + ENVELOPE_TAIL,
    ENVELOPE_HEAD + `"${'\\ud800'.repeat(TEN_MB / 6)}"` + ENVELOPE_TAIL,
    ENVELOPE_HEAD + `"${'a'.repeat(TEN_MB)}` + ENVELOPE_TAIL,
    ENVELOPE_HEAD + '1' + '9'.repeat(TEN_MB) + ENVELOPE_TAIL,
    ENVELOPE_HEAD + '0.' + '9'.repeat(TEN_MB) + ENVELOPE_TAIL,
    ENVELOPE_HEAD + '[' + '1,'.repeat(TEN_MB / 2) + '1]' + ENVELOPE_TAIL,
    '\ufeff' + '\u0000'.repeat(TEN_MB),
    '\r\n'.repeat(TEN_MB / 2),
  ];
  for (const [index, text] of extremes.entries()) {
    for (const registry of [0, 1]) runCore(text, { registries, stats, offsets: [text.length >> 1, 7, text.length - 3], registry });
    process.stdout.write(`  extreme ${index + 1}/${extremes.length}\r`);
  }
});

section('every seed up to 4 KB truncated at every offset', () => {
  for (const [index, s] of seeds.entries()) {
    if (s.text.length > 4096) continue;
    for (let end = 0; end <= s.text.length; end++) runCore(s.text.slice(0, end), { registries, stats, offsets: [end >> 1, end], registry: end });
    process.stdout.write(`  seed ${index + 1}/${seeds.length}\r`);
  }
});

section(`mutated fixtures (${runs} runs)`, () => {
  fc.assert(
    fc.property(caseArbitrary(seeds.length, registries.length, LONG_SCALE), (c) => {
      runCore(applyMutations(seeds[c.seed].text, c.mutations), { registries, stats, offsets: c.offsets, registry: c.registry, settings: c.settings, tabSize: c.tabSize, insertSpaces: c.insertSpaces });
    }),
    { seed, numRuns: runs, includeErrorInReport: true },
  );
});

section(`fixtures mutated value by value, still JSON (${runs} runs)`, () => {
  const valid = seeds.filter((s) => parsesAsJson(s.text));
  fc.assert(
    fc.property(caseArbitrary(valid.length, registries.length, LONG_SCALE, { keepJson: true }), (c) => {
      runCore(applyMutations(valid[c.seed].text, c.mutations), { registries, stats, offsets: c.offsets, registry: c.registry, settings: c.settings, tabSize: c.tabSize, insertSpaces: c.insertSpaces });
    }),
    { seed: seed + 2, numRuns: runs, includeErrorInReport: true },
  );
});

section(`token soup (${Math.ceil(runs / 4)} runs)`, () => {
  fc.assert(
    fc.property(soupArbitrary(), fc.array(fc.nat(), { minLength: 1, maxLength: 3 }), fc.nat(), (text, offsets, registry) => runCore(text, { registries, stats, offsets, registry })),
    { seed: seed + 1, numRuns: Math.ceil(runs / 4), includeErrorInReport: true },
  );
});

section(`the real runtimes as the oracle (${runs * 4} envelopes per SDK)`, () => {
  // The differential of test/oracle/runtimes.test.ts, at fuzz scale (ORACLE_CASES); its output says which runtimes ran.
  const result = spawnSync(process.execPath, ['--import', 'tsx', '--test', 'test/oracle/runtimes.test.ts'], {
    stdio: 'inherit',
    env: { ...process.env, ORACLE_CASES: process.env.ORACLE_CASES ?? String(runs * 4), ORACLE_SEED: String(seed) },
  });
  if (result.status !== 0) throw new Error('the runtime differential failed (see its output above)');
});

console.log(`\nfuzz: seed ${seed}, ${((Date.now() - started) / 1000).toFixed(0)} s, no property failed`);
console.log(stats.table());
