/**
 * The editor's Dead Letters view and Redrive on the real Redis, through the fake `vscode` module
 * (test/support/fake-vscode.ts): a row whose job holds no URN is labelled with the urn alias the
 * decoders read, a redrive leaves in the DLQ what the chosen SDK's decoder fails on, and the rows
 * and the redrive's question are judged by the real language server with the workspace's registry.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, beforeEach, describe, test } from 'node:test';
import { serverJudge, type MessageJudge } from '../../client/server-judgement';
import type { LanguageServer } from '../../client/server-request';
import { deadLettered, outgoing, uniqueQueue, useRealBrokers } from '../broker/helpers';
import { installFakeVscode } from '../support/fake-vscode';
import { TestLspClient } from '../support/lsp-client';
import { ORDERS_URN, TIGHTENED_ORDERS_SCHEMA } from '../support/orders-schema';

const fake = installFakeVscode();
const brokers = useRealBrokers();
const { redis, redisKeys: keys } = brokers;
const REDIS = 'redis://127.0.0.1:6379';

let messages: typeof import('../../client/commands/messages');
let redriveModule: typeof import('../../client/commands/redrive');
let rows: typeof import('../../core/language/message-rows');

before(async () => {
  messages = await import('../../client/commands/messages');
  redriveModule = await import('../../client/commands/redrive');
  rows = await import('../../core/language/message-rows');
});

beforeEach(() => fake.reset());

describe('Dead Letters view', () => {
  test('a row whose job is null or "" beside the urn alias is labelled with the URN the decoders read, marked as the alias', async () => {
    const queue = uniqueQueue();
    keys.add(`${queue}.dlq`);
    const nullJob = deadLettered(outgoing(queue, { orderId: 1 }).text, queue, 'gateway down').replace('"job":"urn:babel:orders:created"', '"job":null,"urn":"urn:babel:orders:created"');
    const emptyJob = deadLettered(outgoing(queue, { orderId: 2 }).text, queue, 'gateway down').replace('"job":"urn:babel:orders:created"', '"job":"","urn":"urn:babel:orders:created"');
    await redis.rpush(`${queue}.dlq`, nullJob, emptyJob);
    fake.settings = { 'babelqueue.broker.url': REDIS };
    let labels: string[] | undefined;
    fake.answer = (event, items) => {
      if (event.kind === 'input') return queue;
      if (event.kind === 'quickPick' && /dead letter\(s\) on/.test(event.text)) labels = (items as { label: string; row?: unknown }[]).filter((item) => item.row).map((item) => item.label);
      return undefined;
    };
    messages.registerMessageCommands({ ...fake.services(), views: { open: async () => undefined } as never });
    await fake.commands.get('babelqueue.deadLetters')!();
    assert.deepEqual(labels?.sort(), ['urn:babel:orders:created (urn alias)', 'urn:babel:orders:created (urn alias; not PHP)'], fake.events.map((event) => `${event.kind}: ${event.text}`).join('\n'));
  });
});

describe('Dead Letters: Enter on the one message a typed filter leaves', () => {
  test('goes on to Open and Redrive for that message, with no message checked or moved to', async () => {
    const queue = uniqueQueue();
    keys.add(`${queue}.dlq`);
    const first = outgoing(queue, { orderId: 1 });
    const second = outgoing(queue, { orderId: 2 });
    await redis.rpush(`${queue}.dlq`, deadLettered(first.text, queue, 'gateway down'), deadLettered(second.text, queue, 'gateway down'));
    fake.settings = { 'babelqueue.broker.url': REDIS };
    const metaId = (JSON.parse(second.text) as { meta: { id: string } }).meta.id;
    const titles: string[] = [];
    fake.answer = (event) => {
      if (event.kind === 'input') return queue;
      if (event.kind === 'quickPick' && /dead letter\(s\) on/.test(event.text)) return { typed: metaId.slice(0, 13).toUpperCase() };
      if (event.kind === 'quickPick') titles.push(event.text);
      return undefined;
    };
    messages.registerMessageCommands({ ...fake.services(), views: { open: async () => undefined } as never });
    await fake.commands.get('babelqueue.deadLetters')!();
    assert.deepEqual(titles, [`meta.id ${metaId}`], fake.events.map((event) => `${event.kind}: ${event.text}`).join('\n'));
  });
});

describe('Dead Letters: the filter finds a message by its reason and error', () => {
  test('each row carries its dead_letter reason and error, which VS Code\'s filter reads (the group\'s line it does not)', async () => {
    const queue = uniqueQueue();
    keys.add(`${queue}.dlq`);
    await redis.rpush(`${queue}.dlq`, deadLettered(outgoing(queue, { orderId: 1 }).text, queue, 'gateway down'), deadLettered(outgoing(queue, { orderId: 2 }).text, queue, 'is_gift must be true or false, got 0'));
    fake.settings = { 'babelqueue.broker.url': REDIS };
    let rowTexts: string[] = [];
    let headings: string[] = [];
    fake.answer = (event, items) => {
      if (event.kind === 'input') return queue;
      if (event.kind === 'quickPick' && /dead letter\(s\) on/.test(event.text)) {
        const rowItems = (items as { label: string; description?: string; detail?: string; row?: unknown }[]).filter((item) => item.row);
        rowTexts = rowItems.map((item) => [item.label, item.description, item.detail].join('\n'));
        headings = (items as { label: string; row?: unknown }[]).filter((item) => !item.row).map((item) => item.label);
      }
      return undefined;
    };
    messages.registerMessageCommands({ ...fake.services(), views: { open: async () => undefined } as never });
    await fake.commands.get('babelqueue.deadLetters')!();
    assert.equal(rowTexts.length, 2, fake.events.map((event) => `${event.kind}: ${event.text}`).join('\n'));
    assert.equal(rowTexts.filter((text) => text.includes('failed: gateway down')).length, 1, rowTexts.join('\n---\n'));
    assert.equal(rowTexts.filter((text) => text.includes('failed: is_gift must be true or false, got 0')).length, 1, rowTexts.join('\n---\n'));
    // VS Code draws a group's heading over the right of its first row: a short one leaves its meta.id and date readable.
    assert.deepEqual(headings.sort(), ['1 × failed: gateway down', '1 × failed: is_gift must be true or fal…']);
  });
});

/** Peek Queue and Dead Letters given a queue typed with its .dlq suffix: each opens that queue's first message. */
const typedDlq = [
  { command: 'babelqueue.peekQueue', title: 'Peek Queue: a queue typed with its .dlq suffix', name: 'is read as that dead-letter queue, so its messages can be redriven (Redrive said it was not one)', list: /message\(s\) on/ },
  { command: 'babelqueue.deadLetters', title: 'Dead Letters: a work queue typed with the .dlq suffix', name: 'reads that dead-letter queue, not <queue>.dlq.dlq', list: /dead letter\(s\) on/ },
] as const;

for (const { command, title, name, list } of typedDlq) {
  describe(title, () => {
    test(name, async () => {
      const queue = uniqueQueue();
      keys.add(`${queue}.dlq`);
      await redis.rpush(`${queue}.dlq`, deadLettered(outgoing(queue, { orderId: 1 }).text, queue, 'gateway down'));
      fake.settings = { 'babelqueue.broker.url': REDIS };
      fake.answer = (event, items) => {
        if (event.kind === 'input') return `${queue}.dlq`;
        if (event.kind === 'quickPick' && list.test(event.text)) return (items as { row?: unknown }[]).find((item) => item.row);
        if (event.kind === 'quickPick') return (items as { label: string }[]).find((item) => item.label === 'Open');
        return undefined;
      };
      const opened: { source: { queue: string; key: string; deadLetters: boolean } }[] = [];
      messages.registerMessageCommands({ ...fake.services(), views: { open: async (message: never) => void opened.push(message) } as never });
      await fake.commands.get(command)!();
      assert.equal(opened.length, 1, fake.events.map((event) => `${event.kind}: ${event.text}`).join('\n'));
      assert.deepEqual(opened[0]!.source, { queue: `${queue}.dlq`, key: `${queue}.dlq`, deadLetters: true });
    });
  });
}

describe('Redrive from the editor', () => {
  /** A dead letter pushed onto `<queue>.dlq` on the local Redis, as Dead Letters lists it, with Redrive answered to the question. */
  async function onTheDlq(queue: string, text: string) {
    await redis.rpush(`${queue}.dlq`, text);
    fake.settings = { 'babelqueue.broker.url': REDIS };
    fake.answer = () => 'Redrive';
    const body = Buffer.from(text);
    const decoders = { strict: new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }), lenient: new TextDecoder('utf-8', { ignoreBOM: true }) };
    const [entry] = rows.lintedRows([rows.messageBody(body, decoders)]);
    return { entry, message: { row: entry!.row, body, source: { queue: `${queue}.dlq`, key: `${queue}.dlq`, deadLetters: true } } };
  }

  test("the PHP redrive of a dead letter json_decode fails on (an unpaired surrogate in dead_letter) moves nothing and says why", async () => {
    const queue = uniqueQueue();
    keys.add(queue).add(`${queue}.dlq`);
    const text = deadLettered(outgoing(queue, { orderId: 1 }).text, queue, 'gateway down').replace('"exception":"Error"', '"exception":"\\ud800"');
    assert.match(text, /"exception":"\\ud800"/);
    const { entry, message } = await onTheDlq(queue, text);

    assert.equal(await redriveModule.redrive(fake.services(), [{ message }], 'php'), false);
    const errors = fake.events.filter((event) => event.kind === 'error').map((event) => event.text);
    assert.equal(errors.length, 1, fake.events.map((event) => `${event.kind}: ${event.text}`).join('\n'));
    assert.match(errors[0]!, new RegExp(`^Nothing to redrive: meta\\.id ${entry!.row.metaId}: PHP's decode\\(\\) fails on it \\(json_decode refuses an unpaired surrogate escape \\(JSON_ERROR_UTF16\\)\\), so the PHP redrive puts the message back on the DLQ as it is`));
    assert.deepEqual(await redis.lrange(`${queue}.dlq`, 0, -1), [text]);
    assert.equal(await redis.llen(queue), 0);
  });

  test('a redrive that moves the message is logged once, in the output\'s own timestamped line', async () => {
    const queue = uniqueQueue();
    keys.add(queue).add(`${queue}.dlq`);
    const { message } = await onTheDlq(queue, deadLettered(outgoing(queue, { orderId: 2 }).text, queue, 'gateway down'));

    assert.equal(await redriveModule.redrive(fake.services(), [{ message }], 'node'), true);
    assert.equal(await redis.llen(queue), 1);
    const logged = fake.events.filter((event) => event.kind === 'log.info').map((event) => event.text);
    assert.equal(logged.length, 1, logged.join('\n'));
    assert.match(logged[0]!, new RegExp(`^Redrove 1 message\\(s\\) from .*${queue}\\.dlq to ${queue} in \\d+(\\.\\d+)? ms$`));
  });
});

/**
 * The real language server on a new folder holding `files`, asked as the extension's judge asks it:
 * started before the tests of the block that calls this, stopped after them.
 */
function judgingServer(prefix: string, files: Record<string, string>): { root: string; running: LanguageServer } {
  const root = mkdtempSync(join(tmpdir(), prefix));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(root, name), text);
  const server = new TestLspClient({ workspaceFolders: [pathToFileURL(root).href] });
  before(() => server.initialize());
  after(() => {
    server.kill();
    rmSync(root, { recursive: true, force: true });
  });
  return { root, running: { isRunning: () => true, needsStop: () => true, sendRequest: (method, params, token) => server.connection.sendRequest(method, params, token) } };
}

describe('Dead Letters and Redrive judged by the language server, with the workspace\'s registry', () => {
  // A workspace whose registry requires customer_id, which the queued messages lack.
  const { running } = judgingServer('babelq-judged-dlq-', {
    'registry.json': JSON.stringify({ schemas: [{ urn: ORDERS_URN, schema: 'orders-created.json', owner: 'orders', status: 'active' }] }),
    'orders-created.json': TIGHTENED_ORDERS_SCHEMA,
  });

  /** Dead Letters on a queue holding one dead letter, its row and the redrive's questions recorded; the errors question declined. */
  async function listAndRedrive(judge: MessageJudge) {
    const queue = uniqueQueue();
    keys.add(queue).add(`${queue}.dlq`);
    await redis.rpush(`${queue}.dlq`, deadLettered(outgoing(queue, { orderId: 3 }).text, queue, 'gateway down'));
    fake.settings = { 'babelqueue.broker.url': REDIS };
    let row: string | undefined;
    fake.answer = (event, items) => {
      if (event.kind === 'input') return queue;
      if (event.kind === 'quickPick' && /dead letter\(s\) on/.test(event.text)) {
        const item = (items as { description?: string; row?: unknown }[]).find((candidate) => candidate.row);
        row = item?.description;
        return item;
      }
      if (event.kind === 'quickPick') return (items as { label: string }[]).find((item) => item.label.startsWith('Redrive'));
      if (event.kind === 'info' && event.text.startsWith('Redrive ')) return 'Redrive';
      return undefined;
    };
    messages.registerMessageCommands({ ...fake.services(), views: { open: async () => undefined } as never, judge });
    await fake.commands.get('babelqueue.deadLetters')!();
    const warnings = fake.events.filter((event) => event.kind === 'warning');
    return { queue, row, warnings, logged: fake.events.filter((event) => event.kind === 'log.warn').map((event) => event.text) };
  }

  test('a dead letter whose data fails its URN\'s schema is an error in its row, and the redrive of it asks first', async () => {
    const { queue, row, warnings, logged } = await listAndRedrive(serverJudge(() => running));
    assert.match(row ?? '', / · 1 error$/, fake.events.map((event) => `${event.kind}: ${event.text}`).join('\n'));
    assert.equal(warnings.length, 1, fake.events.map((event) => `${event.kind}: ${event.text}`).join('\n'));
    assert.equal(warnings[0]!.text, 'This envelope has 1 error (payload-schema). Redrive anyway?');
    assert.deepEqual(logged, []);
    // Declined: nothing moved.
    assert.equal(await redis.llen(`${queue}.dlq`), 1);
    assert.equal(await redis.llen(queue), 0);
  });

  test('without the server\'s answer, the row and the redrive judge the contract alone, and the output says so', async () => {
    const { queue, row, warnings, logged } = await listAndRedrive(serverJudge(() => undefined));
    assert.match(row ?? '', / · valid$/);
    assert.equal(warnings.length, 0, fake.events.map((event) => `${event.kind}: ${event.text}`).join('\n'));
    assert.deepEqual(logged, [
      "Dead Letters: verdicts on the envelope contract alone, without the registry's payload schemas: the BabelQueue language server is not running.",
      "Redrive: errors counted on the envelope contract alone, without the registry's payload schemas: the BabelQueue language server is not running.",
    ]);
    // Nothing asked about errors: moved.
    assert.equal(await redis.llen(queue), 1);
    assert.equal(await redis.llen(`${queue}.dlq`), 0);
  });
});

/** Dead Letters on `<queue>.dlq` holding `stored` alone, judged by `judge`: the description of its row (what follows the URN). */
async function listedRow(queue: string, stored: string | Buffer, judge: MessageJudge): Promise<string | undefined> {
  await redis.rpush(`${queue}.dlq`, stored);
  fake.settings = { 'babelqueue.broker.url': REDIS };
  let row: string | undefined;
  fake.answer = (event, items) => {
    if (event.kind === 'input') return queue;
    if (event.kind === 'quickPick' && /dead letter\(s\) on/.test(event.text)) row = (items as { description?: string; row?: unknown }[]).find((candidate) => candidate.row)?.description;
    return undefined;
  };
  messages.registerMessageCommands({ ...fake.services(), views: { open: async () => undefined } as never, judge });
  await fake.commands.get('babelqueue.deadLetters')!();
  return row;
}

describe('Dead Letters judged by the language server: a body that is not UTF-8', () => {
  // A workspace whose babelq.json makes json-syntax a warning: lint's one finding on bytes that are not UTF-8 is then a warning.
  const { root, running } = judgingServer('babelq-judged-not-utf8-', { 'babelq.json': JSON.stringify({ severity: { 'json-syntax': 'warning' } }) });

  test('its row has the severity the folder\'s babelq.json gives json-syntax, as babelq dlq list run there says', async () => {
    const queue = uniqueQueue();
    keys.add(`${queue}.dlq`);
    const stored = Buffer.from(deadLettered(outgoing(queue, { orderId: 4 }).text, queue, 'gateway down'));
    stored[stored.indexOf('"', stored.indexOf('gateway down') - 2)] = 0xff;
    const row = await listedRow(queue, stored, serverJudge(() => running));
    const { messageJudgement } = await import('../../cli/message-judgement');
    const judgement = messageJudgement(root, undefined);
    const body = rows.messageBody(new Uint8Array(stored), { strict: new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }), lenient: new TextDecoder('utf-8', { ignoreBOM: true }) });
    assert.ok(body.notUtf8, 'the stored bytes are not UTF-8');
    const cli = rows.lintedRows([body], judgement.settings, judgement.registry)[0]!.row;
    assert.deepEqual([cli.errors, cli.warnings], [0, 1]);
    assert.match(row ?? '', / · 1 warning$/, fake.events.map((event) => `${event.kind}: ${event.text}`).join('\n'));
  });
});

describe('Dead Letters: a message the language server does not judge (longer than it reads)', () => {
  test('keeps the verdict on the contract alone, and the output says so, as the redrive\'s does', async () => {
    const queue = uniqueQueue();
    keys.add(`${queue}.dlq`);
    const row = await listedRow(queue, deadLettered(outgoing(queue, { orderId: 5 }).text, queue, 'gateway down'), async (texts) => ({ verdicts: texts.map(() => null) }));
    assert.match(row ?? '', / · valid$/);
    assert.deepEqual(fake.events.filter((event) => event.kind === 'log.warn').map((event) => event.text), [
      "Dead Letters: verdicts on the envelope contract alone, without the registry's payload schemas, for 1 message(s) longer than the BabelQueue language server judges.",
    ]);
  });
});

describe('Redrive: a message the language server does not judge (longer than it reads)', () => {
  test('is judged on the contract alone, the others keep the server\'s verdicts, and the output says so', async () => {
    const queue = uniqueQueue();
    keys.add(queue).add(`${queue}.dlq`);
    fake.settings = { 'babelqueue.broker.url': REDIS };
    const decoders = { strict: new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }), lenient: new TextDecoder('utf-8', { ignoreBOM: true }) };
    // The first breaks the contract (an integer no double holds); the server is made to judge only the second, with an error of the registry's.
    const texts = [
      deadLettered(outgoing(queue, { orderId: 6 }).text, queue, 'gateway down').replace('"order_id":6', '"order_id":12345678901234567890'),
      deadLettered(outgoing(queue, { orderId: 7 }).text, queue, 'gateway down'),
    ];
    await redis.rpush(`${queue}.dlq`, ...texts);
    const messages = texts.map((text) => {
      const body = Buffer.from(text);
      return { message: { row: rows.lintedRows([rows.messageBody(body, decoders)])[0]!.row, body, source: { queue: `${queue}.dlq`, key: `${queue}.dlq`, deadLetters: true } } };
    });
    const judge: MessageJudge = async () => ({ verdicts: [null, { errors: 1, warnings: 0, errorCodes: ['payload-schema'] }] });
    fake.answer = (event) => (event.kind === 'info' && event.text.startsWith('Redrive ') ? 'Redrive' : undefined);
    assert.equal(await redriveModule.redrive({ ...fake.services(), judge }, messages, 'node'), false);
    const question = fake.events.filter((event) => event.kind === 'warning').map((event) => event.text);
    assert.equal(question.length, 1, fake.events.map((event) => `${event.kind}: ${event.text}`).join('\n'));
    assert.match(question[0]!, /^The 2 envelopes to redrive have 2 errors \((?!.*payload-schema.*payload-schema)[a-z-]+, payload-schema\)\. Redrive anyway\?$/);
    assert.deepEqual(fake.events.filter((event) => event.kind === 'log.warn').map((event) => event.text), [
      "Redrive: errors counted on the envelope contract alone, without the registry's payload schemas, for 1 message(s) longer than the BabelQueue language server judges.",
    ]);
    assert.equal(await redis.llen(queue), 0, 'declined: nothing moved');
  });
});

describe('Redrive of a dead letter whose bytes are not UTF-8 (a raw 0xFF in a string of data, the JSON around it valid), on Redis', () => {
  const decoders = { strict: new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }), lenient: new TextDecoder('utf-8', { ignoreBOM: true }) };
  async function storedDeadLetter() {
    const queue = uniqueQueue();
    keys.add(queue).add(`${queue}.dlq`);
    const text = deadLettered(outgoing(queue, { orderId: 8 }).text, queue, 'gateway down');
    // Inside a string of data: the JSON around the byte is valid.
    const at = text.indexOf('"data":{') + '"data":{'.length;
    assert.ok(text.slice(at).startsWith('"'), text);
    const [head, tail] = [`${text.slice(0, at)}"n":"`, `",${text.slice(at)}`];
    const stored = Buffer.concat([Buffer.from(head), Buffer.from([0xff]), Buffer.from(tail)]);
    await redis.rpush(`${queue}.dlq`, stored);
    const row = rows.lintedRows([rows.messageBody(new Uint8Array(stored), decoders)])[0]!.row;
    fake.settings = { 'babelqueue.broker.url': REDIS };
    return { queue, stored, message: { row, body: new Uint8Array(stored), source: { queue: `${queue}.dlq`, key: `${queue}.dlq`, deadLetters: true } } };
  }

  test('as stored: refused with the reason, the DLQ keeps its bytes, nothing is published', async () => {
    const { queue, stored, message } = await storedDeadLetter();
    fake.answer = (event) => (event.kind === 'info' && event.text.startsWith('Redrive ') ? 'Redrive' : undefined);
    assert.equal(await redriveModule.redrive(fake.services(), [{ message }], 'node'), false);
    const said = fake.events.map((event) => `${event.kind}: ${event.text}`).join('\n');
    assert.match(said, /Nothing to redrive: .*its body is not UTF-8 \(an invalid sequence starts with byte 0xFF/);
    assert.deepEqual(await redis.lrangeBuffer(`${queue}.dlq`, 0, -1), [stored]);
    assert.equal(await redis.llen(queue), 0);
  });

  test('an edited copy still holding the U+FFFD: the confirmation says the redrive publishes U+FFFD; declined, nothing moves', async () => {
    const { queue, stored, message } = await storedDeadLetter();
    let detail: string | undefined;
    fake.answer = (event) => {
      if (event.kind === 'info' && event.text.startsWith('Redrive ')) detail = event.detail;
      return undefined;
    };
    assert.equal(await redriveModule.redrive(fake.services(), [{ message, editedText: message.row.text }], 'node'), false);
    assert.match(detail ?? '', /^Note: meta\.id [^:]+: its stored bytes are not UTF-8, and this copy still holds U\+FFFD where they were: the redrive publishes U\+FFFD/, fake.events.map((event) => `${event.kind}: ${event.text}`).join('\n'));
    assert.deepEqual(await redis.lrangeBuffer(`${queue}.dlq`, 0, -1), [stored]);
    assert.equal(await redis.llen(queue), 0);
  });
});
