import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { BenchClient } from './bench/lsp';
import { LineIndex } from './core/model/positions';
const FILES = resolve('bench/out/files');
const big = readFileSync(join(FILES, '5MB.babel.json'), 'utf8');
const lines = new LineIndex(big);
const gap = Number(process.env.GAP ?? 270);
(async () => {
  const client = new BenchClient({ server: resolve('dist/server.js') });
  await client.initialize(FILES);
  const uri = `file://${join(FILES, '5MB.babel.json')}`;
  await client.open(uri, big);
  await client.pull(uri);
  await new Promise((d) => setTimeout(d, 600));
  const where = lines.positionAt(big.indexOf('"title": "', big.length >> 1) + '"title": "'.length);
  let version = 1; const times: number[] = [];
  for (let k = 0; k < 30; k++) {
    const t = performance.now();
    if (k % 2 === 0) await client.change(uri, ++version, { start: where, end: where }, 'x');
    else await client.change(uri, ++version, { start: where, end: { line: where.line, character: where.character + 1 } }, '');
    await client.pull(uri);
    const dt = performance.now() - t; times.push(dt);
    process.stderr.write(`key ${k} ${dt.toFixed(1)} ${(performance.timeOrigin + t).toFixed(1)} ${(performance.timeOrigin + t + dt).toFixed(1)}\n`);
    await new Promise((d) => setTimeout(d, gap));
  }
  times.sort((a, b) => a - b);
  console.log('median', times[15].toFixed(1), 'q1', times[7].toFixed(1), 'q3', times[22].toFixed(1));
  await client.shutdown();
})();
