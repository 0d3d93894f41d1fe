/**
 * The `babelq` task provider (client/tasks.ts) with tasks of each scope: a folder's tasks.json
 * (scope: that folder), and a `.code-workspace` file's tasks (scope: TaskScope.Workspace), which
 * run in the folder their `folder` names, else in the first folder on disk. A name that is no
 * folder of the workspace is said when the task is run (not each time VS Code resolves it), and
 * nothing runs. Driven through the stand-in extension host, with stand-ins for the task API.
 */
import assert from 'node:assert/strict';
import { before, beforeEach, describe, test } from 'node:test';
import { spawnSync } from 'node:child_process';
import { isAbsolute, join } from 'node:path';
import { installFakeExtensionHost } from '../support/fake-extension-host';
import { CLI_PATH, makeTree, removeTree } from '../cli/helpers';

const host = installFakeExtensionHost();
const fake = host.vscode;
const TaskScope = { Global: 1, Workspace: 2 };

class ProcessExecution {
  constructor(readonly process: string, readonly args: string[], readonly options: { cwd?: string; env?: Record<string, string> }) {}
}
class CustomExecution {
  constructor(readonly callback: () => Promise<Pty>) {}
}
type Pty = { onDidWrite(listener: (text: string) => void): unknown; onDidClose(listener: (code: number) => void): unknown; open(): void };
class Task {
  group: unknown;
  presentationOptions: unknown;
  constructor(readonly definition: unknown, readonly scope: unknown, readonly name: string, readonly source: string, readonly execution: ProcessExecution & CustomExecution, readonly problemMatchers: string[]) {}
}
let provider: { provideTasks(): Task[]; resolveTask(task: { definition: unknown; scope: unknown; name: string }): Task | undefined };
let tasks: typeof import('../../client/tasks');
const folder = (name: string, index: number, scheme = 'file') => ({ name, index, uri: host.uri(`${scheme}:///w/${name}`) });

before(async () => {
  Object.assign(host.api, { ProcessExecution, CustomExecution, Task, TaskScope, TaskGroup: { Test: 'test' }, TaskRevealKind: { Silent: 2 } });
  host.api.tasks = { registerTaskProvider: (_type: string, registered: typeof provider) => ((provider = registered), { dispose() {} }) };
  tasks = await import('../../client/tasks');
});

beforeEach(() => {
  fake.reset();
  host.api.workspace.workspaceFolders = [folder('remote', 0, 'vscode-vfs'), folder('api', 1), folder('worker', 2)];
  tasks.registerLintTasks(host.context());
});

const said = () => fake.events.map((event) => `${event.kind}: ${event.text}`);

describe('a babelq task in a .code-workspace file (scope: the workspace)', () => {
  test('without a folder: it runs in the first folder on disk', () => {
    const task = provider.resolveTask({ definition: { type: 'babelq', paths: ['fixtures'] }, scope: TaskScope.Workspace, name: 'lint fixtures' });
    assert.ok(task, said().join('\n'));
    assert.equal(task.execution.options.cwd, '/w/api');
    // --absolute-paths: VS Code resolves the problem matcher's ${workspaceFolder} for a workspace task as the first folder.
    assert.deepEqual(task.execution.args.slice(1), ['lint', '--format', 'compact', '--absolute-paths', '--', 'fixtures']);
    assert.equal((task.scope as { name: string }).name, 'api');
    assert.deepEqual(task.definition, { type: 'babelq', paths: ['fixtures'] });
  });

  test('its folder names the folder it runs in; the name is not passed to the linter; the output names files by absolute paths', () => {
    const task = provider.resolveTask({ definition: { type: 'babelq', folder: 'worker' }, scope: TaskScope.Workspace, name: 'lint worker' });
    assert.ok(task, said().join('\n'));
    assert.equal(task.execution.options.cwd, '/w/worker');
    assert.deepEqual(task.execution.args.slice(1), ['lint', '--format', 'compact', '--absolute-paths', '--', '.']);
  });

  test('run in a folder that is not the first: every file its output names is named by its absolute path, babelq.json and registry.json as well as the fixtures', () => {
    const root = makeTree({
      'api/.keep': '',
      'worker/babelq.json': '{ "severity": { "no-such-code": "off" } }\n',
      'worker/registry.json': '{ "schemas": [ { "urn": 5 } ] }\n',
      'worker/fixtures/a.babel.json': '{ "job": 1 }\n',
    });
    try {
      host.api.workspace.workspaceFolders = [{ name: 'api', index: 0, uri: host.uri(`file://${join(root, 'api')}`) }, { name: 'worker', index: 1, uri: host.uri(`file://${join(root, 'worker')}`) }];
      const task = provider.resolveTask({ definition: { type: 'babelq', folder: 'worker' }, scope: TaskScope.Workspace, name: 'lint worker' });
      assert.ok(task, said().join('\n'));
      const run = spawnSync(process.execPath, [CLI_PATH, ...task.execution.args.slice(1)], { cwd: task.execution.options.cwd, encoding: 'utf8' });
      const files = new Set(run.stdout.split('\n').filter((line) => line !== '').map((line) => /^(.+?):\d+:\d+-\d+:\d+: /.exec(line)?.[1] ?? line));
      assert.ok(files.size >= 3, run.stdout + run.stderr);
      // The problem matcher resolves a relative path against the first folder ('api'): each must be absolute.
      for (const file of files) assert.ok(isAbsolute(file), `${file} is not absolute:\n${run.stdout}`);
      assert.ok(files.has(join(root, 'worker', 'babelq.json')) && files.has(join(root, 'worker', 'registry.json')), [...files].join('\n'));
    } finally {
      removeTree(root);
    }
  });

  /** Runs a task that cannot run: what its terminal shows, and the exit code it ends with. */
  const run = async (task: Task): Promise<{ written: string; code: number | undefined }> => {
    assert.ok(task.execution instanceof CustomExecution, 'a task that cannot run runs no process');
    const pty = await task.execution.callback();
    let written = '';
    let code: number | undefined;
    pty.onDidWrite((text) => (written += text));
    pty.onDidClose((exit) => (code = exit));
    pty.open();
    return { written, code };
  };

  test('a folder that is not one of the workspace (or not on disk): said when the task runs, with the folders there are, not each time VS Code resolves it; nothing runs', async () => {
    for (const name of ['wrokre', 'remote']) {
      fake.events.length = 0;
      const resolve = () => provider.resolveTask({ definition: { type: 'babelq', folder: name }, scope: TaskScope.Workspace, name: 'lint' })!;
      // VS Code resolves a task each time it lists the tasks: nothing is said then.
      resolve();
      const task = resolve();
      assert.deepEqual(said(), []);
      assert.equal(task.scope, TaskScope.Workspace);
      const { written, code } = await run(task);
      assert.equal(code, 1);
      assert.match(written, new RegExp(`"${name}".*"api", "worker"`));
      assert.equal(fake.events.length, 1, said().join('\n'));
      assert.equal(fake.events[0]!.kind, 'error');
      assert.equal(`${fake.events[0]!.text}\r\n`, written);
    }
  });

  test('a folder and a label of the checkout\'s own are written to the terminal and the error on one line: no escape sequence of theirs reaches the terminal', async () => {
    const task = provider.resolveTask({ definition: { type: 'babelq', folder: `x\u001b]0;owned\u0007\n\u202e${'f'.repeat(10_000)}` }, scope: TaskScope.Workspace, name: 'lint\u001b[2J' })!;
    const { written } = await run(task);
    assert.doesNotMatch(written.replace(/\r\n$/, ''), /[\u0000-\u001f\u202e]/);
    assert.ok(written.length < 1000, `${written.length} characters`);
    assert.match(written, /x\\u001b\]0;owned\\u0007\\n\\u202e/);
  });

  test('no folder on disk at all: said when the task runs; nothing runs', async () => {
    host.api.workspace.workspaceFolders = [folder('remote', 0, 'vscode-vfs')];
    const task = provider.resolveTask({ definition: { type: 'babelq' }, scope: TaskScope.Workspace, name: 'lint' })!;
    assert.deepEqual(said(), []);
    const { written, code } = await run(task);
    assert.equal(code, 1);
    assert.match(written, /folder on disk/);
    assert.equal(fake.events.length, 1, said().join('\n'));
  });
});

describe('a babelq task of a folder\'s tasks.json', () => {
  test('runs in its folder, as before', () => {
    const worker = host.api.workspace.workspaceFolders[2];
    const task = provider.resolveTask({ definition: { type: 'babelq' }, scope: worker, name: 'lint' });
    assert.ok(task);
    assert.equal(task.execution.options.cwd, '/w/worker');
    assert.equal(task.scope, worker);
  });

  test('the provided tasks: one per folder on disk', () => {
    assert.deepEqual(provider.provideTasks().map((task) => task.execution.options.cwd), ['/w/api', '/w/worker']);
  });
});
