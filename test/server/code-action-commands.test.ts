/**
 * Code actions for a client that takes no CodeAction literals (LSP 3.17: without
 * textDocument.codeAction.codeActionLiteralSupport a client takes Command[] only; older vim-lsp,
 * LanguageClient-neovim, kak-lsp): each quick fix and fix all comes as a Command the server runs
 * through workspace/executeCommand, applying the edit the CodeAction would have carried through
 * workspace/applyEdit. Its arguments name the fix and the document's version, never the edit; an
 * edit made since is refused with a message. A client that cannot apply an edit the server sends
 * is offered nothing, and the log says why once.
 */
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { GOOD_ENVELOPE } from '../support/envelopes';
import { TestLspClient } from '../support/lsp-client';
import { scratchFolder } from '../support/scratch-folder';

const folder = scratchFolder('babelq-action-commands-');
mkdirSync(folder.at('.git'));
const root = folder.uriOf('');
const uri = folder.uriOf('legacy.babel.json');
// A forbidden key at the top: "Remove forbidden key" and fix all, both edits made the same every time.
const TEXT = GOOD_ENVELOPE.replace('"attempts": 0', '"attempts": 0,\n  "timestamp": 1749132727000');
// Two forbidden keys with 300 KB between them: fix all's one edit spans them.
const LARGE = GOOD_ENVELOPE.replace('"job": "urn:babel:orders:created",', '"job": "urn:babel:orders:created",\n  "timestamp": 1749132727000,')
  .replace('"order_id": 1042', `"order_id": 1042, "note": "${'x'.repeat(300_000)}"`)
  .replace('"created_at": 1749132727000', '"created_at": 1749132727000,\n    "ts": 1749132727');
// A registry of its own below the root, whose schema names personal data unmarked (pii-unmarked).
folder.write('gdpr/registry.json', { schemas: [{ urn: 'urn:babel:buyers:created', schema: 'schemas/buyer.json' }] });
const SCHEMA = `${JSON.stringify({ type: 'object', properties: { buyer_email: { type: 'string' } } }, null, 2)}\n`;
folder.write('gdpr/schemas/buyer.json', SCHEMA);
const schemaUri = folder.uriOf('gdpr/schemas/buyer.json');
const APPLY_FIX = 'babelqueue.applyFix';
const EVERYWHERE = { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };

/** An editor that takes Command[] only (older vim-lsp): pulls diagnostics, applies the edits it is sent. */
const COMMANDS_ONLY = { workspace: { applyEdit: true }, textDocument: { diagnostic: {}, publishDiagnostics: {}, codeAction: { dynamicRegistration: false } } };

interface Command {
  title: string;
  command: string;
  arguments?: unknown[];
}
interface ApplyEditParams {
  label?: string;
  edit: unknown;
}

/** A client whose workspace/applyEdit requests are recorded and answered `applied`. */
function recordingClient(options: ConstructorParameters<typeof TestLspClient>[0], applied = true): { client: TestLspClient; edits: ApplyEditParams[] } {
  const client = new TestLspClient(options);
  const edits: ApplyEditParams[] = [];
  client.connection.onRequest('workspace/applyEdit', (params: ApplyEditParams): { applied: boolean; failureReason?: string } => {
    edits.push(params);
    return applied ? { applied: true } : { applied: false, failureReason: 'the buffer is read-only' };
  });
  return { client, edits };
}

async function diagnosticsOf(client: TestLspClient, text: string, version = 1): Promise<any[]> {
  await client.open(uri, text, version);
  return (await client.pullDiagnostics(uri)).items;
}

/** The titles of an answer that holds Commands of the server's only (each fails the test otherwise). */
function commandTitles(answer: any[]): string[] {
  for (const entry of answer) assert.ok(entry.command === APPLY_FIX && entry.edit === undefined && entry.kind === undefined, JSON.stringify(entry).slice(0, 500));
  return answer.map((command: Command) => command.title);
}

function codeActions(client: TestLspClient, diagnostics: any[], extra: Record<string, unknown> = {}): Promise<any[]> {
  return client.request('textDocument/codeAction', { textDocument: { uri }, range: diagnostics[0]?.range ?? EVERYWHERE, context: { diagnostics, ...extra } });
}

describe('a client without CodeAction literals', () => {
  let literal: TestLspClient;
  let commands: ReturnType<typeof recordingClient>;
  let literalCommands: string[];
  let commandCommands: string[];

  before(async () => {
    literal = new TestLspClient({ workspaceFolders: [root] });
    literalCommands = (await literal.initialize()).capabilities.executeCommandProvider.commands;
    commands = recordingClient({ workspaceFolders: [root], capabilities: COMMANDS_ONLY });
    commandCommands = (await commands.client.initialize()).capabilities.executeCommandProvider.commands;
  });
  after(async () => {
    await literal.shutdown();
    await commands.client.shutdown();
  });

  test('is answered Command[] only, with the titles a client with literals is offered, and the command registered for it alone', async () => {
    const literalActions = await codeActions(literal, await diagnosticsOf(literal, TEXT), { triggerKind: 1 });
    const offered: Command[] = await codeActions(commands.client, await diagnosticsOf(commands.client, TEXT), { triggerKind: 1 });
    assert.deepEqual(literalActions.map((action) => action.title), ['Remove forbidden key "timestamp"', 'Fix all safe BabelQueue problems (1)']);
    assert.ok(literalActions.every((action) => action.edit !== undefined && action.kind !== undefined), 'the client with literals still gets CodeActions');
    assert.deepEqual(offered.map((command) => command.title), literalActions.map((action) => action.title));
    for (const command of offered) {
      assert.deepEqual(Object.keys(command).sort(), ['arguments', 'command', 'title'], JSON.stringify(command));
      assert.equal(command.command, APPLY_FIX);
    }
    assert.deepEqual(commandCommands, ['babelqueue.preview', APPLY_FIX]);
    assert.deepEqual(literalCommands, ['babelqueue.preview']);
    await literal.close(uri);
    await commands.client.close(uri);
  });

  test('a command carries the fix\'s name and the version, not its edit: fix all of a 300 KB document is a few hundred bytes', async () => {
    const literalFixAll = await codeActions(literal, await diagnosticsOf(literal, LARGE), { only: ['source.fixAll.babelqueue'] });
    const [fixAll] = (await codeActions(commands.client, await diagnosticsOf(commands.client, LARGE), { only: ['source.fixAll.babelqueue'] })) as Command[];
    assert.ok(JSON.stringify(literalFixAll[0].edit).length > 300_000, 'the edit itself spans the payload');
    assert.equal(fixAll.title, 'Fix all safe BabelQueue problems (2)');
    assert.ok(JSON.stringify(fixAll.arguments).length < 1000, JSON.stringify(fixAll.arguments).slice(0, 2000));
    // Run, it applies that very edit.
    const before = commands.edits.length;
    assert.equal(await commands.client.request('workspace/executeCommand', fixAll), null);
    assert.deepEqual(commands.edits.slice(before), [{ label: fixAll.title, edit: literalFixAll[0].edit }]);
    await literal.close(uri);
    await commands.client.close(uri);
  });

  test('a fix of a 3,000-character URN quotes it shortened in its title, is named in a few hundred bytes, and runs', async () => {
    const text = TEXT.replace('"urn:babel:orders:created"', JSON.stringify(`URN:BABEL:ORDERS:${'A'.repeat(3000)}`));
    const quickFixes = async (client: TestLspClient) => {
      const diagnostics = (await diagnosticsOf(client, text)).filter((diagnostic) => diagnostic.code === 'invalid-urn');
      assert.equal(diagnostics.length, 1);
      return codeActions(client, diagnostics, { only: ['quickfix'] });
    };
    const [lowercase] = await quickFixes(literal);
    const [command] = (await quickFixes(commands.client)) as Command[];
    assert.match(lowercase.title, /^Trim and lowercase the URN to "urn:babel:orders:a{39}…$/);
    assert.equal(command.title, lowercase.title);
    assert.ok(JSON.stringify(command.arguments).length < 1000, JSON.stringify(command.arguments).slice(0, 2000));
    const before = commands.edits.length;
    assert.equal(await commands.client.request('workspace/executeCommand', command), null);
    assert.deepEqual(commands.edits.slice(before), [{ label: lowercase.title, edit: lowercase.edit }]);
    await literal.close(uri);
    await commands.client.close(uri);
  });

  test('running a command applies exactly the edit the CodeAction carries, through workspace/applyEdit', async () => {
    const literalActions = await codeActions(literal, await diagnosticsOf(literal, TEXT), { triggerKind: 1 });
    const offered: Command[] = await codeActions(commands.client, await diagnosticsOf(commands.client, TEXT), { triggerKind: 1 });
    for (const [index, command] of offered.entries()) {
      const before = commands.edits.length;
      assert.equal(await commands.client.request('workspace/executeCommand', { command: command.command, arguments: command.arguments }), null);
      assert.deepEqual(commands.edits.slice(before), [{ label: command.title, edit: literalActions[index].edit }], command.title);
    }
    assert.deepEqual(commands.client.shown, []);
    await literal.close(uri);
    await commands.client.close(uri);
  });

  test('a schema file\'s quick fix comes as a command too, and applies the same edit', async () => {
    const actionsOn = async (client: TestLspClient) => {
      await client.connection.sendNotification('textDocument/didOpen', { textDocument: { uri: schemaUri, languageId: 'json', version: 1, text: SCHEMA } });
      const diagnostics = (await client.pullDiagnostics(schemaUri)).items;
      assert.deepEqual(diagnostics.map((item) => item.code), ['pii-unmarked']);
      return client.request('textDocument/codeAction', { textDocument: { uri: schemaUri }, range: diagnostics[0].range, context: { diagnostics } }) as Promise<any[]>;
    };
    const [mark] = await actionsOn(literal);
    const offered = await actionsOn(commands.client);
    assert.deepEqual(commandTitles(offered), ['Mark "buyer_email" "x-gdpr-sensitive": true']);
    const before = commands.edits.length;
    assert.equal(await commands.client.request('workspace/executeCommand', offered[0]), null);
    assert.deepEqual(commands.edits.slice(before), [{ label: mark.title, edit: mark.edit }]);
    await literal.close(schemaUri);
    await commands.client.close(schemaUri);
  });

  test('a command run after the document changed is refused with a message, and no edit is sent', async () => {
    const offered: Command[] = await codeActions(commands.client, await diagnosticsOf(commands.client, TEXT), { triggerKind: 1 });
    assert.equal(offered.length, 2);
    await commands.client.change(uri, TEXT.replace('"queue": "orders"', '"queue": "orders-eu"'), 2);
    const before = commands.edits.length;
    const shownBefore = commands.client.shown.length;
    for (const command of offered) assert.equal(await commands.client.request('workspace/executeCommand', command), null);
    assert.equal(commands.edits.length, before, 'no edit was sent');
    const shown = commands.client.shown.slice(shownBefore);
    assert.equal(shown.length, 2, JSON.stringify(shown));
    for (const [index, message] of shown.entries()) {
      assert.equal(message.type, 2, 'a warning');
      assert.ok(message.message.startsWith(`"${offered[index].title}" was not applied: `) && /changed since/.test(message.message) && /again/.test(message.message), message.message);
    }
    // Closed since: refused alike.
    await commands.client.close(uri);
    assert.equal(await commands.client.request('workspace/executeCommand', offered[0]), null);
    assert.equal(commands.edits.length, before);
    assert.match(commands.client.shown.at(-1)?.message ?? '', /is not open/);
  });

  test('the same kinds as with literals: no fix all in a request the client makes by itself (triggerKind 2)', async () => {
    const diagnostics = await diagnosticsOf(commands.client, TEXT);
    assert.deepEqual(commandTitles(await codeActions(commands.client, diagnostics, { triggerKind: 2 })), ['Remove forbidden key "timestamp"']);
    assert.deepEqual(commandTitles(await codeActions(commands.client, diagnostics, { only: ['quickfix'] })), ['Remove forbidden key "timestamp"']);
    assert.deepEqual(commandTitles(await codeActions(commands.client, [], { only: ['source.fixAll'] })), ['Fix all safe BabelQueue problems (1)']);
    await commands.client.close(uri);
  });

  test('arguments that are not the server\'s are refused with InvalidParams; an unknown command names both commands', async () => {
    await diagnosticsOf(commands.client, TEXT);
    const [remove] = (await codeActions(commands.client, (await commands.client.pullDiagnostics(uri)).items, { only: ['quickfix'] })) as Command[];
    const good = remove.arguments![0] as Record<string, unknown>;
    const without = (key: string) => Object.fromEntries(Object.entries(good).filter(([name]) => name !== key));
    for (const args of [[], ['x'], [{ ...good, version: '1' }], [{ ...good, kind: 'refactor' }], [without('diagnostic')], [without('fix')], [{ ...good, fix: 'x'.repeat(5000) }], [{ ...good, uri: 7 }]]) {
      await assert.rejects(commands.client.request('workspace/executeCommand', { command: APPLY_FIX, arguments: args }), (error: { code?: number; message?: string }) => error.code === -32602 && /babelqueue\.applyFix takes/.test(error.message ?? ''), JSON.stringify(args));
    }
    await assert.rejects(commands.client.request('workspace/executeCommand', { command: 'babelqueue.other', arguments: [] }), /Unknown command babelqueue\.other; this server runs babelqueue\.preview and babelqueue\.applyFix/);
    await commands.client.close(uri);
  });
});

test('an edit the client does not apply is said in a message', async () => {
  const { client, edits } = recordingClient({ workspaceFolders: [root], capabilities: COMMANDS_ONLY }, false);
  try {
    await client.initialize();
    const [remove] = (await codeActions(client, await diagnosticsOf(client, TEXT), { only: ['quickfix'] })) as Command[];
    assert.equal(await client.request('workspace/executeCommand', remove), null);
    assert.equal(edits.length, 1);
    assert.equal(client.shown.length, 1, JSON.stringify(client.shown));
    assert.match(client.shown[0].message, /not applied.*the buffer is read-only/);
  } finally {
    await client.shutdown();
  }
});

test('a client without CodeAction literals that cannot apply an edit the server sends (no workspace.applyEdit) is offered no action, and the log says so once', async () => {
  const capabilities = { textDocument: { diagnostic: {}, publishDiagnostics: {}, codeAction: { dynamicRegistration: false } } };
  const { client, edits } = recordingClient({ workspaceFolders: [root], capabilities });
  try {
    const result = await client.initialize();
    assert.deepEqual(result.capabilities.executeCommandProvider.commands, ['babelqueue.preview']);
    const diagnostics = await diagnosticsOf(client, TEXT);
    assert.ok(diagnostics.some((diagnostic) => diagnostic.code === 'forbidden-key'));
    assert.deepEqual(await codeActions(client, diagnostics, { triggerKind: 1 }), []);
    assert.deepEqual(await codeActions(client, diagnostics, { only: ['quickfix'] }), []);
    assert.deepEqual(await codeActions(client, [], { only: ['source.fixAll.babelqueue'] }), []);
    const said = client.logs.filter((line) => line.includes('workspace.applyEdit'));
    assert.equal(said.length, 1, client.logs.join('\n'));
    assert.match(said[0], /codeActionLiteralSupport/);
    assert.equal(edits.length, 0);
  } finally {
    await client.shutdown();
  }
});

test('with sourceActionsByKindOnly, fix all is offered as a command only where asked for by its kind', async () => {
  const { client } = recordingClient({ workspaceFolders: [root], capabilities: COMMANDS_ONLY, initializationOptions: { sourceActionsByKindOnly: true } });
  try {
    await client.initialize();
    const diagnostics = await diagnosticsOf(client, TEXT);
    assert.deepEqual(commandTitles(await codeActions(client, diagnostics, { triggerKind: 1 })), ['Remove forbidden key "timestamp"']);
    assert.deepEqual(commandTitles(await codeActions(client, [], { only: ['source.fixAll.babelqueue'] })), ['Fix all safe BabelQueue problems (1)']);
  } finally {
    await client.shutdown();
  }
});

test('a client that declares documentChanges is sent the edit for the version it was worked out for, which it refuses if the document moved on; one that does not is sent changes', async () => {
  const capabilities = { ...COMMANDS_ONLY, workspace: { applyEdit: true, workspaceEdit: { documentChanges: true } } };
  const versioned = recordingClient({ workspaceFolders: [root], capabilities });
  const plain = recordingClient({ workspaceFolders: [root], capabilities: COMMANDS_ONLY });
  try {
    await versioned.client.initialize();
    await plain.client.initialize();
    const version = 7;
    for (const kind of ['quickfix', 'source.fixAll.babelqueue']) {
      const diagnostics = kind === 'quickfix' ? await diagnosticsOf(versioned.client, TEXT, version) : (await diagnosticsOf(versioned.client, TEXT, version), []);
      const [command] = (await codeActions(versioned.client, diagnostics, { only: [kind] })) as Command[];
      const plainDiagnostics = kind === 'quickfix' ? await diagnosticsOf(plain.client, TEXT, version) : (await diagnosticsOf(plain.client, TEXT, version), []);
      const [plainCommand] = (await codeActions(plain.client, plainDiagnostics, { only: [kind] })) as Command[];
      assert.equal(await versioned.client.request('workspace/executeCommand', command), null);
      assert.equal(await plain.client.request('workspace/executeCommand', plainCommand), null);
      const sent = versioned.edits.at(-1)!.edit as { changes?: unknown; documentChanges?: { textDocument: unknown; edits: unknown[] }[] };
      const plainSent = plain.edits.at(-1)!.edit as { changes?: Record<string, unknown[]>; documentChanges?: unknown };
      assert.equal(sent.changes, undefined, kind);
      assert.equal(plainSent.documentChanges, undefined, kind);
      assert.ok(plainSent.changes?.[uri]?.length, kind);
      // The same text edits, named by the document and its version.
      assert.deepEqual(sent.documentChanges, [{ textDocument: { uri, version }, edits: plainSent.changes![uri] }], kind);
      await versioned.client.close(uri);
      await plain.client.close(uri);
    }
  } finally {
    await versioned.client.shutdown();
    await plain.client.shutdown();
  }
});
