/**
 * Find-references without LSP: the fixtures below a folder that route on a URN, read through a
 * reader that prefers open editors, bounded in size, regular files only, node_modules skipped.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { readFromDisk } from '../../workspace/registry-loader';
import { findUrnReferences, MAX_FIXTURE_FILE_BYTES } from '../../workspace/urn-references';

const URN = 'urn:babel:orders:created';
const OTHER = 'urn:babel:orders:placed';

const root = mkdtempSync(join(tmpdir(), 'babelq-urn-references-'));
after(() => rmSync(root, { recursive: true, force: true }));

function write(path: string, text: string): void {
  mkdirSync(join(root, path, '..'), { recursive: true });
  writeFileSync(join(root, path), text);
}

/** An envelope routing through `job` and/or `urn`, with `data` spliced in as written. */
function envelope(route: { job?: string; urn?: string }, data = '{}'): string {
  const routing = Object.entries(route).map(([key, value]) => `  ${JSON.stringify(key)}: ${JSON.stringify(value)},\n`).join('');
  return `{\n${routing}  "data": ${data},\n  "meta": { "queue": "orders" }\n}\n`;
}

write('by-job.babel.json', envelope({ job: URN }));
write('by-alias.babel.json', envelope({ urn: URN }));
write('data-only.babel.json', envelope({ job: OTHER }, `{ "previous": "${URN}" }`));
// The decoders take `job` when it is set: the alias is not what this one routes on.
write('job-wins.babel.json', envelope({ job: OTHER, urn: URN }));
write('nested/deeper/in-subfolder.babel.json', envelope({ job: URN }));
write('node_modules/some-package/vendored.babel.json', envelope({ job: URN }));
write('not-a-fixture.json', envelope({ job: URN }));
write('too-large.babel.json', envelope({ job: URN }, `{ "padding": "${'x'.repeat(MAX_FIXTURE_FILE_BYTES)}" }`));
symlinkSync(join(root, 'by-job.babel.json'), join(root, 'linked.babel.json'));

const found = async (reader = readFromDisk) => (await findUrnReferences(root, URN, reader)).map((reference) => reference.path.slice(root.length + 1));

describe('findUrnReferences', () => {
  test('finds the fixtures that route on the URN, through job or the urn alias, in subfolders, in path order', async () => {
    assert.deepEqual(await found(), ['by-alias.babel.json', 'by-job.babel.json', 'nested/deeper/in-subfolder.babel.json']);
  });

  test('each reference is where the fixture writes the URN, with the text the offsets are in', async () => {
    for (const reference of await findUrnReferences(root, URN)) {
      assert.equal(reference.text, readFileSync(reference.path, 'utf8'));
      assert.equal(JSON.parse(reference.text.slice(reference.offset, reference.end)), URN);
    }
  });

  test('the reader is asked for the text: an open editor wins over the disk', async () => {
    // Unsaved: on disk this fixture still routes on the other URN.
    const edited = envelope({ urn: URN }, '{ "note": "not saved yet" }');
    const editorOpen = (path: string, limit: number) => (path.endsWith('data-only.babel.json') ? edited : readFromDisk(path, limit));
    assert.deepEqual(await found(editorOpen), ['by-alias.babel.json', 'by-job.babel.json', 'data-only.babel.json', 'nested/deeper/in-subfolder.babel.json']);
    const [reference] = (await findUrnReferences(root, URN, editorOpen)).filter((each) => each.path.endsWith('data-only.babel.json'));
    assert.equal(reference.text, edited);
    assert.equal(reference.text.slice(reference.offset, reference.end), JSON.stringify(URN));
  });

  test('an editor text above the limit is skipped like a file that large', async () => {
    const huge = envelope({ job: URN }, `{ "padding": "${'x'.repeat(MAX_FIXTURE_FILE_BYTES)}" }`);
    const editorOpen = (path: string, limit: number) => (path.endsWith('by-job.babel.json') ? huge : readFromDisk(path, limit));
    assert.deepEqual(await found(editorOpen), ['by-alias.babel.json', 'nested/deeper/in-subfolder.babel.json']);
  });

  test('a URN no fixture routes on has no references; a folder that does not exist has none either', async () => {
    assert.deepEqual(await findUrnReferences(root, 'urn:babel:orders:refunded'), []);
    assert.deepEqual(await findUrnReferences(join(root, 'missing'), URN), []);
  });

  test('a cancelled search stops at its next time slice and finds nothing', async () => {
    let reads = 0;
    const cancellation = { isCancellationRequested: false };
    const counting = (path: string, limit: number) => {
      reads++;
      cancellation.isCancellationRequested = true;
      return readFromDisk(path, limit);
    };
    assert.deepEqual(await findUrnReferences(root, URN, counting, undefined, cancellation), []);
    assert.equal(reads, 1, 'the walk read on after it was cancelled');
  });

  test('a URN written with JSON escapes is the URN it decodes to, as the report and go to definition read it', async () => {
    const escapes = mkdtempSync(join(tmpdir(), 'babelq-urn-escapes-'));
    try {
      // `\u0065` is "e" and `\/` is "/": the text never holds the URN as typed in the registry.
      writeFileSync(join(escapes, 'escaped.babel.json'), '{ "job": "urn:babel:orders:cr\\u0065ated", "data": {} }\n');
      writeFileSync(join(escapes, 'escaped-alias.babel.json'), '{ "urn": "urn:babel:orders\\u003acreated", "data": {} }\n');
      writeFileSync(join(escapes, 'escaped-other.babel.json'), '{ "job": "urn:babel:orders:pl\\u0061ced", "data": {} }\n');
      const references = await findUrnReferences(escapes, URN);
      assert.deepEqual(references.map((reference) => reference.path.slice(escapes.length + 1)), ['escaped-alias.babel.json', 'escaped.babel.json']);
      for (const reference of references) assert.equal(JSON.parse(reference.text.slice(reference.offset, reference.end)), URN);
    } finally {
      rmSync(escapes, { recursive: true, force: true });
    }
  });
});
