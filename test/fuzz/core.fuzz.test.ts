/**
 * The bounded fuzz run of core/ (seeded, a few thousand cases, well under a minute): see
 * harness.ts for the mutations and the properties. The long run is `npm run fuzz` (run.ts).
 */
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { BOUNDED_SCALE, caseArbitrary, FuzzStats, loadRegistryStates, loadSeeds, runCore, soupArbitrary, applyMutations, parsesAsJson } from './harness';

const SEED = 20260314;
const seeds = loadSeeds();
const registries = loadRegistryStates();
const stats = new FuzzStats();

describe('core fuzzing (bounded, seeded)', () => {
  test('mutated fixtures: no exception, within budget, ranges inside, fixes and formatting keep JSON', () => {
    fc.assert(
      fc.property(caseArbitrary(seeds.length, registries.length, BOUNDED_SCALE), (c) => {
        const text = applyMutations(seeds[c.seed].text, c.mutations);
        runCore(text, { registries, stats, offsets: c.offsets, registry: c.registry, settings: c.settings, tabSize: c.tabSize, insertSpaces: c.insertSpaces });
      }),
      { seed: SEED, numRuns: 2500, includeErrorInReport: true },
    );
  });

  test('fixtures mutated value by value (still JSON): quick fixes, formatting and encoders on valid input', () => {
    const valid = seeds.map((seed, index) => ({ seed, index })).filter(({ seed }) => parsesAsJson(seed.text));
    fc.assert(
      fc.property(caseArbitrary(valid.length, registries.length, BOUNDED_SCALE, { keepJson: true }), (c) => {
        const text = applyMutations(valid[c.seed].seed.text, c.mutations);
        runCore(text, { registries, stats, offsets: c.offsets, registry: c.registry, settings: c.settings, tabSize: c.tabSize, insertSpaces: c.insertSpaces });
      }),
      { seed: SEED + 2, numRuns: 1500, includeErrorInReport: true },
    );
  });

  test('token soup', () => {
    fc.assert(
      fc.property(soupArbitrary(), fc.array(fc.nat(), { minLength: 1, maxLength: 3 }), fc.nat(), (text, offsets, registry) => {
        runCore(text, { registries, stats, offsets, registry });
      }),
      { seed: SEED + 1, numRuns: 1000, includeErrorInReport: true },
    );
  });

  test('every fixture truncated at every offset (small example envelopes)', () => {
    const small = seeds.filter((seed) => seed.name.startsWith('examples/') && seed.name.endsWith('.babel.json') && seed.text.length <= 1500);
    for (const seed of small) {
      for (let end = 0; end <= seed.text.length; end++) {
        runCore(seed.text.slice(0, end), { registries, stats, offsets: [end >> 1], registry: 1 + (end % 2), light: true });
      }
    }
  });

  test('the figures', (t) => {
    for (const line of stats.table().split("\n")) t.diagnostic(line);
  });
});
