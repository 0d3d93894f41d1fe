/**
 * A breaking schema change caught while it is typed (server/schema-compat.ts), as a VS Code client
 * gets it from the production server over stdio: a git repository with a 100-schema registry and
 * 20 fixtures per URN, one schema open; each keystroke-sized edit makes a different property
 * required (a new break each time, unsaved), and the time runs from the didChange to the schema's
 * pulled diagnostics holding the break with the count of the URN's fixtures it breaks.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { BenchClient } from './lsp';
import { tinyText, URN } from './generate';

export const COMPAT_SCHEMAS = 100;
const FIXTURES_PER_URN = 20;
const urnOf = (n: number) => `urn:babel:catalog:item-${String(n).padStart(3, '0')}`;
const schemaFile = (n: number) => `schemas/item-${String(n).padStart(3, '0')}.json`;
const schemaOf = (required: readonly string[]) => ({ $schema: 'http://json-schema.org/draft-07/schema#', type: 'object', required, properties: { batch_id: { type: 'string' }, source: { type: 'string' }, orders: { type: 'array' }, ...Object.fromEntries(required.map((name) => [name, { type: 'string' }])) } });

/** The repository, committed, so HEAD holds every schema as written. */
export function writeCompatRepository(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(join(dir, 'schemas'), { recursive: true });
  const schemas = Array.from({ length: COMPAT_SCHEMAS }, (_, n) => ({ urn: urnOf(n), schema: schemaFile(n), owner: 'catalog', status: 'active' }));
  writeFileSync(join(dir, 'registry.json'), `${JSON.stringify({ schemas }, null, 2)}\n`);
  for (let n = 0; n < COMPAT_SCHEMAS; n++) writeFileSync(join(dir, schemaFile(n)), `${JSON.stringify(schemaOf(['batch_id']), null, 2)}\n`);
  for (let n = 0; n < COMPAT_SCHEMAS; n++) {
    const folder = join(dir, 'fixtures', `item-${String(n).padStart(3, '0')}`);
    mkdirSync(folder, { recursive: true });
    for (let i = 0; i < FIXTURES_PER_URN; i++) writeFileSync(join(folder, `message-${i}.babel.json`), tinyText(n * FIXTURES_PER_URN + i + 1).replace(URN, urnOf(n)));
  }
  const git = (...args: string[]) => execFileSync('git', ['-c', 'user.name=Bench', '-c', 'user.email=bench@example.com', ...args], { cwd: dir, stdio: 'ignore' });
  git('init', '-q');
  git('add', '.');
  git('commit', '-q', '-m', 'catalog');
}

export interface CompatTimings {
  /** didChange → the schema's diagnostics with the break and its count, per edit. */
  readonly keystrokeToBreak: number[];
  /** The last message, to check it counts every fixture of the URN. */
  readonly message: string;
}

export async function measureSchemaCompat(dir: string, server: string, edits: number): Promise<CompatTimings> {
  const client = new BenchClient({ server });
  try {
    await client.initialize(dir);
    // The workspace's first report, as the editor asks for it on start.
    await client.request('workspace/diagnostic', { previousResultIds: [] });
    const uri = pathToFileURL(join(dir, schemaFile(42))).href;
    const text = readFileSync(join(dir, schemaFile(42)), 'utf8');
    await client.connection.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'json', version: 1, text } });
    await client.request('textDocument/diagnostic', { textDocument: { uri } });
    const keystrokeToBreak: number[] = [];
    let message = '';
    for (let edit = 0; edit < edits; edit++) {
      const field = `field_${edit}`;
      const started = performance.now();
      await client.connection.sendNotification('textDocument/didChange', { textDocument: { uri, version: edit + 2 }, contentChanges: [{ text: JSON.stringify(schemaOf(['batch_id', field]), null, 2) }] });
      const report = await client.request<{ items: { code: string; message: string }[] }>('textDocument/diagnostic', { textDocument: { uri } });
      keystrokeToBreak.push(performance.now() - started);
      const found = report.items.find((item) => item.code === 'breaking-change' && item.message.includes(field));
      if (!found) throw new Error(`no breaking-change for ${field}: ${JSON.stringify(report.items)}`);
      message = found.message;
    }
    return { keystrokeToBreak, message };
  } finally {
    await client.shutdown();
  }
}
