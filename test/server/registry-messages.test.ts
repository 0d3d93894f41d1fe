/**
 * The registry's state as standard LSP log and show messages (server/registry-messages.ts): a
 * folder without a registry is logged once per workspace folder, not once per folder of fixtures,
 * and again after a registry has been seen in that workspace folder since; a broken registry is
 * shown once and logged each time.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { registryMessages } from '../../server/registry-messages';
import { NO_REGISTRY, type RegistryState } from '../../core/registry/types';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadRegistry } from '../../workspace/registry-loader';
import { linksIn } from '../support/editor-links';

function listen() {
  const sent: { method: string; type: number; message: string }[] = [];
  const listener = registryMessages({
    sendNotification: ((method: string, params: { type: number; message: string }) => {
      sent.push({ method, ...params });
      return Promise.resolve();
    }) as never,
  });
  return { sent, listener };
}

const BROKEN: RegistryState = { kind: 'broken', path: '/w/registry.json', error: 'it is not JSON' };

test('a workspace report over a hundred folders without a registry logs one line per workspace folder', () => {
  const { sent, listener } = listen();
  for (let folder = 0; folder < 100; folder++) listener(NO_REGISTRY, { directory: `/w/batch-${folder}`, root: '/w' });
  listener(NO_REGISTRY, { directory: '/other/fixtures', root: '/other' });
  assert.deepEqual(
    sent.map((entry) => entry.message),
    [
      'No registry.json (bqschema format) at or above /w/batch-0 inside /w: URNs and payloads are not checked against a registry. (Other folders of /w without one are not logged.)',
      'No registry.json (bqschema format) at or above /other/fixtures inside /other: URNs and payloads are not checked against a registry. (Other folders of /other without one are not logged.)',
    ],
  );
  assert.ok(sent.every((entry) => entry.method === 'window/logMessage'));
});

test('once a registry has been seen in the workspace folder, a folder without one is logged again', () => {
  const { sent, listener } = listen();
  listener(NO_REGISTRY, { directory: '/w/a', root: '/w' });
  listener(BROKEN, { directory: '/w', root: '/w' });
  listener(NO_REGISTRY, { directory: '/w/a', root: '/w' });
  listener(NO_REGISTRY, { directory: '/w/b', root: '/w' });
  listener(BROKEN, { directory: '/w', root: '/w' });
  const logged = sent.filter((entry) => entry.method === 'window/logMessage').map((entry) => entry.message.slice(0, 40));
  assert.deepEqual(logged, [
    'No registry.json (bqschema format) at or',
    'BabelQueue registry /w/registry.json can',
    'No registry.json (bqschema format) at or',
    'BabelQueue registry /w/registry.json can',
  ]);
  // The break is shown once for the server's life; each later state is in the log.
  assert.equal(sent.filter((entry) => entry.method === 'window/showMessage').length, 1);
});

test('a registry with more problems than registry.json lists logs how many there are, not how many are listed', () => {
  const root = mkdtempSync(join(tmpdir(), 'babelq-messages-'));
  try {
    writeFileSync(join(root, 's.json'), '{"type":"object"}');
    writeFileSync(join(root, 'registry.json'), JSON.stringify({ schemas: Array.from({ length: 1500 }, (_, i) => ({ urn: `x${i}`, schema: 's.json' })) }));
    const state = loadRegistry(join(root, 'registry.json'), root).state;
    const { sent, listener } = listen();
    listener(state, { directory: root, root });
    assert.deepEqual(sent.map((entry) => entry.message), [`BabelQueue registry ${join(root, 'registry.json')} loaded: 1500 URNs, 1500 problems (the first 1000 shown as diagnostics on registry.json, the rest summed up in one).`]);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test('a registry of another name (babelqueue.registry.path) is named by it in the log, not as registry.json', () => {
  const root = mkdtempSync(join(tmpdir(), 'babelq-messages-'));
  try {
    writeFileSync(join(root, 's.json'), '{"type":"object"}');
    writeFileSync(join(root, 'sub.json'), JSON.stringify({ schemas: [{ urn: 'x1', schema: 's.json' }] }));
    const state = loadRegistry(join(root, 'sub.json'), root).state;
    const { sent, listener } = listen();
    listener(state, { directory: root, root });
    assert.deepEqual(sent.map((entry) => entry.message), [`BabelQueue registry ${join(root, 'sub.json')} loaded: 1 URN, 1 problem (shown as diagnostics on sub.json).`]);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test('a registry file or folder named with a line break or a bidirectional override is named on one line, its invisible characters escaped', () => {
  const { sent, listener } = listen();
  const name = '/w/bad\u202e\n[Error] forged.json';
  listener({ kind: 'broken', path: name, error: `${name.slice(3)} is not valid JSON: This object is never closed.` }, { directory: '/w', root: '/w' });
  listener(NO_REGISTRY, { directory: '/v/fix\u202etures\nx', root: '/v' });
  assert.equal(sent.length, 3);
  for (const entry of sent) {
    assert.doesNotMatch(entry.message, /[\n\r\u202e]/, entry.message);
  }
  assert.match(sent[0]!.message, /\/w\/bad\\u202e\\n\[Error\] forged\.json cannot be used/);
});

test('a registry path or error written as a link is no link in the message VS Code shows', () => {
  const { sent, listener } = listen();
  const link = '[Open a terminal](command:workbench.action.terminal.new)';
  listener({ kind: 'broken', path: `/w/${link}/registry.json`, error: `bad ${link}` }, { directory: '/w', root: '/w' });
  const shown = sent.filter((entry) => entry.method === 'window/showMessage').map((entry) => entry.message);
  assert.equal(shown.length, 1);
  assert.ok(shown[0]!.includes('[Open a terminal]\\(command:'), shown[0]);
  assert.equal(linksIn(shown[0]!), 0, shown[0]);
});
