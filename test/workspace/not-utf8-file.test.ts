/**
 * workspace/not-utf8-file.ts reads a project file's bytes again only when the text it is given
 * holds U+FFFD; the editor gives it the open file's text at each change (of the file, and of its
 * settings), so what the bytes were found to be is kept while the file stays as it was read:
 * a keystroke reads no disk.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, utimesSync, writeFileSync, type Stats } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { readBoundedBytes } from '../../workspace/bounded-read';
import { notUtf8File } from '../../workspace/not-utf8-file';

let root: string;
before(() => {
  root = mkdtempSync(join(tmpdir(), 'babelq-not-utf8-'));
});
after(() => rmSync(root, { recursive: true, force: true }));

/** The disk reader, counting its reads. */
function countingReader(): { read: typeof readBoundedBytes; readonly count: () => number } {
  let reads = 0;
  return {
    read: (path: string, limit: number, into?: { buffer: Buffer }, onStat?: (stat: Stats) => void) => {
      reads++;
      return readBoundedBytes(path, limit, into, onStat);
    },
    count: () => reads,
  };
}

/** A file written an hour ago (a write now would change its stamp). */
function writtenBefore(name: string, bytes: Buffer): string {
  const path = join(root, name);
  writeFileSync(path, bytes);
  const hourAgo = new Date(Date.now() - 3_600_000);
  utimesSync(path, hourAgo, hourAgo);
  return path;
}

const LATIN1 = Buffer.concat([Buffer.from('{ "ignore": ["caf'), Buffer.from([0xe9]), Buffer.from('/**"] }')]);

test('a file not UTF-8, asked of again and again with its text and with edits of it, is read once while it stays as it was', () => {
  const path = writtenBefore('latin1.json', LATIN1);
  const asOpened = LATIN1.toString('utf8');
  const reader = countingReader();
  for (let i = 0; i < 3; i++) assert.deepEqual(notUtf8File(path, asOpened, 1024, reader.read), { offset: 17, where: 'an invalid sequence starts with byte 0xE9 at byte offset 17, line 1' });
  // Typed into, the text is no longer the file's: no finding, and no read.
  assert.equal(notUtf8File(path, asOpened.replace('/**', '/*'), 1024, reader.read), undefined);
  assert.equal(notUtf8File(path, asOpened.replace('caf', 'cafe'), 1024, reader.read), undefined);
  assert.equal(reader.count(), 1);
});

test('a file in UTF-8 holding U+FFFD is read once while it stays as it was', () => {
  const path = writtenBefore('replacement.json', Buffer.from('{ "ignore": ["\uFFFD/**"] }'));
  const reader = countingReader();
  for (const text of ['{ "ignore": ["\uFFFD/**"] }', '{ "ignore": ["\uFFFD/*"] }', '{ "ignore": ["\uFFFD\uFFFD"] }']) assert.equal(notUtf8File(path, text, 1024, reader.read), undefined);
  assert.equal(reader.count(), 1);
});

test('a file changed since it was read is read again', () => {
  const path = writtenBefore('changed.json', Buffer.from('{ "ignore": ["\uFFFD"] }'));
  const reader = countingReader();
  assert.equal(notUtf8File(path, '{ "ignore": ["\uFFFD"] }', 1024, reader.read), undefined);
  writtenBefore('changed.json', LATIN1);
  assert.equal(notUtf8File(path, LATIN1.toString('utf8'), 1024, reader.read)?.offset, 17);
  assert.equal(reader.count(), 2);
});

test('a file written within a moment of being read is read at each ask: a write then may leave its stamp as it was', () => {
  const path = join(root, 'fresh.json');
  writeFileSync(path, LATIN1);
  const reader = countingReader();
  for (let i = 0; i < 2; i++) assert.equal(notUtf8File(path, LATIN1.toString('utf8'), 1024, reader.read)?.offset, 17);
  assert.equal(reader.count(), 2);
});
