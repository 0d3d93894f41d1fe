/** The CLI against ajv-cli on 10,000 files, and its peak memory. */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { ENVELOPE_SCHEMA, info, log, QUICK, ratio, ROOT, SHIPPED_CLI, target, WORKSPACE, WORKSPACE_FILES } from '../context';
import { ms, now, range, stats } from '../measure';
import { runProbed } from '../peak-memory';

export function cliScenario(): void {
  log(`\nbabelq lint vs ajv-cli on ${WORKSPACE_FILES.toLocaleString('en')} files (process start included)`);
  const cli = SHIPPED_CLI;
  const ajv = join(ROOT, 'node_modules/ajv-cli/dist/index.js');
  const run = (args: string[]) => {
    const started = now();
    const result = spawnSync(process.execPath, args, { cwd: WORKSPACE, maxBuffer: 1 << 30, encoding: 'utf8' });
    const elapsed = now() - started;
    return { elapsed, result };
  };
  const ours = () => run([cli, 'lint', '.', '--format', 'json']);
  // The floors (bench/read-floor.cjs): Node finding and reading the same files and nothing else,
  // and the same with each file's text handed to JSON.parse (the least any lint of them costs).
  const floorScript = join(ROOT, 'bench/read-floor.cjs');
  const floor = () => run([floorScript]);
  const parseFloor = () => run([floorScript, '--parse']);
  const anchor = () => run([ajv, 'validate', '--spec=draft7', '--strict=false', '-s', ENVELOPE_SCHEMA, '-d', '**/*.babel.json']);
  // Check both once: every file is valid to both.
  const check = ours();
  // The schema file's keyword findings (unenforced-keyword, information) come after the fixtures; the fixtures must be clean.
  const reports = (JSON.parse(check.result.stdout) as { file: string; diagnostics: unknown[] }[]).filter((report) => report.file.endsWith('.babel.json'));
  if (check.result.status !== 0 || reports.length !== WORKSPACE_FILES || reports.some((r) => r.diagnostics.length > 0)) {
    throw new Error(`babelq lint did not pass the workspace cleanly (exit ${check.result.status}, ${reports.length} reports)`);
  }
  // ajv-cli prints a line per file; one run here once came back with only part of them: try again before failing.
  let anchorCheck = anchor();
  let valid = 0;
  for (let attempt = 0; attempt < 3; attempt++) {
    if (attempt > 0) anchorCheck = anchor();
    valid = (anchorCheck.result.stderr + anchorCheck.result.stdout).match(/ valid/g)?.length ?? 0;
    if (valid === WORKSPACE_FILES) break;
  }
  if (anchorCheck.result.status !== 0 || valid !== WORKSPACE_FILES) throw new Error(`ajv-cli did not validate every file (exit ${anchorCheck.result.status}, ${valid} valid)`);
  for (const [name, check] of [['read', floor()], ['parse', parseFloor()]] as const) {
    if (check.result.status !== 0 || Number(check.result.stdout) !== WORKSPACE_FILES) throw new Error(`the ${name} floor did not read every file (exit ${check.result.status}, ${check.result.stdout.trim()})`);
  }
  const times: { ours: number[]; anchor: number[]; floor: number[]; parse: number[] } = { ours: [], anchor: [], floor: [], parse: [] };
  for (let i = 0; i < (QUICK ? 2 : 5); i++) {
    if (i % 2 === 0) {
      times.ours.push(ours().elapsed);
      times.anchor.push(anchor().elapsed);
      times.floor.push(floor().elapsed);
      times.parse.push(parseFloor().elapsed);
    } else {
      times.parse.push(parseFloor().elapsed);
      times.floor.push(floor().elapsed);
      times.anchor.push(anchor().elapsed);
      times.ours.push(ours().elapsed);
    }
  }
  const o = stats(times.ours);
  const a = stats(times.anchor);
  const f = stats(times.floor);
  const p = stats(times.parse);
  const explicit = stats([0, 1].map(() => run([cli, 'lint', '.', '--format', 'json', '--registry', 'registry.json']).elapsed));
  // Why `--concurrency auto` keeps this workspace in one thread: a second, forced, against one, in turn.
  const threads: { one: number[]; two: number[] } = { one: [], two: [] };
  for (let i = 0; i < (QUICK ? 1 : 3); i++) {
    threads.two.push(run([cli, 'lint', '.', '--format', 'json', '--concurrency', '2']).elapsed);
    threads.one.push(run([cli, 'lint', '.', '--format', 'json', '--concurrency', 'off']).elapsed);
  }
  info('babelq lint . --format json (registry found and used, payload schema checked)', range(o));
  info('babelq lint . --format json --registry registry.json (no registry search per file)', range(explicit));
  info(
    `babelq lint of ${WORKSPACE_FILES.toLocaleString('en')} files in two threads (--concurrency 2, forced) / in one (off, what auto chooses here)`,
    `${range(stats(threads.two))} / ${range(stats(threads.one))}`,
  );
  info('ajv validate -s envelope.schema.json -d "**/*.babel.json"', range(a));
  info('the floor: Node finding and reading the same files, nothing else (bench/read-floor.cjs)', range(f));
  info(`the parse floor: the same, each file's text also given to JSON.parse (bench/read-floor.cjs --parse)`, range(p));
  // The goal is judged against the parse floor: a lint has to parse every file, and JSON.parse is the
  // fastest parser Node has.
  const leaves = (floorMs: number) => (a.median >= 3 * floorMs ? `, leaving ${ms(a.median / 3 - floorMs)} to lint ${WORKSPACE_FILES.toLocaleString('en')} files in` : '');
  target(`babelq lint of ${WORKSPACE_FILES.toLocaleString('en')} files vs ajv-cli on the same files`, `${ratio(a.median / o.median)} faster`, '≥ 3× faster', a.median >= 3 * o.median, {
    text: `${ms(f.median)} finding and reading the files, ${ratio(a.median / f.median)} faster than ajv-cli${leaves(f.median)}; ${ms(p.median)} also parsing them with JSON.parse, ${ratio(a.median / p.median)} faster than ajv-cli${leaves(p.median)}`,
    missesGoal: a.median < 3 * p.median,
  });
  // Each measured in turn, three times, and the medians taken, so a spell of the machine falls on all three alike.
  const peaks: { ours: number[]; floor: number[]; parse: number[]; bare: number[] } = { ours: [], floor: [], parse: [], bare: [] };
  for (let i = 0; i < (QUICK ? 1 : 3); i++) {
    peaks.ours.push(runProbed([cli, 'lint', '.', '--format', 'json'], WORKSPACE).peakMb);
    peaks.floor.push(runProbed([floorScript], WORKSPACE).peakMb);
    peaks.parse.push(runProbed([floorScript, '--parse'], WORKSPACE).peakMb);
    peaks.bare.push(runProbed(['-e', '0'], WORKSPACE).peakMb);
  }
  const [peakMb, floorMb, parseMb, bareMb] = [peaks.ours, peaks.floor, peaks.parse, peaks.bare].map((values) => stats(values).median);
  const mbRange = (values: number[]) => `${Math.min(...values).toFixed(0)}–${Math.max(...values).toFixed(0)} MB`;
  target(`babelq lint of ${WORKSPACE_FILES.toLocaleString('en')} files: peak memory (max RSS)`, `${peakMb.toFixed(0)} MB (${mbRange(peaks.ours)})`, '< 50 MB', peakMb < 50, {
    text: `${floorMb.toFixed(0)} MB (${mbRange(peaks.floor)}) finding and reading the same files, ${parseMb.toFixed(0)} MB (${mbRange(peaks.parse)}) also parsing them with JSON.parse, ${bareMb.toFixed(0)} MB (${mbRange(peaks.bare)}) starting and doing nothing`,
    missesGoal: parseMb >= 50,
  });
}
