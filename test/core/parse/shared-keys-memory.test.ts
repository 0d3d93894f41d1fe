/**
 * Keys outlive their document in the parser's table of shared keys (one string for a key that
 * repeats across files) and in the rules' caches of keys found clean. V8 makes a slice of 13 or
 * more characters a view into the string it was cut from, so a key kept straight from a
 * document's text kept that whole text alive: a large fixture closed in the editor stayed in the
 * server's memory for as long as one of its keys did.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { test } from 'node:test';

const ROOT = resolve(__dirname, '../../..');
const MB = 1024 * 1024;

/** Runs `work(text)` on a 40 MB envelope with keys of 20 and 40 characters, drops it, and answers the heap it left behind. */
function retainedAfter(work: string): number {
  const script = `
const { parseText } = require(${JSON.stringify(resolve(ROOT, 'core/parse/parser.ts'))});
const { analyzeText } = require(${JSON.stringify(resolve(ROOT, 'core/rules/analyze.ts'))});
const heap = () => { global.gc(); global.gc(); return process.memoryUsage().heapUsed; };
// Warm up first, so what the modules set up once is not counted.
analyzeText('{"job": "urn:babel:a:b", "trace_id": "t", "data": {"k": 1}}');
const before = heap();
let text = JSON.stringify({
  job: 'urn:babel:orders:created',
  trace_id: '9f0c3f4e-8a55-4c5b-9d1e-2b7f4a6c8d10',
  data: { a_key_of_twenty_chars: 1, a_key_of_forty_characters_shared_by_none: 'x'.repeat(${40 * MB}) },
});
let result = ${work};
result = undefined;
text = undefined;
// V8 keeps the subject of the last regular expression match (RegExp.lastMatch) until the next one:
// any later work replaces it, as this match does.
/b/.exec('abc');
process.stdout.write(String(heap() - before));
`;
  const run = spawnSync(process.execPath, ['--import', 'tsx', '--expose-gc', '-e', script], { cwd: ROOT, encoding: 'utf8' });
  assert.equal(run.status, 0, run.stderr);
  const retained = Number(run.stdout);
  assert.ok(Number.isFinite(retained), run.stdout);
  return retained;
}

// The 40 MB text must be gone. What may stay: the modules' own tables, and the columns an analysis
// hands back for the next parse (core/parse/column-storage.ts), whose keys array for a document this
// large is 8 MB of the heap.
const LIMIT = 12 * MB;

test('a parsed document no longer referenced is not kept alive by the keys the parser shares', () => {
  const retained = retainedAfter('parseText(text)');
  assert.ok(retained < LIMIT, `${(retained / MB).toFixed(1)} MB stayed after the document was dropped`);
});

test("an analysed document no longer referenced is not kept alive by the rules' caches of keys", () => {
  const retained = retainedAfter('analyzeText(text)');
  assert.ok(retained < LIMIT, `${(retained / MB).toFixed(1)} MB stayed after the document was dropped`);
});
