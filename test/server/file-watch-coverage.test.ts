/**
 * server/file-watch-coverage.ts on its own: which files the look at the disk leaves to a client's
 * file events (those in folders that were there when it registered its watchers).
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { FileWatchCoverage } from '../../server/file-watch-coverage';
import { MAX_WILDCARD_LINES } from '../../workspace/gitignore';
import { scratchFolder } from '../support/scratch-folder';

const pause = (ms: number) => new Promise((done) => setTimeout(done, ms));

test('before the registration is taken nothing is left to the client; after it, files in the folders there then, inside the workspace folders', async () => {
  const folder = scratchFolder('babelq-coverage-');
  folder.write('README.md', 'orders');
  folder.write('schemas/orders.json', '{}');
  folder.write('../outside-of-it.json', '{}');
  const coverage = new FileWatchCoverage(() => [folder.base]);
  assert.equal(coverage.forOneLook()(folder.at('schemas/orders.json')), false, 'not registered yet');
  await pause(50);
  coverage.registered(Date.now());
  const look = coverage.forOneLook();
  assert.equal(look(folder.at('schemas/orders.json')), true);
  assert.equal(look(folder.at('registry.json')), true, 'a file not there yet, in a folder that was');
  assert.equal(look(folder.at('../outside-of-it.json')), false, 'outside every workspace folder');
  assert.equal(look(folder.at('contracts/shipped.json')), false, 'a folder not there');
});

test('a folder made after the registration is looked at, by its birth time or because a look found it missing; so is one deleted and made again', async () => {
  const folder = scratchFolder('babelq-coverage-later-');
  folder.write('schemas/orders.json', '{}');
  const coverage = new FileWatchCoverage(() => [folder.base]);
  await pause(50);
  coverage.registered(Date.now());
  // Seen missing by one look, then made: still made later (whatever the file system says of births).
  assert.equal(coverage.forOneLook()(folder.at('contracts/shipped.json')), false);
  mkdirSync(folder.at('contracts'));
  assert.equal(coverage.forOneLook()(folder.at('contracts/shipped.json')), false);
  assert.equal(coverage.forOneLook()(folder.at('schemas/orders.json')), true);
  // Deleted (a look at the stamps finds its schema not there, and says so) and made again.
  rmSync(folder.at('schemas'), { recursive: true });
  coverage.noneThere(folder.at('schemas/orders.json'));
  folder.write('schemas/orders.json', '{}');
  assert.equal(coverage.forOneLook()(folder.at('schemas/orders.json')), false);
});

test('a folder a file was found not to be in, made before the registration is taken, is still looked at (it may have been made after eglot listed the folders it watches)', async () => {
  const folder = scratchFolder('babelq-coverage-none-there-');
  folder.write('registry.json', '{}');
  const coverage = new FileWatchCoverage(() => [folder.base]);
  coverage.noneThere(folder.at('contracts/shipped.json'));
  coverage.noneThere(folder.at('babelq.json'));
  folder.write('contracts/shipped.json', '{}');
  await pause(50);
  coverage.registered(Date.now());
  const look = coverage.forOneLook();
  assert.equal(look(folder.at('contracts/shipped.json')), false, 'its folder was seen missing');
  assert.equal(look(folder.at('babelq.json')), true, 'a file not there in a folder that was');
});

test('a folder that held only folders, or no file at all, when the watchers were registered is looked at (eglot watches the folders of the files it lists); one that held a file is left to the client', async () => {
  const folder = scratchFolder('babelq-coverage-only-folders-');
  folder.write('fixtures/orders/created.babel.json', '{}');
  folder.write('README.md', 'orders');
  mkdirSync(folder.at('empty'));
  folder.write('contracts/shipped/README.md', 'shipped');
  folder.write('elsewhere/registry.json', '{}');
  const coverage = new FileWatchCoverage(() => [folder.base]);
  await pause(50);
  coverage.registered(Date.now());
  // A file written there since does not make it one that held a file then, nor one moved in (it keeps its own times).
  folder.write('empty/registry.json', '{}');
  renameSync(folder.at('elsewhere/registry.json'), folder.at('contracts/registry.json'));
  const look = coverage.forOneLook();
  assert.equal(look(folder.at('contracts/registry.json')), false, 'contracts/ held only a folder, a file moved in since');
  assert.equal(look(folder.at('fixtures/registry.json')), false, 'fixtures/ held only a folder');
  assert.equal(look(folder.at('empty/registry.json')), false, 'empty/ held nothing');
  assert.equal(look(folder.at('fixtures/orders/registry.json')), true, 'fixtures/orders/ held a fixture');
  assert.equal(look(folder.at('registry.json')), true, 'the workspace folder held README.md');
});

test('a folder moved into the workspace since the watchers were registered is looked at, and so are the folders inside it (each keeps its birth and modification times; eglot watches none of them)', async () => {
  const folder = scratchFolder('babelq-coverage-moved-in-');
  folder.write('README.md', 'orders');
  folder.write('kept/registry.json', '{}');
  // Made (and filled) elsewhere before the registration, outside the workspace folder.
  const elsewhere = mkdtempSync(join(tmpdir(), 'babelq-coverage-elsewhere-'));
  try {
    mkdirSync(join(elsewhere, 'contracts', 'shipped'), { recursive: true });
    for (const file of ['contracts/registry.json', 'contracts/shipped/registry.json']) writeFileSync(join(elsewhere, file), '{}');
    const coverage = new FileWatchCoverage(() => [folder.base]);
    await pause(50);
    coverage.registered(Date.now());
    renameSync(join(elsewhere, 'contracts'), folder.at('contracts'));
    const look = coverage.forOneLook();
    assert.equal(look(folder.at('contracts/registry.json')), false, 'contracts/ was moved in');
    assert.equal(look(folder.at('contracts/shipped/registry.json')), false, 'contracts/shipped/ came with it');
    assert.equal(look(folder.at('kept/registry.json')), true, 'kept/ is as it was');
  } finally {
    rmSync(elsewhere, { recursive: true, force: true });
  }
});

test('a folder reached through a symbolic link is looked at: neither VS Code nor eglot watches through one', { skip: process.platform === 'win32' && 'needs symbolic links' }, async () => {
  const folder = scratchFolder('babelq-coverage-linked-');
  folder.write('README.md', 'orders');
  folder.write('real/registry.json', '{}');
  folder.write('real/inner/schema.json', '{}');
  symlinkSync(folder.at('real'), folder.at('linked'));
  const coverage = new FileWatchCoverage(() => [folder.base]);
  await pause(50);
  coverage.registered(Date.now());
  const look = coverage.forOneLook();
  assert.equal(look(folder.at('linked/registry.json')), false, 'linked/ is a link');
  assert.equal(look(folder.at('linked/inner/schema.json')), false, 'linked/inner/ is reached through one');
  assert.equal(look(folder.at('real/registry.json')), true, 'real/ is watched as it is');
  // The workspace folder named with a separator at its end, as eglot names its root: the same.
  const named = new FileWatchCoverage(() => [`${folder.base}/`]);
  named.registered(Date.now());
  assert.equal(named.forOneLook()(folder.at('real/registry.json')), true, 'real/, from a folder named with a separator at its end');
  assert.equal(named.forOneLook()(folder.at('linked/registry.json')), false);
});

test('in a Git work tree, a folder that held only git-ignored files, or lies in an ignored folder, is looked at (eglot lists no ignored file, so it watches no such folder); one that held a file git does not ignore is left to the client', async () => {
  const folder = scratchFolder('babelq-coverage-ignored-');
  mkdirSync(folder.at('.git'));
  folder.write('.gitignore', 'generated/\n*.log\n');
  folder.write('team/registry.json', '{}');
  folder.write('team/generated/invoice-paid.json', '{}');
  folder.write('team/generated/deeper/invoice-paid.json', '{}');
  folder.write('logs/run.log', 'ran');
  folder.write('mixed/run.log', 'ran');
  folder.write('mixed/schema.json', '{}');
  folder.write('kept/.gitignore', '!keep.log\n');
  folder.write('kept/keep.log', 'kept');
  // A .gitignore too costly to apply: what git makes of it is not known here.
  folder.write('refused/.gitignore', Array.from({ length: MAX_WILDCARD_LINES + 1 }, (_, index) => `*${index}*.json`).join('\n'));
  folder.write('refused/schema.json', '{}');
  const coverage = new FileWatchCoverage(() => [folder.base]);
  await pause(50);
  coverage.registered(Date.now());
  const look = coverage.forOneLook();
  assert.equal(look(folder.at('team/generated/invoice-paid.json')), false, 'team/generated/ is ignored, and all it held with it');
  assert.equal(look(folder.at('team/generated/deeper/invoice-paid.json')), false, 'team/generated/deeper/ lies in an ignored folder');
  assert.equal(look(folder.at('logs/registry.json')), false, 'logs/ held only an ignored file');
  assert.equal(look(folder.at('mixed/registry.json')), true, 'mixed/ held schema.json, which git does not ignore');
  assert.equal(look(folder.at('kept/registry.json')), true, 'kept/ held keep.log, which its own .gitignore includes again');
  assert.equal(look(folder.at('refused/registry.json')), false, 'refused/ has a .gitignore that is not applied');
  assert.equal(look(folder.at('team/registry.json')), true, 'team/ held registry.json');
  assert.equal(look(folder.at('registry.json')), true, 'the workspace folder held .gitignore');
});

test("a linked worktree whose exclude file (its main checkout's, outside the workspace folder) is too costly to apply: what git ignores in the worktree is not known, and its folders are looked at", async () => {
  const folder = scratchFolder('babelq-coverage-worktree-exclude-');
  // As `git worktree add ../wt` lays it out: the worktree's .git file names its git directory, whose commondir names the main checkout's .git.
  folder.write('main/.git/worktrees/wt/commondir', '../..\n');
  folder.write('main/.git/info/exclude', Array.from({ length: MAX_WILDCARD_LINES + 1 }, (_, index) => `*${index}*.log`).join('\n'));
  folder.write('wt/.git', 'gitdir: ../main/.git/worktrees/wt\n');
  folder.write('wt/logs/run.log', 'ran');
  const coverage = new FileWatchCoverage(() => [folder.at('wt')]);
  await pause(50);
  coverage.registered(Date.now());
  const look = coverage.forOneLook();
  assert.equal(look(folder.at('wt/logs/registry.json')), false, 'the exclude file not applied may ignore run.log: eglot may not watch logs/');
});

test('outside a Git work tree nothing is ignored: a folder of files a .gitignore lists counts as one that held a file', async () => {
  const folder = scratchFolder('babelq-coverage-no-work-tree-');
  folder.write('.gitignore', 'generated/\n*.log\n');
  folder.write('generated/invoice-paid.json', '{}');
  folder.write('logs/run.log', 'ran');
  const coverage = new FileWatchCoverage(() => [folder.base]);
  await pause(50);
  coverage.registered(Date.now());
  const look = coverage.forOneLook();
  assert.equal(look(folder.at('generated/invoice-paid.json')), true);
  assert.equal(look(folder.at('logs/registry.json')), true);
});

test('a work tree inside another (a home folder kept in Git, whose .gitignore ignores everything) is judged by its own .gitignore files only, as git lists its files', async () => {
  const home = scratchFolder('babelq-coverage-nested-work-tree-');
  mkdirSync(home.at('.git'));
  home.write('.gitignore', '*\n');
  mkdirSync(home.at('project/.git'), { recursive: true });
  home.write('project/.gitignore', '*.log\n');
  home.write('project/schemas/order.json', '{}');
  home.write('project/logs/run.log', 'ran');
  const coverage = new FileWatchCoverage(() => [home.at('project')]);
  await pause(50);
  coverage.registered(Date.now());
  const look = coverage.forOneLook();
  assert.equal(look(home.at('project/schemas/order.json')), true, 'git in project/ lists schemas/order.json: eglot watches schemas/');
  assert.equal(look(home.at('project/registry.json')), true, 'project/ held .gitignore');
  assert.equal(look(home.at('project/logs/registry.json')), false, 'logs/ held only an ignored file');
});

test('what a folder held at the registration is not kept once it is deleted: folders coming and going leave as many entries as the folders there now, and the answers for those stay', async () => {
  const folder = scratchFolder('babelq-coverage-pruned-');
  const FOLDERS = 400;
  for (let n = 0; n < FOLDERS; n++) folder.write(`team${n}/registry.json`, '{}');
  folder.write('kept/schemas/orders.json', '{}');
  const coverage = new FileWatchCoverage(() => [folder.base]);
  await pause(50);
  coverage.registered(Date.now());
  const first = coverage.forOneLook();
  for (let n = 0; n < FOLDERS; n++) assert.equal(first(folder.at(`team${n}/registry.json`)), true);
  assert.equal(first(folder.at('kept/schemas/orders.json')), true);
  assert.equal(coverage.heldAFileSize, FOLDERS + 1);
  // Branches switched: the folders are deleted in turns (told by their events), others made and looked at.
  for (let round = 0; round < 10; round++) {
    const gone: string[] = [];
    for (let n = round * 40; n < (round + 1) * 40; n++) {
      rmSync(folder.at(`team${n}`), { recursive: true });
      gone.push(folder.at(`team${n}`));
    }
    coverage.foldersDeleted(gone);
    for (let n = 0; n < 40; n++) folder.write(`build${round}/out${n}/registry.json`, '{}');
    const look = coverage.forOneLook();
    for (let n = 0; n < 40; n++) assert.equal(look(folder.at(`build${round}/out${n}/registry.json`)), false, 'made later');
    rmSync(folder.at(`build${round}`), { recursive: true });
    coverage.foldersDeleted([folder.at(`build${round}`)]);
  }
  console.log(`entries kept for what folders held at the registration: ${coverage.heldAFileSize} (${FOLDERS + 1} folders asked about, ${FOLDERS} of them deleted)`);
  assert.equal(coverage.heldAFileSize, 1);
  assert.equal(coverage.forOneLook()(folder.at('kept/schemas/orders.json')), true, 'the folder still there is left to the client as before');
  // Made again where a deleted one was: made later, looked at.
  folder.write('team3/registry.json', '{}');
  assert.equal(coverage.forOneLook()(folder.at('team3/registry.json')), false);
});

test('a folder deleted with no event told of it is forgotten when a look or a file found not there finds it missing', async () => {
  const folder = scratchFolder('babelq-coverage-pruned-untold-');
  folder.write('a/registry.json', '{}');
  folder.write('b/registry.json', '{}');
  folder.write('c/registry.json', '{}');
  const coverage = new FileWatchCoverage(() => [folder.base]);
  await pause(50);
  coverage.registered(Date.now());
  const look = coverage.forOneLook();
  for (const name of ['a', 'b', 'c']) assert.equal(look(folder.at(`${name}/registry.json`)), true);
  assert.equal(coverage.heldAFileSize, 3);
  rmSync(folder.at('a'), { recursive: true });
  rmSync(folder.at('b'), { recursive: true });
  assert.equal(coverage.forOneLook()(folder.at('a/registry.json')), false);
  coverage.noneThere(folder.at('b/registry.json'));
  assert.equal(coverage.heldAFileSize, 1);
  assert.equal(coverage.forOneLook()(folder.at('c/registry.json')), true);
});
