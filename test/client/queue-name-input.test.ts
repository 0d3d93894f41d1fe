/**
 * The queue name Peek Queue and Dead Letters ask for when no envelope is open (or "Another
 * queue…" is picked): an empty name is refused in the box, with a message, rather than closing it
 * as if Escape had been pressed, which left the command ended without a word.
 */
import assert from 'node:assert/strict';
import { before, beforeEach, describe, test } from 'node:test';
import { installFakeVscode } from '../support/fake-vscode';

const fake = installFakeVscode();
let messages: typeof import('../../client/commands/messages');

before(async () => {
  messages = await import('../../client/commands/messages');
});

beforeEach(() => {
  fake.reset();
  fake.commands.clear();
  // A host that is not this machine: anything read from it would be asked about first.
  fake.settings = { 'babelqueue.broker.url': 'redis://10.1.2.3:6379' };
});

describe('the queue name asked for', () => {
  for (const [name, command] of [['Peek Queue', 'babelqueue.peekQueue'], ['Dead Letters', 'babelqueue.deadLetters']] as const) {
    for (const typed of ['', '   ']) {
      test(`${name}: ${JSON.stringify(typed)} is refused in the box with a message, and nothing is read`, async () => {
        messages.registerMessageCommands({ ...fake.services(), views: { open: async () => undefined } as never });
        fake.answer = (event) => (event.kind === 'input' ? typed : undefined);
        await fake.commands.get(command)!();
        const seen = fake.events.map((event) => `${event.kind}: ${event.text}`);
        assert.ok(seen.some((line) => /^input\.refused: .*queue/i.test(line)), seen.join('\n'));
        assert.ok(!seen.some((line) => /not this machine/.test(line)), seen.join('\n'));
      });
    }

    test(`${name}: a name is taken as typed`, async () => {
      messages.registerMessageCommands({ ...fake.services(), views: { open: async () => undefined } as never });
      fake.answer = (event) => (event.kind === 'input' ? 'orders' : undefined);
      await fake.commands.get(command)!();
      const seen = fake.events.map((event) => `${event.kind}: ${event.text}`);
      assert.ok(!seen.some((line) => line.startsWith('input.refused')), seen.join('\n'));
      // Read from the broker next: its host is asked about first.
      assert.ok(seen.some((line) => /not this machine/.test(line)), seen.join('\n'));
    });
  }
});
