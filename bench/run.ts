/**
 * `npm run bench`: every performance target of the engine, the server and the CLI, measured in one run against its anchors
 * (JSON.parse, vscode-json-languageservice, jsonc-parser, ajv-cli) on the same generated inputs,
 * printed with PASS/FAIL and written to bench/README.md. Each scenario is a file of bench/scenarios/.
 *
 *   node --expose-gc --import tsx bench/run.ts [--quick] [--no-readme] [--only=<scenario,...>]
 *
 * Inputs are generated (deterministically) under bench/out/, which git ignores.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { RegistryState } from '../core/registry/types';
import { findFixtureFiles } from '../workspace/fixture-files';
import { anchorText } from './anchor';
import { asReceived, engine, FILES, hasGc, LARGE_WORKSPACE, LARGE_WORKSPACE_FILES, log, ONLY, QUICK, results, ROOT, runs, WORKSPACE, WORKSPACE_FILES, WRITE_README } from './context';
import { envelopeText, tinyText, writeRegistry, writeWorkspace } from './generate';
import { now } from './measure';
import { loadAverage, machine, writeBenchReadme } from './report';
import { analysisScenarios } from './scenarios/analysis';
import { cliScenario } from './scenarios/cli';
import { cliScaleScenario } from './scenarios/cli-scale';
import { compatScenario } from './scenarios/compat';
import { serverScenarios } from './scenarios/server';
import { buildProduction, sizeScenario } from './scenarios/sizes';
import { workspaceScenario } from './scenarios/workspace';

const { analyzeText, DEFAULT_SETTINGS, loadRegistry } = engine;

function prepare(): { texts: Record<string, string>; registry: RegistryState } {
  mkdirSync(FILES, { recursive: true });
  writeRegistry(FILES);
  const texts: Record<string, string> = {
    tiny: asReceived(tinyText(1)),
    '50 KB': asReceived(envelopeText(50 * 1024, 2)),
    '5 MB': asReceived(envelopeText(5 * 1024 * 1024, 3)),
    '20 MB': asReceived(envelopeText(20 * 1024 * 1024, 4)),
  };
  for (const [name, text] of Object.entries(texts)) writeFileSync(join(FILES, `${name.replace(' ', '')}.babel.json`), text);
  const registry = loadRegistry(join(FILES, 'registry.json'), FILES).state;
  if (registry.kind !== 'loaded') throw new Error('the benchmark registry did not load');
  return { texts, registry };
}

/** Our analysis must find nothing in the generated inputs, and the anchor must really validate. */
async function sanityChecks(texts: Record<string, string>, registry: RegistryState): Promise<void> {
  for (const [name, text] of Object.entries(texts)) {
    if (name === '20 MB') continue;
    const found = analyzeText(text, DEFAULT_SETTINGS, registry);
    if (found.length > 0) throw new Error(`the ${name} input is not clean: ${JSON.stringify(found.slice(0, 3))}`);
  }
  const broken = texts.tiny.replace('"attempts": 0', '"attempts": "zero"');
  if ((await anchorText(broken)).length === 0) throw new Error('the anchor does not validate against the envelope schema');
  const ours = analyzeText(broken.replace('"orders": [', '"orders": 1, "x": ['), DEFAULT_SETTINGS, registry);
  if (!ours.some((d) => d.code === 'payload-schema')) throw new Error('our analysis does not validate the payload schema');
}

async function main(): Promise<void> {
  const started = now();
  const loadBefore = loadAverage();
  if (!hasGc) log('(run with node --expose-gc for steadier numbers)');
  log(`Machine: ${machine()}`);
  log('Preparing inputs in bench/out/ …');
  const { texts, registry } = prepare();
  const workspaces: [string, number][] = [];
  if (runs('cli') || runs('server')) workspaces.push([WORKSPACE, WORKSPACE_FILES]);
  if (runs('cli')) workspaces.push([LARGE_WORKSPACE, LARGE_WORKSPACE_FILES]);
  for (const [folder, count] of workspaces) {
    if (!existsSync(join(folder, 'registry.json')) || (await findFixtureFiles(folder, { limit: count + 1 })).length !== count) {
      writeWorkspace(folder, count);
      writeRegistry(folder);
    }
  }
  await sanityChecks(texts, registry);
  // What is measured must be right: the fast paths against their references (test/oracle/differential.ts),
  // in a process of its own so that it leaves nothing behind in this one.
  const differential = spawnSync(process.execPath, ['--import', 'tsx', join(ROOT, 'test/oracle/differential.ts'), QUICK ? '300' : '1500'], { encoding: 'utf8' });
  if (differential.status !== 0) throw new Error(`the differential check failed:\n${differential.stderr || differential.stdout}`);
  log(`Differential check: ${differential.stdout.trim()}`);
  if (runs('server') || runs('cli') || runs('sizes') || runs('workspace') || runs('compat')) buildProduction();
  if (runs('analysis')) await analysisScenarios(texts, registry);
  if (runs('server')) await serverScenarios(texts);
  if (runs('cli')) {
    cliScenario();
    try {
      cliScaleScenario();
    } finally {
      // Written again by the next run: 100,000 files left in the project folder slow every tool
      // that walks it, vsce among them (it lists every file before .vscodeignore keeps a few):
      // `npm run package` and the .vsix test took 77 s with them, 8 s without.
      rmSync(LARGE_WORKSPACE, { recursive: true, force: true });
    }
  }
  if (runs('workspace')) await workspaceScenario();
  if (runs('compat')) await compatScenario();
  if (runs('sizes')) await sizeScenario();
  const failed = results.targets.filter((t) => !t.pass);
  log(`\n${results.targets.length - failed.length} of ${results.targets.length} targets pass${failed.length ? `; failing: ${failed.map((t) => t.name).join('; ')}` : ''}.`);
  if (WRITE_README && !ONLY) {
    writeBenchReadme(join(__dirname, 'README.md'), { ...results, started, loadBefore, loadAfter: loadAverage() });
    log(`Wrote ${relative(process.cwd(), join(__dirname, 'README.md'))}.`);
  }
  log(`Took ${((now() - started) / 1000).toFixed(0)} s.`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
