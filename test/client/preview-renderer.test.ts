/**
 * client/preview-renderer.ts with the built worker (dist/preview-worker.js): a large envelope's
 * preview comes from the worker and equals the one rendered in place; texts typed while a render
 * runs collapse into one render of the newest; a worker that cannot start falls back, and says so;
 * an idle worker is ended (its heap holds the last render) and a later render starts another.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { renderPreview, type PreviewOptions } from '../../core/message/preview';
import { parseJson } from '../../core/parse/parser';
import { PreviewRenderer } from '../../client/preview-renderer';
import { GOOD_ENVELOPE } from '../support/envelopes';

const WORKER = join(__dirname, '../../dist/preview-worker.js');
const options: PreviewOptions = {
  sdk: 'node',
  freshIds: true,
  fresh: { uuid: () => '5f0c2a8e-1c7b-4f0e-8d51-3a9b7c6d2e10', now: () => 1767225600000 },
  redisLayout: 'babelqueue',
  redisPrefix: '',
  target: 'redis://127.0.0.1:6379',
} as PreviewOptions;

/** A valid envelope of about `kb` kilobytes (its data holds that many lines of items). */
function envelopeOf(kb: number, sku = 'SKU'): string {
  const envelope = JSON.parse(GOOD_ENVELOPE) as { data: Record<string, unknown> };
  envelope.data = { items: Array.from({ length: kb * 16 }, (_, index) => ({ sku: `${sku}-${index}`, quantity: index % 7 })) };
  return JSON.stringify(envelope, null, 2);
}

const inPlace = (text: string) => renderPreview(parseJson(text), options);

test('a large envelope: the worker\'s preview is exactly the one rendered in place', async () => {
  const renderer = new PreviewRenderer(WORKER, (message) => assert.fail(message));
  try {
    const text = envelopeOf(600);
    assert.ok(text.length > 256 * 1024);
    assert.equal(await renderer.render('file:///a.babel.json', text, options), inPlace(text));
  } finally {
    renderer.dispose();
  }
});

test('keystrokes in a value: each version the worker parses from the last is previewed as a fresh parse would be', async () => {
  const renderer = new PreviewRenderer(WORKER, (message) => assert.fail(message));
  try {
    let text = envelopeOf(600);
    // A string edited, a number edited, a string edited back, another document in between.
    const edits: ((text: string) => string)[] = [
      (t) => t.replace('"SKU-7"', '"SKU-7x"'),
      (t) => t.replace('"quantity": 3', '"quantity": 31'),
      (t) => t.replace('"SKU-7x"', '"SKU-7"'),
    ];
    assert.equal(await renderer.render('file:///e.babel.json', text, options), inPlace(text));
    for (const edit of edits) {
      const next = edit(text);
      assert.notEqual(next, text);
      text = next;
      assert.equal(await renderer.render('file:///e.babel.json', text, options), inPlace(text));
      assert.equal(await renderer.render('file:///f.babel.json', envelopeOf(300, 'F'), options), inPlace(envelopeOf(300, 'F')));
    }
  } finally {
    renderer.dispose();
  }
});

test('texts asked for while a render runs: one render of the newest, which every later caller gets', async () => {
  const renderer = new PreviewRenderer(WORKER, (message) => assert.fail(message));
  try {
    const [first, second, third] = [envelopeOf(400, 'A'), envelopeOf(400, 'B'), envelopeOf(400, 'C')];
    const results = await Promise.all([renderer.render('file:///b.babel.json', first, options), renderer.render('file:///b.babel.json', second, options), renderer.render('file:///b.babel.json', third, options)]);
    assert.equal(results[0], inPlace(first));
    assert.equal(results[1], inPlace(third), 'the text typed over is never rendered');
    assert.equal(results[2], inPlace(third));
    // A small envelope renders at once, in place.
    assert.equal(await renderer.render('file:///c.babel.json', GOOD_ENVELOPE, options), inPlace(GOOD_ENVELOPE));
  } finally {
    renderer.dispose();
  }
});

test('a worker that cannot start: the preview is rendered in place, and the reason is said', async () => {
  const problems: string[] = [];
  const renderer = new PreviewRenderer(join(__dirname, 'no-such-worker.js'), (message) => problems.push(message));
  try {
    const text = envelopeOf(300);
    assert.equal(await renderer.render('file:///d.babel.json', text, options), inPlace(text));
    assert.equal(problems.length, 1);
    assert.match(problems[0], /The preview worker stopped .*rendering in place/);
  } finally {
    renderer.dispose();
  }
});

async function waitFor(condition: () => boolean): Promise<void> {
  for (let waited = 0; !condition(); waited += 5) {
    assert.ok(waited < 5000, 'timed out');
    await new Promise((done) => setTimeout(done, 5));
  }
}

test('an idle worker is ended, and the next large render starts another', async () => {
  const renderer = new PreviewRenderer(WORKER, (message) => assert.fail(message), 200);
  try {
    const text = envelopeOf(300);
    assert.equal(await renderer.render('file:///e.babel.json', text, options), inPlace(text));
    assert.equal(renderer.hasWorker, true, 'kept right after a render, for the next keystroke');
    await waitFor(() => !renderer.hasWorker);
    // At once, while the ended worker may still be exiting: the new worker renders it.
    const edited = text.replace('SKU-1"', 'SKU-1x"');
    assert.equal(await renderer.render('file:///e.babel.json', edited, options), inPlace(edited));
  } finally {
    renderer.dispose();
  }
});
