/**
 * `babelq lint --concurrency`: the fixtures of one run split across worker threads, each linting a
 * contiguous share in walk order with a context of its own (./lint-file.ts), so the output is the
 * one a single thread prints. What each share touched (its files, the suppressions that matched,
 * the registries and babelq.json files found) is replayed into the main thread's context, which
 * reports registries, configs and stale suppressions after the fixtures as it always does.
 */
import { availableParallelism } from 'node:os';
import { dirname } from 'node:path';
// The type alone: the module is loaded where threads start (lintInThreads), not at every start.
import type { Worker } from 'node:worker_threads';
import type { FileReport } from './diagnostics';
import { CliError, quoted } from './errors';
import { lintContext, lintFileBytes, namedFileKind, readFixture, settingsFor, type LintContext, type LintSetup } from './lint-file';
import type { InputFile } from './paths';
import { LINT_SHARE_ARGUMENT } from './lint-share-role';
import { joinSharedState, newSharedState } from './young-generation';

/** What a share request's `role` holds: runAsLintShare lints only what carries it. */
export const LINT_WORKER_ROLE = 'babelq-lint-share';

/**
 * Below this many fixtures per thread a second thread costs more than it saves: each thread loads
 * the bundle and warms V8's compilers up again, which one thread does once. Measured on 2 cores
 * (bench/scenarios/cli.ts and cli-scale.ts, figures in bench/README.md): 10,000 fixtures were
 * slower in two threads than in one, 100,000 faster.
 */
export const MIN_FIXTURES_PER_THREAD = 30_000;

/** The most threads `auto` starts, whatever the machine has: past it, reading the files is the bound. */
const MAX_AUTO_THREADS = 4;

/**
 * A number asked for is held to the cores, or to MAX_AUTO_THREADS on a machine with fewer: each
 * thread reads the configs, suppressions and registries again, and a hundred threads on 2 cores
 * took minutes and gigabytes where one thread took seconds.
 */
const maxThreads = (cores: number) => Math.max(cores, MAX_AUTO_THREADS);

/** `--concurrency` as given: a number of threads, `auto` (by fixtures and cores) or `off` (one thread). */
export type Concurrency = number | 'auto' | 'off';

/** Reads `--concurrency`'s value; a usage error names what it accepts. */
export function concurrencyOption(value: string | true | undefined): Concurrency {
  if (value === undefined) return 'auto';
  if (value === 'auto' || value === 'off') return value;
  if (typeof value === 'string' && /^[1-9]\d{0,2}$/.test(value)) return Number(value);
  throw new CliError(`--concurrency needs a number of threads from 1 to 999, auto or off, not '${quoted(value)}'`, true);
}

/** How many threads lint `fixtures` fixtures: a number as given (never more than the fixtures, nor than maxThreads), `auto` by fixtures and cores. */
export function threadCount(concurrency: Concurrency, fixtures: number, cores = availableParallelism()): number {
  if (concurrency === 'off') return 1;
  if (concurrency !== 'auto') return Math.max(1, Math.min(concurrency, fixtures, maxThreads(cores)));
  return Math.max(1, Math.min(cores, MAX_AUTO_THREADS, Math.floor(fixtures / MIN_FIXTURES_PER_THREAD)));
}

/** What the main thread hands a worker: the run's setup and the share it lints. */
interface ShareRequest {
  readonly role: typeof LINT_WORKER_ROLE;
  readonly setup: LintSetup;
  readonly files: readonly InputFile[];
  /** The young generation's setting, shared by the lint's threads (./young-generation.ts), and how many workers there are. */
  readonly youngGeneration?: { readonly state: Int32Array; readonly threads: number };
}

/** What a worker hands back: its reports in order, or the error that stopped it (as the main thread would have thrown it). */
type ShareResult =
  | {
      readonly reports: FileReport[];
      /** The files of the share (by index) that are a registry.json or a schema file named among the paths: they have no report. */
      readonly named: number[];
      /**
       * Per fixture that had suppressions matched: which of its entries, by index in `suppressionsFor`
       * (not by offset: each suppressions file of the chain has entries at offsets of its own).
       */
      readonly used: { readonly fixture: string; readonly entries: number[] }[];
      readonly suppressed: number;
    }
  | { readonly error: string };

/** What the threads linted: the reports in the order of `files`, the files they are of, and the named project files (no report). */
export interface ThreadsOutcome {
  readonly reports: FileReport[];
  readonly linted: InputFile[];
  readonly named: InputFile[];
}

/**
 * Lints `files` (all of them, as walked: a registry.json or a schema file named among them is
 * told apart in the thread that meets it, as in one thread) in `threads` contiguous shares: the
 * first in this thread, the rest in workers running `workerScript` (the bundle's entry, started as
 * `babelq` was). Resolves to the reports in the order of `files`; an unreadable file rejects with
 * the CliError a single thread throws first.
 */
export async function lintInThreads(files: readonly InputFile[], setup: LintSetup, context: LintContext, threads: number, workerScript: string): Promise<ThreadsOutcome> {
  const shares = splitEvenly(files, threads);
  // Loaded here, not at every start: a run in one thread never needs it.
  const { Worker: WorkerThread } = await import('node:worker_threads');
  // Started before this thread lints its own share, so the workers load while it works.
  const youngGeneration = { state: newSharedState(), threads: shares.length - 1 };
  const results = shares.slice(1).map((share) => runShare(new WorkerThread(workerScript, { workerData: { role: LINT_WORKER_ROLE, setup, files: share, youngGeneration } satisfies ShareRequest, argv: [LINT_SHARE_ARGUMENT] })));
  // Settled now, so a rejection met while this thread lints is not reported as unhandled.
  results.forEach((result) => result.catch(() => undefined));
  const own = lintShare(shares[0], context);
  // Settled one by one in walk order: a thread that failed later in the walk must not hide an unreadable file before it.
  const all: PromiseSettledResult<ShareResult>[] = [{ status: 'fulfilled', value: own }, ...(await Promise.allSettled(results))];
  const outcome: ThreadsOutcome = { reports: [], linted: [], named: [] };
  for (const [index, settled] of all.entries()) {
    if (settled.status === 'rejected') throw settled.reason;
    const result = settled.value;
    if ('error' in result) throw new CliError(result.error);
    if (index > 0) replayShare(shares[index], result, context);
    const named = new Set(result.named);
    for (const [at, file] of shares[index].entries()) (named.has(at) ? outcome.named : outcome.linted).push(file);
    outcome.reports.push(...result.reports);
  }
  return outcome;
}

/**
 * A thread started with LINT_SHARE_ARGUMENT: lints the share its workerData holds and posts the
 * result. False when this is no such thread (the argument typed on a command line): then it is `babelq`.
 */
export async function runAsLintShare(): Promise<boolean> {
  const { isMainThread, parentPort, workerData } = await import('node:worker_threads');
  if (isMainThread || !parentPort || !isShareRequest(workerData)) return false;
  if (workerData.youngGeneration) joinSharedState(workerData.youngGeneration.state);
  runLintShare(workerData, (result) => parentPort.postMessage(result));
  return true;
}

/** A worker's side: lints the share it was given with a context of its own and posts the result. */
export function runLintShare(request: ShareRequest, post: (result: ShareResult) => void): void {
  let context: LintContext;
  try {
    context = lintContext(request.setup);
  } catch (error) {
    // --config or --registry gone or changed since the main thread read it: said as it would have said it.
    if (error instanceof CliError) return post({ error: error.message });
    throw error;
  }
  post(lintShare(request.files, context));
}

/** Whether `data` (a worker's `workerData`) asks for a lint share. */
export function isShareRequest(data: unknown): data is ShareRequest {
  return typeof data === 'object' && data !== null && (data as { role?: unknown }).role === LINT_WORKER_ROLE;
}

/** The loop of cli/lint.ts for one share, without --fix and --stdin (they stay in one thread). */
function lintShare(files: readonly InputFile[], context: LintContext): ShareResult {
  const reports: FileReport[] = [];
  const named: number[] = [];
  const used: { fixture: string; entries: number[] }[] = [];
  try {
    for (const [index, file] of files.entries()) {
      if (namedFileKind(file, context) !== 'envelope') {
        named.push(index);
        continue;
      }
      const usedBefore = context.run.used.size;
      reports.push(lintFileBytes(file, readFixture(file), context));
      // An entry names one fixture, so what this file matched is among its own entries (a spread of
      // the whole set per file was quadratic: 40,000 fixtures with a baseline took 8.0 s, not 4.8 s).
      if (context.run.used.size > usedBefore) {
        const entries = context.configs.suppressionsFor(file.absolute).flatMap((entry, at) => (context.run.used.has(entry) ? [at] : []));
        used.push({ fixture: file.absolute, entries });
      }
    }
  } catch (error) {
    if (error instanceof CliError) return { error: error.message };
    throw error;
  }
  return { reports, named, used, suppressed: context.run.suppressed };
}

/**
 * Makes this thread's context as if it had linted a worker's share itself, in walk order: the same
 * babelq.json files and registries found, in the order one thread finds them (registries report in
 * that order, after the fixtures, and passed-over ones are noted in it), the same files checked and
 * suppressions used (a suppression no share matched is stale), the same count hidden.
 */
function replayShare(files: readonly InputFile[], result: Extract<ShareResult, { reports: FileReport[] }>, context: LintContext): void {
  const named = new Set(result.named);
  const used = new Map(result.used.map(({ fixture, entries }) => [fixture, entries]));
  let lastDirectory: string | undefined;
  for (const [index, file] of files.entries()) {
    // As in one thread: a registry.json named is loaded here, a file not named *.babel.json finds its registry here.
    namedFileKind(file, context);
    if (named.has(index)) continue;
    context.run.checked.add(file.absolute);
    const entries = used.get(file.absolute);
    if (entries) {
      const suppressions = context.configs.suppressionsFor(file.absolute);
      for (const at of entries) context.run.used.add(suppressions[at]);
    }
    const directory = dirname(file.absolute);
    if (directory === lastDirectory) continue;
    lastDirectory = directory;
    context.registries.stateFor(file.absolute, settingsFor(context, file.absolute).registryPath);
  }
  context.run.suppressed += result.suppressed;
}

function splitEvenly<T>(items: readonly T[], parts: number): T[][] {
  const shares: T[][] = [];
  for (let part = 0; part < parts; part++) shares.push(items.slice(Math.floor((items.length * part) / parts), Math.floor((items.length * (part + 1)) / parts)));
  return shares;
}

function runShare(worker: Worker): Promise<ShareResult> {
  return new Promise((resolve, reject) => {
    let settled = false;
    worker.once('message', (result: ShareResult) => {
      settled = true;
      resolve(result);
    });
    worker.once('error', (error) => {
      settled = true;
      reject(error);
    });
    worker.once('exit', (code) => {
      if (!settled) reject(new Error(`a lint thread stopped (exit ${code}) before it sent its reports`));
    });
  });
}
