/**
 * VS Code reads `[text](target)` as a link in a notification's message and in a language status
 * item's detail, when the target starts with `http://`, `https://`, `command:` or `file:`, and a
 * click opens it with commands allowed: a `command:` target runs that command with the arguments
 * written after it. Text from a broker, a registry or a checkout quoted there (client/quoted-text.ts)
 * is written so that no link forms in it; the extension's own words are left as written.
 */
import assert from 'node:assert/strict';
import { before, beforeEach, describe, test } from 'node:test';
import { bodyExcerpt, labelName, labelText, quotedName, quotedText, someQuoted, unlinked } from '../../client/quoted-text';
import { describeState } from '../../client/status';
import { linksIn } from '../support/editor-links';
import { installFakeExtensionHost } from '../support/fake-extension-host';

const HOSTILE = [
  '[Open a terminal](command:workbench.action.terminal.new)',
  '[run](command:babelqueue.sendEnvelope?%5B%22x%22%5D)',
  '[docs](https://example.com/a)',
  '[docs](HTTP://EXAMPLE.COM)',
  '[here](file:///etc/passwd)',
  '[here](Command:x "a title")',
  "[here](command:x 'a title')",
  'orders [a](command:x) and [b](command:y)',
  '[[nested](command:x)',
];

describe('the link pattern this file checks against', () => {
  test('finds the links VS Code would draw', () => {
    for (const text of HOSTILE) assert.ok(linksIn(text) >= 1, text);
    assert.equal(linksIn('orders [a](command:x) and [b](command:y)'), 2);
  });

  test('finds none where VS Code draws none', () => {
    for (const text of ['[a](ftp://x)', '[](command:x)', '[a] (command:x)', '[a](command:x', '[a](command: x)', 'a](command:x)']) assert.equal(linksIn(text), 0, text);
  });
});

describe('unlinked', () => {
  test('no link forms in hostile text', () => {
    for (const text of HOSTILE) assert.equal(linksIn(unlinked(text)), 0, unlinked(text));
  });

  test('a `](` is written `]\\(`, the rest as it was', () => {
    assert.equal(unlinked('[Open](command:x)'), '[Open]\\(command:x)');
    assert.equal(unlinked('a](b](c'), 'a]\\(b]\\(c');
  });

  test('text with no `](` is left as it is, and unlinked twice is unlinked once', () => {
    for (const text of ['orders', '[a] (b)', 'a]b(c', '(x)[y]', '\\(', 'billing.dlq']) assert.equal(unlinked(text), text);
    for (const text of HOSTILE) assert.equal(unlinked(unlinked(text)), unlinked(text));
  });
});

describe('quoted text carries no link', () => {
  test('names, sentences, labels, lists and bodies', () => {
    for (const text of HOSTILE) {
      for (const quoted of [quotedName(text), quotedText(text), labelName(text), labelText(text), someQuoted([text, text]), bodyExcerpt(text)]) assert.equal(linksIn(quoted), 0, quoted);
    }
  });

  test('nor once its line breaks are spaces, or once it is cut', () => {
    const split = '[Open\na terminal](command:workbench.action.terminal.new)';
    assert.equal(linksIn(bodyExcerpt(split)), 0);
    assert.equal(linksIn(quotedName(`${'q'.repeat(300)}[a](command:x)`)), 0);
    assert.equal(linksIn(bodyExcerpt(`${'b'.repeat(990)}[a](command:x)`)), 0);
  });
});

describe('the language status item', () => {
  test('a registry path written as a link is no link in the detail', () => {
    const path = 'registry/[Open a terminal](command:workbench.action.terminal.new).json';
    for (const registry of [
      { state: 'broken' as const, message: `Registry error: ${path} could not be read` },
      { state: 'loaded' as const, message: `Registry ${path}: 3 entries` },
    ]) {
      const { detail } = describeState('running', registry);
      assert.equal(linksIn(detail), 0, detail);
      assert.ok(detail.includes('[Open a terminal]\\(command:workbench.action.terminal.new)'), detail);
    }
  });
});

describe('a notification', () => {
  const host = installFakeExtensionHost();
  const fake = host.vscode;
  let redriveModule: typeof import('../../client/commands/redrive');
  let sendModule: typeof import('../../client/commands/send');

  before(async () => {
    redriveModule = await import('../../client/commands/redrive');
    sendModule = await import('../../client/commands/send');
  });

  beforeEach(() => {
    fake.reset();
    fake.commands.clear();
  });

  test('a queue named as a link is no link in it', async () => {
    const queue = '[Open a terminal](command:workbench.action.terminal.new)';
    const uri = host.uri('babelqueue-message:/orders?1');
    const shown = { row: { metaId: 'm-1' }, body: new Uint8Array(), source: { queue, key: queue, deadLetters: false } };
    const document = { uri, languageId: 'babelqueue-envelope', getText: () => '{}' };
    host.api.workspace.textDocuments = [document];
    fake.activeTextEditor = { document };
    const views = { messageOf: (asked: { toString(): string }) => (asked.toString() === uri.toString() ? shown : undefined) } as never;
    redriveModule.registerRedriveCommands({ ...fake.services(), views });
    await fake.commands.get('babelqueue.redriveMessage')!(uri);
    const said = fake.events.filter((event) => event.kind === 'info').map((event) => event.text);
    assert.equal(said.length, 1, said.join('\n'));
    assert.ok(said[0]!.includes('is not a dead-letter queue'), said[0]);
    assert.equal(linksIn(said[0]!), 0, said[0]);
  });

  test('a workspace setting written as a link is no link in the error that names it', () => {
    fake.settings = { 'babelqueue.preview.sdk': '[Open a terminal](command:workbench.action.terminal.new)' };
    assert.equal(sendModule.settingsFor(undefined, 'send'), undefined);
    const said = fake.events.filter((event) => event.kind === 'error').map((event) => event.text);
    assert.equal(said.length, 1, said.join('\n'));
    assert.ok(said[0]!.includes('babelqueue.preview.sdk'), said[0]);
    assert.equal(linksIn(said[0]!), 0, said[0]);
  });
});
