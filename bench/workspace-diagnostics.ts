/**
 * The workspace's diagnostics as a VS Code client gets them (`workspace/diagnostic` over stdio from
 * the production server bundle): a folder of 10,000 fixtures over 46 registered URNs, 104 of
 * them broken. Measured: from starting the server process to the first full report, and from an
 * unsaved schema edit (one URN's schema gains a required field) to the report of the fixtures it
 * now rejects, with the counts that say the report is the right one. Anchor: `babelq lint .` on
 * the same folder, the same findings from a cold process.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { BenchClient } from './lsp';
import { tinyText, URN } from './generate';

export const URN_COUNT = 46;
export const BROKEN_COUNT = 104;

type Item = { kind: 'full' | 'unchanged'; uri: string; resultId?: string; items?: { code: string; message: string }[] };

/** URN number `n` (0-based) and its schema file. */
export const urnOf = (n: number) => `urn:babel:orders:imported-${String(n).padStart(2, '0')}`;
const schemaFile = (n: number) => `schemas/imported-${String(n).padStart(2, '0')}.json`;
const schemaOf = (required: readonly string[]) => ({ $schema: 'http://json-schema.org/draft-07/schema#', type: 'object', required, properties: { batch_id: { type: 'string' }, source: { type: 'string' }, orders: { type: 'array' } } });

/** 10,000 fixtures in folders of 100, URNs round-robin, every 96th with a forbidden key. */
export function writeRegisteredWorkspace(dir: string, count: number): void {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(join(dir, 'schemas'), { recursive: true });
  // A work tree of its own, as a team's fixtures are: bench/out/ is ignored by this project's git,
  // and the server leaves no file of an ignored folder to the client's file events (a client such
  // as eglot watches none there), so it would look at all 10,000 on every report and every find
  // references, the cost of a folder git ignores, which is not the workspace measured here.
  const init = spawnSync('git', ['init', '--quiet', dir], { encoding: 'utf8' });
  if (init.status !== 0) throw new Error(`git init ${dir} failed: ${init.error?.message ?? init.stderr}`);
  const schemas = Array.from({ length: URN_COUNT }, (_, n) => ({ urn: urnOf(n), schema: schemaFile(n), owner: 'orders', status: 'active' }));
  writeFileSync(join(dir, 'registry.json'), `${JSON.stringify({ schemas }, null, 2)}\n`);
  for (let n = 0; n < URN_COUNT; n++) writeFileSync(join(dir, schemaFile(n)), `${JSON.stringify(schemaOf(['batch_id']), null, 2)}\n`);
  let broken = 0;
  for (let i = 0; i < count; i++) {
    const folder = join(dir, `batch-${String(Math.floor(i / 100)).padStart(3, '0')}`);
    if (i % 100 === 0) mkdirSync(folder, { recursive: true });
    let text = tinyText(i + 1).replace(URN, urnOf(i % URN_COUNT));
    if (broken < BROKEN_COUNT && i % 96 === 5) {
      text = text.replace('"attempts": 0', '"attempts": 0,\n  "timestamp": 1750000000');
      broken++;
    }
    writeFileSync(join(folder, `message-${String(i).padStart(5, '0')}.babel.json`), text);
  }
}

export interface WorkspaceTimings {
  readonly startToFirstReport: number;
  readonly reported: number;
  readonly withProblems: number;
  readonly schemaEditToReport: number;
  readonly reportedAfterEdit: number;
  readonly rejectedAfterEdit: number;
  readonly cliLint: number;
  readonly cliWithProblems: number;
  /** Find references of one URN's registry entry once the report has run (what the report knows), median of 5. */
  readonly referencesWarm: number;
  /** The same from a server that has not reported the workspace (it walks and reads the files). */
  readonly referencesCold: number;
  readonly referencesFound: number;
}

/** textDocument/references on URN number `n`'s entry in registry.json (opened first): how long, and how many. */
async function timeReferences(client: BenchClient, dir: string, n: number): Promise<{ ms: number; found: number }> {
  const uri = pathToFileURL(join(dir, 'registry.json')).href;
  const text = readFileSync(join(dir, 'registry.json'), 'utf8');
  const line = text.split('\n').findIndex((each) => each.includes(`"${urnOf(n)}"`));
  const started = performance.now();
  const locations = await client.request<unknown[]>('textDocument/references', { textDocument: { uri }, position: { line, character: 16 }, context: { includeDeclaration: false } });
  return { ms: performance.now() - started, found: locations.length };
}

export async function measureWorkspace(dir: string, server: string, cli: string): Promise<WorkspaceTimings> {
  const started = performance.now();
  const client = new BenchClient({ server });
  try {
    await client.initialize(dir);
    const first = (await client.request<{ items: Item[] }>('workspace/diagnostic', { previousResultIds: [] })).items;
    const startToFirstReport = performance.now() - started;
    const withProblems = first.filter((item) => (item.items ?? []).length > 0).length;

    // Held open (nothing changed), then one schema tightened in an editor, unsaved.
    const pending = client.request<{ items: Item[] }>('workspace/diagnostic', { previousResultIds: first.map((item) => ({ uri: item.uri, value: item.resultId })) });
    await new Promise((done) => setTimeout(done, 300));
    const uri = pathToFileURL(join(dir, schemaFile(7))).href;
    const text = readFileSync(join(dir, schemaFile(7)), 'utf8');
    await client.connection.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'json', version: 1, text } });
    await new Promise((done) => setTimeout(done, 300));
    const edited = performance.now();
    await client.connection.sendNotification('textDocument/didChange', { textDocument: { uri, version: 2 }, contentChanges: [{ text: JSON.stringify(schemaOf(['batch_id', 'warehouse_code']), null, 2) }] });
    const after = (await pending).items;
    const schemaEditToReport = performance.now() - edited;
    const full = after.filter((item) => item.kind === 'full');
    const rejectedAfterEdit = full.filter((item) => (item.items ?? []).some((d) => d.code === 'payload-schema' && d.message.includes('warehouse_code'))).length;

    const registryUri = pathToFileURL(join(dir, 'registry.json')).href;
    await client.connection.sendNotification('textDocument/didOpen', { textDocument: { uri: registryUri, languageId: 'json', version: 1, text: readFileSync(join(dir, 'registry.json'), 'utf8') } });
    const warm: number[] = [];
    let referencesFound = 0;
    for (let i = 0; i < 5; i++) {
      const { ms, found } = await timeReferences(client, dir, 3);
      warm.push(ms);
      referencesFound = found;
    }
    const referencesWarm = warm.sort((a, b) => a - b)[2]!;
    const fresh = new BenchClient({ server });
    let referencesCold: number;
    try {
      await fresh.initialize(dir);
      await fresh.connection.sendNotification('textDocument/didOpen', { textDocument: { uri: registryUri, languageId: 'json', version: 1, text: readFileSync(join(dir, 'registry.json'), 'utf8') } });
      const cold = await timeReferences(fresh, dir, 3);
      if (cold.found !== referencesFound) throw new Error(`references differ: ${cold.found} walked, ${referencesFound} from the report`);
      referencesCold = cold.ms;
    } finally {
      await fresh.shutdown();
    }

    const cliStarted = performance.now();
    const lint = spawnSync(process.execPath, [cli, 'lint', '.', '--format', 'json'], { cwd: dir, encoding: 'utf8', maxBuffer: 1 << 30 });
    const cliLint = performance.now() - cliStarted;
    const cliWithProblems = (JSON.parse(lint.stdout) as { diagnostics: unknown[] }[]).filter((report) => report.diagnostics.length > 0).length;
    return { startToFirstReport, reported: first.length, withProblems, schemaEditToReport, reportedAfterEdit: full.length, rejectedAfterEdit, cliLint, cliWithProblems, referencesWarm, referencesCold, referencesFound };
  } finally {
    await client.shutdown();
  }
}
