/**
 * A finding that carries the same cause's other finding on its token (core/rules/same-cause.ts)
 * sends it as relatedInformation to a client that shows that, and folded into the message, as
 * `babelq lint`'s one-line formats write it, to one that does not (eglot declares it false and
 * would show the first finding alone).
 */
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { GOOD_ENVELOPE } from '../support/envelopes';
import { EGLOT_1_9 } from '../support/editor-capabilities';
import { TestLspClient } from '../support/lsp-client';

/** "Attempts" after "attempts": an encoding-divergence that carries a case-mismatch. */
const CASE_TWIN = GOOD_ENVELOPE.replace('"attempts": 0', '"attempts": 0,\n  "Attempts": 1');

describe('related findings', () => {
  const clients: TestLspClient[] = [];
  after(() => clients.forEach((client) => client.kill()));

  test('a client without relatedInformation gets the related finding in the message', async () => {
    const client = new TestLspClient({ capabilities: EGLOT_1_9 });
    clients.push(client);
    await client.initialize();
    const uri = 'file:///workspace/twin.babel.json';
    await client.open(uri, CASE_TWIN);
    const diagnostics = await client.lastPublished(uri);
    const twin = diagnostics.find((diagnostic) => diagnostic.range.start.line === 12 && diagnostic.code === 'encoding-divergence');
    assert.ok(twin, JSON.stringify(diagnostics));
    assert.equal(twin.relatedInformation, undefined);
    assert.match(twin.message as string, /^Attempts: Go reads it as "attempts".* \(also case-mismatch: "Attempts" is not "attempts": .*Did you mean "attempts"\?\)$/);
  });

  test('a client that shows relatedInformation gets it there, the message alone', async () => {
    const client = new TestLspClient({ pullDiagnostics: false });
    clients.push(client);
    await client.initialize();
    const uri = 'file:///workspace/twin.babel.json';
    await client.open(uri, CASE_TWIN);
    const twin = (await client.lastPublished(uri)).find((diagnostic) => diagnostic.range.start.line === 12 && diagnostic.code === 'encoding-divergence');
    assert.ok(twin);
    assert.doesNotMatch(twin.message as string, /\(also /);
    assert.equal(twin.relatedInformation?.[0]?.message.startsWith('case-mismatch: '), true);
  });
});
