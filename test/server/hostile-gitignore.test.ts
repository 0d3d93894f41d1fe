/**
 * A checkout whose `.gitignore` is built to stall a walk: each wildcard line is an automaton run on
 * every file and folder the walk meets. 5,000 copies of one costly line are kept once (the last
 * copy decides what every copy would): the workspace's report ends in a second and a hover is
 * answered meanwhile (they took the server 30 s in one piece). One with more than
 * MAX_WILDCARD_LINES distinct wildcard lines, with more than MAX_WILDCARD_BYTES (UTF-8) in them, or
 * above 1 MB, is not applied, and that is said.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, describe, test } from 'node:test';
import { TestLspClient } from '../support/lsp-client';
import { GOOD_ENVELOPE } from '../support/envelopes';
import { babelq } from '../cli/helpers';
import { MAX_WILDCARD_BYTES, MAX_WILDCARD_LINES, parseGitignore } from '../../workspace/gitignore';

/** About 65 µs per path below the deep folder each; 5,000 copies held the server 30 s for the folder's 100 fixtures, without a pause. */
const COSTLY_LINE = '**/**/**/**/**/a*a*a*a*a*a*b';
const COPIES = 5_000;
const FIXTURES = 100;

/** A checkout whose .gitignore lists `ignored/` among the wildcard lines given (by default more distinct ones than the bound), with a fixture under ignored/. */
function checkoutWithTooManyWildcards(prefix: string, wildcardLines = Array.from({ length: MAX_WILDCARD_LINES + 1 }, (_, i) => `*${i}*.tmp`)): string {
  const folder = mkdtempSync(join(tmpdir(), prefix));
  mkdirSync(join(folder, '.git'));
  writeFileSync(join(folder, '.git/HEAD'), 'ref: refs/heads/main\n');
  writeFileSync(join(folder, '.gitignore'), `ignored/\n${wildcardLines.join('\n')}\n`);
  mkdirSync(join(folder, 'ignored'));
  writeFileSync(join(folder, 'ignored/a.babel.json'), GOOD_ENVELOPE);
  return folder;
}

describe('a .gitignore built to stall a walk', () => {
  const root = mkdtempSync(join(tmpdir(), 'babelq-gitignore-'));
  mkdirSync(join(root, '.git'));
  writeFileSync(join(root, '.git/HEAD'), 'ref: refs/heads/main\n');
  writeFileSync(join(root, '.gitignore'), `${`${COSTLY_LINE}\n`.repeat(COPIES)}ignored/\n`);
  mkdirSync(join(root, 'ignored'));
  writeFileSync(join(root, 'ignored/left-out.babel.json'), GOOD_ENVELOPE);
  const deep = join(root, ...Array.from({ length: 8 }, () => 'a'.repeat(40)));
  mkdirSync(deep, { recursive: true });
  for (let i = 0; i < FIXTURES; i++) writeFileSync(join(deep, `${'a'.repeat(40)}c${i}.babel.json`), GOOD_ENVELOPE);
  const client = new TestLspClient({ workspaceFolders: [pathToFileURL(root).href], initializationOptions: { workspaceTrusted: false } });
  after(() => {
    client.kill();
    rmSync(root, { recursive: true, force: true });
  });

  test('5,000 copies of a costly line: the report ends within seconds, a hover is answered within a second meanwhile, and the file still applies', { timeout: 60_000 }, async () => {
    await client.initialize();
    const uri = pathToFileURL(join(root, 'open.babel.json')).href;
    await client.open(uri, GOOD_ENVELOPE);
    const started = Date.now();
    let reported = false;
    const report = client.request<{ items: { uri: string }[] }>('workspace/diagnostic', { previousResultIds: [] }).finally(() => (reported = true));
    let slowest = 0;
    do {
      const asked = Date.now();
      const hover = await client.request('textDocument/hover', { textDocument: { uri }, position: { line: 1, character: 4 } });
      assert.ok(hover, 'the hover was answered');
      slowest = Math.max(slowest, Date.now() - asked);
      await new Promise((resume) => setTimeout(resume, 50));
    } while (!reported && Date.now() - started < 30_000);
    assert.ok(reported, 'the report ended within 30 s');
    assert.ok(slowest < 1_000, `a hover took ${slowest} ms while the report ran`);
    const { items } = await report;
    assert.equal(items.filter((item) => item.uri.endsWith('.babel.json')).length, FIXTURES, 'every fixture on disk but the ignored one is in the report');
    assert.ok(!items.some((item) => item.uri.includes('/ignored/')));
  });

  test('babelq lint of the same checkout: quick, and the .gitignore applies', () => {
    const started = Date.now();
    const result = babelq(['lint', '.'], root);
    assert.equal(result.status, 0, result.stderr);
    assert.ok(Date.now() - started < 10_000, `lint took ${Date.now() - started} ms`);
    assert.match(result.stdout, new RegExp(`${FIXTURES} files checked`));
  });

  test('more distinct wildcard lines than the bound: not applied, said on stderr and in the server\'s log', { timeout: 30_000 }, async () => {
    const many = checkoutWithTooManyWildcards('babelq-gitignore-many-');
    const server = new TestLspClient({ workspaceFolders: [pathToFileURL(many).href] });
    try {
      const result = babelq(['lint', '.'], many);
      assert.match(result.stderr, /^babelq: \.gitignore has more than 1,000 distinct wildcard lines \(each one is tested against every file and folder a walk meets\); it was not applied\. Nothing it lists is ignored\.$/m);
      assert.match(result.stdout, /1 file checked/);
      await server.initialize();
      await server.request('workspace/diagnostic', { previousResultIds: [] });
      assert.ok(server.logs.some((line) => line === `${join(many, '.gitignore')} has more than 1,000 distinct wildcard lines (each one is tested against every file and folder a walk meets); it was not applied. Nothing it lists is ignored.`), server.logs.join('\n'));
    } finally {
      server.kill();
      rmSync(many, { recursive: true, force: true });
    }
  });

  test('find references before any report walks with the same ignores, and says once that the .gitignore is not applied', { timeout: 30_000 }, async () => {
    const many = checkoutWithTooManyWildcards('babelq-gitignore-references-');
    const server = new TestLspClient({ workspaceFolders: [pathToFileURL(many).href] });
    try {
      const registryText = '{ "schemas": [\n  { "urn": "urn:babel:orders:created", "schema": "orders-created.json", "owner": "orders", "status": "active" }\n] }\n';
      writeFileSync(join(many, 'orders-created.json'), '{ "type": "object" }\n');
      writeFileSync(join(many, 'registry.json'), registryText);
      await server.initialize();
      const registryUri = pathToFileURL(join(many, 'registry.json')).href;
      await server.connection.sendNotification('textDocument/didOpen', { textDocument: { uri: registryUri, languageId: 'json', version: 1, text: registryText } });
      const params = { textDocument: { uri: registryUri }, position: { line: 1, character: registryText.split('\n')[1].indexOf('urn:babel') + 3 }, context: { includeDeclaration: false } };
      const notice = `${join(many, '.gitignore')} has more than 1,000 distinct wildcard lines (each one is tested against every file and folder a walk meets); it was not applied. Nothing it lists is ignored.`;
      const first = await server.request<{ uri: string }[]>('textDocument/references', params);
      assert.deepEqual(first.map((location) => location.uri), [pathToFileURL(join(many, 'ignored/a.babel.json')).href], 'the .gitignore is not applied: ignored/ is walked');
      await server.request('textDocument/references', params);
      assert.equal(server.logs.filter((line) => line === notice).length, 1, server.logs.join('\n'));
    } finally {
      server.kill();
      rmSync(many, { recursive: true, force: true });
    }
  });

  test('a .gitignore above 1 MB is said to be unread, not passed over in silence', () => {
    const big = mkdtempSync(join(tmpdir(), 'babelq-gitignore-big-'));
    try {
      mkdirSync(join(big, '.git'));
      writeFileSync(join(big, '.git/HEAD'), 'ref: refs/heads/main\n');
      writeFileSync(join(big, '.gitignore'), `${'x'.repeat(2 * 1024 * 1024)}\nignored/\n`);
      mkdirSync(join(big, 'ignored'));
      writeFileSync(join(big, 'ignored/a.babel.json'), GOOD_ENVELOPE);
      const result = babelq(['lint', '.'], big);
      assert.match(result.stderr, /babelq: \.gitignore is 2\.0 MiB, above the 1\.0 MiB this tool reads; it was not read .* Nothing it lists is ignored\./);
    } finally {
      rmSync(big, { recursive: true, force: true });
    }
  });

  test('fewer wildcard lines than the bound but long ones (1,000 of 1,000 characters): not applied, said at once, the server answering meanwhile', { timeout: 60_000 }, async () => {
    const long = checkoutWithTooManyWildcards('babelq-gitignore-long-', Array.from({ length: MAX_WILDCARD_LINES }, (_, i) => `${'[ab]*'.repeat(200)}${i}`));
    const server = new TestLspClient({ workspaceFolders: [pathToFileURL(long).href] });
    try {
      const started = Date.now();
      assert.throws(() => parseGitignore(readFileSync(join(long, '.gitignore'), 'utf8')), /has wildcard lines of more than 32,768 bytes together \(UTF-8;/);
      assert.ok(Date.now() - started < 2_000, `the file was refused after ${Date.now() - started} ms`);
      const result = babelq(['lint', '.'], long);
      assert.match(result.stderr, /^babelq: \.gitignore has wildcard lines of more than 32,768 bytes together \(UTF-8; each one is compiled and tested against every file and folder a walk meets\); it was not applied\. Nothing it lists is ignored\.$/m);
      assert.match(result.stdout, /1 file checked/);
      await server.initialize();
      const uri = pathToFileURL(join(long, 'open.babel.json')).href;
      await server.open(uri, GOOD_ENVELOPE);
      const asked = Date.now();
      const report = server.request('workspace/diagnostic', { previousResultIds: [] });
      await server.request('textDocument/hover', { textDocument: { uri }, position: { line: 1, character: 4 } });
      assert.ok(Date.now() - asked < 1_000, `a hover took ${Date.now() - asked} ms beside the report`);
      await report;
      assert.ok(server.logs.some((line) => line.startsWith(`${join(long, '.gitignore')} has wildcard lines of more than 32,768 bytes together (UTF-8;`)), server.logs.join('\n'));
    } finally {
      server.kill();
      rmSync(long, { recursive: true, force: true });
    }
  });

  test('the bound on wildcard lines counts UTF-8 bytes, what they are compiled and matched on: non-ASCII lines of fewer characters than the bound but more bytes are not applied', () => {
    // 100 lines of 301 or 302 characters: about 30,150 characters, under the 32,768; 'é' is two bytes, about 45,150 of them.
    const accented = Array.from({ length: 100 }, (_, i) => `${'é*'.repeat(150)}${i}`);
    const characters = accented.reduce((sum, line) => sum + line.length, 0);
    const bytes = accented.reduce((sum, line) => sum + Buffer.byteLength(line), 0);
    assert.ok(characters <= MAX_WILDCARD_BYTES && bytes > MAX_WILDCARD_BYTES, `${characters} characters, ${bytes} bytes`);
    assert.throws(() => parseGitignore(accented.join('\n')), /^Error: has wildcard lines of more than 32,768 bytes together \(UTF-8; each one is compiled and tested against every file and folder a walk meets\); it was not applied\.$/);
    // The same number of characters in ASCII is as many bytes, under the bound: applied.
    assert.equal(parseGitignore(accented.map((line) => line.replace(/é/g, 'e')).join('\n')).length, 100);
  });

  test('a line repeated 20,000 times is one rule (the last copy), and the file is applied', () => {
    const rules = parseGitignore(`${'**/a*a*a*b\n'.repeat(20_000)}!keep/**/a*a*a*b\n`);
    assert.equal(rules.length, 2);
    assert.equal(rules[1].negated, true);
  });
});
