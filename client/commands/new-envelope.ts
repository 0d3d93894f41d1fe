/**
 * "BabelQueue: New Envelope…": pick a URN from the workspace's registry and open an untitled
 * envelope for it. The server does the work (it owns the registry and its schemas); this side
 * only asks, shows the picker and opens the result.
 */
import * as vscode from 'vscode';
// A type import only: the module is loaded by the extension, never here (so this file loads without it).
import type { LanguageClient } from 'vscode-languageclient/node';
import { pickOrder } from '../../core/language/new-envelope';
import {
  ENVELOPE_LANGUAGE_ID,
  NEW_ENVELOPE_METHOD,
  REGISTRY_ENTRIES_METHOD,
  type NewEnvelopeParams,
  type NewEnvelopeResult,
  type RegistryEntriesParams,
  type RegistryEntriesResult,
  type RegistryEntrySummary,
} from '../../core/language/protocol';
import { acceptsRequests } from '../server-request';
import { labelName, quotedName, quotedText, unlinked } from '../quoted-text';

export const NEW_ENVELOPE_COMMAND = 'babelqueue.newEnvelope';
const TITLE = 'BabelQueue: New Envelope';


interface EntryItem extends vscode.QuickPickItem {
  readonly urn?: string;
}

/** Registers `babelqueue.newEnvelope` against the running language client. */
export function registerNewEnvelopeCommand(context: vscode.ExtensionContext, client: LanguageClient): void {
  context.subscriptions.push(vscode.commands.registerCommand(NEW_ENVELOPE_COMMAND, () => newEnvelope(client)));
}

async function newEnvelope(client: LanguageClient): Promise<void> {
  // Starting is good enough: the client holds the requests below until the start is done.
  if (!acceptsRequests(client)) {
    void vscode.window.showWarningMessage(`${TITLE}: the BabelQueue language server is not running; see the BabelQueue output.`);
    return;
  }
  const target = await targetUri();
  if (target === 'cancelled') return;
  const uri = target?.toString();

  let result: RegistryEntriesResult;
  try {
    result = await client.sendRequest<RegistryEntriesResult>(REGISTRY_ENTRIES_METHOD, { uri } satisfies RegistryEntriesParams);
  } catch (error) {
    void vscode.window.showErrorMessage(`${TITLE}: could not read the registry: ${unlinked(messageOf(error))}`);
    return;
  }
  if (result.error) {
    // The registry's file name and its error quote the checkout's text: cut and on one line.
    const which = result.registryPath ? `the registry ${quotedText(result.registryPath)}` : 'the registry';
    void vscode.window.showWarningMessage(`${TITLE}: ${which} cannot be used: ${quotedText(result.error)}`);
    return;
  }
  if (!result.registryPath) {
    void vscode.window.showInformationMessage(
      `${TITLE}: no registry.json found. Set "babelqueue.registry.path" or add a registry.json (bqschema format) at or above your fixtures in the workspace folder.`,
    );
    return;
  }
  if (result.entries.length === 0) {
    void vscode.window.showInformationMessage(`${TITLE}: ${quotedText(result.registryPath)} has no entries; add one to its "schemas" list first.`);
    return;
  }

  const picked = await vscode.window.showQuickPick(pickItems(result.entries), {
    title: TITLE,
    placeHolder: `Pick the message URN (from ${quotedText(vscode.workspace.asRelativePath(result.registryPath))})`,
    matchOnDescription: true,
  });
  if (!picked?.urn) return;

  let created: NewEnvelopeResult;
  try {
    created = await client.sendRequest<NewEnvelopeResult>(NEW_ENVELOPE_METHOD, { uri, urn: picked.urn } satisfies NewEnvelopeParams);
  } catch (error) {
    void vscode.window.showErrorMessage(`${TITLE}: could not create an envelope for ${quotedName(picked.urn)}: ${unlinked(messageOf(error))}`);
    return;
  }
  const document = await vscode.workspace.openTextDocument({ language: ENVELOPE_LANGUAGE_ID, content: created.text });
  await vscode.window.showTextDocument(document);
}

/** Active entries in registry order, then a separator and the deprecated ones, marked. */
function pickItems(entries: readonly RegistryEntrySummary[]): EntryItem[] {
  const items: EntryItem[] = [];
  let separated = false;
  for (const entry of pickOrder(entries)) {
    if (entry.deprecated && !separated) {
      items.push({ label: 'deprecated, retired or sunset', kind: vscode.QuickPickItemKind.Separator });
      separated = true;
    }
    // The registry is the checkout's text: its URN, owner and status shown cut, on one line and never
    // as an icon (the URN asked for is the whole one); the warning icon before a deprecated URN is ours.
    const description = [entry.owner, entry.status].filter((part): part is string => part !== undefined && part !== '').map(labelName).join(' · ');
    items.push({
      label: entry.deprecated ? `$(warning) ${labelName(entry.urn)}` : labelName(entry.urn),
      description: description || undefined,
      // The registry names no successor (bqschema's format has no such field): say what the status means, not which URN.
      detail: entry.deprecated ? `"${labelName(entry.status ?? '')}" in the registry: a new fixture belongs to the URN that replaces it (mint one if none is registered).` : undefined,
      urn: entry.urn,
    });
  }
  return items;
}

/**
 * The registry is found from a location: the active file's, else the workspace folder's (asked
 * for in a multi-root workspace). Undefined when there is neither; 'cancelled' when the user
 * dismissed the folder picker.
 */
async function targetUri(): Promise<vscode.Uri | undefined | 'cancelled'> {
  const active = vscode.window.activeTextEditor?.document.uri;
  if (active && active.scheme === 'file') return active;
  const folders = vscode.workspace.workspaceFolders ?? [];
  if (folders.length <= 1) return folders[0]?.uri;
  const folder = await vscode.window.showWorkspaceFolderPick({ placeHolder: 'Which workspace folder’s registry?' });
  return folder ? folder.uri : 'cancelled';
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
