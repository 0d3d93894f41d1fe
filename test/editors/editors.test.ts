/**
 * Real editors against the installed package's server: headless Neovim (vim.lsp.start_client,
 * neovim.lua) and Emacs with eglot (eglot.el) open fixtures of a copy of examples/ and go through
 * each editor's own LSP commands; what each saw is checked: the diagnostics in its store (codes and
 * positions, the same as the installed `babelq lint` reports), the whole workspace's as it lists
 * them (Neovim: vim.diagnostic.get() and setqflist(); Emacs: what flymake-show-project-diagnostics
 * lists), the fixtures nobody opened included, and registry.json and babelq.json unopened, the registry's URNs from its
 * completion (Neovim: vim.lsp.omnifunc typed in insert mode; Emacs: eglot's completion-at-point
 * function), the URN's hover as it shows it (Neovim: vim.lsp.buf.hover()'s float; Emacs: eldoc's
 * text), what Neovim, which sends no file events, shows after a save for a fixture and a
 * registry.json written outside it, what Emacs shows after a save for a schema file made outside it in a folder eglot does not
 * watch (made after it registered its watchers, or holding only a folder or only git-ignored files then), and the quick fix of the forbidden "timestamp" picked from its code-action command
 * (vim.lsp.buf.code_action through vim.ui.select; eglot-code-actions through completing-read), which offers fix all too,
 * applied to the buffer, after which the editor holds the diagnostics babelq lint gives the fixed text.
 *
 * Needs the package installed by `node scripts/check-package.mjs --out <dir>`, named by
 * BABELQ_INSTALLED_PACKAGE=<dir>/project (.ci/run does both), and `nvim` / `emacs` with eglot
 * (.ci/run installs Debian's neovim, emacs-nox and elpa-eglot). Without them each test says what
 * is missing and is skipped when BABELQ_INSTALLED_PACKAGE is unset, and fails when it is set. What each editor saw is kept in test-results/editors/.
 * The root the README's Neovim 0.7 snippet works out needs nvim only, not the package.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join, resolve } from 'node:path';
import { after, test, type TestContext } from 'node:test';

const REPO = resolve(__dirname, '../..');
const INSTALLED = process.env.BABELQ_INSTALLED_PACKAGE;
/** An editor run that takes longer than this is stopped and fails. */
const EDITOR_TIMEOUT_MS = 90_000;

interface Seen {
  readonly editor: string;
  readonly error?: string;
  readonly diagnostics?: { code: string; line: number; character: number }[];
  /** Every diagnostic the editor lists for the workspace, the fixtures nobody opened included. */
  readonly workspace?: { file: string; code: string; line: number; character: number }[];
  /** Neovim: the files vim.diagnostic.setqflist() lists, and whether an unopened fixture's buffer is loaded or listed. */
  readonly quickfixFiles?: string[];
  readonly unopenedBuffer?: { loaded: boolean; listed: boolean };
  /** Neovim: the diagnostics of a fixture written outside the editor, seen after a save. */
  readonly createdOutside?: number;
  /** Emacs: the codes of team/registry.json once the schema it names was made outside the editor, in a folder made after eglot registered its watchers, and a buffer saved. */
  readonly schemaMadeInNewFolder?: string[];
  /** Emacs: the codes of nested/deeper/invoice-paid.babel.json once a registry.json without its URN was made in nested/ (which held only a folder when eglot registered its watchers) and a buffer saved. */
  readonly registryMadeBesideFolder?: string[];
  /** Emacs: the codes of ignored-only/invoice-paid.babel.json once the schema its registry names, in a folder of git-ignored files, was rewritten outside the editor and a buffer saved. */
  readonly schemaRewrittenAmongIgnoredFiles?: string[];
  /** Neovim: the codes of team/registry.json and of its fixture after registry.json was rewritten outside the editor and a buffer saved. */
  readonly registryChangedOutside?: { registry: string[]; fixture: string[] };
  readonly completion?: string[];
  /** Neovim: the mode the completion popup was filled in ('i': typed in insert mode). */
  readonly completionMode?: string;
  readonly hover?: string;
  readonly codeActions?: string[];
  /** The buffer once the quick fix was applied, and the diagnostics the editor then held. */
  readonly fixedText?: string;
  readonly diagnosticsAfterFix?: { code: string; line: number; character: number }[];
}

const workspace = mkdtempSync(join(tmpdir(), 'babelq-editors-'));
cpSync(join(REPO, 'examples'), workspace, { recursive: true });
// A project root as editors find one (eglot asks project.el, which looks for version control).
if (spawnSync('git', ['init', '-q'], { cwd: workspace }).status !== 0) mkdirSync(join(workspace, '.git'));
// Project files with findings nobody opens: a babelq.json with a misspelt key, and a team's own
// registry.json, used only by its unopened fixture, naming a schema file that is not there.
writeFileSync(join(workspace, 'babelq.json'), '{ "severty": { "extension-key": "off" } }\n');
mkdirSync(join(workspace, 'team'));
writeFileSync(join(workspace, 'team', 'registry.json'), `${JSON.stringify({ schemas: [{ urn: 'urn:babel:billing:invoice.paid', schema: 'schemas/missing.json', owner: 'billing', status: 'active' }] }, null, 2)}\n`);
cpSync(join(REPO, 'examples', 'billing', 'invoice-paid.babel.json'), join(workspace, 'team', 'invoice-paid.babel.json'));
// A folder that holds only a folder: eglot watches the folders of the files it lists, not this one.
mkdirSync(join(workspace, 'nested', 'deeper'), { recursive: true });
cpSync(join(REPO, 'examples', 'billing', 'invoice-paid.babel.json'), join(workspace, 'nested', 'deeper', 'invoice-paid.babel.json'));
// A team whose registry names a schema in a folder of git-ignored files (a build makes them):
// project.el lists no ignored file, so eglot watches ignored-only/, not ignored-only/generated/.
// The fixture and the registry are not ignored: they are linted.
writeFileSync(join(workspace, '.gitignore'), 'generated/\n');
mkdirSync(join(workspace, 'ignored-only', 'generated'), { recursive: true });
cpSync(join(REPO, 'examples', 'schemas', 'billing-invoice-paid.json'), join(workspace, 'ignored-only', 'generated', 'invoice-paid.json'));
writeFileSync(join(workspace, 'ignored-only', 'registry.json'), `${JSON.stringify({ schemas: [{ urn: 'urn:babel:billing:invoice.paid', schema: 'generated/invoice-paid.json', owner: 'billing', status: 'active' }] }, null, 2)}\n`);
cpSync(join(REPO, 'examples', 'billing', 'invoice-paid.babel.json'), join(workspace, 'ignored-only', 'invoice-paid.babel.json'));
after(() => rmSync(workspace, { recursive: true, force: true }));

const commandExists = (name: string) => spawnSync('sh', ['-c', `command -v ${name}`]).status === 0;
const emacsHasEglot = () => spawnSync('emacs', ['--batch', '--eval', "(progn (require 'package) (package-initialize) (require 'eglot))"], { timeout: 30_000 }).status === 0;

/** What is missing for an editor run, or undefined when it can run. */
function missing(editor: 'nvim' | 'emacs'): string | undefined {
  if (!INSTALLED) return 'BABELQ_INSTALLED_PACKAGE is not set (node scripts/check-package.mjs --out <dir> installs the package; point it at <dir>/project)';
  if (!existsSync(serverBin())) return `no installed server at ${serverBin()} (run node scripts/check-package.mjs --out <dir>)`;
  if (!commandExists(editor)) return `${editor} is not installed (apt-get install ${editor === 'nvim' ? 'neovim' : 'emacs-nox elpa-eglot'})`;
  if (editor === 'emacs' && !emacsHasEglot()) return 'eglot is not available to emacs (apt-get install elpa-eglot)';
  return undefined;
}

const serverBin = () => join(INSTALLED ?? '', 'node_modules', '.bin', 'babelq-language-server');

function runEditor(name: string, command: string, args: string[]): Seen {
  const out = join(workspace, `${name}-seen.json`);
  const run = spawnSync(command, args, {
    cwd: workspace,
    env: { ...process.env, BABELQ_SERVER: serverBin(), BABELQ_WORKSPACE: workspace, BABELQ_OUT: out },
    encoding: 'utf8',
    timeout: EDITOR_TIMEOUT_MS,
  });
  assert.ok(run.signal === null, `${name} was stopped after ${EDITOR_TIMEOUT_MS} ms (${run.signal})\n${run.stderr}`);
  assert.ok(existsSync(out), `${name} wrote nothing (exit ${run.status})\n${run.stdout}\n${run.stderr}`);
  const seen = JSON.parse(readFileSync(out, 'utf8')) as Seen;
  mkdirSync(join(REPO, 'test-results', 'editors'), { recursive: true });
  writeFileSync(join(REPO, 'test-results', 'editors', `${name}.json`), JSON.stringify(seen, null, 2) + '\n');
  return seen;
}

/** The installed CLI's findings for a fixture (or for `text` as that fixture), as code@line:character (0-based), sorted. */
function lintFindings(file: string, text?: string): string[] {
  const args = text === undefined ? ['lint', file, '--format', 'json'] : ['lint', '--stdin', '--stdin-filename', file, '--format', 'json'];
  const lint = spawnSync(join(INSTALLED!, 'node_modules', '.bin', 'babelq'), args, { cwd: workspace, encoding: 'utf8', timeout: 30_000, input: text });
  assert.ok(lint.status === 0 || lint.status === 1, `babelq ${args.join(' ')}: exit ${lint.status}\n${lint.stderr}`);
  const [report] = JSON.parse(lint.stdout) as { diagnostics: { code: string; range: { start: { line: number; character: number } } }[] }[];
  return report.diagnostics.map((d) => `${d.code}@${d.range.start.line}:${d.range.start.character}`).sort();
}

/** The installed CLI's findings for every file of the workspace (fixtures, registry.json, babelq.json), as file code@line:character (0-based), sorted. */
function lintWorkspace(): string[] {
  const lint = spawnSync(join(INSTALLED!, 'node_modules', '.bin', 'babelq'), ['lint', '.', '--format', 'json'], { cwd: workspace, encoding: 'utf8', timeout: 30_000 });
  assert.ok(lint.status === 0 || lint.status === 1, `babelq lint .: exit ${lint.status}\n${lint.stderr}`);
  const reports = JSON.parse(lint.stdout) as { file: string; diagnostics: { code: string; range: { start: { line: number; character: number } } }[] }[];
  return reports.flatMap((report) => report.diagnostics.map((d) => `${report.file} ${d.code}@${d.range.start.line}:${d.range.start.character}`)).sort();
}

const findings = (list: readonly { code: string; line: number; character: number }[] | undefined) => (list ?? []).map((d) => `${d.code}@${d.line}:${d.character}`).sort();

function assertSeen(seen: Seen): void {
  assert.equal(seen.error, undefined, `${seen.editor} reported: ${seen.error}`);
  const diagnostics = findings(seen.diagnostics);
  assert.ok(diagnostics.includes('forbidden-key@4:2'), `${seen.editor} shows "timestamp" as forbidden: ${diagnostics.join(', ')}`);
  assert.deepEqual(diagnostics, lintFindings('bad/contract.babel.json'), `${seen.editor} shows the diagnostics babelq lint reports`);
  // The fixtures nobody opened are listed too, as babelq lint lists them.
  const listed = (seen.workspace ?? []).map((d) => `${d.file} ${d.code}@${d.line}:${d.character}`).sort();
  assert.ok(listed.some((finding) => finding.startsWith('bad/data.babel.json ')), `${seen.editor} lists the unopened bad/data.babel.json: ${listed.join(', ')}`);
  assert.ok(listed.includes('team/registry.json registry-error@4:16'), `${seen.editor} lists the registry.json only unopened fixtures use: ${listed.join(', ')}`);
  assert.ok(listed.includes('babelq.json config-error@0:2'), `${seen.editor} lists the unopened babelq.json: ${listed.join(', ')}`);
  assert.deepEqual(listed, lintWorkspace(), `${seen.editor} lists the workspace's diagnostics babelq lint reports`);
  if (seen.editor.startsWith('neovim')) assert.ok((seen.createdOutside ?? 0) > 0, 'a fixture written outside Neovim is listed after the next save');
  if (seen.editor.startsWith('neovim')) {
    assert.deepEqual(seen.registryChangedOutside?.registry, [], 'a registry.json mended outside Neovim is cleared after the next save');
    assert.deepEqual(seen.registryChangedOutside?.fixture, ['unknown-urn'], 'its unopened fixture is checked against it after the next save');
  }
  if (seen.editor.startsWith('emacs')) assert.deepEqual(seen.schemaMadeInNewFolder, [], 'a schema made outside Emacs in a folder eglot does not watch is read after the next save');
  if (seen.editor.startsWith('emacs')) assert.deepEqual(seen.registryMadeBesideFolder, ['unknown-urn'], 'a registry.json made outside Emacs in a folder that held only a folder is found after the next save');
  if (seen.editor.startsWith('emacs')) assert.deepEqual(seen.schemaRewrittenAmongIgnoredFiles, ['payload-schema'], 'a schema rewritten outside Emacs in a folder of git-ignored files is read after the next save');
  if (seen.quickfixFiles) assert.deepEqual([...seen.quickfixFiles].sort(), [...new Set(listed.map((finding) => finding.split(' ')[0]))].sort(), 'vim.diagnostic.setqflist() lists every file with findings');
  const urns = (JSON.parse(readFileSync(join(workspace, 'registry.json'), 'utf8')) as { schemas: { urn: string }[] }).schemas.map((entry) => entry.urn);
  assert.deepEqual([...(seen.completion ?? [])].sort(), [...urns].sort(), `${seen.editor} offers the registry's URNs in its completion`);
  if (seen.editor.startsWith('neovim')) assert.equal(seen.completionMode, 'i', 'the completion popup was filled in insert mode');
  assert.match(seen.hover ?? '', /urn:babel:orders:created[\s\S]*owner: orders · status: active/, `${seen.editor} shows the URN's registry entry on hover`);
  assert.ok(seen.codeActions?.includes('Remove forbidden key "timestamp"'), `${seen.editor} offers to remove the forbidden key: ${JSON.stringify(seen.codeActions)}`);
  assert.ok(seen.codeActions?.some((title) => /^Fix all safe BabelQueue problems \(\d+\)$/.test(title)), `${seen.editor} offers fix all in its code action menu: ${JSON.stringify(seen.codeActions)}`);
  // The fix, applied by the editor: the same document without "timestamp".
  const original = JSON.parse(readFileSync(join(workspace, 'bad/contract.babel.json'), 'utf8')) as Record<string, unknown>;
  const fixed = JSON.parse(seen.fixedText ?? 'null') as Record<string, unknown> | null;
  assert.ok(fixed, `${seen.editor} applied the fix to the buffer`);
  const { timestamp: _removed, ...rest } = original;
  assert.deepEqual(fixed, rest, `${seen.editor}'s buffer is the fixture without "timestamp"`);
  // …and the editor then holds what babelq lint reports for the fixed text.
  const after = findings(seen.diagnosticsAfterFix);
  assert.ok(!after.includes('forbidden-key@4:2'), `${seen.editor} no longer shows "timestamp": ${after.join(', ')}`);
  assert.deepEqual(after, lintFindings('bad/contract.babel.json', `${seen.fixedText}\n`), `${seen.editor} shows the diagnostics babelq lint reports for the fixed buffer`);
}

function editorTest(t: TestContext, editor: 'nvim' | 'emacs', run: () => Seen): void {
  const absent = missing(editor);
  // Without an installed package this is a developer's `npm test`: say so and skip. With one
  // (.ci/run), a missing editor is a failure, not a quiet skip.
  if (absent && !INSTALLED) {
    t.diagnostic(`not run: ${absent}`);
    t.skip(absent);
    return;
  }
  if (absent) assert.fail(`BABELQ_INSTALLED_PACKAGE is set but the ${editor} run cannot start: ${absent}`);
  const seen = run();
  t.diagnostic(`${seen.editor}: ${seen.diagnostics?.length} diagnostics, ${seen.completion?.length} completions (${seen.completion?.join(', ')}), hover "${seen.hover?.split('\n').filter(Boolean).slice(0, 2).join(' / ')}", code actions ${JSON.stringify(seen.codeActions)} applied, ${seen.diagnosticsAfterFix?.length} diagnostics after the fix`);
  assertSeen(seen);
}

test('Neovim (vim.lsp.start_client) shows the installed server\'s diagnostics; omnifunc completes the URNs in insert mode; hover opens its float; code_action applies the fix', (t) => {
  editorTest(t, 'nvim', () => runEditor('neovim', 'nvim', ['--headless', '--clean', '-c', `luafile ${join(__dirname, 'neovim.lua')}`]));
});

test('Emacs (eglot) shows the installed server\'s diagnostics; completion-at-point completes the URNs; eldoc shows the hover; eglot-code-actions applies the fix; a schema made in a folder eglot does not watch is read after a save', (t) => {
  editorTest(t, 'emacs', () => runEditor('emacs', 'emacs', ['--batch', '-l', join(__dirname, 'eglot.el')]));
});

// README.md's Neovim 0.7 set-up, as a user copies it into init.lua: the language server alone
// does not make <C-x><C-o> complete (Neovim 0.7 sets no 'omnifunc' for a client it starts).
test('README\'s Neovim 0.7 snippet, copied as it is into init.lua, makes <C-x><C-o> complete the registry\'s URNs, with Neovim started in a folder below the repository\'s top', (t) => {
  const absent = missing('nvim');
  if (absent && !INSTALLED) {
    t.diagnostic(`not run: ${absent}`);
    t.skip(absent);
    return;
  }
  if (absent) assert.fail(`BABELQ_INSTALLED_PACKAGE is set but the nvim run cannot start: ${absent}`);
  const readme = readFileSync(join(REPO, 'README.md'), 'utf8');
  const snippet = /\*\*Neovim 0\.7\*\* \(tested\), in `init\.lua`:\n\n```lua\n([\s\S]*?)\n```/.exec(readme)?.[1];
  assert.ok(snippet, 'README.md has the Neovim 0.7 snippet');
  const init = join(workspace, 'readme-init.lua');
  writeFileSync(init, `${snippet}\n`);
  const out = join(workspace, 'neovim-readme-seen.json');
  const run = spawnSync('nvim', ['--headless', '-u', init, '-i', 'NONE', '-c', `luafile ${join(__dirname, 'neovim-readme.lua')}`], {
    // `cd orders && nvim order-created.babel.json`: the registry.json at the repository's top, which
    // babelq lint run in orders/ uses, must be the editor's too.
    cwd: join(workspace, 'orders'),
    // The snippet starts `babelq-language-server` from PATH, as after `npm install --global`.
    env: { ...process.env, PATH: `${join(INSTALLED!, 'node_modules', '.bin')}${delimiter}${process.env.PATH}`, BABELQ_WORKSPACE: workspace, BABELQ_OUT: out },
    encoding: 'utf8',
    timeout: EDITOR_TIMEOUT_MS,
  });
  assert.ok(existsSync(out), `nvim wrote nothing (exit ${run.status}, signal ${run.signal})\n${run.stdout}\n${run.stderr}`);
  const seen = JSON.parse(readFileSync(out, 'utf8')) as { error?: string; attached: boolean; omnifunc: string; completion: string[]; errmsg: string };
  assert.equal(seen.error, undefined);
  assert.ok(seen.attached, 'the snippet attaches the server to the fixture');
  assert.equal(seen.errmsg, '', 'no error when <C-x><C-o> is typed');
  assert.equal(seen.omnifunc, 'v:lua.vim.lsp.omnifunc');
  const urns = (JSON.parse(readFileSync(join(workspace, 'registry.json'), 'utf8')) as { schemas: { urn: string }[] }).schemas.map((entry) => entry.urn);
  assert.deepEqual([...seen.completion].sort(), [...urns].sort(), 'the popup offers the registry\'s URNs');
});

// The root README.md's Neovim 0.7 snippet names, with the language server left out (only what the
// snippet works out is looked at, so only nvim is needed): a folder whose name holds a space or a
// comma ("Client Projects", "orders, 2024") is one folder, not a list of them as Vim reads a 'path'.
test('README\'s Neovim 0.7 snippet names the top of the Git work tree as the root from a folder whose path holds a space and a comma', (t) => {
  if (!commandExists('nvim')) {
    if (INSTALLED) assert.fail('BABELQ_INSTALLED_PACKAGE is set but nvim is not installed');
    t.diagnostic('not run: nvim is not installed');
    t.skip('nvim is not installed');
    return;
  }
  const readme = readFileSync(join(REPO, 'README.md'), 'utf8');
  const snippet = /\*\*Neovim 0\.7\*\* \(tested\), in `init\.lua`:\n\n```lua\n([\s\S]*?)\n```/.exec(readme)?.[1];
  assert.ok(snippet, 'README.md has the Neovim 0.7 snippet');
  const place = mkdtempSync(join(tmpdir(), 'babelq-nvim-root-'));
  try {
    const top = join(place, 'Client Projects, 2024', 'shop');
    mkdirSync(join(top, 'orders'), { recursive: true });
    assert.equal(spawnSync('git', ['init', '-q'], { cwd: top }).status, 0);
    const fixture = join(top, 'orders', 'order-created.babel.json');
    writeFileSync(fixture, '{}\n');
    const init = join(place, 'init.lua');
    writeFileSync(init, `${snippet}\n`);
    const out = join(place, 'root.txt');
    // The client is not started: what the snippet would start it with is written down instead.
    const record = "lua vim.lsp.start_client = function(config) local file = assert(io.open(os.getenv('BABELQ_OUT'), 'w')); file:write(config.root_dir); file:close(); return 1 end; vim.lsp.buf_attach_client = function() end";
    const run = spawnSync('nvim', ['--headless', '-u', init, '-i', 'NONE', '-c', record, '-c', "lua vim.cmd('edit ' .. vim.fn.fnameescape(os.getenv('BABELQ_FIXTURE')))", '-c', 'qall!'], {
      cwd: join(top, 'orders'),
      env: { ...process.env, BABELQ_OUT: out, BABELQ_FIXTURE: fixture },
      encoding: 'utf8',
      timeout: EDITOR_TIMEOUT_MS,
    });
    assert.ok(existsSync(out), `nvim wrote nothing (exit ${run.status}, signal ${run.signal})\n${run.stdout}\n${run.stderr}`);
    assert.equal(readFileSync(out, 'utf8'), top);
  } finally {
    rmSync(place, { recursive: true, force: true });
  }
});
