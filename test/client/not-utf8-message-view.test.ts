/**
 * A message whose bytes are not UTF-8, opened from Peek Queue or Dead Letters, gets what its row
 * in the list and `babelq peek` say, and what a fixture on disk gets: one finding that the bytes
 * are not valid UTF-8, where the first invalid byte is. Its text (U+FFFD for the bad bytes) is
 * never judged as JSON. Through the stand-in extension host; the Peek Queue case on the local Redis,
 * under a unique key.
 */
import assert from 'node:assert/strict';
import { beforeEach, test } from 'node:test';
import { redisProjection } from '../../core/message/build';
import type { MessageRow } from '../../core/message/dead-letter';
import { uniqueQueue, useRealBrokers } from '../broker/helpers';
import { installFakeExtensionHost } from '../support/fake-extension-host';

const host = installFakeExtensionHost();
const brokers = useRealBrokers();
const decoders = { strict: new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }), lenient: new TextDecoder('utf-8', { ignoreBOM: true }) };
/** The documents given the envelope language (which the language server judges), by URI. */
const judged: string[] = [];

beforeEach(() => {
  judged.length = 0;
  host.diagnostics.clear();
  host.opened.length = 0;
  host.api.languages.setTextDocumentLanguage = async (document: { uri: { toString(): string } }, language: string) => {
    judged.push(`${language} ${document.uri.toString()}`);
    return document;
  };
});

async function opened(bytes: readonly number[] | string) {
  const rows = await import('../../core/language/message-rows');
  const { MessageViews } = await import('../../client/message-view');
  const body = typeof bytes === 'string' ? new TextEncoder().encode(bytes) : Uint8Array.from(bytes);
  const [entry] = rows.lintedRows([rows.messageBody(body, decoders)]);
  const views = new MessageViews();
  await views.open({ row: entry!.row, source: { queue: 'orders', key: 'orders', deadLetters: false }, body });
  const uri = host.opened.find((each) => each.startsWith('babelqueue-message:'))!;
  return { views, uri, row: entry!.row };
}

test('bytes that are not UTF-8: one finding where the first invalid byte is, as the list counts it, and no JSON findings', async () => {
  const { views, uri, row } = await opened([0xff, 0xfe, 0x00, 0x41]);
  assert.equal(row.errors, 1);
  assert.deepEqual(judged, [], 'the text shown is not judged as an envelope');
  const found = host.diagnostics.get(uri) ?? [];
  assert.equal(found.length, 1, JSON.stringify(found));
  const [finding] = found;
  assert.equal(finding.code, 'json-syntax');
  assert.equal(finding.source, 'babelqueue');
  assert.equal(finding.severity, host.api.DiagnosticSeverity.Error);
  // Lint's words for these bytes, as babelq peek and the list's row say them.
  const { decodeAsLint } = await import('../../core/rules/not-utf8');
  const lint = decodeAsLint(Uint8Array.from([0xff, 0xfe, 0x00, 0x41]), decoders);
  assert.ok(!lint.ok);
  assert.equal(finding.message, lint.message);
  assert.match(finding.message, /not valid UTF-8 \(it starts with a UTF-16 byte-order mark\)/);
  assert.deepEqual([finding.range.startLine, finding.range.startCharacter], [0, 0]);
  // Shown as decoded, unformatted: the finding's place is in this text.
  assert.equal(views.provideTextDocumentContent(host.uri(uri)), '\uFFFD\uFFFD\u0000A');
});

test('the first invalid byte after some lines: the finding is on its line and column', async () => {
  const text = '{\n  "job": "urn:babel:orders:created",\n  "note": "caf';
  const { uri } = await opened([...new TextEncoder().encode(text), 0xe9, ...new TextEncoder().encode('"\n}\n')]);
  const [finding] = host.diagnostics.get(uri) ?? [];
  assert.ok(finding);
  assert.deepEqual([finding.range.startLine, finding.range.startCharacter], [2, '  "note": "caf'.length]);
});

test('a UTF-8 message is an envelope the language server judges, with no finding of the view\'s own', async () => {
  const { uri } = await opened('{"job":"urn:babel:orders:created"}');
  assert.equal(judged.length, 1);
  assert.ok(judged[0]!.startsWith('babelqueue-envelope '), judged[0]);
  assert.equal(host.diagnostics.get(uri)?.length ?? 0, 0);
});

test('Peek Queue on Redis: the row of bytes ff fe 00 41 counts one error, and the view opened from it shows that one finding', async () => {
  const queue = uniqueQueue();
  const key = redisProjection(queue, 'babelqueue', '').listKey;
  brokers.redisKeys.add(key);
  await brokers.redis.rpush(key, Buffer.from([0xff, 0xfe, 0x00, 0x41]));
  const fake = host.vscode;
  fake.reset();
  fake.settings = { 'babelqueue.broker.url': 'redis://127.0.0.1:6379' };
  let listed: { row?: MessageRow }[] = [];
  fake.answer = (event, items) => {
    if (event.kind === 'input') return queue;
    if (event.kind !== 'quickPick') return undefined;
    listed = items as { row?: MessageRow }[];
    return listed.find((item) => item.row);
  };
  const messages = await import('../../client/commands/messages');
  const { MessageViews } = await import('../../client/message-view');
  messages.registerMessageCommands({ ...fake.services(), views: new MessageViews() });
  await fake.commands.get(messages.PEEK_COMMAND)!();
  const row = listed.find((item) => item.row)?.row;
  assert.equal(row?.errors, 1, fake.events.map((event) => `${event.kind}: ${event.text}`).join('\n'));
  const uri = host.opened.find((each) => each.startsWith('babelqueue-message:'));
  assert.ok(uri, host.opened.join('\n'));
  assert.deepEqual(judged, []);
  const found = host.diagnostics.get(uri) ?? [];
  assert.equal(found.length, 1);
  assert.match(found[0].message, /not valid UTF-8/);
});
