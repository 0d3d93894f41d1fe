/**
 * The `babelq` task type: a TaskProvider that offers "babelq: lint" for each workspace folder and
 * runs tasks.json's `{ "type": "babelq", … }` definitions. The task runs the CLI bundled in the
 * extension (dist/cli.js) on VS Code's own Node, so nothing has to be installed, and its output
 * fills the Problems panel through `$babelq`, for fixtures that are not open as well. A task of a
 * folder's tasks.json runs in that folder; one of a `.code-workspace` file (scope: the workspace)
 * runs in the folder its `folder` names, else in the first workspace folder on disk. A task that
 * cannot run (its `folder` names no folder on disk) is still resolved, to one that says why when it
 * is run: VS Code resolves tasks each time it lists them, so a message at resolving would come
 * again and again, and a task left unresolved is only "There are task errors" in its words.
 */
import * as vscode from 'vscode';
import { lintTaskArgs, PROBLEM_MATCHER, TASK_TYPE, type LintTaskOptions } from './task-command';
import { quotedName } from './quoted-text';

type LintTaskDefinition = vscode.TaskDefinition &
  LintTaskOptions & {
    /** The name of the workspace folder a task of a `.code-workspace` file runs in (default: the first on disk). */
    readonly folder?: string;
  };

/** The folders a task can run in: those on disk (the CLI reads the folder's files). */
function foldersOnDisk(): readonly vscode.WorkspaceFolder[] {
  return (vscode.workspace.workspaceFolders ?? []).filter((folder) => folder.uri.scheme === 'file');
}

/**
 * The folder a task of the whole workspace (a `.code-workspace` file's, or a user task) runs in:
 * the one its `folder` names, else the first on disk; or why it cannot run.
 */
function workspaceTaskFolder(task: vscode.Task, definition: LintTaskDefinition): vscode.WorkspaceFolder | { readonly cannotRun: string } {
  const folders = foldersOnDisk();
  // The label and the folder's name are the checkout's text, written to a terminal: cut, on one
  // line, and with no escape sequence of theirs (client/quoted-text.ts).
  const label = `The babelq task "${quotedName(task.name)}"`;
  if (folders.length === 0) return { cannotRun: `${label} cannot run: it needs a workspace folder on disk, and this workspace has none.` };
  const named = typeof definition.folder === 'string' && definition.folder !== '' ? definition.folder : undefined;
  if (named === undefined) return folders[0]!;
  const folder = folders.find((candidate) => candidate.name === named);
  if (folder) return folder;
  const names = folders.map((candidate) => `"${quotedName(candidate.name)}"`).join(', ');
  return { cannotRun: `${label} names the folder "${quotedName(named)}", which is not a workspace folder on disk. Set its "folder" to one of ${names}, or leave it out to run in the first.` };
}

/** A task that runs nothing: run, it says `reason` in its terminal and as an error, and ends with exit code 1. */
function taskThatCannotRun(definition: LintTaskDefinition, reason: string): vscode.Task {
  const execution = new vscode.CustomExecution(async () => {
    const written = new vscode.EventEmitter<string>();
    const closed = new vscode.EventEmitter<number>();
    return {
      onDidWrite: written.event,
      onDidClose: closed.event,
      open: () => {
        written.fire(`${reason}\r\n`);
        void vscode.window.showErrorMessage(reason);
        closed.fire(1);
      },
      // VS Code closes the terminal once it has closed: nothing stays subscribed.
      close: () => {
        written.dispose();
        closed.dispose();
      },
    };
  });
  return new vscode.Task(definition, vscode.TaskScope.Workspace, 'lint', 'babelq', execution, []);
}

export function registerLintTasks(context: vscode.ExtensionContext): void {
  const cli = context.asAbsolutePath('dist/cli.js');
  const makeTask = (definition: LintTaskDefinition, folder: vscode.WorkspaceFolder, absolutePaths = false): vscode.Task => {
    // A task of the whole workspace is given --absolute-paths, so the CLI names each file by its
    // absolute path (fixtures, babelq.json, registry.json and schema files, which it names relative
    // to the folder it runs in otherwise): VS Code resolves `$babelq`'s
    // `${workspaceFolder}` for such a task as the first folder, which would place the findings of a
    // task run in another folder on the wrong files.
    const args = lintTaskArgs(definition, absolutePaths);
    // ELECTRON_RUN_AS_NODE: in desktop VS Code the executable is Electron; this makes it plain Node.
    const execution = new vscode.ProcessExecution(process.execPath, [cli, ...args], {
      cwd: folder.uri.fsPath,
      env: { ELECTRON_RUN_AS_NODE: '1' },
    });
    const task = new vscode.Task(definition, folder, 'lint', 'babelq', execution, [PROBLEM_MATCHER]);
    task.group = vscode.TaskGroup.Test;
    task.presentationOptions = { reveal: vscode.TaskRevealKind.Silent, clear: true };
    return task;
  };
  context.subscriptions.push(
    vscode.tasks.registerTaskProvider(TASK_TYPE, {
      provideTasks: () => foldersOnDisk().map((folder) => makeTask({ type: TASK_TYPE }, folder)),
      resolveTask: (task) => {
        const definition = task.definition as LintTaskDefinition;
        // A folder's own task runs in that folder (its `folder` is for tasks of the whole workspace).
        if (typeof task.scope === 'object') return task.scope.uri.scheme === 'file' ? makeTask(definition, task.scope) : undefined;
        const folder = workspaceTaskFolder(task, definition);
        return 'cannotRun' in folder ? taskThatCannotRun(definition, folder.cannotRun) : makeTask(definition, folder, true);
      },
    }),
  );
}
