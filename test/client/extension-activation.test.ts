/**
 * The extension's activate and deactivate (client/extension.ts) with the `vscode` API and the
 * language client stood in for (test/support/fake-extension-host.ts): what the language server is
 * started with, and what is left when the extension stops.
 */
import assert from 'node:assert/strict';
import { before, beforeEach, describe, test } from 'node:test';
import { installFakeExtensionHost } from '../support/fake-extension-host';

const host = installFakeExtensionHost();
const fake = host.vscode;
let extension: typeof import('../../client/extension');

before(async () => {
  extension = await import('../../client/extension');
});

beforeEach(async () => {
  await extension.deactivate().catch(() => undefined);
  fake.reset();
  fake.commands.clear();
  host.clients.length = 0;
  host.trustListeners.length = 0;
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
    assert.deepEqual(initializationOptions(client!.clientOptions), { workspaceTrusted: false });
    fake.trusted = true;
    for (const listener of host.trustListeners) listener();
    // The language client restarts a server that crashed with the same options object.
    assert.deepEqual(initializationOptions(client!.clientOptions), { workspaceTrusted: true });
  });
});
