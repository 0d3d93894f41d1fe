/**
 * `npm run bench`: every performance target of the engine, the server and the CLI, measured in one run against its anchors
 * (JSON.parse, vscode-json-languageservice, jsonc-parser, ajv-cli) on the same generated inputs,
 * printed with PASS/FAIL and written to bench/README.md.
 *
 *   node --expose-gc --import tsx bench/run.ts [--quick] [--no-readme] [--only=<scenario,...>]
 *
 * Inputs are generated (deterministically) under bench/out/, which git ignores.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, cpSync, existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import * as esbuild from 'esbuild';
import * as jsonc from 'jsonc-parser';
import { getLanguageService, TextDocument, type TextDocumentContentChangeEvent } from 'vscode-json-languageservice';
import { LineIndex } from '../core/model/positions';
import type { RegistryState } from '../core/registry/types';
import { findFixtureFiles } from '../workspace/fixture-files';
import { envelopeText, tinyText, writeRegistry, writeWorkspace } from './generate';
import { BROKEN_COUNT, measureWorkspace, URN_COUNT, writeRegisteredWorkspace } from './workspace-diagnostics';
import { COMPAT_SCHEMAS, measureSchemaCompat, writeCompatRepository } from './schema-compat';
import { BenchClient } from './lsp';
import { bytes, compare, ms, now, range, stats, type Stats } from './measure';
import { loadAverage, machine, writeBenchReadme, type Info, type Target } from './report';

const ROOT = resolve(__dirname, '..');
const OUT = join(__dirname, 'out');

/** bench/engine.ts bundled as the shipped bundles are (see there for why), built before anything is measured. */
function loadEngine(): typeof import('./engine') {
  const outfile = join(OUT, 'engine.js');
  esbuild.buildSync({ entryPoints: [join(__dirname, 'engine.ts')], outfile, bundle: true, platform: 'node', format: 'cjs', target: 'node20', logLevel: 'warning' });
  return require(outfile) as typeof import('./engine');
}
const { analyzeText, DEFAULT_SETTINGS, loadRegistry } = loadEngine();
const FILES = join(OUT, 'files');
const WORKSPACE = join(OUT, 'workspace-10k');
const ENVELOPE_SCHEMA = join(ROOT, 'schemas/envelope.schema.json');
const QUICK = process.argv.includes('--quick');
const WRITE_README = !process.argv.includes('--no-readme');
const ONLY = process.argv.find((arg) => arg.startsWith('--only='))?.slice('--only='.length).split(',');
const WORKSPACE_FILES = 10_000;

const gc = (globalThis as { gc?: (options?: { type: 'minor' | 'major' }) => void }).gc;
/**
 * A minor collection before each sample of a large input: what the previous contender left alive
 * in the young generation (a 5 MB parse tree is tens of megabytes) is then not evacuated in the
 * middle of the next contender's run and charged to it. A full collection would also throw away
 * optimised code (V8 deoptimises code whose embedded objects a forced full collection clears).
 */
const emptyYoungGeneration = () => gc?.({ type: 'minor' });

const targets: Target[] = [];
const infos: Info[] = [];
const scaling: string[] = [];
const anchorsTable: string[] = [];

function runs(scenario: string): boolean {
  return !ONLY || ONLY.includes(scenario);
}

function log(line = ''): void {
  process.stdout.write(`${line}\n`);
}

function target(name: string, measured: string, goal: string, pass: boolean): void {
  targets.push({ name, measured, goal, pass });
  log(`  ${pass ? 'PASS' : 'FAIL'}  ${name}: ${measured} (target ${goal})`);
}

function info(name: string, value: string): void {
  infos.push({ name, value });
  log(`  info  ${name}: ${value}`);
}

const ratio = (value: number) => `${value.toFixed(2)}×`;

// ---------------------------------------------------------------------------------------------
// The anchor: VS Code's own JSON language service with the envelope schema.

const envelopeSchema = JSON.parse(readFileSync(ENVELOPE_SCHEMA, 'utf8')) as object;
const SCHEMA_URI = 'file:///bench/envelope.schema.json';
const jsonService = getLanguageService({});
jsonService.configure({ validate: true, allowComments: false, schemas: [{ uri: SCHEMA_URI, fileMatch: ['*.babel.json'], schema: envelopeSchema }] });

function anchorValidate(document: TextDocument): PromiseLike<unknown[]> {
  const json = jsonService.parseJSONDocument(document);
  return jsonService.doValidation(document, json, { comments: 'error', trailingCommas: 'error', schemaValidation: 'error' });
}

async function anchorText(text: string, uri = 'file:///bench/doc.babel.json'): Promise<unknown[]> {
  return anchorValidate(TextDocument.create(uri, 'json', 1, text));
}

/** jsonc-parser's SyntaxKind.EOF (a const enum, which isolated modules cannot read). */
const SCANNER_EOF = 17;

function jsoncScan(text: string): number {
  const scanner = jsonc.createScanner(text, false);
  let count = 0;
  while (scanner.scan() !== SCANNER_EOF) count++;
  return count;
}

// ---------------------------------------------------------------------------------------------

/**
 * The text as an editor or `babelq` receives it: decoded from UTF-8 bytes into one flat string.
 * A generated text is a tree of concatenated pieces that V8 flattens on first read and then reads
 * through an extra indirection until a collection happens to remove it, which would time the
 * generator, not the contenders (for this analysis about a sixth of its time).
 */
function asReceived(text: string): string {
  return Buffer.from(text, 'utf8').toString('utf8');
}

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

// ---------------------------------------------------------------------------------------------
// In-process analysis.

async function analysisScenarios(texts: Record<string, string>, registry: RegistryState): Promise<void> {
  log('\nFull analysis (parse, every rule, payload schema), in process');
  const ours = (text: string) => () => analyzeText(text, DEFAULT_SETTINGS, registry);

  // 5 MB: the headline.
  const big = texts['5 MB'];
  const r5 = await compare(
    {
      ours: ours(big),
      'JSON.parse': () => JSON.parse(big),
      'vscode-json-languageservice': () => anchorText(big),
      'jsonc-parser parseTree': () => jsonc.parseTree(big),
      'jsonc-parser scanner': () => jsoncScan(big),
    },
    // Each contender runs once untimed before each timed run: the anchors leave hundreds of megabytes
    // of garbage that would otherwise be collected during whatever runs next.
    { warmup: 5, samples: QUICK ? 5 : 11, settle: 1, beforeSample: emptyYoungGeneration },
  );
  anchorsTable.push(`| 5 MB | ${Object.entries(r5).map(([, s]) => range(s)).join(' | ')} |`);
  for (const [name, s] of Object.entries(r5)) info(`5 MB: ${name}`, range(s));
  const toJson = r5.ours.median / r5['JSON.parse'].median;
  target('5 MB full analysis vs JSON.parse of the same text', ratio(toJson), '≤ 3×', toJson <= 3);
  const faster = r5['vscode-json-languageservice'].median / r5.ours.median;
  target('5 MB full analysis, speed-up over vscode-json-languageservice parse + validate', ratio(faster), '≥ 8×', faster >= 8);

  // Tiny fixtures, many distinct ones per sample.
  const tinies = Array.from({ length: 200 }, (_, i) => asReceived(tinyText(1000 + i)));
  const documents = tinies.map((text, i) => TextDocument.create(`file:///bench/t${i}.babel.json`, 'json', 1, text));
  const rt = await compare(
    {
      ours: () => {
        for (const text of tinies) analyzeText(text, DEFAULT_SETTINGS, registry);
      },
      anchor: async () => {
        for (const document of documents) await anchorValidate(document);
      },
      'JSON.parse': () => {
        for (const text of tinies) JSON.parse(text);
      },
    },
    { warmup: 5, samples: QUICK ? 9 : 21 },
  );
  const perDoc = (s: Stats) => ms(s.median / tinies.length);
  info('tiny fixture: ours per document', perDoc(rt.ours));
  info('tiny fixture: vscode-json-languageservice per document', perDoc(rt.anchor));
  info('tiny fixture: JSON.parse per document', perDoc(rt['JSON.parse']));
  anchorsTable.push(`| tiny (${bytes(tinies[0].length)}), per document | ${perDoc(rt.ours)} | ${perDoc(rt['JSON.parse'])} | ${perDoc(rt.anchor)} | – | – |`);
  const tinyRatio = rt.ours.median / rt.anchor.median;
  target('tiny fixture analysis vs vscode-json-languageservice parse + validate', `${ratio(tinyRatio)} the anchor's time`, '≤ 1×', tinyRatio <= 1);

  // 50 KB and 20 MB, for the record.
  for (const name of ['50 KB', '20 MB']) {
    const text = texts[name];
    const r = await compare(
      { ours: ours(text), 'JSON.parse': () => JSON.parse(text), 'vscode-json-languageservice': () => anchorText(text) },
      name === '20 MB' ? { warmup: 1, samples: QUICK ? 3 : 5, settle: 1, beforeSample: emptyYoungGeneration } : { warmup: 5, samples: QUICK ? 9 : 21 },
    );
    anchorsTable.push(`| ${name} | ${range(r.ours)} | ${range(r['JSON.parse'])} | ${range(r['vscode-json-languageservice'])} | – | – |`);
    info(`${name}: ours / JSON.parse / anchor`, `${range(r.ours)} / ${range(r['JSON.parse'])} / ${range(r['vscode-json-languageservice'])}; ${ratio(r.ours.median / r['JSON.parse'].median)} JSON.parse, ${ratio(r['vscode-json-languageservice'].median / r.ours.median)} faster than the anchor`);
  }

  // Scaling: 16 KB to 20 MB.
  log('\nScaling (full analysis)');
  const sizes = [16 * 1024, 64 * 1024, 256 * 1024, 1024 * 1024, 4 * 1024 * 1024, 20 * 1024 * 1024];
  for (const size of sizes) {
    const text = size === 20 * 1024 * 1024 ? texts['20 MB'] : asReceived(envelopeText(size, 5));
    const big = size >= 4 * 1024 * 1024;
    const r = await compare(
      { ours: ours(text), 'JSON.parse': () => JSON.parse(text) },
      big ? { warmup: 1, samples: QUICK ? 3 : 5, settle: 1, beforeSample: emptyYoungGeneration } : { warmup: 3, samples: QUICK ? 3 : 11, repeat: size <= 64 * 1024 ? 10 : 1 },
    );
    const perMb = r.ours.median / (text.length / 1024 / 1024);
    scaling.push(`| ${bytes(text.length)} | ${range(r.ours)} | ${perMb.toFixed(1)} ms | ${ms(r['JSON.parse'].median)} | ${ratio(r.ours.median / r['JSON.parse'].median)} |`);
    log(`  ${bytes(text.length).padStart(8)}: ${range(r.ours)}, ${perMb.toFixed(1)} ms per MB, ${ratio(r.ours.median / r['JSON.parse'].median)} JSON.parse`);
  }
}

// ---------------------------------------------------------------------------------------------
// The language server over stdio.

/** The position of the first `needle` at or after `from`, plus `shift` characters. */
function positionOf(text: string, lines: LineIndex, needle: string, from: number, shift = 0): { line: number; character: number } {
  const at = text.indexOf(needle, from);
  if (at < 0) throw new Error(`${needle} not found`);
  return lines.positionAt(at + shift);
}

async function serverScenarios(texts: Record<string, string>): Promise<void> {
  log('\nLanguage server over stdio (the production bundle, as the .vsix ships it)');
  // Start to first diagnostics on a tiny file.
  const starts: number[] = [];
  for (let i = 0; i < (QUICK ? 3 : 7); i++) {
    const started = now();
    const client = new BenchClient({ server: SHIPPED_SERVER });
    await client.initialize(FILES);
    const uri = `file://${join(FILES, 'tiny.babel.json')}`;
    await client.open(uri, texts.tiny);
    await client.pull(uri);
    starts.push(now() - started);
    await client.shutdown();
  }
  const start = stats(starts.slice(1));
  target('server start to first diagnostics on a tiny file', range(start), '< 300 ms', start.median < 300);

  // A keystroke in the 5 MB file.
  const big = texts['5 MB'];
  const lines = new LineIndex(big);
  const client = new BenchClient({ server: SHIPPED_SERVER });
  try {
    await client.initialize(FILES);
    const uri = `file://${join(FILES, '5MB.babel.json')}`;
    await client.open(uri, big);
    const first = await client.pull(uri);
    if (first.items.length > 0) throw new Error(`the 5 MB file has diagnostics over LSP: ${JSON.stringify(first.items.slice(0, 2))}`);
    // Type a character in the middle of the file, then delete it again, and so on (an even number
    // of times, so the file is as it was afterwards); the anchor applies the same edits.
    let version = 1;
    // The first keystroke after the file opened and its diagnostics were read for a moment.
    await new Promise((done) => setTimeout(done, 600));
    const firstAt = lines.positionAt(big.indexOf('"title": "', big.length >> 1) + '"title": "'.length);
    const firstStarted = now();
    await client.change(uri, ++version, { start: firstAt, end: firstAt }, 'x');
    await client.pull(uri);
    const firstKeystroke = now() - firstStarted;
    await client.change(uri, ++version, { start: firstAt, end: { line: firstAt.line, character: firstAt.character + 1 } }, '');
    await client.pull(uri);
    info('keystroke on 5 MB, the first after opening (typing in a string, 0.6 s after its diagnostics)', `${firstKeystroke.toFixed(1)} ms`);
    let anchorDocument = TextDocument.create('file:///bench/5MB.babel.json', 'json', 1, big);
    let anchorVersion = 1;
    const keystrokes = async (at: number, typed: string): Promise<{ ours: Stats; anchor: Stats }> => {
      const where = lines.positionAt(at);
      const edit = (k: number) =>
        k % 2 === 0 ? { range: { start: where, end: where }, text: typed } : { range: { start: where, end: { line: where.line, character: where.character + typed.length } }, text: '' };
      let ourEdits = 0;
      let anchorEdits = 0;
      const result = await compare(
        {
          ours: async () => {
            const change = edit(ourEdits++);
            await client.change(uri, ++version, change.range, change.text);
            const report = await client.pull(uri);
            if (report.items.length > 0) throw new Error('a keystroke produced diagnostics');
          },
          anchor: async () => {
            const change = edit(anchorEdits++);
            anchorDocument = TextDocument.update(anchorDocument, [change as TextDocumentContentChangeEvent], ++anchorVersion);
            await anchorValidate(anchorDocument);
          },
        },
        { warmup: 2, samples: QUICK ? 6 : 14 },
      );
      return { ours: result.ours, anchor: result.anchor };
    };
    // In a string value: the common keystroke, parsed and analysed incrementally.
    const keystroke = await keystrokes(big.indexOf('"title": "', big.length >> 1) + '"title": "'.length, 'x');
    info('keystroke on 5 MB, typing in a string: ours (didChange → pull diagnostics answered)', range(keystroke.ours));
    info('keystroke on 5 MB, typing in a string: vscode-json-languageservice (update + parse + validate, in process)', range(keystroke.anchor));
    const speedUp = keystroke.anchor.median / keystroke.ours.median;
    target('keystroke on a 5 MB file over LSP (typing in a string value), speed-up over the anchor', ratio(speedUp), '≥ 4×', speedUp >= 4);
    // In a number: a full parse and analysis.
    const digit = await keystrokes(big.indexOf('"quantity": ', big.length >> 1) + '"quantity": '.length, '1');
    info(
      'keystroke on 5 MB, typing a digit into a number: ours / anchor',
      `${range(digit.ours)} / ${range(digit.anchor)}; ${ratio(digit.anchor.median / digit.ours.median)} faster`,
    );
    target('keystroke on a 5 MB file over LSP, didChange → pull diagnostics answered: typing in a string value', range(keystroke.ours), '≤ 15 ms', keystroke.ours.median <= 15);
    target('the same, typing a digit into a number', range(digit.ours), '≤ 15 ms', digit.ours.median <= 15);

    // Completion and hover on the settled 5 MB file: inside data (registry fields) and in meta.
    const middle = big.length >> 1;
    const metaAt = big.lastIndexOf('"meta"');
    const completions = [positionOf(big, lines, '"sku"', middle, 2), positionOf(big, lines, '"lang": "', metaAt, '"lang": "'.length)];
    const hovers = [positionOf(big, lines, '"unit_price_cents"', middle, 3), positionOf(big, lines, '"created_at"', metaAt, 3)];
    const counts: number[] = [];
    let c = 0;
    let h = 0;
    const features = await compare(
      {
        completion: async () => {
          const items = await client.request<unknown[]>('textDocument/completion', { textDocument: { uri }, position: completions[c++ % completions.length] });
          counts.push(items.length);
        },
        hover: async () => {
          const hover = await client.request<unknown>('textDocument/hover', { textDocument: { uri }, position: hovers[h++ % hovers.length] });
          if (!hover) throw new Error('no hover on the 5 MB file');
        },
      },
      { warmup: 2, samples: QUICK ? 6 : 20 },
    );
    if (counts.some((n) => n === 0)) throw new Error('a completion on the 5 MB file returned nothing');
    target('completion on a 5 MB file (a data key, a meta value)', range(features.completion), '< 20 ms', features.completion.median < 20);
    target('hover on a 5 MB file (a data key, a meta key)', range(features.hover), '< 20 ms', features.hover.median < 20);
  } finally {
    await client.shutdown();
  }

  // Memory with 10,000 open tiny documents.
  const files = findFixtureFiles(WORKSPACE);
  const probe = new BenchClient({ probe: true, server: SHIPPED_SERVER });
  try {
    await probe.initialize(WORKSPACE);
    const before = await probe.memory();
    const opened = now();
    for (let i = 0; i < files.length; i += 200) {
      const batch = files.slice(i, i + 200);
      await Promise.all(batch.map((file) => probe.open(`file://${file}`, readFileSync(file, 'utf8'))));
      await Promise.all(batch.map((file) => probe.pull(`file://${file}`)));
    }
    const openTime = now() - opened;
    const after = await probe.memory();
    const mb = (n: number) => `${(n / 1024 / 1024).toFixed(0)} MB`;
    info(
      `server memory with ${files.length.toLocaleString('en')} open tiny documents (each opened and its diagnostics pulled)`,
      `RSS ${mb(after.rss)}, heap ${mb(after.heapUsed)} (at start: RSS ${mb(before.rss)}, heap ${mb(before.heapUsed)}; ${((after.heapUsed - before.heapUsed) / files.length / 1024).toFixed(1)} KB heap per document; opening and pulling all took ${(openTime / 1000).toFixed(1)} s)`,
    );
  } finally {
    await probe.shutdown();
  }
}

// ---------------------------------------------------------------------------------------------
// Every fixture's problems in the editor: workspace/diagnostic on 10,000 fixtures.

async function workspaceScenario(): Promise<void> {
  log(`\nworkspace/diagnostic on ${WORKSPACE_FILES.toLocaleString('en')} fixtures over ${URN_COUNT} registered URNs (production server over stdio)`);
  const dir = join(OUT, 'workspace-registered-10k');
  writeRegisteredWorkspace(dir, WORKSPACE_FILES);
  const cli = join(ROOT, 'dist/cli.js');
  const runs = [];
  for (let i = 0; i < (QUICK ? 1 : 3); i++) runs.push(await measureWorkspace(dir, SHIPPED_SERVER, cli));
  const last = runs[runs.length - 1];
  if (last.reported !== WORKSPACE_FILES || last.withProblems !== BROKEN_COUNT || last.cliWithProblems !== BROKEN_COUNT) {
    throw new Error(`the workspace report is wrong: ${JSON.stringify(last)}`);
  }
  // The edited schema is URN number 7's: every fixture i with i % URN_COUNT === 7.
  let expectedRejected = 0;
  for (let i = 0; i < WORKSPACE_FILES; i++) if (i % URN_COUNT === 7) expectedRejected++;
  if (last.rejectedAfterEdit !== expectedRejected || last.reportedAfterEdit !== expectedRejected) throw new Error(`the report after the schema edit is wrong: ${JSON.stringify(last)} (expected ${expectedRejected})`);
  const first = stats(runs.map((run) => run.startToFirstReport));
  const edit = stats(runs.map((run) => run.schemaEditToReport));
  info('babelq lint . on the same folder (the anchor: the same findings, cold process)', `${(stats(runs.map((run) => run.cliLint)).median / 1000).toFixed(2)} s, ${last.cliWithProblems} files with problems`);
  target(`server start → first full workspace report (${last.reported.toLocaleString('en')} fixtures, ${last.withProblems} with problems)`, range(first), '< 2 s', first.median < 2000);
  target(`unsaved schema edit → report of the ${last.rejectedAfterEdit} fixtures it now rejects (only those sent)`, range(edit), '< 300 ms', edit.median < 300);
  let expectedReferences = 0;
  for (let i = 0; i < WORKSPACE_FILES; i++) if (i % URN_COUNT === 3) expectedReferences++;
  if (last.referencesFound !== expectedReferences) throw new Error(`find references found ${last.referencesFound} fixtures, expected ${expectedReferences}`);
  const warm = stats(runs.map((run) => run.referencesWarm));
  const cold = stats(runs.map((run) => run.referencesCold));
  target(`find references of a URN used by ${expectedReferences} of the ${WORKSPACE_FILES.toLocaleString('en')} fixtures, after the workspace report (server)`, range(warm), '≤ 300 ms', warm.median <= 300);
  target(`find references of the same URN from a server that has not reported the workspace: the files walked and read (server)`, range(cold), '≤ 1 s', cold.median <= 1000);
}

// ---------------------------------------------------------------------------------------------
// A breaking schema change while it is typed, on a 100-schema registry in git.

async function compatScenario(): Promise<void> {
  log(`\nbreaking-change while a schema is typed: ${COMPAT_SCHEMAS} schemas in git, 20 fixtures each (production server over stdio)`);
  const dir = join(OUT, 'compat-100');
  writeCompatRepository(dir);
  const { keystrokeToBreak, message } = await measureSchemaCompat(dir, SHIPPED_SERVER, QUICK ? 5 : 15);
  if (!message.includes('20 of the 20 fixtures')) throw new Error(`the break does not count the URN's fixtures: ${message}`);
  // The first edit pays git's start (rev-parse, cat-file); the rest are the keystroke as typed.
  info(`unsaved schema edit → breaking-change with the fixtures it breaks counted (${COMPAT_SCHEMAS} schemas; first edit, git read)`, `${keystrokeToBreak[0].toFixed(1)} ms`);
  info(`unsaved schema edit → breaking-change with the fixtures it breaks counted (${COMPAT_SCHEMAS} schemas; later edits)`, range(stats(keystrokeToBreak.slice(1))));
}

// ---------------------------------------------------------------------------------------------
// The CLI against ajv-cli on 10,000 files.

function cliScenario(): void {
  log(`\nbabelq lint vs ajv-cli on ${WORKSPACE_FILES.toLocaleString('en')} files (process start included)`);
  const cli = join(ROOT, 'dist/cli.js');
  const ajv = join(ROOT, 'node_modules/ajv-cli/dist/index.js');
  const run = (args: string[]) => {
    const started = now();
    const result = spawnSync(process.execPath, args, { cwd: WORKSPACE, maxBuffer: 1 << 30, encoding: 'utf8' });
    const elapsed = now() - started;
    return { elapsed, result };
  };
  const ours = () => run([cli, 'lint', '.', '--format', 'json']);
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
  const times: { ours: number[]; anchor: number[] } = { ours: [], anchor: [] };
  for (let i = 0; i < (QUICK ? 2 : 5); i++) {
    if (i % 2 === 0) {
      times.ours.push(ours().elapsed);
      times.anchor.push(anchor().elapsed);
    } else {
      times.anchor.push(anchor().elapsed);
      times.ours.push(ours().elapsed);
    }
  }
  const o = stats(times.ours);
  const a = stats(times.anchor);
  const explicit = stats([0, 1].map(() => run([cli, 'lint', '.', '--format', 'json', '--registry', 'registry.json']).elapsed));
  info('babelq lint . --format json (registry found and used, payload schema checked)', range(o));
  info('babelq lint . --format json --registry registry.json (no registry search per file)', range(explicit));
  info('ajv validate -s envelope.schema.json -d "**/*.babel.json"', range(a));
  target(`babelq lint of ${WORKSPACE_FILES.toLocaleString('en')} files vs ajv-cli on the same files`, `${ratio(a.median / o.median)} faster`, '≥ 3× faster', a.median >= 3 * o.median);
  // Peak memory of the same lint, read by the process itself as it exits (bench/memory-probe.cjs).
  const rssFile = join(tmpdir(), `babelq-bench-rss-${process.pid}`);
  const probed = spawnSync(process.execPath, ['--require', join(ROOT, 'bench/memory-probe.cjs'), cli, 'lint', '.', '--format', 'json'], { cwd: WORKSPACE, maxBuffer: 1 << 30, encoding: 'utf8', env: { ...process.env, BENCH_PEAK_RSS_FILE: rssFile } });
  if (probed.status !== 0) throw new Error(`babelq lint failed under the memory probe (exit ${probed.status})`);
  const peakMb = Number(readFileSync(rssFile, 'utf8')) / 1024;
  rmSync(rssFile, { force: true });
  target(`babelq lint of ${WORKSPACE_FILES.toLocaleString('en')} files: peak memory (max RSS)`, `${peakMb.toFixed(0)} MB`, '< 50 MB', peakMb < 50);
}

// ---------------------------------------------------------------------------------------------
// Sizes: the server bundle as built, minified as `npm run package` builds it, and the .vsix.

/** Where the production bundles are built (`npm run package`'s build, into a staging copy so dist/ is left alone). */
const STAGE = join(OUT, 'vsix');
/** The language server as the .vsix ships it: what the server scenarios start. */
const SHIPPED_SERVER = join(STAGE, 'dist/server.js');

function buildProduction(): void {
  rmSync(STAGE, { recursive: true, force: true });
  const result = spawnSync(process.execPath, ['esbuild.mjs', '--production', `--outdir=${join(STAGE, 'dist')}`], { cwd: ROOT, encoding: 'utf8' });
  if (result.status !== 0 || !existsSync(SHIPPED_SERVER)) throw new Error(`the production build failed:\n${result.stderr || result.stdout}`);
}

async function sizeScenario(): Promise<void> {
  log('\nSizes');
  info('dist/server.js (npm run build: unminified, source map linked)', bytes(statSync(join(ROOT, 'dist/server.js')).size));
  const stage = STAGE;
  info('server bundle, production (minified, as npm run package builds it)', bytes(statSync(SHIPPED_SERVER).size));
  for (const entry of ['package.json', 'README.md', 'CHANGELOG.md', 'LICENSE', 'language-configuration.json', '.vscodeignore']) copyFileSync(join(ROOT, entry), join(stage, entry));
  for (const dir of ['syntaxes', 'snippets', 'schemas', 'images']) cpSync(join(ROOT, dir), join(stage, dir), { recursive: true });
  const vsix = join(OUT, 'babelqueue-envelope-tools.vsix');
  rmSync(vsix, { force: true });
  const vsce = join(ROOT, 'node_modules/@vscode/vsce/vsce');
  const result = spawnSync(process.execPath, [vsce, 'package', '--no-dependencies', '--no-rewrite-relative-links', '--allow-missing-repository', '--out', vsix], { cwd: stage, encoding: 'utf8', timeout: 120_000 });
  if (result.status === 0 && existsSync(vsix)) info('.vsix (vsce package of the production bundles)', bytes(statSync(vsix).size));
  else info('.vsix', `not built: ${(result.stderr || result.stdout || String(result.error)).trim().split('\n')[0]}`);
}

async function main(): Promise<void> {
  const started = now();
  const loadBefore = loadAverage();
  if (!gc) log('(run with node --expose-gc for steadier numbers)');
  log(`Machine: ${machine()}`);
  log('Preparing inputs in bench/out/ …');
  const { texts, registry } = prepare();
  if (runs('cli') || runs('server')) {
    if (!existsSync(join(WORKSPACE, 'registry.json')) || findFixtureFiles(WORKSPACE).length !== WORKSPACE_FILES) {
      writeWorkspace(WORKSPACE, WORKSPACE_FILES);
      writeRegistry(WORKSPACE);
    }
  }
  await sanityChecks(texts, registry);
  // What is measured must be right: the fast paths against their references (test/oracle/differential.ts),
  // in a process of its own so that it leaves nothing behind in this one.
  const differential = spawnSync(process.execPath, ['--import', 'tsx', join(ROOT, 'test/oracle/differential.ts'), QUICK ? '300' : '1500'], { encoding: 'utf8' });
  if (differential.status !== 0) throw new Error(`the differential check failed:\n${differential.stderr || differential.stdout}`);
  log(`Differential check: ${differential.stdout.trim()}`);
  if (runs('server') || runs('sizes') || runs('workspace') || runs('compat')) buildProduction();
  if (runs('analysis')) await analysisScenarios(texts, registry);
  if (runs('server')) await serverScenarios(texts);
  if (runs('cli')) cliScenario();
  if (runs('workspace')) await workspaceScenario();
  if (runs('compat')) await compatScenario();
  if (runs('sizes')) await sizeScenario();
  const failed = targets.filter((t) => !t.pass);
  log(`\n${targets.length - failed.length} of ${targets.length} targets pass${failed.length ? `; failing: ${failed.map((t) => t.name).join('; ')}` : ''}.`);
  if (WRITE_README && !ONLY) {
    writeBenchReadme(join(__dirname, 'README.md'), { targets, infos, scaling, anchorsTable, started, loadBefore, loadAfter: loadAverage() });
    log(`Wrote ${relative(process.cwd(), join(__dirname, 'README.md'))}.`);
  }
  log(`Took ${((now() - started) / 1000).toFixed(0)} s.`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
