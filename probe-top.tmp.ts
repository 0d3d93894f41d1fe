import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { BenchClient } from './bench/lsp';
import { envelopeText } from './bench/generate';
const envelope = JSON.parse(envelopeText(5 * 1024 * 1024)) as Record<string, unknown>;
const meta = { ...(envelope.meta as Record<string, unknown>), schema_version: 2 };
const big = `${JSON.stringify({ job: envelope.job, trace_id: envelope.trace_id, meta, attempts: 0, data: envelope.data }, null, 2)}\n`;
const dir = mkdtempSync(join(tmpdir(), 'probe-'));
writeFileSync(join(dir, 'big.babel.json'), big);
const lines = big.split('\n');
const line = lines.findIndex((l) => l.includes('"schema_version"'));
const character = lines[line].indexOf(': ') + 2;
(async () => {
  const client = new BenchClient({ server: resolve('dist/server.js') });
  await client.initialize(dir);
  const uri = `file://${join(dir, 'big.babel.json')}`;
  await client.open(uri, big);
  const first = await client.pull(uri);
  console.log('items at open', first.items.length);
  await new Promise((d) => setTimeout(d, 600));
  let version = 1; const times: number[] = [];
  for (let k = 0; k < 20; k++) {
    const t = performance.now();
    await client.change(uri, ++version, { start: { line, character }, end: { line, character: character + 1 } }, k % 2 === 0 ? '1' : '2');
    const r = await client.pull(uri);
    const dt = performance.now() - t; times.push(dt);
    process.stderr.write(`key ${k} ${dt.toFixed(1)} items ${r.items.length}\n`);
    await new Promise((d) => setTimeout(d, 400));
  }
  times.sort((a, b) => a - b);
  console.log('median', times[10].toFixed(1), 'q1', times[5].toFixed(1), 'q3', times[15].toFixed(1));
  await client.shutdown();
})();
