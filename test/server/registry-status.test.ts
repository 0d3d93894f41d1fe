/**
 * The registry status notification (server/registry-status.ts): sent when it changes, not for a
 * document that closed while its pull was answered, and sent again after a send that failed.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { RegistryStatusReporter } from '../../server/registry-status';
import type { RegistryState } from '../../core/registry/types';
import { readRegistryIndex } from '../../core/registry/registry-file';

const NONE: RegistryState = { kind: 'none' };
const BROKEN: RegistryState = { kind: 'broken', path: '/repo/registry.json', error: 'Duplicate URN' };

function reporter(open: Set<string>, fail = () => false) {
  const sent: { uri: string; state: string }[] = [];
  const connection = {
    sendNotification: (_method: unknown, params: unknown) => {
      if (fail()) return Promise.reject(new Error('connection closed'));
      sent.push(params as { uri: string; state: string });
      return Promise.resolve();
    },
  } as unknown as ConstructorParameters<typeof RegistryStatusReporter>[0];
  const status = new RegistryStatusReporter(connection, (uri) => open.has(uri));
  // As the client asked for it (initializationOptions.registryStatus), which VS Code's does.
  status.enabled = true;
  return { sent, status };
}

test('sent once while unchanged, again when it changes, and again for a document reopened', () => {
  const open = new Set(['file:///a.babel.json']);
  const { sent, status } = reporter(open);
  status.report('file:///a.babel.json', NONE);
  status.report('file:///a.babel.json', NONE);
  status.report('file:///a.babel.json', BROKEN);
  status.report('file:///a.babel.json', NONE);
  assert.deepEqual(sent.map((params) => params.state), ['none', 'broken', 'none']);
  status.forget('file:///a.babel.json');
  status.report('file:///a.babel.json', NONE);
  assert.equal(sent.length, 4);
});

test('nothing for a document that is not open (closed while its pull was answered), and it is sent once it opens', () => {
  const open = new Set<string>();
  const { sent, status } = reporter(open);
  status.report('file:///b.babel.json', NONE);
  assert.equal(sent.length, 0);
  open.add('file:///b.babel.json');
  status.report('file:///b.babel.json', NONE);
  assert.deepEqual(sent.map((params) => params.uri), ['file:///b.babel.json']);
});

test('a send that failed is tried again by the next report', async () => {
  const open = new Set(['file:///c.babel.json']);
  let failing = true;
  const { sent, status } = reporter(open, () => failing);
  status.report('file:///c.babel.json', NONE);
  await new Promise((resolve) => setImmediate(resolve));
  failing = false;
  status.report('file:///c.babel.json', NONE);
  assert.equal(sent.length, 1);
});

test('a registry with more problems than registry.json lists says how many there are', () => {
  const index = readRegistryIndex(JSON.stringify({ schemas: Array.from({ length: 1500 }, (_, i) => ({ urn: `x${i}`, schema: 's.json' })) }));
  assert.ok(index.ok);
  const problemCount = index.problemList.countWhenUnlisted;
  const state: RegistryState = { kind: 'loaded', registry: { path: '/w/registry.json', doc: index.doc, entries: index.entries, byUrn: new Map(), problems: index.problems, ...(problemCount !== undefined ? { problemCount } : {}) } };
  const { sent, status } = reporter(new Set(['file:///a.babel.json']));
  status.report('file:///a.babel.json', state);
  assert.equal((sent[0] as unknown as { message: string }).message, 'Registry: 1500 URNs, 1500 problems in registry.json');
});

test('a registry of another name (babelqueue.registry.path) is named by it in the status, not as registry.json', () => {
  const index = readRegistryIndex(JSON.stringify({ schemas: [{ urn: 'x1', schema: 's.json' }] }));
  assert.ok(index.ok);
  const state: RegistryState = { kind: 'loaded', registry: { path: '/w/config/sub.json', doc: index.doc, entries: index.entries, byUrn: new Map(), problems: index.problems } };
  const { sent, status } = reporter(new Set(['file:///a.babel.json']));
  status.report('file:///a.babel.json', state);
  assert.equal((sent[0] as unknown as { message: string }).message, 'Registry: 1 URN, 1 problem in sub.json');
});

test('nothing to a client that did not ask for the notification (an editor that does not know it logs it as unknown)', () => {
  const open = new Set(['file:///a.babel.json']);
  const { sent, status } = reporter(open);
  status.enabled = false;
  status.report('file:///a.babel.json', NONE);
  status.report('file:///a.babel.json', BROKEN);
  assert.deepEqual(sent, []);
});
