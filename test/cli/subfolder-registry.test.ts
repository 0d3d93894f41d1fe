/**
 * Run from a subfolder of a repository, every command that judges by the registry reads the one
 * `babelq lint` reads there: the registry.json at the repository's top (or the one babelq.json
 * names). gdpr and compat --base have their own tests of the same (gdpr.test.ts, compat.test.ts).
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { messageJudgement } from '../../cli/message-judgement';
import { ORDERS_SCHEMA, ordersFixture } from '../support/orders-schema';
import { assertCliBuilt, babelq, makeTree, removeTree } from './helpers';

before(assertCliBuilt);

let repo: string;
before(() => {
  repo = makeTree({
    'registry.json': JSON.stringify({ schemas: [{ urn: 'urn:babel:orders:created', schema: 'schemas/orders-created.json', owner: 'orders', status: 'active' }] }),
    'schemas/orders-created.json': ORDERS_SCHEMA,
    'fixtures/deep/bad.babel.json': ordersFixture({ order_id: 'seven' }),
  });
  execFileSync('git', ['init', '-q', repo], { stdio: 'ignore' });
});
after(() => removeTree(repo));

test('lint and send from a subfolder judge the payload by the registry at the repository\'s top', () => {
  const folder = join(repo, 'fixtures/deep');
  const lint = babelq(['lint', '--format', 'json'], folder);
  assert.equal(lint.status, 1, lint.stderr);
  assert.match(lint.stdout, /payload-schema/);
  // send asks before publishing an envelope with errors, so no broker is reached.
  const send = babelq(['send', 'bad.babel.json', '--queue', 'never-sent'], folder);
  assert.equal(send.status, 1, send.stderr);
  assert.match(send.stderr, /1 error \(payload-schema\)\. Send anyway\?/);
});

test('peek and dlq judge a message from a subfolder by the registry at the repository\'s top', () => {
  for (const folder of [join(repo, 'fixtures'), join(repo, 'fixtures/deep')]) {
    const judgement = messageJudgement(folder, undefined);
    assert.equal(judgement.registry.kind, 'loaded', folder);
    assert.equal(judgement.notes, '', folder);
  }
});
