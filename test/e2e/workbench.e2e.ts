/**
 * The packaged extension in a real VS Code (code-server 4.96.4 = VS Code 1.96.4) driven in Debian's
 * Chromium, the way a person uses it. Run by `npm run test:e2e` (which builds the .vsix and
 * prepares code-server first); `npm test` does not pick up *.e2e.ts files.
 *
 * Fresh profiles, each on its own folder in a temporary folder (a copy of examples/, or the
 * multi-root workspace's two):
 *   - trusted ("Yes, I trust the authors"): diagnostics and the Problems panel, a typed fix, the
 *     grammar's URN colours, URN completion, hover, a quick fix, the byte preview, and a send to
 *     the machine's Redis whose stored bytes are compared with the preview;
 *   - a multi-root workspace (a `.code-workspace` file of two folders, trusted): its `babelq` task
 *     runs in the folder its `"folder"` names, its findings on that folder's files, and one naming
 *     no folder says so when it is run, not when the tasks are listed;
 *   - Restricted Mode ("No, I don't trust the authors"): diagnostics still appear, the send is
 *     refused with its message and nothing reaches Redis.
 * Every scenario saves screenshots to test-results/ and its duration to test-results/e2e-summary.json.
 */
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { connect as amqpConnect } from 'amqplib';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import Redis from 'ioredis';
import type { Browser } from 'playwright-core';
import { createProfile, installExtension, prepareCodeServer, ROOT, startCodeServer, vsixSize, type RunningCodeServer } from '../../scripts/e2e/code-server';
import { launchChromium, RESULTS_DIR, waitUntil, Workbench, type TrustAnswer } from './support/workbench';

const CLI = join(ROOT, 'dist', 'cli.js');
const SCENARIO_TIMEOUT = 120_000;
const runId = `${process.pid}-${Date.now().toString(36)}`;

const summary: {
  vsixBytes?: number;
  activationMs?: number;
  firstDiagnosticMs?: number;
  workbenchLoadMs: Record<string, number>;
  scenarios: { name: string; ms: number; ok: boolean }[];
  /** What a scenario measured beyond its duration (one line each in the printed summary). */
  scenarioNotes: string[];
} = { workbenchLoadMs: {}, scenarios: [], scenarioNotes: [] };

let entry = '';
let browser: Browser | undefined;
const temporary: string[] = [];
const redis = new Redis({ host: '127.0.0.1', port: 6379, lazyConnect: true, retryStrategy: null, maxRetriesPerRequest: 0 });
const queues: string[] = [];

before(async () => {
  rmSync(RESULTS_DIR, { recursive: true, force: true });
  mkdirSync(RESULTS_DIR, { recursive: true });
  entry = prepareCodeServer();
  summary.vsixBytes = vsixSize();
  browser = await launchChromium();
  await redis.connect();
});

after(async () => {
  await browser?.close().catch(() => undefined);
  if (queues.length > 0) await redis.del(...queues).catch(() => undefined);
  redis.disconnect();
  for (const dir of temporary) rmSync(dir, { recursive: true, force: true });
  writeFileSync(join(RESULTS_DIR, 'e2e-summary.json'), JSON.stringify(summary, null, 2) + '\n');
  const lines = summary.scenarios.map((s) => `  ${s.ok ? 'ok  ' : 'FAIL'} ${(s.ms / 1000).toFixed(1).padStart(6)} s  ${s.name}`);
  console.log(
    [
      'Real-workbench summary (code-server 4.96.4 / VS Code 1.96.4, Chromium):',
      `  .vsix ${summary.vsixBytes ?? '?'} bytes; activation ${summary.activationMs ?? '?'} ms (Running Extensions); open → first squiggle ${summary.firstDiagnosticMs ?? '?'} ms`,
      `  workbench load: ${Object.entries(summary.workbenchLoadMs).map(([k, v]) => `${k} ${v} ms`).join(', ')}`,
      ...summary.scenarioNotes.map((note) => `  ${note}`),
      ...lines,
    ].join('\n'),
  );
});

/** A profile: a fresh copy of examples/, fresh user data and extensions, code-server, a page. */
interface Session {
  readonly folder: string;
  readonly server: RunningCodeServer;
  readonly workbench: Workbench;
  /** The profile's user data, where VS Code keeps each extension's global storage. */
  readonly userDataDir: string;
}

async function openSession(name: string, answer: TrustAnswer): Promise<Session> {
  const base = mkdtempSync(join(tmpdir(), `babelq-e2e-${name}-`));
  temporary.push(base);
  const folder = join(base, 'examples');
  cpSync(join(ROOT, 'examples'), folder, { recursive: true });
  // A repository, as a team's checkout is: an edited schema is compared with its version at HEAD.
  const git = (...args: string[]) => execFileSync('git', ['-c', 'user.name=E2E', '-c', 'user.email=e2e@example.com', ...args], { cwd: folder, stdio: 'ignore' });
  git('init', '-q');
  git('add', '.');
  git('commit', '-q', '-m', 'examples');
  const profile = createProfile(join(base, 'profile'));
  installExtension(entry, profile);
  const server = await startCodeServer({ entry, profile, folder });
  const started = Date.now();
  try {
    const workbench = await Workbench.open(browser!, server.url, answer);
    summary.workbenchLoadMs[name] = Date.now() - started;
    return { folder, server, workbench, userDataDir: profile.userDataDir };
  } catch (error) {
    await server.stop();
    throw error;
  }
}

async function closeSession(session: Session | undefined): Promise<void> {
  if (!session) return;
  await session.workbench.close().catch(() => undefined);
  await session.server.stop();
}

/** A scenario: timed, recorded in the summary, with a screenshot when it fails. */
function scenario(name: string, session: () => Session | undefined, body: (session: Session) => Promise<void>): void {
  test(name, { timeout: SCENARIO_TIMEOUT }, async () => {
    const current = session();
    assert.ok(current, 'the workbench did not open (see the first failure)');
    const started = Date.now();
    let ok = false;
    try {
      await body(current);
      ok = true;
    } catch (error) {
      const file = `FAILED-${name.replace(/[^a-z0-9]+/gi, '-').slice(0, 60)}`;
      await current.workbench.screenshot(file).catch(() => undefined);
      console.error(`code-server log tail:\n${current.server.log().slice(-3000)}`);
      throw error;
    } finally {
      summary.scenarios.push({ name, ms: Date.now() - started, ok });
    }
  });
}

/** 1-based line and column of `needle` in `text` (the first occurrence after `after`, if given). */
function positionOf(text: string, needle: string, after = ''): { line: number; column: number } {
  const start = after ? text.indexOf(after) : 0;
  const offset = text.indexOf(needle, start < 0 ? 0 : start);
  assert.ok(offset >= 0, `"${needle}" not found`);
  const before = text.slice(0, offset).split('\n');
  return { line: before.length, column: before[before.length - 1].length + 1 };
}

interface CliDiagnostic {
  readonly code: string;
  readonly severity: string;
  readonly range: { readonly start: { readonly line: number; readonly character: number } };
}

/** What `babelq lint` finds in one file (the same engine, run in a terminal). */
function cliLint(folder: string, file: string): { status: number; diagnostics: CliDiagnostic[] } {
  const run = spawnSync(process.execPath, [CLI, 'lint', file, '--format', 'json'], { cwd: folder, encoding: 'utf8' });
  const report = JSON.parse(run.stdout) as { diagnostics: CliDiagnostic[] }[];
  return { status: run.status ?? -1, diagnostics: report.flatMap((entry) => entry.diagnostics) };
}

/**
 * What the Problems panel's status bar counts once every fixture of the workspace is reported
 * (`babelqueue.diagnostics.scope: workspace`): `babelq lint .`'s findings in the fixtures
 * (registry.json and schema files are reported by the server only when open). Hints are not counted.
 */
function cliWorkspaceCounts(folder: string): { errors: number; warnings: number; infos: number } {
  const run = spawnSync(process.execPath, [CLI, 'lint', '.', '--format', 'json'], { cwd: folder, encoding: 'utf8' });
  const diagnostics = (JSON.parse(run.stdout) as { file: string; diagnostics: CliDiagnostic[] }[]).filter((report) => report.file.endsWith('.babel.json')).flatMap((report) => report.diagnostics);
  return {
    errors: diagnostics.filter((d) => d.severity === 'error').length,
    warnings: diagnostics.filter((d) => d.severity === 'warning').length,
    infos: diagnostics.filter((d) => d.severity === 'info' || d.severity === 'information').length,
  };
}

/**
 * BabelQueue: Dead Letters for the open envelope's queue, then the one dead letter `metaId` checked
 * and accepted; `beforeList` answers what the broker may ask first (a password), on each attempt.
 * The filter is typed only once the list is on screen, so no key lands in the editor behind it.
 */
async function selectDeadLetter(workbench: Workbench, queue: string, metaId: string, beforeList?: () => Promise<void>): Promise<string> {
  const { page } = workbench;
  // A folder setting just written (the layout, the broker) reaches the extension when the file
  // watcher says so: until then the command reads the old queue, finds nothing and says so. Asked again then.
  for (let attempt = 1; ; attempt++) {
    await workbench.clearNotifications();
    await workbench.focusGroup(0);
    await page.keyboard.press('F1');
    await workbench.choose('BabelQueue: Dead Letters', 'BabelQueue: Dead Letters');
    await workbench.choose(`${queue}.dlq`);
    if (beforeList) await beforeList();
    const shown = await waitUntil('the dead letters listed, or none found', async () => {
      if ((await page.locator('.quick-input-widget:not(.hidden) .quick-input-list .monaco-list-row', { hasText: 'urn:babel:' }).count()) > 0) return 'listed';
      return (await workbench.notifications()).some((text) => text.startsWith('No dead letters')) ? 'none' : undefined;
    }, 20_000);
    if (shown === 'listed') break;
    assert.ok(attempt < 10, 'the dead letter never appeared: the folder setting was not applied');
    await page.waitForTimeout(1000);
  }
  await page.keyboard.type(metaId.slice(0, 13));
  // The row as listed (URN, meta.id, date, size, verdict), before the pick closes.
  const listed = await waitUntil('the one dead letter listed', async () => {
    const rows = await page.locator('.quick-input-list .monaco-list-row').allInnerTexts();
    return rows.length === 1 && rows[0]!.includes(metaId.slice(0, 13)) ? rows[0]! : undefined;
  });
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Space');
  await page.locator('.quick-input-widget', { hasText: '1 Selected' }).waitFor({ timeout: 10_000 });
  await page.keyboard.press('Enter');
  return listed;
}

/** View: Close All Editors; the dead letters scenario leaves its edited copy unsaved: closing it asks, and the answer is no. */
async function closeAllEditors(workbench: Workbench): Promise<void> {
  await workbench.command('View: Close All Editors');
  const dialog = workbench.page.locator('.monaco-dialog-box');
  const asked = await dialog.waitFor({ state: 'visible', timeout: 3000 }).then(() => true, () => false);
  if (asked) await workbench.answerDialog("Don't Save");
}

/** The preview document's sections. */
function parsePreview(text: string): { bodyBytes: number; body: string; sections: string[] } {
  const lines = text.split('\n');
  const header = lines.findIndex((line) => /^── Body: \d+ bytes/.test(line));
  assert.ok(header >= 0, `no "Body:" section in the preview:\n${text.slice(0, 500)}`);
  return {
    bodyBytes: Number(/Body: (\d+) bytes/.exec(lines[header])![1]),
    body: lines[header + 1],
    sections: lines.filter((line) => line.startsWith('── ')).map((line) => line.replace(/^── | ──$/g, '')),
  };
}

describe('trusted workspace ("Yes, I trust the authors")', () => {
  let session: Session | undefined;
  const get = () => session;
  const queue = `babelq-e2e-${runId}`;
  queues.push(queue);

  before(async () => {
    session = await openSession('trusted', 'Yes, I trust the authors');
  });
  after(async () => closeSession(session));

  scenario('diagnostics: bad/contract.babel.json squiggles and Problems list the codes; a typed fix removes one', get, async ({ workbench, folder }) => {
    const opened = Date.now();
    await workbench.openFile('bad/contract.babel.json');
    await waitUntil('the first error squiggle', async () => (await workbench.squiggles('error')) > 0, 60_000, 50);
    summary.firstDiagnosticMs = Date.now() - opened;

    const cli = cliLint(folder, 'bad/contract.babel.json');
    const expected = {
      errors: cli.diagnostics.filter((d) => d.severity === 'error').length,
      warnings: cli.diagnostics.filter((d) => d.severity === 'warning').length,
      infos: cli.diagnostics.filter((d) => d.severity === 'info' || d.severity === 'information').length,
    };
    // The status bar's counts are what the CLI finds in every fixture of the workspace, open or not (hints are not counted).
    const workspace = cliWorkspaceCounts(folder);
    await waitUntil('the status bar to count the CLI\'s problems in the whole workspace', async () => {
      const counts = await workbench.problemCounts();
      return counts.errors === workspace.errors && counts.warnings === workspace.warnings && counts.infos === workspace.infos;
    });
    const problems = await workbench.problems('**/contract.babel.json', { all: true });
    const codes = new Set(problems.map((p) => p.code));
    for (const code of ['forbidden-key', 'invalid-urn', 'unsupported-schema-version', 'urn-alias', 'timestamp-unit', 'invalid-uuid', 'encoding-divergence']) {
      assert.ok(codes.has(code), `Problems lists ${code}: ${[...codes].join(', ')}`);
    }
    assert.ok(problems.every((p) => p.source === 'babelqueue'), 'every problem comes from babelqueue');
    assert.equal(problems.filter((p) => p.code === 'forbidden-key').length, 5, 'timestamp, max_retries, source, ts, attempts');
    assert.equal(problems.length, expected.errors + expected.warnings + expected.infos);
    assert.equal(await workbench.problemTotal('**/contract.babel.json'), problems.length);
    await workbench.screenshot('trusted-1-diagnostics');

    // Type the fix: schema_version 2 → 1.
    const text = readFileSync(join(folder, 'bad/contract.babel.json'), 'utf8');
    const at = positionOf(text, '2', '"schema_version": ');
    await workbench.goTo(at.line, at.column);
    await workbench.page.keyboard.press('Shift+ArrowRight');
    await workbench.page.keyboard.type('1');
    await waitUntil('unsupported-schema-version to go away', async () => (await workbench.problemTotal('**/contract.babel.json')) === problems.length - 1);
    const fixed = await workbench.problems('**/contract.babel.json', { all: true });
    assert.equal(fixed.length, problems.length - 1);
    assert.ok(!fixed.some((p) => p.code === 'unsupported-schema-version'));
    assert.equal((await workbench.problemCounts()).errors, workspace.errors - 1);
    assert.ok((await workbench.visibleLines()).some((line) => line.includes('"schema_version": 1,')));
    await workbench.screenshot('trusted-2-typed-fix');
  });

  scenario('grammar: the URN is coloured apart from plain strings (Inspect Editor Tokens and Scopes)', get, async ({ workbench, folder }) => {
    await workbench.command('View: Hide Panel');
    await workbench.focusGroup(0);
    await workbench.goTo(1, 1);
    const spans = await workbench.page.locator('.editor-group-container.active .monaco-editor .view-line span > span').evaluateAll((elements: any[]) =>
      elements.map((element) => ({ text: String(element.textContent), className: String(element.className), color: String((globalThis as any).getComputedStyle(element).color) })),
    );
    const prefix = spans.find((span) => span.text === 'urn:babel:');
    const context = spans.find((span) => span.text === 'orders');
    const plain = spans.find((span) => span.text === '"checkout"');
    assert.ok(prefix && context && plain, `tokens in view: ${spans.map((s) => s.text).join(' ')}`);
    assert.notEqual(prefix.color, plain.color, 'the URN prefix is not coloured like a plain string');
    assert.notEqual(context.color, plain.color, 'the URN context is not coloured like a plain string');

    const text = readFileSync(join(folder, 'bad/contract.babel.json'), 'utf8');
    const at = positionOf(text, 'urn:babel:orders:created');
    await workbench.goTo(at.line, at.column + 2);
    await workbench.command('Developer: Inspect Editor Tokens and Scopes');
    const widget = workbench.page.locator('.token-inspect-widget');
    await widget.waitFor({ state: 'visible', timeout: 10_000 });
    const inspected = await waitUntil('the token scopes', async () => {
      const value = await widget.innerText();
      return value.includes('textmate scopes') ? value : undefined;
    });
    assert.match(inspected, /language\s+babelqueue-envelope/);
    assert.match(inspected, /keyword\.other\.urn-prefix\.babelqueue/);
    assert.match(inspected, /source\.babelqueue-envelope/);
    await workbench.screenshot('trusted-3-grammar-scopes');
    await workbench.page.keyboard.press('Escape');
  });

  scenario('completion: inside "job": "" the registry\'s URNs are offered; hover shows the owner', get, async ({ workbench, folder }) => {
    const { page } = workbench;
    await workbench.openFile('orders/order-created.babel.json');
    const text = readFileSync(join(folder, 'orders/order-created.babel.json'), 'utf8');
    const urn = 'urn:babel:orders:created';
    const at = positionOf(text, urn);
    await workbench.goTo(at.line, at.column);
    for (let i = 0; i < urn.length; i++) await page.keyboard.press('Shift+ArrowRight');
    await page.keyboard.press('Delete');
    await waitUntil('"job": "" in the editor', async () => (await workbench.visibleLines()).some((line) => line.includes('"job": "",')));

    await page.keyboard.press('Control+Space');
    const rows = page.locator('.suggest-widget .monaco-list-row');
    const registered = (JSON.parse(readFileSync(join(folder, 'registry.json'), 'utf8')) as { schemas: { urn: string }[] }).schemas.map((entry) => entry.urn);
    const offered = await waitUntil('the registry URNs in the suggestions', async () => {
      const labels = (await rows.allInnerTexts()).map((row) => row.split('\n')[0].trim());
      return registered.every((candidate) => labels.includes(candidate)) ? labels : undefined;
    });
    assert.ok(offered.length >= registered.length);
    await workbench.screenshot('trusted-4-urn-completion');
    await page.keyboard.type('orders:cre');
    await waitUntil(`${urn} focused`, async () => (await page.locator('.suggest-widget .monaco-list-row.focused').innerText()).includes(urn));
    const details = await page.locator('.suggest-widget .monaco-list-row.focused').innerText();
    assert.match(details, /owner: orders/);
    await page.keyboard.press('Enter');
    await waitUntil('the URN inserted', async () => (await workbench.visibleLines()).some((line) => line.includes(`"job": "${urn}",`)));
    await waitUntil('empty-urn to go away', async () => (await workbench.problems('**/order-created.babel.json')).length === 0);

    await workbench.goTo(at.line, at.column + 12);
    const hover = await workbench.hoverAtCursor();
    assert.match(hover, /urn:babel:orders:created/);
    assert.match(hover, /owner: orders/);
    assert.match(hover, /status: active/);
    await workbench.screenshot('trusted-5-hover');
    await page.keyboard.press('Escape');
  });

  scenario('quick fix: created_at in seconds → "Convert … to milliseconds" applies and the file is valid', get, async ({ workbench, folder }) => {
    const { page } = workbench;
    const text = readFileSync(join(folder, 'orders/order-created.babel.json'), 'utf8');
    const at = positionOf(text, '1773480413412', '"created_at": ');
    await workbench.goTo(at.line, at.column + '1773480413412'.length);
    for (let i = 0; i < 3; i++) await page.keyboard.press('Backspace');
    const problems = await waitUntil('timestamp-unit', async () => {
      const now = await workbench.problems('**/order-created.babel.json');
      return now.some((p) => p.code === 'timestamp-unit') ? now : undefined;
    });
    assert.equal(problems.length, 1, problems.map((p) => p.code).join(', '));
    await workbench.goTo(at.line, at.column + 2);
    const offered = await workbench.applyQuickFix('Convert "created_at" from seconds to milliseconds');
    assert.ok(offered.some((title) => title.includes('(1773480413000)')), offered.join(' | '));
    await waitUntil('the converted value', async () => (await workbench.visibleLines()).some((line) => line.includes('"created_at": 1773480413000')));
    await waitUntil('no problems left in the file', async () => (await workbench.problems('**/order-created.babel.json')).length === 0);
    assert.equal(await workbench.squiggles(), 0);
    await workbench.screenshot('trusted-6-quick-fix-applied');
    // Saved, the file passes the CLI too.
    await page.keyboard.press('Control+S');
    await waitUntil('the save', async () => readFileSync(join(folder, 'orders/order-created.babel.json'), 'utf8').includes('1773480413000'));
    const cli = cliLint(folder, 'orders/order-created.babel.json');
    assert.deepEqual(cli.diagnostics, []);
    assert.equal(cli.status, 0);
  });

  scenario('preview: Preview Published Bytes opens beside the editor with the body and per-SDK bytes', get, async ({ workbench }) => {
    await workbench.command('BabelQueue: Preview Published Bytes');
    await waitUntil('a second editor group', async () => (await workbench.groupCount()) === 2);
    await workbench.group(1).locator('.tab.active', { hasText: 'order-created.babel.json — published bytes' }).waitFor({ timeout: 10_000 });
    await workbench.group(0).locator('.tab.active', { hasText: 'order-created.babel.json' }).waitFor({ timeout: 10_000 });
    const text = await waitUntil('the preview content', async () => {
      const value = await workbench.editorText(1);
      return value.includes('── Per SDK ──') ? value : undefined;
    });
    const preview = parsePreview(text);
    assert.deepEqual(preview.sections.slice(0, 4), [`Body: ${preview.bodyBytes} bytes (UTF-8)`, 'Consumers (each SDK decoding the body above)', 'Target', 'Per SDK']);
    // Each measured consumer accepts the example (.NET was never measured).
    assert.match(text, /── Consumers[^\n]*\nPHP +accepts\nPython +accepts\nNode +accepts\nGo +accepts\nJava +accepts\n\.NET +not measured\n/);
    assert.equal(Buffer.byteLength(preview.body), preview.bodyBytes);
    const body = JSON.parse(preview.body) as { job: string; meta: { queue: string } };
    assert.equal(body.job, 'urn:babel:orders:created');
    for (const sdk of ['php', 'python', 'node', 'go', 'java', 'dotnet']) assert.match(text, new RegExp(`^${sdk}\\s+\\d+ bytes`, 'm'), `per-SDK line for ${sdk}`);
    assert.match(text, /^Redis \(babelqueue layout\): RPUSH orders <body>$/m);
    await workbench.focusGroup(0);
    await workbench.screenshot('trusted-7-preview-beside');
  });

  scenario('send: Send Test Envelope to the local Redis; a plain client finds the previewed bytes', get, async ({ workbench, folder }) => {
    const { page } = workbench;
    // A queue of this run's own: edit meta.queue in the editor (unsaved; the send uses the buffer).
    const text = readFileSync(join(folder, 'orders/order-created.babel.json'), 'utf8');
    const at = positionOf(text, 'orders', '"queue": ');
    await workbench.focusGroup(0);
    await workbench.goTo(at.line, at.column);
    for (let i = 0; i < 'orders'.length; i++) await page.keyboard.press('Shift+ArrowRight');
    await page.keyboard.type(queue);
    const preview = await waitUntil('the preview to follow the edit', async () => {
      const value = await workbench.editorText(1);
      return value.includes(`RPUSH ${queue} <body>`) ? parsePreview(value) : undefined;
    });
    assert.equal(await redis.exists(queue), 0);

    await workbench.focusGroup(0);
    await workbench.command('BabelQueue: Send Test Envelope');
    const toast = await waitUntil('the "Sent to" notification', async () => (await workbench.notifications()).find((n) => n.startsWith(`Sent to ${queue} on redis://127.0.0.1:6379:`)));
    await workbench.screenshot('trusted-8-send-notification');
    const stored = await redis.lrangeBuffer(queue, 0, -1);
    assert.equal(stored.length, 1, 'one message on the queue');
    // Byte-identical to the preview's Body section (the preview shows the ids the next send uses).
    assert.ok(stored[0].equals(Buffer.from(preview.body, 'utf8')), `stored:\n${stored[0].toString()}\npreview:\n${preview.body}`);
    assert.equal(stored[0].length, preview.bodyBytes);
    const sent = JSON.parse(stored[0].toString('utf8')) as { job: string; trace_id: string; data: unknown; meta: { id: string; queue: string } };
    assert.ok(toast.includes(`meta.id ${sent.meta.id}, ${stored[0].length} bytes`), toast);
    assert.equal(sent.meta.queue, queue);
    // The CLI's preview of the saved file (without fresh ids) agrees on everything but the ids.
    const cli = JSON.parse(execFileSync(process.execPath, [CLI, 'preview', 'orders/order-created.babel.json', '--no-fresh-ids'], { cwd: folder, encoding: 'utf8' })) as typeof sent;
    assert.equal(sent.job, cli.job);
    assert.equal(sent.trace_id, cli.trace_id);
    assert.deepEqual(sent.data, cli.data);
    assert.notEqual(sent.meta.id, cli.meta.id, 'a fresh meta.id per send');
  });

  scenario('dead letters: peek the DLQ, open the message, save it as a fixture, fix it in an editable copy, redrive as another SDK does (Another SDK…); a plain client reads it on the original queue', get, async ({ workbench, folder }) => {
    const { page } = workbench;
    queues.push(`${queue}.dlq`);
    // Dead-lettered as the Node consumers do, by the example script (is_gift: 0 made the handler throw).
    const made = execFileSync(process.execPath, [join(ROOT, 'examples/dead-letter.mjs'), '--queue', queue], { encoding: 'utf8' });
    const metaId = /: ([0-9a-f-]{36})$/m.exec(made)![1]!;
    const onQueueBefore = await redis.llen(queue);
    await workbench.clearNotifications();
    await workbench.focusGroup(0);
    // The open envelope's meta.queue is this run's queue (the send scenario edited it): its DLQ is offered first.
    // From the palette without waiting for it to close: the command's own quick pick takes its place.
    await page.keyboard.press('F1');
    await workbench.choose('BabelQueue: Dead Letters', 'BabelQueue: Dead Letters');
    await workbench.choose(`${queue}.dlq`);
    // The dead letters take several checks at a time: filter to this one, check it, accept.
    await page.keyboard.type(metaId.slice(0, 13));
    await waitUntil('the one dead letter of this run listed', async () => {
      const rows = await page.locator('.quick-input-list .monaco-list-row').allInnerTexts();
      return rows.length === 1 && rows[0]!.includes(metaId.slice(0, 13)) && rows[0]!.includes('TypeError');
    });
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Space');
    await page.locator('.quick-input-widget', { hasText: '1 Selected' }).waitFor({ timeout: 10_000 });
    await page.keyboard.press('Enter');
    await workbench.screenshot('trusted-11-dead-letters-actions');
    await workbench.choose('Open');
    await page.locator('.tab.active', { hasText: `${queue}.dlq · ${metaId}` }).waitFor({ timeout: 10_000 });
    // Judged as a fixture of the workspace is: the URN's schema says is_gift is a boolean.
    await waitUntil('the payload-schema error on is_gift', async () => (await workbench.squiggles('error')) > 0, 30_000);
    assert.ok((await workbench.visibleLines()).some((line) => line.includes('"is_gift": 0,')), 'formatted, one key a line');
    await workbench.screenshot('trusted-12-dead-letter-view');
    assert.ok((await workbench.problemTotal(metaId)) > 0, 'the open view\'s problems are listed');

    // Save as Fixture…: renewed ids, named from the URN, written where the save dialog (code-server's own) proposes.
    const fixturePath = join(folder, 'orders-created.babel.json');
    await page.keyboard.press('F1');
    await workbench.choose('BabelQueue: Save as Fixture…', 'BabelQueue: Save as Fixture');
    await workbench.choose('Renew meta.id and created_at', 'Renew');
    const saveInput = page.locator('.quick-input-widget .quick-input-box input');
    await waitUntil('the save dialog proposing the URN\'s name', async () => (await saveInput.inputValue().catch(() => '')).endsWith('orders-created.babel.json'));
    await page.keyboard.press('Enter');
    const saved = await waitUntil('the fixture on disk', async () => (existsSync(fixturePath) ? (JSON.parse(readFileSync(fixturePath, 'utf8')) as { trace_id: string; meta: { id: string }; dead_letter?: unknown; data: { is_gift: unknown } }) : undefined));
    assert.notEqual(saved.meta.id, metaId, 'meta.id renewed');
    assert.ok(saved.dead_letter, 'the message as it sits on the DLQ, dead_letter block included');
    assert.equal(saved.data.is_gift, 0);
    await page.locator('.tab.active', { hasText: 'orders-created.babel.json' }).waitFor({ timeout: 10_000 });
    await page.locator('.tab', { hasText: `${queue}.dlq · ${metaId}` }).click();
    await page.locator('.tab.active', { hasText: `${queue}.dlq · ${metaId}` }).waitFor({ timeout: 10_000 });

    await workbench.command('BabelQueue: Edit, then Redrive');
    await page.locator('.tab.active', { hasText: 'Untitled-' }).waitFor({ timeout: 10_000 });
    const lines = await waitUntil('the editable copy', async () => {
      const visible = await workbench.visibleLines();
      return visible.some((text) => text.includes('"is_gift": 0,')) ? visible : undefined;
    });
    const line = lines.findIndex((text) => text.includes('"is_gift": 0,')) + 1;
    await waitUntil('the error on the copy', async () => (await workbench.squiggles('error')) > 0, 30_000);
    await workbench.clearNotifications();
    await workbench.focusGroup(0);
    // From the problem's hover, as a user pointing at the squiggle does: in code-server Ctrl+.
    // does not reach this untitled editor (no code-action request is sent), the hover's link does.
    await workbench.goTo(line, lines[line - 1]!.indexOf('0,') + 1);
    const offered = await workbench.applyQuickFixFromHover('Write the JSON boolean false');
    assert.ok(offered.length >= 1, offered.join(' | '));
    await waitUntil('the fixed boolean', async () => (await workbench.visibleLines()).some((text) => text.includes('"is_gift": false,')));

    await workbench.command('BabelQueue: Redrive');
    // The redrive the message's own SDK makes is offered first; another SDK's is one pick away.
    const first = await workbench.answerDialog('Another SDK…');
    assert.match(first, /\(node redrive: dead_letter removed, attempts 0\)/);
    await workbench.choose('python');
    const question = await workbench.answerDialog('Redrive');
    assert.match(question, new RegExp(`Redrive 1 message\\(s\\) from ${queue}\\.dlq to ${queue} \\(python redrive`));
    assert.match(question, /"is_gift": ?false/);
    await waitUntil('the "Redrove" notification', async () => (await workbench.notifications()).find((n) => n.startsWith('Redrove 1 message(s)')));
    await workbench.screenshot('trusted-13-redriven');
    assert.equal(await redis.llen(`${queue}.dlq`), 0, 'gone from the DLQ');
    assert.equal(await redis.llen(queue), onQueueBefore + 1, 'one more on the original queue');
    const redriven = JSON.parse((await redis.lindex(queue, -1))!) as { attempts: number; dead_letter?: unknown; meta: { id: string }; data: { is_gift: unknown } };
    assert.deepEqual([redriven.meta.id, redriven.attempts, redriven.dead_letter, redriven.data.is_gift], [metaId, 0, undefined, false]);

    // Its tab closed, the view's problems leave the Problems panel: VS Code keeps such a document
    // open for minutes after, and the client would keep its last report.
    await page.locator('.tab', { hasText: `${queue}.dlq · ${metaId}` }).click();
    await page.locator('.tab.active', { hasText: `${queue}.dlq · ${metaId}` }).waitFor({ timeout: 10_000 });
    await workbench.command('View: Close Editor');
    await page.locator('.tab', { hasText: `${queue}.dlq · ${metaId}` }).waitFor({ state: 'detached', timeout: 10_000 });
    await waitUntil('the closed view\'s problems gone from the Problems panel', async () => (await workbench.problemTotal(metaId)) === 0, 15_000);
  });

  scenario('a dead letter stored with a byte-order mark: listed with lint\'s json-syntax error, and left in the DLQ byte for byte by Redrive, which says why', get, async ({ workbench }) => {
    queues.push(`${queue}.dlq`);
    const made = execFileSync(process.execPath, [join(ROOT, 'examples/dead-letter.mjs'), '--queue', queue], { encoding: 'utf8' });
    const metaId = /: ([0-9a-f-]{36})$/m.exec(made)![1]!;
    // As a Node consumer moves a body it rejects for its BOM: raw, to <queue>.dlq (facts part 2).
    const withBom = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), (await redis.lindexBuffer(`${queue}.dlq`, -1))!]);
    await redis.lset(`${queue}.dlq`, -1, withBom);
    const onQueueBefore = await redis.llen(queue);
    const listed = await selectDeadLetter(workbench, queue, metaId);
    // The BOM is lint's json-syntax error; the rest is judged with the workspace's registry (is_gift: 0
    // fails the URN's schema), as `babelq dlq list` run in the folder counts it.
    assert.match(listed, /\b2 errors\b/, `the BOM's json-syntax error and is_gift's payload-schema error: ${listed}`);
    await workbench.choose('Redrive…');
    const refused = await waitUntil('the refusal', async () => (await workbench.notifications()).find((n) => n.startsWith('Nothing to redrive')), 20_000);
    assert.match(refused, new RegExp(`meta\\.id ${metaId}: its body starts with a UTF-8 byte-order mark`));
    assert.deepEqual(await redis.lrangeBuffer(`${queue}.dlq`, 0, -1), [withBom], 'still in the DLQ, byte for byte');
    assert.equal(await redis.llen(queue), onQueueBefore, 'nothing published');
    await redis.del(`${queue}.dlq`);
  });

  scenario('a fixture saved with a byte-order mark: VS Code hides the mark, the json-syntax error is at 1:1 as babelq lint has it, and goes once it is saved with encoding UTF-8', get, async ({ workbench, folder }) => {
    const { page } = workbench;
    const relative = 'identity/user-registered-bom.babel.json';
    const path = join(folder, relative);
    const text = readFileSync(join(folder, 'identity/user-registered.babel.json'));
    writeFileSync(path, Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), text]));
    try {
      // The example's own findings (an SDK's note on meta.ext) stay; the mark adds json-syntax at 1:1.
      const cli = cliLint(folder, relative).diagnostics.map((d) => [d.code, d.range.start.line + 1, d.range.start.character + 1]);
      const clean = cliLint(folder, 'identity/user-registered.babel.json').diagnostics.map((d) => [d.code, d.range.start.line + 1, d.range.start.character + 1]);
      assert.deepEqual(cli, [['json-syntax', 1, 1], ...clean]);
      await workbench.openFile(relative);
      // The editor shows the text without the mark, and says what it decoded.
      await page.locator('.statusbar-item', { hasText: 'UTF-8 with BOM' }).waitFor({ state: 'visible', timeout: 10_000 });
      assert.equal((await workbench.editorText(0)).charCodeAt(0), '{'.charCodeAt(0));
      const problems = await waitUntil('the byte-order mark in Problems', async () => {
        const listed = await workbench.problems('**/user-registered-bom.babel.json', { all: true });
        return listed.some((p) => p.code === 'json-syntax') ? listed : undefined;
      }, 30_000);
      assert.deepEqual(problems.map((p) => [p.code, p.line, p.column]), cli);
      assert.match(problems[0]!.message, /byte-order mark/);
      // Change File Encoding ▸ Save with Encoding ▸ UTF-8 (the text unchanged, the mark gone).
      await workbench.command('Change File Encoding', { opensPick: true });
      await workbench.choose('Save with Encoding');
      const input = page.locator('.quick-input-widget .quick-input-box input');
      await input.waitFor({ state: 'visible', timeout: 10_000 });
      await page.keyboard.type('UTF-8');
      await waitUntil('UTF-8 (without BOM) focused', async () => {
        const focused = await page.locator('.quick-input-list .monaco-list-row.focused').innerText().catch(() => '');
        if (focused.startsWith('UTF-8') && !focused.includes('BOM')) return true;
        await page.keyboard.press('ArrowDown');
        return false;
      });
      await page.keyboard.press('Enter');
      await page.locator('.statusbar-item', { hasText: 'UTF-8 with BOM' }).waitFor({ state: 'hidden', timeout: 10_000 });
      await waitUntil('the file saved without the mark', async () => readFileSync(path)[0] === '{'.charCodeAt(0), 10_000);
      assert.deepEqual([...readFileSync(path)], [...text], 'saved without the mark, the text as it was');
      await waitUntil('the finding gone at the save', async () => (await workbench.problemTotal('**/user-registered-bom.babel.json')) === clean.length, 20_000);
      assert.deepEqual((await workbench.problems('**/user-registered-bom.babel.json', { all: true })).map((p) => [p.code, p.line, p.column]), clean);
      assert.deepEqual(cliLint(folder, relative).diagnostics.map((d) => d.code), clean.map(([code]) => code));
      await workbench.screenshot('trusted-bom-saved-as-utf8');
    } finally {
      // A pick left open by a failure would take the palette's keys. Only this editor is closed:
      // the dead-letter scenarios that follow work on the queue of the envelope open before it.
      await page.keyboard.press('Escape');
      await workbench.command('View: Close Editor');
      const dialog = page.locator('.monaco-dialog-box');
      if (await dialog.waitFor({ state: 'visible', timeout: 2000 }).then(() => true, () => false)) await workbench.answerDialog("Don't Save");
      rmSync(path, { force: true });
    }
  });

  scenario('dead letters, Laravel layout: a dead letter on queues:<queue>.dlq listed and redriven to queues:<queue> with its notify marker', get, async ({ workbench, folder }) => {
    const settingsDir = join(folder, '.vscode');
    mkdirSync(settingsDir, { recursive: true });
    writeFileSync(join(settingsDir, 'settings.json'), JSON.stringify({ 'babelqueue.redis.layout': 'laravel' }));
    queues.push(`queues:${queue}.dlq`, `queues:${queue}`, `queues:${queue}:notify`);
    try {
      const made = execFileSync(process.execPath, [join(ROOT, 'examples/dead-letter.mjs'), '--queue', queue, '--layout', 'laravel'], { encoding: 'utf8' });
      const metaId = /: ([0-9a-f-]{36})$/m.exec(made)![1]!;
      assert.equal(await redis.llen(`queues:${queue}.dlq`), 1);
      const before = await redis.llen(`queues:${queue}`);
      await selectDeadLetter(workbench, queue, metaId);
      await workbench.choose('Redrive…');
      const question = await workbench.answerDialog('Redrive');
      assert.match(question, new RegExp(`from queues:${queue}\\.dlq to queues:${queue} `));
      // A checked row is judged with the workspace's registry, as an opened one: is_gift: 0 fails the URN's schema.
      assert.match(await workbench.answerDialog('Redrive Anyway'), /This envelope has 1 error \(payload-schema\)\. Redrive anyway\?/);
      await waitUntil('the "Redrove" notification', async () => (await workbench.notifications()).find((n) => n.startsWith('Redrove 1 message(s)')));
      assert.equal(await redis.llen(`queues:${queue}.dlq`), 0, 'gone from the Laravel DLQ');
      assert.equal(await redis.llen(`queues:${queue}`), before + 1, 'one more on the Laravel queue');
      assert.ok((await redis.exists(`queues:${queue}:notify`)) === 1, 'the notify marker Laravel workers wait on');
      const redriven = JSON.parse((await redis.lindex(`queues:${queue}`, -1))!) as { attempts: number; dead_letter?: unknown; meta: { id: string } };
      assert.deepEqual([redriven.meta.id, redriven.attempts, redriven.dead_letter], [metaId, 0, undefined]);
    } finally {
      rmSync(settingsDir, { recursive: true, force: true });
    }
  });

  scenario('dead letters, RabbitMQ: the password asked once, the dead letter listed from <queue>.dlq and redriven to <queue>', get, async ({ workbench, folder }) => {
    const { page } = workbench;
    const settingsDir = join(folder, '.vscode');
    mkdirSync(settingsDir, { recursive: true });
    writeFileSync(join(settingsDir, 'settings.json'), JSON.stringify({ 'babelqueue.broker.url': 'amqp://guest@127.0.0.1:5672' }));
    const connection = await amqpConnect('amqp://guest:guest@127.0.0.1:5672');
    const channel = await connection.createChannel();
    try {
      const made = execFileSync(process.execPath, [join(ROOT, 'examples/dead-letter.mjs'), '--queue', queue, '--broker', 'amqp://guest:guest@127.0.0.1:5672'], { encoding: 'utf8' });
      const metaId = /: ([0-9a-f-]{36})$/m.exec(made)![1]!;
      assert.equal((await channel.checkQueue(`${queue}.dlq`)).messageCount, 1);
      let asked = 0;
      await selectDeadLetter(workbench, queue, metaId, async () => {
        // The password for guest, asked once and kept in secret storage (not asked while the old broker setting still applies).
        const prompt = page.locator('.quick-input-widget .quick-input-box input[type="password"]');
        if (!(await prompt.waitFor({ state: 'visible', timeout: 5000 }).then(() => true, () => false))) return;
        asked++;
        await page.keyboard.type('guest');
        await page.keyboard.press('Enter');
      });
      assert.equal(asked, 1, 'the password was asked once');
      await workbench.choose('Redrive…');
      const question = await workbench.answerDialog('Redrive');
      assert.match(question, new RegExp(`from ${queue}\\.dlq to ${queue} `));
      assert.match(await workbench.answerDialog('Redrive Anyway'), /This envelope has 1 error \(payload-schema\)\. Redrive anyway\?/);
      await waitUntil('the "Redrove" notification', async () => (await workbench.notifications()).find((n) => n.startsWith('Redrove 1 message(s)')), 20_000);
      assert.equal((await channel.checkQueue(`${queue}.dlq`)).messageCount, 0, 'gone from the DLQ');
      const got = await channel.get(queue, { noAck: true });
      assert.ok(got, 'on the original queue');
      const redriven = JSON.parse(got.content.toString('utf8')) as { attempts: number; dead_letter?: unknown; meta: { id: string } };
      assert.deepEqual([redriven.meta.id, redriven.attempts, redriven.dead_letter], [metaId, 0, undefined]);
    } finally {
      rmSync(settingsDir, { recursive: true, force: true });
      for (const name of [queue, `${queue}.dlq`]) await channel.deleteQueue(name).catch(() => undefined);
      await connection.close().catch(() => undefined);
    }
  });

  scenario('preview beside a file with data problems: squiggles, Problems and the SDKs that differ', get, async ({ workbench }) => {
    await workbench.command('View: Toggle Primary Side Bar Visibility');
    await workbench.focusGroup(0);
    await workbench.openFile('bad/data.babel.json');
    await waitUntil('squiggles in bad/data.babel.json', async () => (await workbench.squiggles()) > 0);
    await workbench.command('BabelQueue: Preview Published Bytes');
    await workbench.group(1).locator('.tab.active', { hasText: 'data.babel.json — published bytes' }).waitFor({ timeout: 10_000 });
    const text = await waitUntil('the preview content', async () => {
      const value = await workbench.editorText(1);
      return value.includes('── Per SDK ──') ? value : undefined;
    });
    // The unsafe integer is rounded by Node and Go: the preview marks them, next to the squiggles.
    // Each difference said in words: the rounded integer, and Go's key order besides.
    assert.match(text, /^node\s+\d+ bytes\s+DIFFERS: data\.ledger_entry_id is written 9007199254740992, not 9007199254740993 \(a different number\)$/m);
    assert.match(text, /^go\s+\d+ bytes\s+DIFFERS: data\.ledger_entry_id is written 9007199254740992, not 9007199254740993 \(a different number\); keys in another order too$/m);
    assert.match(text, /9007199254740993 is written as 9007199254740992/);
    const problems = await workbench.problems('**/data.babel.json', { all: true });
    const codes = new Set(problems.map((p) => p.code));
    for (const code of ['float-currency', 'unsafe-integer', 'non-json-boolean', 'non-iso-time']) assert.ok(codes.has(code), `Problems lists ${code}: ${[...codes].join(', ')}`);
    await workbench.clearNotifications();
    await workbench.focusGroup(0);
    await workbench.goTo(1, 1);
    await workbench.page.mouse.move(400, 540); // no tooltip in the picture
    await workbench.screenshot('trusted-10-data-problems-and-preview', 800);
    await workbench.command('View: Toggle Primary Side Bar Visibility');
  });

  scenario('preview of a large envelope (rendered by the language server) follows each keystroke, and a burst of them', get, async ({ workbench, folder }) => {
    // Above the 256 KiB from which the language server renders the preview: `meta` first, so the
    // body's start, on screen in the preview, holds the queue typed into.
    const example = JSON.parse(readFileSync(join(folder, 'orders/order-created.babel.json'), 'utf8')) as { meta: object; data: { items: object[] } };
    const items = Array.from({ length: 5000 }, (_, i) => ({ sku: `SKU-${i}`, quantity: (i % 7) + 1, unit_price_cents: 100 + i }));
    const { meta, ...rest } = example;
    // Its own queue name: an earlier scenario may have given the example another.
    const text = JSON.stringify({ meta: { ...meta, queue: 'orders' }, ...rest, data: { ...example.data, items } }, null, 2) + '\n';
    assert.ok(text.length > 300 * 1024, `${text.length} characters`);
    const relative = 'large/orders-batch.babel.json';
    mkdirSync(join(folder, 'large'), { recursive: true });
    writeFileSync(join(folder, relative), text);
    try {
      // One editor group and no panel: the preview's body on screen, whatever the scenarios before left open.
      await closeAllEditors(workbench);
      if (await workbench.page.locator('.part.panel').isVisible()) await workbench.command('View: Hide Panel');
      await workbench.openFile(relative);
      await workbench.command('BabelQueue: Preview Published Bytes');
      await workbench.group(1).locator('.tab.active', { hasText: 'orders-batch.babel.json — published bytes' }).waitFor({ timeout: 20_000 });
      const bodyShows = (queue: string) => workbench.group(1).locator('.view-line', { hasText: `"queue":"${queue}"` });
      await bodyShows('orders').first().waitFor({ timeout: 20_000 });
      const at = positionOf(text, 'orders', '"queue": ');
      await workbench.focusGroup(0);
      await workbench.goTo(at.line, at.column + 'orders'.length);
      // One key after a pause, twice: the preview follows each (the server renders the edited text, not the one before).
      let queue = 'orders';
      for (const typed of ['x', 'y']) {
        await workbench.page.keyboard.type(typed);
        queue += typed;
        await bodyShows(queue).first().waitFor({ timeout: 10_000 });
      }
      // A burst without pauses: the preview ends on the last key.
      await workbench.page.keyboard.type('abc', { delay: 20 });
      await bodyShows('ordersxyabc').first().waitFor({ timeout: 10_000 });
      await workbench.screenshot('trusted-10b-large-preview-follows');
    } catch (error) {
      // What the preview showed, before the editors close.
      await workbench.screenshot('FAILED-large-preview-on-screen').catch(() => undefined);
      throw error;
    } finally {
      await closeAllEditors(workbench);
      rmSync(join(folder, 'large'), { recursive: true, force: true });
    }
  });

  scenario('activation: Developer: Show Running Extensions reports the activation time', get, async ({ workbench }) => {
    await workbench.command('Developer: Show Running Extensions');
    const row = workbench.page.locator('.runtime-extensions-editor .monaco-list-row', { hasText: 'BabelQueue Envelope Tools' });
    const text = await waitUntil('the BabelQueue row', async () => {
      const value = await row.innerText().catch(() => '');
      return /Activation: \d+ms/.test(value) ? value : undefined;
    });
    summary.activationMs = Number(/Activation: (\d+)ms/.exec(text)![1]);
    assert.ok(summary.activationMs > 0 && summary.activationMs < 10_000, text);
    await workbench.screenshot('trusted-9-running-extensions');
  });

  scenario('workspace: fixtures that are not open are in Problems; tightening a schema lists the fixtures it now rejects and shows the break against git HEAD', get, async ({ workbench, folder }) => {
    const fixture = 'orders/order-created.babel.json';
    await closeAllEditors(workbench);
    const listed = await waitUntil('bad/structure.babel.json listed without being opened', async () => {
      const rows = await workbench.problems('**/bad/structure.babel.json');
      return rows.some((row) => row.source === 'babelqueue') ? rows : undefined;
    }, 30_000);
    assert.ok(listed.length > 0);
    assert.deepEqual((await workbench.problems(`**/${fixture}`)).filter((row) => row.code === 'payload-schema'), [], 'a valid fixture has no payload-schema problem');
    await workbench.openFile('schemas/orders-created.json');
    const text = readFileSync(join(folder, 'schemas/orders-created.json'), 'utf8');
    const at = positionOf(text, '"order_id"', '"required": [');
    await workbench.goTo(at.line, at.column);
    const edited = Date.now();
    await workbench.page.keyboard.type('"warehouse_code", ');
    const rejected = await waitUntil(`payload-schema on ${fixture}, which is not open`, async () => {
      const rows = await workbench.problems(`**/${fixture}`);
      return rows.find((row) => row.code === 'payload-schema' && row.message.includes('warehouse_code'));
    }, 30_000);
    summary.scenarioNotes.push(`schema edit → the not-open fixture it rejects in Problems: ${Date.now() - edited} ms`);
    assert.ok(rejected);
    // The schema itself: the break against git HEAD on the new required name, with the fixtures it breaks counted.
    const broken = await waitUntil('breaking-change on the schema file', async () => {
      const rows = await workbench.problems('**/schemas/orders-created.json');
      return rows.find((row) => row.code === 'breaking-change');
    }, 30_000);
    summary.scenarioNotes.push(`schema edit → breaking-change in Problems: ${Date.now() - edited} ms`);
    assert.match(broken.message, /property "warehouse_code" is now required/);
    assert.match(broken.message, /urn:babel:orders:created\.v2/);
    assert.match(broken.message, /[1-9]\d* of the \d+ fixtures? of urn:babel:orders:created in this workspace fails? the schema as it is now/);
    await workbench.screenshot('trusted-11-workspace-schema-edit');
    // Undone: the finding goes away again. (The web workbench saves after a second by default,
    // files.autoSave "afterDelay"; an unsaved edit is test/server/workspace-diagnostics.test.ts's.)
    await workbench.goTo(at.line, at.column);
    for (let i = 0; i < '"warehouse_code", '.length; i++) await workbench.page.keyboard.press('Shift+ArrowRight');
    await workbench.page.keyboard.press('Delete');
    await waitUntil('the payload-schema problem to go away after the undo', async () => !(await workbench.problems(`**/${fixture}`)).some((row) => row.code === 'payload-schema'), 30_000);
    await waitUntil('the breaking-change to go away after the undo', async () => !(await workbench.problems('**/schemas/orders-created.json')).some((row) => row.code === 'breaking-change'), 30_000);
    await waitUntil('the schema file back as it was', async () => readFileSync(join(folder, 'schemas/orders-created.json'), 'utf8') === text, 15_000);
    await closeAllEditors(workbench);

    // A folder moved away on disk (a checkout, a script), which VS Code's watcher reports by the
    // folder's path alone: its fixtures leave Problems; moved back, they are listed again.
    renameSync(join(folder, 'bad'), join(folder, 'bad-moved-away'));
    try {
      const moved = Date.now();
      await waitUntil('bad/structure.babel.json to leave Problems once its folder is moved away', async () => !(await workbench.problems('**/bad/structure.babel.json')).some((row) => row.source === 'babelqueue'), 30_000);
      summary.scenarioNotes.push(`folder moved away → its fixtures gone from Problems: ${Date.now() - moved} ms`);
    } finally {
      renameSync(join(folder, 'bad-moved-away'), join(folder, 'bad'));
    }
    const back = Date.now();
    await waitUntil('bad/structure.babel.json listed again once its folder is back', async () => (await workbench.problems('**/bad/structure.babel.json')).some((row) => row.source === 'babelqueue'), 30_000);
    summary.scenarioNotes.push(`folder moved back → its fixtures in Problems again: ${Date.now() - back} ms`);
  });

  // Last in this profile: from here on, a file opened after the task ran has its rows beside the server's until the task runs again.
  scenario('task: Run Task ▸ babelq: lint fills the Problems panel for fixtures that are not open, and leaves open ones to the server', get, async ({ workbench, folder }) => {
    const files = ['bad/structure.babel.json', 'bad/registry.babel.json'];
    const open = 'bad/contract.babel.json';
    await workbench.openFile(open);
    await waitUntil(`the server's problems for ${open}`, async () => (await workbench.problems(`**/${open}`, { all: true })).some((row) => row.source === 'babelqueue'), 30_000);
    const runTask = async () => {
      await workbench.command('Tasks: Run Task', { opensPick: true });
      await workbench.pick('babelq', 'babelq', { next: true });
      await workbench.pick('lint', 'babelq: lint');
    };
    const taskRows = async (file: string) => (await workbench.problems(`**/${file}`, { all: true })).filter((row) => row.source === 'babelq');
    await runTask();
    // Now and then (2 runs of 7 on one day here, on a loaded machine) the task's terminal never runs
    // it (once with "Could not find pty 1 on pty host" in the workbench's log): the task is run once
    // more, and that is noted, with what was on screen.
    const firstRan = await waitUntil('the task\'s first rows', async () => ((await taskRows(files[0])).length > 0 ? true : undefined), 30_000).catch(() => false);
    if (!firstRan) {
      await workbench.screenshot('trusted-12-task-first-run-no-rows').catch(() => undefined);
      summary.scenarioNotes.push('task: its first run filled no rows within 30 s (see trusted-12-task-first-run-no-rows.png); run again');
      await runTask();
    }
    for (const file of files) {
      // All of them: a problem matcher shows a hint as information (the server's hints are not listed).
      const expected = cliLint(folder, file).diagnostics;
      assert.ok(expected.length > 0, `${file} has findings`);
      // The server already lists the file (the workspace's diagnostics); the task's rows come beside them, as source babelq.
      const problems = await waitUntil(`the task's problems for ${file}`, async () => {
        const rows = await taskRows(file);
        return rows.length === expected.length ? rows : undefined;
      }, 60_000);
      assert.ok(problems.every((p) => p.source === 'babelq'), `the problem matcher's rows: ${JSON.stringify(problems)}`);
      assert.deepEqual(problems.map((p) => p.code).sort(), expected.map((d) => d.code).sort());
    }
    const tabs = await workbench.page.locator('.tabs-container .tab').allInnerTexts();
    assert.ok(!tabs.some((tab) => /structure|registry\.babel/.test(tab)), `the files are not open: ${tabs.join(', ')}`);
    // The open file: the server's rows only (the matcher applies to closed documents, as $tsc's does).
    const openRows = await workbench.problems(`**/${open}`, { all: true });
    assert.ok(openRows.some((row) => row.source === 'babelqueue'), JSON.stringify(openRows));
    assert.deepEqual(openRows.filter((row) => row.source === 'babelq'), [], `no task rows for ${open}, which was open`);
    await closeAllEditors(workbench);
    await workbench.problems('**/bad/*.babel.json');
    await workbench.screenshot('trusted-12-task-problems');
  });

  scenario('the language server keeps its code cache in the extension\'s global storage, tied to its build', get, async ({ userDataDir }) => {
    const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { publisher: string; name: string };
    const cacheFolder = join(userDataDir, 'User', 'globalStorage', `${manifest.publisher}.${manifest.name}`, 'code-cache');
    // The server writes it 10 s after its start (or when it ends); this session has run longer.
    // One file per build of the server and V8 version, named by the build and the V8 (the code-server's Node) it was made for.
    const named = await waitUntil('the server\'s code cache', async () => (existsSync(cacheFolder) ? readdirSync(cacheFolder).find((name) => /^server-main-[0-9a-f]{12}-v8-\d+\.\d+\.[0-9a-z.-]+\.cache$/.test(name)) : undefined), 30_000);
    const cache = readFileSync(join(cacheFolder, named));
    assert.match(cache.toString('latin1', 0, 40), /^[0-9a-f]{40}$/, 'the cache starts with the build it was made for');
    assert.equal(cache.toString('latin1', 0, 12), named.slice('server-main-'.length, 'server-main-'.length + 12), 'its name says that build');
    assert.equal(cache.toString('latin1', 40, 41), 'F', 'written by the server ten seconds in: a full cache');
    assert.ok(cache.length > 100_000, `a cache of the server's code: ${cache.length} bytes`);
  });
});

describe('multi-root workspace (a .code-workspace file of two folders)', () => {
  let session: Session | undefined;
  const get = () => session;

  before(async () => {
    const base = mkdtempSync(join(tmpdir(), 'babelq-e2e-multi-root-'));
    temporary.push(base);
    mkdirSync(join(base, 'api', 'fixtures'), { recursive: true });
    mkdirSync(join(base, 'worker', 'fixtures'), { recursive: true });
    const fixture = readFileSync(join(ROOT, 'examples', 'orders', 'order-created.babel.json'), 'utf8');
    writeFileSync(join(base, 'api', 'fixtures', 'order-created.babel.json'), fixture);
    // The same relative path in both folders: a finding placed in the wrong one would land on api's, which is clean.
    writeFileSync(join(base, 'worker', 'fixtures', 'order-created.babel.json'), fixture.replace('"attempts": 0', '"attempts": 0,\n  "timestamp": 1750000000'));
    writeFileSync(join(base, 'worker', 'registry.json'), '{ "schemas": [] }\n');
    const workspaceFile = join(base, 'team.code-workspace');
    const tasks = [
      { type: 'babelq', label: 'lint worker', folder: 'worker', problemMatcher: ['$babelq'] },
      { type: 'babelq', label: 'lint nowhere', folder: 'nowhere', problemMatcher: ['$babelq'] },
    ];
    writeFileSync(workspaceFile, JSON.stringify({ folders: [{ path: 'api' }, { path: 'worker' }], tasks: { version: '2.0.0', tasks } }, null, 2));
    const profile = createProfile(join(base, 'profile'));
    installExtension(entry, profile);
    const server = await startCodeServer({ entry, profile, folder: workspaceFile });
    try {
      const workbench = await Workbench.open(browser!, server.url, 'Yes, I trust the authors');
      session = { folder: base, server, workbench, userDataDir: profile.userDataDir };
    } catch (error) {
      await server.stop();
      throw error;
    }
  });
  after(async () => closeSession(session));

  scenario('task: a .code-workspace task runs in the folder its "folder" names, its findings on that folder\'s files; one naming no folder says so when run, not when listed', get, async ({ workbench, folder }) => {
    const runTask = async (label: string) => {
      await workbench.command('Tasks: Run Task', { opensPick: true });
      await workbench.pick(label, label);
    };
    // The rows listed under the file row of `name` in `folder` (the panel's filter can also keep
    // other files of the folder on screen, as registry.json was once).
    let shown: unknown[] = [];
    const taskRows = async (name: string, folder: string) => {
      const rows = await workbench.problems(`**/${folder}/${name}`, { all: true });
      shown = rows.map((row) => [row.file, row.source, row.code]);
      const base = name.split('/').pop()!;
      return rows.filter((row) => row.source === 'babelq' && row.file.startsWith(base) && row.file.slice(base.length).trimStart().startsWith(folder));
    };
    const worker = join(folder, 'worker');
    // What `babelq lint .` finds in the worker's fixture (the worker's registry.json, which lists
    // no URN, is found and used: unknown-urn). That registry.json and babelq.json findings are
    // named by absolute paths too is checked through the CLI (test/client/workspace-tasks.test.ts).
    const fixture = 'fixtures/order-created.babel.json';
    const lint = JSON.parse(spawnSync(process.execPath, [CLI, 'lint', '.', '--format', 'json'], { cwd: worker, encoding: 'utf8' }).stdout) as { file: string; diagnostics: CliDiagnostic[] }[];
    const codes = (lint.find((report) => report.file === fixture)?.diagnostics ?? []).map((d) => d.code).sort();
    assert.deepEqual(codes, ['forbidden-key', 'unknown-urn']);
    await runTask('lint worker');
    // VS Code's problem matcher now and then misses the last line a quickly ending task wrote (seen
    // in about half the runs of one day on this machine: the CLI's output was whole, the panel held
    // every line's finding but the last): the task is run once more before the wait fails.
    let last: unknown[] = [];
    const started = Date.now();
    let ranAgain = false;
    const rows = await waitUntil(`the task's problems for worker/${fixture}`, async () => {
      const now = await taskRows(fixture, 'worker');
      last = now;
      if (now.length === codes.length) return now;
      if (!ranAgain && Date.now() - started > 20_000) {
        ranAgain = true;
        await runTask('lint worker');
      }
      return undefined;
    }, 60_000).catch((error: Error) => assert.fail(`${error.message}: ${JSON.stringify(last)} against ${codes.join(', ')}; the panel showed ${JSON.stringify(shown)}`));
    assert.deepEqual(rows.map((row) => row.code).sort(), codes);
    // None on api's file of the same relative path, which is clean.
    assert.deepEqual(await taskRows(fixture, 'api'), []);
    await workbench.screenshot('multi-root-1-task-problems');

    // Listing the tasks resolves them all, the one that cannot run too: nothing is said yet.
    await workbench.clearNotifications();
    await workbench.command('Tasks: Run Task', { opensPick: true });
    await workbench.page.locator('.quick-input-list .monaco-list-row', { hasText: 'lint nowhere' }).waitFor({ timeout: 20_000 });
    await workbench.page.keyboard.press('Escape');
    await workbench.page.waitForTimeout(1000);
    assert.deepEqual((await workbench.notifications()).filter((text) => text.includes('nowhere')), []);
    await runTask('lint nowhere');
    const said = await waitUntil('the task says why it cannot run', async () => (await workbench.notifications()).find((text) => text.includes('"nowhere"')), 30_000);
    assert.match(said, /names the folder "nowhere", which is not a workspace folder on disk\. Set its "folder" to one of "api", "worker"/);
    await workbench.screenshot('multi-root-2-task-cannot-run');
  });
});

describe('Restricted Mode ("No, I don\'t trust the authors")', () => {
  let session: Session | undefined;
  const get = () => session;
  const queue = `babelq-e2e-restricted-${runId}`;
  queues.push(queue);

  before(async () => {
    session = await openSession('restricted', "No, I don't trust the authors");
  });
  after(async () => closeSession(session));

  scenario('restricted: diagnostics still appear', get, async ({ workbench, folder }) => {
    await workbench.page.locator('.statusbar-item', { hasText: 'Restricted Mode' }).waitFor({ state: 'visible', timeout: 10_000 });
    await workbench.openFile('bad/contract.babel.json');
    await waitUntil('error squiggles', async () => (await workbench.squiggles('error')) > 0, 60_000, 50);
    const cli = cliLint(folder, 'bad/contract.babel.json');
    const problems = await waitUntil('the Problems panel', async () => {
      const now = await workbench.problems('**/contract.babel.json', { all: true });
      return now.some((p) => p.code === 'invalid-urn') ? now : undefined;
    });
    const codes = new Set(problems.map((p) => p.code));
    for (const code of ['forbidden-key', 'invalid-urn', 'unsupported-schema-version']) assert.ok(codes.has(code), `Problems lists ${code}`);
    // The registry inside the workspace is used in Restricted Mode too (contract's unknown URN is carried by invalid-urn; bad/registry has its own codes).
    await waitUntil('registry diagnostics in Restricted Mode', async () => {
      const registryCodes = new Set((await workbench.problems('**/bad/registry.babel.json', { all: true })).map((p) => p.code));
      return registryCodes.has('deprecated-urn') && registryCodes.has('payload-schema');
    });
    assert.equal(cli.status, 1);
    await waitUntil('every fixture\'s errors in the status bar', async () => (await workbench.problemCounts()).errors === cliWorkspaceCounts(folder).errors);
    await workbench.screenshot('restricted-1-diagnostics');
  });

  scenario('restricted: Send Test Envelope is refused with its message; nothing reaches Redis', get, async ({ workbench, folder }) => {
    const { page } = workbench;
    await workbench.openFile('orders/order-created.babel.json');
    const text = readFileSync(join(folder, 'orders/order-created.babel.json'), 'utf8');
    const at = positionOf(text, 'orders', '"queue": ');
    await workbench.goTo(at.line, at.column);
    for (let i = 0; i < 'orders'.length; i++) await page.keyboard.press('Shift+ArrowRight');
    await page.keyboard.type(queue);
    await waitUntil('the queue edit', async () => (await workbench.visibleLines()).some((line) => line.includes(queue)));
    await workbench.command('BabelQueue: Send Test Envelope');
    const refusal = await waitUntil('the refusal', async () => (await workbench.notifications()).find((n) => n.includes('Restricted Mode')));
    assert.match(refusal, /Sending is disabled in Restricted Mode: trust this workspace to send test envelopes to a broker\./);
    await workbench.screenshot('restricted-2-send-refused');
    await new Promise((done) => setTimeout(done, 500));
    assert.equal(await redis.exists(queue), 0, 'nothing was sent');
  });
});
