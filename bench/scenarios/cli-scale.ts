/**
 * `babelq lint` as the repository grows: the same kind of workspace with 10,000 and with 100,000
 * fixtures, each linted by a fresh process as CI runs it. Linear cost: each fixture added between
 * the two costs no more than a fixture of the smaller run does on average, its share of the start
 * included (a cost that grew with the count would make the added ones dearer), both in one thread
 * (`--concurrency off`) so the comparison is like with like. The peak memory of both is reported,
 * and what each added fixture adds to it. Then the larger workspace as `babelq lint` runs it by
 * default (`--concurrency auto`: a thread per 30,000 fixtures, up to the cores), against one thread.
 */
import { availableParallelism } from 'node:os';
import { threadCount } from '../../cli/lint-threads';
import { info, LARGE_WORKSPACE, LARGE_WORKSPACE_FILES, log, QUICK, SHIPPED_CLI, target, WORKSPACE, WORKSPACE_FILES } from '../context';
import { ms, stats } from '../measure';
import { runProbed } from '../peak-memory';

/** How much dearer an added fixture may be than the smaller run's average and still count as linear (this machine's spread between runs). */
const LINEAR_TOLERANCE = 1.2;

interface LintRun {
  readonly elapsed: number;
  readonly peakMb: number;
}

/** One `babelq lint . --format json --concurrency <concurrency>` of `folder`, timed, with its peak resident memory read by the process itself. */
function lint(folder: string, files: number, concurrency: 'off' | 'auto' = 'off'): LintRun {
  const { result, elapsed, peakMb } = runProbed([SHIPPED_CLI, 'lint', '.', '--format', 'json', '--concurrency', concurrency], folder);
  const reported = (JSON.parse(result.stdout) as { file: string; diagnostics: unknown[] }[]).filter((report) => report.file.endsWith('.babel.json'));
  if (reported.length !== files || reported.some((report) => report.diagnostics.length > 0)) throw new Error(`babelq lint did not report ${files} clean fixtures (${reported.length} reports)`);
  return { elapsed, peakMb };
}

export function cliScaleScenario(): void {
  log(`\nbabelq lint as the workspace grows: ${WORKSPACE_FILES.toLocaleString('en')} and ${LARGE_WORKSPACE_FILES.toLocaleString('en')} fixtures`);
  const small: LintRun[] = [];
  const large: LintRun[] = [];
  const largeThreads: LintRun[] = [];
  // Interleaved, so a busy spell of the machine falls on every run alike.
  for (let i = 0; i < (QUICK ? 1 : 3); i++) {
    small.push(lint(WORKSPACE, WORKSPACE_FILES));
    large.push(lint(LARGE_WORKSPACE, LARGE_WORKSPACE_FILES));
    largeThreads.push(lint(LARGE_WORKSPACE, LARGE_WORKSPACE_FILES, 'auto'));
  }
  const smallTime = stats(small.map((run) => run.elapsed)).median;
  const largeTime = stats(large.map((run) => run.elapsed)).median;
  const perThousand = (time: number, files: number) => (time / files) * 1000;
  const smallPeak = stats(small.map((run) => run.peakMb)).median;
  const largePeak = stats(large.map((run) => run.peakMb)).median;
  const growth = ((largePeak - smallPeak) * 1024 * 1024) / (LARGE_WORKSPACE_FILES - WORKSPACE_FILES);
  info(`babelq lint of ${WORKSPACE_FILES.toLocaleString('en')} / ${LARGE_WORKSPACE_FILES.toLocaleString('en')} fixtures, one thread: the whole run`, `${ms(smallTime)} / ${ms(largeTime)}`);
  info(
    `babelq lint of ${WORKSPACE_FILES.toLocaleString('en')} / ${LARGE_WORKSPACE_FILES.toLocaleString('en')} fixtures, one thread: peak memory (max RSS)`,
    `${smallPeak.toFixed(0)} MB / ${largePeak.toFixed(0)} MB (${(growth / 1024).toFixed(2)} KB more per added fixture)`,
  );
  const threadsTime = stats(largeThreads.map((run) => run.elapsed)).median;
  const threads = threadCount('auto', LARGE_WORKSPACE_FILES);
  info(
    `babelq lint of ${LARGE_WORKSPACE_FILES.toLocaleString('en')} fixtures as it runs by default (--concurrency auto: ${threads} thread${threads === 1 ? '' : 's'} on ${availableParallelism()} cores) / in one thread (--concurrency off)`,
    `${ms(threadsTime)} / ${ms(largeTime)} (${(largeTime / threadsTime).toFixed(2)}× faster); peak memory ${stats(largeThreads.map((run) => run.peakMb)).median.toFixed(0)} MB / ${largePeak.toFixed(0)} MB`,
  );
  const added = perThousand(largeTime - smallTime, LARGE_WORKSPACE_FILES - WORKSPACE_FILES);
  const ratio = added / perThousand(smallTime, WORKSPACE_FILES);
  target(
    `babelq lint: time per 1,000 fixtures added from ${WORKSPACE_FILES.toLocaleString('en')} to ${LARGE_WORKSPACE_FILES.toLocaleString('en')}, against the time per 1,000 of the ${WORKSPACE_FILES.toLocaleString('en')} (linear cost)`,
    `${ms(added)} against ${ms(perThousand(smallTime, WORKSPACE_FILES))} (${ratio.toFixed(2)}×)`,
    `≤ ${LINEAR_TOLERANCE}×`,
    ratio <= LINEAR_TOLERANCE,
  );
}
