/**
 * Quick fixes and fix all as Commands, for a client that takes no CodeAction literals (LSP 3.17:
 * a client that does not declare textDocument.codeAction.codeActionLiteralSupport takes Command[]
 * only; older vim-lsp, LanguageClient-neovim, kak-lsp). Each action becomes the command
 * `babelqueue.applyFix`, whose arguments name the fix (its kind, a digest of its title, the one
 * finding it was offered for) and the document's version, never its edit: fix all of a large
 * fixture is an edit of megabytes, which the client would hold and send back (and a title may quote
 * a value of the fixture whole, thousands of characters, where the digest stays 64). Run, the
 * command asks the code-action handler for the same fix again on the same version and has the
 * client apply its edit (workspace/applyEdit); a document changed or closed since is refused with
 * a message, not edited from a position that no longer means what it did. A client that declares
 * workspace.workspaceEdit.documentChanges is sent the edit as a TextDocumentEdit naming that
 * version, so a keystroke between the server's check and the client's applying it makes the client
 * refuse the edit rather than apply it at positions that moved.
 */
import { createHash } from 'node:crypto';
import { ErrorCodes, MessageType, ResponseError, type CancellationToken, type CodeAction, type CodeActionParams, type Command, type Diagnostic, type ExecuteCommandParams, type TextDocumentEdit, type WorkspaceEdit } from 'vscode-languageserver/node';
import { shortened } from '../../core/model/describe-value';
import { unlinked } from '../../core/language/markdown';
import type { ServerContext } from '../context';
import { actionTitle } from '../convert';
import { guard } from '../guard';
import { uriForLog } from '../log-uri';
import { isRange, isRecord, isUri } from '../request-shape';

export const APPLY_FIX_COMMAND = 'babelqueue.applyFix';

/** What a command names: never the edit, which is worked out again when it runs. */
interface FixArguments {
  readonly uri: string;
  readonly version: number;
  readonly kind: string;
  /** The SHA-256 of the fix's title, in hex: which of the fixes found again is this one. */
  readonly fix: string;
  /** The title as a message quotes it (shortened). */
  readonly label: string;
  /** The finding a quick fix was offered for, as the client sent it (fix all is offered for none). */
  readonly diagnostic?: Diagnostic;
}

/** How much of a title or a client's reason a message quotes. */
const QUOTED_CHARS = 120;
const DIGEST = /^[0-9a-f]{64}$/;

function titleDigest(title: string): string {
  return createHash('sha256').update(title).digest('hex');
}

/** The code actions offered as commands, each naming the fix and the document version it was offered for. */
export function asCommands(actions: readonly CodeAction[], uri: string, version: number): Command[] {
  const commands: Command[] = [];
  for (const action of actions) {
    if (action.kind === undefined) continue;
    // A quick fix is found again by one of its findings (a merged action's edit is the same for each).
    const sent = action.diagnostics?.[0];
    if (action.kind === 'quickfix' && sent === undefined) continue;
    const diagnostic = sent && { range: sent.range, message: sent.message, ...(sent.code !== undefined ? { code: sent.code } : {}), ...(sent.source !== undefined ? { source: sent.source } : {}) };
    const args: FixArguments = { uri, version, kind: action.kind, fix: titleDigest(action.title), label: shortened(action.title, QUOTED_CHARS), ...(diagnostic ? { diagnostic } : {}) };
    commands.push({ title: action.title, command: APPLY_FIX_COMMAND, arguments: [args] });
  }
  return commands;
}

/** The arguments as the server gives them, or undefined. */
function fixArguments(value: unknown, kinds: readonly string[]): FixArguments | undefined {
  if (!isRecord(value) || !isUri(value.uri) || !Number.isInteger(value.version)) return undefined;
  if (typeof value.kind !== 'string' || !kinds.includes(value.kind)) return undefined;
  if (typeof value.fix !== 'string' || !DIGEST.test(value.fix) || typeof value.label !== 'string' || value.label.length > QUOTED_CHARS) return undefined;
  const diagnostic = value.diagnostic;
  if (diagnostic === undefined) return value.kind === 'quickfix' ? undefined : (value as unknown as FixArguments);
  if (!isRecord(diagnostic) || !isRange(diagnostic.range) || typeof diagnostic.message !== 'string') return undefined;
  return value as unknown as FixArguments;
}

/**
 * The edit as `documentChanges`, each document's edits named by its version: the fixed document's
 * by the version the fix was worked out for, another open one's by its own, a closed one's by none
 * (LSP: null, the file as it is on disk). An edit already in documentChanges names its versions.
 */
function versionedEdit(context: ServerContext, edit: WorkspaceEdit, uri: string, version: number): WorkspaceEdit {
  if (edit.documentChanges !== undefined || edit.changes === undefined) return edit;
  const documentChanges: TextDocumentEdit[] = Object.entries(edit.changes).map(([target, edits]) => ({
    textDocument: { uri: target, version: target === uri ? version : (context.documents.get(target)?.version ?? null) },
    edits,
  }));
  return { documentChanges };
}

/**
 * The command's handler. `actionsFor`: the code-action handler's answer for a request, the same
 * path the client's own textDocument/codeAction takes. `kinds`: the kinds the server offers.
 * `takesDocumentChanges`: the client declares workspace.workspaceEdit.documentChanges.
 */
export function fixCommand(
  context: ServerContext,
  kinds: readonly string[],
  actionsFor: (params: CodeActionParams, token: CancellationToken) => Promise<CodeAction[]>,
  takesDocumentChanges: () => boolean = () => false,
): (params: ExecuteCommandParams, token: CancellationToken) => Promise<null | ResponseError<void>> {
  const { connection } = context;
  const refuse = (title: string, why: string): null => {
    void connection.sendNotification('window/showMessage', { type: MessageType.Warning, message: unlinked(`"${actionTitle(title)}" was not applied: ${why}`) });
    return null;
  };
  // A failure is logged and answered with an error, not left to end the server.
  return guard(connection.console, APPLY_FIX_COMMAND, async (params: ExecuteCommandParams, token: CancellationToken): Promise<null | ResponseError<void>> => {
    const args = fixArguments(params.arguments?.[0], kinds);
    if (args === undefined) return new ResponseError(ErrorCodes.InvalidParams, `${APPLY_FIX_COMMAND} takes [{ uri, version, kind, fix, label, diagnostic }], as a code action the server offered names them.`);
    const { uri, version, kind, fix, label: title, diagnostic } = args;
    const file = uriForLog(uri);
    const document = context.documents.get(uri);
    if (document === undefined) return refuse(title, `${file} is not open.`);
    const changed = `${file} changed since the fix was offered; ask for the code actions again.`;
    if (document.version !== version) return refuse(title, changed);
    const range = diagnostic?.range ?? { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };
    const actions = await actionsFor({ textDocument: { uri }, range, context: { diagnostics: diagnostic ? [diagnostic] : [], only: [kind] } }, token);
    // An edit may come while the fix is worked out: then it was worked out for a text no longer there.
    if (context.documents.get(uri) !== document || document.version !== version) return refuse(title, changed);
    const action = actions.find((candidate) => candidate.kind === kind && titleDigest(candidate.title) === fix);
    if (action?.edit === undefined) return refuse(title, `it is no longer offered for ${file} (the registry or the settings changed since); ask for the code actions again.`);
    try {
      const edit = takesDocumentChanges() ? versionedEdit(context, action.edit, uri, version) : action.edit;
      const result = await connection.workspace.applyEdit({ label: action.title, edit });
      if (!result.applied) return refuse(title, `the editor did not apply its edit${result.failureReason ? ` (${shortened(result.failureReason, QUOTED_CHARS)})` : ''}.`);
    } catch (error) {
      return refuse(title, `the editor refused workspace/applyEdit (${shortened(error instanceof Error ? error.message : String(error), QUOTED_CHARS)}).`);
    }
    return null;
  }, new ResponseError(ErrorCodes.InternalError, 'The fix failed; see the server log.'));
}
