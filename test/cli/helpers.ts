/**
 * Shared helpers for the CLI tests: run the built dist/cli.js as a child process (what `babelq`
 * runs), in temporary directories the tests create and remove.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { FileReport } from '../../cli/diagnostics';

export const REPO_ROOT = join(__dirname, '..', '..');
export const CLI_PATH = join(REPO_ROOT, 'dist', 'cli.js');

/**
 * Fails with a clear message when dist/cli.js is missing or older than a source it was bundled
 * from, so no test passes on stale code. The sources come from the bundle's source map: other
 * core files (hover, completion) change all the time and do not make the CLI stale.
 */
export function assertCliBuilt(): void {
  assert.ok(existsSync(CLI_PATH), `${CLI_PATH} is missing: run \`npm run build\` first (npm test does).`);
  const mapPath = `${CLI_PATH}.map`;
  // A production build has no source map; then only the existence check applies.
  if (!existsSync(mapPath)) return;
  const built = statSync(CLI_PATH).mtimeMs;
  const { sources } = JSON.parse(readFileSync(mapPath, 'utf8')) as { sources: string[] };
  const newer = sources
    .filter((source) => source.endsWith('.ts') && !source.includes('node_modules'))
    .map((source) => join(dirname(CLI_PATH), source))
    .filter((file) => existsSync(file) && statSync(file).mtimeMs > built);
  assert.deepEqual(newer, [], 'dist/cli.js is older than these sources: run `npm run build` first (npm test does).');
}

export interface RunResult {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** The environment without FORCE_COLOR, which decides colour alone when set (to '' as well). */
function withoutForceColor(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const { FORCE_COLOR: _forced, ...rest } = env;
  return rest;
}

/** Runs `babelq <args>` in `cwd` and waits for it. NO_COLOR is cleared and FORCE_COLOR left out so colour depends on the TTY alone. */
export function babelq(args: readonly string[], cwd: string, env: Record<string, string> = {}, input?: string): RunResult {
  const result = spawnSync(process.execPath, [CLI_PATH, ...args], {
    cwd,
    encoding: 'utf8',
    ...(input !== undefined ? { input } : {}),
    env: { ...withoutForceColor(process.env), NO_COLOR: '', ...env },
    timeout: 30_000,
  });
  if (result.error) throw result.error;
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** Runs `babelq lint --format json <args>` and parses stdout (asserting it is one JSON document). */
export function lintJson(args: readonly string[], cwd: string): { result: RunResult; reports: FileReport[] } {
  const result = babelq(['lint', '--format', 'json', ...args], cwd);
  let reports: FileReport[];
  try {
    reports = JSON.parse(result.stdout) as FileReport[];
  } catch {
    assert.fail(`stdout is not JSON (exit ${result.status}):\n${result.stdout}\nstderr:\n${result.stderr}`);
  }
  return { result, reports };
}

/** Creates a temporary directory holding `files` (relative path → text or bytes). */
export function makeTree(files: Readonly<Record<string, string | Uint8Array>>): string {
  const root = mkdtempSync(join(tmpdir(), 'babelq-cli-'));
  writeTree(root, files);
  return root;
}

/** Adds files to an existing directory. */
export function writeTree(root: string, files: Readonly<Record<string, string | Uint8Array>>): void {
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), content);
  }
}

/** Removes a directory made by makeTree (nothing when `before` failed before making it). */
export function removeTree(root: string | undefined): void {
  if (root) rmSync(root, { recursive: true, force: true });
}

/**
 * A valid envelope (no diagnostics at all), pretty-printed with two spaces. `extra` is appended
 * after `"attempts": 0` (start it with a comma); `"attempts"` sits on line 11 (zero-based).
 */
export function envelope(options: { extra?: string; data?: string; lang?: string; jobKey?: string } = {}): string {
  return `{
  "${options.jobKey ?? 'job'}": "urn:babel:orders:created",
  "trace_id": "7b3f9c2a-e41d-4f88-9b2a-1c0d5e6f7a8b",
  "data": ${options.data ?? '{ "order_id": 1042 }'},
  "meta": {
    "id": "f1e2d3c4-b5a6-4789-90ab-cdef01234567",
    "queue": "orders",
    "lang": "${options.lang ?? 'php'}",
    "schema_version": 1,
    "created_at": 1749132727000
  },
  "attempts": 0${options.extra ?? ''}
}
`;
}

/** An envelope whose only problem is a top-level "timestamp" key at 12:2-12:13 (forbidden-key, error). */
export const FORBIDDEN_TIMESTAMP = envelope({ extra: ',\n  "timestamp": 1749132727000' });
/** An envelope whose only problem is the `urn` alias at 1:2-1:7 (urn-alias, warning). */
export const URN_ALIAS_ONLY = envelope({ jobKey: 'urn' });
