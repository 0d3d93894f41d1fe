/**
 * bench/README.md from a run's results: the targets with their anchors, everything else measured,
 * the scaling table, and the method, so the file always says what the run that wrote it did.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { now } from './measure';

export interface Target {
  readonly name: string;
  readonly measured: string;
  readonly goal: string;
  readonly pass: boolean;
  /** What Node itself costs for the same work, measured in the same run: shown beside the goal. */
  readonly floor?: string;
  /** The floor alone missed the goal in this run. */
  readonly floorMissesGoal?: boolean;
}

export interface Info {
  readonly name: string;
  readonly value: string;
}

/** What one run measured, as the README shows it. */
export interface BenchReport {
  readonly targets: readonly Target[];
  readonly infos: readonly Info[];
  readonly scaling: readonly string[];
  readonly anchorsTable: readonly string[];
  /** When the run started (`now()`), and the load averages before and after it. */
  readonly started: number;
  readonly loadBefore: string;
  readonly loadAfter: string;
}

/** The machine a run measured, in one line. */
export function machine(): string {
  const cpu = cpus();
  return `${cpu[0]?.model ?? 'unknown CPU'}, ${cpu.length} cores, ${(totalmem() / 1024 ** 3).toFixed(0)} GB RAM, Node ${process.version} (${process.platform} ${process.arch})`;
}

/** Writes bench/README.md: the run's tables and the method behind them. */
export function writeBenchReadme(path: string, report: BenchReport): void {
  const { targets, infos, scaling, anchorsTable, started, loadBefore, loadAfter } = report;
  const passed = targets.filter((t) => t.pass).length;
  const lines = [
    '# Benchmarks',
    '',
    'Every performance target of the engine, the server and the CLI, measured in one run against its anchors on the same',
    'generated inputs, so each ratio compares numbers taken on the same machine at the same time.',
    '',
    '```sh',
    'npm run bench              # builds, generates bench/out/ (git-ignored), measures, rewrites this file',
    'npm run bench -- --quick   # fewer samples',
    '```',
    '',
    `Machine: ${machine()}. Load average before/after the run: ${loadBefore} / ${loadAfter}.`,
    `Run: ${new Date().toISOString().slice(0, 10)}, ${((now() - started) / 1000).toFixed(0)} s. ${passed} of ${targets.length} targets pass.`,
    '',
    '## Targets',
    '',
    '| target | measured | goal | |',
    '| --- | --- | --- | --- |',
    ...targets.map((t) => `| ${t.name} | ${t.measured} | ${t.goal}${t.floor ? `; floor: ${t.floor}` : ''} | ${t.pass ? 'PASS' : 'FAIL'} |`),
    '',
    ...notReached(targets),
    'Times are medians (min–max) over interleaved samples taken after warm-up runs; the in-process',
    'scenarios time `bench/engine.ts` bundled by esbuild as the shipped bundles are, and the server',
    'scenarios start the production server bundle the .vsix ships, with the Node flags and environment',
    'the extension starts it with (`client/server-process.ts`); `babelq lint` is the production CLI',
    'bundle with its code cache, as the npm package ships it. Inputs are what an editor or',
    '`babelq` receives: one flat string decoded from UTF-8. For the large inputs each contender runs',
    'once untimed before each timed run and the young generation is collected first, so no run pays',
    'for another contender\'s garbage. "Full analysis" is `analyzeText` with the registry: parse, every',
    'structure, contract, data and encoding rule, and the payload schema of the URN; the generated',
    'payload is clean, so every rule runs to the end. The anchor is `vscode-json-languageservice` (what',
    'VS Code runs for a `json.schemas` mapping): `parseJSONDocument` + `doValidation` with',
    '`schemas/envelope.schema.json`.',
    '',
    '## Anchors, same run',
    '',
    '| input | ours, full analysis | JSON.parse | vscode-json-languageservice | jsonc-parser parseTree | jsonc-parser scanner loop |',
    '| --- | --- | --- | --- | --- | --- |',
    ...anchorsTable,
    '',
    '## Everything else measured',
    '',
    '| what | value |',
    '| --- | --- |',
    ...infos.map((i) => `| ${i.name} | ${i.value} |`),
    '',
    '## Scaling: full analysis from 16 KB to 20 MB',
    '',
    'Cost per megabyte stays flat: the analysis is linear in the size of the file.',
    '',
    '| size | full analysis | per MB | JSON.parse | ratio |',
    '| --- | --- | --- | --- | --- |',
    ...scaling,
    '',
    '## What makes it fast',
    '',
    '- **One scan into columns.** `core/parse/parser.ts` writes the document into typed arrays (kind,',
    '  flags, offsets, parent, subtree end, key ranges per slot; `core/parse/columns.ts`) in one pass over',
    '  the text\'s UTF-16 code units, copied into a typed array by Node\'s `Buffer#write` (an element read is',
    '  cheaper than a `charCodeAt`, which checks the string\'s representation at every call; the parse of',
    '  the 5 MB fixture took about a fifth less), with hand-written fast paths for well-formed tokens and',
    '  repeated keys shared as one string.',
    '  A string without escapes is not copied (its value is the text between its quotes, sliced when',
    '  read). What the rules need of a value is decided while its characters are in cache: strings every',
    '  SDK writes as is (non-ASCII letters included), negative numbers, numbers every SDK writes as',
    '  written and their values, the deepest nesting; the rules read no value\'s text a second time.',
    '- **Memory reused.** A one-shot parse (`analyzeText`, `babelq lint`) hands its column storage back',
    '  for the next (`core/parse/column-storage.ts`): on this virtual machine a page of memory touched for',
    '  the first time costs about 10 µs, and a 5 MB document\'s columns are some 1,800 pages. The 5 MB',
    '  analysis allocates about 0.6 MB of objects.',
    '  The node tree of `core/model/tree.ts` is built from the columns lazily, one level at a time, where a',
    '  reader looks (`core/parse/document.ts`): a hover in a 20 MB file makes a few hundred nodes.',
    '- **Rules on the columns.** duplicate-key, the data rules and encoding-divergence walk the',
    '  columns of `data` instead of a tree (their tree walks remain for other documents); flagged',
    '  values need no second look; objects with a key sequence already found clean are skipped; a',
    '  document without a number that is not plain skips the payload check\'s walks for huge numbers.',
    '- **The payload schema without a copy.** A schema of the everyday draft-07 keywords compiles to',
    '  a column check (`core/registry/column-check.ts`) that says "surely valid" without building the',
    '  payload for ajv (a `type` folded into the keyword that reads that kind, bounds settled by the',
    '  sign when they can be, a property whose schema is a `type` alone decided from the value\'s kind',
    '  without a call); ajv runs (on the plain value built from the columns) only when it cannot,',
    '  and words the errors, and for such a schema ajv compiles only then. Simple anchored `pattern`s',
    '  run on V8\'s engine, the rest on RE2.',
    '- **A quick start for `babelq`.** dist/cli.js runs the CLI bundle with the V8 code cache the build',
    '  made for it (`workspace/code-cache.ts`), the broker clients are bundles of their own that only `send`',
    '  and `peek` load, node:crypto, child_process and dns load where first used (a lint loads none),',
    '  the registry is found once per directory, and nothing is compiled or tabulated ahead of need.',
    '- **A second core where it helps.** `babelq lint` splits a large repository into contiguous shares',
    '  linted by worker threads (`cli/lint-threads.ts`; `--concurrency auto`, a thread per 30,000',
    '  fixtures). Below that a second thread costs more than it saves: one `babelq` process already',
    '  keeps the second core partly busy with V8\'s compiler and garbage-collector threads, and each',
    '  lint thread loads the bundle and warms the compilers up again (the 10,000 files above, forced',
    '  into two threads, against one). The 100,000 are where it pays.',
    '- **Keystrokes.** A new version whose edit stays inside a string value or a number literal is derived from the',
    '  previous parse (`core/parse/incremental.ts`), its line starts from the previous ones (`LineIndex.afterEdit`), and its analysis (`analyzeDocument` in',
    '  `core/rules/analyze.ts`) reuses the previous findings of the value-local rules, checking only the edited',
    '  value; the payload schema runs as the column check, and where the check vouched for the previous',
    '  version only the values on the way to the edited one are read again (`checkAround` in',
    '  `core/registry/column-check.ts`; a payload built for ajv, when one is needed, is derived from the',
    '  previous version\'s; an edit outside the payload leaves its verdict as it was); line starts are',
    '  scanned only when a position is needed. Folding ranges and the outline are read from the columns',
    '  (no node is built for the 5,000 ranges and 1,000 entries the editor asks for after each pause),',
    '  and a version\'s outline is built once for the outline view and the breadcrumbs.',
    '- **The byte preview.** The encoders write a subtree that all six SDKs relay unchanged (plain numbers and',
    '  strings, keys without escapes, digits or repeats) from the text without its whitespace',
    '  (`core/encode/plain-subtree.ts`; Go\'s keys sorted), the walks for notes skip such subtrees, and the',
    '  preview shows a body over 16 KiB by its start and end, read with its length from the parser\'s columns',
    '  without writing the payload (`core/encode/written-text.ts`); where a map relay noted nothing, the',
    '  consumers\' verdicts are read from the tree it wrote instead of the body parsed back. The editor',
    '  starts the render on the click that opens the preview (and on each refresh), while VS Code opens',
    '  its editor.',
    '- **Checked.** `node --import tsx test/oracle/differential.ts` (also run at the start of every bench) compares',
    '  the parser with the reference parser it replaced, analysis through the columns with the tree walks,',
    '  incremental with fresh parses and analyses, and the number fast path with the six SDK models.',
    '',
    '## Inputs',
    '',
    '`bench/generate.ts` writes, deterministically: envelopes whose `data` holds an array of orders',
    '(nested customer and address objects, line arrays, strings with non-ASCII letters such as',
    '"Łukasz Müller" and "Matcha 抹茶 30 g", integers, floats in non-money keys such as `weight_kg`',
    'and `lat`, booleans, nulls, RFC 3339 times), pretty-printed as fixtures are kept in git; a',
    '`registry.json` with a draft-07 schema for every field of that payload; and a workspace of',
    '10,000 tiny fixtures in folders of 100 with the same registry, and one of 100,000 made the same way',
    '(`bench/scenarios/cli-scale.ts`: lint\'s time per fixture and peak memory as the count grows tenfold;',
    'removed at the end of the run, since vsce lists every file of the project before packaging).',
    'The workspace the language server reports (`bench/workspace-diagnostics.ts`: 10,000 fixtures over 46',
    'registered URNs) is a git work tree of its own, as a team\'s fixtures are: bench/out/ is ignored by',
    'this project\'s git, and in an ignored folder the server leaves no file to the client\'s file events',
    '(eglot watches none there) and looks at each file on every report and find references.',
    '`test/oracle/differential.ts` checks',
    'the parser against the straightforward reference parser it replaced (same tree, same problems).',
    '',
  ];
  // The real-workbench section is bench/workbench.ts's (npm run bench:workbench): its table, and
  // after its end marker the notes on earlier runs, are kept as they were.
  let previous = '';
  try {
    previous = readFileSync(path, 'utf8');
  } catch {
    // No README yet.
  }
  const start = previous.indexOf('<!-- workbench:start -->');
  const end = previous.indexOf('<!-- workbench:end -->');
  const workbench = start >= 0 && end > start ? `\n${previous.slice(start).trimEnd()}\n` : '';
  writeFileSync(path, lines.join('\n') + workbench);
}

/** What a failed target in this run means, and what to do about it. */
function notReached(targets: readonly Target[]): string[] {
  const failed = targets.filter((t) => !t.pass);
  const floorIs = 'The floor beside the goal, measured in the same run, is what Node itself costs for the same work without linting anything';
  const groups: [readonly Target[], string, string][] = [
    [
      failed.filter((t) => t.floor === undefined),
      'Missed in this run',
      "This machine's two cores are shared, and in a busy moment every timing here rises by a third or more (the load averages above say how busy it was), so a miss by a thin margin in a busy run may pass in a quiet one; a miss in a quiet run is the code's. Run `npm run bench` again, or the scenario alone with `--only=analysis`, `--only=server` or `--only=cli`.",
    ],
    [failed.filter((t) => t.floor !== undefined && !t.floorMissesGoal), 'Missed, with the floor beside the goal', `${floorIs}: the room the goal leaves for the work itself is the goal less the floor.`],
    [failed.filter((t) => t.floorMissesGoal), 'Out of reach on this machine', `${floorIs}, and in this run it alone missed the goal.`],
  ];
  return groups.flatMap(([missed, heading, why]) => (missed.length === 0 ? [] : [`**${heading}: ${missed.map((t) => t.name).join('; ')}.** ${why}`, '']));
}

/** The load average now (the machine is shared), or n/a. */
export function loadAverage(): string {
  try {
    return readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
  } catch {
    return 'n/a';
  }
}

