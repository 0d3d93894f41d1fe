/**
 * The editor's preview and send refuse a saved envelope file that is not UTF-8, with the words
 * `babelq lint` (and `babelq preview`/`send`) use for the same bytes, instead of publishing the
 * U+FFFD VS Code decoded in their place; an edited document is published as typed.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { decodeStrictly } from '../../workspace/strict-utf8';
import { CHECKED_FILE_LIMIT, envelopeState, SavedBytesCheck, type FileBytesReader } from '../../client/file-bytes';
import { MAX_ENVELOPE_FILE_BYTES } from '../../workspace/bounded-read';
import { BYTE_ORDER_MARK_MESSAGE } from '../../core/parse/parser';

const LATIN1 = Buffer.from('{"job":"urn:babel:orders:created","data":{"name":"caf\xe9"}}\n', 'latin1');
const UTF8 = Buffer.from('{"job":"urn:babel:orders:created","data":{"name":"café"}}\n', 'utf8');

/** A file system of one file whose bytes and time the test sets, counting the reads. */
function files(initial: Uint8Array): FileBytesReader & { bytes: Uint8Array; mtime: number; reads: number; size?: number } {
  const fake = {
    bytes: initial,
    mtime: 1,
    reads: 0,
    size: undefined as number | undefined,
    async stat() {
      return { size: fake.size ?? fake.bytes.length, mtime: fake.mtime };
    },
    async read() {
      fake.reads++;
      return fake.bytes;
    },
  };
  return fake;
}

const saved = { uri: 'file:///w/a.babel.json', onDisk: true, isDirty: false };

describe('SavedBytesCheck', () => {
  test('a saved file that is not UTF-8 is refused with lint\'s message for the same bytes', async () => {
    const lint = decodeStrictly(LATIN1);
    assert.ok(!lint.ok);
    assert.equal(await new SavedBytesCheck(files(LATIN1)).refusal(saved), lint.message);
    assert.match(lint.message, /not valid UTF-8 \(an invalid sequence starts with byte 0xE9 at byte offset 53, line 1\)/);
  });

  test('a saved file that starts with a byte-order mark (which VS Code hides) is refused with lint\'s message, as babelq preview and send refuse it', async () => {
    const withMark = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), UTF8]);
    assert.equal(await new SavedBytesCheck(files(withMark)).refusal(saved), BYTE_ORDER_MARK_MESSAGE);
    // An edited document is published as typed, as for any other file.
    assert.equal(await new SavedBytesCheck(files(withMark)).refusal({ ...saved, isDirty: true }), undefined);
    // A mark elsewhere than at the start is a character of the text, not a mark.
    assert.equal(await new SavedBytesCheck(files(Buffer.from('{"job":"urn:babel:orders:created","data":{"name":"\ufeff"}}\n', 'utf8'))).refusal(saved), undefined);
  });

  test('a UTF-8 file, an edited document and a document with no file are let through', async () => {
    assert.equal(await new SavedBytesCheck(files(UTF8)).refusal(saved), undefined);
    const fs = files(LATIN1);
    assert.equal(await new SavedBytesCheck(fs).refusal({ ...saved, isDirty: true }), undefined);
    assert.equal(await new SavedBytesCheck(fs).refusal({ ...saved, onDisk: false }), undefined);
    assert.equal(fs.reads, 0, 'nothing is read for them');
  });

  test('the file is read once per size and time, and again after it changed on disk', async () => {
    const fs = files(LATIN1);
    const check = new SavedBytesCheck(fs);
    assert.ok(await check.refusal(saved));
    assert.ok(await check.refusal(saved));
    assert.equal(fs.reads, 1);
    fs.bytes = UTF8;
    fs.mtime = 2;
    assert.equal(await check.refusal(saved), undefined);
    assert.equal(fs.reads, 2);
  });

  test('a file above lint\'s limit is not read; the limit is lint\'s', async () => {
    assert.equal(CHECKED_FILE_LIMIT, MAX_ENVELOPE_FILE_BYTES);
    const fs = files(LATIN1);
    fs.size = CHECKED_FILE_LIMIT + 1;
    assert.equal(await new SavedBytesCheck(fs).refusal(saved), undefined);
    assert.equal(fs.reads, 0);
  });

  test('a file that vanished is left to the send to report', async () => {
    const gone: FileBytesReader = { stat: () => Promise.reject(new Error('ENOENT')), read: () => Promise.reject(new Error('ENOENT')) };
    assert.equal(await new SavedBytesCheck(gone).refusal(saved), undefined);
  });
});

test('envelopeState: a file document is on disk; untitled and other schemes are not', () => {
  const uri = (scheme: string) => ({ scheme, toString: () => `${scheme}:///a.babel.json` });
  assert.deepEqual(envelopeState({ uri: uri('file'), isUntitled: false, isDirty: true }), { uri: 'file:///a.babel.json', onDisk: true, isDirty: true });
  assert.equal(envelopeState({ uri: uri('untitled'), isUntitled: true, isDirty: false }).onDisk, false);
  assert.equal(envelopeState({ uri: uri('babelqueue-message'), isUntitled: false, isDirty: false }).onDisk, false);
});
