// Checks the npm package as a user gets it: packs it (prepack builds the production bundles),
// checks what the tarball holds, installs it offline with an empty cache into a scratch folder
// (so it can need nothing from the registry), then runs the installed babelq lint, preview,
// send and peek (send and peek against the local Redis, when it answers) and an LSP session over
// `babelq lsp --stdio` and `babelq-language-server --node-ipc`. Prints each figure and check: the
// README's sizes and timings (section Install) are these lines, and `npm publish --dry-run` must
// print no warning but the one about not being logged in.
//
//   node scripts/check-package.mjs [--out <dir>]    (the scratch install stays in <dir>, for the editor tests)
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const ROOT = resolve(import.meta.dirname, '..');
const PACKAGE = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
/** What runs, and nothing else: the bundles, the bins, the schemas and the documents. */
const ALLOWED = /^(package\.json|README(\.extension)?\.md|LICENSE|CHANGELOG\.md|docs\/diagnostics\.md|schemas\/[\w.-]+\.json|bin\/[\w-]+\.js|dist\/(cli|cli-main|server|server-main|broker-redis|broker-amqp)\.js|dist\/cli-main\.cache)$/;
const REQUIRED = ['bin/babelq.js', 'bin/babelq-language-server.js', 'dist/cli.js', 'dist/cli-main.js', 'dist/server.js', 'dist/server-main.js', 'dist/broker-redis.js', 'dist/broker-amqp.js', 'schemas/registry.schema.json', 'docs/diagnostics.md'];
/** Every step that runs a process gives up after this long. */
const STEP_TIMEOUT_MS = 120_000;
const LSP_TIMEOUT_MS = 20_000;
/** A fresh UUID, as SARIF and fix titles suggest one in every run: left out when two runs are compared. */
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}/g;
/** Runs of `babelq lint examples` with and without the CLI's code cache. */
const CACHE_ROUNDS = 8;

const outArg = process.argv.indexOf('--out');
const scratch = outArg > 0 ? resolve(process.argv[outArg + 1]) : mkdtempSync(join(tmpdir(), 'babelq-package-'));
rmSync(scratch, { recursive: true, force: true });
mkdirSync(scratch, { recursive: true });

let failures = 0;
function check(ok, what) {
  console.log(`${ok ? 'ok  ' : 'FAIL'}  ${what}`);
  if (!ok) failures++;
}
const kb = (bytes) => `${(bytes / 1024).toFixed(0)} KiB (${bytes.toLocaleString('en')} bytes)`;
const median = (values) => [...values].sort((a, b) => a - b)[values.length >> 1];

function run(command, args, options = {}) {
  const started = performance.now();
  const result = spawnSync(command, args, { encoding: 'utf8', timeout: STEP_TIMEOUT_MS, maxBuffer: 64 * 1024 * 1024, ...options });
  if (result.error) throw new Error(`${command} ${args.join(' ')}: ${result.error.message}`);
  return { ...result, ms: performance.now() - started };
}

// 1. Pack.
const packed = run('npm', ['pack', '--json', '--pack-destination', scratch], { cwd: ROOT });
if (packed.status !== 0) throw new Error(`npm pack failed:\n${packed.stderr}`);
const [info] = JSON.parse(packed.stdout.slice(packed.stdout.indexOf('[')));
const tarball = join(scratch, info.filename);
const files = info.files.map((file) => file.path);
console.log(`figure: tarball ${info.filename}: ${kb(info.size)} packed, ${kb(info.unpackedSize)} unpacked, ${files.length} files`);
const cacheFile = info.files.find((file) => file.path === 'dist/cli-main.cache');
if (cacheFile) console.log(`figure: of which dist/cli-main.cache (the CLI's V8 code cache): ${kb(cacheFile.size)} unpacked`);
const extra = files.filter((file) => !ALLOWED.test(file));
check(extra.length === 0, `the tarball holds only what runs${extra.length ? ` (also: ${extra.join(', ')})` : ''}`);
const missing = REQUIRED.filter((file) => !files.includes(file));
check(missing.length === 0, `the tarball holds the bins, bundles, schemas and catalogue${missing.length ? ` (missing: ${missing.join(', ')})` : ''}`);
check(Object.keys(PACKAGE.dependencies ?? {}).length === 0, 'no runtime dependencies (everything is bundled)');
const installScripts = ['preinstall', 'install', 'postinstall', 'prepare'].filter((name) => PACKAGE.scripts?.[name]);
check(installScripts.length === 0, `no install-time scripts${installScripts.length ? ` (found: ${installScripts.join(', ')})` : ''}`);

// The manifest as npm publishes it: nothing npm would correct or warn about (bins, repository,
// …); only "requires you to be logged in", which a dry run says to anyone not logged in.
const dryRun = run('npm', ['publish', '--dry-run', '--ignore-scripts'], { cwd: ROOT });
const publishWarnings = `${dryRun.stdout}${dryRun.stderr}`.split('\n').filter((line) => /^npm warn/i.test(line) && !/requires you to be logged in/.test(line));
check(dryRun.status === 0 && publishWarnings.length === 0, `npm publish --dry-run: exit ${dryRun.status}, no warning${publishWarnings.length ? `:\n${publishWarnings.join('\n')}` : ''}`);

// 2. Install offline into an empty project with an empty cache: nothing can come from the registry.
const project = join(scratch, 'project');
mkdirSync(project);
writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'babelq-scratch', private: true }) + '\n');
const install = run('npm', ['install', '--offline', '--no-audit', '--no-fund', '--cache', join(scratch, 'empty-cache'), tarball], { cwd: project });
check(install.status === 0, `npm install --offline <tarball> (${install.ms.toFixed(0)} ms)${install.status === 0 ? '' : `:\n${install.stderr}`}`);
const npmSaid = `${install.stdout}${install.stderr}`;
check(!/install-scripts|postinstall|prepare/i.test(npmSaid), `npm printed no install-script warning${/install-scripts/i.test(npmSaid) ? `:\n${npmSaid}` : ''}`);
const installed = readdirSync(join(project, 'node_modules')).filter((name) => !name.startsWith('.'));
check(installed.length === 1 && installed[0] === PACKAGE.name, `node_modules holds the package alone (${installed.join(', ')})`);
const packageDir = join(project, 'node_modules', PACKAGE.name);
console.log(`figure: installed size: ${kb(treeSize(packageDir))}`);

// The package has no library entry point (package.json's "main" is the VS Code extension, not in
// the tarball): "exports" says so to Node, and names what may be required.
const resolved = run(process.execPath, ['-e', `
  console.log(require.resolve('${PACKAGE.name}/package.json'), require.resolve('${PACKAGE.name}/schemas/envelope.schema.json'));
  try { require('${PACKAGE.name}'); } catch (error) { console.log(error.code); }`], { cwd: project });
check(resolved.status === 0 && /ERR_PACKAGE_PATH_NOT_EXPORTED/.test(resolved.stdout) && resolved.stdout.includes(join(packageDir, 'schemas', 'envelope.schema.json')), `require: package.json and schemas/* resolve, the package itself is ERR_PACKAGE_PATH_NOT_EXPORTED (${resolved.stdout.trim().split('\n').at(-1)})${resolved.status === 0 ? '' : `\n${resolved.stderr}`}`);

// 3. The CLI, from the install, on a copy of examples/ (its bad/ fixtures have errors: exit 1).
cpSync(join(ROOT, 'examples'), join(project, 'examples'), { recursive: true });
const bin = (name) => join(project, 'node_modules', '.bin', name);
const lint = run(bin('babelq'), ['lint', 'examples', '--format', 'json'], { cwd: project });
const report = lint.status === 1 ? JSON.parse(lint.stdout) : [];
const codes = new Set(report.flatMap((file) => file.diagnostics.map((diagnostic) => diagnostic.code)));
check(lint.status === 1 && codes.has('forbidden-key') && codes.has('payload-schema'), `babelq lint examples: exit ${lint.status}, ${report.length} files, codes include forbidden-key and payload-schema (${lint.ms.toFixed(0)} ms)`);
console.log(`figure: npm install --offline <tarball> ${install.ms.toFixed(0)} ms + the first babelq lint examples ${lint.ms.toFixed(0)} ms = ${(install.ms + lint.ms).toFixed(0)} ms`);
// The installed bin starts lint threads from the package's own dist/cli.js: two, forced, print what
// one prints. The test probe, preloaded into every thread, writes the share the worker was given.
const threadLog = join(scratch, 'thread-log');
writeFileSync(threadLog, '');
const threaded = run(bin('babelq'), ['lint', 'examples', '--format', 'json', '--concurrency', '2'], {
  cwd: project,
  env: { ...process.env, NODE_OPTIONS: `--require ${JSON.stringify(join(ROOT, 'test/cli/thread-probe.cjs'))}`, BABELQ_TEST_THREAD_LOG: threadLog },
});
const shares = readFileSync(threadLog, 'utf8').split('\n').filter(Boolean);
check(
  shares.length === 1 && threaded.status === lint.status && threaded.stdout.replace(UUID, '') === lint.stdout.replace(UUID, ''),
  `babelq lint examples --concurrency 2: a worker thread linted ${shares[0] ?? 'nothing'} of the files, and the report and exit are one thread's (exit ${threaded.status})`,
);
const good = run(bin('babelq'), ['lint', 'examples/orders'], { cwd: project });
check(good.status === 0, `babelq lint examples/orders: exit ${good.status}`);
// What the CLI's V8 code cache saves at each start: lint examples/ with and without it, alternating.
const cachePath = join(packageDir, 'dist', 'cli-main.cache');
if (existsSync(cachePath)) {
  const timings = { with: [], without: [] };
  try {
    for (let round = 0; round < CACHE_ROUNDS; round++) {
      for (const variant of round % 2 === 0 ? ['with', 'without'] : ['without', 'with']) {
        if (variant === 'without') renameSync(cachePath, `${cachePath}.off`);
        try {
          timings[variant].push(run(bin('babelq'), ['lint', 'examples', '--format', 'json'], { cwd: project }).ms);
        } finally {
          if (variant === 'without') renameSync(`${cachePath}.off`, cachePath);
        }
      }
    }
  } finally {
    if (existsSync(`${cachePath}.off`)) renameSync(`${cachePath}.off`, cachePath);
  }
  const ms = (values) => `median ${median(values).toFixed(0)} ms (${values.map((value) => value.toFixed(0)).join(', ')})`;
  console.log(`figure: babelq lint examples, ${CACHE_ROUNDS} runs each, alternating: with the code cache ${ms(timings.with)}; without ${ms(timings.without)}`);
}
const fixture = 'examples/orders/order-created.babel.json';
const preview = run(bin('babelq'), ['preview', fixture, '--no-fresh-ids'], { cwd: project });
check(preview.status === 0 && JSON.parse(preview.stdout).job === 'urn:babel:orders:created', `babelq preview: exit ${preview.status}, the body's job is urn:babel:orders:created`);

// 4. send and peek against the local Redis, on a queue of their own, removed afterwards.
if (await redisAnswers()) {
  const queue = `babelq-package-check-${process.pid}-${Date.now()}`;
  try {
    const send = run(bin('babelq'), ['send', fixture, '--queue', queue], { cwd: project });
    check(send.status === 0, `babelq send --queue ${queue}: exit ${send.status}${send.status === 0 ? '' : `\n${send.stderr}`}`);
    const peek = run(bin('babelq'), ['peek', '--queue', queue, '--format', 'json'], { cwd: project });
    const peeked = peek.status === 0 ? JSON.parse(peek.stdout) : undefined;
    check(peek.status === 0 && JSON.stringify(peeked).includes('urn:babel:orders:created'), `babelq peek --queue ${queue}: exit ${peek.status}, the sent envelope read back`);
  } finally {
    await redisDelete(queue);
  }
} else {
  console.log('skipped: babelq send and peek (no Redis answers on 127.0.0.1:6379)');
}

// 5. The language server from the install, over both transports.
const workspace = join(project, 'examples');
for (const [name, args, transport] of [
  ['babelq', ['lsp', '--stdio'], 'stdio'],
  ['babelq', ['lsp', '--node-ipc'], 'ipc'],
  ['babelq-language-server', [], 'stdio'],
  ['babelq-language-server', ['--node-ipc'], 'ipc'],
]) {
  const label = `${name} ${args.join(' ')}`.trim();
  const session = await lspSession(bin(name), args, transport, workspace);
  const capabilities = session.initialize.capabilities;
  check(session.initialize.serverInfo?.name === 'babelqueue-language-server', `${label}: initialize answered by ${session.initialize.serverInfo?.name} ${session.initialize.serverInfo?.version}`);
  check(capabilities.hoverProvider === true && capabilities.completionProvider !== undefined && capabilities.diagnosticProvider !== undefined, `${label}: hover, completion and pull diagnostics announced`);
  check(capabilities.executeCommandProvider?.commands?.includes('babelqueue.preview') === true, `${label}: executeCommandProvider announces babelqueue.preview`);
  check(session.codes.includes('forbidden-key'), `${label}: diagnostics of bad/contract.babel.json: ${session.codes.join(', ')}`);
  check(session.exitCode === 0, `${label}: shutdown and exit, exit status ${session.exitCode}`);
}

// npx starts the bin through a shell of its own, which drops the IPC channel: --node-ipc through
// npx is refused with the reason (exit 2), never a server that hangs or quits without a word.
for (const args of [['babelq', 'lsp', '--node-ipc'], ['babelq-language-server', '--node-ipc']]) {
  const refused = await ipcThroughNpx(args, project);
  check(refused.code === 2 && /--node-ipc needs a parent process/.test(refused.stderr), `npx ${args.join(' ')} from a parent with an IPC channel: exit ${refused.code}, ${refused.stderr.trim().split('\n')[0]}`);
}

if (outArg < 0) rmSync(scratch, { recursive: true, force: true });
else console.log(`the installed package stays in ${project}`);
if (failures > 0) {
  console.error(`${failures} package check(s) failed`);
  process.exit(1);
}
console.log('package checks passed');

function treeSize(path) {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.size;
  return readdirSync(path).reduce((sum, name) => sum + treeSize(join(path, name)), 0);
}

/** initialize, open a fixture, pull its diagnostics, shutdown, exit: what a minimal editor does. */
async function lspSession(command, args, transport, folder) {
  const child = spawn(command, args, { cwd: folder, stdio: transport === 'ipc' ? ['pipe', 'pipe', 'pipe', 'ipc'] : ['pipe', 'pipe', 'pipe'] });
  const timer = setTimeout(() => child.kill('SIGKILL'), LSP_TIMEOUT_MS);
  const exited = new Promise((resolveExit) => child.on('exit', (code) => resolveExit(code)));
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const pending = new Map();
  const receive = (message) => {
    if (message.id !== undefined && message.method !== undefined) {
      // A request from the server (configuration, registration): answer it as a plain editor would.
      const result = message.method === 'workspace/configuration' ? message.params.items.map(() => null) : null;
      send({ jsonrpc: '2.0', id: message.id, result });
    } else if (message.id !== undefined && pending.has(message.id)) {
      pending.get(message.id)(message);
      pending.delete(message.id);
    }
  };
  let send;
  if (transport === 'ipc') {
    send = (message) => child.send(message);
    child.on('message', receive);
  } else {
    send = (message) => {
      const body = Buffer.from(JSON.stringify(message), 'utf8');
      child.stdin.write(`Content-Length: ${body.length}\r\n\r\n`);
      child.stdin.write(body);
    };
    let buffer = Buffer.alloc(0);
    child.stdout.on('data', (chunk) => {
      buffer = Buffer.concat([buffer, chunk]);
      for (;;) {
        const headerEnd = buffer.indexOf('\r\n\r\n');
        if (headerEnd < 0) return;
        const length = Number(/Content-Length: (\d+)/i.exec(buffer.subarray(0, headerEnd).toString('ascii'))?.[1]);
        if (buffer.length < headerEnd + 4 + length) return;
        receive(JSON.parse(buffer.subarray(headerEnd + 4, headerEnd + 4 + length).toString('utf8')));
        buffer = buffer.subarray(headerEnd + 4 + length);
      }
    });
  }
  let nextId = 1;
  const request = (method, params) =>
    new Promise((resolveAnswer, reject) => {
      const id = nextId++;
      pending.set(id, (message) => (message.error ? reject(new Error(`${method}: ${message.error.message}`)) : resolveAnswer(message.result)));
      send({ jsonrpc: '2.0', id, method, params });
    });
  const notify = (method, params) => send({ jsonrpc: '2.0', method, params });
  try {
    const initialize = await request('initialize', {
      processId: process.pid,
      rootUri: pathToFileURL(folder).href,
      capabilities: { textDocument: { diagnostic: {} } },
    });
    notify('initialized', {});
    const path = join(folder, 'bad', 'contract.babel.json');
    const uri = pathToFileURL(path).href;
    notify('textDocument/didOpen', { textDocument: { uri, languageId: 'babelqueue-envelope', version: 1, text: readFileSync(path, 'utf8') } });
    const report = await request('textDocument/diagnostic', { textDocument: { uri } });
    await request('shutdown', null);
    notify('exit', null);
    const exitCode = await exited;
    return { initialize, codes: [...new Set(report.items.map((item) => item.code))].sort(), exitCode };
  } catch (error) {
    child.kill('SIGKILL');
    throw new Error(`${command} ${args.join(' ')}: ${error.message}\n${stderr}`);
  } finally {
    clearTimeout(timer);
  }
}

/** Runs `npx <args>` as an editor forks a server over IPC; resolves with its exit code and stderr. */
function ipcThroughNpx(args, cwd) {
  return new Promise((resolveRun) => {
    const child = spawn('npx', ['--offline', ...args], { cwd, stdio: ['pipe', 'pipe', 'pipe', 'ipc'] });
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr += chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), LSP_TIMEOUT_MS);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolveRun({ code, stderr });
    });
    child.send({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { processId: process.pid, rootUri: null, capabilities: {} } }, () => undefined);
  });
}

/** One Redis command over a plain socket (the scratch project has no client library), bounded by a timeout. */
function redisCommand(...words) {
  return new Promise((resolveReply) => {
    const socket = connect({ host: '127.0.0.1', port: 6379 });
    const done = (reply) => {
      socket.destroy();
      resolveReply(reply);
    };
    socket.setTimeout(2000, () => done(undefined));
    socket.on('error', () => done(undefined));
    socket.on('data', (chunk) => done(String(chunk)));
    socket.on('connect', () => socket.write(`*${words.length}\r\n${words.map((word) => `$${Buffer.byteLength(word)}\r\n${word}\r\n`).join('')}`));
  });
}
async function redisAnswers() {
  return (await redisCommand('PING'))?.startsWith('+PONG') === true;
}
async function redisDelete(key) {
  await redisCommand('DEL', key);
}
