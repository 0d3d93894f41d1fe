/**
 * `babelq compat --base` in a partial clone: the base's files the clone lacks are not fetched (no
 * network but the broker's), and their absence is an I/O problem (exit 2) that says how to get
 * them, never "no breaking changes".
 */
import assert from 'node:assert/strict';
import { rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { partialClone, type PartialClone } from '../support/partial-clone';
import { assertCliBuilt, babelq } from './helpers';

before(assertCliBuilt);

const schema = (required: string[]) => `${JSON.stringify({ $schema: 'http://json-schema.org/draft-07/schema#', type: 'object', required, properties: { order_id: { type: 'integer' } } }, null, 2)}\n`;
const registry = JSON.stringify({ schemas: [{ urn: 'urn:babel:orders:created', schema: 'schemas/created.json', owner: 'orders', status: 'active' }] });

let repo: PartialClone;
before(() => {
  repo = partialClone({ 'registry.json': registry, 'schemas/created.json': schema([]) });
  // The work tree as a change leaves it: the schema tightened in place.
  mkdirSync(join(repo.clone, 'schemas'));
  writeFileSync(join(repo.clone, 'registry.json'), registry);
  writeFileSync(join(repo.clone, 'schemas/created.json'), schema(['order_id']));
});
after(() => rmSync(repo.root, { recursive: true, force: true }));

test('a base file the partial clone lacks: nothing fetched, exit 2, and what to run to get it', () => {
  const missing = repo.missingBlobs();
  assert.equal(missing.length, 2, 'the clone starts without the base\'s blobs');
  const result = babelq(['compat', '--base', 'HEAD', '--format', 'json'], repo.clone);
  assert.equal(result.status, 2, result.stdout);
  assert.equal(result.stdout, '');
  // The registry at the base is read first (it names each URN's schema there), then the schema.
  assert.match(result.stderr, /'registry\.json' as it is at 'HEAD' is not in this clone: it is a partial clone \(git clone --filter\), whose remote 'origin' holds the file/);
  assert.match(result.stderr, /git fetch --refetch --no-filter origin/);
  assert.deepEqual(repo.missingBlobs(), missing, 'no blob was fetched');
});

test('once fetched as the message says, the base is compared', () => {
  repo.git(repo.clone, 'fetch', '-q', '--refetch', '--no-filter', 'origin');
  assert.deepEqual(repo.missingBlobs(), []);
  const result = babelq(['compat', '--base', 'HEAD'], repo.clone);
  assert.equal(result.status, 1, result.stderr);
  assert.match(result.stdout, /property "order_id" is now required/);
});

test('the help says what a partial clone\'s missing file exits with', () => {
  assert.match(babelq(['compat', '--help'], repo.clone).stdout, /2 usage or I\/O problem\. A base file that\s+this clone does not hold \(a partial clone/);
});
