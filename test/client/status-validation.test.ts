/**
 * The language status item when `babelqueue.validation.enable` is false: the server runs, but it
 * validates nothing, so the item says validation is off and which setting turns it on, instead of
 * "Envelope validation is running". It follows the setting as it changes, for the active
 * envelope's folder. Driven through the stand-in extension host (test/support/fake-extension-host.ts).
 */
import assert from 'node:assert/strict';
import { before, beforeEach, describe, test } from 'node:test';
import { describeState } from '../../client/status';
import { installFakeExtensionHost } from '../support/fake-extension-host';

const host = installFakeExtensionHost();
const fake = host.vscode;
let extension: typeof import('../../client/extension');
let item: { text?: string; detail?: string; severity?: number; busy?: boolean };
/** The folder whose settings turn validation off, and what each folder's setting is. */
let validation: Map<string, boolean>;

before(async () => {
  extension = await import('../../client/extension');
});

beforeEach(async () => {
  await extension.deactivate().catch(() => undefined);
  host.disposeContexts();
  fake.reset();
  fake.commands.clear();
  host.clients.length = 0;
  host.startOutcome = 'running';
  item = {};
  validation = new Map();
  host.api.languages.createLanguageStatusItem = () => Object.assign(item, { dispose() {} });
  host.api.workspace.getConfiguration = (_section?: string, scope?: { path?: string }) => ({
    get: (key: string) => {
      if (key !== 'babelqueue.validation.enable') return undefined;
      for (const [folder, enabled] of validation) if (scope?.path?.startsWith(folder)) return enabled;
      return undefined;
    },
    inspect: () => undefined,
  });
});

const envelope = (path: string) => ({ document: { uri: host.uri(`file://${path}`), languageId: 'babelqueue-envelope' } });
const changed = (...sections: string[]) => host.fire('onDidChangeConfiguration', { affectsConfiguration: (section: string) => sections.some((changed) => changed === section || changed.startsWith(`${section}.`)) });

describe('describeState with validation off', () => {
  test('running, validation off: says so and names the setting that turns it on', () => {
    const view = describeState('running', undefined, false);
    assert.equal(view.text, 'BabelQueue: validation off');
    assert.match(view.detail, /babelqueue\.validation\.enable/);
    assert.doesNotMatch(view.detail, /is running/);
    assert.equal(view.busy, false);
  });

  test('a registry status does not hide that validation is off', () => {
    assert.equal(describeState('running', { state: 'broken', message: 'Registry error: x' }, false).text, 'BabelQueue: validation off');
  });

  test('a server that stopped is still said to have stopped', () => {
    assert.equal(describeState('stopped', undefined, false).text, 'BabelQueue: stopped');
  });
});

describe('the status item, as the setting changes', () => {
  test('with validation off for the active envelope\'s folder, the item says it is off', async () => {
    validation.set('/w/off/', false);
    fake.activeTextEditor = envelope('/w/off/a.babel.json');
    await extension.activate(host.context());
    assert.equal(item.text, 'BabelQueue: validation off', item.detail);
    assert.match(item.detail!, /babelqueue\.validation\.enable/);
  });

  test('turning the setting off and on again updates the item without another event', async () => {
    fake.activeTextEditor = envelope('/w/a/a.babel.json');
    await extension.activate(host.context());
    assert.equal(item.text, 'BabelQueue');
    assert.equal(item.detail, 'Envelope validation is running');
    validation.set('/w/a/', false);
    changed('babelqueue.validation.enable');
    assert.equal(item.text, 'BabelQueue: validation off');
    validation.set('/w/a/', true);
    changed('babelqueue.validation.enable');
    assert.equal(item.text, 'BabelQueue');
  });

  test('an envelope of a folder where validation is on, made active, is said to be validated', async () => {
    validation.set('/w/off/', false);
    fake.activeTextEditor = envelope('/w/off/a.babel.json');
    await extension.activate(host.context());
    assert.equal(item.text, 'BabelQueue: validation off');
    fake.activeTextEditor = envelope('/w/on/b.babel.json');
    host.fire('onDidChangeActiveTextEditor', fake.activeTextEditor);
    assert.equal(item.text, 'BabelQueue');
  });
});

test('a registry message naming a file written like an icon shows it as written in the status item\'s detail', () => {
  const view = describeState('running', { state: 'broken', message: 'Registry error: cannot read $(check)/registry.json' });
  assert.equal(view.detail, 'cannot read \\$(check)/registry.json');
  assert.equal(describeState('running', { state: 'loaded', message: 'Registry $(zap).json loaded' }).detail, 'Registry \\$(zap).json loaded');
});
