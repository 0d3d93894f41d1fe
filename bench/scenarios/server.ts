/** The language server over stdio (the production bundle): start, keystrokes on 5 MB against the anchor, completion and hover, memory with 10,000 open documents. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { TextDocument, type TextDocumentContentChangeEvent } from 'vscode-json-languageservice';
import { LineIndex } from '../../core/model/positions';
import { findFixtureFiles } from '../../workspace/fixture-files';
import { anchorValidate } from '../anchor';
import { FILES, info, log, QUICK, ratio, SHIPPED_SERVER, target, WORKSPACE } from '../context';
import { BenchClient } from '../lsp';
import { PUSH_DEBOUNCE_MS } from '../../server/handlers/diagnostics';
import { compare, now, range, stats, type Stats } from '../measure';

/** The position of the first `needle` at or after `from`, plus `shift` characters. */
function positionOf(text: string, lines: LineIndex, needle: string, from: number, shift = 0): { line: number; character: number } {
  const at = text.indexOf(needle, from);
  if (at < 0) throw new Error(`${needle} not found`);
  return lines.positionAt(at + shift);
}

export async function serverScenarios(texts: Record<string, string>): Promise<void> {
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

  await pushedKeystrokes(big, lines);

  // Memory with 10,000 open tiny documents.
  const files = await findFixtureFiles(WORKSPACE);
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

/** Between keystrokes of the pushed scenario: longer than the push's pause and the collection after it. */
const PUSHED_GAP_MS = 700;

/**
 * A keystroke on 5 MB in an editor that does not pull diagnostics (Neovim 0.7, eglot): the server
 * pushes them once typing pauses for PUSH_DEBOUNCE_MS, so what the user waits for is that pause
 * and the analysis after it. Typing in a string, then deleting it again, one key per PUSHED_GAP_MS.
 */
async function pushedKeystrokes(big: string, lines: LineIndex): Promise<void> {
  const client = new BenchClient({ server: SHIPPED_SERVER, push: true });
  try {
    await client.initialize(FILES);
    const uri = `file://${join(FILES, '5MB.babel.json')}`;
    const opened = client.published(uri, 1);
    await client.open(uri, big);
    await opened;
    const where = lines.positionAt(big.indexOf('"title": "', big.length >> 1) + '"title": "'.length);
    const times: number[] = [];
    for (let k = 0; k < (QUICK ? 6 : 12); k++) {
      await new Promise((done) => setTimeout(done, PUSHED_GAP_MS));
      const version = k + 2;
      const published = client.published(uri, version);
      // Awaited below; if the change itself fails, that failure is the one reported.
      published.catch(() => undefined);
      const started = now();
      const span = k % 2 === 0 ? { start: where, end: where } : { start: where, end: { line: where.line, character: where.character + 1 } };
      await client.change(uri, version, span, k % 2 === 0 ? 'x' : '');
      times.push((await published) - started);
    }
    const pushed = stats(times);
    info(
      `keystroke on 5 MB with pushed diagnostics (an editor without pull, as Neovim 0.7 and eglot): didChange → publishDiagnostics, the server's ${PUSH_DEBOUNCE_MS} ms pause included`,
      `${range(pushed)}; ${(pushed.median - PUSH_DEBOUNCE_MS).toFixed(1)} ms after the pause`,
    );
  } finally {
    await client.shutdown();
  }
}
