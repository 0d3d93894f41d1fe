/**
 * A hostile checkout cannot stall or fool the registry: a named pipe where registry.json or a
 * schema is expected, a sparse file of gigabytes, a directory named registry.json. Each is refused
 * unread, on the open descriptor, and reported (fail closed: a fixture is never linted as if the
 * registry it should use did not exist). The CLI and the language server stay responsive.
 */
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createServer } from 'node:net';
import { once } from 'node:events';
import { after, describe, test } from 'node:test';
import { findRegistry, loadRegistry } from '../../workspace/registry-loader';
import { readBoundedText, readFileStart, UnreadableFile } from '../../workspace/bounded-read';
import { TestLspClient } from '../support/lsp-client';
import { GOOD_ENVELOPE } from '../support/envelopes';
import { peakRssMb } from '../support/peak-memory';

const CLI = resolve(__dirname, '../../dist/cli.js');
const scratch = mkdtempSync(join(tmpdir(), 'babelq-hostile-files-'));
after(() => rmSync(scratch, { recursive: true, force: true }));

let counter = 0;
function folder(): string {
  const root = join(scratch, `ws${++counter}`);
  mkdirSync(join(root, 'schemas'), { recursive: true });
  writeFileSync(join(root, 'a.babel.json'), GOOD_ENVELOPE);
  return root;
}

const fifo = (path: string) => execFileSync('mkfifo', [path]);
const REGISTRY = JSON.stringify({ schemas: [{ urn: 'urn:babel:orders:created', schema: 'schemas/order.json' }] });

/** Runs `fn` and fails when it takes longer than `ms` (a blocking read would never return). */
function within<T>(ms: number, what: string, fn: () => T): T {
  const started = performance.now();
  const result = fn();
  const elapsed = performance.now() - started;
  assert.ok(elapsed < ms, `${what} took ${elapsed.toFixed(0)} ms`);
  return result;
}

describe('hostile files where the registry and its schemas are expected', () => {
  test('the bounded reader refuses a named pipe and a directory on the descriptor, and a file above the limit unread', () => {
    const root = folder();
    fifo(join(root, 'pipe'));
    const refused = (path: string, limit = 1024) => {
      try {
        readBoundedText(path, limit);
      } catch (error) {
        assert.ok(error instanceof UnreadableFile);
        return error;
      }
      assert.fail(`${path} was read`);
    };
    assert.equal(within(1000, 'reading a FIFO', () => refused(join(root, 'pipe'))).reason, 'not-a-file');
    assert.match(refused(join(root, 'pipe')).message, /is a named pipe, not a regular file/);
    assert.equal(refused(join(root, 'schemas')).reason, 'not-a-file');
    assert.equal(refused(join(root, 'a.babel.json'), 10).reason, 'too-large');
    assert.equal(refused(join(root, 'nothing-here')).reason, 'missing');
    assert.equal(readBoundedText(join(root, 'a.babel.json'), 1 << 20), GOOD_ENVELOPE);
    // A path with a NUL character: said in words, not in Node's words about its own API.
    const nul = refused(join(root, 'a\0b.json'));
    assert.equal(nul.message, `${join(root, 'a\\0b.json')} is not a path a file can have (it holds a NUL character); it was not read.`);
  });

  test('a socket is refused in words, with its path once', { skip: process.platform === 'win32' && 'no Unix sockets' }, async () => {
    const root = folder();
    const path = join(root, 'sock.babel.json');
    const server = createServer().listen(path);
    await once(server, 'listening');
    try {
      const run = spawnSync(process.execPath, [join(__dirname, '../../dist/cli.js'), 'lint', path], { encoding: 'utf8', timeout: 10_000 });
      assert.equal(run.status, 2);
      assert.equal(run.stderr, `babelq: cannot read '${path}': is a socket, not a regular file; it was not read\n`);
    } finally {
      server.close();
    }
  });

  test('texts read one after another through the reused buffer are each whole: longer, shorter, past the kept size, and after a refusal', () => {
    const root = mkdtempSync(join(scratch, 'reads-'));
    const sizes = [10, 70_000, 3, 2 * 1024 * 1024 + 5, 200, 0, 65_536, 1];
    const texts = sizes.map((size, i) => Array.from({ length: size }, (_, j) => String.fromCharCode(97 + ((i + j) % 26))).join('').replace(/^./, 'é'));
    texts.forEach((text, i) => writeFileSync(join(root, `t${i}.json`), text));
    for (let round = 0; round < 2; round++) {
      texts.forEach((text, i) => {
        assert.equal(readBoundedText(join(root, `t${i}.json`), 4 * 1024 * 1024), text, `file ${i}, round ${round}`);
        if (i === 3) assert.throws(() => readBoundedText(join(root, `t${i}.json`), 1024), UnreadableFile);
      });
    }
  });

  test('a file that says it is empty but reads short a page at a time (/proc) is read to its end', { skip: process.platform !== 'linux' && 'Linux /proc' }, () => {
    // /proc/self/maps has size 0 and hands out its lines a page at a time, each read short of
    // what was asked: stopping at the first short read would cut it after its first page.
    const maps = readBoundedText('/proc/self/maps', 4 * 1024 * 1024);
    assert.ok(maps.length > 4096, `read ${maps.length} characters`);
    assert.match(maps, /\[stack\]/);
    assert.ok(maps.endsWith('\n'));
  });

  test('readFileStart reads at most the bytes asked for, all of a shorter file, and refuses what is no regular file', () => {
    const root = mkdtempSync(join(scratch, 'starts-'));
    writeFileSync(join(root, 'long'), 'x'.repeat(100_000));
    writeFileSync(join(root, 'short'), 'abc');
    assert.equal(readFileStart(join(root, 'long'), 65).toString(), 'x'.repeat(65));
    assert.equal(readFileStart(join(root, 'short'), 65).toString(), 'abc');
    assert.throws(() => readFileStart(root, 65), (error: unknown) => error instanceof UnreadableFile && error.reason === 'not-a-file');
    assert.throws(() => readFileStart(join(root, 'missing'), 65), (error: unknown) => error instanceof UnreadableFile && error.reason === 'missing');
  });

  test('a named pipe as registry.json is found, refused unread and reported, not skipped', () => {
    const root = folder();
    fifo(join(root, 'registry.json'));
    const found = within(1000, 'finding the registry', () => findRegistry(join(root, 'a.babel.json'), root, undefined));
    assert.ok(found && 'error' in found, JSON.stringify(found));
    assert.match(found.error, /named pipe/);
    const loaded = within(1000, 'loading it', () => loadRegistry(join(root, 'registry.json'), root).state);
    assert.equal(loaded.kind, 'broken');
  });

  test('a directory named registry.json fails closed too', () => {
    const root = folder();
    mkdirSync(join(root, 'registry.json'));
    const found = findRegistry(join(root, 'a.babel.json'), root, undefined);
    assert.ok(found && 'error' in found);
    assert.match(found.error, /a directory, not a regular file/);
  });

  test('a named pipe as a schema file is a problem of that entry; the registry still loads', () => {
    const root = folder();
    writeFileSync(join(root, 'registry.json'), REGISTRY);
    fifo(join(root, 'schemas', 'order.json'));
    const state = within(1000, 'loading the registry', () => loadRegistry(join(root, 'registry.json'), root).state);
    assert.equal(state.kind, 'loaded');
    if (state.kind !== 'loaded') return;
    assert.match(state.registry.problems[0].message, /named pipe, not a regular file; it was not read/);
  });

  test('a schema path of 10,000 characters is a problem of that entry quoted by its start, not a message of twice its length', () => {
    const root = folder();
    const long = `schemas/${'a'.repeat(10_000)}.json`;
    writeFileSync(join(root, 'registry.json'), JSON.stringify({ schemas: [{ urn: 'urn:babel:orders:created', schema: long }] }));
    const state = loadRegistry(join(root, 'registry.json'), root).state;
    assert.equal(state.kind, 'loaded');
    if (state.kind !== 'loaded') return;
    const [problem] = state.registry.problems;
    assert.ok(problem.message.length < 600, `${problem.message.length} characters: ${problem.message.slice(0, 300)}`);
    assert.match(problem.message, /^The schema file \S*schemas\/a+… cannot be read: its name is too long for the file system; it was not read\.$/);
  });

  test('a file just above the limit says by how many bytes, where both sizes round to the same MiB', () => {
    const root = folder();
    const path = join(root, 'babelq.json');
    writeFileSync(path, '');
    truncateSync(path, 1024 * 1024 + 10);
    assert.throws(() => readBoundedText(path, 1024 * 1024), (error: unknown) => error instanceof UnreadableFile && /is 1,048,586 bytes, above the 1,048,576 \(1\.0 MiB\) this tool reads; it was not read/.test(error.message));
    truncateSync(path, 3 * 1024 * 1024);
    assert.throws(() => readBoundedText(path, 1024 * 1024), (error: unknown) => error instanceof UnreadableFile && /is 3\.0 MiB, above the 1\.0 MiB this tool reads/.test(error.message));
  });

  test('a sparse registry.json of 2 GB is refused by its size before a byte is read', () => {
    const root = folder();
    const path = join(root, 'registry.json');
    writeFileSync(path, '');
    truncateSync(path, 2 * 1024 ** 3 + 100 * 1024 ** 2);
    const before = process.memoryUsage().rss;
    const found = within(1000, 'finding it', () => findRegistry(join(root, 'a.babel.json'), root, undefined));
    assert.ok(found && 'error' in found);
    assert.match(found.error, /is 2148\.0 MiB, above the 32\.0 MiB/);
    assert.ok(process.memoryUsage().rss - before < 64 * 1024 ** 2, 'the file was read into memory');
  });
});

describe('babelq and the language server in a hostile checkout', () => {
  test('babelq lint: a named pipe given as a fixture is exit 2 with the reason; a fixture whose registry.json is a pipe gets a registry-error (exit 1)', () => {
    const root = folder();
    fifo(join(root, 'pipe.babel.json'));
    const named = spawnSync(process.execPath, [CLI, 'lint', 'pipe.babel.json'], { cwd: root, encoding: 'utf8', timeout: 10_000 });
    assert.equal(named.status, 2, named.stderr);
    assert.match(named.stderr, /cannot read 'pipe\.babel\.json': is a named pipe, not a regular file/);

    const other = folder();
    fifo(join(other, 'registry.json'));
    const linted = spawnSync(process.execPath, [CLI, 'lint', 'a.babel.json', '--format', 'json'], { cwd: other, encoding: 'utf8', timeout: 10_000 });
    assert.equal(linted.status, 1, linted.stderr);
    const codes = (JSON.parse(linted.stdout) as { diagnostics: { code: string }[] }[])[0].diagnostics.map((d) => d.code);
    assert.deepEqual(codes, ['registry-error']);
  });

  /** A folder whose fixtures, beside a good one, are a named pipe, a link to nothing and a link that loops. */
  function folderOfNonFiles(): string {
    const root = folder();
    mkdirSync(join(root, 'sub'));
    fifo(join(root, 'sub', 'pipe.babel.json'));
    symlinkSync('gone.babel.json', join(root, 'sub', 'dangling.babel.json'));
    symlinkSync('loop.babel.json', join(root, 'sub', 'loop.babel.json'));
    return root;
  }
  const NON_FILES = [
    "babelq: cannot read 'sub/dangling.babel.json': is a symbolic link to 'gone.babel.json', which does not exist; it was not read",
    "babelq: cannot read 'sub/loop.babel.json': too many levels of symbolic links",
    "babelq: cannot read 'sub/pipe.babel.json': is a named pipe, not a regular file; it was not read",
  ];

  test('babelq lint on a folder: a named pipe, a link to nothing and a link that loops among the fixtures are exit 2, each named as a file named so is, in every format', () => {
    const root = folderOfNonFiles();
    for (const format of ['stylish', 'json', 'github', 'sarif', 'compact']) {
      const args = format === 'stylish' ? ['lint', '.'] : ['lint', '.', '--format', format];
      // A pipe opened for reading waits for a writer: the timeout tells a walk that opened it.
      const run = spawnSync(process.execPath, [CLI, ...args], { cwd: root, encoding: 'utf8', timeout: 10_000 });
      assert.equal(run.status, 2, `${format}: ${run.stderr}`);
      assert.equal(run.stdout, '', `${format}: no partial report`);
      assert.deepEqual(run.stderr.trimEnd().split('\n'), NON_FILES, format);
    }
    // A glob says the same; a pipe named directly is said in the same words.
    const globbed = spawnSync(process.execPath, [CLI, 'lint', 'sub/*.babel.json', '--format', 'json'], { cwd: root, encoding: 'utf8', timeout: 10_000 });
    assert.equal(globbed.status, 2, globbed.stderr);
    assert.deepEqual(globbed.stderr.trimEnd().split('\n'), NON_FILES);
    const named = spawnSync(process.execPath, [CLI, 'lint', 'sub/pipe.babel.json'], { cwd: root, encoding: 'utf8', timeout: 10_000 });
    assert.equal(named.stderr, `${NON_FILES[2]}\n`);
    const links = spawnSync(process.execPath, [CLI, 'lint', 'sub/dangling.babel.json', 'sub/loop.babel.json'], { cwd: root, encoding: 'utf8', timeout: 10_000 });
    assert.equal(links.status, 2, links.stderr);
    assert.deepEqual(links.stderr.trimEnd().split('\n'), NON_FILES.slice(0, 2));
  });

  test('babelq lint on a folder: a named pipe or a link to nothing left out by babelq.json "ignore" is left out without a word', () => {
    const root = folderOfNonFiles();
    writeFileSync(join(root, 'babelq.json'), JSON.stringify({ ignore: ['sub/**'] }));
    const run = spawnSync(process.execPath, [CLI, 'lint', '.', '--format', 'json'], { cwd: root, encoding: 'utf8', timeout: 10_000 });
    assert.equal(run.status, 0, run.stderr);
    assert.equal(run.stderr, '');
    assert.deepEqual((JSON.parse(run.stdout) as { file: string }[]).map((report) => report.file), ['a.babel.json']);
  });

  test('the workspace report leaves out a named pipe and links to nothing without opening them, and says so in the log once', { timeout: 30_000 }, async () => {
    const root = folderOfNonFiles();
    const client = new TestLspClient({ workspaceFolders: [pathToFileURL(root).href] });
    try {
      await client.initialize();
      const report = async () => {
        const { items } = await client.request<{ items: { uri: string }[] }>('workspace/diagnostic', { previousResultIds: [] });
        return items.map((item) => item.uri).filter((uri) => uri.endsWith('.babel.json'));
      };
      // A pipe opened for reading would hold the report (and the test) until its timeout.
      assert.deepEqual(await report(), [pathToFileURL(join(root, 'a.babel.json')).href]);
      // Walked again (a fixture created): still left out, and not said again.
      writeFileSync(join(root, 'b.babel.json'), GOOD_ENVELOPE);
      await client.connection.sendNotification('workspace/didChangeWatchedFiles', { changes: [{ uri: pathToFileURL(join(root, 'b.babel.json')).href, type: 1 }] });
      assert.equal((await report()).length, 2);
      const said = client.logs.filter((line) => line.includes(`${join(root, 'sub')}/`));
      assert.deepEqual(said.sort(), [
        `${join(root, 'sub', 'dangling.babel.json')} is a symbolic link to 'gone.babel.json', which does not exist; it was not read, and is not in the workspace's problems.`,
        `${join(root, 'sub', 'loop.babel.json')} is a symbolic link that loops; it was not read, and is not in the workspace's problems.`,
        `${join(root, 'sub', 'pipe.babel.json')} is a named pipe, not a regular file; it was not read, and is not in the workspace's problems.`,
      ]);
    } finally {
      client.kill();
    }
  });

  test('the server keeps answering when the registry.json of an open fixture is a pipe', async () => {
    const root = folder();
    fifo(join(root, 'registry.json'));
    const client = new TestLspClient({ workspaceFolders: [pathToFileURL(root).href] });
    try {
      await client.initialize();
      const uri = pathToFileURL(join(root, 'a.babel.json')).href;
      await client.open(uri, GOOD_ENVELOPE);
      const codes = (await client.pullDiagnostics(uri)).items.map((d: { code: string }) => d.code);
      assert.deepEqual(codes, ['registry-error']);
      const hover = await client.request('textDocument/hover', { textDocument: { uri }, position: { line: 1, character: 4 } });
      assert.match(hover?.contents?.value ?? '', /`job`/);
    } finally {
      client.kill();
    }
  });
});

test('hostile files: the peak memory of the class is printed, and bounded', () => {
  const peak = peakRssMb();
  console.log(`hostile files: peak RSS of the test process ${peak.toFixed(0)} MB`);
  assert.ok(peak < 256, `peak RSS ${peak.toFixed(0)} MB`);
});
