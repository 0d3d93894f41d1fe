/** Hover, completion and quick fixes: thin adapters from LSP requests to core. */
import {
  CodeActionKind,
  CodeActionTriggerKind,
  CompletionItemKind,
  CompletionItemTag,
  InsertTextFormat,
  MarkupKind,
  type CancellationToken,
  type CodeAction,
  type CodeActionParams,
  type Command,
  type ExecuteCommandParams,
  type ResponseError,
  type CompletionParams,
  type HoverParams,
  type CompletionItem,
  type CompletionList,
  type Hover,
} from 'vscode-languageserver/node';
import { codeActions } from '../../core/language/code-actions';
import { fixAll } from '../../core/language/fix-all';
import type { LineIndex } from '../../core/model/positions';
import type { RegistryState } from '../../core/registry/types';
import type { Settings } from '../../core/rules/settings/settings';
import { DIAGNOSTIC_SOURCE } from '../../core/rules/diagnostic';
import { completeList, type CoreCompletionItem } from '../../core/language/complete';
import { plainCompletionText } from '../../core/language/snippet';
import { hover } from '../../core/language/hover';
import { markdownAsPlainText } from '../../core/language/plain-text';
import type { ServerContext } from '../context';
import { completionEdit } from '../completion-edit';
import { matchDiagnostics, mergeSameActions, toLspCodeAction, toLspEdit, toRange } from '../convert';
import { openEnvelopeFindings, withSuppressions } from '../project-files';
import { envelopes, envelopesAndSchemaFiles, requestHandler, type EnvelopeRequest, type SchemaFileRequest } from '../request';
import { schemaFileActions } from './schema-actions';
import { APPLY_FIX_COMMAND, asCommands, fixCommand } from './code-action-commands';

const COMPLETION_KINDS: Record<CoreCompletionItem['kind'], CompletionItemKind> = {
  property: CompletionItemKind.Property,
  value: CompletionItemKind.Value,
  enum: CompletionItemKind.EnumMember,
};

/** The kind of "fix all safe problems" (ESLint's is source.fixAll.eslint). */
export const FIX_ALL_KIND = `${CodeActionKind.SourceFixAll}.babelqueue`;

/** The code action kinds the server offers. */
export const CODE_ACTION_KINDS = [CodeActionKind.QuickFix, FIX_ALL_KIND];

/**
 * The document with every safe fix applied (core/language/fix-all.ts, what `babelq lint --fix`
 * writes), as one edit from the first changed character to the last, so the cursor and the
 * unchanged text around it stay where they are.
 */
function fixAllAction(uri: string, text: string, lines: LineIndex, settings: Settings, registry: RegistryState, context: ServerContext): CodeAction[] {
  // A finding the suppressions file hides is left as written: its fix is not applied.
  const result = fixAll(text, settings, registry, context.fresh, (doc, diagnostics) => withSuppressions(context, uri, doc, diagnostics));
  if (result.applied === 0) return [];
  let start = 0;
  while (start < text.length && start < result.text.length && text[start] === result.text[start]) start++;
  let end = 0;
  while (end < text.length - start && end < result.text.length - start && text[text.length - 1 - end] === result.text[result.text.length - 1 - end]) end++;
  const edit = { offset: start, end: text.length - end, newText: result.text.slice(start, result.text.length - end) };
  return [{ title: `Fix all safe BabelQueue problems (${result.applied})`, kind: FIX_ALL_KIND, edit: { changes: { [uri]: [toLspEdit(edit, lines)] } } }];
}

/** True when the kind a client asked for (`only`) includes `kind`: kinds are dotted paths, and the empty kind includes all. */
function includesKind(asked: string, kind: string): boolean {
  return asked === '' || kind === asked || kind.startsWith(`${asked}.`);
}

/**
 * How a client takes code actions: as CodeAction literals (it declares codeActionLiteralSupport),
 * as Commands the server runs and applies through workspace/applyEdit (it declares none, but
 * applyEdit), or not at all (neither: a command could not change its document).
 */
export type CodeActionsAs = 'literals' | 'commands' | 'none';

/**
 * `canCreateFiles`: the client applies edits that create files (a schema's "Register as a new URN…").
 * `snippetSupport`: the client expands snippets in completions; without it, each is sent as the
 * plain text it expands to (LSP: a server must not send snippets to a client that did not say it
 * takes them).
 * `markdownIn`: where the client renders Markdown (its hover and completion documentation content
 * formats); elsewhere the same text goes as plain text (core/language/plain-text.ts).
 * `insertReplace`: the client declares insertReplaceSupport (server/completion-edit.ts).
 * `codeActionsAs`: how the client takes code actions (CodeActionsAs). Returns the handler of the
 * command a client that takes them as commands runs (server.ts dispatches workspace/executeCommand).
 * `takesDocumentChanges`: the client declares workspace.workspaceEdit.documentChanges (the command
 * then sends its edit for the document's version: code-action-commands.ts).
 */
export function registerLanguageFeatures(
  context: ServerContext,
  canCreateFiles: () => boolean,
  snippetSupport: () => boolean = () => true,
  markdownIn: () => { readonly hover: boolean; readonly completion: boolean } = () => ({ hover: true, completion: true }),
  insertReplace: () => boolean = () => true,
  /** How a deprecated item is marked for the client: the Deprecated tag, the older `deprecated` flag, or not at all (LSP sends each only to a client that declares it). */
  deprecatedAs: () => 'tag' | 'flag' | 'none' = () => 'tag',
  /** Whether the client shows source actions only where asked for by kind (ServerInitializationOptions.sourceActionsByKindOnly). */
  sourceActionsByKindOnly: () => boolean = () => false,
  codeActionsAs: () => CodeActionsAs = () => 'literals',
  takesDocumentChanges: () => boolean = () => false,
): (params: ExecuteCommandParams, token: CancellationToken) => Promise<null | ResponseError<void>> {
  const { connection } = context;

  connection.onHover(
    requestHandler(context, 'hover', envelopes, null, ({ parsed, lines, registry }, params: HoverParams): Hover | null => {
      const result = hover(parsed, lines.offsetAt(params.position), registry);
      if (!result) return null;
      const contents = markdownIn().hover ? { kind: MarkupKind.Markdown, value: result.contents } : { kind: MarkupKind.PlainText, value: markdownAsPlainText(result.contents) };
      return { contents, range: toRange(lines, result.offset, result.end) };
    }),
  );

  connection.onCompletion(
    requestHandler(context, 'completion', envelopes, [], ({ parsed, lines, registry }, params: CompletionParams): CompletionItem[] | CompletionList => {
      const cursor = lines.offsetAt(params.position);
      const { items, incomplete } = completeList(parsed, cursor, context.fresh, registry);
      const text = parsed.text;
      const snippets = snippetSupport();
      const markdown = markdownIn().completion;
      const converted = items.map((item) => {
        const snippet = item.isSnippet && snippets;
        const newText = item.isSnippet && !snippets ? plainCompletionText(item.insertText) : item.insertText;
        const completion: CompletionItem = {
          label: item.label,
          kind: COMPLETION_KINDS[item.kind],
          ...completionEdit(text, lines, { offset: item.offset, end: item.end, label: item.label, newText, plain: !snippet }, cursor, insertReplace()),
          insertTextFormat: snippet ? InsertTextFormat.Snippet : InsertTextFormat.PlainText,
        };
        if (item.additionalEdits) completion.additionalTextEdits = item.additionalEdits.map((edit) => toLspEdit(edit, lines));
        if (item.detail) completion.detail = item.detail;
        if (item.documentation) completion.documentation = markdown ? { kind: MarkupKind.Markdown, value: item.documentation } : { kind: MarkupKind.PlainText, value: markdownAsPlainText(item.documentation) };
        if (item.sortText) completion.sortText = item.sortText;
        if (item.preselect) completion.preselect = true;
        if (item.deprecated && deprecatedAs() === 'tag') completion.tags = [CompletionItemTag.Deprecated];
        else if (item.deprecated && deprecatedAs() === 'flag') completion.deprecated = true;
        return completion;
      });
      // A large registry's URNs come a slice at a time: the editor asks again as the user types.
      return incomplete ? { isIncomplete: true, items: converted } : converted;
    }),
  );

  // The code actions for a request, with their edits: the answer to a client that takes literals,
  // and what babelqueue.applyFix asks again when a client that takes commands runs one.
  const answerCodeActions = (request: EnvelopeRequest | SchemaFileRequest, params: CodeActionParams): CodeAction[] => {
    const only = params.context.only;
    const quickFixes = !only || only.some((asked) => includesKind(asked, CodeActionKind.QuickFix));
    if (request.kind === 'schema file') return quickFixes ? schemaFileActions(context, request, params, canCreateFiles()) : [];
    const { document, parsed, lines, settings, registry } = request;
    // Fix all is a source action: offered when asked for by its kind or a kind above it
    // (`editor.codeActionsOnSave: { "source.fixAll.babelqueue": "explicit" }`, "source.fixAll",
    // or "source" from VS Code's Source Action… and Neovim's code_action({ context = { only = { "source" } } })),
    // and in the plain menu the user opens, which names no kind (Neovim's vim.lsp.buf.code_action(),
    // eglot-code-actions, Helix): a request without `only` that the user invoked. One the client
    // makes by itself (triggerKind Automatic: VS Code's lightbulb on each cursor move) is not
    // made to apply every fix; a client that sends no triggerKind asks only when the user does.
    // VS Code drops source actions from a menu that did not ask for them: its extension says so.
    const invoked = params.context.triggerKind !== CodeActionTriggerKind.Automatic && !sourceActionsByKindOnly();
    const fixAllAsked = only ? only.some((asked) => asked !== '' && includesKind(asked, FIX_ALL_KIND)) : invoked;
    const sourceActions = fixAllAsked ? fixAllAction(document.uri, parsed.text, lines, settings, registry, context) : [];
    if (!quickFixes) return sourceActions;
    // As published: a finding whose suppression expired says so in its message, which the client sends back.
    const diagnostics = openEnvelopeFindings(context, document, settings, registry).findings;
    const wanted = params.context.diagnostics.filter((diagnostic) => diagnostic.source === DIAGNOSTIC_SOURCE);
    const sent = matchDiagnostics(wanted, diagnostics, lines, parsed.text);
    const matched = diagnostics.filter((core) => sent.has(core));
    // An envelope's fixes edit the envelope alone; one that would write other files is a schema file's (schema-actions.ts).
    const fixes = mergeSameActions(
      codeActions(parsed, matched, context.fresh, registry)
        .filter((action) => !action.otherFiles)
        .map((action) => toLspCodeAction(action, document.uri, lines, sent.get(action.diagnostic) ?? [])),
    );
    return [...fixes, ...sourceActions];
  };

  let saidNone = false;
  connection.onCodeAction(
    requestHandler(context, 'codeAction', envelopesAndSchemaFiles, [], (request, params: CodeActionParams): (CodeAction | Command)[] => {
      const as = codeActionsAs();
      if (as === 'none') {
        if (!saidNone) {
          saidNone = true;
          connection.console.warn(
            `The client takes code actions as commands only (it declares no textDocument.codeAction.codeActionLiteralSupport) and cannot apply an edit the server sends (it declares no workspace.applyEdit): quick fixes and fix all are not offered to it.`,
          );
        }
        return [];
      }
      const actions = answerCodeActions(request, params);
      return as === 'literals' ? actions : asCommands(actions, request.document.uri, request.document.version);
    }),
  );

  // The same answer, for the command that applies one of them (code-action-commands.ts).
  return fixCommand(context, CODE_ACTION_KINDS, requestHandler(context, APPLY_FIX_COMMAND, envelopesAndSchemaFiles, [], answerCodeActions), takesDocumentChanges);
}
