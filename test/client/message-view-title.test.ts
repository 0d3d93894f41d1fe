/**
 * A message opened from Peek Queue or Dead Letters is titled `<queue> · <meta.id>`, both the
 * publisher's text: cut, on one line, and without a '/' (which would start the path's last part,
 * the tab's title, inside the meta.id). Through the stand-in extension host.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { installFakeExtensionHost } from '../support/fake-extension-host';

const host = installFakeExtensionHost();

test('the view\'s URI path names the queue and meta.id cut, on one line, with no "/" of theirs', async () => {
  host.api.languages.setTextDocumentLanguage = async (document: unknown) => document;
  const { MessageViews } = await import('../../client/message-view');
  const views = new MessageViews();
  const metaId = `1/billing · real-id\n\u202e${'x'.repeat(100_000)}`;
  const row = { metaId, text: '{}' } as never;
  await views.open({ row, source: { queue: 'billing.dlq', key: 'billing.dlq', deadLetters: true }, body: new Uint8Array() });
  const opened = host.opened.find((uri) => uri.startsWith('babelqueue-message:'));
  assert.ok(opened, host.opened.join('\n'));
  const path = opened.replace(/^babelqueue-message:/, '').replace(/\?\d+$/, '');
  assert.ok(path.length < 500, `the path is ${path.length} characters`);
  assert.equal(path.lastIndexOf('/'), 0, path);
  assert.doesNotMatch(path, /[\n\u202e]/);
  assert.ok(path.startsWith('/billing.dlq · 1'), path);
});

test('a dead-letter queue longer than a title keeps its .dlq, which the title bar\'s Redrive is shown by', async () => {
  host.api.languages.setTextDocumentLanguage = async (document: unknown) => document;
  const { MessageViews } = await import('../../client/message-view');
  const manifest = JSON.parse((await import('node:fs')).readFileSync('package.json', 'utf8')) as { contributes: { menus: Record<string, { command: string; when: string }[]> } };
  const when = manifest.contributes.menus['editor/title']!.find((item) => item.command === 'babelqueue.redriveMessage')!.when;
  const pattern = new RegExp(/=~ \/(.+)\/$/.exec(when)![1]!);
  const row = { metaId: '0b5e6f7a-1c0d-4f88-9b2a-7b3f9c2ae41d', text: '{}' } as never;
  host.opened.length = 0;
  await new MessageViews().open({ row, source: { queue: `${'q'.repeat(300)}.dlq`, key: `${'q'.repeat(300)}.dlq`, deadLetters: true }, body: new Uint8Array() });
  const opened = host.opened.find((uri) => uri.startsWith('babelqueue-message:'))!;
  const path = opened.replace(/^babelqueue-message:/, '').replace(/\?\d+$/, '');
  assert.ok(path.length < 500, path);
  assert.ok(pattern.test(path), path);
});
