/**
 * Redrive, Edit then Redrive and Save as Fixture act on the message whose title bar (or CodeLens)
 * they were run from: VS Code passes that view's URI, and the active editor may be another
 * message's, in another editor group. Run from the palette (no argument), the active one is meant.
 * Driven through the stand-in extension host (test/support/fake-extension-host.ts); no broker is
 * reached (every redrive question is dismissed).
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { before, beforeEach, describe, test } from 'node:test';
import { installFakeExtensionHost } from '../support/fake-extension-host';

const host = installFakeExtensionHost();
const fake = host.vscode;
const ROOT = resolve(__dirname, '../..');
const FIRST_ID = 'cfd90105-3fd3-4de9-8d5e-4d770231fc67';
const SECOND_ID = '2a1c7e4b-9d3f-4c55-8e21-6b0f4d9a3c17';

let redriveModule: typeof import('../../client/commands/redrive');
let messageView: typeof import('../../client/message-view');
let rows: typeof import('../../core/language/message-rows');

before(async () => {
  redriveModule = await import('../../client/commands/redrive');
  messageView = await import('../../client/message-view');
  rows = await import('../../core/language/message-rows');
});

beforeEach(() => {
  fake.reset();
  fake.commands.clear();
  fake.settings = { 'babelqueue.broker.url': 'redis://127.0.0.1:6379' };
});

/** Two dead letters shown in views (their URIs), the second one in the active editor. */
function twoViews() {
  const text = readFileSync(join(ROOT, 'examples/billing/invoice-paid-dlq.babel.json'), 'utf8');
  const decoders = { strict: new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }), lenient: new TextDecoder('utf-8', { ignoreBOM: true }) };
  const shown = new Map<string, unknown>();
  const documents = [];
  for (const [index, id] of [FIRST_ID, SECOND_ID].entries()) {
    const body = new TextEncoder().encode(text.replace(FIRST_ID, id));
    const [entry] = rows.lintedRows([rows.messageBody(body, decoders)]);
    const uri = host.uri(`babelqueue-message:/billing.dlq · ${id}?${index + 1}`);
    shown.set(uri.toString(), { row: entry!.row, body, source: { queue: 'billing', key: 'billing.dlq', deadLetters: true } });
    documents.push({ uri, languageId: 'babelqueue-envelope', getText: () => messageViewText(entry!.row.text) });
  }
  host.api.workspace.textDocuments = documents;
  fake.activeTextEditor = { document: documents[1] };
  const views = { messageOf: (uri: { toString(): string }) => shown.get(uri.toString()), notUtf8Reason: () => undefined } as never;
  return { views, first: documents[0]!.uri, second: documents[1]!.uri };
}

function messageViewText(text: string): string {
  return JSON.stringify(JSON.parse(text), null, 2);
}

/** The meta.ids a redrive's question named. */
function redriveQuestions(): string[] {
  return fake.events.filter((event) => event.kind === 'info' && event.text.startsWith('Redrive ')).map((event) => /meta\.id (\S+)/.exec(event.detail ?? '')?.[1] ?? '?');
}

describe('run from a view that is not the active editor', () => {
  test('Redrive asks about the message of the view it was run from', async () => {
    const { views, first } = twoViews();
    redriveModule.registerRedriveCommands({ ...fake.services(), views });
    await fake.commands.get('babelqueue.redriveMessage')!(first);
    assert.deepEqual(redriveQuestions(), [FIRST_ID], fake.events.map((event) => `${event.kind}: ${event.text}`).join('\n'));
  });

  test('Redrive from the palette asks about the active editor\'s message', async () => {
    const { views } = twoViews();
    redriveModule.registerRedriveCommands({ ...fake.services(), views });
    await fake.commands.get('babelqueue.redriveMessage')!();
    assert.deepEqual(redriveQuestions(), [SECOND_ID]);
  });

  test('Edit, then Redrive copies the message of the view it was run from', async () => {
    const { views, first } = twoViews();
    const copies: string[] = [];
    host.api.workspace.openTextDocument = async (options: { content: string }) => (copies.push(options.content), { uri: host.uri('untitled:Untitled-1') });
    redriveModule.registerRedriveCommands({ ...fake.services(), views });
    await fake.commands.get('babelqueue.editThenRedrive')!(first);
    assert.equal(copies.length, 1, fake.events.map((event) => `${event.kind}: ${event.text}`).join('\n'));
    assert.match(copies[0]!, new RegExp(FIRST_ID));
  });

  test('Save as Fixture saves the message of the view it was run from', async () => {
    const { views, first } = twoViews();
    const written: string[] = [];
    fake.answer = (event, items) => (event.kind === 'quickPick' ? items[0] : undefined);
    host.api.window.showSaveDialog = async () => host.uri('file:///w/billing-invoice-paid.babel.json');
    host.api.workspace.fs = { writeFile: async (_uri: unknown, bytes: Uint8Array) => void written.push(new TextDecoder().decode(bytes)) };
    messageView.registerMessageViews(host.context(), views as never);
    await fake.commands.get('babelqueue.saveMessageAsFixture')!(first);
    assert.equal(written.length, 1, fake.events.map((event) => `${event.kind}: ${event.text}`).join('\n'));
    assert.match(written[0]!, new RegExp(FIRST_ID));
  });
});

describe('Save as Fixture that cannot write the file', () => {
  test('says which file and why, and opens nothing', async () => {
    const { views } = twoViews();
    fake.answer = (event, items) => (event.kind === 'quickPick' ? items[0] : undefined);
    host.api.window.showSaveDialog = async () => host.uri('file:///read-only/billing-invoice-paid.babel.json');
    host.api.workspace.fs = { writeFile: async () => { throw Object.assign(new Error('EACCES: permission denied, open \'/read-only/billing-invoice-paid.babel.json\''), { code: 'NoPermissions' }); } };
    host.opened.length = 0;
    messageView.registerMessageViews(host.context(), views as never);
    await fake.commands.get('babelqueue.saveMessageAsFixture')!();
    const errors = fake.events.filter((event) => event.kind === 'error').map((event) => event.text);
    assert.deepEqual(errors, ['Save as Fixture: /read-only/billing-invoice-paid.babel.json was not written: EACCES: permission denied, open \'/read-only/billing-invoice-paid.babel.json\'']);
    assert.deepEqual(host.opened, []);
  });
});

describe('Save as Fixture in a workspace of several folders', () => {
  test('offers the folder whose settings the message was read with, not the first folder', async () => {
    const { views, first } = twoViews();
    const message = (views as { messageOf(uri: unknown): { source: Record<string, unknown> } }).messageOf(first);
    message.source.settingsUri = host.uri('file:///w/worker/jobs/a.babel.json');
    const folders = ['api', 'worker'].map((name, index) => ({ name, index, uri: host.uri(`file:///w/${name}`) }));
    host.api.workspace.workspaceFolders = folders;
    host.api.workspace.getWorkspaceFolder = (uri: { path: string }) => folders.find((folder) => uri.path.startsWith(`${folder.uri.path}/`));
    fake.answer = (event, items) => (event.kind === 'quickPick' ? items[0] : undefined);
    let offered: string | undefined;
    host.api.window.showSaveDialog = async (options: { defaultUri?: { toString(): string } }) => void (offered = options.defaultUri?.toString());
    try {
      messageView.registerMessageViews(host.context(), views as never);
      await fake.commands.get('babelqueue.saveMessageAsFixture')!(first);
    } finally {
      host.api.workspace.workspaceFolders = undefined;
    }
    assert.equal(offered, 'file:///w/worker/billing-invoice-paid.babel.json');
  });
});
