/**
 * What the server shows with window/showMessage names files and values as the checkout writes
 * them, and VS Code makes `[text](command:…)` in a notification a link that runs the command: a
 * file named so is no link in the notice of a capped outline, fold or formatting (server/cap-notices.ts).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CapNotices } from '../../server/cap-notices';
import { linksIn } from '../support/editor-links';

test('a fixture named as a link is no link in a capped answer\'s notice', () => {
  const sent: string[] = [];
  const notices = new CapNotices({
    sendNotification: ((_method: string, params: { message: string }) => {
      sent.push(params.message);
      return Promise.resolve();
    }) as never,
  });
  notices.say('file:///w/x.babel.json', 'folding', '[Open a terminal](command:workbench.action.terminal.new).babel.json has more foldable blocks than 5000: only the first 5000 fold.');
  assert.equal(sent.length, 1);
  assert.equal(linksIn(sent[0]!), 0, sent[0]);
  assert.ok(sent[0]!.startsWith('[Open a terminal]\\(command:'), sent[0]);
});
