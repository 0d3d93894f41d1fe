/**
 * A message whose bytes are not UTF-8, opened from Peek Queue or Dead Letters, gets what its row
 * in the list and `babelq peek` say, and what a fixture on disk gets: one finding that the bytes
 * are not valid UTF-8, where the first invalid byte is. Its text (U+FFFD for the bad bytes) is
 * never judged as JSON. Through the stand-in extension host; the Peek Queue case on the local Redis,
 * under a unique key.
 */
import assert from 'node:assert/strict';
import { beforeEach, describe, test } from 'node:test';
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
  assert.ok(!judged.some((each) => each.startsWith('babelqueue-envelope ')), 'the text shown is not judged as an envelope');
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
  assert.ok(!judged.some((each) => each.startsWith('babelqueue-envelope ')), judged.join('\n'));
  const found = host.diagnostics.get(uri) ?? [];
  assert.equal(found.length, 1);
  assert.match(found[0].message, /not valid UTF-8/);
});

describe('Save as Fixture of a message whose bytes are not UTF-8', () => {
  // A dead letter as a producer wrote it, valid JSON around one raw 0xFF inside a string.
  const stored = () => {
    const head = new TextEncoder().encode('{"job":"urn:babel:orders:created","trace_id":"7d1c5b3e-2f44-4c1a-9a0e-3b8f6d2c9e71","data":{"n":"');
    const tail = new TextEncoder().encode('"},"meta":{"id":"0c6a1f9e-8b2d-4e57-a3c4-5d9e7f1b2a60","queue":"orders","created_at":"2025-06-05T12:00:00Z","schema_version":1,"source_lang":"node"},"attempts":0}');
    return [...head, 0xff, ...tail];
  };

  async function saveAsFixture(answer: (event: { kind: string; text: string }, items: readonly unknown[]) => unknown): Promise<{ written: Uint8Array[]; events: { kind: string; text: string }[] }> {
    const { views, uri } = await opened(stored());
    const viewUri = host.uri(uri);
    host.api.workspace.textDocuments = [{ uri: viewUri, languageId: 'plaintext', getText: () => views.provideTextDocumentContent(viewUri) }];
    const written: Uint8Array[] = [];
    host.api.window.showSaveDialog = async () => host.uri('file:///w/orders-created.babel.json');
    host.api.workspace.fs = { writeFile: async (_target: unknown, bytes: Uint8Array) => void written.push(bytes) };
    const fake = host.vscode;
    fake.reset();
    fake.commands.clear();
    fake.answer = answer;
    const { registerMessageViews, SAVE_AS_FIXTURE_COMMAND } = await import('../../client/message-view');
    registerMessageViews(host.context(), views);
    await fake.commands.get(SAVE_AS_FIXTURE_COMMAND)!(viewUri);
    return { written, events: fake.events };
  }

  test('writes the stored bytes unchanged, after saying they are not UTF-8, never U+FFFD in their place', async () => {
    const { written, events } = await saveAsFixture((event, items) => (event.kind === 'warning' ? items[0] : event.kind === 'quickPick' ? items[0] : undefined));
    const said = events.map((event) => `${event.kind}: ${event.text}`).join('\n');
    assert.equal(written.length, 1, said);
    assert.deepEqual([...written[0]!], stored(), 'the fixture holds the message\'s bytes as stored');
    const warning = events.find((event) => event.kind === 'warning');
    assert.ok(warning, said);
    assert.match(warning.text, /not valid UTF-8/);
    assert.match(warning.text, /as stored/);
    assert.ok(!events.some((event) => event.kind === 'quickPick'), 'no ids to renew are offered: renewing them would rewrite the text');
  });

  test('declined, nothing is written', async () => {
    const { written, events } = await saveAsFixture(() => undefined);
    assert.equal(written.length, 0);
    assert.ok(events.some((event) => event.kind === 'warning'));
  });
});

test('a meta.id ending in .babel.json, which gives the view\'s path the envelope language, still opens as plain text the language server never judges', async () => {
  const open = host.api.workspace.openTextDocument;
  // VS Code picks a document's language by its path: the title's meta.id ends it.
  host.api.workspace.openTextDocument = async (uri: { toString(): string }) => {
    host.opened.push(uri.toString());
    return { uri, languageId: /\.babel\.json\?\d+$/.test(uri.toString()) ? 'babelqueue-envelope' : 'plaintext' };
  };
  try {
    const head = new TextEncoder().encode('{"job":"urn:babel:orders:created","meta":{"id":"crafted.babel.json"},"data":{"n":"');
    const { uri } = await opened([...head, 0xff, ...new TextEncoder().encode('"}}')]);
    assert.match(uri, /\.babel\.json\?\d+$/, 'the view\'s path ends as a fixture\'s name does');
    assert.ok(!judged.some((each) => each.startsWith('babelqueue-envelope ')), judged.join('\n'));
    assert.ok(judged.some((each) => each.startsWith('plaintext ')), judged.join('\n'));
  } finally {
    host.api.workspace.openTextDocument = open;
  }
});
