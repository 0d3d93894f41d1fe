/**
 * What the in-process scenarios of bench/run.ts measure: the analysis entry points, bundled by
 * esbuild exactly as dist/server.js and dist/cli.js bundle them (const enums inlined, one module).
 * Measuring the TypeScript sources through a per-file loader instead would time a build nobody
 * runs: there every `Flag.*` and `Kind.*` in the hot loops is a property lookup.
 */
export { analyzeText } from '../core/rules/analyze';
export { DEFAULT_SETTINGS } from '../core/rules/settings/settings';
export { loadRegistry } from '../workspace/registry-loader';
