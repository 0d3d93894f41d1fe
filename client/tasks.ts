/**
 * The `babelq` task type: a TaskProvider that offers "babelq: lint" for each workspace folder and
 * runs tasks.json's `{ "type": "babelq", … }` definitions. The task runs the CLI bundled in the
 * extension (dist/cli.js) on VS Code's own Node, so nothing has to be installed, and its output
 * fills the Problems panel through `$babelq`, for fixtures that are not open as well.
 */
import * as vscode from 'vscode';
import { lintTaskArgs, PROBLEM_MATCHER, TASK_TYPE, type LintTaskOptions } from './task-command';

type LintTaskDefinition = vscode.TaskDefinition & LintTaskOptions;

export function registerLintTasks(context: vscode.ExtensionContext): void {
  const cli = context.asAbsolutePath('dist/cli.js');
  const makeTask = (definition: LintTaskDefinition, folder: vscode.WorkspaceFolder): vscode.Task => {
    // ELECTRON_RUN_AS_NODE: in desktop VS Code the executable is Electron; this makes it plain Node.
    const execution = new vscode.ProcessExecution(process.execPath, [cli, ...lintTaskArgs(definition)], {
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
      provideTasks: () => (vscode.workspace.workspaceFolders ?? []).filter((folder) => folder.uri.scheme === 'file').map((folder) => makeTask({ type: TASK_TYPE }, folder)),
      resolveTask: (task) => {
        const folder = task.scope;
        if (typeof folder !== 'object' || folder.uri.scheme !== 'file') return undefined;
        return makeTask(task.definition as LintTaskDefinition, folder);
      },
    }),
  );
}
