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
import { guard } from '../guard';
import { isEnvelopeDocument } from './diagnostics';

const COMPLETION_KINDS: Record<CoreCompletionItem['kind'], CompletionItemKind> = {
  property: CompletionItemKind.Property,
  value: CompletionItemKind.Value,
  enum: CompletionItemKind.EnumMember,
};

export function registerLanguageFeatures(context: ServerContext): void {
  const { connection, documents, cache } = context;
  const log = connection.console;

  connection.onHover(
    guard(log, 'hover', async (params: HoverParams): Promise<Hover | null> => {
      const document = documents.get(params.textDocument.uri);
      if (!document) return null;
      if (!isEnvelopeDocument(document)) return null;
      const entry = cache.get(document);
      const registry = context.registries.stateFor(document.uri, await context.settings.forDocument(document.uri));
      const result = hover(entry.parsed, entry.lines.offsetAt(params.position), registry);
      if (!result) return null;
      return { contents: { kind: MarkupKind.Markdown, value: result.contents }, range: toRange(entry.lines, result.offset, result.end) };
    }, null),
  );

  connection.onCompletion(
    guard(log, 'completion', async (params: CompletionParams): Promise<CompletionItem[]> => {
      const document = documents.get(params.textDocument.uri);
      if (!document) return [];
      if (!isEnvelopeDocument(document)) return [];
      const entry = cache.get(document);
      const registry = context.registries.stateFor(document.uri, await context.settings.forDocument(document.uri));
      const items = complete(entry.parsed, entry.lines.offsetAt(params.position), context.fresh, registry);
      const text = entry.parsed.text;
      return items.map((item) => {
        const range = toRange(entry.lines, item.offset, item.end);
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
    }, []),
  );

  connection.onCodeAction(
    guard(log, 'codeAction', async (params: CodeActionParams): Promise<CodeAction[]> => {
      const document = documents.get(params.textDocument.uri);
      if (!document) return [];
      if (params.context.only && !params.context.only.some((kind) => CodeActionKind.QuickFix.startsWith(kind))) return [];
      if (!isEnvelopeDocument(document)) return [];
      const settings = await context.settings.forDocument(document.uri);
      const registry = context.registries.stateFor(document.uri, settings);
      const { entry, diagnostics } = cache.diagnostics(document, settings, registry);
      const wanted = params.context.diagnostics.filter((diagnostic) => diagnostic.source === DIAGNOSTIC_SOURCE);
      const matched = diagnostics.filter((core) => wanted.some((lsp) => sameDiagnostic(lsp, core, entry.lines)));
      return codeActions(entry.parsed, matched, context.fresh, registry).map((action) => ({
        title: action.title,
        kind: CodeActionKind.QuickFix,
        isPreferred: action.isPreferred,
        diagnostics: wanted.filter((lsp) => sameDiagnostic(lsp, action.diagnostic, entry.lines)),
        edit: { changes: { [document.uri]: action.edits.map((edit) => toLspEdit(edit, entry.lines)) } },
      }));
    }, []),
  );
}
