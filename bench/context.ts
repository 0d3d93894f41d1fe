/**
 * What every benchmark scenario shares: where the inputs and the production bundles are, the
 * options of the run, the engine bundled as the shipped bundles are, and the results reported
 * (targets with PASS/FAIL, figures for the record, the tables of bench/README.md).
 */
import { join, resolve } from 'node:path';
import * as esbuild from 'esbuild';
import type { Info, Target } from './report';

export const ROOT = resolve(__dirname, '..');
export const OUT = join(__dirname, 'out');
export const FILES = join(OUT, 'files');
export const WORKSPACE = join(OUT, 'workspace-10k');
export const WORKSPACE_FILES = 10_000;
/** The same kind of workspace ten times larger: lint's cost as a repository grows (bench/scenarios/cli-scale.ts). */
export const LARGE_WORKSPACE = join(OUT, 'workspace-100k');
export const LARGE_WORKSPACE_FILES = 100_000;
export const ENVELOPE_SCHEMA = join(ROOT, 'schemas/envelope.schema.json');
/** Where the production bundles are built (`npm run package`'s build, into a staging copy so dist/ is left alone). */
export const STAGE = join(OUT, 'vsix');
/** The language server as the .vsix ships it: what the server scenarios start. */
export const SHIPPED_SERVER = join(STAGE, 'dist/server.js');
/** The server's bundle itself, which SHIPPED_SERVER loads with its code cache (server/start.ts). */
export const SHIPPED_SERVER_BUNDLE = join(STAGE, 'dist/server-main.js');
/** `babelq` as the npm package ships it (its prepack builds the same production bundles, code cache included): what the CLI scenarios run. */
export const SHIPPED_CLI = join(STAGE, 'dist/cli.js');

export const QUICK = process.argv.includes('--quick');
export const WRITE_README = !process.argv.includes('--no-readme');
export const ONLY = process.argv.find((arg) => arg.startsWith('--only='))?.slice('--only='.length).split(',');

/** bench/engine.ts bundled as the shipped bundles are (see there for why), built before anything is measured. */
function loadEngine(): typeof import('./engine') {
  const outfile = join(OUT, 'engine.js');
  esbuild.buildSync({ entryPoints: [join(__dirname, 'engine.ts')], outfile, bundle: true, platform: 'node', format: 'cjs', target: 'node20', logLevel: 'warning' });
  return require(outfile) as typeof import('./engine');
}
export const engine = loadEngine();

const gc = (globalThis as { gc?: (options?: { type: 'minor' | 'major' }) => void }).gc;
export const hasGc = gc !== undefined;
/**
 * A minor collection before each sample of a large input: what the previous contender left alive
 * in the young generation (a 5 MB parse tree is tens of megabytes) is then not evacuated in the
 * middle of the next contender's run and charged to it. A full collection would also throw away
 * optimised code (V8 deoptimises code whose embedded objects a forced full collection clears).
 */
export const emptyYoungGeneration = () => gc?.({ type: 'minor' });

/** What the run found, for the console and bench/README.md. */
export const results = { targets: [] as Target[], infos: [] as Info[], scaling: [] as string[], anchorsTable: [] as string[] };

export function runs(scenario: string): boolean {
  return !ONLY || ONLY.includes(scenario);
}

export function log(line = ''): void {
  process.stdout.write(`${line}\n`);
}

/** `floor`: what Node itself costs for the same work, and whether that alone misses the goal. */
export function target(name: string, measured: string, goal: string, pass: boolean, floor?: { readonly text: string; readonly missesGoal: boolean }): void {
  results.targets.push({ name, measured, goal, pass, ...(floor ? { floor: floor.text, floorMissesGoal: floor.missesGoal } : {}) });
  log(`  ${pass ? 'PASS' : 'FAIL'}  ${name}: ${measured} (target ${goal}${floor ? `; floor ${floor.text}` : ''})`);
}

export function info(name: string, value: string): void {
  results.infos.push({ name, value });
  log(`  info  ${name}: ${value}`);
}

export const ratio = (value: number) => `${value.toFixed(2)}×`;

/**
 * The text as an editor or `babelq` receives it: decoded from UTF-8 bytes into one flat string.
 * A generated text is a tree of concatenated pieces that V8 flattens on first read and then reads
 * through an extra indirection until a collection happens to remove it, which would time the
 * generator, not the contenders (for this analysis about a sixth of its time).
 */
export function asReceived(text: string): string {
  return Buffer.from(text, 'utf8').toString('utf8');
}
