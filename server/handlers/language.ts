/** Hover, completion and quick fixes: thin adapters from LSP requests to core. */
import {
  CodeActionKind,
  CompletionItemKind,
  CompletionItemTag,
  InsertTextFormat,
  MarkupKind,
  type CodeAction,
  type CodeActionParams,
  type CompletionParams,
  type HoverParams,
  type CompletionItem,
  type Hover,
} from 'vscode-languageserver/node';
import { codeActions } from '../../core/language/code-actions';
import { DIAGNOSTIC_SOURCE } from '../../core/rules/diagnostic';
import { complete, type CoreCompletionItem } from '../../core/language/complete';
import { hover } from '../../core/language/hover';
import type { ServerContext } from '../context';
import { sameDiagnostic, toLspEdit, toRange } from '../convert';
import { envelopes, requestHandler } from '../request';

const COMPLETION_KINDS: Record<CoreCompletionItem['kind'], CompletionItemKind> = {
  property: CompletionItemKind.Property,
  value: CompletionItemKind.Value,
  enum: CompletionItemKind.EnumMember,
};

export function registerLanguageFeatures(context: ServerContext): void {
  const { connection } = context;

  connection.onHover(
    requestHandler(context, 'hover', envelopes, null, ({ parsed, lines, registry }, params: HoverParams): Hover | null => {
      const result = hover(parsed, lines.offsetAt(params.position), registry);
      if (!result) return null;
      return { contents: { kind: MarkupKind.Markdown, value: result.contents }, range: toRange(lines, result.offset, result.end) };
    }),
  );

  connection.onCompletion(
    requestHandler(context, 'completion', envelopes, [], ({ parsed, lines, registry }, params: CompletionParams): CompletionItem[] => {
      const items = complete(parsed, lines.offsetAt(params.position), context.fresh, registry);
      const text = parsed.text;
      return items.map((item) => {
        const range = toRange(lines, item.offset, item.end);
        const completion: CompletionItem = {
          label: item.label,
          kind: COMPLETION_KINDS[item.kind],
          textEdit: { range, newText: item.insertText },
          insertTextFormat: item.isSnippet ? InsertTextFormat.Snippet : InsertTextFormat.PlainText,
          // The editor filters on the text being replaced, quotes included.
          filterText: text[item.offset] === '"' ? JSON.stringify(item.label) : item.label,
        };
        if (item.detail) completion.detail = item.detail;
        if (item.documentation) completion.documentation = { kind: MarkupKind.Markdown, value: item.documentation };
        if (item.sortText) completion.sortText = item.sortText;
        if (item.preselect) completion.preselect = true;
        if (item.deprecated) completion.tags = [CompletionItemTag.Deprecated];
        return completion;
      });
    }),
  );

  connection.onCodeAction(
    requestHandler(context, 'codeAction', envelopes, [], ({ document, parsed, lines, settings, registry }, params: CodeActionParams): CodeAction[] => {
      if (params.context.only && !params.context.only.some((kind) => CodeActionKind.QuickFix.startsWith(kind))) return [];
      const { diagnostics } = context.cache.diagnostics(document, settings, registry);
      const wanted = params.context.diagnostics.filter((diagnostic) => diagnostic.source === DIAGNOSTIC_SOURCE);
      const matched = diagnostics.filter((core) => wanted.some((lsp) => sameDiagnostic(lsp, core, lines)));
      return codeActions(parsed, matched, context.fresh, registry).map((action) => ({
        title: action.title,
        kind: CodeActionKind.QuickFix,
        isPreferred: action.isPreferred,
        diagnostics: wanted.filter((lsp) => sameDiagnostic(lsp, action.diagnostic, lines)),
        edit: { changes: { [document.uri]: action.edits.map((edit) => toLspEdit(edit, lines)) } },
      }));
    }),
  );
}
