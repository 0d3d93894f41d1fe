/**
 * Peek Queue and Dead Letters in a workspace of several folders read the broker settings of the
 * folder they are run in: the active envelope's, else the active editor's file's (a README of that
 * folder), else the folder the user picks. Each folder's broker is a host that is not this machine,
 * so the question naming it shows whose settings were read, and nothing connects.
 */
import assert from 'node:assert/strict';
import { before, beforeEach, describe, test } from 'node:test';
import { installFakeExtensionHost } from '../support/fake-extension-host';

const host = installFakeExtensionHost();
const fake = host.vscode;
const FOLDERS = { api: '10.1.1.1', worker: '10.2.2.2' } as const;
let messages: typeof import('../../client/commands/messages');
let picks: number;
let picked: 'api' | 'worker' | undefined;

before(async () => {
  messages = await import('../../client/commands/messages');
});

beforeEach(() => {
  fake.reset();
  fake.commands.clear();
  picks = 0;
  picked = 'worker';
  const folders = Object.keys(FOLDERS).map((name, index) => ({ name, index, uri: host.uri(`file:///w/${name}`) }));
  host.api.workspace.workspaceFolders = folders;
  host.api.workspace.getWorkspaceFolder = (uri: { scheme: string; path: string }) => folders.find((folder) => uri.scheme === 'file' && uri.path.startsWith(`${folder.uri.path}/`));
  // Each folder's .vscode/settings.json names its own broker; the user's settings name none.
  host.api.workspace.getConfiguration = (_section: unknown, scope?: { path: string }) => ({
    get: (key: string) => {
      if (key !== 'babelqueue.broker.url') return undefined;
      const folder = Object.entries(FOLDERS).find(([name]) => scope?.path === `/w/${name}` || scope?.path.startsWith(`/w/${name}/`));
      return folder ? `redis://${folder[1]}:6379` : undefined;
    },
  });
  host.api.window.showWorkspaceFolderPick = async () => (picks++, folders.find((folder) => folder.name === picked));
  fake.answer = (event) => (event.kind === 'input' ? 'orders' : undefined);
});

/** The hosts the commands asked about ("<host> is not this machine"), in order. */
const askedHosts = () => fake.events.flatMap((event) => /^(\S+) is not this machine/.exec(event.text)?.[1] ?? []);

describe('a workspace of several folders', () => {
  for (const command of ['babelqueue.peekQueue', 'babelqueue.deadLetters']) {
    test(`${command}: the active editor's folder's broker, whatever the file's language`, async () => {
      messages.registerMessageCommands({ ...fake.services(), views: { open: async () => undefined } as never });
      fake.activeTextEditor = { document: { uri: host.uri('file:///w/worker/README.md'), languageId: 'markdown', getText: () => '# worker' } };
      await fake.commands.get(command)!();
      assert.deepEqual(askedHosts(), [FOLDERS.worker], fake.events.map((event) => `${event.kind}: ${event.text}`).join('\n'));
      assert.equal(picks, 0);
    });

    test(`${command}: with no editor, the folder picked; nothing read when the pick is dismissed`, async () => {
      messages.registerMessageCommands({ ...fake.services(), views: { open: async () => undefined } as never });
      await fake.commands.get(command)!();
      assert.deepEqual(askedHosts(), [FOLDERS.worker]);
      assert.equal(picks, 1);
      fake.events.length = 0;
      picked = undefined;
      await fake.commands.get(command)!();
      assert.deepEqual(askedHosts(), []);
    });
  }
});

describe('a message view active (read-only, in no folder)', () => {
  const VIEW = 'babelqueue-message:/orders · 0b5e6f7a-1c0d-4f88-9b2a-7b3f9c2ae41d?1';
  const TEXT = JSON.stringify({ job: 'urn:babel:orders:created', meta: { id: '0b5e6f7a-1c0d-4f88-9b2a-7b3f9c2ae41d', queue: 'orders' } });
  /** Message views whose messages were read with `settingsUri`. */
  const viewsReadWith = (settingsUri: unknown) => ({
    open: async () => undefined,
    messageOf: (uri: { toString(): string }) => (uri.toString() === VIEW ? { source: { queue: 'orders', key: 'orders', deadLetters: false, ...(settingsUri ? { settingsUri } : {}) }, row: {} } : undefined),
  });

  for (const command of ['babelqueue.peekQueue', 'babelqueue.deadLetters']) {
    test(`${command}: the broker of the folder the view was read with, no folder asked for`, async () => {
      messages.registerMessageCommands({ ...fake.services(), views: viewsReadWith(host.uri('file:///w/api')) as never });
      fake.activeTextEditor = { document: { uri: host.uri(VIEW), languageId: 'babelqueue-envelope', getText: () => TEXT } };
      fake.answer = (event, items) => (event.kind === 'input' ? 'orders' : event.kind === 'quickPick' ? items[0] : undefined);
      await fake.commands.get(command)!();
      assert.deepEqual(askedHosts(), [FOLDERS.api], fake.events.map((event) => `${event.kind}: ${event.text}`).join('\n'));
      assert.equal(picks, 0);
    });

    test(`${command}: a view read with no folder's settings: the folder is asked for, as before`, async () => {
      messages.registerMessageCommands({ ...fake.services(), views: viewsReadWith(undefined) as never });
      fake.activeTextEditor = { document: { uri: host.uri(VIEW), languageId: 'babelqueue-envelope', getText: () => TEXT } };
      fake.answer = (event, items) => (event.kind === 'input' ? 'orders' : event.kind === 'quickPick' ? items[0] : undefined);
      await fake.commands.get(command)!();
      assert.deepEqual(askedHosts(), [FOLDERS.worker]);
      assert.equal(picks, 1);
    });
  }
});
