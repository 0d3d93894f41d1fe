/**
 * The extension's activate and deactivate (client/extension.ts) with the `vscode` API and the
 * language client stood in for (test/support/fake-extension-host.ts): what the language server is
 * started with, and what is left when the extension stops.
 */
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import { installFakeExtensionHost } from '../support/fake-extension-host';

const host = installFakeExtensionHost();
const fake = host.vscode;
let extension: typeof import('../../client/extension');

before(async () => {
  extension = await import('../../client/extension');
});

beforeEach(async () => {
  await extension.deactivate().catch(() => undefined);
  host.disposeContexts();
  fake.reset();
  fake.commands.clear();
  host.clients.length = 0;
  host.trustListeners.length = 0;
  host.opened.length = 0;
  host.startOutcome = 'running';
});

/** The initialization options the server is given when the client starts it (now, or again after a crash). */
function initializationOptions(options: { initializationOptions?: unknown }): unknown {
  const given = options.initializationOptions;
  return typeof given === 'function' ? given() : given;
}

describe('Restricted Mode, then trust', () => {
  test('a server started again after the workspace was trusted is told it is trusted', async () => {
    fake.trusted = false;
    await extension.activate(host.context());
    const [client] = host.clients;
    assert.deepEqual(initializationOptions(client!.clientOptions), { workspaceTrusted: false, registryStatus: true, sourceActionsByKindOnly: true });
    fake.trusted = true;
    for (const listener of host.trustListeners) listener();
    // The language client restarts a server that crashed with the same options object.
    assert.deepEqual(initializationOptions(client!.clientOptions), { workspaceTrusted: true, registryStatus: true, sourceActionsByKindOnly: true });
  });
});

describe('Preview Published Bytes', () => {
  const preview = (...args: unknown[]) => fake.commands.get('babelqueue.previewBytes')!(...args);
  const said = () => fake.events.map((event) => `${event.kind}: ${event.text}`);

  test('from a keybinding whose args are no URI, it previews the active envelope', async () => {
    await extension.activate(host.context());
    fake.activeTextEditor = { document: { uri: host.uri('file:///w/a.babel.json'), languageId: 'babelqueue-envelope' } };
    await preview('oops');
    await preview({ uri: 'file:///w/a.babel.json' });
    const previews = host.opened.filter((uri) => !uri.startsWith('shown '));
    assert.equal(previews.length, 2, host.opened.join('\n'));
    for (const uri of previews) assert.match(uri, /^babelqueue-preview:.*\?file:\/\/\/w\/a\.babel\.json$/);
  });

  test('with no envelope active (an output channel, nothing), it says what to open and previews nothing', async () => {
    await extension.activate(host.context());
    for (const editor of [{ document: { uri: host.uri('output:extension-output-babelqueue-1'), languageId: 'Log' } }, undefined]) {
      fake.activeTextEditor = editor;
      await preview();
      await preview('oops');
    }
    assert.deepEqual(host.opened, []);
    assert.equal(said().length, 4, said().join('\n'));
    for (const line of said()) assert.match(line, /^info: Open a \*\.babel\.json envelope/);
  });
});

describe('deactivate', () => {
  test('after a start that failed, it ends without an error', async () => {
    host.startOutcome = 'failed';
    await extension.activate(host.context());
    await extension.deactivate();
  });

  test('while the server is still starting, it waits for the start and stops the server', async () => {
    host.startOutcome = 'pending';
    const activating = extension.activate(host.context());
    const deactivating = extension.deactivate();
    host.finishStart();
    await deactivating;
    await activating;
    const [client] = host.clients;
    assert.equal(client!.phase, 'stopped');
    assert.equal(client!.stops, 1);
  });

  test('trust granted once the server is gone for good is no unhandled rejection', async () => {
    fake.trusted = false;
    await extension.activate(host.context());
    const [client] = host.clients;
    client!.phase = 'stopped';
    const unhandled: unknown[] = [];
    const record = (reason: unknown) => void unhandled.push(reason);
    process.on('unhandledRejection', record);
    try {
      fake.trusted = true;
      for (const listener of host.trustListeners) listener();
      await new Promise((resolve) => setTimeout(resolve, 20));
    } finally {
      process.off('unhandledRejection', record);
    }
    assert.deepEqual(unhandled, []);
  });
});

describe('the CodeLens provider', () => {
  test('stops following the broker settings once disposed with the extension', async () => {
    const { EnvelopeCodeLenses } = await import('../../client/codelens');
    const lenses = new EnvelopeCodeLenses('babelqueue.sendTestEnvelope');
    let refreshed = 0;
    lenses.onDidChangeCodeLenses(() => void refreshed++);
    const brokerChanged = { affectsConfiguration: (section: string) => section.startsWith('babelqueue') };
    host.fire('onDidChangeConfiguration', brokerChanged);
    assert.equal(refreshed, 1);
    lenses.dispose();
    host.fire('onDidChangeConfiguration', brokerChanged);
    assert.equal(refreshed, 1);
  });
});

describe('trust granted while the server starts', () => {
  test('the server is told once it runs', async () => {
    fake.trusted = false;
    host.startOutcome = 'pending';
    const activating = extension.activate(host.context());
    fake.trusted = true;
    for (const listener of host.trustListeners) listener();
    host.finishStart();
    await activating;
    await new Promise((resolve) => setTimeout(resolve, 10));
    const [client] = host.clients;
    assert.deepEqual(client!.notifications.map((notification) => notification.method), ['babelqueue/workspaceTrusted']);
  });
});

describe('babelqueue.trace.server', () => {
  const hints = () => host.outputLines.filter((line) => line.includes('babelqueue.trace.server'));

  test('set while the output is not at log level Trace (when the language client traces nothing): the output says what else to set', async () => {
    host.outputLines.length = 0;
    host.outputLogLevel = 3;
    fake.settings = { 'babelqueue.trace.server': 'verbose' };
    await extension.activate(host.context());
    assert.equal(hints().length, 1, host.outputLines.join('\n'));
    assert.match(hints()[0]!, /^info: .*"verbose".*log level.*Trace.*Developer: Set Log Level/);
    // Set at runtime: said again; set back to off, or with the output at Trace, nothing is said.
    host.fire('onDidChangeConfiguration', { affectsConfiguration: (section: string) => 'babelqueue.trace.server'.startsWith(section) });
    assert.equal(hints().length, 2);
    fake.settings = { 'babelqueue.trace.server': 'off' };
    host.fire('onDidChangeConfiguration', { affectsConfiguration: (section: string) => 'babelqueue.trace.server'.startsWith(section) });
    host.outputLogLevel = 1;
    fake.settings = { 'babelqueue.trace.server': 'messages' };
    host.fire('onDidChangeConfiguration', { affectsConfiguration: (section: string) => 'babelqueue.trace.server'.startsWith(section) });
    assert.equal(hints().length, 2);
    host.outputLogLevel = 3;
  });
});

describe('the configuration the server is sent', () => {
  test('is never the whole babelqueue section (with the broker URL and any password in it), not even while the extension stops during the start', async () => {
    host.startOutcome = 'pending';
    fake.settings = { 'babelqueue.broker.url': 'redis://:hunter2@127.0.0.1:6379' };
    const getConfiguration = host.api.workspace.getConfiguration;
    host.api.workspace.getConfiguration = () => ({ get: (key: string) => fake.settings[key], inspect: () => undefined });
    after(() => void (host.api.workspace.getConfiguration = getConfiguration));
    const activating = extension.activate(host.context());
    const [languageClient] = host.clients;
    const middleware = (languageClient!.clientOptions as { middleware: { workspace: { didChangeConfiguration: (sections: string[] | undefined, next: (sections: string[] | undefined) => Promise<void>) => Promise<void> } } }).middleware;
    // Stopped while it starts: the start goes on (the client refuses to stop a server still
    // starting), and its first configuration is sent as it initializes.
    const stopping = extension.deactivate();
    const passedOn: (string[] | undefined)[] = [];
    await middleware.workspace.didChangeConfiguration(['babelqueue'], async (sections) => void passedOn.push(sections));
    host.finishStart();
    await stopping;
    await activating;
    assert.deepEqual(passedOn, [], 'the whole section was handed to the language client to send');
  });
});

describe('babelqueue.trace.server set by a checkout to a value of its own', () => {
  test('is quoted in the hint cut and on one line: a line break in it would begin a forged line of the output', async () => {
    host.outputLines.length = 0;
    host.outputLogLevel = 3;
    fake.settings = { 'babelqueue.trace.server': `verbose\n[error] Sent to orders: meta.id 1\u202e${'x'.repeat(100_000)}` };
    await extension.activate(host.context());
    const [hint] = host.outputLines.filter((line) => line.includes('babelqueue.trace.server'));
    assert.ok(hint, host.outputLines.join('\n'));
    assert.ok(hint.length < 1000, `the hint is ${hint.length} characters`);
    assert.doesNotMatch(hint, /[\n\u202e]/);
    assert.match(hint, /"verbose\\n\[error\] Sent to orders/);
  });
});

describe('the CodeLens above an edited copy of a dead letter (Edit, then Redrive)', () => {
  test('is Redrive, as above the dead letter: a Send would publish a second message with the dead_letter block and leave the stored one in the DLQ', async () => {
    await extension.activate(host.context());
    const views = host.providers.get('babelqueue-message');
    const lenses = host.providers.get('codelens');
    const { readFileSync } = await import('node:fs');
    const rows = await import('../../core/language/message-rows');
    const body = readFileSync('examples/billing/invoice-paid-dlq.babel.json');
    const decoders = { strict: new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }), lenient: new TextDecoder('utf-8', { ignoreBOM: true }) };
    const [entry] = rows.lintedRows([rows.messageBody(body, decoders)]);
    const documents: { uri: unknown; languageId: string; getText(): string }[] = [];
    host.api.workspace.textDocuments = documents;
    host.api.workspace.openTextDocument = async (opened: { toString(): string } | { language: string; content: string }) => {
      const document = 'content' in opened
        ? { uri: host.uri('untitled:Untitled-1'), languageId: opened.language, getText: () => opened.content }
        : { uri: opened, languageId: 'json', getText: () => views.provideTextDocumentContent(opened) };
      documents.push(document);
      return document;
    };
    host.api.languages.setTextDocumentLanguage = async (document: { languageId: string }, language: string) => Object.assign(document, { languageId: language });
    await views.open({ row: entry!.row, body, source: { queue: 'billing', key: 'billing.dlq', deadLetters: true } });
    const [view] = documents;
    const titles = (document: unknown) => lenses.provideCodeLenses(document).map((lens: { command: { title: string } }) => lens.command.title);
    assert.deepEqual(titles(view), ['Preview Published Bytes', 'Redrive to its original queue']);
    await fake.commands.get('babelqueue.editThenRedrive')!(view!.uri);
    const copy = documents[1];
    assert.ok(copy, 'the copy is opened');
    assert.deepEqual(titles(copy), ['Preview Published Bytes', 'Redrive to its original queue']);
  });
});
