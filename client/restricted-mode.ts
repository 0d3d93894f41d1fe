/**
 * The refusal of a broker command in Restricted Mode: a warning that says why, with the way out it
 * names one click away (VS Code's Workspace Trust editor), rather than left for the user to find.
 */
import * as vscode from 'vscode';
import { unlinked } from './quoted-text';

/** The button, and VS Code's own command behind it ("Workspaces: Manage Workspace Trust"). */
export const MANAGE_TRUST = 'Manage Workspace Trust';
const MANAGE_TRUST_COMMAND = 'workbench.trust.manage';

/** Shows `reason`, and opens the Workspace Trust editor when its button is clicked. Not awaited by the commands: they end at once. */
export async function refuseUntrusted(reason: string): Promise<void> {
  const answer = await vscode.window.showWarningMessage(unlinked(reason), MANAGE_TRUST);
  if (answer === MANAGE_TRUST) await vscode.commands.executeCommand(MANAGE_TRUST_COMMAND);
}
